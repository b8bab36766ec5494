"""Scripted dice (``balance.engine.scripted``), the conformance tests' stand-in generators.

Hand-derived cases: a pair of d20 read as one number in 0..399 is ``(first - 1) * 20 +
(second - 1)``; a draw over all columns deals each column its own faces; a draw naming
columns deals those, a column named twice taking its next faces in turn; anything the
script does not expect raises.
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.dice.sample import drift
from balance.engine.scripted import (
    LAST,
    Constant,
    ScriptedColumns,
    ScriptedDice,
    ScriptError,
    die,
)
from balance.engine.streams import integers_at


def test_scalar_script_deals_dice_pairs_and_uniforms_in_order() -> None:
    rng = ScriptedDice([die(20, 7), die(20, 3), die(20, 20), 0.25])
    assert rng.integers(1, 21) == 7
    assert rng.integers(0, 400) == (3 - 1) * 20 + (20 - 1)     # a pair: 59
    assert rng.random() == 0.25
    with pytest.raises(ScriptError, match="ran dry"):
        rng.integers(1, 21)


def test_scalar_script_refuses_the_wrong_die() -> None:
    with pytest.raises(ScriptError, match="does not fit the scripted d20"):
        ScriptedDice([die(20, 5)]).integers(1, 7)
    with pytest.raises(ScriptError, match="met the die"):
        ScriptedDice([die(20, 5)]).random()


def test_then_takes_the_first_draw_that_does_not_fit_and_every_later_one() -> None:
    """A script of an attack and a defence die: a uniform after the attack die ends it, the
    defence die is never dealt, and a later d100 goes to ``then`` too."""
    rng = ScriptedDice([die(100, 4), die(100, 56)], then=Constant(0.0))
    assert rng.integers(1, 101) == 4
    assert rng.random() == 0.0
    assert rng.integers(1, 101) == 1      # not the 56: the script is over
    assert rng.rest == [die(100, 56)]


def test_constant_rolls_every_die_at_one_quantile() -> None:
    assert Constant(0.0).integers(1, 9) == 1
    assert Constant(LAST).integers(1, 9) == 8
    assert (Constant(LAST).integers(0, 400, size=3) == 399).all()
    with pytest.raises(ValueError):
        Constant(1.0)


def test_columns_deal_each_trial_its_own_faces() -> None:
    rng = ScriptedColumns.of([[die(20, 1), die(20, 2), die(6, 6)],
                              [die(20, 3), die(20, 4), die(6, 1)]])
    pairs = rng.integers(0, 400, size=(1, 2), dtype=np.int16)
    assert pairs.tolist() == [[0 * 20 + 1, 2 * 20 + 3]]
    assert integers_at(rng, np.array([1, 0]), 1, 7).tolist() == [1, 6]
    assert rng.used().tolist() == [3, 3]
    with pytest.raises(ScriptError):
        rng.integers(1, 7, size=2)        # both scripts are over


def test_columns_named_twice_take_their_next_faces_in_turn() -> None:
    rng = ScriptedColumns.of_dice(np.array([[5, 6], [1, 2]]), 6)
    assert rng.at(np.array([0, 1, 0]), 1, 7).tolist() == [5, 1, 6]


def test_a_draw_that_names_no_trials_raises_unless_there_is_then() -> None:
    rng = ScriptedColumns.of_dice(np.array([[5], [1]]), 6)
    with pytest.raises(ScriptError, match="names no trials"):
        rng.integers(1, 7, size=1)
    rng = ScriptedColumns.of_dice(np.array([[5], [1]]), 6, then=Constant(0.0))
    assert rng.integers(1, 7, size=1).tolist() == [1]


def test_drift_named_by_columns_reads_each_trials_throws() -> None:
    """Trial 0 throws 5 5 3 (+2, ended by a neutral throw); trial 1 throws 1 5 (-1, ended
    by a reversing throw, not counted); trial 2 throws 4 and a second die drift ignores."""
    faces = [[die(6, 5), die(6, 5), die(6, 3)], [die(6, 1), die(6, 5)], [die(6, 4), die(6, 6)]]
    rng = ScriptedColumns.of(faces)
    assert drift(rng, 3, cols=np.arange(3)).tolist() == [2, -1, 0]
    assert rng.used().tolist() == [3, 2, 2]


def test_drift_draws_the_same_numbers_with_and_without_columns() -> None:
    a = drift(np.random.default_rng(4), 5000)
    b = drift(np.random.default_rng(4), 5000, cols=np.arange(5000))
    assert np.array_equal(a, b)
