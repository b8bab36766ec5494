"""Argument types the commands share."""

from __future__ import annotations

import argparse
import re
from decimal import Decimal

# digits, in 3-digit groups after commas or in groups after underscores, as Python writes them
_COUNT = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+|\d+(?:_\d+)*)(?:\.\d*)?(?:[eE][+-]?\d{1,2})?")


def count(text: str) -> int:
    """A number of trials or samples as designers write it: ``100000``, ``100_000``,
    ``100,000``, ``1e6`` or ``2.5e5`` (it must come to a whole number; argparse turns the
    error into a usage line naming the option). How large a count may be is the command's
    own check, with its own message."""
    plain = text.strip()
    value = Decimal(plain.replace("_", "").replace(",", "")) if _COUNT.fullmatch(plain) else None
    if value is None or value != value.to_integral_value():
        raise argparse.ArgumentTypeError(
            f"expected a whole number such as 100000, 100_000 or 1e6, found {text!r}")
    return int(value)


def add_set(p: argparse.ArgumentParser) -> None:
    """``--set PATH=VALUE`` (repeatable): change a field for this run without editing the
    file (the paths of sweep axes; values read as YAML)."""
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="PATH=VALUE",
                   help="change a field for this run, e.g. --set tables.weapons.spear.damage=6 "
                        "(repeatable; the paths of sweep axes, a path through a fighter for "
                        "its own row; values as YAML: 6, aggressive, [mail_hauberk, helm])")
