"""The order-free parts of target choice, one fight at a time, for the scalar references.

:func:`balance.engine.targeting.choose_targets` makes these choices for arrays of trials; a
rule system's reference uses these helpers so that both read the shared policies the same way
(the references stay independent in everything the rule system itself decides: who chooses,
among whom, under which cap). docs/engine.md, "Targeting".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np

from balance.engine.targeting import ENGAGED_FIRST, FIRST

T = TypeVar("T")


def choosing_order(choosers: Sequence[T], policies: Sequence[int],
                   rng: np.random.Generator | None) -> list[T]:
    """The order in which ``choosers`` keep and choose their targets: as given (place or
    scenario order) when every one's policy is ``first``, else uniformly at random.
    ``rng=None`` (tests only, as in ``choose_targets``): as given."""
    if rng is None or all(p == FIRST for p in policies) or len(choosers) < 2:
        return list(choosers)
    return [choosers[k] for k in rng.permutation(len(choosers))]


def best(options: Sequence[T], key: Callable[[T], object],
         rng: np.random.Generator | None) -> T | None:
    """The option with the smallest ``key``; a tie goes to a uniformly random one of the
    tied (never to listing order). None when there are no options. ``rng=None`` (tests
    only): the first of the tied."""
    if not options:
        return None
    keys = [key(o) for o in options]
    low = min(keys)
    tied = [o for o, k in zip(options, keys, strict=True) if k == low]
    return tied[0] if len(tied) == 1 or rng is None else tied[int(rng.integers(len(tied)))]


def engage_key(me: int, aim: int | None, attackers: int, distance: float = 0.0) -> tuple:
    """The ``engage`` policy's key of a foe (lower first) for the chooser ``me``: a foe whose
    ``aim`` is ``me`` (it already attacks the chooser); then the fewest ``attackers`` on it so
    far; then one not busy with anyone else; then the smallest ``distance``."""
    engaged = 0.0 if aim == me else ENGAGED_FIRST
    busy = aim is not None and aim != me
    return engaged + 2.0 * attackers + busy, distance


def attacker_ranks(n_attackers: int, rng: np.random.Generator) -> list[int]:
    """The ranks (0 first) of ``n_attackers`` on one fighter, listed in scenario order, in a
    uniformly random order: the scalar :func:`balance.engine.targeting.attacker_rank`."""
    if n_attackers < 2:
        return [0] * n_attackers
    ranks = [0] * n_attackers
    for r, k in enumerate(rng.permutation(n_attackers)):
        ranks[int(k)] = r
    return ranks


def shuffled(items: Sequence[T], rng: np.random.Generator) -> list[T]:
    """``items`` in a uniformly random order: the scalar
    :func:`balance.engine.targeting.turn_order`."""
    return [items[int(k)] for k in rng.permutation(len(items))]
