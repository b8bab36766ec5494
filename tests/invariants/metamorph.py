"""Metamorphic relations over scenarios, and the two-sample checks that compare their results.

A relation rewrites a scenario without changing what it means (reverse each side's members,
swap the sides, rename, write ``count: 3`` as three entries) or in a direction whose effect
is known (one more ally, +1 skill). The checks compare two runs of a scenario at fixed seeds.

Tolerance: the whole suite may raise a false alarm with probability at most ``SUITE_ALPHA``
(1e-6), split evenly (Bonferroni) over at most ``MAX_CHECKS`` statistical checks, so one
check rejects at ``CHECK_ALPHA`` = 1e-9: two-sided |z| > 6.1. ``checks.count`` counts the
checks a test process makes and refuses to go past the bound (the suite makes about 270).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import numpy as np
from scipy.stats import chi2_contingency, norm

import balance

SUITE_ALPHA = 1e-6
MAX_CHECKS = 1000
CHECK_ALPHA = SUITE_ALPHA / MAX_CHECKS
Z = float(norm.isf(CHECK_ALPHA / 2))          # two-sided, about 6.1
Z_ONE_SIDED = float(norm.isf(CHECK_ALPHA))    # about 6.0


class _Counter:
    count = 0


checks = _Counter()

Scenario = dict[str, Any]


# --- running -------------------------------------------------------------------------------


def outcomes(scenario: Scenario, n: int, seed: int, engine: str = "vector") -> dict[str, int]:
    """Outcome counts (each side's name and ``draw``) of ``n`` trials at ``seed``."""
    res = balance.run(scenario, trials=n, seed=seed, engine=engine)
    return {k: round(p * n) for k, p in res.outcomes.items()}


def same_distribution(a: dict[str, int], b: dict[str, int]) -> float:
    """p-value of a chi-square homogeneity test of two outcome tables (same keys); counted
    as one check of the suite."""
    _count()
    keys = [k for k in a if a[k] + b[k] > 0]
    if len(keys) < 2:
        return 1.0
    table = np.array([[a[k] for k in keys], [b[k] for k in keys]])
    return float(chi2_contingency(table)[1])


def assert_same(a: dict[str, int], b: dict[str, int], what: str) -> None:
    p = same_distribution(a, b)
    assert p > CHECK_ALPHA, f"{what}: {a} vs {b} (p = {p:.2g})"


def assert_not_lower(more: dict[str, int], base: dict[str, int], side: str, what: str) -> None:
    """``side`` wins no less often in ``more`` than in ``base`` (one-sided, unpaired standard
    error: conservative when both share a seed)."""
    _count()
    n1, n0 = sum(more.values()), sum(base.values())
    p1, p0 = more[side] / n1, base[side] / n0
    pooled = (more[side] + base[side]) / (n1 + n0)
    se = np.sqrt(max(pooled * (1 - pooled), 1 / (n1 + n0)) * (1 / n1 + 1 / n0))
    assert p1 - p0 > -Z_ONE_SIDED * se, f"{what}: {side} {p0:.4f} -> {p1:.4f} (se {se:.4f})"


def _count() -> None:
    checks.count += 1
    assert checks.count <= MAX_CHECKS, "more checks than the suite's Bonferroni bound"


# --- relations -----------------------------------------------------------------------------


def reverse_members(scenario: Scenario) -> Scenario:
    """Each side's members listed in reverse order."""
    out = copy.deepcopy(scenario)
    for side in out["sides"]:
        side["members"] = side["members"][::-1]
    return out


def permute_members(scenario: Scenario, orders: list[list[int]]) -> Scenario:
    """Side k's members in the order ``orders[k]``."""
    out = copy.deepcopy(scenario)
    for side, order in zip(out["sides"], orders, strict=True):
        side["members"] = [side["members"][i] for i in order]
    return out


def swap_sides(scenario: Scenario) -> Scenario:
    """The sides listed in reverse order (a scenario-wide ``distance`` is symmetric; a side's
    own ``distance`` from side 0 would not be, so it is not used in swapped scenarios)."""
    out = copy.deepcopy(scenario)
    out["sides"] = out["sides"][::-1]
    return out


def rename(scenario: Scenario) -> Scenario:
    """Every side and member renamed, and every reference to them with them: the names a
    ``fixed`` policy lists, where explosions land, which side gets first aid."""
    out = copy.deepcopy(scenario)
    names, sides = {}, {}
    for k, side in enumerate(out["sides"]):
        sides[side["name"]] = side["name"] = f"Side {k} renamed"
        for i, member in enumerate(side["members"]):
            if "name" in member:
                names[member["name"]] = member["name"] = f"M{k}.{i} renamed"
    for member in members(out):
        targets = member.get("policy", {}).get("targets")
        if targets:
            member["policy"]["targets"] = [_renamed(t, names) for t in targets]
    for blast in out.get("explosions", []):
        if "at" in blast:
            blast["at"] = {_renamed(k, names): v for k, v in blast["at"].items()}
    aid = out.get("aftermath", {}).get("first_aid")
    if aid:
        out["aftermath"]["first_aid"] = {sides.get(k, k): v for k, v in aid.items()}
    return out


def _renamed(target: str, names: dict[str, str]) -> str:
    if target in names:
        return names[target]
    base, _, copy_no = target.partition("#")
    return names.get(base, base) + (f"#{copy_no}" if copy_no else "")


def expand_counts(scenario: Scenario) -> Scenario | None:
    """``count: k`` written as k entries (named as the copies are: ``Name#1`` ...); None when
    a ``fixed`` policy names a counted member as a whole (the entries would not share it)."""
    out = copy.deepcopy(scenario)
    named = {t for m in members(out) for t in m.get("policy", {}).get("targets", [])}
    for side in out["sides"]:
        expanded = []
        for member in side["members"]:
            k = member.pop("count", 1)
            if k > 1 and member.get("name") in named:
                return None
            for i in range(k):
                entry = copy.deepcopy(member)
                if k > 1 and "name" in member:
                    entry["name"] = f"{member['name']}#{i + 1}"
                expanded.append(entry)
        side["members"] = expanded
    return out


def add_ally(scenario: Scenario, side: int) -> Scenario:
    """One more copy of the first member of side ``side`` (its ``count`` + 1)."""
    out = copy.deepcopy(scenario)
    member = out["sides"][side]["members"][0]
    member["count"] = member.get("count", 1) + 1
    return out


def members(scenario: Scenario) -> Iterator[dict]:
    for side in scenario["sides"]:
        yield from side["members"]

