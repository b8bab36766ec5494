"""The vectorised Ymlad kernel against the scalar reference: same rules, same distributions.

Each fight is played 100,000 times by the kernel and 6,000 times by the reference (groups:
50,000 and 3,000), at fixed seeds; the winner, round and final-status distributions must be
homogeneous (chi-square test of the two count tables), rejecting only at p < 1e-6, and the
mean rounds must agree within five standard errors. The fights cover every style and
transition: missile with running up, a missile charge and a charge, a mounted crossbow
shooting as it keeps its distance, formation against melee, closing in,
disengaging and grappling, stunning, armour against slashing and pummeling, thresholds 1 and
3, yielding, a 3-vs-2 group fight with group bonuses and limits, and group fights with target
policies, side defaults, running away, morale and parting blows, formation rows, and
several runners at once with one parting blow from several strikers; since issue 27 the
lance charge, weapons per style and the cost of changing them, a held fighter fighting
back, a horse archer's strength and saddle, and holes in a line.

Power (``balance.rules.testing.detectable_shift``, one cell at 50%, alpha 1e-6): the duels
(6,000 reference trials against 100,000 kernel trials) find a shift of 3.3 points half the
time and 4.1 points nine times in ten; the group fights (3,000 against 50,000) 4.6 and 5.8
points. One round's effort, resistance, drift and harm are checked exactly, at every
combination of drifts, by ``test_conformance.py``. A failure names the outcome, the
fighter and the bins that differ most (``helpers.differ``).
"""

from __future__ import annotations

import pytest

import balance
from balance.engine.run import run_fight, run_reference
from balance.rules import get
from tests.rules.helpers import (
    assert_stated_power,
    assert_tallies_agree,
)

ALPHA = 1e-6
POWER = [(6_000, 100_000, 3.3, 4.1), (3_000, 50_000, 4.6, 5.8)]   # (see the docstring)


def member(**kw) -> dict:
    """A trained man-at-arms: long sword, mail and helmet; fields in ``kw`` replace his."""
    base = {"talents": {"strength": 3, "dexterity": 3},
            "skills": {"missile": 2, "formation": 2, "melee": 4, "close": 2},
            "weapon": "long_sword", "armour": ["mail_hauberk", "open_helmet"]}
    base.update(kw)
    return base


def duel(a: dict, b: dict, **kw) -> dict:
    scenario = {"name": "duel", "ruleset": "ymlad", "max_rounds": 40,
                "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    scenario.update(kw)
    return scenario


FIGHTS = {
    "mirror": duel(member(), member()),
    "threshold_1_axe_vs_shield": duel(
        member(weapon="great_axe", talents={"strength": 4, "dexterity": 3}),
        member(weapon="battle_sword", shield="medium"), rules={"harm_threshold": 1}),
    "threshold_3_axe_vs_shield": duel(
        member(weapon="great_axe", talents={"strength": 4, "dexterity": 3}),
        member(weapon="battle_sword", shield="medium"), rules={"harm_threshold": 3}),
    "pummeling_vs_plate": duel(
        member(weapon="poleaxe", policy={"harm": "pummeling"}),
        member(weapon="poleaxe", armour=["plate_harness", "closed_helmet"])),
    "slashing_vs_plate_yielding": duel(
        member(weapon="poleaxe", skills={"melee": 5},
               policy={"harm": "slashing", "yield_at": "wounded"}),
        member(weapon="poleaxe", armour=["plate_harness", "closed_helmet"],
               policy={"yield_at": "hurt"})),
    "archer_vs_charging_spearman": duel(
        member(missile="longbow_war", weapon="short_sword", skills={"missile": 5, "melee": 2},
               policy={"style": "missile", "charge": True}),
        member(weapon="spear", shield="medium", policy={"charge": True}), distance=80),
    "crossbow_rider_keeps_distance": duel(
        member(missile="cavalry_crossbow", mounted="walking", speed=14.0, skills={"missile": 4},
               policy={"style": "missile", "keep_at": 15}),
        member(weapon="mace", speed=16.0),
        distance=30, max_rounds=25, conditions={"wind": "moderate"}),
    "grappler_vs_dagger": duel(
        member(body="large", weapon="fist", talents={"strength": 4, "dexterity": 3},
               skills={"melee": 4, "close": 4}, armour=[],
               policy={"style": "close", "harm": "grapple"}),
        member(weapon="dagger", armour=["gambeson"])),
    "stun_in_formation": duel(
        member(weapon="halberd", skills={"formation": 4, "melee": 2},
               policy={"style": "formation", "harm": "stun"}),
        member(weapon="spear", shield="cavalry", skills={"formation": 4, "melee": 2},
               policy={"style": "formation"})),
    "group_3_vs_2": {
        "name": "three against two", "ruleset": "ymlad", "max_rounds": 40, "distance": 20,
        "sides": [
            {"name": "a", "members": [
                member(count=2, off_hand="dagger", weapon="saber"),
                member(missile="sling_lead", weapon="saber",
                       skills={"missile": 4, "melee": 2}, policy={"style": "missile"})]},
            {"name": "b", "height": 1, "members": [
                member(weapon="poleaxe", skills={"melee": 5, "close": 3}, feels_pain=False),
                member(weapon="spear", shield="medium", skills={"formation": 4, "melee": 3},
                       policy={"style": "formation", "charge": True})]}]},
    # Issue 7: target policies, side defaults, running away, morale, parting blows.
    "group_policies_3_vs_2": {
        "name": "three against two, policies", "ruleset": "ymlad", "max_rounds": 40,
        "distance": 20,
        "sides": [
            {"name": "a", "policy": {"target": "spread", "flee_at": "wounded"},
             "morale": {"breaks_at": 0.6}, "members": [
                member(count=2, off_hand="dagger", weapon="saber"),
                member(missile="sling_lead", weapon="saber", skills={"missile": 4, "melee": 2},
                       policy={"style": "missile", "target": "weakest"})]},
            {"name": "b", "height": 1, "policy": {"target": "weakest"},
             "morale": {"breaks_at": 0.5}, "members": [
                member(weapon="poleaxe", skills={"melee": 5, "close": 3},
                       policy={"target": "dangerous", "yield_at": "wounded"}),
                member(weapon="spear", shield="medium", skills={"formation": 4, "melee": 3},
                       policy={"style": "formation", "charge": True, "target": "random"})]}]},
    # Formation rows (pikes through the front) in a gap (secured flanks: only the front,
    # one place in front for swords), a fixed target list, nearest, one parting blow, a
    # close-combat fighter who must disengage to run.
    "group_rows_4_vs_4": {
        "name": "rows", "ruleset": "ymlad", "max_rounds": 40, "distance": 8,
        "rules": {"parting_blows": "one"},
        "sides": [
            {"name": "a", "morale": {"breaks_at": 0.5}, "flanks_secured": True, "members": [
                member(name="shield", count=2, weapon="spear", shield="medium",
                       skills={"formation": 4}, policy={"style": "formation"}),
                member(name="pike", count=2, weapon="pike", skills={"formation": 4}, row=2,
                       policy={"style": "formation", "target": "nearest"})]},
            {"name": "b", "policy": {"target": "fixed", "targets": ["shield#2"]},
             "members": [
                member(count=2, weapon="halberd", skills={"formation": 6},
                       talents={"strength": 4, "dexterity": 3}, policy={"flee_at": "wounded"}),
                member(name="sword", weapon="battle_sword", shield="medium"),
                member(name="wrestler", body="large", weapon="fist", armour=[],
                       skills={"melee": 4, "close": 5},
                       policy={"style": "close", "harm": "grapple", "target": "first",
                               "flee_at": "hurt"})]}]},
    # Issue 15: runners taken in a random order, two or more of them at once (a side breaks)
    # sharing foes, and ``parting_blows: one`` picking one of several strikers at random.
    "group_flight_3_vs_4": {
        "name": "flight", "ruleset": "ymlad", "max_rounds": 40, "distance": 4,
        "rules": {"parting_blows": "one"},
        "sides": [
            {"name": "a", "policy": {"flee_at": "hurt"}, "morale": {"breaks_at": 0.3},
             "members": [member(count=2, shield="medium"), member(weapon="spear")]},
            {"name": "b", "policy": {"target": "spread"}, "members": [
                member(count=3, weapon="dagger", armour=[]),
                member(weapon="great_axe", talents={"strength": 4, "dexterity": 3},
                       armour=["gambeson"])]}]},
    # Issue 27: the lance charge (and its target's attack back, charge_round) and a sword
    # after it at the cost of an attack; a held fighter fighting back with his dagger; a
    # horse archer whose bow takes his strength and whose saddle counts only near; holes in
    # a line with secured flanks, weapons per style and the flank-only ring.
    "knight_lance_then_sword": duel(
        member(weapon="lance", weapons={"melee": {"weapon": "battle_sword", "skill": 3}},
               shield="cavalry", mounted="fast", speed=20.0, skills={"formation": 4},
               policy={"charge": True}),
        member(weapon="battle_sword", shield="medium", policy={"charge": True}),
        distance=30, rules={"weapon_switch": "attack"}),
    "lance_charge_round": duel(
        member(weapon="lance", mounted="walking", speed=16.0, skills={"formation": 3},
               policy={"charge": True}),
        member(weapon="spear", shield="medium", skills={"formation": 4, "melee": 3}),
        distance=20, rules={"lance_charge": "charge_round"}),
    "held_dagger_fights_back": duel(
        member(body="large", weapon="fist", talents={"strength": 4, "dexterity": 3},
               skills={"melee": 4, "close": 3}, armour=[],
               policy={"style": "close", "harm": "grapple"}),
        member(weapon="battle_sword", close_weapon="dagger", skills={"melee": 4, "close": 3},
               armour=["gambeson"], policy={"held": "fight"})),
    "horse_archer_strong_bow": duel(
        member(missile="hand_bow_war", weapon="saber", mounted="halted", speed=20.0,
               talents={"strength": 4, "dexterity": 3}, skills={"missile": 5, "melee": 3},
               armour=["gambeson"], policy={"style": "missile", "keep_at": 12}),
        member(weapon="spear", shield="medium"), distance=40, max_rounds=30),
    "group_holes_3_vs_5": {
        "name": "holes", "ruleset": "ymlad", "max_rounds": 40, "distance": 6,
        "rules": {"ring": "flanks", "weapon_switch": "attack"},
        "sides": [
            {"name": "a", "flanks_secured": True, "members": [
                member(count=3, weapon="pike", armour=["gambeson"],
                       skills={"formation": 4, "melee": 1}, policy={"style": "formation"})]},
            {"name": "b", "members": [
                member(count=4, weapon="spear", weapons={"melee": "short_sword"},
                       shield="medium", skills={"formation": 3, "melee": 4}),
                member(weapon="great_axe", talents={"strength": 4, "dexterity": 3})]}]},
}
GROUPS = {"group_3_vs_2", "group_policies_3_vs_2", "group_rows_4_vs_4", "group_flight_3_vs_4",
          "group_holes_3_vs_5"}


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_kernel_matches_reference(name: str) -> None:
    loaded = balance.load_scenario(FIGHTS[name])
    system = get("ymlad")
    fight = system.compile(loaded.model, loaded.tables)
    fast_n, slow_n = (50_000, 3_000) if name in GROUPS else (100_000, 6_000)
    fast = run_fight(system, fight, fast_n, seed=1)
    slow = run_reference(system, fight, slow_n, seed=2)
    assert_tallies_agree(name, fight, fast, slow, ALPHA)


@pytest.mark.parametrize(("reference", "kernel", "half", "most"), POWER)
def test_stated_power(reference: int, kernel: int, half: float, most: float) -> None:
    """The power the module docstring states is what ``detectable_shift`` gives."""
    assert_stated_power(__doc__, reference, kernel, half, most, ALPHA)
