"""``balance schema [--ruleset R] [--out FILE]``: the JSON Schema of scenario files.

Editors that speak the YAML language server (VS Code's YAML extension, Neovim, Helix, ...)
use it to complete keys, show the docs of each field and flag mistakes while typing.
"""

from __future__ import annotations

import argparse
import sys

from balance.io.scenario import schema_text, write_schema

MODELINE = "# yaml-language-server: $schema=balance-scenario.schema.json"

EPILOG = f"""\
Editor completion: save the schema beside your scenarios,

    balance schema --out balance-scenario.schema.json

and put this line at the top of each scenario file:

    {MODELINE}

(the path is relative to the scenario file). Editors with the YAML language server then
complete keys, show field docs and underline mistakes as you type. `balance validate` remains
the authority: it also checks table names, which the schema cannot know.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``schema`` sub-command to the ``balance`` parser."""
    parser = subparsers.add_parser(
        "schema",
        help="print the JSON Schema of scenario files (for editor completion)",
        description="Print the JSON Schema (draft 2020-12) of scenario files: one of the "
                    "registered rulesets' scenario models.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--ruleset", metavar="NAME",
                        help="only this ruleset's scenarios (default: every ruleset)")
    parser.add_argument("--out", metavar="FILE", help="write the schema to FILE, not stdout")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``balance schema``: print or write the schema; returns 0."""
    if args.out is None:
        sys.stdout.write(schema_text(args.ruleset))
    else:
        write_schema(args.out, args.ruleset)
        sys.stderr.write(f"wrote {args.out}; first line of a scenario file: {MODELINE}\n")
    return 0
