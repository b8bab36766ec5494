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
from balance.engine.status import STANDING
from balance.engine.targeting import (
    DANGEROUS,
    NO_TARGET,
    WEAKEST,
    attacker_rank,
    choose_targets,
    counting,
    turn_order,
)
from balance.rules.percentile.compile import MELEE
from balance.rules.percentile.kernel.strike import Ctx, can_strike, free_blow, in_reach
from balance.rules.percentile.rules import tables as tb

REACH_EPS = 1e-6        # as ``kernel.strike.in_reach``: positions are float32


# --- who attacks whom ----------------------------------------------------------------------


def choose_group_targets(cx: Ctx) -> None:
    """Each standing fighter's target for this round (three or more fighters).

    Targets are kept until they fall: a fighter keeps last round's target while it stands
    and, for a melee weapon, while fewer than that weapon's attackers-per-target limit (in
    the target's space) engage it among the keepers before it, in a random order. The others
    choose by their policy, melee fighters grouped by their weapon's limits row (the
    smallest row first, then in a random order) among the foes still under their own limit,
    then shooters (never limited, and never counted as engaging). No foe left: it waits.
    """
    st, S = cx.st, cx.S
    c, n = st.status.shape
    standing = st.status == STANDING
    places = np.arange(c)[:, None]
    melee = S.item_kind[st.wield, places] == MELEE
    cur = st.target
    tgt = np.maximum(cur, 0).astype(np.intp)
    keep = standing & (cur != NO_TARGET) & np.take_along_axis(standing, tgt, axis=0)
    if S.limits_bind:
        # who keeps a target that more keepers engage than a limit allows (a foe now in a
        # corridor, a longer weapon drawn): the seed leaves it open; a random order in each
        # trial (``turn_order``), never scenario order
        limit = S.limits[st.wield, places, S.space_class[tgt]].reshape(-1)
        engaged = np.zeros(c * n, dtype=np.int16)
        keeps, hand, aim = keep.reshape(-1), melee.reshape(-1), tgt.reshape(-1)
        cols = np.arange(n)
        for p in turn_order(c, n, cx.rng):        # the k-th keeper of every trial
            at = p * n + cols
            m = keeps[at] & hand[at]
            cell = aim[at] * n + cols
            ok = engaged[cell] < limit[at]
            keeps[at] &= ok | ~hand[at]
            engaged[cell] += m & ok
    target = np.where(keep, cur, NO_TARGET).astype(np.int8)
    free = standing & ~keep
    if free.any():
        cols = np.flatnonzero(free.any(axis=0))
        target[:, cols] = _choose(cx, cols, target[:, cols], free[:, cols], melee[:, cols],
                                  standing[:, cols])
    st.target[:] = target


def _choose(cx: Ctx, cols: np.ndarray, target: np.ndarray, free: np.ndarray,
            melee: np.ndarray, standing: np.ndarray) -> np.ndarray:
    """The choices of the ``free`` places on trials ``cols`` (arrays here are (c, len(cols))).

    A newcomer must join a foe exactly while fewer than its *own* limit engage it, and
    ``spread`` must count the fighters who keep their targets. So with ``spread`` among the
    choosers, every current holder of a target is passed to ``choose_targets`` as sticky
    (all are kept: each foe's cap is raised to at least its count of holders); otherwise
    only the newcomers choose, under each foe's limit less its holders (the same choice,
    without the engine's pass over every holder).
    """
    st, S = cx.st, cx.S
    c = target.shape[0]
    places = np.arange(c)[:, None]
    policy = S.target[:, None]
    side = S.side[:, None]
    who = places.astype(np.int8)
    kw = {"position": st.pos[:, cols], "priority": S.priority, "rng": cx.rng}
    if (S.target == WEAKEST).any():
        kw["weakness"] = -st.hp[:, cols].astype(np.float64)      # fewest hit points left
    if (S.target == DANGEROUS).any():
        kw["danger"] = S.item_threat[st.wield[:, cols], places]

    def choose(holders, movers, limit):
        spread = counting(S.target[movers.any(axis=1)])   # spread, engage: see all holders
        cap = None
        if limit is not None:
            on = np.stack([(holders & (target == j)).sum(axis=0) for j in range(c)])
            cap = (np.maximum(limit[:, None], on) - (0 if spread else on)).astype(np.int16)
        if spread:
            got = choose_targets(policy, side, who, standing, holders | movers,
                                 current=target, cap=cap, **kw)
        else:
            got = choose_targets(policy, side, who, standing, movers, cap=cap, **kw)
        return np.where(movers, got, target).astype(np.int8)

    free_melee = free & melee
    if free_melee.any():
        cls = S.item_limit_class[st.wield[:, cols], places]
        for k in np.unique(cls[free_melee]):
            limit = S.limit_classes[k][S.space_class] if S.limits_bind else None
            target = choose((target != NO_TARGET) & melee, free_melee & (cls == k), limit)
    shooters = free & ~melee
    if shooters.any():
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
    places = np.arange(st.status.shape[0])[:, None]
    tgt = np.maximum(st.target, 0).astype(np.intp)
    att = ((st.status == STANDING) & (st.target != NO_TARGET)
           & (S.item_kind[st.wield, places] == MELEE))
    att &= np.abs(st.pos - np.take_along_axis(st.pos, tgt, axis=0)) <= (
        cx.fight.rules.reach + REACH_EPS)
    back = np.take_along_axis(st.target, tgt, axis=0)          # my target's target
    mutual = att & (back == places)                             # I am the one it faces
    # does each fighter's own target attack it? (then that one is faced first)
    faced_first = ((st.target != NO_TARGET) & np.take_along_axis(att, tgt, axis=0)
                   & (np.take_along_axis(st.target, tgt, axis=0) == places))
    others = att & ~mutual
    rank = attacker_rank(st.target, others, cx.rng) + np.take_along_axis(faced_first, tgt, axis=0)
    sheltered = (S.space_class == tb.CORRIDOR)[tgt]
    st.flank[:] = others & (rank >= cx.fight.rules.faces) & ~sheltered


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
        for q in range(c):
            if S.side[q] == S.side[p]:
                continue
            rows = np.flatnonzero(running[p] & ~running[q])
            if not rows.size:
                continue
            m = ((st.status[p, rows] == STANDING) & (st.status[q, rows] == STANDING)
                 & in_reach(cx, q, p, rows) & can_strike(cx, q, rows))
            if m.any():
                free_blow(cx, q, p, rows[m])
    flee(st.status, st.side, broken)
