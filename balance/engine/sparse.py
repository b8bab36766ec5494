"""The indices of the few True entries of a random mask, by numpy's branchless path.

``np.flatnonzero`` on a bool array whose True entries are at most a tenth of it skips from
one to the next (``memchr``), a branch mispredicted at every entry: on a random mask of 5%
about 0.85 ns an element here (65,536 x 2 in ~110 us), twice the cost of its branchless loop,
which numpy takes above a tenth (measured on fresh masks: a mask repeated in a timing loop is
learnt by the branch predictor and reads faster). Followed in the same memory by enough True
entries to pass a tenth, a sparse mask takes the branchless path; the padding's indices come
last and are cut off. (numpy's choice of path is an implementation detail: were it to change,
the result would be the same, only the speed might not.)
"""

from __future__ import annotations

import numpy as np


def padded(n: int) -> np.ndarray:
    """A bool buffer for a mask of ``n`` entries (write it into ``buf[:n]``) followed by a
    padding of True entries, more than a tenth of the whole."""
    buf = np.empty(n + n // 8 + 1, dtype=bool)
    buf[n:] = True
    return buf


def true_indices(buf: np.ndarray, n: int) -> np.ndarray:
    """``np.flatnonzero(buf[:n])`` (intp) for a buffer from ``padded(n)``."""
    idx = np.flatnonzero(buf)
    return idx[:idx.size - (buf.size - n)]


def flat_true(mask: np.ndarray) -> np.ndarray:
    """``np.flatnonzero(mask)`` for an ndarray, by its methods: the same indices without
    ``np.flatnonzero``'s two Python wrappers (``np.ravel``, ``np.nonzero``: ~3 us a call
    against ~1; the general kernel calls it tens of thousands of times a fight)."""
    return mask.ravel().nonzero()[0]
