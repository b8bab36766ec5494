"""``balance run FILE``: simulate one scenario and print its outcome probabilities."""

from __future__ import annotations

import argparse
import sys

from balance.api import ENGINES, run
from balance.commands._types import add_set, count


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
    p.add_argument("--breakdown", action="store_true",
                   help="also count what each fighter did: attacks, hits, damage dealt and "
                        "soaked, fumbles, criticals, rounds standing (means per fight with "
                        "intervals; Monte Carlo)")
    add_set(p)
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    report = getattr(args, "report", None)
    if report is not None:
        from balance.errors import OptionError
        from balance.io.atomic import check_replaceable

        if args.explain:
            raise OptionError("--report writes the report of a run; --explain runs nothing")
        check_replaceable(report)          # before any fight: a bad folder wastes no time
    from balance.sweep.overrides import load_with_sets, note, parse_sets

    sets = parse_sets(args.sets)
    source = load_with_sets(args.file, sets) if sets else args.file
    if args.explain:
        from balance.analysis.explaining import explain, explain_text
        from balance.commands._questions import print_json

        doc = explain(source)
        if sets:
            doc["set"] = [o.to_dict() for o in sets]
        if args.json:
            print_json(doc)
        else:
            text = explain_text(doc)
            if sets:
                head, _, rest = text.partition("\n")
                text = f"{head}\n  ({note(sets)})\n{rest}"
            sys.stdout.write(text + "\n")
        return 0
    from balance.io.scenario import LoadedScenario, load_scenario

    loaded = source if isinstance(source, LoadedScenario) else load_scenario(source)
    sys.stderr.write("".join(f"{note}\n" for note in loaded.notes))   # rows left to defaults
    result = run(loaded, trials=args.trials, seed=args.seed, engine=args.engine,
                 progress=not args.quiet, breakdown=args.breakdown)
    if args.json:
        from balance.io import jsonout

        doc = result.to_dict()
        if sets:
            doc["set"] = [o.to_dict() for o in sets]
        sys.stdout.write(jsonout.dumps(doc, indent=2) + "\n")
    else:
        text = result.to_text()
        if sets:           # under the title: what this run played beyond the file
            head, _, rest = text.partition("\n")
            text = f"{head}\n  ({note(sets)})\n{rest}"
        sys.stdout.write(text + "\n")
    if report is not None:
        from pathlib import Path

        from balance.report.single import write_run_report

        text = Path(args.file).read_text(encoding="utf-8")
        target = write_run_report(result, report, scenario_text=text, source=args.file)
        sys.stderr.write(f"report: {target / 'report.html'}\n")
    return 0
