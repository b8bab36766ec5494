"""The percentile system: a Basic Roleplaying / Stormbringer-style core with seed 004's
situational rules. See docs/rules/percentile.md."""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.engine.status import TrialOutcome
from balance.rules.base import RuleSystem
from balance.rules.percentile.compile import PercentileFight, compile_fight
from balance.rules.percentile.kernel import counting


class PercentileSystem(RuleSystem):
    """The percentile rule system behind the shared protocol (``balance.rules.base``)."""

    ruleset = "percentile"
    has_distance = True
    has_exact_duels = True
    # A plain duel's chain has 10^5 or more states (hit points times the flags the rules
    # keep): its exact answer takes longer than 250,000 sampled fights (docs/exact.md,
    # "Percentile"), so the analysis commands sample unless told --engine exact.
    exact_by_default = False
    exact_auto_note = ("a percentile duel is solved exactly only with --engine exact (its "
                       "chain builds slower than sampling it: docs/exact.md, Percentile)")
    breakdown_metrics = counting.METRICS   # what each counts: counting.py

    def compile(self, scenario: Any, tables: Any) -> PercentileFight:
        return compile_fight(scenario, tables)

    def start(self, fight: PercentileFight, n: int, rng: np.random.Generator) -> Any:
        from balance.rules.percentile.kernel import fight as kernel

        return kernel.start(fight, n, rng, lean=fight.plain_duel)

    def play_round(self, fight: PercentileFight, state: Any, rng: np.random.Generator,
                   round_no: int) -> None:
        from balance.rules.percentile.kernel import fight as kernel

        kernel.play_round(fight, state, rng, round_no)

    def exact_duel(self, fight: PercentileFight):
        """A plain duel as a Markov chain (``exact.py``; docs/exact.md, "Percentile")."""
        from balance.rules.percentile.exact import duel_model

        return duel_model(fight)

    def examples(self):
        from balance.rules.percentile.examples import EXAMPLES

        return EXAMPLES

    def reference_trial(self, fight: PercentileFight, rng: np.random.Generator) -> TrialOutcome:
        from balance.rules.percentile.reference.fight import reference_trial

        return reference_trial(fight, rng)
