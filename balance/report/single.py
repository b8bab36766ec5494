"""The report of one run (``balance run FILE --report DIR``): the same offline HTML and
Markdown as a sweep's report, for a single scenario.

Results first, provenance last: a headline (who wins how often, with its interval), the
outcome bars with their Wilson 95% intervals, how long fights last (the survival curve and
the rounds to a decision), how each fighter ended, the per-fighter breakdown (attacks,
hits, damage dealt and soaked, fumbles, criticals, rounds standing: ``balance run
--breakdown``), the run's provenance, and the scenario text as run. An exact run
(``--engine exact``) shows its probabilities without intervals.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

import numpy as np

from balance.engine.run import BLOCK_TRIALS
from balance.report import figures
from balance.report.document import Document, Picture, Section, Table
from balance.report.survival import survival_figure
from balance.result import RunResult

BREAKDOWN_TITLE = "Per-fighter breakdown"
BREAKDOWN_PLACEHOLDER = (
    "This run did not count what each fighter did: run it with --breakdown (balance.run(..., "
    "breakdown=True)) for the attacks made, hits, damage dealt and soaked, fumbles, criticals "
    "and rounds standing of each fighter, as means per fight with 95% intervals.")


def pct(p: float) -> str:
    """A probability as a percent with two decimals (an interval's ends never print alike:
    ``14.02%–14.61%``, not ``14–15%``)."""
    return f"{100 * p:.2f}%"


def headline(result: RunResult) -> str:
    """Who wins how often, in one sentence: the likeliest outcome first, with its interval."""
    ci = result.ci95
    ranked = sorted(result.outcomes.items(), key=lambda kv: -kv[1])
    top, p = ranked[0]
    lo, hi = ci[top]
    span = " (exact)" if result.exact else f" (95% interval {pct(lo)}–{pct(hi)})"
    first = ("The fight is a draw" if top == "draw" else f"{top} wins") + \
        f" {pct(p)} of fights{span}"
    rest = ", ".join(f"{'draws' if k == 'draw' else k} {pct(v)}" for k, v in ranked[1:])
    r = result.rounds
    return (f"{first}; {rest}. Fights are decided in {r['mean']:.2f} rounds on average "
            f"(median {r['p50']}, 95th percentile {r['p95']}).")


def run_document(result: RunResult, *, scenario_text: str = "", source: str = "") -> Document:
    """The whole report of one run."""
    note = (f"{result.ruleset}, exact (the exact engine)." if result.exact else
            f"{result.ruleset}, {result.trials:,} trials, seed {result.seed}.")
    doc = Document(f"{result.scenario}: run report", lead=[headline(result), _stamp(result)])
    doc.sections += [_outcomes(result, note), _lengths(result, note), _fighters(result),
                     _breakdown(result), _provenance(result, source), _scenario(scenario_text)]
    return doc


def _breakdown(result: RunResult) -> Section:
    """What each fighter did, per fight (mean and 95% interval), or how to ask for it."""
    rows_of = result.breakdown
    if rows_of is None:
        return Section(BREAKDOWN_TITLE, [BREAKDOWN_PLACEHOLDER])
    from balance.engine.breakdown import METRICS

    shown = [m for m in METRICS if m in result.counted]
    rows = [[name, *(f"{row[m]['mean']:.2f} ({row[m]['ci95'][0]:.2f}–{row[m]['ci95'][1]:.2f})"
                     for m in shown)] for name, row in rows_of.items()]
    missing = [m.replace("_", " ") for m in METRICS if m not in result.counted]
    text = ["Per fighter, the mean per fight of what it did, with its 95% interval."]
    if missing:
        text.append(f"Not counted by the {result.ruleset} rules: {', '.join(missing)}.")
    return Section(BREAKDOWN_TITLE, text,
                   tables=[Table("", ["fighter", *(m.replace("_", " ") for m in shown)],
                                 rows)])


def _stamp(result: RunResult) -> str:
    from balance import __version__
    from balance.io.store import git_commit

    git = git_commit()
    about = "exact" if result.exact else f"seed {result.seed}, {result.trials:,} trials"
    return (f"balance {__version__}" + (f" (git {git[:12]})" if git else "") +
            f", {result.ruleset}, {about}.")


def _outcomes(result: RunResult, note: str) -> Section:
    names = list(result.outcome_names)
    p = np.array([result.outcomes[k] for k in names])
    lo = np.array([result.ci95[k][0] for k in names])
    hi = np.array([result.ci95[k][1] for k in names])
    fig = figures.outcome_bars(names, p, lo, hi, title="Who wins",
                               note=note + " Error bars are Wilson 95% intervals.")
    if result.exact:
        rows = [[k, pct(result.outcomes[k])] for k in names]
        return Section("Outcomes", ["Each outcome's exact probability (the exact engine)."],
                       pictures=[Picture("01-outcomes.png", fig, "outcome probabilities")],
                       tables=[Table("", ["outcome", "p"], rows)])
    rows = [[k, f"{int(w):,}", pct(result.outcomes[k]),
             f"{pct(result.ci95[k][0])}–{pct(result.ci95[k][1])}"]
            for k, w in zip(names, result.tally.wins, strict=True)]
    return Section("Outcomes", ["Each outcome's share of the trials with its Wilson 95% "
                                "interval."],
                   pictures=[Picture("01-outcomes.png", fig, "outcome probabilities with "
                                     "95% intervals")],
                   tables=[Table("", ["outcome", "fights", "p", "95% interval"], rows)])


def _lengths(result: RunResult, note: str) -> Section:
    fig = survival_figure({result.scenario: result.tally.rounds},
                          title="Fights still open after each round", note=note)
    r = result.rounds
    curve = result.survival
    last = max((k for k, s in enumerate(curve) if s >= 0.005), default=0)
    rows = [[str(k), f"{100 * curve[k]:.1f}%"] for k in range(last + 1)]
    return Section("How long fights last",
                   [f"Rounds to a decision: mean {r['mean']:.2f}, median {r['p50']}, 95th "
                    f"percentile {r['p95']} (a draw by time counts as the round limit). The "
                    "curve is the share of fights still open after each round; the table "
                    "gives every round up to the last with 0.5% or more open."],
                   pictures=[Picture("02-survival.png", fig, "survival curve")],
                   tables=[Table("", ["after round", "still open"], rows)])


def _fighters(result: RunResult) -> Section:
    from balance.engine.status import STATUS_NAMES

    status = result.fighter_status
    rows = [[name, result.side_names[int(result.side_of[i])],
             *(pct(status[name].get(s, 0.0)) for s in STATUS_NAMES)]
            for i, name in enumerate(result.fighter_names)]
    text = ["How each fighter ended: the share of fights in each final status."]
    tables = [Table("", ["fighter", "side", *STATUS_NAMES], rows)]
    if max(result.side_sizes) > 1:
        srows = [[side, f"{sv['mean']:.2f} of {size}"] for (side, sv), size in
                 zip(result.survivors.items(), result.side_sizes, strict=True)]
        tables.append(Table("Fighters standing at the end (mean)", ["side", "standing"],
                            srows))
    return Section("How each fighter ended", text, tables=tables)


def _provenance(result: RunResult, source: str) -> Section:
    from balance import __version__
    from balance.io.store import git_commit

    rows = [["scenario", result.scenario], ["rule system", result.ruleset],
            ["source", source or "(in memory)"], ["trials", f"{result.trials:,}"],
            ["seed", str(result.seed)], ["block size", f"{BLOCK_TRIALS:,}"],
            ["engine", result.engine], ["balance", f"{__version__} (git "
                                                   f"{git_commit() or 'n/a'})"],
            ["python", platform.python_version()], ["numpy", np.__version__]]
    return Section("Run", ["Block b of the trials draws from PCG64(SeedSequence(seed, "
                           "spawn_key=(b,))): the same seed and trial count give the same "
                           "numbers on any machine."],
                   tables=[Table("", ["", "value"], rows)])


def _scenario(text: str) -> Section:
    if not text:
        return Section("Scenario", ["The scenario was given in memory; no file text."])
    language = "json" if text.lstrip().startswith("{") else "yaml"
    return Section("Scenario", ["The scenario file as run."], code=[(language, text)])


def write_run_report(result: RunResult, out: str | os.PathLike, *, scenario_text: str = "",
                     source: str = "") -> Path:
    """Write ``report.html``, ``report.md`` and the PNG figures of one run to ``out``
    (replaced whole, like every folder the lab writes)."""
    from balance.report.build import write_document

    target = Path(out)
    write_document(run_document(result, scenario_text=scenario_text, source=source), target)
    return target
