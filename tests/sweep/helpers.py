"""The grid and duel the sweep, analysis and ux tests share (one place, so no test module imports
another's or a conftest)."""

from __future__ import annotations

import copy
import subprocess
import sys

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


def imported_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return {name.split(".")[0] for name in out.split()}

