"""Readable scalar reference, part 3: an attack and the strikes it sets off (seed 000,
"Making an attack", "Reach", "Free Strikes", "Fumbles in Combat", "Melee Manoeuvres").

One function per rule step. Numbered comments ("An attack 3") point at docs/rules/yags.md.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.rules.yags.reference.blows import (
    NATURAL_ONE,
    d20,
)
from balance.rules.yags.reference.moves import charge_through, land
from balance.rules.yags.reference.state import (
    Combat,
    FighterState,
    can_strike,
    condition_penalty,
    defends,
    lose_weapon,
    round_penalty,
    settle,
    tire,
)
from balance.rules.yags.rules.tactics import (
    CHARGE_THROUGH,
    DISARM_FOE,
    FREE_STRIKE_FOR,
    NONE,
    defence_fail_effect,
    fumble_choice,
    required_level,
    unarmed_against_martial,
)
from balance.rules.yags.rules.tracks import (
    AUTOMATIC_STRIKE,
    BREAK,
    DEFENCE_PENALTY,
    DEFENSIVE,
    DISARM,
    FAIL_DEFENCE,
    FATIGUE,
    NO_STRIKE,
    RETREAT_STEP,
    STANCE_ATTACK,
    merge_strikes,
    success_level,
)

LONGSHAFT_DEFENCE = 5      # seed 000, Longshaft: +5 defence against a shorter weapon
STUNT_STEP = 5             # seed 000, Stunts: +5 to attack or damage per level of success
REACH_STEP = 5             # seed 000, Reach: -5 per excess level of reach
SUPERB = 4


@dataclass
class Outcome:
    """What an attack roll came to, for the counter strikes that follow it."""

    hit: bool = False
    good_parry: bool = False       # the defence beat the attack roll by a good success
    failed_disarm: bool = False


# --- An attack, step by step ---------------------------------------------------------------


def attack_action(a: FighterState, t: FighterState, combat: Combat, round_no: int, *,
                  rng: np.random.Generator) -> None:
    """A fighter's declared attack (or manoeuvre) on ``t``: the strikes it draws before, the
    attack, then the counter strike it draws after (seed 000, Free Strikes)."""
    close = a.partner == t.index   # grapple partners are inside each other's reach
    m = a.manoeuvre
    reach_a, reach_t = a.gear.reach, t.gear.reach
    coming_in = not close and reach_t > reach_a
    inside = combat.rules.reach_closing and t.index in a.inside
    # An attack 1: free strikes for a longer weapon (seed 000: "If the defender has a longer
    # reach, then they get a free strike before the attacker gets a chance to hit"; rules.reach
    # closing: as the shorter weapon closes in, not once it is inside) and for grapples, trips
    # and charges; several merge into an automatic strike; a longer weapon ignores one.
    free = int(coming_in and not inside) + int(m in FREE_STRIKE_FOR)
    ignore = int(not close and reach_a > reach_t)
    before = int(merge_strikes(free, ignore)) if can_strike(t, a, round_no) else NO_STRIKE
    ignore_left = ignore and free == 0
    if before != NO_STRIKE:
        strike(t, a, combat, round_no, automatic=before == AUTOMATIC_STRIKE, rng=rng)
        settle(combat)
        if not a.standing:
            return
    if coming_in and combat.rules.reach_closing:
        a.inside.add(t.index)          # it has closed to within the longer weapon's reach
    if m == CHARGE_THROUGH:
        charge_through(a, t, combat, round_no, rng=rng)
        return
    # The hands as they are when the attack is made: a fumble in it may lose a weapon, but
    # the attack was still armed (or the parry martial) when it was made.
    unarmed, against_martial = unarmed_against_martial(a.gear.unarmed, t.gear.martial)
    out = resolve_attack(a, t, defends(t, a, round_no) and not a.at_mount, combat, round_no,
                         manoeuvre=m, stunt=a.stunting, rng=rng)
    a.charging = False
    settle(combat)
    # An attack 8: counter strikes after: attacking a foe you do not defend against, an
    # unarmed attack well parried by a martial weapon, a failed unarmed disarm. One at most.
    triggers = (int(t.index not in a.defended) + int(out.good_parry and against_martial)
                + int(out.failed_disarm and unarmed))
    if triggers - int(ignore_left) >= 1 and a.standing and t.standing and not a.rear and \
            can_strike(t, a, round_no):   # (the second rank is out of the target's reach)
        strike(t, a, combat, round_no, automatic=False, rng=rng)
        settle(combat)


def strike(striker: FighterState, victim: FighterState, combat: Combat, round_no: int, *,
           automatic: bool, rng: np.random.Generator) -> None:
    """Seed 000: a free or counter strike is an ordinary attack that the victim defends if its
    defences cover the striker; an automatic strike allows no defence. Strikes draw no
    further strikes."""
    defending = not automatic and defends(victim, striker, round_no)
    resolve_attack(striker, victim, defending, combat, round_no, rng=rng)


def reach_bonus(a: FighterState, t: FighterState, closing: bool) -> int:
    """Attack roll changes that depend on the weapons' reach (seed 000): a great weapon
    longer than the target's halves the multiple-defence penalty; a longshaft fighter in the
    defensive stance loses its -10 against a shorter weapon; (rules.reach closing) a weapon
    used against a foe that has got inside its reach is at -5 per level of reach it exceeds
    the foe's by (seed 000: "being used against a foe that has closed to within the weapon's
    reach, gives a -5 to attack rolls for each excess level of reach")."""
    ga = a.gear
    excess = ga.reach - t.gear.reach
    if a.partner == t.index or excess <= 0:
        return 0
    bonus = -REACH_STEP * excess if closing and a.index in t.inside else 0
    if ga.great:
        bonus += -int(DEFENCE_PENALTY[a.defences]) // 2
    elif ga.longshaft and a.stance_now == DEFENSIVE:
        bonus += -STANCE_ATTACK[DEFENSIVE]
    return bonus


def defence_bonus(t: FighterState, a: FighterState) -> int:
    """Defence roll changes: longshaft +5 against a shorter weapon (seed 000); retreating,
    +3 per metre given, as many metres as its agility (seed 000, Retreat)."""
    bonus = RETREAT_STEP * t.fighter.agility if t.retreating else 0
    gt = t.gear
    if gt.longshaft and t.partner != a.index and gt.reach > a.gear.reach:
        bonus += LONGSHAFT_DEFENCE
    return bonus


def fumble_range(a: FighterState, t: FighterState) -> int:
    """Attack rolls fumble at or below this: 1, or 2 with the wrong style or against a chain
    weapon longer than the attacker's (seed 000)."""
    ga, gt = a.gear, t.gear
    chain = gt.chain and t.partner != a.index and ga.reach < gt.reach
    return max(ga.fumble_range, 2 if chain else 1)


def stunt_check(a: FighterState, combat: Combat, *, rng: np.random.Generator) -> int:
    """Seed 000, Stunts: agility x athletics against the stunt's difficulty. Returns the
    levels of success, 0 on a failure (a natural 1 fails)."""
    die = d20(rng)
    total = a.fighter.agility * a.fighter.athletics + condition_penalty(a, combat.rules) + die
    target = a.tactics.stunt_difficulty
    if die == NATURAL_ONE or total < target:
        return 0
    return int(success_level(total - target, combat.rules.success_step))


def resolve_attack(a: FighterState, t: FighterState, defending: bool, combat: Combat,
                   round_no: int, *, rng: np.random.Generator, manoeuvre: int = NONE,
                   stunt: bool = False) -> Outcome:
    """One attack roll (seed 000, "Making an attack"): stunt, rolls, fumbles, and what a
    success does. ``defending``: the target rolls a defence, else the base difficulty."""
    rules = combat.rules
    stunt_bonus = 0
    if stunt:
        # An attack 2: a failed stunt makes the attack a fumble.
        levels = stunt_check(a, combat, rng=rng)
        if not levels:
            take_fumble(a, t, defending=False)
            return Outcome()
        stunt_bonus = STUNT_STEP * levels
    to_damage = stunt_bonus if a.tactics.stunt_damage else 0
    to_attack = stunt_bonus - to_damage
    # An attack 3: attribute x skill + weapon + stance + penalties + d20.
    die = d20(rng)
    attack, _, _ = a.numbers()
    roll = (attack + round_penalty(a, rules) + reach_bonus(a, t, rules.reach_closing)
            + to_attack + die)
    # An attack 4: the defence roll, or the base difficulty.
    difficulty, parried = rules.base_difficulty, None
    if defending:
        defence_die = d20(rng)
        _, defence, _ = t.numbers()
        parried = defence + round_penalty(t, rules) + defence_bonus(t, a) + defence_die
        difficulty = parried
        if defence_die <= t.gear.fumble_range:
            # A fumbled defence is not a miss by itself; the result is chosen, knowing what
            # failing the defence would do (nothing if the attack fumbled too: it misses).
            effect = 0 if die <= fumble_range(a, t) else defence_fail_effect(
                roll, parried, rules.base_difficulty, required_level(manoeuvre, a.tactics.neck),
                rules.success_step)
            result = fumble_result(t, a, defending=True, fail_effect=effect)
            if result == FAIL_DEFENCE:
                difficulty, parried = rules.base_difficulty, None
            else:
                apply_fumble(t, result)
    # An unarmed attack parried well enough draws a counter strike (rules.unarmed_counter:
    # a good defence, the seed's Counter Strikes; or a successful one, its Unarmed attack).
    margin = rules.success_step if rules.unarmed_counter_good else 1
    good_parry = parried is not None and parried - roll >= margin
    # An attack 5: a fumbled attack always misses.
    if die <= fumble_range(a, t):
        take_fumble(a, t, defending=False)
        return Outcome(good_parry=good_parry, failed_disarm=manoeuvre == DISARM_FOE)
    # An attack 6: equal or greater hits; a manoeuvre needs its level of success.
    level = int(success_level(roll - difficulty, rules.success_step)) if roll >= difficulty else 0
    neck = a.tactics.neck
    if level < int(required_level(manoeuvre, neck)) or level == 0:
        return Outcome(good_parry=good_parry, failed_disarm=manoeuvre == DISARM_FOE)
    land(a, t, manoeuvre, level, to_damage, combat, round_no, rng=rng)
    return Outcome(hit=True)


# --- Fumbles ------------------------------------------------------------------------------


def fumble_result(fumbler: FighterState, opponent: FighterState, *, defending: bool,
                  fail_effect: int = 0) -> int:
    """Seed 000: "You get to choose the fumble result unless your opponent has a higher skill,
    in which case they choose" (the skill in the style each is using). Each picks by its
    policy (``rules.tactics.fumble_choice``): a list's first possible result, or the result worst
    (best) for the fumbler in its situation: would a level of fatigue exhaust it, and what
    would failing its defence do (``fail_effect``)."""
    g = fumbler.gear
    if opponent.gear.skill > g.skill:
        prefs = opponent.tactics.foe_fumbles
    else:
        prefs = fumbler.tactics.own_fumbles
    exhausts = fumbler.fatigue + 1 >= fumbler.fighter.exhausted_at
    return fumble_choice(prefs, defending=defending, losable=g.losable, weak=g.weak,
                         strong=g.strong, exhausts=exhausts, fail_effect=fail_effect)


def apply_fumble(fumbler: FighterState, result: int) -> None:
    """A point of fatigue, or the primary weapon lost: dropped, or broken for good."""
    if result == FATIGUE:
        tire(fumbler)
    elif result == DISARM:
        lose_weapon(fumbler)
    elif result == BREAK:
        lose_weapon(fumbler, recoverable=False)


def take_fumble(a: FighterState, t: FighterState, *, defending: bool) -> None:
    apply_fumble(a, fumble_result(a, t, defending=defending))
