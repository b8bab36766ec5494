"""Declarations (seed 000, "Declaring Actions"), vectorised: actions, targets, manoeuvres,
defences and, for riders, the riding checks. The basic fight's fast path re-makes them only
where someone fell; a detailed fight re-makes them every round.
"""

from __future__ import annotations

import numpy as np

from balance.engine.pick import Pick
from balance.engine.targeting import NO_TARGET, first_standing_foe
from balance.rules.yags.fighters import AUTO
from balance.rules.yags.gear import fighter, helpless, refresh
from balance.rules.yags.rolls import d20_where
from balance.rules.yags.static import N_LOADOUTS, Static
from balance.rules.yags.strikes import Round
from balance.rules.yags.tactics import (
    ATTACK,
    BREAK_LIMB,
    BREAK_NECK,
    DISARM_FOE,
    ESCAPE,
    HOLD_BREAK,
    HOLD_IMPROVE,
    HOLD_IMPROVE_THEN_BREAK,
    IMPROVE_HOLD,
    IMPROVED,
    KNOCKDOWN,
    MASSIVE,
    NO_ACTION,
    NONE,
    PICK_UP,
    REARM_AUTO,
    REARM_PICK_UP,
    REARM_SPARE,
    REROLL,
    RETREAT,
    STAND_UP,
    UNARMED,
)
from balance.rules.yags.tracks import (
    DEFENCE_PENALTY,
    DEFENSIVE,
    DRAW_STEP,
    RETREAT_STEP,
    TRACK_PENALTY,
)

SADDLELESS = 5   # seed 000: riding checks 5 harder without saddle and stirrups


def update_declarations(state, standing: np.ndarray, can_act: np.ndarray, n_sides: int,
                        round_no: int) -> None:
    """Targets and defences for this round, re-made only in trials where they can change:
    all of them in rounds 1 and 2, and later only where someone fell since last time."""
    n_up = standing.sum(axis=0, dtype=np.int8)
    changed = n_up != state.n_up
    if round_no == 2:  # fighters who fumbled initiative act from now on
        changed |= state.slow_start.any(axis=0)
    changed = np.flatnonzero(changed & (n_up >= 2))  # a lone survivor has no one to fight
    state.n_up = n_up
    if round_no == 1 or changed.size == n_up.size:
        cols = slice(None)
    elif changed.size:
        cols = changed
    else:
        return
    target = first_standing_foe(state.side[:, cols], state.who[:, cols], standing[:, cols],
                                n_sides)
    attacking = can_act[:, cols] & (target != NO_TARGET)
    declared, defended = declare_defences(state.who[:, cols], state.fixed_defences[:, cols],
                                          state.max_defences[:, cols], can_act[:, cols],
                                          target, attacking)
    state.target[:, cols] = target
    state.attacking[:, cols] = attacking
    state.defended[:, cols] = defended
    state.defence_penalty[:, cols] = DEFENCE_PENALTY[declared]


def declare_defences(who, fixed_defences, max_defences, can_act, target, attacking):
    """Defences declared by each place, and whether each attacker's target defends it.

    ``auto`` declares one defence per foe attacking the fighter, a fixed policy its number,
    both capped at the maximum; slots go to attackers in scenario order (fighter index).
    Returns ``declared`` (c, n) int8 and ``defended`` (c, n) bool, indexed by attacker.
    """
    c, n = target.shape
    attackers_on = np.zeros((c, n), dtype=np.int8)
    for j in range(c):
        for i in range(c):
            if i != j:
                attackers_on[i] += attacking[j] & (target[j] == i)
    declared = np.where(fixed_defences == AUTO, attackers_on, fixed_defences)
    declared = np.where(can_act, np.minimum(declared, max_defences), 0).astype(np.int8)
    defended = np.zeros((c, n), dtype=bool)
    for j in range(c):
        earlier = np.zeros(n, dtype=np.int8)   # attackers of j's target before j in order
        for k in range(c):
            if k != j:
                earlier += attacking[k] & (target[k] == target[j]) & (who[k] < who[j])
        defended[j] = attacking[j] & (earlier < Pick(target[j], n).get(declared))
    return declared, defended


# --- Detailed fights ------------------------------------------------------------------------


def declare_detailed(state, s: Static, standing: np.ndarray, round_no: int,
                     rng: np.random.Generator) -> Round:
    """Every place's action, target and manoeuvre, its defences, and riders' checks; returns
    the round's context (who may act, live penalties, who covers whom)."""
    x = state.x
    c, n = standing.shape
    who = state.who.astype(np.intp)
    can = standing & ~helpless(state, s)
    if round_no == 1:
        can &= ~state.slow_start
    mod = np.zeros((c, n), dtype=np.int16)
    if s.on.draw and round_no == 1:
        mod -= DRAW_STEP * x("draw") * (1 - fighter(s, "drawn", who))   # drawing weapons
    action = np.zeros((c, n), dtype=np.int16)
    target = np.full((c, n), NO_TARGET, dtype=np.int16)
    manoeuvre = np.zeros((c, n), dtype=np.int16)
    free = can.copy()       # not yet decided
    # Precedence (lab's policy): re-roll, grapple, stand up, retreat, re-arm, attack.
    if s.on.reroll and round_no == 1:
        rr = free & (x("init") < fighter(s, "reroll_below", who))
        action[rr], free = REROLL, free & ~rr
    if s.on.grapple:
        _grappled(state, s, free, action, target, manoeuvre, mod)
        free &= x("partner") < 0
    if s.on.prone:
        up = free & (x("prone") > 0) & (fighter(s, "stand", who) > 0)
        action[up], free = STAND_UP, free & ~up
    retreating = np.zeros((c, n), dtype=np.int16)
    if s.on.retreat:
        back = free & (np.maximum(state.wounds, state.stuns) >= fighter(s, "retreat_at", who))
        action[back], retreating[back], free = RETREAT, 1, free & ~back
        if s.reach_closing and back.any():
            # Giving ground: foes who had got inside its reach are outside again.
            closed = x("closed")
            flat = np.maximum(closed, 0).astype(np.intp) * n + np.arange(n)
            closed[(closed >= 0) & back.ravel()[flat]] = -1
    x("retreating")[:] = retreating
    if s.on.gear_changes:
        free &= ~_rearm(state, s, free, action, mod)
    foe = first_standing_foe(state.side, state.who, standing, s.n_sides)
    attack = free & (foe != NO_TARGET)
    action[attack] = ATTACK
    target[attack] = foe[attack]
    refresh(state, s)
    x("action")[:] = action
    _choose_manoeuvres(state, s, attack, target, manoeuvre, round_no)
    x("manoeuvre")[:] = manoeuvre
    cover, declared = _cover(state, s, can & (action != REROLL), action == ATTACK, target)
    state.target[:] = target
    state.attacking[:] = action == ATTACK
    state.defended[:] = cover_of(cover, target, n)
    state.defence_penalty[:] = DEFENCE_PENALTY[declared]
    if s.on.mounted:
        _riding_checks(state, s, can, cover, rng)
    if s.on.retreat:
        # Seed 000, Retreat: +3 defence per metre, as many metres as its agility. A retreating
        # fighter makes no attack, so its round penalty carries the bonus.
        mod += RETREAT_STEP * fighter(s, "agility", who) * retreating
    return Round(round_no, can, state.penalty + state.defence_penalty + mod, cover)


def cover_of(cover: np.ndarray, target: np.ndarray, n: int) -> np.ndarray:
    """(c, n) bool indexed by attacker: does its target's defence cover it."""
    c = target.shape[0]
    flat = (np.maximum(target, 0).astype(np.intp) * c + np.arange(c)[:, None]) * n \
        + np.arange(n)
    return (target >= 0) & cover.ravel()[flat]


def _grappled(state, s: Static, free, action, target, manoeuvre, mod) -> None:
    """Held fighters escape (or fight their holder); holders work their hold (policy
    ``holding``); either may first drop its weapon for a shorter spare."""
    x = state.x
    n = action.shape[1]
    who = state.who.astype(np.intp)
    partner = x("partner")
    g = free & (partner >= 0)
    held = g & (x("holding") == 0)
    escape = held & (fighter(s, "escape", who) > 0)
    action[escape] = ESCAPE
    target[escape] = partner[escape]
    fights = g & ~escape
    if s.on.gear_changes:
        spare_reach = s.loadout["reach"][who * N_LOADOUTS + 1]
        drop = fights & (fighter(s, "switch_when_grappled", who) > 0) & (x("weapons") == 0) \
            & (x("spare_left") > 0) & (spare_reach < x("reach"))
        if drop.any():
            x("main_down")[drop] = 1        # seed 000: dropping a weapon is free
            _draw_spare(state, s, drop, mod)
    action[fights] = ATTACK
    target[fights] = partner[fights]
    holder = fights & (x("holding") > 0)
    if holder.any():
        flat = np.maximum(partner, 0).astype(np.intp) * n + np.arange(n)
        limp = helpless(state, s).ravel()[flat]
        breaking = np.where(x("neck").ravel()[flat] > 0, BREAK_NECK, BREAK_LIMB)
        h = fighter(s, "holding", who)
        m = np.where(h == HOLD_IMPROVE_THEN_BREAK, np.where(limp, breaking, IMPROVE_HOLD),
                     np.where(h == HOLD_BREAK, breaking,
                              np.where(h == HOLD_IMPROVE, IMPROVE_HOLD, NONE)))
        manoeuvre[holder] = m[holder]


def _draw_spare(state, s: Static, where: np.ndarray, mod: np.ndarray) -> None:
    """Seed 000, Drawing a weapon: used the same round, at -5 per reach that round."""
    x = state.x
    who = state.who.astype(np.intp)
    x("weapons")[where] = 1
    x("spare_left")[where] = 0
    draw = s.loadout["draw"][who * N_LOADOUTS + 1]
    mod -= (DRAW_STEP * draw * where).astype(np.int16)


def _rearm(state, s: Static, free, action, mod) -> np.ndarray:
    """A place whose primary hand is lost draws its spare (and attacks) or spends the round
    picking up a dropped weapon (policy ``rearm``). Returns who picks up."""
    x = state.x
    who = state.who.astype(np.intp)
    bare = free & (x("weapons") == 2)
    r = fighter(s, "rearm", who)
    draw = bare & (x("spare_left") > 0) & ((r == REARM_AUTO) | (r == REARM_SPARE))
    if draw.any():
        _draw_spare(state, s, draw, mod)
    down = (x("main_down") > 0) | (x("spare_down") > 0)
    pick = bare & ~draw & down & ((r == REARM_AUTO) | (r == REARM_PICK_UP))
    action[pick] = PICK_UP
    return pick


def _choose_manoeuvres(state, s: Static, attack, target, manoeuvre, round_no: int) -> None:
    """The manoeuvre each attacker's policy declares where it makes sense (see the reference's
    ``choose_manoeuvre``); mounted charges, attacks at mounts and stunts."""
    x = state.x
    c, n = attack.shape
    who = state.who.astype(np.intp)
    free = attack & (x("partner") < 0)
    for name in ("at_mount", "charging", "stunting"):
        x(name)[:] = 0
    for place in range(c):
        rows = np.flatnonzero(free[place])
        if not rows.size:
            continue
        me, foe = Pick(place, n, rows), Pick(target[place], n, rows)
        mine = who[place, rows]
        at_mount = np.zeros(rows.size, dtype=bool)
        if s.on.mounted:
            at_mount = (fighter(s, "attack_mount", mine) > 0) & (foe.get(x("mounted")) > 0)
            x("at_mount")[place, rows] = at_mount
            x("charging")[place, rows] = ((fighter(s, "charge", mine) > 0) & (round_no == 1)
                                          & (me.get(x("mounted")) > 0))
        if s.on.stunts:
            x("stunting")[place, rows] = (fighter(s, "stunt_difficulty", mine) >= 0) & (
                (round_no == 1) | (fighter(s, "stunt_first_round", mine) == 0))
        if not s.on.manoeuvres:
            continue
        m = fighter(s, "manoeuvre", mine)
        m = m * ((round_no == 1) | (fighter(s, "first_round_only", mine) == 0))
        prone = foe.get(x("prone")) > 0
        unarmed_ok = ((me.get(x("unarmed")) > 0) & ~prone & (foe.get(x("mounted")) == 0)
                      & (me.get(x("mounted")) == 0) & (foe.get(x("partner")) < 0))
        ok = ~at_mount | (m == IMPROVED) | (m == MASSIVE)
        ok &= (m != DISARM_FOE) | (foe.get(x("losable")) > 0)
        ok &= (m != KNOCKDOWN) | ~prone
        ok &= ~np.isin(m, UNARMED) | unarmed_ok
        manoeuvre[place, rows] = m * ok


def _cover(state, s: Static, can: np.ndarray, attacking: np.ndarray,
           target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Who each place's defences cover: ``cover`` (c * c, n) bool, row ``i * c + j`` meaning
    place i defends against place j, and the number declared (the free one not counted).

    ``auto``: one per foe attacking it, else the fixed number, capped at its maximum (one more
    while retreating, which is done defensively); attackers in scenario order take the slots.
    A shield covers the target of its attack for free (seed 000, Weapon and shield);
    grappled, it covers only its partner.
    """
    x = state.x
    c, n = target.shape
    who = state.who
    partner = x("partner")
    shield_free = attacking & (x("shield") > 0) & (partner < 0)
    on = np.zeros((c, c, n), dtype=bool)          # on[i, j]: j attacks i
    for i in range(c):
        for j in range(c):
            if i != j:
                on[i, j] = attacking[j] & (target[j] == i) & ((partner[i] < 0)
                                                              | (partner[i] == j))
                on[i, j] &= ~(shield_free[i] & (target[i] == j))
    wanted = np.where(state.fixed_defences == AUTO, on.sum(axis=1), state.fixed_defences)
    stance = fighter(s, "stance", who.astype(np.intp))
    most = np.minimum(6, state.max_defences + x("retreating") * (stance != DEFENSIVE))
    declared = np.where(can, np.minimum(wanted, most), 0).astype(np.int8)
    cover = np.zeros((c, c, n), dtype=bool)
    for i in range(c):
        for j in range(c):
            if i == j:
                continue
            rank = np.zeros(n, dtype=np.int8)
            for k in range(c):
                if k != i and k != j:
                    rank += on[i, k] & (who[k] < who[j])
            free = shield_free[i] & (target[i] == j)
            cover[i, j] = can[i] & (free | (on[i, j] & (rank < declared[i])))
    return cover.reshape(c * c, n), declared


def _riding_checks(state, s: Static, can, cover, rng) -> None:
    """Seed 000, Mounted Combat: agility x riding against 15 (+5 without a saddle) for riders
    who declared attacks or defences without the mounted combat technique; failing, the rider
    loses its attack and checks again to stay on, or falls, prone."""
    x = state.x
    c, n = can.shape
    who = state.who.astype(np.intp)
    busy = (x("action") == ATTACK) | cover.reshape(c, c, n).any(axis=1)
    tech = (fighter(s, "mounted_combat", who) > 0) & (x("technique") > 0)
    need = (x("mounted") > 0) & busy & can & ~tech
    if not need.any():
        return
    target = s.riding_difficulty + SADDLELESS * (1 - fighter(s, "mount_saddle", who))
    total = (fighter(s, "agility", who) * fighter(s, "riding", who)
             + TRACK_PENALTY[state.wounds] + TRACK_PENALTY[state.stuns]
             - s.fatigue_penalty * state.fatigue)
    d = d20_where(rng, need)
    fail = need & ((d == 1) | (total + d < target))
    if not fail.any():
        return
    lose = fail & (x("action") == ATTACK)
    x("action")[lose] = NO_ACTION
    state.attacking[lose] = False
    d = d20_where(rng, fail)
    fall = fail & ((d == 1) | (total + d < target))
    if fall.any():
        x("prone")[fall] = 1
        x("mounted")[fall] = 0
        refresh(state, s)

