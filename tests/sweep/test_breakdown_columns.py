"""``balance sweep --breakdown``: what each fighter did, per cell, as table columns (issue 30,
item 10: "in the table output, JSON, Parquet and reports, with intervals")."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from balance.errors import OptionError
from balance.sweep import run_sweep
from tests.sweep.helpers import GRID, duel

TRIALS = 600


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return run_sweep(duel(GRID), trials=TRIALS, out=None, breakdown=True).table


def test_every_fighter_and_counted_metric_has_a_mean_and_an_interval(table) -> None:
    """Both duellists stand in round 1 of every fight, so each one's rounds standing is at
    least 1 a fight and at most the fight's rounds; the interval holds the mean."""
    for fighter in ("red", "blue"):
        mean = table[f"bd_{fighter}_rounds_standing"]
        assert ((mean >= 1) & (mean <= table["rounds_mean"] + 1e-9)).all()
        assert (table[f"bd_{fighter}_rounds_standing_lo"] <= mean).all()
        assert (mean <= table[f"bd_{fighter}_rounds_standing_hi"]).all()
    assert (table["trials"] == TRIALS).all()


def test_counting_changes_no_outcome(table) -> None:
    """The same cells without the breakdown: the same numbers, column for column."""
    plain = run_sweep(duel(GRID), trials=TRIALS, out=None).table
    shared = [c for c in plain.columns if c in table.columns]
    assert len(shared) == plain.shape[1]
    pd.testing.assert_frame_equal(plain[shared], table[shared], check_exact=True)


def test_the_columns_are_written_to_parquet(tmp_path) -> None:
    res = run_sweep(duel(GRID), trials=200, out=tmp_path, breakdown=True)
    back = pd.read_parquet(res.run_dir / "cells.parquet")
    assert "bd_red_rounds_standing" in back.columns
    assert not math.isnan(back["bd_red_rounds_standing"].iloc[0])
    assert res.manifest["engine_note"].startswith("Monte Carlo")


def test_a_breakdown_cannot_be_had_exactly() -> None:
    with pytest.raises(OptionError, match="breakdown"):
        run_sweep(duel(GRID), trials=200, out=None, breakdown=True, engine="exact")
