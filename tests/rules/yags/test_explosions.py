"""Explosions: the seed's TNT table, blast rings and vehicle-scale soak."""

import numpy as np
import pytest

from balance.rules.yags.rules.explosions import NO_DAMAGE, ring_damage_type, tnt, vehicle_soak
from balance.rules.yags.rules.tracks import MIXED, STUNS, WOUNDS

TON, KILOTON, MEGATON = 2000, 2_000_000, 2_000_000_000  # short tons, in pounds

# seed 000's table: TNT, damage, radius, size (the 10 lb row is checked apart, below)
TABLE = [(1, 50, 2, 10), (100, 115, 8, 10), (1000, 150, 16, 20), (TON, 160, 16, 20),
         (KILOTON, 260, 128, 30), (MEGATON, 360, 1024, 40)]


@pytest.mark.parametrize("pounds, damage, radius, size", TABLE)
def test_tnt_table(pounds, damage, radius, size) -> None:
    blast = tnt(pounds)
    assert (blast.damage, blast.radius, blast.size) == (damage, radius, size)


def test_ten_pounds_follows_the_rule_not_the_misprint() -> None:
    blast = tnt(10)
    assert (blast.radius, blast.size) == (4, 10)
    assert blast.damage == 85  # the seed's table prints 65; its rule gives 50 + 33 -> 85


def test_blast_rings() -> None:
    got = ring_damage_type([0, 2, 2.5, 4, 5, 6, 6.1], radius=2)
    assert got.tolist() == [WOUNDS, WOUNDS, MIXED, MIXED, STUNS, STUNS, NO_DAMAGE]


def test_vehicle_scale_soak() -> None:
    assert vehicle_soak(np.array([30, 31]), np.array([True, False])).tolist() == [15, 0]
