"""Reports of the metagame and of autobalance: findings in sentences, the matrix as a heat
map ordered by equilibrium weight, the mix as a bar chart, and the tables behind them."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from balance.analysis.games import SAME_WEIGHT
from balance.analysis.matrix import Matrix
from balance.analysis.metagame import Metagame
from balance.io.atomic import new_directory
from balance.report import figures
from balance.report.document import Document, Picture, Section, Table, to_html, to_markdown
from balance.report.figures import span_text


def pct(x: float | None, digits: int = 1) -> str:
    return "—" if x is None or not np.isfinite(x) else f"{100 * x:.{digits}f}"


def source_note(m: Matrix) -> str:
    """One line of provenance for figure footnotes."""
    s = m.source
    if s.get("kind") == "matrix":
        return f"Matrix from {s.get('path', 'a CSV file')} (no intervals)."
    per = s.get("trials_per_cell")
    if s.get("exact"):
        return f"{s.get('ruleset')}, every cell exact (the exact engine)."
    note = (f"{s.get('ruleset')}, {per:,} trials per cell, seed {s.get('seed')}." if per
            else f"{s.get('ruleset')}, seed {s.get('seed')}.")
    return note + (" Common random numbers." if s.get("crn") else "")


def matrix_heatmap(m: Matrix, order: Sequence[int], title: str, note: str = ""):
    """The score matrix as a heat map, options in the given order."""
    sub = m.subset(list(order))
    return figures.heatmap(sub.score, sub.options, sub.options, title=title,
                           row_label="option", col_label="opponent's option",
                           scale_label="row's win rate, %", note=note, low=sub.low,
                           high=sub.high)


def mix_figure(g: Metagame, note: str = "", title: str = "Equilibrium mix"):
    """The equilibrium mix as a bar chart, options by weight."""
    order = g.order()
    return figures.bars([g.options[i] for i in order],
                        {"weight in the equilibrium": 100 * g.equilibrium.mix[order]},
                        title=title, x_label="option", y_label="weight, %", note=note)


def metagame_document(g: Metagame, title: str | None = None) -> Document:
    """The report of ``balance metagame``."""
    m, eq = g.matrix, g.equilibrium
    names = g.options
    order = g.order()
    note = source_note(m)
    doc = Document(title or f"{m.source.get('scenario') or 'Matrix'}: metagame")
    how = ("A draw counts as half a win" if m.draws == "half" else "A draw counts as a loss "
           "for both") + ("; both seatings pooled." if m.seat is None else
                          f"; the row option always sits on side {m.seat}.")
    doc.sections.append(Section("Findings", [*g.findings, how]))
    mix = Section("Equilibrium mix", [
        "The mix no opponent can exploit, solved exactly as a linear program; each option's "
        "payoff is its win rate against that mix. Restricted play: the best guaranteed win "
        "rate of a player forbidden the option, and what that costs."])
    mix.pictures.append(Picture("01-mix.png", mix_figure(g, note), "Equilibrium mix"))
    rows = []
    for i in order:
        span = "" if eq.high[i] - eq.low[i] <= SAME_WEIGHT else \
            span_text(100 * eq.low[i], 100 * eq.high[i], 1)
        rows.append([names[i], pct(eq.mix[i]), span or "—", pct(eq.payoff[i]),
                     pct(g.without[i]), f"{100 * (eq.value - g.without[i]):.1f}"])
    mix.tables.append(Table(f"Value {pct(eq.value)}%", ["option", "weight %", "range %",
                                                         "payoff vs mix %",
                                                         "value without it %",
                                                         "cost of forbidding it, points"],
                            rows))
    doc.sections.append(mix)
    title = "Row's win rate against column, by equilibrium weight"
    heat = Section("Matrix", ["Options ordered by equilibrium weight, then payoff."
                              + (" Cells show the 95% interval under the value."
                                 if m.low is not None else "")])
    heat.pictures.append(Picture("02-matrix.png", matrix_heatmap(m, order, title, note), title))
    doc.sections.append(heat)
    if g.dominated:
        rows = [[d.option, "strict" if d.strict else "weak",
                 ", ".join(f"{o} {pct(w, 0)}%" if not d.pure else o for o, w in d.by.items()),
                 f"{100 * d.margin:.1f}",
                 {True: "yes", False: "no", None: "—"}[d.survives]] for d in g.dominated]
        doc.sections.append(Section("Dominated options", [
            "An option is dominated when another option (or a mix) does at least as well "
            "against every opponent option, and better against some (strictly: better "
            "against all). 'Confirmed': every margin's 95% interval agrees."],
            tables=[Table("", ["option", "kind", "dominated by", "smallest margin, points",
                               "confirmed"], rows)]))
    if g.cycles:
        rows = [[" > ".join([*c, c[0]]),
                 ", ".join(pct(m.at(a, b)) for a, b in ((c[0], c[1]), (c[1], c[2]),
                                                        (c[2], c[0])))] for c in g.cycles]
        doc.sections.append(Section("Intransitive cycles", [
            "Each 'beats' is significant (Holm-corrected over every pair, 5%)."
            if g.cycles_tested else "Judged on the values as given (no intervals)."],
            tables=[Table("", ["cycle", "win rates %"], rows)]))
    rows = [[str(r["rank"]), r["option"], pct(r["payoff"]), pct(r["weight"])]
            for r in g.ranking()]
    doc.sections.append(Section("Ranking", ["By payoff against the equilibrium mix."],
                                tables=[Table("", ["rank", "option", "payoff %", "weight %"],
                                              rows)]))
    doc.sections.append(_source_section(m))
    return doc


def _source_section(m: Matrix) -> Section:
    rows = [[str(k), "—" if v is None else str(v)] for k, v in m.source.items()]
    return Section("Source", tables=[Table("", ["", "value"], rows)])


def autobalance_document(result: Any) -> Document:
    """The report of ``balance autobalance``: before and after heat maps, the values."""
    before, after = result.before, result.after
    doc = Document(f"{result.scenario}: autobalance")
    doc.sections.append(Section("Result", result.summary()))
    rows = [[p, f"{result.start[p]:g}", f"{result.values[p]:g}", f"{lo:g}–{hi:g}"]
            for p, (lo, hi) in result.bounds.items()]
    doc.sections.append(Section("Values", [
        "tables.yaml beside this report holds the suggested rows, ready to paste under the "
        "scenario's tables: block."], tables=[Table("", ["field", "before", "suggested",
                                                        "searched"], rows)]))
    sec = Section("Before and after", [
        "Both measured on the same fresh random numbers (streams the search never used), "
        f"{result.trials:,} trials per cell, seed {result.seed}."])
    for stem, label, measured in (("01-before", "Before", before), ("02-after", "After", after)):
        title = f"{label}: row's win rate against column (max deviation " \
                f"{100 * measured.max_abs_dev:.1f} points)"
        sec.pictures.append(Picture(f"{stem}.png", matrix_heatmap(
            measured.matrix, range(len(measured.matrix.options)), title,
            source_note(measured.matrix)), title))
    doc.sections.append(sec)
    doc.sections.append(Section("Search", tables=[Table("", ["", "value"], [
        [k, str(v)] for k, v in result.search_info().items()])]))
    return doc


def write_bundle(doc: Document, target: Path, extra: Mapping[str, str]) -> None:
    """The document's PNGs, HTML and Markdown, plus ``extra`` text files, into ``target``
    (replaced whole); the Markdown also goes to the CI job summary when one is set."""
    from balance.report.build import append_step_summary

    with new_directory(target) as tmp:
        for sec in doc.sections:
            for pic in sec.pictures:
                (tmp / pic.name).write_bytes(pic.render())
        (tmp / "report.html").write_text(to_html(doc), encoding="utf-8")
        (tmp / "report.md").write_text(to_markdown(doc), encoding="utf-8")
        for name, text in extra.items():
            (tmp / name).write_text(text, encoding="utf-8")
        os.chmod(tmp, 0o755)
    append_step_summary(to_markdown(doc, images=False))
