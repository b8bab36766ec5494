"""Example scenarios of the Yags rules for the conformance suite (``balance.rules.testing``):
veterans with long swords in mail, conformance skill 1..7 as their single-weapon skill;
the exact engine's duels (``EXACT``)."""

from __future__ import annotations

from balance.rules.testing import Examples


def member(skill: int = 4, **kw) -> dict:
    out = {"attributes": {"dexterity": 3, "agility": 3, "strength": 3},
           "skills": {"single_weapon": skill}, "weapon": "long_sword",
           "armour": ["mail_hauberk"]}
    out.update(kw)
    return out


def duel(a: dict, b: dict, **kw) -> dict:
    out = {"name": "duel", "ruleset": "yags", "trials": 1000, "seed": 1,
           "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    out.update(kw)
    return out


def group() -> dict:
    return {"name": "group", "ruleset": "yags", "trials": 1000, "seed": 1,
            "sides": [{"name": "a", "members": [member(5), member(3, stance="aggressive")]},
                      {"name": "b", "members": [member(4, count=2)]},
                      {"name": "c", "members": [member(2, weapon="fist")]}]}


def fists(skill: int) -> dict:
    """A brawler (fists can be neither lost nor broken, so a fumble against a more skilled
    foe stays within the basic rules)."""
    return member(skill, weapon="fist", skills={"brawl": skill})


# Exact duels (balance.exact): the long-sword duel at 4 against 4 and, with unequal skills,
# fists (long swords at unequal skills can be broken or knocked away by a fumble, a detailed
# rule the exact engine does not model).
EXACT = (duel(member(4), member(4)), duel(fists(6), fists(3)))

EXAMPLES = Examples(duel=lambda a, b: duel(member(a), member(b)), group=group, exact=EXACT)
