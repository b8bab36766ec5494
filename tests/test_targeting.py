"""Target policies shared by every rule system: what each picks, caps, stickiness."""

import numpy as np

from balance.engine.targeting import (
    DANGEROUS,
    FIRST,
    FIXED,
    NEAREST,
    NO_TARGET,
    RANDOM,
    SPREAD,
    WEAKEST,
    choose_targets,
    first_standing_foe,
)

# Three attackers (places 0-2, side 0) against three foes (places 3-5, side 1), one trial.
SIDE = np.array([[0], [0], [0], [1], [1], [1]], dtype=np.int8)
WHO = np.arange(6, dtype=np.int8)[:, None]
UP = np.ones((6, 1), dtype=bool)
ATTACKERS = np.array([[1], [1], [1], [0], [0], [0]], dtype=bool)


def pick(policy, **kw):
    pol = np.full((6, 1), policy, dtype=np.int8)
    return choose_targets(pol, SIDE, WHO, UP, ATTACKERS, **kw)[:3, 0].tolist()


def test_first_matches_first_standing_foe() -> None:
    assert pick(FIRST) == [3, 3, 3]
    assert first_standing_foe(SIDE, WHO, UP, 2)[:3, 0].tolist() == [3, 3, 3]


def test_weakest_dangerous_nearest() -> None:
    score = np.array([[0], [0], [0], [1], [4], [2]])
    assert pick(WEAKEST, weakness=score) == [4, 4, 4]
    assert pick(DANGEROUS, danger=score) == [4, 4, 4]
    pos = np.array([[0], [10], [20], [21], [9], [1]], dtype=np.float32)
    assert pick(NEAREST, position=pos) == [5, 4, 3]


def test_spread_and_caps() -> None:
    assert pick(SPREAD) == [3, 4, 5]
    cap = np.full((6, 1), 2, dtype=np.int16)
    assert pick(FIRST, cap=cap) == [3, 3, 4]
    cap[3:] = 0
    assert pick(FIRST, cap=cap) == [NO_TARGET] * 3


def test_fixed_priority_and_sticky_targets() -> None:
    priority = np.full((6, 6), 99)
    priority[:, 5], priority[:, 4] = 0, 1
    assert pick(FIXED, priority=priority) == [5, 5, 5]
    current = np.array([[4], [NO_TARGET], [5], [NO_TARGET], [NO_TARGET], [NO_TARGET]])
    assert pick(SPREAD, current=current) == [4, 3, 5]
    down = UP.copy()
    down[4] = False
    pol = np.full((6, 1), FIRST, dtype=np.int8)
    got = choose_targets(pol, SIDE, WHO, down, ATTACKERS, current=current)[:3, 0].tolist()
    assert got == [3, 3, 5]   # re-targets only the one whose target fell


def test_random_is_uniform_over_standing_foes() -> None:
    n = 30_000
    side, who = np.repeat(SIDE, n, axis=1), np.repeat(WHO, n, axis=1)
    up, chooses = np.repeat(UP, n, axis=1), np.repeat(ATTACKERS, n, axis=1)
    pol = np.full((6, n), RANDOM, dtype=np.int8)
    got = choose_targets(pol, side, who, up, chooses, rng=np.random.default_rng(1))
    freq = np.bincount(got[0], minlength=6)[3:] / n
    assert np.all(np.abs(freq - 1 / 3) < 5 * np.sqrt(2 / 9 / n))
