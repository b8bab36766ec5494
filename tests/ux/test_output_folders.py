"""An output folder is replaced whole, so ``--out`` must never take a designer's own folder or
file: only a new name, an empty folder, or a folder the lab wrote (its marker, or the files a
lab command writes together) may be replaced; anything else is a clean error, before any fight
runs, and leaves the path as it was."""

from __future__ import annotations

import pytest
import yaml

from balance.cli import main
from balance.errors import OptionError
from balance.io.atomic import MARKER, check_replaceable, new_directory
from tests.sweep.helpers import duel

RPS = ",rock,paper,scissors\nrock,,0,1\npaper,1,,0\nscissors,0,1,\n"


def test_only_new_empty_or_lab_folders_are_replaced(tmp_path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.yaml").write_text("mine")
    with pytest.raises(OptionError, match=r"the lab did not write \(it holds notes.yaml\)"):
        check_replaceable(mine)
    with pytest.raises(OptionError, match="is a file, not a folder"):
        check_replaceable(mine / "notes.yaml")
    with pytest.raises(OptionError, match="not the current or a parent folder"):
        check_replaceable(tmp_path / "..")
    (tmp_path / "empty").mkdir()
    check_replaceable(tmp_path / "empty")
    check_replaceable(tmp_path / "new")
    old = tmp_path / "old"          # written before the marker: check.json beside check.md
    old.mkdir()
    (old / "check.json").write_text("{}")
    (old / "check.md").write_text("")
    check_replaceable(old)
    with new_directory(tmp_path / "ours") as tmp:
        (tmp / "x.txt").write_text("x")
    assert (tmp_path / "ours" / MARKER).is_file()
    check_replaceable(tmp_path / "ours")
    assert (mine / "notes.yaml").read_text() == "mine"


def test_commands_refuse_a_users_folder_before_running(tmp_path, capsys) -> None:
    """``balance check --out results`` once replaced all of results/ with check.md and
    check.json; ``sensitivity --out notes.txt`` turned the file into a folder; ``sweep --out``
    a file ended in a NotADirectoryError traceback."""
    mine = tmp_path / "results"
    mine.mkdir()
    (mine / "my_sweep.csv").write_text("keep")
    notes = tmp_path / "notes.txt"
    notes.write_text("keep")
    (tmp_path / "m.csv").write_text(RPS)
    sweep = tmp_path / "s.yaml"
    sweep.write_text(yaml.safe_dump(duel({"grid": {"max_rounds": [5, 6]}})))
    for argv in (["metagame", "--matrix", str(tmp_path / "m.csv"), "--out", str(mine)],
                 ["sweep", str(sweep), "--out", str(notes), "--quiet"],
                 ["sensitivity", str(sweep), "--paths", "max_rounds", "--out", str(notes)]):
        assert main(argv) == 2
        assert "balance " + argv[0] + ": error: " in capsys.readouterr().err
    assert (mine / "my_sweep.csv").read_text() == "keep" and notes.read_text() == "keep"
    assert sorted(p.name for p in mine.iterdir()) == ["my_sweep.csv"]
