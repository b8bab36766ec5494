"""A sanity report against Lanchester's laws: where does a rule system sit between the
linear law (survivors A - B) and the square law (survivors sqrt(A^2 - B^2))?

For identical fighters, side A's size runs over a range against a fixed side B. For each
size the lab runs the fight and records A's win probability and its mean survivors; the
exponent k of the generalised law ``A^k - B^k = survivors^k`` that fits the survivors best
says where the rules sit: k = 1 is the linear law (ancient one-on-one melee), k = 2 the
square law (every fighter can engage any foe).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.api import run
from balance.errors import OptionError
from balance.io.scenario import load_scenario


@dataclass(frozen=True)
class LanchesterPoint:
    size_a: int
    size_b: int
    p_win_a: float
    ci_a: tuple[float, float]
    survivors_a: float       # mean fighters of A standing at the end
    survivors_b: float


def lanchester_points(scenario: str | Mapping[str, Any], sizes_a: Sequence[int], size_b: int,
                      trials: int, seed: int) -> list[LanchesterPoint]:
    """Run the scenario's first member of each of its two sides at ``count`` = each size."""
    base = _as_dict(scenario)
    points = []
    for i, a in enumerate(sizes_a):
        doc = copy.deepcopy(base)
        doc["sides"][0]["members"][0]["count"] = int(a)
        doc["sides"][1]["members"][0]["count"] = int(size_b)
        res = run(doc, trials=trials, seed=seed + i)
        side_a, side_b = res.side_names
        surv = res.survivors
        points.append(LanchesterPoint(int(a), int(size_b), res.outcomes[side_a], res.ci95[side_a],
                                      surv[side_a]["mean"], surv[side_b]["mean"]))
    return points


K_MIN, K_MAX = 0.5, 3.0     # the exponents the fit searches


def fitted_exponent(points: Sequence[LanchesterPoint]) -> float:
    """The k in [K_MIN, K_MAX] whose law ``(A^k - B^k)^(1/k)`` best matches A's mean
    survivors (least squares over the sizes where A outnumbers B). A k at either end of the
    range is a bound, not a fit: see :func:`exponent_edge`."""
    big = [p for p in points if p.size_a > p.size_b]
    if not big:
        raise OptionError("need at least one size of side A larger than side B")
    ks = np.linspace(K_MIN, K_MAX, 251)
    err = [sum((law(p.size_a, p.size_b, k) - p.survivors_a) ** 2 for p in big) for k in ks]
    return float(ks[int(np.argmin(err))])


def exponent_edge(k: float) -> str | None:
    """``"top"`` or ``"bottom"`` when the fit stopped at that end of its range (the data lie
    beyond it, so k is only a bound), else None."""
    if k >= K_MAX - 1e-9:
        return "top"
    if k <= K_MIN + 1e-9:
        return "bottom"
    return None


def describe_exponent(k: float) -> str:
    """One line on where the fitted exponent puts the rules, honest about a stuck fit."""
    edge = exponent_edge(k)
    if edge == "top":
        return (f"best-fit exponent k = {k:.2f}, the top of the fit's range ({K_MIN:g}-{K_MAX:g}):"
                f" the larger side keeps more fighters than even the k = {K_MAX:g} law gives, "
                "beyond the square law (k is a lower bound here)")
    if edge == "bottom":
        return (f"best-fit exponent k = {k:.2f}, the bottom of the fit's range "
                f"({K_MIN:g}-{K_MAX:g}): the larger side keeps fewer fighters than even the "
                f"k = {K_MIN:g} law gives, below the linear law (k is an upper bound here)")
    law_name = "linear" if k < 1.25 else "square" if k > 1.75 else "between the two"
    return f"best-fit exponent k = {k:.2f} (1: linear law, 2: square law): {law_name}"


def law(a: float, b: float, k: float) -> float:
    """Survivors of the larger side A under the generalised Lanchester law of exponent k."""
    return max(a ** k - b ** k, 0.0) ** (1.0 / k)


def figure(points: Sequence[LanchesterPoint], title: str):
    """Win probability and survivors against A's size, with the two laws for reference."""
    from matplotlib.figure import Figure

    a = np.array([p.size_a for p in points])
    b = points[0].size_b
    fig = Figure(figsize=(10, 4.2), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    lo = [p.p_win_a - p.ci_a[0] for p in points]
    hi = [p.ci_a[1] - p.p_win_a for p in points]
    ax1.errorbar(a, [100 * p.p_win_a for p in points],
                 yerr=[100 * np.array(lo), 100 * np.array(hi)], marker="o", capsize=3)
    ax1.axhline(50, color="grey", lw=0.8, ls=":")
    ax1.axvline(b, color="grey", lw=0.8, ls=":")
    ax1.set(xlabel=f"fighters on side A (side B has {b})", ylabel="side A wins (%)",
            title="Win probability (95% intervals)", ylim=(0, 100))
    grid = np.linspace(a.min(), a.max(), 200)
    ax2.plot(a, [p.survivors_a for p in points], "o-", label="simulated (side A standing)")
    ax2.plot(grid, [law(x, b, 1) for x in grid], "--", label="linear law: A - B")
    ax2.plot(grid, [law(x, b, 2) for x in grid], ":", label="square law: sqrt(A² - B²)")
    k = fitted_exponent(points) if (a > b).any() else float("nan")
    edge = {"top": " (range's top)", "bottom": " (range's bottom)"}.get(
        exponent_edge(k) if (a > b).any() else None, "")
    ax2.plot(grid, [law(x, b, k) for x in grid], "-", alpha=0.6,
             label=f"best fit: k = {k:.2f}{edge}")
    ax2.set(xlabel=f"fighters on side A (side B has {b})", ylabel="side A fighters standing",
            title="Survivors of side A (mean)")
    ax2.legend(fontsize=8)
    fig.suptitle(title)
    return fig


def _as_dict(scenario: str | Mapping[str, Any]) -> dict[str, Any]:
    loaded = load_scenario(scenario)
    if len(loaded.model.sides) != 2:
        raise OptionError("a Lanchester report needs a scenario with exactly two sides")
    return loaded.model.model_dump(mode="json", exclude_none=True)
