"""Directional checks the issue asks for (seed 002): a higher harm threshold lengthens fights
and lowers the death rate; pummeling loses less to heavy armour than slashing; a shield raises
resistance in melee and more against missiles. Fixed seeds, margins of many standard errors."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
import yaml

import balance
from balance.engine.status import DEAD
from balance.rules import get
from balance.rules.ymlad.compile import harm_margin, resistance, subtype_margins
from balance.rules.ymlad.rules.tables import MELEE, MISSILE, p_success

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "ymlad"
N = 40_000


def run(scenario, **kw):
    return balance.run(scenario, trials=N, seed=kw.pop("seed", 1), **kw)


def deaths_per_fight(result) -> float:
    return result.tally.status[:, DEAD].sum() / result.trials


def rounds_sd(result) -> float:
    r = np.arange(result.tally.rounds.size)
    mean = r @ result.tally.rounds / result.trials
    return float(np.sqrt((r - mean) ** 2 @ result.tally.rounds / result.trials))


def test_higher_harm_threshold_lengthens_fights_and_lowers_the_death_rate():
    results = [run(SCENARIOS / f"duel_threshold_{t}.yaml", seed=t) for t in (1, 2, 3)]
    rounds = [r.rounds["mean"] for r in results]
    deaths = [deaths_per_fight(r) for r in results]
    for lo, hi in pairwise(results):
        se = np.hypot(rounds_sd(lo), rounds_sd(hi)) / np.sqrt(N)
        assert hi.rounds["mean"] - lo.rounds["mean"] > 10 * se
        dl, dh = deaths_per_fight(lo), deaths_per_fight(hi)
        assert dl - dh > 10 * np.sqrt((dl * (1 - dl) + dh * (1 - dh)) / N)
    assert rounds[0] < 2 < 3 < rounds[2]       # about one exchange at 1, three at 3
    assert deaths[0] > 0.6 and deaths[2] < 0.2


def test_the_threshold_files_differ_only_in_the_threshold():
    texts = [yaml.safe_load((SCENARIOS / f"duel_threshold_{t}.yaml").read_text())
             for t in (1, 2, 3)]
    for t, data in zip((1, 2, 3), texts, strict=True):
        assert data.pop("rules") == {"harm_threshold": t}
        data.pop("name")
    assert texts[0] == texts[1] == texts[2]


def _fighters(*members, **scenario):
    data = {"name": "t", "ruleset": "ymlad",
            "sides": [{"name": f"s{i}", "members": [m]} for i, m in enumerate(members)]}
    data.update(scenario)
    loaded = balance.load_scenario(data)
    return get("ymlad").compile(loaded.model, loaded.tables).fighters


def test_pummeling_loses_less_to_heavy_armour_than_slashing():
    # The poleaxe's blade and hammer both score 6; compare what plate takes off each.
    axe, bare, plate = _fighters({"weapon": "poleaxe"}, {},
                                 {"armour": ["plate_harness", "closed_helmet"]})
    slash_bare, _, pummel_bare = subtype_margins(axe, bare, MELEE)
    slash_plate, _, pummel_plate = subtype_margins(axe, plate, MELEE)
    assert slash_bare == pummel_bare
    assert slash_bare - slash_plate == 8            # one point per armour point
    assert pummel_bare - pummel_plate == 2          # one point per four
    assert harm_margin(axe, plate, MELEE) == (pummel_plate, 0)   # "best" picks the hammer


def test_pummeling_wins_more_against_plate_in_play():
    cut = run(SCENARIOS / "poleaxe_cut_vs_plate.yaml")
    hammer = run(SCENARIOS / "poleaxe_hammer_vs_plate.yaml")
    p, q = cut.outcomes["man_at_arms"], hammer.outcomes["man_at_arms"]
    assert q - p > 0.2
    # Without armour the choice does not matter: both subtypes score 6.
    data = yaml.safe_load((SCENARIOS / "poleaxe_cut_vs_plate.yaml").read_text())
    data["sides"][1]["members"][0]["armour"] = []
    unarmoured_cut = run(data, seed=3).outcomes["man_at_arms"]
    data["sides"][0]["members"][0]["policy"] = {"harm": "pummeling"}
    unarmoured_hammer = run(data, seed=3).outcomes["man_at_arms"]
    assert abs(unarmoured_cut - unarmoured_hammer) < 5 * np.sqrt(0.5 / N)


def test_a_shield_raises_resistance_in_melee_and_more_in_missile():
    shielded, bare = _fighters({"shield": "medium"}, {})
    melee_gain = resistance(shielded, MELEE) - resistance(bare, MELEE)
    missile_gain = resistance(shielded, MISSILE) - resistance(bare, MISSILE)
    assert 0 < melee_gain < missile_gain
    # So a hit that lands two times in three without it lands ...
    assert p_success(-melee_gain) == pytest.approx(1 / 9)      # ... one in nine in melee
    assert p_success(-missile_gain) == pytest.approx(1 / 729)  # ... almost never from a bow


def test_a_shield_wins_fights_in_melee_and_against_missiles():
    """In play: a medium shield turns an even melee duel between two spearmen, and a hopeless
    charge at a master archer 80 m away into a likely win."""
    def spearman_wins(shield: bool, missile: bool) -> float:
        data = yaml.safe_load((SCENARIOS / "archer_vs_charger.yaml").read_text())
        spearman = data["sides"][1]["members"][0]
        spearman.pop("shield")
        if shield:
            spearman["shield"] = "medium"
        if not missile:   # an equal spearman instead of the archer, already in reach
            other = dict(spearman, name="Other")
            other.pop("shield", None)
            data["sides"][0]["members"][0] = other
            data["distance"] = 0
        return run(data, seed=5).outcomes["spearman"]

    se = 5 * np.sqrt(2 * 0.25 / N)
    assert spearman_wins(True, False) - spearman_wins(False, False) > se
    assert spearman_wins(True, True) - spearman_wins(False, True) > se


def test_the_skill_scale_moves_the_reference_duel_most():
    """docs/rules/ymlad.md, "How much the invented defaults matter": on the reference duel the
    lab's skill scale (level - 2) against 1.5 points per level moves the sergeant from about
    48% to about 9%; the talent scale hardly moves who wins but shortens the fight."""
    from balance.sweep import run_sweep

    table = run_sweep(SCENARIOS.parent / "sweeps" / "ymlad_invented_defaults.yaml",
                      trials=4000, seed=1, out=None).table
    cell = {(r["skill scale"], r["talent scale"]): r for _, r in table.iterrows()}
    lab = cell["lab (level - 2)", "lab (score - 2)"]
    steep = cell["one and a half", "lab (score - 2)"]
    assert lab["p_sergeant"] - steep["p_sergeant"] > 0.3
    double = cell["lab (level - 2)", "double"]
    assert abs(double["p_sergeant"] - lab["p_sergeant"]) < 0.05
    assert double["rounds_mean"] < lab["rounds_mean"] - 0.2
