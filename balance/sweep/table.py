"""The tidy table of a sweep: one row per cell, one column per swept axis and per statistic.

Columns, in order: each axis (numbers stay numbers; names become ordered categories in the
sweep's order), ``cell`` and ``stream`` (the cell's identity and stream key), then for each
outcome ``o`` (every side, then ``draw``) ``p_o``, ``lo_o``, ``hi_o`` (Wilson 95%) and
``n_o`` (count); ``rounds_mean``, ``rounds_p50``, ``rounds_p95``; for each side ``dead_s``
and ``fallen_s`` (mean fighters dead, and not standing, at the end: casualties in group
fights), and ``alive_after_s`` when the scenario plays an aftermath; ``trials``,
``blocks``, ``seed``; and ``precision_met`` under adaptive precision. With a baseline,
for each outcome ``delta_o`` (cell minus baseline) with its 95% interval
``delta_ci95_lo_o``/``delta_ci95_hi_o``, the same for ``rounds_mean``, and ``paired`` (the
interval comes from per-trial differences on shared random streams).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balance.engine.run import Tally
from balance.engine.status import DEAD
from balance.report.stats import hist_mean, hist_quantile, wilson
from balance.sweep.cells import Axis, Cell


def axis_column(axis: Axis, labels: Sequence[Any]):
    """A column of an axis's labels: numeric when every label is a number, else ordered
    categories in the axis's own order (so tables and figures keep the sweep's order)."""
    import pandas as pd

    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in axis.labels):
        return pd.Series(list(labels))
    order = list(dict.fromkeys(str(v) for v in axis.labels))   # zipped axes may repeat
    return pd.Categorical([str(v) for v in labels], categories=order, ordered=True)


def build_table(axes: Sequence[Axis], cells: Sequence[Cell], tallies: Mapping[str, Tally],
                blocks: Mapping[str, int], *, side_names: Sequence[str],
                side_of: Mapping[str, np.ndarray], seed: int,
                adaptive: Mapping[str, bool] | None = None,
                breakdown: Mapping[str, tuple[tuple[str, ...], frozenset[str]]] | None = None):
    """The tidy DataFrame of a finished sweep (cells in expansion order).

    ``side_of`` maps each cell id to its fighters' side indices (sizes may differ by cell).
    ``breakdown`` maps each cell id to its fighters' names and the metrics its rules count:
    each counted metric's mean per fight and 95% interval become ``bd_<fighter>_<metric>``,
    ``..._lo`` and ``..._hi`` (NaN in a cell without that fighter).
    """
    import pandas as pd

    columns: dict[str, Any] = {}
    for i, axis in enumerate(axes):
        columns[axis.name] = axis_column(axis, [axis.labels[c.picks[i]] for c in cells])
    columns["cell"] = [c.id for c in cells]
    columns["stream"] = [c.stream_hex for c in cells]
    rows = [_stats(tallies[c.id], side_names, side_of[c.id]) for c in cells]
    for key in rows[0] if rows else ():
        columns[key] = [r[key] for r in rows]
    exact = [tallies[c.id].exact for c in cells]
    columns["trials"] = [0 if e else tallies[c.id].trials for c, e in zip(cells, exact,
                                                                         strict=True)]
    columns["blocks"] = [blocks[c.id] for c in cells]
    columns["seed"] = seed
    if any(exact):
        columns["exact"] = exact
    if adaptive is not None:
        columns["precision_met"] = [bool(adaptive[c.id]) for c in cells]
    if breakdown is not None:
        columns.update(_breakdown_columns(cells, tallies, breakdown))
    return pd.DataFrame(columns)


def _breakdown_columns(cells: Sequence[Cell], tallies: Mapping[str, Tally],
                       breakdown: Mapping[str, tuple[tuple[str, ...], frozenset[str]]]
                       ) -> dict[str, list[float]]:
    """``bd_<fighter>_<metric>`` (mean per fight), ``_lo`` and ``_hi`` columns, fighters in
    order of first appearance, metrics in ``balance.engine.breakdown.METRICS`` order."""
    from balance.engine.breakdown import summary

    per_cell = []
    keys: dict[str, None] = {}
    for c in cells:
        names, counted = breakdown[c.id]
        tally = tallies[c.id]
        values: dict[str, float] = {}
        if tally.breakdown is not None:
            for fighter, row in summary(tally.breakdown, tally.trials, names, counted).items():
                for metric, v in row.items():
                    if v is None:
                        continue
                    key = f"bd_{fighter}_{metric}"
                    values[key], values[key + "_lo"], values[key + "_hi"] = (
                        v["mean"], *v["ci95"])
                    keys.update(dict.fromkeys((key, key + "_lo", key + "_hi")))
        per_cell.append(values)
    return {k: [v.get(k, float("nan")) for v in per_cell] for k in keys}


def _stats(tally: Tally, side_names: Sequence[str], side_of: np.ndarray) -> dict[str, Any]:
    out: dict[str, Any] = {}
    n = tally.trials
    for name, k in zip((*side_names, "draw"), tally.wins.tolist(), strict=True):
        # an exact tally holds probabilities: no interval, no count (balance.exact)
        lo, hi = (k, k) if tally.exact else wilson(k, n)
        out[f"p_{name}"], out[f"lo_{name}"], out[f"hi_{name}"] = k / n, lo, hi
        out[f"n_{name}"] = float("nan") if tally.exact else k
    out["rounds_mean"] = hist_mean(tally.rounds)
    out["rounds_p50"] = hist_quantile(tally.rounds, 0.5)
    out["rounds_p95"] = hist_quantile(tally.rounds, 0.95)
    standing = np.arange(tally.standing.shape[1])
    for s, name in enumerate(side_names):
        members = np.flatnonzero(side_of == s)
        out[f"dead_{name}"] = float(tally.status[members, DEAD].sum()) / n
        out[f"fallen_{name}"] = members.size - float((tally.standing[s] * standing).sum()) / n
        if tally.alive_after is not None:
            out[f"alive_after_{name}"] = float(tally.alive_after[members].sum()) / n
    return out


def add_deltas(table, baseline: str, tallies: Mapping[str, Tally],
               paired: Mapping[str, dict | None], outcomes: Sequence[str]) -> None:
    """Add the ``delta_*`` columns against the baseline cell (in place)."""
    from balance.sweep.baseline import delta_stats, rounds_delta

    base = tallies[baseline]
    cols: dict[str, list[Any]] = {}
    pairs = []
    for cid in table["cell"]:
        t, pair = tallies[cid], paired.get(cid)
        same = cid == baseline
        for o, name in enumerate(outcomes):
            if same:
                d, lo, hi = 0.0, 0.0, 0.0
            elif t.exact and base.exact:       # exact against exact: no interval
                d = float(t.wins[o] - base.wins[o])
                lo = hi = d
            else:
                d, lo, hi, _ = delta_stats(
                    o, pair, int(t.wins[o]) / t.trials, t.trials,
                    int(base.wins[o]) / base.trials, base.trials)
            for key, v in ((f"delta_{name}", d), (f"delta_ci95_lo_{name}", lo),
                           (f"delta_ci95_hi_{name}", hi)):
                cols.setdefault(key, []).append(v)
        if same:
            d, lo, hi = 0.0, 0.0, 0.0
        elif t.exact and base.exact:
            values = np.arange(t.rounds.size)
            d = float(values @ t.rounds - values @ base.rounds)
            lo = hi = d
        else:
            d, lo, hi = rounds_delta(pair, t.rounds, base.rounds)
        for key, v in (("delta_rounds_mean", d), ("delta_ci95_lo_rounds_mean", lo),
                       ("delta_ci95_hi_rounds_mean", hi)):
            cols.setdefault(key, []).append(v)
        pairs.append(bool(same or (pair is not None and pair["trials"] > 1)))
    for key, values in cols.items():
        table[key] = values
    table["paired"] = pairs
    table["baseline"] = [cid == baseline for cid in table["cell"]]
