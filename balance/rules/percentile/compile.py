"""Compile a validated percentile scenario into flat per-fighter numbers both kernels use.

The scalar reference and the vectorised kernel start from one :class:`PercentileFight`, so
they agree on every derived number (hit points, damage bonus, each item's skills and damage
distributions, the situation each fighter fights in) and differ only in how they play the
rules. Members with ``count: k`` become k fighters. numpy and the standard library only: the
scenario and tables are read by attribute, never imported.

Each fighter carries four *items*: the main weapon, the off hand (a shield or a second
weapon), a sidearm (drawn when a missile weapon meets a foe in reach, or the main weapon
breaks) and fists (always there). Missing ones are marked absent.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from balance.dice import parse
from balance.engine.distance import CLOSE, HOLD, KEEP_DISTANCE, RETREAT
from balance.engine.fight import FighterList
from balance.engine.targeting import FIRST, POLICIES
from balance.errors import Problem, ScenarioError, closest
from balance.rules.percentile.rules import damage as dmg
from balance.rules.percentile.rules.damage import PmfTable
from balance.rules.percentile.rules.tables import (
    BRP,
    HELPLESS_STATES,
    LENGTHS,
    LIGHTS,
    PARRY_MATRICES,
    REARM_CONTESTED,
    REARM_FREE,
    REARM_NEVER,
    SHIELD_SIZES,
    SPACES,
    Levels,
    ceil_div,
    hit_points_average,
    hit_points_con_adjusted,
)

MAIN, OFF, SIDE, FIST = 0, 1, 2, 3
ITEM_NAMES = ("main", "off_hand", "sidearm", "fist")
MELEE, THROWN, MISSILE = 0, 1, 2
KINDS = {"melee": MELEE, "thrown": THROWN, "missile": MISSILE}
DB_FULL, DB_HALF, DB_NONE = 0, 1, 2
DB_MODES = {"full": DB_FULL, "half": DB_HALF, "none": DB_NONE}
UNBREAKABLE = 30_000       # item hit points of fists and unbreakable weapons
UNLIMITED = 30_000         # ammunition when the member gives none
DRAW_RANKS = 5             # seed 004: drawing a weapon costs five DEX ranks
DRAW_FREE_SKILL = 101      # ... unless the skill with it is 101% or more
AUTO, PARRY, DODGE, NO_DEFENCE = 0, 1, 2, 3
DEFENCES = {"auto": AUTO, "parry": PARRY, "dodge": DODGE, "none": NO_DEFENCE}
PARRY_OFF_HAND, PARRY_BEST, PARRY_WEAPON = 0, 1, 2
PARRY_WITH = {"off_hand": PARRY_OFF_HAND, "best": PARRY_BEST, "weapon": PARRY_WEAPON}
MOVE_AUTO = -1
STAND_AND_FIGHT, FIGHT_DOWN, STAND = 0, 1, 2     # policy when_down (docs: Fighting while down)
WHEN_DOWN = {"stand_and_fight": STAND_AND_FIGHT, "fight_down": FIGHT_DOWN, "stand": STAND}
REARM = {"contested": REARM_CONTESTED, "never": REARM_NEVER, "free": REARM_FREE}
MOVEMENTS = {"auto": MOVE_AUTO, "close": CLOSE, "hold": HOLD,
             "keep_distance": KEEP_DISTANCE, "retreat": RETREAT}
POSITIONS = {"lower": -1, "level": 0, "higher": 1, "down": 0}
COVERS = {"none": 0, "partial": 1, "full": 2}
FUMBLE_EFFECTS = ("lose_next_attack", "drop_weapon", "weapon_breaks", "hit_self", "fall")
LOSE_ATTACK, DROP, BREAK, HIT_SELF, FALL = range(5)
DEFAULT_SITUATION = {"light": "bright", "space": "open", "underwater": False,
                     "position": "level", "cover": "none", "steep": False, "slick": False}


@dataclass(frozen=True)
class Item:
    """One thing a fighter can strike or parry with, and its fixed numbers."""

    present: bool = False
    name: str = ""
    shield: bool = False
    attack: int = 0               # percent, before situations
    parry: int = 0
    can_parry: bool = False
    kind: int = MELEE
    length: int = 0
    space: float = 0.0            # yards of clear room it needs ahead (seed 004, by length)
    width: float = 0.0            # ... and to the sides (its space, or a foot if thrusting)
    thrusting: bool = False
    two_handed: bool = False
    entangles: bool = False
    improvised: bool = False
    range: int = 0                # base range in yards (0: none)
    max_multiple: int = 4         # no chance beyond this many base ranges
    reload: int = 0
    volley: int = 1
    db_mode: int = DB_FULL
    hp: int = UNBREAKABLE
    shield_size: int = 0
    damage: str = "0"             # the damage dice, as written (the reference rolls these)
    normal: int = 0               # PmfTable indices of the weapon's damage
    impale: int = 0
    pulled: int = 0
    pulled_impale: int = 0
    minimum: int = 0
    normal_db: int = 0            # ... the weapon plus its holder's usual damage bonus
    impale_db: int = 0
    limits: tuple[int, int, int] = (1, 1, 1)   # attackers per target: open, cramped, corridor
    draw_free: bool = False


@dataclass(frozen=True)
class Fighter:
    """One combatant's fixed numbers (characteristics, skills, situation, policy, items)."""

    side: int
    name: str
    STR: int
    CON: int
    SIZ: int
    INT: int
    POW: int
    DEX: int
    hp: int
    move: int
    mount_move: int               # 0: no mount
    ride: int
    dodge: int
    search: int
    listen: int
    humanoid: bool
    noisy: bool
    smelly: bool
    scent: int
    stealth: int                  # Move Quietly or Hide, as its side lays an ambush (0: none)
    giant: bool                   # its main weapon's blow strikes every foe in reach
    pounce: bool                  # starts aloft, dives onto its target with the main weapon
    fly: int
    db_text: str                  # damage bonus, half of it, the mount's, armour: as dice
    half_db_text: str
    horse_db_text: str
    armour_text: str
    armour_half_text: str         # ... partly destroyed (seed 004: the roll halved)
    db_own: int                   # ... and as PmfTable indices for the kernel
    db_half: int
    db_horse: int
    armour: int
    armour_half: int
    armour_damaged: bool          # starts with partly destroyed armour
    armoured: bool                # wears armour at all (seed 004, the unarmoured's leap)
    balance_penalty: int          # off its DEX rolls of balance (only its side armoured)
    light: int
    clearance: float              # yards of room to the sides; inf in the open
    depth: float                  # yards of room ahead; inf in the open
    space_class: int              # OPEN, CRAMPED or CORRIDOR
    underwater: bool
    level: int                    # -1 lower, 0 level, +1 higher
    starts_down: bool
    cover: int                    # 0 none, 1 partial, 2 full
    steep: bool
    slick: bool
    defence: int
    parry_with: int               # PARRY_OFF_HAND, PARRY_BEST or PARRY_WEAPON
    movement: int
    aim_steps: int
    small_part: bool
    volley: bool
    extra_attack: bool
    disarm: bool
    knockback: bool
    knockout: bool
    pull_blows: bool
    entangle: bool
    riposte: bool
    brace: bool
    when_down: int                # STAND_AND_FIGHT, FIGHT_DOWN or STAND
    retrieve: bool
    break_off_at: int
    break_off_dodge: bool
    break_off_knockback: bool
    ammo: int
    items: tuple[Item, Item, Item, Item]
    # Group fights (docs/rules/percentile.md, Group fights)
    break_off_major: bool = False         # break off once a major wound is taken
    yield_at: int = 0                     # yield at or below these hit points (0: never)
    yield_major: bool = False             # yield at a major wound (if conscious)
    target: int = FIRST                   # target policy (balance.engine.targeting)
    priority: tuple[int, ...] = ()        # fixed policy: rank of each fighter in its list
    threat: tuple[int, int, int, int] = (0, 0, 0, 0)   # per item: skill x mean damage
    # A poisoned main weapon (docs/rules/percentile.md, Poisoned weapons)
    poison_pot: int = 0                   # the poison's POT (0: none)
    poison_doses: int = 0                 # blows past armour it poisons
    poison_onset: int = 0                 # rounds before its loss comes (0: with the blow)

    @property
    def mounted(self) -> bool:
        return self.mount_move > 0


@dataclass(frozen=True)
class FightRules:
    """Rule options of the core (see docs/rules/percentile.md)."""

    critical_needs_critical: bool = True
    broken_parry_passes_excess: bool = True
    major_wound_roll: int = 5
    fatigue: bool = False
    reach: float = 1.0            # yards: touching distance, where blows are exchanged
    charge_run: float = 3.0       # yards a rider must cover, arriving, for a charge
    defences: int = 1             # parries or dodges a round
    extra_defence_penalty: int = 20   # percentiles off each defence after the first
    faces: int = 2                # attackers a fighter faces; the others strike from the side
    side_attack_bonus: int = 20   # percentiles for a blow from the side
    resistance: tuple[int, int, int, int] = (50, 5, 0, 100)   # base, step, floor, ceiling
    over_100_reduces_defence: bool = True   # an attack over 100% lowers the parry or dodge
    critical_damages_armour: bool = False   # a critical hit halves the armour for good
    up_close: bool = True         # at close quarters the shorter weapon strikes first
    parry_matrix: int = 0         # tables.ELRIC or tables.BRP (rules.parry_matrix)
    hold_off: bool = True         # a longer weapon holds a shorter one off until it misses
    rearm_when_pressed: int = REARM_NEVER
    falls_stun: bool = True       # a fall calls for the stun roll (CON x 5)
    # which states are "unable to resist" (hit automatically): exhausted, surprised, held
    helpless: tuple[bool, bool, bool] = (True, True, False)


@dataclass(frozen=True)
class PercentileFight(FighterList):
    """A compiled fight: fighters in scenario order, sides, rules and the damage pmfs."""

    fighters: tuple[Fighter, ...]
    side_names: tuple[str, ...]
    side_distance: tuple[float, ...]      # yards of each side from side 0
    max_rounds: int
    levels: Levels
    rules: FightRules
    pmfs: PmfTable
    fumble_weights: tuple[int, ...]       # by effect (FUMBLE_EFFECTS order)
    breaks_at: tuple[float | None, ...] = ()   # each side's morale (None: never breaks)
    ambush: tuple[int, ...] = ()          # each side's ambush: 0 none, 1 sneaking, 2 hiding
    # The kernel plays a plain duel by its outcome table (``kernel.duel``); False: by the
    # general blow (the same rules; tests compare the two)
    duel_by_table: bool = True

    @cached_property
    def uses(self) -> frozenset[str]:
        """Which optional rules can act in this fight (the kernel skips the others)."""
        fs = self.fighters
        items = [i for f in fs for i in f.items if i.present]
        uses = {name for name in ("small_part", "volley", "extra_attack", "disarm",
                                  "knockback", "knockout", "pull_blows", "entangle", "brace")
                if any(getattr(f, name) for f in fs)}
        uses |= {"knockback"} if any(f.break_off_knockback for f in fs) else set()
        uses |= {"missiles"} if any(i.kind != MELEE for i in items) else set()
        uses |= {"mounts"} if any(f.mounted for f in fs) else set()
        uses |= {"break_off"} if any(f.break_off_at > 0 or f.break_off_major
                                     for f in fs) else set()
        uses |= {"yield"} if any(f.yield_at > 0 or f.yield_major for f in fs) else set()
        uses |= {"morale"} if any(b is not None for b in self.breaks_at) else set()
        uses |= {"ambush"} if any(self.ambush) else set()
        uses |= {"giants"} if any(f.giant for f in fs) else set()
        uses |= {"pounce"} if any(f.pounce for f in fs) else set()
        uses |= {"damaged_armour"} if self.rules.critical_damages_armour or any(
            f.armour_damaged for f in fs) else set()
        foes = max(sum(g.side != f.side for g in fs) for f in fs)
        uses |= {"flank"} if self.rules.side_attack_bonus and foes > self.rules.faces \
            else set()
        uses |= {"slick"} if any(f.slick for f in fs) else set()
        uses |= {"improvised"} if any(i.improvised for i in items) else set()
        uses |= {"poison"} if any(f.poison_doses for f in fs) else set()
        uses |= {"poison_onset"} if any(f.poison_doses and f.poison_onset for f in fs) \
            else set()
        uses |= {"loose"} if uses & {"disarm", "entangle"} else set()
        uses |= {"fatigue"} if self.rules.fatigue else set()
        # Basic Roleplaying's matrix wears parrying weapons: their hit points change
        uses |= {"parry_wear"} if self.rules.parry_matrix == BRP else set()
        moving = any(f.movement in (KEEP_DISTANCE, RETREAT) for f in fs)
        uses |= {"distance"} if any(d > self.rules.reach for d in self.side_distance[1:]) \
            or moving or uses & {"knockback", "entangle"} else set()
        uses |= {"groups"} if len(fs) > 2 else set()
        uses |= {"dark"} if any(f.light != LIGHTS["bright"] for f in fs) else set()
        uses |= {"cramped"} if any(math.isfinite(f.clearance) or math.isfinite(f.depth)
                                   for f in fs) else set()
        uses |= {"underwater"} if any(f.underwater for f in fs) else set()
        uses |= {"cover"} if any(f.cover for f in fs) else set()
        uses |= {"height"} if any(f.level for f in fs) or "mounts" in uses else set()
        uses |= {"two_weapons"} if any(f.items[OFF].present and not f.items[OFF].shield
                                       for f in fs) else set()
        uses |= {"stun"} if uses & {"knockback", "knockout"} else set()
        return frozenset(uses)

    @cached_property
    def items_wear(self) -> bool:
        """Can an item's hit points change in this fight (improvised weapons wear as they
        land blows; Basic Roleplaying's matrix wears parrying weapons)? Else the table's
        hit points hold."""
        return bool(self.uses & {"improvised", "parry_wear"})

    @cached_property
    def helpless_possible(self) -> bool:
        """Can anyone be "unable to resist" (``rules.tables.unable_to_resist``) in this fight?"""
        exhausted, surprised, held = self.rules.helpless
        return ((exhausted and self.rules.fatigue) or (surprised and "ambush" in self.uses)
                or (held and "entangle" in self.uses))

    @cached_property
    def defends_once(self) -> bool:
        """Is each fighter attacked (so defends) at most once a round? In a duel without
        extra attacks or ripostes it is: the kernel then skips counting defences (unless
        the rules allow none)."""
        return (len(self.fighters) == 2 and self.rules.defences >= 1
                and not self.uses & {"extra_attack", "two_weapons"})

    @cached_property
    def plain_duel(self) -> bool:
        """Two fighters on two sides and none of the optional rules: the kernel plays
        their actions through one outcome table (``kernel.duel``)."""
        fs = self.fighters
        return (self.duel_by_table and len(fs) == 2 and fs[0].side != fs[1].side
                and not self.uses and self.rules.defences >= 1)


# --- compiling -----------------------------------------------------------------------------


def compile_fight(scenario: Any, tables: Any) -> PercentileFight:
    """Turn a validated ``PercentileScenario`` and its resolved ``Tables`` into a fight."""
    pmfs = PmfTable()
    fighters: list[Fighter] = []
    problems: list[Problem] = []
    policies: list[tuple[Any, str]] = []          # each fighter's policy and its path
    for side_index, side in enumerate(scenario.sides):
        for member_index, member in enumerate(side.members):
            path = f"sides[{side_index}].members[{member_index}]"
            problems += _check_hands(member, tables, path)
            problems += _check_poison(member, tables, path)
            base = member.name or (side.name if len(side.members) == 1 else
                                   f"{side.name}.{member_index}")
            situation = _situation(scenario.situation, side.situation, member.situation)
            policy = merged_policy(side.policy, member.policy)
            for k in range(member.count):
                name = base if member.count == 1 else f"{base}#{k + 1}"
                fighters.append(_fighter(side_index, name, member, policy, situation,
                                         scenario.rules, tables, pmfs, side.ambush))
                policies.append((policy, f"{path}.policy"))
    fighters, more = _with_priorities(fighters, policies)
    fighters = _balance_penalties(fighters, scenario.rules.armour_balance_penalty)
    problems += more
    if problems:
        raise ScenarioError(problems)
    r = scenario.rules
    weights = [0] * len(FUMBLE_EFFECTS)
    for row in tables.fumbles.values():
        weights[FUMBLE_EFFECTS.index(row.effect)] += row.weight
    distance = tuple(float(scenario.distance if s.distance is None else s.distance)
                     for s in scenario.sides)
    return PercentileFight(
        fighters=tuple(fighters),
        side_names=tuple(s.name for s in scenario.sides),
        side_distance=distance,
        max_rounds=scenario.max_rounds,
        levels=Levels(r.critical_divisor, r.special_divisor, r.fumble_divisor,
                      r.auto_success, r.auto_failure),
        rules=FightRules(r.critical_needs_critical, r.broken_parry_passes_excess,
                         r.major_wound_roll, r.fatigue, r.reach, r.charge_run,
                         r.defences_per_round, r.extra_defence_penalty,
                         r.faces, r.side_attack_bonus, _resistance(tables),
                         r.skill_over_100 == "reduces_defence", r.critical_damages_armour,
                         r.up_close == "shorter_first", PARRY_MATRICES[r.parry_matrix],
                         r.hold_off == "until_missed", REARM[r.rearm_when_pressed],
                         r.falls_stun,
                         tuple(state in r.unable_to_resist for state in HELPLESS_STATES)),
        pmfs=pmfs,
        fumble_weights=tuple(weights),
        breaks_at=tuple(s.morale.breaks_at for s in scenario.sides),
        ambush=tuple(AMBUSHES[s.ambush] for s in scenario.sides),
    )


def _balance_penalties(fighters: list[Fighter], penalty: int) -> list[Fighter]:
    """Seed 004, the unarmoured's leap: when only one side is armoured, that side's chances
    suffer in leaps and tests of balance. The lab: an armoured fighter none of whose foes
    wears armour rolls its DEX tests of balance (slick footing, keeping its feet when
    knocked back) at ``rules.armour_balance_penalty`` percentiles less."""
    out = []
    for f in fighters:
        foes_bare = not any(g.armoured for g in fighters if g.side != f.side)
        out.append(dataclasses.replace(f, balance_penalty=penalty if f.armoured and foes_bare
                                       else 0))
    return out


def merged_policy(side_policy: Any, member_policy: Any) -> Any:
    """A member's policy over its side's default ``policy``, key by key: what the member
    sets wins, what only the side sets comes next, the rest are the defaults."""
    own = member_policy.model_dump(exclude_unset=True)
    if not own:
        return side_policy
    merged = {**side_policy.model_dump(exclude_unset=True), **own}
    return type(member_policy).model_validate(merged)


def _with_priorities(fighters: list[Fighter], policies: list[tuple[Any, str]]
                     ) -> tuple[list[Fighter], list[Problem]]:
    """Each fighter's rank of every other in its ``fixed`` policy's ``targets`` list (not
    listed: after all listed, in scenario order). A name is a fighter's name or a member's
    name shared by its ``count`` copies (``guard`` names ``guard#1``, ``guard#2``, ...)."""
    names = [f.name for f in fighters]
    base = [n.rsplit("#", 1)[0] if "#" in n else n for n in names]
    out, problems = [], []
    for f, (policy, path) in zip(fighters, policies, strict=True):
        rank = [len(policy.targets)] * len(fighters)
        if policy.target == "fixed" and not policy.targets:
            problems.append(Problem("target: fixed needs the foes' names in targets",
                                    f"{path}.targets"))
        for k, wanted in reversed(list(enumerate(policy.targets))):
            hits = [j for j in range(len(names)) if wanted in (names[j], base[j])]
            if not hits:
                near = closest(wanted, set(names) | set(base))
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                problems.append(Problem(f"{wanted!r} is not a fighter in this fight{hint}",
                                        f"{path}.targets[{k}]"))
            elif all(fighters[j].side == f.side for j in hits):
                problems.append(Problem(f"{wanted!r} is on {f.name!r}'s own side",
                                        f"{path}.targets[{k}]"))
            for j in hits:
                rank[j] = k
        out.append(dataclasses.replace(f, priority=tuple(rank)))
    return out, problems


def _resistance(tables: Any) -> tuple[int, int, int, int]:
    """The Resistance Table's numbers from the ``resistance`` table's ``standard`` row."""
    row = tables.resistance["standard"]
    return (row.base, row.step, row.floor, row.ceiling)


def resistance_table(rules: FightRules) -> dict[str, int]:
    """The keyword arguments of ``balance.dice.resistance`` for this fight's table."""
    return dict(zip(("base", "step", "floor", "ceiling"), rules.resistance, strict=True))


def _check_hands(member: Any, tables: Any, path: str) -> list[Problem]:
    """A two-handed main weapon leaves no hand for a shield or a second weapon."""
    problems = []
    if tables.weapons[member.weapon].two_handed:
        for field_name in ("shield", "off_hand"):
            if getattr(member, field_name) is not None:
                problems.append(Problem(
                    f"{member.weapon!r} is two-handed: no hand is left for the "
                    f"{field_name.replace('_', ' ')} {getattr(member, field_name)!r}",
                    f"{path}.{field_name}"))
    main = tables.weapons[member.weapon]
    if main.entangles and main.kind != "melee":
        problems.append(Problem(f"{member.weapon!r} is thrown to entangle: carry it as the "
                                "off_hand weapon with policy.entangle", f"{path}.weapon"))
    if member.off_hand is not None and tables.weapons[member.off_hand].two_handed:
        problems.append(Problem(f"{member.off_hand!r} is two-handed and cannot be an off-hand "
                                "weapon", f"{path}.off_hand"))
    return problems


def _check_poison(member: Any, tables: Any, path: str) -> list[Problem]:
    """A poisoned weapon needs a poison with a POT: seed 004 rolls "POT against CON on the
    Resistance Table", and a row without one (the Wine of Bakshaan) cannot be rolled."""
    row = tables.poisons.get(member.poison) if member.poison is not None else None
    if row is None or row.pot is not None:
        return []
    usable = ", ".join(sorted(k for k, r in tables.poisons.items() if r.pot is not None))
    return [Problem(f"{member.poison!r} has no POT, so a blow cannot pit it against CON on "
                    f"the Resistance Table; expected a poison with a POT: {usable}",
                    f"{path}.poison")]


def _situation(*levels: Any) -> dict[str, Any]:
    """The situation of one fighter: the nearest level that sets each key wins."""
    out = dict(DEFAULT_SITUATION)
    for level in levels:
        for key in DEFAULT_SITUATION:
            value = getattr(level, key)
            if value is not None:
                out[key] = value
    return out


def damage_bonus_text(total: int, rows: Any) -> str:
    """The damage bonus for STR+SIZ ``total``: the row with the largest ``at_least`` not
    above it; beyond the last row each further 16 points adds 1D6 (family convention)."""
    ordered = sorted(rows.values(), key=lambda row: row.at_least)
    fits = [row for row in ordered if row.at_least <= total] or ordered[:1]
    row = fits[-1]
    extra = (total - row.at_least) // 16 if row is ordered[-1] else 0
    return row.bonus if extra <= 0 else f"{row.bonus}+{extra}D6"


def _fighter(side: int, name: str, member: Any, pol: Any, situation: dict[str, Any],
             rules: Any, tables: Any, pmfs: PmfTable, ambush: str = "none") -> Fighter:
    ch, sk = member.characteristics, member.skills
    if member.hit_points is not None:
        hp = member.hit_points
    elif rules.hit_points == "average":
        hp = int(hit_points_average(ch.CON, ch.SIZ))
    else:
        hp = int(hit_points_con_adjusted(ch.CON, ch.SIZ, ch.POW))
    db_text = damage_bonus_text(ch.STR + ch.SIZ, tables.damage_bonus)
    mount = tables.mounts[member.mount] if member.mount is not None else None
    horse_text = damage_bonus_text(mount.STR + mount.SIZ, tables.damage_bonus) if mount else "0"
    protection = tables.armour[member.armour].protection
    armour_text = str(protection)
    space = situation["space"]
    clearance, depth = tables.spaces[space].clearance, tables.spaces[space].depth
    main = tables.weapons[member.weapon]
    if member.giant != "none":
        # Seed 004: failing other guidance, every ten points of STR or SIZ is 1D6 to every
        # target caught in the area (the blow's whole damage: no weapon dice, no bonus).
        dice = f"{max(1, getattr(ch, member.giant) // 10)}D6"
        main = main.model_copy(update={"damage": dice, "db": "none"})
    attack = sk.attack if sk.attack is not None else main.skill
    items = (
        _weapon_item(member.weapon, main, attack, sk.parry if sk.parry is not None else attack,
                     tables, pmfs),
        _off_item(member, attack, tables, pmfs),
        _weapon_item(member.sidearm, tables.weapons[member.sidearm],
                     sk.sidearm if sk.sidearm is not None else
                     tables.weapons[member.sidearm].skill, None, tables, pmfs)
        if member.sidearm is not None else Item(),
        _weapon_item("fist", tables.weapons["fist"],
                     sk.brawl if sk.brawl is not None else tables.weapons["fist"].skill,
                     None, tables, pmfs, can_parry=False),
    )
    items = tuple(_with_bonus(item, db_text, pmfs) for item in items)
    return Fighter(
        side=side, name=name, STR=ch.STR, CON=ch.CON, SIZ=ch.SIZ, INT=ch.INT, POW=ch.POW,
        DEX=ch.DEX, hp=hp, move=member.move, mount_move=mount.move if mount else 0,
        ride=sk.ride if sk.ride is not None else 0,
        dodge=sk.dodge if sk.dodge is not None else 2 * ch.DEX,
        search=sk.search, listen=sk.listen, humanoid=member.humanoid, noisy=member.noisy,
        smelly=member.smelly, scent=sk.scent,
        stealth={"none": 0, "move_quietly": sk.move_quietly, "hide": sk.hide}[ambush],
        giant=member.giant != "none", pounce=pol.pounce, fly=sk.fly,
        db_text=db_text, half_db_text=dmg.half_bonus_text(db_text), horse_db_text=horse_text,
        armour_text=armour_text, armour_half_text=dmg.damaged_armour_text(armour_text),
        armour_half=pmfs.add(parse(dmg.damaged_armour_text(armour_text)).pmf()),
        armour_damaged=member.armour_damaged,
        armoured=tables.armour[member.armour].weight != "none", balance_penalty=0,
        db_own=pmfs.add(parse(db_text).pmf()),
        db_half=pmfs.add(parse(dmg.half_bonus_text(db_text)).pmf()),
        db_horse=pmfs.add(parse(horse_text).pmf()),
        armour=pmfs.add(parse(armour_text).pmf()),
        light=LIGHTS[situation["light"]],
        clearance=math.inf if clearance is None else float(clearance),
        depth=math.inf if depth is None else float(depth),
        space_class=SPACES[space],
        underwater=situation["underwater"],
        level=POSITIONS[situation["position"]],
        starts_down=situation["position"] == "down",
        cover=COVERS[situation["cover"]],
        steep=situation["steep"],
        slick=situation["slick"],
        defence=DEFENCES[pol.defence], parry_with=PARRY_WITH[pol.parry_with],
        movement=MOVEMENTS[pol.movement],
        aim_steps=pol.aim // 5,
        small_part=pol.small_part, volley=pol.volley, extra_attack=pol.extra_attack,
        disarm=pol.disarm, knockback=pol.knockback, knockout=pol.knockout,
        pull_blows=pol.pull_blows, entangle=pol.entangle, riposte=pol.riposte,
        brace=pol.brace, when_down=WHEN_DOWN[pol.down_policy], retrieve=pol.retrieve,
        break_off_at=_hp_or_zero(pol.break_off_at), break_off_major=pol.break_off_at == MAJOR,
        break_off_dodge=pol.break_off_by == "dodge",
        break_off_knockback=pol.break_off_by == "knockback",
        ammo=UNLIMITED if member.ammo is None else member.ammo,
        items=items,
        yield_at=_hp_or_zero(pol.yield_at), yield_major=pol.yield_at == MAJOR,
        target=POLICIES[pol.target],
        threat=_threats(items, db_text, pmfs),
        **_poison(member, tables, rules.poison_onset == "table"),
    )


MAJOR = "major_wound"
DOSES = 1      # the lab's: a poisoned weapon carries one dose unless the member says more


def _poison(member: Any, tables: Any, onset: bool) -> dict[str, int]:
    """The poisoned main weapon's POT, doses and onset in rounds (``onset``: the table's,
    else 0); none without a poison, or with a row without a POT (compiling reports it)."""
    row = tables.poisons[member.poison] if member.poison is not None else None
    if row is None or row.pot is None:
        return {"poison_pot": 0, "poison_doses": 0, "poison_onset": 0}
    doses = DOSES if member.poison_doses is None else member.poison_doses
    return {"poison_pot": row.pot, "poison_doses": doses,
            "poison_onset": row.onset_rounds if onset else 0}
AMBUSHES = {"none": 0, "move_quietly": 1, "hide": 2}


def _hp_or_zero(value: int | str) -> int:
    return 0 if value == MAJOR else int(value)


def _threats(items: tuple[Item, ...], db_text: str, pmfs: PmfTable) -> tuple[int, ...]:
    """How dangerous a fighter is with each item in hand (target policy ``dangerous``): the
    attack skill times the mean damage of a plain hit with it, damage bonus included."""
    bonus = {DB_FULL: db_text, DB_HALF: dmg.half_bonus_text(db_text), DB_NONE: "0"}
    out = []
    for item in items:
        mean = pmfs[item.normal].mean() + parse(bonus[item.db_mode]).pmf().mean()
        out.append(round(item.attack * max(mean, 0.0)) if item.present else 0)
    return tuple(out)


def _with_bonus(item: Item, db_text: str, pmfs: PmfTable) -> Item:
    """The item with the exact pmfs of a plain hit and an impale plus the damage bonus its
    holder usually adds (full, half or none by the item's row), so the kernel rolls a
    usual blow's damage in one table lookup."""
    if not item.present:
        return item
    bonus = {DB_FULL: db_text, DB_HALF: dmg.half_bonus_text(db_text), DB_NONE: "0"}
    extra = parse(bonus[item.db_mode]).pmf()
    return dataclasses.replace(
        item, normal_db=pmfs.add(dmg.weapon_pmf(item.damage) + extra),
        impale_db=pmfs.add(dmg.impale_pmf(item.damage) + extra))


def _off_item(member: Any, attack: int, tables: Any, pmfs: PmfTable) -> Item:
    sk = member.skills
    if member.shield is not None:
        row = tables.shields[member.shield]
        skill = sk.shield if sk.shield is not None else row.skill
        length = tables.lengths["short"]
        return Item(
            present=True, name=member.shield, shield=True, attack=skill, parry=skill,
            can_parry=True, length=LENGTHS["short"], space=length.space, width=length.space,
            hp=row.hp,
            shield_size=SHIELD_SIZES[row.size], limits=_limits(length.attackers),
            draw_free=skill >= DRAW_FREE_SKILL, **_damage_indices(row.damage, pmfs))
    if member.off_hand is not None:
        # Seed 004: the off-hand skill starts at half the current skill with that weapon
        # (the lab: half the attack skill for the same weapon, else half its base).
        row = tables.weapons[member.off_hand]
        default = ceil_div(attack if member.off_hand == member.weapon else row.skill, 2)
        skill = sk.off_hand if sk.off_hand is not None else int(default)
        return _weapon_item(member.off_hand, row, skill, skill, tables, pmfs)
    return Item()


def _limits(attackers: Any) -> tuple[int, int, int]:
    return (attackers.open, attackers.cramped, attackers.corridor)


def _damage_indices(text: str, pmfs: PmfTable) -> dict[str, Any]:
    return {"damage": text, "normal": pmfs.add(dmg.weapon_pmf(text)),
            "impale": pmfs.add(dmg.impale_pmf(text)),
            "pulled": pmfs.add(dmg.pulled_pmf(text)),
            "pulled_impale": pmfs.add(dmg.pulled_pmf(text, impale=True)),
            "minimum": max(0, dmg.minimum(text))}


def _weapon_item(name: str, row: Any, attack: int, parry: int | None, tables: Any,
                 pmfs: PmfTable, can_parry: bool | None = None) -> Item:
    length = tables.lengths[row.length]
    kind = KINDS[row.kind]
    if can_parry is None:
        can_parry = kind == MELEE and not row.entangles
    return Item(
        present=True, name=name, attack=attack, parry=attack if parry is None else parry,
        can_parry=can_parry, kind=kind, length=LENGTHS[row.length], space=length.space,
        width=min(length.space, length.thrusting_width) if row.thrusting else length.space,
        thrusting=row.thrusting, two_handed=row.two_handed, entangles=row.entangles,
        improvised=row.improvised, range=row.range or 0, reload=row.reload, volley=row.volley,
        max_multiple=row.max_range_multiple,
        db_mode=DB_MODES[row.db], hp=UNBREAKABLE if row.hp is None else row.hp,
        limits=_limits(length.thrusting_attackers if row.thrusting else length.attackers),
        draw_free=attack >= DRAW_FREE_SKILL, **_damage_indices(row.damage, pmfs))


def off_hand_parries(mode, off_parry, held_parry):
    """Whether a fighter able to parry with both its off hand and the item in hand parries
    with the off hand (scalars or arrays). Seed 004 names no hand: **Assumption** (policy
    ``parry_with``): ``off_hand`` (default; the family parries with the shield, and seed
    004's two weapons parry with one and riposte with the other) and ``weapon`` always that
    hand when it can parry; ``best`` the higher parry chance before situational modifiers,
    the off hand on a tie."""
    return (mode == PARRY_OFF_HAND) | ((mode == PARRY_BEST) & (off_parry >= held_parry))
