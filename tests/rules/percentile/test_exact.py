"""Hand-derived exact cases of seed 004's rules, played by the vectorised engine.

Each test builds a fight in which one rule decides a countable event (a death in the first
round, a held foe, a wound that gets through), derives the event's exact probability from
the rules in its docstring (d100 level ranges from ``tables``, damage from exact pmfs) and
checks the engine's frequency within four standard errors at 200,000 trials. The kernel and
the scalar reference share one reading of the rules, so agreement between them cannot catch
a misreading; these cases can.
"""

from __future__ import annotations

import numpy as np

import balance
from balance.dice import Pmf
from balance.engine.status import DEAD
from balance.rules import get
from balance.rules.percentile.rules import damage as dmg
from tests.rules.helpers import percentile_member as member
from tests.rules.percentile.helpers import PASSIVE, N, duel, sitting_duck, status, within_4se


def p_at_least(pmf: Pmf, x: int) -> float:
    return float(pmf.p_at_least(x))






def test_a_full_move_charge_strikes_with_the_horses_bonus() -> None:
    """Seed 004: "a charge is made at the end of a full movement"; the charging rider "uses
    the horse's damage bonus rather than their own".

    A lancer (attack 70, Ride 70, DEX 12) on a warhorse (move 12; STR 32 + SIZ 30 = 62:
    +3D6) starts 13 yards from a foot soldier and rides its full move to touching distance:
    12 yards cost all 12 of its DEX ranks, yet the charge strikes at the end of the move.
    Chance: 70 (Ride caps at 70), +10 for the rider's height over a foe on foot with a
    shorter weapon = 80: criticals 01-04, specials (impales: the lance's 1D10+1 twice)
    05-16, plain hits 17-80. No armour, no defence; the foe (20 hit points) dies if
    damage >= 20:
    P = 0.16 P(2(1D10+1) + 3D6 >= 20) + 0.64 P(1D10+1 + 3D6 >= 20).
    The rider's own bonus (STR 13 + SIZ 13: +1D4) would give far less.
    """
    lancer = member(70, weapon="lance", shield=None, mount="warhorse",
                    skills={"ride": 70}, characteristics={"DEX": 12})
    lance, horse = dmg.weapon_pmf("1D10+1"), dmg.weapon_pmf("3D6")
    p = 0.16 * p_at_least(lance + lance + horse, 20) + 0.64 * p_at_least(lance + horse, 20)
    got = status(duel(lancer, sitting_duck(20), distance=13)).get("dead", 0.0)
    assert within_4se(got, p), (got, p)


def one_round(scenario: dict, seed: int = 14, round_no: int = 1):
    """The kernel's state after one round (``round_no``, played on fresh fighters) of ``N``
    trials of ``scenario``."""
    loaded = balance.load_scenario(scenario)
    system = get("percentile")
    fight = system.compile(loaded.model, loaded.tables)
    state = system.start(fight, N, np.random.default_rng(seed))
    system.play_round(fight, state, np.random.default_rng(seed + 1), round_no)
    return state


def test_a_disarm_takes_the_weapon_and_the_foe_fights_on() -> None:
    """Seed 004: disarming "takes an opponent's weapon out of their hand and ... keeps them
    from drawing a second one"; it does not end the fight.

    The lab's disarm: an attack (attack 60: rolls 01-60 succeed) the foe does not parry or
    dodge (defence none), then STR 16 against STR 12 on the Resistance Table:
    50 + 5 x 4 = 70%. P(disarmed in round 1) = 0.60 x 0.70 = 0.42. The disarmed foe is
    still standing, holds its fists and has its sword on the ground; it has a dagger at
    its belt but may not draw it.
    """
    disarmer = member(60, policy={"disarm": True}, characteristics={"STR": 16, "DEX": 15})
    foe = sitting_duck(12, characteristics={"STR": 12}, sidearm="dagger")
    st = one_round(duel(disarmer, foe))
    disarmed = st.item_loose[0, 1]
    assert within_4se(float(disarmed.mean()), 0.42)
    assert (st.status[1, disarmed] == 0).all() and (st.wield[1, disarmed] == 3).all()
    assert st.no_draw[1, disarmed].all() and not st.item_ok[0, 1, disarmed].any()


def test_a_knockout_blow_that_armour_stops_does_nothing() -> None:
    """Seed 004, knockouts: "damage equal to a minor wound deals the weapon's minimum
    damage ... Armor defends as usual."

    A fist (1D3; STR 10 + SIZ 10: no damage bonus) at 60% against 2 points of fixed armour
    and 12 hit points (a major wound needs 6, never reached). Criticals (01-03) ignore
    armour: 1D3 >= 1 gets through, a minor wound: the fist's minimum, 1. Other hits
    (04-60) get 1D3 - 2 through: only a 3 (one in three) leaves 1. So
    P(hurt in round 1) = 0.03 + 0.57 / 3 = 0.22, and every wound is exactly 1 point.
    """
    boxer = member(60, weapon="fist", shield=None, policy={"knockout": True},
                   characteristics={"STR": 10, "SIZ": 10, "DEX": 15})
    st = one_round(duel(boxer, sitting_duck(12, armour="heavy_leather")))
    lost = 12 - st.hp[1]
    assert within_4se(float((lost > 0).mean()), 0.22)
    assert set(np.unique(lost).tolist()) == {0, 1}


def test_a_shot_at_a_small_part_is_halved_and_meets_the_armour() -> None:
    """Seed 004: aiming at "a specific, small part of a target ... halve the chance to hit";
    it does not say armour is ignored.

    A long bow (1D8+1, no damage bonus; thrusting: a special impales, 2 x (1D8+1)) at 70%,
    halved to 35: criticals 01-02 (armour ignored), specials 03-07, hits 08-35. At 30 yards
    (inside base range 90, outside point blank), against 7 points of fixed armour and 1
    hit point: a critical kills; an impale kills if 2D8 + 2 >= 8 (2D8 >= 6: 54 of 64); a
    plain hit if 1D8 + 1 >= 8 (a 7 or 8: 2 of 8).
    P = 0.02 + 0.05 x 54/64 + 0.28 x 2/8 = 0.13219 (ignoring the armour it would be 0.35).
    """
    archer = member(70, weapon="long_bow", shield=None, policy={"small_part": True})
    p = 0.02 + 0.05 * 54 / 64 + 0.28 * 2 / 8
    got = status(duel(archer, sitting_duck(1, armour="chainmail"), distance=30))
    assert within_4se(got.get("dead", 0.0), p), (got, p)


def test_a_javelin_reaches_past_double_range() -> None:
    """Seed 004: out to triple range a missile hits at a quarter of the chance; "thrown
    knives and axes" (not every thrown weapon) have no chance past double range.

    A javelin (base range 20) thrown at 70% at a foe 41 yards away (past double, inside
    triple range): ceil(70 / 4) = 18, so rolls 01-18 hit. Beyond double range the damage is
    halved (1D8 + half of +1D4 = 1D2: 2..10, halved 1..5) but never below 1, so every hit
    kills a 1-hit-point target: P = 0.18.
    """
    javelin = member(70, weapon="javelin", shield=None)
    got = status(duel(javelin, sitting_duck(1), distance=41))
    assert within_4se(got.get("dead", 0.0), 0.18), got


def test_any_successful_dodge_negates_an_entangle() -> None:
    """Seed 004: "a successful Dodge or Wrestle roll negates an entangling attempt" (any
    Dodge, even against a critical entangle; only a parry needs a critical for that).

    A net thrown at 60% (rolls 01-60 succeed, 01-03 critically) from 2 yards (inside its
    range of 3) by a quicker netter (DEX 18) at a foe (DEX 10) who dodges at 40% (01-40):
    P(held after round 1) = 0.60 x (1 - 0.40) = 0.36. Were a critical net to need a
    critical Dodge (01-02), it would be 0.57 x 0.60 + 0.03 x 0.98 = 0.3714.
    """
    netter = member(60, weapon="trident", shield=None, off_hand="net",
                    skills={"off_hand": 60}, policy={"entangle": True},
                    characteristics={"DEX": 18})
    foe = member(55, shield=None, skills={"dodge": 40}, policy={"defence": "dodge"},
                 characteristics={"DEX": 10})
    st = one_round(duel(netter, foe, distance=2))
    assert within_4se(float(st.entangled[1].mean()), 0.36)


def test_an_attack_over_100_percent_lowers_the_parry() -> None:
    """The BRP family's rule for skills over 100% (rule option ``skill_over_100``, default
    ``reduces_defence``): the attack's chance over 100 comes off the defender's parry.

    Attack 130: criticals 01-07 (130 / 20 = 6.5, rounded half up), hits up to 95 (96-00
    always fail). The parry of 60 drops to 30: criticals 01-02, successes 01-30. A critical
    attack is stopped only by a critical parry. No armour, 1 hit point (any blow kills; a
    fumbled parry stops nothing):
    P(dead) = 0.07 x 0.98 + 0.88 x 0.70 = 0.6846 (with the option off: 0.07 x 0.97 +
    0.88 x 0.40 = 0.4199).
    """
    master = member(130, characteristics={"DEX": 15})
    foe = sitting_duck(1, skills={"dodge": 0, "attack": 60, "parry": 60},
                       policy={**PASSIVE, "defence": "parry"})
    got = status(duel(master, foe)).get("dead", 0.0)
    assert within_4se(got, 0.07 * 0.98 + 0.88 * 0.70), got
    off = status(duel(master, foe, rules={"skill_over_100": "none"})).get("dead", 0.0)
    assert within_4se(off, 0.07 * 0.97 + 0.88 * 0.40), off


def test_an_ambush_surprises_those_who_do_not_spot_it() -> None:
    """Seed 004, ambushes: ambushers "need a successful Move Quietly, or a successful Hide if
    they're already lying in wait"; targets get a Search roll to spot them first; a hidden
    target that is not moving "is only half as likely to be noticed".

    One ambusher hides (Hide 60: 01-60); the target's Search of 50 is halved to 25 against
    a hidden foe. P(surprised) = 0.60 x (1 - 0.25) = 0.45. Sneaking in instead (Move
    Quietly 60), the full Search counts: 0.60 x 0.50 = 0.30.
    """
    ambusher = member(60, skills={"hide": 60, "move_quietly": 60})
    target = member(60, skills={"search": 50})
    for way, p in (("hide", 0.45), ("move_quietly", 0.30)):
        scenario = duel(ambusher, target)
        scenario["sides"][0]["ambush"] = way
        st = one_round(scenario)
        assert within_4se(float(st.surprised[1].mean()), p), way
        assert not st.surprised[0].any()


def test_a_foe_unable_to_resist_is_hit_automatically() -> None:
    """Seed 004: "a target unable to resist is hit automatically; a fumble ... still does
    only the weapon's minimum damage". In the lab that is an exhausted fighter (fatigue:
    after CON x 10 rounds it cannot even lift a sword).

    Round 12 of a fight under the fatigue rule: the foe (CON 1) is exhausted, the attacker
    (CON 18) is not. Attack 30 with a broadsword (1D8+1) and +1D4 (STR 13 + SIZ 13): every
    roll hits; the fumbles (97-00: ceil(70 / 20) = 4) do the sword's minimum, 2, which no
    real blow can do (at least 1 + 1 + 1 = 3). No armour. P(exactly 2 lost) = 0.04, and
    nobody is missed.
    """
    tired = sitting_duck(30, characteristics={"CON": 1})
    fresh = member(30, characteristics={"CON": 18, "DEX": 15})
    st = one_round(duel(fresh, tired, rules={"fatigue": True}), round_no=12)
    lost = 30 - st.hp[1]
    assert (lost >= 2).all()
    assert within_4se(float((lost == 2).mean()), 0.04)


def test_partly_destroyed_armour_stops_half() -> None:
    """Seed 004: partly destroyed armour: "roughly halve its defense roll, rounding in the
    wearer's favor (1D6-1 becomes 1D3)"; fixed armour of 7 becomes 4.

    A broadsword (1D8+1, STR 10 + SIZ 10: no bonus) at 60% against damaged chainmail (4) and
    no defence: criticals (01-03) ignore armour and always wound; other hits (04-60) wound
    if 1D8 + 1 > 4 (5 of 8). P(hurt) = 0.03 + 0.57 x 5/8 = 0.38625 (whole armour, 7:
    0.03 + 0.57 x 2/8 = 0.1725).
    """
    sword = member(60, shield=None, characteristics={"STR": 10, "SIZ": 10, "DEX": 15})
    foe = sitting_duck(40, armour="chainmail", armour_damaged=True)
    st = one_round(duel(sword, foe))
    assert within_4se(float((st.hp[1] < 40).mean()), 0.03 + 0.57 * 5 / 8)


def test_the_pouncing_stick_doubles_and_triples() -> None:
    """Seed 004: the Myyrrhn dives onto a foe with the pouncing stick, "which does double
    damage on a success and triple on a critical"; a Fly roll afterwards, or a heap near
    the foe (down, 1D6; 2D6 on a fumble); either way the stick is spent.

    The stick (1D10+1; STR 10 + SIZ 10: no bonus) at 60%: criticals 01-03, other hits
    04-60 (impales give way to the pounce's own multiplier). No defence, no armour, 13 hit
    points: a hit kills if 2(1D10+1) >= 13 (a 6 or more: 5 of 10), a critical if
    3(1D10+1) >= 13 (a 4 or more: 7 of 10). P(dead) = 0.03 x 0.7 + 0.57 x 0.5 = 0.306.
    Fly 50: the flyer is down half the time.
    """
    flyer = member(60, weapon="pouncing_stick", shield=None, skills={"fly": 50},
                   policy={"pounce": True}, characteristics={"STR": 10, "SIZ": 10, "DEX": 15})
    st = one_round(duel(flyer, sitting_duck(13), distance=10))
    assert within_4se(float((st.status[1] == DEAD).mean()), 0.306)
    assert within_4se(float(st.down[0].mean()), 0.50)
    assert not st.item_ok[0, 0].any() and not st.airborne.any()


def test_a_parry_is_made_with_the_better_hand() -> None:
    """Seed 004 names no hand to parry with; the lab's policy ``parry_with`` (default
    ``off_hand``; ``best``: the higher parry chance, the off hand on a tie; docs/rules/
    percentile.md, Defence) decides, so under ``best`` a shield at 20% never makes a 60%
    swordsman worse.

    Attack 60 with a dagger (1D4+2, impaling 2(1D4+2): never more than the parrying items'
    hit points, 16 for the full shield and 20 for the broadsword, so nothing breaks):
    criticals 01-03, hits 01-60. The defender (1 hit point, no armour) parries every blow;
    a critical attack is stopped only by a critical parry.
    With the broadsword at 60 (criticals 01-03):
    P(dead) = 0.03 x 0.97 + 0.57 x 0.40 = 0.2571;
    with the shield at 20 (criticals 01):
    P(dead) = 0.03 x 0.99 + 0.57 x 0.80 = 0.4857.
    """
    attacker = member(60, weapon="dagger", shield=None,
                      characteristics={"STR": 10, "SIZ": 10})

    def dead(parry_with: str | None) -> float:       # None: the default
        policy = {**PASSIVE, "defence": "parry"}
        if parry_with is not None:
            policy["parry_with"] = parry_with
        foe = sitting_duck(1, shield="full_shield", policy=policy,
                           skills={"dodge": 0, "attack": 60, "parry": 60, "shield": 20})
        return status(duel(attacker, foe)).get("dead", 0.0)

    best, weapon, off_hand = dead("best"), dead("weapon"), dead("off_hand")
    assert within_4se(best, 0.03 * 0.97 + 0.57 * 0.40), best
    assert best == weapon       # the same hand, the same dice
    assert within_4se(off_hand, 0.03 * 0.99 + 0.57 * 0.80), off_hand
    assert dead(None) == off_hand
