"""The vectorised percentile round (docs/rules/percentile.md), for every open trial at once.

Layout: every state array is (n_places, n_trials), fighters in scenario order (place k is
fighter k in every trial: the acting order changes from round to round with movement, so
nothing is seated). Python loops run over the round's steps, DEX-rank keys, places and
sides, never over trials; each step works on the batch of trials it concerns
(``kernel.strike`` resolves the blows; ``kernel.state`` holds the state; ``kernel.duel``
plays a plain duel's round by tables). Rules that cannot act in a fight (no missiles, no
mounts, full light, ...) are skipped by name (``PercentileFight.uses``). ``reference/fight.py`` is
the readable scalar version of the same rules, the oracle this kernel is tested against.
"""

from __future__ import annotations

import numpy as np

from balance.engine.distance import CLOSE, HOLD, KEEP_DISTANCE, step
from balance.engine.places import ascending
from balance.engine.sparse import flat_true
from balance.engine.status import FLED, STANDING, UNCONSCIOUS
from balance.engine.targeting import NO_TARGET
from balance.rules.percentile.compile import (
    DRAW_RANKS,
    FIST,
    MAIN,
    MELEE,
    MOVE_AUTO,
    OFF,
    STAND,
    STAND_AND_FIGHT,
    PercentileFight,
    resistance_table,
)
from balance.rules.percentile.kernel import duel as kernel_duel
from balance.rules.percentile.kernel.groups import (
    by_slot,
    choose_group_targets,
    of_target,
    rout,
    side_attacks,
)
from balance.rules.percentile.kernel.prepare import duel_table_of, static_of
from balance.rules.percentile.kernel.state import PercentileState, start  # noqa: F401 (API)
from balance.rules.percentile.kernel.strike import (
    DISARM,
    ENTANGLE,
    KNOCKBACK,
    NONE,
    STRIKE,
    Ctx,
    at_each,
    at_rows,
    breaking_off,
    can_strike,
    fall,
    fall_back,
    free_blow,
    gap,
    get,
    held_off,
    in_reach,
    item,
    lengths_at_blow,
    let_inside,
    melee_attack,
    missile_volley,
    put,
    raw_harm,
    roll_level,
    some,
    spear_set,
    switch_to_melee,
)
from balance.rules.percentile.rules import tables as tb


def play_round(fight: PercentileFight, st: PercentileState, rng: np.random.Generator,
               round_no: int) -> None:
    """One round, the reference's steps 1 to 7, for every open trial."""
    cx = Ctx(fight, static_of(fight), st, rng, round_no, any_down=some(st.down),
             any_stunned=some(st.stunned), any_no_parry=some(st.no_parry),
             table=duel_table_of(fight) if fight.plain_duel else None)
    if fight.plain_duel:        # the same steps, by kernel_duel's tables
        if cx.any_stunned:
            recover_from_stun(cx)
        if cx.any_down:
            rise_intents(cx)
        kernel_duel.play_round(cx, take_action)
        end_of_round(st, fight.uses)
        return
    draw_order(cx)
    if cx.uses("poison_onset"):
        poisons_take_hold(cx)
    if round_no == 1 and cx.uses("ambush"):
        ambush(cx)
    if cx.uses("knockout"):
        wake(cx)
    if cx.any_stunned:
        recover_from_stun(cx)
    choose_targets(cx)
    if cx.uses("brace"):
        brace(cx)
    if cx.uses("distance"):
        move(cx)
        if fight.rules.hold_off:
            step_apart(cx)
    declare(cx)
    if cx.any_down:
        rise_intents(cx)
    if cx.uses("flank"):
        side_attacks(cx)
    act(cx)
    if cx.uses("extra_attack"):
        extra_attacks(cx)
    if cx.uses("morale"):
        rout(cx)
    end_of_round(st, cx.fight.uses)


# --- 1-2. stun, targets ------------------------------------------------------------------------


def draw_order(cx: Ctx) -> None:
    """A random order of the places for this round (the tie-break among equal DEX ranks and
    equal DEX movers): ``order`` is each place's rank in it, 0..c-1, higher going first."""
    st = cx.st
    c, n = st.status.shape
    if c == 1:
        return
    if c == 2:     # one fair coin a trial: which of the two goes first on equal ranks
        st.order[0] = cx.rng.random(n) < 0.5
        st.order[1] = 1 - st.order[0]
        return
    u = cx.rng.random((c, n))
    # The sorting permutation of iid uniforms is itself a uniform random permutation: one
    # argsort gives each place a uniformly random rank (no need to invert it); the argsort
    # by pairwise comparisons (``engine.places.ascending``, the same permutation:
    # docs/engine-tricks.md, ranks by pairwise comparisons)
    st.order[:] = ascending(u, np.int8)


def poisons_take_hold(cx: Ctx) -> None:
    """Poison losses due this round (``rules.poison_onset: table``) come now (see
    reference)."""
    st = cx.st
    for p in range(cx.S.c):
        rows = np.flatnonzero(st.poison_at[p] == cx.round_no)
        if rows.size:
            lost = get(st.poison_hp, p, rows)
            put(st.poison_hp, p, rows, 0)
            put(st.poison_at, p, rows, 0)
            raw_harm(cx, p, rows, lost)


def ambush(cx: Ctx) -> None:
    """Seed 004, ambushes: every ambusher rolls its Move Quietly (sneaking) or Hide (lying in
    wait); one failure gives the ambush away. Otherwise each foe rolls Search to spot it
    first (halved against hidden ambushers: "half as likely to be noticed"); a foe who
    fails is surprised: no action and no parry or dodge in round 1."""
    st, S = cx.st, cx.S
    n = st.status.shape[1]
    for side, way in enumerate(cx.fight.ambush):
        if not way:
            continue
        unseen = np.ones(n, dtype=bool)
        for p in np.flatnonzero(S.side == side):
            unseen &= cx.succeeds(S.stealth[p], n)
        for q in np.flatnonzero(S.side != side):
            spotted = cx.succeeds(tb.spot_chance(S.search[q], way == 2), n)
            st.surprised[q] |= unseen & ~spotted


def wake(cx: Ctx) -> None:
    """Seed 004: a knockout lasts 1D10+10 rounds; then the fighter comes to, on the ground."""
    st = cx.st
    woke = (st.status == UNCONSCIOUS) & (st.wake_at > 0) & (st.wake_at <= cx.round_no)
    if some(woke):
        st.status[woke] = STANDING
        st.down[woke] = True
        st.wake_at[woke] = 0
        cx.any_down = True


def rise_intents(cx: Ctx) -> None:
    """Policy ``when_down: stand_and_fight`` (default): a fighter down at the round's start
    (its statement of intent) spends the round's defence on the Dodge that gets it up (seed
    004: "a successful Dodge roll gets the downed adventurer back on their feet"; the
    family's Dodge is a defence): it neither parries nor dodges this round, and still
    attacks (see reference ``rise_intents``)."""
    st, S = cx.st, cx.S
    policy = S.when_down == STAND_AND_FIGHT
    if not policy.any():
        return
    rising = (st.status == STANDING) & st.down & policy[:, None]
    if cx.uses("entangle"):
        rising &= ~st.entangled
    if cx.fight.rules.fatigue:
        rising &= ~tb.exhausted(cx.round_no, S.CON)[:, None]
    if cx.round_no == 1 and cx.uses("ambush"):
        rising &= ~st.surprised
    st.rising[:] = rising
    cx.any_rising = some(rising)


def step_apart(cx: Ctx) -> None:
    """Out of reach of the foe whose weapon it had got inside, a fighter is outside it again
    (seed 004's hold-off starts anew when they close)."""
    st = cx.st
    inside = st.inside >= 0
    if not some(inside):
        return
    who, rows = inside.nonzero()
    apart = ~in_reach(cx, who, get(st.inside, who, rows).astype(np.intp), rows)
    put(st.inside, who[apart], rows[apart], -1)


def recover_from_stun(cx: Ctx) -> None:
    st = cx.st
    who, rows = np.nonzero((st.status == STANDING) & st.stunned)
    if rows.size:
        ok = cx.succeeds(5 * cx.S.CON[who], rows.size)
        put(st.stunned, who[ok], rows[ok], False)


def choose_targets(cx: Ctx) -> None:
    """A duel: each fights the other while both stand. Three or more: the group rules
    (``kernel.groups.choose_group_targets``: policies, attackers-per-target limits)."""
    st = cx.st
    if st.status.shape[0] > 2:
        choose_group_targets(cx)
        return
    both = (st.status[0] == STANDING) & (st.status[1] == STANDING)
    st.target[0] = np.where(both, 1, NO_TARGET)
    st.target[1] = np.where(both, 0, NO_TARGET)


# --- 3. bracing and movement ---------------------------------------------------------------


def brace(cx: Ctx) -> None:
    st, S = cx.st, cx.S
    c, n = st.status.shape
    standing = st.status == STANDING
    rows = np.arange(n)
    st.bracing[:] = False
    for p in range(c):
        if not S.brace[p]:
            continue
        near = np.zeros(n, dtype=bool)
        for q in range(c):
            if S.side[q] != S.side[p]:
                near |= standing[q] & in_reach(cx, p, q, rows)
        slot = st.wield[p]
        shield = st.item_ok[OFF, p] & S.item_shield[OFF, p]
        spear = ((item(S.item_kind, slot, p) == MELEE) & item(S.item_thrusting, slot, p)
                 & (item(S.item_length, slot, p) == tb.LONG))
        st.bracing[p] = standing[p] & ~st.down[p] & ~near & (shield | spear)


def movement_wish(cx: Ctx) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(policy, near, far) for every place and trial (see reference ``movement_wish``)."""
    st, S = cx.st, cx.S
    c, n = st.status.shape
    places = np.arange(c)[:, None]
    reach = np.float32(cx.fight.rules.reach)
    slot = st.wield
    kind = by_slot(S.item_kind, slot)      # (docs/engine-tricks.md, narrow reads of a few places)
    policy = np.broadcast_to(S.movement[:, None], (c, n))
    policy = np.where(policy == MOVE_AUTO, np.where(kind == MELEE, CLOSE, HOLD), policy)
    rng_ = by_slot(S.item_range, slot).astype(np.float32)
    missile_near = np.where(policy == CLOSE,
                            np.maximum(reach, (S.DEX / 3).astype(np.float32)[:, None]),
                            rng_ / np.float32(2))
    missile_far = np.where(policy == KEEP_DISTANCE, rng_, missile_near)
    near = np.where(kind != MELEE, missile_near, reach).astype(np.float32)
    far = np.where(kind != MELEE, missile_far, reach).astype(np.float32)
    if cx.uses("entangle"):
        tangler = entangle_slot(cx, places, np.arange(n)[None, :])
        tgt = np.maximum(st.target, 0)
        free_target = ~np.take_along_axis(st.entangled, tgt.astype(np.intp), axis=0)
        use = (kind == MELEE) & (tangler != NONE) & free_target
        tr = S.item_range[np.maximum(tangler, 0), places].astype(np.float32)
        near = np.where(use, tr, near)
        far = np.where(use, tr, far)
    return policy, near, far


def entangle_slot(cx: Ctx, who, rows) -> np.ndarray:
    """The entangling item (OFF, else MAIN) of a fighter with policy ``entangle``, or NONE."""
    st, S = cx.st, cx.S
    off = S.entangle[who] & st.item_ok[OFF, who, rows] & S.item_entangles[OFF, who] \
        & ~S.item_shield[OFF, who]
    main = S.entangle[who] & st.item_ok[MAIN, who, rows] & S.item_entangles[MAIN, who]
    return np.where(off, OFF, np.where(main, MAIN, NONE))


def move(cx: Ctx) -> None:
    """Movers move in DEX order (ties random), by the shared distance model."""
    st, S = cx.st, cx.S
    c = st.status.shape[0]
    movers = ((st.status == STANDING) & (st.target != NO_TARGET) & ~st.down & ~st.entangled
              & ~st.stunned & ~st.bracing)
    if cx.round_no == 1 and cx.uses("ambush"):
        movers &= ~st.surprised
    if cx.uses("pounce"):
        movers &= ~st.airborne      # a pouncer's move is its dive
    if cx.fight.rules.fatigue:
        movers &= ~tb.exhausted(cx.round_no, S.CON)[:, None]
    if not some(movers):
        return
    policy, near, far = movement_wish(cx)
    # the targets' positions by comparisons (docs/engine-tricks.md, narrow reads of a few
    # places)
    dist = np.abs(st.pos - of_target(st.pos, np.maximum(st.target, 0)))
    wants = movers & np.where(policy == CLOSE, dist > near,
                              np.where(policy == KEEP_DISTANCE, (dist < near) | (dist > far),
                                       policy != HOLD))
    rows = np.flatnonzero(wants.any(axis=0))
    if not rows.size:
        return
    # a stable argsort by pairwise comparisons (docs/engine-tricks.md, ranks by pairwise
    # comparisons; as in ``act``)
    order = ascending(-(S.DEX[:, None] * c + st.order.take(rows, axis=1)))
    speed = np.where(st.mounted, S.mount_move[:, None], S.move[:, None]).astype(np.float32)
    n = st.status.shape[1]
    for k in range(c):
        # the k-th mover's cells, read and written through flat indices once
        # (docs/engine-tricks.md, flat indices and ``np.take``)
        flat = order[k] * n + rows
        m = movers.take(flat)
        if not some(m):
            continue
        idx = flat_true(m)
        flat, r = flat.take(idx), rows.take(idx)
        foe = st.target.take(flat)
        old = st.pos.take(flat)
        there = get(st.pos, foe, r)
        new = step(old, there, policy.take(flat), speed.take(flat), near.take(flat),
                   far.take(flat))
        st.moved.put(flat, np.abs(new - old))
        st.backed.put(flat, np.abs(new - there) > np.abs(old - there))
        st.pos.put(flat, new)
    if cx.uses("slick"):
        slip(cx, rows)
    if cx.uses("mounts"):
        r = rows
        for p in range(c):
            if S.mount_move[p] == 0:
                continue
            charge = (get(st.mounted, p, r) & (get(st.moved, p, r) >= cx.fight.rules.charge_run)
                      & (get(st.moved, p, r) > 0) & (get(st.target, p, r) != NO_TARGET))
            charge &= in_reach(cx, p, np.maximum(get(st.target, p, r), 0), r)
            put(st.charging, p, r, charge)


def slip(cx: Ctx, rows) -> None:
    """Seed 004, slick surfaces: a DEX roll (x 5) after moving, or a fall; 00 costs 1D6."""
    st, S = cx.st, cx.S
    who, idx = np.nonzero((st.moved[:, rows] > 0) & S.slick[:, None])
    if not idx.size:
        return
    r = rows[idx]
    roll = cx.d100(idx.size)
    falls = ~tb.roll_succeeds(roll, 5 * S.DEX[who] - S.balance_penalty[who], cx.levels)
    fall(cx, who[falls], r[falls])
    hurt = falls & (roll == 100)
    if some(hurt):
        raw_harm(cx, who[hurt], r[hurt], cx.rng.integers(1, 7, size=int(hurt.sum())))


# --- 4. intents --------------------------------------------------------------------------------


def declare(cx: Ctx) -> None:
    """DEX-rank keys (4 x rank): DEX less yards moved, drawing and aiming; closers with the
    shorter weapon (and riders charging a set spear) strike after the one they close on."""
    st, S = cx.st, cx.S
    c, n = st.status.shape
    rows = np.arange(n)
    acting = (st.status == STANDING) & (st.target != NO_TARGET)
    # (c, n) int16 arithmetic throughout: wider or mixed dtypes cost several times as much
    tgt = np.maximum(st.target, 0).astype(np.intp) if c > 2 or cx.uses("missiles") \
        or cx.uses("distance") else None
    if cx.uses("missiles"):
        shooter = acting & (by_slot(S.item_kind, st.wield) != MELEE)
        for p in range(c):
            if shooter[p].any():
                r = np.flatnonzero(shooter[p])
                close = in_reach(cx, p, tgt[p, r], r)
                if some(close):
                    switch_to_melee(cx, np.full(int(close.sum()), p), r[close])
    if cx.uses("distance"):     # a DEX rank per yard moved (nobody moves otherwise)
        rank = (S.DEX[:, None] - np.ceil(st.moved.astype(np.float64) - 1e-9)).astype(np.int16)
    else:
        rank = np.empty((c, n), dtype=np.int16)
        rank[:] = S.DEX[:, None]
    draw = acting & st.draw_pending
    if some(draw):
        tb.drawn_rank(rank, draw, DRAW_RANKS, out=rank)
        st.draw_pending &= ~acting
    if cx.uses("mounts"):
        # Seed 004: "a charge is made at the end of a full movement": the charge strikes
        # this round, on the last DEX rank if the ride used up the rider's ranks.
        rank = np.where(st.charging, np.maximum(rank, 1), rank)
    st.aim[:] = 0
    if cx.uses("missiles"):
        for p in range(c):
            if not S.aim_steps[p] or S.volley[p]:
                continue
            slot = st.wield[p]
            aims = acting[p] & (item(S.item_kind, slot, p) != MELEE)
            aims &= gap(cx, p, tgt[p], rows) <= 2 * item(S.item_range, slot, p)
            steps = np.where(aims, tb.aim_steps(S.aim_steps[p], rank[p]), 0)
            st.aim[p] = steps
            rank[p] -= 5 * steps
    key = tb.rank_key(rank, acting, out=np.empty_like(rank))
    if cx.uses("distance"):
        kind = by_slot(S.item_kind, st.wield)
        length = by_slot(S.item_length, st.wield)
        for p in range(c):
            cand = (key[p] >= 4) & acting[p] & (st.moved[p] > 0)
            if not some(cand):
                continue
            t = tgt[p]
            key_t = get(key, t, rows)
            cand &= (key_t >= 4) & in_reach(cx, p, t, rows)
            longer = ((get(kind, t, rows) == MELEE) & (kind[p] == MELEE)
                      & (get(length, t, rows) > length[p]))
            set_spear = spear_set(cx, t, rows) & st.charging[p] if cx.uses("brace") else False
            key[p] = np.where(cand & (longer | set_spear), tb.strikes_after(key[p], key_t), key[p])
    if cx.fight.rules.up_close:
        up_close(cx, key, tgt)
    st.key[:] = key


def up_close(cx: Ctx, key: np.ndarray, tgt: np.ndarray | None) -> None:
    """Seed 004: a longer weapon is "clumsier to use up close": between two fighters already
    at close quarters (in reach, neither moved this round) the longer melee weapon strikes
    after the shorter one (``rules.up_close``; see reference ``declare``). Only the trials
    where some fighter's weapon may be longer than its target's are touched: when every
    main weapon has one length, those where someone holds another item."""
    st, S = cx.st, cx.S
    c = key.shape[0]
    moving = cx.uses("distance")     # else nobody moves
    if S.mains_one_length:
        other = st.wield != MAIN
        cols = (other[0] | other[1] if c == 2 else other.any(axis=0)).nonzero()[0]
        if not cols.size:
            return
        wield = st.wield.take(cols, axis=1)
    else:
        cols, wield = None, st.wield         # every trial: no gathers
    length = np.stack([S.melee_length[:, p].take(wield[p]) for p in range(c)])
    if c == 2:
        foe = length[::-1]
    else:       # each place's target's length (docs/engine-tricks.md, narrow reads)
        aim = np.maximum(st.target, 0)
        foe = of_target(length, aim if cols is None else aim.take(cols, axis=1))
    longer = length > foe
    keep = flat_true(longer[0] | longer[1] if c == 2 else longer.any(axis=0))
    if not keep.size:
        return
    # columns by index, not by a boolean column mask (docs/engine-tricks.md, flat indices)
    cols = keep if cols is None else cols.take(keep)
    longer = longer.take(keep, axis=1)
    # key >= 4: acting (a key is 0 for a fighter that does not act)
    longer &= key.take(cols, axis=1) >= 4
    if moving:
        longer &= st.moved.take(cols, axis=1) == 0
    for p in range(c):
        r = cols.take(flat_true(longer[p]))
        if not r.size:
            continue
        t = 1 - p if c == 2 else tgt[p].take(r)     # a duel: the one foe, a scalar place
        key_t = get(key, t, r)
        ok = (key_t >= 4) & (S.melee_length[get(st.wield, t, r), t] >= 0)
        if moving:
            ok &= (get(st.moved, t, r) == 0) & in_reach(cx, p, t, r)
        mine = key[p].take(r)
        key[p][r] = np.where(ok, tb.strikes_after(mine, key_t), mine)


# --- 5. actions ----------------------------------------------------------------------------


def act(cx: Ctx) -> None:
    """Keys from the highest down, equal keys in the round's random order; a fighter out of
    the fight by its turn does not act.

    In a trial no two places share a slot (key, then the round's order), and trials never
    touch each other, so a group fight acts in ``c`` batches: the k-th batch holds, in
    every trial, the place with the k-th highest slot (a per-row place array). A duel keeps
    one scalar place per batch (cheaper indexing) in three batches, however many DEX ranks
    the trials use: place 0 where it goes first; place 1 in every trial (first where it
    leads, second where it follows); place 0 where it goes second. Each trial still sees its
    two actions in order, and trials never touch each other.
    """
    st = cx.st
    c, n = st.status.shape
    if c == 2:
        acts = st.key >= 2
        slot_key = st.key * 2 + st.order     # int16
        slot_key[~acts] = -1
        first = slot_key[0] > slot_key[1]
        for p, trials in ((0, first), (1, None), (0, ~first)):
            ready = acts[p] & (st.status[p] == STANDING)
            rows = (ready if trials is None else ready & trials).nonzero()[0]
            if rows.size:
                take_action(cx, p, rows)
        return
    slot_key = np.where(st.key >= 2, st.key.astype(np.int32) * c + st.order, -1)
    # a stable argsort of the negated keys, by pairwise comparisons (``engine.places.
    # ascending`` ranks equal keys in place order, as a stable sort does: docs/engine-tricks.md,
    # ranks by pairwise comparisons)
    np.negative(slot_key, out=slot_key)
    ranked = ascending(slot_key)
    np.negative(slot_key, out=slot_key)
    cols = np.arange(n)
    for k in range(c):
        at = ranked[k] * n + cols           # (docs/engine-tricks.md, flat indices)
        go = slot_key.ravel().take(at) >= 2 * c
        if not some(go):
            break
        go &= st.status.ravel().take(at) == STANDING
        rows = flat_true(go)
        if rows.size:
            p = ranked[k].take(rows)
            # one place in every row (a group's fastest, say) is passed as one number: the
            # same rows in the same order, read by rows rather than by flat cells
            # (docs/engine-tricks.md, one row's take)
            take_action(cx, int(p[0]) if (p == p[0]).all() else p, rows)


def take_action(cx: Ctx, p, rows: np.ndarray) -> None:
    """The action of place ``p`` (one place, or one per row) in ``rows``: the first of the
    reference's cases that applies."""
    st, S = cx.st, cx.S
    if cx.fight.rules.fatigue:
        rested = ~np.broadcast_to(cx.exhausted(p), rows.shape)
        p, rows = at_rows(p, rested), rows[rested]
    if cx.round_no == 1 and cx.uses("ambush"):
        aware = ~get(st.surprised, p, rows)
        p, rows = at_rows(p, aware), rows[aware]
    if cx.uses("entangle"):
        ent = get(st.entangled, p, rows)
        if some(ent):
            ep, er = at_rows(p, ent), rows[ent]
            tries = cx.round_no > get(st.held_until, ep, er)
            ep, er = at_rows(ep, tries), er[tries]
            if er.size:
                slot = get(st.wield, ep, er)
                knife = ((item(S.item_kind, slot, ep) == MELEE)
                         & item(S.item_thrusting, slot, ep)
                         & (item(S.item_length, slot, ep) == tb.SHORT)
                         & ~item(S.item_is_fist, slot, ep))
                chance = tb.free_from_entangle_chance(
                    S.DEX[ep], np.where(knife, item(S.item_attack, slot, ep), 0),
                    get(st.netted, ep, er))
                freed = cx.succeeds(chance, er.size)
                put(st.entangled, at_rows(ep, freed), er[freed], False)
            p, rows = at_rows(p, ~ent), rows[~ent]
    if cx.any_down:
        down = get(st.down, p, rows)
        if some(down):
            # Seed 004: "a successful Dodge roll gets the downed adventurer back on their
            # feet" (policy when_down): ``stand`` makes it the round's action; a fighter
            # rising (``stand_and_fight``) has spent its defence on it and fights on,
            # standing or from the ground; ``fight_down`` stays down
            whole = down & (S.when_down[p] == STAND)
            tries = whole | (down & get(st.rising, p, rows)) if cx.any_rising else whole
            if some(tries):
                tp, tr = at_each(tries, p, rows)
                up = cx.succeeds(S.dodge[tp], tr.size)
                put(st.down, *at_each(up, tp, tr), False)
            if some(whole):
                p, rows = at_each(~whole, p, rows)
    idle = get(st.forfeit, p, rows)
    if cx.any_stunned:
        idle = idle | get(st.stunned, p, rows)
    if some(idle):
        p, rows = at_each(~idle, p, rows)
    if cx.uses("break_off") and rows.size:
        leaving = breaking_off(cx, p, rows)
        if some(leaving):
            break_off(cx, at_rows(p, leaving), rows[leaving])
            p, rows = at_rows(p, ~leaving), rows[~leaving]
    if cx.uses("loose") and rows.size:
        grab = ((get(st.wield, p, rows) == FIST) & st.item_loose[:, p, rows].any(axis=0)
                & S.retrieve[p])
        if some(grab):
            gp, gr = at_rows(p, grab), rows[grab]
            chance = rearm_chance(cx, gp, gr)
            tries = chance > 0          # under ``never`` a pressed fighter fights on bare
            retrieve(cx, at_rows(gp, tries), gr[tries], chance[tries])
            grab[grab] = tries
            p, rows = at_rows(p, ~grab), rows[~grab]
    if rows.size:
        attack_action(cx, p, rows)


def rearm_chance(cx: Ctx, p, rows: np.ndarray) -> np.ndarray:
    """The chance that fighters with a weapon on the ground get it back this action
    (``rules.tables.rearm_chance``): pressed by a foe that has it as its target, stands in reach
    on its feet and is neither stunned nor held, it is the fighter's DEX against the best
    presser's on the Resistance Table (``rules.rearm_when_pressed: contested``), or never,
    or always (see reference ``rearm_chance``)."""
    st, S = cx.st, cx.S
    best = np.zeros(rows.size, dtype=np.int32)       # the best DEX pressing it (0: none)
    for q in range(S.c):
        foe = S.side[q] != S.side[p]
        if not some(foe):
            continue
        presses = (foe & (get(st.status, q, rows) == STANDING) & (get(st.target, q, rows) == p)
                   & ~get(st.down, q, rows) & ~get(st.stunned, q, rows) & in_reach(cx, q, p, rows))
        if cx.uses("entangle"):
            presses &= ~get(st.entangled, q, rows)
        best = np.where(presses, np.maximum(best, S.DEX[q]), best)
    return tb.rearm_chance(S.DEX[p], best, best > 0, cx.fight.rules.rearm_when_pressed,
                           **resistance_table(cx.fight.rules))


def retrieve(cx: Ctx, p, rows: np.ndarray, chance: np.ndarray) -> None:
    """A disarmed fighter on fists tries to pick its weapon up (the action of the round),
    and gets it at ``chance`` percent (``rearm_chance``; seed 004: a rider must dismount
    to retrieve a weapon, so it ends on foot)."""
    st = cx.st
    got = cx.d100(rows.size) <= chance
    p, rows = at_rows(p, got), rows[got]
    slot = np.argmax(st.item_loose[:, p, rows], axis=0)
    st.item_loose[slot, p, rows] = False
    st.item_ok[slot, p, rows] = True
    put(st.wield, p, rows, slot)
    put(st.mounted, p, rows, False)


def break_off(cx: Ctx, p, rows: np.ndarray) -> None:
    """Seed 004: leave by a Dodge, or run and take one free unparried blow from each foe in
    reach."""
    st, S = cx.st, cx.S
    dodging = np.broadcast_to(S.break_off_dodge[p], rows.shape)
    if some(dodging):
        dp, dr = at_rows(p, dodging), rows[dodging]
        ok = cx.succeeds(S.dodge[dp], dr.size)
        put(st.status, at_rows(dp, ok), dr[ok], FLED)
        p, rows = at_rows(p, ~dodging), rows[~dodging]
    shoving = np.broadcast_to(S.break_off_knockback[p], rows.shape)
    if some(shoving):
        kp, kr = at_rows(p, shoving), rows[shoving]
        t = np.maximum(get(st.target, kp, kr), 0).astype(np.intp)
        near = ((get(st.target, kp, kr) != NO_TARGET) & (get(st.status, t, kr) == STANDING)
                & in_reach(cx, kp, t, kr))
        gone = ~near
        if some(near):
            np_, nr = at_rows(kp, near), kr[near]
            with_shield = (st.item_ok[OFF, np_, nr] & S.item_shield[OFF, np_]
                           & ~S.underwater[np_])
            gone[near] = melee_attack(cx, np_, t[near], nr, np.where(with_shield, OFF, FIST),
                                      KNOCKBACK, parriable=False)
        gone &= get(st.status, kp, kr) == STANDING
        put(st.status, at_rows(kp, gone), kr[gone], FLED)
        p, rows = at_rows(p, ~shoving), rows[~shoving]
    if not rows.size:
        return
    for q in range(st.status.shape[0]):
        foe = S.side[q] != S.side[p]
        if not some(foe):
            continue
        m = (foe & (get(st.status, q, rows) == STANDING) & in_reach(cx, q, p, rows)
             & (get(st.status, p, rows) == STANDING) & can_strike(cx, q, rows))
        if some(m):
            free_blow(cx, q, at_rows(p, m), rows[m])
    left = get(st.status, p, rows) == STANDING
    put(st.status, at_rows(p, left), rows[left], FLED)


def attack_action(cx: Ctx, p, rows: np.ndarray) -> None:
    """Attack the target if it stands: missiles, entangle, knock-back, disarm or a blow."""
    st, S = cx.st, cx.S
    if st.status.shape[0] == 2:
        t = 1 - p       # a duel: the one foe, as a scalar place (much cheaper to index);
        # the attacker stands, so it has a target while the foe does
        p, rows = at_each(st.status[t].take(rows) == STANDING, p, rows)
    else:
        t = get(st.target, p, rows).astype(np.intp)
        p, rows, t = at_each(t != NO_TARGET, p, rows, t)
        p, rows, t = at_each(get(st.status, t, rows) == STANDING, p, rows, t)
    if not rows.size:
        return
    slot = get(st.wield, p, rows).astype(np.intp)
    if cx.uses("missiles"):
        shot = item(S.item_kind, slot, p) != MELEE
        if some(shot):
            sp, r = at_rows(p, shot), rows[shot]
            fired = missile_volley(cx, sp, at_rows(t, shot), r)
            put(st.attacked, at_rows(sp, fired), r[fired], True)
            keep = ~shot
            p, rows, t, slot = at_rows(p, keep), rows[keep], at_rows(t, keep), slot[keep]
    if cx.uses("pounce") and rows.size:
        dive = get(st.airborne, p, rows) & (slot == MAIN) & st.item_ok[MAIN, p, rows]
        if some(dive):
            pounce(cx, at_rows(p, dive), at_rows(t, dive), rows[dive])
            keep = ~dive
            p, rows, t, slot = at_rows(p, keep), rows[keep], at_rows(t, keep), slot[keep]
        aloft = get(st.airborne, t, rows)     # nobody reaches a flyer still aloft hand to hand
        if some(aloft):
            p, rows, t, slot = at_rows(p, ~aloft), rows[~aloft], at_rows(t, ~aloft), slot[~aloft]
    if cx.uses("entangle") and rows.size and some(S.entangle[p]):
        tangler = entangle_slot(cx, p, rows)
        use = (tangler != NONE) & ~get(st.entangled, t, rows)
        use &= gap(cx, p, t, rows) <= S.item_range[np.maximum(tangler, 0), p]
        if some(use):
            up = at_rows(p, use)
            melee_attack(cx, up, at_rows(t, use), rows[use], tangler[use], ENTANGLE)
            put(st.attacked, up, rows[use], True)
            keep = ~use
            p, rows, t, slot = at_rows(p, keep), rows[keep], at_rows(t, keep), slot[keep]
    fight_now = in_reach(cx, p, t, rows)
    if cx.any_down:
        fight_now &= ~(get(st.down, p, rows) & item(S.item_two_handed, slot, p))
    if not fight_now.all():
        p, rows, t, slot = at_each(fight_now, p, rows, t, slot)
    if cx.fight.rules.hold_off and rows.size:
        held = held_off(cx, p, t, rows, slot)
        if some(held):      # seed 004: held off "entirely": no blow this round
            p, rows, t, slot = at_each(~held, p, rows, t, slot)
    if not rows.size:
        return
    put(st.attacked, p, rows, True)
    if cx.uses("giants") and some(S.giant[p] & (slot == MAIN)):
        big = S.giant[p] & (slot == MAIN)
        giant_blow(cx, at_rows(p, big), rows[big])
        p, rows, t, slot = at_rows(p, ~big), rows[~big], at_rows(t, ~big), slot[~big]
        if not rows.size:
            return
    knockback, disarm = S.knockback[p], S.disarm[p]
    if not (some(knockback) or some(disarm)):
        lengths = lengths_at_blow(cx, p, t, rows, slot) if cx.fight.rules.hold_off else None
        landed = melee_attack(cx, p, t, rows, slot, STRIKE)
        if lengths is not None:
            let_inside(cx, p, t, rows, lengths, landed)
        return
    mode = np.full(rows.size, STRIKE)
    if some(knockback):
        mode = np.where(knockback & ~get(st.down, t, rows), KNOCKBACK, mode)
    if some(disarm):
        held = get(st.wield, t, rows)
        armed = ~item(S.item_is_fist, held, t) & (held != FIST)
        mode = np.where(disarm & (mode == STRIKE) & armed, DISARM, mode)
    for code in (KNOCKBACK, DISARM, STRIKE):
        m = mode == code
        if not some(m):
            continue
        mp = at_rows(p, m)
        if code == KNOCKBACK:
            with_shield = (st.item_ok[OFF, mp, rows[m]] & S.item_shield[OFF, mp]
                           & ~S.underwater[mp])
            kslot = np.where(with_shield, OFF, FIST)
            melee_attack(cx, mp, at_rows(t, m), rows[m], kslot, KNOCKBACK, parriable=False)
        else:
            mt = at_rows(t, m)
            lengths = (lengths_at_blow(cx, mp, mt, rows[m], slot[m])
                       if cx.fight.rules.hold_off else None)
            landed = melee_attack(cx, mp, mt, rows[m], slot[m], code)
            if lengths is not None:
                let_inside(cx, mp, mt, rows[m], lengths, landed)


def pounce(cx: Ctx, p, t, rows: np.ndarray) -> None:
    """Seed 004, the pouncing stick: the flyer dives feet-first onto its target, striking
    with the stick's crossbar for double damage (triple on a critical); the stick is spent
    (it stays with the foe), and a Fly roll decides the landing: a success (or a critical:
    aloft again, but with no stick to pounce with) lands clear without a weapon in hand; a
    failure collapses near the foe for 1D6 (a fumble 2D6), down (see reference ``pounce``)."""
    st, S = cx.st, cx.S
    put(st.airborne, p, rows, False)
    put(st.pos, p, rows, get(st.pos, t, rows))
    melee_attack(cx, p, t, rows, np.full(rows.size, MAIN), STRIKE, pounce=True)
    st.item_ok[MAIN, p, rows] = False
    fall_back(cx, p, rows)
    landing = roll_level(cx, p, np.broadcast_to(S.fly[p], rows.shape))
    hard = landing <= tb.FAILURE
    if some(hard):
        hp, hr = at_rows(p, hard), rows[hard]
        dice = np.where(landing[hard] == tb.FUMBLE, 2, 1)
        harm = cx.rng.integers(1, 7, size=hr.size) + np.where(
            dice == 2, cx.rng.integers(1, 7, size=hr.size), 0)
        fall(cx, hp, hr)
        raw_harm(cx, hp, hr, harm)


def giant_blow(cx: Ctx, p, rows: np.ndarray) -> None:
    """Seed 004: giants "can strike several targets at once with a single step or a single
    blow": the blow is struck at every standing foe in reach, in scenario order (the lab:
    one attack roll per foe, each defending on its own; see reference ``giant_blow``)."""
    st, S = cx.st, cx.S
    for q in range(st.status.shape[0]):
        m = (S.side[p] != S.side[q]) & (get(st.status, q, rows) == STANDING)
        m &= (get(st.status, p, rows) == STANDING) & in_reach(cx, p, q, rows)
        if some(m):
            melee_attack(cx, at_rows(p, m), q, rows[m], np.full(int(m.sum()), MAIN), STRIKE)


# --- 6-7. extra attacks, end of round ------------------------------------------------------


def extra_attacks(cx: Ctx) -> None:
    """Seed 004: a DEX x 3 roll buys one more melee attack on the last DEX rank, at the
    lower of 50% and the chance; the next round's attacks are forfeited."""
    st, S = cx.st, cx.S
    c = st.status.shape[0]
    ready = st.status == STANDING
    for rank, p in ((rank, p) for rank in range(c - 1, -1, -1) for p in range(c)):
        if not S.extra_attack[p]:
            continue
        rows = np.flatnonzero(ready[p] & st.attacked[p] & (st.target[p] != NO_TARGET)
                              & (st.order[p] == rank))
        if not rows.size:
            continue
        t = get(st.target, p, rows).astype(np.intp)
        slot = get(st.wield, p, rows).astype(np.intp)
        ok = ((get(st.status, t, rows) == STANDING) & (item(S.item_kind, slot, p) == MELEE)
              & in_reach(cx, p, t, rows) & can_strike(cx, p, rows))
        rows, t, slot = rows[ok], t[ok], slot[ok]
        if not rows.size:
            continue
        won = cx.succeeds(3 * S.DEX[p], rows.size)
        if some(won):
            melee_attack(cx, p, t[won], rows[won], slot[won], STRIKE, extra=True)
            put(st.forfeit_next, p, rows[won], True)


def end_of_round(st: PercentileState, uses: frozenset[str] | None = None) -> None:
    """Defences reset; forfeits and dropped weapons carry one round; this round's marks
    clear (only those the fight's rules can set, when ``uses`` is given)."""
    st.defences[:] = 0
    st.forfeit[:] = st.forfeit_next
    st.forfeit_next[:] = False
    st.no_parry[:] = st.no_parry_next
    st.no_parry_next[:] = False
    if uses is None or "missiles" in uses:
        np.maximum(st.reload - 1, 0, out=st.reload, casting="unsafe")
    if uses is None or "distance" in uses:
        st.moved[:] = 0
        st.backed[:] = False
        st.charging[:] = False
    st.attacked[:] = False


