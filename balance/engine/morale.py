"""Morale shared by every rule system: when does a side break and flee?

A side breaks at the end of a round once the share of its fighters down reaches its
``breaks_at``. Two order-free rules of the lab (docs/engine.md, "Morale"), the same in every
rule system: a side breaks only while a foe still stands (a side that has won does not run
from nobody); and when every side still standing breaks in the same round, the one least far
past its break point holds (it sees the enemy run first), ties at random from the trial's own
stream, so a mutual rout is never a draw and never decided by listing order. (The seeds have
no morale rules; deciding it in initiative order instead would need a check after every
action, in every kernel, for the same purpose.)
"""

from __future__ import annotations

import math

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


def routing_sides(status: np.ndarray, side: np.ndarray, breaks_at: list[float | None],
                  rng: np.random.Generator) -> np.ndarray:
    """(n_sides, n) bool: the sides that break and run this round (see the module's rules):
    broken sides with a fighter standing, while a foe stands; if that is every side still
    standing, all but the one least far past its break point (share down less
    ``breaks_at``; ties uniformly at random)."""
    n_sides = len(breaks_at)
    standing = status == STANDING
    up = np.stack([(standing & (side == s)).any(axis=0) for s in range(n_sides)])
    broken = broken_sides(status, side, breaks_at) & up & (up.sum(axis=0) >= 2)
    cols = np.flatnonzero(broken.any(axis=0) & (broken == up).all(axis=0))
    if not cols.size:
        return broken
    margin = np.full((n_sides, cols.size), np.inf)
    for s, limit in enumerate(breaks_at):
        if limit is None:
            continue
        mine = side[:, cols] == s
        share = (~standing[:, cols] & mine).sum(axis=0) / mine.sum(axis=0)
        margin[s] = np.where(broken[s, cols], share - limit, np.inf)
    tied = margin == margin.min(axis=0)
    holds = np.argmin(np.where(tied, rng.random(margin.shape), 2.0), axis=0)
    broken[holds, cols] = False
    return broken


def routing_sides_scalar(size: list[int], down: list[int], up: list[bool],
                         breaks_at: list[float | None], rng: np.random.Generator) -> set[int]:
    """One fight's :func:`routing_sides`: per side its ``size``, fighters ``down`` and
    whether one still stands (``up``); returns the sides that run."""
    broken = {s for s, limit in enumerate(breaks_at)
              if limit is not None and up[s] and down[s] >= math.ceil(limit * size[s] - 1e-9)}
    if sum(up) < 2:
        return set()
    if broken and broken == {s for s in range(len(up)) if up[s]}:
        margin = {s: down[s] / size[s] - breaks_at[s] for s in broken}
        low = min(margin.values())
        tied = sorted(s for s in broken if margin[s] == low)
        broken.discard(tied[int(rng.integers(len(tied)))] if len(tied) > 1 else tied[0])
    return broken


def flee(status: np.ndarray, side: np.ndarray, broken: np.ndarray) -> np.ndarray:
    """Mark every standing fighter of a broken side FLED, in place; returns who fled (c, n).
    A rule system resolves the free strikes on the fleeing before calling this."""
    fleeing = (status == STANDING) & np.take_along_axis(broken, side.astype(np.intp), axis=0)
    status[fleeing] = FLED
    return fleeing
