"""The drift die (seed 002, Attack and defense): its exact distribution, P(success) for score
differences, and the samplers (vectorised and the reference's literal d6 throws) against it."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from balance.dice import Pmf, drift
from balance.rules.ymlad.reference.fight import throw_drift
from balance.rules.ymlad.rules.tables import harm_done, margin, p_success, succeeds

ALPHA = 1e-6
EXACT = Pmf.drift()
P = EXACT.to_dict()


def prob(k: int) -> float:
    return P.get(k, 0.0)


def test_exact_drift_distribution():
    # P(0) = 1/3, P(+k) = P(-k) = (2/3)(1/3)^k: a neutral first throw stops at once; after a
    # step each throw continues with 1/3 and stops (neutral or reversing) with 2/3.
    assert prob(0) == pytest.approx(1 / 3)
    for k in range(1, 8):
        assert prob(k) == pytest.approx((2 / 3) * 3.0 ** -k)
        assert prob(-k) == prob(k)
    assert EXACT.mean() == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize("difference", range(-5, 6))
def test_p_success_by_score_difference_is_exact(difference):
    """P(effort - resistance + drift >= 0) for effort - resistance = ``difference``."""
    exact = (EXACT + difference).p_at_least(0)
    assert p_success(difference) == pytest.approx(exact, rel=1e-12)


def test_p_success_table():
    # The steep core of Ymlad: one point of difference moves 2/3 to 8/9 or 1/3.
    expected = {-3: 1 / 27, -2: 1 / 9, -1: 1 / 3, 0: 2 / 3, 1: 8 / 9, 2: 26 / 27, 3: 80 / 81}
    for difference, p in expected.items():
        assert p_success(difference) == pytest.approx(p)


def _chi2(samples: np.ndarray) -> float:
    """p-value of sampled drift results against the exact pmf (tails pooled beyond +-5)."""
    clipped = np.clip(samples, -5, 5)
    observed = np.bincount(clipped + 5, minlength=11)
    probs = np.array([prob(k) for k in range(-5, 6)])
    probs[0] = sum(prob(k) for k in range(EXACT.min_outcome, -4))
    probs[-1] = sum(prob(k) for k in range(5, EXACT.max_outcome + 1))
    return float(chisquare(observed, probs / probs.sum() * samples.size).pvalue)


def test_vectorised_drift_matches_the_exact_pmf():
    samples = drift(np.random.default_rng(2002), 400_000).astype(np.int64)
    assert _chi2(samples) > ALPHA


def test_reference_throws_match_the_exact_pmf():
    rng = np.random.default_rng(2003)
    samples = np.array([throw_drift(rng) for _ in range(60_000)])
    assert _chi2(samples) > ALPHA


@pytest.mark.parametrize("difference", [-2, -1, 0, 1, 2])
def test_sampled_contests_succeed_at_the_exact_rate(difference):
    n = 200_000
    outcome = margin(difference, 0, drift(np.random.default_rng(difference + 10), n))
    rate = succeeds(outcome).mean()
    p = p_success(difference)
    assert abs(rate - p) < 5 * np.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("base", [-1, 0, 3])
def test_expected_harm_is_the_margin_floored_at_zero(base):
    """E[max(0, base + drift)] exactly from the pmf, against the sampler."""
    exact = sum(max(0, base + d) * prob(d)
                for d in range(EXACT.min_outcome, EXACT.max_outcome + 1))
    n = 200_000
    harm = harm_done(margin(base, 0, drift(np.random.default_rng(7 + base), n)
                            .astype(np.int16)))
    se = harm.std() / np.sqrt(n)
    assert abs(harm.mean() - exact) < 5 * se + 1e-9
