"""Compile a validated Yags scenario into flat per-fighter numbers the kernels use.

The scalar reference and the vectorised kernel both start from :class:`YagsFight`, so they
agree on every derived number (attack base, soak against each kind of blow, loadouts, ...)
and differ only in how they roll. Members with ``count: k`` become k fighters. Only numpy and
the standard library here: the scenario object is read by attribute, never imported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

from balance.engine.distance import MOVEMENT
from balance.engine.fight import FighterList
from balance.engine.targeting import FIRST, FIXED, POLICIES
from balance.errors import Problem, ScenarioError
from balance.rules.yags.rules.armour import suit_of
from balance.rules.yags.rules.equipment import Loadout, Wielder, is_shield, loadouts
from balance.rules.yags.rules.explosions import PlacedBlast, compile_explosions
from balance.rules.yags.rules.tactics import LEVELS, UNARMED, Tactics, tactics_of
from balance.rules.yags.rules.tracks import (
    DAMAGE_TYPES,
    IMPALING,
    STANCE_EXTRA_DEFENCES,
    STANCES,
    defences_allowed,
    max_defences,
)

YIELD_LEVELS = LEVELS
AUTO = -1
MAX_DEFENCES = 6
# Lab's assumption ("by reach and space"): at most four fighters engage one in the open
# (front, both flanks, rear), two in a confined space (rules.confined_reach: a corridor).
OPEN_ATTACKERS, CONFINED_ATTACKERS = 4, 2


@dataclass(frozen=True)
class MountStats:
    """A ridden mount's fixed numbers (seed 000, Mounted Combat)."""

    size: int
    strength: int
    health: int
    soak_vs: tuple[int, ...]   # base soak + barding against each kind of blow
    heavy_suit: bool
    saddle: bool
    warhorse: bool
    move: int = 24        # its Move score in metres (fights at a distance)


# Shot kinds (seed 000, Missile Combat): snap is fast and doubles the distance, careful is
# slow and halves it, normal changes neither.
SNAP, NORMAL_SHOT, CAREFUL = 0, 1, 2
# Defence against an unimpaired shot (rules.missile_defence; docs/rules/yags-missiles.md).
NO_DEFENCE, HALF_DEFENCE, FULL_DEFENCE = 0, 1, 2
MISSILE_DEFENCE = {"none": NO_DEFENCE, "half": HALF_DEFENCE, "full": FULL_DEFENCE}
SHOTS = {"snap": SNAP, "normal": NORMAL_SHOT, "careful": CAREFUL}
# How a longer weapon regains its reach (rules.regain_reach; docs/rules/yags.md, Reach).
STEP_BACK, FOLLOW, HOLD_GROUND = 0, 1, 2
REGAIN_REACH = {"step_back": STEP_BACK, "follow": FOLLOW, "hold": HOLD_GROUND}
PLENTY = -1            # ammunition: never runs out
AUTO_MOVE = -1         # movement ``auto``: holds while it can shoot, else closes in
NEVER_EXHAUSTED = 99   # Fighter.exhausted_at: never
GRENADE_SIZE = 5       # the Size of a thrown explosive's blast


@dataclass(frozen=True)
class MissileStats:
    """A fighter's missile weapon and shooting choices, compiled (docs/rules/yags-missiles.md)."""

    attack: int          # dexterity x skill + the weapon's attack bonus
    bonus: int           # the weapon's attack bonus (lost when impaired or crippled)
    damage: int          # the weapon's damage (+ strength x 4 if thrown)
    damage_type: int
    kind: int            # IMPALING or 0: the blow against armour
    range: float         # range band, metres
    reach: int
    shots: int           # shots a round: 1 + min(rate of fire - 1, skill // 4)
    recoil: int          # penalty on each further shot of the round
    load: int            # rounds loading after a shot (zero skill: max(X + 1, 2X))
    magazine: int
    reload: int          # rounds refilling an empty magazine (zero skill as for load)
    shot: int            # SNAP, NORMAL_SHOT or CAREFUL
    loaded: bool
    drawn: bool
    ammunition: int      # PLENTY or the number of shots carried
    shoot_in_melee: bool
    blast: PlacedBlast | None = None   # an explosive: the blast a hit lands on the target
    firearm: bool = False              # no defence against it unless impaired
    skill: int = 0                     # the missile skill (who picks a fumble's result)
    thrown: bool = False               # thrown: a fumble cannot drop it (it has left the hand)
    weak: bool = False                 # a fumble may break it

    @property
    def load_time(self) -> int:
        """Rounds loading after the last loaded shot: Lo-X, or a magazine's reload time."""
        return self.load if self.magazine == 1 else self.reload


@dataclass(frozen=True)
class Fighter:
    """One combatant's fixed numbers (before stance, penalties and dice).

    The first fields are the basic rules (and the main loadout); the rest default to fighting
    exactly by the basic rules, so a ``Fighter`` written by hand in a test needs only those.
    """

    side: int
    name: str
    attack: int          # attribute x skill + weapon attack
    defence: int         # attribute x skill + weapon defence
    damage: int          # strength x 4 + weapon damage
    damage_type: int     # WOUNDS, MIXED or STUNS
    soak: int            # base soak + armour protection against an ordinary blow
    initiative: int      # agility x 4 (+ riding with the mounted combat technique)
    health: int          # health attribute: checks roll health x 4 + d20
    skill: int           # skill in the weapon's style (decides who picks a fumble result)
    max_defences: int    # with the defensive stance's extra one (the declared stance's)
    stance: int          # NORMAL, AGGRESSIVE or DEFENSIVE
    defences: int        # AUTO or a fixed number to declare
    yield_at: int        # wound or stun level at which the fighter yields (99: never)
    gear: tuple[Loadout, ...] = ()   # (MAIN, SPARE, BARE) x (free, grappled); see equipment
    soak_vs: tuple[int, ...] = ()    # soak against each kind of blow; () = ``soak`` for all
    heavy_suit: bool = False
    vitals: int = 0
    size: int = 5
    strength: int = 3
    agility: int = 3     # after restrictive armour
    brawl: int = 0
    athletics: int = 0
    riding: int = 0
    mounted_combat: bool = False
    drawn: bool = True   # weapons in hand when the fight starts
    has_spare: bool = False
    tactics: Tactics = field(default_factory=Tactics)
    mount: MountStats | None = None
    # Group fights (docs/rules/yags.md, Group fights).
    target: int = FIRST                # target policy (balance.engine.targeting)
    priority: tuple[int, ...] = ()     # fixed policy: rank of every fighter in its list
    rank: int = 1                      # 2: attacks through its side's front
    thrust_reach: int = -1             # the main weapon's reach if it thrusts, else -1
    line: int = 0                      # its place in its side's line (scenario order)
    targets: tuple[str, ...] = ()      # fixed policy: the names listed
    # Distance fights (docs/rules/yags-missiles.md).
    move: int = 12                     # Move score in metres (riding: its mount's)
    movement: int = AUTO_MOVE          # AUTO_MOVE or a balance.engine.distance policy
    missile: MissileStats | None = None
    fatigue: int = 0                   # fatigue + exhaustion levels at the start
    exhausted_at: int = NEVER_EXHAUSTED   # fatigue levels at which it must rest
    # Maximum defences before a stance adds to them (-1: ``max_defences`` less what its
    # declared stance adds); a stance plan may change the stance round by round.
    defences_base: int = -1

    @property
    def open_defences(self) -> int:
        """Its maximum defences in a stance that adds none (``rules.tracks.defences_allowed``)."""
        if self.defences_base >= 0:
            return self.defences_base
        return self.max_defences - STANCE_EXTRA_DEFENCES[self.stance]

    def loadout(self, index: int) -> Loadout:
        """Loadout ``index`` (weapon state + 3 x grappled); a hand-written fighter has one."""
        if self.gear:
            return self.gear[index]
        return self.basic_loadout

    @cached_property
    def basic_loadout(self) -> Loadout:
        """A hand-written fighter's only loadout: its basic numbers, no detailed rule."""
        return Loadout(attack=self.attack, defence=self.defence, damage=self.damage,
                       damage_type=self.damage_type, reach=1, kind=0, light=False,
                       crushing=False, unarmed=False, martial=True, fumble_range=1,
                       slow=False, great=False, longshaft=False, chain=False, shield=False,
                       weak=False, strong=True, losable=False, skill=self.skill,
                       free_hand=False, draw=0, size2=2 * self.size, technique=True,
                       style="single_weapon")

    def soak_against(self, kind: int) -> int:
        """Base soak plus the suit's protection against a blow of ``kind``."""
        return self.soak_vs[kind] if self.soak_vs else self.soak


@dataclass(frozen=True)
class YagsRules:
    success_step: int = 10
    base_difficulty: int = 15
    fatigue_penalty: int | None = None   # per level; None: the wound track's penalties
    riding_difficulty: int = 15
    reach_closing: bool = True      # rules.reach: closing (else every_attack)
    max_attackers: int = OPEN_ATTACKERS   # most attackers on one fighter (group fights)
    lo0_snap: bool = True           # rules.lo0_shots: snap (each reloaded Lo-0 shot is a slow snap)
    lo0_aim: bool = False           # rules.lo0_shots: aim (a Lo-0 weapon loads for a round)
    missile_defence: int = HALF_DEFENCE   # rules.missile_defence: NO_/HALF_/FULL_DEFENCE
    unarmed_counter_good: bool = True     # rules.unarmed_counter: good (else success)
    knockback: bool = True          # rules.knockback: stuns (blows soaked can knock back)
    stun_wounds: bool = True        # rules.excess_stuns: wounds (stuns beyond beaten wound)
    missile_fumbles: bool = True    # rules.missile_fumbles: results (else miss)
    regain_reach: int = STEP_BACK   # rules.regain_reach: STEP_BACK, FOLLOW or HOLD_GROUND


@dataclass(frozen=True)
class YagsFight(FighterList):
    """A compiled Yags fight: fighters in scenario order, side names and rule options."""

    fighters: tuple[Fighter, ...]
    side_names: tuple[str, ...]
    rules: YagsRules
    max_rounds: int
    breaks_at: tuple[float | None, ...] = ()   # per side: share down at which it flees
    side_distance: tuple[float, ...] = ()      # per side: metres from side 0 at the start
    explosions: tuple[PlacedBlast, ...] = ()   # docs/rules/yags-explosions.md

    @property
    def at_distance(self) -> bool:
        """Do positions matter: a side starts away from side 0, or someone shoots."""
        return any(d > 0 for d in self.side_distance) or any(
            f.missile is not None for f in self.fighters)

    def column(self, name: str, dtype: Any = np.int16) -> np.ndarray:
        """One fixed number for every fighter, as a (n_combatants,) array."""
        return np.array([getattr(f, name) for f in self.fighters], dtype=dtype)


def compile_fight(scenario: Any, tables: Any) -> YagsFight:
    """Turn a validated ``YagsScenario`` and its resolved ``Tables`` into a :class:`YagsFight`.

    Raises :class:`ScenarioError` for equipment the rules forbid (a shield as the weapon, a
    two-handed weapon with an off-hand item, a weapon far too heavy, ...).
    """
    fighters: list[Fighter] = []
    r = scenario.rules
    names, sides, bases = [], [], []
    problems, merged_members = [], {}
    for side_index, side in enumerate(scenario.sides):
        for member_index, member in enumerate(side.members):
            try:
                merged_members[side_index, member_index] = _with_side_policy(
                    member, side.policy, side_index, member_index)
            except ScenarioError as err:      # every member's at once
                problems += err.problems
    if problems:
        raise ScenarioError(problems)
    for side_index, side in enumerate(scenario.sides):
        line = 0
        for member_index, member in enumerate(side.members):
            base = member.name or (side.name if len(side.members) == 1 else
                                   f"{side.name}.{member_index}")
            where = f"sides[{side_index}].members[{member_index}]"
            merged = merged_members[side_index, member_index]
            one = _fighter(side_index, base, merged, tables, r, where)
            for k in range(member.count):
                name = base if member.count == 1 else f"{base}#{k + 1}"
                fighters.append(replace(one, name=name, line=line))
                names.append(name)
                bases.append(base)
                sides.append(side_index)
                line += 1
    fighters = [replace(f, priority=_priority(f, names, bases, sides)) for f in fighters]
    distances = tuple(float(scenario.distance if s.distance is None else s.distance)
                      for s in scenario.sides)
    on_a_line = any(d > 0 for d in distances) or any(f.missile for f in fighters)
    cap = r.max_attackers or (OPEN_ATTACKERS if r.confined_reach is None else
                              CONFINED_ATTACKERS)
    return YagsFight(
        fighters=tuple(fighters),
        side_names=tuple(s.name for s in scenario.sides),
        rules=YagsRules(success_step=r.success_step, base_difficulty=r.base_difficulty,
                        fatigue_penalty=(None if r.fatigue_penalty == "track"
                                         else r.fatigue_penalty),
                        riding_difficulty=r.riding_difficulty,
                        reach_closing=r.reach == "closing", max_attackers=cap,
                        lo0_snap=r.lo0_shots == "snap", lo0_aim=r.lo0_shots == "aim",
                        missile_defence=MISSILE_DEFENCE[r.missile_defence],
                        unarmed_counter_good=r.unarmed_counter == "good",
                        stun_wounds=r.excess_stuns == "wounds",
                        knockback=r.knockback == "stuns",
                        missile_fumbles=r.missile_fumbles == "results",
                        regain_reach=REGAIN_REACH[r.regain_reach]),
        max_rounds=scenario.max_rounds,
        breaks_at=tuple(s.morale.breaks_at for s in scenario.sides),
        side_distance=distances,
        explosions=compile_explosions(getattr(scenario, "explosions", ()), names, bases,
                                      positions=on_a_line),
    )


def _with_side_policy(member: Any, side_policy: Any, side: int, index: int) -> Any:
    """The member with its side's default policy under its own (its keys win, key by key),
    checked as the member written whole would be: each layer may be valid alone and their
    merge not (the side's ``charge: true`` over a member without a warhorse), and that is a
    located problem like the loader's (at the member's policy, or the side's when the member
    sets none), never an escaped validation error."""
    base = side_policy.model_dump(mode="json", exclude_unset=True)
    if not base:
        return member
    own = member.model_dump(mode="json", exclude_unset=True)
    where = f"sides[{side}].members[{index}].policy" if own.get("policy") else \
        f"sides[{side}].policy"
    own["policy"] = {**base, **own.get("policy", {})}
    try:
        return type(member).model_validate_json(json.dumps(own), strict=True)
    except ValueError as err:           # pydantic's ValidationError (its errors() list)
        raise ScenarioError([Problem(
            f"{_message(e)} (sides[{side}].members[{index}]'s policy laid over its side's "
            "default policy)", where) for e in err.errors(include_url=False)]) from None


def _message(error: Any) -> str:
    """A validation error's words without pydantic's ``Value error, `` prefix."""
    found = error.get("ctx", {}).get("error")
    return str(found) if found is not None else error["msg"]


def _priority(f: Fighter, names: list[str], bases: list[str],
              sides: list[int]) -> tuple[int, ...]:
    """Rank of every fighter in a ``fixed`` policy's ``targets`` list (unlisted: after all).
    A name is a fighter's, or a member's name shared by its ``count`` copies."""
    if f.target != FIXED:
        return ()
    where = f"fighter {f.name!r}: policy.targets"
    if not f.targets:
        raise ScenarioError([Problem("target: fixed needs the foes' names", where)])
    rank = [len(f.targets)] * len(names)
    for k, wanted in reversed(list(enumerate(f.targets))):
        hits = [j for j in range(len(names)) if wanted in (names[j], bases[j])]
        if not hits:
            raise ScenarioError([Problem(f"{wanted!r} is not in this fight", where)])
        if all(sides[j] == f.side for j in hits):
            raise ScenarioError([Problem(f"{wanted!r} is on its own side", where)])
        for j in hits:
            rank[j] = k
    return tuple(rank)


def _fighter(side: int, name: str, member: Any, tables: Any, rules: Any,
             where: str) -> Fighter:
    a, w = member.attributes, tables.weapons
    weapon, off = w[member.weapon], w.get(member.off_hand) if member.off_hand else None
    spare = w[member.spare] if member.spare else None
    suit = suit_of(member.armour, tables.armour, shield=is_shield(off))
    # Seed 000, Restrictive: armour takes agility off combat rolls, initiative included.
    agility = max(0, a.agility - suit.restrictive)
    who = Wielder(agility, a.dexterity, a.strength, a.size, member.skills,
                  rules.confined_reach, where)
    gear = loadouts(who, weapon, off, spare, member.style, w["fist"])
    defences = AUTO if member.policy.defences == "auto" else member.policy.defences
    if member.policy.focused:
        # Seed 000, Focused: no defence rolls at all, not even a shield's free one.
        defences = 0
        gear = tuple(replace(lo, shield=False) for lo in gear)
    main = gear[0]
    tactics = tactics_of(member.policy)
    _check_tactics(tactics, main, weapon, where)
    # Lab's assumption: base soak is 4 x health (12 for the typical health 3, as seed 000's
    # "an adult human will usually have a base soak of 12"), unless the member sets `soak`.
    base_soak = member.soak if member.soak is not None else 4 * a.health
    soak_vs = tuple(base_soak + p for p in suit.protection)
    stance = STANCES[member.stance]
    riding = member.skills.riding
    technique = "mounted_combat" in member.techniques
    # Seed 000: the mounted combat technique adds riding to initiative (and to every melee
    # roll); the wrong style allows no techniques.
    initiative = 4 * agility + (riding if member.mount and technique and main.technique else 0)
    return Fighter(
        side=side,
        name=name,
        attack=main.attack,
        defence=main.defence,
        damage=main.damage,
        damage_type=main.damage_type,
        soak=soak_vs[0],
        initiative=initiative,
        health=a.health,
        skill=main.skill,
        # Lab's assumption: never more than 6, where the seed's multiple-defence table ends.
        max_defences=defences_allowed(max_defences(agility, a.perception),
                                      STANCE_EXTRA_DEFENCES[stance] > 0),
        defences_base=max_defences(agility, a.perception),
        stance=stance,
        defences=defences,
        yield_at=YIELD_LEVELS[member.policy.yield_at],
        gear=gear,
        soak_vs=soak_vs,
        heavy_suit=suit.heavy,
        vitals=suit.vitals,
        size=a.size,
        strength=a.strength,
        agility=agility,
        brawl=member.skills.brawl,
        athletics=member.skills.athletics,
        riding=riding,
        mounted_combat=technique,
        drawn=member.drawn,
        has_spare=spare is not None,
        tactics=tactics,
        mount=_mount(member.mount, tables) if member.mount else None,
        target=POLICIES[member.policy.target],
        targets=tuple(member.policy.targets),
        rank=member.rank,
        thrust_reach=weapon.reach if "thrusting" in weapon.properties else -1,
        move=member.move,
        movement=_movement(member),
        missile=_missile(member, tables, a),
        fatigue=member.fatigue + member.exhaustion,
        exhausted_at=_exhausted_at(rules.exhausted_at, a.health),
    )


# Lab's assumption: seed 000 says the fatigue track's length is "based on health" without
# the table; a fighter can take as many levels as its health, and one more exhausts it.
EXHAUSTED_OVER_HEALTH = 1


def _exhausted_at(option: int | str | None, health: int) -> int:
    """Fatigue levels at which this fighter is exhausted (NEVER_EXHAUSTED: never)."""
    if option is None or option == "never":
        return NEVER_EXHAUSTED
    return health + EXHAUSTED_OVER_HEALTH if option == "health" else int(option)


def _movement(member: Any) -> int:
    """``auto`` (AUTO_MOVE) holds its ground while it has something to shoot, else closes."""
    wanted = member.policy.movement
    return AUTO_MOVE if wanted == "auto" else MOVEMENT[wanted]


def _ammunition(own: int | str | None, table: int | None) -> int:
    """Shots carried: the member's number or ``plenty``, else the table's (None: plenty)."""
    carried = table if own is None else own
    return PLENTY if carried in (None, "plenty") else int(carried)


def _missile(member: Any, tables: Any, a: Any) -> MissileStats | None:
    """Seed 000, Missile Combat: the attack is dexterity x skill + the weapon's bonus; rate of
    fire gives one extra shot per full 4 points of skill; with no skill, load and reload
    times rise by one or double, whichever is more."""
    m = member.missile
    if m is None:
        return None
    w = tables.missiles[m.weapon]

    def slower(rounds: int) -> int:
        return rounds if m.skill > 0 else max(rounds + 1, 2 * rounds)

    blast = None
    if w.blast_radius is not None:
        # Lab's assumption: a thrown explosive is a blast of its damage, Size 5 (a grenade,
        # as the seed's man-portable weapons), landing on the target when the throw hits.
        blast = PlacedBlast(round=0, chance=1.0, damage=w.damage, radius=w.blast_radius,
                            size=GRENADE_SIZE, vehicle=False, distance=())
    return MissileStats(
        attack=a.dexterity * m.skill + w.attack,
        bonus=w.attack,
        damage=w.damage + (4 * a.strength if w.thrown and blast is None else 0),
        damage_type=DAMAGE_TYPES[w.damage_type],
        kind=IMPALING if w.impaling else 0,
        range=float(w.range),
        reach=w.reach,
        shots=1 + min(w.rate_of_fire - 1, m.skill // 4),
        recoil=w.recoil,
        load=slower(w.load),
        magazine=w.magazine,
        reload=slower(w.load if w.reload is None else w.reload),
        shot=SHOTS[m.shot],
        loaded=m.loaded,
        drawn=m.drawn,
        ammunition=_ammunition(m.ammunition, w.ammunition),
        shoot_in_melee=m.in_melee == "shoot",
        blast=blast,
        firearm=w.firearm,
        skill=m.skill,
        thrown=w.thrown,
        weak=w.weak,
    )


def _mount(m: Any, tables: Any) -> MountStats:
    suit = suit_of(m.armour, tables.armour)
    base = m.soak if m.soak is not None else 4 * m.health   # lab: as for people
    return MountStats(size=m.size, strength=m.strength, health=m.health,
                      soak_vs=tuple(base + p for p in suit.protection), heavy_suit=suit.heavy,
                      saddle=m.saddle, warhorse=m.warhorse, move=m.move)


def _check_tactics(t: Tactics, main: Loadout, weapon: Any, where: str) -> None:
    if t.manoeuvre in UNARMED and not main.unarmed:
        raise ScenarioError([Problem(
            "grapple, trip and charge_through are unarmed manoeuvres (seed 000): the weapon "
            "must be fists or another reach 0 weapon", f"{where}.policy.manoeuvre")])
    if t.charge and "lance" not in weapon.properties:
        raise ScenarioError([Problem("a mounted charge is made with a lance (seed 000): the "
                                     "weapon needs the lance property", f"{where}.policy.charge")])

