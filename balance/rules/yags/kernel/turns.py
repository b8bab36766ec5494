"""Who may act, strike and defend (vectorised), and what every action of a round shares.

Seed 000: only a fighter able to act makes strikes; a defence covers the attackers it was
declared against (or a shield's free one); grappled fighters deal only with each other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.pick import Pick, trial_numbers
from balance.engine.sparse import flat_true
from balance.engine.status import STANDING
from balance.rules.yags.kernel.gear import fighter
from balance.rules.yags.kernel.static import Static
from balance.rules.yags.rules.tactics import REROLL, RETREAT


@dataclass
class Round:
    """What every action of a round needs: who could act when it began, the live penalty on
    attack and defence rolls (kept up to date as fatigue, wounds and the like change), and,
    in detailed fights, whose defences cover whom (``(c * c, n)``, row ``i * c + j``)."""

    round_no: int
    can: np.ndarray
    rpen: np.ndarray
    cover: np.ndarray | None = None


def can_act(state, s: Static, ctx: Round, p: Pick) -> np.ndarray:
    """Standing, not losing round 1, not helpless in a hold, not robbed of this round."""
    if not s.on.any:
        return p.get(ctx.can) & (p.get(state.status) == STANDING)
    x = state.x
    ok = p.get(state.status) == STANDING
    if ctx.round_no == 1:
        ok &= ~p.get(state.slow_start)
    if s.on.grapple:
        held = (p.get(x("partner")) >= 0) & (p.get(x("holding")) == 0)
        ok &= p.get(x("lost")) != ctx.round_no
        rows = flat_true(held)
        if rows.size:   # (the held only: docs/engine-tricks.md, the places a rule concerns)
            q = p.sub(rows)
            who = q.get(state.who)
            least = np.minimum(fighter(s, "strength", who), fighter(s, "agility", who))
            ok[rows] &= q.get(x("hold")) < least
    return ok


def can_strike(state, s: Static, ctx: Round, striker: Pick, victim: Pick) -> np.ndarray:
    """May ``striker`` make a free or counter strike at ``victim``? Not while re-rolling or
    retreating, nor at anyone but its partner while grappled."""
    ok = can_act(state, s, ctx, striker)
    if s.on.any:
        action = striker.get(state.x("action"))
        ok &= (action != REROLL) & (action != RETREAT)
        if s.on.grapple:
            partner = striker.get(state.x("partner"))
            ok &= (partner < 0) | (partner == victim.place())
    return ok


def declared_cover(state, s: Static, ctx: Round, victim: Pick, striker: Pick) -> np.ndarray:
    """Did ``victim`` declare a defence (or have a free one) against ``striker``?"""
    if ctx.cover is None:
        # Basic duels: only an attacker's own target can be covered, and ``defended`` says so.
        # (A basic group fight never asks: its declarations say which attacks draw a counter
        # strike, ``exposed``, a spare defence covering its own target included.)
        place = victim.row if victim.flat is None else victim.flat // victim.n
        return (striker.get(state.target) == place) & striker.get(state.defended)
    c = state.status.shape[0]
    if victim.flat is None and striker.flat is None:   # two plain rows: a row of ``cover``
        pair = ctx.cover[victim.row * c + striker.row]
        return pair.copy() if victim.rows is None else pair[victim.rows]   # (callers write)
    # (row ``victim * c + striker``: ``c * (victim's flat - trial) + striker's flat``)
    if victim.flat is None:
        flat = striker.flats() + victim.row * c * victim.n
    else:
        flat = c * (victim.flat - trials_of(victim)) + striker.flats()
    return ctx.cover.ravel()[flat]


def defends(state, s: Static, ctx: Round, victim: Pick, striker: Pick) -> np.ndarray:
    """Does ``victim`` roll a defence against ``striker`` now? Grappled, only its partner."""
    ok = declared_cover(state, s, ctx, victim, striker)
    if s.on.any:
        ok &= can_act(state, s, ctx, victim)
        if s.on.grapple:
            partner = victim.get(state.x("partner"))
            ok &= (partner < 0) | (partner == striker.place())
    return ok


def trials_of(p: Pick) -> np.ndarray:
    """The trials (state columns) a pick covers, in its order."""
    return trial_numbers(p.n) if p.rows is None else p.rows


def close(state, s: Static, a: Pick, t: Pick, size: int) -> np.ndarray | np.bool_:
    """Grapple partners fight inside each other's reach: no reach rules between them."""
    if not s.on.grapple:
        return np.False_      # (not Python's False: ~False is -1)
    return a.get(state.x("partner")) == t.place()
