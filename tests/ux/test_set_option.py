"""``--set PATH=VALUE`` (issue 30, item 7): what-ifs without editing the YAML, for run,
sweep, solve (and the other questions) and check. The paths are the sweep's; values are read
as YAML. A file with ``--set`` plays exactly the file with that field edited; a bad path or
value is one clear error naming the ``--set`` that made it."""

from __future__ import annotations

import json

import pytest
import yaml

from balance.cli import main
from tests.sweep.helpers import duel
from tests.ux.strictjson import loads_strict


def write(tmp_path, name: str, data: dict) -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


def edited(**fields) -> dict:
    data = duel(trials=3000)
    member = data["sides"][0]["members"][0]
    member.update(fields.pop("red", {}))
    data["tables"] = fields.pop("tables", {})
    return data


def test_run_with_set_plays_the_edited_file(tmp_path, capsys) -> None:
    plain = write(tmp_path, "duel.yaml", duel(trials=3000))
    changed = write(tmp_path, "changed.yaml", edited(
        red={"stance": "aggressive", "armour": ["mail_hauberk", "helm"]},
        tables={"weapons": {"long_sword": {"damage": 9}}}))
    assert main(["run", plain, "--json", "--quiet",
                 "--set", "sides.red.members.0.stance=aggressive",
                 "--set", "tables.weapons.long_sword.damage=9",
                 "--set", "sides.0.members.0.armour=[mail_hauberk, helm]"]) == 0
    got = loads_strict(capsys.readouterr().out)
    assert main(["run", changed, "--json", "--quiet"]) == 0
    want = loads_strict(capsys.readouterr().out)
    assert got["set"] == [{"path": "sides.red.members.0.stance", "value": "aggressive"},
                          {"path": "tables.weapons.long_sword.damage", "value": 9},
                          {"path": "sides.0.members.0.armour",
                           "value": ["mail_hauberk", "helm"]}]
    assert {k: v for k, v in got.items() if k != "set"} == want
    assert main(["run", plain, "--quiet", "--set", "max_rounds=20"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  (with --set max_rounds=20)"


@pytest.mark.parametrize("item, message", [
    ("tables.weapons.long_swrod.damage=9", "--set tables.weapons.long_swrod.damage=9: "
     "tables.weapons.long_swrod.damage: 'long_swrod' is not a row of tables.weapons (did you "
     "mean 'long_sword'"),
    ("sides.0.members.0.weapon=long_swrod", "sides[0].members[0].weapon: 'long_swrod' is not "
     "a known weapon (did you mean 'long_sword', 'long_spear'?) (from --set "
     "sides.0.members.0.weapon=long_swrod)"),
    ("max_rounds=lots", "max_rounds: expected an integer, found 'lots' (from --set "
     "max_rounds=lots)"),
    ("max_rounds", "--set 'max_rounds': expected PATH=VALUE"),
    ("max_rounds=", "--set max_rounds=: no value after '='"),
    ("max_rounds=[1", "cannot read the value '[1' as YAML"),
    ("trials=5", "'trials' is the trial count (use --trials or --precision) and cannot be set "
     "here"),
    ("sides.red.members.0.armour.helm.protection=3", "'helm' is not an entry"),
])
def test_a_bad_set_is_one_clear_error(tmp_path, capsys, item, message) -> None:
    plain = write(tmp_path, "duel.yaml", duel(trials=300))
    assert main(["run", plain, "--quiet", "--set", item]) == 2
    err = capsys.readouterr().err
    assert err.startswith("balance run: error: ") and message in err, err
    assert "Traceback" not in err and err.count("\n") == 1


def test_a_set_through_a_fighter_changes_his_row_only(tmp_path, capsys) -> None:
    data = duel(trials=2000)
    data["sides"][1]["members"][0]["armour"] = ["mail_hauberk"]     # both in mail
    plain = write(tmp_path, "duel.yaml", data)
    assert main(["run", plain, "--json", "--quiet", "--set",
                 "sides.blue.members.0.armour.mail_hauberk.protection=12"]) == 0
    got = loads_strict(capsys.readouterr().out)
    by_hand = json.loads(json.dumps(data))
    by_hand["tables"] = {"armour": {"mine": {**yaml.safe_load(
        open("balance/data/yags/armour.yaml").read())["mail_hauberk"], "protection": 12}}}
    by_hand["sides"][1]["members"][0]["armour"] = ["mine"]
    assert main(["run", write(tmp_path, "hand.yaml", by_hand), "--json", "--quiet"]) == 0
    want = loads_strict(capsys.readouterr().out)
    assert got["outcomes"] == want["outcomes"]


def test_sweep_with_set_and_a_swept_field(tmp_path, capsys) -> None:
    grid = {"grid": {"sides.0.members.0.weapon": ["long_sword", "mace"]}}
    plain = write(tmp_path, "s.yaml", duel(grid, trials=1000))
    changed = write(tmp_path, "c.yaml", {**edited(red={"stance": "defensive"}), "sweep": grid,
                                         "trials": 1000})
    out = tmp_path / "runs"
    assert main(["sweep", plain, "--out", str(out), "--quiet",
                 "--set", "sides.0.members.0.stance=defensive"]) == 0
    text = capsys.readouterr().out
    assert "(with --set sides.0.members.0.stance=defensive)" in text
    assert main(["sweep", changed, "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    import balance

    a, b = balance.load(out / "s"), balance.load(out / "c")
    assert a["p_red"].tolist() == b["p_red"].tolist()
    manifest = a.attrs["manifest"]
    assert manifest["set"] == [{"path": "sides.0.members.0.stance", "value": "defensive"}]
    assert manifest["scenario_text"].endswith("# balance --set "
                                              "sides.0.members.0.stance=defensive\n")
    assert main(["sweep", plain, "--out", str(out), "--quiet",
                 "--set", "sides.red.members.0.weapon=spear"]) == 2
    assert "is swept by the axis 'red.weapon'" in capsys.readouterr().err


def test_solve_with_set(tmp_path, capsys) -> None:
    plain = write(tmp_path, "duel.yaml", duel(trials=16384))
    changed = write(tmp_path, "c.yaml", {**edited(red={"stance": "defensive"}),
                                         "trials": 16384})
    argv = ["--vary", "tables.weapons.long_sword.damage", "--target", "0.5", "--json",
            "--quiet"]
    assert main(["solve", plain, *argv, "--set", "sides.0.members.0.stance=defensive"]) == 0
    got = loads_strict(capsys.readouterr().out)
    assert main(["solve", changed, *argv]) == 0
    want = loads_strict(capsys.readouterr().out)
    assert got.pop("set") == [{"path": "sides.0.members.0.stance", "value": "defensive"}]
    assert got["value"] == want["value"] and got["estimate"] == want["estimate"]


def test_check_with_set(tmp_path, capsys) -> None:
    write(tmp_path, "duel.yaml", duel(trials=1000))
    budget = write(tmp_path, "budget.yaml", {
        "name": "b", "trials": 2000, "max_trials": 16384, "seed": 1,
        "claims": [{"claim": "red wins at most 70%", "scenario": "duel.yaml", "metric": "win",
                    "side": "red", "at_most": 0.7}]})
    out = tmp_path / "out"
    assert main(["check", budget, "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["check", budget, "--out", str(out),
                 "--set", "sides.blue.members.0.skills.single_weapon=0"]) == 1
    console = capsys.readouterr().out
    assert console.startswith("(every claim's scenario with --set "
                              "sides.blue.members.0.skills.single_weapon=0)")
    doc = loads_strict((out / "check-budget" / "check.json").read_text())
    assert doc["set"] == [{"path": "sides.blue.members.0.skills.single_weapon", "value": 0}]
    assert "--set sides.blue.members.0.skills.single_weapon=0" in \
        (out / "check-budget" / "check.md").read_text()
    assert main(["check", budget, "--out", str(out), "--set", "sides.blue.members.0.skils=0"]) \
        == 2
    err = capsys.readouterr().err
    assert "claim 1: --set sides.blue.members.0.skils=0:" in err and "did you mean" in err
