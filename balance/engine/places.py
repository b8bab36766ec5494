"""Reductions over the short first (place) axis of ``(n_places, n_trials)`` arrays.

numpy's ``argmax(axis=0)`` on such an array works column by column and costs ~30 ns a
trial with two places (measured); a Python loop over the few places, each step one
contiguous vector operation, costs well under 1 ns a trial per place.
"""

from __future__ import annotations

import numpy as np

from balance.engine.streams import random_at


def first_true(mask: np.ndarray) -> np.ndarray:
    """(n,) intp: the first place where ``mask`` (c, n) holds in each trial; 0 where none
    does (as ``mask.argmax(axis=0)``)."""
    c, n = mask.shape
    if c < 2:
        return np.zeros(n, dtype=np.intp)
    small = np.int8 if c < 128 else np.intp     # (counted in bytes where the places fit)
    out = np.zeros(n, dtype=small)
    seen = mask[0].copy()
    for i in range(1, c):
        new = mask[i] & ~seen
        out += new * small(i)
        seen |= new
    return out.astype(np.intp, copy=False)


def ascending(key: np.ndarray, dtype=np.intp) -> np.ndarray:
    """(c, n) ``dtype``: the place holding the k-th smallest ``key`` in each trial (keys in a
    trial are distinct, e.g. random draws), as ``argsort(key, axis=0)``. Few places: ranks by
    pairwise comparison (one a pair), much faster than a sort along a short axis (measured:
    1.6x at 10 places, 5x at 4, before the pairs' symmetry saved another ~17%); two: one
    comparison."""
    c, n = key.shape
    if c == 2:
        second_first = (key[1] < key[0]).astype(dtype)
        return np.stack([second_first, 1 - second_first])
    if c > 16:
        return np.argsort(key, axis=0).astype(dtype, copy=False)
    # One comparison a pair: with distinct keys, place i's rank is i, plus the later places
    # with a smaller key, less the earlier places with a larger one.
    rank = np.empty((c, n), dtype=np.int8)
    rank[...] = np.arange(c, dtype=np.int8)[:, None]
    for i in range(c):
        for j in range(i + 1, c):
            later_smaller = key[j] < key[i]
            rank[i] += later_smaller
            rank[j] -= later_smaller
    # The place of each rank by comparisons in int8 (c * c byte operations a trial), not
    # scattering each place to its rank through intp flat indices (measured at (10, 65,536):
    # 0.7 against 2.4 ms).
    order = np.zeros((c, n), dtype=np.int8)
    for i in range(1, c):
        ranked = rank[i]
        for k in range(c):
            order[k] += (ranked == k) * np.int8(i)
    return order.astype(dtype, copy=False)


def uniform_true(mask: np.ndarray, rng, cols: np.ndarray | None = None) -> np.ndarray:
    """(n,) intp: in each trial, one of the places where ``mask`` (c, n) holds, uniformly at
    random (0 where none does). One uniform draw per trial picks the k-th of the t places,
    k = floor(u t): no float is compared with another, and the bias of a 53-bit u is below
    2^-45 for t <= 255. ``cols``: the state columns of the trials, for stacked blocks'
    streams (``balance.engine.streams``)."""
    n = mask.shape[1]
    total = mask.sum(axis=0, dtype=np.int16)
    u = rng.random(n) if cols is None else random_at(rng, cols)
    return kth_true(mask, (u * total).astype(np.int16))


def kth_true(mask: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(n,) intp: in each trial the place of the ``k``-th (from 0) place where ``mask``
    (c, n) holds (the last place when there are fewer). (Counted in int8 when the places
    fit: an eighth of an intp count's memory traffic.)"""
    c, n = mask.shape
    pick = np.zeros(n, dtype=np.int8 if c < 128 else np.intp)
    seen = np.zeros(n, dtype=np.int16)
    for row in mask[:-1]:
        seen += row
        pick += seen <= k
    return pick.astype(np.intp, copy=False)
