"""The shared distance model: start positions and what each movement policy does."""

import numpy as np

from balance.engine.distance import CLOSE, HOLD, KEEP_DISTANCE, RETREAT, gap, start_positions, step


def test_start_positions_by_side() -> None:
    pos = start_positions(np.array([0, 1, 1, 2]), [0, 60, 10])
    assert pos.tolist() == [0, 60, 60, 10]


def test_policies_move_within_limits() -> None:
    me, foe = np.float32([0, 0, 0, 0]), np.float32([20, 20, 20, 20])
    moved = step(me, foe, np.array([CLOSE, HOLD, KEEP_DISTANCE, RETREAT]), np.float32(6),
                 near=np.float32(2), far=np.float32(30))
    assert moved.tolist() == [6, 0, 0, -6]


def test_close_stops_at_reach_and_never_passes_the_foe() -> None:
    moved = step(np.float32([0, 50]), np.float32([5, 48]), CLOSE, np.float32(10), 2, 2)
    assert moved.tolist() == [3, 50]
    assert gap(moved, np.float32([5, 48])).tolist() == [2, 2]


def test_keep_distance_backs_off_and_walks_in() -> None:
    moved = step(np.float32([0, 0]), np.float32([3, 100]), KEEP_DISTANCE, np.float32(5),
                 near=np.float32(10), far=np.float32(50))
    assert moved.tolist() == [-5, 5]
