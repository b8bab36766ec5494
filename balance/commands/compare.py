"""``balance compare RUN``: a sweep's cells against its baseline, ranked, with which
differences are significant."""

from __future__ import annotations

import argparse
import sys

from balance.commands._questions import print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare", help="rank a sweep run's cells against its baseline",
        description="Print every cell's change from the baseline cell in SIDE's win "
                    "probability (or --metric), ranked, with 95% intervals (paired where "
                    "the cells shared the baseline's random streams) and whether each is "
                    "significant after Holm's correction over the cells.",
        epilog="Example: balance compare results/long_sword_damage. See docs/questions.md.")
    p.add_argument("run_dir", metavar="RUN", help="a run folder written by balance sweep")
    p.add_argument("--baseline", metavar="CELL",
                   help="another baseline: a cell index or axis=value,... (deltas are then "
                        "of independent estimates; default: the run's baseline)")
    p.add_argument("--for", dest="side", metavar="SIDE", help="whose win probability")
    p.add_argument("--metric", choices=("win", "draw", "rounds"), default="win",
                   help="win (default), draw or rounds (mean rounds to a decision)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from balance.analysis.compare import compare_run, parse_baseline

    result = compare_run(args.run_dir, baseline=parse_baseline(args.baseline), side=args.side,
                         metric=args.metric)
    if args.json:
        print_json(result.to_dict())
    else:
        sys.stdout.write(result.to_text() + "\n")
    return 0
