"""Who has got inside whose reach (seed 000, Reach; rules.reach closing), vectorised.

Seed 000 gives reach two sides: "If the defender has a longer reach, then they get a free
strike before the attacker gets a chance to hit", and a weapon "used against a foe that has
closed to within the weapon's reach, gives a -5 to attack rolls for each excess level of
reach". The lab keeps one flag per ordered pair of places, ``state.inside[p, q, trial]``:
place p (the shorter weapon) has closed to within place q's reach. It is set when p attacks q
(after q's free strike), read for the -5, and cleared for every p when q gives ground (a
retreat or a step back, at the end of that round). ``reference/state.py`` holds the scalar
version (``FighterState.inside``, ``threatened_inside``, ``open_distance``).
"""

from __future__ import annotations

import numpy as np

from balance.engine.pick import Pick
from balance.engine.sparse import flat_true
from balance.rules.yags.kernel.turns import trials_of
from balance.rules.yags.rules.tactics import RETREAT, regains_distance


def is_inside(state, p: Pick, q: Pick, size: int) -> np.ndarray:
    """Has place ``p`` got inside place ``q``'s reach, in each trial of the picks (on the
    same trials). Two plain rows read a row of ``inside``; else one flat gather, its index
    ``(p * c + q) * n + trial`` made from the picks' own flat indices."""
    if p.flat is None and q.flat is None:
        pair = state.inside[p.row, q.row]
        return pair.copy() if p.rows is None else pair[p.rows]
    return state.inside.ravel()[_pair_flat(state.inside.shape[0], p, q)]


def _pair_flat(c: int, p: Pick, q: Pick) -> np.ndarray:
    """Flat indices into a (c, c, n) array of (p's place, q's place, trial), over the picks'
    trials: ``c * (p's flat - trial) + q's flat``."""
    if p.flat is None:
        return q.flats() + p.row * c * p.n
    return c * (p.flat - trials_of(p)) + q.flats()


def close_in(state, p: Pick, q: Pick, size: int, mask: np.ndarray) -> None:
    """Place ``p`` has closed to within ``q``'s reach where ``mask`` holds."""
    rows = flat_true(mask)
    if rows.size:
        if p.flat is None and q.flat is None:
            state.inside[p.row, q.row, trials_of(p)[rows]] = True
        else:   # (one flat write, its indices made on those trials only)
            state.inside.ravel()[_pair_flat(state.inside.shape[0], p.sub(rows), q.sub(rows))] \
                = True


def threatened(state, standing: np.ndarray) -> np.ndarray:
    """(c, n) bool: a standing foe with a shorter weapon has got inside this place's reach."""
    reach, side = state.x("reach"), state.side
    # One (c, n) mask a place that may be inside, OR-ed up: no (c, c, n) temporaries and no
    # reduction along the middle axis (at (11, 32,768) 0.87 against 1.34 ms for the (c, c,
    # n) mask built in place; docs/engine-tricks.md, in-place masks over place pairs).
    found = np.zeros(side.shape, dtype=bool)
    mine = np.empty(side.shape, dtype=bool)
    for i in range(side.shape[0]):
        np.less(reach[i], reach, out=mine)
        mine &= state.inside[i]
        mine &= side[i] != side
        mine &= standing[i]
        found |= mine
    return found


def open_distance(state, s) -> None:
    """End of round: foes that had got inside the reach of a place that gave ground this
    round (a retreat or a step back) are outside it again; under rules.regain_reach follow
    (``regains_distance``) not those that attacked it this round: they followed."""
    back = state.x("action") == RETREAT
    if back.any():
        c = back.shape[0]
        attacked = None
        if s.regain_follow:   # attacked[p, q]: p attacked q this round
            attacked = state.target[:, None, :] == np.arange(
                c, dtype=state.target.dtype)[None, :, None]   # (its dtype: no conversion)
            attacked &= state.attacking[:, None, :]
        state.inside &= ~regains_distance(back[None, :, :], attacked, s.regain_follow)
