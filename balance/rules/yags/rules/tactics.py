"""A fighter's choices where the rules leave them to the player, as small ints and bools
(the scenario's ``policy``), and the fixed facts of each manoeuvre (seed 000, Melee
Manoeuvres). Shared by both engines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.rules.yags.rules.tracks import (
    BREAK,
    DISARM,
    FAIL_DEFENCE,
    FATIGUE,
    FUMBLE_RESULTS,
    STANCES,
)

# Actions a fighter declares for a round.
NO_ACTION, ATTACK, STAND_UP, PICK_UP, ESCAPE, RETREAT, REROLL = range(7)

# Manoeuvres a fighter may declare with an attack; the last three are what a grappler does
# with a foe it holds.
(NONE, IMPROVED, MASSIVE, VITAL, KNOCKDOWN, DISARM_FOE, OVERWHELM, GRAPPLE, TRIP,
 CHARGE_THROUGH, IMPROVE_HOLD, BREAK_LIMB, BREAK_NECK) = range(13)
MANOEUVRES = {"none": NONE, "improved_damage": IMPROVED, "massive_damage": MASSIVE,
              "vital_strike": VITAL, "knockdown": KNOCKDOWN, "disarm": DISARM_FOE,
              "overwhelm": OVERWHELM, "grapple": GRAPPLE, "trip": TRIP,
              "charge_through": CHARGE_THROUGH}
N_MANOEUVRES = 13
# Seed 000: the level of success each needs (1 success, 2 good, 3 excellent, 4 superb); a
# grapple on the neck needs excellent (see ``required_level``). A charge through makes no
# attack roll.
REQUIRED = {NONE: 1, IMPROVED: 3, MASSIVE: 4, VITAL: 3, KNOCKDOWN: 2, DISARM_FOE: 3,
            OVERWHELM: 1, GRAPPLE: 2, TRIP: 2, CHARGE_THROUGH: 1, IMPROVE_HOLD: 2,
            BREAK_LIMB: 2, BREAK_NECK: 3}
DAMAGE_BONUS = {IMPROVED: 5, MASSIVE: 10}            # seed 000
TIRING = (IMPROVED, MASSIVE, VITAL, KNOCKDOWN)       # seed 000: a point of fatigue on success
UNARMED = (GRAPPLE, TRIP, CHARGE_THROUGH)            # seed 000: unarmed manoeuvres
FREE_STRIKE_FOR = (GRAPPLE, TRIP, CHARGE_THROUGH)    # seed 000: the target gets a free strike
NO_DAMAGE_MANOEUVRES = (DISARM_FOE, OVERWHELM, GRAPPLE, TRIP, CHARGE_THROUGH, IMPROVE_HOLD)
GRAPPLE_NECK_LEVEL = 3
BREAK_LIMB_LEVELS, BREAK_NECK_LEVELS = 2, 3          # seed 000: damage levels to break
KNOCKDOWN_STRENGTH = 10                               # seed 000: damage roll > strength x 10
CRUSHING_KNOCKBACK = 5                                # seed 000: crushing +5 for knockback
BREAK_NECK_BASE = 10                                  # seed 000: health x 4 against 10 + levels

# What a grappler does once it holds its foe (policy ``holding``).
HOLD_IMPROVE_THEN_BREAK, HOLD_BREAK, HOLD_IMPROVE, HOLD_STRIKE = range(4)
HOLDING = {"improve_then_break": HOLD_IMPROVE_THEN_BREAK, "break": HOLD_BREAK,
           "improve": HOLD_IMPROVE, "strike": HOLD_STRIKE}
MEET_AUTO, MEET_BLOCK, MEET_DODGE = range(3)
MEET = {"auto": MEET_AUTO, "block": MEET_BLOCK, "dodge": MEET_DODGE}
REARM_AUTO, REARM_SPARE, REARM_PICK_UP, REARM_NONE = range(4)
REARM = {"auto": REARM_AUTO, "spare": REARM_SPARE, "pick_up": REARM_PICK_UP,
         "none": REARM_NONE}
LEVELS = {"never": 99, "light": 2, "medium": 3, "heavy": 4, "critical": 5}
# Fumble choosers (policy ``fumbles``): a list of results in order of preference, or one of
# these situational rankings, stored as a one-item tuple: ``worst`` takes the result that
# harms the fumbler most in the situation, ``best`` the one that harms it least
# (``fumble_harm_order``; docs/rules/yags.md, Fumbles).
WORST, BEST = -1, -2
CHOOSERS = {"worst": WORST, "best": BEST}


@dataclass(frozen=True)
class Tactics:
    """A fighter's policy as numbers. The defaults are the basic rules' behaviour."""

    manoeuvre: int = NONE
    first_round_only: bool = False
    neck: bool = False                 # grapple the neck (excellent) rather than a limb (good)
    holding: int = HOLD_IMPROVE_THEN_BREAK
    escape: bool = True                # when held: try to escape, rather than fight on
    stand: bool = True                 # when prone: stand up, rather than fight from the floor
    meet_charge: int = MEET_AUTO
    own_fumbles: tuple[int, ...] = (FATIGUE,)
    foe_fumbles: tuple[int, ...] = (WORST,)   # issue 25: the result worst for the fumbler
    rearm: int = REARM_AUTO
    switch_when_grappled: bool = False
    retreat_at: int = 99               # wound or stun level at which it starts retreating
    reroll_below: int = -1             # re-roll an initiative total below this (-1: never)
    stunt_difficulty: int = -1         # -1: no stunts
    stunt_damage: bool = False         # the stunt's bonus goes to damage rather than attack
    stunt_first_round: bool = False
    attack_mount: bool = False
    charge: bool = False               # opens with a mounted charge
    step_back: bool = False            # gives ground when a shorter weapon is inside its reach
    # A stance declared each round (policy stance_plan; -1: keep the declared stance).
    hurt_at: int = 99                  # wound or stun level from which it declares hurt_stance
    hurt_stance: int = -1
    unopposed_stance: int = -1         # declaring last, with no foe attacking it


def tactics_of(policy: Any) -> Tactics:
    """Compile a validated ``Policy`` model."""
    stunt = policy.stunt
    return Tactics(
        manoeuvre=MANOEUVRES[policy.manoeuvre],
        first_round_only=policy.manoeuvre_when == "first_round",
        neck=policy.grapple_hold == "neck",
        holding=HOLDING[policy.holding],
        escape=policy.when_held == "escape",
        stand=policy.when_prone == "stand",
        meet_charge=MEET[policy.meet_charge],
        own_fumbles=fumble_prefs(policy.fumbles.own),
        foe_fumbles=fumble_prefs(policy.fumbles.foe),
        rearm=REARM[policy.rearm],
        switch_when_grappled=policy.switch_when_grappled,
        retreat_at=LEVELS[policy.retreat_at],
        reroll_below=(-1 if policy.reroll_initiative_below is None
                      else policy.reroll_initiative_below),
        stunt_difficulty=-1 if stunt is None else stunt.difficulty,
        stunt_damage=stunt is not None and stunt.bonus == "damage",
        stunt_first_round=stunt is not None and stunt.when == "first_round",
        attack_mount=policy.attack_mount,
        charge=policy.charge,
        step_back=policy.step_back,
        **_stance_plan(policy.stance_plan),
    )


def _stance_plan(plan: Any) -> dict[str, int]:
    if plan is None:
        return {}
    return {"hurt_at": LEVELS[plan.hurt_at],
            "hurt_stance": -1 if plan.hurt_at == "never" else STANCES[plan.when_hurt],
            "unopposed_stance": -1 if plan.unopposed is None else STANCES[plan.unopposed]}


def stance_this_round(declared, level, hurt_at, hurt_stance, unopposed, unopposed_stance):
    """The stance a fighter declares this round by its plan (policy stance_plan; seed 000,
    Stance: "When declaring your action at the start of the round, you may declare a
    stance"): ``hurt_stance`` once its wound or stun ``level`` reaches ``hurt_at``;
    ``unopposed_stance`` when it declares after every foe able to act and none of them
    declared an attack on it (``unopposed``: seed 000, "Everybody declares their actions in
    increasing initiative order"), which wins; otherwise its ``declared`` stance. A stance of
    -1 is not used. Python ints or numpy arrays alike."""
    hurt = (level >= hurt_at) & (hurt_stance >= 0)
    stance = declared + hurt * (hurt_stance - declared)
    free = unopposed & (unopposed_stance >= 0)
    return stance + free * (unopposed_stance - stance)


def declares_after(init_a, tie_a, init_b, tie_b):
    """Does fighter a declare after fighter b (seed 000: "Everybody declares their actions in
    increasing initiative order")? Its initiative total is higher, or equal and it wins the
    tie-break (``tie``: its rank in the fight's random order, smaller acts first). Python ints
    or numpy arrays alike."""
    return (init_a > init_b) | ((init_a == init_b) & (tie_a < tie_b))


def required_level(manoeuvre, neck):
    """Level of success a manoeuvre needs; a neck grapple needs excellent (seed 000)."""
    base = REQUIRED_TABLE[manoeuvre]
    return base + (manoeuvre == GRAPPLE) * neck * (GRAPPLE_NECK_LEVEL - REQUIRED[GRAPPLE])


def fumble_prefs(given: Any) -> tuple[int, ...]:
    """A validated ``fumbles.own`` or ``fumbles.foe``: a ranking's name, or a list."""
    if isinstance(given, str):
        return (CHOOSERS[given],)
    return tuple(FUMBLE_RESULTS[r] for r in given)


def fumble_harm_order(*, exhausts: bool, fail_effect: int) -> tuple[int, ...]:
    """The fumble results from the most to the least harmful to the fumbler, in its situation
    (the lab's documented ranking, docs/rules/yags.md, Fumbles):

    1. fatigue, when this level exhausts it (seed 000: "If a character becomes Exhausted
       then they must immediately rest": it is out of the fight);
    2. break (its weapon gone for the rest of the fight);
    3. disarm (its weapon on the ground: a round to pick it up, or its spare drawn);
    4. fail defence, when the base difficulty lets through an attack its parry stopped
       (``fail_effect`` +1);
    5. fatigue that does not exhaust it (the first level costs nothing, later ones the wound
       track's penalties);
    6. fail defence that changes nothing (0), or that turns a hit into a miss because its
       parry roll fell below the base difficulty (-1: the seed's "use base difficulty only").
    """
    order = [FATIGUE] if exhausts else []
    order += [BREAK, DISARM]
    if fail_effect > 0:
        order.append(FAIL_DEFENCE)
    if not exhausts:
        order.append(FATIGUE)
    if fail_effect <= 0:
        order.append(FAIL_DEFENCE)
    return tuple(order)


def fumble_possible(result: int, *, defending: bool, losable: bool, weak: bool,
                    strong: bool) -> bool:
    """Seed 000, Fumbles in Combat: losing a weapon needs one in hand; breaking needs a weak
    weapon on an attack ("only if it is weak") and one that is not strong on a defence
    ("only if it is not strong"); failing the defence is for defences. Fatigue always is."""
    if result == DISARM:
        return losable
    if result == BREAK:
        return losable and ((defending and not strong) or (not defending and weak))
    if result == FAIL_DEFENCE:
        return defending
    return result == FATIGUE


def fumble_choice(prefs: tuple[int, ...], *, defending: bool, losable: bool, weak: bool,
                  strong: bool, exhausts: bool = False, fail_effect: int = 0) -> int:
    """The fumble result a chooser with preferences ``prefs`` takes (seed 000, Fumbles in
    Combat): a list's first result that is possible; ``worst`` (``best``) the possible result
    that harms the fumbler most (least) by ``fumble_harm_order``. ``exhausts``: a level of
    fatigue would exhaust the fumbler; ``fail_effect``: what failing the defence would do
    to the attack (``defence_fail_effect``). Fatigue is always possible."""
    def ok(r: int) -> bool:
        return fumble_possible(r, defending=defending, losable=losable, weak=weak,
                               strong=strong)

    if prefs and prefs[0] in (WORST, BEST):
        ranked = [r for r in fumble_harm_order(exhausts=exhausts, fail_effect=fail_effect)
                  if ok(r)]
        return ranked[0] if prefs[0] == WORST else ranked[-1]
    for result in prefs:
        if ok(result):
            return result
    return FATIGUE


def regains_distance(gave_ground, attacked_it, follow: bool):
    """Does a fighter that gave ground this round (a retreat, or a step back) regain its
    reach on a foe that had got inside it (rules.reach closing)? rules.regain_reach step_back
    and hold: yes; follow (seed 000, Retreat: "give ground to your attacker", read as the
    attacker following it): only on a foe that did not attack it this round. Python bools
    or numpy arrays alike."""
    if not follow:
        return gave_ground
    return gave_ground & (attacked_it == 0)


def shot_fumble_case(thrown, weak):
    """A missile weapon's (losable, weak) for ``fumble_choice`` on a fumbled shot (seed 000's
    attack-fumble results that make sense for a shot: the point of fatigue, "You lose your
    weapon" as the weapon dropped, "Your primary weapon breaks, but only if it is weak"). A
    thrown weapon has already left the hand: it can be neither dropped nor broken, so only
    the fatigue is left. Python bools or numpy arrays alike."""
    return thrown == 0, weak & (thrown == 0)


def unarmed_against_martial(attacker_unarmed, defender_martial):
    """Seed 000, Unarmed attack: "When making an unarmed attack against someone who is
    defending with martial weapons, the attacker risks being harmed" (a good parry draws a
    counter strike; a failed unarmed disarm draws one too). Read from both fighters' hands as
    they are when the attack is made, before a fumble in it can lose a weapon (issue 25).
    Returns (the attack is unarmed, it is unarmed against martial weapons); Python bools or
    numpy arrays alike."""
    return attacker_unarmed, attacker_unarmed & defender_martial


def defence_fail_effect(roll, parry, base, required, step):
    """What choosing "fail defence, use base difficulty only" (seed 000) does to an attack
    roll ``roll`` that the defence roll ``parry`` met: +1 where the attack (needing level of
    success ``required``) succeeds against the base difficulty ``base`` but not against the
    parry, -1 the reverse, 0 no change. Python ints or numpy arrays alike."""
    def succeeds(against):
        return (roll >= against) & (1 + (roll - against) // step >= required)

    return 1 * succeeds(base) - 1 * succeeds(parry)


REQUIRED_TABLE = np.array([REQUIRED[m] for m in range(N_MANOEUVRES)], dtype=np.int16)
