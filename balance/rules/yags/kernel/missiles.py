"""Yags fights at a distance, vectorised: positions, closing in, loading and shooting
(docs/rules/yags-missiles.md; seed 000 Movement and Missile Combat).

Positions are ``state.pos`` (places, trials) in metres; the missile weapon's state is in the
``g_*`` rows of ``state.more``. :func:`plan` rewrites the round's declared attacks on foes
out of reach; :func:`act` performs a slot's distance actions and says which attacks are in
reach. ``reference/missiles.py`` is the readable scalar version these are tested against.
"""

from __future__ import annotations

import numpy as np

from balance.engine.distance import CLOSE, HOLD, KEEP_DISTANCE
from balance.engine.masks import set_where
from balance.engine.pick import Pick
from balance.engine.sparse import flat_true
from balance.engine.status import STANDING
from balance.rules.yags.compile import AUTO_MOVE, FULL_DEFENCE, HALF_DEFENCE, PLENTY
from balance.rules.yags.kernel import blasts, blows, counting, gear
from balance.rules.yags.kernel.choices import SADDLELESS
from balance.rules.yags.kernel.gear import fighter, place_of
from balance.rules.yags.kernel.rolls import d20
from balance.rules.yags.kernel.static import Static, fumble_index
from balance.rules.yags.kernel.turns import can_act
from balance.rules.yags.rules.ranged import (
    CLOSE_BAND,
    CONTACT,
    CRIPPLED,
    DRAW_BASE,
    DRAW_PER_REACH,
    FULL_MOVE,
    HALF_MOVE,
    LOAD,
    MAX_BANDS,
    MELEE_BAND,
    MOVE_BAND,
    NO_BAND,
    RUN,
    RUN_FACTOR,
    SHOOT,
    UNAFFECTED,
    WAIT,
    approach_of,
    distance_difficulty,
    distance_factor,
    falloff,
    in_range,
    keep_back,
    out_of_band,
    threat,
)
from balance.rules.yags.rules.tactics import ATTACK, shot_fumble_case
from balance.rules.yags.rules.tracks import (
    BREAK,
    DISARM,
    FAST,
    FATIGUE,
    N_KINDS,
    NORMAL_SPEED,
    SLOW,
    STUNLIKE,
    WOUNDS,
    levels_caused,
    shift_type,
    size_shift,
)

SHOT_SPEED = np.array([FAST, NORMAL_SPEED, SLOW], dtype=np.int16)   # snap, normal, careful


def seat(state, s: Static) -> None:
    """Positions and missile weapons at the start: loaded or not, drawn or not (seed 000:
    an unloaded Lo-0 weapon is loaded and fired in the first round as a slow snap shot)."""
    x = state.x
    who = state.who.astype(np.intp)
    state.pos[...] = s.start[who]
    has = fighter(s, "has_missile", who) > 0
    loaded = fighter(s, "m_loaded", who) > 0
    time = fighter(s, "m_time", who)
    ready = has & (loaded | (time == 0))
    x("g_ammo")[...] = np.where(has, fighter(s, "m_ammunition", who), 0)
    n = who.shape[1]
    for place in range(who.shape[0]):
        _refill_pick(state, s, Pick(place, n, flat_true(ready[place])))
    x("g_loading")[...] = np.where(has & ~ready, time, 0)
    x("g_snap")[...] = ready & ~loaded
    x("g_slow")[...] = ready & ~loaded
    x("g_draw")[...] = has & (fighter(s, "m_drawn", who) == 0)


def _gather(arr: np.ndarray, place: np.ndarray) -> np.ndarray:
    return np.take_along_axis(arr, np.maximum(place, 0).astype(np.intp), axis=0)


def _policy(s: Static, who: np.ndarray, armed: np.ndarray) -> np.ndarray:
    """Movement policy now: ``auto`` holds while it has something to shoot, else closes."""
    policy = fighter(s, "movement", who)
    return np.where(policy == AUTO_MOVE, np.where(armed, HOLD, CLOSE), policy)


def move_of(s: Static, who: np.ndarray, mounted: np.ndarray) -> np.ndarray:
    """Move score now: its mount's while it rides, its own on foot (thrown, or unhorsed)."""
    own = fighter(s, "move", who)
    if not s.on.mounted:
        return own
    return np.where(mounted > 0, fighter(s, "mount_move", who), own)


def band(partner, place_t, gap, t_reach, t_move):
    """Threat band the target puts the shooter in (seed 000, Reach and Close Combat)."""
    return np.where(partner == place_t, CLOSE_BAND,
                    np.where(gap <= CONTACT, np.where(t_reach == 0, CLOSE_BAND, MELEE_BAND),
                             np.where(gap <= t_move / 2, MOVE_BAND, NO_BAND)))


# --- Declarations ----------------------------------------------------------------------------


def plan(state, s: Static, action: np.ndarray, target: np.ndarray) -> None:
    """Rewrite declared attacks (in place) on foes out of reach: load, shoot, close in (the
    ``approach`` row), run or wait; set each place's speed override (``pace``)."""
    x = state.x
    x("approach")[...] = 0
    pace = x("pace")
    pace[...] = -1
    att = (action == ATTACK) & (x("partner") < 0)
    if not att.any():
        return
    n = action.shape[1]
    gap = np.abs(state.pos - _gather(state.pos, target))
    loading = (x("g_loading") > 0) | (x("g_down") > 0)   # (picking a dropped weapon up)
    armed = (x("g_shots") > 0) | loading
    contact = gap <= CONTACT
    # Only an attacker with a missile weapon in hand or out of melee distance can change its
    # declaration (a melee attacker unarmed for shooting keeps it): the rest on those places
    # alone, through their flat indices (every rule below is elementwise; docs/engine-
    # tricks.md, the places a rule concerns).
    f = flat_true(att & (armed | ~contact))
    if not f.size:
        return
    who = state.who.ravel().take(f)
    gap, loading, armed, contact = (a.ravel().take(f) for a in (gap, loading, armed, contact))
    policy = _policy(s, who, armed)
    gunner = armed & np.where(contact, fighter(s, "m_shoot_in_melee", who) > 0,
                              loading | in_range(gap, fighter(s, "m_range", who)))
    far = ~contact & ~gunner
    # Out of range, ``auto`` and ``close`` run in until the target is in range.
    raw = fighter(s, "movement", who)
    close = far & np.where(armed, (raw == AUTO_MOVE) | (raw == CLOSE), policy == CLOSE)
    how = approach_of(gap - CONTACT, move_of(s, who, x("mounted").ravel().take(f)))
    run = close & (armed | (how == RUN))
    charge = close & ~run
    act = action.ravel().take(f)
    set_where(act, gunner & loading, LOAD)
    shoot = gunner & ~loading
    set_where(act, shoot, SHOOT)
    set_where(act, run, RUN)
    set_where(act, far & ~close, WAIT)
    action.ravel()[f] = act
    approach = np.zeros(f.size, dtype=np.int16)
    set_where(approach, charge, how)
    x("approach").ravel()[f] = approach
    speed = np.full(f.size, -1, dtype=np.int16)
    set_where(speed, charge & (how == FULL_MOVE), SLOW)
    if shoot.any():
        place_t = target.ravel().take(f)
        at = np.maximum(place_t, 0).astype(np.intp) * n + f % n   # (the target, same trial)
        who_t = state.who.ravel().take(at)
        b = band(x("partner").ravel().take(f), place_t, gap, x("reach").ravel().take(at),
                 move_of(s, who_t, x("mounted").ravel().take(at)))
        slow = (x("g_slow").ravel().take(f) > 0) | (x("g_draw").ravel().take(f) > 0) | (
            threat(fighter(s, "m_reach", who), b) == CRIPPLED)
        set_where(speed, shoot, np.where(slow, SLOW, SHOT_SPEED[fighter(s, "m_shot", who)]))
    pace.ravel()[f] = speed


# --- One slot ---------------------------------------------------------------------------------


def act(state, s: Static, ctx, me: Pick, tgt: Pick, ok: np.ndarray,
        rng: np.random.Generator) -> np.ndarray:
    """The distance actions of the place acting in this slot (where ``ok``: it may act):
    a closer's approach, loading, running, shooting. Returns where its target is within
    melee distance once it has moved (its attack, if it declared one, goes ahead there)."""
    x = state.x
    action = me.get(x("action"))
    up = tgt.get(state.status) == STANDING
    who = move = None

    def moves():   # (its fighter and Move, gathered only for a slot that moves)
        nonlocal who, move
        if move is None:
            who = me.get(state.who).astype(np.intp)
            move = move_of(s, who, me.get(x("mounted"))).astype(np.float64)
        return move

    charge = ok & up & (action == ATTACK) & (me.get(x("approach")) > 0)
    if charge.any():
        allowed = np.where(me.get(x("approach")) == HALF_MOVE, moves() / 2, moves())
        _walk(state, me, tgt, charge, allowed, CONTACT)
    loads = ok & (action == LOAD)
    if loads.any():
        _load(state, s, me.sub(flat_true(loads)))
    run = ok & up & (action == RUN)
    if run.any():
        move = moves()
        armed = ((me.get(x("g_shots")) > 0) | (me.get(x("g_loading")) > 0)
                 | (me.get(x("g_down")) > 0))
        stop = np.where(armed, MAX_BANDS * fighter(s, "m_range", who), CONTACT)
        _walk(state, me, tgt, run, RUN_FACTOR * move, stop)
        me.put(x("ran"), np.full(run.size, ctx.round_no, dtype=np.int16), run)
    shoot = ok & up & (action == SHOOT)
    if shoot.any():
        rows = flat_true(shoot)
        _shoot(state, s, ctx, me.sub(rows), tgt.sub(rows), rng)
    return np.abs(me.get(state.pos) - tgt.get(state.pos)) <= CONTACT


def _walk(state, me: Pick, tgt: Pick, where: np.ndarray, allowed, stop) -> None:
    """Move towards the target, at most ``allowed`` metres, stopping ``stop`` metres short."""
    mine, theirs = me.get(state.pos), tgt.get(state.pos)
    step = np.minimum(allowed, np.maximum(np.abs(theirs - mine) - stop, 0.0))
    me.put(state.pos, mine + np.where(theirs >= mine, 1.0, -1.0) * step, where)


def _load(state, s: Static, me: Pick) -> None:
    """One round of loading; loaded, the next shot is slow (seed 000). A weapon a fumbled shot
    dropped is picked up instead (the round's action; its loading waits)."""
    x = state.x
    zeros = np.zeros(me.rows.size, dtype=np.int16)
    me.put(x("g_draw"), zeros)
    down = me.get(x("g_down")) > 0
    me.put(x("g_down"), zeros, down)
    loading = ~down & (me.get(x("g_loading")) > 0)
    left = me.get(x("g_loading")) - loading
    me.put(x("g_loading"), left)
    done = loading & (left == 0)
    if done.any():
        p = me.sub(flat_true(done))
        _refill_pick(state, s, p)
        p.put(x("g_slow"), np.ones(p.rows.size, dtype=np.int16))


def _refill_pick(state, s: Static, p: Pick) -> None:
    """Load a magazine (one shot for a single-shot weapon) from the carried ammunition."""
    x = state.x
    ammo = p.get(x("g_ammo"))
    mag = fighter(s, "m_magazine", p.get(state.who).astype(np.intp))
    shots = np.where(ammo == PLENTY, mag, np.minimum(mag, ammo))
    p.put(x("g_shots"), shots)
    p.put(x("g_ammo"), np.where(ammo == PLENTY, ammo, ammo - shots))


def _shoot(state, s: Static, ctx, a: Pick, t: Pick, rng: np.random.Generator) -> None:
    """Shooting actions: a step (keep_distance or close), then one shot, or several with a
    rate of fire above one where it did not move and declared no defence."""
    x = state.x
    h = a.rows.size
    who = a.get(state.who).astype(np.intp)
    who_t = t.get(state.who).astype(np.intp)
    rng_band = fighter(s, "m_range", who)
    half = move_of(s, who, a.get(x("mounted"))) / 2
    t_move = move_of(s, who_t, t.get(x("mounted")))
    policy = _policy(s, who, np.ones(h, dtype=bool))
    mine, theirs = a.get(state.pos), t.get(state.pos)
    gap = np.abs(theirs - mine)
    back = np.where(policy == KEEP_DISTANCE, keep_back(gap, t_move, half, rng_band), 0.0)
    # ``auto`` gives ground out of a threat band that would impair or cripple its weapon.
    auto = fighter(s, "movement", who) == AUTO_MOVE
    back = np.where(auto, out_of_band(gap, fighter(s, "m_reach", who), t_move, half, rng_band),
                    back)
    fwd = np.where(policy == CLOSE, np.minimum(half, np.maximum(gap - CONTACT, 0.0)), 0.0)
    mine = mine + np.where(theirs >= mine, 1.0, -1.0) * (fwd - back)
    a.put(state.pos, mine)
    moved = (back + fwd) > 0
    gap = np.abs(theirs - mine)
    ok = in_range(gap, rng_band)
    factor = distance_factor(fighter(s, "m_shot", who),
                             (a.get(x("g_snap")) > 0) | (a.get(x("g_draw")) > 0))
    if s.on.mounted:
        # Seed 000, Archery from Horseback: from a moving mount the distance doubles and the
        # rider checks as in melee: failing, it loses the shot and checks again or falls.
        riding = moved & (a.get(x("mounted")) > 0)
        factor = np.where(riding, 2 * factor, factor)
        riding &= ok
        if riding.any():
            failed = riding & ~_ride(state, s, a, who, rng)
            if failed.any():
                fall = failed & ~_ride(state, s, a, who, rng)
                if fall.any():
                    gear.knock_down(state, s, a.sub(flat_true(fall)))
            ok &= ~failed
    effect = threat(fighter(s, "m_reach", who),
                    band(a.get(x("partner")), place_of(t, h), gap, t.get(x("reach")), t_move))
    difficulty = distance_difficulty(gap * factor)
    wanted = np.where(~moved & (a.get(x("declared")) == 0), fighter(s, "m_shots", who), 1)
    draw = (a.get(x("g_draw")) > 0) * (DRAW_BASE + DRAW_PER_REACH * fighter(s, "m_reach", who))
    zero = np.zeros(h, dtype=np.int16)
    for name in ("g_draw", "g_snap", "g_slow"):
        a.put(x(name), zero, ok)
    fire = np.where(ok, np.minimum(wanted, a.get(x("g_shots"))), 0)
    impaired = effect != UNAFFECTED
    attack = (fighter(s, "m_attack", who) - impaired * fighter(s, "m_bonus", who)).astype(
        np.int32)
    recoil = fighter(s, "m_recoil", who)
    firearm = fighter(s, "m_firearm", who) > 0
    for k in range(int(fire.max(initial=0))):
        live = (k < fire) & (a.get(state.status) == STANDING) & (t.get(state.status) == STANDING)
        if s.missile_fumbles and k:   # a fumble dropped or broke the weapon: no more shots
            live &= (a.get(x("g_down")) == 0) & (a.get(x("g_shots")) > 0)
        if not live.any():
            break
        a.add(x("g_shots"), -live.astype(np.int16))
        die = d20(rng, (2, h))
        roll = attack + a.get(ctx.rpen) - k * recoil - (k == 0) * draw + die[0]
        roll = np.where(effect == CRIPPLED, roll // 2, roll)
        # Seed 000, Impaired: "full defence (even against firearms)"; otherwise by
        # rules.missile_defence: half (not against firearms), full or none.
        full = impaired | (s.missile_defence == FULL_DEFENCE)
        half = ~full & (s.missile_defence == HALF_DEFENCE) & ~firearm
        defence = t.get(state.defence)
        parry = np.where(full, defence, defence // 2) + t.get(ctx.rpen) + die[1]
        defends = (full | half) & can_act(state, s, ctx, t) & (die[1] != 1)
        against = np.where(defends, np.maximum(difficulty, parry), difficulty)
        hits = flat_true(live & (die[0] != 1) & (roll >= against))
        if state.counts is not None:   # the breakdown (vector/counting.py): a shot
            counting.roll(state, a, t, live, live & (die[0] != 1) & (roll >= against),
                          die[0] == 1, np.zeros(h, dtype=bool))
        if hits.size:
            _hit(state, s, ctx, a.sub(hits), t.sub(hits), gap[hits], rng)
        if s.missile_fumbles:
            fumbled = flat_true(live & (die[0] == 1))
            if fumbled.size:
                _fumble(state, s, ctx, a.sub(fumbled), t.sub(fumbled))
    empty = ok & (a.get(x("g_shots")) == 0)
    ammo = a.get(x("g_ammo"))
    empty &= (ammo == PLENTY) | (ammo > 0)
    if empty.any():
        time = fighter(s, "m_time", who)
        if s.lo0_aim:   # rules.lo0_shots aim: a round of loading, then the declared shot
            time = np.maximum(time, 1)
        now = empty & (time == 0)
        if now.any():
            p = a.sub(flat_true(now))
            _refill_pick(state, s, p)
            if s.lo0_snap:   # rules.lo0_shots snap: loaded and fired in one round
                ones = np.ones(p.rows.size, dtype=np.int16)
                p.put(x("g_snap"), ones)
                p.put(x("g_slow"), ones)
        a.put(x("g_loading"), time, empty & (time > 0))


def _fumble(state, s: Static, ctx, a: Pick, t: Pick) -> None:
    """Fumbled shots (seed 000: "When making an attack or defence roll, if you roll a natural
    '1', then a fumble occurs"; rules.missile_fumbles results): already a miss; the result is
    picked by the shooter, or by its target if more skilled ("unless your opponent has a
    higher skill"), from the attack fumble's results that make sense for a shot
    (``rules.tactics.shot_fumble_case``), through the fumble table of
    ``rules.tactics.fumble_choice``:
    fatigue; the weapon dropped (a round to pick it up: ``g_down``); a weak weapon broken
    (no more shots: the shooter fights on as one without a missile weapon)."""
    x = state.x
    h = a.rows.size
    who = a.get(state.who).astype(np.intp)
    foe_picks = t.get(state.skill) > fighter(s, "m_skill", who)
    chooser = np.where(foe_picks, t.get(state.who), who).astype(np.intp)
    losable, weak = shot_fumble_case(fighter(s, "m_thrown", who) > 0,
                                     fighter(s, "m_weak", who) > 0)
    tiring = gear.exhausts(state, s, a) if s.on.exhaustion else np.zeros(h, dtype=bool)
    result = s.fumble_choice[fumble_index(chooser, foe_picks.astype(np.intp), 0,
                                          losable.astype(np.intp), weak.astype(np.intp), 0,
                                          tiring.astype(np.intp), 0)]
    gear.tire(state, s, ctx, a, result == FATIGUE)
    a.put(x("g_down"), np.ones(h, dtype=np.int16), result == DISARM)
    broken = result == BREAK
    if broken.any():
        zero = np.zeros(h, dtype=np.int16)
        for name in ("g_shots", "g_ammo", "g_loading", "g_down"):
            a.put(x(name), zero, broken)


def _land(state, s: Static, ctx, t: Pick, blast, rng: np.random.Generator) -> None:
    """A thrown explosive's blast on the places of ``t`` (one per trial of its rows)."""
    n = state.status.shape[1]
    go = np.zeros(n, dtype=bool)
    go[t.rows] = True
    place = np.zeros(n, dtype=np.intp)
    place[t.rows] = place_of(t, t.rows.size)
    distance = np.abs(state.pos - state.pos[place, np.arange(n)])
    blasts.explode(blast, state, s, rng, go=go, distance=distance, ctx=ctx)


def _ride(state, s: Static, a: Pick, who: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Seed 000: agility x riding against the riding difficulty (+5 without a saddle)."""
    die = d20(rng, who.size)
    total = fighter(s, "agility", who) * fighter(s, "riding", who) + gear.condition(state, s, a)
    target = s.riding_difficulty + SADDLELESS * (fighter(s, "mount_saddle", who) == 0)
    return (die != 1) & (total + die >= target)


def _hit(state, s: Static, ctx, a: Pick, t: Pick, gap: np.ndarray,
         rng: np.random.Generator) -> None:
    """A missile's damage: weapon damage less the range fall-off against the soak for its
    kind of blow; the type shifts by Size as in melee. An explosive lands its blast on the
    target instead (everyone within three radii of it takes it, the thrower too)."""
    who = a.get(state.who).astype(np.intp)
    if s.on.blasts:
        thrown = fighter(s, "m_blast", who) > 0
        for f in np.unique(who[thrown]):
            rows = flat_true(thrown & (who == f))
            _land(state, s, ctx, t.sub(rows), s.blasts[f], rng)
        keep = flat_true(~thrown)
        if keep.size < who.size:
            a, t, gap, who = a.sub(keep), t.sub(keep), gap[keep], who[keep]
    who_t = t.get(state.who).astype(np.intp)
    base = fighter(s, "m_damage_type", who)
    kind = fighter(s, "m_kind", who) | STUNLIKE * (base != WOUNDS)
    soak = s.soak_vs[who_t * N_KINDS + kind]
    damage = fighter(s, "m_damage", who) - falloff(gap, fighter(s, "m_range", who)).astype(
        np.int32)
    die = d20(rng, (2, who.size))
    levels = levels_caused(damage + die[0], soak + die[1])
    shift = size_shift(2 * fighter(s, "size", who), 2 * fighter(s, "size", who_t))
    kind_of = shift_type(base, shift)
    harmed = flat_true(levels)
    if harmed.size:
        before = counting.body(state, t) if state.counts is not None else None
        blows.harm(state, s, ctx, t.sub(harmed), kind_of[harmed], levels[harmed], rng)
        if before is not None:
            counting.dealt(state, a, t, before)
        gear.settle(state, s, ctx.rpen)
