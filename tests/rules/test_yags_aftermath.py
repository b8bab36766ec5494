"""After the battle: seed 000's untended wounds, first aid and healing, vectorised."""

from __future__ import annotations

import numpy as np

from balance.rules.yags.aftermath import Healer, after_battle, first_aid_target

N = 20_000


def run(wounds: int, *, healer: Healer | None = None, hours: float = 24, health: int = 3,
        seed: int = 0) -> float:
    w = np.full((1, N), wounds, dtype=np.int8)
    alive = after_battle(w, np.zeros_like(w), np.ones((1, N), dtype=bool),
                         np.array([0], dtype=np.int8), np.array([health]),
                         {0: healer} if healer else {}, hours, np.random.default_rng(seed))
    return float(alive.mean())


def test_first_aid_difficulty_examples() -> None:
    # seed: moderate (-10) wounds and light (-5) stuns: 10 + (10 + 5) / 2 = 18
    assert first_aid_target(np.int16(3), np.int16(2)) == 18
    # seed: beaten and fatally wounded: 50
    assert first_aid_target(np.int16(6), np.int16(6)) == 50
    assert first_aid_target(np.int16(0), np.int16(0)) == 10


def test_untended_fatal_wounds_kill_within_the_hour() -> None:
    # health 3: 12 + d20 >= 20 survives a minute with p = 13/20 (8-20), so an hour is death
    assert run(6, hours=1) == 0.0
    # a few minutes: (13/20) ** minutes
    p = run(6, hours=3 / 60)
    assert abs(p - 0.65 ** 3) < 5 * np.sqrt(0.65 ** 3 * (1 - 0.65 ** 3) / N)


def test_light_wounds_do_not_kill_in_a_day_but_infection_can_over_weeks() -> None:
    assert run(2, hours=24) == 1.0
    month = run(2, hours=24 * 30)
    assert month < 1.0  # a fumbled check infects: a level worse every day until death
    assert month > 0.9


def test_first_aid_lowers_deaths_after_the_battle() -> None:
    for wounds in (4, 5):
        alone = run(wounds, hours=24 * 3, seed=1)
        tended = run(wounds, hours=24 * 3, healer=Healer(intelligence=4, first_aid=5), seed=1)
        assert tended > alone


def test_critical_wounds_check_daily() -> None:
    # untended critical: first daily failure -> coma, second -> death; health 3 fails when
    # 12 + d20 < 20, i.e. on 1-7: 7/20
    one_day = run(5, hours=24)
    assert one_day == 1.0  # a coma is not death
    two_days = run(5, hours=48)
    p_dead = 0.35 ** 2
    assert abs(two_days - (1 - p_dead)) < 5 * np.sqrt(p_dead * (1 - p_dead) / N)
