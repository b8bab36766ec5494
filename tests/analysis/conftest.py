"""Small mirror fights for the questions' known answers: one per rule system, and a group."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from balance.sweep.executors import SerialExecutor

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"

YAGS = {
    "name": "Mirror duel (yags)", "ruleset": "yags", "trials": 8192, "seed": 3,
    "sides": [{"name": side, "members": [{
        "attributes": {"dexterity": 3, "agility": 3, "strength": 3},
        "skills": {"single_weapon": 4}, "weapon": "long_sword", "armour": ["mail_hauberk"]}]}
        for side in ("red", "blue")],
}
YMLAD = {
    "name": "Mirror duel (ymlad)", "ruleset": "ymlad", "trials": 8192, "seed": 3,
    "sides": [{"name": side, "members": [{
        "talents": {"strength": 3, "dexterity": 3},
        "skills": {"formation": 2, "melee": 4, "close": 2}, "weapon": "battle_sword",
        "armour": ["mail_hauberk"]}]} for side in ("red", "blue")],
}
GROUP = {
    "name": "Mirror skirmish (yags, 2 vs 2)", "ruleset": "yags", "trials": 8192, "seed": 3,
    "sides": [{"name": side, "members": [{
        "count": 2, "attributes": {"dexterity": 3, "agility": 3, "strength": 3},
        "skills": {"longshaft": 4}, "weapon": "spear", "armour": ["soft_leather_jacket"]}]}
        for side in ("red", "blue")],
}


def percentile() -> str:
    return str(SCENARIOS / "percentile" / "sword_and_shield_duel.yaml")


# (scenario, the red fighter's skill path, the opponent's value, a range for floats or None)
MIRRORS = {
    "yags": (YAGS, "sides.red.members.0.skills.single_weapon", 4),
    "ymlad": (YMLAD, "sides.red.members.0.skills.melee", 4),
    "percentile": (None, "sides.red.members.0.skills.attack", 65),
    "yags-group": (GROUP, "sides.red.members.0.skills.longshaft", 4),
}


def mirror(name: str) -> tuple[object, str, int]:
    data, path, value = MIRRORS[name]
    return (copy.deepcopy(data) if data is not None else percentile()), path, value


@pytest.fixture
def local() -> SerialExecutor:
    return SerialExecutor()
