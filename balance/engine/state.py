"""Per-trial fight state as a structure of arrays, with one way to drop finished trials.

Layout: the trial axis is the *last* (long, contiguous) axis of every state array, so a
fighter's track is one contiguous row, ``(n_combatants, n_trials)``. Reductions over
fighters and per-fighter arithmetic then run along contiguous memory; with trials on the
first axis, ``any(axis=1)`` over two fighters measured ~300x slower here.
"""

from __future__ import annotations

import copy
import dataclasses

import numpy as np


@dataclasses.dataclass
class TrialState:
    """Base of every rule system's state; every field's last axis is trials.

    Columns are *places*: a rule system may seat the fighters in a different order in each
    trial (Yags seats them in acting order). ``who`` says which fighter sits in each place,
    ``side`` its side, ``status`` its status code (``balance.engine.status``).
    """

    status: np.ndarray  # (c, n) int8
    side: np.ndarray    # (c, n) int8
    who: np.ndarray     # (c, n) int8
    # (K, c, n) int32 per-place counters of the breakdown (``balance.engine.breakdown``),
    # present only when a run asks for one: kernels add to it where it is not None.
    counts: np.ndarray | None = dataclasses.field(default=None, kw_only=True)

    def take(self, keep: np.ndarray) -> TrialState:
        """The same state restricted to the trials selected by ``keep`` (bool mask or index).
        (A shallow copy given the new arrays: ``dataclasses.replace`` costs ~50 us a call.)"""
        idx = np.flatnonzero(keep) if keep.dtype == bool else keep
        out = copy.copy(self)
        out.__dict__.update({f.name: _take(getattr(self, f.name), idx)
                             for f in dataclasses.fields(self)
                             if getattr(self, f.name) is not None})
        return out

    def join(self, others: list[TrialState]) -> TrialState:
        """The trials of ``others`` (states of the same fight) side by side, in that order."""
        return dataclasses.replace(self, **{
            f.name: _join([getattr(o, f.name) for o in others])
            for f in dataclasses.fields(self) if getattr(self, f.name) is not None
        })


def _take(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``np.take(values, idx, axis=-1)``; a row holding one number throughout (a fixed number
    all fighters share, a declaration nobody re-makes) is filled instead: two reductions and
    a fill cost a fraction of a gather."""
    if _fixed(values):   # (a slice of it is one too: ``np.broadcast_to`` costs ~7 us a call)
        if idx.size <= values.shape[-1]:
            return values[..., :idx.size]
        return np.broadcast_to(values[..., :1], (*values.shape[:-1], idx.size))
    if values.size == 0 or values.ndim == 1:
        return np.take(values, idx, axis=-1)
    if values.ndim == 3 and values.size >= ROWS_FROM:
        return _take_rows(values, idx)
    if (values[..., 0] != values[..., -1]).any():   # (two columns differ: not one number)
        return np.take(values, idx, axis=-1)
    lo, hi = values.min(axis=-1), values.max(axis=-1)
    if not (lo == hi).all():
        return np.take(values, idx, axis=-1)
    out = np.empty((*values.shape[:-1], idx.size), dtype=values.dtype)
    out[...] = lo[..., None]
    return out


# A stack this large is compacted row by row (``_take_rows``); below it, the few calls a row
# cost more than the gather (measured on a skirmish's ``more``: 115,500 elements 0.09 ms
# against 0.07, 1.2 M 0.36 against 0.54, 10 M 3.7 against 6.6).
ROWS_FROM = 200_000


def _take_rows(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``_take`` of a (k, c, n) stack (Yags's ``more``, the breakdown's counters) row by row:
    each row holding one number throughout is filled, the others gathered a run of
    consecutive rows at a time. (Most of a fight's ``more`` rows never change in it: rules
    that cannot act there. A row's min and max cost about a sixth of its gather;
    docs/engine-tricks.md, compaction through one index array.)"""
    k = values.shape[0]
    out = np.empty((*values.shape[:-1], idx.size), dtype=values.dtype)
    first = values[:, :1, 0]
    # (A row whose two end columns hold other numbers cannot be one number: no reduction.)
    ends = ((values[..., 0] == first) & (values[..., -1] == first)).all(axis=1)
    fill = np.zeros(k, dtype=bool)
    for a, b in _runs(ends):
        rows = values[a:b].reshape(b - a, -1)
        lo = rows.min(axis=1)
        fill[a:b] = lo == rows.max(axis=1)
    for a, b in _runs(~fill):
        np.take(values[a:b], idx, axis=-1, out=out[a:b])
    for a, b in _runs(fill):
        out[a:b] = first[a:b, :, None]
    return out


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """The runs of consecutive True entries of a short 1-d bool mask, as (start, stop)."""
    edges = np.flatnonzero(np.diff(mask.view(np.int8), prepend=0, append=0)).tolist()
    return list(zip(edges[::2], edges[1::2], strict=True))


def _fixed(values: np.ndarray) -> bool:
    """Is ``values`` a read-only broadcast of one number (a state array a rule system seats as
    such: a fixed number every fighter shares)? It is never written, nor copied."""
    return values.size > 0 and not any(values.strides)


def _join(parts: list[np.ndarray]) -> np.ndarray:
    """``parts`` side by side on the last axis; broadcasts of one number stay one."""
    if all(_fixed(p) for p in parts) and len({p.flat[0] for p in parts}) == 1:
        n = sum(p.shape[-1] for p in parts)
        return np.broadcast_to(parts[0][..., :1], (*parts[0].shape[:-1], n))
    return np.concatenate(parts, axis=-1)


def columns(values: np.ndarray, cols) -> np.ndarray:
    """``values[:, cols]`` for a slice or an index array of trials: a view for a slice, a
    broadcast of one number (``_fixed``) kept one, else ``np.take`` on the last axis (faster
    than fancy indexing)."""
    if isinstance(cols, slice):
        return values[..., cols]
    if _fixed(values):
        return np.broadcast_to(values[..., :1], (*values.shape[:-1], cols.size))
    return np.take(values, cols, axis=-1)


def gather(values: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """``np.take(values, flat)``: flat indices into a state array; a broadcast of one number
    (``_fixed``) is read without being copied whole."""
    if _fixed(values):
        return np.full(flat.shape, values.flat[0], dtype=values.dtype)
    return np.take(values, flat)
