"""Scripted dice and a veteran for the Yags scalar reference's hand-worked cases (shared, so no
test module imports another's)."""

from __future__ import annotations

import dataclasses

import numpy as np

from balance.rules.yags.compile import AUTO, Fighter
from balance.rules.yags.reference.state import (
    FighterState,
)
from balance.rules.yags.rules.tracks import (
    NORMAL,
    WOUNDS,
)


class ScriptedDice:
    """Stands in for a Generator: hands out the given d20 results in order, and no others."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def integers(self, low: int, high: int) -> int:
        assert (low, high) == (1, 21), "the reference only rolls d20s"
        return self.rolls.pop(0)

    def permutation(self, n: int) -> np.ndarray:
        return np.arange(n)

    def done(self) -> bool:
        return not self.rolls


def veteran(side: int = 0, **changes: int) -> Fighter:
    """Dexterity 3 x skill 4 + 3 attack/defence, strength 3 x 4 + 6 damage, soak 18."""
    base = Fighter(side=side, name=f"vet{side}", attack=15, defence=15, damage=18,
                   damage_type=WOUNDS, soak=18, initiative=12, health=3, skill=4,
                   max_defences=3, stance=NORMAL, defences=AUTO, yield_at=99)
    return dataclasses.replace(base, **changes)


def state(**changes: int) -> FighterState:
    return FighterState(0, veteran(0, **changes))

