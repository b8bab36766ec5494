"""Exact values of the percentile family's tables and seed 004's situational rules.

Every rule function is checked by a direct call with a known result (the seed's own
examples where it gives one); the Resistance Table and the success-level fractions are
checked exactly, and the damage sampler against its exact pmfs.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from balance.dice import Pmf, resistance_chance, resistance_p, resistance_roll
from balance.errors import OptionError
from balance.io.tables import shipped_tables
from balance.rules.percentile.compile import damage_bonus_text
from balance.rules.percentile.rules import damage as dmg
from balance.rules.percentile.rules import tables as tb

# --- Resistance Table --------------------------------------------------------------------


@pytest.mark.parametrize(("active", "passive", "chance"), [
    (10, 10, 50), (11, 10, 55), (16, 12, 70), (12, 16, 30), (20, 10, 100), (25, 10, 100),
    (10, 20, 0), (3, 18, 0), (19, 10, 95), (10, 19, 5)])
def test_resistance_table_exact(active: int, passive: int, chance: int) -> None:
    assert resistance_chance(active, passive) == chance
    assert resistance_p(active, passive) == chance / 100


def test_resistance_table_on_arrays_and_with_limits() -> None:
    got = resistance_chance(np.array([5, 10, 15, 30]), 10)
    assert got.dtype == np.int16 and got.tolist() == [25, 50, 75, 100]
    assert resistance_chance(30, 10, floor=5, ceiling=95) == 95
    assert resistance_chance(1, 30, floor=5, ceiling=95) == 5
    with pytest.raises(OptionError):
        resistance_chance(10, 10, floor=60, ceiling=40)


def test_resistance_sampler_matches_the_exact_chance() -> None:
    rng = np.random.Generator(np.random.PCG64(20240607))
    n = 200_000
    for active, passive in ((16, 12), (10, 13), (10, 10)):
        k = int(resistance_roll(rng, active, passive, n).sum())
        p = resistance_p(active, passive)
        assert stats.binomtest(k, n, p).pvalue > 1e-6
    assert resistance_roll(rng, np.array([20, 0]), 10).tolist() == [True, False]


# --- success levels --------------------------------------------------------------------------


@pytest.mark.parametrize(("chance", "expected"), [
    # chance: (critical, special, success, failure, fumble) in percent, exactly
    (50, (3, 7, 40, 47, 3)),
    (65, (3, 10, 52, 33, 2)),     # critical round(3.25) = 3, special 13, fumble ceil(35/20)
    (30, (2, 4, 24, 66, 4)),
    (95, (5, 14, 76, 4, 1)),
    (100, (5, 15, 75, 4, 1)),     # 96-00 always fail, 00 always fumbles
    (150, (8, 22, 65, 4, 1)),     # criticals and specials keep growing past 100
    (5, (1, 0, 4, 90, 5)),        # 01-05 always succeed; 01 is at least a critical
    (1, (1, 0, 4, 90, 5)),
    (0, (0, 0, 0, 95, 5)),        # no chance: no success at all
    (-30, (0, 0, 0, 93, 7)),
])
def test_success_level_fractions_exact(chance: int, expected: tuple[int, ...]) -> None:
    p = tb.level_probabilities(chance)
    got = tuple(round(100 * p[k]) for k in ("critical", "special", "success", "failure",
                                             "fumble"))
    assert got == expected


def test_fumbles_double_and_quadruple_without_reaching_successes() -> None:
    assert tb.level_probabilities(50, fumble_multiplier=2)["fumble"] == 0.06
    assert tb.level_probabilities(50, fumble_multiplier=4)["fumble"] == 0.12
    assert tb.level_probabilities(95, fumble_multiplier=8)["fumble"] == 0.05   # 96-00 only
    assert tb.fatigue_fumble_multiplier([33, 34, 44, 45], 11).tolist() == [1, 2, 2, 4]
    assert tb.exhausted([110, 111], 11).tolist() == [False, True]


def test_level_options_change_the_fractions() -> None:
    elric = tb.Levels(critical_divisor=10, special_divisor=5)
    assert tb.level_probabilities(60, elric)["critical"] == 0.06


def test_kernel_level_table_matches_the_function() -> None:
    from balance.rules.percentile.kernel.strike import level_table

    critical, special, success, fumble = level_table(tb.DEFAULT_LEVELS)
    for chance in (-40, 0, 7, 55, 120):
        i = chance + 500
        assert (critical[i], special[i], success[i], fumble[1, i]) == (
            tb.critical_range(chance), tb.special_range(chance), tb.success_range(chance),
            tb.fumble_range(chance, multiplier=2))


# --- characteristics, damage bonus, damage --------------------------------------------------


def test_hit_points_and_major_wounds() -> None:
    assert tb.hit_points_average(11, 13) == 12 and tb.hit_points_average(12, 13) == 13
    assert tb.hit_points_con_adjusted(12, 15, 11) == 15       # +3 for SIZ over 12
    assert tb.hit_points_con_adjusted(12, 7, 3) == 8          # -2 SIZ under 9, -2 POW under 5
    assert tb.is_major_wound([6, 7], 13).tolist() == [False, True]   # half of 13 is 6.5
    assert tb.is_major_wound(6, 12)


@pytest.mark.parametrize(("str_siz", "bonus"), [
    (12, "-1D6"), (13, "-1D4"), (16, "-1D4"), (17, "0"), (24, "0"), (25, "1D4"),
    (33, "1D6"), (40, "1D6"), (41, "2D6"), (56, "2D6"), (57, "3D6"), (73, "4D6"),
    (88, "4D6"), (89, "4D6+1D6"), (105, "4D6+2D6")])
def test_damage_bonus_table(str_siz: int, bonus: str) -> None:
    assert damage_bonus_text(str_siz, shipped_tables("percentile").damage_bonus) == bonus


def test_half_bonus_and_pulled_blows() -> None:
    assert [dmg.half_bonus_text(b) for b in ("1D4", "1D6", "2D6", "3D6", "-1D6", "0")] == [
        "1D2", "1D3", "1D6", "1D6+1D3", "-1D3", "0"]
    # Seed 004: halve the die result, ignore the modifier: 1D8+1 pulled is 1D8 // 2.
    assert dmg.pulled_pmf("1D8+1").to_dict() == {0: 1 / 8, 1: 2 / 8, 2: 2 / 8, 3: 2 / 8,
                                                4: 1 / 8}
    assert dmg.impale_pmf("1D6+1").mean() == pytest.approx(9)
    assert dmg.minimum("1D8+1") == 2 and dmg.minimum("2D4+2") == 4


def test_pmf_table_samples_every_pmf_exactly() -> None:
    table = dmg.PmfTable()
    idx = [table.add(dmg.weapon_pmf(t)) for t in ("1D8+1", "-1D4", "2D6", "1D6-1")]
    assert table.add(dmg.weapon_pmf("1D8+1")) == idx[0]     # shared entries
    rng = np.random.Generator(np.random.PCG64(7))
    which = np.repeat(np.array(idx), 100_000)
    rolls = table.sample(which, rng)
    for k, text in zip(idx, ("1D8+1", "-1D4", "2D6", "1D6-1"), strict=True):
        pmf = dmg.weapon_pmf(text)
        got = rolls[which == k]
        counts = np.array([np.count_nonzero(got == x) for x in pmf.outcomes])
        assert counts.sum() == got.size
        assert stats.chisquare(counts, pmf.probs * got.size).pvalue > 1e-6
    assert table.sample(np.zeros(5, dtype=int), rng).tolist() == [0] * 5


class _Fixed:
    """A stand-in generator whose ``random`` returns the given uniforms."""

    def __init__(self, u: np.ndarray) -> None:
        self.u = u

    def random(self, shape) -> np.ndarray:
        return self.u


def test_pmf_table_guide_reads_what_the_binary_search_reads() -> None:
    """The guide table is a shortcut to ``searchsorted(keys, k + u)``: the same roll for
    every uniform, including those on a bucket's edges and just below 1 (where ``k + u``
    rounds up), and for pmfs with more outcomes than buckets can separate (3D6+2D6 doubled:
    buckets that share two or more keys fall back to the search)."""
    table = dmg.PmfTable()
    for text in ("1D8+1", "-1D4", "3D6", "10D10", "1D100", "1D6-1"):
        table.add(dmg.weapon_pmf(text))
        table.add(dmg.impale_pmf(text))
    table.add(dmg.impale_pmf("3D6+2D6"))
    table._build()
    rng = np.random.Generator(np.random.PCG64(11))
    n = 400_000
    index = rng.integers(0, len(table), n)
    b = table._buckets
    edge = rng.integers(0, b, n)
    u = rng.random(n)
    u[: n // 4] = edge[: n // 4] / b                                  # a bucket's lower edge
    u[n // 4: n // 2] = np.nextafter((edge[n // 4: n // 2] + 1) / b, 0)   # just below the next
    u[-1000:] = np.nextafter(1.0, 0)
    search = np.searchsorted(table._keys, index + u, side="right")   # k + u may round up
    search = np.minimum(search, table._values.size - 1)     # ... past the last pmf: its top
    assert table._shared.any()
    assert np.array_equal(table.sample(index, _Fixed(u)), table._values[search])


def test_literal_rolls_match_the_pmf() -> None:
    rng = np.random.Generator(np.random.PCG64(3))
    rolls = np.array([dmg.roll_dice("2D4+2", rng) for _ in range(40_000)])
    pmf = Pmf.ndm(2, 4) + 2
    counts = np.array([np.count_nonzero(rolls == x) for x in pmf.outcomes])
    assert stats.chisquare(counts, pmf.probs * rolls.size).pvalue > 1e-6


# --- seed 004's situations, direct calls ---------------------------------------------------


def test_light() -> None:
    kw = {"search": 40, "int_": 13, "pow_": 11}
    # semi-darkness halves weapon skills; true darkness: a third or half Search, the lower;
    # pitch darkness: INT x 3, POW x 3 or a quarter of the skill, the smallest.
    assert tb.light_skill(60, [0, 1, 2, 3], **kw).tolist() == [60, 30, 20, 15]
    assert tb.light_skill(90, tb.DARK, search=30, int_=13, pow_=11) == 15     # half Search
    assert tb.light_skill(200, tb.PITCH_DARK, search=0, int_=9, pow_=12) == 27  # INT x 3
    assert tb.light_skill(60, tb.PITCH_DARK, search=0, int_=13, pow_=11, listen=50,
                          noisy=True) == 25                                     # half Listen
    # seed 004: "half Scent/Taste" against a foe with a strong smell (the better sense wins)
    assert tb.light_skill(60, tb.PITCH_DARK, search=0, int_=13, pow_=11, scent=70,
                          smelly=True) == 35
    assert tb.light_skill(60, tb.PITCH_DARK, search=0, int_=13, pow_=11, listen=50, noisy=True,
                          scent=20, smelly=True) == 25
    assert tb.light_skill(50, tb.SEMI_DARK, search=0, int_=13, pow_=11, weapon=False) == 50


def test_cramped_quarters_and_attackers_per_target() -> None:
    # a corridor (1.5 yd to the sides, unlimited ahead): a dagger, a sword and a spear
    # deploy, a great sword does not; cramped quarters (half a yard each way): short only
    corridor = tb.deployable([0.33, 1, 0.33, 2], [0.33, 1, 2, 2], 1.5, np.inf)
    assert corridor.tolist() == [True, True, True, False]
    assert tb.deployable([0.33, 0.33, 1], [0.33, 1, 1], 0.5, 0.5).tolist() == [True, False,
                                                                                False]
    assert tb.cramped_skill([80, 80], [True, False]).tolist() == [80, 20]
    lengths = shipped_tables("percentile").lengths
    medium = (lengths["medium"].attackers.open, lengths["medium"].attackers.cramped,
              lengths["medium"].attackers.corridor)
    spear = (lengths["long"].thrusting_attackers.open, 0, 0)
    assert tb.attackers_allowed(medium, tb.OPEN) == 5      # "no more than five swordsmen"
    assert tb.attackers_allowed(spear, tb.OPEN) == 8       # "as many as eight spearmen"
    assert lengths["long"].attackers.cramped == 2          # "only two great-sword wielders"
    assert tb.attackers_allowed(np.array([medium, medium]), np.array([1, 2])).tolist() == [3, 1]


def test_height_down_and_angles() -> None:
    assert tb.height_modifier(1, 0, tb.MEDIUM, tb.MEDIUM) == 10
    assert tb.height_modifier(-1, 0, tb.MEDIUM, tb.MEDIUM) == -10
    assert tb.height_modifier(-1, 0, tb.LONG, tb.MEDIUM) == 0     # the lower has the longer
    assert tb.height_modifier(1, 0, tb.MEDIUM, tb.LONG) == 0
    assert tb.height_modifier(1, 0, tb.LONG, tb.MEDIUM) == 10     # the higher's longer: +10
    # seed 004: only "long against medium or short" cancels it; medium against short does not
    assert tb.height_modifier(-1, 0, tb.MEDIUM, tb.SHORT) == -10
    assert tb.height_modifier(1, 0, tb.SHORT, tb.MEDIUM) == 10
    assert tb.height_modifier(-1, 0, tb.LONG, tb.SHORT) == 0
    assert tb.down_modifier([True, False, False], [False, True, False]).tolist() == [-20, 20, 0]
    assert tb.angle_modifier([-1, 1, 0], [1, -1, 0], True).tolist() == [-20, -30, 0]
    assert tb.angle_modifier(-1, 1, False) == 0


def test_missile_ranges() -> None:
    d = [10, 25, 40, 50, 75, 100, 101]
    assert tb.range_divisor(d, 25).tolist() == [1, 1, 2, 2, 4, 8, 0]
    assert tb.range_divisor(d, 25, 2).tolist() == [1, 1, 2, 2, 0, 0, 0]   # knives, axes
    assert tb.half_damage_at([50, 51], 25).tolist() == [False, True]
    assert tb.point_blank([3, 4, 5], 12).tolist() == [True, True, False]   # 12 feet = 4 yd
    # careful aim: 10% of the current chance per five ranks, rounded up; none past 2x range
    assert tb.aim_bonus(45, [1, 2], 20, 25).tolist() == [5, 9]
    assert tb.aim_bonus(45, 1, 51, 25) == 0
    assert tb.aim_steps([1, 2, 2], [12, 12, 7]).tolist() == [1, 2, 1]
    assert tb.fixed_point_chance(60, [12, 13], 25).tolist() == [60, 0]
    assert tb.target_size_modifier([4, 1, 5, 29, 30, 45, 60]).tolist() == [-5, -20, 0, 0, 0, 5,
                                                                          15]


def test_shields_against_missiles() -> None:
    sizes = [tb.SMALL, tb.FULL, tb.LARGE]
    assert tb.shield_block_chance(sizes, False).tolist() == [15, 30, 60]
    assert tb.shield_block_chance(sizes, True).tolist() == [15, 60, 90]
    assert tb.missile_blockable([tb.SUCCESS, tb.SPECIAL, tb.SPECIAL, tb.CRITICAL],
                                [True, True, False, False]).tolist() == [True, False, True,
                                                                        False]


def test_volleys_manoeuvres_and_riders() -> None:
    assert tb.volley_chance(60) == 20 and tb.volley_chance(50) == 17
    shots = tb.volley_shots(3, np.arange(30), 11)     # 22 rounds full, 6 halved, then full
    assert shots[:22].tolist() == [3] * 22 and shots[22:28].tolist() == [2] * 6
    assert shots[28] == 3
    assert tb.volley_shots(2, 8, 4) == 1
    assert tb.knockback_yards([17, 10], [12, 14]).tolist() == [5, 1]
    assert tb.extra_attack_chance([40, 80]).tolist() == [40, 50]
    assert tb.rider_skill(80, 55) == 55 and tb.rider_dodge([70, 30]).tolist() == [50, 30]


def test_hazard_tables() -> None:
    assert tb.poison_damage(16, [True, False]).tolist() == [16, 8]
    assert tb.poison_damage(9, False) == 4
    assert tb.poison_chance(16, 12) == 70
    assert tb.fall_dice([0, 1, 3, 5.9, 6, 9, 10]).tolist() == [0, 1, 1, 1, 2, 3, 3]
    assert tb.drowning_multiplier(np.arange(7)).tolist() == [5, 4, 3, 2, 1, 1, 1]
    assert tb.drowning_multiplier(np.arange(4), breath=False).tolist() == [3, 2, 1, 1]


def test_partly_destroyed_armour_halves_the_roll() -> None:
    """Seed 004: "1D6-1 becomes 1D3"; the lab halves dice and fixed numbers, rounding up."""
    assert [dmg.damaged_armour_text(t) for t in ("1D6-1", "1D10+2", "7", "2D6", "0", "1D8")] \
        == ["1D3", "1D5+1", "4", "1D6", "0", "1D4"]
