"""docs/rules/yags-coverage.md stays true: every function and test it names exists.

The table maps each rule of seed 000 to its kernel function, its reference function and the
test that checks the rule itself. Functions are named by their file under
``balance/rules/yags/`` (or from the repository's root, ``balance/engine/...``), tests by
their file under ``tests/rules/`` (or from the root, ``tests/...``). A rename or a deleted
test would leave a row pointing at nothing; this test reads the table and fails on such a
row.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "rules" / "yags-coverage.md"
FUNCTION = re.compile(r"`([\w/]+\.py):([\w.]+)`")
TEST = re.compile(r"`((?:tests/(?:\w+/)*)?test_\w+\.py)::(test_\w+)`")


def source(path: str) -> Path:
    """A named Python file: from the root when the name starts with ``balance/``, else in
    ``balance/rules/yags/``."""
    inside = ROOT / "balance" / "rules" / "yags"
    return ROOT / path if path.startswith("balance/") else inside / path


def source_of_test(path: str) -> Path:
    """A named test file: from the root when the name starts with ``tests/``."""
    return ROOT / path if path.startswith("tests/") else ROOT / "tests" / "rules" / path


def rows() -> list[list[str]]:
    """The table rows (cells) of every table in the document, headers and rules skipped."""
    out = []
    for line in TABLE.read_text().splitlines():
        if not line.startswith("|") or line.startswith("|---") or line.startswith("| rule "):
            continue
        out.append([cell.strip() for cell in line.strip("|").split("|")])
    return out


@cache
def defined_in(path: Path) -> frozenset[str]:
    """Top-level functions and classes of a Python file, and the methods of its classes."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names |= {f"{node.name}.{n.name}" for n in node.body
                      if isinstance(n, ast.FunctionDef)}
    return frozenset(names)


def test_the_table_has_every_section_and_a_test_or_a_reason_on_every_row() -> None:
    table = rows()
    assert len(table) >= 80
    for cells in table:
        assert len(cells) == 5, cells
        rule, words, kernel, reference, test = cells
        assert rule and words, cells
        left_out = kernel.startswith("— (")
        assert left_out or TEST.search(test), f"{rule}: no test named"
        assert left_out or (FUNCTION.search(kernel) and FUNCTION.search(reference)), rule


@pytest.mark.parametrize("row", rows(), ids=lambda cells: cells[0])
def test_every_named_function_and_test_exists(row: list[str]) -> None:
    rule, _, kernel, reference, test = row
    for cell in (kernel, reference):
        for path, name in FUNCTION.findall(cell):
            file = source(path)
            assert file.exists(), f"{rule}: {path} is not a file of the package"
            importlib.import_module(".".join(file.relative_to(ROOT).with_suffix("").parts))
            assert name in defined_in(file), f"{rule}: {path} defines no {name}"
    for path, name in TEST.findall(test):
        file = source_of_test(path)
        assert file.exists(), f"{rule}: {path} does not exist"
        assert name in defined_in(file), f"{rule}: {path} has no {name}"
