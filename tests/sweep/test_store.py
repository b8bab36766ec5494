"""The results store: whole folders, a manifest, resume after an interruption."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import balance
from balance.errors import BalanceError, OptionError
from balance.io.store import load_tallies, read_manifest
from balance.sweep import run_sweep
from tests.sweep.helpers import GRID, duel


class Stop(KeyboardInterrupt):
    """Raised from on_cell to interrupt a sweep after some cells."""


def interrupt_after(n: int):
    seen = []

    def on_cell(result) -> None:
        seen.append(result.cell_id)
        if len(seen) == n:
            raise Stop

    return on_cell, seen


def test_a_run_writes_table_csv_tallies_and_manifest(tmp_path) -> None:
    res = run_sweep(duel(GRID), trials=800, out=tmp_path, run_id="grid")
    run = tmp_path / "grid"
    assert res.run_dir == run
    assert sorted(p.name for p in run.iterdir()) == [".balance-output", "cells.csv",
                                                       "cells.parquet", "manifest.json",
                                                       "tallies.json"]
    df = balance.load(run)
    assert list(df.columns[:2]) == ["red.weapon", "armour"]
    assert list(df["red.weapon"].cat.categories) == ["long_sword", "spear", "mace"]
    pd.testing.assert_frame_equal(df, res.table)
    csv = pd.read_csv(run / "cells.csv")
    assert csv["n_red"].tolist() == df["n_red"].tolist()
    m = read_manifest(run)
    assert m == df.attrs["manifest"]
    for key in ("scenario_text", "scenario_sha256", "package_version", "git_commit", "seed",
                "block_trials", "started", "finished", "executor", "axes"):
        assert key in m
    assert m["seed"] == 5 and m["executor"]["kind"] == "local"
    assert json.loads(m["scenario_text"])["sweep"] == GRID
    tallies = load_tallies(run)
    assert {t.trials for t in tallies.values()} == {800}
    assert not list(tmp_path.glob(".*"))       # no partial folder left behind


def test_an_interrupted_run_leaves_no_table_and_resume_finishes_it(tmp_path) -> None:
    on_cell, seen = interrupt_after(2)
    with pytest.raises(Stop):
        run_sweep(duel(GRID), trials=800, out=tmp_path, run_id="grid", on_cell=on_cell)
    assert not (tmp_path / "grid").exists()
    assert len(list((tmp_path / ".grid.partial" / "cells").glob("*.json"))) == 2
    with pytest.raises(BalanceError, match="interrupted run is there"):
        balance.load(tmp_path / "grid")
    rerun = []
    res = run_sweep(duel(GRID), trials=800, out=tmp_path, run_id="grid", resume=True,
                    on_cell=lambda r: rerun.append(r.cell_id))
    assert len(rerun) == 4 and not set(rerun) & set(seen)
    assert res.manifest["resumed_cells"] == 2
    fresh = run_sweep(duel(GRID), trials=800, out=None).table
    pd.testing.assert_frame_equal(balance.load(tmp_path / "grid"), fresh)
    assert not (tmp_path / ".grid.partial").exists()


def test_resume_refuses_changed_settings(tmp_path) -> None:
    on_cell, _ = interrupt_after(1)
    with pytest.raises(Stop):
        run_sweep(duel(GRID), trials=800, out=tmp_path, run_id="g", on_cell=on_cell)
    with pytest.raises(OptionError, match=r"seed 5 -> 6"):
        run_sweep(duel(GRID), trials=800, seed=6, out=tmp_path, run_id="g", resume=True)
    with pytest.raises(OptionError, match="the scenario file changed"):
        run_sweep(duel(GRID, max_rounds=50), trials=800, out=tmp_path, run_id="g", resume=True)


def test_resume_without_an_interrupted_run_is_an_error(tmp_path) -> None:
    with pytest.raises(OptionError, match="nothing to resume"):
        run_sweep(duel(GRID), trials=100, out=tmp_path, run_id="g", resume=True)
    with pytest.raises(OptionError, match="resume needs the results folder"):
        run_sweep(duel(GRID), trials=100, out=None, resume=True)


def test_a_rerun_replaces_the_folder_whole(tmp_path) -> None:
    run_sweep(duel(GRID), trials=300, out=tmp_path, run_id="g")
    (tmp_path / "g" / "stray.txt").write_text("old")
    run_sweep(duel(GRID), trials=400, out=tmp_path, run_id="g")
    assert not (tmp_path / "g" / "stray.txt").exists()
    assert (balance.load(tmp_path / "g")["trials"] == 400).all()


def test_a_failed_run_keeps_the_previous_results(tmp_path) -> None:
    run_sweep(duel(GRID), trials=300, out=tmp_path, run_id="g")
    on_cell, _ = interrupt_after(3)
    with pytest.raises(Stop):
        run_sweep(duel(GRID), trials=400, out=tmp_path, run_id="g", on_cell=on_cell)
    assert (balance.load(tmp_path / "g")["trials"] == 300).all()


def test_load_of_something_else_is_a_clean_error(tmp_path) -> None:
    with pytest.raises(BalanceError, match="not a finished balance run"):
        balance.load(tmp_path)


@pytest.mark.parametrize("bad", ["../x", "", "a b"])
def test_run_ids_are_plain_names(tmp_path, bad: str) -> None:
    with pytest.raises(OptionError, match="run id"):
        run_sweep(duel(GRID), trials=100, out=tmp_path, run_id=bad)
