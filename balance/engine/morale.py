"""Morale shared by every rule system: when does a side break and flee?"""

from __future__ import annotations

import numpy as np

from balance.engine.status import FLED, STANDING


def broken_sides(status: np.ndarray, side: np.ndarray, breaks_at: list[float | None]) -> np.ndarray:
    """(n_sides, n) bool: sides whose share of fighters down has reached their ``breaks_at``
    (``None``: never breaks). ``status`` and ``side`` are (c, n) by place."""
    down = status != STANDING
    out = np.zeros((len(breaks_at), status.shape[1]), dtype=bool)
    for s, limit in enumerate(breaks_at):
        if limit is None:
            continue
        mine = side == s
        size = mine.sum(axis=0)
        out[s] = (down & mine).sum(axis=0) >= np.ceil(limit * size - 1e-9)
    return out


def flee(status: np.ndarray, side: np.ndarray, broken: np.ndarray) -> np.ndarray:
    """Mark every standing fighter of a broken side FLED, in place; returns who fled (c, n).
    A rule system resolves the free strikes on the fleeing before calling this."""
    fleeing = (status == STANDING) & np.take_along_axis(broken, side.astype(np.intp), axis=0)
    status[fleeing] = FLED
    return fleeing
