"""``balance autobalance FILE --vary PATH...``: search table values that bring a round robin
closest to a target (every match-up even, or a designer's matrix)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from balance.commands._types import count


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "autobalance", help="search table values that bring a round robin to a target",
        description="Vary table fields (integers stay integers) to bring the scenario's "
                    "round robin closest to the target: every match-up even, or a CSV matrix "
                    "of row-vs-column win rates (blank cells are free). Candidates share "
                    "random numbers; each line search races its values, giving more trials "
                    "to the promising ones. Before and after are measured on fresh random "
                    "numbers, exactly as balance sweep measures them.",
        epilog="Example: balance autobalance scenarios/sweeps/weapon_round_robin.yaml "
               "--vary tables.weapons.spear.attack tables.weapons.long_sword.damage "
               "--bounds tables.weapons.spear.attack=0:6 --out results/autobalance. "
               "See docs/metagame.md.")
    p.add_argument("file", help="scenario YAML file with a round_robin sweep")
    p.add_argument("--vary", nargs="+", required=True, metavar="PATH",
                   help="table fields to search, e.g. tables.weapons.spear.damage")
    p.add_argument("--target", default="even", metavar="even|CSV",
                   help="even (default: every match-up 50%%) or a CSV matrix of target win "
                        "rates, option names in the first row and column, blank = free")
    p.add_argument("--bounds", nargs="+", default=[], metavar="PATH=LO:HI",
                   help="search range of a varied field (default: half its value either "
                        "side, at least 2)")
    p.add_argument("--budget", type=count, metavar="TRIALS",
                   help="trials the search may play (default: 20 round robins at --trials)")
    p.add_argument("--trials", type=count,
                   help="trials per cell for before/after (default: the scenario's); the "
                        "search's best candidates reach as many")
    p.add_argument("--seed", type=int, help="root seed (default: the scenario's)")
    p.add_argument("--out", metavar="DIR", help="write before/after heat maps, report.html, "
                                                "report.md, tables.yaml and autobalance.json")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--engine", choices=("auto", "vector"), default="auto",
                   help="auto (default): exact answers where the exact engine covers every "
                        "cell (duels; docs/exact.md), else Monte Carlo"
                        "; vector always samples")
    p.set_defaults(func=main)


def parse_bounds(items: list[str]) -> dict[str, tuple[float, float]]:
    """``PATH=LO:HI`` items as a mapping."""
    from balance.errors import OptionError

    out: dict[str, tuple[float, float]] = {}
    for item in items:
        path, _, span = item.partition("=")
        lo, _, hi = span.partition(":")
        try:
            out[path.strip()] = (float(lo), float(hi))
        except ValueError:
            raise OptionError(f"--bounds: expected PATH=LO:HI (e.g. "
                              f"tables.weapons.spear.damage=2:8), got {item!r}") from None
    return out


def main(args: argparse.Namespace) -> int:
    from balance.analysis.autobalance import autobalance
    from balance.io.atomic import check_replaceable
    from balance.io.jsonout import dumps

    if args.out:
        check_replaceable(args.out)       # before the search runs, not after

    def step(s: dict) -> None:
        sys.stderr.write(f"pass {s['pass']}  {s['field']} = {s['value']:g}  worst deviation "
                         f"{100 * s['max_abs_dev']:.1f} points  ({s['trials']:,} trials)\n")

    result = autobalance(args.file, args.vary, target=args.target,
                         bounds=parse_bounds(args.bounds), budget=args.budget,
                         trials=args.trials, seed=args.seed,
                         on_step=None if args.quiet else step, progress=not args.quiet,
                         engine=args.engine)
    doc = result.to_dict()
    if args.out:
        from balance.report.metagame import autobalance_document, write_bundle

        write_bundle(autobalance_document(result), Path(args.out),
                     {"tables.yaml": result.yaml_snippet(),
                      "autobalance.json": dumps(doc, indent=2) + "\n"})
    if args.json:
        sys.stdout.write(dumps(doc, indent=2) + "\n")
        return 0
    lines = [*result.summary(), "", result.yaml_snippet().rstrip()]
    if args.out:
        lines += ["", f"wrote {Path(args.out) / 'report.html'}, report.md and tables.yaml"]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
