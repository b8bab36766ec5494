"""The gate's report: every failing cell listed with its evidence, set: echoed, advice for
inconclusive claims, strict JSON, and the output folder the help promises."""

from __future__ import annotations

import pytest

from balance.cli import main
from balance.gate import check_budget
from tests.ux.helpers import WEAPONS, write_budget
from tests.ux.strictjson import loads_strict


def test_every_failing_cell_is_listed_with_set_overrides(tmp_path, capsys) -> None:
    """Red at skill 1 against skill 4 loses with every weapon, so 'red wins at least 90%'
    fails in (at least) two cells of the sweep: each is listed, with the set: that did it."""
    path = write_budget(tmp_path, [{
        "claim": "red wins", "scenario": "duel.yaml", "metric": "win", "side": "red",
        "at_least": 0.9, "sweep": WEAPONS,
        "set": {"sides.0.members.0.skills.single_weapon": 1}}])
    result = check_budget(path).claims[0]
    assert result.verdict == "fail" and len(result.failing) >= 2
    out = tmp_path / "out"
    assert main(["check", path, "--out", str(tmp_path), "--run-id", "out"]) == 1
    console = capsys.readouterr().out
    md = (out / "check.md").read_text()
    for cell in result.failing:
        line = f"{cell.cell}: {result.evidence(cell)}"
        assert line in console
        assert f"| {cell.cell} | {result.evidence(cell)} | >= 90% |" in md
    assert "set: sides.0.members.0.skills.single_weapon = 1" in console
    assert "`set:` sides.0.members.0.skills.single_weapon = 1" in md
    doc = loads_strict((out / "check.json").read_text())
    assert doc["claims"][0]["set"] == {"sides.0.members.0.skills.single_weapon": 1}


def test_inconclusive_says_what_to_do_and_json_is_strict(tmp_path, capsys) -> None:
    """A mirror match against 'at least 49.2%' is undecided at 16,384 trials (its interval,
    about 49.6% +- 0.8, holds the bound): the console names --max-trials with a trial
    count; the unbounded side is null, not -Infinity."""
    path = write_budget(tmp_path, [{"claim": "even", "scenario": "duel.yaml", "metric": "win",
                                    "side": "red", "at_least": 0.492}])
    out = tmp_path / "results" / "check-budget"       # --out is the results folder
    assert main(["check", path, "--out", str(tmp_path / "results")]) == 0
    console = capsys.readouterr().out
    assert console.startswith("INCONCLUSIVE")
    assert "--max-trials" in console and "per cell" in console
    text = (out / "check.json").read_text()
    assert "Infinity" not in text and "NaN" not in text
    doc = loads_strict(text)
    assert doc["claims"][0]["bounds"] == [0.492, None]
    assert "--max-trials" in doc["claims"][0]["advice"]


def test_default_output_folder_is_the_one_the_help_names(tmp_path, capsys,
                                                         monkeypatch) -> None:
    path = write_budget(tmp_path, [{"claim": "anything", "scenario": "duel.yaml",
                                    "metric": "win", "between": [0, 1]}])
    monkeypatch.chdir(tmp_path)
    assert main(["check", path]) == 0
    assert "wrote results/check-budget/check.md" in capsys.readouterr().out
    assert (tmp_path / "results" / "check-budget" / "check.md").is_file()
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "results/check-budget" in " ".join(capsys.readouterr().out.split())
