"""``balance lanchester FILE``: where the rules sit between Lanchester's linear and square laws."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from balance.commands._types import count
from balance.errors import OptionError
from balance.io import jsonout
from balance.io.atomic import check_replaceable, new_directory
from balance.report.lanchester import (
    describe_exponent,
    exponent_edge,
    figure,
    fitted_exponent,
    lanchester_points,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "lanchester", help="group-size sanity report against Lanchester's laws",
        description="Grow side A (the scenario's first member of its first side) against a "
                    "fixed side B (first member of the second side) and compare A's win "
                    "probability and survivors with Lanchester's linear and square laws.")
    p.add_argument("file", help="a two-sided scenario; its first members are the templates")
    p.add_argument("--sizes", default="1-8", help="side A sizes, e.g. 1-8 or 2,4,6 (default 1-8)")
    p.add_argument("--vs", type=int, default=4, help="side B's size (default 4)")
    p.add_argument("--trials", type=count, default=20_000, help="fights per size")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="folder for lanchester.png and lanchester.json")
    p.add_argument("--json", action="store_true", help="print the points as JSON")
    p.set_defaults(func=main)


def parse_sizes(text: str) -> list[int]:
    """``1-8`` or ``2,4,6`` to a list of positive sizes."""
    try:
        if "-" in text:
            lo, hi = (int(x) for x in text.split("-", 1))
            sizes = list(range(lo, hi + 1))
        else:
            sizes = [int(x) for x in text.split(",")]
    except ValueError:
        raise OptionError(f"--sizes: expected e.g. 1-8 or 2,4,6, got {text!r}") from None
    if not sizes or min(sizes) < 1 or max(sizes) > 100:
        raise OptionError(f"--sizes: sizes must be between 1 and 100, got {text!r}")
    return sizes


def main(args: argparse.Namespace) -> int:
    if args.out:
        check_replaceable(Path(args.out) / "lanchester")
    if not 1 <= args.vs <= 100:
        raise OptionError(f"--vs must be between 1 and 100, got {args.vs}")
    points = lanchester_points(args.file, parse_sizes(args.sizes), args.vs, args.trials,
                               args.seed)
    k = fitted_exponent(points) if any(p.size_a > p.size_b for p in points) else None
    doc = {"scenario": str(args.file), "vs": args.vs, "trials": args.trials,
           "seed": args.seed, "exponent": k,
           "exponent_at_edge": None if k is None else exponent_edge(k),
           "points": [{"size_a": p.size_a, "p_win_a": p.p_win_a, "ci95": list(p.ci_a),
                       "survivors_a": p.survivors_a, "survivors_b": p.survivors_b}
                      for p in points]}
    if args.out:
        with new_directory(Path(args.out) / "lanchester") as tmp:
            (tmp / "lanchester.json").write_text(jsonout.dumps(doc, indent=2) + "\n")
            figure(points, f"Lanchester check: {Path(args.file).stem}").savefig(
                tmp / "lanchester.png", dpi=120)
    if args.json:
        sys.stdout.write(jsonout.dumps(doc, indent=2) + "\n")
        return 0
    sys.stdout.write(f"{'A':>4} vs {args.vs}   A wins   A standing   B standing\n")
    for p in points:
        sys.stdout.write(f"{p.size_a:>4} vs {p.size_b}  {100 * p.p_win_a:6.1f}%   "
                         f"{p.survivors_a:9.2f}   {p.survivors_b:9.2f}\n")
    if k is not None:
        sys.stdout.write(describe_exponent(k) + "\n")
    return 0
