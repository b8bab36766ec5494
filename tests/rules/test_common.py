"""The conformance suite every registered rule system passes (``balance.rules.testing``,
like scikit-learn's check_estimator): shapes and dtypes, determinism and split
independence, no global random state, mirror duels even, more skill never hurts, swapped
sides mirrored, the kernel against the reference by one pooled statistic, and the exact
engine against the kernel where a system has exact duels. Each check is its own test. And
every system's coverage table names only real code and real tests (``balance.rules.coverage``)."""

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


@pytest.mark.parametrize("ruleset", sorted(REGISTRY))
def test_the_coverage_table_names_real_code_and_real_tests(ruleset: str) -> None:
    """Every function and test docs/rules/<system>-coverage.md names exists (one checker for
    every system's table: ``balance.rules.coverage``)."""
    from balance.rules.coverage import check_coverage_table

    assert check_coverage_table(ruleset) > 300


def test_a_dangling_name_in_a_coverage_table_is_reported_with_its_row(tmp_path) -> None:
    from balance.rules.coverage import problems

    (tmp_path / "docs" / "rules").mkdir(parents=True)
    tests = tmp_path / "tests" / "rules" / "ymlad"
    tests.mkdir(parents=True)
    (tests / "test_x.py").write_text("def test_here():\n    pass\n")
    (tmp_path / "docs" / "rules" / "ymlad-coverage.md").write_text(
        "## Modelled\n\n| rule | kernel | reference | test |\n|---|---|---|---|\n"
        "| drift | `kernel.fight.act` | `reference.fight.no_such` | `test_x.py::test_here`,"
        " `test_x.py::test_gone`, `test_y.py::test_here` |\n")
    found = problems("ymlad", tmp_path)
    assert found == ["drift: no code named reference.fight.no_such",
                     "drift: test_x.py::test_gone: test_x.py has no test_gone",
                     f"drift: test_y.py::test_here: no file {tests / 'test_y.py'}"], found
