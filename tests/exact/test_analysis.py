"""The analysis commands on the exact engine (balance.exact): solve, sensitivity, exchange,
sweeps, the metagame and autobalance answer duels exactly, say so, and agree with separate
exact runs to floating point.

The duels are Ymlad's (the first system with exact duels); the engine is ``auto`` by
default, so each command is asked as a designer would ask it, and ``engine="vector"`` gives
the Monte Carlo answer to compare."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import balance
from balance.analysis.exchange_rate import exchange
from balance.analysis.sensitivities import sensitivity
from balance.analysis.solving import solve
from balance.errors import OptionError

DUEL = {
    "name": "Mirror duel (ymlad)", "ruleset": "ymlad", "max_rounds": 60,
    "sides": [{"name": side, "members": [{
        "talents": {"strength": 3, "dexterity": 3},
        "skills": {"formation": 2, "melee": 4, "close": 2}, "weapon": "battle_sword",
        "armour": ["mail_hauberk"]}]} for side in ("red", "blue")],
}
SKILL = "sides.red.members.0.skills.melee"


def duel(**changes) -> dict:
    out = copy.deepcopy(DUEL)
    for k, v in changes.items():
        out["sides"][0]["members"][0]["skills"][k] = v
    return out


def test_solve_finds_the_crossing_on_the_exact_curve() -> None:
    """In the mirror, P(red wins) = (1 - P(draw)) / 2 exactly, a little under 1/2 (some
    fights end in a mutual kill or time out): the exact curve crosses 1/2 just above the
    opponent's skill 4, linearly between 4 and 5, and the answer says it is exact."""
    res = solve(DUEL, SKILL, 0.5)
    at4 = balance.run(DUEL, engine="exact").outcomes
    at5 = balance.run(duel(melee=5), engine="exact").outcomes
    assert res.exact and res.value == 4
    assert res.estimate == pytest.approx((1 - at4["draw"]) / 2, abs=1e-12)
    expected = 4 + (0.5 - at4["red"]) / (at5["red"] - at4["red"])
    assert res.crossing == pytest.approx(expected, abs=1e-12)
    assert res.ci95 == (res.estimate, res.estimate)
    assert "exact" in res.to_text() and res.to_dict()["engine"] == "exact"
    assert res.to_dict()["trials"] is None


def test_sensitivity_changes_are_exact_differences() -> None:
    res = sensitivity(DUEL, paths=[SKILL, "sides.red.members.0.talents.strength"])
    assert res.exact and "exact" in res.to_text()
    base = balance.run(DUEL, engine="exact").outcomes["red"]
    for row in res.rows:
        moved = copy.deepcopy(DUEL)
        member = moved["sides"][0]["members"][0]
        key = "skills" if "skills" in row.path else "talents"
        member[key][row.path.rsplit(".", 1)[1]] = row.to
        delta = balance.run(moved, engine="exact").outcomes["red"] - base
        assert row.delta == pytest.approx(delta, abs=1e-12)
        assert row.ci95 == (row.delta, row.delta)
    assert "95% interval" not in res.to_text()


def test_exchange_rate_is_a_ratio_of_exact_changes() -> None:
    give = "sides.red.members.0.talents.strength"
    res = exchange(DUEL, give, SKILL)
    assert res.exact and res.interval == (res.rate, res.rate)
    assert res.rate == pytest.approx(res.give.delta / res.take.delta, rel=1e-12)
    unused = exchange(DUEL, SKILL, "tables.hand_weapons.claws.melee")
    assert unused.interval is None and "changes nothing" in unused.to_text()


def test_vector_still_samples_and_agrees_within_its_interval() -> None:
    exact = sensitivity(DUEL, paths=[SKILL], both=False)
    sampled = sensitivity(DUEL, paths=[SKILL], both=False, engine="vector", trials=65_536,
                          seed=5)
    assert not sampled.exact
    lo, hi = sampled.rows[0].ci95
    width = hi - lo
    assert lo - width <= exact.rows[0].delta <= hi + width     # a 4-sigma check


def test_exact_is_refused_with_the_reason_where_it_cannot_play() -> None:
    far = copy.deepcopy(DUEL)
    far["distance"] = 30
    with pytest.raises(OptionError, match="start apart"):
        solve(far, SKILL, 0.5, engine="exact")
    res = solve(far, SKILL, 0.5, trials=4096, block_trials=4096)     # auto: Monte Carlo
    assert not res.exact


def test_a_sweep_of_duels_is_exact_and_its_cells_match_single_runs(tmp_path) -> None:
    res = balance.run_sweep("scenarios/sweeps/ymlad_harm_threshold.yaml", out=None)
    table = res.table
    assert res.manifest["engine"] == "exact" and bool(table["exact"].all())
    assert (table["lo_sergeant"] == table["p_sergeant"]).all()
    import yaml

    data = yaml.safe_load(open("scenarios/sweeps/ymlad_harm_threshold.yaml"))
    data.pop("sweep")
    data["rules"] = {"harm_threshold": 2}
    row = table[(table["harm_threshold"] == 2) & (table["sergeant armour"] == "mail")].iloc[0]
    single = balance.run(data, engine="exact")
    assert row["p_sergeant"] == pytest.approx(single.outcomes["sergeant"], abs=1e-12)
    vector = balance.run_sweep("scenarios/sweeps/ymlad_harm_threshold.yaml", out=None,
                               engine="vector", trials=2000)
    assert vector.manifest["engine"] == "vector" and "exact" not in vector.table.columns


def test_the_metagame_of_exact_duels_has_point_intervals() -> None:
    from balance.analysis.matrix import from_run

    res = balance.run_sweep("scenarios/sweeps/ymlad_weapon_round_robin.yaml", out=None)
    m = from_run(res.table, res.manifest)
    assert m.source["exact"]
    assert np.array_equal(m.low, m.score) and np.array_equal(m.high, m.score)
    assert np.allclose(m.score + m.score.T, 1, atol=1e-9)      # pooled seatings: zero-sum
