"""The exact engine's chain machinery on a toy duel with an independent closed form.

The toy: two fighters with hit points ``h0``, ``h1``; each round both strike at once,
fighter ``i`` hitting with probability ``q[i]`` for one point; a fighter at 0 is down
(dead). The fight's exact outcome is computed here by a plain recursion over rounds
(dictionaries, no chain code), and the engine must agree to 1e-12.
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.engine.bits import Layout
from balance.engine.status import DEAD, STANDING
from balance.exact.chain import Branches, ChainTooLarge, build, only, solve, then
from balance.exact.duel import DuelModel, solve_duel

BODY = Layout(hp0=4, hp1=4)


def toy_model(h0: int, h1: int, q0: float, q1: float, split: bool) -> DuelModel:
    """The toy duel; ``split`` plays each fighter's strike as its own step (then)."""

    def strike(i: int, q: float):
        def step(codes):
            hp = BODY.get(codes, f"hp{1 - i}")
            hit = BODY.replace(codes, **{f"hp{1 - i}": np.maximum(hp - 1, 0)})
            return Branches.table(np.stack([codes, hit], axis=1),
                                  np.broadcast_to([1 - q, q], (codes.size, 2)))
        return step

    def both(codes):
        hp0, hp1 = BODY.get(codes, "hp0"), BODY.get(codes, "hp1")
        out = []
        for a, pa in ((0, 1 - q0), (1, q0)):
            for b, pb in ((0, 1 - q1), (1, q1)):
                out.append((BODY.pack(hp0=np.maximum(hp0 - b, 0), hp1=np.maximum(hp1 - a, 0)),
                            np.full(codes.size, pa * pb)))
        return Branches.table(np.stack([o[0] for o in out], 1), np.stack([o[1] for o in out], 1))

    def status(codes):
        return np.stack([np.where(BODY.get(codes, f"hp{i}") > 0, STANDING, DEAD)
                         for i in range(2)]).astype(np.int8)

    rnd = then(strike(0, q0), strike(1, q1)) if split else both
    return DuelModel(BODY.pack(hp0=h0, hp1=h1).reshape(1), np.ones(1), rnd, status)


def closed_form(h0, h1, q0, q1, max_rounds):
    """(p0 wins, p1 wins, draw, by_round) by recursion over the distribution of hp pairs."""
    dist = {(h0, h1): 1.0}
    wins = [0.0, 0.0, 0.0]
    by_round = [0.0] * (max_rounds + 1)
    for r in range(1, max_rounds + 1):
        nxt = {}
        for (a, b), p in dist.items():
            for ha, pa in ((0, 1 - q1), (1, q1)):       # fighter 1 hits fighter 0
                for hb, pb in ((0, 1 - q0), (1, q0)):
                    key = (max(a - ha, 0), max(b - hb, 0))
                    nxt[key] = nxt.get(key, 0.0) + p * pa * pb
        dist = {}
        for (a, b), p in nxt.items():
            if a > 0 and b > 0:
                dist[(a, b)] = p
            else:
                by_round[r] += p
                wins[0 if a > 0 else 1 if b > 0 else 2] += p
    wins[2] += sum(dist.values())
    by_round[max_rounds] += sum(dist.values())
    return wins, by_round


@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("case", [(3, 3, 0.5, 0.5, 40), (5, 2, 0.3, 0.6, 12),
                                  (1, 1, 0.9, 0.1, 3), (7, 6, 0.45, 0.55, 5)])
def test_toy_duel_matches_recursion(case, split):
    h0, h1, q0, q1, max_rounds = case
    model = toy_model(h0, h1, q0, q1, split)
    t = solve_duel(model, np.array([0, 1], dtype=np.int8), 2, max_rounds)
    wins, by_round = closed_form(h0, h1, q0, q1, max_rounds)
    assert np.allclose(t.wins, wins, atol=1e-12, rtol=0), (t.wins, wins)
    assert np.allclose(t.rounds, by_round, atol=1e-12, rtol=0)
    assert abs(t.wins.sum() - 1) < 1e-12 and abs(t.rounds.sum() - 1) < 1e-12
    # Each fighter's final status sums to 1; first down sums to 1.
    assert np.allclose(t.status.sum(axis=1), 1) and abs(t.first_down.sum() - 1) < 1e-12
    # A mutual kill counts half to each as first down: P(0 first) = P(1 wins) + mutual / 2,
    # where the draws are mutual kills plus the fights open at time-out (nobody down).
    mutual = t.wins[2] - t.first_down[2]
    assert abs(t.first_down[0] - (t.wins[1] + mutual / 2)) < 1e-12


def test_symmetric_toy_is_even():
    t = solve_duel(toy_model(4, 4, 0.4, 0.4, True), np.array([0, 1], dtype=np.int8), 2, 60)
    assert abs(t.wins[0] - t.wins[1]) < 1e-14


def test_only_leaves_other_states_alone():
    def minus_one(codes):
        return Branches.stay(codes - 1)

    step = only(lambda c: c % 2 == 0, minus_one)
    br = step(np.array([2, 3, 4], dtype=np.int64))
    moved = dict(zip(br.src.tolist(), br.dst.tolist(), strict=True))
    assert moved == {0: 1, 1: 3, 2: 3}


def test_limits_give_a_clear_error():
    # A walk that never ends: every state leads to a new one.
    def up(codes):
        return Branches.stay(codes + 1)

    with pytest.raises(ChainTooLarge, match="reachable states"):
        build(np.array([0]), np.array([1.0]), up, lambda c: np.zeros(c.size, bool),
              max_states=1000)


def test_solve_stops_when_no_mass_is_open():
    model = toy_model(1, 1, 1.0, 1.0, False)     # both die in round 1
    t = solve_duel(model, np.array([0, 1], dtype=np.int8), 2, 50)
    assert t.rounds_played == 1 and t.rounds[1] == 1.0 and t.wins[2] == 1.0
    assert t.first_down[0] == t.first_down[1] == 0.5


def test_solution_masses_are_conserved():
    model = toy_model(6, 5, 0.35, 0.4, True)
    from balance.exact.duel import chain_of

    chain = chain_of(model, np.array([0, 1], dtype=np.int8), 2)
    sol = solve(chain, 9)
    assert abs(sol.absorbed.sum() + sol.open_end.sum() - 1) < 1e-12
