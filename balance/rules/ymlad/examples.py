"""Example scenarios of the Ymlad rules for the conformance suite (``balance.rules.testing``):
men-at-arms with long swords in mail; conformance skill 1..7 is melee skill 0..6 (Ymlad's
range)."""

from __future__ import annotations

from balance.rules.testing import Examples


def member(skill: int = 4, **kw) -> dict:
    out = {"talents": {"strength": 3, "dexterity": 3},
           "skills": {"melee": skill - 1, "close": 2}, "weapon": "long_sword",
           "armour": ["mail_hauberk", "open_helmet"]}
    out.update(kw)
    return out


def duel(a: dict, b: dict) -> dict:
    return {"name": "duel", "ruleset": "ymlad", "trials": 1000, "seed": 1,
            "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}


def group() -> dict:
    return {"name": "group", "ruleset": "ymlad", "trials": 1000, "seed": 1, "distance": 12,
            "sides": [{"name": "a", "members": [
                          member(6), member(3, missile="javelin", policy={"style": "missile"})]},
                      {"name": "b", "members": [member(4, count=2, weapon="spear",
                                                       shield="medium")]},
                      {"name": "c", "members": [member(3, weapon="dagger",
                                                       policy={"style": "close"})]}]}


EXAMPLES = Examples(duel=lambda a, b: duel(member(a), member(b)), group=group)
