"""How the questions name metrics and print numbers (text, Markdown and strict JSON)."""

from __future__ import annotations

import math
from collections.abc import Callable

SHARES = ("win", "draw", "survival", "standing")


def what(metric: str, side: str | None) -> str:
    """``P(red wins)``, ``mean rounds``, ...: the metric in words."""
    return {"win": f"P({side} wins)", "draw": "P(draw)", "rounds": "mean rounds",
            "dead": f"mean {side} dead", "survival": f"share of {side} alive",
            "standing": f"share of {side} standing"}[metric]


def fmt(metric: str) -> Callable[[float], str]:
    """A formatter for the metric's values: percentages for shares, 3 digits otherwise."""
    if metric in SHARES:
        return lambda v: f"{100 * v:.1f}%" if math.isfinite(v) else "n/a"
    return lambda v: f"{v:.3g}" if math.isfinite(v) else "n/a"


def fmt_change(metric: str) -> Callable[[float], str]:
    """A formatter for changes: signed points for shares, signed 3 digits otherwise."""
    if metric in SHARES:
        return lambda v: f"{100 * v:+.1f}" if math.isfinite(v) else "n/a"
    return lambda v: f"{v:+.3g}" if math.isfinite(v) else "n/a"


def unit(metric: str) -> str:
    return "points" if metric in SHARES else ""


def value(v: float | str) -> str:
    """A field value: integers without a decimal point, others to 3 digits (a dice text as
    it is)."""
    if isinstance(v, str):
        return v
    if isinstance(v, int) or (math.isfinite(v) and float(v).is_integer()):
        return str(int(v))
    return f"{v:.3g}" if math.isfinite(v) else ("-inf" if v < 0 else "inf")


def num(v: float) -> float | None:
    """A number for strict JSON: None for NaN or an infinity."""
    return float(v) if math.isfinite(v) else None
