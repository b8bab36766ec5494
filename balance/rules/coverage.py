"""The coverage tables: one reader and one checker for every rule system's
``docs/rules/<system>-coverage.md``.

Each table row names a rule of the seed, the seed's words, every function that plays it
(columns headed ``kernel``, ``reference`` or ``code``) and the tests that check the rule itself
(the column headed ``test``). In every system's table alike:

* a function is a dotted name in backticks, relative to ``balance.rules.<system>`` unless it
  starts with ``balance.`` (``kernel.fight.start``, ``rules.tracks.health_check``,
  ``balance.engine.targeting.choose_targets``); a class's method is ``Class.method``;
* a cell that starts with ``— (`` says why the lab leaves the rule out;
* a test is ``file.py::test_name`` in backticks, in ``tests/rules/<system>/`` unless the path
  starts with ``tests/`` (a parametrised test may carry its ``[id]``).

:func:`problems` lists every name of a table that points at nothing (a renamed function, a
deleted test), row by row; :func:`check_coverage_table` raises with that list. The systems'
own coverage tests call these and add what is particular to their table (Yags: every named
function runs when its rule acts; percentile: the family's usual value beside the lab's).
The docs live in the repository, not in the installed package: ``root`` is the checkout.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CODE_COLUMNS = ("kernel", "reference", "code")
NAME = re.compile(r"`([^`]+)`")
TEST = re.compile(r"^((?:[\w/]+/)?test_\w+\.py)::(test_\w+)(\[.*\])?$")


def repository_root() -> Path:
    """The checkout this package is imported from (where ``docs/`` and ``tests/`` are)."""
    return Path(__file__).resolve().parents[2]


def table_path(system: str, root: Path | None = None) -> Path:
    """``docs/rules/<system>-coverage.md`` of the checkout ``root`` (default: this one)."""
    path = (root or repository_root()) / "docs" / "rules" / f"{system}-coverage.md"
    if not path.is_file():
        raise FileNotFoundError(f"no coverage table {path} (the tables live in the lab's "
                                "checkout, not in an installed package: pass root=)")
    return path


@dataclass(frozen=True)
class Row:
    """One body row of a coverage table, its cells keyed by their column's heading."""

    section: str
    cells: dict[str, str]

    @property
    def rule(self) -> str:
        return next(iter(self.cells.values()))

    def column(self, *starts: str) -> list[str]:
        """The backticked names of the columns whose heading starts with one of ``starts``
        (a cell that starts with a dash says why nothing is named: its backticks are prose)."""
        return [name for head, cell in self.cells.items()
                if head.startswith(starts) and not cell.startswith("—")
                for name in NAME.findall(cell)]

    @property
    def left_out(self) -> bool:
        """A row the lab does not model: its code cells start with a dash and a reason."""
        return any(cell.startswith("— (") for head, cell in self.cells.items()
                   if head.startswith(CODE_COLUMNS))

    @property
    def code(self) -> list[str]:
        return self.column(*CODE_COLUMNS)

    @property
    def tests(self) -> list[str]:
        return self.column("test")


def rows(doc: Path) -> list[Row]:
    """Every body row of every table of a coverage document, with the ``##`` heading above."""
    out: list[Row] = []
    section, header = "", None
    for line in [*doc.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("## "):
            section = line[3:].strip()
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if header is None:
            header = cells
        elif not set(line) <= set("|- :"):
            out.append(Row(section, dict(zip(header, cells, strict=False))))
    return out


def resolve(system: str, name: str) -> object:
    """The object a code name refers to: the longest importable module prefix, then
    attributes (``kernel.fight.start``; ``reference.state.FighterState.inside``)."""
    path = name if name.startswith("balance.") else f"balance.rules.{system}.{name}"
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(name)


def locate_test(system: str, ref: str, root: Path | None = None) -> tuple[Path, str]:
    """(file, test function) of a test reference ``file.py::test_name[id]``."""
    match = TEST.match(ref)
    if match is None:
        raise ValueError(f"{ref!r} is not file.py::test_name")
    file, name = match.group(1), match.group(2)
    root = root or repository_root()
    path = root / file if file.startswith("tests/") else root / "tests" / "rules" / system / file
    return path, name


@cache
def defined_tests(path: Path) -> frozenset[str]:
    """The test functions a test file defines at its top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(n.name for n in tree.body
                     if isinstance(n, ast.FunctionDef) and n.name.startswith("test_"))


def row_problems(system: str, row: Row, root: Path | None = None) -> list[str]:
    """What in one row points at nothing."""
    out = []
    for name in row.code:
        try:
            resolve(system, name)
        except (ImportError, AttributeError):
            out.append(f"{row.rule}: no code named {name}")
    for ref in row.tests:
        try:
            path, test = locate_test(system, ref, root)
        except ValueError as err:
            out.append(f"{row.rule}: {err}")
            continue
        if not path.is_file():
            out.append(f"{row.rule}: {ref}: no file {path}")
        elif test not in defined_tests(path):
            out.append(f"{row.rule}: {ref}: {path.name} has no {test}")
    return out


def problems(system: str, root: Path | None = None) -> list[str]:
    """Every name in ``system``'s coverage table that points at nothing."""
    return [p for row in rows(table_path(system, root)) for p in row_problems(system, row, root)]


def check_coverage_table(system: str, root: Path | None = None) -> int:
    """Raise AssertionError listing every dangling name; else the number of names checked."""
    found = problems(system, root)
    if found:
        raise AssertionError(f"{table_path(system, root)}:\n  " + "\n  ".join(found))
    return sum(len(r.code) + len(r.tests) for r in rows(table_path(system, root)))
