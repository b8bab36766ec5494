"""Invariant 5: in a duel, one step more skill never lowers a fighter's chance, for every
shipped weapon of every rule system (hand weapons, shields, missiles).

The step is the system's own unit: +1 skill level in Yags and Ymlad, +5 percentage points in
the percentile system (the step a designer tunes in; +1% moves a duel by about 0.3 points,
too little for any check to see). Both runs share a seed, so the comparison is paired in
effect; the test still uses the unpaired standard error, which only makes it stricter about
false alarms. One-sided, at ``metamorph.CHECK_ALPHA``.
"""

from __future__ import annotations

import pytest

from balance.io.tables import shipped_rows
from tests.invariants import metamorph as mm

SEED = 41


def duel(system: str, hero: dict, foe: dict, **kw) -> dict:
    return {"name": "monotone", "ruleset": system, "max_rounds": 40,
            "sides": [{"name": "hero", "members": [hero]}, {"name": "foe", "members": [foe]}],
            **kw}


# --- Yags -------------------------------------------------------------------------------------

YAGS = shipped_rows("yags")
YAGS_FOE = {"attributes": {"dexterity": 3, "agility": 3, "strength": 3},
            "skills": {"single_weapon": 4}, "weapon": "long_sword", "armour": ["mail_jacket"]}


def yags_case(kind: str, item: str, skill: int) -> dict:
    hero = {"attributes": {"dexterity": 3, "agility": 3, "strength": 4}, "armour": ["helm"]}
    if kind == "missile":
        hero.update(weapon="short_sword", skills={"single_weapon": 3},
                    missile={"weapon": item, "skill": skill})
        return duel("yags", hero, YAGS_FOE, distance=30)
    row = YAGS["weapons"][item]
    if row.get("kind") == "shield":
        hero.update(weapon="broad_sword", off_hand=item, style="weapon_and_shield",
                    skills={"weapon_and_shield": skill})
    else:
        hero.update(weapon=item, skills={row["style"]: skill})
    return duel("yags", hero, YAGS_FOE)


YAGS_CASES = [("weapon", w) for w in YAGS["weapons"]] + [("missile", m) for m in
                                                          YAGS["missiles"]]

# --- percentile --------------------------------------------------------------------------------

PCT = shipped_rows("percentile")
PCT_FOE = {"characteristics": {"STR": 13, "CON": 12, "SIZ": 13, "DEX": 12},
           "skills": {"attack": 50, "parry": 50}, "weapon": "broadsword", "armour": "leather"}


def percentile_case(kind: str, item: str, skill: int) -> dict:
    hero = {"characteristics": {"STR": 15, "CON": 12, "SIZ": 13, "DEX": 12},
            "armour": "leather"}
    if kind == "shield":
        hero.update(weapon="broadsword", shield=item, skills={"attack": 50, "shield": skill})
        return duel("percentile", hero, PCT_FOE)
    row = PCT["weapons"][item]
    if row.get("kind") == "thrown" and row.get("entangles"):     # the net: off hand only
        hero.update(weapon="broadsword", off_hand=item, policy={"entangle": True},
                    skills={"attack": 50, "off_hand": skill})
        return duel("percentile", hero, PCT_FOE)
    hero.update(weapon=item, skills={"attack": skill, "parry": skill})
    ranged = row.get("kind", "melee") != "melee"
    if ranged:
        hero["sidearm"] = "dagger"
    return duel("percentile", hero, PCT_FOE, **({"distance": 15} if ranged else {}))


PCT_CASES = [("weapon", w) for w in PCT["weapons"]] + [("shield", s) for s in PCT["shields"]]

# --- Ymlad -------------------------------------------------------------------------------------

YM = shipped_rows("ymlad")
YM_FOE = {"talents": {"strength": 3, "dexterity": 3},
          "skills": {"formation": 3, "melee": 3, "close": 3}, "weapon": "long_sword",
          "armour": ["mail_shirt", "open_helmet"]}


def ymlad_case(kind: str, item: str, skill: int) -> dict:
    hero = {"talents": {"strength": 3, "dexterity": 3}, "armour": ["gambeson"]}
    if kind == "missile":
        hero.update(weapon="short_sword", missile=item, policy={"style": "missile"},
                    skills={"missile": skill, "melee": 3, "close": 2})
        return duel("ymlad", hero, YM_FOE, distance=30)
    if kind == "shield":
        hero.update(weapon="short_sword", shield=item,
                    skills={"formation": skill, "melee": skill, "close": 2})
        return duel("ymlad", hero, YM_FOE)
    hero.update(weapon=item, skills={"formation": skill, "melee": skill, "close": skill})
    return duel("ymlad", hero, YM_FOE)


YM_CASES = ([("weapon", w) for w in YM["hand_weapons"]]
            + [("missile", m) for m in YM["missile_weapons"]]
            + [("shield", s) for s in YM["shields"]])

CASES = ([("yags", *c, yags_case, 3, 1, 6000) for c in YAGS_CASES]
         + [("percentile", *c, percentile_case, 50, 5, 1500) for c in PCT_CASES]
         + [("ymlad", *c, ymlad_case, 3, 1, 4000) for c in YM_CASES])


@pytest.mark.parametrize(("system", "kind", "item", "build", "skill", "step", "n"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_more_skill_never_lowers_the_chance(system, kind, item, build, skill, step, n) -> None:
    base = mm.outcomes(build(kind, item, skill), n, seed=SEED)
    more = mm.outcomes(build(kind, item, skill + step), n, seed=SEED)
    mm.assert_not_lower(more, base, "hero", f"{system} {kind} {item}: skill +{step}")
