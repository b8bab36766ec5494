"""The report section of a sweep with a baseline: every cell's change from it, as a forest
plot and a table (paired intervals where the cells shared the baseline's random streams)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from balance.report.document import Picture, Section, Table
from balance.report.figures import OKABE_ITO, _note

MAX_CELLS = 40


def baseline_section(table: Any, manifest: Mapping[str, Any], side: str, note: str,
                     name: str) -> Section:
    """The section; ``name`` is the PNG's file name."""
    base = manifest["baseline"]
    axes = [a["name"] for a in manifest["axes"]]
    label = ", ".join(f"{k}={v}" for k, v in base["values"].items())
    rows = table[~table["baseline"]].sort_values(f"delta_{side}", ascending=False)
    sec = Section("Against the baseline", [
        f"Each cell's change in P({side} wins) from the baseline cell ({label}), with its 95% "
        "interval: paired (from per-trial differences) where the cell drew the baseline's "
        "random streams, else the interval of two independent estimates."])
    shown = rows.head(MAX_CELLS)
    labels = [", ".join(f"{a}={r[a]}" for a in axes) for _, r in shown.iterrows()]
    d = 100 * shown[f"delta_{side}"].to_numpy(dtype=float)
    lo = 100 * shown[f"delta_ci95_lo_{side}"].to_numpy(dtype=float)
    hi = 100 * shown[f"delta_ci95_hi_{side}"].to_numpy(dtype=float)
    title = f"Change in P({side} wins) from {label}"
    sec.pictures.append(Picture(name, _forest(labels, d, lo, hi, title, note), title))
    header = [*axes, f"P({side} wins) %", "change (points)", "95% interval", "paired",
              "rounds change"]
    body = [[*(str(r[a]) for a in axes), f"{100 * r[f'p_{side}']:.1f}",
             f"{100 * r[f'delta_{side}']:+.1f}",
             f"[{100 * r[f'delta_ci95_lo_{side}']:+.1f}, "
             f"{100 * r[f'delta_ci95_hi_{side}']:+.1f}]",
             "yes" if r["paired"] else "no", f"{r['delta_rounds_mean']:+.2f}"]
            for _, r in rows.iterrows()]
    sec.tables.append(Table("", header, body))
    return sec


def _forest(labels: list[str], d: np.ndarray, lo: np.ndarray, hi: np.ndarray, title: str,
            note: str) -> Figure:
    fig = Figure(figsize=(7.5, 1.2 + 0.32 * len(labels)), layout="constrained")
    ax = fig.add_subplot()
    pos = np.arange(len(labels))[::-1]
    ax.errorbar(d, pos, xerr=[d - lo, hi - d], fmt="o", color=OKABE_ITO[0], capsize=3,
                markersize=4, linewidth=1.2)
    ax.axvline(0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_yticks(pos, labels, fontsize=8)
    ax.set_xlabel("change from the baseline, points")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    _note(fig, note)
    return fig
