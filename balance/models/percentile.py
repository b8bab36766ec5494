"""Percentile (Basic Roleplaying / Stormbringer family) scenario and table models, seed 004.

Validated once here; the rule kernels trust them. Seed 004 gives the situational rules of the
family but not its core, so most defaults are the lab's reading of the family's public
conventions; each is documented in ``docs/rules/percentile.md`` next to its reason.

Situations (``light``, ``space``, ``underwater``, ``position``, ``cover``, ``steep``,
``slick``) are set in a scenario's ``situation:`` block for everyone, in a side's for its
fighters and in a member's for that fighter alone; the nearest one set wins.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from balance.dice import parse
from balance.errors import DiceExpressionError
from balance.models.base import (
    Count,
    DiceField,
    Distance,
    MaxRounds,
    Morale,
    Name,
    Reference,
    Seed,
    Strict,
    Targeting,
    Trials,
    check_side_names,
)


def _dice_text(text: str) -> str:
    """A dice expression in the family's spelling ("1D8+1", "-1D4", "2D6", "0")."""
    try:
        parse(text)
    except DiceExpressionError as err:
        raise ValueError(str(err)) from None
    return text


def _plain_dice_text(text: str) -> str:
    """A dice expression of plain NdM dice and numbers only: the family halves a damage
    bonus (thrown weapons) and a damaged armour's roll by halving its dice, which kept,
    exploding or counted dice and comparisons do not allow."""
    try:
        expr = parse(text)
    except DiceExpressionError as err:
        raise ValueError(str(err)) from None
    if not expr.plain:
        raise ValueError(f"{text!r}: a damage bonus or an armour roll is halved by halving its "
                         "dice (thrown weapons, damaged armour), so it takes plain dice and "
                         "numbers only (NdM+N), not kept, exploding or counted dice")
    return text


DiceText = Annotated[str, DiceField(), Field(min_length=1, max_length=40),
                     AfterValidator(_dice_text)]
"""Any dice expression (``balance dice``'s language): weapon and shield damage, fire."""
PlainDiceText = Annotated[str, DiceField(), Field(min_length=1, max_length=40),
                          AfterValidator(_plain_dice_text)]
"""Plain dice and numbers only: a damage bonus, an armour roll (both may be halved)."""
Char = Annotated[int, Field(ge=1, le=100)]          # a characteristic (3-18 for humans)
Pct = Annotated[int, Field(ge=0, le=300)]           # a skill in percent (may pass 100)
Hp = Annotated[int, Field(ge=1, le=500)]
Yards = Annotated[float, Field(ge=0, le=10_000)]

Length = Literal["short", "medium", "long"]
WeaponKind = Literal["melee", "thrown", "missile"]
DbMode = Literal["full", "half", "none"]
ShieldSize = Literal["small", "full", "large"]
Weight = Literal["none", "light", "heavy", "plate"]
FumbleEffect = Literal["lose_next_attack", "drop_weapon", "weapon_breaks", "hit_self", "fall"]
Light = Literal["bright", "semi_dark", "dark", "pitch_dark"]
Space = Literal["open", "cramped", "corridor"]
Position = Literal["level", "higher", "lower", "down"]
Cover = Literal["none", "partial", "full"]


# --- table rows ------------------------------------------------------------------------------


class Weapon(Strict):
    """A row of the weapons table (every number the lab's assumption; see the data file)."""

    skill: Pct                        # base chance of an untrained user
    damage: DiceText                  # weapon damage, before the damage bonus
    hp: Hp | None = None              # hit points against breaking; None: cannot break
    length: Length = "medium"
    kind: WeaponKind = "melee"        # melee, thrown (knife, axe, javelin) or missile (bow)
    thrusting: bool = False           # impales on a special success; works underwater
    two_handed: bool = False
    range: Annotated[int, Field(ge=1, le=1000)] | None = None   # base range, yards
    # no chance beyond this many base ranges (seed 004: 4; thrown knives and axes 2)
    max_range_multiple: Annotated[int, Field(ge=1, le=4)] = 4
    reload: Annotated[int, Field(ge=0, le=10)] = 0  # rounds spent reloading after a shot
    volley: Annotated[int, Field(ge=1, le=3)] = 1   # shots in a volley (1: cannot volley)
    db: DbMode = "full"               # damage bonus: full, half (thrown) or none (launched)
    entangles: bool = False           # nets, whips, bolas: entangle instead of harming
    improvised: bool = False          # loses a hit point every time it lands a blow
    note: str = ""

    @model_validator(mode="after")
    def _ranged_need_range(self) -> Weapon:
        if self.kind != "melee" and self.range is None:
            raise ValueError(f"a {self.kind} weapon needs a base range (range: yards)")
        if self.entangles and self.range is None:
            raise ValueError("an entangling weapon needs the range it works at (range: yards)")
        return self


class Shield(Strict):
    """A row of the shields table: size class (seed 004's missile block chance), hit points."""

    size: ShieldSize
    hp: Hp
    skill: Pct                        # base chance of an untrained user
    damage: DiceText = "1D3"          # a bash
    note: str = ""


class Armour(Strict):
    """A suit of armour: fixed protection or a rolled one ("1D6-1"), and a weight class."""

    protection: Annotated[int, Field(ge=0, le=100)] | PlainDiceText
    weight: Weight = "light"          # light buoys a swimmer, heavy needs Swim, plate sinks
    never_soaks: bool = False         # sea leather (seed 004)
    note: str = ""


class Poison(Strict):
    """A row of seed 004's poison table: potency (None: no POT) and onset, in our words."""

    pot: Annotated[int, Field(ge=1, le=100)] | None
    onset_rounds: Annotated[int, Field(ge=0, le=20_000)] = 0   # rounds before it takes hold
    onset: str = ""
    symptoms: str = ""
    varies: bool = False              # a creature's venom: POT varies by the individual
    note: str = ""


class DamageBonus(Strict):
    """A row of the damage bonus table: from this STR+SIZ up, the bonus dice."""

    at_least: Annotated[int, Field(ge=0, le=1000)]
    bonus: PlainDiceText


class Attackers(Strict):
    """How many attackers with one weapon class can engage one target, by space."""

    open: Annotated[int, Field(ge=1, le=20)]
    cramped: Annotated[int, Field(ge=1, le=20)]
    corridor: Annotated[int, Field(ge=1, le=20)]


class LengthClass(Strict):
    """A weapon length class: yards of clear space it needs (a thrusting weapon needs it
    ahead of it, and only ``thrusting_width`` to the sides), attackers per target."""

    space: Yards
    thrusting_width: Yards = 0.33
    attackers: Attackers
    thrusting_attackers: Attackers


class SpaceClass(Strict):
    """A space situation: how much clear room a fighter has, in yards: to the sides (to
    swing) and ahead (to thrust)."""

    clearance: Yards | None = None    # to the sides; None: unlimited
    depth: Yards | None = None        # ahead; None: unlimited


class Mount(Strict):
    """A riding animal: its STR and SIZ give the damage bonus of a charge; move in yards."""

    STR: Char
    SIZ: Char
    move: Annotated[int, Field(ge=1, le=100)]
    note: str = ""


class Fumble(Strict):
    """A row of the fumble table: an effect and its weight (chance in proportion)."""

    effect: FumbleEffect
    weight: Annotated[int, Field(ge=0, le=1000)]
    note: str = ""


class Resistance(Strict):
    """The Resistance Table's numbers: the chance at equal values, percentiles per point of
    difference, and the limits (0 and 100: a difference of ten is certain)."""

    base: Annotated[int, Field(ge=0, le=100)] = 50
    step: Annotated[int, Field(ge=0, le=100)] = 5
    floor: Annotated[int, Field(ge=0, le=100)] = 0
    ceiling: Annotated[int, Field(ge=0, le=100)] = 100

    @model_validator(mode="after")
    def _limits(self) -> Resistance:
        if self.floor > self.ceiling:
            raise ValueError(f"floor {self.floor} is above ceiling {self.ceiling}")
        return self


class Fire(Strict):
    """A fire's damage each combat round to someone in it."""

    damage: DiceText
    note: str = ""


class WeaponPatch(Strict):
    skill: Pct | None = None
    damage: DiceText | None = None
    hp: Hp | None = None
    length: Length | None = None
    kind: WeaponKind | None = None
    thrusting: bool | None = None
    two_handed: bool | None = None
    range: Annotated[int, Field(ge=1, le=1000)] | None = None
    max_range_multiple: Annotated[int, Field(ge=1, le=4)] | None = None
    reload: Annotated[int, Field(ge=0, le=10)] | None = None
    volley: Annotated[int, Field(ge=1, le=3)] | None = None
    db: DbMode | None = None
    entangles: bool | None = None
    improvised: bool | None = None
    note: str | None = None


class ShieldPatch(Strict):
    size: ShieldSize | None = None
    hp: Hp | None = None
    skill: Pct | None = None
    damage: DiceText | None = None
    note: str | None = None


class ArmourPatch(Strict):
    protection: Annotated[int, Field(ge=0, le=100)] | PlainDiceText | None = None
    weight: Weight | None = None
    never_soaks: bool | None = None
    note: str | None = None


class PoisonPatch(Strict):
    pot: Annotated[int, Field(ge=1, le=100)] | None = None
    onset_rounds: Annotated[int, Field(ge=0, le=20_000)] | None = None
    onset: str | None = None
    symptoms: str | None = None
    varies: bool | None = None
    note: str | None = None


class DamageBonusPatch(Strict):
    at_least: Annotated[int, Field(ge=0, le=1000)] | None = None
    bonus: PlainDiceText | None = None


# A patch's attackers-per-target row, as a plain mapping: the loader merges it key by key onto
# the shipped row, so a patch may give only the spaces it changes.
AttackersRow = dict[Literal["open", "cramped", "corridor"], Annotated[int, Field(ge=1, le=20)]]


class LengthPatch(Strict):
    space: Yards | None = None
    thrusting_width: Yards | None = None
    attackers: AttackersRow | None = None
    thrusting_attackers: AttackersRow | None = None


class SpacePatch(Strict):
    clearance: Yards | None = None
    depth: Yards | None = None


class MountPatch(Strict):
    STR: Char | None = None
    SIZ: Char | None = None
    move: Annotated[int, Field(ge=1, le=100)] | None = None
    note: str | None = None


class FumblePatch(Strict):
    effect: FumbleEffect | None = None
    weight: Annotated[int, Field(ge=0, le=1000)] | None = None
    note: str | None = None


class ResistancePatch(Strict):
    base: Annotated[int, Field(ge=0, le=100)] | None = None
    step: Annotated[int, Field(ge=0, le=100)] | None = None
    floor: Annotated[int, Field(ge=0, le=100)] | None = None
    ceiling: Annotated[int, Field(ge=0, le=100)] | None = None


class FirePatch(Strict):
    damage: DiceText | None = None
    note: str | None = None


class TablePatches(Strict):
    """The scenario's ``tables:`` block: change shipped rows or add new ones."""

    weapons: dict[Name, WeaponPatch] = Field(default_factory=dict)
    shields: dict[Name, ShieldPatch] = Field(default_factory=dict)
    armour: dict[Name, ArmourPatch] = Field(default_factory=dict)
    poisons: dict[Name, PoisonPatch] = Field(default_factory=dict)
    damage_bonus: dict[Name, DamageBonusPatch] = Field(default_factory=dict)
    lengths: dict[Name, LengthPatch] = Field(default_factory=dict)
    spaces: dict[Name, SpacePatch] = Field(default_factory=dict)
    mounts: dict[Name, MountPatch] = Field(default_factory=dict)
    fumbles: dict[Name, FumblePatch] = Field(default_factory=dict)
    fires: dict[Name, FirePatch] = Field(default_factory=dict)
    resistance: dict[Name, ResistancePatch] = Field(default_factory=dict)


class Tables(Strict):
    """Resolved tables: the shipped rows with the scenario's patches applied."""

    weapons: dict[str, Weapon]
    shields: dict[str, Shield]
    armour: dict[str, Armour]
    poisons: dict[str, Poison]
    damage_bonus: dict[str, DamageBonus]
    lengths: dict[str, LengthClass]
    spaces: dict[str, SpaceClass]
    mounts: dict[str, Mount]
    fumbles: dict[str, Fumble]
    fires: dict[str, Fire]
    resistance: dict[str, Resistance]


ROW_MODELS = {"weapons": Weapon, "shields": Shield, "armour": Armour, "poisons": Poison,
              "damage_bonus": DamageBonus, "lengths": LengthClass, "spaces": SpaceClass,
              "mounts": Mount, "fumbles": Fumble, "fires": Fire, "resistance": Resistance}


# --- the scenario ------------------------------------------------------------------------------


class Characteristics(Strict):
    """The seven characteristics; the defaults are the family's average human (3D6 rounded
    up to 11; SIZ and INT, rolled 2D6+6, 13)."""

    STR: Char = 11
    CON: Char = 11
    SIZ: Char = 13
    INT: Char = 13
    POW: Char = 11
    DEX: Char = 11
    APP: Char = 11


class Skills(Strict):
    """Percent skills. A skill not given takes the default documented beside it."""

    attack: Pct | None = None     # with the main weapon; default: the weapon's base
    parry: Pct | None = None      # with the main weapon; default: the attack skill
    shield: Pct | None = None     # default: the shield's base
    off_hand: Pct | None = None   # second weapon; default: half the attack skill (seed 004)
    sidearm: Pct | None = None    # default: the sidearm's base
    brawl: Pct | None = None      # fist, kick, shield-less knock-back; default: fist's base
    dodge: Pct | None = None      # default: DEX x 2
    search: Pct = 25              # true darkness: half Search may replace a third of skill
    listen: Pct = 25              # pitch darkness: half Listen against a noisy foe
    scent: Pct = 10               # pitch darkness: half Scent/Taste against a smelly foe
    move_quietly: Pct = 10        # laying an ambush by sneaking into position
    hide: Pct = 10                # laying an ambush by lying in wait
    fly: Pct = 0                  # a winged fighter's Fly (the pounce, seed 004)
    ride: Pct | None = None       # caps a rider's skills; required with a mount


class Situation(Strict):
    """Seed 004's situations; each key not set here is taken from the enclosing level."""

    light: Light | None = None
    space: Space | None = None
    underwater: bool | None = None
    position: Position | None = None
    cover: Cover | None = None
    steep: bool | None = None        # heights differ at over 45 degrees (missile fire)
    slick: bool | None = None        # slick footing: moving risks a fall


HpOrMajor = Annotated[int, Field(ge=0, le=500)] | Literal["major_wound"]


class Policy(Targeting):
    """How a fighter chooses, where the rules leave the choice to the player.

    ``target`` / ``targets`` (shared with every rule system): whom to attack in a group fight
    (docs/rules/percentile.md, Group fights). ``yield_at``: give up at or below these hit
    points, or at a major wound (0: never). ``break_off_at``: break off (``break_off_by``)
    at or below these hit points, or once a major wound has been taken (0: never).
    """

    defence: Literal["auto", "parry", "dodge", "none"] = "auto"
    # what a parry is made with when both hands could (docs/rules/percentile.md, Defence)
    parry_with: Literal["off_hand", "best", "weapon"] = "off_hand"
    movement: Literal["auto", "close", "hold", "keep_distance", "retreat"] = "auto"
    aim: Annotated[int, Field(ge=0, le=30, multiple_of=5)] = 0   # DEX ranks of careful aim
    small_part: bool = False      # aim missiles at a hand or an eye: half chance
    volley: bool = False          # missile volleys: 2-3 shots at a third of the chance
    extra_attack: bool = False    # try the DEX x 3 extra attack (forfeit the next round)
    disarm: bool = False
    knockback: bool = False
    knockout: bool = False
    pull_blows: bool = False
    entangle: bool = False        # attack with an entangling weapon first, then strike
    riposte: bool = True          # two weapons: a successful off-hand parry strikes back
    brace: bool = False           # kneel behind the shield against missiles; set a spear
    pounce: bool = False          # start aloft and dive onto the target (pouncing stick)
    # down (seed 004: -20 to hit, "a successful Dodge roll gets the downed adventurer back
    # on their feet"): ``stand`` (default) makes the Dodge the round's action, the parry
    # kept; ``stand_and_fight`` spends the round's defence on it and still attacks, on its
    # feet or from the ground; ``fight_down`` stays down and attacks at -20, parry kept
    when_down: Literal["stand", "stand_and_fight", "fight_down"] | None = None
    stand_up: bool | None = None  # older spelling: true is ``stand``, false ``fight_down``
    retrieve: bool = True         # disarmed, bare-handed: pick the weapon up (the action)
    break_off_at: HpOrMajor = 0   # try to leave at <= this HP (or "major_wound")
    yield_at: HpOrMajor = 0       # give up at <= this HP (or "major_wound")
    break_off_by: Literal["run", "dodge", "knockback"] = "run"

    @model_validator(mode="after")
    def _one_down_policy(self) -> Policy:
        if self.when_down is not None and self.stand_up is not None:
            raise ValueError("give when_down or its older spelling stand_up, not both")
        return self

    @property
    def down_policy(self) -> str:
        """``when_down`` with the older ``stand_up`` read into it (default ``stand``)."""
        if self.when_down is not None:
            return self.when_down
        return "fight_down" if self.stand_up is False else "stand"


class Member(Strict):
    """One line of a side: ``count`` identical fighters."""

    name: Name | None = None
    count: Count = 1
    characteristics: Characteristics = Characteristics()
    skills: Skills = Skills()
    weapon: Name = "fist"
    shield: Name | None = None
    off_hand: Name | None = None      # a second weapon (two-weapon fighting)
    sidearm: Name | None = None       # drawn when the main weapon is a missile or breaks
    armour: Name = "none"
    hit_points: Hp | None = None      # default from CON and SIZ (rules.hit_points)
    move: Annotated[int, Field(ge=0, le=100)] = 8   # yards a round on foot
    mount: Name | None = None
    ammo: Annotated[int, Field(ge=0, le=1000)] | None = None   # None: enough for the fight
    humanoid: bool = True             # knockouts work on humans and humanoids only
    noisy: bool = False               # pitch darkness: foes may use half Listen
    armour_damaged: bool = False      # partly destroyed armour: its roll halved (seed 004)
    # seed 004: a giant's blow strikes every foe in reach for 1D6 per ten STR (or SIZ)
    giant: Literal["none", "STR", "SIZ"] = "none"
    smelly: bool = False              # pitch darkness: foes may use half Scent/Taste
    # A poisons row (one with a POT) on the main weapon; its first ``poison_doses`` blows
    # that get past armour each pit the POT against the target's CON (docs/rules/percentile.md,
    # "Poisoned weapons"). Seed 004 rates poisons but says nothing of blades or doses: the
    # lab's default is one dose.
    poison: Name | None = None
    poison_doses: Annotated[int, Field(ge=1, le=1000)] | None = None   # None: 1 with a poison
    situation: Situation = Situation()
    policy: Policy = Policy()

    @model_validator(mode="after")
    def _hands(self) -> Member:
        if self.shield is not None and self.off_hand is not None:
            raise ValueError("a fighter has one off hand: give a shield or an off_hand "
                             "weapon, not both")
        if self.poison_doses is not None and self.poison is None:
            raise ValueError("poison_doses needs a poison (a row of the poisons table) on "
                             "the weapon")
        if self.mount is not None and self.skills.ride is None:
            raise ValueError("a mounted fighter needs skills.ride (it caps the rider's "
                             "fighting skills)")
        return self


class Side(Strict):
    name: Name
    distance: Distance | None = None  # yards from side 0 at the start (default: scenario's)
    situation: Situation = Situation()
    policy: Policy = Policy()         # defaults for its members (theirs win, key by key)
    morale: Morale = Morale()         # when the whole side breaks and flees
    # seed 004: an ambush laid by sneaking up (Move Quietly) or lying in wait (Hide)
    ambush: Literal["none", "move_quietly", "hide"] = "none"
    members: Annotated[list[Member], Field(min_length=1, max_length=100)]


class Rules(Strict):
    """Rule options: the lab's readings of the family's conventions (docs/rules/percentile.md)."""

    hit_points: Literal["average", "con_adjusted"] = "average"
    critical_divisor: Annotated[int, Field(ge=1, le=100)] = 20
    special_divisor: Annotated[int, Field(ge=1, le=100)] = 5
    fumble_divisor: Annotated[int, Field(ge=1, le=100)] = 20
    auto_success: Annotated[int, Field(ge=0, le=50)] = 5
    auto_failure: Annotated[int, Field(ge=51, le=101)] = 96
    critical_needs_critical: bool = True
    broken_parry_passes_excess: bool = True
    major_wound_roll: Annotated[int, Field(ge=0, le=20)] = 5
    fatigue: bool = False
    reach: Annotated[float, Field(gt=0, le=10)] = 1.0
    charge_run: Annotated[float, Field(ge=0, le=100)] = 3.0
    defences_per_round: Annotated[int, Field(ge=0, le=10)] = 1
    extra_defence_penalty: Annotated[int, Field(ge=0, le=100)] = 20
    faces: Annotated[int, Field(ge=1, le=20)] = 2          # attackers a fighter can face
    critical_damages_armour: bool = False   # seed 004: a critical "could conceivably" ruin it
    # seed 004: a longer weapon is clumsier up close: at close quarters the shorter goes first
    up_close: Literal["shorter_first", "none"] = "shorter_first"
    armour_balance_penalty: Annotated[int, Field(ge=0, le=100)] = 20   # only one side armoured
    # BRP family: an attack chance over 100 takes the excess off the defender's parry/dodge
    skill_over_100: Literal["reduces_defence", "none"] = "reduces_defence"
    side_attack_bonus: Annotated[int, Field(ge=0, le=100)] = 20   # for the others
    # a poisoned blow's loss: with the blow (the lab's), or after the poisons table's
    # onset_rounds (seed 004: most poisons "work slowly, worsening over hours")
    poison_onset: Literal["blow", "table"] = "blow"
    # which parry (and dodge) stops which attack: ``elric`` (Elric!, the seed's own game: any
    # successful defence stops a blow, a critical only a critical one) or ``brp`` (Basic
    # Roleplaying's attack and defence matrix: a special against an ordinary parry or dodge
    # is only partly stopped and lands as a normal hit; the parrying item takes 2 points)
    parry_matrix: Literal["elric", "brp"] = "elric"
    # seed 004: a longer weapon may "hold off a shorter-armed opponent entirely": the
    # shorter cannot strike it until a blow of the longer one fails (``until_missed``)
    hold_off: Literal["until_missed", "none"] = "until_missed"
    # a weapon on the ground while a foe presses its owner (seed 004's disarm "keeps them
    # from drawing a second one" by force or threat): it cannot be picked up (``never``),
    # or picking it up is the action and a DEX against DEX roll on the Resistance Table
    # (``contested``), or the action only (``free``)
    rearm_when_pressed: Literal["never", "contested", "free"] = "never"
    # seed 004: "knock-backs, falls, and similar jolts can incidentally stun": a fall to the
    # ground (not a major wound's) calls for the CON x 5 roll
    falls_stun: bool = True
    # seed 004: "a target unable to resist is hit automatically": which states count
    unable_to_resist: Annotated[
        list[Literal["exhausted", "surprised", "held"]], Field(max_length=3)
    ] = Field(default_factory=lambda: ["exhausted", "surprised"])


class PercentileScenario(Strict):
    """A percentile-family fight: core keys, situations, rules, tables and members."""

    name: Name
    ruleset: Literal["percentile"]
    description: str = ""
    trials: Trials = 10_000
    seed: Seed = 0
    max_rounds: MaxRounds = 60
    distance: Distance = 0.0          # yards between the sides at the start
    situation: Situation = Situation()
    rules: Rules = Rules()
    tables: TablePatches = TablePatches()
    sides: Annotated[list[Side], Field(min_length=2, max_length=20)]

    @model_validator(mode="after")
    def _unique_side_names(self) -> PercentileScenario:
        check_side_names([s.name for s in self.sides])
        if sum(m.count for s in self.sides for m in s.members) > 100:
            raise ValueError("at most 100 fighters in one fight")
        return self

    def references(self) -> list[Reference]:
        """Every table name a member refers to, with its field path, for checking."""
        refs: list[Reference] = []
        for i, side in enumerate(self.sides):
            for j, m in enumerate(side.members):
                base = ("sides", i, "members", j)
                refs.append(((*base, "weapon"), "weapons", m.weapon))
                refs.append(((*base, "armour"), "armour", m.armour))
                for field, table in (("shield", "shields"), ("off_hand", "weapons"),
                                     ("sidearm", "weapons"), ("mount", "mounts"),
                                     ("poison", "poisons")):
                    value = getattr(m, field)
                    if value is not None:
                        refs.append(((*base, field), table, value))
        return refs
