"""Who attacks whom: target choices shared by every rule system.

Arrays are (n_places, n_trials), as everywhere in the engine. ``side`` and ``who`` say which
side and which fighter (scenario order) sits in each place; a rule system that does not
reorder fighters passes ``who = arange(c)[:, None]`` broadcast to (c, n).
"""

from __future__ import annotations

import numpy as np

NO_TARGET = -1


def first_standing_foe(side: np.ndarray, who: np.ndarray, standing: np.ndarray,
                   n_sides: int) -> np.ndarray:
    """(c, n) int8: each place's target, the place of its first standing foe in scenario
    order (lowest fighter index), or -1 when no foe stands."""
    c, n = standing.shape
    none = np.int8(np.iinfo(np.int8).max)
    place_of = np.empty((c, n), dtype=np.int8)          # place of each fighter
    cols = np.arange(n)
    for place in range(c):
        place_of[who[place], cols] = place
    target = np.full((c, n), NO_TARGET, dtype=np.int8)
    for s in range(n_sides):
        excluded = ~(standing & (side != s))
        first = np.maximum(who, excluded * none).min(axis=0)    # lowest standing foe
        found = first != none
        pick = place_of.ravel()[np.where(found, first, 0).astype(np.intp) * n + cols]
        mine = side == s
        target = np.where(mine, np.where(found, pick, NO_TARGET), target).astype(np.int8)
    return target
