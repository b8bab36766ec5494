"""docs/rules/percentile-coverage.md stays true: every function and test it names exists,
every rule row names a test (or says why it cannot change a fight), and every core
convention gives the family's usual value beside the lab's."""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

from balance.io.tables import shipped_tables

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "percentile-coverage.md"
NAME = re.compile(r"`([^`]+)`")
NO_TEST = ("outside fights",)


def tables() -> list[tuple[list[str], list[list[str]]]]:
    """Each markdown table of the document: (header cells, rows of cells)."""
    out, header, rows = [], None, []
    for line in [*DOC.read_text().splitlines(), ""]:
        if not line.startswith("|"):
            if header:
                out.append((header, rows))
            header, rows = None, []
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if header is None:
            header = cells
        elif not set(line) <= set("|- "):
            rows.append(cells)
    return out


def column(header: list[str], name: str) -> int:
    return next(i for i, h in enumerate(header) if h.startswith(name))


def resolve(dotted: str) -> object:
    """The object a code name refers to (relative to balance.rules.percentile)."""
    path = dotted if dotted.startswith("balance.") else f"balance.rules.percentile.{dotted}"
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


@cache
def defined_tests(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text())
    return frozenset(n.name for n in tree.body if isinstance(n, ast.FunctionDef)
                     and n.name.startswith("test_"))


def exists_as_test(ref: str) -> bool:
    file, _, name = ref.partition("::")
    path = ROOT / file if "/" in file else ROOT / "tests" / "rules" / file
    return path.is_file() and name.split("[")[0] in defined_tests(path)


def test_every_named_function_and_test_exists() -> None:
    missing = []
    checked = 0
    for header, rows in tables():
        if "code" not in header:
            continue
        code, test = column(header, "code"), column(header, "test")
        for row in rows:
            for name in NAME.findall(row[code]):
                try:
                    resolve(name)
                    checked += 1
                except (ImportError, AttributeError):
                    missing.append(f"row {row[0]}: {name}")
            for ref in NAME.findall(row[test]):
                if not exists_as_test(ref):
                    missing.append(f"row {row[0]}: {ref}")
                checked += 1
    assert not missing, missing
    assert checked > 150


def test_every_rule_has_a_test_or_a_reason() -> None:
    rows = [row for header, rs in tables() if "test" in header for row in rs]
    assert sum(row[0].isdigit() for row in rows) >= 79      # seed 004, rule by rule
    assert sum(row[0].startswith("C") for row in rows) >= 20  # the family's core
    for row in rows:
        test = row[-1]
        assert NAME.findall(test) or any(reason in " ".join(row) for reason in NO_TEST), row


def test_core_conventions_give_the_familys_value_beside_the_labs() -> None:
    core = [(h, rows) for h, rows in tables() if any("usual value" in c for c in h)]
    assert core
    header, rows = core[0]
    usual, lab = column(header, "the family"), column(header, "the lab")
    for row in rows:
        assert row[usual] and row[lab], row


def test_improvised_weapons_are_rows() -> None:
    """Seed 004: improvised throws use the Throw skill with half the damage bonus; things
    too heavy to hurl are dropped (no bonus), as is a falling object; a large object swung
    in hand to hand is an improvised large club."""
    weapons = shipped_tables("percentile").weapons
    assert weapons["thrown_object"].kind == "thrown" and weapons["thrown_object"].db == "half"
    assert weapons["dropped_object"].kind == "thrown" and weapons["dropped_object"].db == "none"
    assert weapons["improvised_large_club"].improvised


@pytest.mark.parametrize("ref", ["test_percentile_exact.py::test_nothing_here",
                                 "no_such_file.py::test_x"])
def test_a_missing_test_is_noticed(ref: str) -> None:
    assert not exists_as_test(ref)


def test_a_missing_function_is_noticed() -> None:
    with pytest.raises(AttributeError):
        resolve("kernel.no_such_step")
