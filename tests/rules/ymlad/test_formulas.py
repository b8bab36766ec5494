"""Ymlad formulas, worked by hand (seed 002): skirmish per style, harm, armour, hardness,
stunning, grappling, the harm track, group limits, encumbrance and the party's numbers."""

from __future__ import annotations

import pytest

import balance
from balance.errors import ScenarioError
from balance.io.tables import shipped_tables
from balance.rules import get
from balance.rules.ymlad.compile import (
    _armour,
    effort,
    harm_margin,
    resistance,
    subtype_margins,
    track_penalty,
)
from balance.rules.ymlad.rules import tables as t
from balance.rules.ymlad.rules.tables import CLOSE, FORMATION, GRAPPLE, MELEE, MISSILE, STUN, WOUND

TABLES = shipped_tables("ymlad")


def compile_sides(*members: dict, **scenario) -> list:
    """Compile a fight with one member per side; returns the fighters."""
    data = {"name": "t", "ruleset": "ymlad",
            "sides": [{"name": f"s{i}", "members": [m]} for i, m in enumerate(members)]}
    data.update(scenario)
    loaded = balance.load_scenario(data)
    return list(get("ymlad").compile(loaded.model, loaded.tables).fighters)


@pytest.fixture(scope="module")
def party():
    """The seed's party, by roster name."""
    loaded = balance.load_scenario("scenarios/ymlad/party_vs_skeletons.yaml")
    fight = get("ymlad").compile(loaded.model, loaded.tables)
    names = ("sir_florimond", "bjarne", "kasumi", "tharn", "neelay", "skeleton")
    return dict(zip(names, fight.fighters, strict=False))


# --- the seed's style formulas, on the seed's party ------------------------------------------


def test_missile_effort_and_resistance(party):
    # Neelay: dexterity +2, missile skill 5 (+3), sling 2.
    assert effort(party["neelay"], MISSILE) == t.missile_effort(2, 3, 2) == 7
    # Bjarne: human body 0 + 3 x infantry shield 2.
    assert resistance(party["bjarne"], MISSILE) == t.missile_resistance(0, 2) == 6
    # Tharn is big (size 2): an easier target.
    assert resistance(party["tharn"], MISSILE) == -2


def test_formation_has_no_dexterity_and_a_doubled_shield(party):
    # Kasumi: body 0 + formation 4 (+2) + naginata 5.
    assert effort(party["kasumi"], FORMATION) == t.formation_effort(0, 2, 5) == 7
    # Bjarne: body 0 + formation 1 (-1) + battle sword 2 + 2 x shield 2.
    assert resistance(party["bjarne"], FORMATION) == t.formation_resistance(0, -1, 2, 2) == 5


def test_melee_effort_and_resistance(party):
    # Sir Florimond: body 0 + dex +1 + melee 4 (+2) + poleaxe 4.
    assert effort(party["sir_florimond"], MELEE) == t.melee_effort(0, 1, 2, 4) == 7
    assert resistance(party["bjarne"], MELEE) == t.melee_resistance(0, 0, 2, 4, 2) == 8
    # Tharn: big body +2, dex +1, melee +2, morning star 3, and -1 for ape hands.
    assert effort(party["tharn"], MELEE) == 7
    assert resistance(party["tharn"], MELEE) == 8


def test_close_has_no_shield_and_levers_help_effort_only(party):
    # Tharn bites: big body +2, dex +1, close 2 (0), fangs 3.
    assert effort(party["tharn"], CLOSE) == resistance(party["tharn"], CLOSE) == 6
    # Bjarne's shield does nothing close in: body 0 + dex 0 + close 2 (0) + sword 2.
    assert resistance(party["bjarne"], CLOSE) == 2
    # Kasumi's naginata has a second (two-handed) close score: +1 effort.
    kasumi = party["kasumi"]
    assert effort(kasumi, CLOSE) == resistance(kasumi, CLOSE) + 1 == 1


def test_shield_multiplier_by_style():
    with_shield, without = compile_sides({"shield": "medium"}, {})
    gains = [resistance(with_shield, s) - resistance(without, s) for s in range(4)]
    assert gains == [6, 4, 2, 0]            # seed: x3 missile, x2 formation, x1 melee, none close


def test_shield_only_works_in_front():
    front, side = compile_sides({"shield": "medium"}, {"shield": "medium", "angle": "side"})
    assert resistance(front, MELEE) - resistance(side, MELEE) == 2 + 1   # no shield, and -1


def test_crouching_makes_the_shield_one_size_larger_against_missiles():
    crouched, standing = compile_sides({"shield": "cavalry", "crouch": True},
                                       {"shield": "cavalry"})
    assert resistance(crouched, MISSILE) - resistance(standing, MISSILE) == 3
    assert resistance(crouched, MELEE) == resistance(standing, MELEE)
    # Seed, Cover: "Crouching behind a body shield gives no additional bonus".
    crouched, standing = compile_sides({"shield": "body", "crouch": True}, {"shield": "body"})
    assert resistance(crouched, MISSILE) == resistance(standing, MISSILE)
    medium, _ = compile_sides({"shield": "medium", "crouch": True}, {})
    assert resistance(medium, MISSILE) == resistance(standing, MISSILE)   # medium -> body


def test_attacks_from_above_or_below_cost_one_resistance():
    """Seed, Angle: "an attack from (straight) above or below give a -1 penalty"; the shield
    only works against foes in front (seed, Building blocks); all-round vision: no penalty."""
    plain, above, below, shielded, beholder = compile_sides(
        {}, {"angle": "above"}, {"angle": "below"}, {"shield": "medium", "angle": "above"},
        {"angle": "above", "vision": "all_round"})
    for style in (FORMATION, MELEE, CLOSE):
        assert resistance(above, style) - resistance(plain, style) == -1
        assert resistance(below, style) == resistance(above, style)
        assert resistance(beholder, style) == resistance(plain, style)
    assert resistance(shielded, MELEE) == resistance(above, MELEE)     # no shield from above


def test_dual_wielding_adds_one_in_melee_only():
    dual, single = compile_sides({"weapon": "saber", "off_hand": "dagger"}, {"weapon": "saber"})
    assert [effort(dual, s) - effort(single, s) for s in (FORMATION, MELEE, CLOSE)] == [0, 1, 0]
    assert resistance(dual, MELEE) - resistance(single, MELEE) == 1


def test_situational_modifiers():
    # Light: contact penalties on effort and resistance alike; darkvision ignores them.
    dark, seer = compile_sides({}, {"darkvision": True}, conditions={"light": "darkness"})
    assert effort(dark, MELEE) - effort(seer, MELEE) == -3
    assert resistance(dark, MELEE) - resistance(seer, MELEE) == -3
    # Missile light and wind: effort only.
    a, _ = compile_sides({"missile": "javelin"}, {"missile": "javelin"},
                         conditions={"light": "moonlight", "wind": "gale"})
    plain, _ = compile_sides({"missile": "javelin"}, {})
    assert effort(a, MISSILE) - effort(plain, MISSILE) == -2 - 4
    assert resistance(a, MISSILE) == resistance(plain, MISSILE)
    # Angle: rear -2, or -1 for a sideways-looking animal; cover adds to missile resistance.
    rear, deer = compile_sides({"angle": "rear"}, {"angle": "rear", "vision": "sideways"})
    assert resistance(rear, MELEE) - resistance(plain, MELEE) == -2
    assert resistance(deer, MELEE) - resistance(plain, MELEE) == -1
    covered, _ = compile_sides({"cover": 10}, {})
    assert resistance(covered, MISSILE) - resistance(plain, MISSILE) == 10


def test_height_and_mount():
    from balance.rules.ymlad.compile import height_bonus

    rider, foot = compile_sides({"mounted": "fast", "missile": "cavalry_crossbow"}, {})
    assert height_bonus(rider, foot, MELEE) == 1 and height_bonus(foot, rider, MELEE) == -1
    assert height_bonus(rider, foot, CLOSE) == 0              # seed: not in close combat
    plain, _ = compile_sides({"missile": "cavalry_crossbow"}, {})
    assert effort(rider, MISSILE) - effort(plain, MISSILE) == -2   # a bouncing saddle
    with pytest.raises(ScenarioError, match="horseback"):
        compile_sides({"mounted": "walking", "missile": "longbow_war"}, {})


# --- harm ----------------------------------------------------------------------------------


def test_armour_reduction_by_subtype_rounds_half_up():
    # Seed: one point per 1 / 2 / 3 / 4 armour points; "rounded off normally".
    assert [t.armour_reduction(8.0, d) for d in (1, 2, 3, 4)] == [8, 4, 3, 2]
    assert [t.armour_reduction(5.34, d) for d in (1, 2, 3, 4)] == [5, 3, 2, 1]
    assert t.armour_reduction(2.5, 1) == 3 and t.armour_reduction(1.5, 1) == 2
    assert t.armour_reduction(3.48, 2) == 2 and t.armour_reduction(3.48, 1) == 3


def test_hardness_difference_comes_off_the_armour_score():
    assert t.effective_armour(4.0, 3, 4) == 3.0       # steel weapon, iron armour: -1
    assert t.effective_armour(4.0, 4, 2) == 6.0       # wooden club on steel: +2
    assert t.effective_armour(1.0, 1, 4) == 0.0       # never below 0
    assert t.effective_armour(4.0, 3, 4, use_hardness=False) == 4.0


def test_harm_margins_and_the_best_subtype(party):
    # Bjarne's magical sword cuts plate as if pummeling: 0 + 2 + 6 against 0 + 8 / 4.
    bjarne, florimond = party["bjarne"], party["sir_florimond"]
    assert subtype_margins(bjarne, florimond, MELEE, hardness=False) == (6, 1, 1)
    assert harm_margin(bjarne, florimond, MELEE, hardness=False) == (6, WOUND)
    # A skeleton's plain battle sword: slashing 6 - 8, broad piercing 3 - 4, pummeling 1 - 2,
    # so it does best to thrust or bash (-1).
    skeleton = party["skeleton"]
    assert subtype_margins(skeleton, florimond, MELEE, hardness=False) == (-2, -1, -1)
    # Against the skeleton (armour 1.83, +2 against piercing, -1 against pummeling), Sir
    # Florimond's poleaxe hammer is best: 0 + 2 + 6 - (0 + round(1.83 / 4) - 1).
    assert harm_margin(florimond, skeleton, MELEE, hardness=False) == (9, WOUND)


def test_charge_adds_one_to_contact_piercing_only():
    spear, target = compile_sides({"weapon": "spear"}, {})
    assert harm_margin(spear, target, MELEE, charge=True)[0] == harm_margin(
        spear, target, MELEE)[0] + 1
    sword, _ = compile_sides({"weapon": "battle_sword"}, {})
    assert harm_margin(sword, target, MELEE, charge=True) == harm_margin(sword, target, MELEE)


def test_range_harm_penalty_applies_to_bow_piercing():
    archer, target = compile_sides({"missile": "longbow_war"}, {})
    near = harm_margin(archer, target, MISSILE, band=0)[0]
    assert harm_margin(archer, target, MISSILE, band=2)[0] == near - 1


def test_stun_uses_pummeling_and_splits_odd_and_even():
    assert [t.stun_split(h) for h in (1, 2, 5, 6)] == [(1, 0), (1, 1), (3, 2), (3, 3)]
    stunner, target = compile_sides({"weapon": "club", "policy": {"harm": "stun"}}, {})
    assert harm_margin(stunner, target, MELEE) == (4, STUN)   # club pummeling 4, no armour


def test_grappling_formula(party):
    # Seed: 3 x body harm + strength + weapon grapple on both sides; armour plays no part.
    assert t.grapple_score(4, 1, 2) == 15      # a bear-sized ape with fangs
    assert t.grapple_score(0, 1, 0) == 1       # Neelay with her saber
    tharn, neelay = compile_sides({"roster": "tharn", "policy": {"harm": "grapple"}},
                                  {"roster": "neelay"})
    assert harm_margin(tharn, neelay, CLOSE) == (14, GRAPPLE)
    assert harm_margin(tharn, neelay, MELEE)[1] == WOUND      # only close combat grapples


# --- armour from parts: the seed's party ---------------------------------------------------


@pytest.mark.parametrize(("name", "score", "seed_score"), [
    ("sir_florimond", 8.0, 8), ("neelay", 3.48, 3), ("bjarne", 4.05, 4), ("kasumi", 5.34, 5),
    ("tharn", 0.0, 0)])
def test_party_armour_comes_out_at_the_seeds_scores(name, score, seed_score):
    from balance.models.ymlad import FighterSpec

    spec = FighterSpec.model_validate(TABLES.roster[name].model_dump(exclude={"name", "note"}))
    protection, _, _ = _armour(spec, TABLES)
    assert protection == pytest.approx(score)
    assert t.round_half_up(protection) == seed_score


def test_protection_and_weight_formulas():
    assert t.armour_protection(1.0, 4.0, 0.75) == 6.0          # full plate below the head
    assert t.armour_protection(2 / 3, 1.0, 0.52) == pytest.approx(0.6933, abs=1e-4)
    assert t.armour_weight(1.0, 3.4, 0.92) == pytest.approx(25.024)


# --- the harm track ---------------------------------------------------------------------------


@pytest.mark.parametrize(("threshold", "penalty_at", "down_at", "dead_at"), [
    (1, (2, 3), 4, 6), (2, (3, 5), 7, 11), (3, (4, 7), 10, 16)])
def test_harm_track_scales_with_the_threshold(threshold, penalty_at, down_at, dead_at):
    f = compile_sides({"harm_threshold": threshold}, {})[0]
    assert (f.penalty_at, f.down_at, f.dead_at) == (penalty_at, down_at, dead_at)
    assert [track_penalty(f, h) for h in range(down_at)] == (
        [0] * penalty_at[0] + [-1] * (penalty_at[1] - penalty_at[0])
        + [-2] * (down_at - penalty_at[1]))


def test_harm_threshold_member_over_side_over_rules():
    data = {"name": "t", "ruleset": "ymlad", "rules": {"harm_threshold": 1},
            "sides": [{"name": "pcs", "harm_threshold": 3,
                       "members": [{}, {"harm_threshold": 2}]},
                      {"name": "npcs", "members": [{}]}]}
    loaded = balance.load_scenario(data)
    fs = get("ymlad").compile(loaded.model, loaded.tables).fighters
    assert [f.threshold for f in fs] == [3, 2, 1]


def test_no_pain_means_no_penalty():
    f = compile_sides({"feels_pain": False}, {})[0]
    assert track_penalty(f, f.down_at - 1) == 0


# --- group fights, encumbrance, modifiers tables --------------------------------------------


def test_group_bonus_and_limits():
    assert [t.group_bonus(r) for r in range(4)] == [0, 1, 2, 3]
    assert t.may_join(5, 5, False) and not t.may_join(6, 6, False)
    assert t.may_join(6, 6, True) and t.may_join(6, 11, True)
    assert not t.may_join(6, 12, True)


def test_encumbrance_follows_load_over_capacity():
    heavy, light = compile_sides({"armour": ["plate_harness", "closed_helmet"], "load": 10.0},
                                 {"armour": ["plate_harness", "closed_helmet"],
                                  "talents": {"strength": 4}})
    assert heavy.encumbrance == -2                 # about 39 kg on 25 kg of capacity
    assert light.encumbrance == 0                  # 29 kg on 35 kg
    assert effort(heavy, MELEE) - effort(light, MELEE) == -2   # strength is not in skirmishes


def test_party_is_not_encumbered(party):
    assert all(f.encumbrance == 0 for f in party.values())


def test_talent_and_skill_modifier_tables():
    assert [TABLES.talent_modifiers[str(s)].modifier for s in range(5)] == [-2, -1, 0, 1, 2]
    assert [TABLES.skill_modifiers[str(s)].modifier for s in range(7)] == list(range(-2, 5))


def test_p_success_closed_form():
    assert t.p_success(0) == pytest.approx(2 / 3)
    assert t.p_success(1) == pytest.approx(8 / 9)
    assert t.p_success(-1) == pytest.approx(1 / 3)
    assert t.p_success(-3) == pytest.approx(1 / 27)


def test_range_bands_and_strong_throwers():
    assert [int(t.range_band(g, 10, 25)) for g in (5, 10, 11, 25, 26)] == [0, 0, 1, 1, 2]
    assert t.strong_thrower_shift(2, True) == 1 and t.strong_thrower_shift(2, False) == 0
    assert t.strong_thrower_shift(1, True) == 0
