"""The percentile system: a Basic Roleplaying / Stormbringer-style core with seed 004's
situational rules. See docs/rules/percentile.md."""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.engine.status import TrialOutcome
from balance.rules.base import RuleSystem
from balance.rules.percentile import counting
from balance.rules.percentile.fighters import PercentileFight, compile_fight


class PercentileSystem(RuleSystem):
    """The percentile rule system behind the shared protocol (``balance.rules.base``)."""

    ruleset = "percentile"
    has_distance = True
    breakdown_metrics = counting.METRICS   # what each counts: counting.py

    def compile(self, scenario: Any, tables: Any) -> PercentileFight:
        return compile_fight(scenario, tables)

    def start(self, fight: PercentileFight, n: int, rng: np.random.Generator) -> Any:
        from balance.rules.percentile import kernel

        return kernel.start(fight, n, rng, lean=fight.plain_duel)

    def play_round(self, fight: PercentileFight, state: Any, rng: np.random.Generator,
                   round_no: int) -> None:
        from balance.rules.percentile import kernel

        kernel.play_round(fight, state, rng, round_no)

    def examples(self):
        from balance.rules.percentile.examples import EXAMPLES

        return EXAMPLES

    def reference_trial(self, fight: PercentileFight, rng: np.random.Generator) -> TrialOutcome:
        from balance.rules.percentile.reference import reference_trial

        return reference_trial(fight, rng)
