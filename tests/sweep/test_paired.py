"""Paired comparisons under common random numbers: exact properties, no tolerances."""

from __future__ import annotations

import pytest

from balance.errors import OptionError
from balance.sweep import compare
from tests.sweep.helpers import duel


def plated() -> dict:
    d = duel()
    d["sides"][1]["members"][0]["armour"] = ["plate"]
    return d


def test_a_fight_against_itself_differs_by_exactly_nothing() -> None:
    p = compare(duel(), duel(), metric="win", side="blue", trials=5000, seed=1)
    assert p.diff == 0 and p.interval() == (0.0, 0.0)
    assert p.trials == 16384          # whole blocks


def test_more_trials_extend_the_same_streams() -> None:
    once = compare(duel(), plated(), metric="survival", side="blue", trials=32768, seed=2)
    first = compare(duel(), plated(), metric="survival", side="blue", trials=16384, seed=2)
    both = compare(duel(), plated(), metric="survival", side="blue", trials=32768, seed=2,
                   more=first)
    assert both == once and first.blocks == 1 and both.blocks == 2


def test_pairing_never_widens_the_interval_much_and_plate_helps() -> None:
    p = compare(duel(), plated(), metric="win", side="blue", trials=16384, seed=3)
    lo, hi = p.interval()
    assert lo > 0.2                                  # plate helps blue a lot
    assert p.variance_ratio > 0.9
    ilo, ihi = p.independent_interval()
    assert hi - lo <= (ihi - ilo) * 1.06


@pytest.mark.parametrize(("kw", "message"), [
    ({"metric": "wins"}, "metric must be one of"),
    ({"side": "green"}, "side 'green' is not in both fights"),
])
def test_bad_arguments(kw, message) -> None:
    with pytest.raises(OptionError, match=message):
        compare(duel(), plated(), trials=100, **kw)


def test_rounds_and_draws() -> None:
    p = compare(duel(), plated(), metric="rounds", trials=100, seed=1)
    assert p.b > p.a                                  # plate makes fights longer
    assert compare(duel(), plated(), metric="draw", trials=100).side is None
