"""Stacked blocks (balance.engine.streams) give the same numbers as one block at a time.

Blocks of a fight the rule system can stack play side by side, then in one set of arrays
once few of their fights are left, each block drawing from its own stream; the tallies
must equal, bit for bit, those of the blocks played one at a time, whatever the order and
grouping of the blocks asked for.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from balance import load_scenario
from balance.engine import loop, run
from balance.engine.streams import Streams
from balance.rules import get
from balance.rules.yags.compile import YagsFight, YagsRules
from tests.rules.yags.fights import BASIC

ROOT = Path(__file__).resolve().parents[2]
FIELDS = ("wins", "rounds", "status", "standing", "first_down")
DUELS = ["mirror", "aggressive_mixed_vs_defensive", "all_out_attack", "yielding_fumbly",
         "stuns_vs_wounds"]


def duel(name: str) -> YagsFight:
    return YagsFight(tuple(BASIC[name]), ("s0", "s1"), YagsRules(), 40)


@pytest.mark.parametrize("name", DUELS)
def test_stacked_blocks_give_the_same_numbers(name: str, monkeypatch) -> None:
    assert_stacked_same(duel(name), 6 * 512 + 37, 512, 3, [5, 0, 1, 2, 6], (700, 100),
                        monkeypatch)


def assert_stacked_same(fight: YagsFight, trials: int, block: int, seed: int,
                        blocks: list[int], merge: tuple[int, int], monkeypatch) -> None:
    """The tallies of ``fight`` stacked (four blocks at most, merging at ``merge``:
    ``MERGE_AT``, ``MERGE_EACH``, so that several blocks are open when they merge) equal
    those of its blocks played one at a time, for all blocks and for ``blocks``."""
    system = get("yags")
    assert system.stackable(fight)
    monkeypatch.setattr(loop, "MERGE_AT", merge[0])
    monkeypatch.setattr(loop, "MERGE_EACH", merge[1])
    for chosen in (None, blocks):
        monkeypatch.setattr(run, "STACK_TRIALS", 1)
        alone = run.run_fight(system, fight, trials, seed=seed, block_trials=block,
                              blocks=chosen)
        monkeypatch.setattr(run, "STACK_TRIALS", 4 * block)
        stacked = run.run_fight(system, fight, trials, seed=seed, block_trials=block,
                                blocks=chosen)
        for field in FIELDS:
            assert np.array_equal(getattr(alone, field), getattr(stacked, field)), field


def group(policies: tuple[str, str], cap: int | None = None, counts=(3, 3)) -> YagsFight:
    """A basic group fight: two sides of veterans of the two target policies."""
    def member(policy: str, count: int) -> dict:
        return {"attributes": {"dexterity": 3, "agility": 3, "strength": 3},
                "skills": {"single_weapon": 3}, "weapon": "long_sword",
                "armour": ["soft_leather_jacket"], "count": count,
                "policy": {"target": policy}}
    scenario = {"name": "group", "ruleset": "yags", "max_rounds": 40,
                "sides": [{"name": f"s{k}", "members": [member(p, n)]}
                          for k, (p, n) in enumerate(zip(policies, counts, strict=True))]}
    if cap is not None:
        scenario["rules"] = {"max_attackers": cap}
    loaded = load_scenario(scenario)
    return get("yags").compile(loaded.model, loaded.tables)


GROUPS = {
    "engage": group(("engage", "engage")),
    "spread_vs_weakest": group(("spread", "weakest"), counts=(4, 3)),
    "random_vs_dangerous_cap": group(("random", "dangerous"), cap=1, counts=(2, 4)),
    "first_cap": group(("first", "first"), cap=2, counts=(4, 2)),
}


@pytest.mark.parametrize("name", list(GROUPS))
def test_stacked_group_fights_give_the_same_numbers(name: str, monkeypatch) -> None:
    """Basic group fights draw every number for named columns (the choosers' order, ties
    between foes, the attacks' dice, health checks), so their blocks stack too."""
    assert_stacked_same(GROUPS[name], 5 * 256 + 19, 256, 5, [4, 0, 1, 2, 5], (300, 60),
                        monkeypatch)


def test_group_fights_with_morale_or_mixed_first_are_not_stacked() -> None:
    """A broken side's run draws over whole sides, and a mix of ``first`` with other
    policies shuffles choosers only where some chooser's policy is not ``first``."""
    system = get("yags")
    assert not system.stackable(group(("first", "engage")))
    loaded = load_scenario(str(ROOT / "scenarios" / "groups" / "yags_bridge_hold.yaml"))
    assert not system.stackable(system.compile(loaded.model, loaded.tables))


def test_a_draw_must_name_its_columns() -> None:
    streams = Streams([np.random.default_rng(1), np.random.default_rng(2)], [3, 4])
    assert streams.integers(0, 10, size=(2, 7), dtype=np.int16).shape == (2, 7)
    with pytest.raises(TypeError):
        streams.integers(0, 10, size=5)
    streams = Streams([np.random.default_rng(1), np.random.default_rng(2)], [3, 4])
    at = streams.at(np.array([5, 0, 6]), 0, 10)      # block 1, block 0, block 1
    alone = [np.random.default_rng(2).integers(0, 10, size=2, dtype=np.int16),
             np.random.default_rng(1).integers(0, 10, size=1, dtype=np.int16)]
    assert at.tolist() == [alone[0][0], alone[1][0], alone[0][1]]
