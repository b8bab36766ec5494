"""What a blow does (seed 000, "Inflicting Damage", "Advanced Armour", "Size effects on
Damage", the damage manoeuvres), vectorised over the trials of the hits.

A blow is the damage roll against the soak roll, and its levels go on the tracks by the
weapon's type (``tracks_after``, ``health_checks``; basic fights look both up in tables:
``basic.py``); the detailed rules (armour by kind of blow, damage types shifted by light
weapons and size, mounts as targets, vitals) join only where ``s.on`` says.
"""

from __future__ import annotations

import numpy as np

from balance.engine.pick import Pick
from balance.engine.sparse import flat_true
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS
from balance.rules.yags.kernel import gear
from balance.rules.yags.kernel.gear import fighter
from balance.rules.yags.kernel.rolls import d20_for, d20_rows
from balance.rules.yags.kernel.static import Static
from balance.rules.yags.rules.tactics import (
    BREAK_LIMB,
    BREAK_LIMB_LEVELS,
    BREAK_NECK,
    BREAK_NECK_BASE,
    BREAK_NECK_LEVELS,
    CRUSHING_KNOCKBACK,
    DAMAGE_BONUS,
    KNOCKDOWN,
    KNOCKDOWN_STRENGTH,
    N_MANOEUVRES,
    VITAL,
)
from balance.rules.yags.rules.tracks import (
    BROKEN_LIMB_PENALTY,
    EXTRA_LEVEL_STEP,
    FATAL,
    HEALTH_CHECK_BASE,
    INEFFECTIVE,
    MIXED,
    N_KINDS,
    STUNLIKE,
    STUNS,
    TRACK_PENALTY,
    WOUNDS,
    apply_stuns,
    health_target,
    levels_caused,
    shift_type,
    size_shift,
)

BONUS = np.array([DAMAGE_BONUS.get(m, 0) for m in range(N_MANOEUVRES)], dtype=np.int16)


def blow(state, s: Static, ctx, att: Pick, tgt: Pick, rng: np.random.Generator, *,
         manoeuvre: np.ndarray | None = None, to_damage: np.ndarray | None = None) -> None:
    """Damage from the hits of ``att`` on ``tgt`` (one entry per hit), in a detailed fight
    (basic fights: ``basic.py``)."""
    x = state.x
    h = att.rows.size
    base = att.get(state.damage_type).astype(np.int16)
    damage = att.get(state.damage)
    if manoeuvre is not None:
        base = np.where(manoeuvre == KNOCKDOWN, STUNS, base)   # knockdown: stun damage
        damage = damage + BONUS[manoeuvre]
    if to_damage is not None:
        damage = damage + to_damage
    on_mount = np.zeros(h, dtype=bool)
    if s.on.mounted:
        who_a = att.get(state.who).astype(np.intp)
        damage = damage + (att.get(x("charging")) > 0) * fighter(s, "mount_strength", who_a)
        on_mount = (att.get(x("at_mount")) > 0) & (tgt.get(x("mounted")) > 0)
    if s.on.armour_kinds:
        kind = gear.fact(state, s, att, "kind") | STUNLIKE * ((base == MIXED) | (base == STUNS))
        flat = tgt.get(state.who).astype(np.intp) * N_KINDS + kind
        soak = np.where(on_mount, s.mount_soak_vs[flat], s.soak_vs[flat])
    else:
        soak = tgt.get(state.soak)
    d = d20_rows(rng, (2,), att.rows, h)   # damage, soak (for the hits' trials)
    roll = damage + d[0]
    levels = levels_caused(roll, soak + d[1])
    kind_of = base
    by_size = None
    if s.on.shifts:
        who_t = tgt.get(state.who).astype(np.intp)
        heavy = np.where(on_mount, fighter(s, "mount_heavy_suit", who_t),
                         fighter(s, "heavy_suit", who_t))
        size = np.where(on_mount, fighter(s, "mount_size", who_t), fighter(s, "size", who_t))
        by_size = size_shift(gear.fact(state, s, att, "size2"), 2 * size)
        kind_of = shift_type(base, (gear.fact(state, s, att, "light") > 0) * heavy + by_size)
    if not (s.on.manoeuvres or s.on.mounted):
        if s.on.knockback:   # the blows that did nothing may knock back: stuns, same call
            knocked = knock_levels(state, s, att, tgt, levels == 0, roll, None)
            if knocked is not None:
                stuns = STUNS if by_size is None else shift_type(STUNS, by_size)
                kind_of = np.where(knocked > 0, stuns, kind_of)
                levels = levels + knocked
        harmed = flat_true(levels)
        if harmed.size:
            harm(state, s, ctx, tgt.sub(harmed), kind_of[harmed], levels[harmed], rng)
        return
    if s.on.knockback:
        knockback(state, s, ctx, att, tgt, levels == 0, roll,
                  on_mount if s.on.mounted else None, by_size, rng)
    _detailed(state, s, ctx, att, tgt, rng, manoeuvre, on_mount, levels, kind_of, roll)


def _detailed(state, s: Static, ctx, att: Pick, tgt: Pick, rng, manoeuvre, on_mount, levels,
              kind_of, roll) -> None:
    """The extras of the damage manoeuvres and mounted charges, in the reference's order:
    a broken neck, the damage, a broken limb, the charge's stuns, knockdown, vital strike."""
    x = state.x
    h = levels.size
    m = np.zeros(h, dtype=np.int16) if manoeuvre is None else manoeuvre
    neck = (m == BREAK_NECK) & (levels >= BREAK_NECK_LEVELS)
    if neck.any():
        rows = flat_true(neck)
        t = tgt.sub(rows)
        fall_fatally_wounded(state, s, ctx, t)
        vitals = _vitals(state, s, t)
        d = d20_rows(rng, (), t.rows, rows.size)
        failed = (d == 1) | (t.get(state.health4) + vitals + d < BREAK_NECK_BASE + levels[rows])
        t.put(state.status, np.full(rows.size, DEAD, dtype=np.int8), failed)
    wounds = np.zeros(h, dtype=np.int16)
    person = ~neck & ~on_mount & (levels > 0)
    if person.any():
        rows = flat_true(person)
        wounds[rows] = harm(state, s, ctx, tgt.sub(rows), kind_of[rows], levels[rows], rng)
    mount = on_mount & (levels > 0)
    if mount.any():
        rows = flat_true(mount)
        wounds[rows] = harm_mount(state, s, tgt.sub(rows), kind_of[rows], levels[rows], rng)
    limb = (m == BREAK_LIMB) & (levels >= BREAK_LIMB_LEVELS)
    if limb.any():
        rows = flat_true(limb)
        t = tgt.sub(rows)
        t.add(x("limbs"), np.ones(rows.size, dtype=np.int16))
        harm(state, s, ctx, t, np.full(rows.size, WOUNDS, dtype=np.int16),
             np.ones(rows.size, dtype=np.int16), rng)
    if s.on.mounted:
        charged = (att.get(x("charging")) > 0) & (wounds > 0)
        if charged.any():
            # Seed 000, Mounted charge: a stun for every wound dealt, from the shock.
            stuns = np.full(h, STUNS, dtype=np.int16)
            both = flat_true(charged & ~on_mount)
            if both.size:
                harm(state, s, ctx, tgt.sub(both), stuns[both], wounds[both], rng)
            both = flat_true(charged & on_mount)
            if both.size:
                harm_mount(state, s, tgt.sub(both), stuns[both], wounds[both], rng)
    up = tgt.get(state.status) == STANDING
    if s.on.prone:
        who_t = tgt.get(state.who).astype(np.intp)
        knockback = roll + CRUSHING_KNOCKBACK * (gear.fact(state, s, att, "crushing") > 0)
        down = (m == KNOCKDOWN) & up & (knockback > KNOCKDOWN_STRENGTH
                                        * fighter(s, "strength", who_t))
        if down.any():
            gear.knock_down(state, s, tgt.sub(flat_true(down)))
    vital = (m == VITAL) & (wounds >= 1) & up
    if vital.any():
        # Seed 000, Vital strike: health x Size against 20 + 5 x wounds, or fall.
        rows = flat_true(vital)
        t = tgt.sub(rows)
        who_t = t.get(state.who).astype(np.intp)
        d = d20_rows(rng, (), t.rows, rows.size)
        total = fighter(s, "health", who_t) * fighter(s, "size", who_t) + _vitals(state, s, t)
        failed = (d == 1) | (total + d < HEALTH_CHECK_BASE + EXTRA_LEVEL_STEP * wounds[rows])
        if failed.any():
            fall_from_vital_strike(state, s, ctx, t.sub(flat_true(failed)), rng)


def knock_levels(state, s: Static, att: Pick, tgt: Pick, stopped: np.ndarray,
                 roll: np.ndarray, on_mount: np.ndarray | None) -> np.ndarray | None:
    """Stun levels the hits that caused no damage (``stopped``) knock into their targets
    (seed 000, Crushing: "+5 bonus to damage for purposes of knockback ... stun damage, even
    if the attack didn't get through the target's armour"): the damage ``roll``, +5 with a
    crushing weapon, greater than the target's strength x 10 (the seed's Knockdown measure)
    is one stun, plus one per 5 points above. ``reference/blows.py: knockback_levels`` is
    the scalar twin. Only rolls above the fight's lowest possible threshold
    (``Static.knock_floor``) are looked at closely; None when no roll is."""
    rows = flat_true(stopped & (roll > s.knock_floor))
    if not rows.size:
        return None
    t = tgt.sub(rows)
    who = t.get(state.who).astype(np.intp)
    strength = fighter(s, "strength", who)
    if on_mount is not None:
        strength = np.where(on_mount[rows], fighter(s, "mount_strength", who), strength)
    a = att.sub(rows)
    if s.on.any:
        crushing = gear.fact(state, s, a, "crushing") > 0
    else:
        crushing = fighter(s, "crush", a.get(state.who).astype(np.intp)) > 0
    sub_levels = levels_caused(roll[rows] + CRUSHING_KNOCKBACK * crushing,
                               KNOCKDOWN_STRENGTH * strength + 1)
    levels = np.zeros(stopped.size, dtype=roll.dtype)
    levels[rows] = sub_levels
    return levels


def knockback(state, s: Static, ctx, att: Pick, tgt: Pick, stopped: np.ndarray,
              roll: np.ndarray, on_mount: np.ndarray | None, by_size: np.ndarray | None,
              rng: np.random.Generator) -> None:
    """Knockback's stun damage (``knock_levels``) on the people and mounts hit, shifted by
    Size (``by_size``) as any blow: the manoeuvres' and mounts' path, where the blow's own
    damage is applied separately."""
    levels = knock_levels(state, s, att, tgt, stopped, roll, on_mount)
    if levels is None:
        return
    knocked = flat_true(levels)
    if not knocked.size:
        return
    kind = np.full(knocked.size, STUNS, dtype=np.int16)
    if by_size is not None:
        kind = shift_type(kind, by_size[knocked])
    if on_mount is None:
        harm(state, s, ctx, tgt.sub(knocked), kind, levels[knocked], rng)
        return
    for body, rows in ((False, knocked[~on_mount[knocked]]), (True, knocked[on_mount[knocked]])):
        if rows.size:
            sub = np.searchsorted(knocked, rows)
            if body:
                harm_mount(state, s, tgt.sub(rows), kind[sub], levels[rows], rng)
            else:
                harm(state, s, ctx, tgt.sub(rows), kind[sub], levels[rows], rng)


def _vitals(state, s: Static, t: Pick) -> np.ndarray | int:
    """The armour's vitals bonus to health checks right after a hit (seed 000, Vitals)."""
    if not s.on.vitals:
        return 0
    return fighter(s, "vitals", t.get(state.who).astype(np.intp))


def take(w0, s0, status, kind, levels, health, vitals, step, rng, ineffective=True,
         stun_wounds=True, cols=None):
    """New tracks and status of bodies taking ``levels`` of damage of ``kind`` (seed 000):
    the tracks by ``tracks_after``; reaching fatal wounds checks health (``health`` is
    health x 4, ``vitals`` the armour's bonus or None): fail dies, success falls unconscious,
    good fights on; then reaching beaten stuns checks (at 20 + 5 per stun beyond 6): fail
    falls unconscious. ``cols``: the bodies' state columns (``health_checks``). Returns
    (w1, s1, status, the blow's own wounds)."""
    w1, s1, add_wounds, own = tracks_after(w0, s0, kind, levels, ineffective, stun_wounds)
    if vitals is not None:
        health = health + vitals
    status = health_checks(w1, s1, s0, add_wounds, status, health, step, rng, cols)
    return np.minimum(w1, FATAL), np.minimum(s1, FATAL), status, own


def tracks_after(w0, s0, kind, levels, ineffective=True, stun_wounds=True):
    """The wound and stun tracks after ``levels`` of damage of ``kind`` (seed 000): wounds
    add; stuns replace, add one or do nothing; mixed puts half (rounded up) on stuns and half
    on wounds, both added; ineffective is stun damage halved, rounded down.
    ``stun_wounds`` (rules.excess_stuns: wounds): stuns beyond beaten (6) become wounds
    (seed 000: "Excessive stun damage may lead to wounds"). ``ineffective``: the kinds may
    include ineffective damage. Returns (w1, s1, wounds added, the blow's own wounds), the
    tracks not yet held at 6 (the health checks' targets grow beyond it). Pure arithmetic:
    also builds the basic fights' table of track changes (``basic.py``)."""
    half = levels // 2
    mixed = kind == MIXED
    add_wounds = (kind == WOUNDS) * levels + mixed * half
    hit = (kind == STUNS) * levels
    if ineffective:
        hit = hit + (kind == INEFFECTIVE) * half
    s1 = apply_stuns(s0, hit) + mixed * (levels - half)
    own = add_wounds
    if stun_wounds:
        add_wounds = add_wounds + np.maximum(s1 - FATAL, 0)
    return w0 + add_wounds, s1, add_wounds, own


def health_checks(w1, s1, s0, add_wounds, status, health, step, rng, cols=None):
    """The health checks of bodies whose tracks went from ``s0`` stuns to ``w1``, ``s1``
    (``add_wounds`` wounds added; tracks not held at 6): see ``take``. ``cols``: the state
    columns of the bodies (for stacked blocks, ``rolls.d20_for``). Returns the status.
    (On the bodies due only, through their indices: the checks are few.)"""
    status = np.array(status, copy=True)
    if np.shape(health) != status.shape:   # (``np.broadcast_to`` costs ~7 us a call)
        health = np.broadcast_to(health, status.shape)
    due = flat_true((add_wounds > 0) & (w1 >= FATAL))
    if due.size:
        status[due] = fatal_check(status[due], health[due], d20_for(rng, due, cols), w1[due],
                                  step)
    due = flat_true((s1 > s0) & (s1 >= FATAL) & (status == STANDING))
    if due.size:
        status[due[beaten_check(health[due], d20_for(rng, due, cols), s1[due])]] = UNCONSCIOUS
    return status


def fatal_check(status, health, d, wounds, step: int):
    """The health check on reaching fatal wounds (seed 000): health x 4 + the d20 ``d``
    against ``wounds``' target; a fumble or a failure dies, a success falls unconscious, a
    good success (by ``step``) fights on. Returns the status after it."""
    margin = health + d - health_target(wounds)
    return np.where((d == 1) | (margin < 0), DEAD, np.where(margin < step, UNCONSCIOUS, status))


def beaten_check(health, d, stuns):
    """The health check on reaching beaten stuns (seed 000): a fumble or a failure of health
    x 4 + the d20 ``d`` against ``stuns``' target falls unconscious. Returns who failed."""
    return (d == 1) | (health + d < health_target(stuns))


def harm(state, s: Static, ctx, tgt: Pick, kind, levels, rng) -> np.ndarray:
    """Apply ``levels`` (>= 1) of damage of ``kind`` to the places of ``tgt``, keeping their
    penalties in step; returns the wounds added."""
    vitals = _vitals(state, s, tgt) if s.on.vitals else None
    w1, s1, status, wounds = take(tgt.get(state.wounds), tgt.get(state.stuns),
                                  tgt.get(state.status), kind, levels, tgt.get(state.health4),
                                  vitals, s.success_step, rng, s.on.shifts, s.stun_wounds,
                                  tgt.rows)
    new = (TRACK_PENALTY.take(w1) + TRACK_PENALTY.take(s1)
           + gear.tiredness(s, tgt.get(state.fatigue)))
    if s.on.grapple:
        x = state.x
        new = (new - tgt.get(x("hold")) * tgt.get(state.skill)
               + BROKEN_LIMB_PENALTY * tgt.get(x("limbs")))
    tgt.add(ctx.rpen, new - tgt.get(state.penalty))
    tgt.put(state.penalty, new)
    tgt.put(state.wounds, w1)
    tgt.put(state.stuns, s1)
    tgt.put(state.status, status)
    return wounds


def harm_mount(state, s: Static, tgt: Pick, kind, levels, rng) -> np.ndarray:
    """Damage to the mounts of ``tgt``'s riders (seed 000, Fighting Large Animals)."""
    x = state.x
    health4 = 4 * fighter(s, "mount_health", tgt.get(state.who).astype(np.intp))
    w1, s1, status, wounds = take(tgt.get(x("m_wounds")), tgt.get(x("m_stuns")),
                                  tgt.get(x("m_status")), kind, levels, health4, None,
                                  s.success_step, rng, stun_wounds=s.stun_wounds)
    tgt.put(x("m_wounds"), w1)
    tgt.put(x("m_stuns"), s1)
    tgt.put(x("m_status"), status)
    return wounds


def fall_from_vital_strike(state, s: Static, ctx, t: Pick, rng: np.random.Generator) -> None:
    """Seed 000, Vital strike: "they immediately fall to the ground fatally wounded": prone,
    wounds at fatal, and the fatal-wound health check at 20 (+ vitals): failure or fumble
    dead, success unconscious, a good success fights on (the end-of-round checks follow)."""
    size = t.rows.size if t.rows is not None else t.n
    gear.knock_down(state, s, t)
    t.put(state.wounds, np.full(size, FATAL, dtype=np.int8))
    d = d20_rows(rng, (), t.rows, size)
    status = fatal_check(STANDING, t.get(state.health4) + _vitals(state, s, t), d, FATAL,
                         s.success_step)
    t.put(state.status, status.astype(np.int8))
    gear.sync_penalty(state, s, ctx.rpen)


def fall_fatally_wounded(state, s: Static, ctx, t: Pick) -> None:
    """Seed 000, Break neck: the target "drops to fatally wounded" and makes the break's own
    check to stay alive (the lab counts a survivor unconscious: out of the fight, dying)."""
    size = t.rows.size if t.rows is not None else t.n
    t.put(state.wounds, np.full(size, FATAL, dtype=np.int8))
    up = t.get(state.status) == STANDING
    t.put(state.status, np.full(size, UNCONSCIOUS, dtype=np.int8), up)
    gear.sync_penalty(state, s, ctx.rpen)
