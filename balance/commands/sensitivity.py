"""``balance sensitivity FILE --paths PATH ...``: which single step moves the odds most."""

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
from balance.io import jsonout


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sensitivity", help="rank the fields whose single step moves a side's odds most",
        description="Move each field one step up and one step down from the scenario's "
                    "value and rank the changes in SIDE's win probability (or --metric) by "
                    "size, each with a paired 95% interval (every version plays the same "
                    "trials) and whether it stays significant after Holm's correction; the "
                    "largest gain is compared with the runner-up.",
        epilog="Example: balance sensitivity scenarios/yags/longsword_vs_spear.yaml --rows "
               "weapons:long_sword --paths sides.knight.members.0.skills.single_weapon "
               "--out results/sensitivity. See docs/questions.md.")
    p.add_argument("file", help="scenario YAML file")
    p.add_argument("--paths", nargs="+", metavar="PATH", default=[],
                   help="numeric fields to move, e.g. sides.0.members.0.skills.single_weapon")
    p.add_argument("--rows", action="append", metavar="TABLE:ROW,...", default=[],
                   help="every numeric field of these table rows, e.g. weapons:long_sword,mace")
    p.add_argument("--fields", metavar="F,...",
                   help="with --rows: only these fields, e.g. attack,damage")
    p.add_argument("--step", action="append", default=[], metavar="S|PATH=S",
                   help="step size: a number for every field (default 1), or PATH=S for one "
                        "field's own step (repeatable), e.g. --step 2 --step "
                        "tables.weapons.long_sword.damage=3")
    p.add_argument("--up-only", action="store_true", help="only +step (half the variants)")
    p.add_argument("--metric", choices=METRICS, default="win", help="as for balance solve")
    p.add_argument("--out", metavar="DIR",
                   help="also write tornado.png, sensitivity.md and sensitivity.json to DIR")
    add_common(p, trials_help="trials (default: the scenario's), whole blocks of 16,384")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from balance.analysis.sensitivities import sensitivity
    from balance.io.atomic import check_replaceable

    if args.out:
        check_replaceable(args.out)       # before the fights run, not after
    step, steps = parse_steps(args.step)
    result = sensitivity(subject(args), paths=args.paths, rows=args.rows,
                         fields=args.fields.split(",") if args.fields else None,
                         side=args.side, metric=args.metric, step=step, steps=steps,
                         both=not args.up_only, trials=args.trials, seed=args.seed,
                         progress=not args.quiet, **executor_options(args))
    if args.json:
        print_json(with_sets(result.to_dict(), args))
    else:
        sys.stdout.write(set_note(args, result.to_text()) + "\n")
    if args.out:
        out = write_sensitivity(result, args.out)
        sys.stderr.write(f"wrote {out / 'tornado.png'}, sensitivity.md and sensitivity.json\n")
    return 0


def parse_steps(items: list[str]) -> tuple[int | float, dict[str, int | float]]:
    """``--step 2 --step PATH=3``: the step of every field, and fields' own steps."""
    from balance.errors import OptionError

    default: int | float = 1
    own: dict[str, int | float] = {}
    plain = 0
    for item in items:
        path, sep, text = item.rpartition("=")
        try:
            value = float(text)
        except ValueError:
            raise OptionError(f"--step {item}: expected a number (every field) or PATH=STEP "
                              "(one field), e.g. --step 2 or --step "
                              "tables.weapons.long_sword.damage=3") from None
        value = int(value) if value.is_integer() else value
        if sep:
            if path.strip() in own:
                raise OptionError(f"--step: {path.strip()} is given twice")
            own[path.strip()] = value
        else:
            plain += 1
            default = value
    if plain > 1:
        raise OptionError("--step: give one number for every field, and PATH=STEP for others")
    return default, own


def write_sensitivity(result, out):
    """The tornado chart, the Markdown table and the JSON into ``out`` (replaced whole)."""
    import os
    from pathlib import Path

    from balance.io.atomic import new_directory
    from balance.report.figures import png_bytes
    from balance.report.tornado import tornado

    target = Path(out)
    with new_directory(target) as tmp:
        (tmp / "tornado.png").write_bytes(png_bytes(tornado(result)))
        (tmp / "sensitivity.md").write_text(result.to_markdown() + "\n![tornado](tornado.png)\n",
                                            encoding="utf-8")
        (tmp / "sensitivity.json").write_text(jsonout.dumps(result.to_dict(), indent=2) + "\n",
                                              encoding="utf-8")
        os.chmod(tmp, 0o755)
    return target
