"""A table row shared by fighters (issue 30, item 1): every command that varies a table field
says which fighters the change reaches, and a path through a fighter
(``sides.0.members.0.armour.helm.protection``) changes that fighter's own copy of the row.

The designer's case: both fighters wear a helm, so ``--give tables.armour.helm.protection``
raised both helms and priced +1 helm at a fraction of what the knight's own helm is worth.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

import balance
from balance.analysis.exchange_rate import exchange
from balance.analysis.sensitivities import sensitivity
from balance.analysis.solving import solve
from balance.errors import OptionError
from balance.io.scenario import load_scenario, read_text
from balance.io.yamlfile import read_yaml
from balance.sweep import run_sweep
from balance.sweep.rows import own_row, reach, slots

ROOT = Path(__file__).resolve().parents[2]

BOTH_HELMED = {
    "name": "Long sword vs spear, both helmed", "ruleset": "yags", "trials": 16384, "seed": 7,
    "sides": [
        {"name": "knight", "members": [{
            "name": "Sir A", "attributes": {"dexterity": 3, "agility": 3, "strength": 4,
                                            "health": 3},
            "skills": {"single_weapon": 4}, "weapon": "long_sword",
            "armour": ["mail_hauberk", "helm"]}]},
        {"name": "guard", "members": [{
            "name": "Spearman", "attributes": {"dexterity": 3, "agility": 3, "strength": 3},
            "skills": {"longshaft": 5}, "weapon": "spear",
            "armour": ["soft_leather_jacket", "soft_leather_trousers", "helm"]}]},
    ],
}
OWN = "sides.knight.members.0.armour.helm.protection"
SKILL = "sides.knight.members.0.skills.single_weapon"


def by_hand() -> dict:
    """The knight's own helm written out by hand: a new row with every field of helm."""
    data = copy.deepcopy(BOTH_HELMED)
    shipped = yaml.safe_load((ROOT / "balance/data/yags/armour.yaml").read_text())["helm"]
    data["tables"] = {"armour": {"my_helm": shipped}}
    data["sides"][0]["members"][0]["armour"] = ["mail_hauberk", "my_helm"]
    return data


def test_exchange_through_the_fighter_prices_his_own_helm() -> None:
    """Through the fighter, exchange plays exactly what a hand-made copy of the row plays
    (the same per-trial numbers), and +1 on the knight's helm alone is worth more than +1 on
    both helms (the spearman's helm works against the knight). Measured at 114,688 trials:
    shared 0.092 [0.075, 0.11] skill, own 0.24 [0.22, 0.26]."""
    shared = exchange(BOTH_HELMED, "tables.armour.helm.protection", SKILL, side="knight")
    own = exchange(BOTH_HELMED, OWN, SKILL, side="knight")
    hand = exchange(by_hand(), "tables.armour.my_helm.protection", SKILL, side="knight")
    assert (own.give.delta, own.take.delta, own.rate) == \
        (hand.give.delta, hand.take.delta, hand.rate)
    assert own.give.name == "knight.helm.protection"
    assert own.give.ci95[0] > shared.give.ci95[1]        # clearly apart at 16,384 trials
    assert own.rate > 2 * shared.rate
    [r] = [r for r in shared.reach if r["row"] == "helm"]
    assert r["shared"] and r["fighters"] == ["Sir A", "Spearman"]
    assert r["own_paths"] == [OWN, "sides.guard.members.0.armour.helm.protection"]
    assert "one row shared by 2 fighters" in shared.to_text() and OWN in shared.to_text()
    [mine] = [r for r in own.reach if r["row"] == "helm@knight"]
    assert not mine["shared"] and mine["fighters"] == ["Sir A"]
    assert "knight.helm.protection reaches Sir A (sides[0].members[0].armour[1])" in \
        own.to_text()


def test_a_copy_changes_nothing_by_itself_in_any_bundled_scenario() -> None:
    """Giving every member its own copy of every row it uses (values unchanged) plays the
    very same fights, trial for trial, in every bundled scenario of every rule system (the
    copy keeps the row as written: a roster entry's unset policy still gives way to its
    side's default, as before the copy)."""
    checked = 0
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        data, _ = read_yaml(read_text(str(path)), str(path))
        if "ruleset" not in data or "sweep" in data:
            continue
        loaded = load_scenario(data)
        owned = copy.deepcopy(data)
        for s in (x for x in slots(loaded) if x.via is None):
            assert own_row(("sides", s.side, "members", s.member, *s.path, "note"), owned,
                           loaded.ruleset) is not None, (path, s)
        a = balance.run(data, trials=512, seed=3)
        b = balance.run(owned, trials=512, seed=3)
        for field in ("wins", "rounds", "status"):
            assert (getattr(a.tally, field) == getattr(b.tally, field)).all(), (path, field)
        checked += 1
    assert checked >= 30


@pytest.mark.parametrize("text, row", [
    ("sides.0.members.0.armour.1.protection", "helm@knight"),        # list entry by index
    ("sides.knight.members.0.armour.helm.protection", "helm@knight"),
    ("sides.knight.members.Sir A.weapon.damage", "long_sword@knight"),
    ("sides.knight.members.0.weapon.long_sword.damage", "long_sword@knight"),
])
def test_the_ways_to_name_a_fighters_row(text, row) -> None:
    from balance.analysis.subject import Subject

    subject = Subject.load(BOTH_HELMED)
    path = subject.resolve(text)
    assert path[:3] == ("tables", path[1], row)
    member = subject.data["sides"][0]["members"][0]
    assert row in member["armour"] or member["weapon"] == row
    assert subject.data["sides"][1]["members"][0]["armour"][2] == "helm"   # his stays shared


def test_a_misspelt_field_of_a_fighters_row_names_the_fields() -> None:
    with pytest.raises(OptionError, match=r"'protectoin' is not a field of armour rows "
                                          r"\(did you mean 'protection'"):
        solve(BOTH_HELMED, "sides.knight.members.0.armour.helm.protectoin", 0.5)


def test_a_ymlad_fighter_from_the_roster_gets_its_own_weapon() -> None:
    """Neelay takes her saber from her roster entry; her own copy is written on her member
    line (and nobody else's saber changes)."""
    path = ROOT / "scenarios/ymlad/party_vs_skeletons.yaml"
    data, _ = read_yaml(read_text(str(path)), str(path))
    changed = copy.deepcopy(data)
    field = own_row(("sides", "party", "members", 4, "weapon", "melee"), changed, "ymlad")
    assert field == ("tables", "hand_weapons", "saber@party-4", "melee")
    assert changed["sides"][0]["members"][4]["weapon"] == "saber@party-4"
    found = reach(load_scenario(changed), "hand_weapons", "saber@party-4")
    assert found.fighters == ["Neelay"] and not found.shared


def test_reach_of_rules_tables_unused_rows_and_nested_rows() -> None:
    path = ROOT / "scenarios/ymlad/party_vs_skeletons.yaml"
    loaded = load_scenario(path)
    assert reach(loaded, "skill_modifiers", "3").every_fighter
    assert reach(loaded, "hand_weapons", "pike").slots == ()
    steel = reach(loaded, "materials", "mild_steel")        # through weapons and armour
    assert steel.shared and all(s.via for s in steel.slots)
    assert "nobody" in reach(loaded, "hand_weapons", "pike").sentence("pike.melee", "melee",
                                                                      {})


def test_sensitivity_and_solve_say_who_a_table_field_reaches() -> None:
    t = sensitivity(BOTH_HELMED, paths=["tables.armour.helm.protection"], side="knight",
                    both=False, trials=16384)
    doc = t.to_dict()
    assert doc["reach"][0]["shared"] and "note: helm.protection" in t.to_text()
    s = solve(BOTH_HELMED, OWN, 0.45, side="knight", trials=16384, range=(0, 6))
    assert s.to_dict()["reach"][0]["fighters"] == ["Sir A"]


def test_a_sweep_through_a_fighter_and_its_reach(tmp_path) -> None:
    """A sweep axis through the fighter is named for him and plays the hand-made copy's
    numbers exactly (common random numbers: a cell's streams are otherwise keyed by its
    swept path); the shared row's axis says it reaches both fighters (manifest, text)."""
    own = run_sweep({**BOTH_HELMED, "sweep": {"grid": {OWN: [1, 4]}, "crn": True}},
                    trials=2048, out=None)
    hand = run_sweep({**by_hand(), "sweep": {"grid": {"tables.armour.my_helm.protection":
                                                      [1, 4]}, "crn": True}},
                     trials=2048, out=None)
    assert own.manifest["axes"][0]["name"] == "knight.helm.protection"
    assert own.table["p_knight"].tolist() == hand.table["p_knight"].tolist()
    shared = run_sweep({**BOTH_HELMED, "sweep": {"grid": {"tables.armour.helm.protection":
                                                          [1, 4]}}}, trials=2048, out=None)
    [r] = shared.manifest["reach"]
    assert r["shared"] and r["axis"] == "helm.protection" and r["cells"] == 2
    from balance.sweep.summary import summary_text

    assert "one row shared by 2 fighters" in summary_text(shared.table, shared.manifest)


def test_autobalance_refuses_a_fighters_copy_the_round_robin_replaces() -> None:
    from balance.analysis.autobalance import autobalance

    rr = {**copy.deepcopy(BOTH_HELMED), "trials": 512, "sweep": {"round_robin": {
        "paths": ["sides.knight.members.0.weapon", "sides.guard.members.0.weapon"],
        "values": ["long_sword", "spear"]}}}
    with pytest.raises(OptionError, match="its own copy of the row is used in 0 of"):
        autobalance(rr, ["sides.knight.members.0.weapon.damage"], budget=2000)


def test_a_round_robin_deals_a_row_to_either_seat_without_ambiguity() -> None:
    """In a round robin the spear is red's in some cells and blue's in others: changing its
    row is meant for whoever wields it. Only the mirror cell (spear against spear) has both
    seats share it, and no fighter's copy is offered for a slot the sweep fills."""
    from balance.sweep.plan import load_plan

    plan = load_plan(ROOT / "scenarios/sweeps/weapon_round_robin.yaml",
                     sweep={"round_robin": {"paths": ["sides.red.members.0.weapon",
                                                      "sides.blue.members.0.weapon"],
                                            "values": ["spear", "mace", "club"]},
                            "grid": {"tables.weapons.spear.attack": [4]}})
    [r] = plan.reach()
    assert r["cells"] == 9 and r["reached_in"] == 5 and r["shared_in"] == 1
    assert r["own_paths"] == [] and "in 1 of 9 cells" in r["sentence"]
    assert "to change one fighter's row only" not in r["sentence"]
