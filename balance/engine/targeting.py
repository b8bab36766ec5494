"""Who attacks whom: target choices shared by every rule system.

Arrays are (n_places, n_trials), as everywhere in the engine. ``side`` and ``who`` say which
side and which fighter (scenario order) sits in each place; a rule system that does not
reorder fighters passes ``who = arange(c)[:, None]`` broadcast to (c, n).

Every policy but ``first`` is order-free: a fight's result does not depend on the order the
scenario lists fighters or sides in. Free places choose in a random order (one uniform
permutation per trial and call, from the ``rng`` passed in) and ties between equally good
foes go to a uniform random draw. ``first`` keeps the old, order-dependent behaviour (first
standing foe in scenario order, choosers in place order). The scalar references make the
same choices through :mod:`balance.engine.targeting_scalar`; docs/engine.md, "Targeting".
"""

from __future__ import annotations

import numpy as np

NO_TARGET = -1


def first_standing_foe(side: np.ndarray, who: np.ndarray, standing: np.ndarray,
                   n_sides: int) -> np.ndarray:
    """(c, n) int8: each place's target, the place of its first standing foe in scenario
    order (lowest fighter index), or -1 when no foe stands."""
    c, n = standing.shape
    none = np.int8(np.iinfo(np.int8).max)
    place_of = np.empty((c, n), dtype=np.int8)          # place of each fighter
    cols = np.arange(n)
    for place in range(c):
        place_of[who[place], cols] = place
    target = np.full((c, n), NO_TARGET, dtype=np.int8)
    for s in range(n_sides):
        excluded = ~(standing & (side != s))
        first = np.maximum(who, excluded * none).min(axis=0)    # lowest standing foe
        found = first != none
        pick = place_of.ravel()[np.where(found, first, 0).astype(np.intp) * n + cols]
        mine = side == s
        target = np.where(mine, np.where(found, pick, NO_TARGET), target).astype(np.int8)
    return target


# Target policies (a fighter's ``policy.target``).
FIRST, WEAKEST, DANGEROUS, NEAREST, SPREAD, RANDOM, FIXED, ENGAGE = range(8)
POLICIES = {"first": FIRST, "weakest": WEAKEST, "dangerous": DANGEROUS, "nearest": NEAREST,
            "spread": SPREAD, "random": RANDOM, "fixed": FIXED, "engage": ENGAGE}
# Policies that weigh the attackers already on each foe (and, for ``engage``, whom each foe
# attacks): a caller must pass every holder of a target as a chooser with ``current``, so
# the engine sees them, rather than only the newcomers under a reduced cap.
COUNTING = (SPREAD, ENGAGE)
UNLIMITED = np.iinfo(np.int16).max
# ``engage``: a foe attacking the chooser comes before any other (this many attackers).
ENGAGED_FIRST = float(2 ** 20)
# ``nearest`` with a ``line``: a metre of ``position`` outweighs any difference of places.
NEAR_WEIGHT = 1000.0


def counting(policy: np.ndarray) -> bool:
    """Does any of these policies weigh the attackers already on each foe?"""
    return bool(np.isin(policy, COUNTING).any())


def choose_targets(policy: np.ndarray, side: np.ndarray, who: np.ndarray,
                   standing: np.ndarray, chooses: np.ndarray, *,
                   current: np.ndarray | None = None, cap: np.ndarray | None = None,
                   weakness: np.ndarray | None = None, danger: np.ndarray | None = None,
                   position: np.ndarray | None = None, priority: np.ndarray | None = None,
                   line: np.ndarray | None = None,
                   rng: np.random.Generator | None = None,
                   prefer: np.ndarray | None = None) -> np.ndarray:
    """Each place's target under its policy, with at most ``cap`` attackers on any fighter.

    All arrays are (c, n) by place (or broadcast to it), except ``priority`` (fighters x
    fighters: the rank of fighter j in fighter i's fixed list, lower first). Only places
    where ``chooses`` holds pick a target. Targets are sticky: with ``current`` given, a
    place whose current target is still a standing foe under its cap keeps it (re-targeting
    happens when a target falls). The others then choose, each among the standing foes whose
    attacker count is below their cap, by key (lower first):

    * ``engage`` (the default): a foe already attacking the chooser; else the foe with the
      fewest attackers so far; then one not yet busy with someone else; then the nearest by
      ``position`` (seed 002, Group fights: groups split into "one against one or more");
    * ``first`` the lowest in scenario order; ``weakest`` the highest ``weakness`` (e.g.
      wound level); ``dangerous`` the highest ``danger``; ``nearest`` the smallest distance in
      ``position`` (then, given ``line``, in ``line``: places in the sides' lines, an order
      the scenario's listing sets);
      ``spread`` the fewest attackers so far; ``random`` any; ``fixed`` by ``priority``.

    Ties go to a uniform random draw from ``rng``, and places keep and choose in a random
    order per trial, unless every chooser's policy is ``first`` (then in place order, ties
    impossible). ``rng=None`` (tests only) chooses in place order with ties to the lowest
    place. A place with no foe left under its cap waits (-1). ``prefer`` (c, c, n) bool,
    optional: the foes each place prefers (e.g. those already within its reach); a place
    picks among its preferred foes under their caps first, and among the others only when
    there are none.
    """
    c, n = standing.shape
    shape = (c, n)
    policy = np.broadcast_to(policy, shape)
    side = np.broadcast_to(side, shape)
    cap = np.full(shape, UNLIMITED, dtype=np.int16) if cap is None else cap
    count = np.zeros(shape, dtype=np.int16)            # attackers on each place so far
    target = np.full(shape, NO_TARGET, dtype=np.int8)
    cols = np.arange(n)
    order = _choosing_order(policy, chooses, rng)
    draw = rng is not None and not (policy[chooses] == FIRST).all()   # ``first`` never ties
    ctx = _Keys(policy, np.broadcast_to(who, shape), count, target, weakness, danger,
                position, priority, line)
    if current is not None:
        for k in range(c):
            i = order[k]
            t = current[i, cols].astype(np.intp)
            rows = np.flatnonzero(chooses[i, cols] & (t >= 0))
            if not rows.size:
                continue
            i, t = i[rows], t[rows]
            keep = (standing[t, rows] & (side[t, rows] != side[i, rows])
                    & (count[t, rows] < cap[t, rows]))
            target[i[keep], rows[keep]] = t[keep]
            count[t[keep], rows[keep]] += 1          # each trial once per slot: no repeats
    for k in range(c):
        i = order[k]
        rows = np.flatnonzero(chooses[i, cols] & (target[i, cols] == NO_TARGET))
        if not rows.size:
            continue
        i = i[rows]
        best = np.full(rows.size, NO_TARGET, dtype=np.int8)
        best_key = (np.full(rows.size, np.inf), np.zeros(rows.size), np.zeros(rows.size))
        best_pref = np.zeros(rows.size, dtype=bool)
        my_side = side[i, rows]
        for j in range(c):
            ok = standing[j, rows] & (side[j, rows] != my_side) & (count[j, rows] < cap[j, rows])
            if not ok.any():
                continue
            key = ctx.key(i, j, rows)
            tie = rng.random(rows.size) if draw else np.zeros(rows.size)
            better = ok & _less((*key, tie), best_key)
            if prefer is not None:
                p = prefer[i, j, rows]
                better = ok & ((p & ~best_pref) | ((p == best_pref) & better))
                best_pref = np.where(better, p, best_pref)
            best = np.where(better, j, best).astype(np.int8)
            best_key = tuple(np.where(better, a, b) for a, b in zip((*key, tie), best_key,
                                                                     strict=True))
        chosen = best >= 0
        target[i[chosen], rows[chosen]] = best[chosen]
        count[best[chosen], rows[chosen]] += 1
    return target


def _choosing_order(policy: np.ndarray, chooses: np.ndarray,
                    rng: np.random.Generator | None) -> np.ndarray:
    """(c, n) intp: the place keeping or choosing k-th in each trial. Place order when every
    chooser's policy is ``first`` (or without an rng); else a uniform random permutation in
    every trial where two or more places choose."""
    c, n = chooses.shape
    order = np.broadcast_to(np.arange(c)[:, None], (c, n))
    if rng is None or (policy[chooses] == FIRST).all():
        return order
    many = np.flatnonzero(chooses.sum(axis=0) >= 2)
    if not many.size:
        return order
    order = order.copy()
    order[:, many] = np.argsort(rng.random((c, many.size)), axis=0)
    return order


def _less(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> np.ndarray:
    """Element-wise lexicographic a < b over tuples of equal-shaped arrays."""
    out = np.zeros(a[0].shape, dtype=bool)
    equal = np.ones(a[0].shape, dtype=bool)
    for x, y in zip(a, b, strict=True):
        out |= equal & (x < y)
        equal &= x == y
    return out


class _Keys:
    """The sort key (primary, secondary) of foe place j for chooser places ``i`` on trials
    ``rows`` (lower is preferred), by each chooser's policy."""

    def __init__(self, policy, who, count, target, weakness, danger, position, priority,
                 line):
        self.policy, self.who, self.count, self.target = policy, who, count, target
        full = [None if a is None else np.broadcast_to(a, who.shape)
                for a in (weakness, danger, position, line)]
        self.weakness, self.danger, self.position, self.line = full
        self.priority = priority

    def key(self, i: np.ndarray, j: int, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pol = self.policy[i, rows]
        first = int(pol[0])
        if (pol == first).all():
            return self._of(first, i, j, rows)
        k1, k2 = np.zeros(rows.size), np.zeros(rows.size)
        for p in np.unique(pol):
            a, b = self._of(int(p), i, j, rows)
            k1, k2 = np.where(pol == p, a, k1), np.where(pol == p, b, k2)
        return k1, k2

    def _of(self, p: int, i, j: int, rows) -> tuple[np.ndarray, np.ndarray]:
        zero = np.zeros(rows.size)
        if p == FIRST:
            return self.who[j, rows].astype(np.float64), zero
        if p == WEAKEST:
            return -np.asarray(self.weakness[j, rows], dtype=np.float64), zero
        if p == DANGEROUS:
            return -np.asarray(self.danger[j, rows], dtype=np.float64), zero
        if p == NEAREST:
            near = zero
            if self.position is not None:
                near = np.abs(self.position[i, rows] - self.position[j, rows]).astype(np.float64)
            if self.line is not None:
                near = near * NEAR_WEIGHT + np.abs(self.line[i, rows] - self.line[j, rows])
            return near, zero
        if p == SPREAD:
            return self.count[j, rows].astype(np.float64), zero
        if p == RANDOM:
            return zero, zero
        if p == FIXED:
            return self.priority[self.who[i, rows], self.who[j, rows]].astype(np.float64), zero
        # ENGAGE: a foe attacking me; the fewest attackers; not busy elsewhere; nearest.
        aim = self.target[j, rows]
        k1 = (np.where(aim == i, 0.0, ENGAGED_FIRST) + 2.0 * self.count[j, rows]
              + ((aim >= 0) & (aim != i)))
        if self.position is None:
            return k1, zero
        return k1, np.abs(self.position[i, rows] - self.position[j, rows]).astype(np.float64)


def nearest_foe(side: np.ndarray, standing: np.ndarray, position: np.ndarray,
                where: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(c, n) int8: for the places ``where`` holds, the nearest standing foe by ``position``
    (ties at random; -1 when no foe stands), e.g. where a fighter with no target heads."""
    c = standing.shape[0]
    policy = np.full((c, 1), NEAREST, dtype=np.int8)
    who = np.arange(c, dtype=np.int8)[:, None]
    return choose_targets(policy, side, who, standing, where, position=position, rng=rng)


def attacker_rank(target: np.ndarray, attacking: np.ndarray,
                  rng: np.random.Generator) -> np.ndarray:
    """(c, n) int16: each attacking place's rank (0 first) among the places ``attacking``
    the same ``target``, in a uniformly random order per trial and call: who counts as the
    second or third attacker on a fighter (a bonus, a flank) never follows listing order."""
    c, n = target.shape
    rank = np.zeros((c, n), dtype=np.int16)
    cols = np.flatnonzero(attacking.sum(axis=0) >= 2)
    if not cols.size:
        return rank
    t, a = target[:, cols], attacking[:, cols]
    u = rng.random((c, cols.size))
    sub = np.zeros((c, cols.size), dtype=np.int16)
    for f in range(c):
        if not a[f].any():
            continue
        for g in range(c):
            if g != f:
                sub[f] += a[g] & (t[g] == t[f]) & (u[g] < u[f])
    rank[:, cols] = np.where(a, sub, 0)
    return rank


def turn_order(c: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """(c, n) intp: a uniformly random order of the ``c`` places in each trial, for steps the
    rules leave unordered but the lab plays one place at a time (e.g. movement)."""
    if c < 2:
        return np.zeros((c, n), dtype=np.intp)
    return np.argsort(rng.random((c, n)), axis=0)
