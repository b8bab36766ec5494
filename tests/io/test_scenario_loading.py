"""Loading good scenarios: files and dicts become frozen models with resolved tables.

Also the three file-facing commands (``validate``, ``tables``, ``schema``), called through
their own handlers so that these tests do not depend on the other sub-commands.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from pathlib import Path

import pytest

from balance.commands import schema as schema_cmd
from balance.commands import tables as tables_cmd
from balance.commands import validate as validate_cmd
from balance.errors import BalanceError, ScenarioError
from balance.io.scenario import LoadedScenario, load_scenario
from balance.io.tables import resolve_tables, shipped_rows, shipped_tables
from balance.io.yamlfile import PathIndex, format_path, read_yaml
from balance.models import SCENARIO_MODELS, scenario_schema

DATA = Path(__file__).resolve().parents[1] / "data"
DUEL_FILE = DATA / "duel.yaml"

DUEL = {
    "name": "two veterans",
    "ruleset": "yags",
    "trials": 500,
    "sides": [
        {"name": "red", "members": [{"skills": {"single_weapon": 4}, "weapon": "long_sword",
                                     "armour": ("mail_hauberk", "helm")}]},
        {"name": "blue", "members": [{"skills": {"single_weapon": 4}, "weapon": "mace"}]},
    ],
}


def run_command(module, argv: list[str]) -> int:
    """Parse ``argv`` with only ``module`` registered and call its handler."""
    parser = argparse.ArgumentParser(prog="balance")
    module.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


# --- loading ---------------------------------------------------------------------------------


def test_a_dict_loads_into_a_frozen_model():
    loaded = load_scenario(DUEL)
    assert isinstance(loaded, LoadedScenario)
    assert (loaded.ruleset, loaded.text, loaded.path) == ("yags", None, None)
    red = loaded.model.sides[0].members[0]
    assert red.armour == ("mail_hauberk", "helm")
    assert red.attributes.strength == 3          # documented default
    assert loaded.model.trials == 500
    with pytest.raises(dataclasses.FrozenInstanceError):
        loaded.ruleset = "other"
    with pytest.raises(ValueError, match="frozen"):
        loaded.model.trials = 1


def test_a_file_loads_with_its_text_and_path():
    loaded = load_scenario(DUEL_FILE)
    assert loaded.path == str(DUEL_FILE)
    assert loaded.text == DUEL_FILE.read_text(encoding="utf-8")
    assert [s.name for s in loaded.model.sides] == ["knight", "brigands"]
    assert loaded.model.sides[1].members[0].policy.yield_at == "heavy"
    assert loaded.model.seed == 7


def test_yaml_lists_fill_tuple_fields_and_dates_stay_text(tmp_path):
    text = DUEL_FILE.read_text().replace("name: knight against brigand", "name: 2024-05-01")
    (tmp_path / "s.yaml").write_text(text)
    loaded = load_scenario(tmp_path / "s.yaml")
    assert loaded.model.name == "2024-05-01"
    assert loaded.model.sides[0].members[0].armour == ("mail_hauberk", "helm")


def test_anchors_and_merge_keys_reuse_a_member(tmp_path):
    (tmp_path / "s.yaml").write_text(
        "name: merge\nruleset: yags\nsides:\n"
        "  - name: a\n    members:\n"
        "      - &vet {weapon: mace, skills: {single_weapon: 4}}\n"
        "  - name: b\n    members:\n"
        "      - <<: *vet\n        weapon: spear\n")
    members = [s.members[0] for s in load_scenario(tmp_path / "s.yaml").model.sides]
    assert (members[0].weapon, members[1].weapon) == ("mace", "spear")
    assert members[1].skills.single_weapon == 4


def test_the_path_index_locates_values_and_keys():
    text = DUEL_FILE.read_text()
    data, index = read_yaml(text, "duel.yaml")
    assert data["sides"][0]["members"][0]["armour"] == ["mail_hauberk", "helm"]
    assert index[("sides", 0, "members", 0, "armour", 1)] == (17, 32)
    assert index.locate(("sides", 0, "members", 0, "weapon"), at_key=True) == (16, 9)
    # a missing key falls back to its nearest existing parent
    assert index.locate(("sides", 1, "members", 0, "soak")) == (21, 9)
    assert index.locate(("nowhere",)) == index[()]
    assert PathIndex().locate(("sides", 0)) is None


def test_field_paths_read_like_the_file():
    assert format_path(("sides", 1, "members", 0, "armour", 0)) == "sides[1].members[0].armour[0]"
    assert format_path(("tables", "weapons", "long_sword", "damage")) == \
        "tables.weapons.long_sword.damage"
    assert format_path(("tables", "weapons", "long sword")) == "tables.weapons['long sword']"


# --- tables ----------------------------------------------------------------------------------


def test_a_partial_patch_changes_only_the_fields_it_sets():
    shipped = shipped_tables("yags").weapons["long_sword"]
    patched = load_scenario(DUEL_FILE).tables.weapons["long_sword"]
    assert (shipped.damage, patched.damage) == (6, 8)
    assert patched.model_dump(exclude={"damage"}) == shipped.model_dump(exclude={"damage"})


def test_a_new_row_with_every_required_field_is_added():
    tables = load_scenario(DUEL_FILE).tables
    laser = tables.weapons["laser_sword"]
    assert (laser.style, laser.attack, laser.damage, laser.reach) == ("single_weapon", 5, 12, 3)
    assert laser.defence == 0                     # row default
    assert tables.armour == shipped_tables("yags").armour


def test_a_new_row_may_be_used_by_a_member():
    scenario = {**DUEL, "tables": {"armour": {"kevlar": {"protection": 9, "covers": ["torso"]}}}}
    scenario["sides"] = [dict(DUEL["sides"][0]), DUEL["sides"][1]]
    scenario["sides"][0]["members"] = [{"armour": ["kevlar"]}]
    loaded = load_scenario(scenario)
    assert loaded.tables.armour["kevlar"].covers == ("torso",)


def test_a_new_row_missing_required_fields_is_an_error(tmp_path):
    text = DUEL_FILE.read_text().replace(
        "laser_sword: {style: single_weapon, attack: 5, damage: 12, reach: 3}",
        "laser_sword: {attack: 5, damage: 12}")
    (tmp_path / "s.yaml").write_text(text)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(tmp_path / "s.yaml")
    (problem,) = caught.value.problems
    assert problem.path == "tables.weapons.laser_sword"
    assert problem.message.startswith("a new weapon needs 'style'")
    assert (problem.line, problem.column) == (9, 18)


def test_shipped_rows_are_the_raw_rows_and_a_fresh_copy():
    rows = shipped_rows("yags")
    assert set(rows) == {"weapons", "armour", "missiles"}
    assert rows["weapons"]["fist"]["damage_type"] == "stuns"
    assert "defence" not in rows["armour"]["helm"]          # as written: no defaults filled in
    rows["weapons"]["fist"]["damage"] = 99
    assert shipped_rows("yags")["weapons"]["fist"]["damage"] == 0


def test_resolve_tables_without_patches_is_the_shipped_tables():
    tables = resolve_tables("yags", None, "<test>", PathIndex())
    assert set(tables.weapons) == set(shipped_rows("yags")["weapons"])
    assert all(w.reach in range(5) for w in tables.weapons.values())


# --- commands --------------------------------------------------------------------------------


def test_validate_reports_good_and_bad_files(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(DUEL_FILE.read_text().replace("weapon: club", "weapon: clubb"))
    assert run_command(validate_cmd, ["validate", str(DUEL_FILE)]) == 0
    assert run_command(validate_cmd, ["validate", str(DUEL_FILE), str(bad)]) == 2
    out, err = capsys.readouterr()
    note = (f"{DUEL_FILE}:9:18: note: tables.weapons.laser_sword: a new weapon; fields left at "
            "their defaults: defence 0, damage_type wounds, strength 0, hands 1, properties "
            "[], other_styles [], kind weapon (write them in the row to choose)")
    assert out.splitlines() == [f"{DUEL_FILE}: ok (yags, 2 sides, 3 fighters, 2000 trials)",
                                note] * 2
    assert err == (f"{bad}:23:17: sides[1].members[0].weapon: 'clubb' is not a known weapon "
                   "(did you mean 'club'?)\n")


def test_tables_json_prints_every_row_with_defaults(capsys):
    assert run_command(tables_cmd, ["tables", "yags", "weapons", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["weapons"]
    assert data["weapons"]["long_sword"]["damage"] == 6
    assert data["weapons"]["fist"]["properties"] == []
    assert set(data["weapons"]) == set(shipped_rows("yags")["weapons"])


def test_tables_text_views(capsys):
    assert run_command(tables_cmd, ["tables", "yags"]) == 0
    overview = capsys.readouterr().out.splitlines()
    assert overview[0].split() == ["table", "rows", "fields"]
    assert overview[1].startswith("weapons") and "style, attack" in overview[1]
    assert run_command(tables_cmd, ["tables", "yags", "armour"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["name", "protection", "covers"]
    jacket = next(line for line in lines if line.startswith("soft_leather_jacket "))
    assert "torso,arms" in jacket
    end = lines[0].index("protection") + len("protection")      # numbers are right-aligned
    assert all(line[end - 1].isdigit() and line[end] == " " for line in lines[1:])


@pytest.mark.parametrize(("argv", "message"), [
    (["tables", "yagz"], "'yagz' is not an available ruleset (did you mean 'yags'?"),
    (["tables", "yags", "weapon"], "'weapon' is not a known table (did you mean 'weapons'?)"),
])
def test_tables_names_unknown_names_with_suggestions(argv, message):
    with pytest.raises(BalanceError, match=re.escape(message)):
        run_command(tables_cmd, argv)


def test_schema_names_an_unknown_ruleset():
    with pytest.raises(BalanceError, match=re.escape("'yagz' is not an available ruleset")):
        run_command(schema_cmd, ["schema", "--ruleset", "yagz"])


def test_schema_is_draft_2020_12_over_every_ruleset(tmp_path, capsys):
    assert run_command(schema_cmd, ["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert len(schema["oneOf"]) == len(SCENARIO_MODELS)
    yags = schema["$defs"][schema["oneOf"][0]["$ref"].rsplit("/", 1)[-1]]
    assert {"name", "ruleset", "sides"} <= set(yags["required"])
    assert yags["additionalProperties"] is False
    out = tmp_path / "balance-scenario.schema.json"
    assert run_command(schema_cmd, ["schema", "--ruleset", "yags", "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == scenario_schema(["yags"])
    assert "yaml-language-server: $schema=" in capsys.readouterr().err
