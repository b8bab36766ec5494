"""The vectorised Yags round (seed 000, Basic Combat), for every open trial at once.

Layout: every state array is (n_places, n_trials). At the start of a fight the fighters of
each trial are *seated in acting order* (fast, normal, slow stance; then initiative), which
is fixed for the fight because initiative and stance are; so the fighter acting in slot k is
always place k, a contiguous row, and only the target needs a gather. The fixed numbers of
each fighter are seated with it. Python loops run over slots, places and sides, never over
trials. The rules and every assumption: ``docs/rules/yags.md``; ``reference.py`` is the
readable scalar version of the same rules, the oracle this kernel is tested against.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.pick import Pick
from balance.engine.state import TrialState
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.engine.targeting import NO_TARGET, first_standing_foe
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

SEATED = ("attack", "defence", "damage", "damage_type", "soak", "health4", "skill",
          "max_defences", "fixed_defences", "yield_at")


@dataclass
class YagsState(TrialState):
    """Tracks and seated fixed numbers; every array is (n_places, n_trials)."""

    wounds: np.ndarray      # int8, held at 6 (fatal) while alive
    stuns: np.ndarray       # int8, held at 6 (beaten)
    fatigue: np.ndarray     # int16, points from fumbles
    penalty: np.ndarray     # int16, wound + stun + fatigue penalty, kept in step with them
    slow_start: np.ndarray  # bool, fumbled initiative: no action in round 1
    # This round's declarations, re-made only in trials where someone fell (and in the
    # first two rounds, when a fumbled initiative starts and ends).
    target: np.ndarray      # int8, place each place attacks (-1: none)
    attacking: np.ndarray   # bool
    defended: np.ndarray    # bool, indexed by attacker: its target defends against it
    defence_penalty: np.ndarray  # int16, the multiple-defence penalty of `declared`
    n_up: np.ndarray        # (n,) int8, fighters standing when declarations were last made
    attack: np.ndarray      # the seated fighter's fixed numbers (Static, stance folded in)
    defence: np.ndarray
    damage: np.ndarray
    damage_type: np.ndarray
    soak: np.ndarray
    health4: np.ndarray
    skill: np.ndarray
    max_defences: np.ndarray
    fixed_defences: np.ndarray
    yield_at: np.ndarray


def start(fight: YagsFight, n: int, rng: np.random.Generator) -> YagsState:
    """Roll initiative once per fight (agility x 4 + d20) and seat fighters in acting order."""
    s = fight.static
    c = fight.n
    d20 = _d20(rng, (c, n))
    tie = rng.random((c, n))  # assumption: ties broken by a random order, fixed for the fight
    key = s.speed[:, None] * 1000.0 - (s.initiative[:, None] + d20) - tie
    order = _acting_order(key)
    who = order.astype(np.int8)
    zeros = np.zeros((c, n), dtype=np.int8)
    seated = {name: getattr(s, name)[order] for name in SEATED}
    return YagsState(
        status=zeros.copy(),
        side=s.side_of[order],
        who=who,
        wounds=zeros.copy(),
        stuns=zeros.copy(),
        fatigue=np.zeros((c, n), dtype=np.int16),
        penalty=np.zeros((c, n), dtype=np.int16),
        slow_start=np.take_along_axis(d20, order, axis=0) == 1,
        target=np.full((c, n), NO_TARGET, dtype=np.int8),
        attacking=np.zeros((c, n), dtype=bool),
        defended=np.zeros((c, n), dtype=bool),
        defence_penalty=np.zeros((c, n), dtype=np.int16),
        n_up=np.full(n, -1, dtype=np.int8),
        **seated,
    )


def _acting_order(key: np.ndarray) -> np.ndarray:
    """(c, n) intp: the fighter in each place, by ascending ``key`` (no ties: keys are
    floats with a random tie-break). Few fighters: ranks by pairwise comparison, which is
    much faster than a sort along a short axis; many: argsort."""
    c, n = key.shape
    if c > 8:
        return np.argsort(key, axis=0)
    order = np.empty((c, n), dtype=np.intp)
    cols = np.arange(n)
    for i in range(c):
        rank = np.zeros(n, dtype=np.intp)
        for j in range(c):
            if j != i:
                rank += key[j] < key[i]
        order[rank, cols] = i
    return order


def _d20(rng: np.random.Generator, shape) -> np.ndarray:
    """d20 rolls as int16: faster to draw than int8 here (~2.2 vs ~3 ns a die, measured),
    and no cast when added to the int16 totals."""
    return rng.integers(1, 21, size=shape, dtype=np.int16)


def update_declarations(state: YagsState, standing: np.ndarray, can_act: np.ndarray,
                        n_sides: int, round_no: int) -> None:
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


def attack(state: YagsState, s: Static, rpen, acting, att: Pick, tgt: Pick, defended,
           rng) -> None:
    """Places ``att`` attack places ``tgt`` in the trials where ``acting``; in place.

    ``rpen`` (c, n) is each place's live penalty including this round's multiple-defence
    penalty; it is kept up to date here as fatigue and damage change.
    """
    n = acting.size
    d = _d20(rng, (2, n))  # attack, defence
    roll = att.get(state.attack) + att.get(rpen) + d[0]
    parry = tgt.get(state.defence) + tgt.get(rpen) + d[1]
    attack_fumble = acting & (d[0] == 1)
    defence_fumble = acting & defended & (d[1] == 1)
    # Fumble choice: the fumbler takes fatigue, unless the foe has the higher skill and picks
    # "fail defence" for a fumbled defence (a fumbled attack is a miss either way).
    foe_picks = att.get(state.skill) > tgt.get(state.skill)
    use_parry = defended & ~(defence_fumble & foe_picks)
    against = s.base_difficulty + use_parry * (parry - s.base_difficulty)
    hit = acting & ~attack_fumble & (roll >= against)
    if attack_fumble.any():
        _tire(state, s, rpen, att, attack_fumble)
    tired = defence_fumble & ~foe_picks
    if tired.any():
        _tire(state, s, rpen, tgt, tired)
    # Damage and soak are rolled only for the blows that land.
    hits = np.flatnonzero(hit)
    if hits.size:
        att, tgt = att.sub(hits), tgt.sub(hits)
        d = _d20(rng, (2, hits.size))
        levels = levels_caused(att.get(state.damage) + d[0], tgt.get(state.soak) + d[1])
        harmed = np.flatnonzero(levels)
        if harmed.size:
            _harm(state, s, rpen, tgt.sub(harmed), att.sub(harmed).get(state.damage_type),
                  levels[harmed], rng)


def _tire(state: YagsState, s: Static, rpen, who: Pick, mask) -> None:
    """A point of fatigue for ``who`` where ``mask`` holds."""
    who.add(state.fatigue, mask)
    step = mask * np.int16(-s.fatigue_penalty)
    who.add(state.penalty, step)
    who.add(rpen, step)


def _harm(state: YagsState, s: Static, rpen, tgt: Pick, kind, levels, rng) -> None:
    """Apply ``levels`` (>= 1) of damage of ``kind`` to the trials of ``tgt``; health checks."""
    half = levels // 2
    mixed = kind == MIXED
    add_wounds = (kind == WOUNDS) * levels + mixed * half
    add_stuns = mixed * (levels - half)
    w0, s0 = tgt.get(state.wounds), tgt.get(state.stuns)
    w1 = w0 + add_wounds
    s1 = apply_stuns(s0, (kind == STUNS) * levels) + add_stuns
    status = tgt.get(state.status)
    health = tgt.get(state.health4)
    step = s.success_step
    # Reaching fatal wounds: fail dies, success falls unconscious, good success fights on.
    check = (add_wounds > 0) & (w1 >= FATAL)
    if check.any():
        d = _d20_where(rng, check)
        margin = health + d - health_target(w1)
        failed = (d == 1) | (margin < 0)
        status = np.where(check & failed, DEAD,
                          np.where(check & (margin < step), UNCONSCIOUS, status))
    # Reaching beaten stuns: fail falls unconscious, success stays up.
    check = (s1 > s0) & (s1 >= FATAL) & (status == STANDING)
    if check.any():
        d = _d20_where(rng, check)
        failed = (d == 1) | (health + d < health_target(s1))
        status = np.where(check & failed, UNCONSCIOUS, status)
    w1 = np.minimum(w1, FATAL)
    s1 = np.minimum(s1, FATAL)
    new = TRACK_PENALTY[w1] + TRACK_PENALTY[s1] - s.fatigue_penalty * tgt.get(state.fatigue)
    tgt.add(rpen, new - tgt.get(state.penalty))
    tgt.put(state.penalty, new)
    tgt.put(state.wounds, w1)
    tgt.put(state.stuns, s1)
    tgt.put(state.status, status)


def _d20_where(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A d20 for each trial where ``mask`` holds (drawn for those only); 20 elsewhere."""
    out = np.full(mask.shape, 20, dtype=np.int8)
    out[mask] = _d20(rng, int(mask.sum()))
    return out


def play_round(fight: YagsFight, state: YagsState, rng: np.random.Generator,
               round_no: int) -> None:
    """One round: declarations, then every place's action in slot order, then book-keeping."""
    s = fight.static
    c, n = state.status.shape
    standing = state.status == STANDING
    can_act = standing & ~state.slow_start if round_no == 1 else standing
    update_declarations(state, standing, can_act, s.n_sides, round_no)
    target, attacking, defended = state.target, state.attacking, state.defended
    rpen = state.penalty + state.defence_penalty

    for slot in range(c):
        me = Pick(slot, n)
        tgt = Pick(target[slot], n)
        acting = attacking[slot] & (state.status[slot] == STANDING)
        acting &= tgt.get(state.status) == STANDING
        if not acting.any():
            continue
        attack(state, s, rpen, acting, me, tgt, defended[slot], rng)
        # Counter strike: the attacker declared no defence against its target, who is still
        # standing and able to act; resolved against the base difficulty.
        defends_back = (tgt.get(target) == slot) & tgt.get(defended)
        strike = acting & ~defends_back & (tgt.get(state.status) == STANDING)
        strike &= tgt.get(can_act)
        if strike.any():
            attack(state, s, rpen, strike, tgt, me, np.zeros(n, dtype=bool), rng)

    end_of_round(state, rng)


def end_of_round(state: YagsState, rng: np.random.Generator) -> None:
    """Fatal and beaten checks at 20 for fighters still up, then yielding (seed 000 step 5)."""
    status = state.status
    at_fatal = (status == STANDING) & (state.wounds >= FATAL)
    if at_fatal.any():
        d = _d20_where(rng, at_fatal)
        status[at_fatal & ((d == 1) | (state.health4 + d < HEALTH_CHECK_BASE))] = DEAD
    beaten = (status == STANDING) & (state.stuns >= FATAL)
    if beaten.any():
        d = _d20_where(rng, beaten)
        status[beaten & ((d == 1) | (state.health4 + d < HEALTH_CHECK_BASE))] = UNCONSCIOUS
    yields = (status == STANDING) & (np.maximum(state.wounds, state.stuns) >= state.yield_at)
    status[yields] = YIELDED
