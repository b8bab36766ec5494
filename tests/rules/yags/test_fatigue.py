"""The fatigue track (seed 000): exhaustion from health, rest and sleep, stacking."""

from __future__ import annotations

import pytest

import balance
from balance.rules.yags.rules.fatigue import after_rest, after_sleep, exhausted, gain, rest_minutes


def test_a_fighter_takes_health_levels_and_one_more_exhausts_it() -> None:
    assert not exhausted(3, 0, health=3) and exhausted(2, 2, health=3)


def test_fatigue_and_exhaustion_stack_and_exhausted_fatigue_turns_into_exhaustion() -> None:
    assert gain(2, 2, health=3) == (2, 2) and exhausted(2, 2, health=3)
    assert gain(2, 2, health=3, fatigue_levels=1) == (1, 3)
    assert gain(0, 0, health=3, fatigue_levels=5) == (3, 1)


def test_rest_takes_five_minutes_per_level_on_the_track_per_level_lost() -> None:
    # 2 fatigue + 2 exhaustion: 20 minutes for the first level, 15 for the second.
    assert rest_minutes(2, 2) == 35
    assert after_rest(2, 2, 34) == 1 and after_rest(2, 2, 35) == 0
    assert after_rest(3, 0, 14.9) == 3


@pytest.mark.parametrize(("health", "cleared"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_four_hours_of_sleep_clear_one_exhaustion_per_two_health_rounded_up(health,
                                                                             cleared) -> None:
    assert after_sleep(5, health, 4) == (0, 5 - cleared)
    with pytest.raises(ValueError):
        after_sleep(5, health, 3)


def test_fatigue_brought_to_the_fight_lowers_the_win_rate() -> None:
    def win(**tired) -> float:
        a = {"skills": {"single_weapon": 4}, "weapon": "broad_sword", **tired}
        b = {"skills": {"single_weapon": 4}, "weapon": "broad_sword"}
        scenario = {"name": "t", "ruleset": "yags",
                    "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
        return balance.run(scenario, trials=40_000, seed=3).outcomes["a"]

    rested, marched = win(), win(fatigue=1, exhaustion=1)
    assert rested > 0.45 and marched < rested - 0.1


def test_kernel_matches_reference_with_fatigue_brought_and_exhaustion_from_health() -> None:
    from balance.rules import get
    from tests.rules.yags.fights import agree, fight, m

    scenario = fight(m(skills={"single_weapon": 4}, weapon="broad_sword", fatigue=2,
                       attributes={"health": 2}),
                     m(skills={"single_weapon": 3}, weapon="long_sword", exhaustion=1,
                       policy={"manoeuvre": "improved_damage"}, stance="aggressive"),
                     rules={"exhausted_at": "health"})
    loaded = balance.load_scenario(scenario)
    compiled = get("yags").compile(loaded.model, loaded.tables)
    assert [f.exhausted_at for f in compiled.fighters] == [3, 4]
    agree(compiled, 60_000, 3_000)
