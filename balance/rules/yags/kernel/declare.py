"""Declarations (seed 000, "Declaring Actions"), vectorised: actions, targets, manoeuvres,
defences and, for riders, the riding checks. The basic fight's fast path re-makes them only
where someone fell; a detailed fight re-makes them every round.
"""

from __future__ import annotations

import numpy as np

from balance.engine.masks import set_where
from balance.engine.pick import flat_of, trial_numbers
from balance.engine.sparse import flat_true
from balance.engine.state import columns
from balance.engine.targeting import NO_TARGET, first_standing_foe
from balance.rules.yags.compile import AUTO
from balance.rules.yags.kernel import choices, groups, missiles, reach
from balance.rules.yags.kernel.gear import fighter, helpless, per_place, refresh
from balance.rules.yags.kernel.static import Static
from balance.rules.yags.kernel.turns import Round
from balance.rules.yags.rules.ranged import FULL_MOVE, SHOOT
from balance.rules.yags.rules.tactics import (
    ATTACK,
    NONE,
    REROLL,
    RETREAT,
    STAND_UP,
    declares_after,
    stance_this_round,
)
from balance.rules.yags.rules.tracks import (
    DEFENCE_PENALTY,
    DEFENSIVE,
    DRAW_STEP,
    RETREAT_STEP,
    defences_allowed,
)


def update_declarations(state, s: Static, standing: np.ndarray, can_act: np.ndarray,
                        round_no: int, rng: np.random.Generator) -> None:
    """Targets and defences for this round, re-made only in trials where they can change:
    all of them in rounds 1 and 2, and later only where someone fell since last time."""
    duel = s.groups is None and standing.shape[0] == 2
    if duel and round_no > 2:   # the first fall decides a duel: nothing left to re-make
        return
    n_up = standing.sum(axis=0, dtype=np.int8)
    changed = n_up != state.n_up
    if round_no == 2:  # fighters who fumbled initiative act from now on
        changed |= state.slow_start.any(axis=0)
    changed = flat_true(changed & (n_up >= 2))  # a lone survivor has no one to fight
    state.n_up = n_up
    if round_no == 1 or changed.size == n_up.size:
        cols = slice(None)
    elif changed.size:
        cols = changed
    else:
        return
    can = columns(can_act, cols)
    if s.groups is None:
        target = first_standing_foe(columns(state.side, cols), columns(state.who, cols),
                                    columns(standing, cols), s.n_sides)
    else:
        target, _ = groups.targets(state, s, standing, can_act, cols, rng, picks=can)
    attacking = can & (target != NO_TARGET)
    declared, defended, exposed = declare_defences(
        columns(state.fixed_defences, cols), columns(state.max_defences, cols), can, target,
        attacking, s.groups is not None)
    state.target[:, cols] = target
    state.attacking[:, cols] = attacking
    state.defended[:, cols] = defended
    state.defence_penalty[:, cols] = np.take(DEFENCE_PENALTY, declared)
    if exposed is not None:
        state.exposed[:, cols] = exposed


def declare_defences(fixed_defences, max_defences, can_act, target, attacking,
                     group: bool = False):
    """Defences declared by each place, and whether each attacker's target defends it.

    ``auto`` declares one defence per foe attacking the fighter, a fixed policy its number,
    both capped at the maximum; slots go to attackers in seat order (initiative, random ties:
    never listing order, so who sits where is not read since issue 15).
    In a group fight (``group``) ``auto`` declares at least one whenever the fighter attacks,
    and a slot left over covers its own target. Returns ``declared`` (c, n) int8,
    ``defended`` (c, n) bool, indexed by attacker, and ``exposed`` (None in a
    duel): the attacks that draw a counter strike (seed 000, Free Strikes: the attacker
    declared no defence against its target), read by every slot of the round's attacks.
    """
    c, n = target.shape
    two = c == 2   # each place's only foe is the other: one attacker at most, no order
    if two:
        attackers_on = (attacking & (target >= 0))[::-1].view(np.int8)
    else:
        # Each place's target where it attacks, else -1 (arithmetic: np.where on a random
        # mask is slow); a place never aims at itself. Whole-array comparisons, c numpy calls
        # rather than c * c on rows.
        aim = (target + 1) * attacking - 1
        attackers_on = np.empty((c, n), dtype=np.int8)
        for i in range(c):
            (aim == i).view(np.int8).sum(axis=0, dtype=np.int8, out=attackers_on[i])
    wanted = np.maximum(attackers_on, attacking) if group else attackers_on
    if (fixed_defences.flat[0] == AUTO if fixed_defences.size and not any(fixed_defences.strides)
            else (fixed_defences == AUTO).all()):   # (a broadcast of one number: read once)
        declared = wanted
    else:
        declared = np.where(fixed_defences == AUTO, wanted, fixed_defences)
    declared = (np.minimum(declared, max_defences) * can_act).astype(np.int8)
    if two:
        defended = attacking & (declared[::-1] > 0)
    else:
        # Attackers of each place's target seated before it, against that target's declared
        # number (one flat gather for all places); only in trials where some fighter
        # declared fewer defences than it has attackers: elsewhere every attack is defended.
        flat = flat_of(aim, n)
        defended = attacking
        short = flat_true((declared < attackers_on).any(axis=0))
        if short.size:
            # (On the whole arrays when most trials are short, as in round 1: elsewhere no
            # attacker has as many seated before it as its target declared, the same answer
            # without the two-dimensional selections.)
            whole = 2 * short.size > n
            mine = aim if whole else aim[:, short]
            earlier = np.zeros(mine.shape, dtype=np.int8)
            for j in range(1, c):
                for k in range(j):
                    earlier[j] += mine[k] == mine[j]
            if whole:
                defended = attacking & (earlier < np.take(declared, flat))
            else:
                defended = attacking.copy()
                defended[:, short] &= earlier < np.take(declared, flat[:, short])
    if not group:
        return declared, defended, None
    guard = attacking & (attackers_on < declared)   # a slot left over covers its own target
    # The target attacks the attacker and defends against it, or a spare defence covers it.
    if two:
        covered = attacking[::-1] & defended[::-1]
    else:
        # (Both gathered at once: the target's aim in the low byte, its defence the high.)
        theirs = np.take(aim.view(np.uint8) | (defended.view(np.uint8).astype(np.int16) << 8),
                         flat)
        covered = ((theirs.astype(np.int8) == np.arange(c, dtype=np.int8)[:, None])
                   & (theirs >= 256))
    return declared, defended, attacking & ~(covered | guard)


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
    if s.on.draw and round_no == 1:   # drawing weapons (a shooter's: when it first melees)
        mod -= DRAW_STEP * x("draw") * (1 - fighter(s, "drawn", who)) * (
            fighter(s, "has_missile", who) == 0)
    action = np.zeros((c, n), dtype=np.int16)
    target = np.full((c, n), NO_TARGET, dtype=np.int16)
    manoeuvre = np.zeros((c, n), dtype=np.int16)
    free = can.copy()       # not yet decided
    before = (x("weapons").copy(), x("retreating").copy())   # what re-seating depends on
    # Precedence (lab's policy): re-roll, grapple, stand up, retreat, re-arm, attack.
    if s.on.reroll and round_no == 1:
        rr = free & (x("init") < fighter(s, "reroll_below", who))
        set_where(action, rr, REROLL)
        free = free & ~rr
    if s.on.grapple:
        choices.grappled(state, s, free, action, target, manoeuvre, mod)
        free &= x("partner") < 0
    if s.on.prone:
        up = free & (x("prone") > 0) & (fighter(s, "stand", who) > 0)
        set_where(action, up, STAND_UP)
        free = free & ~up
    retreating = np.zeros((c, n), dtype=np.int16)
    if s.on.retreat:
        back = free & (np.maximum(state.wounds, state.stuns) >= fighter(s, "retreat_at", who))
        if s.on.step_back:   # a shorter weapon inside its reach: give ground (reach.py)
            back |= free & (fighter(s, "step_back", who) > 0) & reach.threatened(state, standing)
        set_where(action, back, RETREAT)
        retreating = back.astype(np.int16)
        free = free & ~back
    x("retreating")[:] = retreating
    if s.on.gear_changes:
        free &= ~choices.rearm(state, s, free, action, mod)
    rear = None
    if s.groups is None:
        foe = first_standing_foe(state.side, state.who, standing, s.n_sides)
    else:
        # Grapplers already on a fighter count against its attacker limit.
        held = (action == ATTACK) & (target >= 0)
        taken = np.zeros((c, n), dtype=np.int16)
        # (Nobody grappling: none taken; docs/engine-tricks.md, work that cannot change
        # the answer.)
        if held.any():
            for i in range(c):
                taken[i] = (held & (target == i)).sum(axis=0, dtype=np.int16)
        foe, rear = groups.targets(state, s, standing, free, slice(None), rng, taken)
    attack = free & (foe != NO_TARGET)
    set_where(action, attack, ATTACK)
    set_where(target, attack, foe)
    if rear is not None:
        state.rear[:] = rear & attack
    refresh(state, s, where=(x("weapons") != before[0]) | (x("retreating") != before[1]))
    if s.on.distance:   # foes out of reach (what they hold now): load, shoot, close, run, wait
        missiles.plan(state, s, action, target)
        attack = action == ATTACK
        state.rear &= attack
        # A shooter draws its melee weapon the first time it attacks in melee (dropping the
        # missile weapon is free): -5 per reach that round (seed 000, Drawing a weapon).
        drawing = attack & (x("g_drew") == 0) & (fighter(s, "has_missile", who) > 0) & (
            x("partner") < 0)
        mod -= DRAW_STEP * x("draw") * drawing
        set_where(x("g_drew"), drawing, 1)
    x("action")[:] = action
    if s.on.stances:   # a stance plan: this round's stance, knowing what it knows
        declare_stances(state, s, can, action, target)
    choices.choose_manoeuvres(state, s, attack, target, manoeuvre, round_no)
    if s.on.distance:   # seed 000: after a full Move, only a standard attack
        full = x("approach") == FULL_MOVE
        set_where(manoeuvre, full, NONE)
        for name in ("stunting", "charging"):
            set_where(x(name), full, 0)
    x("manoeuvre")[:] = manoeuvre
    cover, declared = _cover(state, s, can & (action != REROLL), action == ATTACK, target,
                             state.rear if s.on.ranks else None)
    state.target[:] = target
    state.attacking[:] = action == ATTACK
    state.defended[:] = cover_of(cover, target, n)
    state.defence_penalty[:] = np.take(DEFENCE_PENALTY, declared)
    if s.on.distance:
        x("declared")[:] = declared
    if s.on.mounted:
        choices.riding_checks(state, s, can, cover, rng)
    if s.on.retreat:
        # Seed 000, Retreat: +3 defence per metre, as many metres as its agility. A retreating
        # fighter makes no attack, so its round penalty carries the bonus.
        mod += RETREAT_STEP * fighter(s, "agility", who) * retreating
    return Round(round_no, can, state.penalty + state.defence_penalty + mod, cover)


def declare_stances(state, s: Static, can: np.ndarray, action: np.ndarray,
                    target: np.ndarray) -> None:
    """Each place's stance this round by its plan (policy stance_plan:
    ``rules.tactics.stance_this_round``): hurt, or unopposed: it declares after every foe able to
    act (seed 000: "Everybody declares their actions in increasing initiative order";
    ``rules.tactics.declares_after``) and none of them declared an attack or a shot on it."""
    x = state.x
    c = action.shape[0]
    who = state.who.astype(np.intp)
    threat = ((action == ATTACK) | (action == SHOOT)) & (target >= 0)
    init, tie = x("init"), x("tie")
    unopposed = can.copy()
    for p in range(c):
        for q in range(c):
            if q == p:
                continue
            foe = can[q] & (state.side[q] != state.side[p])
            blind = ~declares_after(init[p], tie[p], init[q], tie[q])
            unopposed[p] &= ~(foe & (blind | (threat[q] & (target[q] == p))))
    stance = stance_this_round(fighter(s, "stance", who), np.maximum(state.wounds, state.stuns),
                               fighter(s, "hurt_at", who), fighter(s, "hurt_stance", who),
                               unopposed, fighter(s, "unopposed_stance", who))
    changed = stance != x("stance")
    x("stance")[:] = stance
    refresh(state, s, where=changed)


def cover_of(cover: np.ndarray, target: np.ndarray, n: int) -> np.ndarray:
    """(c, n) bool indexed by attacker: does its target's defence cover it."""
    c = target.shape[0]
    if c == 2:   # each place's target is the other or none: rows 2 (1 covers 0) and 1
        return np.stack([(target[0] >= 0) & cover[2], (target[1] >= 0) & cover[1]])
    flat = target.astype(np.intp)   # ((target * c + place) * n + trial, in one array)
    np.maximum(flat, 0, out=flat)
    flat *= c
    flat += np.arange(c)[:, None]
    flat *= n
    flat += trial_numbers(n)
    return (target >= 0) & cover.ravel()[flat]


def _cover(state, s: Static, can: np.ndarray, attacking: np.ndarray,
           target: np.ndarray, rear: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Who each place's defences cover: ``cover`` (c * c, n) bool, row ``i * c + j`` meaning
    place i defends against place j, and the number declared (the free one not counted).

    ``auto``: one per foe attacking it, else the fixed number, capped at its maximum (one more
    while retreating, which is done defensively); attackers in seat order (initiative, random
    ties: never listing order) take the slots.
    A shield covers the target of its attack for free (seed 000, Weapon and shield);
    grappled, it covers only its partner. ``auto`` declares at least one whenever it attacks
    (or is thrust at from a second rank), a slot left over covers its own target, and
    second-rank attackers share the first slot (covered by any defence declared). (The basic
    duel's fast path, ``declare_defences``, skips the first two: there the foe attacks back
    whenever it can act, so they change nothing.)
    """
    x = state.x
    c, n = target.shape
    who = state.who
    partner = x("partner")
    # (The (c, c, n) masks are built in place, a broadcast operand on the right: an
    # out-of-place ``&`` of a broadcast row with a (c, c, n) mask costs 6-30x more, and
    # place numbers are in the targets' own dtype, as comparing int16 with intp converts
    # every element first: docs/engine-tricks.md, in-place broadcasts.)
    places = np.arange(c, dtype=target.dtype)
    shield_free = attacking & (x("shield") > 0) & (partner < 0)
    aims = target[:, None, :] == places[None, :, None]          # aims[i, j]: i's target is j
    free = aims.copy()
    free &= shield_free[:, None, :]
    on = target[None, :, :] == places[:, None, None]            # on[i, j]: j attacks i
    on &= attacking
    on[places, places] = False
    # (Nobody grappled: every place may cover every attacker; docs/engine-tricks.md, work
    # that cannot change the answer.)
    if (partner >= 0).any():
        with_partner = partner[:, None, :] == places[None, :, None]
        with_partner |= (partner < 0)[:, None, :]
        on &= with_partner
    np.greater(on, free, out=on)     # on & ~free, in place and without a (c, c, n) temporary
    rear_on = None
    if rear is not None:
        rear_on = on.copy()
        rear_on &= rear
        on &= ~rear
    n_on = on.sum(axis=1, dtype=np.int8)   # (narrow counts: docs/engine-tricks.md)
    # ``auto``: at least one whenever it attacks (one costs nothing; a foe it attacks that is
    # not attacking it, standing up or escaping, would otherwise get a counter strike).
    wanted = np.maximum(n_on, attacking & ~shield_free)
    if rear_on is not None:
        wanted = np.maximum(wanted, rear_on.any(axis=1))
    fixed = state.fixed_defences
    if not (fixed.flat[0] == AUTO if fixed.size and not any(fixed.strides)
            else (fixed == AUTO).all()):    # (a broadcast of one number: read once)
        wanted = np.where(fixed == AUTO, wanted, fixed)
    # (one more in the defensive stance this round, or retreating: tracks.defences_allowed;
    # the open defences one number when every fighter has the same: gear.per_place)
    most = defences_allowed(per_place(s, "open_defences", who),
                            (x("stance") == DEFENSIVE) | (x("retreating") > 0))
    # (zero where it cannot act, by arithmetic: docs/engine-tricks.md, arithmetic, not
    # np.where, on random masks)
    declared = (np.minimum(wanted, most) * can).astype(np.int8)
    # Attackers of i seated before j take the slots first: a running count along j (each
    # column once; ``np.cumsum`` along a middle axis is 20x slower), compared with the
    # number declared column by column, so no (c, c, n) count is kept.
    cover = np.empty((c, c, n), dtype=bool)
    seen = np.zeros((c, n), dtype=np.int8)
    for k in range(c):
        np.less(seen, declared, out=cover[:, k])
        if k < c - 1:
            seen += on[:, k]
    cover &= on
    cover |= free
    cover &= can[:, None, :]
    spare = can & attacking & (n_on < declared) & (partner < 0)
    aims &= spare[:, None, :]
    cover |= aims
    if rear_on is not None:
        rear_on &= (can & (declared >= 1))[:, None, :]
        cover |= rear_on
    return cover.reshape(c * c, n), declared
