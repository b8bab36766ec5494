"""Run a whole budget: every claim judged, one line each, a Markdown and JSON record."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from balance import __version__
from balance.errors import ScenarioError
from balance.gate.budget import LoadedBudget, read_budget
from balance.gate.check import ClaimResult, _fmt, check_claim, prepare_budget
from balance.io import jsonout
from balance.io.atomic import new_directory
from balance.io.store import git_commit, now_iso
from balance.report.document import markdown_table
from balance.sweep.executors import open_executor


@dataclass(frozen=True)
class BudgetResult:
    """Every claim's result, and the budget they came from."""

    budget: LoadedBudget
    claims: list[ClaimResult]
    started: str
    finished: str
    sets: tuple[Any, ...] = ()       # balance check --set: changes to every claim's scenario
    seconds: tuple[float, ...] = ()  # wall time each claim took (JUnit's time)

    @property
    def failed(self) -> bool:
        return any(c.verdict == "fail" for c in self.claims)

    @property
    def inconclusive(self) -> bool:
        return any(c.verdict == "inconclusive" for c in self.claims)

    def counts(self) -> dict[str, int]:
        return {v: sum(c.verdict == v for c in self.claims)
                for v in ("pass", "fail", "inconclusive")}


def check_budget(path: str | os.PathLike, *, executor: str | Executor = "local",
                 scheduler: str | None = None, workers: int | None = None,
                 seed: int | None = None, max_trials: int | None = None,
                 on_claim: Callable[[ClaimResult], None] | None = None,
                 on_cell: Callable[[int, Any], None] | None = None,
                 sets: Any = (), prepared: tuple[LoadedBudget, list] | None = None
                 ) -> BudgetResult:
    """Judge every claim of the budget file at ``path`` (see :mod:`balance.gate.check`).

    ``max_trials`` overrides every claim's cap on trials per cell; ``on_claim`` sees each
    judged claim, ``on_cell`` (claim index, cell) each cell's look as it finishes; ``sets``
    (``--set`` overrides) change every claim's scenario after its own ``set:``; ``prepared``
    is :func:`prepare_all`'s answer when the caller has it already."""
    # every mistake before any fight runs (``prepared``: prepare_all's, done already)
    budget, prepared = prepared if prepared is not None else prepare_all(path, sets)
    started = now_iso()
    results, seconds = [], []
    if isinstance(executor, Executor):
        pool_ctx = None
    else:
        pool_ctx = open_executor(executor, scheduler=scheduler, workers=workers)
    with pool_ctx or _Given(executor) as (pool, _):
        for i in range(len(budget.model.claims)):
            clock = time.perf_counter()
            result = check_claim(budget, i, executor=pool, seed=seed, max_trials=max_trials,
                                 prepared=prepared[i],
                                 on_cell=None if on_cell is None else
                                 (lambda cell, i=i: on_cell(i, cell)))
            results.append(result)
            seconds.append(time.perf_counter() - clock)
            if on_claim is not None:
                on_claim(result)
    return BudgetResult(budget, results, started, now_iso(), tuple(sets), tuple(seconds))


def rounding_notes(budget: LoadedBudget) -> list[str]:
    """Where the budget's trial counts are not whole blocks: a cell plays whole blocks of
    16,384 trials (the first look rounded up, the cap down), and the gate says so."""
    from balance.sweep.run import SWEEP_BLOCK_TRIALS as BLOCK

    notes = []
    b = budget.model
    for where, first, cap in [("the budget", b.trials, b.max_trials),
                              *((f"claim {i + 1}", c.trials, c.max_trials)
                                for i, c in enumerate(b.claims) if c is not None)]:
        if where != "the budget" and first is None and cap is None:
            continue
        if first is not None and first % BLOCK:
            up = -(-first // BLOCK) * BLOCK
            notes.append(f"{where}: trials {first:,} rounded up to {up:,} per cell (whole "
                         f"blocks of {BLOCK:,})")
        if cap is not None and cap % BLOCK:
            down = max(BLOCK, cap // BLOCK * BLOCK)
            notes.append(f"{where}: max_trials {cap:,} rounded to {down:,} per cell (whole "
                         f"blocks of {BLOCK:,})")
    return notes


def prepare_all(path: str | os.PathLike, sets: Any = ()) -> tuple[LoadedBudget, list]:
    """The budget and every claim prepared, or one :class:`ScenarioError` with every problem
    of the file and of its claims' scenarios, in one pass (the budget's own mistakes, each
    claim's paths, sides and values, and what only the compiled fighters show)."""
    budget, problems, good = read_budget(path)
    try:
        prepared = prepare_budget(budget, sets, good)
    except ScenarioError as err:
        problems = [*problems, *err.problems]
        prepared = []
    if problems:
        raise ScenarioError(sorted(dict.fromkeys(problems),
                                   key=lambda p: (p.line is None, p.line or 0, p.column or 0)))
    return budget, prepared


class _Given:
    def __init__(self, executor: Executor):
        self.executor = executor

    def __enter__(self):
        return self.executor, None

    def __exit__(self, *exc: object) -> None:
        return None


def to_markdown(result: BudgetResult) -> str:
    """The budget's results as Markdown (for CI job summaries)."""
    b = result.budget.model
    c = result.counts()
    mark = {"pass": "✅ pass", "fail": "❌ fail", "inconclusive": "⚠️ inconclusive"}
    rows = []
    for r in result.claims:
        w = r.worst
        show = _fmt(r.percent, r.claim.difference is not None)
        rows.append([str(r.number), r.claim.claim, mark[r.verdict],
                     f"{show(w.value)} [{show(w.low)}, {show(w.high)}]",
                     r.claim.describe_bounds(r.percent, r.claim.difference is not None),
                     w.cell, str(len(r.cells)),
                     f"{w.trials:,}", f"{100 * r.level:.4g}%"])
    lines = [f"# Balance budget: {b.name}", "",
             f"**{c['pass']} passed, {c['fail']} failed, {c['inconclusive']} inconclusive** "
             f"({result.budget.path}, seed {b.seed}, balance {__version__}, "
             f"git {git_commit() or 'n/a'})", ""]
    lines += [f"Note: {n}." for n in rounding_notes(result.budget)]
    if rounding_notes(result.budget):
        lines.append("")
    if result.sets:
        lines += ["Every claim's scenario changed on the command line: " +
                  ", ".join(f"`--set {o.text}`" for o in result.sets), ""]
    if b.description:
        lines += [b.description.strip(), ""]
    lines += [markdown_table(["#", "claim", "result", "value [interval]", "bound",
                              "worst cell", "cells", "trials", "confidence"], rows), ""]
    lines += _details(result)
    lines += ["Each value is the cell closest to its bound (or the worst failing cell). "
              "Intervals are at the confidence shown: the budget's "
              f"{100 * b.confidence:g}% split over the claim's cells and looks, so noise alone "
              "rarely fails a claim. Inconclusive claims got more trials up to the cap; they "
              "need a larger max_trials or a bound further from the truth.", ""]
    return "\n".join(lines)


def _details(result: BudgetResult) -> list[str]:
    """A section per failed or inconclusive claim: every failing (undecided) cell with its
    value, interval and bound, the claim's ``set:`` changes, and what to do."""
    lines = []
    for r in result.claims:
        if r.verdict == "pass":
            continue
        cells = r.failing if r.verdict == "fail" else r.undecided
        word = "failing" if r.verdict == "fail" else "undecided"
        lines += [f"### Claim {r.number} ({r.verdict}): {r.claim.claim}", ""]
        if r.claim.set:
            lines += [f"Scenario changed by `set:` {r.overrides()}", ""]
        noun = "cell" if len(r.cells) == 1 else "cells"
        lines += [f"{len(cells)} of {len(r.cells)} {noun} {word}; bound {r.bound_text()}.", ""]
        lines += [markdown_table(["cell", "value [interval]", "bound", "trials"],
                                 [[c.cell, r.evidence(c), r.bound_text(), f"{c.trials:,}"]
                                  for c in cells]), ""]
        if r.verdict == "inconclusive":
            lines += [r.advice()[0].upper() + r.advice()[1:] + ".", ""]
    return lines


def to_dict(result: BudgetResult) -> dict[str, Any]:
    b = result.budget.model
    return {
        "budget": b.name, "path": result.budget.path, "seed": b.seed,
        "confidence": b.confidence, "started": result.started, "finished": result.finished,
        "package_version": __version__, "git_commit": git_commit(), "counts": result.counts(),
        "set": [o.to_dict() for o in result.sets],
        "notes": rounding_notes(result.budget),
        "claims": [{"number": r.number, "claim": r.claim.claim, "verdict": r.verdict,
                    "metric": r.claim.metric, "side": r.claim.side, "set": r.claim.set,
                    "bounds": list(r.claim.bounds), "difference": r.claim.difference is not None,
                    "cell_confidence": r.level, "looks": r.looks, **r.extra,
                    **({"advice": r.advice()} if r.verdict == "inconclusive" else {}),
                    "cells": [vars(v) for v in r.cells]} for r in result.claims],
    }


def write_results(result: BudgetResult, out: str | os.PathLike) -> Path:
    """``check.md`` and ``check.json`` into ``out`` (replaced whole)."""
    out = Path(out)
    with new_directory(out) as tmp:
        (tmp / "check.md").write_text(to_markdown(result), encoding="utf-8")
        (tmp / "check.json").write_text(jsonout.dumps(to_dict(result), indent=2)
                                        + "\n", encoding="utf-8")
        os.chmod(tmp, 0o755)
    return out
