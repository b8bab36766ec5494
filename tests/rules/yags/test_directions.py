"""Directional checks of the detailed melee rules (issue 3), and the bundled scenarios.

With everything else equal: a longer reach does not lose more often; a shield does not lower
its bearer's win rate; heavy armour helps more against light weapons than against heavy
ones. Each compares win rates from seeded runs, with a tolerance of 4.5 standard errors.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import balance
from balance.engine.run import run_reference
from balance.rules import get

ROOT = Path(__file__).resolve().parents[3]
TRIALS = 40_000
SE = np.sqrt(2 * 0.25 / TRIALS)      # standard error of a difference of two win rates


def win(a: dict, b: dict, seed: int, **kw) -> float:
    """Side a's win rate in a duel of ``a`` against ``b`` (members)."""
    scenario = {"name": "t", "ruleset": "yags", "max_rounds": 60,
                "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}], **kw}
    return balance.run(scenario, trials=TRIALS, seed=seed).outcomes["a"]


def fighter(**kw) -> dict:
    member = {"attributes": {"dexterity": 3, "agility": 3, "strength": 3},
              "skills": {"single_weapon": 4, "weapon_and_shield": 4},
              "weapon": "broad_sword", "armour": ["mail_vest", "helm"]}
    member.update(kw)
    return member


@pytest.mark.parametrize("reaches", [(1, 2), (0, 3), (2, 4)])
def test_longer_reach_does_not_lose_more_often(reaches) -> None:
    """Two weapons identical but for reach (rules.reach every_attack, the default)."""
    short, long_ = reaches
    row = {"style": "single_weapon", "attack": 3, "defence": 2, "damage": 5}
    tables = {"weapons": {"short": {**row, "reach": short}, "long": {**row, "reach": long_}}}
    p = win(fighter(weapon="long"), fighter(weapon="short"), 1, tables=tables)
    assert p > 0.5 - 4.5 * SE
    assert p > 0.55            # and here it wins clearly: a free strike per enemy attack


def test_a_shield_does_not_lower_the_win_rate() -> None:
    foe = fighter(weapon="long_sword")
    with_shield = win(fighter(off_hand="shield"), foe, 2)
    without = win(fighter(), foe, 3)
    assert with_shield > without - 4.5 * SE
    # against two foes the free defence makes the shield worth more still
    pair = {"name": "t", "ruleset": "yags", "sides": [
        {"name": "a", "members": [fighter(off_hand="shield", attributes={
            "dexterity": 5, "agility": 4, "strength": 4}, skills={"weapon_and_shield": 5})]},
        {"name": "b", "members": [dict(foe, count=2)]}]}
    single = {**pair, "sides": [{"name": "a", "members": [
        {**pair["sides"][0]["members"][0], "off_hand": None,
         "skills": {"single_weapon": 5}}]}, pair["sides"][1]]}
    p_shield = balance.run(pair, trials=TRIALS, seed=4).outcomes["a"]
    p_single = balance.run(single, trials=TRIALS, seed=5).outcomes["a"]
    assert p_shield > p_single - 4.5 * SE


def test_heavy_armour_helps_more_against_light_weapons_than_heavy_ones() -> None:
    """The same weapon, light or heavy, against the same fighter in plate or unarmoured: the
    plate cuts the light weapon's wins by more (light weapons do a category less damage to a
    heavy suit; heavy weapons only beat light suits)."""
    row = {"style": "single_weapon", "attack": 3, "defence": 2, "damage": 6, "reach": 2}
    tables = {"weapons": {"light_blade": {**row, "properties": ["light"]},
                          "heavy_blade": {**row, "properties": ["heavy"]}}}
    drops = {}
    for kind in ("light_blade", "heavy_blade"):
        bare = win(fighter(weapon=kind), fighter(armour=[]), 6, tables=tables)
        plated = win(fighter(weapon=kind), fighter(armour=["plate"]), 7, tables=tables)
        drops[kind] = bare - plated
    assert drops["light_blade"] > drops["heavy_blade"] + 0.02


def test_light_armour_helps_less_against_heavy_weapons() -> None:
    row = {"style": "single_weapon", "attack": 3, "defence": 2, "damage": 6, "reach": 2}
    tables = {"weapons": {"plain": row, "heavy_blade": {**row, "properties": ["heavy"]}}}
    leather = ["soft_leather_jacket", "soft_leather_trousers", "padded_jacket"]
    drops = {}
    for kind in ("plain", "heavy_blade"):
        bare = win(fighter(weapon=kind), fighter(armour=[]), 8, tables=tables)
        clad = win(fighter(weapon=kind), fighter(armour=leather), 9, tables=tables)
        drops[kind] = bare - clad
    assert drops["plain"] > drops["heavy_blade"] + 0.02


SCENARIOS = sorted((ROOT / "scenarios" / "yags").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_bundled_scenarios_run_in_both_engines(path: Path) -> None:
    loaded = balance.load_scenario(path)
    result = balance.run(loaded, trials=4000, seed=1)
    assert abs(sum(result.outcomes.values()) - 1) < 1e-9
    system = get("yags")
    tally = run_reference(system, system.compile(loaded.model, loaded.tables), 60, seed=1)
    assert tally.trials == 60


def test_the_issues_questions_have_answers() -> None:
    """The bundled scenarios answer the questions they were written for (the directions,
    not the exact numbers, which are the lab's tables)."""
    def outcome(name: str) -> dict:
        return balance.run(ROOT / "scenarios" / "yags" / f"{name}.yaml", trials=20_000,
                           seed=1).outcomes

    assert outcome("spear_vs_dagger")["spear"] > 0.7              # reach tells
    stances = {s: outcome(f"stance_{s}")["swordsman"]
               for s in ("normal", "aggressive", "defensive")}
    assert stances["defensive"] < stances["normal"] < stances["aggressive"]
    assert abs(stances["normal"] - 0.5) < 0.03                     # a mirror match
