"""Compile a validated Yags scenario into flat per-fighter numbers the kernels use.

The scalar reference and the vectorised kernel both start from :class:`YagsFight`, so they
agree on every derived number (attack base, soak, ...) and differ only in how they roll.
Members with ``count: k`` become k fighters. Only numpy and the standard library here: the
scenario object is read by attribute, never imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from balance.rules.yags.tracks import (
    DAMAGE_TYPES,
    STANCE_ATTACK,
    STANCE_DAMAGE,
    STANCE_DEFENCE,
    STANCE_EXTRA_DEFENCES,
    STANCE_SPEED,
    STANCES,
    max_defences,
)

# Seed 000, "Making an attack": most melee skills use dexterity, brawl uses agility.
STYLE_ATTRIBUTE = {"brawl": "agility"}
DEFAULT_ATTRIBUTE = "dexterity"
YIELD_LEVELS = {"never": 99, "light": 2, "medium": 3, "heavy": 4, "critical": 5}
AUTO = -1
MAX_DEFENCES = 6


@dataclass(frozen=True)
class Fighter:
    """One combatant's fixed numbers (before stance, penalties and dice)."""

    side: int
    name: str
    attack: int          # attribute x skill + weapon attack
    defence: int         # attribute x skill + weapon defence
    damage: int          # strength x 4 + weapon damage
    damage_type: int     # WOUNDS, MIXED or STUNS
    soak: int            # base soak + armour protection
    initiative: int      # agility x 4
    health: int          # health attribute: checks roll health x 4 + d20
    skill: int           # skill in the weapon's style (decides who picks a fumble result)
    max_defences: int    # before the defensive stance's extra one
    stance: int          # NORMAL, AGGRESSIVE or DEFENSIVE
    defences: int        # AUTO or a fixed number to declare
    yield_at: int        # wound or stun level at which the fighter yields (99: never)


@dataclass(frozen=True)
class YagsRules:
    success_step: int = 10
    base_difficulty: int = 15
    fatigue_penalty: int = 5


@dataclass(frozen=True)
class YagsFight:
    """A compiled Yags fight: fighters in scenario order, side names and rule options."""

    fighters: tuple[Fighter, ...]
    side_names: tuple[str, ...]
    rules: YagsRules
    max_rounds: int

    @property
    def n(self) -> int:
        return len(self.fighters)

    @property
    def side_of(self) -> np.ndarray:
        """(n_combatants,) int8: the side index of each fighter."""
        return self.column("side", np.int8)

    @property
    def fighter_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fighters)

    @cached_property
    def static(self) -> Static:
        """The fixed numbers as arrays, with the stance folded in, for the kernel."""
        return static_of(self)

    def column(self, field: str, dtype: Any = np.int16) -> np.ndarray:
        """One fixed number for every fighter, as a (n_combatants,) array."""
        return np.array([getattr(f, field) for f in self.fighters], dtype=dtype)


@dataclass(frozen=True)
class Static:
    """Per-fighter numbers with the stance folded in, as (n_combatants,) arrays."""

    side_of: np.ndarray
    n_sides: int
    attack: np.ndarray
    defence: np.ndarray
    damage: np.ndarray
    damage_type: np.ndarray
    soak: np.ndarray
    health4: np.ndarray
    skill: np.ndarray
    max_defences: np.ndarray
    fixed_defences: np.ndarray
    yield_at: np.ndarray
    speed: np.ndarray
    initiative: np.ndarray
    base_difficulty: int
    success_step: int
    fatigue_penalty: int


def static_of(fight: YagsFight) -> Static:
    col = fight.column
    stance = [f.stance for f in fight.fighters]
    by_stance = lambda table: np.array([table[s] for s in stance], dtype=np.int16)  # noqa: E731
    r = fight.rules
    return Static(
        side_of=fight.side_of,
        n_sides=len(fight.side_names),
        attack=col("attack") + by_stance(STANCE_ATTACK),
        defence=col("defence") + by_stance(STANCE_DEFENCE),
        damage=col("damage") + by_stance(STANCE_DAMAGE),
        damage_type=col("damage_type", np.int8),
        soak=col("soak"),
        health4=4 * col("health"),
        skill=col("skill"),
        max_defences=col("max_defences", np.int8),
        fixed_defences=col("defences", np.int8),
        yield_at=col("yield_at", np.int8),
        speed=by_stance(STANCE_SPEED),
        initiative=col("initiative"),
        base_difficulty=r.base_difficulty,
        success_step=r.success_step,
        fatigue_penalty=r.fatigue_penalty,
    )



def compile_fight(scenario: Any, tables: Any) -> YagsFight:
    """Turn a validated ``YagsScenario`` and its resolved ``Tables`` into a :class:`YagsFight`."""
    fighters: list[Fighter] = []
    for side_index, side in enumerate(scenario.sides):
        for member_index, member in enumerate(side.members):
            base = member.name or (side.name if len(side.members) == 1 else
                                   f"{side.name}.{member_index}")
            for k in range(member.count):
                name = base if member.count == 1 else f"{base}#{k + 1}"
                fighters.append(_fighter(side_index, name, member, tables))
    r = scenario.rules
    return YagsFight(
        fighters=tuple(fighters),
        side_names=tuple(s.name for s in scenario.sides),
        rules=YagsRules(r.success_step, r.base_difficulty, r.fatigue_penalty),
        max_rounds=scenario.max_rounds,
    )


def _fighter(side: int, name: str, member: Any, tables: Any) -> Fighter:
    a, weapon = member.attributes, tables.weapons[member.weapon]
    skill = getattr(member.skills, weapon.style)
    attribute = getattr(a, STYLE_ATTRIBUTE.get(weapon.style, DEFAULT_ATTRIBUTE))
    armour = sum(tables.armour[p].protection for p in member.armour)
    # Lab's assumption: base soak is 4 x health (12 for the typical health 3, as seed 000's
    # "an adult human will usually have a base soak of 12"), unless the member sets `soak`.
    soak = (member.soak if member.soak is not None else 4 * a.health) + armour
    stance = STANCES[member.stance]
    defences = AUTO if member.policy.defences == "auto" else member.policy.defences
    return Fighter(
        side=side,
        name=name,
        attack=attribute * skill + weapon.attack,
        defence=attribute * skill + weapon.defence,
        damage=4 * a.strength + weapon.damage,
        damage_type=DAMAGE_TYPES[weapon.damage_type],
        soak=soak,
        initiative=4 * a.agility,
        health=a.health,
        skill=skill,
        # Lab's assumption: never more than 6, where the seed's multiple-defence table ends.
        max_defences=min(MAX_DEFENCES,
                         max_defences(a.agility, a.perception) + STANCE_EXTRA_DEFENCES[stance]),
        stance=stance,
        defences=defences,
        yield_at=YIELD_LEVELS[member.policy.yield_at],
    )
