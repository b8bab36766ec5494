"""``balance.engine.sparse``: a padded mask's True indices are ``np.flatnonzero``'s."""

import numpy as np
import pytest

from balance.engine.sparse import padded, true_indices


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 1000, 65_536])
@pytest.mark.parametrize("share", [0.0, 0.05, 0.5, 1.0])
def test_true_indices_are_flatnonzero(n, share):
    mask = np.random.default_rng(n).random(n) < share
    buf = padded(n)
    buf[:n] = mask
    got = true_indices(buf, n)
    assert got.dtype == np.intp
    assert np.array_equal(got, np.flatnonzero(mask))
    assert buf[n:].all() and (buf.size - n) * 10 > buf.size   # True past a tenth
