"""The Lanchester sanity report: the laws, the fit, and the command end to end."""

import json
from pathlib import Path

import pytest

from balance.cli import main
from balance.report.lanchester import (
    LanchesterPoint,
    describe_exponent,
    exponent_edge,
    fitted_exponent,
    law,
)

DUEL = Path(__file__).resolve().parents[2] / "scenarios" / "yags" / "reference_duel.yaml"


def test_laws() -> None:
    assert law(8, 4, 1) == 4
    assert law(5, 4, 2) == pytest.approx(3)
    assert law(3, 4, 2) == 0


@pytest.mark.parametrize("k", [1.0, 1.5, 2.0])
def test_fit_recovers_the_exponent(k: float) -> None:
    points = [LanchesterPoint(a, 4, 1.0, (1.0, 1.0), law(a, 4, k), 0.0) for a in range(1, 9)]
    assert fitted_exponent(points) == pytest.approx(k, abs=0.01)


def test_command_writes_figure_and_json(tmp_path, capsys) -> None:
    assert main(["lanchester", str(DUEL), "--sizes", "3-5", "--vs", "4", "--trials", "500",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "best-fit exponent" in out
    doc = json.loads((tmp_path / "lanchester" / "lanchester.json").read_text())
    assert [p["size_a"] for p in doc["points"]] == [3, 4, 5]
    assert (tmp_path / "lanchester" / "lanchester.png").stat().st_size > 10_000


def test_bad_sizes_are_clean_errors(capsys) -> None:
    assert main(["lanchester", str(DUEL), "--sizes", "a-b"]) == 2
    assert "--sizes" in capsys.readouterr().err


@pytest.mark.parametrize(("survivors", "edge", "words"), [
    (lambda a: a, "top", "top of the fit's range"),              # B never kills anyone
    (lambda a: 0.1, "bottom", "bottom of the fit's range"),                # A barely survives
])
def test_a_fit_stuck_at_its_range_says_so(survivors, edge: str, words: str) -> None:
    """A fit at 3.00 once read "k = 3.00 ...: square", as if measured; it is only a bound."""
    points = [LanchesterPoint(a, 4, 1.0, (1.0, 1.0), survivors(a), 0.0) for a in range(5, 9)]
    k = fitted_exponent(points)
    assert exponent_edge(k) == edge
    text = describe_exponent(k)
    assert words in text and ": square" not in text
    assert exponent_edge(2.0) is None and describe_exponent(2.0).endswith("square law): square")
