"""Fighter status codes shared by every rule system, and the per-trial outcome record."""

from __future__ import annotations

from dataclasses import dataclass

# A fighter's status at any point of a fight (int8 in arrays). Only STANDING fighters act.
STANDING, YIELDED, UNCONSCIOUS, DEAD, FLED = 0, 1, 2, 3, 4
STATUS_NAMES = ("standing", "yielded", "unconscious", "dead", "fled")
DRAW = -1  # the winner of a trial that no side won


@dataclass(frozen=True)
class TrialOutcome:
    """One fight's result, as the scalar references return it.

    ``winner`` is a side index or ``DRAW``; ``rounds`` the round in which the fight was decided
    (``max_rounds`` for a draw by time); ``status`` every fighter's final status.
    """

    winner: int
    rounds: int
    status: tuple[int, ...]
