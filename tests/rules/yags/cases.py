"""Fighters and declarations for hand-worked Yags cases on the vector kernel (shared, so no test
module imports another's): a veteran with optional gear, a declared round, a compiled
fighter, fists, a holding grappler, a shooter."""

from __future__ import annotations

import dataclasses

import balance
from balance.rules import get
from balance.rules.yags.compile import (
    AUTO,
    NORMAL_SHOT,
    PLENTY,
    Fighter,
    MissileStats,
    YagsRules,
)
from balance.rules.yags.reference.fight import declare
from balance.rules.yags.reference.state import Combat, FighterState
from balance.rules.yags.rules.tracks import (
    NORMAL,
    WOUNDS,
)

RULES = YagsRules()


def veteran(side: int = 0, *, gear: dict | None = None, **changes) -> Fighter:
    """Attack and defence 15, damage 18 (wounds), soak 18; ``gear`` changes its loadout."""
    base = Fighter(side=side, name=f"f{side}", attack=15, defence=15, damage=18,
                   damage_type=WOUNDS, soak=18, initiative=12, health=3, skill=4,
                   max_defences=3, stance=NORMAL, defences=AUTO, yield_at=99)
    base = dataclasses.replace(base, **changes)
    if gear is None:
        return base
    lo = dataclasses.replace(base.basic_loadout, **gear)
    return dataclasses.replace(base, gear=(lo,) * 6)


def fight(*fighters: Fighter, rules: YagsRules = RULES) -> Combat:
    return Combat([FighterState(i, f) for i, f in enumerate(fighters)], rules)


def declared(*fighters: Fighter, round_no: int = 2, rules: YagsRules = RULES) -> Combat:
    combat = fight(*fighters, rules=rules)
    for i, s in enumerate(combat.fighters):
        s.initiative, s.tiebreak = 20 - i, i
    declare(combat, round_no)
    return combat


def fight_of(*states: FighterState) -> Combat:
    for i, s in enumerate(states):
        s.index = i
    return Combat(list(states), RULES)


def compile_one(member: dict, foe: dict | None = None, **kw):
    """The compiled fighter of ``member`` in a duel (against a plain veteran)."""
    foe = foe or {"skills": {"single_weapon": 4}, "weapon": "long_sword"}
    scenario = {"name": "t", "ruleset": "yags",
                "sides": [{"name": "a", "members": [member]},
                          {"name": "b", "members": [foe]}], **kw}
    loaded = balance.load_scenario(scenario)
    return get("yags").compile(loaded.model, loaded.tables)


def shooter(firearm: bool = False):
    """An archer 10 m off: missile attack 15, damage 1,000, a normal shot (distance 10 m:
    difficulty 15), loaded."""
    gun = MissileStats(attack=15, bonus=0, damage=1000, damage_type=WOUNDS, kind=0, range=100.0,
                       reach=0, shots=1, recoil=0, load=0, magazine=1, reload=0,
                       shot=NORMAL_SHOT, loaded=True, drawn=True, ammunition=PLENTY,
                       shoot_in_melee=False, firearm=firearm)
    return veteran(0, attack=-100, missile=gun, initiative=100)


def holding(side: int, main: dict | None = None, bare: dict | None = None, **changes):
    """A hand-written fighter whose main loadout (its weapon: ``main`` changes) differs from
    its bare one (``bare``; by default fists: reach 0, unarmed, not martial, not losable)."""
    base = veteran(side, **changes)
    lo = base.basic_loadout
    m = dataclasses.replace(lo, **(main or {}))
    b = dataclasses.replace(lo, **(bare or {"reach": 0, "unarmed": True, "martial": False,
                                            "losable": False}))
    return dataclasses.replace(base, gear=(m, m, b, m, m, b))


# Fists (unarmed, not martial, never lost) at the sword's reach, so no reach rule acts here.
FISTS = {"unarmed": True, "martial": False, "losable": False}

