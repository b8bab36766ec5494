"""The tidy table of a sweep: one row per cell, one column per swept axis and per statistic.

Columns, in order: each axis (numbers stay numbers; names become ordered categories in the
sweep's order), ``cell`` and ``stream`` (the cell's identity and stream key), then for each
outcome ``o`` (every side, then ``draw``) ``p_o``, ``lo_o``, ``hi_o`` (Wilson 95%) and
``n_o`` (count); ``rounds_mean``, ``rounds_p50``, ``rounds_p95``; for each side ``dead_s``
and ``fallen_s`` (mean fighters dead, and not standing, at the end: casualties in group
fights), and ``alive_after_s`` when the scenario plays an aftermath; ``trials``,
``blocks``, ``seed``; and ``precision_met`` under adaptive precision.
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
                adaptive: Mapping[str, bool] | None = None):
    """The tidy DataFrame of a finished sweep (cells in expansion order).

    ``side_of`` maps each cell id to its fighters' side indices (sizes may differ by cell).
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
    columns["trials"] = [tallies[c.id].trials for c in cells]
    columns["blocks"] = [blocks[c.id] for c in cells]
    columns["seed"] = seed
    if adaptive is not None:
        columns["precision_met"] = [bool(adaptive[c.id]) for c in cells]
    return pd.DataFrame(columns)


def _stats(tally: Tally, side_names: Sequence[str], side_of: np.ndarray) -> dict[str, Any]:
    out: dict[str, Any] = {}
    n = tally.trials
    for name, k in zip((*side_names, "draw"), tally.wins.tolist(), strict=True):
        lo, hi = wilson(k, n)
        out[f"p_{name}"], out[f"lo_{name}"], out[f"hi_{name}"] = k / n, lo, hi
        out[f"n_{name}"] = k
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
