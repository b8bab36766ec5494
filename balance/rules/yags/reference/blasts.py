"""Readable scalar reference of explosions placed in a fight (seed 000, "Explosive damage",
"Very large explosions", "Vehicle Scale Weapons"); docs/rules/yags-explosions.md.

One fight at a time, one body at a time, written to be read beside the rulebook and
independently of the vectorised ``blasts.py``: only the compiled :class:`PlacedBlast` rows,
the table code in ``tracks`` and the reference's own damage steps are shared. Every d20 is
``int(rng.integers(1, 21))``; whether a blast goes off is one ``rng.random()`` per trial.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.engine.status import STANDING
from balance.rules.yags.reference.blows import apply_damage, blow_kind, d20
from balance.rules.yags.reference.state import Combat, FighterState, settle
from balance.rules.yags.rules.tracks import (
    MIXED,
    NO_DAMAGE,
    STUNS,
    WOUNDS,
    levels_caused,
    shift_type,
    size_shift,
)

MINUS_PER_DOUBLING = 100   # seed: vehicle scale, beyond twice the radius


def ring(blast: Any, metres: float) -> tuple[int, int]:
    """The damage bonus and damage type a body ``metres`` from ground zero takes, before any
    size shift; (0, NO_DAMAGE) out of reach."""
    r = blast.radius
    if not blast.vehicle:
        # Seed: wounds out to the radius, mixed out to twice it, stuns out to three times.
        if metres <= r:
            return blast.damage, WOUNDS
        if metres <= 2 * r:
            return blast.damage, MIXED
        if metres <= 3 * r:
            return blast.damage, STUNS
        return 0, NO_DAMAGE
    # Seed: vehicle scale does Major damage to the radius, Minor to twice it; for each
    # doubling beyond that, 100 less damage ("less than +100 damage will only damage out to
    # twice the radius"). Major and Minor are "treated the same against characters": wounds.
    damage, edge = blast.damage, 2 * r
    while metres > edge and damage >= 0:
        damage -= MINUS_PER_DOUBLING
        edge *= 2
    return (damage, WOUNDS) if damage >= 0 else (0, NO_DAMAGE)


def blasts_at_start(combat: Combat, blasts: tuple, round_no: int, *,
                    rng: np.random.Generator) -> None:
    """The explosions placed at the start of round ``round_no``, in scenario order, each in
    a fight still undecided (two or more sides standing)."""
    for blast in blasts:
        if blast.round == round_no and len({s.side for s in combat.fighters if s.standing}) > 1:
            explode(blast, combat, rng=rng)


def explode(blast: Any, combat: Combat, *, rng: np.random.Generator) -> None:
    """One blast: does it go off in this fight (``chance``), then every fighter standing in
    reach, and the mount it rides, takes it. Who is hit is decided before anyone is hurt."""
    in_reach = [ring(blast, metres_from(blast, s, combat))[1] != NO_DAMAGE
                for s in combat.fighters]
    if blast.chance == 0 or not any(in_reach):
        return    # nothing drawn: the fight goes on exactly as without the blast
    if blast.chance < 1 and rng.random() >= blast.chance:
        return
    bodies = []
    for state, near in zip(combat.fighters, in_reach, strict=True):
        if near and state.standing:
            bodies.append((state, False))
            if state.mounted and state.mount.status == STANDING:
                bodies.append((state, True))
    metres = [metres_from(blast, s, combat) for s in combat.fighters]   # before anyone falls
    for state, on_mount in bodies:
        take_blast(blast, state, on_mount, combat, rng=rng, metres=metres[state.index])
    settle(combat)


def metres_from(blast: Any, state: FighterState, combat: Combat) -> float:
    """How far a fighter is from ground zero: as placed, or from the fighter it lands on."""
    if blast.centre < 0:
        return blast.distance[state.index]
    return abs(state.pos - combat.fighters[blast.centre].pos)


def take_blast(blast: Any, state: FighterState, on_mount: bool, combat: Combat, *,
               rng: np.random.Generator, metres: float | None = None) -> None:
    """A fighter (or its mount) takes the blast ``metres`` from ground zero (default: as
    placed): damage + d20 against its soak roll."""
    damage, base = ring(blast, blast.distance[state.index] if metres is None else metres)
    if on_mount:
        body, stats = state.mount, state.mount.stats
        size, heavy, vitals = stats.size, stats.heavy_suit, 0
        soak_of = stats.soak_vs.__getitem__
    else:
        body, f = state, state.fighter
        size, heavy, vitals = f.size, f.heavy_suit, f.vitals
        soak_of = f.soak_against
    # Seed, Size effects on Damage: a blast 10 (15) Size points smaller than the body does
    # one (two) categories less; larger, more (nothing is above wounds).
    shift = int(size_shift(2 * blast.size, 2 * size))
    damage_type = int(shift_type(base, shift))
    if blast.vehicle and heavy and base == WOUNDS:
        damage_type = WOUNDS   # seed: in heavy armour it "always suffers wounds"
    damage_roll = damage + d20(rng)
    if blast.vehicle:
        # Seed, Vehicle Scale Weapons: no soak unless in heavy armour; then the total soak
        # roll is halved; a blast that shifts up a category ignores the heavy armour too.
        if heavy and shift >= 0:
            soak_roll = (soak_of(0) + d20(rng)) // 2
        else:
            soak_roll = 0
    else:
        # A blast is neither impaling nor heavy; stun-like in the mixed and stun rings.
        soak_roll = soak_of(blow_kind(0, base)) + d20(rng)
    levels = int(levels_caused(damage_roll, soak_roll))
    apply_damage(body, levels, damage_type, combat.rules, rng=rng, vitals=vitals)
