"""The vectorised Yags round (seed 000, Basic Combat), for every open trial at once.

State is (n_trials, n_combatants) arrays. Python loops run over combatants and initiative
slots only; each slot gathers the acting fighter of every trial, resolves its attack on the
rows where it can act, and scatters the results back. The rules and every assumption are in
``docs/rules/yags.md``; ``reference.py`` is the readable scalar version of the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.state import TrialState
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.rules.yags.fighters import AUTO, Static, YagsFight
from balance.rules.yags.tracks import (
    DEFENCE_PENALTY,
    FATAL,
    HEALTH_CHECK_BASE,
    MIXED,
    STUNS,
    TRACK_PENALTY,
    WOUNDS,
    apply_stuns,
    health_target,
    levels_caused,
)

NO_TARGET = -1


@dataclass
class YagsState(TrialState):
    """Tracks of every fighter in every open trial; all arrays are (n_trials, n_combatants)."""

    wounds: np.ndarray      # int8, held at 6 (fatal) while alive
    stuns: np.ndarray       # int8, held at 6 (beaten)
    fatigue: np.ndarray     # int16, points from fumbles
    order: np.ndarray       # int8, fighter index acting in each slot (fast, normal, slow; init)
    slow_start: np.ndarray  # bool, fumbled initiative: no action in round 1


def start(fight: YagsFight, n: int, rng: np.random.Generator) -> YagsState:
    """Roll initiative once per fight (agility x 4 + d20) and fix the acting order."""
    s = fight.static
    c = fight.n
    d20 = rng.integers(1, 21, size=(n, c), dtype=np.int8)
    tie = rng.random((n, c))  # assumption: ties broken by a random order, fixed for the fight
    key = s.speed * 1000.0 - (s.initiative + d20) - tie
    zeros = np.zeros((n, c), dtype=np.int8)
    return YagsState(
        status=zeros.copy(),
        wounds=zeros.copy(),
        stuns=zeros.copy(),
        fatigue=np.zeros((n, c), dtype=np.int16),
        order=np.argsort(key, axis=1).astype(np.int8),
        slow_start=d20 == 1,
    )


def first_standing_foe(standing: np.ndarray, s: Static) -> np.ndarray:
    """(n, c) int8: each fighter's target, the first standing foe in scenario order, or -1."""
    target = np.full(standing.shape, NO_TARGET, dtype=np.int8)
    for side in range(s.n_sides):
        foes = np.flatnonzero(s.side_of != side)
        sub = standing[:, foes]
        pick = np.where(sub.any(axis=1), foes[sub.argmax(axis=1)], NO_TARGET)
        target[:, s.side_of == side] = pick[:, None]
    return target


def declare_defences(s: Static, can_act, target, attacking):
    """Defences declared by each fighter, and whether each attacker's target defends it.

    ``auto`` declares one defence per foe attacking the fighter, a fixed policy its number,
    both capped at the maximum; slots go to attackers in scenario order.
    """
    m, c = target.shape
    rows = np.arange(m)
    safe = np.maximum(target, 0)
    attackers_on = np.zeros((m, c), dtype=np.int8)
    for j in range(c):
        attackers_on[rows, safe[:, j]] += attacking[:, j]
    declared = np.where(s.fixed_defences == AUTO, attackers_on, s.fixed_defences)
    declared = np.where(can_act, np.minimum(declared, s.max_defences), 0).astype(np.int8)
    used = np.zeros((m, c), dtype=np.int8)
    defended = np.zeros((m, c), dtype=bool)
    for j in range(c):
        tj = safe[:, j]
        defended[:, j] = attacking[:, j] & (used[rows, tj] < declared[rows, tj])
        used[rows, tj] += attacking[:, j]
    return declared, defended


def penalty(s: Static, state: YagsState, declared, rows, who):
    """Live penalty on attack and defence rolls: wounds + stuns + fatigue + defences."""
    return (TRACK_PENALTY[state.wounds[rows, who]] + TRACK_PENALTY[state.stuns[rows, who]]
            - s.fatigue_penalty * state.fatigue[rows, who]
            + DEFENCE_PENALTY[declared[rows, who]])


def attack(s: Static, state: YagsState, declared, rows, a, t, defended, rng) -> None:
    """Fighter ``a`` attacks ``t`` in trials ``rows`` (all 1-D, same length), in place."""
    k = rows.size
    if k == 0:
        return
    d = rng.integers(1, 21, size=(6, k), dtype=np.int8)  # attack, defence, damage, soak, 2 checks
    att = s.attack[a] + penalty(s, state, declared, rows, a) + d[0]
    dfn = s.defence[t] + penalty(s, state, declared, rows, t) + d[1]
    attack_fumble = d[0] == 1
    defence_fumble = defended & (d[1] == 1)
    # Fumble choice: the fumbler takes fatigue, unless the foe has the higher skill and picks
    # "fail defence" for a fumbled defence (a fumbled attack is a miss either way).
    foe_picks = s.skill[a] > s.skill[t]
    against = np.where(defended & ~(defence_fumble & foe_picks), dfn, s.base_difficulty)
    hit = ~attack_fumble & (att >= against)
    state.fatigue[rows, a] += attack_fumble
    state.fatigue[rows, t] += defence_fumble & ~foe_picks

    levels = np.where(hit, levels_caused(s.damage[a] + d[2], s.soak[t] + d[3]), 0)
    kind = s.damage_type[a]
    half = levels // 2
    add_wounds = np.where(kind == WOUNDS, levels, np.where(kind == MIXED, half, 0))
    add_stuns = np.where(kind == MIXED, levels - half, 0)
    w0 = state.wounds[rows, t]
    s0 = state.stuns[rows, t]
    w1 = w0 + add_wounds
    s1 = apply_stuns(s0, np.where(kind == STUNS, levels, 0)) + add_stuns

    status = state.status[rows, t]
    health = s.health4[t]
    # Reaching fatal wounds: fail dies, success falls unconscious, good success fights on.
    check = (add_wounds > 0) & (w1 >= FATAL)
    margin = health + d[4] - health_target(w1)
    failed = (d[4] == 1) | (margin < 0)
    status = np.where(check & failed, DEAD,
                      np.where(check & (margin < s.success_step), UNCONSCIOUS, status))
    # Reaching beaten stuns: fail falls unconscious, success stays up.
    check = (s1 > s0) & (s1 >= FATAL) & (status == STANDING)
    failed = (d[5] == 1) | (health + d[5] < health_target(s1))
    status = np.where(check & failed, UNCONSCIOUS, status)

    state.wounds[rows, t] = np.minimum(w1, FATAL)
    state.stuns[rows, t] = np.minimum(s1, FATAL)
    state.status[rows, t] = status


def play_round(fight: YagsFight, state: YagsState, rng: np.random.Generator,
               round_no: int) -> None:
    """One round: declarations, then every fighter's action in order, then book-keeping."""
    s = fight.static
    m, c = state.status.shape
    rows_all = np.arange(m)
    standing = state.status == STANDING
    can_act = standing & ~state.slow_start if round_no == 1 else standing
    target = first_standing_foe(standing, s)
    attacking = can_act & (target != NO_TARGET)
    declared, defended = declare_defences(s, can_act, target, attacking)

    for slot in range(c):
        a = state.order[:, slot]
        t = target[rows_all, a]
        safe_t = np.maximum(t, 0)
        ok = (attacking[rows_all, a] & (state.status[rows_all, a] == STANDING)
              & (state.status[rows_all, safe_t] == STANDING))
        rows = np.flatnonzero(ok)
        a, t = a[rows], t[rows]
        attack(s, state, declared, rows, a, t, defended[rows, a], rng)
        # Counter strike: the attacker declared no defence against its target, who is still
        # standing and able to act; resolved against the base difficulty.
        a_defends_t = (target[rows, t] == a) & defended[rows, t]
        strike = ~a_defends_t & (state.status[rows, t] == STANDING) & can_act[rows, t]
        if strike.any():
            attack(s, state, declared, rows[strike], t[strike], a[strike],
                   np.zeros(int(strike.sum()), dtype=bool), rng)

    end_of_round(s, state, rng)


def end_of_round(s: Static, state: YagsState, rng: np.random.Generator) -> None:
    """Fatal and beaten checks at 20 for fighters still up, then yielding (seed 000 step 5)."""
    status = state.status
    at_fatal = np.flatnonzero((status == STANDING) & (state.wounds >= FATAL))
    if at_fatal.size:
        who = at_fatal % status.shape[1]
        d = rng.integers(1, 21, size=at_fatal.size, dtype=np.int8)
        dies = (d == 1) | (s.health4[who] + d < HEALTH_CHECK_BASE)
        status.flat[at_fatal[dies]] = DEAD
    beaten = np.flatnonzero((status == STANDING) & (state.stuns >= FATAL))
    if beaten.size:
        who = beaten % status.shape[1]
        d = rng.integers(1, 21, size=beaten.size, dtype=np.int8)
        falls = (d == 1) | (s.health4[who] + d < HEALTH_CHECK_BASE)
        status.flat[beaten[falls]] = UNCONSCIOUS
    yields = (status == STANDING) & (np.maximum(state.wounds, state.stuns) >= s.yield_at)
    status[yields] = YIELDED
