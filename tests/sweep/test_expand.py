"""Sweep expansion: grid, zip, round robin, table-cell paths, names, and clear errors."""

from __future__ import annotations

import textwrap

import pytest

from balance.errors import ScenarioError
from balance.sweep import load_plan
from balance.sweep.paths import PathError, parse_path
from tests.sweep.helpers import duel


def test_grid_crosses_every_axis(grid_duel) -> None:
    plan = load_plan(grid_duel)
    assert [a.name for a in plan.axes] == ["red.weapon", "armour"]
    assert len(plan.cells) == 6
    assert [c.values for c in plan.cells[:2]] == [
        {"red.weapon": "long_sword", "armour": "none"},
        {"red.weapon": "long_sword", "armour": "mail"}]
    # every cell is a validated scenario with its values set
    last = plan.scenarios[-1].model
    assert last.sides[0].members[0].weapon == "mace"
    assert last.sides[1].members[0].armour == ("mail_hauberk",)


def test_zip_advances_together_and_crosses_the_grid() -> None:
    plan = load_plan(duel({
        "grid": {"max_rounds": [20, 40]},
        "zip": {"sides.0.members.0.stance": ["normal", "aggressive", "defensive"],
                "sides.1.members.0.stance": ["normal", "defensive", "aggressive"]}}))
    assert len(plan.cells) == 6
    pairs = {(c.values["red.stance"], c.values["blue.stance"]) for c in plan.cells}
    assert pairs == {("normal", "normal"), ("aggressive", "defensive"),
                     ("defensive", "aggressive")}


def test_round_robin_pairs_every_option_and_mirror_can_be_dropped() -> None:
    rr = {"paths": ["sides.0.members.0.weapon", "sides.1.members.0.weapon"],
          "values": ["long_sword", "spear", "mace"]}
    plan = load_plan(duel({"round_robin": rr}))
    assert len(plan.cells) == 9 and plan.round_robin == ("red.weapon", "blue.weapon")
    plan = load_plan(duel({"round_robin": {**rr, "mirror": False}}))
    assert len(plan.cells) == 6
    assert all(c.values["red.weapon"] != c.values["blue.weapon"] for c in plan.cells)


def test_table_cells_and_rule_options_are_paths() -> None:
    plan = load_plan(duel({"grid": {"tables.weapons.long_sword.damage": [6, 7, 8, 9],
                                    "rules.success_step": [5, 10]}}))
    assert [a.name for a in plan.axes] == ["long_sword.damage", "success_step"]
    assert len(plan.cells) == 8
    tables = [sc.tables.weapons["long_sword"].damage for sc in plan.scenarios]
    assert tables[::2] == [6, 7, 8, 9]
    # a shipped row the scenario never mentions is reachable too
    plan = load_plan(duel({"grid": {"tables.armour.plate.protection": [10, 12]}}))
    assert [sc.tables.armour["plate"].protection for sc in plan.scenarios] == [10, 12]


def test_one_axis_may_set_several_fields() -> None:
    plan = load_plan(duel({"grid": {"skill": {
        "paths": ["sides.0.members.0.skills.single_weapon",
                  "sides.1.members.0.skills.single_weapon"], "values": [2, 5]}}}))
    assert [(sc.model.sides[0].members[0].skills.single_weapon,
             sc.model.sides[1].members[0].skills.single_weapon) for sc in plan.scenarios] == \
        [(2, 2), (5, 5)]


def test_parse_path_reads_dots_and_brackets() -> None:
    assert parse_path("sides[1].members.0.armour") == ("sides", 1, "members", 0, "armour")
    assert parse_path("tables.weapons['long_sword'].damage") == \
        ("tables", "weapons", "long_sword", "damage")
    with pytest.raises(PathError):
        parse_path("")


@pytest.mark.parametrize(("path", "expected"), [
    ("sides.0.members.0.weapn", "'weapn' is not a field of sides[0].members[0] (did you mean "
                                "'weapon'?)"),
    ("tables.weapons.long_swrod.damage", "'long_swrod' is not a row of tables.weapons (did you "
                                         "mean 'long_sword'"),
    ("tables.weapons.long_sword.damge", "'damge' is not a field of "
                                        "tables.weapons.long_sword (did you mean 'damage'"),
    ("sides.5.members.0.weapon", "sides has entries 0 to 1; there is no entry 5"),
    ("sides.green.members.0.weapon", "'green' is not an entry (by index or name) of sides"),
    ("rulez.success_step", "'rulez' is not a field of the scenario (did you mean 'rules'"),
    ("seed", "'seed' is the seed (use --seed) and cannot be swept"),
    ("sides.0.name", "side names label the outcome columns"),
    ("max_rounds.x", "max_rounds is a single value"),
])
def test_bad_paths_name_the_path_and_the_closest_keys(path: str, expected: str) -> None:
    with pytest.raises(ScenarioError) as err:
        load_plan(duel({"grid": {path: [1, 2]}}))
    assert expected in str(err.value)


def test_problems_in_a_file_have_line_and_column(tmp_path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(textwrap.dedent("""\
        name: Bad sweep
        ruleset: yags
        sides:
          - name: red
            members: [{weapon: long_sword}]
          - name: blue
            members: [{weapon: long_sword}]
        sweep:
          grid:
            sides.0.members.0.weapon: [long_sword, maec, spear]
            sides.1.members.0.armor: [[], [plate]]
        """))
    with pytest.raises(ScenarioError) as err:
        load_plan(f)
    assert str(err.value) == (
        f"{f}:11:5: sides[1].members[0].armor: 'armor' is not a field of sides[1].members[0] "
        "(did you mean 'armour'?)")
    f.write_text(f.read_text().replace("armor", "armour"))
    with pytest.raises(ScenarioError) as err:
        load_plan(f)
    assert str(err.value) == (
        f"{f}:10:44: sides[0].members[0].weapon: 'maec' is not a known weapon (did you mean "
        "'mace'?) (in 2 cells, e.g. red.weapon=maec, blue.armour=none)")


def test_base_scenario_problems_keep_their_lines(tmp_path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("name: x\nruleset: yags\ntrials: no\nsweep:\n  grid:\n    max_rounds: [5]\n"
                 "sides:\n  - name: a\n    members: [{}]\n  - name: b\n    members: [{}]\n")
    with pytest.raises(ScenarioError) as err:
        load_plan(f)
    assert str(err.value).startswith(f"{f}:3:9: trials: expected an integer, found False")


FLOW_SIDES = ("sides: [{name: a, members: [{weapon: long_sword}]}, "
              "{name: b, members: [{weapon: mace}]}]")


@pytest.mark.parametrize("text", [
    # the whole document in flow style, the sweep block on the same line as everything else
    "{name: x, ruleset: yags, trials: 2000, " + FLOW_SIDES
    + ", sweep: {grid: {max_rounds: [5, 6]}}}",
    # a flow-style block followed by another key on the next line
    "name: x\nruleset: yags\nsweep: {grid: {max_rounds: [5, 6]}}\ntrials: 2000\n"
    + FLOW_SIDES + "\n",
])
def test_flow_style_sweep_blocks_leave_the_scenario_whole(tmp_path, text: str) -> None:
    """A flow-style ``sweep:`` once blanked the lines it sat on, and the scenario with them."""
    f = tmp_path / "flow.yaml"
    f.write_text(text)
    plan = load_plan(f)
    assert [c.values for c in plan.cells] == [{"max_rounds": 5}, {"max_rounds": 6}]
    assert plan.base.model.trials == 2000 and plan.base.path == str(f)


def test_flow_style_base_problems_keep_their_columns(tmp_path) -> None:
    f = tmp_path / "flow.yaml"
    f.write_text("{name: x, ruleset: yags, trials: lots, " + FLOW_SIDES
                 + ", sweep: {grid: {max_rounds: [5]}}}")
    with pytest.raises(ScenarioError) as err:
        load_plan(f)
    assert str(err.value) == f"{f}:1:34: trials: expected an integer, found 'lots'"


@pytest.mark.parametrize(("sweep", "expected"), [
    ({"gird": {"max_rounds": [1]}}, "'gird' is not a sweep section (did you mean 'grid'?)"),
    ({"grid": {"max_rounds": []}}, "values: expected a non-empty list"),
    ({"grid": {"max_rounds": [5, 5]}}, "values repeat (5)"),
    ({"zip": {"max_rounds": [5, 6], "sides.0.members.0.stance": ["normal"]}},
     "need the same number of values"),
    ({"round_robin": {"paths": ["sides.0.members.0.weapon"], "values": ["mace"]}},
     "expected two field paths"),
    ({"grid": {"max_rounds": [5]}, "crn": ["nope"]}, "crn: 'nope' is not an axis"),
    ({"grid": {"a": {"path": "max_rounds", "values": [5]},
               "b": {"path": "max_rounds", "values": [6]}}}, "already swept by another axis"),
    ({"grid": {"p_red": {"path": "max_rounds", "values": [5]}}}, "axis name 'p_red' is taken"),
    ({}, "expected a mapping with grid:"),
])
def test_bad_sweep_blocks_are_clear_errors(sweep: dict, expected: str) -> None:
    with pytest.raises(ScenarioError) as err:
        load_plan(duel(sweep))
    assert expected in str(err.value)


def test_cell_identity_depends_on_values_only(grid_duel) -> None:
    plan = load_plan(grid_duel)
    wider = duel({"grid": {"sides.0.members.0.weapon": ["mace", "great_sword", "long_sword"],
                           "armour": {"path": "sides.1.members.0.armour",
                                      "values": [["plate"], ["mail_hauberk"], []]}}})
    other = {c.id: c for c in load_plan(wider).cells}
    for cell in plan.cells:        # reordered, widened, renamed: same cell, same key
        if cell.id in other:
            assert other[cell.id].stream == cell.stream
    shared = {c.id for c in plan.cells} & set(other)
    assert len(shared) == 4
    assert len({c.stream for c in plan.cells}) == 6


def test_common_random_numbers_share_streams_across_the_named_axes(grid_duel) -> None:
    plan = load_plan(grid_duel, crn=["red.weapon"])
    streams = {}
    for c in plan.cells:
        streams.setdefault(c.values["armour"], set()).add(c.stream)
    assert all(len(s) == 1 for s in streams.values()) and len(streams) == 2
    assert len({c.stream for c in load_plan(grid_duel, crn=True).cells}) == 1
    assert len({c.id for c in load_plan(grid_duel, crn=True).cells}) == 6


def test_zipped_axes_may_repeat_values_but_not_combinations() -> None:
    zipped = {"zip": {"sides.0.members.0.weapon": ["mace", "mace", "spear"],
                      "sides.1.members.0.weapon": ["spear", "long_sword", "mace"]}}
    assert len(load_plan(duel(zipped)).cells) == 3
    zipped["zip"]["sides.1.members.0.weapon"][1] = "spear"
    with pytest.raises(ScenarioError, match=r"zipped values repeat \(mace/spear\)"):
        load_plan(duel(zipped))
