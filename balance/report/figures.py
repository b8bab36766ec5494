"""Report figures as :class:`matplotlib.figure.Figure` objects (no pyplot, no global state).

Every figure has a title, labelled axes with units and its sample size in a footnote. Colours
are colour-blind safe (the Okabe-Ito palette for lines, PuOr for the diverging win-rate scale,
viridis for sequential ones), lines also differ by marker and dash, and heat maps carry their
numbers, so the figures read in greyscale print too.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator

OKABE_ITO = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
             "#F0E442")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
DASHES = ("-", "--", "-.", ":")
DIVERGING = "PuOr"


def png_bytes(fig: Figure, dpi: int = 130) -> bytes:
    """The figure as PNG bytes (no timestamp in the metadata, so equal figures are equal)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight",
                metadata={"Software": None})
    return buf.getvalue()


MIN_SEQUENTIAL_SPAN = 0.2
"""A sequential colour scale spans at least this share of the cells' mean: mean rounds of
5.04 to 5.22 then fill a fifth of the colours, not all of them, so noise looks like noise."""
MIN_DIVERGING_SPREAD = 0.1
"""A win-rate scale reaches at least 10 points either side of its centre (50%)."""
FINE = 0.02
"""Cells closer than 2 points show their values and intervals with one decimal."""


def colour_norm(values: np.ndarray, centre: float | None, percent: bool) -> Normalize:
    """The colour scale of a heat map: centred at ``centre`` and symmetric (wide enough for
    the data, at least :data:`MIN_DIVERGING_SPREAD`), or sequential over the data but at
    least :data:`MIN_SEQUENTIAL_SPAN` of its mean wide, so small ranges stay pale."""
    finite = values[np.isfinite(values)]
    if centre is not None:
        spread = max(MIN_DIVERGING_SPREAD, float(np.abs(finite - centre).max())
                     if finite.size else MIN_DIVERGING_SPREAD)
        if percent:
            spread = min(np.ceil(spread * 20) / 20, max(centre, 1 - centre))
        return Normalize(centre - spread, centre + spread)
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    mid = (lo + hi) / 2
    span = max(hi - lo, MIN_SEQUENTIAL_SPAN * abs(mid), 1e-9)
    low = mid - span / 2
    if lo >= 0 > low:          # counts and rounds never go below zero
        low = 0.0
    return Normalize(low, low + span)


def percent_text(value: float, decimals: int = 0) -> str:
    """``42%``, ``41.7%``; never ``-0%`` for a value that rounds to zero."""
    shown = round(100 * value, decimals)
    return f"{shown if shown != 0 else 0.0:.{decimals}f}%"


def span_text(low: float, high: float, decimals: int = 0, most: int = 2) -> str:
    """An interval as ``low–high`` with enough decimals that its ends differ: a narrow
    interval reads ``13.6–14.4``, never ``14–14`` (up to ``most`` decimals)."""
    while decimals < most and f"{low:.{decimals}f}" == f"{high:.{decimals}f}":
        decimals += 1
    return f"{low:.{decimals}f}–{high:.{decimals}f}"


def percent_ticks(axis, vmin: float, vmax: float) -> None:
    """Percent ticks on ``axis`` at round steps, with a decimal only where steps need it."""
    locator = MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10])
    ticks = locator.tick_values(vmin, vmax)
    step = float(np.min(np.diff(ticks))) if ticks.size > 1 else 1.0
    decimals = 0 if round(100 * step, 6) % 1 == 0 else 1
    axis.set_major_locator(locator)
    axis.set_major_formatter(FuncFormatter(lambda v, _: percent_text(v, decimals)))


def heatmap(values: np.ndarray, rows: Sequence[str], cols: Sequence[str], *, title: str,
            row_label: str, col_label: str, scale_label: str, note: str = "",
            centre: float | None = 0.5, percent: bool = True,
            low: np.ndarray | None = None, high: np.ndarray | None = None) -> Figure:
    """An annotated heat map (see :func:`colour_norm` for its scale). ``low``/``high`` add
    each cell's interval under its value; cells within :data:`FINE` of each other get one
    decimal. The colour bar names the span the cells actually cover."""
    values = np.asarray(values, dtype=float)
    n_rows, n_cols = values.shape
    fig = Figure(figsize=(min(2.6 + 1.05 * n_cols, 16), min(1.6 + 0.62 * n_rows, 14)),
                 layout="constrained")
    ax = fig.add_subplot()
    finite = values[np.isfinite(values)]
    norm = colour_norm(values, centre, percent)
    cmap = DIVERGING if centre is not None else "viridis"
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, aspect="auto")
    bar = fig.colorbar(image, ax=ax, shrink=0.9)
    fine = percent and finite.size > 1 and float(finite.max() - finite.min()) < FINE
    decimals = 1 if fine else 0
    if finite.size:
        lo, hi = float(finite.min()), float(finite.max())
        span = (f"{percent_text(lo, decimals)} to {percent_text(hi, decimals)}" if percent
                else f"{lo:.2f} to {hi:.2f}")
        bar.set_label(f"{scale_label}\n(cells span {span})")
    else:
        bar.set_label(scale_label)
    if percent:
        percent_ticks(bar.ax.yaxis, norm.vmin, norm.vmax)
    palette = image.cmap
    small = n_cols > 8 or n_rows > 12
    for i in range(n_rows):
        for j in range(n_cols):
            v = values[i, j]
            if not np.isfinite(v):
                continue
            r, g, b, _ = palette(norm(v))
            colour = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"
            text = percent_text(v, decimals) if percent else f"{v:.2f}"
            if low is not None and high is not None and not small and percent:
                text += "\n" + span_text(100 * low[i, j], 100 * high[i, j], decimals)
            ax.text(j, i, text, ha="center", va="center", color=colour,
                    fontsize=7 if small else 9)
    slanted = n_cols > 4 or max((len(str(c)) for c in cols), default=0) * n_cols > 48
    ax.set_xticks(range(n_cols), [str(c) for c in cols], rotation=30 if slanted else 0,
                  ha="right" if slanted else "center")
    ax.set_yticks(range(n_rows), [str(r) for r in rows])
    ax.set_xlabel(col_label)
    ax.set_ylabel(row_label)
    ax.set_title(title)
    _note(fig, note)
    return fig


def intervals(x: Sequence, series: Mapping[str, tuple[np.ndarray, np.ndarray, np.ndarray]], *,
              title: str, x_label: str, y_label: str, note: str = "",
              percent: bool = True) -> Figure:
    """Points with 95% interval bars, one line per series, over the values of one axis."""
    fig = Figure(figsize=(min(4.0 + 0.55 * len(x), 12), 4.2), layout="constrained")
    ax = fig.add_subplot()
    pos = np.arange(len(x))
    k = max(len(series), 1)
    for n, (name, (p, lo, hi)) in enumerate(series.items()):
        shift = (n - (k - 1) / 2) * min(0.08, 0.4 / k)
        scale = 100 if percent else 1
        p, lo, hi = (np.asarray(a, dtype=float) * scale for a in (p, lo, hi))
        ax.errorbar(pos + shift, p, yerr=[p - lo, hi - p], label=name, capsize=3,
                    color=OKABE_ITO[n % len(OKABE_ITO)], marker=MARKERS[n % len(MARKERS)],
                    linestyle=DASHES[n % len(DASHES)], linewidth=1.3, markersize=5)
    if percent:
        ax.axhline(50, color="grey", linewidth=0.8, linestyle=":")
    slanted = len(x) > 6 or max((len(str(v)) for v in x), default=0) * len(x) > 60
    ax.set_xticks(pos, [str(v) for v in x], rotation=30 if slanted else 0,
                  ha="right" if slanted else "center")
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    if len(series) > 1:
        ax.legend(fontsize=8, frameon=False, loc="best")
    _note(fig, note)
    return fig


def distributions(groups: Mapping[str, np.ndarray], *, title: str, x_label: str,
                  y_label: str, note: str = "", upto: int | None = None) -> Figure:
    """Distributions of an integer count (rounds), one line per group, as shares in %."""
    fig = Figure(figsize=(7.5, 4.2), layout="constrained")
    ax = fig.add_subplot()
    last = 1
    for n, (name, hist) in enumerate(groups.items()):
        hist = np.asarray(hist, dtype=float)
        total = hist.sum()
        if not total:
            continue
        cdf = np.cumsum(hist) / total
        last = max(last, int(np.searchsorted(cdf, 0.995)) + 1)
        ax.plot(np.arange(hist.size), 100 * hist / total, label=name,
                color=OKABE_ITO[n % len(OKABE_ITO)], marker=MARKERS[n % len(MARKERS)],
                linestyle=DASHES[n % len(DASHES)], linewidth=1.2, markersize=3.5)
    ax.set_xlim(0.5, (upto or last) + 0.5)
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if len(groups) > 1:
        ax.legend(fontsize=8, frameon=False, ncols=2 if len(groups) > 5 else 1)
    _note(fig, note)
    return fig


def bars(labels: Sequence[str], series: Mapping[str, np.ndarray], *, title: str, x_label: str,
         y_label: str, note: str = "") -> Figure:
    """Grouped bars (e.g. mean fighters fallen per side, per cell)."""
    fig = Figure(figsize=(min(4.0 + 0.7 * len(labels), 14), 4.2), layout="constrained")
    ax = fig.add_subplot()
    pos = np.arange(len(labels))
    width = 0.8 / max(len(series), 1)
    hatches = ("", "//", "..", "xx", "\\\\", "++")
    for n, (name, values) in enumerate(series.items()):
        ax.bar(pos + (n - (len(series) - 1) / 2) * width, values, width, label=name,
               color=OKABE_ITO[n % len(OKABE_ITO)], hatch=hatches[n % len(hatches)],
               edgecolor="black", linewidth=0.5)
    ax.set_xticks(pos, [str(v) for v in labels], rotation=30 if len(labels) > 5 else 0,
                  ha="right" if len(labels) > 5 else "center")
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    _note(fig, note)
    return fig


def outcome_bars(labels: Sequence[str], p: np.ndarray, lo: np.ndarray, hi: np.ndarray, *,
                 title: str, note: str = "") -> Figure:
    """One horizontal bar per outcome (its probability, in %), with its 95% interval as an
    error bar and the value written beside it: a single run's outcomes."""
    fig = Figure(figsize=(7.5, 1.4 + 0.55 * len(labels)), layout="constrained")
    ax = fig.add_subplot()
    pos = np.arange(len(labels))[::-1]
    p, lo, hi = (100 * np.asarray(a, dtype=float) for a in (p, lo, hi))
    ax.barh(pos, p, color=[OKABE_ITO[n % len(OKABE_ITO)] for n in range(len(labels))],
            edgecolor="black", linewidth=0.5, xerr=[p - lo, hi - p], capsize=4,
            error_kw={"elinewidth": 1.2})
    for y, v, top in zip(pos, p, hi, strict=True):
        ax.text(top + 1, y, f"{v:.2f}%", va="center", fontsize=8)
    ax.set_yticks(pos, [str(v) for v in labels])
    ax.set_xlim(0, 100)
    ax.axvline(50, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("probability, %")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    _note(fig, note)
    return fig


def _note(fig: Figure, note: str) -> None:
    if note:
        fig.get_layout_engine().set(rect=(0, 0.05, 1, 0.95))
        fig.text(0.01, 0.005, note, fontsize=7, color="dimgray", ha="left", va="bottom")
