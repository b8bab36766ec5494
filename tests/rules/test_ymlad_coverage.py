"""docs/rules/ymlad-coverage.md names real code and real tests.

Every name in backticks in the kernel and reference columns must be an attribute of its
module (relative to ``balance.rules.ymlad`` unless it starts with ``balance.``), and every
test must be a test function in its file (under ``tests/rules/`` unless a path from the
repository's root is given). Every row names a kernel, a reference and a test.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "ymlad-coverage.md"


def table(heading: str) -> list[list[str]]:
    """The body rows of the table under ``## heading``, as lists of cells."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows[2:]]


def names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def resolve(name: str) -> object:
    module, _, attr = name.rpartition(".")
    base = module if module.startswith("balance.") else f"balance.rules.ymlad.{module}"
    return getattr(importlib.import_module(base), attr)


@cache
def defined_tests(path: str) -> frozenset[str]:
    file = ROOT / path if "/" in path else ROOT / "tests" / "rules" / path
    tree = ast.parse(file.read_text(encoding="utf-8"))
    return frozenset(node.name for node in tree.body
                     if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"))


MODELLED = table("Modelled")


def test_the_table_covers_the_seed() -> None:
    assert len(MODELLED) >= 50 and all(len(row) == 5 for row in MODELLED)
    rules = [row[0] for row in MODELLED]
    assert len(set(rules)) == len(rules)
    left_out = table("Left out, and why")
    assert left_out and all(len(row) == 3 and all(row) for row in left_out)


@pytest.mark.parametrize("row", MODELLED, ids=[row[0] for row in MODELLED])
def test_every_named_function_and_test_exists(row: list[str]) -> None:
    rule, words, kernel, reference, tests = row
    assert words.startswith('"'), f"{rule}: quote the seed"
    for cell in (kernel, reference, tests):
        assert names(cell), f"{rule}: a column names nothing"
    for name in names(kernel) + names(reference):
        assert callable(resolve(name)), name
    for name in names(tests):
        path, _, function = name.partition("::")
        assert function in defined_tests(path), f"{rule}: no test {name}"
