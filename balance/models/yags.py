"""Yags scenario and table models (seed 000). Validated once here; the rule kernels trust them.

Defaults that the seed does not state are the lab's assumptions and are documented in
``docs/rules/yags.md`` next to the reason for each.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from balance.models.base import Count, MaxRounds, Name, Reference, Seed, Strict, Trials

# Seed 000, "Fighting Styles": one skill per style.
STYLES = (
    "brawl", "melee_weapon", "single_weapon", "weapon_and_shield",
    "great_weapon", "two_weapons", "longshaft", "chain",
)
Style = Literal[
    "brawl", "melee_weapon", "single_weapon", "weapon_and_shield",
    "great_weapon", "two_weapons", "longshaft", "chain",
]
DamageType = Literal["wounds", "mixed", "stuns"]
WeaponProperty = Literal[
    "blocking", "crushing", "heavy", "impaling", "light", "strong",
    "throwable", "thrusting", "two_handed", "weak",
]
ArmourProperty = Literal["bullet_proof", "mail", "soft"]
Coverage = Literal["head", "neck", "torso", "arms", "legs"]
Layer = Literal["soft", "mail", "plate", "helm", "coif", "other"]
Stance = Literal["normal", "aggressive", "defensive"]
Level = Literal["never", "light", "medium", "heavy", "critical"]

Attr = Annotated[int, Field(ge=0, le=20)]
Bonus = Annotated[int, Field(ge=0, le=100)]


class Weapon(Strict):
    """A row of the weapons table. All bonuses are zero or positive (seed 000, Advanced Weapons)."""

    style: Style
    attack: Bonus = 0
    defence: Bonus = 0
    damage: Bonus = 0
    damage_type: DamageType = "wounds"
    reach: Annotated[int, Field(ge=0, le=4)] = 1
    strength: Annotated[int, Field(ge=0, le=20)] = 0
    hands: Literal[1, 2] = 1
    properties: tuple[WeaponProperty, ...] = ()
    note: str = ""


class Armour(Strict):
    """A row of the armour table: one piece of a suit."""

    protection: Bonus
    covers: tuple[Coverage, ...] = ()
    layer: Layer = "other"
    heavy: bool = False
    properties: tuple[ArmourProperty, ...] = ()
    restrictive: Annotated[int, Field(ge=0, le=10)] = 0
    noisy: Annotated[int, Field(ge=0, le=10)] = 0
    vitals: Annotated[int, Field(ge=0, le=50)] = 0
    load: Annotated[float, Field(ge=0, le=1000)] = 0.0
    note: str = ""


class WeaponPatch(Strict):
    """An inline addition or override of a weapon: every field optional, merged onto the row."""

    style: Style | None = None
    attack: Bonus | None = None
    defence: Bonus | None = None
    damage: Bonus | None = None
    damage_type: DamageType | None = None
    reach: Annotated[int, Field(ge=0, le=4)] | None = None
    strength: Annotated[int, Field(ge=0, le=20)] | None = None
    hands: Literal[1, 2] | None = None
    properties: tuple[WeaponProperty, ...] | None = None
    note: str | None = None


class ArmourPatch(Strict):
    """An inline addition or override of an armour piece, merged onto the row."""

    protection: Bonus | None = None
    covers: tuple[Coverage, ...] | None = None
    layer: Layer | None = None
    heavy: bool | None = None
    properties: tuple[ArmourProperty, ...] | None = None
    restrictive: Annotated[int, Field(ge=0, le=10)] | None = None
    noisy: Annotated[int, Field(ge=0, le=10)] | None = None
    vitals: Annotated[int, Field(ge=0, le=50)] | None = None
    load: Annotated[float, Field(ge=0, le=1000)] | None = None
    note: str | None = None


class TablePatches(Strict):
    """The scenario's ``tables:`` block."""

    weapons: dict[Name, WeaponPatch] = Field(default_factory=dict)
    armour: dict[Name, ArmourPatch] = Field(default_factory=dict)


class Tables(Strict):
    """Resolved tables: the shipped rows with the scenario's patches applied."""

    weapons: dict[str, Weapon]
    armour: dict[str, Armour]


class Attributes(Strict):
    """Yags attributes; 3 is the typical human (seed 000), Size 5 the human size."""

    strength: Attr = 3
    health: Attr = 3
    agility: Attr = 3
    dexterity: Attr = 3
    perception: Attr = 3
    intelligence: Attr = 3
    empathy: Attr = 3
    will: Attr = 3
    size: Annotated[int, Field(ge=1, le=100)] = 5


class Skills(Strict):
    """Combat skills, one per fighting style; an unlisted skill is 0 (untrained)."""

    brawl: Attr = 0
    melee_weapon: Attr = 0
    single_weapon: Attr = 0
    weapon_and_shield: Attr = 0
    great_weapon: Attr = 0
    two_weapons: Attr = 0
    longshaft: Attr = 0
    chain: Attr = 0


class Policy(Strict):
    """How a fighter chooses, where the rules leave the choice to the player.

    ``defences``: ``auto`` declares one defence per foe attacking this fighter (up to the
    maximum); a number fixes it (0 is all-out attack, which gives foes counter strikes).
    ``yield_at``: the wound or stun level at which the fighter stops fighting.
    """

    defences: Literal["auto"] | Annotated[int, Field(ge=0, le=6)] = "auto"
    yield_at: Level = "never"


class Member(Strict):
    """One line of a side: ``count`` identical fighters."""

    name: Name | None = None
    count: Count = 1
    attributes: Attributes = Attributes()
    skills: Skills = Skills()
    weapon: Name = "fist"
    armour: tuple[Name, ...] = ()
    stance: Stance = "normal"
    soak: Annotated[int, Field(ge=0, le=200)] | None = None
    policy: Policy = Policy()


class Side(Strict):
    name: Name
    members: Annotated[list[Member], Field(min_length=1, max_length=100)]


class Rules(Strict):
    """Rule options (the lab's assumptions where seed 000 is silent; see docs/rules/yags.md)."""

    success_step: Annotated[int, Field(ge=1, le=50)] = 10
    base_difficulty: Annotated[int, Field(ge=0, le=100)] = 15
    fatigue_penalty: Annotated[int, Field(ge=0, le=40)] = 5


class YagsScenario(Strict):
    """A Yags fight: the core scenario keys plus Yags rules, tables and members."""

    name: Name
    ruleset: Literal["yags"]
    description: str = ""
    trials: Trials = 10_000
    seed: Seed = 0
    max_rounds: MaxRounds = 60
    rules: Rules = Rules()
    tables: TablePatches = TablePatches()
    sides: Annotated[list[Side], Field(min_length=2, max_length=20)]

    @model_validator(mode="after")
    def _unique_side_names(self) -> YagsScenario:
        names = [s.name for s in self.sides]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"side names must be unique; repeated: {', '.join(dupes)}")
        if "draw" in names:
            raise ValueError("'draw' is reserved for the draw outcome; rename that side")
        return self

    def references(self) -> list[Reference]:
        """Every table name a member refers to, with its field path, for checking."""
        refs: list[Reference] = []
        for i, side in enumerate(self.sides):
            for j, m in enumerate(side.members):
                base = ("sides", i, "members", j)
                refs.append(((*base, "weapon"), "weapons", m.weapon))
                refs.extend(((*base, "armour", k), "armour", a) for k, a in enumerate(m.armour))
        return refs


ROW_MODELS = {"weapons": Weapon, "armour": Armour}
