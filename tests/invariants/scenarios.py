"""The scenarios the suite runs: every bundled one, and mixed patrols in each system.

Trials per run are sized to each scenario's cost (group fights of ten or more are slow):
enough to see a listing-order effect of a few points in the cheap ones and of ten or more in
the slow ones; the patrols carry the suite's power against listing order (8,000 trials).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from tests.invariants.generate import percentile_fighter, yags_fighter, ymlad_fighter

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted(p for p in (ROOT / "scenarios").glob("*/*.yaml") if p.parent.name != "sweeps")

# Scenarios whose results may change when members are reordered, because they ask for it.
ORDERED = {
    "ymlad_party_vs_skeletons.yaml": "the party's `target: first` (keep together on the first "
                                     "skeleton in scenario order) depends on listing by design",
}


@cache
def bundled(name: str) -> dict:
    path = next(p for p in BUNDLED if p.name == name)
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def fighters(scenario: dict) -> int:
    return sum(m.get("count", 1) for s in scenario["sides"] for m in s["members"])


# Trials per run of the slow bundled group fights (the others get DEFAULT_TRIALS).
SLOW = {"yags_bridge_hold.yaml": 600, "ymlad_party_vs_skeletons.yaml": 600,
        "party_vs_skeletons.yaml": 600, "percentile_spearmen_vs_swordsmen.yaml": 800,
        "corridor.yaml": 1000, "yags_spearmen_vs_swordsmen.yaml": 1500}
DEFAULT_TRIALS = 3000


def trials(name: str) -> int:
    return SLOW.get(name, DEFAULT_TRIALS)


GROUPS = [p.name for p in BUNDLED if fighters(bundled(p.name)) > 2]
ALL = [p.name for p in BUNDLED]


def _patrol(system: str, watch: list[dict], bandits: list[dict]) -> dict:
    for m, name in zip(watch + bandits, ["sergeant", "recruit", "spearman", "chief", "thug",
                                          "boy"], strict=True):
        m["name"] = name
    return {"name": f"mixed patrol ({system})", "ruleset": system,
            "sides": [{"name": "watch", "members": watch},
                      {"name": "bandits", "members": bandits}]}


E: dict = {}     # the default target policy
# The test case: a mixed patrol of three against three, in each system, on the
# default policy. Under the old default `first` all three go for the first-listed foe, so
# reversing a side's members changes who wins.
PATROLS = {
    "yags": _patrol("yags",
                    [yags_fighter("long_sword", 5, ["mail_hauberk", "helm"], E),
                     yags_fighter("dagger", 2, ["padded_jacket"], E),
                     yags_fighter("spear", 4, ["soft_leather_jacket"], E)],
                    [yags_fighter("great_axe", 5, ["mail_jacket"], E),
                     yags_fighter("mace", 3, [], E),
                     yags_fighter("dagger", 2, [], E)]),
    "percentile": _patrol("percentile",
                          [percentile_fighter("broadsword", 75, "chainmail", E),
                           percentile_fighter("dagger", 35, "leather", E),
                           percentile_fighter("short_spear", 55, "leather", E)],
                          [percentile_fighter("great_axe", 70, "leather_and_rings", E),
                           percentile_fighter("mace", 50, "leather", E),
                           percentile_fighter("dagger", 30, "none", E)]),
    "ymlad": _patrol("ymlad",
                     [ymlad_fighter("long_sword", 5, ["mail_hauberk", "open_helmet"], E),
                      ymlad_fighter("dagger", 2, ["gambeson"], E),
                      ymlad_fighter("spear", 4, ["leather_armour"], E)],
                     [ymlad_fighter("great_axe", 5, ["mail_shirt"], E),
                      ymlad_fighter("mace", 3, ["leather_jerkin"], E),
                      ymlad_fighter("dagger", 2, [], E)]),
}
PATROL_TRIALS = 8000
