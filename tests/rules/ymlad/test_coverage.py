"""docs/rules/ymlad-coverage.md is whole: every modelled rule quotes the seed and names a
kernel, a reference and a test; every rule left out says why. That every name points at
real code and a real test is the shared check of every system's table
(``balance.rules.coverage``, run by ``tests/rules/test_common.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from balance.rules import coverage

ROOT = Path(__file__).resolve().parents[3]
ROWS = coverage.rows(coverage.table_path("ymlad", ROOT))
MODELLED = [row for row in ROWS if row.section == "Modelled"]


def test_the_table_covers_the_seed() -> None:
    assert len(MODELLED) >= 50 and all(len(row.cells) == 5 for row in MODELLED)
    rules = [row.rule for row in MODELLED]
    assert len(set(rules)) == len(rules)
    left_out = [row for row in ROWS if row.section == "Left out, and why"]
    assert left_out and all(len(row.cells) == 3 and all(row.cells.values()) for row in left_out)


@pytest.mark.parametrize("row", MODELLED, ids=[row.rule for row in MODELLED])
def test_every_modelled_rule_quotes_the_seed_and_names_code_and_a_test(row) -> None:
    assert row.cells["seed 002 says"].startswith('"'), f"{row.rule}: quote the seed"
    for column in ("kernel", "reference", "test"):
        assert row.column(column), f"{row.rule}: the {column} column names nothing"
    for name in row.code:
        assert callable(coverage.resolve("ymlad", name)), name
