"""The matrix of a round-robin run (seatings pooled, draws as half a win, or per seat) and of
a designer's CSV."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from balance.analysis.matrix import from_run
from balance.errors import OptionError
from balance.io.matrix import read_matrix, write_matrix

MANIFEST = {"scenario": "t", "ruleset": "yags", "seed": 1, "trials": 100,
            "sides": ["red", "blue"], "round_robin": ["red.w", "blue.w"],
            "axes": [{"name": "red.w", "paths": ["sides.0.members.0.weapon"],
                      "kind": "round_robin", "labels": ["a", "b"]},
                     {"name": "blue.w", "paths": ["sides.1.members.0.weapon"],
                      "kind": "round_robin", "labels": ["a", "b"]}]}
# red (first side) holds red.w; counts: red wins, blue wins, draws, trials
CELLS = [("a", "a", 45, 45, 10, 100), ("a", "b", 60, 30, 10, 100),
         ("b", "a", 20, 70, 10, 100), ("b", "b", 50, 40, 10, 100)]


def table() -> pd.DataFrame:
    return pd.DataFrame(CELLS, columns=["red.w", "blue.w", "n_red", "n_blue", "n_draw",
                                        "trials"])


def test_pooled_matrix_counts_both_seatings_and_half_draws() -> None:
    m = from_run(table(), MANIFEST)
    # a against b: 60 wins seated red + 70 seated blue, 20 draws as 10, over 200 trials
    assert m.score[0, 1] == pytest.approx((60 + 70 + 10) / 200)
    assert m.score[0, 1] + m.score[1, 0] == pytest.approx(1)
    assert np.diag(m.score) == pytest.approx([0.5, 0.5])
    assert m.trials[0, 1] == 200 and m.low[0, 1] < m.score[0, 1] < m.high[0, 1]


def test_draws_as_loss_and_one_seat() -> None:
    loss = from_run(table(), MANIFEST, draws="loss")
    assert loss.score[0, 1] == pytest.approx(130 / 200)
    assert loss.score[0, 0] == pytest.approx(90 / 200)       # mirror: wins of both seats
    red = from_run(table(), MANIFEST, seat="red")
    assert red.score[0, 1] == pytest.approx((60 + 5) / 100)  # a seated red against b
    assert red.score[1, 0] == pytest.approx((20 + 5) / 100)
    blue = from_run(table(), MANIFEST, seat="blue")
    assert blue.score[0, 1] == pytest.approx((70 + 5) / 100)  # a seated blue against b
    with pytest.raises(OptionError, match="'green' is not a side"):
        from_run(table(), MANIFEST, seat="green")


def test_missing_cells_and_crossed_axes_are_errors() -> None:
    with pytest.raises(OptionError, match="no cell of a against b"):
        from_run(table().iloc[[0, 3]], MANIFEST)
    crossed = {**MANIFEST, "axes": [*MANIFEST["axes"], {"name": "skill", "paths": ["x"],
                                                        "kind": "grid", "labels": [1, 2]}]}
    with pytest.raises(OptionError, match="crosses the round robin with skill"):
        from_run(table(), crossed)


def test_csv_matrix_round_trip_and_errors(tmp_path) -> None:
    f = tmp_path / "m.csv"
    f.write_text(",rock,paper,scissors\nscissors,0%,100%,\nrock,,0,1\npaper,1,,0\n")
    names, values = read_matrix(f)
    assert names == ["rock", "paper", "scissors"]
    assert values.tolist() == [[0.5, 0, 1], [1, 0.5, 0], [0, 1, 0.5]]
    f.write_text(write_matrix(names, values))
    assert read_matrix(f)[1].tolist() == values.tolist()
    target = tmp_path / "t.csv"
    target.write_text(",a,b\na,,0.6\nb,,\n")
    assert np.isnan(read_matrix(target, blanks=True)[1]).sum() == 3
    for text, message in ((",a,b\na,,55\nb,0.45,\n", "write 55% or 0.55"),
                          (",a,b\na,,x\nb,0.4,\n", "found 'x'"),
                          (",a,b,c\na,,0.6,0.5\nc,0.5,0.5,\n", "no row for b"),
                          (",a,b\na,,0.6\nc,0.4,\n", "row 'c' is not one of"),
                          (",a,b\na,,\nb,0.4,\n", "line 2, column 'b': blank")):
        f.write_text(text)
        with pytest.raises(OptionError, match=message):
            read_matrix(f)
