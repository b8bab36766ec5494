"""``balance metagame`` end to end: on runs of all three rule systems, on a designer's CSV,
strict JSON, the report, and the round-robin report's equilibrium mix."""

from __future__ import annotations

import numpy as np
import pytest

from balance.analysis import games
from balance.cli import main
from balance.report.build import write_report
from balance.sweep import run_sweep
from tests.analysis.helpers import ROOT, SHIPPED, THREE, small_round_robin, strict_json


@pytest.mark.parametrize("ruleset", sorted(SHIPPED))
def test_metagame_of_a_scenario_on_every_rule_system(ruleset, tmp_path, capsys) -> None:
    path = small_round_robin(ruleset, tmp_path)
    assert main(["metagame", str(path), "--trials", "300", "--json", "--quiet"]) == 0
    doc = strict_json(capsys.readouterr().out)
    assert doc["options"] == THREE[ruleset]
    assert doc["source"]["ruleset"] == ruleset and doc["draws"] == "half"
    m = np.array(doc["matrix"])
    assert m + m.T == pytest.approx(np.ones((3, 3)))          # seatings pooled: constant-sum
    # the reported mix is an equilibrium of the reported matrix
    mix = np.array([doc["nash"]["mix"][o] for o in doc["options"]])
    assert mix.sum() == pytest.approx(1) and np.all(mix >= 0)
    assert games.exploitability(m, mix, mix) <= 1e-9
    assert doc["nash"]["value"] == pytest.approx(0.5)
    payoff = [doc["nash"]["payoff"][o] for o in doc["options"]]
    assert payoff == pytest.approx(m @ mix)
    assert [r["option"] for r in doc["restricted_play"]] == THREE[ruleset]
    assert doc["ranking"][0]["payoff"] == pytest.approx(max(payoff))
    assert doc["findings"]
    if doc["exact"]:         # the exact engine covers these duels (docs/exact.md)
        assert doc["trials"] is None and doc["intervals"]["low"] == doc["matrix"]
    else:
        assert np.array(doc["trials"])[0, 1] == 600


def test_metagame_of_a_run_writes_the_report(tmp_path, capsys) -> None:
    path = small_round_robin("yags", tmp_path)
    run_sweep(path, trials=300, out=tmp_path / "runs", run_id="rr")
    out = tmp_path / "report"
    assert main(["metagame", str(tmp_path / "runs" / "rr"), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "metagame of 3 options (yags, 300 trials per cell" in text
    assert {p.name for p in out.iterdir()} == {"01-mix.png", "02-matrix.png", "report.html",
                                               "report.md", "metagame.json", ".balance-output"}
    md = (out / "report.md").read_text()
    assert "## Findings" in md and "## Equilibrium mix" in md and "](02-matrix.png)" in md
    doc = strict_json((out / "metagame.json").read_text())
    assert doc["source"]["kind"] == "run" and doc["source"]["run_id"] == "rr"
    # one seat, draws as losses: an asymmetric game with the opponent's mix
    assert main(["metagame", str(tmp_path / "runs" / "rr"), "--for", "blue", "--draws",
                 "loss", "--json"]) == 0
    seat = strict_json(capsys.readouterr().out)
    assert seat["for"] == "blue" and not seat["nash"]["symmetric"]
    assert "opponent_mix" in seat["nash"]


def test_metagame_of_a_designers_matrix(tmp_path, capsys) -> None:
    """Rock-paper-scissors from a CSV: one third each, and the cycle is named."""
    csv = tmp_path / "rps.csv"
    csv.write_text(",rock,paper,scissors\nrock,,0%,100%\npaper,100%,,0%\nscissors,0,1,\n")
    assert main(["metagame", "--matrix", str(csv), "--json"]) == 0
    doc = strict_json(capsys.readouterr().out)
    assert doc["nash"]["mix"] == pytest.approx({"rock": 1 / 3, "paper": 1 / 3,
                                                "scissors": 1 / 3})
    assert doc["nash"]["unique"] and doc["intervals"] is None
    assert doc["cycles"] == [{"options": ["rock", "scissors", "paper"], "tested": False,
                              "win_rates": [1.0, 1.0, 1.0]}]
    assert [r["loss"] for r in doc["restricted_play"]] == pytest.approx([1 / 6] * 3)
    # all three do as well against the mix: no "best reply scissors (50%), worst paper (50%)"
    assert doc["findings"][-1] == "Against the equilibrium mix every option does equally " \
                                  "well (50%)."


@pytest.mark.parametrize(("args", "expected"), [
    ([], "give a scenario FILE, a RUN folder or --matrix CSV"),
    (["x.yaml", "--matrix", "m.csv"], "give a scenario FILE, a RUN folder or --matrix CSV"),
    (["--matrix", "nothing.csv"], "nothing.csv: no such file"),
    # a missing FILE or RUN once said only "no such file"; it may be either
    ([str(ROOT / "scenarios" / "sweeps" / "weapon_round_robn.yaml")],
     "weapon_round_robn.yaml: no such scenario file or run folder (did you mean "),
    (["results/no_such_run"], "results/no_such_run: no such scenario file or run folder"),
    ([str(ROOT / "scenarios" / "sweeps" / "stances.yaml")], "its sweep has no round_robin"),
])
def test_metagame_mistakes_are_one_clean_line(args, expected, capsys) -> None:
    assert main(["metagame", *args]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_round_robin_report_shows_the_equilibrium_mix(tmp_path) -> None:
    path = small_round_robin("yags", tmp_path)
    run_sweep(path, trials=300, out=tmp_path, run_id="rr")
    md = (write_report(tmp_path / "rr") / "report.md").read_text()
    rows = md[md.index("**Equilibrium mix**"):].splitlines()[4:7]
    weights = [float(r.split("|")[2]) for r in rows]
    assert sum(weights) == pytest.approx(100, abs=0.2) and weights == sorted(weights)[::-1]
