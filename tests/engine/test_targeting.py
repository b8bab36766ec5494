"""Target policies shared by every rule system: what each picks, caps, stickiness, and the
order-free default ``engage`` with its random choosing order and tie-breaks."""

import numpy as np
import pytest

from balance.engine import targeting
from balance.engine.targeting import (
    DANGEROUS,
    ENGAGE,
    FIRST,
    FIXED,
    NEAREST,
    NO_TARGET,
    RANDOM,
    SPREAD,
    WEAKEST,
    _choosers,
    _shuffle,
    attacker_rank,
    choose_targets,
    first_standing_foe,
    nearest_foe,
    turn_order,
)
from balance.engine.targeting_scalar import attacker_ranks, best, choosing_order, engage_key

# Three attackers (places 0-2, side 0) against three foes (places 3-5, side 1), one trial.
SIDE = np.array([[0], [0], [0], [1], [1], [1]], dtype=np.int8)
WHO = np.arange(6, dtype=np.int8)[:, None]
UP = np.ones((6, 1), dtype=bool)
ATTACKERS = np.array([[1], [1], [1], [0], [0], [0]], dtype=bool)


def pick(policy, **kw):
    """The three attackers' targets, one trial."""
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


# --- the order-free default, ``engage`` ------------------------------------------------------


def many(a: int, b: int, n: int):
    """``a`` fighters (side 0) against ``b`` (side 1), ``n`` trials, everyone choosing."""
    c = a + b
    side = np.array([0] * a + [1] * b, dtype=np.int8)[:, None]
    who = np.arange(c, dtype=np.int8)[:, None]
    up = np.ones((c, n), dtype=bool)
    return side, who, up


def test_engage_splits_two_against_three_as_the_seed_does() -> None:
    """Seed 002, Group fights: "two against three becomes one subgroup of one against two and
    another of one against one". Every trial: each of the two fights one of the three who
    attack it (a mutual pair), the two fight different foes, and the three split 2 + 1."""
    n = 4000
    side, who, up = many(2, 3, n)
    pol = np.full((5, 1), ENGAGE, dtype=np.int8)
    t = choose_targets(pol, side, who, up, up, rng=np.random.default_rng(3))
    on = np.stack([(t == j).sum(axis=0) for j in range(5)])
    assert (np.sort(on[:2], axis=0) == [[1], [2]]).all()              # 1 + 2 on the two
    assert (t[0] != t[1]).all()                                       # two subgroups
    for a in range(2):                                                # each in a mutual pair
        assert (np.take_along_axis(t, t[a : a + 1].astype(np.intp), axis=0)[0] == a).all()
    # ... and which of the two faces the pair of attackers is even (not listing order).
    heavy = (on[0] == 2).mean()
    assert abs(heavy - 0.5) < 4.5 * np.sqrt(0.25 / n)


def test_engage_spreads_and_fights_back() -> None:
    # Three against three: three duels. A foe already attacking the chooser comes first.
    side, who, up = many(3, 3, 2000)
    pol = np.full((6, 1), ENGAGE, dtype=np.int8)
    t = choose_targets(pol, side, who, up, up, rng=np.random.default_rng(1))
    assert (np.take_along_axis(t, t.astype(np.intp), axis=0) == np.arange(6)[:, None]).all()
    # A sticky attacker on place 0 (place 4 keeps it): 0 fights back at 4.
    current = np.full((6, 1), NO_TARGET)
    current[4] = 0
    one = np.ones((6, 1), dtype=bool)
    got = choose_targets(pol, SIDE, WHO, one, one, current=current, rng=np.random.default_rng(2))
    assert got[4, 0] == 0 and got[0, 0] == 4


def test_engage_prefers_the_nearest_among_equals() -> None:
    pos = np.array([[0], [0], [0], [30], [5], [20]], dtype=np.float32)
    got = pick(ENGAGE, position=pos, rng=np.random.default_rng(0))
    assert sorted(got) == [3, 4, 5]                          # spread first, then nearest
    alone = np.array([[1], [0], [0], [0], [0], [0]], dtype=bool)
    pol = np.full((6, 1), ENGAGE, dtype=np.int8)
    got = choose_targets(pol, SIDE, WHO, UP, alone, position=pos, rng=np.random.default_rng(0))
    assert got[0, 0] == 4


@pytest.mark.parametrize("policy", [WEAKEST, DANGEROUS, NEAREST, FIXED, RANDOM])
def test_ties_go_to_a_random_foe_not_to_listing_order(policy) -> None:
    """Three equal foes: each policy's pick is uniform over them (|z| < 4.5 each)."""
    n = 30_000
    side, who, up = np.repeat(SIDE, n, 1), np.repeat(WHO, n, 1), np.repeat(UP, n, 1)
    chooses = np.zeros((6, n), dtype=bool)
    chooses[0] = True
    pol = np.full((6, 1), policy, dtype=np.int8)
    zero = np.zeros((6, n))
    got = choose_targets(pol, side, who, up, chooses, weakness=zero, danger=zero,
                         position=zero, priority=np.zeros((6, 6)),
                         rng=np.random.default_rng(4))[0]
    freq = np.bincount(got, minlength=6)[3:] / n
    assert np.all(np.abs(freq - 1 / 3) < 4.5 * np.sqrt(2 / 9 / n))


def test_choosers_take_turns_in_a_random_order() -> None:
    """Three attackers, one place left on the weakest foe (cap 1): who gets it is uniform,
    not the first place; ``first`` alone keeps place order."""
    n = 30_000
    side, who, up = np.repeat(SIDE, n, 1), np.repeat(WHO, n, 1), np.repeat(UP, n, 1)
    chooses = np.repeat(ATTACKERS, n, 1)
    cap = np.full((6, n), 1, dtype=np.int16)
    weak = np.array([[0], [0], [0], [5], [0], [0]])
    pol = np.full((6, 1), WEAKEST, dtype=np.int8)
    got = choose_targets(pol, side, who, up, chooses, cap=cap, weakness=weak,
                         rng=np.random.default_rng(5))
    share = (got[:3] == 3).mean(axis=1)
    assert np.all(np.abs(share - 1 / 3) < 4.5 * np.sqrt(2 / 9 / n))
    first = choose_targets(np.full((6, 1), FIRST, dtype=np.int8), side, who, up, chooses,
                           cap=cap, rng=np.random.default_rng(5))
    assert (first[:3] == [[3], [4], [5]]).all()


def test_same_seed_same_choice() -> None:
    side, who, up = many(4, 5, 500)
    pol = np.array([ENGAGE, WEAKEST, RANDOM, SPREAD, ENGAGE, NEAREST, DANGEROUS, ENGAGE,
                    FIXED], dtype=np.int8)[:, None]
    kw = dict(weakness=np.zeros((9, 1)), danger=np.zeros((9, 1)),
              position=np.zeros((9, 1)), priority=np.zeros((9, 9)))
    a = choose_targets(pol, side, who, up, up, rng=np.random.default_rng(8), **kw)
    b = choose_targets(pol, side, who, up, up, rng=np.random.default_rng(8), **kw)
    assert (a == b).all()


def test_attacker_rank_is_a_uniform_order() -> None:
    n = 30_000
    target = np.repeat(np.array([[3], [3], [3], [0], [0], [0]]), n, axis=1)
    attacking = np.repeat(ATTACKERS, n, axis=1)
    rank = attacker_rank(target, attacking, np.random.default_rng(6))
    assert (np.sort(rank[:3], axis=0) == [[0], [1], [2]]).all()
    assert not rank[3:].any()
    for r in range(3):
        share = (rank[:3] == r).mean(axis=1)
        assert np.all(np.abs(share - 1 / 3) < 4.5 * np.sqrt(2 / 9 / n))


def test_turn_order_puts_the_first_places_first_in_a_uniform_order() -> None:
    """``turn_order(..., first=mask)``: the masked places (here 1, 3 and 4 of five) lead, in
    a uniform order among them (each leads a third of the time), the others follow."""
    n = 30_000
    first = np.repeat(np.array([[0], [1], [0], [1], [1]], dtype=bool), n, axis=1)
    order = turn_order(5, n, np.random.default_rng(10), first=first)
    assert (np.sort(order, axis=0) == np.arange(5)[:, None]).all()     # a permutation
    assert (np.sort(order[:3], axis=0) == [[1], [3], [4]]).all()
    for place in (1, 3, 4):
        assert abs((order[0] == place).mean() - 1 / 3) < 4.9 * np.sqrt(2 / 9 / n)


def test_nearest_foe_breaks_ties_at_random() -> None:
    n = 20_000
    pos = np.zeros((6, n), dtype=np.float32)
    pos[5] = 3.0
    where = np.repeat(ATTACKERS, n, axis=1)
    got = nearest_foe(np.repeat(SIDE, n, 1), np.repeat(UP, n, 1), pos, where,
                      np.random.default_rng(7))
    assert set(np.unique(got[:3])) == {3, 4}
    assert abs((got[0] == 3).mean() - 0.5) < 4.5 * np.sqrt(0.25 / n)


def test_the_scalar_helpers_read_the_same_way() -> None:
    rng = np.random.default_rng(9)
    assert choosing_order([1, 2, 3], [FIRST] * 3, rng) == [1, 2, 3]
    orders = {tuple(choosing_order([1, 2, 3], [ENGAGE] * 3, rng)) for _ in range(200)}
    assert len(orders) == 6
    assert {best([7, 8, 9], lambda o: int(o != 7), rng) for _ in range(10)} == {7}
    picks = [best([7, 8, 9], lambda o: 0, rng) for _ in range(300)]
    assert set(picks) == {7, 8, 9}
    assert engage_key(0, 0, 3) < engage_key(0, None, 0) < engage_key(0, 5, 0)
    assert sorted(attacker_ranks(4, rng)) == [0, 1, 2, 3]


@pytest.mark.parametrize("most", [1, 2, 3, 10])
def test_the_choosers_counted_in_bytes_are_the_scattered_ones(most: int, monkeypatch) -> None:
    """``_choosers`` for few choosers a trial (counting in bytes) lists the same places in
    each trial's first ``counts`` rows as the general way (scattering each place to its
    trial's next row); rows past a trial's choosers are not read."""
    rng = np.random.default_rng(most)
    need = np.zeros((10, 2_000), dtype=bool)
    for t in range(need.shape[1]):
        need[rng.choice(10, rng.integers(0, most + 1), replace=False), t] = True
    counts = need.sum(axis=0)
    fast = _choosers(need, most)
    monkeypatch.setattr(targeting, "FEW_CHOOSERS", 0)
    slow = _choosers(need, most)
    for j in range(most):
        assert (fast[j][counts > j] == slow[j][counts > j]).all()


def test_the_choosers_are_shuffled_uniformly_within_each_trial() -> None:
    """``_choosers`` lists each trial's choosing places in place order and ``_shuffle`` puts
    them in a uniformly random order (Fisher-Yates on the trials with more than j choosers):
    with places 1, 3 and 4 choosing, each of the 3! = 6 orders comes 1/6 of the time, and a
    trial with one chooser keeps it. Within 4.9 standard errors (alpha ~1e-6 per cell)."""
    n = 60_000
    need = np.zeros((5, n + 1), dtype=bool)
    need[[1, 3, 4], :n] = True
    need[2, n] = True                         # the last trial: one chooser
    counts = need.sum(axis=0)
    choosers = _choosers(need, 3)
    assert (choosers[:, 0] == [1, 3, 4]).all() and choosers[0, n] == 2
    _shuffle(choosers, counts, np.random.default_rng(12), np.arange(choosers.shape[1]))
    assert choosers[0, n] == 2
    orders = choosers[:, :n].T @ np.array([25, 5, 1])
    assert (np.sort(choosers[:, :n], axis=0) == [[1], [3], [4]]).all()
    _, freq = np.unique(orders, return_counts=True)
    assert freq.size == 6
    assert (abs(freq / n - 1 / 6) < 4.9 * np.sqrt(5 / 36 / n)).all()
