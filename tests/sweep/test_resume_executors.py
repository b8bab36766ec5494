"""Resume and progress under every executor (issue 30, item 4).

The default ``local`` executor runs a task inside ``submit``; a driver that submitted every
cell before reading any result saved nothing and showed no progress until the last cell
ended (killed 12 s into a 30 s sweep, ``--resume`` resumed 0 of 35 cells). Drivers now hand a
serial executor one cell at a time, so each cell is saved, and the progress moves, as it
finishes. These tests interrupt a sweep after k cells under each executor (a hook in this
process, and a real SIGKILL of a child process) and check that ``resume`` plays only the
other cells and gives the uninterrupted table exactly.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from balance.sweep import run as sweep_run
from balance.sweep import run_sweep
from balance.sweep.executors import SerialExecutor, as_finished, dask_executor, in_order
from tests.sweep.helpers import GRID, duel

TRIALS = 600
CELLS = 6          # GRID: 3 weapons x 2 armours


class Stop(KeyboardInterrupt):
    """Raised from on_cell: the sweep is interrupted after some cells."""


def _interrupt_after(k: int):
    seen: list[str] = []

    def on_cell(result) -> None:
        seen.append(result.cell_id)
        if len(seen) == k:
            raise Stop

    return on_cell, seen


def calls(monkeypatch, module, name: str) -> list:
    """Record the job of every call of ``module.name`` (still calling it), in order."""
    made: list = []
    real = getattr(module, name)

    def counting(job):
        made.append(job)
        return real(job)

    monkeypatch.setattr(module, name, counting)
    return made


@pytest.fixture(scope="module")
def uninterrupted() -> pd.DataFrame:
    return run_sweep(duel(GRID), trials=TRIALS, out=None).table


def _saved(out: Path, run_id: str) -> set[str]:
    return {p.stem for p in (out / f".{run_id}.partial" / "cells").glob("*.json")}


def _interrupt_and_resume(tmp_path: Path, executor, uninterrupted: pd.DataFrame,
                          k: int = 2) -> None:
    on_cell, seen = _interrupt_after(k)
    with pytest.raises(Stop):
        run_sweep(duel(GRID), trials=TRIALS, out=tmp_path, run_id="g", executor=executor,
                  on_cell=on_cell)
    saved = _saved(tmp_path, "g")
    assert saved == set(seen) and len(saved) == k
    rerun: list[str] = []
    res = run_sweep(duel(GRID), trials=TRIALS, out=tmp_path, run_id="g", executor=executor,
                    resume=True, on_cell=lambda r: rerun.append(r.cell_id))
    assert sorted(rerun) == sorted(set(uninterrupted["cell"]) - saved)
    assert res.manifest["resumed_cells"] == k
    pd.testing.assert_frame_equal(res.table, uninterrupted, check_exact=True)


def test_serial_saves_each_cell_before_the_next_runs(tmp_path, monkeypatch,
                                                     uninterrupted) -> None:
    """Under the serial executor the interruption after 2 cells stops the work there: only
    2 cells were ever played (before the fix all 6 ran inside ``submit`` first)."""
    played = calls(monkeypatch, sweep_run, "run_cell")
    _interrupt_and_resume(tmp_path, "local", uninterrupted)
    assert len(played) == CELLS          # 2 before the interruption, 4 on resume


def test_processes_interrupt_and_resume(tmp_path, uninterrupted) -> None:
    _interrupt_and_resume(tmp_path, "processes", uninterrupted)


def test_in_process_dask_interrupt_and_resume(tmp_path, uninterrupted) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        executor, _ = dask_executor(client)
        _interrupt_and_resume(tmp_path, executor, uninterrupted)


KILLER = textwrap.dedent("""
    import os, signal, sys
    from balance.sweep import run as sweep_run
    from tests.sweep.helpers import GRID, duel

    out, executor, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
    done, started = [], []

    def die():
        os.kill(os.getpid(), signal.SIGKILL)          # no clean-up of any kind

    def on_cell(result):                              # a pool: after k cells came back
        done.append(result.cell_id)
        if len(done) == k and executor != "local":
            die()

    real = sweep_run.run_cell

    def run_cell(job):                                # serial: as cell k + 1 starts
        started.append(job.cell_id)
        if len(started) == k + 1:
            die()
        return real(job)

    ex = executor
    if executor == "local":
        sweep_run.run_cell = run_cell
    elif executor == "dask":
        import distributed
        cluster = distributed.LocalCluster(processes=False, n_workers=2,
                                           threads_per_worker=1, dashboard_address=None)
        ex = distributed.Client(cluster).get_executor(pure=False)
    sweep_run.run_sweep(duel(GRID), trials=int(sys.argv[4]), out=out, run_id="g", executor=ex,
                        on_cell=on_cell)
""")


@pytest.mark.parametrize("executor", ["local", "processes", "dask"])
def test_a_killed_sweep_resumes_with_only_the_rest(tmp_path, executor, uninterrupted) -> None:
    """A sweep process killed (SIGKILL) after 3 cells under each executor keeps those 3 cells
    (and only finished ones); ``resume`` plays the other 3 and the table is the same. Under
    the serial executor the kill comes as the fourth cell starts: exactly 3 are saved (before
    the fix, none: every cell ran before the first was saved)."""
    if executor == "dask":
        pytest.importorskip("dask.distributed")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    log = tmp_path / "stderr.txt"
    with log.open("w") as err:
        # its own session, so the pool's workers (orphaned by the kill, holding no lock of
        # ours) are ended by this test through the group of the process it started
        proc = subprocess.Popen([sys.executable, "-c", KILLER, str(tmp_path), executor, "3",
                                 str(TRIALS)],
                                cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)
        try:
            code = proc.wait(timeout=300)
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
    assert code == -signal.SIGKILL, log.read_text()
    saved = _saved(tmp_path, "g")
    # a pool may finish a cell more before the kill lands
    assert len(saved) == 3 if executor == "local" else len(saved) >= 3
    rerun: list[str] = []
    res = run_sweep(duel(GRID), trials=TRIALS, out=tmp_path, run_id="g", resume=True,
                    on_cell=lambda r: rerun.append(r.cell_id))
    assert sorted(rerun) == sorted(set(uninterrupted["cell"]) - saved)
    pd.testing.assert_frame_equal(res.table, uninterrupted, check_exact=True)


def test_serial_progress_moves_as_each_cell_finishes(monkeypatch) -> None:
    """The bar advances once per cell, each time right after that cell was played (under
    the serial executor the bar used to move only after every cell had run)."""
    updates: list[int] = []

    class Bar:
        def update(self, n: int = 1) -> None:
            updates.append(len(played))

        def set_postfix_str(self, *a, **k) -> None:
            pass

        def close(self) -> None:
            pass

    import balance.progress

    played = calls(monkeypatch, sweep_run, "run_cell")
    monkeypatch.setattr(balance.progress, "progress_bar", lambda *a, **k: Bar())
    run_sweep(duel(GRID), trials=200, out=None, progress=True)
    assert updates == list(range(1, CELLS + 1))


def test_helpers_hand_a_serial_executor_one_job_at_a_time() -> None:
    """``as_finished`` and ``in_order`` run a serial executor's next job only when the
    previous result has been taken; a pool gets every job at once."""
    ran: list[int] = []

    def job(x: int) -> int:
        ran.append(x)
        return x * x

    for helper in (as_finished, in_order):
        ran.clear()
        it = helper(SerialExecutor(), job, [1, 2, 3])
        assert ran == []
        assert next(it) == 1 and ran == [1]
        assert next(it) == 4 and ran == [1, 2]
        it.close()
        assert ran == [1, 2]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        assert list(in_order(pool, job, [3, 1, 2])) == [9, 1, 4]
        assert sorted(as_finished(pool, job, [3, 1, 2])) == [1, 4, 9]


def test_question_progress_moves_block_by_block(monkeypatch) -> None:
    """A question (sensitivity, solve, exchange) counts trials per block as each finishes
    under the serial executor."""
    from balance.analysis import panel
    from balance.analysis.sensitivities import sensitivity

    seen: list[int] = []
    blocks = calls(monkeypatch, panel, "run_block")
    original = panel.Runner.__init__

    def init(self, *a, on_trials=None, **k):
        original(self, *a, on_trials=lambda n: seen.append(len(blocks)), **k)

    monkeypatch.setattr(panel.Runner, "__init__", init)
    sensitivity(duel(), paths=["max_rounds"], trials=3 * 1024, block_trials=1024,
                executor=SerialExecutor())
    assert seen == list(range(1, len(blocks) + 1)) and len(blocks) >= 3


def test_check_reports_each_cell_as_it_finishes(tmp_path, monkeypatch) -> None:
    """``balance check`` under the serial executor: each cell's look is reported right
    after that cell was played (the gate's progress), not after the whole claim."""
    import yaml

    from balance.gate import check as gate_check
    from balance.gate import check_budget

    played = calls(monkeypatch, gate_check, "run_cell")
    (tmp_path / "duel.yaml").write_text(yaml.safe_dump(duel(trials=500)))
    (tmp_path / "b.yaml").write_text(yaml.safe_dump({
        "name": "b", "trials": 1024, "max_trials": 1024, "claims": [
            {"claim": "any", "scenario": "duel.yaml", "metric": "win", "between": [0, 1],
             "sweep": GRID}]}))
    seen: list[int] = []
    check_budget(tmp_path / "b.yaml", on_cell=lambda claim, cell: seen.append(len(played)))
    assert seen == list(range(1, CELLS + 1))
