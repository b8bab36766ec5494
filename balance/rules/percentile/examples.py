"""Example scenarios of the percentile rules for the conformance suite
(``balance.rules.testing``): broadsword and full shield, no armour; conformance skill 1..7
is 12 x that in attack and shield percent."""

from __future__ import annotations

from balance.rules.testing import Examples


def member(skill: int = 60, **kw) -> dict:
    out = {"characteristics": {"STR": 13, "CON": 13, "SIZ": 13, "DEX": 12},
           "skills": {"attack": skill, "shield": skill}, "weapon": "broadsword",
           "shield": "full_shield", "armour": "none"}
    out.update(kw)
    return out


def duel(a: dict, b: dict, **kw) -> dict:
    out = {"name": "duel", "ruleset": "percentile", "trials": 1000, "seed": 1,
           "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    out.update(kw)
    return out


def group() -> dict:
    return {"name": "group", "ruleset": "percentile", "trials": 1000, "seed": 1,
            "sides": [{"name": "a", "members": [member(75),
                                                member(50, weapon="long_spear", shield=None)]},
                      {"name": "b", "members": [member(60, count=2)]},
                      {"name": "c", "members": [member(40, weapon="fist", shield=None)]}]}


EXAMPLES = Examples(duel=lambda a, b: duel(member(12 * a), member(12 * b)), group=group)
