"""Yags as written (issue 12): each rule of seed 000 that the lab once misread, shown acting
in the scalar reference with chosen dice, the seed's words quoted beside it. The kernel plays
the same rules (tests/rules/yags/test_agreement.py); the hand-derived exact probabilities are
in tests/rules/yags/test_exact.py."""

from __future__ import annotations

import pytest

from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.rules.yags.compile import (
    FULL_DEFENCE,
    HALF_DEFENCE,
    NEVER_EXHAUSTED,
    NO_DEFENCE,
    YagsRules,
    _exhausted_at,
)
from balance.rules.yags.reference.blows import apply_damage, blow, knockback_levels
from balance.rules.yags.reference.declare import declare
from balance.rules.yags.reference.fight import end_of_round
from balance.rules.yags.reference.missiles import shot_defence
from balance.rules.yags.reference.state import ATTACK, RETREAT, FighterState
from balance.rules.yags.reference.strikes import attack_action, reach_bonus, resolve_attack
from balance.rules.yags.rules.ranged import CRIPPLED, IMPAIRED, UNAFFECTED, out_of_band
from balance.rules.yags.rules.tactics import VITAL, Tactics
from balance.rules.yags.rules.tracks import MIXED, STUNS, fatigue_penalty
from tests.rules.yags.cases import declared, fight_of, veteran
from tests.rules.yags.fights import SE, archer_wins
from tests.rules.yags.scripted import ScriptedDice, state

RULES = YagsRules()


# --- Reach: "closed to within the weapon's reach" -----------------------------------------


def spear_and_dagger(step_back: bool = True):
    """A dagger (reach 0) and a spear (reach 3), the spear stepping back by policy; both
    declared for round 2 (the dagger acts first)."""
    return declared(veteran(0, gear={"reach": 0}, damage=0),
                    veteran(1, gear={"reach": 3}, damage=0,
                            tactics=Tactics(step_back=step_back)))


def test_closing_in_draws_the_longer_weapons_free_strike_then_it_is_inside() -> None:
    """Seed 000: "If the defender has a longer reach, then they get a free strike before the
    attacker gets a chance to hit"; the foe has then "closed to within the weapon's reach"."""
    c = spear_and_dagger()
    dagger, spear = c.fighters
    # the spear's free strike (2 + 15 against 10 + 15: a miss), then the dagger's attack
    attack_action(dagger, spear, c, 2, rng=ScriptedDice(2, 10, 2, 10))
    assert dagger.inside == {1}
    dice = ScriptedDice(2, 10)        # inside: its next attack draws no free strike
    attack_action(dagger, spear, c, 2, rng=dice)
    assert dice.done()


def test_a_weapon_used_on_a_foe_inside_its_reach_is_at_minus_five_a_level() -> None:
    """Seed 000: a weapon "used against a foe that has closed to within the weapon's reach,
    gives a -5 to attack rolls for each excess level of reach": the spear (3) against a
    dagger (0) inside it is at -15; a foe outside it, or in another pair, is not."""
    c = spear_and_dagger()
    dagger, spear = c.fighters
    assert reach_bonus(spear, dagger, True) == 0
    dagger.inside.add(spear.index)
    assert reach_bonus(spear, dagger, True) == -15
    assert reach_bonus(spear, dagger, False) == 0       # rules.reach every_attack


def test_the_longer_weapon_steps_back_and_the_distance_opens_at_the_end_of_the_round() -> None:
    """The lab's reading of how reach is regained: with a shorter weapon inside its reach the
    spear gives ground (seed 000, Retreat: no attacks that turn) and the foe is outside again
    after the round, so its next attack draws the free strike again."""
    c = spear_and_dagger()
    dagger, spear = c.fighters
    dagger.inside.add(spear.index)
    declare(c, 2)
    assert spear.action == RETREAT and spear.retreating
    end_of_round(c, rng=ScriptedDice())
    assert dagger.inside == set()
    holding = spear_and_dagger(step_back=False)
    holding.fighters[0].inside.add(1)
    declare(holding, 2)
    assert holding.fighters[1].action != RETREAT


# --- Stuns: "Excessive stun damage may lead to wounds" --------------------------------------


def test_stuns_beyond_beaten_become_wounds() -> None:
    """Seed 000: "Excessive stun damage may lead to wounds however." At 6 stuns (beaten), a
    blow of 3 stuns adds one (at least half: seed's stun rule) and that seventh stun is a
    wound; a blow of 8 replaces them and its two beyond beaten are two wounds."""
    s = state()
    s.stuns = 6
    # the wound first (no check below fatal), then the beaten check at 25: 12 + 20 = 32
    apply_damage(s, 3, STUNS, RULES, rng=ScriptedDice(20))
    assert (s.stuns, s.wounds, s.status) == (6, 1, STANDING)
    s = state()
    s.wounds, s.stuns = 5, 6
    # 8 stuns: 2 wounds take it to 7, fatal: check at 25, 12 + 10 = 22 fails: dead
    apply_damage(s, 8, STUNS, RULES, rng=ScriptedDice(10))
    assert (s.wounds, s.status) == (6, DEAD)


def test_excess_stuns_none_keeps_the_old_reading() -> None:
    s = state()
    s.stuns = 6
    apply_damage(s, 3, STUNS, YagsRules(stun_wounds=False), rng=ScriptedDice(20))
    assert (s.stuns, s.wounds) == (6, 0)


def test_mixed_damage_overflow_is_one_wound_check() -> None:
    """Mixed damage's wounds and the stuns beyond beaten are wounds of the same blow: five
    levels are 3 stuns (5 + 3 = 8: two beyond beaten) and 2 wounds, so 3 + 2 + 2 = 7 wounds,
    one fatal-wound check at 25; a fighter it puts out makes no stun check."""
    s = state()
    s.wounds, s.stuns = 3, 5
    apply_damage(s, 5, MIXED, RULES, rng=ScriptedDice(12))    # 12 + 12 < 25: dead
    assert (s.wounds, s.stuns, s.status) == (6, 6, DEAD)
    s = state()
    s.wounds, s.stuns = 3, 5
    dice = ScriptedDice(13)                                   # 25: unconscious, no more rolls
    apply_damage(s, 5, MIXED, RULES, rng=dice)
    assert s.status == UNCONSCIOUS and dice.done()


# --- Crushing and knockback: "stun damage, even if the attack didn't get through" -----------


def test_a_blow_soaked_still_knocks_back_over_strength_times_ten() -> None:
    """Seed 000, Crushing: "+5 bonus to damage for purposes of knockback. This increases the
    chance of causing stun damage, even if the attack didn't get through the target's
    armour." The lab's knockback: a hit that causes no damage whose damage roll (+5 when
    crushing) is greater than the target's strength x 10 does a stun, and one per 5 above."""
    assert knockback_levels(30, False, 3) == 0          # not greater than 30
    assert knockback_levels(31, False, 3) == 1
    assert knockback_levels(26, True, 3) == 1           # 26 + 5 > 30: only when crushing
    assert knockback_levels(36, False, 3) == 2
    a = FighterState(0, veteran(damage=18, gear={"crushing": True}))
    t = FighterState(1, veteran(1, soak=40))
    # damage 18 + 10 = 28 against soak 40 + 1: no damage; 28 + 5 > 30: one stun
    blow(a, t, 0, 0, fight_of(a, t), rng=ScriptedDice(10, 1))
    assert (t.wounds, t.stuns) == (0, 1)
    rules = YagsRules(knockback=False)            # rules.knockback none
    t = FighterState(1, veteran(1, soak=40))
    c = fight_of(FighterState(0, a.fighter), t)
    c.rules = rules
    blow(c.fighters[0], t, 0, 0, c, rng=ScriptedDice(10, 1))
    assert t.stuns == 0


# --- Fatigue: "in a similar way to wounds", "must immediately rest" ---------------------------


def test_fatigue_costs_what_the_wound_track_costs() -> None:
    """Seed 000: fatigue "is measured in a similar way to wounds" (the first wound costs
    nothing); ``rules.fatigue_penalty: 5`` keeps the old -5 a level."""
    assert [fatigue_penalty(k, None) for k in range(7)] == [0, 0, -5, -10, -15, -25, -40]
    assert [fatigue_penalty(k, 5) for k in range(3)] == [0, -5, -10]
    assert _exhausted_at("health", 3) == 4 and _exhausted_at("never", 3) == NEVER_EXHAUSTED


def test_a_fighter_exhausted_by_a_fumble_rests_at_once() -> None:
    """Seed 000: "If a character becomes Exhausted then they must immediately rest." Health 3
    (exhausted at 4 levels) with 3 already: its fumbled attack's fatigue exhausts it, it
    leaves the fight at once and its foe's counter strike never comes."""
    c = declared(veteran(0, exhausted_at=4, fatigue=3, defences=0), veteran(1))
    a, t = c.fighters
    a.fatigue = 3
    dice = ScriptedDice(1, 10)           # the attack fumbles (its foe's defence roll is 10)
    attack_action(a, t, c, 2, rng=dice)
    assert a.fatigue == 4 and a.status == YIELDED and dice.done()


# --- Missiles: "full defence (even against firearms)" -----------------------------------------


def test_a_target_defends_half_against_bows_none_against_firearms_full_when_impaired() -> None:
    """Seed 000, Impaired: "The target always gets their full defence (even against
    firearms)": so an unimpaired shot meets a lesser defence, and a firearm none. The lab:
    half the defence (rounded down) against bows and thrown weapons (rules.missile_defence
    half); ``full`` and ``none`` are the other readings."""
    foe = FighterState(1, veteran(1, defence=15))
    assert shot_defence(foe, UNAFFECTED, False, HALF_DEFENCE) == 7
    assert shot_defence(foe, UNAFFECTED, True, HALF_DEFENCE) is None
    assert shot_defence(foe, IMPAIRED, True, HALF_DEFENCE) == 15
    assert shot_defence(foe, CRIPPLED, False, NO_DEFENCE) == 15
    assert shot_defence(foe, UNAFFECTED, True, FULL_DEFENCE) == 15
    assert shot_defence(foe, UNAFFECTED, False, NO_DEFENCE) is None


# --- Smaller readings -------------------------------------------------------------------------


def test_a_vital_strike_fells_fatally_wounded_and_the_fatal_check_follows() -> None:
    """Seed 000, Vital strike: "Failure means that they immediately fall to the ground
    fatally wounded"; and for any damage taking a fighter to fatally wounded: "If you fail
    this check, then you die, otherwise you fall unconscious. If you make a good success,
    then you can continue fighting"."""
    for die, status in ((7, DEAD), (8, UNCONSCIOUS), (18, STANDING)):
        a, t = FighterState(0, veteran()), FighterState(1, veteran(1))
        # one wound (18 + 10 vs 18 + 10); health x Size 15 + 9 < 25: falls; then 12 + die
        blow(a, t, VITAL, 0, fight_of(a, t), rng=ScriptedDice(10, 10, 9, die))
        assert (t.wounds, t.prone, t.status) == (6, True, status)
        assert t.fighting_on_at_fatal == (status == STANDING)


def test_unarmed_counter_strike_needs_a_good_or_a_successful_defence() -> None:
    """Seed 000 says it twice: "If the defender makes a successful defence, then they get an
    immediate counter strike" (Unarmed attack) and "you gain a counter strike if you make a
    good defence" (Counter Strikes). rules.unarmed_counter picks; ``good`` is the default."""
    for rules, expected in ((RULES, False), (YagsRules(unarmed_counter_good=False), True)):
        a = FighterState(0, veteran(gear={"unarmed": True, "martial": False}))
        t = FighterState(1, veteran(1, gear={"martial": True}))
        c = fight_of(a, t)
        c.rules = rules
        # attack 15 + 5 = 20 against defence 15 + 10 = 25: parried by 5, not by 10
        out = resolve_attack(a, t, True, c, 2, rng=ScriptedDice(5, 10))
        assert out.good_parry == expected and not out.hit


def test_auto_covers_a_foe_that_is_standing_up() -> None:
    """Seed 000: "If you are making a melee attack but do not declare a defence against the
    target, then they get a counter strike". ``auto`` declares one defence whenever it
    attacks (one costs nothing), so a foe standing up gets no counter strike."""
    c = declared(veteran(0), veteran(1, tactics=Tactics(stand=True)))
    c.fighters[1].prone = True
    declare(c, 2)
    a, t = c.fighters
    assert t.action != ATTACK and a.defended == (1,) and a.defences == 1


def test_an_auto_shooter_gives_ground_out_of_the_band_that_cripples_its_bow() -> None:
    """Seed 000, Reach and Close Combat: the Move band is "within the target's combat move"
    and a weapon of greater reach is crippled there; Movement: half Move "without penalty".
    A long bow (reach 3) with a runner (Move 12) 6 m off steps back just past 6 m; at 5 m
    too (1.1 m); at 10 m it stays; a pistol (reach 0) never needs to."""
    assert out_of_band(6.0, 3, 12, 6, 80) == pytest.approx(0.1)
    assert out_of_band(5.0, 3, 12, 6, 80) == pytest.approx(1.1)
    assert out_of_band(10.0, 3, 12, 6, 80) == 0
    assert out_of_band(5.0, 0, 12, 6, 15) == 0
    assert out_of_band(4.0, 2, 24, 6, 80) == 0           # a rider's 12 m: out of reach


def test_the_archer_does_better_from_30_m_than_from_10_m() -> None:
    """The issue's symptom: the runner from 30 m stopped 6 m off, inside the long bow's
    crippled band, and the careful archer did worse than from 10 m (3.6% against 11.1%).
    Giving ground out of the band fixes it."""
    near, far = archer_wins(11, distance=10), archer_wins(11, distance=30)
    assert far > near + 4 * SE * 2 ** 0.5
