"""The Yags compile step, rule by rule: armour suits from pieces, fighting styles, loadouts,
strength, restrictive armour, and the friendly errors for equipment the rules forbid."""

from __future__ import annotations

import pytest

import balance
from balance.errors import ScenarioError
from balance.io.tables import shipped_tables
from balance.rules import get
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.rules.armour import suit_of
from balance.rules.yags.rules.equipment import BARE, MAIN, SPARE, choose_style, fits
from balance.rules.yags.rules.tracks import HEAVY, IMPALING, MIXED, STUNLIKE, STUNS, WOUNDS
from tests.rules.yags.cases import compile_one

TABLES = shipped_tables("yags")
ARMOUR, WEAPONS = TABLES.armour, TABLES.weapons




# --- Armour -----------------------------------------------------------------------------------


def test_the_seeds_example_trousers_and_jacket_make_four() -> None:
    """Seed 000: soft leather trousers (2) and a soft leather jacket (2) total 4."""
    assert suit_of(["soft_leather_trousers", "soft_leather_jacket"], ARMOUR).protection[0] == 4


@pytest.mark.parametrize(("pieces", "counted", "protection"), [
    # leather under mail under plate all count
    (["soft_leather_jacket", "mail_hauberk", "breastplate"],
     ["soft_leather_jacket", "mail_hauberk", "breastplate"], 13),
    (["mail_coif", "helm"], ["mail_coif", "helm"], 3),            # a helm over a coif
    (["mail_hauberk", "mail_vest"], ["mail_hauberk"], 6),         # mail on mail: the best
    (["plate", "helm"], ["plate"], 12),                           # plate on plate: the best
    (["mail_vest", "mail_trousers"], ["mail_vest", "mail_trousers"], 5),  # no overlap
    (["padded_jacket", "soft_leather_jacket"], ["padded_jacket"], 3),
])
def test_layering(pieces, counted, protection) -> None:
    suit = suit_of(pieces, ARMOUR)
    assert list(suit.counted) == counted
    assert suit.protection[0] == protection


@pytest.mark.parametrize(("pieces", "heavy"), [
    (["mail_hauberk"], True),                         # torso, arms and legs
    (["mail_vest", "helm"], False),                   # heavy on the torso only
    (["mail_vest", "plate_vambraces"], True),         # torso + arms
    (["breastplate", "plate_greaves"], True),         # torso + legs
    (["plate_vambraces", "plate_greaves"], False),    # no torso
    (["soft_leather_jacket", "soft_leather_trousers"], False),
])
def test_heavy_suit_rule(pieces, heavy) -> None:
    """Seed 000: heavy when heavy pieces cover the torso and arms, or the torso and legs."""
    assert suit_of(pieces, ARMOUR).heavy is heavy


def test_protection_by_kind_of_blow() -> None:
    hauberk = suit_of(["mail_hauberk"], ARMOUR).protection
    assert (hauberk[0], hauberk[IMPALING], hauberk[HEAVY]) == (6, 3, 6)   # mail halved
    leather = suit_of(["soft_leather_jacket", "soft_leather_trousers"], ARMOUR).protection
    assert leather[STUNLIKE] == 8            # soft doubled against stun and mixed blows
    assert leather[IMPALING] == 2            # ... halved against impaling
    assert leather[HEAVY] == 2               # a heavy weapon halves a light suit
    assert leather[HEAVY | STUNLIKE] == 4
    plate = suit_of(["plate"], ARMOUR).protection
    assert set(plate) == {12}                # plate cares about nothing


def test_halves_round_down_after_adding_up() -> None:
    """Two mail pieces of 3 and 2 against impaling: (3 + 2) / 2 = 2.5 -> 2."""
    assert suit_of(["mail_vest", "mail_trousers"], ARMOUR).protection[IMPALING] == 2


def test_single_vambrace_needs_a_shield() -> None:
    assert suit_of(["plate_vambrace"], ARMOUR).protection[0] == 1
    assert suit_of(["plate_vambrace"], ARMOUR, shield=True).protection[0] == 2


def test_vitals_best_piece_and_restrictive_pieces_add() -> None:
    suit = suit_of(["breastplate", "great_helm", "plate"], ARMOUR)
    assert suit.vitals == 5 and suit.restrictive == 2


def test_restrictive_armour_takes_agility_and_initiative() -> None:
    plain = compile_one({"skills": {"brawl": 4}}).fighters[0]
    clad = compile_one({"skills": {"brawl": 4}, "armour": ["plate", "great_helm"]}).fighters[0]
    assert (plain.agility, clad.agility) == (3, 1)
    assert (plain.initiative, clad.initiative) == (12, 4)
    assert plain.attack - clad.attack == 2 * 4          # brawl rolls on agility
    assert (plain.max_defences, clad.max_defences) == (3, 2)


def test_soak_against_each_kind_and_vitals() -> None:
    f = compile_one({"weapon": "long_sword", "armour": ["mail_hauberk", "breastplate"]},
                    {"weapon": "spear", "skills": {"longshaft": 4}}).fighters[0]
    assert f.soak == 12 + 11 and f.soak_against(IMPALING) == 12 + 8 and f.vitals == 5


# --- Styles and loadouts ----------------------------------------------------------------------


def test_style_attributes() -> None:
    """Brawl rolls on agility; single weapon attacks on dexterity and defends on the better of
    agility and dexterity; other styles use dexterity."""
    attrs = {"dexterity": 2, "agility": 5, "strength": 3}
    brawler = compile_one({"attributes": attrs, "skills": {"brawl": 4}}).fighters[0]
    assert (brawler.attack, brawler.defence) == (5 * 4, 5 * 4)
    single = compile_one({"attributes": attrs, "skills": {"single_weapon": 4},
                          "weapon": "short_sword"}).fighters[0]
    assert (single.attack, single.defence) == (2 * 4 + 3, 5 * 4 + 2)
    great = compile_one({"attributes": attrs, "skills": {"great_weapon": 4},
                         "weapon": "great_sword"}).fighters[0]
    assert (great.attack, great.defence) == (2 * 4 + 4, 2 * 4 + 3)


def test_second_weapons_and_shields_add_their_bonuses() -> None:
    skills = {"two_weapons": 4, "melee_weapon": 4, "weapon_and_shield": 4}
    two = compile_one({"skills": skills, "weapon": "short_sword", "off_hand": "dagger",
                       "style": "two_weapons"}).fighters[0]
    # short sword 3/2/4 + half, rounded up, of the dagger's 2/1/2
    assert (two.attack, two.defence, two.damage) == (12 + 4, 12 + 3, 12 + 5)
    melee = compile_one({"skills": skills, "weapon": "short_sword", "off_hand": "dagger",
                         "style": "melee_weapon"}).fighters[0]
    assert (melee.attack, melee.defence, melee.damage) == (12 + 4, 12 + 3, 12 + 4)
    shield = compile_one({"skills": skills, "weapon": "short_sword",
                          "off_hand": "shield"}).fighters[0]
    assert (shield.attack, shield.defence, shield.damage) == (12 + 4, 12 + 7, 12 + 4)
    assert shield.gear[MAIN].shield and shield.gear[MAIN].style == "weapon_and_shield"
    # a blocking weapon used as a shield: its attack and defence in full, no damage
    block = compile_one({"skills": skills, "weapon": "short_sword",
                         "off_hand": "parrying_dagger"}).fighters[0]
    assert (block.attack, block.defence, block.damage) == (12 + 4, 12 + 5, 12 + 4)


def test_style_is_chosen_from_the_equipment_and_skills() -> None:
    skills = balance.load_scenario({"name": "t", "ruleset": "yags", "sides": [
        {"name": "a", "members": [{"skills": {"brawl": 5, "single_weapon": 2}}]},
        {"name": "b", "members": [{}]}]}).model.sides[0].members[0].skills
    assert choose_style(WEAPONS["dagger"], None, skills) == "brawl"      # the better skill
    assert choose_style(WEAPONS["long_sword"], None, skills) == "single_weapon"
    assert choose_style(WEAPONS["short_sword"], WEAPONS["shield"], skills) == "weapon_and_shield"
    assert choose_style(WEAPONS["spear"], WEAPONS["shield"], skills) == "longshaft"


@pytest.mark.parametrize(("style", "weapon", "off", "ok"), [
    ("single_weapon", "long_sword", None, True),
    ("single_weapon", "great_sword", None, False),         # seed: a greatsword, single weapon
    ("weapon_and_shield", "long_sword", None, False),      # seed: just a sword with a shield style
    ("weapon_and_shield", "long_sword", "shield", True),
    ("two_weapons", "short_sword", "dagger", True),
    ("two_weapons", "short_sword", "shield", False),
    ("great_weapon", "great_axe", None, True),
    ("longshaft", "spear", "shield", True),                # one-handed longshaft with a shield
    ("longshaft", "long_spear", None, True),
    ("chain", "flail", "shield", True),
    ("brawl", "knife", None, True),
    ("brawl", "long_sword", None, False),
    ("melee_weapon", "great_axe", None, True),             # the generic style fits anything
])
def test_which_equipment_fits_which_style(style, weapon, off, ok) -> None:
    assert fits(style, WEAPONS[weapon], WEAPONS[off] if off else None) is ok


def test_wrong_style_is_slow_and_fumbles_on_two() -> None:
    f = compile_one({"skills": {"weapon_and_shield": 4}, "weapon": "long_sword",
                     "style": "weapon_and_shield"}).fighters[0]
    lo = f.gear[MAIN]
    assert lo.slow and lo.fumble_range == 2 and not lo.technique and not lo.shield
    # ... but brawl never fumbles on a 2 (seed 000)
    brawl = compile_one({"skills": {"brawl": 4}, "weapon": "long_sword",
                         "style": "brawl"}).fighters[0]
    assert brawl.gear[MAIN].slow and brawl.gear[MAIN].fumble_range == 1


def test_loadouts_after_losing_the_primary_and_when_grappled() -> None:
    f = compile_one({"skills": {"weapon_and_shield": 4, "single_weapon": 3, "brawl": 2},
                     "weapon": "mace", "off_hand": "shield", "spare": "short_sword"}).fighters[0]
    assert f.gear[SPARE].style == "weapon_and_shield" and f.gear[SPARE].reach == 1
    bare = f.gear[BARE]   # the shield alone: weapon-and-shield skill, the wrong style
    assert bare.slow and bare.skill == 4 and not bare.losable
    grappled = f.gear[3 + MAIN]
    assert grappled.style == "brawl" and grappled.skill == 2 and not grappled.shield
    assert grappled.attack == 3 * 2 + 2 - 5 * 1        # mace at -5 per reach, no shield
    fists = compile_one({"skills": {"brawl": 3}, "weapon": "long_sword"}).fighters[0].gear[BARE]
    assert fists.reach == 0 and fists.unarmed and fists.damage_type == STUNS


def test_weapon_facts() -> None:
    spear = compile_one({"skills": {"longshaft": 4}, "weapon": "spear"}).fighters[0].gear[MAIN]
    assert spear.kind == IMPALING and spear.martial and not spear.unarmed and spear.longshaft
    dagger = compile_one({"skills": {"single_weapon": 4},
                          "weapon": "dagger"}).fighters[0].gear[MAIN]
    assert dagger.unarmed and not dagger.martial and dagger.light   # reach 0: "unarmed"
    axe = compile_one({"attributes": {"strength": 4}, "skills": {"great_weapon": 4},
                       "weapon": "great_axe"}).fighters[0].gear[MAIN]
    assert axe.great and axe.kind == HEAVY and axe.size2 == 3 * 5     # +50% size
    club = compile_one({"skills": {"single_weapon": 4}, "weapon": "club"}).fighters[0]
    assert club.damage_type == MIXED and club.gear[MAIN].weak and club.gear[MAIN].crushing
    assert compile_one({}).fighters[0].damage_type == STUNS
    assert compile_one({"weapon": "long_sword"}).fighters[0].damage_type == WOUNDS


def test_thrusting_counts_as_impaling_when_used_two_handed() -> None:
    pike = {"style": "longshaft", "attack": 2, "damage": 5, "reach": 3,
            "properties": ["thrusting"]}
    tables = {"weapons": {"pike": pike}}
    alone = compile_one({"skills": {"longshaft": 4}, "weapon": "pike"}, tables=tables)
    shielded = compile_one({"skills": {"longshaft": 4}, "weapon": "pike", "off_hand": "shield"},
                           tables=tables)
    assert alone.fighters[0].gear[MAIN].kind == IMPALING
    assert shielded.fighters[0].gear[MAIN].kind == 0


@pytest.mark.parametrize(("strength", "weapon", "penalty"), [
    (2, "broad_sword", 0), (1, "broad_sword", -5), (1, "battle_axe", -15),
    (3, "great_axe", 0),        # two-handed: strength 3 counts as 5 (x1.5 rounded up)
    (2, "great_axe", -5),       # 2 x 1.5 = 3, one short of 4
])
def test_minimum_strength(strength, weapon, penalty) -> None:
    """Seed 000: one point short -5 to attack and defence, two -15."""
    skills = {"single_weapon": 4, "great_weapon": 4}
    f = compile_one({"attributes": {"strength": strength}, "skills": skills, "weapon": weapon})
    w = WEAPONS[weapon]
    assert f.fighters[0].attack == 3 * 4 + w.attack + penalty
    assert f.fighters[0].defence == 3 * 4 + w.defence + penalty


# --- Errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("member", "path", "fragment"), [
    ({"weapon": "battle_axe", "attributes": {"strength": 0}}, "sides[0].members[0].weapon",
     "strength 0 is too weak"),
    ({"weapon": "shield"}, "sides[0].members[0].weapon", "a shield goes in the off hand"),
    ({"weapon": "great_axe", "off_hand": "shield", "attributes": {"strength": 4}},
     "sides[0].members[0].off_hand", "two-handed weapon leaves no hand"),
    ({"weapon": "long_sword", "policy": {"manoeuvre": "grapple"}},
     "sides[0].members[0].policy.manoeuvre", "unarmed manoeuvres"),
    ({"weapon": "long_sword", "mount": {"warhorse": True}, "policy": {"charge": True}},
     "sides[0].members[0].policy.charge", "with a lance"),
])
def test_equipment_the_rules_forbid_is_a_clean_error(member, path, fragment) -> None:
    with pytest.raises(ScenarioError) as caught:
        compile_one(member)
    (problem,) = caught.value.problems
    assert problem.path == path and fragment in problem.message


@pytest.mark.parametrize(("member", "fragment"), [
    ({"policy": {"manoeuvre": "massive_damage"}}, "needs the aggressive stance"),
    ({"weapon": "lance", "policy": {"charge": True}}, "trained warhorse"),
    ({"off_hand": "sheild"}, "'sheild' is not a known weapon (did you mean 'shield'"),
    ({"spare": "dager"}, "'dager' is not a known weapon (did you mean 'dagger'"),
    ({"mount": {"armour": ["barding"]}}, "'barding' is not a known armour"),
    ({"policy": {"fumbles": {"own": ["explode"]}}}, "expected one of"),
])
def test_bad_detailed_settings_are_reported_when_loading(member, fragment) -> None:
    with pytest.raises(ScenarioError) as caught:
        compile_one(member)
    assert any(fragment in p.message for p in caught.value.problems)


def test_basic_fights_switch_every_detailed_rule_off() -> None:
    duel = balance.load_scenario("scenarios/yags/reference_duel.yaml")
    assert not static_of(get("yags").compile(duel.model, duel.tables)).on.any
    reach = compile_one({"skills": {"single_weapon": 4}, "weapon": "short_sword"})
    assert static_of(reach).on.reach and not static_of(reach).on.grapple
    same = compile_one({"skills": {"longshaft": 4}, "weapon": "spear"})   # reach 3 each
    assert not static_of(same).on.reach


def test_focused_fighters_make_no_defence_rolls() -> None:
    f = compile_one({"skills": {"weapon_and_shield": 4}, "weapon": "mace",
                     "off_hand": "shield", "policy": {"focused": True}}).fighters[0]
    assert f.defences == 0 and not f.gear[MAIN].shield
