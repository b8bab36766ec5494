"""Stacked blocks (balance.engine.streams) give the same numbers as one block at a time.

Blocks of a fight the rule system can stack play side by side, then in one set of arrays
once few of their fights are left, each block drawing from its own stream; the tallies
must equal, bit for bit, those of the blocks played one at a time, whatever the order and
grouping of the blocks asked for.
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.engine import loop, run
from balance.engine.streams import Streams
from balance.rules import get
from balance.rules.yags.fighters import YagsFight, YagsRules
from tests.rules.test_yags_agreement import BASIC

FIELDS = ("wins", "rounds", "status", "standing", "first_down")
DUELS = ["mirror", "aggressive_mixed_vs_defensive", "all_out_attack", "yielding_fumbly",
         "stuns_vs_wounds"]


def duel(name: str) -> YagsFight:
    return YagsFight(tuple(BASIC[name]), ("s0", "s1"), YagsRules(), 40)


@pytest.mark.parametrize("name", DUELS)
def test_stacked_blocks_give_the_same_numbers(name: str, monkeypatch) -> None:
    system, fight = get("yags"), duel(name)
    assert system.stackable(fight)
    trials, block = 6 * 512 + 37, 512
    monkeypatch.setattr(loop, "MERGE_AT", 700)      # merge while several blocks are open
    monkeypatch.setattr(loop, "MERGE_EACH", 100)
    for blocks in (None, [5, 0, 1, 2, 6]):
        monkeypatch.setattr(run, "STACK_TRIALS", 1)
        alone = run.run_fight(system, fight, trials, seed=3, block_trials=block, blocks=blocks)
        monkeypatch.setattr(run, "STACK_TRIALS", 4 * block)
        stacked = run.run_fight(system, fight, trials, seed=3, block_trials=block,
                                blocks=blocks)
        for field in FIELDS:
            assert np.array_equal(getattr(alone, field), getattr(stacked, field)), field


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
