"""Manoeuvres, grappling and the actions that are not attacks (seed 000, "Melee
Manoeuvres", "Other Actions"), vectorised over the trials of one slot.
"""

from __future__ import annotations

import numpy as np

from balance.engine.pick import Pick
from balance.engine.sparse import flat_true
from balance.rules.yags.kernel import blows, gear
from balance.rules.yags.kernel.gear import condition, fighter, place_of
from balance.rules.yags.kernel.rolls import d20_rows
from balance.rules.yags.kernel.static import Static, code_set
from balance.rules.yags.kernel.turns import can_act
from balance.rules.yags.rules.tactics import (
    DISARM_FOE,
    ESCAPE,
    GRAPPLE,
    IMPROVE_HOLD,
    MEET_BLOCK,
    MEET_DODGE,
    NO_DAMAGE_MANOEUVRES,
    OVERWHELM,
    PICK_UP,
    STAND_UP,
    TIRING,
    TRIP,
)
from balance.rules.yags.rules.tracks import OVERWHELM_STEP, STUNS

IS_NO_DAMAGE = code_set(NO_DAMAGE_MANOEUVRES)
IS_TIRING = code_set(TIRING)
SUPERB = 4


def other_actions(state, s: Static, ctx, me: Pick, ok: np.ndarray,
                  rng: np.random.Generator) -> None:
    """Standing up, picking up a dropped weapon, escaping a hold: the actions that are not
    attacks, for the trials where the place may act."""
    x = state.x
    action = me.get(x("action"))
    n = ok.size
    if s.on.prone:
        up = ok & (action == STAND_UP)
        if up.any():
            me.put(x("prone"), np.zeros(n, dtype=np.int16), up)
            gear.refresh(state, s, me.sub(flat_true(up)))
    if s.on.gear_changes:
        pick = ok & (action == PICK_UP)
        if pick.any():
            p = me.sub(flat_true(pick))
            main = p.get(x("main_down")) > 0
            spare = ~main & (p.get(x("spare_down")) > 0)
            p.put(x("weapons"), np.where(main, 0, np.where(spare, 1, p.get(x("weapons")))))
            p.put(x("main_down"), np.zeros(main.size, dtype=np.int16), main)
            p.put(x("spare_down"), np.zeros(main.size, dtype=np.int16), spare)
            gear.refresh(state, s, p)
    if s.on.grapple:
        out = ok & (action == ESCAPE) & (me.get(x("partner")) >= 0)
        if out.any():
            p = me.sub(flat_true(out))
            holder = _partner(state, p)
            strength = np.maximum(0, fighter(s, "strength", p.get(state.who).astype(np.intp))
                                  - p.get(x("hold")))
            won = contest(state, s, p, holder, rng, a_strength=strength) > 0
            if won.any():
                release(state, s, ctx, p.sub(flat_true(won)))


def _partner(state, p: Pick) -> Pick:
    """The grapple partners of a pick's places, as a pick on the same trials."""
    rows = p.rows if p.rows is not None else np.arange(p.n)
    full = np.full(p.n, -1, dtype=np.int16)
    full[rows] = p.get(state.x("partner"))
    return Pick(full, p.n, None).sub(rows)


def release(state, s: Static, ctx, p: Pick) -> None:
    """End the grapples of a pick's places, for both partners."""
    x = state.x
    other = _partner(state, p)
    size = p.rows.size if p.rows is not None else p.n
    for q in (p, other):
        for name, value in (("partner", -1), ("holding", 0), ("hold", 0), ("neck", 0)):
            q.put(x(name), np.full(size, value, dtype=np.int16))
        gear.refresh(state, s, q)
    gear.sync_penalty(state, s, ctx.rpen)


def contest(state, s: Static, a: Pick, t: Pick, rng: np.random.Generator, *,
            a_strength: np.ndarray | None = None) -> np.ndarray:
    """Strength x brawl contests (seed 000): ``a`` wins on an equal or higher roll. Returns
    its levels of success per trial, 0 where it lost."""
    wa = a.get(state.who).astype(np.intp)
    wt = t.get(state.who).astype(np.intp)
    strength = fighter(s, "strength", wa) if a_strength is None else a_strength
    d = d20_rows(rng, (2,), a.rows, wa.size)
    ra = strength * fighter(s, "brawl", wa) + condition(state, s, a) + d[0]
    rt = fighter(s, "strength", wt) * fighter(s, "brawl", wt) + condition(state, s, t) + d[1]
    return (ra >= rt) * (1 + (ra - rt) // s.success_step)


def land(state, s: Static, ctx, att: Pick, tgt: Pick, m: np.ndarray, level: np.ndarray,
         to_damage: np.ndarray | None, rng: np.random.Generator) -> None:
    """The effects of successful attacks and manoeuvres (one entry per hit)."""
    x = state.x

    def sub(mask):
        rows = flat_true(mask)
        return rows, att.sub(rows), tgt.sub(rows)

    hurt = ~IS_NO_DAMAGE.take(m)
    if hurt.any():
        rows, a, t = sub(hurt)
        blows.blow(state, s, ctx, a, t, rng, manoeuvre=m[rows],
                   to_damage=None if to_damage is None else to_damage[rows])
    over = m == OVERWHELM
    if over.any():
        rows, a, t = sub(over)      # the rest of this round, against anyone
        t.add(ctx.rpen, (-OVERWHELM_STEP * level[rows]).astype(np.int16))
    disarm = m == DISARM_FOE
    if disarm.any():
        # A superb disarm with a free hand grabs the weapon: it cannot be picked up.
        rows, a, t = sub(disarm)
        grab = (level[rows] >= SUPERB) & (gear.fact(state, s, a, "free_hand") > 0)
        gear.lose_weapon(state, s, t, ~grab)
    grab = m == GRAPPLE
    if grab.any():
        rows, a, t = sub(grab)
        grapple(state, s, ctx, a, t, rng)
    tripping = m == TRIP
    if tripping.any():
        rows, a, t = sub(tripping)
        trip(state, s, ctx, a, t, rng)
    better = m == IMPROVE_HOLD
    if better.any():
        rows, a, t = sub(better)
        t.add(x("hold"), (level[rows] - 1).astype(np.int16))   # good +1, and +1 a level more
        gear.sync_penalty(state, s, ctx.rpen)
    tiring = IS_TIRING.take(m)
    if tiring.any():
        gear.tire(state, s, ctx, att, tiring)


def grapple(state, s: Static, ctx, a: Pick, t: Pick, rng: np.random.Generator) -> None:
    """Seed 000, Grapple: a contest to keep hold; won, the target is held at -1 attribute per
    level of success and loses the rest of its actions this round."""
    x = state.x
    levels = contest(state, s, a, t, rng)
    won = flat_true(levels)
    if not won.size:
        return
    a, t, levels = a.sub(won), t.sub(won), levels[won]
    size = won.size
    a.put(x("partner"), place_of(t, size))
    t.put(x("partner"), place_of(a, size))
    a.put(x("holding"), np.ones(size, dtype=np.int16))
    t.put(x("holding"), np.zeros(size, dtype=np.int16))
    t.put(x("hold"), levels.astype(np.int16))
    t.put(x("neck"), fighter(s, "neck", a.get(state.who).astype(np.intp)))
    t.put(x("lost"), np.full(size, ctx.round_no, dtype=np.int16))
    gear.refresh(state, s, a)
    gear.refresh(state, s, t)
    gear.sync_penalty(state, s, ctx.rpen)


def trip(state, s: Static, ctx, a: Pick, t: Pick, rng: np.random.Generator) -> None:
    """Seed 000, Trip: a contest to throw; won, the target is prone and takes a stun per
    extra level of success."""
    levels = contest(state, s, a, t, rng)
    won = flat_true(levels)
    if not won.size:
        return
    t, levels = t.sub(won), levels[won]
    gear.knock_down(state, s, t)
    stuns = flat_true(levels > 1)
    if stuns.size:
        blows.harm(state, s, ctx, t.sub(stuns), np.full(stuns.size, STUNS, dtype=np.int16),
                   (levels[stuns] - 1).astype(np.int16), rng)


def charge_through(state, s: Static, ctx, a: Pick, t: Pick, rng: np.random.Generator) -> None:
    """Seed 000, Charge through: the defender steps aside (nothing happens) or blocks (a
    contest of strength x brawl; the loser is knocked prone). Policy ``auto`` blocks when at
    least as strong a brawler; a defender who cannot act blocks."""
    wa = a.get(state.who).astype(np.intp)
    wt = t.get(state.who).astype(np.intp)
    meet = fighter(s, "meet_charge", wt)
    strong = (fighter(s, "strength", wt) * fighter(s, "brawl", wt)
              >= fighter(s, "strength", wa) * fighter(s, "brawl", wa))
    dodge = can_act(state, s, ctx, t) & ((meet == MEET_DODGE) | ((meet != MEET_BLOCK) & ~strong))
    block = flat_true(~dodge)
    if not block.size:
        return
    a, t = a.sub(block), t.sub(block)
    won = contest(state, s, a, t, rng) > 0
    if won.any():
        gear.knock_down(state, s, t.sub(flat_true(won)))
    if (~won).any():
        gear.knock_down(state, s, a.sub(flat_true(~won)))
