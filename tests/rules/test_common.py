"""The conformance suite every registered rule system passes (``balance.rules.testing``,
like scikit-learn's check_estimator): shapes and dtypes, determinism and split
independence, no global random state, mirror duels even, more skill never hurts, swapped
sides mirrored, the kernel against the reference by one pooled statistic, and the exact
engine against the kernel where a system has exact duels. Each check is its own test."""

from __future__ import annotations

import pytest

from balance.rules import REGISTRY
from balance.rules.testing import agreement, checks, detectable_shift

CHECKS = [check for ruleset in sorted(REGISTRY) for check in checks(REGISTRY[ruleset])]


@pytest.mark.parametrize("check", CHECKS, ids=repr)
def test_conformance(check) -> None:
    check.run()


def test_every_registered_system_has_examples() -> None:
    for ruleset in REGISTRY:
        ex = REGISTRY[ruleset].examples()
        assert ex.duel(4, 4)["ruleset"] == ruleset and ex.group()["ruleset"] == ruleset


def test_the_pooled_statistic_finds_a_shift_of_its_stated_size() -> None:
    """The stated power: a 6-point shift in one side's wins (from 50%) between two tallies of
    the default sizes is rejected at 1e-6 (a one-cell calculation says 4.6 points are found
    half the time; the pooled test, with its extra degrees of freedom, needs a little more),
    and equal tallies are not."""
    import numpy as np

    from balance.rules.testing import KERNEL_TRIALS, REFERENCE_TRIALS, _Outcomes

    def outcomes(p_a: float, n: int) -> _Outcomes:
        by = np.zeros((3, 5))
        by[0, 2], by[1, 2] = p_a * n, (1 - p_a) * n
        status = np.array([[p_a * n, 0, 0, (1 - p_a) * n, 0], [(1 - p_a) * n, 0, 0, p_a * n, 0]])
        return _Outcomes(by, status)

    assert 0.04 < detectable_shift() < 0.05
    k = outcomes(0.50, KERNEL_TRIALS)
    p_same, _ = agreement(k, outcomes(0.50, REFERENCE_TRIALS), ("a", "b"), ("x", "y"))
    p_far, cells = agreement(k, outcomes(0.56, REFERENCE_TRIALS), ("a", "b"), ("x", "y"))
    assert p_same > 0.5 and p_far < 1e-6
    assert "wins" in cells[0][1] or "ends" in cells[0][1]
