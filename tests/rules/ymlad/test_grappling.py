"""Grappling's harm levels (seed 002, Harm effects and Grappling), kernel and reference.

Seed: "'incapacitated' means completely immobilized; 'dead' means not yet dead but
suffocating towards death; 'wasted' means mangled and strangled to death", and grappling
harm "is instantly (partially or completely) dissolved when a grip is released". So a pinned
fighter stays down while held, gets up when the hold breaks, and dies only at "wasted".
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import balance
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS
from balance.rules.ymlad.kernel import fight as kernel
from balance.rules.ymlad.kernel import harm
from balance.rules.ymlad.reference import fight as ref
from balance.rules.ymlad.rules.tables import GRAPPLE, WOUND
from tests.rules.helpers import ymlad_duel, ymlad_fight

ROOT = Path(__file__).resolve().parents[3]


def compiled(a: dict, b: dict):
    return ymlad_fight(ymlad_duel(a, b))


WRESTLER = {"policy": {"style": "close", "harm": "grapple"}}


def test_kernel_a_pinned_fighter_stays_held_and_gets_up_when_released() -> None:
    fight = compiled(WRESTLER, {})
    s = kernel.static_of(fight)
    state = kernel.start(fight, 3, np.random.default_rng(0))
    state.close_with[0], state.close_with[1] = 1, 0
    state.grapple[0] = 2                                  # b holds a a little
    # Threshold 2: down at 7, suffocating ("dead") at 11, strangled ("wasted") at 15.
    harm.inflict(s, state, np.arange(3), np.full(3, 1), np.full(3, GRAPPLE),
                   np.array([8, 12, 15]))
    assert state.status[1].tolist() == [UNCONSCIOUS, UNCONSCIOUS, DEAD]
    assert state.close_with[:, :2].tolist() == [[1, 1], [0, 0]]   # the hold stays
    assert state.grapple[0, :2].tolist() == [0, 0]        # the pinned one's grip is gone
    # The holder is struck down: the grip is released, the suffocating man breathes again.
    harm.inflict(s, state, np.array([1]), np.array([0]), np.array([WOUND]), np.array([9]))
    assert state.status[:, 1].tolist() == [UNCONSCIOUS, STANDING]
    assert state.grapple[1, 1] == 0 and state.close_with[:, 1].tolist() == [-1, -1]
    assert state.status[1, 0] == UNCONSCIOUS               # trial 0: still held


def test_kernel_wounds_keep_a_released_fighter_down() -> None:
    fight = compiled(WRESTLER, {})
    s = kernel.static_of(fight)
    state = kernel.start(fight, 2, np.random.default_rng(0))
    state.close_with[0], state.close_with[1] = 1, 0
    state.body[1] = 6                                     # one short of going down
    both, b = np.arange(2), np.full(2, 1)
    harm.inflict(s, state, both, b, np.full(2, GRAPPLE), np.full(2, 1))
    assert (state.status[1] == UNCONSCIOUS).all() and (state.close_with[0] == 1).all()
    # A blow landing at the same moment (equal initiative) adds a wound in trial 1.
    harm.inflict(s, state, np.array([1]), np.array([1]), np.array([WOUND]), np.array([1]))
    harm.inflict(s, state, both, np.zeros(2, dtype=int), np.full(2, WOUND), np.full(2, 9))
    assert state.grapple[1].tolist() == [0, 0] and (state.close_with[1] == -1).all()
    assert state.status[1].tolist() == [STANDING, UNCONSCIOUS]   # wounds keep him down


def test_reference_a_pinned_fighter_stays_held_and_gets_up_when_released() -> None:
    fight = compiled(WRESTLER, {})
    combat = ref.start_combat(fight)
    a, b = combat.fighters
    ref.close_in(a, b)
    ref.inflict(a, GRAPPLE, 2, combat)
    ref.inflict(b, GRAPPLE, 12, combat)                   # suffocating: down, not dead
    assert b.status == UNCONSCIOUS and b.close_with == 0 and a.grapple == 0
    ref.inflict(a, WOUND, 9, combat)                      # the holder falls, lets go
    assert b.status == STANDING and b.grapple == 0 and b.close_with is None
    ref.close_in(a, b)
    a.status = STANDING
    ref.inflict(b, GRAPPLE, 15, combat)                   # strangled
    assert b.status == DEAD


def test_a_wrestler_seldom_kills_the_swordsman() -> None:
    """Bundled ``wrestler_vs_swordsman``: the wrestler wins about 30% of fights by pinning;
    before grappling "dead" meant dead the swordsman died in 10.5% of fights; only strangling
    (past 7T = 15 harm, the first hold doing about 10) kills now."""
    result = balance.run(ROOT / "scenarios/ymlad/wrestler_vs_swordsman.yaml", trials=40_000,
                         seed=1)
    assert result.outcomes["wrestler"] > 0.25
    assert result.fighter_status["Swordsman"].get("dead", 0.0) < 0.01
