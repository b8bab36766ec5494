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
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
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
    return 0
