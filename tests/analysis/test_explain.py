"""balance run --explain: the numbers before the first roll (balance.analysis.explaining)."""

from __future__ import annotations

import copy
import json

import pytest

from balance.analysis.explaining import explain, explain_text
from balance.cli import main
from tests.analysis.helpers import MIRRORS, YAGS, mirror


@pytest.mark.parametrize("name", list(MIRRORS))
def test_every_fighter_is_explained_in_strict_json(name: str) -> None:
    scenario, _, _ = mirror(name)
    doc = explain(scenario)
    json.dumps(doc, allow_nan=False)
    n = 4 if name == "yags-group" else 2
    assert len(doc["fighters"]) == n
    for f in doc["fighters"]:
        assert f["headline"] and all(k in f["numbers"] for k in f["headline"])
        assert f["rows"] and "scenario" in f
    assert "fights with" in explain_text(doc)


def test_a_patched_row_is_marked_and_moves_the_compiled_number() -> None:
    """Seed 000: damage is strength x 4 + the weapon's damage, so patching the long sword's
    damage from 6 to 8 raises the compiled damage of its wielders by exactly 2, and the
    patch is listed with its shipped value."""
    patched = copy.deepcopy(YAGS)
    patched["tables"] = {"weapons": {"long_sword": {"damage": 8}}}
    before, after = explain(YAGS), explain(patched)
    assert after["patched"] == [{"table": "weapons", "row": "long_sword", "field": "damage",
                                 "shipped": 6, "now": 8}]
    assert before["patched"] == []
    for b, a in zip(before["fighters"], after["fighters"], strict=True):
        assert a["numbers"]["damage"] - b["numbers"]["damage"] == 2
        assert a["rows"]["weapons.long_sword"]["patched"] == ["damage"]
    assert "damage*" in explain_text(after)


def test_cli(tmp_path, capsys) -> None:
    path = tmp_path / "duel.yaml"
    path.write_text(json.dumps(YAGS))
    assert main(["run", str(path), "--explain", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ruleset"] == "yags" and len(doc["fighters"]) == 2
    assert main(["run", str(path), "--explain"]) == 0
    assert "the numbers before the first roll" in capsys.readouterr().out


def test_a_members_count_is_one_block_of_text() -> None:
    """Eight bandits of one member once printed eight identical blocks (224 lines for the
    bridge hold); the JSON keeps every fighter."""
    group = copy.deepcopy(YAGS)
    group["sides"][1]["members"][0]["count"] = 3
    doc = explain(group)
    assert len(doc["fighters"]) == 4
    text = explain_text(doc)
    names = [f["name"] for f in doc["fighters"][1:]]
    assert f"{names[0]} to {names[-1]}  (side blue; 3 fighters with the same numbers)" in text
    assert text.count("fights with") == 2


def test_ymlad_numbers_are_labelled_and_show_encumbrance() -> None:
    """Ymlad's per-style numbers print with their styles and the preferred style by name;
    encumbrance (seed 002: the load against the capacity, added to every effort and
    resistance) is a headline number: at strength 3, plate and closed helmet cost -1 where
    a mail hauberk costs 0 (the lab's encumbrance table), which is why plate can do worse."""
    from tests.analysis.helpers import YMLAD

    plate = copy.deepcopy(YMLAD)
    plate["sides"][0]["members"][0]["armour"] = ["plate_harness", "closed_helmet"]
    doc, mail = explain(plate), explain(YMLAD)
    text = explain_text(doc)
    assert "weapon {missile: " in text and ", melee: " in text and "skill {missile: " in text
    assert "style melee (2)" in text and "encumbrance -1" in text
    assert "(encumbrance: the weight of armour and shield against" in text
    assert doc["labels"]["weapon"] == ["missile", "formation", "melee", "close"]
    assert doc["codes"]["style"][2] == "melee"
    assert isinstance(doc["fighters"][0]["numbers"]["weapon"], list)    # the JSON stays raw
    assert "encumbrance" in doc["fighters"][0]["headline"]
    assert (doc["fighters"][0]["numbers"]["encumbrance"],
            mail["fighters"][0]["numbers"]["encumbrance"]) == (-1, 0)


def test_the_two_party_scenarios_say_why_they_differ() -> None:
    """Two bundled party-against-skeletons fights once had near-identical titles and
    opposite results (67% and 33%): their names now say what differs, and each description
    names the other file and why."""
    from pathlib import Path

    import balance

    root = Path(__file__).resolve().parents[2] / "scenarios"
    a = balance.load_scenario(root / "ymlad" / "party_vs_skeletons.yaml").model
    b = balance.load_scenario(root / "groups" / "ymlad_party_vs_skeletons.yaml").model
    assert "five skeletons" in a.name and "seven skeletons" in b.name
    assert "tactics" in b.name and "morale" in b.name
    assert "groups/ymlad_party_vs_skeletons.yaml" in a.description
    assert "ymlad/party_vs_skeletons.yaml" in b.description
