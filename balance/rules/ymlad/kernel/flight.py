"""Yielding, running away and sides breaking in the vectorised Ymlad kernel (lab rules where
seed 002 is silent; docs/rules/ymlad.md, "Yielding, running away and breaking").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from balance.dice import drift
from balance.engine.breakdown import ATTACKS, DAMAGE_DEALT, DAMAGE_SOAKED, HITS, add_at
from balance.engine.morale import routing_sides
from balance.engine.pick import scattered
from balance.engine.sparse import flat_true
from balance.engine.status import FLED, STANDING, YIELDED
from balance.engine.targeting import turn_order
from balance.rules.ymlad.kernel.harm import _let_go, _release, inflict
from balance.rules.ymlad.rules.tables import (
    CLOSE,
    DISENGAGE_BONUS,
    FROM_REAR,
    MELEE,
    switch_costs_attack,
)

if TYPE_CHECKING:
    from balance.rules.ymlad.kernel.fight import Round, Static, YmladState


def end_of_round(s: Static, state: YmladState, rnd: Round, rng: np.random.Generator,
                 spent: np.ndarray | None = None, where: np.ndarray | None = None) -> None:
    """The last reactions of the round (:func:`react`, in trials ``where``, default all), then
    reloading ticks. ``spent`` (c, n) bool: who has had its turn (default: nobody, as before
    the attacks)."""
    if s.reacts:
        react(s, state, rnd, rng, spent, where)
    np.maximum(state.reload - 1, 0, out=state.reload, casting="unsafe")


def react(s: Static, state: YmladState, rnd: Round, rng: np.random.Generator,
          spent: np.ndarray | None, where: np.ndarray | None,
          before: np.ndarray | None = None) -> np.ndarray:
    """Fighters give up or run away (policy ``yield_at``, ``flee_at``: whichever level comes
    first on the track, yielding on a tie), then sides whose share of fighters down reached
    ``morale.breaks_at`` break: everyone of them still standing runs. Played after each group
    of equal initiative in trials ``where`` (n,) bool (None: all; the round passes only the
    trials where someone was harmed or fell), so a fighter reacts as soon as the harm is
    done. Lab: nobody yields or runs while no foe stands (the fight is won). ``before``
    (c, n), optional: the statuses when the group began; sides are then only checked where
    someone fell since. Returns the (n,) bool trials in which anything happened.
    """
    c, n = state.status.shape
    touched = np.zeros(n, dtype=bool)
    cols = np.arange(n) if where is None else flat_true(where)
    if not cols.size:
        return touched
    spent = np.zeros((c, n), dtype=bool) if spent is None else spent
    side = s.side_of[:, None]
    runs = yields = np.zeros((c, cols.size), dtype=bool)
    rows = s.gives_up                  # the fighters with a yield_at or flee_at
    if rows.size:
        standing = state.status[:, cols] == STANDING
        foe_up = _foes_standing(s, standing, rows)
        sub = np.ix_(rows, cols)
        total = state.body[sub] + state.brief[sub] + state.grapple[sub]
        give_up = total >= s.yield_at[rows, None]
        run = total >= s.flee_at[rows, None]
        first = (s.yield_at <= s.flee_at)[rows, None]
        runs, yields = runs.copy(), yields.copy()
        runs[rows] = standing[rows] & foe_up & run & ~(give_up & first)
        yields[rows] = standing[rows] & foe_up & give_up & ~runs[rows]
    if yields.any():
        full = scattered(yields, cols, n)
        touched |= full.any(axis=0)
        state.status[full] = YIELDED
        _let_go(s, state, flat_true(full.ravel()))
    if runs.any():
        full = scattered(runs, cols, n)
        touched |= full.any(axis=0)
        run_away(s, state, rnd, full, spent, rng)
        state.status[full & (state.status == STANDING)] = FLED
    if before is not None:
        fell = (state.status[:, cols] != before[:, cols]).any(axis=0)
        cols = cols[fell]
    if cols.size and any(b is not None for b in s.breaks_at):
        status = state.status[:, cols]
        standing = status == STANDING
        # only while a foe stands; a mutual rout: the side least past its point holds
        broken = routing_sides(status, np.broadcast_to(side, status.shape), list(s.breaks_at),
                               rng)
        fleeing = standing & broken[s.side_of]
        if fleeing.any():
            full = scattered(fleeing, cols, n)
            touched |= full.any(axis=0)
            run_away(s, state, rnd, full, spent, rng)
            # balance.engine.morale.flee, on the trials at hand: the broken side's standing run.
            status = state.status[:, cols]
            status[fleeing & (status == STANDING)] = FLED
            state.status[:, cols] = status
    return touched


def _foes_standing(s: Static, standing: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """(len(rows), m) bool: does some foe of each fighter ``rows`` still stand? Each side's
    rows of ``standing`` reduced on their own (no (c, m) side masks); with two sides, the
    other side's."""
    up = np.stack([standing[s.side_of == k].any(axis=0) for k in range(s.n_sides)])
    if s.n_sides == 2:
        return up[1 - s.side_of[rows]]
    return (up.sum(axis=0) - up[s.side_of[rows]]) > 0


def run_away(s: Static, state: YmladState, rnd: Round, who: np.ndarray, spent: np.ndarray,
             rng: np.random.Generator) -> None:
    """Fighters ``who`` (c, n) turn to run, one after another in a uniformly random order per
    trial (lab, never listing order; the seed gives no free attacks, docs/rules/ymlad.md,
    Running away):

    * one that holds a pinned foe lets go (the foe gets up); one held in close combat must
      first disengage (seed, Close: a harmless close-combat attack, +4 with room to retreat
      and free of grappling harm); failing, it is pinned and gives up (yielded);
    * then each foe that attacks it from the front line this round, still standing, not in
      close combat and with its attack not yet spent (seed, Rounds: "one attack" a round;
      ``spent``), strikes once at its back, spending its attack: a melee attack from the
      rear (seed, Angle: -2, no shield), no group bonus, with its melee weapon (under
      ``rules.weapon_switch: attack`` one that must take it up spends the blow doing so).
      The strikers, too, come in a random order: ``rules.parting_blows: all`` (once the
      runner falls the rest keep their attack); ``one``: only the first of them, a uniform
      pick; ``none``.

    Whoever is still standing afterwards gets away; the caller marks them.
    """
    c = state.status.shape[0]
    cols = flat_true(who.any(axis=0))
    if not cols.size:
        return
    fleeing = who[:, cols]
    order = turn_order(c, cols.size, rng, first=fleeing)
    for k in range(int(fleeing.sum(axis=0).max())):      # the k-th runner of each trial
        f = order[k]
        up = fleeing[f, np.arange(cols.size)] & (state.status[f, cols] == STANDING)
        if up.any():
            _turn_to_run(s, state, rnd, f[up], cols[up], spent, rng)


def _turn_to_run(s: Static, state: YmladState, rnd: Round, f: np.ndarray, idx: np.ndarray,
                 spent: np.ndarray, rng: np.random.Generator) -> None:
    """Fighters ``f`` (one per trial ``idx``, both (m,)) let go, disengage and take their
    parting blows (:func:`run_away`)."""
    n = state.status.shape[1]
    held = flat_true(state.close_with[f, idx] >= 0)
    i, fi = idx[held], f[held]
    if i.size:
        p = state.close_with[fi, i].astype(np.intp)
        down = state.status.ravel()[p * n + i] != STANDING
        if down.any():      # it lets go of a foe it had pinned, who gets up again
            _let_go(s, state, fi[down] * n + i[down])
            i, fi, p = i[~down], fi[~down], p[~down]
    if i.size:
        eff = s.effort[CLOSE, fi, p] + state.penalty[fi, i]
        if s.room:
            eff = eff + (state.grapple[fi, i] == 0) * DISENGAGE_BONUS
        res = s.resistance[CLOSE, 0, p] + state.penalty.ravel()[p * n + i]
        ok = eff - res + drift(rng, i.size, cols=i) >= 0
        if state.counts is not None:   # the breakdown: a disengaging roll, as in kernel.act
            add_at(state, ATTACKS, fi * n + i)
            add_at(state, HITS, fi[ok] * n + i[ok])
        if ok.any():
            _release(s, state, fi[ok], i[ok], p[ok])
        if not ok.all():
            pinned = fi[~ok] * n + i[~ok]
            state.status.ravel()[pinned] = YIELDED
            _let_go(s, state, pinned)
    if s.parting == "none":
        return
    c = state.status.shape[0]
    # The foes who may strike at its back (their state does not change while it is struck).
    strikers = (rnd.ring.ring[:, idx] & (rnd.target[:, idx] == f) & ~spent[:, idx]
                & (state.status[:, idx] == STANDING) & (state.close_with[:, idx] < 0)
                & (state.status[f, idx] == STANDING))
    most = int(strikers.sum(axis=0).max())
    if s.parting == "one":
        most = min(most, 1)     # the first in the random order: a uniform pick
    order = turn_order(c, idx.size, rng, first=strikers) if most else None
    for k in range(most):                               # the k-th striker of each trial
        g = order[k]
        strikes = strikers[g, np.arange(idx.size)] & (state.status[f, idx] == STANDING)
        hit, gh, fh = idx[strikes], g[strikes], f[strikes]
        if not hit.size:
            continue
        spent[gh, hit] = True
        if s.switch_attack:       # taking up its melee weapon may take the blow's time
            wanted = s.weapon_id[MELEE, gh]
            free = ~switch_costs_attack(state.held[gh, hit], wanted, True)
            state.held[gh, hit] = wanted
            hit, gh, fh = hit[free], gh[free], fh[free]
        eff = s.effort[MELEE, gh, fh] + state.penalty[gh, hit]
        res = s.resistance[MELEE, FROM_REAR, fh] + state.penalty[fh, hit]
        ok = eff - res + drift(rng, hit.size, cols=hit) >= 0
        if state.counts is not None:   # the breakdown: a parting blow, as in kernel.act
            add_at(state, ATTACKS, gh * n + hit)
            add_at(state, HITS, gh[ok] * n + hit[ok])
        hit, gh, fh = hit[ok], gh[ok], fh[ok]
        if not hit.size:
            continue
        rolled = drift(rng, hit.size, cols=hit)
        harm = np.maximum(s.margin[MELEE, 0, gh, fh] + rolled, 0)
        landed = flat_true(harm)
        if state.counts is not None:   # harm dealt and armour's share (as in kernel.act)
            add_at(state, DAMAGE_DEALT, gh[landed] * n + hit[landed], harm[landed])
            add_at(state, DAMAGE_SOAKED, gh * n + hit,
                   np.maximum(s.margin_bare[MELEE, 0, gh, fh] + rolled, 0) - harm)
        if landed.size:
            inflict(s, state, hit[landed], fh[landed], s.kind[MELEE, gh, fh][landed],
                    harm[landed])
