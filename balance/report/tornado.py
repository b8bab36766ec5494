"""The tornado chart of a sensitivity analysis: each field's change one step down and one
step up, as horizontal bars with their paired 95% intervals, the largest at the top."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from balance.report.figures import OKABE_ITO, _note

MAX_FIELDS = 30


def tornado(result: Any) -> Figure:
    """The chart of a :class:`~balance.analysis.sensitivities.Sensitivity`."""
    paths: dict[str, dict[str, Any]] = {}
    for r in result.rows:
        paths.setdefault(r.name, {})["up" if r.to > r.from_ else "down"] = r
    ranked = sorted(paths, key=lambda p: -max(abs(r.delta) for r in paths[p].values()))
    ranked = ranked[:MAX_FIELDS][::-1]                  # largest at the top
    scale = 100 if result.metric in ("win", "draw", "survival", "standing") else 1
    fig = Figure(figsize=(8, 1.2 + 0.38 * len(ranked)), layout="constrained")
    ax = fig.add_subplot()
    pos = np.arange(len(ranked))
    for n, (key, label) in enumerate((("down", f"−{result.step:g}"),
                                      ("up", f"+{result.step:g}"))):
        rows = [paths[p].get(key) for p in ranked]
        at = [i for i, r in enumerate(rows) if r is not None]
        if not at:
            continue
        delta = np.array([rows[i].delta for i in at]) * scale
        lo = np.array([rows[i].ci95[0] for i in at]) * scale
        hi = np.array([rows[i].ci95[1] for i in at]) * scale
        ax.barh(pos[at] + (n - 0.5) * 0.38, delta, 0.38, label=f"field {label}",
                color=OKABE_ITO[n], edgecolor="black", linewidth=0.4,
                hatch="" if n else "//")
        ax.errorbar(delta, pos[at] + (n - 0.5) * 0.38, xerr=[delta - lo, hi - delta],
                    fmt="none", ecolor="black", capsize=2, linewidth=0.8)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(pos, [f"{p} (from {_v(next(iter(paths[p].values())).from_)})"
                        for p in ranked], fontsize=8)
    unit = "points" if scale == 100 else ""
    who = f"P({result.side} wins)" if result.metric == "win" else result.metric
    ax.set_xlabel(f"change in {who} {unit}".strip())
    ax.set_title(f"{result.scenario}: sensitivity of {who}")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    _note(fig, f"{result.trials:,} trials, seed {result.seed}, common random numbers; bars "
               "are paired 95% intervals.")
    return fig


def _v(v: float) -> str:
    return f"{v:g}"
