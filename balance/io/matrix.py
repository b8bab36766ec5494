"""Square matrices of win rates as CSV: option names in the first row and first column, the
row option's win rate against the column option in each cell (``0.55`` or ``55%``).

``balance metagame --matrix`` reads one a designer brings; ``balance autobalance --target``
reads a target, where a blank cell is free (any value is fine).
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from balance.errors import OptionError

MAX_BYTES = 1_000_000


def read_matrix(path: str | os.PathLike, *, blanks: bool = False,
                what: str = "--matrix") -> tuple[list[str], NDArray[np.float64]]:
    """Option names and the matrix (NaN where a cell is blank; only with ``blanks``).

    Rows may come in any order but must name the same options as the header. A blank
    diagonal cell is the mirror match: 0.5 unless ``blanks`` (then free).
    """
    path = Path(path)
    label = f"{what} {path}"
    try:
        if path.stat().st_size > MAX_BYTES:
            raise OptionError(f"{label}: larger than {MAX_BYTES:,} bytes; is this a matrix?")
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise OptionError(f"{label}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise OptionError(f"{label}: cannot read it: {err}") from None
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if len(rows) < 3:
        raise OptionError(f"{label}: expected a header row of option names and one row per "
                          f"option (at least two), found {len(rows)} rows")
    names = [c.strip() for c in rows[0][1:]]
    while names and not names[-1]:
        names.pop()
    _check_names(names, f"{label}: line 1", "column")
    n = len(names)
    values = np.full((n, n), np.nan)
    seen: dict[str, int] = {}
    for line, row in enumerate(rows[1:], start=2):
        name = row[0].strip()
        if name not in names:
            raise OptionError(f"{label}: line {line}: row {name!r} is not one of the header's "
                              f"options ({', '.join(names)})")
        if name in seen:
            raise OptionError(f"{label}: line {line}: row {name!r} repeats line {seen[name]}")
        seen[name] = line
        cells = [c.strip() for c in row[1:]]
        if any(cells[n:]):
            raise OptionError(f"{label}: line {line}: {len(cells)} values for {n} options")
        cells += [""] * (n - len(cells))
        i = names.index(name)
        for j, cell in enumerate(cells[:n]):
            values[i, j] = _value(cell, f"{label}: line {line}, column {names[j]!r}",
                                  blank_ok=blanks or i == j)
        if not blanks and np.isnan(values[i, i]):
            values[i, i] = 0.5
    absent = [o for o in names if o not in seen]
    if absent:
        raise OptionError(f"{label}: no row for {', '.join(absent)} (the matrix must be "
                          "square: one row per column)")
    return names, values


def _value(cell: str, where: str, *, blank_ok: bool) -> float:
    if not cell:
        if blank_ok:
            return float("nan")
        raise OptionError(f"{where}: blank; expected a win rate such as 0.55 or 55%")
    percent = cell.endswith("%")
    try:
        value = float(cell.rstrip("%").strip()) / (100 if percent else 1)
    except ValueError:
        raise OptionError(f"{where}: expected a win rate such as 0.55 or 55%, found "
                          f"{cell!r}") from None
    if not 0 <= value <= 1:
        hint = " (write 55% or 0.55 for fifty-five percent)" if 1 < value <= 100 else ""
        raise OptionError(f"{where}: a win rate must be between 0 and 1, found {cell!r}{hint}")
    return value


def _check_names(names: list[str], where: str, kind: str) -> None:
    if len(names) < 2:
        raise OptionError(f"{where}: expected at least two option names after the first "
                          f"{kind}")
    if any(not n for n in names):
        raise OptionError(f"{where}: an option name is blank")
    repeats = sorted({n for n in names if names.count(n) > 1})
    if repeats:
        raise OptionError(f"{where}: option names repeat ({', '.join(repeats)})")


def write_matrix(options: list[str], values: NDArray[np.float64]) -> str:
    """A matrix as CSV text in the same layout (blank for NaN)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["", *options])
    for name, row in zip(options, values, strict=True):
        w.writerow([name, *("" if np.isnan(v) else f"{v:.6g}" for v in row)])
    return out.getvalue()
