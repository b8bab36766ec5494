"""Harm, holds and releases in the vectorised Ymlad kernel (seed 002: Harm effects, Close,
Grappling): putting harm on the track, who falls, who is pinned, and what a released grip
undoes. Every function works on flat (fighter, trial) cells of the (c, n) state arrays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from balance.engine.sparse import flat_true
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS
from balance.rules.ymlad.rules.tables import GRAPPLE, STUN, WOUND

if TYPE_CHECKING:
    from balance.rules.ymlad.kernel.fight import Static, YmladState


def _engage(state: YmladState, f: int | np.ndarray, idx: np.ndarray, t: np.ndarray) -> None:
    """Seed, Close: a successful closing attempt puts both in close combat (if still free).
    ``f``: one fighter, or one per trial of ``idx``."""
    n = state.status.shape[1]
    free = (state.close_with[f, idx] < 0) & (state.close_with.ravel()[t * n + idx] < 0)
    idx, t = idx[free], t[free]
    if np.ndim(f):
        f = f[free]
    state.close_with[f, idx] = t
    state.close_with.ravel()[t * n + idx] = f


def _release(s: Static, state: YmladState, f: int | np.ndarray, idx: np.ndarray,
             t: np.ndarray) -> None:
    """Seed, Close and Grappling: disengaging ends close combat; the holds, and the grappling
    harm they caused, go with it. ``f``: one fighter, or one per trial of ``idx``."""
    n = state.status.shape[1]
    state.close_with[f, idx] = -1
    state.close_with.ravel()[t * n + idx] = -1
    _free(s, state, np.concatenate([f * n + idx, t * n + idx]))


def inflict(s: Static, state: YmladState, idx: np.ndarray, t: np.ndarray, kind: np.ndarray,
            harm: np.ndarray) -> np.ndarray:
    """Put ``harm`` (>= 1) of ``kind`` on fighters ``t`` in trials ``idx``; track and falls.

    Seed, Stunning: odd points brief, even long-lasting. Grappling harm is kept apart: it goes
    when the hold breaks. Seed, Harm effects: grappling "'dead' means not yet dead but
    suffocating"; only "wasted" (strangled) kills, so grappling harm kills at ``wasted_at``.
    Returns the flat cells whose state changed.
    """
    n = state.status.shape[1]
    flat = t * n + idx
    stun = kind == STUN
    brief = stun * ((harm + 1) // 2) * s.stunnable[t]
    lasting = (kind == WOUND) * harm + stun * (harm // 2)
    state.body.ravel()[flat] += lasting.astype(np.int16)
    state.brief.ravel()[flat] += brief.astype(np.int16)
    state.grapple.ravel()[flat] += ((kind == GRAPPLE) * harm).astype(np.int16)
    _update_penalty(s, state, flat)
    body, grapple = state.body.ravel()[flat], state.grapple.ravel()[flat]
    total = body + state.brief.ravel()[flat] + grapple
    dead = (body >= s.dead_at[t]) | (grapple >= s.wasted_at[t])
    down = np.where(dead, DEAD, np.where(total >= s.down_at[t], UNCONSCIOUS, STANDING))
    old = state.status.ravel()[flat]
    new = np.maximum(old, down).astype(np.int8)
    state.status.ravel()[flat] = new
    fell = flat_true((old == STANDING) & (new != STANDING))
    if not fell.size:
        return flat
    fell = flat[fell]
    # Pinned: down only through the grappling harm of the partner who holds it. The hold
    # stays (the partner keeps it down, seed: grappling harm dissolves only "when a grip is
    # released"); its own grip on the partner is gone. Anyone else who falls lets go.
    pinned = _pinned(s, state, fell)
    held, out = fell[pinned], fell[~pinned]
    partner = state.close_with.ravel()[held].astype(np.intp) * n + held % n
    state.grapple.ravel()[partner] = 0
    _update_penalty(s, state, partner)
    return np.concatenate([flat, partner, _let_go(s, state, out)])


def _pinned(s: Static, state: YmladState, flat: np.ndarray) -> np.ndarray:
    """(len(flat),) bool: fighters down (not dead) only through grappling harm, and held."""
    who = flat // state.status.shape[1]
    rest = state.body.ravel()[flat] + state.brief.ravel()[flat]
    return ((state.close_with.ravel()[flat] >= 0) & (state.status.ravel()[flat] == UNCONSCIOUS)
            & (rest < s.down_at[who]))


def _let_go(s: Static, state: YmladState, flat: np.ndarray) -> np.ndarray:
    """Fighters ``flat`` who are out (or leave) let go: their close-combat partners are free
    and the grappling harm they caused dissolves (seed, Grappling: "instantly ... dissolved
    when a grip is released"), so a partner they had pinned gets up again unless its other
    harm keeps it down. Returns the partners' flat cells."""
    n = state.status.shape[1]
    partner = state.close_with.ravel()[flat]
    held = flat_true(partner >= 0)
    if not held.size:
        return held
    flat, partner = flat[held], partner[held].astype(np.intp)
    flat_p = partner * n + flat % n
    state.close_with.ravel()[flat] = -1
    state.close_with.ravel()[flat_p] = -1
    _free(s, state, flat_p)
    return flat_p


def _free(s: Static, state: YmladState, flat: np.ndarray) -> None:
    """Released from a hold: grappling harm gone, the track recomputed, and a fighter who was
    only pinned stands again (seed, Grappling)."""
    who = flat // state.status.shape[1]
    rest = state.body.ravel()[flat] + state.brief.ravel()[flat]
    up = (state.status.ravel()[flat] == UNCONSCIOUS) & (rest < s.down_at[who])
    state.status.ravel()[flat[up]] = STANDING
    state.grapple.ravel()[flat] = 0
    _update_penalty(s, state, flat)


def _update_penalty(s: Static, state: YmladState, flat: np.ndarray) -> None:
    """Recompute the harm track penalty of the (fighter, trial) cells ``flat``."""
    n = state.status.shape[1]
    who = flat // n
    total = state.body.ravel()[flat] + state.brief.ravel()[flat] + state.grapple.ravel()[flat]
    penalty = np.zeros(flat.size, dtype=np.int16)
    for level in range(s.penalty_at.shape[0]):
        penalty = np.where(total >= s.penalty_at[level, who], s.penalty[level, who], penalty)
    state.penalty.ravel()[flat] = penalty
