"""The per-fight breakdown (balance.engine.breakdown): counting changes no outcome, it is
the same however the blocks are split, and what the engine counts itself follows from the
outcomes.

* Bit for bit: a run with the breakdown draws the same numbers as one without (the
  counters draw nothing), so every tally field but the breakdown is equal.
* Rounds standing (counted by the engine: each round a fighter starts standing in an open
  fight): in a duel both fighters start every round the fight lasts standing, so each one's
  total is exactly the sum of the deciding rounds (its mean is the mean length).
* Sums are integers: blocks played in any order and split give the same breakdown."""

from __future__ import annotations

import numpy as np

import balance
from balance.api import compile_scenario
from balance.engine.breakdown import METRICS, ROUNDS_STANDING
from balance.engine.run import BLOCK_TRIALS, run_fight


def compiled(path: str):
    return compile_scenario(balance.load_scenario(path))


def test_counting_changes_no_outcome() -> None:
    for path in ("scenarios/yags/reference_duel.yaml",
                 "scenarios/groups/yags_two_guards_vs_hero.yaml",
                 "scenarios/percentile/sword_and_shield_duel.yaml",
                 "scenarios/ymlad/duel_threshold_1.yaml"):
        system, fight = compiled(path)
        plain = run_fight(system, fight, 3000, 4)
        counted = run_fight(system, fight, 3000, 4, with_breakdown=True)
        for name in ("wins", "rounds", "status", "standing", "first_down"):
            assert np.array_equal(getattr(plain, name), getattr(counted, name)), (path, name)
        assert plain.breakdown is None and counted.breakdown.shape == (len(METRICS),
                                                                        len(fight.side_of), 2)


def test_rounds_standing_in_a_duel_is_the_fights_length() -> None:
    system, fight = compiled("scenarios/yags/reference_duel.yaml")
    t = run_fight(system, fight, 20_000, 9, with_breakdown=True)
    total_rounds = int(np.arange(t.rounds.size) @ t.rounds)
    assert (t.breakdown[ROUNDS_STANDING, :, 0] == total_rounds).all()


def test_the_breakdown_is_split_independent() -> None:
    system, fight = compiled("scenarios/groups/yags_two_guards_vs_hero.yaml")
    trials = BLOCK_TRIALS + 500
    whole = run_fight(system, fight, trials, 5, with_breakdown=True)
    parts = run_fight(system, fight, trials, 5, blocks=[1], with_breakdown=True).merge(
        run_fight(system, fight, trials, 5, blocks=[0], with_breakdown=True))
    assert np.array_equal(whole.breakdown, parts.breakdown)


def test_the_result_shows_means_and_says_what_is_not_counted() -> None:
    res = balance.run("scenarios/groups/yags_two_guards_vs_hero.yaml", trials=4000,
                      breakdown=True)
    bd = res.breakdown
    assert set(bd) == set(res.fighter_names)
    row = next(iter(bd.values()))
    assert row["rounds_standing"]["mean"] > 0
    lo, hi = row["rounds_standing"]["ci95"]
    assert lo < row["rounds_standing"]["mean"] < hi
    assert "rounds standing" in res.to_text() and res.to_dict()["breakdown"]
    frame = res.breakdown_frame()
    assert len(frame) == len(res.fighter_names) * len(METRICS)
    assert balance.run("scenarios/yags/reference_duel.yaml", trials=100).breakdown is None
