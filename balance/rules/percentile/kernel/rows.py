"""Reading and writing the percentile kernel's state at (place, row) cells of a batch.

A batch of trials is ``rows`` (int indices into the trial axis) with one place for every
row (a scalar, as in a duel) or a place per row (an int array, as in group fights). numpy's
fancy indexing ``arr[who, rows]`` costs about three times a ``take`` from one row (a scalar
place) or from the flattened array (a place per row), and turning a mask into indices once
beats boolean indexing; measured here (docs/engine.md, "The percentile duel"). These helpers
pick the cheap form, so the kernel reads like ``get(st.hp, t, rows)``.
"""

from __future__ import annotations

import numpy as np


def some(mask) -> bool:
    """``mask.any()``, an order of magnitude cheaper on the short arrays of late rounds (no
    Python-level wrapper; measured here)."""
    return np.count_nonzero(mask) > 0


def at_rows(x, mask):
    """``x`` restricted to the rows where ``mask`` holds (a bool mask or row indices); a
    scalar place stays a scalar."""
    if not (isinstance(x, np.ndarray) and x.ndim):
        return x
    return x.take(mask.nonzero()[0] if mask.dtype == bool else mask, axis=0)


def at_each(mask, *arrays):
    """Each array (or scalar place) restricted to the rows where ``mask`` holds. A mask is
    turned into indices once: ``take`` with them costs a fraction of boolean indexing."""
    idx = mask.nonzero()[0] if mask.dtype == bool else mask
    return [x.take(idx, axis=0) if isinstance(x, np.ndarray) and x.ndim else x
            for x in arrays]


# Reading state at (place, row) pairs. numpy's fancy indexing ``arr[who, rows]`` costs about
# three times a ``take`` from one row (a scalar place, as in a duel) or from the flattened
# array (a place per row), measured here; these helpers pick the cheap form.


def spread(x, k: int) -> np.ndarray:
    """``x`` as an array of ``k`` rows: itself if it is one, else k copies (``np.full``;
    ``np.broadcast_to`` costs several microseconds a call)."""
    return x if isinstance(x, np.ndarray) and x.ndim else np.full(k, x)


def per_row(who) -> bool:
    """Is ``who`` a place per row (an array), rather than one place for every row?"""
    return isinstance(who, np.ndarray) and who.ndim > 0


def get(arr: np.ndarray, who, rows: np.ndarray) -> np.ndarray:
    """``arr[who, rows]`` of a C-contiguous (c, n) state array."""
    if isinstance(who, np.ndarray) and who.ndim:
        return arr.ravel().take(who.astype(np.intp, copy=False) * arr.shape[1] + rows)
    return arr[who].take(rows)


def get_item(arr: np.ndarray, slot, who, rows: np.ndarray) -> np.ndarray:
    """``arr[slot, who, rows]`` of a C-contiguous (4, c, n) item state array."""
    if not (isinstance(slot, np.ndarray) and slot.ndim):
        return get(arr[slot], who, rows)
    _, c, n = arr.shape
    return arr.ravel().take((slot.astype(np.intp, copy=False) * c + who) * n + rows)


def item(table: np.ndarray, slot, who):
    """``table[slot, who]`` of a fixed (4, c) item table, slots per row. A place per row
    reads through flat indices ``slot * c + who`` (docs/engine-tricks.md, flat indices and
    ``np.take``: 27 against 77 us for 30,000 rows of a (4, 6) table)."""
    rows_of_slot = isinstance(slot, np.ndarray) and slot.ndim
    if not per_row(who):
        return table[:, who].take(slot) if rows_of_slot else table[slot, who]
    if not rows_of_slot:
        return table[slot].take(who)
    if not table.flags.c_contiguous:
        return table[slot, who]
    if slot.shape != who.shape:     # e.g. (c, n) slots of (c, 1) places
        return table.ravel().take(slot.astype(np.intp) * table.shape[1] + who)
    flat = slot.astype(np.intp)
    flat *= table.shape[1]
    flat += who
    return table.ravel().take(flat)


class Cells:
    """The (place, row) cells of a batch, read and written several times: a place per row
    becomes flat indices once (each ``arr[who, rows]`` would recompute them)."""

    __slots__ = ("flat", "rows", "who")

    def __init__(self, who, rows: np.ndarray, n: int) -> None:
        self.who, self.rows = who, rows
        self.flat = who.astype(np.intp) * n + rows if per_row(who) else None

    def get(self, arr: np.ndarray) -> np.ndarray:
        """``arr[who, rows]`` of a C-contiguous (c, n) state array."""
        return arr[self.who].take(self.rows) if self.flat is None else arr.take(self.flat)

    def put(self, arr: np.ndarray, values) -> None:
        """``arr[who, rows] = values``."""
        if self.flat is None:
            arr[self.who].put(self.rows, values)
        else:
            arr.put(self.flat, values)


def put(arr: np.ndarray, who, rows: np.ndarray, values) -> None:
    """``arr[who, rows] = values`` (a scalar place writes into its row)."""
    if isinstance(who, np.ndarray) and who.ndim:
        if arr.flags.c_contiguous and who.shape == rows.shape:
            # through flat indices (docs/engine-tricks.md, flat indices and ``np.take``)
            arr.put(who.astype(np.intp, copy=False) * arr.shape[1] + rows, values)
        else:
            arr[who, rows] = values
    else:
        arr[who][rows] = values
