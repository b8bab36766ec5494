"""Run a sweep: plan the cells, hand them to an executor, save each as it finishes, and write
the results folder whole at the end.

Each cell draws from ``block_rng(seed, b, cell=stream)``, its stream key made from its own
swept values, so the table is identical under every executor, worker count and order, and a
resumed sweep equals an uninterrupted one.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from balance import __version__
from balance.errors import MAX_SEED, MAX_TRIALS, OptionError, check_count
from balance.io.atomic import check_replaceable
from balance.io.store import (
    Partial,
    git_commit,
    now_iso,
    sha256_text,
    tally_from_dict,
    tally_to_dict,
    write_run,
)
from balance.sweep.executors import ExecutorInfo, as_finished, check_executor, open_executor
from balance.sweep.plan import Plan, load_plan
from balance.sweep.table import add_deltas, build_table
from balance.sweep.task import CellJob, CellResult, run_cell

SWEEP_BLOCK_TRIALS = 16_384
DEFAULT_MAX_TRIALS = 1_048_576
_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


@dataclass(frozen=True)
class SweepResult:
    """A finished sweep: the tidy table, where it was written, its manifest and raw counts."""

    table: Any                       # pandas DataFrame
    manifest: dict[str, Any]
    tallies: dict[str, dict[str, Any]]
    run_dir: Path | None
    plan: Plan


def run_sweep(source: Any, *, trials: int | None = None, seed: int | None = None,
              precision: float | None = None, max_trials: int | None = None,
              block_trials: int = SWEEP_BLOCK_TRIALS, crn: bool | list[str] | None = None,
              sweep: Mapping[str, Any] | None = None, baseline: Any = None,
              executor: str | Executor = "local", scheduler: str | None = None,
              workers: int | None = None, out: str | os.PathLike | None = "results",
              run_id: str | None = None, resume: bool = False, progress: bool = False,
              on_cell: Callable[[CellResult], None] | None = None,
              engine: str = "auto", breakdown: bool = False) -> SweepResult:
    """Run every cell of a scenario's sweep and return (and, with ``out``, store) the table.

    ``source`` is a sweep file, a mapping, or a :class:`Plan`. ``trials``/``seed`` override
    the scenario's; ``precision`` runs each cell in blocks until every outcome's 95% interval
    half-width is at most that (up to ``max_trials``). ``crn`` overrides the file's common
    random numbers; ``baseline`` (a cell index or ``{axis: value}``) its baseline, the cell
    every other is compared with (``delta_*`` columns). ``executor`` is ``local``,
    ``processes``, ``dask`` or an Executor you made. ``out=None`` keeps the results in
    memory. ``on_cell`` sees each finished cell. ``engine``: ``auto`` (default) solves every
    cell exactly when the exact engine covers every cell (duels; docs/exact.md: intervals of
    width 0, ``trials`` 0 and an ``exact`` column in the table), else plays them all by Monte
    Carlo (the manifest's ``engine_note`` says why); ``exact`` insists; ``vector`` samples.
    ``breakdown`` counts what each fighter did in every cell (``balance.engine.breakdown``:
    attacks, hits, damage, ...) into ``bd_<fighter>_<metric>`` columns with their 95%
    intervals (``_lo``, ``_hi``); it plays every cell by Monte Carlo.
    """
    plan = source if isinstance(source, Plan) else load_plan(source, sweep=sweep, crn=crn,
                                                             baseline=baseline)
    model = plan.base.model
    seed = _count("seed", model.seed if seed is None else seed, 0)
    block_trials = _count("block_trials", block_trials, 1)
    if precision is not None:
        if isinstance(precision, bool) or not isinstance(precision, int | float) or \
                not 0 < precision < 0.5:
            raise OptionError(f"precision must be a number between 0 and 0.5 (a half-width "
                              f"such as 0.01), got {precision!r}")
        max_trials = _count("max_trials", DEFAULT_MAX_TRIALS if max_trials is None else max_trials,
                            block_trials)
        trials = None
    else:
        if max_trials is not None:
            raise OptionError("max_trials caps adaptive precision; give precision too")
        trials = _count("trials", model.trials if trials is None else trials, 1)
    run_id = _run_id(run_id, plan)
    if breakdown and engine == "exact":
        raise OptionError("a breakdown counts what happens in sampled fights: use --engine "
                          "auto or vector with --breakdown")
    if not isinstance(executor, Executor):
        check_executor(executor, scheduler, workers)
    if resume and out is None:
        raise OptionError("resume needs the results folder (out) of the interrupted run")
    if out is not None:
        if Path(out).exists() and not Path(out).is_dir():
            raise OptionError(f"{out}: is a file; the results folder (--out) must be a folder")
        check_replaceable(Path(out) / run_id)   # before any cell runs, not after
    fingerprint = {"scenario_sha256": sha256_text(_scenario_text(plan)), "seed": seed,
                   "trials": trials, "precision": precision, "max_trials": max_trials,
                   "block_trials": block_trials, "crn": list(plan.crn),
                   "baseline": plan.baseline.id if plan.baseline else None,
                   "version": __version__}
    fights = plan.compile()     # a problem of any cell stops the sweep before it starts
    engine, engine_note = _engine_for(plan, fights, "vector" if breakdown else engine)
    if breakdown:
        engine_note = "Monte Carlo: a breakdown counts sampled fights"
        fingerprint["breakdown"] = True
    fingerprint["engine"] = engine
    partial = Partial(out, run_id, fingerprint, resume=resume) if out is not None else None
    done = partial.finished() if partial is not None else {}
    started = now_iso()
    clock = time.perf_counter()
    jobs = [CellJob(c.id, plan.ruleset, fights[c.id], seed, c.stream, block_trials, trials,
                    precision, max_trials or 0, engine=engine, breakdown=breakdown)
            for c in plan.cells]
    records = {cid: rec for cid, rec in done.items() if cid in fights}
    if engine == "vector":        # exact cells need no shared streams with a baseline
        jobs = _paired_jobs(plan, jobs, records, partial, on_cell)
    else:
        jobs = [j for j in jobs if j.cell_id not in records]
    if isinstance(executor, Executor):
        ctx = _given(executor, workers)
    else:
        ctx = open_executor(executor, scheduler=scheduler, workers=workers)
    try:
        with ctx as (pool, info):
            _drive(pool, jobs, records, partial, plan, progress, on_cell)
    except BaseException:
        if partial is not None and not resume and len(records) == len(done):
            partial.remove()        # nothing finished: leave nothing behind
        raise
    tallies = {cid: tally_from_dict(rec["tally"]) for cid, rec in records.items()}
    table = build_table(plan.axes, plan.cells, tallies,
                        {cid: rec["blocks"] for cid, rec in records.items()},
                        side_names=plan.side_names,
                        side_of={cid: f.side_of for cid, f in fights.items()}, seed=seed,
                        adaptive=None if precision is None else
                        {cid: rec["precision_met"] for cid, rec in records.items()},
                        breakdown=None if not breakdown else
                        {cid: (f.fighter_names, _counted(plan.ruleset))
                         for cid, f in fights.items()})
    if plan.baseline is not None:
        add_deltas(table, plan.baseline.id, tallies,
                   {cid: rec.get("paired") for cid, rec in records.items()},
                   [*plan.side_names, "draw"])
    manifest = _manifest(plan, run_id, fingerprint, info, started, time.perf_counter() - clock,
                         resumed=len(done), seconds_cells=sum(r["seconds"] for r in
                                                              records.values()))
    manifest["engine_note"] = engine_note
    raw = {c.id: records[c.id]["tally"] for c in plan.cells}
    run_dir = None
    if out is not None:
        paired = {cid: rec["paired"] for cid, rec in records.items() if rec.get("paired")}
        run_dir = write_run(Path(out) / run_id, table, manifest, raw,
                            {"paired.json": paired} if paired else None)
        partial.remove()
    table.attrs["manifest"] = manifest
    return SweepResult(table, manifest, raw, run_dir, plan)


def _drive(pool: Executor, jobs: list[CellJob], records: dict[str, dict[str, Any]],
           partial: Partial | None, plan: Plan, progress: bool,
           on_cell: Callable[[CellResult], None] | None) -> None:
    """Run every job, collect results as they finish, save each one at once (under the
    serial executor too: :func:`~balance.sweep.executors.as_finished` hands it one cell at a
    time, so an interrupted sweep keeps every cell finished before the interruption)."""
    total = len(plan.cells)
    trials = sum(rec["tally"]["trials"] for rec in records.values())
    # handed to a pool before any bar exists: a forking pool starts its workers at the first
    # submit, and they should not inherit the bar's monitor thread
    results = as_finished(pool, run_cell, jobs)
    bar = None
    if progress:
        from balance.progress import progress_bar

        bar = progress_bar(total, initial=total - len(jobs), unit="cell", desc=plan.name[:30],
                           delay=0.0)
    try:
        for result in results:
            record = _record(result)
            records[result.cell_id] = record
            if partial is not None:
                partial.save(result.cell_id, record)
            trials += result.tally.trials
            if bar is not None:
                bar.set_postfix_str(f"{trials:,} trials", refresh=False)
                bar.update(1)
            if on_cell is not None:
                on_cell(result)
    finally:
        results.close()
        if bar is not None:
            bar.close()


def _engine_for(plan: Plan, fights: Mapping[str, Any], engine: str) -> tuple[str, str]:
    """The engine every cell of the sweep plays (``exact`` or ``vector``) and why: exact
    when asked (``exact``) or allowed (``auto``) and the exact engine covers every cell; one
    engine for the whole table, so its cells compare alike."""
    from balance import rules
    from balance.exact.run import auto_declines, coverage

    if engine not in ("auto", "exact", "vector"):
        raise OptionError(f"engine must be auto, exact or vector, got {engine!r}")
    if engine == "vector":
        return "vector", ""
    system = rules.get(plan.ruleset)
    if engine == "auto" and auto_declines(system):
        return "vector", f"Monte Carlo: {auto_declines(system)}"
    reason = ""
    if not system.has_exact_duels:
        reason = f"the exact engine does not cover {plan.ruleset} fights yet"
    for cell in plan.cells:
        if reason:
            break
        why = coverage(system, fights[cell.id])
        if why:
            reason = f"cell {cell.id}: {why}"
    if reason:
        if engine == "exact":
            raise OptionError(f"the exact engine cannot play every cell: {reason} (use "
                              "--engine auto or vector)")
        return "vector", f"Monte Carlo: {reason}"
    return "exact", "exact engine: every cell is a duel it covers"


def _counted(ruleset: str) -> frozenset[str]:
    from balance import rules

    return rules.get(ruleset).breakdown_metrics


def _record(result: CellResult) -> dict[str, Any]:
    """What is saved of a finished cell (partial file and tallies)."""
    return {"tally": tally_to_dict(result.tally), "blocks": result.blocks,
            "seconds": result.seconds, "precision_met": result.precision_met,
            "paired": result.paired}


def _paired_jobs(plan: Plan, jobs: list[CellJob], records: dict[str, dict[str, Any]],
                 partial: Partial | None,
                 on_cell: Callable[[CellResult], None] | None) -> list[CellJob]:
    """The jobs still to run; with a baseline that shares its streams with other cells, the
    baseline is played here first, keeping its per-trial outcomes, and those cells are
    given them to count paired outcomes (done cells keep their saved counts)."""
    todo = [j for j in jobs if j.cell_id not in records]
    base = plan.baseline
    if base is None:
        return todo
    shared = {c.id for c in plan.cells if c.stream == base.stream and c.id != base.id}
    if not shared & {j.cell_id for j in todo}:
        return todo
    result = run_cell(dataclasses.replace(next(j for j in jobs if j.cell_id == base.id),
                                          keep=True))
    if base.id not in records:
        records[base.id] = _record(result)
        if partial is not None:
            partial.save(base.id, records[base.id])
        if on_cell is not None:
            on_cell(result)
    return [dataclasses.replace(j, pair=result.kept) if j.cell_id in shared else j
            for j in todo if j.cell_id != base.id]


class _given:
    """Context for an executor the caller made (and will shut down)."""

    def __init__(self, executor: Executor, workers: int | None):
        kind = "dask" if type(executor).__module__.startswith("distributed") else \
            type(executor).__name__
        self.pair = (executor, ExecutorInfo(kind, workers or 0))

    def __enter__(self) -> tuple[Executor, ExecutorInfo]:
        return self.pair

    def __exit__(self, *exc: object) -> None:
        return None


def _manifest(plan: Plan, run_id: str, fingerprint: dict[str, Any], info: ExecutorInfo,
              started: str, seconds: float, *, resumed: int,
              seconds_cells: float) -> dict[str, Any]:
    import numpy as np

    return {
        "format": "balance-sweep/1",
        "run_id": run_id,
        "scenario": plan.name,
        "ruleset": plan.ruleset,
        "source": plan.path,
        "scenario_text": _scenario_text(plan),
        **fingerprint,
        "package_version": __version__,
        "git_commit": git_commit(),
        "started": started,
        "finished": now_iso(),
        "seconds": round(seconds, 3),
        "cell_seconds": round(seconds_cells, 3),
        "executor": info.to_dict(),
        "resumed_cells": resumed,
        "cells": len(plan.cells),
        "sides": list(plan.side_names),
        "outcomes": [*plan.side_names, "draw"],
        "axes": [{"name": a.name, "paths": [".".join(map(str, p)) for p in a.paths],
                  "kind": a.kind, "labels": list(a.labels)} for a in plan.axes],
        "round_robin": list(plan.round_robin) if plan.round_robin else None,
        "baseline": None if plan.baseline is None else {
            "cell": plan.baseline.id, "index": plan.baseline.index,
            "values": dict(plan.baseline.values)},
        "mirror": plan.mirror,
        "crn_note": _crn_note(plan),
        "reach": plan.reach(),
        "set": [o.to_dict() for o in plan.sets],
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "bit_generator": "PCG64",
        "streams": "block b of a cell draws from PCG64(SeedSequence(seed, "
                   "spawn_key=(*stream, b))); stream = the cell's key",
    }


def _crn_note(plan: Plan) -> str | None:
    if not plan.crn:
        return None
    return (f"common random numbers: cells that differ only in {', '.join(plan.crn)} share "
            "random streams, so differences between them are measured with less noise than "
            "their separate intervals suggest (a baseline: and balance compare give paired "
            "intervals)")


def _scenario_text(plan: Plan) -> str:
    return plan.text


def _run_id(run_id: str | None, plan: Plan) -> str:
    if run_id is None:
        stem = Path(plan.path).stem if plan.path else plan.name
        run_id = re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._-") or "sweep"
    if not _RUN_ID.fullmatch(run_id):
        raise OptionError(f"run id must be letters, digits, '.', '_' or '-' (at most 100), "
                          f"got {run_id!r}")
    return run_id


def _count(name: str, value: Any, minimum: int) -> int:
    """A trial count, block size or seed, checked against its range."""
    return check_count(name, value, minimum=minimum,
                       maximum=MAX_SEED if name == "seed" else MAX_TRIALS)
