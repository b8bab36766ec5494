"""The game-theory core on matrices with known answers, and the equilibrium property on
random matrices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from balance.analysis import games
from balance.analysis.matrix import Matrix, from_values
from balance.analysis.metagame import analyse

# rock, paper, scissors: each beats one and loses to the other; the mirror is even
RPS = np.array([[0.5, 0.0, 1.0],
                [1.0, 0.5, 0.0],
                [0.0, 1.0, 0.5]])
# a softer cycle plus "dull rock", which does 10 points worse than rock against everything
SOFT = np.array([[0.5, 0.3, 0.7, 0.6],
                 [0.7, 0.5, 0.3, 0.8],
                 [0.3, 0.7, 0.5, 0.4],
                 [0.4, 0.2, 0.6, 0.5]])


def test_rock_paper_scissors_is_one_third_each() -> None:
    eq = games.solve(RPS)
    assert eq.mix == pytest.approx([1 / 3] * 3, abs=1e-12)
    assert eq.value == pytest.approx(0.5, abs=1e-12)
    assert eq.payoff == pytest.approx([0.5] * 3, abs=1e-12)
    assert eq.unique and eq.symmetric
    assert eq.gap(RPS) == pytest.approx(0, abs=1e-12)


def test_a_dominated_option_gets_weight_zero_and_is_reported() -> None:
    g = analyse(from_values(["rock", "paper", "scissors", "dull_rock"], SOFT))
    assert g.mix["dull_rock"] == 0
    assert g.equilibrium.unique
    assert [(d.option, d.by, d.strict) for d in g.dominated] == \
        [("dull_rock", {"rock": 1.0}, True)]
    assert d_margin(g) == pytest.approx(0.1)
    assert any(f.startswith("dull_rock is dominated by rock: never pick it") for f in g.findings)
    assert g.to_dict()["dominated"][0]["survives_intervals"] is None    # no intervals given


def d_margin(g) -> float:
    return g.dominated[0].margin


def test_an_option_dominated_only_by_a_mix() -> None:
    """"Middle" does 45% against each of rock, paper and scissors: no single option beats it
    everywhere, but the even mix of the three wins 55% against it and 50% against the rest."""
    m = np.array([[0.5, 0.0, 1.0, 0.55],
                  [1.0, 0.5, 0.0, 0.55],
                  [0.0, 1.0, 0.5, 0.55],
                  [0.45, 0.45, 0.45, 0.5]])
    doms = games.dominations(m)
    assert len(doms) == 1 and doms[0].option == 3 and doms[0].strict and not doms[0].pure
    assert doms[0].by == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0])
    assert games.solve(m).mix[3] == 0


def test_weak_domination() -> None:
    """B equals A except against C, where it does better: A is weakly dominated."""
    m = np.array([[0.5, 0.5, 0.6], [0.5, 0.5, 0.7], [0.4, 0.3, 0.5]])
    doms = games.dominations(m)
    assert [(d.option, int(np.argmax(d.by)), d.strict) for d in doms] == \
        [(0, 1, False), (2, 0, True), (2, 1, True)]


def test_non_unique_equilibrium_is_noted() -> None:
    """Two copies of rock: any split of rock's third between them is an equilibrium."""
    m = np.array([[0.5, 0.5, 0.0, 1.0], [0.5, 0.5, 0.0, 1.0],
                  [1.0, 1.0, 0.5, 0.0], [0.0, 0.0, 1.0, 0.5]])
    g = analyse(from_values(["rock", "rock2", "paper", "scissors"], m))
    eq = g.equilibrium
    assert not eq.unique
    assert eq.low[:2] == pytest.approx([0, 0], abs=1e-6)
    assert eq.high[:2] == pytest.approx([1 / 3, 1 / 3], abs=1e-6)
    assert eq.mix[0] + eq.mix[1] == pytest.approx(1 / 3)
    note = g.to_dict()["nash"]["note"]
    assert "not unique" in note and "rock 0-33%" in note


def test_restricted_play_of_rock_paper_scissors() -> None:
    """Forbidden rock, a player mixes paper p and scissors 1 - p; the opponent's best reply
    holds them to min(p, 1 - p/2, (1 - p)/2), largest at p = 1/3: a value of 1/3."""
    assert games.restricted_play(RPS) == pytest.approx([1 / 3] * 3)
    assert games.restricted_play(SOFT)[3] == pytest.approx(0.5)       # dull rock: no loss


def test_cycles_need_significance() -> None:
    options = ["a", "b", "c"]
    m = np.array([[0.5, 0.52, 0.48], [0.48, 0.5, 0.52], [0.52, 0.48, 0.5]])

    def with_trials(n: int) -> Matrix:
        trials = np.full((3, 3), n)
        se = np.sqrt(m * (1 - m) / n)
        np.fill_diagonal(se, 0)
        return Matrix(options, m, m - 2 * se, m + 2 * se, se, trials)

    assert analyse(with_trials(1_000)).cycles == []
    assert analyse(with_trials(100_000)).cycles == [("a", "b", "c")]
    assert analyse(from_values(options, m)).cycles == [("a", "b", "c")]    # untested


def test_asymmetric_game_has_two_mixes() -> None:
    """A seat-specific game (M + M.T != 1), solved by hand. The row mix x makes the column
    indifferent: 0.2 x0 + 0.8 x1 = 0.6 x0 + 0.4 x1, so x0 = 1/2 and the value is 0.5."""
    m = np.array([[0.2, 0.6], [0.8, 0.4]])
    eq = games.solve(m)
    assert not eq.symmetric
    assert eq.mix == pytest.approx([0.5, 0.5])
    # column y: 0.2 y0 + 0.6 y1 = 0.8 y0 + 0.4 y1 -> y0 = 1/4
    assert eq.opponent == pytest.approx([0.25, 0.75])
    assert eq.value == pytest.approx(0.5)
    assert eq.gap(m) == pytest.approx(0, abs=1e-12)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(arrays(np.float64, (6, 6), elements=st.floats(0, 1, allow_nan=False)),
       st.integers(2, 6), st.booleans())
def test_the_mix_is_an_equilibrium_of_the_matrix(raw, n, symmetric) -> None:
    m = raw[:n, :n]
    if symmetric:                                 # a round robin: M + M.T == 1
        m = np.triu(m, 1) + np.tril(1 - m.T, -1) + np.eye(n) * 0.5
    eq = games.solve(m)
    for mix in (eq.mix, eq.opponent):
        assert np.all(mix >= 0) and mix.sum() == pytest.approx(1, abs=1e-12)
    assert eq.gap(m) <= 1e-8
    assert np.min(eq.mix @ m) >= eq.value - 1e-8          # the mix guarantees the value
    assert np.max(m @ eq.opponent) <= eq.value + 1e-8     # and the opponent's caps it
    assert np.all(eq.low <= eq.mix + 1e-6) and np.all(eq.mix <= eq.high + 1e-6)
    for d in games.dominations(m):
        assert eq.mix[d.option] == 0 or not d.strict
