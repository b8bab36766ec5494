"""``compare``: every cell of a finished sweep against its baseline, ranked, with which
differences are real.

The run's own baseline (``baseline:`` in its sweep block) was compared while the sweep ran:
cells on the baseline's random streams carry counts paired with it, trial by trial, so their
intervals are those of the per-trial differences. Another baseline chosen afterwards can only
be compared as two independent estimates (wider intervals; said in the output). Significance
is corrected over all the cells with Holm's method.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from balance.analysis import words
from balance.analysis.panel import z_value
from balance.analysis.sensitivities import _p_value, holm
from balance.errors import OptionError
from balance.sweep.baseline import delta_stats, resolve_baseline, rounds_delta

METRICS = ("win", "draw", "rounds")


@dataclass(frozen=True)
class Comparison:
    """The ranked deltas of a run's cells against a baseline (``to_dict`` is the JSON)."""

    run: str
    scenario: str
    side: str | None
    metric: str
    baseline: dict[str, Any]
    rows: list[dict[str, Any]]
    paired_run: bool

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run, "scenario": self.scenario, "for": self.side,
                "metric": self.metric, "baseline": self.baseline, "rows": self.rows,
                "correction": "holm"}

    def to_text(self) -> str:
        what = words.what(self.metric, self.side)
        fmt, change = words.fmt(self.metric), words.fmt_change(self.metric)
        b = self.baseline
        lo, hi = b["ci95"]
        lines = [f"{self.scenario}: {what} against the baseline "
                 f"({_describe(b['values'])}: {fmt(b['estimate'])} [{fmt(lo)}, {fmt(hi)}])",
                 ""]
        head = ["rank", "cell", what, f"change {words.unit(self.metric)}".strip(),
                "95% interval", "paired", "significant"]
        rows = [[str(i + 1), _describe(r["values"]), fmt(r["estimate"]), change(r["delta"]),
                 f"[{change(r['ci95'][0])}, {change(r['ci95'][1])}]",
                 "yes" if r["paired"] else "no", "yes" if r["significant"] else "no"]
                for i, r in enumerate(self.rows)]
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
                  for i, h in enumerate(head)]
        lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
        lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                  for r in rows]
        if not self.rows:
            lines += ["", "  the run has no other cell to compare with the baseline"]
            return "\n".join(lines)
        n_sig = sum(r["significant"] for r in self.rows)
        lines += ["", f"  {n_sig} of {len(self.rows)} differences are significant (95% "
                      "intervals, Holm's correction over the cells)"]
        if not self.paired_run:
            lines.append("  not paired: this baseline was not the run's, or the cells do not "
                         "share its random streams, so deltas are of independent estimates")
        return "\n".join(lines)


def compare_run(run_dir: str | os.PathLike, *, baseline: Any = None, side: str | None = None,
                metric: str = "win") -> Comparison:
    """Rank the cells of the sweep run in ``run_dir`` against a baseline (default: the
    run's own; an index or ``{axis: value}`` picks another)."""
    from balance.io.store import load, load_tallies

    if metric not in METRICS:
        raise OptionError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
    table = load(run_dir)
    m = table.attrs["manifest"]
    sides = list(m["sides"])
    if side is not None and side not in sides:
        from balance.errors import unknown_name

        raise OptionError(unknown_name("side", side, sides))
    side = side or sides[0]
    outcome = {"win": side, "draw": "draw"}.get(metric)
    axes = [SimpleNamespace(name=a["name"], labels=a["labels"]) for a in m["axes"]]
    cells = [SimpleNamespace(id=r["cell"], index=i,
                             values={a.name: _plain(r[a.name]) for a in axes})
             for i, (_, r) in enumerate(table.iterrows())]
    own = (m.get("baseline") or {}).get("cell")
    if baseline is None:
        if own is None:
            raise OptionError("the run has no baseline: give --baseline with a cell index or "
                              "axis=value,... (or add baseline: to the sweep block)")
        base = next(c for c in cells if c.id == own)
    else:
        base, message = resolve_baseline(baseline, axes, cells)
        if base is None:
            raise OptionError(f"--{message}")
    tallies = load_tallies(run_dir)
    paired = _paired(run_dir) if base.id == own else {}
    tb = tallies[base.id]
    names = [*sides, "draw"]
    rows = []
    for c in cells:
        if c.id == base.id:
            continue
        t, pair = tallies[c.id], paired.get(c.id)
        if metric == "rounds":
            d, lo, hi = rounds_delta(pair, t.rounds, tb.rounds)
            est = _mean(t.rounds)
            was_paired = pair is not None and pair["trials"] > 1
        else:
            o = names.index(outcome)
            est = int(t.wins[o]) / t.trials
            d, lo, hi, was_paired = delta_stats(o, pair, est, t.trials,
                                                int(tb.wins[o]) / tb.trials, tb.trials)
        se = (hi - lo) / (2 * z_value(0.95))
        rows.append({"cell": c.id, "index": c.index, "values": c.values,
                     "estimate": words.num(est), "delta": words.num(d),
                     "ci95": [words.num(lo), words.num(hi)], "paired": bool(was_paired),
                     "p_value": words.num(_p_value(d, se))})
    for r, flag in zip(rows, holm([r["p_value"] for r in rows]), strict=True):
        r["significant"] = flag
    rows.sort(key=lambda r: -r["delta"])
    if metric == "rounds":
        b_est, sd, n = _mean(tb.rounds), _sd(tb.rounds), int(tb.rounds.sum())
        half = z_value(0.95) * sd / n ** 0.5
        b_ci = [b_est - half, b_est + half]
    else:
        from balance.analysis.panel import wilson

        o = names.index(outcome)
        b_est = int(tb.wins[o]) / tb.trials
        b_ci = list(wilson(b_est, tb.trials, z_value(0.95)))
    return Comparison(str(run_dir), m["scenario"], side if metric == "win" else None, metric,
                      {"cell": base.id, "index": base.index, "values": base.values,
                       "estimate": words.num(b_est), "ci95": [words.num(v) for v in b_ci],
                       "own": base.id == own},
                      rows, bool(rows) and all(r["paired"] for r in rows))


def parse_baseline(text: str | None) -> Any:
    """``3`` -> 3; ``weapon=spear,armour=none`` -> {"weapon": "spear", "armour": "none"}."""
    if text is None:
        return None
    if text.strip().isdigit():
        return int(text)
    out = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"--baseline: expected a cell index or axis=value,..., got "
                              f"{text!r}")
        if key.strip() in out:
            raise OptionError(f"--baseline: axis {key.strip()!r} is named twice in {text!r}")
        out[key.strip()] = value.strip()
    return out


def _paired(run_dir: str | os.PathLike) -> dict[str, Any]:
    """The paired counts saved with each cell (see balance.sweep.baseline)."""
    path = Path(run_dir) / "paired.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def _mean(hist) -> float:
    import numpy as np

    n = hist.sum()
    return float((np.arange(hist.size) * hist).sum() / n) if n else float("nan")


def _sd(hist) -> float:
    import numpy as np

    r = np.arange(hist.size)
    n = hist.sum()
    m = float((r * hist).sum() / n)
    return max(float((r * r * hist).sum() / n) - m * m, 0.0) ** 0.5


def _plain(v: Any) -> Any:
    return v.item() if hasattr(v, "item") else v


def _describe(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items()) or "base"
