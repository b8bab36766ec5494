"""``balance validate FILE [FILE ...]``: check scenario files without running them.

Good files get one summary line on stdout; every problem of a bad file goes to stderr in
compiler style (``file:line:col: path: message``), so editors and CI can jump to it.
"""

from __future__ import annotations

import argparse
import sys

from balance.api import compile_scenario
from balance.errors import BAD_INPUT, ScenarioError
from balance.io.scenario import LoadedScenario, load_scenario, read_text
from balance.io.yamlfile import read_yaml


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``validate`` sub-command to the ``balance`` parser."""
    parser = subparsers.add_parser(
        "validate",
        help="check scenario files and report every problem",
        description="Check scenario files: YAML syntax, keys, types, ranges, table patches and "
                    "table names. Prints 'FILE: ok (...)' for each good file on stdout and "
                    "every problem of each bad file on stderr as 'file:line:col: path: message'.",
        epilog="Exit status: 0 if every file is good, 2 if any is not (as every command "
               "exits on a bad file; 1 before issue 30).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="scenario YAML file")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``balance validate``: check each file, report; 0 if all good, else 2: the exit
    status of every command given a bad file (``balance run`` of the same file exits 2 too;
    validate exited 1 before issue 30)."""
    failed = 0
    for file in args.files:
        try:
            loaded, cells = _load(file)
        except ScenarioError as err:
            failed += 1
            sys.stderr.write("".join(f"{problem}\n" for problem in err.problems))
            continue
        sys.stdout.write(f"{file}: ok ({summary(loaded)}{cells})\n")
        sys.stdout.write("".join(f"{note}\n" for note in loaded.notes))
    return BAD_INPUT if failed else 0


def _load(file: str) -> tuple[LoadedScenario, str]:
    """The scenario; a file with a ``sweep:`` block is checked cell by cell (balance sweep).

    The block is looked for in the parsed file, so a flow-style file (``{name: ..., sweep:
    {...}}``) or a quoted key counts as swept too."""
    data, _ = read_yaml(read_text(file), file)
    if "sweep" not in data:
        loaded = load_scenario(file)
        compile_scenario(loaded)  # problems that show only once fighters are put together
        return loaded, ""
    from balance.sweep import load_plan

    plan = load_plan(file)
    plan.compile()            # problems that show only once fighters are put together
    return plan.base, f", {_count(len(plan.cells), 'sweep cell')}"


def summary(loaded: LoadedScenario) -> str:
    """``yags, 2 sides, 3 fighters, 2000 trials``: what a good file describes."""
    model = loaded.model
    sides = model.sides
    fighters = sum(getattr(member, "count", 1) for side in sides for member in side.members)
    return (f"{loaded.ruleset}, {_count(len(sides), 'side')}, {_count(fighters, 'fighter')}, "
            f"{_count(model.trials, 'trial')}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
