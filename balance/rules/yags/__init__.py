"""Yags (seed 000): d20 + attribute x skill, wounds and stuns, stances. See docs/rules/yags.md."""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.engine.status import TrialOutcome
from balance.rules.base import RuleSystem
from balance.rules.yags.compile import YagsFight, compile_fight
from balance.rules.yags.kernel import counting
from balance.rules.yags.kernel import fight as kernel
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.rules.after import FightWithAftermath, alive_after, plan_of


class YagsSystem(RuleSystem):
    """The Yags rule system behind the shared protocol (``balance.rules.base.RuleSystem``)."""

    ruleset = "yags"
    has_distance = True
    has_aftermath = True
    has_exact_duels = True
    # The basic duel's chain (~56,000 states, 2-3 million transitions) takes longer to build
    # than the kernel takes for 250,000 fights (docs/exact.md, Yags): auto samples.
    exact_by_default = False
    exact_auto_note = ("the exact engine covers basic yags duels but is slower than sampling "
                       "them (--engine exact solves them)")
    breakdown_metrics = counting.METRICS   # what each counts: vector/counting.py

    def compile(self, scenario: Any, tables: Any) -> YagsFight:
        fight = compile_fight(scenario, tables)
        plan = plan_of(scenario)
        return fight if plan is None else FightWithAftermath(fight, plan)

    def start(self, fight: YagsFight, n: int, rng: np.random.Generator) -> kernel.YagsState:
        return kernel.start(fight, n, rng)

    def play_round(self, fight: YagsFight, state: kernel.YagsState, rng: np.random.Generator,
                   round_no: int) -> None:
        kernel.play_round(fight, state, rng, round_no)

    def stackable(self, fight: YagsFight) -> bool:
        """Can blocks of this fight be played stacked (``balance.engine.streams``)? Basic
        fights whose every draw names its columns (``vector/static.stackable``: duels, and
        group fights without morale or a mix of ``first`` and other target policies)."""
        return static_of(fight).stackable and not fight.explosions

    def tracks(self, state: kernel.YagsState) -> dict[str, np.ndarray]:
        """Wound and stun tracks, by place, for the after-battle rules."""
        return {"wounds": state.wounds, "stuns": state.stuns}

    def after_battle(self, fight: Any, out: Any, rng: np.random.Generator) -> np.ndarray:
        """Who is alive after the scenario's aftermath (seed 000, untended wounds)."""
        return alive_after(fight, out, rng)

    def exact_duel(self, fight: YagsFight):
        """A basic duel as a Markov chain (``exact.py``; docs/exact.md, "Yags")."""
        from balance.rules.yags.exact import duel_model

        return duel_model(fight)

    def examples(self):
        from balance.rules.yags.examples import EXAMPLES

        return EXAMPLES

    def reference_trial(self, fight: YagsFight, rng: np.random.Generator) -> TrialOutcome:
        from balance.rules.yags.reference.fight import reference_trial

        return reference_trial(fight, rng)
