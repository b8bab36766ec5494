"""Progress off a terminal: a plain line every ~10 s (done/total, rate, ETA) so CI logs show
a long sweep moving; the sweep's summary gives wall and compute time and 'N worker(s)'."""

from __future__ import annotations

import io

from balance import progress
from balance.cli import main
from balance.progress import LineProgress, progress_bar
from balance.sweep import run_sweep
from balance.sweep.summary import timing
from tests.sweep.helpers import GRID, duel


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_lines_every_interval_with_rate_and_eta() -> None:
    out, clock = io.StringIO(), Clock()
    bar = LineProgress(100, unit="cell", desc="sweep", file=out, interval=10, clock=clock)
    clock.now += 5
    bar.update(10)                       # before the first interval: quiet
    assert out.getvalue() == ""
    clock.now += 5
    bar.update(10)                       # 20 cells in 10 s: 2/s, 80 left, ETA 40 s
    bar.set_postfix_str("40,000 trials")
    clock.now += 10
    bar.update(20)                       # 40 in 20 s, 60 left at 2/s: 30 s
    bar.close()
    lines = out.getvalue().splitlines()
    assert lines == ["sweep: 20/100 cells (20%), 2.0 cells/s, ETA 40 s",
                     "sweep: 40/100 cells (40%), 2.0 cells/s, ETA 30 s, 40,000 trials",
                     "sweep: 40/100 cells (40%), done in 20 s, 40,000 trials"]


def test_the_total_gets_a_done_line_not_an_eta() -> None:
    """The last update once printed "6/6 cells (100%), ..., ETA ?" before the "done" line."""
    out, clock = io.StringIO(), Clock()
    bar = LineProgress(2, unit="cell", file=out, interval=10, clock=clock)
    clock.now += 10
    bar.update(1)
    clock.now += 10
    bar.update(1)                        # at the total: no ETA line
    bar.close()
    assert out.getvalue().splitlines() == ["1/2 cells (50%), 0.10 cells/s, ETA 10 s",
                                           "2/2 cells (100%), done in 20 s"]
    out, clock = io.StringIO(), Clock()  # one long step: no line on the way, the total at close
    bar = LineProgress(1, unit="cell", file=out, interval=10, clock=clock)
    clock.now += 30
    bar.update(1)
    bar.close()
    assert out.getvalue() == "1/1 cells (100%), done in 30 s\n"


def test_a_short_run_prints_nothing_and_a_terminal_gets_tqdm() -> None:
    out = io.StringIO()
    bar = progress_bar(5, unit="cell", file=out)
    assert isinstance(bar, LineProgress)
    bar.update(5)
    bar.close()
    assert out.getvalue() == ""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    bar = progress_bar(5, unit="cell", file=Terminal())
    assert type(bar).__module__.startswith("tqdm")
    bar.close()


def test_a_sweep_logs_lines_when_stderr_is_not_a_terminal(monkeypatch, capsys) -> None:
    monkeypatch.setattr(progress, "LINE_INTERVAL", 0.0)
    run_sweep(duel(GRID), trials=200, out=None, progress=True)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("Test duel: 1/6 cells (17%), ") and "cells/s, ETA" in err[0]
    assert err[-1].startswith("Test duel: 6/6 cells (100%), done in ")
    assert not any("ETA ?" in line for line in err)


def test_sweep_summary_gives_wall_and_compute_time(tmp_path, capsys) -> None:
    path = tmp_path / "grid.yaml"
    import yaml

    path.write_text(yaml.safe_dump(duel(GRID)))
    assert main(["sweep", str(path), "--trials", "200", "--out", str(tmp_path), "--quiet"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert "(6 cells, 1,200 trials; wall " in last and ", compute " in last
    assert last.endswith("s (local, 1 worker))")
    assert timing({"seconds": 4.24, "cell_seconds": 7.9,
                   "executor": {"kind": "processes", "workers": 2}}) == \
        "wall 4.2 s, compute 7.9 s (processes, 2 workers)"
