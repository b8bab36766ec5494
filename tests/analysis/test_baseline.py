"""Sweep baselines (delta columns, paired under common random numbers) and balance compare."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import yaml

from balance import rules
from balance.analysis.compare import compare_run, parse_baseline
from balance.cli import main
from balance.engine.loop import simulate
from balance.engine.run import block_rng
from balance.errors import OptionError, ScenarioError
from balance.sweep import load_plan, run_sweep
from balance.sweep.summary import cells_text
from tests.sweep.helpers import GRID, duel

DAMAGE = {"grid": {"tables.weapons.mace.damage": [4, 5, 6]}, "crn": True,
          "baseline": {"mace.damage": 5}}


def test_baseline_by_index_or_values_with_did_you_mean() -> None:
    sweep = copy.deepcopy(GRID)
    sweep["baseline"] = {"red.weapon": "spear", "armour": "mail"}
    assert load_plan(duel(sweep)).baseline.index == 3
    assert load_plan(duel(GRID), baseline=1).baseline.values == {"red.weapon": "long_sword",
                                                                 "armour": "mail"}
    sweep["baseline"] = {"armour": "nane"}
    with pytest.raises(ScenarioError, match="did you mean 'none'"):
        load_plan(duel(sweep))
    with pytest.raises(OptionError, match="cells match"):
        load_plan(duel(GRID), baseline={"armour": "none"})
    assert parse_baseline("red.weapon=spear, armour=mail") == {"red.weapon": "spear",
                                                               "armour": "mail"}
    with pytest.raises(OptionError, match="axis 'armour' is named twice"):   # once: the last won
        parse_baseline("armour=mail,armour=none")


def test_no_baseline_no_delta_columns() -> None:
    table = run_sweep(duel(GRID), trials=300, out=None).table
    assert not any(c.startswith("delta_") for c in table.columns)


def test_paired_deltas_are_the_per_trial_differences() -> None:
    """Known answer: under common random numbers a cell and the baseline play the same dice
    (the same block streams), so the sweep's delta must be the mean of the per-trial
    differences of the two fights replayed here from those streams, and its interval
    1.96 standard errors of that mean either side."""
    data = duel(DAMAGE, trials=4096)
    data["sides"][1]["members"][0]["weapon"] = "mace"
    res = run_sweep(data, trials=4096, block_trials=2048, out=None)
    table = res.table.set_index("mace.damage")
    assert table.loc[5, "delta_red"] == 0 and table["paired"].all()
    assert table.loc[5, "baseline"] and not table.loc[6, "baseline"]
    plan = res.plan
    system = rules.get("yags")
    wins = []
    for value in (5, 6):
        i = next(i for i, c in enumerate(plan.cells) if c.values["mace.damage"] == value)
        fight = system.compile(plan.scenarios[i].model, plan.scenarios[i].tables)
        wins.append(np.concatenate([
            simulate(system, fight, 2048, block_rng(data["seed"], b, plan.cells[i].stream))
            .winner == 0 for b in range(2)]).astype(float))
    diff = wins[1] - wins[0]
    half = 1.959963984540054 * diff.std(ddof=1) / np.sqrt(diff.size)
    row = table.loc[6]
    assert row["delta_red"] == pytest.approx(diff.mean(), abs=1e-12)
    assert row["delta_ci95_lo_red"] == pytest.approx(diff.mean() - half, abs=1e-12)
    assert row["delta_ci95_hi_red"] == pytest.approx(diff.mean() + half, abs=1e-12)


def test_compare_ranks_and_marks_paired(tmp_path, capsys) -> None:
    data = duel(DAMAGE)
    data["sides"][1]["members"][0]["weapon"] = "mace"
    path = tmp_path / "sweep.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert main(["sweep", str(path), "--trials", "2048", "--out", str(tmp_path / "res"),
                 "--quiet", "--report"]) == 0
    run = tmp_path / "res" / "sweep"
    assert (run / "paired.json").is_file()
    capsys.readouterr()
    assert main(["compare", str(run), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["values"]["mace.damage"] for r in doc["rows"]] == [4, 6]   # blue's mace: red
    assert all(r["paired"] for r in doc["rows"]) and doc["baseline"]["own"]
    other = compare_run(run, baseline=0)
    assert not other.paired_run and "not paired" in other.to_text()
    assert any(p.name.endswith("baseline.png") for p in (run / "report").iterdir())
    with pytest.raises(OptionError, match="is not a value"):
        compare_run(run, baseline={"mace.damage": "7"})


def test_compare_a_one_cell_run_says_there_is_nothing_to_compare(tmp_path) -> None:
    """A one-cell sweep once printed "0 of 0 differences" and "not paired: this baseline was
    not the run's" beside ``own: true``."""
    run_sweep(duel({"grid": {"max_rounds": [30]}, "baseline": 0}), trials=200,
              out=tmp_path, run_id="one")
    text = compare_run(tmp_path / "one").to_text()
    assert cells_text(1) == "1 cell" and cells_text(6) == "6 cells"   # "1 cells" once
    assert text.endswith("the run has no other cell to compare with the baseline")
    assert "not paired" not in text and "0 of 0" not in text
