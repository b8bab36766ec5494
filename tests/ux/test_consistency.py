"""Issue 30, item 6: the smaller inconsistencies a designer tripped on.

* a budget's problems arrive all at once (they came in three rounds: the budget's own
  fields, then each claim's first problem, then the rest);
* ``--out`` means the results folder for ``check`` as for ``sweep`` (an old check folder
  given as ``--out`` still works, with a note);
* the same bad file exits 2 from ``validate`` and ``run`` alike;
* trial counts rounded up to whole blocks are said to be;
* a new table row that leaves fields out says which took their defaults.
"""

from __future__ import annotations

import json

import yaml

from balance.cli import main
from balance.io.scenario import load_scenario
from tests.sweep.helpers import duel
from tests.ux.strictjson import loads_strict

BUDGET = """\
name: rounds
trials: 1000
claims:
  - claim: a bad bound
    scenario: duel.yaml
    at_most: 60
  - claim: bad set and side
    scenario: duel.yaml
    side: bleu
    set: {sides.0.members.0.skils.x: 1, max_roundz: 3}
    at_most: 0.5
  - claim: bad difference value
    scenario: duel.yaml
    difference: {path: sides.0.members.0.weapon, from: long_sword, to: long_swrod}
    at_most: 0.5
  - claim: missing file
    scenario: nope.yaml
    at_most: 0.5
"""


def test_every_problem_of_a_budget_at_once(tmp_path, capsys) -> None:
    (tmp_path / "duel.yaml").write_text(yaml.safe_dump(duel(trials=500)))
    (tmp_path / "budget.yaml").write_text(BUDGET)
    assert main(["check", str(tmp_path / "budget.yaml"), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.splitlines()
    found = [line.split(": error: ", 1)[1] for line in err]
    assert [f.split(":")[1] for f in found] == ["4", "9", "10", "10", "12", "17"]   # by line
    text = "\n".join(found)
    for words in ("at_most: win is a fraction from 0 to 1", "'bleu' is not a side",
                  "'skils' is not a field", "'max_roundz' is not a field",
                  "'long_swrod' is not a known weapon", "no such file 'nope.yaml'"):
        assert words in text
    assert not (tmp_path / "o").exists()


def test_check_out_is_the_results_folder_and_an_old_check_folder_still_works(
        tmp_path, capsys) -> None:
    (tmp_path / "duel.yaml").write_text(yaml.safe_dump(duel(trials=500)))
    (tmp_path / "gate.yaml").write_text(yaml.safe_dump({
        "name": "g", "trials": 16384, "claims": [
            {"claim": "any", "scenario": "duel.yaml", "metric": "win", "between": [0, 1]}]}))
    budget = str(tmp_path / "gate.yaml")
    assert main(["check", budget, "--out", str(tmp_path / "results")]) == 0
    assert (tmp_path / "results" / "check-gate" / "check.json").is_file()
    assert main(["check", budget, "--out", str(tmp_path / "results"), "--run-id", "nightly"]) \
        == 0
    assert (tmp_path / "results" / "nightly" / "check.md").is_file()
    capsys.readouterr()
    old = tmp_path / "results" / "nightly"            # an --out written the old way
    assert main(["check", budget, "--out", str(old)]) == 0
    err = capsys.readouterr().err
    assert "is a check folder, replaced as --out meant before issue 30" in err
    assert f"--out {old.parent} --run-id nightly" in err
    assert not (old / "check-gate").exists() and (old / "check.json").is_file()


def test_the_same_bad_file_exits_2_from_validate_and_run(tmp_path, capsys) -> None:
    data = duel()
    data["sides"][0]["members"][0]["weapon"] = "long_swrod"
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    assert main(["validate", str(path)]) == 2
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].endswith(err[1].removeprefix("balance run: error: "))


def test_rounded_trials_are_said_to_be(tmp_path, capsys) -> None:
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(duel()))
    assert main(["sensitivity", str(path), "--paths", "max_rounds", "--trials", "1000",
                 "--quiet", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["trials"] == 16384
    assert doc["notes"] == ["1,000 trials asked for, 16,384 played: every version plays "
                            "whole blocks of 16,384 trials from the same streams"]
    assert main(["sensitivity", str(path), "--paths", "max_rounds", "--trials", "16384",
                 "--quiet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == []
    (tmp_path / "b.yaml").write_text(yaml.safe_dump({
        "name": "b", "trials": 2000, "max_trials": 20000, "claims": [
            {"claim": "any", "scenario": "duel.yaml", "metric": "win", "between": [0, 1]}]}))
    assert main(["check", str(tmp_path / "b.yaml"), "--out", str(tmp_path / "o")]) == 0
    err = capsys.readouterr().err
    assert "note: the budget: trials 2,000 rounded up to 16,384 per cell" in err
    assert "max_trials 20,000 rounded to 16,384 per cell" in err
    doc = loads_strict((tmp_path / "o" / "check-b" / "check.json").read_text())
    assert len(doc["notes"]) == 2


def test_a_new_row_says_which_fields_took_defaults(tmp_path, capsys) -> None:
    data = duel(trials=200)
    data["tables"] = {"weapons": {
        "bastard_sword": {"style": "single_weapon", "attack": 3, "defence": 2, "damage": 7},
        "long_sword": {"damage": 7}}}                    # a shipped row: nothing to say
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    [note] = load_scenario(path).notes
    assert note.startswith(f"{path}:") and ": note: tables.weapons.bastard_sword: a new " \
        "weapon; fields left at their defaults: damage_type wounds, reach 1," in note
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == note
    assert main(["run", str(path), "--quiet"]) == 0
    assert capsys.readouterr().err.strip() == note
