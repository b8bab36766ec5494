"""The conformance suite every registered rule system must pass (like sklearn's
check_estimator): shapes and dtypes, determinism, split-independence, no global RNG, mirror
fights even, more skill never hurts. A new rule system adds its example builders below."""

from __future__ import annotations

import random
from itertools import pairwise

import numpy as np
import pytest

import balance
from balance.engine.loop import simulate
from balance.engine.run import BLOCK_TRIALS, run_fight
from balance.engine.status import STATUS_NAMES
from balance.rules import REGISTRY


def yags_member(skill: int = 4, **kw) -> dict:
    member = {"attributes": {"dexterity": 3, "agility": 3, "strength": 3},
              "skills": {"single_weapon": skill}, "weapon": "long_sword",
              "armour": ["mail_hauberk"]}
    member.update(kw)
    return member


def yags_duel(a: dict, b: dict, **kw) -> dict:
    scenario = {"name": "duel", "ruleset": "yags", "trials": 1000, "seed": 1,
                "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    scenario.update(kw)
    return scenario


def ymlad_member(skill: int = 4, **kw) -> dict:
    """A man-at-arms; the conformance ``skill`` 1..7 is his melee skill 0..6 (Ymlad's range)."""
    member = {"talents": {"strength": 3, "dexterity": 3},
              "skills": {"melee": skill - 1, "close": 2}, "weapon": "long_sword",
              "armour": ["mail_hauberk", "open_helmet"]}
    member.update(kw)
    return member


def ymlad_duel(a: dict, b: dict) -> dict:
    return {"name": "duel", "ruleset": "ymlad", "trials": 1000, "seed": 1,
            "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}


# For each ruleset: a duel between fighters of the given skills, and a small group fight.
EXAMPLES = {
    "yags": {
        "duel": lambda skill_a, skill_b: yags_duel(yags_member(skill_a), yags_member(skill_b)),
        "group": lambda: {
            "name": "group", "ruleset": "yags", "trials": 1000, "seed": 1,
            "sides": [{"name": "a",
                       "members": [yags_member(5), yags_member(3, stance="aggressive")]},
                      {"name": "b", "members": [yags_member(4, count=2)]},
                      {"name": "c", "members": [yags_member(2, weapon="fist")]}]},
    },
    "ymlad": {
        "duel": lambda skill_a, skill_b: ymlad_duel(ymlad_member(skill_a),
                                                    ymlad_member(skill_b)),
        "group": lambda: {
            "name": "group", "ruleset": "ymlad", "trials": 1000, "seed": 1, "distance": 12,
            "sides": [{"name": "a", "members": [
                          ymlad_member(6), ymlad_member(3, missile="javelin",
                                                        policy={"style": "missile"})]},
                      {"name": "b", "members": [ymlad_member(4, count=2, weapon="spear",
                                                             shield="medium")]},
                      {"name": "c", "members": [ymlad_member(3, weapon="dagger",
                                                             policy={"style": "close"})]}]},
    },
}


def percentile_member(skill: int = 60, **kw) -> dict:
    member = {"characteristics": {"STR": 13, "CON": 13, "SIZ": 13, "DEX": 12},
              "skills": {"attack": skill, "shield": skill}, "weapon": "broadsword",
              "shield": "full_shield", "armour": "none"}
    member.update(kw)
    return member


def percentile_duel(a: dict, b: dict, **kw) -> dict:
    scenario = {"name": "duel", "ruleset": "percentile", "trials": 1000, "seed": 1,
                "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    scenario.update(kw)
    return scenario


EXAMPLES["percentile"] = {
    "duel": lambda skill_a, skill_b: percentile_duel(percentile_member(12 * skill_a),
                                                     percentile_member(12 * skill_b)),
    "group": lambda: {
        "name": "group", "ruleset": "percentile", "trials": 1000, "seed": 1,
        "sides": [{"name": "a", "members": [percentile_member(75),
                                            percentile_member(50, weapon="long_spear",
                                                              shield=None)]},
                  {"name": "b", "members": [percentile_member(60, count=2)]},
                  {"name": "c", "members": [percentile_member(40, weapon="fist",
                                                              shield=None)]}]},
}


RULESETS = sorted(REGISTRY)


def test_every_registered_ruleset_has_examples() -> None:
    assert set(RULESETS) <= set(EXAMPLES)


def compiled(ruleset: str, scenario: dict):
    loaded = balance.load_scenario(scenario)
    system = REGISTRY[ruleset]
    return system, system.compile(loaded.model, loaded.tables)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_block_outcome_shapes_and_dtypes(ruleset: str) -> None:
    system, fight = compiled(ruleset, EXAMPLES[ruleset]["group"]())
    out = simulate(system, fight, 500, np.random.default_rng(0))
    c = len(fight.side_of)
    assert out.winner.shape == (500,) and out.winner.dtype == np.int8
    assert out.rounds.shape == (500,) and out.rounds.dtype == np.int16
    assert out.status.shape == (c, 500) and out.status.dtype == np.int8
    assert set(np.unique(out.winner)) <= {-1, 0, 1, 2}
    assert out.rounds.min() >= 1 and out.rounds.max() <= fight.max_rounds
    assert out.status.min() >= 0 and out.status.max() < len(STATUS_NAMES)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_numbers_and_split_independence(ruleset: str) -> None:
    system, fight = compiled(ruleset, EXAMPLES[ruleset]["group"]())
    trials = 2 * BLOCK_TRIALS + 123
    whole = run_fight(system, fight, trials, seed=5)
    again = run_fight(system, fight, trials, seed=5)
    parts = run_fight(system, fight, trials, seed=5, blocks=[2, 0]).merge(
        run_fight(system, fight, trials, seed=5, blocks=[1]))
    for name in ("wins", "rounds", "status", "standing"):
        assert np.array_equal(getattr(whole, name), getattr(again, name))
        assert np.array_equal(getattr(whole, name), getattr(parts, name))
    assert whole.trials == parts.trials == trials
    other = run_fight(system, fight, trials, seed=6)
    assert not np.array_equal(whole.rounds, other.rounds)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_global_random_state_is_touched(ruleset: str) -> None:
    system, fight = compiled(ruleset, EXAMPLES[ruleset]["group"]())
    np_state, py_state = np.random.get_state(), random.getstate()  # noqa: NPY002
    run_fight(system, fight, 3000, seed=1)
    after = np.random.get_state()  # noqa: NPY002
    assert all(np.array_equal(x, y) for x, y in zip(np_state, after, strict=True))
    assert random.getstate() == py_state


@pytest.mark.parametrize("ruleset", RULESETS)
def test_mirror_duel_is_even(ruleset: str) -> None:
    result = balance.run(EXAMPLES[ruleset]["duel"](4, 4), trials=200_000, seed=3)
    p = result.outcomes
    n = result.trials
    decided = p["a"] + p["b"]
    se = np.sqrt(decided * 0.25 / n) * 2
    assert abs(p["a"] - p["b"]) < 4.5 * se


@pytest.mark.parametrize("ruleset", RULESETS)
def test_more_skill_never_hurts(ruleset: str) -> None:
    rates = []
    for skill in range(1, 8):
        result = balance.run(EXAMPLES[ruleset]["duel"](skill, 4), trials=40_000, seed=skill)
        rates.append(result.outcomes["a"])
    se = np.sqrt(0.25 / 40_000)
    assert all(later > earlier - 4 * se * np.sqrt(2) for earlier, later in pairwise(rates))
    assert rates[-1] - rates[0] > 0.5  # and it matters a lot


@pytest.mark.parametrize("ruleset", RULESETS)
def test_swapping_sides_mirrors_the_result(ruleset: str) -> None:
    scenario = EXAMPLES[ruleset]["duel"](5, 3)
    swapped = dict(scenario, sides=scenario["sides"][::-1])
    n = 100_000
    p = balance.run(scenario, trials=n, seed=1).outcomes
    q = balance.run(swapped, trials=n, seed=2).outcomes
    se = np.sqrt(2 * 0.25 / n)
    assert abs(p["a"] - q["a"]) < 4.5 * se and abs(p["b"] - q["b"]) < 4.5 * se
