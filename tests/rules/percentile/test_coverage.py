"""docs/rules/percentile-coverage.md stays true: every rule row names a test (or says why it
cannot change a fight), and every core convention gives the family's usual value beside the
lab's. That every function and test it names exists is the shared check of every system's
table (``balance.rules.coverage``, run by ``tests/rules/test_common.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from balance.io.tables import shipped_tables
from balance.rules import coverage

ROOT = Path(__file__).resolve().parents[3]
ROWS = coverage.rows(coverage.table_path("percentile", ROOT))
NO_TEST = ("outside fights",)


def test_every_rule_has_a_test_or_a_reason() -> None:
    rows = [row for row in ROWS if "test" in row.cells]
    assert sum(row.rule.isdigit() for row in rows) >= 79      # seed 004, rule by rule
    assert sum(row.rule.startswith("C") for row in rows) >= 20  # the family's core
    for row in rows:
        assert row.tests or any(reason in " ".join(row.cells.values()) for reason in NO_TEST), \
            row.rule


def test_every_row_names_its_code() -> None:
    assert sum(len(row.code) for row in ROWS) > 150
    assert all(row.code for row in ROWS if row.tests), [r.rule for r in ROWS if not r.code]


def test_core_conventions_give_the_familys_value_beside_the_labs() -> None:
    core = [row for row in ROWS if any("usual value" in head for head in row.cells)]
    assert core
    for row in core:
        usual = next(c for h, c in row.cells.items() if h.startswith("the family"))
        lab = next(c for h, c in row.cells.items() if h.startswith("the lab"))
        assert usual and lab, row.rule


def test_improvised_weapons_are_rows() -> None:
    """Seed 004: improvised throws use the Throw skill with half the damage bonus; things
    too heavy to hurl are dropped (no bonus), as is a falling object; a large object swung
    in hand to hand is an improvised large club."""
    weapons = shipped_tables("percentile").weapons
    assert weapons["thrown_object"].kind == "thrown" and weapons["thrown_object"].db == "half"
    assert weapons["dropped_object"].kind == "thrown" and weapons["dropped_object"].db == "none"
    assert weapons["improvised_large_club"].improvised


@pytest.mark.parametrize("ref", ["test_exact.py::test_nothing_here", "no_such_file.py::test_x"])
def test_a_missing_test_is_noticed(ref: str) -> None:
    row = coverage.Row("", {"#": "1", "code": "`kernel.fight.play_round`", "test": f"`{ref}`"})
    assert coverage.row_problems("percentile", row, ROOT)


def test_a_missing_function_is_noticed() -> None:
    row = coverage.Row("", {"#": "1", "code": "`kernel.fight.no_such_step`",
                            "test": "`test_exact.py::test_nothing_here`"})
    found = coverage.row_problems("percentile", row, ROOT)
    assert any("no code named kernel.fight.no_such_step" in p for p in found), found
