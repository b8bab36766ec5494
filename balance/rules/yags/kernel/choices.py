"""A detailed fight's policy choices at declaration time (vectorised): grappled fighters'
actions, re-arming, manoeuvres and how each attack is made, and riders' riding checks.
The reference's ``reference/declare.py`` makes the same choices one fighter at a time.
"""

from __future__ import annotations

import numpy as np

from balance.engine.masks import set_where
from balance.engine.pick import Pick
from balance.engine.sparse import flat_true
from balance.rules.yags.kernel.gear import fact, fighter, helpless, per_place, refresh, tiredness
from balance.rules.yags.kernel.rolls import d20_where
from balance.rules.yags.kernel.static import N_LOADOUTS, Static, code_set
from balance.rules.yags.rules.tactics import (
    ATTACK,
    BREAK_LIMB,
    BREAK_NECK,
    DISARM_FOE,
    ESCAPE,
    HOLD_BREAK,
    HOLD_IMPROVE,
    HOLD_IMPROVE_THEN_BREAK,
    IMPROVE_HOLD,
    IMPROVED,
    KNOCKDOWN,
    MASSIVE,
    NO_ACTION,
    NONE,
    PICK_UP,
    REARM_AUTO,
    REARM_PICK_UP,
    REARM_SPARE,
    UNARMED,
)
from balance.rules.yags.rules.tracks import DRAW_STEP, TRACK_PENALTY

IS_UNARMED = code_set(UNARMED)
SADDLELESS = 5   # seed 000: riding checks 5 harder without saddle and stirrups


def grappled(state, s: Static, free, action, target, manoeuvre, mod) -> None:
    """Held fighters escape (or fight their holder); holders work their hold (policy
    ``holding``); either may first drop its weapon for a shorter spare."""
    x = state.x
    n = action.shape[1]
    who = state.who
    partner = x("partner")
    g = free & (partner >= 0)
    held = g & (x("holding") == 0)
    escape = held & (per_place(s, "escape", who) > 0)   # (one policy for all: no gather)
    set_where(action, escape, ESCAPE)
    set_where(target, escape, partner)
    fights = g & ~escape
    if s.on.gear_changes:
        drop = fights & (x("weapons") == 0) & (x("spare_left") > 0)
        flat = flat_true(drop)
        if flat.size:   # (the policy and the spare's reach looked up for those only)
            mine = who.ravel().take(flat)
            spare_reach = s.loadout["reach"].take(mine.astype(np.intp) * N_LOADOUTS + 1)
            keep = ~((fighter(s, "switch_when_grappled", mine) > 0)
                     & (spare_reach < x("reach").ravel().take(flat)))
            drop.ravel()[flat[keep]] = False
        if drop.any():
            x("main_down")[drop] = 1        # seed 000: dropping a weapon is free
            draw_spare(state, s, drop, mod)
    set_where(action, fights, ATTACK)
    set_where(target, fights, partner)
    holder = flat_true(fights & (x("holding") > 0))
    if holder.size:
        # On the holders only, through their flat indices (and their partners', same trial:
        # docs/engine-tricks.md, the places a rule concerns).
        on = np.maximum(partner.ravel().take(holder), 0).astype(np.intp) * n + holder % n
        limp = helpless(state, s, on)
        breaking = np.where(x("neck").ravel().take(on) > 0, BREAK_NECK, BREAK_LIMB)
        h = fighter(s, "holding", who.ravel().take(holder))
        m = np.where(h == HOLD_IMPROVE_THEN_BREAK, np.where(limp, breaking, IMPROVE_HOLD),
                     np.where(h == HOLD_BREAK, breaking,
                              np.where(h == HOLD_IMPROVE, IMPROVE_HOLD, NONE)))
        manoeuvre.ravel()[holder] = m


def draw_spare(state, s: Static, where: np.ndarray, mod: np.ndarray) -> None:
    """Seed 000, Drawing a weapon: used the same round, at -5 per reach that round."""
    x = state.x
    who = state.who.astype(np.intp)
    set_where(x("weapons"), where, 1)
    set_where(x("spare_left"), where, 0)
    draw = s.loadout["draw"][who * N_LOADOUTS + 1]
    mod -= (DRAW_STEP * draw * where).astype(np.int16)


def rearm(state, s: Static, free, action, mod) -> np.ndarray:
    """A place whose primary hand is lost draws its spare (and attacks) or spends the round
    picking up a dropped weapon (policy ``rearm``). Returns who picks up."""
    x = state.x
    pick = np.zeros(free.shape, dtype=bool)
    # (Looked at on the bare places only, through their flat indices: few of them, and the
    # policy's gather and tests over every place cost more than finding them;
    # docs/engine-tricks.md, the places a rule concerns.)
    flat = flat_true(free & (x("weapons") == 2))
    if not flat.size:
        return pick
    r = fighter(s, "rearm", state.who.ravel().take(flat))
    draws = (x("spare_left").ravel().take(flat) > 0) & ((r == REARM_AUTO) | (r == REARM_SPARE))
    if draws.any():
        draw = np.zeros(free.shape, dtype=bool)
        draw.ravel()[flat[draws]] = True
        draw_spare(state, s, draw, mod)
    down = (x("main_down").ravel().take(flat) > 0) | (x("spare_down").ravel().take(flat) > 0)
    picks = ~draws & down & ((r == REARM_AUTO) | (r == REARM_PICK_UP))
    pick.ravel()[flat[picks]] = True
    set_where(action, pick, PICK_UP)
    return pick


def choose_manoeuvres(state, s: Static, attack, target, manoeuvre, round_no: int) -> None:
    """The manoeuvre each attacker's policy declares where it makes sense (see the reference's
    ``choose_manoeuvre``); mounted charges, attacks at mounts and stunts."""
    x = state.x
    c, n = attack.shape
    who = state.who.astype(np.intp)
    free = attack & (x("partner") < 0)
    for name in ("at_mount", "charging", "stunting"):
        x(name)[:] = 0
    for place in range(c):
        rows = flat_true(free[place])
        if not rows.size:
            continue
        me, foe = Pick(place, n, rows), Pick(target[place], n, rows)
        mine = who[place].take(rows)   # (a row's take: arr[place, rows] is ~6x slower)
        at_mount = np.zeros(rows.size, dtype=bool)
        if s.on.mounted:
            at_mount = (fighter(s, "attack_mount", mine) > 0) & (foe.get(x("mounted")) > 0)
            x("at_mount")[place][rows] = at_mount
            # Seed 000: after at least a full round of charging: round 1 when the fight starts
            # in melee; at a distance, the round after the rider ran at its foe.
            charged = (me.get(x("ran")) == round_no - 1) if s.on.distance else round_no == 1
            x("charging")[place][rows] = ((fighter(s, "charge", mine) > 0) & charged
                                          & (me.get(x("mounted")) > 0))
        if s.on.stunts:
            x("stunting")[place][rows] = (fighter(s, "stunt_difficulty", mine) >= 0) & (
                (round_no == 1) | (fighter(s, "stunt_first_round", mine) == 0))
        if not s.on.manoeuvres:
            continue
        m = fighter(s, "manoeuvre", mine)
        m = m * ((round_no == 1) | (fighter(s, "first_round_only", mine) == 0))
        prone = foe.get(x("prone")) > 0
        unarmed_ok = ((fact(state, s, me, "unarmed") > 0) & ~prone & (foe.get(x("mounted")) == 0)
                      & (me.get(x("mounted")) == 0) & (foe.get(x("partner")) < 0))
        ok = ~at_mount | (m == IMPROVED) | (m == MASSIVE)
        ok &= (m != DISARM_FOE) | (fact(state, s, foe, "losable") > 0)
        ok &= (m != KNOCKDOWN) | ~prone
        ok &= ~IS_UNARMED.take(m) | unarmed_ok
        manoeuvre[place][rows] = m * ok


def riding_checks(state, s: Static, can, cover, rng) -> None:
    """Seed 000, Mounted Combat: agility x riding against 15 (+5 without a saddle) for riders
    who declared attacks or defences without the mounted combat technique; failing, the rider
    loses its attack and checks again to stay on, or falls, prone."""
    x = state.x
    c, n = can.shape
    who = state.who.astype(np.intp)
    busy = (x("action") == ATTACK) | cover.reshape(c, c, n).any(axis=1)
    tech = (fighter(s, "mounted_combat", who) > 0) & (x("technique") > 0)
    need = (x("mounted") > 0) & busy & can & ~tech
    if not need.any():
        return
    target = s.riding_difficulty + SADDLELESS * (1 - fighter(s, "mount_saddle", who))
    total = (fighter(s, "agility", who) * fighter(s, "riding", who)
             + TRACK_PENALTY.take(state.wounds) + TRACK_PENALTY.take(state.stuns)
             + tiredness(s, state.fatigue))
    d = d20_where(rng, need)
    fail = need & ((d == 1) | (total + d < target))
    if not fail.any():
        return
    lose = fail & (x("action") == ATTACK)
    set_where(x("action"), lose, NO_ACTION)
    set_where(state.attacking, lose, False)
    d = d20_where(rng, fail)
    fall = fail & ((d == 1) | (total + d < target))
    if fall.any():
        set_where(x("prone"), fall, 1)
        set_where(x("mounted"), fall, 0)
        refresh(state, s, where=fall)
