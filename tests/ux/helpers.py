"""The weapons table and gate budget the gate output tests share."""

from __future__ import annotations

import yaml

from tests.sweep.helpers import duel

MIRROR = duel(trials=1000)


MIRROR["sides"][1]["members"][0]["armour"] = ["mail_hauberk"]   # red and blue identical


WEAPONS = {"grid": {"sides.0.members.0.weapon": ["long_sword", "spear", "club"]}}


def write_budget(tmp_path, claims: list[dict], **top) -> str:
    (tmp_path / "duel.yaml").write_text(yaml.safe_dump(MIRROR))
    budget = {"name": "ux budget", "trials": 2000, "max_trials": 16384, "seed": 3, **top,
              "claims": claims}
    path = tmp_path / "budget.yaml"
    path.write_text(yaml.safe_dump(budget, sort_keys=False))
    return str(path)

