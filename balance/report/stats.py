"""Statistics for results: Wilson intervals and summaries of integer histograms."""

from __future__ import annotations

import numpy as np
from scipy.stats import binomtest


def wilson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (scipy's binomtest)."""
    if n == 0:
        return (0.0, 1.0)
    ci = binomtest(int(k), int(n)).proportion_ci(confidence_level=level, method="wilson")
    return (float(ci.low), float(ci.high))


def hist_mean(hist: np.ndarray) -> float:
    """Mean of the integer outcomes counted by ``hist`` (hist[v] = count of value v)."""
    total = hist.sum()
    return float((np.arange(hist.size) * hist).sum() / total) if total else float("nan")


def hist_quantile(hist: np.ndarray, q: float) -> int:
    """Smallest value v with P(X <= v) >= q, from an integer histogram."""
    cdf = np.cumsum(hist)
    return int(np.searchsorted(cdf, q * cdf[-1] - 1e-9 * cdf[-1]))
