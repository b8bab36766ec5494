"""Readable scalar reference, part 2: declarations (seed 000, "Declaring Actions"): what
each fighter does this round, how it attacks, its defences, and riders' riding checks.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from balance.rules.yags.compile import AUTO, STEP_BACK
from balance.rules.yags.reference.blows import NATURAL_ONE, d20
from balance.rules.yags.reference.groups import assign_targets, choosing
from balance.rules.yags.reference.state import (
    ATTACK,
    ESCAPE,
    NO_ACTION,
    PICK_UP,
    REROLL,
    RETREAT,
    STAND_UP,
    Combat,
    FighterState,
    can_act,
    condition_penalty,
    helpless,
    knock_down,
    max_defences_now,
    threatened_inside,
)
from balance.rules.yags.rules.equipment import BARE, MAIN, SPARE
from balance.rules.yags.rules.ranged import FULL_MOVE, SHOOT
from balance.rules.yags.rules.tactics import (
    BREAK_LIMB,
    BREAK_NECK,
    DISARM_FOE,
    HOLD_BREAK,
    HOLD_IMPROVE,
    HOLD_IMPROVE_THEN_BREAK,
    IMPROVE_HOLD,
    IMPROVED,
    KNOCKDOWN,
    MASSIVE,
    NONE,
    REARM_AUTO,
    REARM_PICK_UP,
    REARM_SPARE,
    UNARMED,
    declares_after,
    stance_this_round,
)
from balance.rules.yags.rules.tracks import DRAW_STEP

SADDLELESS = 5   # seed 000: without saddle and stirrups riding checks are 5 harder


def choose_target(attacker: FighterState, combat: Combat) -> int | None:
    """Lab assumption: the first standing foe in scenario order (a grappled fighter: its
    partner)."""
    if attacker.partner is not None:
        return attacker.partner
    for other in combat.fighters:
        if other.side != attacker.side and other.standing:
            return other.index
    return None


def choose_manoeuvre(state: FighterState, foe: FighterState, round_no: int) -> int:
    """The manoeuvre its policy declares, where it makes sense (lab's policy): a disarm needs
    a weapon to take, knockdowns, trips and charges a foe on its feet, grapples a foe not
    already grappled; unarmed manoeuvres need an unarmed fighter, and no one grapples, trips
    or charges through from or at a horse. At a mount, only damage manoeuvres."""
    t = state.tactics
    m = t.manoeuvre
    if m == NONE or (t.first_round_only and round_no != 1):
        return NONE
    if state.at_mount:
        return m if m in (IMPROVED, MASSIVE) else NONE
    if m == DISARM_FOE and not foe.gear.losable:
        return NONE
    if m == KNOCKDOWN and foe.prone:
        return NONE
    if m in UNARMED and (not state.gear.unarmed or foe.prone or foe.mounted or state.mounted
                         or foe.partner is not None):
        return NONE
    return m


def hold_manoeuvre(state: FighterState, held: FighterState) -> int:
    """What a holder does with the foe it holds (policy ``holding``): improve the hold, break
    a limb (or the neck, if that is what it holds), or strike it."""
    breaking = BREAK_NECK if held.neck else BREAK_LIMB
    h = state.tactics.holding
    if h == HOLD_IMPROVE_THEN_BREAK:
        return breaking if helpless(held) else IMPROVE_HOLD
    if h == HOLD_BREAK:
        return breaking
    return IMPROVE_HOLD if h == HOLD_IMPROVE else NONE


def draw_spare(state: FighterState) -> None:
    """Seed 000, Drawing a weapon: drawn and used the same round, at -5 per reach of the
    weapon to every attack and defence that round."""
    state.weapons, state.spare_left = SPARE, False
    state.round_mod -= DRAW_STEP * state.gear.draw


def rearm(state: FighterState) -> bool:
    """Its primary hand lost, it draws its spare (attacking this round) or spends the round
    picking up a dropped weapon, as its policy ``rearm`` says. True if it picks up."""
    r = state.tactics.rearm
    if state.spare_left and r in (REARM_AUTO, REARM_SPARE):
        draw_spare(state)
        return False
    return (state.main_down or state.spare_down) and r in (REARM_AUTO, REARM_PICK_UP)


def choose_action(state: FighterState, combat: Combat, round_no: int) -> None:
    """What a fighter does this round, in this order of precedence (lab's policy): re-roll a
    bad initiative (round 1), escape or fight its grapple, stand up, retreat (or step back
    from a shorter weapon inside its reach), get a weapon back, attack."""
    t = state.tactics
    state.action, state.target, state.manoeuvre = NO_ACTION, None, NONE
    state.at_mount = state.charging = state.stunting = state.retreating = False
    state.wants_target = state.rear = False
    if not can_act(state, round_no):
        return
    if round_no == 1 and state.initiative < t.reroll_below:
        state.action = REROLL            # seed 000: no move, attack nor defence this round
        return
    if state.partner is not None:
        held = combat.fighters[state.partner]
        if not state.holding and t.escape:
            state.action, state.target = ESCAPE, state.partner
            return
        if t.switch_when_grappled and state.weapons == MAIN and state.spare_left and \
                state.fighter.loadout(SPARE).reach < state.gear.reach:
            state.main_down = True       # seed 000: dropping a weapon is free
            draw_spare(state)
        state.action, state.target = ATTACK, state.partner
        state.manoeuvre = hold_manoeuvre(state, held) if state.holding else NONE
        return
    if state.prone and t.stand:
        state.action = STAND_UP
        return
    if max(state.wounds, state.stuns) >= t.retreat_at or (
            t.step_back and combat.rules.reach_closing and combat.rules.regain_reach == STEP_BACK
            and threatened_inside(state, combat)):
        # Seed 000, Retreat: give ground in the defensive stance, no attacks. Stepping back
        # (policy step_back) is the lab's way to regain a longer weapon's reach: the foes
        # inside it are outside again at the end of the round (fight.end_of_round).
        state.action, state.retreating = RETREAT, True
        return
    if state.weapons == BARE and rearm(state):
        state.action = PICK_UP
        return
    if choosing(combat):
        state.wants_target = True      # chosen with everyone else's (attacker limits)
        return
    target = choose_target(state, combat)
    if target is not None:
        state.action, state.target = ATTACK, target


def choose_attack(state: FighterState, combat: Combat, round_no: int) -> None:
    """How it attacks, once every fighter has chosen its action (so a foe drawing its spare
    this round already holds it): at a mount, with a manoeuvre, as a mounted charge, with a
    stunt."""
    t = state.tactics
    foe = combat.fighters[state.target]
    state.at_mount = t.attack_mount and foe.mounted
    state.manoeuvre = choose_manoeuvre(state, foe, round_no)
    # Seed 000: after at least a full round of charging: round 1 when the fight starts in
    # melee; at a distance, the round after the rider ran at its foe.
    charged = state.ran_round == round_no - 1 if combat.at_distance else round_no == 1
    state.charging = t.charge and charged and state.mounted
    state.stunting = t.stunt_difficulty >= 0 and (round_no == 1 or not t.stunt_first_round)
    if state.approach == FULL_MOVE:
        # Seed 000, Movement: after a full Move, only a standard attack.
        state.manoeuvre, state.charging, state.stunting = NONE, False, False


def choose_stance(state: FighterState, combat: Combat, round_no: int) -> int:
    """The stance it declares this round (policy stance_plan; seed 000, Stance: "When
    declaring your action at the start of the round, you may declare a stance"): hurt, or
    unopposed: it declares after every foe able to act (seed 000: "Everybody declares their
    actions in increasing initiative order") and none of them declared an attack or a shot
    on it (``rules.tactics.stance_this_round``)."""
    t = state.tactics
    unopposed = can_act(state, round_no)
    for foe in combat.fighters:
        if foe.side == state.side or not can_act(foe, round_no):
            continue
        after = declares_after(state.initiative, state.tiebreak, foe.initiative, foe.tiebreak)
        threat = foe.action in (ATTACK, SHOOT) and foe.target == state.index
        unopposed = unopposed and bool(after) and not threat
    return int(stance_this_round(state.fighter.stance, max(state.wounds, state.stuns),
                                 t.hurt_at, t.hurt_stance, unopposed, t.unopposed_stance))


def declare_defences(state: FighterState, combat: Combat, round_no: int) -> None:
    """How many defences it declares, and which attackers they cover.

    Policy ``auto`` declares one per foe attacking it, and at least one whenever it attacks,
    a spare slot covering its own target; a number fixes the count (0 is all-out attack);
    both capped at its maximum. With fewer defences than attackers, the first attackers in
    seat order are covered. A shield gives a free defence against the target
    of its attack, not counted (seed 000, Weapon and shield). Grappled, it can defend only
    against its partner; re-rolling initiative (the focused stance), none.
    """
    state.defences, state.defended = 0, ()
    if not can_act(state, round_no) or state.action == REROLL:
        return
    seated = combat.seats_order() or combat.fighters      # seat order, not listing order
    attackers = [o.index for o in seated if o.action == ATTACK and o.target == state.index]
    if state.partner is not None:
        attackers = [i for i in attackers if i == state.partner]
    free: tuple[int, ...] = ()
    if state.gear.shield and state.action == ATTACK and state.partner is None:
        free = (state.target,)
    rear = [i for i in attackers if combat.fighters[i].rear]
    others = [i for i in attackers if i not in free and i not in rear]
    wanted = len(others) if state.fighter.defences == AUTO else state.fighter.defences
    if state.fighter.defences == AUTO:
        # At least one whenever it attacks (its own target) or is thrust at: one defence costs
        # nothing, and without it a foe that is not attacking (standing up, escaping a hold)
        # would get the seed's counter strike for "not declaring a defence against the target".
        own = state.action == ATTACK and not free
        wanted = max(wanted, int(own or bool(rear)))
    state.defences = min(wanted, max_defences_now(state))
    state.defended = free + tuple(others[:state.defences])
    spare = len(others) < state.defences
    if spare and state.action == ATTACK and state.partner is None and \
            state.target not in state.defended:
        state.defended += (state.target,)              # a spare slot covers its own target
    if state.defences >= 1:
        state.defended += tuple(rear)                  # the second rank shares a slot


def riding_check(state: FighterState, combat: Combat, *, rng: np.random.Generator) -> bool:
    """Seed 000: agility x riding against 15 (20 without saddle and stirrups)."""
    die = d20(rng)
    total = state.fighter.agility * state.fighter.riding + condition_penalty(state, combat.rules)
    target = combat.rules.riding_difficulty + (0 if state.mount.stats.saddle else SADDLELESS)
    return die != NATURAL_ONE and total + die >= target


def riding_checks(combat: Combat, round_no: int, *, rng: np.random.Generator) -> None:
    """Seed 000, Mounted Combat: a rider who declared attacks or defences and lacks the
    mounted combat technique checks each round; failing, it loses its attack and checks again
    to stay on (failing that, it falls, prone)."""
    for state in combat.fighters:
        busy = state.action == ATTACK or state.defended
        if state.mounted and busy and can_act(state, round_no) and not state.technique:
            if not riding_check(state, combat, rng=rng):
                if state.action == ATTACK:
                    state.action = NO_ACTION
                if not riding_check(state, combat, rng=rng):
                    knock_down(state)


def declare(combat: Combat, round_no: int, *, rng: np.random.Generator | None = None,
            plan: Callable[[FighterState, Combat], None] | None = None) -> None:
    """Seed 000, "Declaring Actions": every fighter who can act picks an action and target,
    then its defences; riders then check to stay in the saddle.

    Declaration order (increasing initiative) does not matter here: actions depend only on
    each fighter's own state and who is standing, and defences only on the declared actions.
    """
    for state in combat.fighters:
        state.round_mod = 0
        if round_no == 1 and not state.fighter.drawn and state.fighter.missile is None:
            state.round_mod -= DRAW_STEP * state.gear.draw   # drawing its weapons
    for state in combat.fighters:
        state.last_target = state.target
        choose_action(state, combat, round_no)
    wanting = [s for s in combat.fighters if s.wants_target]
    if wanting:
        assign_targets(combat, wanting, rng=rng)
    if plan is not None:
        for state in combat.fighters:   # at a distance: load, shoot, close in, run or wait
            plan(state, combat)
    for state in combat.fighters:   # a stance plan: this round's stance
        state.stance = choose_stance(state, combat, round_no)
    for state in combat.fighters:
        if state.action == ATTACK and state.partner is None:
            choose_attack(state, combat, round_no)
    for state in combat.fighters:
        declare_defences(state, combat, round_no)
    if rng is not None and any(s.mounted for s in combat.fighters):
        riding_checks(combat, round_no, rng=rng)
