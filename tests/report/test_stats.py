"""Interval and histogram statistics used by every result."""

import numpy as np
import pytest

from balance.report.stats import hist_mean, hist_quantile, wilson


def test_wilson_interval_contains_the_estimate():
    lo, hi = wilson(600, 1000)
    assert lo < 0.6 < hi and hi - lo == pytest.approx(2 * 1.96 * (0.24 / 1000) ** 0.5, rel=0.01)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_histogram_summaries():
    hist = np.array([0, 1, 2, 1])  # values 1, 2, 2, 3
    assert hist_mean(hist) == 2.0
    assert hist_quantile(hist, 0.5) == 2
    assert hist_quantile(hist, 0.95) == 3
    assert hist_quantile(np.array([0, 0, 5]), 0.5) == 2
