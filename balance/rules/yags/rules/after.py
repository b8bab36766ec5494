"""Wire the after-battle rules (``rules/aftermath.py``) into runs: who is alive N hours later.

A scenario's ``aftermath:`` block becomes a :class:`AftermathPlan` attached to the compiled
fight; the engine then keeps the wound and stun tracks at the end of each trial and asks the
rule system who is still alive after the aftermath (``balance.engine.run``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.engine.status import DEAD
from balance.errors import Problem, ScenarioError, unknown_name
from balance.rules.yags.rules.aftermath import Healer, after_battle


@dataclass(frozen=True)
class AftermathPlan:
    hours: float
    healers: dict[int, Healer]       # by side index


class FightWithAftermath:
    """A compiled fight plus its aftermath plan; everything else reads through to the fight."""

    def __init__(self, fight: Any, aftermath: AftermathPlan):
        self._fight = fight
        self.aftermath = aftermath

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_fight":
            raise AttributeError(name)
        return getattr(self._fight, name)

    def __getstate__(self) -> dict[str, Any]:
        return {"_fight": self._fight, "aftermath": self.aftermath}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def plan_of(scenario: Any) -> AftermathPlan | None:
    """The scenario's aftermath, checked against its side names (None without one)."""
    block = getattr(scenario, "aftermath", None)
    if block is None:
        return None
    names = [s.name for s in scenario.sides]
    problems = [Problem(unknown_name("side", name, names), f"aftermath.first_aid.{name}")
                for name in block.first_aid if name not in names]
    if problems:
        raise ScenarioError(problems)
    healers = {names.index(name): Healer(h.intelligence, h.first_aid)
               for name, h in block.first_aid.items()}
    return AftermathPlan(hours=float(block.hours), healers=healers)


def alive_after(fight: Any, out: Any, rng: np.random.Generator) -> np.ndarray:
    """(n_fighters, n) bool: alive ``fight.aftermath.hours`` after each trial's fight."""
    plan = fight.aftermath
    return after_battle(out.tracks["wounds"], out.tracks["stuns"], out.status != DEAD,
                        fight.side_of, fight.column("health"), plan.healers, plan.hours, rng,
                        fight.rules.success_step)
