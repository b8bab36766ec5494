"""``balance sweep FILE``: run every cell of a scenario's ``sweep:`` block into results/."""

from __future__ import annotations

import argparse
import sys

from balance.commands._types import add_set, count
from balance.sweep.executors import EXECUTORS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sweep", help="run a scenario's sweep (grid, zip, round robin) into results/",
        description="Run every cell of the scenario's sweep: block and write one tidy table "
                    "(Parquet and CSV), the raw counts and a manifest to OUT/RUN_ID/. Each "
                    "cell's random streams are keyed by its own swept values, so the table is "
                    "the same under every executor and worker count.",
        epilog="Example: balance sweep scenarios/sweeps/weapon_vs_armour.yaml --trials 20000 "
               "--executor processes. See docs/sweeps.md.")
    p.add_argument("file", help="scenario YAML file with a sweep: block")
    p.add_argument("--trials", type=count, help="trials per cell (default: the scenario's)")
    p.add_argument("--seed", type=int, help="root seed (default: the scenario's)")
    p.add_argument("--precision", type=float, metavar="P",
                   help="instead of a fixed count, run each cell in blocks until every "
                        "outcome's 95%% interval half-width is at most P (e.g. 0.01)")
    p.add_argument("--max-trials", type=count, metavar="N",
                   help="cap per cell under --precision (default 1,048,576)")
    p.add_argument("--crn", action=argparse.BooleanOptionalAction, default=None,
                   help="common random numbers: every cell shares the same random streams "
                        "(default: the file's crn:)")
    p.add_argument("--baseline", metavar="CELL",
                   help="the cell others are compared with (delta columns; balance compare): "
                        "a cell index or axis=value,... (default: the file's baseline:)")
    p.add_argument("--out", default="results", help="results folder (default: results)")
    p.add_argument("--run-id", help="name of the run's folder (default: the file's name)")
    p.add_argument("--executor", choices=EXECUTORS, default="local",
                   help="local (default: this process), processes (all cores), dask")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (default: start a "
                        "local cluster)")
    p.add_argument("--workers", type=int, metavar="K",
                   help="worker processes for processes or a local Dask cluster "
                        "(default: all cores)")
    p.add_argument("--resume", action="store_true",
                   help="finish an interrupted run of the same sweep without redoing its "
                        "finished cells")
    p.add_argument("--report", action="store_true", help="also write the report (balance report)")
    p.add_argument("--list", action="store_true", help="list the cells and exit (runs nothing)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--engine", choices=("auto", "exact", "vector"), default="auto",
                   help="auto (default): exact answers where the exact engine covers every "
                        "cell (duels; docs/exact.md), else Monte Carlo"
                        "; exact insists; vector always samples")
    p.add_argument("--breakdown", action="store_true",
                   help="also count what each fighter did in every cell (attacks, hits, "
                        "damage, ...: bd_<fighter>_<metric> columns with _lo/_hi intervals; "
                        "Monte Carlo)")
    add_set(p)
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from balance.errors import OptionError
    from balance.sweep import load_plan, run_sweep
    from balance.sweep.summary import cells_text, summary_text, timing

    if args.precision is not None and args.trials is not None:
        raise OptionError("give --trials or --precision, not both")
    from balance.analysis.compare import parse_baseline
    from balance.sweep.overrides import parse_sets

    plan = load_plan(args.file, crn=args.crn, baseline=parse_baseline(args.baseline),
                     sets=parse_sets(args.sets))
    sys.stderr.write("".join(f"{note}\n" for note in plan.base.notes))   # rows left to defaults
    if args.list:
        for cell in plan.cells:
            sys.stdout.write(f"{cell.id}  {cell.describe()}\n")
        sys.stdout.write(f"{len(plan.cells)} cells\n")
        return 0
    try:
        res = run_sweep(plan, trials=args.trials, seed=args.seed, precision=args.precision,
                        max_trials=args.max_trials, executor=args.executor,
                        scheduler=args.scheduler, workers=args.workers, out=args.out,
                        run_id=args.run_id, resume=args.resume, progress=not args.quiet,
                        engine=args.engine, breakdown=args.breakdown)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted: the finished cells are kept; run the same command with "
                         "--resume to finish the sweep\n")
        raise
    sys.stdout.write(summary_text(res.table, res.manifest) + "\n")
    m = res.manifest
    total = int(res.table["trials"].sum())
    played = "exact" if m.get("engine") == "exact" else f"{total:,} trials"
    sys.stdout.write(f"\nwrote {res.run_dir}/ ({cells_text(m['cells'])}, {played}; "
                     f"{timing(m)})\n")
    if args.report:
        from balance.report.build import write_report

        out = write_report(res.run_dir)
        sys.stdout.write(f"wrote {out / 'report.html'} and {out / 'report.md'}\n")
    return 0
