"""Ymlad (seed 002): effort against resistance moved by the drift die; four fighting styles,
harm against a tunable harm threshold. See docs/rules/ymlad.md."""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.engine.status import TrialOutcome
from balance.rules.base import RuleSystem
from balance.rules.ymlad.compile import YmladFight, compile_fight
from balance.rules.ymlad.kernel import fight as kernel


class YmladSystem(RuleSystem):
    """The Ymlad rule system behind the shared protocol (``balance.rules.base.RuleSystem``)."""

    ruleset = "ymlad"
    has_distance = True
    has_exact_duels = True
    breakdown_metrics = frozenset({"attacks", "hits", "damage_dealt", "damage_soaked",
                                   "rounds_standing"})
    """The breakdown (``kernel.fight.act``, ``flight``): ``attacks``, every skirmish roll made
    (missile, melee, formation, close; closing and disengaging attempts too, seed 002:
    "he/she must first make a successful melee attack ... to close the distance");
    ``hits``, those won; ``damage_dealt``, the harm points of the harming ones, after
    armour; ``damage_soaked``, the harm points armour took off them (seed 002, Harm
    reduction: the same harm roll against the defender unarmoured, less the harm done).
    The drift die has no fumble or critical."""

    def compile(self, scenario: Any, tables: Any) -> YmladFight:
        return compile_fight(scenario, tables)

    def start(self, fight: YmladFight, n: int, rng: np.random.Generator) -> kernel.YmladState:
        return kernel.start(fight, n, rng)

    def play_round(self, fight: YmladFight, state: kernel.YmladState,
                   rng: np.random.Generator, round_no: int) -> None:
        kernel.play_round(fight, state, rng, round_no)

    def exact_duel(self, fight: YmladFight):
        """A duel in contact as a Markov chain (``exact.py``; docs/exact.md)."""
        from balance.rules.ymlad.exact import duel_model

        return duel_model(fight)

    def examples(self):
        from balance.rules.ymlad.examples import EXAMPLES

        return EXAMPLES

    def reference_trial(self, fight: YmladFight, rng: np.random.Generator) -> TrialOutcome:
        from balance.rules.ymlad.reference.fight import reference_trial

        return reference_trial(fight, rng)
