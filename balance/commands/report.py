"""``balance report RUN_DIR``: figures, HTML and Markdown for a sweep's results."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report", help="write report.html, report.md and figures for a sweep run",
        description="Write a self-contained report.html (figures embedded), report.md (for CI "
                    "job summaries; appended to $GITHUB_STEP_SUMMARY when set) and the figures "
                    "as PNG for the sweep run in RUN_DIR.",
        epilog="Example: balance report results/weapon_vs_armour")
    p.add_argument("run_dir", metavar="RUN_DIR", help="a run folder written by balance sweep")
    p.add_argument("--out", help="report folder (default: RUN_DIR/report)")
    p.add_argument("--side", help="whose win probability the heat maps show (default: the "
                                  "first side)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from balance.report.build import write_report

    out = write_report(args.run_dir, args.out, side=args.side)
    sys.stdout.write(f"wrote {out / 'report.html'} and {out / 'report.md'}\n")
    return 0
