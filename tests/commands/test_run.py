"""Running scenarios end to end: the Python API, the CLI's text and JSON, and the demo."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import balance
from balance.cli import main

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "scenarios" / "yags" / "reference_duel.yaml"


def test_trials_are_honoured_exactly_and_numbers_repeat() -> None:
    a = balance.run(DUEL, trials=12_345, seed=9)
    b = balance.run(DUEL, trials=12_345, seed=9)
    assert a.trials == 12_345 and int(a.tally.wins.sum()) == 12_345
    assert a.outcomes == b.outcomes and a.rounds == b.rounds
    assert sum(a.outcomes.values()) == pytest.approx(1.0)


def test_result_frame_and_intervals() -> None:
    res = balance.run(balance.load_scenario(DUEL), trials=20_000, seed=1)
    frame = res.to_frame()
    assert list(frame["outcome"]) == ["red", "blue", "draw"]
    assert (frame["ci_low"] <= frame["p"]).all() and (frame["p"] <= frame["ci_high"]).all()
    assert frame["wins"].sum() == 20_000
    for name, (lo, hi) in res.ci95.items():
        assert lo <= res.outcomes[name] <= hi


def test_run_json_contract(capsys) -> None:
    assert main(["run", str(DUEL), "--trials", "5000", "--seed", "3", "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"scenario", "ruleset", "trials", "seed", "outcomes", "ci95", "rounds"} <= set(doc)
    assert doc["trials"] == 5000 and doc["seed"] == 3 and doc["ruleset"] == "yags"
    assert set(doc["outcomes"]) == {"red", "blue", "draw"} == set(doc["ci95"])
    assert set(doc["rounds"]) == {"mean", "p50", "p95", "survival", "hazard"}
    assert sum(doc["outcomes"].values()) == pytest.approx(1.0)


def test_run_text(capsys) -> None:
    assert main(["run", str(DUEL), "--trials", "2000", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "95% interval" in out and "red" in out and "rounds: mean" in out


def test_reference_engine_from_the_cli(capsys) -> None:
    assert main(["run", str(DUEL), "--trials", "300", "--engine", "reference", "--json",
                 "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["engine"] == "reference"


@pytest.mark.parametrize("args, message", [
    (["--trials", "0"], "trials must be an integer >= 1"),
    (["--trials", "-5"], "trials must be an integer >= 1"),
    (["--seed", "-1"], "seed must be an integer >= 0"),
])
def test_bad_options_are_one_line_errors(args, message, capsys) -> None:
    assert main(["run", str(DUEL), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_missing_file_is_a_clean_error(capsys, tmp_path) -> None:
    assert main(["run", str(tmp_path / "nope.yaml")]) != 0
    err = capsys.readouterr().err
    assert "nope.yaml" in err and "Traceback" not in err


def test_demo_writes_results_atomically(tmp_path, capsys) -> None:
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "duel.yaml").write_text(DUEL.read_text())
    (scenarios / "notes.yaml").write_text("just: notes\n")  # not a scenario: skipped
    out = tmp_path / "results"
    assert main(["demo", "--scenarios", str(scenarios), "--out", str(out), "--trials", "1000",
                 "--quiet"]) == 0
    doc = json.loads((out / "demo" / "duel.json").read_text())
    assert doc["trials"] == 1000
    assert "Reference duel" in (out / "demo" / "summary.md").read_text()
    # a bad scenario fails the demo and leaves the previous results untouched
    (scenarios / "bad.yaml").write_text("name: x\nruleset: yags\nsides: []\n")
    assert main(["demo", "--scenarios", str(scenarios), "--out", str(out), "--quiet"]) != 0
    assert json.loads((out / "demo" / "duel.json").read_text())["trials"] == 1000
    assert [p.name for p in out.iterdir()] == ["demo"]


def test_engine_imports_no_pandas_or_pydantic() -> None:
    code = ("import sys, balance.engine.loop, balance.engine.run, balance.rules, balance.dice; "
            "bad = [m for m in ('pandas', 'pydantic', 'scipy', 'matplotlib', 'yaml') "
            "if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_stun_example_vectorised() -> None:
    from balance.rules.yags.rules.tracks import apply_stuns

    stuns = np.zeros(3, dtype=np.int16)
    seen = []
    for hit in (2, 2, 1, 5):
        stuns = apply_stuns(stuns, np.full(3, hit, dtype=np.int16))
        seen.append(int(stuns[0]))
    assert seen == [2, 3, 3, 5]


def test_committed_json_schema_is_current() -> None:
    from balance.io.scenario import schema_text

    committed = json.loads((ROOT / "balance-scenario.schema.json").read_text())
    hint = "regenerate: balance schema --out balance-scenario.schema.json"
    assert committed == json.loads(schema_text()), hint


def test_survivors_per_side() -> None:
    res = balance.run(ROOT / "scenarios" / "yags" / "two_guards.yaml", trials=5000, seed=1)
    surv = res.to_dict()["survivors"]
    assert set(surv) == {"hero", "guards"}
    for side, size in zip(("hero", "guards"), (1, 2), strict=True):
        dist = surv[side]["dist"]
        assert sum(dist.values()) == pytest.approx(1.0)
        assert max(int(k) for k in dist) <= size
        assert surv[side]["mean"] == pytest.approx(sum(int(k) * p for k, p in dist.items()))
    # the winner always has someone standing; the loser never does
    assert surv["hero"]["dist"].get("0", 0) == pytest.approx(res.outcomes["guards"]
                                                             + res.outcomes["draw"])


def test_validate_reports_problems_found_when_fighters_are_put_together(tmp_path, capsys) -> None:
    bad = tmp_path / "heavy.yaml"
    bad.write_text("name: too heavy\nruleset: yags\nsides:\n"
                   "  - name: a\n    members:\n      - attributes: {strength: 1}\n"
                   "        skills: {great_weapon: 3}\n        weapon: great_axe\n"
                   "  - name: b\n    members:\n      - weapon: long_sword\n")
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "heavy.yaml" in err and "too weak" in err and "Traceback" not in err
    assert main(["run", str(bad), "--quiet"]) == 2
    assert "too weak" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["run", str(DUEL), "--trials", "99999999999999999999", "--json"],
    ["solve", str(DUEL), "--vary", "max_rounds", "--target", "0.5", "--trials", "1" + "0" * 20],
    ["dice", "d6", "--samples", "1" + "0" * 20],
    ["check", "budget.yaml", "--max-trials", "1" + "0" * 20],
])
def test_huge_trial_counts_are_clean_errors(argv, capsys) -> None:
    """--trials 10**20 once ended in a MemoryError traceback from the block planner."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "must be at most 1,000,000,000" in err and "Traceback" not in err
