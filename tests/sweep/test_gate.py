"""The balance gate: pass, fail and inconclusive claims, escalation, exit codes, errors."""

from __future__ import annotations

import json
import textwrap

import pytest
import yaml

from balance.cli import main
from balance.errors import ScenarioError
from balance.gate import check_budget, load_budget
from balance.gate.check import schedule, verdict
from tests.sweep.helpers import duel

MIRROR = duel(trials=1000)
MIRROR["sides"][1]["members"][0]["armour"] = ["mail_hauberk"]   # red and blue identical


def write_budget(tmp_path, claims: list[dict], **top) -> str:
    (tmp_path / "duel.yaml").write_text(yaml.safe_dump(MIRROR))
    budget = {"name": "test budget", "trials": 2000, "max_trials": 8000, "seed": 3,
              **top, "claims": claims}
    path = tmp_path / "budget.yaml"
    path.write_text(yaml.safe_dump(budget, sort_keys=False))
    return str(path)


def claim(**kw) -> dict:
    return {"claim": "a claim", "scenario": "duel.yaml", **kw}


def test_verdicts_follow_the_interval() -> None:
    assert verdict(0.41, 0.45, (0.4, 0.6)) == "pass"
    assert verdict(0.61, 0.65, (0.4, 0.6)) == "fail"
    assert verdict(0.58, 0.62, (0.4, 0.6)) == "inconclusive"
    assert schedule(20_000, 300_000) == [32768, 131072, 294912]
    assert schedule(1, 1) == [16384]


def test_pass_fail_and_inconclusive(tmp_path) -> None:
    path = write_budget(tmp_path, [
        claim(claim="mirror is even", metric="win", side="red", between=[0.4, 0.6]),
        claim(claim="red always wins", metric="win", at_least=0.9),
        claim(claim="exactly half", metric="win", between=[0.4999, 0.5001]),
        claim(claim="rounds", metric="rounds", between=[1, 30],
              sweep={"grid": {"sides.0.members.0.weapon": ["long_sword", "mace"]}}),
    ])
    res = check_budget(path)
    assert [c.verdict for c in res.claims] == ["pass", "fail", "inconclusive", "pass"]
    fail, unsure = res.claims[1], res.claims[2]
    assert fail.looks == 1 and fail.worst.high < 0.9
    # an inconclusive claim got more trials, up to the cap, in whole blocks
    assert unsure.looks == 1 and unsure.worst.trials == 16384
    assert res.claims[3].level == pytest.approx(1 - 0.05 / 2)
    assert "FAIL" in fail.line() and "<= " not in fail.line() and ">= 90%" in fail.line()


def test_inconclusive_claims_get_more_trials(tmp_path) -> None:
    # first look alone: where does the mirror's interval lie?
    path = write_budget(tmp_path, [claim(metric="win", between=[0.0, 1.0])],
                        trials=1000, max_trials=16384)
    first = check_budget(path).claims[0].worst
    # a lower bound inside that interval leaves the first look inconclusive; the second look
    # (4x the trials, extending the same streams) is judged on its own, narrower interval
    bound = (first.low + first.value) / 2
    path = write_budget(tmp_path, [claim(metric="win", between=[bound, 1.0])],
                        trials=1000, max_trials=70_000)
    c = check_budget(path).claims[0]
    assert (c.looks, c.worst.trials) == (2, 65536)
    assert c.level == pytest.approx(1 - 0.05 / 2)        # one cell, two looks
    assert c.worst.high - c.worst.low < first.high - first.low
    assert c.verdict == verdict(c.worst.low, c.worst.high, (bound, 1.0))
    assert c.verdict.upper() in c.line()


def test_difference_claims_are_paired(tmp_path) -> None:
    path = write_budget(tmp_path, [
        claim(claim="plate helps blue", metric="survival", side="blue", at_least=0.05,
              difference={"path": "sides.blue.members.0.armour", "from": ["mail_hauberk"],
                          "to": ["plate"]}),
        claim(claim="plate helps a lot", metric="win", side="blue", at_least=0.6,
              difference={"path": "sides.1.members.0.armour", "from": [], "to": ["plate"]})])
    res = check_budget(path)
    assert [c.verdict for c in res.claims] == ["pass", "fail"]
    assert res.claims[0].extra["paired"] and res.claims[0].worst.value > 0.05
    assert "pts" in res.claims[0].line()


def test_cli_exit_codes_and_files(tmp_path, capsys, monkeypatch) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    good = write_budget(tmp_path, [claim(claim="even", metric="win", between=[0.4, 0.6])])
    assert main(["check", good, "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PASS         even: ") and "1 passed, 0 failed" in out
    md = (tmp_path / "out" / "check-budget" / "check.md").read_text()   # --out: results
    assert "| 1 | even | ✅ pass |" in md and md in summary.read_text()
    data = json.loads((tmp_path / "out" / "check-budget" / "check.json").read_text())
    assert data["counts"] == {"pass": 1, "fail": 0, "inconclusive": 0}
    bad = write_budget(tmp_path, [claim(claim="lopsided", metric="win", at_most=0.2)])
    assert main(["check", bad, "--out", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().out.startswith("FAIL")
    unsure = write_budget(tmp_path, [claim(metric="win", between=[0.4999, 0.5001])],
                          max_trials=16384)
    assert main(["check", unsure, "--out", str(tmp_path / "out")]) == 0
    assert main(["check", unsure, "--out", str(tmp_path / "out"), "--strict"]) == 1


@pytest.mark.parametrize(("claims", "expected"), [
    ([claim(metric="win")], "a claim needs a bound"),
    ([claim(metric="wins", at_most=0.5)], "metric"),
    ([claim(at_most=0.5, side="green")], "side: 'green' is not a side of the scenario"),
    ([claim(at_most=0.5, scenario="nope.yaml")], "scenario: no such file 'nope.yaml'"),
    ([claim(at_most=0.5, set={"sides.0.members.0.weapn": "mace"})],
     "'weapn' is not a field of sides[0].members[0] (did you mean 'weapon'?)"),
    ([claim(at_most=0.5, sweep={"grid": {"sides.0.members.0.weapon": ["maec"]}})],
     "claim 1: sides[0].members[0].weapon: 'maec' is not a known weapon"),
    # found only when the fighters are put together: once a traceback-free '<input>' error
    # after the claims before it had run
    ([claim(at_most=0.5, set={"sides.0.members.0.weapon": "great_axe",
                              "sides.0.members.0.attributes.strength": 1})],
     "claim 1: sides[0].members[0].weapon: strength 1 is too weak for this weapon"),
])
def test_budget_mistakes_are_clean_errors(tmp_path, claims, expected, capsys) -> None:
    path = write_budget(tmp_path, claims)
    with pytest.raises(ScenarioError) as err:
        check_budget(path)
    assert expected in str(err.value)
    assert "budget.yaml:" in str(err.value)
    assert main(["check", path, "--out", str(tmp_path / "o")]) == 2
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(("bound", "expected"), [
    ({"at_most": float("nan")}, "at_most: should be a finite number, found nan"),
    ({"at_least": -float("inf")}, "at_least: should be a finite number, found -inf"),
    ({"at_least": 60}, "at_least: win is a fraction from 0 to 1 (0.60 is 60%), found 60"),
    ({"between": [0.4, 1.2]}, "between: win is a fraction from 0 to 1"),
    ({"metric": "rounds", "at_least": -1}, "at_least: rounds cannot be negative"),
    ({"at_least": 1.5, "difference": {"path": "max_rounds", "from": 5, "to": 6}},
     "win is a change in a share, from -1 to 1"),
])
def test_bounds_the_metric_cannot_reach_are_errors(tmp_path, bound, expected) -> None:
    """A NaN bound once judged every cell "inconclusive" and advised "--max-trials 0"; an
    infinite one printed "<= inf%"; 60 for 60% could never pass."""
    with pytest.raises(ScenarioError) as err:
        load_budget(write_budget(tmp_path, [claim(**bound)]))
    assert expected in str(err.value)


def test_every_claims_mistakes_come_before_any_fight(tmp_path, capsys) -> None:
    """A missing scenario in the third claim once surfaced after two claims had run and
    printed their verdicts; now every claim is checked first, all problems at once."""
    path = write_budget(tmp_path, [claim(at_most=0.9), claim(at_most=0.5, side="green"),
                                   claim(at_most=0.5, scenario="nope.yaml")])
    assert main(["check", path, "--out", str(tmp_path / "o")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not (tmp_path / "o").exists()
    assert "'green' is not a side" in err and "no such file 'nope.yaml'" in err


def test_budget_file_problems_have_lines(tmp_path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(textwrap.dedent("""\
        name: b
        trials: no
        claims: []
        """))
    with pytest.raises(ScenarioError) as err:
        load_budget(path)
    assert f"{path}:2:9: trials: expected an integer" in str(err.value)
