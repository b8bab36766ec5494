"""Scenarios and helpers the analysis tests share (one place, so no test module imports another's
or a conftest)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import yaml

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


ROOT = Path(__file__).resolve().parents[2]


SHIPPED = {"yags": "weapon_round_robin.yaml", "ymlad": "ymlad_weapon_round_robin.yaml",
           "percentile": "percentile_weapon_round_robin.yaml"}


# three options of each shipped round robin: a small game that still has something to say
THREE = {"yags": ["short_sword", "mace", "long_sword"],
         "ymlad": ["short_sword", "battle_sword", "mace"],
         "percentile": ["rapier", "mace", "hand_axe"]}


def small_round_robin(ruleset: str, folder: Path, **changes) -> Path:
    """The shipped round robin of a rule system, cut to three options (and ``changes``)."""
    data = yaml.safe_load((ROOT / "scenarios" / "sweeps" / SHIPPED[ruleset]).read_text())
    data["sweep"]["round_robin"]["values"] = THREE[ruleset]
    data.update(changes)
    path = folder / f"{ruleset}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def strict_json(text: str) -> dict:
    def refuse(name: str):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)

