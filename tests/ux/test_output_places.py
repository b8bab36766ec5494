"""An output place that cannot be written (issue 30, item 3): a read-only folder, or a path
under a file. Every command with an output checks the place before any fight runs: one
clear error, exit 2, no traceback, and nothing half-written (before the fix ``balance check
--out /read-only/x`` ran every claim and then ended in a PermissionError traceback with
exit 1, which CI read as a failed claim).

Run as root (as on the project's machine), a folder's permission bits do not stop writes,
so the read-only case there also makes the probe of that one folder fail as the kernel does
(EACCES); the path-under-a-file case is real for everyone.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
import yaml

from balance.cli import main
from balance.io import atomic
from tests.sweep.helpers import duel

ROUND_ROBIN = {"round_robin": {"paths": ["sides.red.members.0.weapon",
                                         "sides.blue.members.0.weapon"],
                               "values": ["long_sword", "spear"]}}


@pytest.fixture
def no_fights(monkeypatch):
    """Any fight played fails the test: the place is checked before simulating."""
    def fight(*a, **k):
        raise AssertionError("a fight was played before the output place was checked")

    import balance.analysis.racing
    import balance.analysis.task
    import balance.engine.run
    import balance.sweep.paired

    for module in (balance.analysis.task, balance.sweep.paired, balance.analysis.racing):
        monkeypatch.setattr(module, "simulate", fight)
    monkeypatch.setattr(balance.engine.run, "simulate_blocks", fight)


@pytest.fixture
def files(tmp_path) -> dict[str, str]:
    """A duel, a sweep, a round robin, a budget, and a finished run to report on."""
    (tmp_path / "duel.yaml").write_text(yaml.safe_dump(duel(trials=500)))
    (tmp_path / "sweep.yaml").write_text(yaml.safe_dump(duel({"grid": {"max_rounds": [5, 6]}},
                                                              trials=500)))
    (tmp_path / "rr.yaml").write_text(yaml.safe_dump(duel(ROUND_ROBIN, trials=500)))
    (tmp_path / "budget.yaml").write_text(yaml.safe_dump({
        "name": "b", "trials": 1000, "max_trials": 16384, "seed": 1,
        "claims": [{"claim": "c", "scenario": "duel.yaml", "metric": "win", "at_most": 1}]}))
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "duel.yaml").write_text(yaml.safe_dump(duel(trials=500)))
    assert main(["sweep", str(tmp_path / "sweep.yaml"), "--out", str(tmp_path / "runs"),
                 "--quiet"]) == 0
    (tmp_path / "notes.txt").write_text("keep")
    return {k: str(tmp_path / v) for k, v in (
        ("duel", "duel.yaml"), ("sweep", "sweep.yaml"), ("rr", "rr.yaml"),
        ("budget", "budget.yaml"), ("scenarios", "scenarios"), ("run", "runs/sweep"))}


def commands(f: dict[str, str], out: str) -> dict[str, list[str]]:
    """Each command with an output, its output at ``out``."""
    return {
        "sweep": ["sweep", f["sweep"], "--out", out, "--quiet"],
        "sensitivity": ["sensitivity", f["duel"], "--paths", "max_rounds", "--out", out,
                        "--quiet"],
        "check": ["check", f["budget"], "--out", out],
        "report": ["report", f["run"], "--out", out],
        "metagame": ["metagame", f["rr"], "--out", out, "--quiet"],
        "demo": ["demo", "--scenarios", f["scenarios"], "--out", out, "--quiet"],
        "autobalance": ["autobalance", f["rr"], "--vary", "tables.weapons.spear.attack",
                        "--out", out, "--quiet"],
        "lanchester": ["lanchester", f["duel"], "--sizes", "1-2", "--vs", "1", "--out", out],
        "schema": ["schema", "--out", out],
    }


NAMES = list(commands({k: "" for k in ("duel", "sweep", "rr", "budget", "scenarios", "run")},
                      ""))


def _snapshot(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("name", NAMES)
def test_an_output_under_a_file_is_one_clear_error(name, files, tmp_path, capsys,
                                                   no_fights) -> None:
    before = _snapshot(tmp_path)
    argv = commands(files, str(tmp_path / "notes.txt" / "out"))[name]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"balance {name}: error: ") and "Traceback" not in err
    assert "notes.txt is a file, not a folder" in err and err.count("\n") == 1
    assert _snapshot(tmp_path) == before and (tmp_path / "notes.txt").read_text() == "keep"


@pytest.mark.parametrize("name", NAMES)
def test_a_read_only_folder_is_one_clear_error(name, files, tmp_path, capsys, monkeypatch,
                                               no_fights) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    if os.geteuid() == 0:          # root writes anywhere: the kernel's answer for others
        real = atomic._probe
        monkeypatch.setattr(atomic, "_probe", lambda folder: os.strerror(errno.EACCES).lower()
                            if Path(folder) == locked else real(folder))
    try:
        before = _snapshot(tmp_path)
        argv = commands(files, str(locked / "out"))[name]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"balance {name}: error: ") and "Traceback" not in err
        assert f"{locked} is not writable (permission denied)" in err
        assert err.count("\n") == 1
        assert _snapshot(tmp_path) == before
    finally:
        locked.chmod(0o755)


def test_a_folder_that_exists_is_probed_where_it_is_replaced(tmp_path, monkeypatch) -> None:
    """Replacing a folder writes a temporary beside it: its parent must be writable."""
    from balance.errors import OptionError

    (tmp_path / "out").mkdir()
    monkeypatch.setattr(atomic, "_probe", lambda folder: "read-only file system"
                        if Path(folder) == tmp_path else None)
    with pytest.raises(OptionError, match="is not writable \\(read-only file system\\)"):
        atomic.check_replaceable(tmp_path / "out")
    atomic.check_writable(tmp_path / "out" / "deeper" / "x.json", what="file")


def test_the_probe_leaves_nothing_behind(tmp_path) -> None:
    assert atomic._probe(tmp_path) is None
    assert list(tmp_path.iterdir()) == []
    assert atomic._probe(tmp_path / "missing") is not None
