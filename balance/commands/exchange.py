"""``balance exchange FILE --give PATH --take PATH``: what one step of a field is worth in
steps of another ("+1 armour is worth +0.7 skill")."""

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
from balance.commands.solve import METRICS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "exchange", help="how many steps of one field equal one step of another",
        description="Play the scenario, the scenario with GIVE moved one step and the one "
                    "with TAKE moved one step on the same trials, and give the exchange "
                    "rate change(GIVE) / change(TAKE) in SIDE's win probability (or "
                    "--metric) with Fieller's 95% interval from the paired changes.",
        epilog="Example: balance exchange scenarios/yags/longsword_vs_spear.yaml --give "
               "tables.armour.mail_hauberk.protection --take "
               "sides.knight.members.0.skills.single_weapon. See docs/questions.md.")
    p.add_argument("file", help="scenario YAML file")
    p.add_argument("--give", required=True, metavar="PATH", help="the field whose step is priced")
    p.add_argument("--take", required=True, metavar="PATH", help="the field it is priced in")
    p.add_argument("--step-give", type=float, default=1, metavar="S", help="default 1")
    p.add_argument("--step-take", type=float, default=1, metavar="S", help="default 1")
    p.add_argument("--metric", choices=METRICS, default="win", help="as for balance solve")
    add_common(p, trials_help="trials (default: the scenario's), whole blocks of 16,384")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from balance.analysis.exchange_rate import exchange

    def step(v: float) -> int | float:
        return int(v) if float(v).is_integer() else v

    result = exchange(subject(args), args.give, args.take, side=args.side, metric=args.metric,
                      give_step=step(args.step_give), take_step=step(args.step_take),
                      trials=args.trials, seed=args.seed, progress=not args.quiet,
                      **executor_options(args))
    if args.json:
        print_json(with_sets(result.to_dict(), args))
    else:
        sys.stdout.write(set_note(args, result.to_text()) + "\n")
    return 0
