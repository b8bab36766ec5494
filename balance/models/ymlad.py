"""Ymlad scenario and table models (seed 002). Validated once here; the rule kernels trust them.

The seed points at many tables it does not print; the lab ships its own in
``balance/data/ymlad/`` and every default the seed does not state is the lab's assumption,
documented in ``docs/rules/ymlad.md`` next to its reason. A member may start from a *roster*
entry (a named fighter in the ``roster`` table) and change any field of it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError, create_model, model_validator

from balance.errors import FieldValueError, Problem, ScenarioError
from balance.models.base import (
    Count,
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

Style = Literal["missile", "formation", "melee", "close"]
ContactStyle = Literal["formation", "melee", "close"]
HarmChoice = Literal["best", "slashing", "piercing", "pummeling", "stun", "grapple"]
Band = Literal["close", "medium", "long"]
Light = Literal["bright", "twilight", "moonlight", "starlight", "darkness"]
Wind = Literal["calm", "light", "moderate", "strong", "gale"]
Angle = Literal["front", "side", "rear", "above", "below"]
Vision = Literal["normal", "sideways", "all_round"]
Mounted = Literal["no", "halted", "walking", "fast"]
Moving = Literal["still", "walking", "running"]
TrackStatus = Literal["standing", "incapacitated", "dead", "wasted"]
MissileKind = Literal["bow", "crossbow", "sling", "thrown", "blowgun"]
Held = Literal["auto", "disengage", "fight"]

Score = Annotated[int, Field(ge=0, le=9)]          # seed: weapon scores lie in 0-9
Talent = Annotated[int, Field(ge=0, le=4)]         # seed: talents lie in 0-4
Skill = Annotated[int, Field(ge=0, le=6)]          # seed: skills lie in 0-6
Modifier = Annotated[int, Field(ge=-20, le=20)]
Threshold = Annotated[int, Field(ge=1, le=50)]     # seed: 1 deadly, 2 forgiving, 3+ very
Kilograms = Annotated[float, Field(ge=0, le=10_000)]
Metres = Annotated[float, Field(ge=0, le=100_000)]
Factor = Annotated[float, Field(ge=0, le=100)]
Note = str


# --- table rows ------------------------------------------------------------------------------


class HandWeapon(Strict):
    """A hand weapon (or natural weapon): skirmish scores per contact style, harm per subtype."""

    formation: Score
    melee: Score
    close: Score
    close_lever: Score | None = None    # seed: the second close score, used two-handed
    slashing: Score = 0
    piercing: Score = 0
    pummeling: Score = 0
    narrow: bool = False                # narrow piercer (armour divisor 3) or broad (2)
    grapple: Score = 0
    reach: Annotated[int, Field(ge=0, le=6)] = 1
    hands: Literal[1, 2] = 1
    polearm: bool = False               # seed: spears and polearms let 12 attack a loner
    light: bool = False                 # seed: only light weapons go in the off hand
    natural: bool = False
    lance: bool = False                 # seed, Formation: a knight's charge with lance
    material: Name = "mild_steel"
    slashing_divisor: Annotated[int, Field(ge=1, le=8)] | None = None  # e.g. Bjarne's sword: 4
    weight: Kilograms = 0.0
    note: Note = ""


class MissileWeapon(Strict):
    """A missile weapon or a thrown hand weapon: skirmish score, harm, range bands, fire rate."""

    missile: Score
    slashing: Score = 0
    piercing: Score = 0
    pummeling: Score = 0
    narrow: bool = False
    close: Metres                        # end of the close range band
    medium: Metres                       # end of the medium band
    max: Metres                          # maximum range; the long band ends here
    range_effort: tuple[Modifier, Modifier, Modifier] = (0, -1, -2)
    range_harm: tuple[Modifier, Modifier, Modifier] = (0, 0, 0)   # piercing harm by band
    rounds_per_shot: Annotated[int, Field(ge=1, le=10)] = 1       # fire rate 1/rounds_per_shot
    shots: Annotated[int, Field(ge=1, le=1000)] = 20
    thrown: bool = False
    # What drives the missile (rules.missile_strength: the shooter's arm for bows, slings and
    # throws; a crossbow's mechanism). None: the old lab default, strength does not add.
    kind: MissileKind | None = None
    strength: bool | None = None         # does the user's strength add? None: by kind
    mounted: bool = True                 # usable from horseback
    material: Name = "mild_steel"
    weight: Kilograms = 0.0
    note: Note = ""


class Shield(Strict):
    bonus: Annotated[int, Field(ge=0, le=3)]   # seed: cavalry 1, medium 2, body 3
    weight: Kilograms = 0.0
    note: Note = ""


class Construction(Strict):
    """An armour construction: protection and weight factors (seed's armour formulas)."""

    protection: Factor
    weight: Factor
    material: Name
    helmet: bool = False
    note: Note = ""


class ThicknessFactor(Strict):
    factor: Factor
    note: Note = ""


class BodyPart(Strict):
    importance: Factor       # share of protection (head weighs more than its area)
    area: Factor             # share of surface, for weight
    note: Note = ""


class ArmourPiece(Strict):
    """A piece of armour built from the seed's factors: construction x thickness x parts."""

    construction: Name
    thickness: Name = "average"
    parts: Annotated[tuple[Name, ...], Field(min_length=1)]
    material: Name | None = None         # overrides the construction's material
    note: Note = ""


class Material(Strict):
    hardness: Annotated[int, Field(ge=0, le=20)]
    note: Note = ""


class BodySize(Strict):
    size: Annotated[int, Field(ge=-10, le=10)]
    skirmish: Modifier
    missile_resistance: Modifier
    harm: Modifier
    capacity: Factor          # carrying capacity, times a human's
    speed: Metres             # running distance per round
    reach: Annotated[int, Field(ge=0, le=10)]
    note: Note = ""


class EncumbranceLevel(Strict):
    up_to: Factor             # load / capacity at most this
    penalty: Modifier
    note: Note = ""


class ModifierRow(Strict):
    modifier: Modifier
    note: Note = ""


class HarmLevel(Strict):
    """A level of the harm track: reached when harm exceeds ``above`` x the harm threshold."""

    above: Annotated[float, Field(ge=0, le=100)]
    penalty: Modifier = 0
    status: TrackStatus = "standing"
    note: Note = ""


# --- fighters --------------------------------------------------------------------------------


class Talents(Strict):
    """Talent scores 0-4, read through the talent_modifiers table (2 is average, modifier 0)."""

    strength: Talent = 2
    dexterity: Talent = 2


class Skills(Strict):
    """Skill levels 0-6 per fighting style, read through the skill_modifiers table."""

    missile: Skill = 0
    formation: Skill = 0
    melee: Skill = 0
    close: Skill = 0


class StyleBonus(Strict):
    """A flat situational bonus (or penalty) per style, as a GM assigns one."""

    missile: Modifier = 0
    formation: Modifier = 0
    melee: Modifier = 0
    close: Modifier = 0


class HarmResist(Strict):
    """Extra harm resistance per harm kind, for bodies that take blows differently."""

    slashing: Modifier = 0
    piercing: Modifier = 0
    pummeling: Modifier = 0
    grappling: Modifier = 0


class Policy(Targeting):
    """How a fighter chooses where the rules leave the choice to the player.

    ``style``: the preferred fighting style. ``contact_style``: what a missile user fights with
    once run down or out of shots (default melee). ``harm``: ``best`` picks the wounding
    subtype that does most harm; ``stun`` and ``grapple`` (close combat only) aim to subdue.
    ``range``: a missile user walks in until the target is within this band. ``keep_at``:
    a missile user backs away (without shooting) from a target closer than this many metres.
    ``charge``: charge on first contact. ``lever``: use a two-handed close score when the off
    hand is free. ``yield_at`` / ``flee_at``: the harm track level at which the fighter gives
    up / runs away. ``target`` / ``targets`` (shared with every rule system): who to attack in
    a group fight (``first`` in Ymlad: the first foe in scenario order, a foe already within
    reach before any other; see docs/rules/ymlad.md, Group fights). ``held``: what a fighter
    who does not want close combat does when held in it (seed, Close: it "can engage in
    close combat too, or try to disengage"): ``disengage`` always backs off, ``fight`` fights
    back in close combat, ``auto`` (default) fights back when it is at least as good in
    close combat as its holder and backs off otherwise.
    """

    style: Style = "melee"
    contact_style: ContactStyle | None = None
    harm: HarmChoice = "best"
    range: Band = "long"
    keep_at: Metres = 0.0
    charge: bool = False
    lever: bool = True
    yield_at: Name = "never"
    flee_at: Name = "never"
    held: Held = "auto"

    @model_validator(mode="after")
    def _contact_style_for_missile_users(self) -> Policy:
        if self.contact_style is not None and self.style != "missile" \
                and self.contact_style != self.style:
            raise ValueError("contact_style is for missile users; a "
                             f"{self.style} fighter already fights {self.style} in contact")
        return self


class StyleWeapon(Strict):
    """A weapon for one style with the fighter's skill level with it (seed 002, The party:
    the skeletons' skills "are for the weapons that the skeletons prefer to use. If they are
    forced to switch to other weapons, skill levels are lower"). ``skill`` unset: the
    fighter's skill in that style."""

    weapon: Name
    skill: Skill | None = None


WeaponChoice = Name | StyleWeapon


class StyleWeapons(Strict):
    """The hand weapon a fighter takes up in each contact style (seed 002: Sir Florimond's
    poleaxe and "dagger as backup weapon"; a knight's lance for the charge and a sword for
    the melee after it). Unset styles use ``weapon`` (close: ``close_weapon``, then the
    melee weapon). A name, or ``{weapon: name, skill: level}`` for a skill with that
    weapon."""

    formation: WeaponChoice | None = None
    melee: WeaponChoice | None = None
    close: WeaponChoice | None = None


class FighterSpec(Strict):
    """Everything that describes one fighter; members and roster entries share it."""

    body: Name = "human"
    talents: Talents = Talents()
    skills: Skills = Skills()
    weapon: Name = "fist"
    close_weapon: Name | None = None
    weapons: StyleWeapons = StyleWeapons()
    off_hand: Name | None = None
    missile: Name | None = None
    shots: Annotated[int, Field(ge=0, le=1000)] | None = None
    shield: Name | None = None
    armour: tuple[Name, ...] = ()
    armour_score: Annotated[float, Field(ge=0, le=8)] | None = None   # seed: armour is 0-8
    armour_material: Name | None = None
    harm_threshold: Threshold | None = None
    height: Annotated[int, Field(ge=-5, le=5)] | None = None
    mounted: Mounted = "no"
    angle: Angle = "front"
    vision: Vision = "normal"
    darkvision: bool = False
    cover: Annotated[int, Field(ge=0, le=10)] = 0
    crouch: bool = False
    moving: Moving = "still"
    load: Kilograms = 0.0
    encumbrance: Name | None = None
    speed: Metres | None = None
    effort: StyleBonus = StyleBonus()
    resistance: StyleBonus = StyleBonus()
    resist: HarmResist = HarmResist()
    feels_pain: bool = True
    stunnable: bool = True
    policy: Policy = Policy()

    @model_validator(mode="after")
    def _one_off_hand(self) -> FighterSpec:
        if self.shield is not None and self.off_hand is not None:
            raise FieldValueError("a fighter cannot carry both a shield and an off-hand "
                                  "weapon (seed: dual wielding prevents the use of a shield)",
                                  ("off_hand",))
        return self


class RosterEntry(FighterSpec):
    """A named fighter in the roster table; a member uses it with ``roster: <row name>``."""

    name: Name | None = None
    note: Note = ""


class Member(FighterSpec):
    """One line of a side: ``count`` identical fighters, optionally from a roster entry.

    ``row``: the formation row the fighter stands in (1 the front). Fighters in rows behind the
    front cannot be reached by contact attacks; with a spear or polearm they attack through
    the front in formation style; they step up as the front falls (docs/rules/ymlad.md)."""

    name: Name | None = None
    count: Count = 1
    roster: Name | None = None
    row: Annotated[int, Field(ge=1, le=10)] = 1


NESTED = ("talents", "skills", "effort", "resistance", "resist", "policy", "weapons")


class MergeError(ValueError):
    """A member whose layers (its side's default policy, its roster entry, its own fields) are
    each valid but whose merge breaks a rule that ties fields together (a shield and an
    off-hand weapon; a contact style against the fighter's style). ``problems`` holds
    (path within the scenario's member or side, message) pairs, relative to the member:
    ``("off_hand",)`` is the member's own field, ``("roster",)`` its roster line, and a path
    starting with ``..`` the side's."""

    def __init__(self, problems: list[tuple[tuple[str | int, ...], str]]):
        super().__init__("; ".join(m for _, m in problems))
        self.problems = problems


def resolve_member(member: Member, roster: Mapping[str, RosterEntry],
                   side_policy: Policy | None = None) -> tuple[str | None, FighterSpec]:
    """The member's display name and full fighter spec, its roster entry filled in.

    Fields the member sets win over the roster entry's, and those over the side's default
    ``policy``; nested blocks (talents, skills, policy, ...) merge one level deep, so
    ``policy: {style: missile}`` keeps the rest. A merge that breaks a cross-field rule is a
    :class:`MergeError` naming the field and the layers it came from.
    """
    own = member.model_dump(mode="json", exclude_unset=True,
                            exclude={"name", "count", "roster", "row"})
    merged: dict[str, Any] = {}
    base: dict[str, Any] = {}
    if side_policy is not None:
        base = side_policy.model_dump(mode="json", exclude_unset=True)
        if base:
            merged["policy"] = base
    entry = None if member.roster is None else roster[member.roster]
    listed = {} if entry is None else \
        entry.model_dump(mode="json", exclude_unset=True, exclude={"name", "note"})
    layers = [own] if entry is None else [listed, own]
    for layer in layers:
        _merge(merged, layer)
    try:
        spec = FighterSpec.model_validate_json(json.dumps(merged), strict=True)
    except ValidationError as err:
        raise MergeError([_merge_problem(e, own, listed, base, member.roster)
                          for e in err.errors(include_url=False)]) from None
    return member.name or (entry.name if entry is not None else None), spec


def _merge_problem(error: Mapping[str, Any], own: Mapping[str, Any], listed: Mapping[str, Any],
                   side: Mapping[str, Any], roster: str | None
                   ) -> tuple[tuple[str | int, ...], str]:
    """Where a merged member's error is best fixed, and what to say: the member's own field
    when it sets it, else its ``roster`` line (the entry's field), else the side's policy."""
    found = error.get("ctx", {}).get("error")
    loc = tuple(error["loc"]) + (tuple(found.loc) if isinstance(found, FieldValueError) else ())
    message = str(found) if found is not None else error["msg"]
    layers = [f"roster entry {roster!r}"] if roster is not None else []
    if side and (not loc or loc[0] == "policy"):
        layers.append("the side's default policy")
    why = f" (the member's own fields laid over {' and '.join(layers)})" if layers else ""
    head = loc[0] if loc else None
    if head is None or head in own:
        return loc, message + why
    if head in listed:
        return ("roster",), f"{'.'.join(map(str, loc))} from roster entry {roster!r}: " \
            f"{message}{why}"
    return ("..", "policy"), message + why


def _merge(merged: dict[str, Any], layer: Mapping[str, Any]) -> None:
    """Lay ``layer`` over ``merged`` in place, nested blocks key by key."""
    for key, value in layer.items():
        if key in NESTED and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value


# --- table patches ---------------------------------------------------------------------------


def _patch_model(model: type[BaseModel]) -> type[BaseModel]:
    """The all-optional twin of a row model, for a scenario's ``tables:`` block.

    Nested blocks are taken as plain mappings here: the merged row is validated strictly
    against the row model afterwards, with the error located in the scenario.
    """
    fields: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        kind = info.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            kind = dict[str, Any]
        elif info.metadata:
            kind = Annotated[(kind, *info.metadata)]
        fields[name] = (kind | None, None)
    return create_model(f"{model.__name__}Patch", __base__=Strict, **fields)


ROW_MODELS: dict[str, type[BaseModel]] = {
    "hand_weapons": HandWeapon,
    "missile_weapons": MissileWeapon,
    "shields": Shield,
    "armour": ArmourPiece,
    "constructions": Construction,
    "thickness_factors": ThicknessFactor,
    "body_parts": BodyPart,
    "materials": Material,
    "body_sizes": BodySize,
    "encumbrance": EncumbranceLevel,
    "talent_modifiers": ModifierRow,
    "skill_modifiers": ModifierRow,
    "harm_track": HarmLevel,
    "roster": RosterEntry,
}
PATCH_MODELS = {table: _patch_model(model) for table, model in ROW_MODELS.items()}

TablePatches = create_model(
    "YmladTablePatches", __base__=Strict,
    **{t: (dict[Name, PATCH_MODELS[t]], Field(default_factory=dict)) for t in ROW_MODELS},
)
Tables = create_model(
    "YmladTables", __base__=Strict,
    **{t: (dict[str, model], ...) for t, model in ROW_MODELS.items()},
)


# --- the scenario ----------------------------------------------------------------------------


class Side(Strict):
    """A side: its members, and settings that hold for all of them unless a member overrides."""

    name: Name
    members: Annotated[list[Member], Field(min_length=1, max_length=100)]
    distance: Distance | None = None          # from side 0 at the start (else the top level's)
    harm_threshold: Threshold | None = None   # seed: a GM may give PCs a higher one
    height: Annotated[int, Field(ge=-5, le=5)] = 0
    flanks_secured: bool = False              # seed: formation holds only with flanks secured
    policy: Policy = Policy()                 # defaults for its members (theirs win, key by key)
    morale: Morale = Morale()                 # when the whole side breaks and flees


class MissileStrength(Strict):
    """Does the shooter's strength modifier add to a missile's harm effort, per missile kind?

    Seed, Wounding: "The formula for effort is body harm modifier + strength modifier +
    weapon ... harm score", with no exception for missiles. Lab reading: the strength that
    counts is what drives the missile, the arm that draws a bow, whirls a sling or throws;
    a crossbow is spanned by its mechanism (its harm score is the mechanism's) and a
    blowgun by breath. A missile row's own ``strength:`` overrides."""

    bow: bool = True
    crossbow: bool = False
    sling: bool = True
    thrown: bool = True
    blowgun: bool = False


class YmladRules(Strict):
    """Rule options (the lab's assumptions where seed 002 is silent; docs/rules/ymlad.md)."""

    harm_threshold: Threshold = 2          # the seed's example campaign uses 2
    hardness: bool = True                  # the seed's example GM switches it off
    contact: Metres = 2.0                  # seed: melee striking range, "a couple of meters"
    room_to_retreat: bool = True           # needed for the +4 disengagement bonus
    # Lab (the seed gives no free attacks): who strikes at a fighter turning to run, each foe
    # that attacked it this round from the front line (in a random order), only one of them
    # (a uniform pick, never the first-listed), or nobody.
    parting_blows: Literal["all", "one", "none"] = "all"
    # Seed, Mounted combat and Charge: a missile user may shoot in a round it moved (from a
    # moving mount at -1 / -2, on a missile charge, running backwards or with a Parthian
    # shot); false: the older lab rule, a shooter who moved cannot aim that round.
    moving_shots: bool = True
    # Seed, Formation: "the charge with lance of a knight from horseback ... ensures that at
    # least the first attack will be a formation attack": the charger's attack in its charge
    # round (first_attack), also its target's attack back that round (charge_round), or the
    # style by the usual rules (none: the lab before issue 27).
    lance_charge: Literal["first_attack", "charge_round", "none"] = "first_attack"
    # Taking up another weapon when the style changes: free (lab: within the round; the
    # seed's cost is the skill with the other weapon) or it takes the fighter's attack.
    weapon_switch: Literal["free", "attack"] = "free"
    # Seed, Formation vs melee: once a man of a line with secured flanks is down, attackers
    # "may move in and engage in melee combat": his neighbours in the line lose their cover.
    holes: bool = True
    # Seed, Height: the GM "may remove the bonus ... when shooting arrows tens of meters away
    # from horseback": near (a mount's height counts for shots up to saddle_height_near
    # metres) or always (the lab before issue 27).
    saddle_height: Literal["near", "always"] = "near"
    saddle_height_near: Metres = 10.0
    # Seed, Wounding: harm effort adds the strength modifier; per missile kind, whether the
    # shooter's strength drives the missile (a crossbow's mechanism does not take it).
    missile_strength: MissileStrength = MissileStrength()
    # Lab geometry of the ring round one fighter (seed, Group fights: some attackers "may be
    # able to move to his flanks or even rear"): the 4th and 5th at the flanks and the rest
    # behind, all past the 3rd at the flanks, or all in front (no angle penalties).
    ring: Literal["flanks_and_rear", "flanks", "front"] = "flanks_and_rear"
    capacity_kg: Kilograms = 25.0          # carrying capacity of an average human
    capacity_per_strength_kg: Kilograms = 5.0


class Conditions(Strict):
    """The battlefield: light and wind (seed 002, Light and Wind)."""

    light: Light = "bright"
    wind: Wind = "calm"


class YmladScenario(Strict):
    """A Ymlad fight: the core scenario keys plus Ymlad rules, conditions, tables and members."""

    name: Name
    ruleset: Literal["ymlad"]
    description: str = ""
    trials: Trials = 10_000
    seed: Seed = 0
    max_rounds: MaxRounds = 60
    distance: Distance = 0.0
    rules: YmladRules = YmladRules()
    conditions: Conditions = Conditions()
    tables: TablePatches = TablePatches()
    sides: Annotated[list[Side], Field(min_length=2, max_length=20)]

    @model_validator(mode="after")
    def _unique_side_names(self) -> YmladScenario:
        check_side_names([s.name for s in self.sides])
        return self

    def references(self) -> list[Reference]:
        """Every table name the scenario refers to, with its field path, for checking."""
        refs: list[Reference] = []
        for i, side in enumerate(self.sides):
            refs += _policy_refs(("sides", i), side.policy, side.policy.model_fields_set)
            for j, m in enumerate(side.members):
                refs += _fighter_refs(("sides", i, "members", j), m)
                if m.roster is not None:
                    refs.append((("sides", i, "members", j, "roster"), "roster", m.roster))
        for table, rows in self.tables:
            for name, patch in rows.items():
                refs += _row_refs(("tables", table, name), table, patch)
        return refs

    def fighters(self, tables: Any) -> list[tuple[int, str, FighterSpec]]:
        """(side index, display name, spec) of every fighter, ``count`` expanded, in order."""
        return [(s, name, spec) for s, name, spec, _ in self.members(tables)]

    def members(self, tables: Any) -> list[tuple[int, str, FighterSpec, Member]]:
        """Like :meth:`fighters`, with the member line each fighter comes from."""
        out, problems = [], []
        for s, side in enumerate(self.sides):
            policy = side.policy if side.policy.model_fields_set else None
            for j, member in enumerate(side.members):
                try:
                    name, spec = resolve_member(member, tables.roster, policy)
                except MergeError as err:   # each layer valid, the merge not: say where
                    for path, message in err.problems:
                        at = ("sides", s, *path[1:]) if path[:1] == ("..",) else \
                            ("sides", s, "members", j, *path)
                        problems.append(Problem(message, _dotted(at)))
                    continue
                base = name or (side.name if len(side.members) == 1 else f"{side.name}.{j}")
                for k in range(member.count):
                    display = base if member.count == 1 else f"{base}#{k + 1}"
                    out.append((s, display, spec, member))
        if problems:
            raise ScenarioError(problems)
        return out


def _dotted(path: tuple[str | int, ...]) -> str:
    """``sides[0].members[1].policy``: a field path as problems print it."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


_SPEC_REFS = (("weapon", "hand_weapons"), ("close_weapon", "hand_weapons"),
              ("off_hand", "hand_weapons"), ("missile", "missile_weapons"),
              ("shield", "shields"), ("armour_material", "materials"), ("body", "body_sizes"),
              ("encumbrance", "encumbrance"))
_ROW_REFS = {
    "hand_weapons": (("material", "materials"),),
    "missile_weapons": (("material", "materials"),),
    "constructions": (("material", "materials"),),
    "armour": (("construction", "constructions"), ("thickness", "thickness_factors"),
               ("material", "materials")),
}


def _fighter_refs(base: tuple, spec: Any) -> list[Reference]:
    """References of a member or roster patch (only the fields it sets)."""
    refs: list[Reference] = []
    given = spec.model_fields_set
    for field, table in _SPEC_REFS:
        value = getattr(spec, field)
        if field in given and value is not None:
            refs.append(((*base, field), table, value))
    if "armour" in given and spec.armour is not None:
        refs += [((*base, "armour", k), "armour", a) for k, a in enumerate(spec.armour)]
    if "weapons" in given and spec.weapons is not None:
        refs += _weapons_refs((*base, "weapons"), spec.weapons)
    policy = getattr(spec, "policy", None)
    if "policy" in given and policy is not None:
        refs += _policy_refs(base, policy)
    return refs


def _weapons_refs(base: tuple, weapons: Any) -> list[Reference]:
    """The hand weapons a ``weapons:`` block names (a model, or a roster patch's mapping)."""
    refs: list[Reference] = []
    for style in ("formation", "melee", "close"):
        choice = weapons.get(style) if isinstance(weapons, dict) else getattr(weapons, style)
        if isinstance(choice, str):
            refs.append(((*base, style), "hand_weapons", choice))
        elif isinstance(choice, dict) and isinstance(choice.get("weapon"), str):
            refs.append(((*base, style, "weapon"), "hand_weapons", choice["weapon"]))
        elif isinstance(choice, StyleWeapon):
            refs.append(((*base, style, "weapon"), "hand_weapons", choice.weapon))
    return refs


def _policy_refs(base: tuple, policy: Any, given: Any = None) -> list[Reference]:
    """The harm track levels a policy (a model or a roster patch's mapping) names."""
    refs: list[Reference] = []
    for field in ("yield_at", "flee_at"):
        if given is not None and field not in given:
            continue
        level = policy.get(field) if isinstance(policy, dict) else getattr(policy, field)
        if isinstance(level, str) and level != "never":
            refs.append(((*base, "policy", field), "harm_track", level))
    return refs


def _row_refs(base: tuple, table: str, patch: Any) -> list[Reference]:
    """References from a scenario's patched or added table row to other tables."""
    if table == "roster":
        return _fighter_refs(base, patch)
    refs: list[Reference] = []
    for field, target in _ROW_REFS.get(table, ()):
        value = getattr(patch, field)
        if value is not None:
            refs.append(((*base, field), target, value))
    if table == "armour" and patch.parts is not None:
        refs += [((*base, "parts", k), "body_parts", p) for k, p in enumerate(patch.parts)]
    return refs
