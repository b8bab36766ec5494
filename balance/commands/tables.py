"""``balance tables RULESET [TABLE] [--json]``: the shipped tables a scenario can refer to.

Without TABLE, lists each table with its row count and fields; with TABLE, prints its rows
as an aligned text table (defaults filled in), or as JSON for scripts. A scenario changes or
adds rows in its own ``tables:`` block.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from balance.errors import OptionError, unknown_name
from balance.io import jsonout
from balance.io.tables import shipped_tables
from balance.models import ROW_MODELS, unknown_ruleset


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``tables`` sub-command to the ``balance`` parser."""
    parser = subparsers.add_parser(
        "tables",
        help="list a ruleset's shipped tables (weapons, armour, ...)",
        description="List a ruleset's shipped tables, or print one table's rows.",
        epilog="Example: balance tables yags weapons. A scenario changes a row with e.g. "
               "'tables: {weapons: {long_sword: {damage: 8}}}'.",
    )
    parser.add_argument("ruleset", metavar="RULESET", help="ruleset name, e.g. yags")
    parser.add_argument("table", metavar="TABLE", nargs="?", help="table name, e.g. weapons")
    parser.add_argument("--json", action="store_true",
                        help='print {"<table>": {"<row>": {fields...}}} (all tables without TABLE)')
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``balance tables``: check the names, print; returns 0."""
    if args.ruleset not in ROW_MODELS:
        raise OptionError(unknown_ruleset(args.ruleset))
    names = list(ROW_MODELS[args.ruleset])
    if args.table is not None and args.table not in names:
        raise OptionError(unknown_name("table", args.table, names))
    tables = shipped_tables(args.ruleset)
    chosen = names if args.table is None else [args.table]
    rows = {name: getattr(tables, name) for name in chosen}
    if args.json:
        data = {name: {row: model.model_dump(mode="json") for row, model in table.items()}
                for name, table in rows.items()}
        sys.stdout.write(jsonout.dumps(data, indent=2) + "\n")
    elif args.table is None:
        sys.stdout.write(_overview(args.ruleset, rows))
    else:
        fields = list(ROW_MODELS[args.ruleset][args.table].model_fields)
        sys.stdout.write(_table(fields, rows[args.table]))
    return 0


def _overview(ruleset: str, tables: Mapping[str, Mapping[str, Any]]) -> str:
    """One line per table: name, row count, fields."""
    lines = [["table", "rows", "fields"]]
    for name, rows in tables.items():
        fields = ", ".join(ROW_MODELS[ruleset][name].model_fields)
        lines.append([name, str(len(rows)), fields])
    return _align(lines, numeric={1})


def _table(fields: list[str], rows: Mapping[str, Any]) -> str:
    """The rows of one table, one column per field, numbers right-aligned."""
    lines = [["name", *fields]]
    numeric = {i + 1 for i, field in enumerate(fields)
               if all(_is_number(getattr(row, field)) for row in rows.values())}
    for name, row in rows.items():
        lines.append([name, *(_cell(getattr(row, field)) for field in fields)])
    return _align(lines, numeric=numeric)


def _align(lines: Sequence[Sequence[str]], numeric: set[int]) -> str:
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    out = []
    for line in lines:
        cells = [cell.rjust(w) if i in numeric else cell.ljust(w)
                 for i, (cell, w) in enumerate(zip(line, widths, strict=True))]
        out.append("  ".join(cells).rstrip() + "\n")
    return "".join(out)


def _cell(value: Any) -> str:
    """A field value as text: tuples comma-joined, booleans as YAML writes them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(map(str, value))
    if isinstance(value, float):
        return f"{value:g}"
    return "" if value is None else str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
