"""Survival curves and hazards of fight lengths (balance.analysis.lengths)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from balance.analysis.lengths import hazard, survival, survival_text
from balance.api import run
from balance.cli import main

ROOT = Path(__file__).resolve().parents[2] / "scenarios"
SCENARIOS = tuple(str(ROOT / p) for p in (
    "yags/reference_duel.yaml", "percentile/sword_and_shield_duel.yaml",
    "groups/ymlad_spearmen_vs_swordsmen.yaml"))


def test_hand_made_histogram() -> None:
    """4 fights decided in rounds 1, 2, 2 and 3: S = [1, 3/4, 1/4] (open after rounds 0, 1,
    2), sum 2 = (1 + 2 + 2 + 3) / 4; hazard h(1) = 1/4, h(2) = 2/3, h(3) = 1/1."""
    hist = np.array([0, 1, 2, 1, 0, 0])
    assert survival(hist) == pytest.approx([1.0, 0.75, 0.25])
    assert hazard(hist) == pytest.approx([0.25, 2 / 3, 1.0])
    assert survival(np.zeros(4, dtype=np.int64)) == [] == hazard(np.zeros(4, dtype=np.int64))
    assert survival_text(hist)[1].split()[:2] == ["0", "100.0%"]


def test_geometric_lengths_have_a_flat_hazard() -> None:
    """A fight that ends each round with probability 1/2 has h(r) = 1/2 for every r; with
    counts 2^(k - r) the hazard is exactly 1/2 until the last round."""
    hist = np.array([0, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1, 1])
    assert hazard(hist)[:9] == pytest.approx([0.5] * 9)
    assert hazard(hist)[-1] == 1.0


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.split("/")[-1])
def test_survival_sums_to_the_mean_length(path: str) -> None:
    """sum over r >= 0 of P(R > r) = E[R], exactly, for each rule system and a group fight."""
    res = run(path, trials=3000, seed=2)
    assert sum(res.survival) == pytest.approx(res.rounds["mean"], rel=1e-12)
    assert res.survival[0] == 1.0 and all(np.diff(res.survival) <= 0)
    assert all(h is None or 0 <= h <= 1 for h in res.hazard)


def test_run_json_and_text_carry_the_curve(capsys) -> None:
    assert main(["run", SCENARIOS[0], "--trials", "2000", "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sum(doc["rounds"]["survival"]) == pytest.approx(doc["rounds"]["mean"])
    assert len(doc["rounds"]["hazard"]) == len(doc["rounds"]["survival"])
    assert main(["run", SCENARIOS[0], "--trials", "2000", "--quiet"]) == 0
    assert "still open" in capsys.readouterr().out


def test_text_curve_shows_every_round_so_a_two_round_rhythm_stays_visible() -> None:
    """Fights decided only in odd rounds (as when a longer weapon steps back one round and
    the shorter closes the next): every round up to the 0.5% point has its row, so the
    curve's plateaus (open after round 2 = open after round 1) show; none is thinned out."""
    hist = np.zeros(40, dtype=np.int64)
    hist[1:30:2] = 1000 * 0.8 ** np.arange(15)
    lines = survival_text(hist)
    rounds = [int(line.split()[0]) for line in lines[1:] if line.split()[0].isdigit()]
    curve = survival(hist)
    last = max(r for r, s in enumerate(curve) if s >= 0.005)
    assert rounds == list(range(last + 1))
    assert lines[2].split()[1] == lines[3].split()[1]       # after 1 and after 2: a plateau


def test_long_curves_use_a_compact_form_that_keeps_every_round() -> None:
    hist = np.zeros(200, dtype=np.int64)
    hist[1:150] = 100
    lines = survival_text(hist, max_rows=40)
    pairs = [tok for line in lines[1:] if "fewer" not in line for tok in line.split()]
    rounds = [int(t) for t in pairs[0::2]]
    assert rounds == list(range(len(rounds))) and len(rounds) > 100
