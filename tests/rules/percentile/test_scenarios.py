"""Percentile scenario files: loading, situations resolved per fighter, the loader's
located errors, the generic commands (``validate``, ``tables``, ``schema``, ``run``) and
compile-time checks of what a member carries."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pytest

import balance
from balance.commands import run as run_cmd
from balance.commands import tables as tables_cmd
from balance.commands import validate as validate_cmd
from balance.errors import ScenarioError
from balance.models import SCENARIO_MODELS, scenario_schema
from balance.rules import get

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios" / "percentile"

GOOD = """\
name: cellar fight
ruleset: percentile
trials: 1000
distance: 10
situation: {light: dark}
sides:
  - name: red
    situation: {space: corridor}
    members:
      - name: Ana
        skills: {attack: 60, shield: 50}
        weapon: broadsword
        shield: full_shield
        armour: leather
        situation: {light: bright, position: higher}
  - name: blue
    distance: 12
    members:
      - name: Bo
        weapon: short_spear
        armour: leather_and_rings
"""


def command(module, argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="balance")
    module.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path


def compiled(source):
    loaded = balance.load_scenario(source)
    system = get("percentile")
    return system.compile(loaded.model, loaded.tables)


def test_situations_resolve_member_over_side_over_scenario(tmp_path) -> None:
    fight = compiled(write(tmp_path, GOOD))
    ana, bo = fight.fighters
    assert (ana.light, ana.space_class, ana.level) == (0, 2, 1)   # bright, corridor, higher
    assert (bo.light, bo.space_class, bo.level) == (2, 0, 0)      # dark, open, level
    assert ana.clearance == 1.5 and math.isinf(bo.clearance)
    assert fight.side_distance == (10.0, 12.0)
    # defaults: skills from the tables, hit points from CON and SIZ, dodge DEX x 2
    assert (bo.items[0].attack, bo.items[0].parry, bo.dodge, bo.hp) == (15, 15, 22, 12)
    assert bo.db_text == "0" and ana.items[1].shield_size == 2


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("weapon: broadsword", "weapon: broadswrod", 12,
     "'broadswrod' is not a known weapon (did you mean 'broadsword'"),
    ("shield: full_shield", "shield: full_shiled", 13,
     "'full_shiled' is not a known shield (did you mean 'full_shield'"),
    ("armour: leather\n", "armour: lether\n", 14,
     "'lether' is not a known armour (did you mean 'leather'"),
    ("situation: {light: dark}", "situation: {light: dim}", 5,
     "expected one of 'bright', 'semi_dark', 'dark', 'pitch_dark', found 'dim'"),
    ("position: higher", "position: up", 15, "expected one of 'level', 'higher', 'lower'"),
    ("trials: 1000", "trials: yes", 3, "YAML reads yes/no/on/off as true/false"),
    ("        armour: leather\n", "        armour: leather\n        mount: pony\n", 10,
     "a mounted fighter needs skills.ride"),
])
def test_mistakes_are_located_with_hints(tmp_path, old, new, line, message) -> None:
    with pytest.raises(ScenarioError) as err:
        balance.load_scenario(write(tmp_path, GOOD.replace(old, new, 1)))
    problems = err.value.problems
    assert any(message in p.message for p in problems), [str(p) for p in problems]
    assert any(p.line == line for p in problems), [str(p) for p in problems]


def test_shield_and_off_hand_weapon_are_one_hand(tmp_path) -> None:
    text = GOOD.replace("shield: full_shield", "shield: full_shield\n        off_hand: dagger")
    with pytest.raises(ScenarioError, match="one off hand"):
        balance.load_scenario(write(tmp_path, text))


def test_what_a_member_carries_is_checked_when_compiled(tmp_path) -> None:
    two_handed = GOOD.replace("weapon: broadsword", "weapon: great_sword")
    with pytest.raises(ScenarioError, match="two-handed: no hand is left for the shield"):
        compiled(write(tmp_path, two_handed))
    net = GOOD.replace("weapon: short_spear", "weapon: net")
    with pytest.raises(ScenarioError, match="carry it as the off_hand weapon"):
        compiled(write(tmp_path, net))


def test_table_patches_change_the_fight(tmp_path) -> None:
    text = GOOD + "tables:\n  weapons:\n    broadsword: {damage: 1D10+4}\n" \
                  "  damage_bonus:\n    none: {bonus: 1D2}\n"
    fight = compiled(write(tmp_path, text))
    ana = fight.fighters[0]
    assert ana.items[0].damage == "1D10+4" and fight.pmfs[ana.items[0].normal].mean() == 9.5
    assert ana.db_text == "1D2"


def test_bundled_scenarios_validate(capsys) -> None:
    files = sorted(str(p) for p in SCENARIOS.glob("*.yaml"))
    assert len(files) == 4
    assert command(validate_cmd, ["validate", *files]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok (percentile,") == 4


def test_tables_command_lists_every_percentile_table(capsys) -> None:
    assert command(tables_cmd, ["tables", "percentile"]) == 0
    out = capsys.readouterr().out
    for table in ("weapons", "shields", "armour", "poisons", "damage_bonus", "lengths",
                  "spaces", "mounts", "fumbles", "fires", "resistance"):
        assert table in out
    assert command(tables_cmd, ["tables", "percentile", "poisons", "--json"]) == 0
    poisons = json.loads(capsys.readouterr().out)["poisons"]
    assert poisons["arsenic"]["pot"] == 16 and poisons["wine_of_bakshaan"]["pot"] is None
    assert {name: row["pot"] for name, row in poisons.items() if name != "wine_of_bakshaan"} == {
        "adder_venom": 10, "arsenic": 16, "belladonna": 16, "cyanide": 20, "dragon_venom": 20,
        "mushrooms": 15, "noidel_berries": 15, "scorpion_sting": 9, "spider_bite": 8,
        "strychnine": 20, "viper_venom": 16}


def test_schema_offers_the_percentile_scenario() -> None:
    assert "percentile" in SCENARIO_MODELS
    schema = scenario_schema(["percentile"])
    model = schema["$defs"]["PercentileScenario"]
    assert {"situation", "distance", "sides", "rules", "tables"} <= set(model["properties"])
    light = schema["$defs"]["Situation"]["properties"]["light"]
    assert "pitch_dark" in json.dumps(light)


def test_run_from_the_command_line_both_engines(capsys) -> None:
    path = str(SCENARIOS / "sword_and_shield_duel.yaml")
    for engine in ("vector", "reference"):
        assert command(run_cmd, ["run", path, "--trials", "400", "--json", "--quiet",
                                 "--engine", engine]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["ruleset"] == "percentile" and doc["engine"] == engine
        assert sum(doc["outcomes"].values()) == pytest.approx(1.0)


GROUPS = sorted((ROOT / "scenarios" / "groups").glob("percentile_*.yaml"))


def test_bundled_group_scenarios_validate_and_run(capsys) -> None:
    assert [p.name for p in GROUPS] == ["percentile_spearmen_vs_swordsmen.yaml",
                                        "percentile_two_guards_vs_hero.yaml"]
    assert command(validate_cmd, ["validate", *map(str, GROUPS)]) == 0
    assert capsys.readouterr().out.count(": ok (percentile,") == 2
    for path in GROUPS:
        result = balance.run(balance.load_scenario(path), trials=4000, seed=1)
        sides = result.side_names
        # both sides have a real chance, and the survivors' report covers both sides
        assert all(0.1 < result.outcomes[s] < 0.9 for s in sides), result.outcomes
        assert set(result.survivors) == set(sides)
    hero = balance.run(balance.load_scenario(GROUPS[1]), trials=4000, seed=1)
    # The guards' morale breaks: about 30% of the second guard's fights end in flight (0.2986,
    # 0.3027, 0.3000 at 40,000 fights, seeds 1-3); a bound of 0.3 sat on that mean and passed
    # on the seed's luck, so the bound is four standard errors (0.007 at 4,000) below it.
    assert hero.fighter_status["Guard#2"]["fled"] > 0.27
    assert hero.fighter_status["Hero"]["yielded"] > 0.05         # the hero yields


def test_when_down_reads_its_older_spelling(tmp_path) -> None:
    """Policy ``when_down`` (issue 26) reads the older ``stand_up`` (``true``: ``stand``,
    ``false``: ``fight_down``), so scenario files that set it keep their numbers; giving
    both is a located error, not a silent choice."""
    from balance.rules.percentile.compile import FIGHT_DOWN, STAND, STAND_AND_FIGHT

    def when_down(policy: str) -> int:
        text = GOOD.replace("        armour: leather_and_rings\n",
                            f"        armour: leather_and_rings\n        policy: {policy}\n")
        return compiled(write(tmp_path, text)).fighters[1].when_down

    assert compiled(write(tmp_path, GOOD)).fighters[1].when_down == STAND
    assert when_down("{stand_up: true}") == STAND
    assert when_down("{stand_up: false}") == FIGHT_DOWN
    assert when_down("{when_down: stand_and_fight}") == STAND_AND_FIGHT
    with pytest.raises(ScenarioError, match="when_down or its older spelling stand_up"):
        when_down("{when_down: stand, stand_up: false}")
