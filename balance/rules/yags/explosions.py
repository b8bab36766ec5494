"""Explosions (seed 000, "Explosive damage" and "Very large explosions").

An explosive is ``Ex-X``: full damage (wounds) out to X metres, mixed out to 2X, stuns out to
3X. A pound or more of TNT is vehicle scale. The TNT scaling: one pound does +50 damage,
Ex-2, Size 10; each doubling of the amount adds +10 damage, each tenfold doubles the radius,
each thousandfold adds +10 Size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from balance.rules.yags.tracks import MIXED, STUNS, WOUNDS

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
