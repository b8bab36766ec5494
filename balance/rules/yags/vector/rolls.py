"""Dice for the vectorised Yags kernel."""

from __future__ import annotations

import numpy as np


def d20(rng: np.random.Generator, shape) -> np.ndarray:
    """d20 rolls as int16: faster to draw than int8 here (~2.2 vs ~3 ns a die, measured),
    and no cast when added to the int16 totals."""
    return rng.integers(1, 21, size=shape, dtype=np.int16)


def d20_where(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A d20 for each trial where ``mask`` holds (drawn for those only, in C order); 20
    elsewhere. Written through the mask's indices: a boolean assignment on a random mask
    costs ~20 times more."""
    out = np.full(mask.shape, 20, dtype=np.int16)
    idx = np.flatnonzero(mask)
    out.ravel()[idx] = d20(rng, idx.size)
    return out
