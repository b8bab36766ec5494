"""The ``balance`` command: a thin dispatcher over the sub-command modules in ``balance.commands``.

Each sub-command module exposes ``register(subparsers)``, which adds its parser and sets
``func`` to a handler ``(args) -> int``. User mistakes (:class:`BalanceError`) become one
clean message on stderr and a non-zero exit; only bugs produce tracebacks.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from balance.errors import BalanceError

COMMANDS = ("run", "dice", "validate", "schema", "tables", "demo", "lanchester", "sweep", "report",
            "check", "hazard", "solve", "sensitivity", "exchange", "compare")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="balance",
        description="Monte Carlo balance lab for tabletop combat rules.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"balance.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BalanceError as err:
        print(f"balance {args.command}: error: {err}" if "\n" not in str(err) else str(err),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
