"""Explosions (seed 000, "Explosive damage" and "Very large explosions").

An explosive is ``Ex-X``: full damage (wounds) out to X metres, mixed out to 2X, stuns out to
3X. A pound or more of TNT is vehicle scale. The TNT scaling: one pound does +50 damage,
Ex-2, Size 10; each doubling of the amount adds +10 damage, each tenfold doubles the radius,
each thousandfold adds +10 Size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from balance.errors import Problem, ScenarioError, unknown_name
from balance.rules.yags.rules.tracks import MIXED, STUNS, WOUNDS

NO_DAMAGE = -1


@dataclass(frozen=True)
class Blast:
    damage: int      # damage bonus
    radius: float    # Ex-X, metres
    size: int        # for the size shift of damage types


def tnt(pounds: float) -> Blast:
    """The seed's TNT scaling, read with logarithms (the seed's "most accurate results").

    Damage is 50 + 10 per doubling, rounded to the nearest 5, which reproduces the seed's
    table at 1, 100 and 1000 lb, 1 T, 1 KT and 1 MT. The table's 10 lb row (+65) does not
    follow its own rule (three and a third doublings give +83, +85 rounded): the lab takes
    the rule and treats 65 as a misprint. Radius doubles per full tenfold (Ex-2 at 1 lb),
    Size rises by 10 per full thousandfold (10 at 1 lb).
    """
    if pounds <= 0:
        raise ValueError("an explosive needs a positive amount of TNT")
    doublings = math.log2(pounds)
    damage = 5 * round((50 + 10 * doublings) / 5)
    tenfolds = math.floor(math.log10(pounds) + 1e-9) if pounds >= 1 else 0
    radius = 2.0 * 2 ** max(tenfolds, 0)
    size = 10 + 10 * max(tenfolds // 3, 0)
    return Blast(damage=damage, radius=radius, size=size)


def ring_damage_type(distance, radius: float):
    """Damage type at ``distance`` metres from a character-scale blast: wounds to the radius,
    mixed to twice it, stuns to three times, nothing beyond (NO_DAMAGE)."""
    d = np.asarray(distance, dtype=np.float64)
    return np.where(d <= radius, WOUNDS, np.where(d <= 2 * radius, MIXED,
                                                  np.where(d <= 3 * radius, STUNS, NO_DAMAGE)))


def vehicle_soak(soak_roll, heavy_armour):
    """Vehicle-scale damage against a character: no soak unless in heavy armour, and then
    the soak roll is halved (rounded down); the damage is always wounds."""
    return np.where(heavy_armour, np.asarray(soak_roll) // 2, 0)


# --- Explosions a scenario places (compiled; blasts.py sets them off) --------------------

DEFAULT_SIZE = 5      # lab: an Ex-X blast is Size 5 unless given (a hand grenade)
VEHICLE_LB = 1.0      # seed: "a pound or more of TNT is generally considered vehicle scale"
VEHICLE_STEP = 100    # seed: beyond twice the radius, -100 damage per doubling of the radius


@dataclass(frozen=True)
class PlacedBlast:
    """One compiled explosion: when, how likely, how strong, and how far each fighter is."""

    round: int                   # goes off at the start of this round, before declarations
    chance: float                # in each trial independently
    damage: int                  # damage bonus: the damage roll is damage + d20
    radius: float                # Ex-X, metres
    size: int                    # the blast's Size, for the size shift of damage types
    vehicle: bool                # vehicle scale (tnt_lb >= 1)
    distance: tuple[float, ...]  # metres from ground zero, per fighter (math.inf: not there)
    centre: int = -1             # or: lands on this fighter (its position, when it goes off)

    @property
    def reach(self) -> float:
        """The farthest distance it damages: three radii (stuns), or for vehicle scale twice
        the radius and one more doubling per full 100 damage (seed: -100 per doubling)."""
        if not self.vehicle:
            return 3 * self.radius
        return 2 * self.radius * 2 ** max(self.damage // VEHICLE_STEP, 0)

    @property
    def reaches_anyone(self) -> bool:
        """Can it hurt anyone (a blast on a fighter always can: it stands at ground zero)?"""
        if self.chance <= 0 or self.damage + 20 <= 0:   # a d20 could never make it hurt
            return False
        return self.centre >= 0 or any(d <= self.reach for d in self.distance)


def compile_explosions(explosions: Any, names: list[str], bases: list[str],
                       positions: bool = False) -> tuple[PlacedBlast, ...]:
    """The validated ``explosions`` of a scenario, compiled against its fighters (``names``
    in scenario order; ``bases`` the member name each copy of a ``count`` shares).

    A name in ``at`` is a fighter's own name (``goblin#2``) or a member's name, which places
    all its copies; a fighter's own name wins over its member's. ``centre`` names one
    fighter and needs a fight played on a line (``positions``). An unknown name is a
    :class:`ScenarioError` at ``explosions[i].at.<name>`` (every one reported at once).
    """
    problems, out = [], []
    for i, ex in enumerate(explosions):
        distance = [math.inf] * len(names)
        if ex.centre is not None:
            where = f"explosions[{i}].centre"
            hits = [j for j in range(len(names)) if ex.centre == names[j]] or [
                j for j in range(len(names)) if ex.centre == bases[j]]
            if not positions:
                problems.append(Problem(
                    "centre lands the blast on a fighter's position, and this fight has no "
                    "positions (give the sides a distance:, or place the blast with at:)",
                    where))
            elif len(hits) != 1:
                message = (unknown_name("fighter", ex.centre, sorted(set(names) | set(bases)))
                           if not hits else f"{ex.centre!r} is {len(hits)} fighters; name one "
                           f"of them (such as {names[hits[0]]!r})")
                problems.append(Problem(message, where))
            else:
                out.append(replace(_placed(ex, tuple(distance)), centre=hits[0]))
            continue
        for name, metres in ex.at.items():
            hits = [j for j in range(len(names)) if name in (names[j], bases[j])]
            if not hits:
                known = sorted(set(names) | set(bases))
                problems.append(Problem(unknown_name("fighter", name, known),
                                        f"explosions[{i}].at.{name}"))
            for j in hits:
                if name == names[j] or distance[j] == math.inf:
                    distance[j] = float(metres)
        out.append(_placed(ex, tuple(distance)))
    if problems:
        raise ScenarioError(problems)
    return tuple(out)


def _placed(ex: Any, distance: tuple[float, ...]) -> PlacedBlast:
    """Ex-X with a damage, or the seed's TNT scaling (vehicle scale from a pound)."""
    if ex.tnt_lb is None:
        size = DEFAULT_SIZE if ex.size is None else int(ex.size)
        return PlacedBlast(ex.round, float(ex.chance), int(ex.damage), float(ex.radius),
                           size, False, distance)
    blast = tnt(ex.tnt_lb)
    # The TNT table's Size unless the scenario sets one.
    size = blast.size if ex.size is None else int(ex.size)
    return PlacedBlast(ex.round, float(ex.chance), int(blast.damage), float(blast.radius),
                       size, ex.tnt_lb >= VEHICLE_LB, distance)
