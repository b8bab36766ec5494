"""Table patches merge key by key, nested mappings included."""

from pathlib import Path

import balance

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_a_nested_patch_keeps_the_shipped_values_it_does_not_name() -> None:
    base = balance.load_scenario(next((SCENARIOS / "percentile").glob("*.yaml")))
    doc = base.model.model_dump(mode="json", exclude_none=True)
    doc["tables"] = {"lengths": {"long": {"attackers": {"open": 4}}}}
    long = balance.load_scenario(doc).tables.lengths["long"]
    shipped = base.tables.lengths["long"]
    assert long.attackers.open == 4
    assert long.attackers.cramped == shipped.attackers.cramped
    assert long.attackers.corridor == shipped.attackers.corridor
    assert long.thrusting_attackers == shipped.thrusting_attackers
