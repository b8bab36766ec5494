"""Hypothesis strategies for small scenarios of each rule system, inside its schema.

``fighter(system)`` draws a plausible fighter (a shipped weapon with its skill, some armour, a
target policy); ``group(system)`` two sides of one to three members (counts up to two, at
most six fighters). Policies are drawn from the order-free ones only: ``first`` is
order-dependent by design (docs/engine.md, Targeting), and Yags ``nearest`` counts places in
the sides' lines, which the listing sets. ``wild_member(system)`` draws members that may be
invalid in ways only the loader or the compiler sees, for the clean-error property.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from balance.io.tables import shipped_rows

SYSTEMS = ("yags", "percentile", "ymlad")

ORDER_FREE = ("engage", "weakest", "dangerous", "spread", "random")
NEAREST_OK = {"yags": False, "percentile": True, "ymlad": True}

_YAGS = shipped_rows("yags")["weapons"]
YAGS_WEAPONS = sorted(w for w, r in _YAGS.items() if r.get("kind") != "shield")
YAGS_SHIELDS = sorted(w for w, r in _YAGS.items() if r.get("kind") == "shield")
YAGS_ARMOUR = [[], ["soft_leather_jacket"], ["padded_jacket", "helm"], ["mail_jacket"],
               ["mail_hauberk", "helm"], ["breastplate", "great_helm"]]

_PCT = shipped_rows("percentile")["weapons"]
PCT_WEAPONS = sorted(_PCT)
PCT_MELEE = sorted(w for w, r in _PCT.items() if r.get("kind", "melee") == "melee"
                   and not r.get("entangles"))
PCT_ARMOUR = sorted(shipped_rows("percentile")["armour"])
PCT_SHIELDS = sorted(shipped_rows("percentile")["shields"])

_YM = shipped_rows("ymlad")["hand_weapons"]
YMLAD_WEAPONS = sorted(_YM)
YMLAD_MELEE = sorted(w for w, r in _YM.items() if not r.get("natural"))
YMLAD_ARMOUR = [[], ["gambeson"], ["leather_armour", "skullcap"], ["mail_shirt", "open_helmet"],
                ["mail_hauberk", "open_helmet"], ["brigandine", "half_open_helmet"]]
YMLAD_SHIELDS = sorted(shipped_rows("ymlad")["shields"])


def policy(system: str) -> st.SearchStrategy[dict]:
    """A target policy: the default (no key; drawn most often) or an order-free one."""
    names = ORDER_FREE + (("nearest",) if NEAREST_OK[system] else ())
    return st.just({}) | st.sampled_from(names).map(lambda t: {"target": t})


def yags_fighter(weapon: str, skill: int, armour: list[str], target: dict,
                 agility: int = 3) -> dict:
    row = _YAGS[weapon]
    return {"attributes": {"dexterity": 3, "agility": agility, "strength": 4},
            "skills": {row["style"]: skill}, "weapon": weapon, "armour": armour,
            "policy": target}


def percentile_fighter(weapon: str, attack: int, armour: str, target: dict,
                       shield: str | None = None, dex: int = 12) -> dict:
    out = {"characteristics": {"STR": 15, "CON": 12, "SIZ": 13, "DEX": dex},
           "skills": {"attack": attack}, "weapon": weapon, "armour": armour, "policy": target}
    if shield is not None and not _PCT[weapon].get("two_handed"):
        out["shield"] = shield
        out["skills"]["shield"] = attack
    return out


def ymlad_fighter(weapon: str, skill: int, armour: list[str], target: dict,
                  shield: str | None = None) -> dict:
    out = {"talents": {"strength": 3, "dexterity": 3},
           "skills": {"formation": skill, "melee": skill, "close": 2}, "weapon": weapon,
           "armour": armour, "policy": target}
    if shield is not None and _YM[weapon].get("hands", 1) == 1:
        out["shield"] = shield
    return out


def fighter(system: str) -> st.SearchStrategy[dict]:
    if system == "yags":
        return st.builds(yags_fighter, st.sampled_from(YAGS_WEAPONS), st.integers(2, 6),
                         st.sampled_from(YAGS_ARMOUR), policy(system), st.integers(2, 4))
    if system == "percentile":
        return st.builds(percentile_fighter, st.sampled_from(PCT_MELEE), st.integers(30, 90),
                         st.sampled_from(PCT_ARMOUR), policy(system),
                         st.none() | st.sampled_from(PCT_SHIELDS), st.integers(8, 16))
    return st.builds(ymlad_fighter, st.sampled_from(YMLAD_MELEE), st.integers(1, 6),
                     st.sampled_from(YMLAD_ARMOUR), policy(system),
                     st.none() | st.sampled_from(YMLAD_SHIELDS))


@st.composite
def side(draw, system: str, name: str, room: int) -> dict:
    members = []
    for _ in range(draw(st.integers(1, min(3, room)))):
        member = draw(fighter(system))
        count = draw(st.integers(1, 2)) if room - len(members) > 1 else 1
        if count > 1:
            member["count"] = count
        members.append(member)
    return {"name": name, "members": members}


@st.composite
def group(draw, system: str) -> dict[str, Any]:
    """Two sides, three to six fighters in all."""
    a = draw(side(system, "red", 3))
    b = draw(side(system, "blue", 3))
    scenario = {"name": "generated", "ruleset": system, "max_rounds": 40, "sides": [a, b]}
    if sum(m.get("count", 1) for s in (a, b) for m in s["members"]) < 3:
        b["members"][0]["count"] = 2
    return scenario


@st.composite
def wild_member(draw, system: str) -> dict:
    """A member with any shipped weapon, shield and armour (in any combination), and numbers
    anywhere in the schema's ranges: valid to the schema, maybe not to the rules."""
    if system == "yags":
        m = {"attributes": {k: draw(st.integers(0, 10)) for k in ("strength", "agility",
                                                                   "dexterity")},
             "skills": {draw(st.sampled_from(["single_weapon", "great_weapon", "longshaft",
                                              "brawl", "weapon_and_shield", "chain"])):
                        draw(st.integers(0, 10))},
             "weapon": draw(st.sampled_from(sorted(_YAGS))),
             "armour": draw(st.lists(st.sampled_from(sorted(shipped_rows("yags")["armour"])),
                                     max_size=3, unique=True))}
        if draw(st.booleans()):
            m["off_hand"] = draw(st.sampled_from(sorted(_YAGS)))
    elif system == "percentile":
        m = {"characteristics": {k: draw(st.integers(3, 21)) for k in ("STR", "SIZ", "DEX")},
             "skills": {"attack": draw(st.integers(0, 150))},
             "weapon": draw(st.sampled_from(PCT_WEAPONS)),
             "armour": draw(st.sampled_from(PCT_ARMOUR))}
        if draw(st.booleans()):
            m["shield"] = draw(st.sampled_from(PCT_SHIELDS))
    else:
        m = {"talents": {"strength": draw(st.integers(0, 4)),
                         "dexterity": draw(st.integers(0, 4))},
             "skills": {"melee": draw(st.integers(0, 6)), "close": draw(st.integers(0, 6))},
             "weapon": draw(st.sampled_from(YMLAD_WEAPONS)),
             "armour": draw(st.lists(st.sampled_from(sorted(shipped_rows("ymlad")["armour"])),
                                     max_size=3, unique=True))}
        if draw(st.booleans()):
            m["shield"] = draw(st.sampled_from(YMLAD_SHIELDS))
    m["policy"] = {"target": draw(st.sampled_from((*ORDER_FREE, "first", "nearest")))}
    return m
