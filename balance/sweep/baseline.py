"""A sweep's baseline: the cell every other cell is compared with, paired where they share
random streams.

``baseline:`` in a sweep block names a cell by its index (``baseline: 0``) or by its axis
values (``baseline: {weapon: long_sword, armour: none}``). Cells that draw the baseline's
streams (common random numbers over the axes they differ in) are compared trial by trial:
the baseline's per-trial outcomes are kept in memory while it runs, and each such cell counts,
over the trials both played, how often both had each outcome and the products of their
rounds. Every delta then has the interval of the mean per-trial difference. Cells on other
streams get the interval of two independent estimates. Numpy only (workers import this).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.engine.status import DRAW

Z95 = 1.959963984540054


@dataclass(frozen=True)
class PairWith:
    """The baseline's per-trial outcomes by block: outcome code (side index, or n_sides for
    a draw) and deciding round."""

    n_sides: int
    outcomes: Mapping[int, np.ndarray]
    rounds: Mapping[int, np.ndarray]


def outcome_codes(winner: np.ndarray, n_sides: int) -> np.ndarray:
    return np.where(winner == DRAW, n_sides, winner).astype(np.int8)


def new_pairing(n_sides: int) -> dict[str, Any]:
    """Empty paired counts (plain ints and lists: they go to JSON as they are)."""
    return {"trials": 0, "x": [0] * (n_sides + 1), "b": [0] * (n_sides + 1),
            "both": [0] * (n_sides + 1), "rounds": [0, 0, 0, 0, 0]}


def add_pairing(acc: dict[str, Any], codes: np.ndarray, rounds: np.ndarray,
                base_codes: np.ndarray, base_rounds: np.ndarray, n_sides: int) -> None:
    """Add one block of a cell (``codes``, ``rounds``) played with the baseline's dice."""
    k = n_sides + 1
    acc["trials"] += int(codes.size)
    for key, c in (("x", codes), ("b", base_codes), ("both", codes[codes == base_codes])):
        acc[key] = [a + int(v) for a, v in zip(acc[key], np.bincount(c, minlength=k),
                                                strict=True)]
    r, rb = rounds.astype(np.int64), base_rounds.astype(np.int64)
    sums = (r.sum(), rb.sum(), (r * r).sum(), (rb * rb).sum(), (r * rb).sum())
    acc["rounds"] = [a + int(v) for a, v in zip(acc["rounds"], sums, strict=True)]


def resolve_baseline(spec: Any, axes: Sequence[Any], cells: Sequence[Any]) -> tuple[Any, str]:
    """The baseline cell named by ``spec`` (an index or a mapping of axis to label), or
    ``(None, message)`` saying what is wrong."""
    if isinstance(spec, bool):
        return None, "baseline: expected a cell index or a mapping of axis names to values"
    if isinstance(spec, int):
        if 0 <= spec < len(cells):
            return cells[spec], ""
        return None, f"baseline: cell {spec} does not exist (cells 0 to {len(cells) - 1})"
    if not isinstance(spec, Mapping) or not spec:
        return None, "baseline: expected a cell index or a mapping of axis names to values"
    from balance.errors import closest

    names = [a.name for a in axes]
    for key, value in spec.items():
        if key not in names:
            near = closest(str(key), names)
            hint = f"did you mean {', '.join(map(repr, near))}?" if near else \
                f"axes: {', '.join(names)}"
            return None, f"baseline: {key!r} is not an axis ({hint})"
        labels = [str(v) for v in next(a for a in axes if a.name == key).labels]
        if str(value) not in labels:
            near = closest(str(value), labels)
            hint = f"did you mean {', '.join(map(repr, near))}?" if near else \
                f"values: {', '.join(labels)}"
            return None, f"baseline: {value!r} is not a value of axis {key!r} ({hint})"
    match = [c for c in cells if all(str(c.values[k]) == str(v) for k, v in spec.items())]
    if len(match) != 1:
        return None, (f"baseline: {len(match)} cells match {dict(spec)}; name a value of "
                      "every axis that tells them apart")
    return match[0], ""


def delta_stats(o: int, pair: Mapping[str, Any] | None, p_x: float, n_x: int, p_b: float,
                n_b: int) -> tuple[float, float, float, bool]:
    """Delta of outcome ``o``'s probability (cell - baseline), its 95% interval and whether
    it is paired: from the common trials' counts when there are any, else independent."""
    if pair is not None and pair["trials"] > 1:
        n = pair["trials"]
        cx, cb, both = pair["x"][o], pair["b"][o], pair["both"][o]
        mean = (cx - cb) / n
        var = max((cx + cb - 2 * both - n * mean * mean) / (n - 1), 0.0)
        half = Z95 * math.sqrt(var / n)
        return mean, mean - half, mean + half, True
    mean = p_x - p_b
    half = Z95 * math.sqrt(p_x * (1 - p_x) / max(n_x, 1) + p_b * (1 - p_b) / max(n_b, 1))
    return mean, mean - half, mean + half, False


def rounds_delta(pair: Mapping[str, Any] | None, hist_x: np.ndarray,
                 hist_b: np.ndarray) -> tuple[float, float, float]:
    """Delta of mean rounds (cell - baseline) and its 95% interval, paired when possible."""
    if pair is not None and pair["trials"] > 1:
        n = pair["trials"]
        sx, sb, sxx, sbb, sxb = pair["rounds"]
        mean = (sx - sb) / n
        var = max((sxx + sbb - 2 * sxb - n * mean * mean) / (n - 1), 0.0)
        half = Z95 * math.sqrt(var / n)
        return mean, mean - half, mean + half
    parts = []
    for h in (hist_x, hist_b):
        r = np.arange(h.size)
        n = max(int(h.sum()), 1)
        m = float((r * h).sum()) / n
        parts.append((m, float((r * r * h).sum()) / n - m * m, n))
    (mx, vx, nx), (mb, vb, nb) = parts
    half = Z95 * math.sqrt(max(vx, 0.0) / nx + max(vb, 0.0) / nb)
    return mx - mb, mx - mb - half, mx - mb + half
