"""``balance sweep`` end to end, and the shipped sweeps and budget (the project's own gate)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import balance
from balance.cli import main
from balance.sweep import load_plan
from tests.sweep.helpers import GRID, duel

ROOT = Path(__file__).resolve().parents[2]
SWEEPS = sorted((ROOT / "scenarios" / "sweeps").glob("*.yaml"))


@pytest.fixture
def sweep_file(tmp_path) -> Path:
    path = tmp_path / "grid.yaml"
    path.write_text(yaml.safe_dump(duel(GRID), sort_keys=False))
    return path


def test_sweep_writes_results_and_a_report(sweep_file, tmp_path, capsys) -> None:
    out = tmp_path / "results"
    assert main(["sweep", str(sweep_file), "--trials", "500", "--out", str(out), "--quiet",
                 "--report"]) == 0
    text = capsys.readouterr().out
    assert "Test duel  (yags, 6 cells, seed 5)" in text
    assert f"wrote {out / 'grid'}/ (6 cells, 3,000 trials" in text
    assert (out / "grid" / "report" / "report.html").is_file()
    assert len(balance.load(out / "grid")) == 6


def test_sweep_list_runs_nothing(sweep_file, tmp_path, capsys) -> None:
    assert main(["sweep", str(sweep_file), "--list", "--out", str(tmp_path / "r")]) == 0
    assert capsys.readouterr().out.endswith("6 cells\n")
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(("args", "expected"), [
    (["--trials", "10", "--precision", "0.01"], "--trials or --precision, not both"),
    (["--precision", "0.7"], "precision must be a number between 0 and 0.5"),
    (["--scheduler", "tcp://x:1"], "--scheduler is for --executor dask"),
    (["--workers", "0", "--executor", "processes"], "workers must be an integer >= 1"),
    (["--resume"], "nothing to resume"),
    (["--trials", "0"], "trials must be an integer >= 1"),
])
def test_sweep_option_mistakes_are_one_clean_line(sweep_file, tmp_path, capsys, args,
                                                  expected) -> None:
    assert main(["sweep", str(sweep_file), "--out", str(tmp_path / "r"), *args]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err
    assert not (tmp_path / "r").exists() or not list((tmp_path / "r").iterdir())


def test_a_bad_sweep_file_is_a_located_error(tmp_path, capsys) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(duel({"grid": {"sides.0.members.0.wepon": ["mace"]}}),
                                   sort_keys=False))
    assert main(["sweep", str(path), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert f"{path}:" in err and "did you mean 'weapon'?" in err


@pytest.mark.parametrize("path", SWEEPS, ids=lambda p: p.name)
def test_shipped_sweeps_are_valid(path: Path) -> None:
    plan = load_plan(path)
    assert plan.cells and plan.axes


def test_demo_skips_sweep_files(tmp_path, capsys) -> None:
    scenarios = tmp_path / "s"
    scenarios.mkdir()
    (scenarios / "sweep.yaml").write_text(SWEEPS[0].read_text())
    (scenarios / "duel.yaml").write_text(yaml.safe_dump(duel(trials=200)))
    assert main(["demo", "--scenarios", str(scenarios), "--out", str(tmp_path / "o"),
                 "--quiet"]) == 0
    assert "wrote 1 results" in capsys.readouterr().out


def test_the_shipped_budget_passes(tmp_path, capsys) -> None:
    """The project's own CI balance gate: the example budget over the shipped tables."""
    code = main(["check", str(ROOT / "scenarios" / "budget.yaml"), "--out",
                 str(tmp_path / "check"), "--strict"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "0 failed, 0 inconclusive" in out


def test_validate_checks_every_cell_of_a_sweep(tmp_path, capsys) -> None:
    assert main(["validate", str(SWEEPS[0])]) == 0
    assert "sweep cells)" in capsys.readouterr().out
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(duel({"grid": {"sides.0.members.0.weapon": ["maec"]}}),
                                  sort_keys=False))
    assert main(["validate", str(bad)]) == 2
    assert "'maec' is not a known weapon" in capsys.readouterr().err
    flow = tmp_path / "flow.yaml"   # a flow-style file is a sweep too (no 'sweep:' line)
    flow.write_text(yaml.safe_dump(duel({"grid": {"max_rounds": [5, 6]}}),
                                   default_flow_style=True))
    assert main(["validate", str(flow)]) == 0
    assert "2 sweep cells)" in capsys.readouterr().out


def test_a_cell_that_cannot_be_compiled_stops_the_sweep_before_it_starts(tmp_path,
                                                                          capsys) -> None:
    """A weapon too heavy in one cell once passed ``validate``, then failed the sweep as
    '<input>: ...' with no cell named, and left results/.<run>.partial behind."""
    data = duel({"grid": {"sides.0.members.0.weapon": ["long_sword", "great_axe"]}})
    data["sides"][0]["members"][0]["attributes"] = {"strength": 1}
    path = tmp_path / "heavy.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "great_axe" in t)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:{line}:") and "too weak for this weapon" in err
    assert "(in cell red.weapon=great_axe)" in err
    out = tmp_path / "results"
    assert main(["sweep", str(path), "--out", str(out), "--quiet"]) == 2
    assert "too weak" in capsys.readouterr().err
    assert not out.exists() or not list(out.iterdir())
