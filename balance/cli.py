"""The ``balance`` command: a thin dispatcher over the sub-command modules in ``balance.commands``.

Each sub-command is one module ``balance.commands.<name>`` exposing ``register(subparsers)``,
which adds its parser and sets ``func`` to a handler ``(args) -> int``, plus one line in
:data:`COMMANDS`. Only the module of the command being run is imported (``balance --help``
lists the others from :data:`COMMANDS`), so start-up costs what that command needs and no
more. User mistakes (:class:`BalanceError`) become one clean message on stderr and a non-zero
exit; only bugs produce tracebacks.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterable, Sequence

from balance.errors import BAD_INPUT, BalanceError

COMMANDS: dict[str, str] = {
    "run": "simulate a scenario file",
    "dice": "exact distribution of a dice expression",
    "validate": "check scenario files and report every problem",
    "schema": "print the JSON Schema of scenario files (for editor completion)",
    "tables": "list a ruleset's shipped tables (weapons, armour, ...)",
    "demo": "run the bundled scenarios into results/",
    "lanchester": "group-size sanity report against Lanchester's laws",
    "sweep": "run a scenario's sweep (grid, zip, round robin) into results/",
    "report": "write report.html, report.md and figures for a sweep run",
    "check": "check a balance budget (CI gate): exit 1 when a claim fails",
    "hazard": "exact odds of poison, falls, drowning, fire and disease (percentile)",
    "solve": "the value of a field that brings a side's metric to a target",
    "sensitivity": "which single step of which field moves a side's win chance most",
    "exchange": "how many steps of one field equal one step of another",
    "compare": "rank a sweep run's cells against its baseline, with significance",
    "metagame": "equilibrium mix, dominated options and cycles of a round robin",
    "autobalance": "search table values that bring a round robin closest to a target",
}
"""Command name -> its one-line summary in ``balance --help``; the module is
``balance.commands.<name>``. Adding a command: a module with ``register`` and one line here."""


class _Version(argparse.Action):
    """``--version``: looked up only when asked for (reading package metadata takes time)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 **kwargs: object):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the lab's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        import balance

        sys.stdout.write(f"balance {balance.__version__}\n")
        parser.exit()


def build_parser(commands: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The ``balance`` parser with the sub-commands in ``commands`` fully registered (default:
    all); the others are listed by name and summary only, without importing them."""
    wanted = set(COMMANDS if commands is None else commands)
    parser = argparse.ArgumentParser(
        prog="balance",
        description="Monte Carlo balance lab for tabletop combat rules.",
        epilog="'balance COMMAND --help' describes a command. Docs: README.md and docs/.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if name in wanted:
            importlib.import_module(f"balance.commands.{name}").register(sub)
            sub._choices_actions[-1].help = summary   # the listing reads the same either way
        else:
            sub.add_parser(name, help=summary)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The sub-command named on the command line (the first word that is not an option)."""
    word = next((a for a in argv if not a.startswith("-")), None)
    return word if word in COMMANDS else None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = _command(argv)
    parser = build_parser([] if command is None else [command])
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BalanceError as err:
        # every line of the error says which command refused what (several problems of a
        # file are several lines, each prefixed, as one problem is)
        prefix = f"balance {args.command}: error: "
        print("\n".join(prefix + line for line in str(err).splitlines() or [""]),
              file=sys.stderr)
        return BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
