"""Yags as written, third pass (issue 25): the readings it changed, shown acting in the scalar
reference with chosen dice, the seed's words quoted beside each. The hand-derived
probabilities that drive the vector kernel through the same rules are in
tests/rules/yags/test_exact.py."""

from __future__ import annotations

import numpy as np
import pytest

from balance.rules.yags.reference.strikes import attack_action, fumble_result
from balance.rules.yags.rules.equipment import BARE
from balance.rules.yags.rules.tactics import (
    BEST,
    WORST,
    Tactics,
    defence_fail_effect,
    fumble_choice,
    fumble_harm_order,
    unarmed_against_martial,
)
from balance.rules.yags.rules.tracks import BREAK, DISARM, FAIL_DEFENCE, FATIGUE
from tests.rules.yags.cases import FISTS, declared, holding
from tests.rules.yags.scripted import ScriptedDice

SWORD = {"losable": True, "weak": False, "strong": False}


# --- Who chooses a fumble's result, and what ----------------------------------------------


def test_the_harm_ranking_of_fumble_results() -> None:
    """Seed 000, Fumbles in Combat: an attack fumble's results are "1. You gain a point of
    fatigue. 2. You lose your weapon ... 3. Your primary weapon breaks, but only if it is
    weak"; a defence fumble's add "4. Fail defence, use base difficulty only". The lab ranks
    them by the harm to the fumbler: an exhausting fatigue, break, disarm, a failed defence
    that lets the attack through, fatigue, a failed defence that does nothing or helps."""
    assert fumble_harm_order(exhausts=False, fail_effect=1) == (
        BREAK, DISARM, FAIL_DEFENCE, FATIGUE)
    assert fumble_harm_order(exhausts=False, fail_effect=0) == (
        BREAK, DISARM, FATIGUE, FAIL_DEFENCE)
    assert fumble_harm_order(exhausts=True, fail_effect=-1) == (
        FATIGUE, BREAK, DISARM, FAIL_DEFENCE)


@pytest.mark.parametrize(("prefs", "case", "result"), [
    # worst for the fumbler
    ((WORST,), dict(defending=True, losable=True, weak=False, strong=False), BREAK),
    ((WORST,), dict(defending=True, losable=True, weak=False, strong=True), DISARM),
    ((WORST,), dict(defending=False, losable=True, weak=True, strong=False), BREAK),
    ((WORST,), dict(defending=False, losable=True, weak=False, strong=False), DISARM),
    ((WORST,), dict(defending=True, losable=False, weak=False, strong=False, fail_effect=1),
     FAIL_DEFENCE),
    ((WORST,), dict(defending=True, losable=False, weak=False, strong=False, fail_effect=0),
     FATIGUE),
    ((WORST,), dict(defending=True, losable=True, weak=False, strong=False, exhausts=True),
     FATIGUE),
    # best for the fumbler
    ((BEST,), dict(defending=True, losable=True, weak=False, strong=False, fail_effect=-1),
     FAIL_DEFENCE),
    ((BEST,), dict(defending=True, losable=True, weak=False, strong=False, fail_effect=1),
     FATIGUE),
    ((BEST,), dict(defending=False, losable=True, weak=False, strong=False, exhausts=True),
     DISARM),
    ((BEST,), dict(defending=False, losable=False, weak=False, strong=False, exhausts=True),
     FATIGUE),
    # a list: the first possible
    ((FAIL_DEFENCE, BREAK, DISARM, FATIGUE),
     dict(defending=False, losable=True, weak=False, strong=False), DISARM),
])
def test_fumble_choice_by_ranking_or_list(prefs, case, result) -> None:
    """Seed 000: "You get to choose the fumble result unless your opponent has a higher
    skill, in which case they choose"; "Defender's weapon breaks, but only if it is not
    strong"; "Your primary weapon breaks, but only if it is weak"."""
    assert fumble_choice(prefs, **case) == result


def test_what_failing_a_defence_does_to_the_attack() -> None:
    """+1: the base difficulty 15 lets through what the parry stopped; -1: the parry (below
    15) let it through and the base difficulty stops it; 0: no change. A manoeuvre needing
    a good success (2) counts its level."""
    assert defence_fail_effect(20, 25, 15, 1, 10) == 1
    assert defence_fail_effect(12, 8, 15, 1, 10) == -1
    assert defence_fail_effect(30, 10, 15, 1, 10) == 0
    assert defence_fail_effect(26, 17, 15, 2, 10) == 1       # good against 15, not against 17
    assert list(defence_fail_effect(np.array([20, 12]), np.array([25, 8]), 15, 1, 10)) == [1, -1]


def test_the_more_skilled_foe_breaks_the_fumblers_weapon_by_default() -> None:
    """A skill 5 foe chooses a skill 4 fumbler's results: a fumbled defence with a sword that
    is not strong breaks it (it was "fail defence" first before issue 25)."""
    c = declared(holding(0, skill=5), holding(1, main=SWORD, skill=4))
    a, t = c.fighters
    assert fumble_result(t, a, defending=True, fail_effect=1) == BREAK
    t.fighter = holding(1, main=SWORD, skill=4, tactics=Tactics())
    a.fighter = holding(0, skill=5, tactics=Tactics(foe_fumbles=(FAIL_DEFENCE, BREAK)))
    assert fumble_result(t, a, defending=True, fail_effect=1) == FAIL_DEFENCE


# --- Counter strikes: the hands as they were when the attack was made ----------------------


def test_an_armed_attack_that_fumbles_its_sword_away_draws_no_unarmed_counter() -> None:
    """Seed 000: the counter strike is for "an unarmed attack against someone who is
    defending with martial weapons". A (a sword, skill 3) fumbles (1) and B (skill 5)
    picks the worst result for it, the sword dropped; B's parry 15 + 15 beats A's 15 + 1 by
    14, a good defence. A attacked armed: no counter strike (before issue 25 A, bare after its
    fumble, was counter struck: two more dice)."""
    c = declared(holding(0, main=SWORD, bare=FISTS, skill=3),
                 holding(1, main=SWORD, skill=5))
    a, b = c.fighters
    dice = ScriptedDice(1, 15)
    attack_action(a, b, c, 2, rng=dice)
    assert dice.done() and a.weapons == BARE


def test_a_parry_with_a_sword_that_breaks_still_draws_the_counter() -> None:
    """A (fists, skill 5) attacks B (a sword, skill 3): B's fumbled parry (1) stands at
    15 + 1 = 16 against A's 0 + 5: parried by 11, a good defence; A picks the worst result
    for B, the sword broken. B defended with a martial weapon: its counter strike follows
    (two dice: its 10 against A's 10, a hit), made with the fists it has left."""
    c = declared(holding(0, main={**FISTS, "attack": 0}, skill=5),
                 holding(1, main=SWORD, bare=FISTS, skill=3))
    a, b = c.fighters
    dice = ScriptedDice(5, 1, 10, 10, 10, 10)
    attack_action(a, b, c, 2, rng=dice)
    assert dice.done() and b.weapons == BARE and not b.main_down
    assert unarmed_against_martial(True, True) == (True, True)


# --- Missile fumbles ---------------------------------------------------------------------------


@pytest.mark.parametrize(("weak", "thrown", "gun_after"), [
    (False, False, (True, 1)),      # dropped: a round to pick it up, the shot kept
    (True, False, (False, 0)),      # a weak bow broken: no more shots
    (False, True, (False, 1))])     # a thrown weapon has left the hand: fatigue
def test_a_fumbled_shot_in_the_reference(weak, thrown, gun_after) -> None:
    """Seed 000: "if you roll a natural '1', then a fumble occurs"; the target (skill 4)
    more skilled than the shooter (bow skill 3) chooses the worst result for it."""
    import dataclasses

    from balance.rules.yags.reference.missiles import new_gun, shot_fumble
    from balance.rules.yags.reference.state import FighterState
    from tests.rules.yags.cases import shooter

    gun = dataclasses.replace(shooter().missile, skill=3, weak=weak, thrown=thrown)
    a = FighterState(0, dataclasses.replace(shooter(), missile=gun))
    b = FighterState(1, holding(1, skill=4))
    a.gun = new_gun(gun)
    shot_fumble(a, b)
    assert (a.gun.down, a.gun.shots) == gun_after
    assert a.fatigue == (1 if thrown else 0)
    if gun_after == (True, 1):                 # picking it up takes the next round
        from balance.rules.yags.reference.missiles import load
        load(a)
        assert not a.gun.down and a.gun.shots == 1


# --- Regaining reach: step back, follow, hold --------------------------------------------------


@pytest.mark.parametrize(("regain", "steps_back", "inside_after_retreat"), [
    ("step_back", True, False), ("follow", False, True), ("hold", False, False)])
def test_the_three_readings_of_regaining_reach(regain, steps_back, inside_after_retreat):
    """Seed 000, Retreat: "give ground to your attacker". A dagger (reach 0) inside a spear's
    reach (3): under step_back the spear steps back (a retreat) and the distance reopens;
    under follow and hold it does not step back; a retreat under follow leaves the dagger,
    which attacked it that round, inside (it followed), under hold it reopens the distance."""
    import dataclasses

    from balance.rules.yags.compile import REGAIN_REACH, YagsRules
    from balance.rules.yags.reference.fight import end_of_round
    from balance.rules.yags.reference.state import ATTACK, RETREAT
    from tests.rules.yags.cases import veteran

    rules = YagsRules(regain_reach=REGAIN_REACH[regain])
    c = declared(veteran(0, gear={"reach": 0}, damage=0),
                 veteran(1, gear={"reach": 3}, damage=0, tactics=Tactics(step_back=True)),
                 rules=rules)
    dagger, spear = c.fighters
    dagger.inside = {1}
    from balance.rules.yags.reference.declare import declare
    declare(c, 2)
    assert (spear.action == RETREAT) == steps_back
    spear.fighter = dataclasses.replace(spear.fighter, tactics=Tactics(retreat_at=0))
    declare(c, 3)
    assert spear.action == RETREAT and dagger.action == ATTACK and dagger.target == 1
    end_of_round(c, rng=ScriptedDice(), round_no=3)
    assert (dagger.inside == {1}) == inside_after_retreat


# --- A stance each round ------------------------------------------------------------------------


def test_a_stance_plan_in_the_reference() -> None:
    """Seed 000, Stance: "When declaring your action at the start of the round, you may declare
    a stance"; Declaring Actions: "in order of increasing initiative. This gives characters
    with a high initiative a big tactical advantage". A (initiative 20) declares after B
    (19): B attacks it, so A keeps its stance until it is hurt (defensive at medium); when B
    retreats (no attack) A, unopposed, declares aggressive; B declaring first never is."""
    from balance.rules.yags.reference.declare import declare
    from balance.rules.yags.reference.state import max_defences_now
    from balance.rules.yags.rules.tracks import AGGRESSIVE, DEFENSIVE, NORMAL
    from tests.rules.yags.cases import veteran

    plan = Tactics(hurt_at=3, hurt_stance=DEFENSIVE, unopposed_stance=AGGRESSIVE)
    c = declared(veteran(0, tactics=plan, max_defences=3),
                 veteran(1, tactics=Tactics(unopposed_stance=AGGRESSIVE)))
    a, b = c.fighters
    assert (a.initiative, b.initiative) == (20, 19)
    assert a.stance == NORMAL and b.stance == NORMAL
    a.wounds = 3
    declare(c, 3)
    assert a.stance_now == DEFENSIVE and max_defences_now(a) == 4
    b.fighter = veteran(1, tactics=Tactics(retreat_at=0))
    declare(c, 4)
    assert a.stance == AGGRESSIVE and max_defences_now(a) == 3


def test_a_stance_plan_keeps_a_manoeuvres_stance() -> None:
    """Seed 000, Melee Manoeuvres: "If a stance is also listed, then that stance must be used
    when making the attack": a plan may not turn a knockdown fighter out of the aggressive
    stance (a clear error when the scenario loads)."""
    import balance
    from balance.errors import BalanceError

    member = {"stance": "aggressive", "policy": {
        "manoeuvre": "knockdown", "stance_plan": {"hurt_at": "heavy"}}}
    scenario = {"name": "t", "ruleset": "yags", "sides": [
        {"name": "a", "members": [member]}, {"name": "b", "members": [{}]}]}
    with pytest.raises(BalanceError, match="stance_plan"):
        balance.load_scenario(scenario)
