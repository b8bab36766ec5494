"""Group fights in the vectorised kernel (docs/rules/yags.md, Group fights): who attacks
whom under each fighter's target policy and the attacker limit, the second rank, and a
broken side running away through the free strikes of the foes it was fighting.

The choice itself is ``balance.engine.targeting.choose_targets``; the reference
(``reference/groups.py``) makes the same choices one fighter at a time.
"""

from __future__ import annotations

import numpy as np

from balance.engine.morale import flee, routing_sides
from balance.engine.pick import Pick
from balance.engine.sparse import flat_true
from balance.engine.state import columns
from balance.engine.status import STANDING
from balance.engine.targeting import (
    DANGEROUS,
    FIRST,
    FIXED,
    NEAREST,
    NO_TARGET,
    WEAKEST,
    choose_targets,
    first_standing_foe,
)
from balance.rules.yags.kernel import gear
from balance.rules.yags.kernel.static import Static
from balance.rules.yags.kernel.strikes import attack
from balance.rules.yags.kernel.turns import can_strike
from balance.rules.yags.rules.ranged import CONTACT


def targets(state, s: Static, standing: np.ndarray, chooses: np.ndarray, cols,
            rng: np.random.Generator,
            taken: np.ndarray | None = None,
            picks: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """The target of every place in trials ``cols`` (a slice or index array) that
    ``chooses``, and which of them attack from the second rank (None when nobody can).

    Targets are sticky (``state.target`` is last round's); at most ``max_attackers`` on one
    fighter (less ``taken``, (c, n): grapplers already on it); a second-rank fighter behind a
    standing front cannot be attacked, does not count against the limit and attacks only a
    foe its thrusting weapon out-reaches by two. Weakness is wound + stun level, danger the
    fighter's attack, nearness the distance on the line at a distance, then between places in
    the two sides' lines. ``picks``: ``chooses`` on the trials ``cols``, if the caller has it."""
    g = s.groups
    side, up = columns(state.side, cols), columns(standing, cols)
    if picks is None:
        picks = columns(chooses, cols)
    # Who sits where only for what reads it (``first``, ``fixed``, per-fighter numbers, the
    # second rank): a gather over every place; the others see a broadcast.
    reads_who = (not g.choosing or g.all_first or g.rank2.any() or bool(np.isin(
        g.policy, (FIRST, FIXED, DANGEROUS, NEAREST)).any()) or (g.policy != g.policy[0]).any())
    who = (columns(state.who, cols) if reads_who
           else np.broadcast_to(np.zeros((1, 1), dtype=np.int8), up.shape))
    if not g.choosing:
        first = first_standing_foe(side, who, up, s.n_sides)
        return np.where(picks, first, NO_TARGET).astype(np.int8), None
    if g.all_first and s.n_sides == 2 and taken is None and not g.rank2.any():
        return first_with_room(s, side, who, up, picks, columns(state.target, cols)), None
    mixed = bool((g.policy != g.policy[0]).any())
    # (Fighter indices only for what reads per-fighter numbers: a (c, m) intp array.)
    wi = (who.astype(np.intp) if mixed or g.rank2.any()
          or ((g.policy == DANGEROUS) | (g.policy == NEAREST)).any() else None)
    cap = np.broadcast_to(np.int16(g.max_attackers), up.shape)   # (one number: no array)
    # (None taken: the cap stays one number, docs/engine-tricks.md, work that cannot
    # change the answer.)
    if taken is not None and taken.any():
        cap = cap - columns(taken, cols)
    kw = dict(current=columns(state.target, cols), priority=g.priority, rng=rng,
              trials=None if isinstance(cols, slice) else cols)
    # (Only what the fighters' policies read: each costs a gather over every place.)
    if (g.policy == WEAKEST).any():
        kw.update(weakness=columns(state.wounds, cols) + columns(state.stuns, cols))
    if (g.policy == DANGEROUS).any():
        kw.update(danger=g.danger[wi])
    if (g.policy == NEAREST).any():   # metres on the line first, then places in the lines
        kw.update(line=g.line[wi])
    if s.on.distance:
        kw.update(position=columns(state.pos, cols))
    # One policy for all: a column that broadcasts, not a gather.
    policy = g.policy[wi] if mixed else g.policy[:1, None]
    if not g.rank2.any():
        return choose_targets(policy, side, who, up, picks, cap=cap, **kw), None
    rank2 = g.rank2[wi]
    front_up = np.stack([(up & ~rank2 & (side == k)).any(axis=0) for k in range(s.n_sides)])
    sheltered = rank2 & up & np.take_along_axis(front_up, side.astype(np.intp), axis=0)
    open_ = up & ~sheltered
    target = choose_targets(policy, side, who, open_, picks & ~sheltered, cap=cap, **kw)
    rear = picks & sheltered
    n_fighters = g.priority.shape[0]
    for i in range(up.shape[0]):
        if not rear[i].any():
            continue
        reaches = g.rank_ok[wi[i] * n_fighters + wi]       # (c, m): i can thrust at each place
        only = np.zeros_like(picks)
        only[i] = rear[i]
        mine = choose_targets(policy, side, who, open_ & reaches, only, **kw)
        target[i] = np.where(rear[i], mine[i], target[i])
    return target, rear & (target != NO_TARGET)


def first_with_room(s: Static, side, who, up, picks, current) -> np.ndarray:
    """``choose_targets`` for a two-sided fight where everyone's policy is ``first`` (the
    common case, and the 5-vs-5 benchmark), by counting instead of comparing keys: those who
    keep their target stay on it; the others of each side, in place order, fill the foes'
    room (the limit less those kept) in scenario order, the k-th taking the foe where the
    room summed so far first exceeds k. The same answer, several times faster."""
    g = s.groups
    c, m = up.shape
    cols = np.arange(m)
    upf = up.ravel()
    target = np.full((c, m), NO_TARGET, dtype=np.int8)
    kept = [np.zeros(0, dtype=np.intp)]
    for i in range(c):       # previous choices kept the limit, and only fewer remain on it
        t = current[i]
        if not (t >= 0).any():
            continue
        flat = np.maximum(t, 0).astype(np.intp) * m + cols
        keep = picks[i] & (t >= 0) & upf[flat]
        target[i] = np.where(keep, t, NO_TARGET)
        kept.append(flat[keep])
    count = np.bincount(np.concatenate(kept), minlength=c * m)
    room = np.where(upf, g.max_attackers - count, 0)
    place_of = np.empty((c, m), dtype=np.intp)
    place_of[who.astype(np.intp), cols] = np.arange(c)[:, None]
    place_of = place_of * m + cols                   # flat index of each fighter's place
    # Room summed over each side's fighters in scenario order.
    fighters = [flat_true(g.side_of == k) for k in range(2)]
    summed = []
    for f in fighters:
        total = np.zeros(m, dtype=np.int32)
        rows = []
        for k in f:
            total = total + room[place_of[k]]
            rows.append(total)
        summed.append(rows)
    ahead = [np.zeros(m, dtype=np.int32), np.zeros(m, dtype=np.int32)]  # choosers so far
    flat_place = place_of.ravel()
    for i in range(c):
        rows = flat_true(picks[i] & (target[i] == NO_TARGET))
        if not rows.size:
            continue
        at = rows
        if rows.size == m:            # everyone (round 1): views rather than gathers
            rows, at = slice(None), cols
        mine = side[i, rows] == 0               # side 0 chooses among side 1, and back
        rank = np.where(mine, ahead[0][rows], ahead[1][rows])
        pos = [sum(row[rows] <= rank for row in summed[k]) for k in range(2)]
        found = np.where(mine, pos[1] < fighters[1].size, pos[0] < fighters[0].size)
        foe = np.where(mine, fighters[1][np.minimum(pos[1], fighters[1].size - 1)],
                       fighters[0][np.minimum(pos[0], fighters[0].size - 1)])
        place = flat_place[foe * m + at] // m
        target[i, rows] = np.where(found, place, NO_TARGET)
        ahead[0][rows] += mine
        ahead[1][rows] += ~mine
    return target


def run_away(state, s: Static, ctx, rng: np.random.Generator) -> None:
    """End of round: every side whose share of fighters down reached its ``breaks_at``
    breaks, while a foe stands (all standing sides at once: the one least far past its
    point holds, ``balance.engine.morale``); each foe still able to strike that fought one
    of its standing fighters this round (attacked it, or was attacked by it) strikes at it
    once as it runs (seed 000: running away from a foe within reach draws a free strike;
    lab: with its back turned it does not defend), in place order; those still standing
    flee. At a distance, only a foe within melee distance strikes."""
    g = s.groups
    broken = routing_sides(state.status, state.side, g.breaks_at, rng)
    if not broken.any():
        return
    status = state.status
    c, n = status.shape
    running = (status == STANDING) & np.take_along_axis(broken, state.side.astype(np.intp),
                                                        axis=0)
    target, attacking = state.target, state.attacking
    places = np.arange(c, dtype=target.dtype)[:, None]
    for v in range(c):
        # (On the trials where v runs only: the few on their own path, docs/engine-tricks.md.)
        cols = flat_true(running[v])
        if not cols.size:
            continue
        # Who may strike at v, for every place k at once: a foe that fought it, not running
        # itself, standing. A strike at v changes only its striker's numbers and v's, so
        # these stay as they are through v's strikes but for k's own, after it; only v still
        # standing is asked again before each.
        fought = columns(target, cols) == v
        fought &= columns(attacking, cols)
        fought |= (target[v].take(cols) == places) & attacking[v].take(cols)
        if s.on.distance:   # and is within reach of it now
            fought &= np.abs(columns(state.pos, cols) - state.pos[v].take(cols)) <= CONTACT
        fought &= ~columns(running, cols)
        fought &= columns(status, cols) == STANDING
        fought &= columns(state.side, cols) != state.side[v].take(cols)
        fought[v] = False
        for k in flat_true(fought.any(axis=1)):
            due = fought[k] & (status[v].take(cols) == STANDING)
            rows = cols[flat_true(due)]
            if not rows.size:
                continue
            striker, victim = Pick(k, n, rows), Pick(v, n, rows)
            ok = can_strike(state, s, ctx, striker, victim)
            if not ok.any():
                continue
            rows = rows[ok]
            striker, victim = Pick(k, n, rows), Pick(v, n, rows)
            attack(state, s, ctx, np.ones(rows.size, dtype=bool), striker, victim,
                   np.zeros(rows.size, dtype=bool), rng)
            if s.on.any:
                gear.settle(state, s, ctx.rpen)
    flee(status, state.side, broken)
