"""Side morale: breaking at a share of fighters down, fleeing, and the order-free rules for
who runs (only while a foe stands; a mutual rout leaves the less broken side holding)."""

import itertools

import numpy as np

from balance.engine.morale import broken_sides, flee, routing_sides, routing_sides_scalar
from balance.engine.status import DEAD, FLED, STANDING, UNCONSCIOUS


def test_a_side_breaks_at_its_share_down() -> None:
    # one trial per column; places 0-2 side 0, place 3 side 1
    status = np.array([[DEAD, STANDING], [STANDING, STANDING], [STANDING, UNCONSCIOUS],
                       [STANDING, STANDING]], dtype=np.int8)
    side = np.array([[0, 0], [0, 0], [0, 0], [1, 1]], dtype=np.int8)
    assert broken_sides(status, side, [0.3, None]).tolist() == [[True, True], [False, False]]
    assert broken_sides(status, side, [0.5, 1.0]).tolist() == [[False, False], [False, False]]
    fled = flee(status, side, broken_sides(status, side, [0.3, None]))
    assert fled[:3].sum() == 4 and not fled[3].any()
    assert (status[:3] == FLED).sum() == 4 and status[0, 0] == DEAD


def fight(a_down: int, b_down: int, n: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Four against four, with so many of each side down, over ``n`` trials."""
    status = np.full((8, n), STANDING, dtype=np.int8)
    status[:a_down] = DEAD
    status[4 : 4 + b_down] = UNCONSCIOUS
    side = np.repeat(np.array([0, 0, 0, 0, 1, 1, 1, 1], dtype=np.int8)[:, None], n, axis=1)
    return status, side


def test_a_mutual_rout_leaves_the_less_broken_side_holding() -> None:
    """Both sides past their break point in the same round: the side further past it runs
    and the other holds the field (no draw); both as far past: either, evenly."""
    status, side = fight(3, 2)
    got = routing_sides(status, side, [0.5, 0.5], np.random.default_rng(0))
    assert got[:, 0].tolist() == [True, False]             # 3/4 down runs, 2/4 holds
    got = routing_sides(status, side, [0.5, 0.1], np.random.default_rng(0))
    assert got[:, 0].tolist() == [False, True]             # 0.25 past vs 0.4 past
    n = 20_000
    status, side = fight(2, 2, n)
    got = routing_sides(status, side, [0.5, 0.5], np.random.default_rng(1))
    assert (got.sum(axis=0) == 1).all()
    assert abs(got[0].mean() - 0.5) < 4.5 * np.sqrt(0.25 / n)


def test_nobody_runs_from_a_beaten_foe_and_one_broken_side_runs() -> None:
    status, side = fight(2, 4)                             # b is all down: a has won
    assert not routing_sides(status, side, [0.5, 0.5], np.random.default_rng(0)).any()
    status, side = fight(2, 1)                             # only a has reached its point
    got = routing_sides(status, side, [0.5, 0.5], np.random.default_rng(0))
    assert got[:, 0].tolist() == [True, False]


def test_the_scalar_rule_is_the_same_rule() -> None:
    """Every 4-against-4 position and a few break points: the vector and scalar rules agree
    wherever the answer is not a coin toss (and a toss picks one of the tied)."""
    for (a, b), (la, lb) in itertools.product(itertools.product(range(5), repeat=2),
                                              [(0.5, 0.5), (0.25, 0.75), (None, 0.5),
                                               (0.3, 0.3)]):
        status, side = fight(a, b)
        vec = routing_sides(status, side, [la, lb], np.random.default_rng(2))[:, 0]
        ref = routing_sides_scalar([4, 4], [a, b], [a < 4, b < 4], [la, lb],
                                   np.random.default_rng(2))
        tie = la is not None and lb is not None and a / 4 - la == b / 4 - lb
        if tie and len(ref) == 1:
            assert vec.sum() == 1
        else:
            assert {s for s in (0, 1) if vec[s]} == ref, (a, b, la, lb)
