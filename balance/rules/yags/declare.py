"""Declarations (seed 000, "Declaring Actions"), vectorised: actions, targets, manoeuvres,
defences and, for riders, the riding checks. The basic fight's fast path re-makes them only
where someone fell; a detailed fight re-makes them every round.
"""

from __future__ import annotations

import numpy as np

from balance.engine.pick import Pick
from balance.engine.targeting import NO_TARGET, first_standing_foe
from balance.rules.yags import choices
from balance.rules.yags.fighters import AUTO
from balance.rules.yags.gear import fighter, helpless, refresh
from balance.rules.yags.static import Static
from balance.rules.yags.tactics import (
    ATTACK,
    REROLL,
    RETREAT,
    STAND_UP,
)
from balance.rules.yags.tracks import (
    DEFENCE_PENALTY,
    DEFENSIVE,
    DRAW_STEP,
    RETREAT_STEP,
)
from balance.rules.yags.turns import Round

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
    before = (x("weapons").copy(), x("retreating").copy())   # what re-seating depends on
    # Precedence (lab's policy): re-roll, grapple, stand up, retreat, re-arm, attack.
    if s.on.reroll and round_no == 1:
        rr = free & (x("init") < fighter(s, "reroll_below", who))
        action[rr], free = REROLL, free & ~rr
    if s.on.grapple:
        choices.grappled(state, s, free, action, target, manoeuvre, mod)
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
        free &= ~choices.rearm(state, s, free, action, mod)
    foe = first_standing_foe(state.side, state.who, standing, s.n_sides)
    attack = free & (foe != NO_TARGET)
    action[attack] = ATTACK
    target[attack] = foe[attack]
    refresh(state, s, where=(x("weapons") != before[0]) | (x("retreating") != before[1]))
    x("action")[:] = action
    choices.choose_manoeuvres(state, s, attack, target, manoeuvre, round_no)
    x("manoeuvre")[:] = manoeuvre
    cover, declared = _cover(state, s, can & (action != REROLL), action == ATTACK, target)
    state.target[:] = target
    state.attacking[:] = action == ATTACK
    state.defended[:] = cover_of(cover, target, n)
    state.defence_penalty[:] = DEFENCE_PENALTY[declared]
    if s.on.mounted:
        choices.riding_checks(state, s, can, cover, rng)
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
    me = np.arange(c)[:, None, None]            # i, the defender, on the first axis
    other = np.arange(c)[None, :, None]         # j, the attacker, on the second
    shield_free = attacking & (x("shield") > 0) & (partner < 0)
    free = shield_free[:, None, :] & (target[:, None, :] == other)
    on = attacking[None, :, :] & (target[None, :, :] == me) & (me != other)   # j attacks i
    on &= (partner[:, None, :] < 0) | (partner[:, None, :] == other)
    on &= ~free
    wanted = np.where(state.fixed_defences == AUTO, on.sum(axis=1), state.fixed_defences)
    stance = fighter(s, "stance", who.astype(np.intp))
    most = np.minimum(6, state.max_defences + x("retreating") * (stance != DEFENSIVE))
    declared = np.where(can, np.minimum(wanted, most), 0).astype(np.int8)
    # rank[i, j]: attackers of i before j in scenario order; they take the slots first.
    rank = np.zeros((c, c, n), dtype=np.int8)
    for k in range(c):
        rank += on[:, k:k + 1, :] & (who[k] < who)[None, :, :]
    cover = can[:, None, :] & (free | (on & (rank < declared[:, None, :])))
    return cover.reshape(c * c, n), declared
