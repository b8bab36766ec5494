"""Who attacks whom: target choices shared by every rule system.

Arrays are (n_places, n_trials), as everywhere in the engine. ``side`` and ``who`` say which
side and which fighter (scenario order) sits in each place; a rule system that does not
reorder fighters passes ``who = arange(c)[:, None]`` broadcast to (c, n).
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


# Target policies (a fighter's ``policy.target``). Ties always go to scenario order.
FIRST, WEAKEST, DANGEROUS, NEAREST, SPREAD, RANDOM, FIXED = range(7)
POLICIES = {"first": FIRST, "weakest": WEAKEST, "dangerous": DANGEROUS, "nearest": NEAREST,
            "spread": SPREAD, "random": RANDOM, "fixed": FIXED}
UNLIMITED = np.iinfo(np.int16).max


def choose_targets(policy: np.ndarray, side: np.ndarray, who: np.ndarray,
                   standing: np.ndarray, chooses: np.ndarray, *,
                   current: np.ndarray | None = None, cap: np.ndarray | None = None,
                   weakness: np.ndarray | None = None, danger: np.ndarray | None = None,
                   position: np.ndarray | None = None, priority: np.ndarray | None = None,
                   line: np.ndarray | None = None,
                   rng: np.random.Generator | None = None,
                   prefer: np.ndarray | None = None) -> np.ndarray:
    """Each place's target under its policy, with at most ``cap`` attackers on any fighter.

    All arrays are (c, n) by place, except ``priority`` (fighters x fighters: the rank of
    fighter j in fighter i's fixed list, lower first). Only places where ``chooses`` holds
    pick a target. Targets are sticky: with ``current`` given, a place whose current target
    is still a standing foe under its cap keeps it (re-targeting happens when a target
    falls). Free places then choose in place order, each among the standing foes whose
    attacker count is below their cap: ``first`` the lowest in scenario order, ``weakest``
    the highest ``weakness`` (e.g. wound level), ``dangerous`` the highest ``danger``,
    ``nearest`` the smallest distance in ``position`` (then, given ``line``, the smallest
    distance in ``line``: places in the sides' lines), ``spread`` the foe with the fewest
    attackers so far, ``random`` uniformly, ``fixed`` by ``priority``. A place with no foe
    left under its cap waits (-1). ``prefer`` (c, c, n) bool, optional: the foes each place
    prefers (e.g. those already within its reach); a place picks among its preferred foes
    under their caps first, by its policy, and among the others only when there are none.
    """
    c, n = standing.shape
    cap = np.full((c, n), UNLIMITED, dtype=np.int16) if cap is None else cap
    count = np.zeros((c, n), dtype=np.int16)           # attackers on each place so far
    target = np.full((c, n), NO_TARGET, dtype=np.int8)
    if current is not None:
        for i in range(c):
            t = current[i]
            keep = chooses[i] & (t >= 0)
            for j in range(c):
                on_j = keep & (t == j) & standing[j] & (side[j] != side[i]) & (count[j] < cap[j])
                target[i] = np.where(on_j, j, target[i])
                count[j] += on_j
    present = {int(p) for p in np.unique(policy)}
    draws = rng.random((c, c, n)) if RANDOM in present else None
    for i in range(c):
        free = chooses[i] & (target[i] == NO_TARGET)
        if not free.any():
            continue
        best = np.full(n, NO_TARGET, dtype=np.int8)
        best_key = np.full(n, np.inf)
        best_pref = np.zeros(n, dtype=bool)
        for j in range(c):
            ok = free & standing[j] & (side[j] != side[i]) & (count[j] < cap[j])
            key = _key(policy[i], present, i, j, who, count, weakness, danger, position,
                       priority, draws, line)
            if prefer is None:
                better = ok & (key < best_key)
            else:
                p = prefer[i, j]
                better = ok & ((p & ~best_pref) | ((p == best_pref) & (key < best_key)))
                best_pref = np.where(better, p, best_pref)
            best = np.where(better, j, best).astype(np.int8)
            best_key = np.where(better, key, best_key)
        target[i] = np.where(free, best, target[i])
        for j in range(c):
            count[j] += best == j
    return target


# ``nearest`` with a ``line``: a metre of ``position`` outweighs any difference of places.
NEAR_WEIGHT = 1000.0


def _key(policy, present, i, j, who, count, weakness, danger, position, priority, draws,
         line=None):
    """Sort key of foe place j for chooser place i (lower is preferred), per trial."""
    order = who[j].astype(np.float64)               # scenario order breaks every tie
    scale = 1024.0                                  # above any fighter index
    key = np.zeros(order.shape)
    for p in present:
        if p == FIRST:
            k = order
        elif p == WEAKEST:
            k = -weakness[j] * scale + order
        elif p == DANGEROUS:
            k = -danger[j] * scale + order
        elif p == NEAREST:
            near = np.abs(position[i] - position[j])
            if line is not None:
                near = near * NEAR_WEIGHT + np.abs(line[i] - line[j])
            k = near * scale + order
        elif p == SPREAD:
            k = count[j] * scale + order
        elif p == RANDOM:
            k = draws[i, j]
        else:  # FIXED
            k = priority[who[i], who[j]] * scale + order
        key = np.where(policy == p, k, key)
    return key
