"""Yags scenario and table models (seed 000). Validated once here; the rule kernels trust them.

Defaults that the seed does not state are the lab's assumptions and are documented in
``docs/rules/yags.md`` next to the reason for each. Checks that need the tables (does the
weapon fit the style, is the fighter strong enough) are made when the fight is compiled.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from balance.errors import FieldValueError
from balance.models.base import (
    Count,
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
# Seed 000, "Special properties"; `lance` is the lab's tag for the weapon the mounted charge
# needs ("a mounted charge ... uses a lance").
WeaponProperty = Literal[
    "blocking", "crushing", "heavy", "impaling", "light", "strong",
    "throwable", "thrusting", "two_handed", "weak", "lance",
]
# What a row is: a weapon, a shield (held in the off hand), or a natural weapon (a fist, a
# bite: never dropped, disarmed or broken).
WeaponKind = Literal["weapon", "shield", "natural"]
ArmourProperty = Literal["bullet_proof", "mail", "soft"]
Coverage = Literal["head", "neck", "torso", "arms", "legs"]
Layer = Literal["soft", "mail", "plate", "helm", "coif", "other"]
Stance = Literal["normal", "aggressive", "defensive"]
Level = Literal["never", "light", "medium", "heavy", "critical"]
Manoeuvre = Literal[
    "none", "improved_damage", "massive_damage", "vital_strike", "knockdown", "disarm",
    "overwhelm", "grapple", "trip", "charge_through",
]
FumbleResult = Literal["fatigue", "disarm", "break", "fail_defence"]
# A fumble chooser: a ranking by the situation, or results in order of preference.
FumbleChooser = Literal["worst", "best"] | tuple[FumbleResult, ...]
Technique = Literal["mounted_combat"]

# Seed 000, Melee Manoeuvres: these must be made in the aggressive stance.
AGGRESSIVE_MANOEUVRES = ("improved_damage", "massive_damage", "vital_strike", "knockdown")

Attr = Annotated[int, Field(ge=0, le=20)]
Bonus = Annotated[int, Field(ge=0, le=100)]
Reach = Annotated[int, Field(ge=0, le=4)]


class Weapon(Strict):
    """A row of the weapons table (shields too). All bonuses are zero or positive (seed 000)."""

    style: Style
    attack: Bonus = 0
    defence: Bonus = 0
    damage: Bonus = 0
    damage_type: DamageType = "wounds"
    reach: Reach = 1
    strength: Annotated[int, Field(ge=0, le=20)] = 0
    hands: Literal[1, 2] = 1
    properties: tuple[WeaponProperty, ...] = ()
    other_styles: tuple[Style, ...] = ()
    kind: WeaponKind = "weapon"
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
    pair_with_shield: bool = False
    note: str = ""


ShotKind = Literal["snap", "normal", "careful"]
Movement = Literal["auto", "close", "hold", "keep_distance"]
# Yags distances are metres, at most 3000 (the kernel keeps positions in decimetres).
Metres = Annotated[float, Field(ge=0, le=3000)]
Rounds = Annotated[int, Field(ge=0, le=20)]


class MissileWeapon(Strict):
    """A row of the missiles table (seed 000, Missile Combat): what the seed lists for a
    missile weapon (range band, damage, reach, rate of fire, load time, magazine). Numbers
    are the lab's; see the table file's header and docs/rules/yags-missiles.md."""

    attack: Bonus = 0
    damage: Bonus = 0
    damage_type: DamageType = "wounds"
    range: Annotated[float, Field(gt=0, le=3000)]      # range band, metres
    reach: Reach = 1
    rate_of_fire: Annotated[int, Field(ge=1, le=20)] = 1
    recoil: Bonus = 0              # penalty on each further shot of a multiple-shot round
    load: Rounds = 0               # Lo-X: rounds to load after each shot
    magazine: Annotated[int, Field(ge=1, le=200)] = 1
    reload: Rounds | None = None   # rounds to refill a magazine (None: ``load``)
    thrown: bool = False           # thrown: strength x 4 adds to damage
    impaling: bool = True          # the blow's kind against armour (arrows and bolts pierce)
    firearm: bool = False          # no defence against it unless impaired (seed 000)
    weak: bool = False             # seed 000, Weak: "more likely to break" (a fumble may)
    # An explosive (a hand grenade): a hit lands an Ex-X blast of ``damage`` on the target.
    blast_radius: Annotated[float, Field(gt=0, le=100)] | None = None
    ammunition: Annotated[int, Field(ge=1, le=10_000)] | None = None   # carried; None: plenty
    note: str = ""


class MissilePatch(Strict):
    """An inline addition or override of a missile weapon, merged onto the row."""

    attack: Bonus | None = None
    damage: Bonus | None = None
    damage_type: DamageType | None = None
    range: Annotated[float, Field(gt=0, le=3000)] | None = None
    reach: Reach | None = None
    rate_of_fire: Annotated[int, Field(ge=1, le=20)] | None = None
    recoil: Bonus | None = None
    load: Rounds | None = None
    magazine: Annotated[int, Field(ge=1, le=200)] | None = None
    reload: Rounds | None = None
    thrown: bool | None = None
    impaling: bool | None = None
    firearm: bool | None = None
    weak: bool | None = None
    blast_radius: Annotated[float, Field(gt=0, le=100)] | None = None
    ammunition: Annotated[int, Field(ge=1, le=10_000)] | None = None
    note: str | None = None


class WeaponPatch(Strict):
    """An inline addition or override of a weapon: every field optional, merged onto the row."""

    style: Style | None = None
    attack: Bonus | None = None
    defence: Bonus | None = None
    damage: Bonus | None = None
    damage_type: DamageType | None = None
    reach: Reach | None = None
    strength: Annotated[int, Field(ge=0, le=20)] | None = None
    hands: Literal[1, 2] | None = None
    properties: tuple[WeaponProperty, ...] | None = None
    other_styles: tuple[Style, ...] | None = None
    kind: WeaponKind | None = None
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
    pair_with_shield: bool | None = None
    note: str | None = None


class TablePatches(Strict):
    """The scenario's ``tables:`` block."""

    weapons: dict[Name, WeaponPatch] = Field(default_factory=dict)
    armour: dict[Name, ArmourPatch] = Field(default_factory=dict)
    missiles: dict[Name, MissilePatch] = Field(default_factory=dict)


class Tables(Strict):
    """Resolved tables: the shipped rows with the scenario's patches applied."""

    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    missiles: dict[str, MissileWeapon]


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
    """Combat skills, one per fighting style, and riding and athletics; unlisted skills are 0."""

    brawl: Attr = 0
    melee_weapon: Attr = 0
    single_weapon: Attr = 0
    weapon_and_shield: Attr = 0
    great_weapon: Attr = 0
    two_weapons: Attr = 0
    longshaft: Attr = 0
    chain: Attr = 0
    riding: Attr = 0
    athletics: Attr = 0


class Fumbles(Strict):
    """Who picks what when a roll fumbles (seed 000: "You get to choose the fumble result
    unless your opponent has a higher skill, in which case they choose").

    ``own``: what this fighter picks for its own fumbles; ``foe``: what it picks for a less
    skilled foe's. Each is a ranking by the situation, ``worst`` (the result that harms the
    fumbler most: a fatigue level that would exhaust it, then break, disarm, a failed defence
    that lets the attack through, fatigue, a failed defence that changes nothing) or ``best``
    (the same ranking read from the other end), or a list in order of preference, of which
    the first result that is possible is taken (a weapon must be held to be lost, ``break``
    needs a weak weapon on an attack and a weapon that is not strong on a defence,
    ``fail_defence`` is only for defences; ``fatigue`` is always possible). Defaults: a
    fighter takes the fatigue of its own fumbles, and picks the worst for a less skilled
    foe's (issue 25; before it, ``[fail_defence, break, disarm, fatigue]``). See
    docs/rules/yags.md, Fumbles.
    """

    own: FumbleChooser = ("fatigue",)
    foe: FumbleChooser = "worst"


class Stunt(Strict):
    """A stunt before each attack (seed 000, Stunts): agility x athletics against
    ``difficulty``; success gives +5 per level to ``bonus``, failure makes the attack a fumble.
    Stunts are slow actions."""

    difficulty: Annotated[int, Field(ge=0, le=100)]
    bonus: Literal["attack", "damage"] = "attack"
    when: Literal["always", "first_round"] = "always"


class StancePlan(Strict):
    """The stance a fighter declares each round (seed 000, Stance: "When declaring your action
    at the start of the round, you may declare a stance"; Declaring Actions: everybody
    declares "in increasing initiative order. This gives characters with a high initiative a
    big tactical advantage over everybody else"). Without a plan (the default) a member keeps
    its ``stance`` all fight. docs/rules/yags.md, Stance each round.

    ``hurt_at``: once its wound or stun level reaches this, it declares ``when_hurt``.
    ``unopposed``: declaring after every foe able to act (it has the higher initiative) and
    seeing none of them declare an attack on it this round (standing up, picking up a weapon,
    stepping back, loading), it declares this stance (it wins over ``when_hurt``: nobody will
    strike at it this round). None: not used.
    """

    hurt_at: Level = "never"
    when_hurt: Stance = "defensive"
    unopposed: Stance | None = None


class Policy(Targeting):
    """How a fighter chooses, where the rules leave the choice to the player.

    ``target`` / ``targets`` (shared with every rule system): who it attacks in a group fight
    (docs/rules/yags.md, Group fights).

    ``defences``: ``auto`` declares one defence per foe attacking this fighter (up to the
    maximum); a number fixes it (0 is all-out attack, which gives foes counter strikes).
    ``yield_at``: the wound or stun level at which the fighter stops fighting. The rest are the
    detailed melee choices; docs/rules/yags.md describes each.
    """

    defences: Literal["auto"] | Annotated[int, Field(ge=0, le=6)] = "auto"
    yield_at: Level = "never"
    focused: bool = False
    manoeuvre: Manoeuvre = "none"
    manoeuvre_when: Literal["always", "first_round"] = "always"
    grapple_hold: Literal["limb", "neck"] = "limb"
    holding: Literal["improve_then_break", "break", "improve", "strike"] = "improve_then_break"
    when_held: Literal["escape", "fight"] = "escape"
    when_prone: Literal["stand", "fight"] = "stand"
    meet_charge: Literal["auto", "block", "dodge"] = "auto"
    fumbles: Fumbles = Fumbles()
    rearm: Literal["auto", "spare", "pick_up", "none"] = "auto"
    switch_when_grappled: bool = False
    retreat_at: Level = "never"
    reroll_initiative_below: Annotated[int, Field(ge=0, le=200)] | None = None
    stunt: Stunt | None = None
    attack_mount: bool = False
    charge: bool = False
    # rules.reach closing (docs/rules/yags.md, Reach): with a shorter-weapon foe inside its
    # reach, give ground for a round (a retreat) to open the distance again; false: hold and
    # fight it at -5 a level of reach.
    step_back: bool = True
    # Distance fights (docs/rules/yags-missiles.md): auto closes in to melee, or holds its
    # ground while it has a missile weapon to shoot with.
    movement: Movement = "auto"
    # A stance declared each round (issue 25; None: the member's ``stance`` all fight).
    stance_plan: StancePlan | None = None


class Missile(Strict):
    """A member's missile weapon and how it shoots (docs/rules/yags-missiles.md)."""

    weapon: Name                       # a row of the missiles table
    skill: Attr = 0                    # dexterity x skill (+ the weapon's attack) + d20
    shot: ShotKind = "normal"          # snap: fast, distance x2; careful: slow, distance x1/2
    loaded: bool = True                # loaded (a bow: nocked) when the fight starts
    drawn: bool = True                 # in hand when the fight starts
    # Shots carried: a number, ``plenty`` (never runs out), or None: the table's.
    ammunition: Annotated[int, Field(ge=1, le=10_000)] | Literal["plenty"] | None = None
    in_melee: Literal["draw", "shoot"] = "draw"   # foe at melee distance: melee weapon, or shoot


class Mount(Strict):
    """A mount ridden by a member (seed 000, Mounted Combat). **Assumption**: the numbers of
    an average riding horse; the mount does not attack, and attacks on it are against the base
    difficulty (a ridden animal does not parry)."""

    size: Annotated[int, Field(ge=1, le=100)] = 15
    strength: Attr = 6
    health: Attr = 5
    soak: Annotated[int, Field(ge=0, le=200)] | None = None
    armour: tuple[Name, ...] = ()
    saddle: bool = True
    warhorse: bool = False
    move: Annotated[int, Field(ge=0, le=200)] = 24   # lab: a horse's Move, metres


class Member(Strict):
    """One line of a side: ``count`` identical fighters."""

    name: Name | None = None
    count: Count = 1
    # Group fights: 2 stands behind its side's front and attacks through it with a long
    # thrusting weapon (seed 000, ranks; docs/rules/yags.md, Group fights).
    rank: Literal[1, 2] = 1
    attributes: Attributes = Attributes()
    skills: Skills = Skills()
    weapon: Name = "fist"
    off_hand: Name | None = None
    spare: Name | None = None
    style: Style | None = None
    drawn: bool = True
    armour: tuple[Name, ...] = ()
    stance: Stance = "normal"
    soak: Annotated[int, Field(ge=0, le=200)] | None = None
    techniques: tuple[Technique, ...] = ()
    mount: Mount | None = None
    policy: Policy = Policy()
    # Lab's assumption: Move 12 for a human, so the combat move (half Move, no penalty) is
    # the 6 m seed 000 gives "for most people".
    move: Annotated[int, Field(ge=0, le=200)] = 12
    missile: Missile | None = None
    # Fatigue and exhaustion levels at the start (a forced march, a sleepless night).
    fatigue: Annotated[int, Field(ge=0, le=20)] = 0
    exhaustion: Annotated[int, Field(ge=0, le=20)] = 0

    @model_validator(mode="after")
    def _choices_fit(self) -> Member:
        p = self.policy
        if p.manoeuvre in AGGRESSIVE_MANOEUVRES and self.stance != "aggressive":
            raise ValueError(f"the {p.manoeuvre} manoeuvre needs the aggressive stance "
                             f"(seed 000, Melee Manoeuvres); this member's stance is "
                             f"{self.stance!r}")
        if p.charge and (self.mount is None or not self.mount.warhorse):
            raise ValueError("a mounted charge needs a mount that is a trained warhorse "
                             "(mount: {warhorse: true})")
        if p.attack_mount and self.mount is not None:
            raise ValueError("attack_mount is for fighters on foot")
        plan = p.stance_plan
        if p.manoeuvre in AGGRESSIVE_MANOEUVRES and plan is not None and (
                (plan.hurt_at != "never" and plan.when_hurt != "aggressive")
                or plan.unopposed not in (None, "aggressive")):
            raise FieldValueError(f"the {p.manoeuvre} manoeuvre needs the aggressive stance "
                                  "(seed 000, Melee Manoeuvres); a stance_plan may not turn "
                                  "this member to another stance", ("policy", "stance_plan"))
        if self.rank == 2 and plan is not None:
            raise FieldValueError("the second rank fights in the normal stance (seed 000, "
                                  "ranks): no stance_plan", ("policy", "stance_plan"))
        if self.rank == 2 and self.mount is not None:
            raise FieldValueError("the second rank fights on foot (seed 000, ranks); this "
                                  "member rides a mount: give it rank 1 or no mount",
                                  ("mount",))
        if self.rank == 2 and self.stance != "normal":
            raise FieldValueError("the second rank fights in the normal stance (seed 000, "
                                  f"ranks); this member's stance is {self.stance!r}",
                                  ("stance",))
        return self


class Side(Strict):
    """A side: its members, their default ``policy`` (a member's own policy keys win, key by
    key) and its ``morale`` (when the whole side breaks and flees)."""

    name: Name
    members: Annotated[list[Member], Field(min_length=1, max_length=100)]
    policy: Policy = Policy()
    morale: Morale = Morale()
    distance: Metres | None = None   # from side 0 at the start (else the top level's)


class Rules(Strict):
    """Rule options (the lab's assumptions where seed 000 is silent; see docs/rules/yags.md)."""

    success_step: Annotated[int, Field(ge=1, le=50)] = 10
    base_difficulty: Annotated[int, Field(ge=0, le=100)] = 15
    # Seed 000: fatigue "is measured in a similar way to wounds": ``track`` (default) costs
    # what the wound track does at the same level (the first level free, then -5, -10, -15,
    # -25, -40); a number costs that much per level (5: the lab's reading before issue 12).
    fatigue_penalty: Annotated[int, Field(ge=0, le=40)] | Literal["track"] = "track"
    confined_reach: Reach | None = None
    # Seed 000, Reach: ``closing`` (default) keeps, per pair of foes, whether the shorter
    # weapon has got inside the longer one's reach: the longer weapon's free strike as it
    # closes, -5 a level of reach while it is inside; ``every_attack``: the free-strike
    # sentence alone, every attack by a shorter weapon draws it (docs/rules/yags.md, Reach).
    reach: Literal["closing", "every_attack"] = "closing"
    # How a longer weapon gets its distance back once a shorter one is inside (rules.reach
    # closing; the seed says how a foe gets in, not how it is kept out): ``step_back``
    # (default) gives ground for a round (a retreat, by policy.step_back) and the distance
    # reopens to every foe inside; ``follow``: "give ground to your attacker" read as the
    # attacker following: a retreat reopens no distance from a foe that attacked the
    # retreater that round, so nobody steps back to regain reach; ``hold``: nobody steps back
    # (policy.step_back is not acted on) and the longer weapon fights at -5 a level of reach
    # (a retreat still reopens it). docs/rules/yags.md, Reach.
    regain_reach: Literal["step_back", "follow", "hold"] = "step_back"
    riding_difficulty: Annotated[int, Field(ge=0, le=100)] = 15
    # Fatigue levels at which a fighter is exhausted and must rest at once (seed 000: "If a
    # character becomes Exhausted then they must immediately rest"); ``health`` (default):
    # one more than its health (the track is "based on their health"); ``never``: no
    # exhaustion (the lab's default before issue 12). docs/rules/yags.md, Fatigue.
    exhausted_at: (Annotated[int, Field(ge=1, le=100)] | Literal["health", "never"]
                   | None) = "health"
    # Lo-0 weapons (bows), seed 000: "loaded and fired in the first round, though as a slow
    # snap shot": ``snap`` (default) makes every shot after the first loaded one a slow snap
    # shot; ``aim`` loads for a round instead and shoots the declared kind of shot the round
    # after (the Lo-X rule with X = 1); ``ready`` (the lab's reading before issue 12) nocks as
    # part of every later shot (docs/rules/yags-missiles.md, Loading).
    lo0_shots: Literal["snap", "aim", "ready"] = "snap"
    # Defence against a shot the threat bands leave unimpaired. Seed 000: an impaired weapon's
    # "target always gets their full defence (even against firearms)", so otherwise a target
    # gets less, and against firearms none: ``half`` (default) rolls half its defence against
    # bows and thrown weapons, none against firearms; ``full``: its full defence against every
    # shot; ``none``: no defence unless impaired (the lab before issue 12).
    missile_defence: Literal["half", "full", "none"] = "half"
    # A shot's natural 1 (seed 000: "When making an attack or defence roll, if you roll a
    # natural '1', then a fumble occurs"): ``results`` (default, issue 25) is a fumble: a
    # miss, and the result chosen as for melee (the shooter's, or the target's if it is more
    # skilled) from those that make sense for a shot: fatigue, the weapon dropped (a round to
    # pick it up; a thrown weapon has already left the hand), a weak weapon broken (no more
    # shots); ``miss``: a miss and nothing more (the lab before issue 25).
    # docs/rules/yags-missiles.md, Fumbles.
    missile_fumbles: Literal["results", "miss"] = "results"
    # An unarmed attack parried by a martial weapon draws a counter strike. Seed 000 says it
    # twice, differently: "If the defender makes a successful defence" (Unarmed attack) and
    # "if you make a good defence" (Counter Strikes). ``good`` (default: the rule in the list
    # of counter strikes) or ``success`` (the defence roll beats the attack roll).
    unarmed_counter: Literal["good", "success"] = "good"
    # Seed 000: "Excessive stun damage may lead to wounds": ``wounds`` (default) turns every
    # stun beyond beaten (6) into a wound; ``none`` holds the stun track at 6 and no more.
    excess_stuns: Literal["wounds", "none"] = "wounds"
    # Seed 000, Crushing: "+5 bonus to damage for purposes of knockback. This increases the
    # chance of causing stun damage, even if the attack didn't get through the target's
    # armour". ``stuns`` (default): a hit that causes no damage still knocks the target back
    # for stun damage when its damage roll (+5 crushing) is greater than the target's strength
    # x 10 (the seed's Knockdown measure); ``none``: it does nothing.
    knockback: Literal["stuns", "none"] = "stuns"
    # Group fights (lab's assumption, "by reach and space"): most attackers on one fighter;
    # None: 4 in the open, 2 where rules.confined_reach is set (docs/rules/yags.md).
    max_attackers: Annotated[int, Field(ge=1, le=20)] | None = None


class Explosion(Strict):
    """A blast placed in the fight (seed 000, Explosive damage; docs/rules/yags-explosions.md):
    at the start of round ``round`` (before declarations), in each trial with probability
    ``chance``, every standing fighter named in ``at`` takes it at that many metres from
    ground zero: wounds out to the radius, mixed to twice it, stuns to three times. A name in
    ``at`` is a fighter's (``goblin#2``) or a member's, placing all its ``count`` copies;
    fighters not named are out of it. The blast is ``damage`` and ``radius`` (Ex-X,
    character scale) or ``tnt_lb`` pounds of TNT (the seed's scaling; vehicle scale from
    1 lb). ``size`` shifts the damage type against much larger or smaller targets; with
    ``tnt_lb`` the TNT table's Size is used unless ``size`` is given. In a fight at a
    distance, ``centre`` (instead of ``at``) lands it on one fighter: everyone's distance is
    then their distance on the line from that fighter when it goes off."""

    round: Annotated[int, Field(ge=1, le=10_000)] = 1
    damage: Annotated[int, Field(ge=0, le=1000)] | None = None
    radius: Annotated[float, Field(gt=0, le=10_000)] | None = None
    tnt_lb: Annotated[float, Field(gt=0, le=1e10)] | None = None
    size: Annotated[int, Field(ge=1, le=100)] | None = None   # None: 5, or the TNT table's
    chance: Annotated[float, Field(ge=0, le=1)] = 1.0
    at: Annotated[dict[Name, Annotated[float, Field(ge=0, le=100_000)]],
                  Field(min_length=1)] | None = None
    centre: Name | None = None

    @model_validator(mode="after")
    def _one_charge(self) -> Explosion:
        if (self.at is None) == (self.centre is None):
            raise ValueError("place the explosion with at (metres from ground zero per "
                             "fighter) or centre (a fighter's name, in a fight at a "
                             "distance), one of the two")
        given = (self.damage is not None, self.radius is not None)
        if self.tnt_lb is not None:
            if any(given):
                raise ValueError("give either tnt_lb or damage and radius, not both")
        elif not all(given):
            raise ValueError("an explosion needs damage and radius (Ex-X), or tnt_lb")
        return self


class Healer(Strict):
    """Who gives first aid to a side's wounded after the fight (seed 000, "First aid")."""

    intelligence: Attr = 3
    first_aid: Attr = 0


class Aftermath(Strict):
    """The hours after the fight: who is still alive ``hours`` later, given the healer (if
    any) tending each side's wounded. See docs/rules/yags-after-battle.md."""

    hours: Annotated[float, Field(gt=0, le=24 * 7 * 52)]
    first_aid: dict[Name, Healer] = Field(default_factory=dict)


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
    aftermath: Aftermath | None = None
    # Start distance between the sides in metres (0: already at melee distance).
    distance: Metres = 0.0
    explosions: list[Explosion] = Field(default_factory=list, max_length=50)

    @model_validator(mode="after")
    def _unique_side_names(self) -> YagsScenario:
        check_side_names([s.name for s in self.sides])
        return self

    def references(self) -> list[Reference]:
        """Every table name a member refers to, with its field path, for checking."""
        refs: list[Reference] = []
        for i, side in enumerate(self.sides):
            for j, m in enumerate(side.members):
                base = ("sides", i, "members", j)
                refs.append(((*base, "weapon"), "weapons", m.weapon))
                for key in ("off_hand", "spare"):
                    if getattr(m, key) is not None:
                        refs.append(((*base, key), "weapons", getattr(m, key)))
                refs.extend(((*base, "armour", k), "armour", a) for k, a in enumerate(m.armour))
                if m.missile is not None:
                    refs.append(((*base, "missile", "weapon"), "missiles", m.missile.weapon))
                if m.mount is not None:
                    refs.extend(((*base, "mount", "armour", k), "armour", a)
                                for k, a in enumerate(m.mount.armour))
        return refs


ROW_MODELS = {"weapons": Weapon, "armour": Armour, "missiles": MissileWeapon}
