"""``balance autobalance``: it brings a lopsided round robin closer to even, as confirmed on
fresh random numbers; candidates share random numbers; integers stay integers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from balance.analysis.autobalance import autobalance, target_matrix
from balance.analysis.matrix import from_run
from balance.cli import main
from balance.errors import OptionError
from balance.sweep import run_sweep
from tests.analysis.helpers import small_round_robin, strict_json

VARY = ["tables.weapons.long_sword.damage", "tables.weapons.mace.attack"]


@pytest.fixture(scope="module")
def yags_round_robin(tmp_path_factory) -> Path:
    """Short sword, mace and long sword in mail: the long sword wins about 68-82%. Fights
    end at round 12 (a draw, half a win each), to keep the long ones short."""
    return small_round_robin("yags", tmp_path_factory.mktemp("ab"), max_rounds=12)


@pytest.fixture(scope="module")
def result(yags_round_robin):
    return autobalance(yags_round_robin, VARY, bounds={VARY[0]: (2, 8)}, trials=1500, seed=11)


def test_autobalance_reduces_the_worst_deviation_on_fresh_numbers(result) -> None:
    """Each pooled cell has 3,000 trials (standard error at most 0.9 points); the worst
    deviation falls by far more than 4 standard errors of either measurement."""
    assert result.before.max_abs_dev > 0.15
    assert result.after.max_abs_dev < result.before.max_abs_dev - 0.1
    assert result.after.rms_dev < result.before.rms_dev
    assert result.improved and result.trials_spent <= result.budget
    assert all(type(v) is int for v in result.values.values())     # integers stay integers
    assert 2 <= result.values[VARY[0]] <= 8 and 0 <= result.values[VARY[1]] <= 4


def test_after_is_what_a_sweep_of_the_pasted_rows_measures(result, yags_round_robin) -> None:
    """"After" is re-measured on the sweep's own streams, which the search never drew from:
    a sweep of the scenario with the suggested tables gives exactly its matrix, and the
    search's own estimate of the same values differs (other random numbers)."""
    data = yaml.safe_load(yags_round_robin.read_text())
    data["tables"] = yaml.safe_load(result.yaml_snippet())
    res = run_sweep(data, trials=1500, seed=11, out=None)
    again = from_run(res.table, res.manifest).score
    assert again.tolist() == result.after.matrix.score.tolist()
    assert not np.allclose(result.estimate.matrix.score, result.after.matrix.score)
    doc = result.to_dict()
    assert doc["matrix_after"] == again.tolist()
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc


def test_candidates_share_random_numbers(yags_round_robin) -> None:
    """Cells are keyed by their pairing, not by table values, and a cell whose fight a value
    does not change is not played again: varying the spear, which is not in this round
    robin, plays only the start's trials (rungs of 10, 20, 40 and 80 trials in 6 cells),
    every candidate ties and the start values stay."""
    res = autobalance(yags_round_robin, ["tables.weapons.spear.damage"], trials=150, seed=2)
    assert res.trials_spent == (10 + 20 + 40 + 80) * 6
    assert res.evaluations > 11 and res.values == res.start and res.before is res.after


def test_target_matrix_fills_the_complement_and_refuses_contradictions(tmp_path) -> None:
    f = tmp_path / "t.csv"
    f.write_text(",a,b,c\na,,0.6,\nb,,,\nc,,0.3,\n")
    goal = target_matrix(["a", "b", "c"], f)
    assert goal[0, 1] == pytest.approx(0.6) and goal[1, 0] == pytest.approx(0.4)
    assert goal[1, 2] == pytest.approx(0.7) and np.isnan(goal[0, 2]) and np.isnan(goal[0, 0])
    f.write_text(",a,b\na,,0.6\nb,0.6,\n")
    with pytest.raises(OptionError, match="cannot both hold"):
        target_matrix(["a", "b"], f)
    with pytest.raises(OptionError, match="missing c"):
        target_matrix(["a", "b", "c"], tmp_path / "t.csv")


@pytest.mark.parametrize(("vary", "extra", "expected"), [
    ("weapons.long_sword.damage", [], "did you mean tables.weapons.long_sword.damage?"),
    ("tables.weapons.long_swrod.damage", [], "did you mean 'long_sword'"),
    ("tables.weapons.long_sword.style", [], "not a number field"),
    ("tables.weapons.long_sword.damage", ["--bounds", "tables.weapons.mace.attack=1:2"],
     "not one of the --vary fields"),
    ("tables.weapons.long_sword.damage", ["--bounds", "tables.weapons.long_sword.damage=1.5:4"],
     "whole numbers"),
    ("tables.weapons.long_sword.damage", ["--target", "x.csv"], "x.csv: no such file"),
])
def test_autobalance_mistakes_are_one_clean_line(yags_round_robin, vary, extra, expected,
                                                  capsys) -> None:
    assert main(["autobalance", str(yags_round_robin), "--vary", vary, *extra]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


@pytest.mark.parametrize(("ruleset", "vary", "budget"), [
    ("ymlad", "tables.hand_weapons.mace.melee", 4000),
    ("percentile", "tables.weapons.mace.hp", 1),        # the slowest: no line search, only
])                                                      # the start and the confirmation
def test_autobalance_on_the_other_rule_systems(ruleset, vary, budget, tmp_path,
                                               capsys) -> None:
    path = small_round_robin(ruleset, tmp_path, max_rounds=10)
    out = tmp_path / "out"
    assert main(["autobalance", str(path), "--vary", vary, "--trials", "150", "--budget",
                 str(budget), "--json", "--quiet", "--out", str(out)]) == 0
    doc = strict_json(capsys.readouterr().out)
    assert set(doc["values"]) == {vary} and type(doc["values"][vary]) is int
    assert doc["ruleset"] == ruleset and doc["after"]["max_abs_dev"] >= 0
    assert {p.name for p in out.iterdir()} >= {"report.html", "report.md", "tables.yaml",
                                               "autobalance.json", "01-before.png",
                                               "02-after.png"}
    table, row, name = vary.split(".")[1:]
    assert yaml.safe_load((out / "tables.yaml").read_text())[table][row][name] == \
        doc["values"][vary]
