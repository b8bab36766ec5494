"""Several blocks played as one set of arrays, each block still drawing from its own stream.

A round costs a few hundred numpy calls whatever the number of open trials, so the last
rounds of a block (a few fights still going) cost far more per trial than the first.
Stacking consecutive blocks side by side in the same arrays shares that cost. The columns of
the stacked arrays belong to the blocks in order (segments), and every draw goes through
``Streams``, which gives each segment exactly the numbers its block's own generator would
give it played alone: a draw over all columns takes each segment's part from its generator,
and a draw for chosen columns (``at``) gives each segment's columns, in the order asked,
the next numbers of its generator. Results are therefore the same bit for bit, stacked or
not (``tests/engine/test_streams.py``).

Two conditions fall on the rule system, which opts in per fight (``stackable``): every draw
in such a fight goes through ``integers``/``random`` over all columns or names its columns
(``at``, ``integers_at``, ``random_at``; anything else raises), and no draw over all columns
depends on the other columns (e.g. skipped when no trial of the whole array needs it). The
loop compacts each segment when its block alone would have been compacted
(``balance.engine.loop``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np


class Streams:
    """The generators of consecutive blocks whose trials are the columns of stacked arrays."""

    def __init__(self, generators: Sequence[np.random.Generator], sizes: Sequence[int]):
        self.generators = list(generators)
        self.starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp)

    @property
    def n(self) -> int:
        """Columns now."""
        return int(self.starts[-1])

    def keep(self, idx: np.ndarray) -> None:
        """Only the columns ``idx`` (ascending) remain."""
        self.starts = np.searchsorted(idx, self.starts).astype(np.intp)

    def _segments(self):
        for g, a, b in zip(self.generators, self.starts[:-1], self.starts[1:], strict=True):
            if b > a:
                yield g, int(a), int(b)

    def _full(self, size, draw) -> np.ndarray:
        size = (size,) if np.isscalar(size) else tuple(size)
        if not size or size[-1] != self.n:
            raise TypeError(f"a draw of shape {size} over stacked blocks must cover all "
                            f"{self.n} columns on its last axis (or name them: Streams.at)")
        parts = [draw(g, (*size[:-1], b - a)) for g, a, b in self._segments()]
        if not parts:
            return draw(self.generators[0], size)
        return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=-1)

    def integers(self, low, high, size, dtype=np.int64) -> np.ndarray:
        """``Generator.integers`` over all columns (the last axis of ``size``)."""
        return self._full(size, lambda g, s: g.integers(low, high, size=s, dtype=dtype))

    def random(self, size, dtype=np.float64) -> np.ndarray:
        """``Generator.random`` over all columns (the last axis of ``size``)."""
        return self._full(size, lambda g, s: g.random(s, dtype=dtype))

    def at(self, cols: np.ndarray, low, high, dtype=np.int16) -> np.ndarray:
        """One ``integers(low, high)`` for each of the columns ``cols``, in that order: each
        segment's columns take the next numbers of its generator."""
        out = np.empty(cols.size, dtype=dtype)
        for b, mine, size in self.segments_of(cols):
            out[mine] = self.generators[b].integers(low, high, size=size, dtype=dtype)
        return out

    def segments_of(self, cols: np.ndarray):
        """(block, the positions in ``cols`` of its columns, ascending, and their number) for
        each block with a column in ``cols``, in block order: a slice where they are one run
        (``cols`` ascending, as from ``flatnonzero``), else an index array. (Sorting, not
        ``np.unique``: ~25 us a call.)"""
        seg = np.searchsorted(self.starts, cols, side="right") - 1
        if not seg.size:
            return
        if seg[0] == seg[-1] and (seg == seg[0]).all():
            yield int(seg[0]), slice(None), seg.size
            return
        if (seg[1:] >= seg[:-1]).all():   # in block order already: runs, no sorting
            bounds = np.searchsorted(seg, np.arange(len(self.generators) + 1)).tolist()
            for b, (a, z) in enumerate(itertools.pairwise(bounds)):
                if z > a:
                    yield b, slice(a, z), z - a
            return
        order = np.argsort(seg, kind="stable")
        bounds = np.searchsorted(seg[order], np.arange(len(self.generators) + 1))
        for b in np.flatnonzero(np.diff(bounds)):
            yield int(b), order[bounds[b]:bounds[b + 1]], int(bounds[b + 1] - bounds[b])


def integers_at(rng: np.random.Generator | Streams, cols: np.ndarray | None, low, high,
                shape: tuple[int, ...] = (), dtype=np.int16) -> np.ndarray:
    """Random integers of shape ``(*shape, len(cols))`` for the columns ``cols`` (state
    columns, e.g. the trials of a pick), or over all columns when ``cols`` is None (then the
    last axis of ``shape`` is the number of columns): a plain generator draws them at once,
    stacked blocks segment by segment."""
    if cols is None:
        return rng.integers(low, high, size=shape, dtype=dtype)
    if not isinstance(rng, Streams):
        return rng.integers(low, high, size=(*shape, cols.size), dtype=dtype)
    if not shape:
        return rng.at(cols, low, high, dtype)
    k = int(np.prod(shape))
    # A (k, m) draw in C order gives each segment its k rows of its columns in turn.
    out = np.empty((k, cols.size), dtype=dtype)
    for b, mine, size in rng.segments_of(cols):
        out[:, mine] = rng.generators[b].integers(low, high, size=(k, size), dtype=dtype)
    return out.reshape(*shape, cols.size)


def random_at(rng: np.random.Generator | Streams, cols: np.ndarray | None,
              shape: tuple[int, ...] = ()) -> np.ndarray:
    """``integers_at`` for uniform floats in [0, 1): shape ``(*shape, len(cols))`` for the
    state columns ``cols``, or ``shape`` over all columns when ``cols`` is None."""
    if cols is None:
        return rng.random(shape)
    if not isinstance(rng, Streams):
        return rng.random((*shape, cols.size))
    k = int(np.prod(shape))
    out = np.empty((k, cols.size))
    for b, mine, size in rng.segments_of(cols):
        out[:, mine] = rng.generators[b].random((k, size))
    return out.reshape(*shape, cols.size)
