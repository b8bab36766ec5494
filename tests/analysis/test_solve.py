"""balance solve: the value of a field that meets a target (balance.analysis.solving)."""

from __future__ import annotations

import json
import re

import pytest

from balance.analysis.solving import solve
from balance.cli import main
from balance.errors import OptionError
from tests.analysis.helpers import MIRRORS, YAGS, mirror


@pytest.mark.parametrize("name", list(MIRRORS))
def test_a_mirror_duel_solves_to_the_opponents_value(name: str) -> None:
    """Known answer: in a mirror fight P(red wins) = 1/2 exactly when red's skill equals
    blue's, so the opponent's value lies in the interval (widened by its own width: a
    4-sigma check, not a 95% one). Where one step of skill moves the odds far more than the
    noise (Yags and Ymlad skills), the closest value is the opponent's; a percentile skill
    point moves them about half a point, so there only the interval is checked. (Monte
    Carlo's search: the exact engine's answer to the same question is tests/exact/
    test_analysis.py's.)"""
    scenario, path, value = mirror(name)
    res = solve(scenario, path, 0.5, trials=8192, block_trials=4096, seed=11, engine="vector")
    lo, hi = res.interval
    assert lo - (hi - lo) <= value <= hi + (hi - lo)
    if name != "percentile":
        assert res.value == value
    assert res.integer and res.below.value + 1 == res.above.value
    assert res.below.value <= res.crossing <= res.above.value


def test_an_integer_field_takes_whole_numbers() -> None:
    with pytest.raises(OptionError, match="integer field; give whole numbers"):
        solve(YAGS, "sides.red.members.0.skills.single_weapon", 0.5, range=(2.5, 6.0))


def test_an_unreachable_target_names_the_best_value() -> None:
    with pytest.raises(OptionError, match=r"no value .* brings P\(red wins\) to 99.0%: the "
                                          r"closest is .* at 8"):
        solve(YAGS, "sides.red.members.0.skills.single_weapon", 0.99, range=(2, 8),
              trials=4096, block_trials=4096)


@pytest.mark.parametrize(("target", "metric", "expected"), [
    (50, "win", r"--target 50: win is a share from 0 to 1 \(for 50% give 0.5\)"),
    (-0.1, "standing", "--target -0.1: standing is a share from 0 to 1$"),
    (-2, "rounds", "--target -2: rounds is never negative"),
])
def test_a_target_the_metric_cannot_reach_fails_before_any_fight(target, metric,
                                                                  expected) -> None:
    """``--target 50`` (meaning 50%) once searched the field's whole range before saying no
    value reaches 5000.0%."""
    with pytest.raises(OptionError, match=expected):
        solve(YAGS, "sides.red.members.0.skills.single_weapon", target, metric=metric)


def test_paths_are_checked_with_did_you_mean() -> None:
    with pytest.raises(OptionError, match="did you mean 'single_weapon'"):
        solve(YAGS, "sides.red.members.0.skills.singel_weapon", 0.5)
    with pytest.raises(OptionError, match="not a number"):
        solve(YAGS, "sides.red.members.0.weapon", 0.5)


def test_the_search_spends_trials_near_the_crossing() -> None:
    """Far values are decided in one block; only the bracketing values get every trial."""
    res = solve(YAGS, "sides.red.members.0.skills.single_weapon", 0.5, range=(0, 10),
                trials=16384, block_trials=4096, seed=2)
    full = [p for p in res.evaluations if p.trials == 16384]
    assert {p.value for p in full} >= {res.below.value, res.above.value}
    assert min(p.trials for p in res.evaluations) < 16384


def test_cli_json_is_strict_and_has_the_issue_keys(tmp_path, capsys) -> None:
    path = tmp_path / "duel.yaml"
    path.write_text(json.dumps(YAGS))
    assert main(["solve", str(path), "--vary", "sides.red.members.0.skills.single_weapon",
                 "--target", "0.5", "--trials", "4096", "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"path", "for", "metric", "target", "value", "interval", "estimate", "ci95",
            "evaluations"} <= set(doc)
    assert doc["for"] == "red" and doc["metric"] == "win" and doc["value"] == 4
    assert main(["solve", str(path), "--vary", "sides.red.members.0.skills.single_weapon",
                 "--target", "0.5", "--trials", "4096"]) == 0
    captured = capsys.readouterr()
    assert "bracketing values" in captured.out and "solve" in captured.err   # a line a step
    assert re.search(r"P\(red wins\) (49|50)\.", captured.out) and "function" not in captured.out


def test_a_float_field_is_bisected_to_its_tolerance() -> None:
    """The archer's starting distance (metres, a float): up to about 60 m more distance is
    more arrows before the swordsman arrives, so P(archer wins) rises from about 10% at 10 m
    to about 30% at 60 m and crosses 20% inside [10, 60]; the bracket ends up within the
    tolerance and straddles the target. (Farther out it falls again: long-range snap shots
    spend the quiver.)"""
    from tests.analysis.helpers import SCENARIOS

    res = solve(str(SCENARIOS / "yags" / "archer_vs_charging_swordsman.yaml"), "distance", 0.2,
                range=(10, 60), tolerance=8.0, trials=4096, block_trials=4096, seed=3)
    assert not res.integer and 10 <= res.value <= 60
    assert res.above.value - res.below.value <= 8.0
    assert res.below.estimate < 0.2 <= res.above.estimate
