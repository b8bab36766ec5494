"""Explosions a Yags scenario places in a fight (seed 000, "Explosive damage", "Very large
explosions", "Vehicle Scale Weapons"), vectorised over trials.

A scenario's ``explosions:`` become ``rules.explosions.PlacedBlast`` rows at compile time (one
distance per fighter); at the start of round ``round``, before declarations, the kernel calls
:func:`blast_round`, and in each open trial where the blast goes off (``chance``) every
standing fighter in reach takes it: damage + d20 against its soak roll, the type by the ring
it stands in, shifted by Size. Vehicle scale (a pound of TNT or more) ignores the soak of
anyone not in heavy armour. The rules and every assumption: docs/rules/yags-explosions.md;
``reference/blasts.py`` is the readable scalar version the kernel is tested against.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.engine.pick import Pick
from balance.engine.sparse import flat_true
from balance.engine.status import STANDING
from balance.rules.yags.kernel import gear
from balance.rules.yags.kernel.blows import harm, harm_mount
from balance.rules.yags.kernel.gear import fighter
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.kernel.rolls import d20
from balance.rules.yags.kernel.static import Static
from balance.rules.yags.rules.explosions import NO_DAMAGE as NO_RING
from balance.rules.yags.rules.explosions import (
    VEHICLE_STEP,
    PlacedBlast,
    ring_damage_type,
    vehicle_soak,
)
from balance.rules.yags.rules.tracks import (
    INEFFECTIVE,
    MIXED,
    N_KINDS,
    NO_DAMAGE,
    STUNLIKE,
    STUNS,
    WOUNDS,
    levels_caused,
    shift_type,
    size_shift,
)


def rings(ex: PlacedBlast, distance: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per fighter (or per entry of ``distance``, metres from ground zero): the damage bonus
    and the damage type of the ring it stands in (before the size shift; tracks.NO_DAMAGE
    out of reach), as int16 arrays of the same shape.

    Character scale: wounds to the radius, mixed to twice it, stuns to three times (seed).
    Vehicle scale: Major to the radius, Minor to twice it, and beyond that 100 less damage
    per doubling while the damage stays 0 or more; both Major and Minor are wounds against a
    character (seed: "treated the same").
    """
    d = np.asarray(ex.distance if distance is None else distance, dtype=np.float64)
    if not ex.vehicle:
        ring = ring_damage_type(d, ex.radius)
        ring = np.where(ring == NO_RING, NO_DAMAGE, ring).astype(np.int16)
        return np.full(d.shape, ex.damage, dtype=np.int16), ring
    doublings = np.zeros(d.shape, dtype=np.int64)
    edge = 2 * ex.radius
    for _ in range(max(ex.damage, 0) // VEHICLE_STEP + 1):
        doublings += d > edge
        edge *= 2
    damage = ex.damage - VEHICLE_STEP * doublings
    ring = np.where(damage >= 0, WOUNDS, NO_DAMAGE).astype(np.int16)
    return np.maximum(damage, 0).astype(np.int16), ring


# --- The event in the kernel ----------------------------------------------------------------


@dataclass
class _BeforeDeclarations:
    """Stands in for the round context ``harm`` keeps in step: before declarations there is
    no round yet (the round's penalties are made from ``state.penalty`` afterwards)."""

    rpen: np.ndarray


def blast_round(fight: Any, state, rng: np.random.Generator, round_no: int) -> None:
    """Every explosion placed at the start of round ``round_no``, in scenario order."""
    for ex in fight.explosions:
        if ex.round == round_no:
            explode(ex, state, static_of(fight), rng)


def explode(ex: PlacedBlast, state, s: Static, rng: np.random.Generator, *,
            go: np.ndarray | None = None, distance: np.ndarray | None = None,
            ctx=None) -> None:
    """One blast in every open trial (two or more sides standing) where it goes off: one
    uniform draw per trial unless ``chance`` is 0 or 1. A blast that reaches nobody (or
    cannot go off) draws nothing, so it leaves the fight's numbers exactly as they were.

    Who it hits is settled before any damage: the fighters standing then (and the mounts
    they ride), each with its own damage and soak rolls. A thrown explosive (missiles.py)
    passes the trials where it lands (``go``), everyone's metres from it (``distance``, (c,
    n)) and the round's context, whose live penalties it keeps in step."""
    c, n = state.status.shape
    if go is None:
        if not ex.reaches_anyone:
            return
        go = _open(state, s.n_sides)
        if ex.chance < 1.0:
            go &= rng.random(n) < ex.chance
    if not go.any():
        return
    who = state.who.astype(np.intp)
    if distance is None:
        distance = _distances(ex, state, who)
    damage_of, ring_of = rings(ex, distance)    # (c, n)
    hit = go & (state.status == STANDING) & (ring_of != NO_DAMAGE)
    ridden = None
    if s.on.mounted:
        x = state.x
        ridden = hit & (x("mounted") > 0) & (x("m_status") == STANDING)
    rpen = None if ctx is None else ctx.rpen
    if ctx is None:
        ctx = _BeforeDeclarations(np.zeros((c, n), dtype=np.int16))
    for k in range(c):
        rows = flat_true(hit[k])
        if not rows.size:
            continue
        t = Pick(k, n).sub(rows)
        w = who[k, rows]
        damage, ring = damage_of[k, rows], ring_of[k, rows]
        kind, levels = _blow(ex, damage, ring, fighter(s, "size", w),
                             fighter(s, "heavy_suit", w) > 0, s.soak_vs, w, rng)
        # Ineffective damage is stun damage with the levels halved (as blows.take has it).
        weak = kind == INEFFECTIVE
        kind, levels = np.where(weak, STUNS, kind), np.where(weak, levels // 2, levels)
        keep = flat_true((levels > 0) & (kind != NO_DAMAGE))
        if keep.size:
            harm(state, s, ctx, t.sub(keep), kind[keep], levels[keep], rng)
        if ridden is not None and ridden[k].any():
            sub = flat_true(ridden[k, rows])
            kind, levels = _blow(ex, damage[sub], ring[sub],
                                 fighter(s, "mount_size", w[sub]),
                                 fighter(s, "mount_heavy_suit", w[sub]) > 0, s.mount_soak_vs,
                                 w[sub], rng)
            keep = flat_true((levels > 0) & (kind != NO_DAMAGE))
            if keep.size:
                harm_mount(state, s, t.sub(sub[keep]), kind[keep], levels[keep], rng)
    if s.on.any:
        gear.settle(state, s, rpen)   # grapples with a fallen partner end; unhorsed riders fall


def _distances(ex: PlacedBlast, state, who: np.ndarray) -> np.ndarray:
    """(c, n) metres from ground zero: fixed per fighter, or (``centre``) from the position
    of the fighter it lands on."""
    if ex.centre < 0:
        return np.asarray(ex.distance, dtype=np.float64)[who]
    n = who.shape[1]
    place = (who == ex.centre).argmax(axis=0)
    return np.abs(state.pos - state.pos[place, np.arange(n)])


def _open(state, n_sides: int) -> np.ndarray:
    """(n,) bool: trials still undecided (two or more sides with someone standing)."""
    standing = state.status == STANDING
    sides = np.zeros(standing.shape[1], dtype=np.int8)
    for k in range(n_sides):
        sides += (standing & (state.side == k)).any(axis=0)
    return sides >= 2


def _blow(ex: PlacedBlast, damage: np.ndarray, ring: np.ndarray, size: np.ndarray,
          heavy: np.ndarray, soak_vs: np.ndarray, who: np.ndarray,
          rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The damage type and levels of one blast on bodies of ``size`` (one entry each).

    Character scale: the soak against a non-impaling blow, stun-like in the mixed and stun
    rings (soft armour doubles there). Vehicle scale: no soak unless in a heavy suit, then
    the soak roll halved, and no soak at all if the blast's Size shifts the damage up; a
    body in a heavy suit "always suffers wounds" (seed), whatever the Size shift."""
    shift = size_shift(2 * ex.size, 2 * size.astype(np.int16))
    kind = shift_type(ring, shift).astype(np.int16)
    if ex.vehicle:
        kind = np.where(heavy & (ring == WOUNDS), WOUNDS, kind).astype(np.int16)
    d = d20(rng, (2, damage.size))
    if ex.vehicle:
        soak = vehicle_soak(soak_vs[who * N_KINDS] + d[1], heavy & (shift >= 0))
    else:
        stunlike = np.where((ring == MIXED) | (ring == STUNS), STUNLIKE, 0)
        soak = soak_vs[who * N_KINDS + stunlike] + d[1]
    return kind, levels_caused(damage + d[0], soak).astype(np.int16)
