"""Group fights in the vectorised percentile kernel: who attacks whom, blows from the side,
and sides that break and run (docs/rules/percentile.md, Group fights).

Arrays are (n_places, n_trials) like every kernel array; place k is fighter k. Loops run over
places and attackers-per-target classes only. The choice of a target is the engine's
:func:`balance.engine.targeting.choose_targets`; this module decides who chooses, in which
order and under which cap. ``reference/groups.py`` plays the same rules one fight at a time.
"""

from __future__ import annotations

import numpy as np

from balance.engine.morale import flee, routing_sides
from balance.engine.pick import some
from balance.engine.prepared import once
from balance.engine.sparse import flat_true
from balance.engine.status import STANDING
from balance.engine.targeting import (
    DANGEROUS,
    NO_TARGET,
    WEAKEST,
    attacker_rank,
    choose_targets,
    counting,
    order_of,
    turn_keys,
)
from balance.rules.percentile.compile import MELEE
from balance.rules.percentile.kernel.strike import Ctx, can_strike, free_blow, in_reach
from balance.rules.percentile.rules import tables as tb

REACH_EPS = 1e-6        # as ``kernel.strike.in_reach``: positions are float32
# Where at least this share of the trials has a fighter without a target, the choice is
# made over every trial (views) rather than on the gathered trials with one: the same
# choices and draws, because in a trial where every standing fighter keeps its target
# nobody chooses in ``choose_targets`` (each holder keeps under a cap of at least its
# foe's count of holders) and nothing is drawn for it; gathering and scattering a dozen
# (c, n) arrays costs more than the extra columns (docs/engine-tricks.md, asking a shared
# helper about the trials that draw; P6 in docs/speed-log.md).
CHOOSE_ALL_AT = 0.5


# --- who attacks whom ----------------------------------------------------------------------


def choose_group_targets(cx: Ctx) -> None:
    """Each standing fighter's target for this round (three or more fighters).

    Targets are kept until they fall: a fighter keeps last round's target while it stands
    and, for a melee weapon, while fewer than that weapon's attackers-per-target limit (in
    the target's space) engage it among the keepers before it, in a random order. The others
    choose by their policy, melee fighters grouped by their weapon's limits row (the
    smallest row first, then in a random order) among the foes still under their own limit,
    then shooters (never limited, and never counted as engaging). No foe left: it waits.

    The fixed tables are read a place's row at a time (``by_slot``) and each target's
    numbers by c comparisons in the arrays' own narrow dtypes (``of_target``): no (c, n)
    intp index arrays (docs/engine-tricks.md, narrow reads of a few places).
    """
    st, S = cx.st, cx.S
    c, n = st.status.shape
    g = group_tables(S)
    standing = st.status == STANDING
    melee = by_slot(g.melee, st.wield)
    cur = st.target
    aim = np.maximum(cur, 0)                  # (int8: -1 reads as place 0, masked below)
    eq = aims(aim)
    keep = standing & (cur != NO_TARGET)
    keep &= of_target(standing, eq)
    if S.limits_bind:
        # who keeps a target that more keepers engage than a limit allows (a foe now in a
        # corridor, a longer weapon drawn): the seed leaves it open; a random order in each
        # trial (``turn_order``), never scenario order
        limit = _limit(g, st.wield, eq)
        # ``turn_order``'s draw for every trial (the stream: ``turn_keys``), the order only
        # where it is used (``order_of``)
        keys = turn_keys(c, n, cx.rng)
        # Where no melee keeper's target has more melee keepers than that keeper's limit,
        # each keeps whatever the order (the k-th has fewer than the limit before it); the
        # one-at-a-time pass runs on the other trials only (docs/engine-tricks.md, asking a
        # shared helper about the trials that draw; ranks by pairwise comparisons).
        hold = keep & melee
        held = (cur + 1) * hold
        held -= 1
        on = np.empty((c, n), dtype=np.int16)     # (docs/engine-tricks.md, narrow counts)
        for j in range(c):
            (held == j).view(np.int8).sum(axis=0, dtype=np.int16, out=on[j])
        hold &= of_target(on, eq) > limit
        over = flat_true(hold.any(axis=0))
        if over.size:
            m = over.size
            sub = np.arange(m)
            keeps = keep[:, over].reshape(-1)
            hand = melee[:, over].reshape(-1)
            cells = (aim[:, over].astype(np.intp) * m + sub).reshape(-1)
            limit = limit[:, over].reshape(-1)
            engaged = np.zeros(c * m, dtype=np.int16)
            for p in order_of(keys[:, over]):    # the k-th keeper of every trial
                at = p * m + sub
                h = hand.take(at)
                cell_t = cells.take(at)
                ok = engaged.take(cell_t) < limit.take(at)
                k = keeps.take(at)
                keeps.put(at, k & (ok | ~h))
                engaged[cell_t] += k & h & ok     # (one keeper a trial: no repeats)
            keep[:, over] = keeps.reshape(c, m)
    target = (cur + 1) * keep                  # cur where kept, else NO_TARGET (-1)
    target -= 1
    free = standing & ~keep
    if some(free):
        on = free.any(axis=0)
        if np.count_nonzero(on) >= n * CHOOSE_ALL_AT:   # views, no gathers
            target = _choose(cx, None, target, free, melee, standing, st.wield)
        else:
            cols = flat_true(on)
            target[:, cols] = _choose(cx, cols, target[:, cols], free[:, cols],
                                      melee[:, cols], standing[:, cols], st.wield[:, cols])
    st.target[:] = target


class GroupTables:
    """A fight's fixed numbers as the group choice reads them (built once per fight from
    ``Static``): (item slot, place) tables for ``by_slot``, the limits a space at a time,
    and which places' policies count the attackers already on each foe
    (``balance.engine.targeting.counting``, asked place by place)."""

    def __init__(self, S) -> None:
        c = S.c
        self.melee = S.item_kind == MELEE                            # (4, c)
        self.space_class = S.space_class
        self.spaces = sorted({int(x) for x in S.space_class})
        self.limits_in = {sp: np.ascontiguousarray(S.limits[:, :, sp]) for sp in self.spaces}
        self.limit_class_by_slot = S.item_limit_class.astype(np.int8)   # (4, c)
        self.counting = np.array([counting(S.target[p:p + 1]) for p in range(c)], dtype=bool)
        self.weakest = bool((S.target == WEAKEST).any())
        self.dangerous = bool((S.target == DANGEROUS).any())
        self.threat = np.ascontiguousarray(S.item_threat)            # (4, c)
        self.policy = S.target[:, None]
        self.side = S.side[:, None]
        self.who = np.arange(c, dtype=np.int8)[:, None]
        self.corridor = S.space_class == tb.CORRIDOR


def group_tables(S) -> GroupTables:
    """``GroupTables`` of a fight's ``Static``, built at first use and kept while the
    ``Static`` lives (``balance.engine.prepared.once``: nothing cached on it)."""
    return once(GroupTables, S)


def by_slot(table: np.ndarray, wield: np.ndarray) -> np.ndarray:
    """(c, n) ``table[wield[p, k], p]`` of a (4, c) item table: one row's ``take`` a place
    (docs/engine-tricks.md, narrow reads of a few places)."""
    c, n = wield.shape
    out = np.empty((c, n), dtype=table.dtype)
    for p in range(c):
        table[:, p].take(wield[p], out=out[p])
    return out


def of_target(x: np.ndarray, aim: np.ndarray | list) -> np.ndarray:
    """(c, n) ``x[aim[i, k], k]``: each place's target's number (``aim`` int8 places 0..c-1,
    or its ``aims`` masks) by c comparisons in the arrays' own dtypes, no intp cells
    (docs/engine-tricks.md, narrow reads of a few places)."""
    eq = aims(aim) if isinstance(aim, np.ndarray) else aim
    out = np.zeros(eq[0].shape, dtype=x.dtype)
    for j, at in enumerate(eq):
        if x.dtype == np.bool_:
            out |= at & x[j]
        else:
            out += at * x[j]
    return out


def aims(aim: np.ndarray) -> list[np.ndarray]:
    """``[aim == j for each place j]``: the masks ``of_target`` reads, made once for several
    reads through the same targets."""
    return [aim == j for j in range(aim.shape[0])]


def _limit(g: GroupTables, wield: np.ndarray, aim: list) -> np.ndarray:
    """(c, n) each place's limit for its weapon in its target's space (``Static.limits``
    read as ``limits[wield, place, space_class[target]]``), a space at a time (``aim``: the
    targets' ``aims`` masks)."""
    limit = None
    for sp in g.spaces:
        mine = by_slot(g.limits_in[sp], wield)
        if len(g.spaces) == 1:
            return mine
        there = np.zeros(aim[0].shape, dtype=bool)
        for j in np.flatnonzero(g.space_class == sp):
            there |= aim[j]
        limit = mine * there if limit is None else limit + mine * there
    return limit


def _col(a: np.ndarray, cols: np.ndarray | None) -> np.ndarray:
    return a if cols is None else a[:, cols]


def _choose(cx: Ctx, cols: np.ndarray | None, target: np.ndarray, free: np.ndarray,
            melee: np.ndarray, standing: np.ndarray, wield: np.ndarray) -> np.ndarray:
    """The choices of the ``free`` places on trials ``cols`` (arrays here are (c, len(cols));
    ``cols`` None: every trial, the arrays the state's own).

    A newcomer must join a foe exactly while fewer than its *own* limit engage it, and
    ``spread`` must count the fighters who keep their targets. So with ``spread`` among the
    choosers, every current holder of a target is passed to ``choose_targets`` as sticky
    (all are kept: each foe's cap is raised to at least its count of holders); otherwise
    only the newcomers choose, under each foe's limit less its holders (the same choice,
    without the engine's pass over every holder).
    """
    st, S = cx.st, cx.S
    g = group_tables(S)
    c = target.shape[0]
    kw = {"position": _col(st.pos, cols), "priority": S.priority, "rng": cx.rng}
    if g.weakest:
        kw["weakness"] = -_col(st.hp, cols).astype(np.float64)      # fewest hit points left
    if g.dangerous:
        kw["danger"] = by_slot(g.threat, wield)

    def pick(target, holders, movers, standing, limit, kw):
        spread = some(g.counting & movers.any(axis=1))   # spread, engage: see all holders
        cap = None
        if limit is not None:
            # the holders on each foe, by c comparisons in a narrow dtype (docs/engine-tricks.md,
            # narrow counts)
            held = (target + 1) * holders
            held -= 1
            on = np.empty(target.shape, dtype=np.int16)
            for j in range(c):
                (held == j).view(np.int8).sum(axis=0, dtype=np.int16, out=on[j])
            cap = np.maximum(limit[:, None], on)
            if not spread:
                cap -= on
        if spread:
            got = choose_targets(g.policy, g.side, g.who, standing, holders | movers,
                                 current=target, cap=cap, **kw)
        else:
            got = choose_targets(g.policy, g.side, g.who, standing, movers, cap=cap, **kw)
        got -= target                              # target where not moving, by arithmetic
        got *= movers                              # (docs/engine-tricks.md, arithmetic)
        got += target
        return got

    def choose(holders, movers, limit):
        # On the trials where these movers are, gathered, when they are few; else on every
        # trial: the same choices and draws (``CHOOSE_ALL_AT``; docs/engine-tricks.md, asking
        # a shared helper about the trials that draw)
        mv = movers.any(axis=0)
        if np.count_nonzero(mv) >= mv.size * CHOOSE_ALL_AT:
            return pick(target, holders, movers, standing, limit, kw)
        sub = flat_true(mv)
        part = pick(target[:, sub], holders[:, sub], movers[:, sub], standing[:, sub], limit,
                    {k: v[:, sub] if isinstance(v, np.ndarray) and k != "priority" else v
                     for k, v in kw.items()})
        out = target.copy()
        out[:, sub] = part
        return out

    free_melee = free & melee
    if some(free_melee):
        cls = by_slot(g.limit_class_by_slot, wield)
        for k in range(len(S.limit_classes)):          # smallest row first
            movers = free_melee & (cls == k)
            if not some(movers):
                continue
            limit = S.limit_classes[k][S.space_class] if S.limits_bind else None
            target = choose((target != NO_TARGET) & melee, movers, limit)
    shooters = free & ~melee
    if some(shooters):
        target = choose(target != NO_TARGET, shooters, None)
    return target


# --- blows from the side ---------------------------------------------------------------------


def side_attacks(cx: Ctx) -> None:
    """Which melee attackers strike their target from the side this round (after movement).

    A fighter faces ``rules.faces`` of the attackers in reach of it with melee weapons: its
    own target first (if that one attacks it), then the others in a random order (lab:
    ``balance.engine.targeting.attacker_rank``, never listing order); the rest strike from
    the side (``rules.side_attack_bonus``), except at a fighter in a corridor (seed 004: a
    choke point shields the defender's flanks).
    """
    st, S = cx.st, cx.S
    g = group_tables(S)
    who = g.who                                # place numbers in the targets' dtype
    # each place's target's numbers by comparisons (docs/engine-tricks.md, narrow reads of
    # a few places)
    aim = aims(np.maximum(st.target, 0))
    att = (st.status == STANDING) & (st.target != NO_TARGET)
    att &= by_slot(g.melee, st.wield)
    att &= np.abs(st.pos - of_target(st.pos, aim)) <= (cx.fight.rules.reach + REACH_EPS)
    back = of_target(st.target, aim)           # my target's target
    facing_me = back == who
    mutual = att & facing_me                   # I am the one it faces
    # does each fighter's own target attack it? (then that one is faced first)
    faced_first = (st.target != NO_TARGET) & of_target(att, aim)
    faced_first &= facing_me
    others = att & ~mutual
    rank = of_target(faced_first, aim).view(np.int8).astype(np.int16)
    # ``attacker_rank`` orders (and draws for) only the trials where two or more place
    # attack from the side: asked about those trials alone (counted in bytes), it draws
    # the same numbers, and the rest (most trials of a fight of pairs) costs nothing
    # (docs/engine-tricks.md, asking a shared helper about the trials that draw)
    two = others.view(np.int8).sum(axis=0, dtype=np.int8) >= 2
    if some(two):
        sub = flat_true(two)
        rank[:, sub] += attacker_rank(st.target[:, sub], others[:, sub], cx.rng)
    sheltered = None
    for j in np.flatnonzero(g.corridor):
        sheltered = aim[j] if sheltered is None else sheltered | aim[j]
    others &= rank >= cx.fight.rules.faces
    if sheltered is not None:
        others &= ~sheltered
    st.flank[:] = others


# --- morale ------------------------------------------------------------------------------------


def rout(cx: Ctx) -> None:
    """End of round: a side whose share of fighters out of the fight has reached its
    ``morale.breaks_at`` breaks, while a foe still stands (if every side standing breaks at
    once, the one least far past its break point holds: ``balance.engine.morale``, so a
    mutual rout is not a draw). Each of its standing fighters, in scenario order, takes one
    free blow (no parry; a Dodge may avoid it: ``kernel.strike.free_blow``) from every foe
    in reach who is not running itself (seed 004, breaking off by running); then all of
    them have fled."""
    st, S = cx.st, cx.S
    c = st.status.shape[0]
    standing = st.status == STANDING
    broken = routing_sides(st.status, st.side, list(cx.fight.breaks_at), cx.rng)
    if not broken.any():
        return
    running = standing & broken[S.side]
    for p in np.flatnonzero(running.any(axis=1)):
        runs = flat_true(running[p])            # (the same rows, found once for every foe)
        for q in range(c):
            if S.side[q] == S.side[p]:
                continue
            rows = runs.take(flat_true(~running[q].take(runs)))
            if not rows.size:
                continue
            m = ((st.status[p].take(rows) == STANDING) & (st.status[q].take(rows) == STANDING)
                 & in_reach(cx, q, p, rows) & can_strike(cx, q, rows))
            if some(m):
                free_blow(cx, q, p, rows.take(flat_true(m)))
    flee(st.status, st.side, broken)
