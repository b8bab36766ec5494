"""Gathers and scatters on (c, n) state arrays, the lab's one module for them.

Two ways of naming cells, each the cheap form of numpy indexing for its case:

* ``Pick``: one place per trial over a block's trials (an attacker or a target; Yags and
  Ymlad), a plain row when every trial picks the same place, else flat indices;
* ``get``/``put``/``Cells`` and friends: a batch of ``rows`` (indices into the trial axis)
  with one place for every row (a scalar, as in a duel) or a place per row (an array, as in
  group fights; the percentile kernel). numpy's fancy indexing ``arr[who, rows]`` costs about
  three times a ``take`` from one row or from the flattened array, and turning a mask into
  indices once beats boolean indexing (docs/engine-tricks.md, "Flat indices and
  ``np.take``"), so the kernel reads like ``get(st.hp, t, rows)``.
"""

from __future__ import annotations

import functools

import numpy as np


@functools.lru_cache(maxsize=16)
def trial_numbers(n: int) -> np.ndarray:
    """``np.arange(n)`` (intp), read-only and kept for the next call with the same ``n``."""
    out = np.arange(n, dtype=np.intp)
    out.setflags(write=False)
    return out


def flat_of(place: np.ndarray, n: int) -> np.ndarray:
    """Flat indices into (c, n) arrays of ``place`` (..., n) (-1 read as place 0): the same
    numbers as ``np.maximum(place, 0).astype(np.intp) * n + np.arange(n)``, computed in one
    intp array in place (each temporary of that expression is a fresh n-element intp array,
    and the arange is kept)."""
    flat = place.astype(np.intp)
    np.maximum(flat, 0, out=flat)
    flat *= n
    flat += trial_numbers(n)
    return flat


class Pick:
    """One place per trial (an attacker or a target), optionally on a subset of trials.

    A plain row when every trial picks the same place (as in a duel), else a flat gather.
    ``rows`` restricts it to those trials (in that order). Trials with no pick (-1) must be
    masked out by the caller.
    """

    def __init__(self, place: np.ndarray | int, n: int, rows: np.ndarray | None = None):
        self.n, self.rows = n, rows
        if np.isscalar(place):
            self.row, self.flat = int(place), None
            return
        # The same place in every trial (the -1s aside)? Min and max rather than selecting the
        # valid entries: a boolean selection on a random mask costs ~20 times more.
        hi = int(place.max()) if place.size else 0
        lo = int(place.min()) if place.size else 0
        if hi < 0 or lo == hi or (lo < 0 and ((place == hi) | (place < 0)).all()):
            self.row, self.flat = max(hi, 0), None
        else:
            self.row = None
            self.flat = flat_of(place, n)
            if rows is not None:
                self.flat = self.flat[rows]

    @staticmethod
    def joined(a: Pick, b: Pick) -> Pick:
        """The trials of ``a`` then those of ``b`` (picks of the same (c, n) arrays) as one
        pick: a flat gather, unless one of them is empty. Distinct places a trial, for
        writes."""
        size_a = a.n if a.rows is None else a.rows.size
        size_b = b.n if b.rows is None else b.rows.size
        if not size_b:
            return a
        if not size_a:
            return b
        out = Pick.__new__(Pick)
        out.n, out.row = a.n, None
        out.flat = np.concatenate([a.flats(), b.flats()])
        out.rows = np.concatenate([a.rows if a.rows is not None else trial_numbers(a.n),
                                   b.rows if b.rows is not None else trial_numbers(b.n)])
        return out

    def sub(self, idx: np.ndarray) -> Pick:
        """The same pick on the trials ``idx`` (indices into this pick's trials)."""
        out = Pick.__new__(Pick)
        out.n, out.row = self.n, self.row
        out.flat = None if self.flat is None else self.flat[idx]
        out.rows = idx if self.rows is None else self.rows[idx]
        return out

    def flats(self) -> np.ndarray:
        """Flat indices into a (c, n) array of every trial of this pick."""
        if self.flat is not None:
            return self.flat
        return self.row * self.n + (trial_numbers(self.n) if self.rows is None else self.rows)

    def place(self) -> np.ndarray | np.int16:
        """The place picked in each trial: one number for a plain row (compared with an
        int16 state array without converting its every element, as an intp array would)."""
        if self.flat is None:
            return np.int16(self.row)
        return self.flat // self.n

    def flat_at(self, idx: np.ndarray) -> np.ndarray:
        """Flat indices into a (c, n) array of this pick's trials ``idx``."""
        if self.flat is not None:
            return self.flat[idx]
        cols = idx if self.rows is None else self.rows[idx]
        return self.row * self.n + cols

    def get(self, arr: np.ndarray) -> np.ndarray:
        """The values of ``arr`` (c, n) at this pick. A read-only broadcast of one number (a
        fixed number every fighter shares) is read without a gather: a broadcast of it."""
        if not any(arr.strides) and arr.size:
            size = self.n if self.rows is None else self.rows.size
            row = arr[(0,) * (arr.ndim - 1)]
            if size <= row.size:   # a slice of it (``np.broadcast_to`` costs ~7 us a call)
                return row[:size]
            return np.broadcast_to(row[:1], (size,))
        if self.flat is not None:
            # (the method: ``np.take``'s Python wrapper costs about 1 us a call; both ~15%
            # faster than ``arr.ravel()[flat]``)
            return arr.take(self.flat)
        # (One row's ``take``: ``arr[row, rows]`` goes through numpy's general advanced
        # indexing, about 6x slower on a few thousand trials.)
        return arr[self.row] if self.rows is None else arr[self.row].take(self.rows)

    def add(self, arr: np.ndarray, values: np.ndarray) -> None:
        """Add ``values`` (one per trial of this pick) in place."""
        if self.flat is not None:
            arr.ravel()[self.flat] += values
        elif self.rows is None:
            arr[self.row] += values
        else:
            arr[self.row][self.rows] += values   # (a row's view: cheaper than arr[row, rows])

    def put(self, arr: np.ndarray, values: np.ndarray, mask: np.ndarray | None = None) -> None:
        """Write ``values`` (where ``mask`` holds, if given). A masked write goes through the
        indices of the mask: ``copyto(where=)`` and boolean selections on a random mask
        cost ~20 times more (branch mispredictions, measured)."""
        if mask is not None:
            idx = mask.ravel().nonzero()[0]   # (np.flatnonzero's wrappers cost ~2 us)
            if not idx.size:
                return
            values = values[idx]
        if self.flat is not None:
            arr.ravel()[self.flat if mask is None else self.flat[idx]] = values
        elif self.rows is None:
            if mask is None:
                arr[self.row] = values
            else:
                arr[self.row][idx] = values
        else:
            arr[self.row][self.rows if mask is None else self.rows[idx]] = values



# --- a batch of rows, a place per row or one for all ---------------------------------


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


def scattered(values: np.ndarray, cols: np.ndarray, n: int) -> np.ndarray:
    """``values`` (..., len(cols)) of some trials as (..., n) of all ``n``: in columns
    ``cols``, zero (False) elsewhere (the inverse of a ``take`` of columns)."""
    values = np.asarray(values)
    out = np.zeros((*values.shape[:-1], n), dtype=values.dtype)
    out[..., cols] = values
    return out
