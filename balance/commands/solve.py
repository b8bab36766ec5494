"""``balance solve FILE --vary PATH --target P``: the value of a field that meets a target."""

from __future__ import annotations

import argparse
import sys

from balance.commands._questions import (
    add_common,
    executor_options,
    print_json,
    set_note,
    subject,
    with_sets,
)

METRICS = ("win", "draw", "rounds", "dead", "survival", "standing")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "solve", help="the value of a field that brings a side's win probability to a target",
        description="Find the value of the field at PATH that brings SIDE's metric to the "
                    "target: for an integer field the closest value, the two values that "
                    "bracket the target with their estimates, and the fractional crossing; "
                    "for any field the range of values consistent with the target at 95%. "
                    "Every value is played from the same random streams, and trials go "
                    "where the crossing is (sequential bisection with adaptive precision).",
        epilog="Example: balance solve scenarios/yags/longsword_vs_spear.yaml --vary "
               "sides.knight.members.0.skills.single_weapon --target 0.5. See "
               "docs/questions.md.")
    p.add_argument("file", help="scenario YAML file")
    p.add_argument("--vary", required=True, metavar="PATH",
                   help="the numeric field to change, e.g. tables.weapons.long_sword.damage")
    p.add_argument("--target", required=True, type=float, metavar="P",
                   help="the metric's target, e.g. 0.5 for an even fight")
    p.add_argument("--metric", choices=METRICS, default="win",
                   help="win (default): P(SIDE wins); rounds: mean rounds; dead: mean SIDE "
                        "fighters dead; draw, survival, standing as in budgets")
    p.add_argument("--range", nargs=2, type=float, metavar=("LO", "HI"),
                   help="search between these values (needed for a non-integer field; "
                        "default: outward from the scenario's value)")
    p.add_argument("--tolerance", type=float, metavar="T",
                   help="a non-integer field's resolution (default: the range / 256)")
    add_common(p, trials_help="most trials any one value gets, in whole blocks of 16,384 "
                              "(default: the scenario's trials)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from balance.analysis.solving import solve

    result = solve(subject(args), args.vary, args.target, side=args.side, metric=args.metric,
                   range=tuple(args.range) if args.range else None, trials=args.trials,
                   seed=args.seed, tolerance=args.tolerance, progress=not args.quiet,
                   **executor_options(args))
    if args.json:
        print_json(with_sets(result.to_dict(), args))
    else:
        sys.stdout.write(set_note(args, result.to_text()) + "\n")
    return 0
