"""Writes on a random mask by arithmetic (docs/engine-tricks.md, "Arithmetic, not
``np.where``, on random masks"): ``arr[mask] = value`` and ``np.copyto(where=)`` branch per
element, about 1 ms for 65,536 int16 elements with half of them set, against 15 us for
``arr += (value - arr) * mask``; the same numbers, in place."""

from __future__ import annotations

import numpy as np


def set_where(arr: np.ndarray, mask: np.ndarray, value) -> None:
    """``arr[mask] = value`` (``value`` a number or an array of ``arr``'s shape), in place.
    ``arr`` is an integer array (or bool, then ``value`` a Python bool); the difference
    ``value - arr`` must fit its dtype (small codes, places, levels)."""
    if arr.dtype == np.bool_:
        if value:
            arr |= mask
        else:
            arr &= ~mask
        return
    arr += (value - arr) * mask
