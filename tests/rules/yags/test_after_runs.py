"""Aftermath in a run: alive_after per side, a healer helps, bad side names are errors."""

from pathlib import Path

import pytest

import balance
from balance.errors import ScenarioError

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "yags"


def test_alive_after_and_a_healer_helps() -> None:
    alone = balance.run(SCENARIOS / "skirmish_aftermath.yaml", trials=20_000, seed=3)
    tended = balance.run(SCENARIOS / "skirmish_aftermath_healer.yaml", trials=20_000, seed=3)
    assert alone.outcomes == tended.outcomes          # the fight itself is the same
    a, t = alone.to_dict()["alive_after"], tended.to_dict()["alive_after"]
    assert set(a) == {"raiders", "militia"}
    # first aid saves lives (seed 000); +0.019 here (three duels under `engage` wound less
    # than the old focus on the first-listed raider), ~20 standard errors
    assert t["militia"] > a["militia"] + 0.01
    # the raiders have no healer either way (their checks draw from a shifted stream)
    assert a["raiders"] == pytest.approx(t["raiders"], abs=5 * (0.25 / 60_000) ** 0.5)
    # nobody is alive after who was dead at the end of the fight
    dead = sum(st.get("dead", 0) for name, st in alone.fighter_status.items() if "Militia" in name)
    assert a["militia"] <= 1 - dead / 3 + 1e-12


def test_unknown_side_in_first_aid() -> None:
    doc = balance.load_scenario(SCENARIOS / "skirmish_aftermath.yaml").model.model_dump(
        mode="json", exclude_none=True)
    doc["aftermath"]["first_aid"] = {"milita": {"intelligence": 3, "first_aid": 3}}
    with pytest.raises(ScenarioError, match="did you mean 'militia'"):
        balance.run(doc, trials=10)
