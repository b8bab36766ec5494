"""The report of one sweep run: which figures and tables its axes call for.

* two or more axes: a heat map of the chosen side's win probability for the first two axes
  (one per value of any further axes), plus win rates with 95% intervals per value of the
  first axis, one line per value of the second;
* one axis: every outcome's probability with its 95% interval along the axis;
* a round robin: the score matrix (both seatings pooled), each option's mean win rate
  ranked, and a flag on any option that is dominant or dominated;
* rounds to a decision: the distribution per value of the first axis (pooled over the
  others), and a heat map of mean rounds for two axes;
* casualties for group fights: mean fighters fallen per side.

A zip group (axes that move together: value *k* of each with value *k* of the others) is one
categorical axis here, labelled ``a / b``: as two axes of a heat map most of its cells would
be empty. The report opens with a headline (the axis that moves the win rate most, in one
sentence) and the lab's version, the seed and the trials, and shows the scenario's text.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from balance.engine.run import Tally
from balance.report import figures
from balance.report.baseline import baseline_section
from balance.report.document import Document, Picture, Section, Table
from balance.report.roundrobin import equilibrium, round_robin
from balance.report.survival import survival_figure
from balance.sweep.summary import timing, workers_text

MAX_FACETS = 12
MAX_GROUPS = 10


def sweep_document(table: pd.DataFrame, manifest: Mapping[str, Any],
                   tallies: Mapping[str, Tally], side: str | None = None) -> Document:
    """The whole report of a run as a :class:`Document`."""
    sides = list(manifest["sides"])
    side = side or sides[0]
    ctx = _Context(table, manifest, tallies, side)
    doc = Document(f"{manifest['scenario']}: sweep report", lead=[headline(ctx), _stamp(ctx)])
    if manifest.get("round_robin") and len(sides) == 2:
        doc.sections.append(_round_robin_section(ctx))
    if not (ctx.rr and not ctx.plain):     # a bare round robin: its section says it all
        doc.sections.append(_win_section(ctx))
    if manifest.get("baseline") and f"delta_{side}" in table:
        doc.sections.append(baseline_section(table, manifest, side, ctx.plain_note,
                                             ctx.name("baseline")))
    doc.sections.append(_rounds_section(ctx))
    if any(t.n_fighters > t.n_sides for t in tallies.values()):
        doc.sections.append(_casualty_section(ctx))
    doc.sections.append(_cells_section(ctx))
    doc.sections.append(_run_section(ctx))            # results first, provenance last
    doc.sections.append(_scenario_section(ctx))
    return doc


class _Context:
    """The run's data and the choices every section shares."""

    def __init__(self, table: pd.DataFrame, manifest: Mapping[str, Any],
                 tallies: Mapping[str, Tally], side: str):
        self.manifest, self.tallies, self.side = manifest, tallies, side
        self.sides = list(manifest["sides"])
        self.outcomes = list(manifest["outcomes"])
        self.axes = [a["name"] for a in manifest["axes"]]
        self.labels = {a["name"]: list(dict.fromkeys(str(v) for v in a["labels"]))
                       for a in manifest["axes"]}
        self.table = self._zip_as_one_axis(table, manifest)
        rr = manifest.get("round_robin") or []
        self.rr = list(rr)
        self.plain = [a for a in self.axes if a not in rr]
        trials = table["trials"]
        per = f"{int(trials.iloc[0]):,}" if trials.nunique() == 1 else \
            f"{int(trials.min()):,}–{int(trials.max()):,}"
        self.plain_note = f"{manifest['ruleset']}, {per} trials per cell, seed {manifest['seed']}."
        if manifest.get("crn_note"):
            self.plain_note += " Common random numbers."
        self.note = self.plain_note + " Bars and ranges are Wilson 95% intervals."
        self.file_no = 0

    def _zip_as_one_axis(self, table: pd.DataFrame, manifest: Mapping[str, Any]) -> pd.DataFrame:
        """Axes of a zip group become one column ``a / b`` with labels ``x / y``."""
        zipped = [a for a in manifest["axes"] if a["kind"] == "zip"]
        if len(zipped) < 2:
            return table
        names = [a["name"] for a in zipped]
        joined = " / ".join(names)
        table = table.copy()
        table[joined] = [" / ".join(str(v) for v in row)
                         for row in zip(*(table[n] for n in names), strict=True)]
        self.labels[joined] = list(dict.fromkeys(
            " / ".join(map(str, values))
            for values in zip(*(a["labels"] for a in zipped), strict=True)))
        at = self.axes.index(names[0])
        self.axes = [a for a in self.axes if a not in names]
        self.axes.insert(at, joined)
        return table

    def name(self, stem: str) -> str:
        self.file_no += 1
        return f"{self.file_no:02d}-{stem}.png"

    def key(self, column: str) -> pd.Series:
        return self.table[column].astype(str)


def _run_section(ctx: _Context) -> Section:
    m = ctx.manifest
    trials = (f"adaptive: 95% half-width <= {m['precision']} (at most {m['max_trials']:,})"
              if m.get("precision") else f"{m['trials']:,} per cell")
    executor = m["executor"]
    rows = [["scenario", m["scenario"]], ["rule system", m["ruleset"]],
            ["source", str(m.get("source") or "(in memory)")],
            ["cells", f"{m['cells']:,}"], ["trials", trials],
            ["total trials", f"{int(ctx.table['trials'].sum()):,}"],
            ["seed", str(m["seed"])], ["block size", f"{m['block_trials']:,}"],
            ["axes", "; ".join(f"{a['name']} ({a['kind']}: {', '.join(map(str, a['labels']))})"
                               for a in m["axes"]) or "none"],
            ["executor", workers_text(executor)],
            ["time", timing(m).split(" (")[0]],
            ["started", m["started"]], ["finished", m["finished"]],
            ["balance", f"{m['package_version']} (git {m.get('git_commit') or 'n/a'})"],
            ["scenario sha256", m["scenario_sha256"][:16]]]
    text = ["Probabilities are shares of trials with Wilson 95% intervals; each cell draws "
            "from its own random streams, keyed by its swept values."]
    if m.get("crn_note"):
        text.append("Note: " + m["crn_note"] + ".")
    if m.get("precision") and "precision_met" in ctx.table and \
            not ctx.table["precision_met"].all():
        missed = int((~ctx.table["precision_met"]).sum())
        text.append(f"{missed} cells reached the trial cap before the target precision.")
    return Section("Run", text, tables=[Table("", ["", "value"], rows)])


def _trials_text(ctx: _Context) -> str:
    trials = ctx.table["trials"]
    if trials.nunique() == 1:
        return f"{int(trials.iloc[0]):,} trials per cell"
    return f"{int(trials.min()):,}–{int(trials.max()):,} trials per cell"


def _stamp(ctx: _Context) -> str:
    """``balance 0.1.0 (git abc1234), seed 7, 20,000 trials per cell, 35 cells``."""
    m = ctx.manifest
    git = m.get("git_commit")
    return (f"balance {m['package_version']}" + (f" (git {git[:12]})" if git else "") +
            f", seed {m['seed']}, {_trials_text(ctx)}, {m['cells']:,} "
            f"cell{'' if m['cells'] == 1 else 's'}.")


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _weights(cells) -> np.ndarray | None:
    """The cells' trials as weights; None (alike) where no cell has any: exact cells
    (the exact engine's, ``trials`` 0) are each worth the same."""
    trials = cells["trials"].to_numpy(dtype=float)
    return trials if trials.sum() > 0 else None


def headline(ctx: _Context) -> str:
    """The biggest effect found, in one sentence: the axis whose values move the chosen
    side's win probability most (averaged over the other axes, weighted by trials)."""
    side = ctx.side
    if ctx.rr and not ctx.plain and len(ctx.sides) == 2:
        return _round_robin_headline(ctx)
    if len(ctx.table) == 1 or not ctx.axes:
        row = ctx.table.iloc[0]
        return (f"{side} wins {_pct(row[f'p_{side}'])} of fights (95% interval "
                f"{_pct(row[f'lo_{side}'])}–{_pct(row[f'hi_{side}'])}).")
    best: tuple[float, str, str, float, str, float] | None = None
    for axis in ctx.axes:
        wins = ctx.table.groupby(ctx.key(axis), sort=False, observed=True).apply(
            lambda g: float(np.average(g[f"p_{side}"], weights=_weights(g))),
            include_groups=False)
        if wins.size < 2:
            continue
        low, high = wins.idxmin(), wins.idxmax()
        effect = float(wins[high] - wins[low])
        if best is None or effect > best[0]:
            best = (effect, axis, str(low), float(wins[low]), str(high), float(wins[high]))
    if best is None:
        return ""
    effect, axis, low, p_low, high, p_high = best
    others = " (averaged over the other axes)" if len(ctx.axes) > 1 else ""
    half = float(((ctx.table[f"hi_{side}"] - ctx.table[f"lo_{side}"]) / 2).max())
    noise = (" That is within the noise of the cells' intervals (±"
             f"{100 * half:.1f} points)." if effect <= 2 * half else "")
    swing = f"{100 * effect:.1f}"
    return (f"Biggest effect: {axis}. {side} wins {_pct(p_low)} with {low} and "
            f"{_pct(p_high)} with {high}{others}, {number_article(swing)} {swing}-point "
            f"swing.{noise}")


def _round_robin_headline(ctx: _Context) -> str:
    """A round robin's headline, from its ranking (the same numbers as the table under it):
    the strongest and the weakest option by mean win rate against the others."""
    rr = round_robin(ctx.table, tuple(ctx.rr), (ctx.sides[0], ctx.sides[1]))
    top, bottom = rr.ranking.iloc[0], rr.ranking.iloc[-1]
    others = len(rr.options) - 1
    return (f"Strongest option: {top['option']}, winning {_pct(top['mean_win_rate'])} of "
            f"its fights against the {others} others on average (both seatings pooled); "
            f"weakest: {bottom['option']}, {_pct(bottom['mean_win_rate'])}.")


def number_article(number: str) -> str:
    """``an`` before a number said with a vowel first (8, 11, 18, 80-89: "an 8.8-point
    swing"), else ``a``."""
    whole = int(float(number))
    return "an" if whole in (8, 11, 18) or 80 <= whole <= 89 or 800 <= whole <= 899 else "a"


def _table_overrides(text: str) -> list[str]:
    """``weapons.long_sword: damage 8``: each row the scenario's ``tables:`` block changes."""
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return []
    tables = data.get("tables") if isinstance(data, dict) else None
    out = []
    for table, rows in (tables or {}).items() if isinstance(tables, dict) else ():
        for row, fields in (rows or {}).items() if isinstance(rows, dict) else ():
            shown = (", ".join(f"{k} {v}" for k, v in fields.items())
                     if isinstance(fields, dict) else str(fields))
            out.append(f"{table}.{row}: {shown}")
    return out


def _scenario_section(ctx: _Context) -> Section:
    """The scenario exactly as run (with its sweep block), and its table changes listed."""
    text = ctx.manifest.get("scenario_text") or ""
    overrides = _table_overrides(text)
    lines = ["The scenario file as run (its SHA-256 is in the manifest)."]
    lines.append("Table overrides: " + "; ".join(overrides) + "." if overrides else
                 "Table overrides: none (the shipped tables).")
    language = "json" if text.lstrip().startswith("{") else "yaml"   # from a dict: JSON
    return Section("Scenario", lines, code=[(language, text)] if text else [])


def _facets(ctx: _Context, axes: list[str]) -> list[tuple[str, pd.DataFrame]]:
    """(caption, sub-table) for each combination of values of ``axes`` (all rows if none)."""
    if not axes:
        return [("", ctx.table)]
    out = []
    for combo in itertools.product(*(ctx.labels[a] for a in axes)):
        mask = np.ones(len(ctx.table), dtype=bool)
        for a, v in zip(axes, combo, strict=True):
            mask &= (ctx.key(a) == v).to_numpy()
        if mask.any():
            out.append((", ".join(f"{a} = {v}" for a, v in zip(axes, combo, strict=True)),
                        ctx.table[mask]))
    return out


def _grid(ctx: _Context, sub: pd.DataFrame, rows: str, cols: str, column: str) -> np.ndarray:
    index = {v: i for i, v in enumerate(ctx.labels[rows])}
    jndex = {v: j for j, v in enumerate(ctx.labels[cols])}
    grid = np.full((len(index), len(jndex)), np.nan)
    for r, c, v in zip(sub[rows].astype(str), sub[cols].astype(str), sub[column], strict=True):
        grid[index[r], jndex[c]] = v
    return grid


def _round_robin_section(ctx: _Context) -> Section:
    a, b = ctx.rr
    sec = Section("Round robin", [
        f"Each cell is the row option's win rate against the column option, over both "
        f"seatings ({ctx.sides[0]} and {ctx.sides[1]}) pooled; an option's mean win rate is "
        "over the other options (its mirror match left out). 'beats every other': each of "
        "its intervals lies above 50%. 'dominated by X', as balance metagame says it: X (an "
        "option, or a mix of options) does at least as well against every opponent and "
        "better against one, a draw as half a win ('weakly' when only at least as well; "
        "'within noise' when the intervals do not confirm it). The equilibrium mix is the "
        "mix of options no opponent can exploit (balance metagame analyses it further)."])
    for caption, sub in _facets(ctx, ctx.plain)[:MAX_FACETS]:
        rr = round_robin(sub, (a, b), (ctx.sides[0], ctx.sides[1]))
        title = "Round robin: row's win rate against column" + (f" ({caption})" if caption
                                                                else "")
        fig = figures.heatmap(rr.score.to_numpy(), rr.options, rr.options, title=title,
                              row_label=f"option ({a} / {b})", col_label="opponent",
                              scale_label="row's win rate, %", note=ctx.note,
                              low=rr.low.to_numpy(), high=rr.high.to_numpy())
        sec.pictures.append(Picture(ctx.name("round-robin"), fig, title))
        flags = _flags(sub, (a, b), ctx.sides, rr)
        rows = [[str(r["rank"]), r["option"], f"{100 * r['mean_win_rate']:.1f}",
                 str(r["beats"]), str(r["loses_to"]), flags.get(r["option"]) or "—"]
                for _, r in rr.ranking.iterrows()]
        sec.tables.append(Table("Ranking" + (f" ({caption})" if caption else ""),
                                ["rank", "option", "mean win rate %", "beats", "loses to",
                                 "flag"], rows))
        mix = equilibrium(sub, (a, b), (ctx.sides[0], ctx.sides[1]))
        sec.tables.append(Table("Equilibrium mix" + (f" ({caption})" if caption else ""),
                                ["option", "weight %", "payoff against the mix %"],
                                [[r.option, f"{100 * r.weight:.1f}", f"{100 * r.payoff:.1f}"]
                                 for r in mix.itertuples()]))
    return sec


def _flags(sub: pd.DataFrame, axes: tuple[str, str], sides: list[str],
           rr: Any) -> dict[str, str]:
    """Each option's flag in the words of ``balance metagame``: 'beats every other' (from
    the ranking's intervals), 'dominated by X' (the metagame's own domination analysis of
    the pooled matrix, a draw as half a win)."""
    from balance.analysis.matrix import Matrix, pooled, table_cells
    from balance.analysis.metagame import analyse, domination_words
    from balance.errors import OptionError

    out = {r["option"]: "beats every other" for _, r in rr.ranking.iterrows()
           if r["flag"] == "dominant"}
    try:
        score, low, high, se, trials = pooled(rr.options,
                                              table_cells(sub, *axes, sides))
    except OptionError:
        return out
    game = analyse(Matrix(rr.options, score, low, high, se, trials))
    for option, (words, _, sure) in domination_words(game).items():
        out[option] = words + ("" if sure else " (within noise)")
    return out


def _win_section(ctx: _Context) -> Section:
    side = ctx.side
    sec = Section(f"Win probability of {side}")
    axes = ctx.plain if ctx.rr else ctx.axes
    scale = f"P({side} wins), %"
    if len(axes) >= 2:
        rows, cols, rest = axes[0], axes[1], axes[2:]
        facets = _facets(ctx, rest)
        for caption, sub in facets[:MAX_FACETS]:
            title = f"P({side} wins): {rows} × {cols}" + (f" ({caption})" if caption else "")
            fig = figures.heatmap(_grid(ctx, sub, rows, cols, f"p_{side}"), ctx.labels[rows],
                                  ctx.labels[cols], title=title, row_label=rows,
                                  col_label=cols, scale_label=scale, note=ctx.note,
                                  low=_grid(ctx, sub, rows, cols, f"lo_{side}"),
                                  high=_grid(ctx, sub, rows, cols, f"hi_{side}"))
            sec.pictures.append(Picture(ctx.name("heatmap"), fig, title))
        if len(facets) > MAX_FACETS:
            sec.text.append(f"The first {MAX_FACETS} of {len(facets)} heat maps are shown.")
        if not rest:
            series = {}
            for v in ctx.labels[cols]:
                sub = ctx.table[ctx.key(cols) == v]
                p = _grid(ctx, sub, rows, cols, f"p_{side}")[:, ctx.labels[cols].index(v)]
                lo = _grid(ctx, sub, rows, cols, f"lo_{side}")[:, ctx.labels[cols].index(v)]
                hi = _grid(ctx, sub, rows, cols, f"hi_{side}")[:, ctx.labels[cols].index(v)]
                series[f"{cols} = {v}"] = (p, lo, hi)
            title = f"P({side} wins) by {rows}, one line per {cols}"
            fig = figures.intervals(ctx.labels[rows], series, title=title, x_label=rows,
                                    y_label=scale, note=ctx.note)
            sec.pictures.append(Picture(ctx.name("win-rates"), fig, title))
    elif len(axes) == 1 or not ctx.rr:
        axis = axes[0] if axes else None
        x = ctx.labels[axis] if axis else ["(one cell)"]
        order = _ordered(ctx, ctx.table, axis)
        series = {o: tuple(order[f"{k}_{o}"].to_numpy() for k in ("p", "lo", "hi"))
                  for o in ctx.outcomes if o != "draw" or order["p_draw"].max() > 0}
        title = f"Outcome probabilities by {axis}" if axis else "Outcome probabilities"
        fig = figures.intervals(x, series, title=title, x_label=axis or "", y_label="P, %",
                                note=ctx.note)
        sec.pictures.append(Picture(ctx.name("win-rates"), fig, title))
    else:
        sec.text.append("See the round robin above.")
    return sec


def _ordered(ctx: _Context, sub: pd.DataFrame, axis: str | None) -> pd.DataFrame:
    if axis is None:
        return sub
    rank = {v: i for i, v in enumerate(ctx.labels[axis])}
    return sub.iloc[np.argsort([rank[v] for v in sub[axis].astype(str)], kind="stable")]


def _groups(ctx: _Context) -> tuple[str | None, list[tuple[str, pd.DataFrame]]]:
    """Cells grouped by the first axis (pooled over the others), or one group per cell."""
    if len(ctx.table) <= 8:
        return None, [(_cell_label(ctx, r), ctx.table.iloc[[i]])
                      for i, (_, r) in enumerate(ctx.table.iterrows())]
    axis = ctx.axes[0]
    if len(ctx.labels[axis]) > MAX_GROUPS:
        return axis, []
    return axis, [(v, ctx.table[ctx.key(axis) == v]) for v in ctx.labels[axis]]


def _cell_label(ctx: _Context, row: pd.Series) -> str:
    return ", ".join(f"{a}={row[a]}" for a in ctx.axes) or "all trials"


def _rounds_section(ctx: _Context) -> Section:
    sec = Section("Rounds to a decision", [
        "The round in which one side was left standing (a draw by time counts at the round "
        "limit)."])
    axis, groups = _groups(ctx)
    if groups:
        hists = {}
        for label, sub in groups:
            hist = _pool([ctx.tallies[c].rounds for c in sub["cell"]])
            hists[str(label) if axis is None else f"{axis} = {label}"] = hist
        title = "Rounds to a decision" + (f" by {axis} (pooled over the other axes)" if axis
                                          else "")
        fig = figures.distributions(hists, title=title, x_label="round decided",
                                    y_label="share of fights, %", note=ctx.plain_note)
        sec.pictures.append(Picture(ctx.name("rounds"), fig, title))
        title = "Fights still open after each round" + (f" by {axis}" if axis else "")
        fig = survival_figure(hists, title=title, note=ctx.plain_note + " The area under a "
                              "curve is the mean length.")
        sec.pictures.append(Picture(ctx.name("survival"), fig, title))
    axes = ctx.axes
    if len(axes) >= 2:
        rows, cols = (ctx.rr if ctx.rr else axes[:2])
        for caption, sub in _facets(ctx, [a for a in axes if a not in (rows, cols)])[:4]:
            title = f"Mean rounds to a decision: {rows} × {cols}" + \
                (f" ({caption})" if caption else "")
            fig = figures.heatmap(_grid(ctx, sub, rows, cols, "rounds_mean"), ctx.labels[rows],
                                  ctx.labels[cols], title=title, row_label=rows, col_label=cols,
                                  scale_label="mean rounds", centre=None, percent=False,
                                  note=ctx.plain_note)
            sec.pictures.append(Picture(ctx.name("rounds-mean"), fig, title))
    rows = [[*(str(r[a]) for a in axes), f"{r['rounds_mean']:.2f}", str(r["rounds_p50"]),
             str(r["rounds_p95"])] for _, r in ctx.table.iterrows()]
    sec.tables.append(Table("", [*axes, "mean", "median", "95th percentile"], rows))
    return sec


def _pool(hists: list[np.ndarray]) -> np.ndarray:
    """Histograms added up (padded to the longest: cells may differ in max_rounds); an
    exact sweep's are probabilities (each cell weighs alike), a sampled one's counts."""
    out = np.zeros(max(h.size for h in hists), dtype=np.result_type(np.int64, *hists))
    for h in hists:
        out[:h.size] += h
    return out


def _casualty_section(ctx: _Context) -> Section:
    sec = Section("Casualties", ["Mean fighters per side not standing at the end (dead, "
                                 "unconscious, yielded or fled), and dead."])
    axis, groups = _groups(ctx)
    if groups:
        labels, series = [], {f"{s}: fallen": [] for s in ctx.sides}
        for label, sub in groups:
            labels.append(str(label))
            w = sub["trials"].to_numpy(dtype=float)
            for s in ctx.sides:
                series[f"{s}: fallen"].append(float(np.average(sub[f"fallen_{s}"], weights=w)))
        title = "Fighters fallen per side" + (f" by {axis}" if axis else "")
        fig = figures.bars(labels, {k: np.array(v) for k, v in series.items()}, title=title,
                           x_label=axis or "cell", y_label="fighters (mean per fight)",
                           note=ctx.plain_note)
        sec.pictures.append(Picture(ctx.name("casualties"), fig, title))
    header = [*ctx.axes, *(f"{s} fallen" for s in ctx.sides), *(f"{s} dead" for s in ctx.sides)]
    rows = [[*(str(r[a]) for a in ctx.axes), *(f"{r[f'fallen_{s}']:.2f}" for s in ctx.sides),
             *(f"{r[f'dead_{s}']:.2f}" for s in ctx.sides)] for _, r in ctx.table.iterrows()]
    sec.tables.append(Table("", header, rows))
    return sec


def _cells_section(ctx: _Context) -> Section:
    """Every cell: swept values, each outcome's probability with its interval, rounds, n."""
    header = [*ctx.axes, *(f"{o} % [95% CI]" for o in ctx.outcomes), "mean rounds", "trials"]
    rows = []
    for _, r in ctx.table.iterrows():
        rows.append([*(str(r[a]) for a in ctx.axes),
                     *(f"{100 * r[f'p_{o}']:.1f} [{100 * r[f'lo_{o}']:.1f}, "
                       f"{100 * r[f'hi_{o}']:.1f}]" for o in ctx.outcomes),
                     f"{r['rounds_mean']:.2f}", f"{int(r['trials']):,}"])
    return Section("Cells", tables=[Table("", header, rows)])
