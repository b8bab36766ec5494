"""``balance metagame (FILE | RUN | --matrix CSV)``: equilibrium mix, dominated options,
intransitive cycles, restricted play and a ranking for a round robin."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from balance.commands._types import count


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "metagame", help="equilibrium mix, dominated options and cycles of a round robin",
        description="What game theory says about a round robin's matrix of win rates: the "
                    "equilibrium mix (solved exactly as a linear program), options dominated "
                    "by another option or a mix, significant intransitive cycles, restricted "
                    "play (what being forbidden each option costs) and a ranking by payoff "
                    "against the equilibrium. SOURCE is a scenario with a round_robin sweep "
                    "(run here) or the folder of a finished round-robin run.",
        epilog="Example: balance metagame scenarios/sweeps/weapon_round_robin.yaml --out "
               "results/metagame. See docs/metagame.md.")
    p.add_argument("source", nargs="?", metavar="FILE|RUN",
                   help="scenario file with a round_robin sweep, or a run folder")
    p.add_argument("--matrix", metavar="CSV",
                   help="a square CSV of row-vs-column win rates (option names in the first "
                        "row and column) instead of a run")
    p.add_argument("--for", dest="seat", metavar="SIDE",
                   help="score the row option only when it sits on SIDE (an asymmetric "
                        "game; default: both seatings pooled)")
    p.add_argument("--draws", choices=("half", "loss"), default="half",
                   help="a draw counts as half a win (default) or as a loss for both")
    p.add_argument("--trials", type=count, help="trials per cell when running FILE")
    p.add_argument("--seed", type=int, help="root seed when running FILE")
    p.add_argument("--out", metavar="DIR", help="write report.html, report.md, figures and "
                                                "metagame.json here")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--engine", choices=("auto", "exact", "vector"), default="auto",
                   help="auto (default): exact answers where the exact engine covers every "
                        "cell (duels; docs/exact.md), else Monte Carlo"
                        "; exact insists; vector always samples")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from balance.analysis.metagame import analyse
    from balance.io.atomic import check_replaceable

    if args.out:
        check_replaceable(args.out)       # before the round robin runs, not after
    matrix = load_matrix(args)
    result = analyse(matrix)
    doc = result.to_dict()
    if args.out:
        from balance.report.metagame import metagame_document, write_bundle

        write_bundle(metagame_document(result), Path(args.out),
                     {"metagame.json": dumps(doc) + "\n"})
    if args.json:
        sys.stdout.write(dumps(doc) + "\n")
    else:
        sys.stdout.write(text(result) + "\n")
        if args.out:
            sys.stdout.write(f"\nwrote {Path(args.out) / 'report.html'} and "
                             f"{Path(args.out) / 'report.md'}\n")
    return 0


def load_matrix(args: argparse.Namespace):
    """The matrix from --matrix, a run folder, or a scenario run now."""
    from balance.analysis import matrix as mx
    from balance.errors import BalanceError, OptionError

    if (args.source is None) == (args.matrix is None):
        raise OptionError("give a scenario FILE, a RUN folder or --matrix CSV (one of them)")
    if args.matrix is not None:
        if args.seat or args.draws != "half" or args.trials or args.seed is not None:
            raise OptionError("--for, --draws, --trials and --seed apply to runs, not to "
                              "--matrix (its values are used as given)")
        from balance.io.matrix import read_matrix

        options, values = read_matrix(args.matrix)
        return mx.from_values(options, values, {"kind": "matrix", "path": args.matrix})
    source = Path(args.source)
    if not source.exists():   # FILE or RUN: say both, and suggest a close name of either
        from balance.io.scenario import read_text
        from balance.io.store import read_manifest

        for check in (read_text, read_manifest):
            try:
                check(str(source))
            except BalanceError as err:
                hint = str(err).partition("(did you mean")[2]
                if hint:
                    raise OptionError(f"{source}: no such scenario file or run folder "
                                      f"(did you mean{hint}") from None
        raise OptionError(f"{source}: no such scenario file or run folder")
    if source.is_dir():
        if args.trials or args.seed is not None:
            raise OptionError("--trials and --seed apply to a scenario FILE; a run folder "
                              "is analysed as it was run")
        from balance.io.store import load

        table = load(source)
        return mx.from_run(table, table.attrs["manifest"], draws=args.draws, seat=args.seat)
    from balance.sweep import load_plan, run_sweep

    plan = load_plan(source)
    if plan.round_robin is None:
        raise OptionError(f"{source}: its sweep has no round_robin; the metagame needs every "
                          "option against every other (see docs/metagame.md)")
    res = run_sweep(plan, trials=args.trials, seed=args.seed, out=None,
                    progress=not args.quiet, engine=args.engine)
    return mx.from_run(res.table, res.manifest, draws=args.draws, seat=args.seat)


def dumps(doc: dict) -> str:
    """Strict JSON (no NaN or Infinity)."""
    from balance.io.jsonout import dumps

    return dumps(doc, indent=2)


def text(result) -> str:
    """The analysis as a few aligned lines and the findings."""
    def pct(x: float) -> str:
        return f"{100 * x:.1f}"

    m, eq = result.matrix, result.equilibrium
    s = m.source
    head = (f"{s.get('scenario') or s.get('path') or 'matrix'}: metagame of "
            f"{len(m.options)} options")
    if s.get("kind") == "run" and s.get("exact"):
        head += f" ({s.get('ruleset')}, every cell exact: the exact engine)"
    elif s.get("kind") == "run":
        head += (f" ({s.get('ruleset')}, {s.get('trials_per_cell') or '?'} trials per cell, "
                 f"seed {s.get('seed')})")
    how = ("draws count as half a win" if m.draws == "half" else "draws count as a loss") + \
        ("; both seatings pooled" if m.seat is None else f"; row option on side {m.seat}")
    width = max(len(o) for o in m.options)
    lines = [head, how, "", f"{'option'.ljust(width)}  weight %  payoff %  forbidding it "
                            "costs (points)"]
    for i in result.order():
        lines.append(f"{m.options[i].ljust(width)}  {pct(eq.mix[i]):>8}  "
                     f"{pct(eq.payoff[i]):>8}  {100 * (eq.value - result.without[i]):>6.1f}")
    lines += ["", f"value {pct(eq.value)}%", ""]
    lines += [f"- {f}" for f in result.findings]
    return "\n".join(lines)
