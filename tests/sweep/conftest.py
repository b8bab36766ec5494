"""Small sweeps for the tests: Yags duels, a few hundred to a few thousand trials a cell."""

from __future__ import annotations

import copy

import pytest

DUEL = {
    "name": "Test duel",
    "ruleset": "yags",
    "trials": 2000,
    "seed": 5,
    "sides": [
        {"name": "red", "members": [{"attributes": {"dexterity": 3, "agility": 3},
                                     "skills": {"single_weapon": 4, "longshaft": 4},
                                     "weapon": "long_sword", "armour": ["mail_hauberk"]}]},
        {"name": "blue", "members": [{"attributes": {"dexterity": 3, "agility": 3},
                                      "skills": {"single_weapon": 4, "longshaft": 4},
                                      "weapon": "long_sword", "armour": []}]},
    ],
}


def duel(sweep: dict | None = None, **changes) -> dict:
    """The test duel as plain data, with a sweep block and top-level changes."""
    data = copy.deepcopy(DUEL)
    data.update(changes)
    if sweep is not None:
        data["sweep"] = sweep
    return data


GRID = {"grid": {"sides.0.members.0.weapon": ["long_sword", "spear", "mace"],
                 "armour": {"path": "sides.blue.members.0.armour",
                            "values": [[], ["mail_hauberk"]], "labels": ["none", "mail"]}}}


@pytest.fixture
def grid_duel() -> dict:
    return duel(GRID)
