"""Metamorphic invariants over every bundled scenario and the mixed patrols (issue 15):
results never depend on how a scenario is written down.

1. permuting members within a side leaves each side's chances unchanged (group fights);
2. swapping the order of the sides swaps the outcomes;
3. ``count: 3`` and three identical entries give the same results (exactly, same seed);
4. renaming fighters and sides changes nothing but names (exactly, same seed);
6. one more standing ally never lowers a side's chance (group fights).

Two runs of a relation use different seeds, so a difference is either chance (bounded by
``metamorph.CHECK_ALPHA``) or the scenario's listing. Scenarios that ask for an order
(``scenarios.ORDERED``) are exempt from 1, with the reason.
"""

from __future__ import annotations

from functools import cache

import pytest

from tests.invariants import metamorph as mm
from tests.invariants.scenarios import (
    ALL,
    GROUPS,
    ORDERED,
    PATROL_TRIALS,
    PATROLS,
    bundled,
    trials,
)

EXACT_TRIALS = 100      # exact relations: any difference at all is a failure


@cache
def base(name: str) -> dict[str, int]:
    return mm.outcomes(bundled(name), trials(name), seed=11)


@pytest.mark.parametrize("name", [g for g in GROUPS if g not in ORDERED])
def test_reversing_each_sides_members_changes_nothing(name: str) -> None:
    got = mm.outcomes(mm.reverse_members(bundled(name)), trials(name), seed=12)
    mm.assert_same(base(name), got, f"{name}, members reversed")


def test_the_exempt_scenarios_do_ask_for_an_order() -> None:
    for name in ORDERED:
        policies = [m.get("policy", {}).get("target") for m in mm.members(bundled(name))]
        policies += [s.get("policy", {}).get("target") for s in bundled(name)["sides"]]
        assert "first" in policies, name


@pytest.mark.parametrize("name", ALL)
def test_swapping_the_sides_swaps_the_outcomes(name: str) -> None:
    scenario = bundled(name)
    if any("distance" in s for s in scenario["sides"]):
        pytest.fail(f"{name}: a side's own distance is measured from side 0 (not swappable)")
    got = mm.outcomes(mm.swap_sides(scenario), trials(name), seed=13)
    mm.assert_same(base(name), got, f"{name}, sides swapped")


@pytest.mark.parametrize("name", ALL)
def test_renaming_and_count_change_nothing_but_names(name: str) -> None:
    """Both relations at once (each must give the same numbers at the same seed, so their
    combination must too): every ``count: k`` written as k entries, then all renamed."""
    scenario = bundled(name)
    plain = mm.outcomes(scenario, EXACT_TRIALS, seed=5)
    expanded = mm.expand_counts(scenario) or scenario
    got = mm.outcomes(mm.rename(expanded), EXACT_TRIALS, seed=5)
    names = {s["name"]: f"Side {k} renamed" for k, s in enumerate(scenario["sides"])}
    assert {names.get(k, k): v for k, v in plain.items()} == got


@pytest.mark.parametrize("name", GROUPS)
@pytest.mark.parametrize("side", [0, 1])
def test_one_more_ally_never_lowers_a_sides_chance(name: str, side: int) -> None:
    scenario = bundled(name)
    more = mm.outcomes(mm.add_ally(scenario, side), trials(name), seed=14 + side)
    mm.assert_not_lower(more, base(name), scenario["sides"][side]["name"],
                        f"{name}, one more of side {side}'s first member")


@pytest.mark.parametrize("system", sorted(PATROLS))
def test_a_mixed_patrol_does_not_care_how_it_is_listed(system: str) -> None:
    """The issue's case, on the default target policy: reversed members, then swapped sides.
    Under the old default (`first`) this fails in every system."""
    patrol = PATROLS[system]
    as_listed = mm.outcomes(patrol, PATROL_TRIALS, seed=21)
    reversed_ = mm.outcomes(mm.reverse_members(patrol), PATROL_TRIALS, seed=22)
    mm.assert_same(as_listed, reversed_, f"{system} patrol, members reversed")
    swapped = mm.outcomes(mm.swap_sides(mm.reverse_members(patrol)), PATROL_TRIALS, seed=23)
    mm.assert_same(as_listed, swapped, f"{system} patrol, reversed and sides swapped")
