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

from collections.abc import Callable

import numpy as np

from balance.engine.places import ascending, first_true, uniform_true
from balance.engine.sparse import flat_true
from balance.engine.streams import random_at

NO_TARGET = -1


def first_standing_foe(side: np.ndarray, who: np.ndarray, standing: np.ndarray,
                   n_sides: int) -> np.ndarray:
    """(c, n) int8: each place's target, the place of its first standing foe in scenario
    order (lowest fighter index), or -1 when no foe stands."""
    c, n = standing.shape
    if c == 2:   # each place's only possible foe is the other (np.where on masks is slow)
        foe = standing[::-1] & (side != side[::-1])
        return (foe * (np.array([[2], [1]], dtype=np.int8)) - 1).astype(np.int8)
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
                   prefer: np.ndarray | Callable | None = None,
                   trials: np.ndarray | None = None) -> np.ndarray:
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
    there are none; or a function ``prefer(i, cols)`` giving the same rows, (c, k) bool, for
    chooser places ``i`` (k,) on columns ``cols`` (k,) of the arrays (read only where ``i``
    chooses), so the caller need not build all of it. ``trials`` (n,): the state columns
    the arrays' columns are (None: the
    same), for stacked blocks' streams (``balance.engine.streams``): every draw names the
    columns it is for.
    """
    c, n = standing.shape
    shape = (c, n)
    policy = np.broadcast_to(policy, shape)
    side = np.ascontiguousarray(np.broadcast_to(side, shape))
    # Attackers on each place so far; never more than c - 1, so a cap of c or more never
    # binds and the cap is held in the count's own (narrow) dtype.
    small = np.int8 if c < 127 else np.int16
    count = np.zeros(shape, dtype=small)
    if cap is None or not any(np.asarray(cap).strides):   # one number: kept a broadcast
        cap = np.broadcast_to(small(c if cap is None else min(int(np.asarray(cap).flat[0]), c)),
                              shape)
    else:
        cap = np.minimum(cap, c).astype(small)
    target = np.full(shape, NO_TARGET, dtype=np.int8)
    random_order = rng is not None and not _all_first(policy, chooses)
    draw = random_order                          # ``first`` never ties
    over, kept = None, False
    if current is not None and (current >= 0).any():   # (round 1: nobody has a target yet)
        kept = True
        over = _keep(current, chooses, standing, side, cap, target, count,
                     rng if random_order else None, trials)
    # The places still to choose, and the trials where any is: only there the order matters.
    need = chooses & (target == NO_TARGET)
    n_need = need.view(np.int8).sum(axis=0, dtype=np.int16)
    active = flat_true(n_need)
    if not active.size:
        return target
    # The trials by how many places in them still choose, most first: step j plays the j-th
    # chooser (in order) of every trial with more than j, a prefix of them, on views of
    # arrays gathered once (c gathers a step cost more). Within a trial the choices follow
    # one another in order, as one place at a time would.
    counts = n_need[active]
    by = active if (counts == counts[0]).all() else active[np.argsort(-counts, kind="stable")]
    counts = n_need[by]
    m = by.size
    same = m == n and by is active                      # every trial, in order: views

    def pack(a: np.ndarray | None) -> np.ndarray | None:
        """``a`` (broadcast to (c, n)) on the trials ``by``: a gather, but none for an array
        the same in every trial."""
        if a is None or same:
            return a
        a = np.broadcast_to(a, shape)
        if a.strides[-1] == 0:
            return np.broadcast_to(a[:, :1], (c, m))
        return np.take(a, by, axis=-1)

    if same or c > 31:
        up, sides, needs = pack(standing), pack(side), pack(need)
    else:   # one gather for three (c, n) masks and codes: side, standing, still choosing
        # (side < c <= 31: the code fits an int8)
        code = pack((side.astype(np.int8, copy=False) << np.int8(2))
                    | (standing.view(np.int8) << np.int8(1)) | need.view(np.int8))
        up = ((code >> np.int8(1)) & np.int8(1)).view(bool)
        sides, needs = code >> np.int8(2), code & np.int8(1)
    if over is None:
        # The choosers of each trial in place order, then (a random order) shuffled.
        choosers = _choosers(needs, int(counts[0]))
        if random_order:
            _shuffle(choosers, counts, rng, _at(trials, by))
    else:
        # Some trials kept one at a time (a cap bound the keepers): there the choosing
        # goes on in the keeping's order; elsewhere in a random one (or place order).
        order = np.broadcast_to(np.arange(c)[:, None], shape).copy()
        order[:, over[0]] = over[1]
        if random_order:
            fresh = np.setdiff1d(active[n_need[active] >= 2], over[0], assume_unique=True)
            if fresh.size:
                order[:, fresh] = ascending(random_at(rng, _at(trials, fresh), (c,)))
        choosers = _in_order(need, order, by, pack)
    caps = pack(cap)
    if same or c > 127:
        tally, aim = pack(count), pack(target)
    elif not kept:   # nobody kept a target: no attackers yet, no targets (nothing to gather)
        tally = np.zeros((c, m), dtype=count.dtype)
        aim = np.full((c, m), NO_TARGET, dtype=np.int8)
    else:   # one gather for both (int8 each): the attackers so far and the kept targets
        both = pack(count.astype(np.int16) << np.int16(8) | target.view(np.uint8))
        tally, aim = (both >> np.int16(8)).astype(np.int8), both.astype(np.int8)
    # A policy the same in every trial (a column) stays a column; ``who`` is read only by
    # ``first`` and ``fixed`` (each pack gathers c x m elements).
    if not same and policy.strides[-1] == 0:
        policies, column = np.broadcast_to(policy[:, :1], (c, m)), policy[:, 0]
        who_m = (pack(np.broadcast_to(who, shape)) if ((column == FIRST) | (column == FIXED)).any()
                 else np.broadcast_to(np.zeros((c, 1), dtype=np.int8), (c, m)))
    else:
        policies, who_m = pack(policy), pack(np.broadcast_to(who, shape))
    ctx = _Keys(policies, who_m, tally, aim, pack(weakness), pack(danger), pack(position),
                priority, pack(line))
    if prefer is not None and not callable(prefer):
        # The choosers' rows of ``prefer`` (c, c, n) read straight from it through flat
        # cells (i, foe, trial), (c, mj) at a step: no (c, c, m) gather of the whole array,
        # and no transposed operand (docs/engine-tricks.md, flat indices and ``np.take``).
        foe_cells = (np.arange(c, dtype=np.intp) * n)[:, None]
        by_cells = by.astype(np.intp, copy=False)
    sides_flat, aim_flat, tally_flat = sides.ravel(), aim.ravel(), tally.ravel()
    cols = np.arange(m)
    drawn = _at(trials, by) if draw else None       # (the state columns of ``by``)
    # One cap for every place and trial (a broadcast): compared as one number
    # (docs/engine-tricks.md, work that cannot change the answer).
    cap_one = int(caps.flat[0]) if caps.size and not any(caps.strides) else None
    for j in range(int(counts[0])):
        mj = m if j < counts[-1] else int(np.count_nonzero(counts > j))
        i, rows = choosers[j, :mj], cols[:mj]
        sel = slice(None) if mj == m else slice(0, mj)
        at = i * m + rows
        # All foes at once, (c, mj): who may be chosen, then the best key, then a random tie.
        ok = sides[:, sel] != sides_flat.take(at)     # (in place from here: no temporaries)
        ok &= up[:, sel]
        if cap_one is None:
            ok &= tally[:, sel] < caps[:, sel]
        elif cap_one < c:       # (a cap of c never binds: at most c - 1 attackers on one)
            ok &= tally[:, sel] < cap_one
        if prefer is not None:
            if callable(prefer):
                liked = prefer(i, by[:mj])
            else:
                mine = i * (c * n)
                mine += by_cells[:mj]
                liked = np.take(prefer, foe_cells + mine)
            liked &= ok
            ok = liked | (ok & ~liked.any(axis=0))
        best = ok
        for key in ctx.keys(i, rows, sel, at):
            key = _beyond(key, best)
            best = best & (key == key.min(axis=0))
        # A random one of the best (argmax(axis=0) would cost ~30 ns a trial), or the lowest.
        pick = uniform_true(best, rng, drawn[:mj]) if draw else first_true(best)
        can = ok.any(axis=0)
        if not can.all():   # some wait: no foe left under its cap
            chosen = flat_true(can)    # (selections on a random mask cost ~20x)
            pick, at, rows = pick[chosen], at[chosen], rows[chosen]
        aim_flat[at] = pick
        tally_flat[pick * m + rows] += 1       # (one chooser per trial: no repeats)
    if not same:
        target[:, by] = aim
    return target


def _all_first(policy: np.ndarray, chooses: np.ndarray) -> bool:
    """Is every chooser's policy ``first``? A policy the same in every trial (a column) is
    read as one."""
    if policy.strides[-1] == 0:
        column = policy[:, 0]
        if (column == FIRST).all():
            return True
        if not (column == FIRST).any():
            return not chooses.any()
    return bool(((policy == FIRST) | ~chooses).all())


def _in_order(need: np.ndarray, order: np.ndarray, by: np.ndarray, pack) -> np.ndarray:
    """(c, m) intp: row j holds, for each trial of ``by``, the j-th place of ``order`` (c, n)
    that still chooses (``need``); rows past a trial's choosers hold any place."""
    c, n = need.shape
    m = by.size
    ranked = pack(order)
    out = np.zeros(c * m, dtype=np.intp)
    seen = np.zeros(m, dtype=np.intp)
    cols = np.arange(m)
    for k in range(c):
        # Every trial writes its k-th place in order to its next row; one that does not
        # choose is overwritten by the next that does, or lies past the trial's choosers (no
        # selection of the choosing trials: flatnonzero and subsets cost more).
        i = ranked[k]
        out[seen * m + cols] = i
        seen += np.take(need, i * n + by)
    return out.reshape(c, m)


# Up to this many choosers in a trial, ``_choosers`` counts in bytes rather than scattering
# (2 * most + 1 byte operations a place against an intp scatter and add: measured at (10,
# 30,000) with two choosers 81 against 367 us, at (10, 65,536) with ten 0.7 against 1.0 ms).
FEW_CHOOSERS = 16


def _choosers(need: np.ndarray, most: int) -> np.ndarray:
    """(most, m) intp: row j holds, for each trial (column of ``need``, (c, m)), its j-th
    place (in place order) that still chooses; rows past a trial's choosers hold any place."""
    c, m = need.shape
    if most <= FEW_CHOOSERS and c < 128:
        # Row j by counting, in bytes: the j-th chooser's place is the number of places
        # before which fewer than j + 1 have been seen (as ``kth_true``); 2 * most + 1 byte
        # operations a place instead of an intp scatter and an intp add.
        rows = np.zeros((most, m), dtype=np.int8)
        seen = np.zeros(m, dtype=np.int8)
        for k in range(c - 1):
            seen += need[k]
            for j in range(most):
                rows[j] += seen <= j
        return rows.astype(np.intp)
    out = np.zeros((most + 1) * m, dtype=np.intp)
    seen = np.arange(m)                              # flat index of each trial's next row
    for k in range(c):
        # Every trial writes place k to its next row; one that does not choose is
        # overwritten by the next that does, or lies past the trial's choosers.
        out[seen] = k
        seen += need[k] * np.intp(m)
    return out[:most * m].reshape(most, m)


def _at(trials: np.ndarray | None, idx: np.ndarray) -> np.ndarray:
    """The state columns of the arrays' columns ``idx`` (``choose_targets``' ``trials``)."""
    return idx if trials is None else trials[idx]


def _shuffle(choosers: np.ndarray, counts: np.ndarray, rng, where: np.ndarray) -> None:
    """Put each trial's choosers (its first ``counts`` rows of ``choosers``, trials sorted
    by ``counts``, most first) in a uniformly random order, in place: Fisher-Yates, row j
    swapped with a uniform row of 0..j, over the trials with more than j choosers (a
    prefix). Trials with one chooser draw nothing. ``where``: the trials' state columns."""
    most, m = choosers.shape
    flat = choosers.ravel()
    cols = np.arange(m)
    for j in range(most - 1, 0, -1):
        mj = int(np.count_nonzero(counts > j))
        if not mj:
            continue
        other = (random_at(rng, where[:mj]) * (j + 1)).astype(np.intp) * m + cols[:mj]
        mine = choosers[j, :mj].copy()
        choosers[j, :mj] = flat[other]
        flat[other] = mine


# Added to the keys of foes already ruled out: beyond any key a policy gives (float32), and
# for the integer keys of ``engage`` (``_Keys.engage_scale``) beyond any such key.
SKIP = np.float32(1e30)
INT_SKIP = {np.dtype(np.int8): np.int8(64), np.dtype(np.int16): np.int16(16384)}


def _beyond(key: np.ndarray, best: np.ndarray) -> np.ndarray:
    """``key`` with the foes outside ``best`` pushed beyond every key (branch-free: np.where
    on a random mask costs ~20x)."""
    if key.dtype.kind == "f":
        return key + ~best * SKIP
    out = (~best).view(np.int8) * INT_SKIP[key.dtype]
    out += key
    return out


# Up to this many places, ``_keep`` counts keepers by comparisons (c^2 element operations a
# trial) rather than by a bincount.
KEEP_BY_COMPARING = 16


def _keep(current, chooses, standing, side, cap, target, count,
          rng: np.random.Generator | None,
          trials: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """Places keep their ``current`` target while it is a standing foe under its cap (fills
    ``target`` and ``count`` in place), in a uniformly random order of the places (place order
    without ``rng``). Where no target would have more keepers than its cap the order cannot
    matter, and all keep at once; elsewhere they keep one at a time, and the order is
    returned for the choosing that follows: (those trials, (c, m) places in order), or None."""
    c, n = current.shape
    flat = None
    if c < 63:
        keeps = chooses & (current >= 0) & _standing_foe(current, standing, side)
    else:
        flat = np.maximum(current, 0).astype(np.intp) * n + np.arange(n)
        keeps = (chooses & (current >= 0) & np.take(standing, flat)
                 & (np.take(side, flat) != side))
    kept = (current + 1) * keeps - 1             # current where kept, else NO_TARGET (-1)
    if c <= KEEP_BY_COMPARING:
        # Keepers on each place by c whole-array comparisons, in the count's narrow dtype: a
        # bincount would first select the kept indices on a random mask (~10x slower).
        on = np.empty((c, n), dtype=count.dtype)
        for place in range(c):
            (kept == place).view(np.int8).sum(axis=0, dtype=on.dtype, out=on[place])
    else:
        if flat is None:
            flat = np.maximum(current, 0).astype(np.intp) * n + np.arange(n)
        on = np.bincount(flat[keeps], minlength=c * n).reshape(c, n)
    over = flat_true((on > cap).any(axis=0))
    if over.size:
        free = np.ones(n, dtype=bool)
        free[over] = False
        kept = (current + 1) * (keeps & free) - 1
        on = on * free
    target[...] = kept
    count += on.astype(count.dtype, copy=False)
    if not over.size:
        return None
    if rng is None:
        order = np.broadcast_to(np.arange(c)[:, None], (c, over.size)).copy()
    else:
        order = ascending(random_at(rng, _at(trials, over), (c,)))
    for k in range(c):
        i = order[k]
        t = current[i, over].astype(np.intp)
        valid = t >= 0
        rows, i, t = over[valid], i[valid], t[valid]
        keep = (chooses[i, rows] & standing[t, rows] & (side[t, rows] != side[i, rows])
                & (count[t, rows] < cap[t, rows]))
        target[i[keep], rows[keep]] = t[keep]
        count[t[keep], rows[keep]] += 1          # each trial once per slot: no repeats
    return over, order


def _standing_foe(place: np.ndarray, standing: np.ndarray, side: np.ndarray) -> np.ndarray:
    """(c, n) bool: is the place ``place`` (c, n; -1 reads as 0) of each place a standing
    foe of it? Each trial's standing places of each side as the bits of one integer, shifted
    by ``place``: a few whole-array operations in a narrow dtype rather than two gathers
    through (c, n) flat indices (2-7 times faster, measured; c < 63)."""
    c, n = standing.shape
    wide = np.int16 if c < 15 else np.int32 if c < 31 else np.int64
    n_sides = int(side.max()) + 1
    if n_sides <= 2:
        # Two sides: the standing places and side 1's places as two integers; the target's
        # bit of each says whether it stands and whose side it is on.
        up, ones = np.zeros(n, dtype=wide), np.zeros(n, dtype=wide)
        for q in range(c):
            bit = wide(1 << q)
            up += standing[q] * bit
            ones += side[q] * bit
        at = np.maximum(place, 0).astype(wide)
        return ((up >> at) & (((ones >> at) & 1) ^ side)).astype(bool)
    sides = side.astype(wide)
    up = [np.zeros(n, dtype=wide) for _ in range(n_sides)]
    for q in range(c):
        for k in range(n_sides):
            up[k] |= (standing[q] & (side[q] == k)) * wide(1 << q)
    if n_sides == 2:
        own = up[0] + (up[1] - up[0]) * sides
    else:
        own = np.zeros((c, n), dtype=wide)
        for k in range(n_sides):
            own += (sides == k) * up[k]
    foe = sum(up[1:], up[0]) - own
    foe >>= np.maximum(place, 0).astype(wide)
    foe &= 1
    return foe.astype(bool)


class _Keys:
    """The sort keys of every foe place for chooser places ``i`` on trials ``rows``, by each
    chooser's policy: a primary (c, m) array, and for ``engage`` with positions a secondary
    one (lower is preferred)."""

    def __init__(self, policy, who, count, target, weakness, danger, position, priority,
                 line):
        self.policy, self.who, self.count, self.target = policy, who, count, target
        full = [None if a is None else np.broadcast_to(a, who.shape)
                for a in (weakness, danger, position, line)]
        self.weakness, self.danger, self.position, self.line = full
        self.priority = priority
        # ``engage`` ranks by (attacks me?, 2 x attackers + busy elsewhere), whose second part
        # is below 2c: an integer key as narrow as c allows orders the foes alike (and the
        # same foes tie), in half or a quarter of the float32 key's memory traffic.
        c = who.shape[0]
        # One policy for every chooser (a broadcast): no gather of it a step.
        column = policy[:, 0] if policy.strides[-1] == 0 else None
        self.single = (int(column[0]) if column is not None and (column == column[0]).all()
                       else None)
        if c <= 15:
            self.engage_scale = (np.int8(32), np.int8)
        elif c <= 4000:
            self.engage_scale = (np.int16(8192), np.int16)
        else:
            self.engage_scale = (np.float32(ENGAGED_FIRST), np.float32)

    def keys(self, i: np.ndarray, rows: np.ndarray, sel, at: np.ndarray) -> list[np.ndarray]:
        """``rows`` the trials (index array), ``sel`` the same as a column selector (a
        slice when they are all the trials), ``at`` the choosers' flat cells ``i * m +
        rows``."""
        if self.single is not None:
            return self._of(self.single, i, rows, sel, at)
        pol = _own(self.policy, i, rows, at)
        first = pol[0]
        if (pol == first).all():
            return self._of(int(first), i, rows, sel, at)
        present = np.unique(pol)
        # Each trial's keys from its chooser's policy: the policies' masks are disjoint and
        # cover every trial, so a sum of key x mask is the key of the trial's own policy,
        # exactly (finite keys; x * 0 is +-0, which adds nothing), in the dtype np.where
        # would give (docs/engine-tricks.md, arithmetic, not np.where, on random masks).
        k1, k2 = np.zeros((self.who.shape[0], rows.size), dtype=np.float32), None
        for p in present:
            mine = pol == p
            got = self._of(int(p), i, rows, sel, at)
            part = got[0] * mine
            if np.result_type(k1, part) == k1.dtype:
                k1 += part                     # (in place: no (c, m) temporary)
            else:
                k1 = k1 + part
            if len(got) > 1:
                part = got[1] * mine
                k2 = (part.astype(np.result_type(part, 0.0), copy=False) if k2 is None
                      else k2 + part)
        return [k1] if k2 is None else [k1, k2]

    def _distance(self, i, rows, sel, at) -> np.ndarray:
        return np.abs(self.position[:, sel] - _own(self.position, i, rows, at))  # its dtype

    def _of(self, p: int, i, rows, sel, at) -> list[np.ndarray]:
        c = self.who.shape[0]
        if p == FIRST:
            if self.who.strides[-1] == 0:   # scenario order in every trial: one column
                return [np.broadcast_to(self.who[:, :1].astype(np.float32), (c, rows.size))]
            return [self.who[:, sel].astype(np.float32)]
        if p == WEAKEST:
            return [-np.asarray(self.weakness[:, sel], dtype=np.float32)]
        if p == DANGEROUS:
            return [-np.asarray(self.danger[:, sel], dtype=np.float32)]
        if p == NEAREST:
            near = np.zeros((c, rows.size), dtype=np.float32)
            if self.position is not None:
                near = self._distance(i, rows, sel, at)
            if self.line is not None:
                near = near * NEAR_WEIGHT + np.abs(self.line[:, sel]
                                                   - _own(self.line, i, rows, at))
            return [near]
        if p == SPREAD:
            return [self.count[:, sel].astype(np.float32)]
        if p == RANDOM:
            return [np.zeros((c, rows.size), dtype=np.float32)]
        if p == FIXED:
            return [self.priority[_own(self.who, i, rows, at), self.who[:, sel]]
                    .astype(np.float32)]
        # ENGAGE: a foe attacking me; the fewest attackers; not busy elsewhere; nearest.
        aim = self.target[:, sel]
        other = aim != i.astype(aim.dtype)   # (arithmetic: np.where on a random mask is slow)
        first, dtype = self.engage_scale
        k1 = other.view(np.int8) * first
        count = self.count[:, sel]
        k1 += count.astype(dtype, copy=False) * dtype(2)
        k1 += ((aim >= 0) & other).view(np.int8)
        return [k1] if self.position is None else [k1, self._distance(i, rows, sel, at)]


def _own(a: np.ndarray, i: np.ndarray, rows: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``a[i, rows]`` of a (c, m) array: the choosers' own entries, by one ``take`` of their
    flat cells ``at`` where ``a`` is contiguous (docs/engine-tricks.md, flat indices and
    ``np.take``), else by indexing (a broadcast)."""
    if a.flags.c_contiguous:
        return a.ravel().take(at)
    return a[i, rows]


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
    cols = flat_true(attacking.sum(axis=0) >= 2)
    if not cols.size:
        return rank
    m = cols.size
    if c == 2:
        # Nobody attacks itself, so two places never share a target: every rank is 0. The
        # order is drawn all the same, so the stream goes on as if it had been played.
        turn_order(c, m, rng)
        return rank
    # Everything through flat cells (place * n + trial) and ``take``/``put``
    # (docs/engine-tricks.md, flat indices and ``np.take``): the places' ``attacking`` and
    # targets read once per step, each rank written once; a rank by arithmetic on the mask
    # (docs/engine-tricks.md, arithmetic, not np.where, on random masks).
    idx = np.arange(m)
    seen = np.zeros(c * m, dtype=np.int16)          # attackers counted so far, per target
    attacking, target = attacking.ravel(), target.ravel()
    at = np.empty(m, dtype=np.intp)
    for p in turn_order(c, m, rng):                 # places in a random order, per trial
        np.multiply(p, n, out=at)
        at += cols
        a = attacking.take(at)
        cell = target.take(at).astype(np.intp)
        np.maximum(cell, 0, out=cell)
        cell *= m
        cell += idx
        rank.put(at, seen.take(cell) * a)
        seen[cell] += a
    return rank


def turn_order(c: int, n: int, rng: np.random.Generator,
               first: np.ndarray | None = None) -> np.ndarray:
    """(c, n) intp: a uniformly random order of the ``c`` places in each trial, for steps the
    rules leave unordered but the lab plays one place at a time (e.g. movement). ``first``
    (c, n) bool, optional: the places where it holds come before the others (each group in
    a uniformly random order), so a caller that plays only those can stop after
    ``first.sum(axis=0).max()`` steps. It is ``order_of(turn_keys(...))``: a caller that
    needs the order on some trials only draws the keys for every trial (the stream) and
    orders those it needs."""
    if c < 2:
        return np.zeros((c, n), dtype=np.intp)
    return order_of(turn_keys(c, n, rng, first))


def turn_keys(c: int, n: int, rng: np.random.Generator,
              first: np.ndarray | None = None) -> np.ndarray | None:
    """The draw behind ``turn_order``: (c, n) float64 keys, uniform, ``first`` places in
    [0, 1) and the rest in [1, 2); None below two places (nothing drawn)."""
    if c < 2:
        return None
    key = rng.random((c, n))
    if first is not None:
        key += ~first           # keys in [0, 1) for the first places, [1, 2) for the rest
    return key


def order_of(key: np.ndarray) -> np.ndarray:
    """(c, n) intp: the place holding the k-th smallest of each trial's ``key`` (distinct
    keys: ``argsort(key, axis=0)``), by the cheapest way for its shape."""
    c, n = key.shape
    if c == 2:
        # Two places: the sort is one comparison (as argsort's, a tie to place 0 first);
        # an argsort along the short axis measured 2.9 ms at (2, 32,768) against 18 us.
        order = np.empty((2, n), dtype=np.intp)
        np.less(key[1], key[0], out=order[0], casting="unsafe")
        np.subtract(1, order[0], out=order[1])
        return order
    if c <= ASCENDING_MOST and n >= ASCENDING_PER_PAIR * c * c:
        # A few places on many trials: ranks by pairwise comparisons (``places.ascending``,
        # the order ``argsort`` gives for distinct keys; uniform draws are equal with
        # probability 2^-53 a pair) beat a sort along the short axis: at (12, 30,000) 1.6
        # against 2.1 ms, (8, 30,000) 0.67 against 1.44, (4, 30,000) 0.15 against 1.37; not
        # on few trials (0.44 against 0.20 ms at (12, 3,000)), nor past 12 places.
        return ascending(key)
    return np.argsort(key, axis=0)


# ``turn_order`` ranks by comparisons up to this many places, on at least this many trials
# per pair of places (measured: docs/engine-tricks.md, two places: a comparison, not a sort).
ASCENDING_MOST = 12
ASCENDING_PER_PAIR = 100
