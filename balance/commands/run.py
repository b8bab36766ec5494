"""``balance run FILE``: simulate one scenario and print its outcome probabilities."""

from __future__ import annotations

import argparse
import sys

from balance.api import ENGINES, run
from balance.commands._types import count


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="simulate a scenario file",
                       description="Simulate a scenario file and print win probabilities with "
                                   "Wilson 95% intervals and round statistics.")
    p.add_argument("file", help="scenario YAML file")
    p.add_argument("--trials", type=count, help="number of fights (default: the scenario's)")
    p.add_argument("--seed", type=int, help="root seed (default: the scenario's)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--engine", choices=ENGINES, default="vector",
                   help="'reference' plays the readable scalar rules (slow; for checking)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--explain", action="store_true",
                   help="print each fighter's numbers before the first roll and where they "
                        "come from (table rows, overrides, patches); runs nothing")
    p.add_argument("--report", metavar="DIR",
                   help="also write the run's report to DIR (report.html offline, report.md, "
                        "PNG figures; the folder is replaced whole)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    report = getattr(args, "report", None)
    if report is not None:
        from balance.errors import OptionError
        from balance.io.atomic import check_replaceable

        if args.explain:
            raise OptionError("--report writes the report of a run; --explain runs nothing")
        check_replaceable(report)          # before any fight: a bad folder wastes no time
    if args.explain:
        from balance.analysis.explaining import explain, explain_text
        from balance.commands._questions import print_json

        doc = explain(args.file)
        if args.json:
            print_json(doc)
        else:
            sys.stdout.write(explain_text(doc) + "\n")
        return 0
    result = run(args.file, trials=args.trials, seed=args.seed, engine=args.engine,
                 progress=not args.quiet)
    sys.stdout.write((result.to_json() if args.json else result.to_text()) + "\n")
    if report is not None:
        from pathlib import Path

        from balance.report.single import write_run_report

        text = Path(args.file).read_text(encoding="utf-8")
        target = write_run_report(result, report, scenario_text=text, source=args.file)
        sys.stderr.write(f"report: {target / 'report.html'}\n")
    return 0
