"""Options every question command shares (solve, sensitivity, exchange): the side, the trial
count, the seed, where the work runs, progress, and JSON output."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from balance.commands._types import add_set, count
from balance.io import jsonout
from balance.sweep.executors import EXECUTORS


def add_common(p: argparse.ArgumentParser, *, trials_help: str) -> None:
    p.add_argument("--for", dest="side", metavar="SIDE",
                   help="whose metric (default: the first side)")
    p.add_argument("--trials", type=count, metavar="N", help=trials_help)
    p.add_argument("--seed", type=int, help="root seed (default: the scenario's)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--executor", choices=EXECUTORS, default="local",
                   help="local (default: this process), processes (all cores), dask")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address")
    p.add_argument("--workers", type=int, metavar="K", help="worker processes")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--engine", choices=("auto", "exact", "vector"), default="auto",
                   help="auto (default): exact answers where the exact engine covers the "
                        "scenario (duels; docs/exact.md), else Monte Carlo; exact insists; "
                        "vector always samples")
    add_set(p)


def subject(args: argparse.Namespace) -> Any:
    """The scenario the question is asked of: the file, with ``--set`` changes if any."""
    from balance.sweep.overrides import parse_sets

    sets = parse_sets(args.sets)
    if not sets:
        return args.file
    from balance.analysis.subject import Subject

    return Subject.load(args.file, sets=sets)


def with_sets(doc: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The JSON object, with the ``--set`` changes it was asked with."""
    from balance.sweep.overrides import parse_sets

    sets = parse_sets(args.sets)
    return {**doc, "set": [o.to_dict() for o in sets]} if sets else doc


def set_note(args: argparse.Namespace, text: str) -> str:
    """The text output with a line under its title naming the ``--set`` changes, as
    ``balance run`` shows them (the text unchanged without any)."""
    from balance.sweep.overrides import note, parse_sets

    sets = parse_sets(args.sets)
    if not sets:
        return text
    head, _, rest = text.partition("\n")
    return f"{head}\n  ({note(sets)})\n{rest}"


def executor_options(args: argparse.Namespace) -> dict[str, Any]:
    return {"executor": args.executor, "scheduler": args.scheduler, "workers": args.workers,
            "engine": args.engine}


def print_json(doc: dict[str, Any]) -> None:
    """Strict JSON on stdout (the objects already hold None for NaN and infinities)."""
    sys.stdout.write(jsonout.dumps(doc, indent=2) + "\n")
