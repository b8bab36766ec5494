"""A cell's numbers depend on its own identity only: never on the executor, the worker
count, the order of the cells, or which other cells the sweep holds."""

from __future__ import annotations

import pandas as pd
import pytest

from balance.report.stats import wilson
from balance.sweep import load_plan, run_sweep
from balance.sweep.executors import dask_executor
from balance.sweep.task import half_width
from tests.sweep.helpers import GRID, duel

NUMBERS = ["cell", "stream", "trials", "n_red", "n_blue", "n_draw", "rounds_mean", "p_red",
           "lo_red", "hi_red", "fallen_red", "dead_blue"]


def table(**kw) -> pd.DataFrame:
    return run_sweep(duel(GRID), trials=1500, out=None, **kw).table


@pytest.fixture(scope="module")
def local() -> pd.DataFrame:
    return table()


def same_cells(a: pd.DataFrame, b: pd.DataFrame) -> None:
    a = a.set_index("cell").sort_index()
    b = b.set_index("cell").loc[a.index]
    pd.testing.assert_frame_equal(a[NUMBERS[1:]], b[NUMBERS[1:]], check_exact=True)


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_processes_give_the_local_table(local, method, monkeypatch) -> None:
    import multiprocessing

    from balance.sweep import executors

    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} here")
    monkeypatch.setattr(executors, "start_method", lambda: method)
    res = run_sweep(duel(GRID), trials=1500, out=None, executor="processes", workers=2)
    assert res.manifest["executor"]["start_method"] == method
    pd.testing.assert_frame_equal(res.table, local, check_exact=True)


def test_in_process_dask_cluster_gives_the_local_table(local) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        executor, info = dask_executor(client)
        assert info.kind == "dask" and info.workers == 2
        pd.testing.assert_frame_equal(table(executor=executor), local, check_exact=True)


def test_order_and_other_cells_do_not_matter(local) -> None:
    reordered = duel({"grid": {
        "armour": {"path": "sides.blue.members.0.armour",
                   "values": [["mail_hauberk"], [], ["plate"]], "labels": ["mail", "none", "pl"]},
        "sides.0.members.0.weapon": ["spear", "mace", "long_sword", "great_sword"]}})
    other = run_sweep(reordered, trials=1500, out=None).table
    assert len(other) == 12
    same_cells(local, other[other["cell"].isin(local["cell"])])


def test_worker_count_does_not_matter(local) -> None:
    same_cells(local, table(executor="processes", workers=1))


def test_seed_changes_the_numbers(local) -> None:
    assert not table(seed=6)["n_red"].equals(local["n_red"])


def test_common_random_numbers_are_shared_streams(local) -> None:
    crn = table(crn=True)
    assert crn["stream"].nunique() == 1
    # the cell whose values match the streams' key of no cell still gets valid numbers
    assert (crn["trials"] == 1500).all()


def test_adaptive_precision_stops_at_a_block_boundary() -> None:
    res = run_sweep(duel({"grid": {"max_rounds": [60]}}), precision=0.02, block_trials=1024,
                    out=None)
    row = res.table.iloc[0]
    assert row["precision_met"]
    assert row["trials"] % 1024 == 0
    assert max(row["hi_red"] - row["p_red"], row["p_red"] - row["lo_red"]) <= 0.021
    # the same trials as a fixed run, block for block
    fixed = run_sweep(duel({"grid": {"max_rounds": [60]}}), trials=int(row["trials"]),
                      block_trials=1024, out=None).table.iloc[0]
    assert fixed["n_red"] == row["n_red"] and fixed["rounds_mean"] == row["rounds_mean"]
    # one block fewer would not have met the target
    fewer = run_sweep(duel({"grid": {"max_rounds": [60]}}), trials=int(row["trials"]) - 1024,
                      block_trials=1024, out=None)
    tally = next(iter(fewer.tallies.values()))
    assert max(tally["wins"]) and half_width_of(tally) > 0.02


def half_width_of(tally_dict: dict) -> float:
    from balance.io.store import tally_from_dict

    return half_width(tally_from_dict(tally_dict))


def test_adaptive_precision_caps_and_says_so() -> None:
    res = run_sweep(duel({"grid": {"max_rounds": [60]}}), precision=0.001, block_trials=1024,
                    max_trials=2048, out=None)
    assert not res.table["precision_met"].iloc[0] and res.table["trials"].iloc[0] == 2048


def test_half_width_matches_scipy_wilson() -> None:
    from balance.engine.run import Tally

    t = Tally(2, 2, 10)
    t.trials, t.wins[:] = 1000, [412, 580, 8]
    lo, hi = wilson(412, 1000)
    widest = max((hi - lo) / 2, *(((h - lo_) / 2) for lo_, h in
                                  (wilson(580, 1000), wilson(8, 1000))))
    assert half_width(t) == pytest.approx(widest, rel=1e-9)


@pytest.mark.slow
def test_two_worker_process_cluster_gives_the_local_table(local) -> None:
    pytest.importorskip("dask.distributed")
    pd.testing.assert_frame_equal(table(executor="dask", workers=2), local, check_exact=True)


def test_plan_is_reusable_and_cells_are_validated_once() -> None:
    plan = load_plan(duel(GRID))
    a = run_sweep(plan, trials=500, out=None).table
    b = run_sweep(plan, trials=500, out=None).table
    pd.testing.assert_frame_equal(a, b)


def test_sweeps_work_for_every_registered_ruleset(tmp_path) -> None:
    """Any rule system: sweep a shipped scenario of it over a core field, on two executors."""
    from pathlib import Path

    import yaml

    from balance.rules import REGISTRY

    root = Path(__file__).resolve().parents[2] / "scenarios"
    for ruleset in REGISTRY:
        files = sorted((root / ruleset).glob("*.yaml"))
        if not files:
            continue
        data = yaml.safe_load(files[0].read_text())
        data["sweep"] = {"grid": {"max_rounds": [10, 30]}}
        local = run_sweep(data, trials=200, out=None).table
        assert len(local) == 2 and (local["trials"] == 200).all(), ruleset
        other = run_sweep(data, trials=200, out=None, executor="processes", workers=2).table
        pd.testing.assert_frame_equal(local, other, check_exact=True)
