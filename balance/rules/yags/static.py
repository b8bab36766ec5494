"""The compiled fight as arrays for the vectorised kernel, and which rules can act in it.

Every detailed rule costs the kernel nothing in a fight where no fighter can use it: the
flags below are worked out here, once per fight, from what each fighter can ever hold and do,
and the kernel skips whole code paths with a plain ``if``. Tables indexed by fighter are flat
``(n_fighters * k,)`` arrays, gathered as ``table[who * k + i]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.rules.yags.equipment import BARE, MAIN, N_WEAPON_STATES, SPARE, Loadout
from balance.rules.yags.fighters import YagsFight
from balance.rules.yags.tactics import (
    CHARGE_THROUGH,
    DISARM_FOE,
    GRAPPLE,
    KNOCKDOWN,
    NONE,
    TRIP,
    Tactics,
    fumble_choice,
)
from balance.rules.yags.tracks import (
    BREAK,
    DEFENSIVE,
    DISARM,
    FATIGUE,
    GRAPPLED,
    MIXED,
    N_KINDS,
    PRONE,
    SLOW,
    STANCE_SPEED,
    STUNLIKE,
    STUNS,
    size_shift,
    stance_mods,
)

N_LOADOUTS = 2 * N_WEAPON_STATES
# Stance modes of the number tables: the declared stance, prone, grappled, retreating.
DECLARED, PRONE_MODE, GRAPPLED_MODE, RETREAT_MODE = range(4)
N_MODES = 4
LOADOUT_FIELDS = ("reach", "kind", "light", "crushing", "unarmed", "martial", "fumble_range",
                  "slow", "great", "longshaft", "chain", "shield", "weak", "strong", "losable",
                  "skill", "free_hand", "draw", "size2", "technique", "damage_type")
TACTIC_FIELDS = ("manoeuvre", "first_round_only", "neck", "holding", "escape", "stand",
                 "meet_charge", "rearm", "switch_when_grappled", "retreat_at", "reroll_below",
                 "stunt_difficulty", "stunt_damage", "stunt_first_round", "attack_mount",
                 "charge")


@dataclass(frozen=True)
class Flags:
    """Which detailed rules can act in a fight: each is False unless some fighter can use it,
    and the kernel skips the rule's code entirely when it is False."""

    gear_changes: bool = False     # someone can lose, draw or pick up a weapon
    fumble_policies: bool = False  # fumble choices other than the basic rules' default
    reach: bool = False            # foes' weapons can differ in reach
    armour_kinds: bool = False     # someone's armour differs by the kind of blow it faces
    shifts: bool = False           # light weapons on heavy suits, or size, shift damage types
    wide_fumbles: bool = False     # wrong style or chain weapons: fumbles on 1-2
    manoeuvres: bool = False
    grapple: bool = False
    prone: bool = False            # someone can be knocked down
    mounted: bool = False
    shield: bool = False           # free defences
    unarmed_counter: bool = False  # unarmed attackers against martial weapons
    vitals: bool = False
    draw: bool = False             # weapons drawn in round 1
    retreat: bool = False
    reroll: bool = False
    stunts: bool = False
    exhaustion: bool = False
    dynamic_order: bool = False    # speed or initiative can change during the fight
    any: bool = False              # any of the above: the fight is not a basic one


@dataclass(frozen=True)
class Static:
    """Per-fighter numbers as (n_fighters,) arrays, with the stance folded in, the detailed
    rules' tables, and the flags saying which rules can act in this fight."""

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
    riding_difficulty: int
    exhausted_at: int              # 0: never
    reach_closing: bool            # rules.reach: closing
    on: Flags
    loadout: dict[str, np.ndarray]  # field -> (n * N_LOADOUTS,) int16
    numbers: np.ndarray            # (3, n * N_LOADOUTS * N_MODES): attack, defence, damage
    fighter: dict[str, np.ndarray]  # per-fighter detailed numbers and tactics, (n,) int16
    soak_vs: np.ndarray            # (n * N_KINDS,)
    mount_soak_vs: np.ndarray      # (n * N_KINDS,)
    fumble_choice: np.ndarray      # (n * 64,): see ``fumble_index``


def stance_numbers(lo: Loadout, stance: int, mode: int) -> tuple[int, int, int]:
    """A loadout's attack, defence and damage in a stance mode."""
    s = {DECLARED: stance, PRONE_MODE: PRONE, GRAPPLED_MODE: GRAPPLED,
         RETREAT_MODE: DEFENSIVE}[mode]
    a, d, g = stance_mods(s, lo.chain)
    return lo.attack + a, lo.defence + d, lo.damage + g


def reachable(fight: YagsFight) -> list[set[int]]:
    """The loadouts each fighter can ever hold in this fight (a fixed point: losing a weapon
    depends on who may choose it, which depends on the loadouts of both)."""
    fs = fight.fighters
    grapple = any(f.tactics.manoeuvre == GRAPPLE for f in fs)
    disarming = any(f.tactics.manoeuvre == DISARM_FOE for f in fs)
    states = [{MAIN} for _ in fs]

    def held(k: int) -> set[int]:
        return states[k] | ({w + N_WEAPON_STATES for w in states[k]} if grapple else set())

    for _ in range(4):
        for i, f in enumerate(fs):
            if f.tactics.switch_when_grappled and f.has_spare and grapple:
                states[i].add(SPARE)
            if not any(f.loadout(w).losable for w in held(i)):
                continue
            least = min(f.loadout(w).skill for w in held(i))
            picks = set(f.tactics.own_fumbles[:_upto(f.tactics.own_fumbles)])
            for j, g in enumerate(fs):
                if g.side != f.side and max(g.loadout(w).skill for w in held(j)) > least:
                    picks |= set(g.tactics.foe_fumbles[:_upto(g.tactics.foe_fumbles)])
            if disarming or picks & {DISARM, BREAK}:
                states[i] |= {BARE} | ({SPARE} if f.has_spare else set())
    return [held(k) for k in range(len(fs))]


def _upto(prefs: tuple[int, ...]) -> int:
    """Preferences after the first fatigue are never reached."""
    return prefs.index(FATIGUE) + 1 if FATIGUE in prefs else len(prefs)


def fumble_index(who, as_foe, defending, losable, weak, strong):
    """Index into ``Static.fumble_choice``: the result fighter ``who`` picks, for its own
    fumble or (``as_foe``) a less skilled foe's, given the fumbler's roll and weapon."""
    return (((who * 2 + as_foe) * 2 + defending) * 2 + losable) * 4 + weak * 2 + strong


def static_of(fight: YagsFight) -> Static:
    fs = fight.fighters
    r = fight.rules
    can = reachable(fight)
    on = flags_of(fight, can)
    col = fight.column
    i16 = lambda xs: np.array(xs, dtype=np.int16)  # noqa: E731
    # The seat of the basic rules: the main loadout in the declared stance, mounted.
    main = [_seat(f) for f in fs]
    faced = kinds_faced(fight, can)
    choice = [fumble_choice(f.tactics.foe_fumbles if foe else f.tactics.own_fumbles,
                            defending=bool(d), losable=bool(lo), weak=bool(w), strong=bool(st))
              for f in fs for foe in (0, 1) for d in (0, 1) for lo in (0, 1)
              for w in (0, 1) for st in (0, 1)]
    per = {name: i16([int(getattr(f.tactics, name)) for f in fs]) for name in TACTIC_FIELDS}
    per.update({name: i16([int(getattr(f, name)) for f in fs]) for name in FIGHTER_FIELDS})
    per["has_mount"] = i16([f.mount is not None for f in fs])
    for name in ("size", "strength", "health", "heavy_suit", "saddle"):
        per[f"mount_{name}"] = i16([int(getattr(f.mount, name)) if f.mount else 0 for f in fs])
    return Static(
        side_of=fight.side_of,
        n_sides=len(fight.side_names),
        attack=i16([m[0] for m in main]),
        defence=i16([m[1] for m in main]),
        damage=i16([m[2] for m in main]),
        damage_type=col("damage_type", np.int8),
        # With one kind of blow ever faced, the suit's value against it is folded in.
        soak=i16([f.soak_against(k[0]) if len(k) == 1 else f.soak
                  for f, k in zip(fs, faced, strict=True)]),
        health4=4 * col("health"),
        skill=col("skill"),
        max_defences=col("max_defences", np.int8),
        fixed_defences=col("defences", np.int8),
        yield_at=col("yield_at", np.int8),
        speed=i16([start_speed(f) for f in fs]),
        initiative=col("initiative"),
        base_difficulty=r.base_difficulty,
        success_step=r.success_step,
        fatigue_penalty=r.fatigue_penalty,
        riding_difficulty=r.riding_difficulty,
        exhausted_at=r.exhausted_at or 0,
        reach_closing=r.reach_closing,
        on=on,
        loadout={name: i16([int(getattr(f.loadout(i), name)) for f in fs
                            for i in range(N_LOADOUTS)]) for name in LOADOUT_FIELDS},
        numbers=i16([[stance_numbers(f.loadout(i), f.stance, mode)[k]
                      for f in fs for i in range(N_LOADOUTS) for mode in range(N_MODES)]
                     for k in range(3)]),
        fighter=per,
        soak_vs=i16([f.soak_against(k) for f in fs for k in range(N_KINDS)]),
        mount_soak_vs=i16([f.mount.soak_vs[k] if f.mount else 0
                           for f in fs for k in range(N_KINDS)]),
        fumble_choice=np.array(choice, dtype=np.int8),
    )


FIGHTER_FIELDS = ("vitals", "size", "strength", "agility", "brawl", "athletics", "riding",
                  "mounted_combat", "drawn", "has_spare", "heavy_suit", "health", "stance",
                  "max_defences")


def _seat(f) -> tuple[int, int, int]:
    """Attack, defence and damage of the main loadout in the declared stance, mounted."""
    lo = f.loadout(MAIN)
    a, d, g = stance_numbers(lo, f.stance, DECLARED)
    if f.mount is None:
        return a, d, g
    ride = f.riding
    tech = ride if f.mounted_combat and lo.technique else 0
    return a + ride, d + tech, g + tech


def start_speed(f) -> int:
    """The speed class a fighter acts in at the start: its stance's; slow with the wrong
    style or when it stunts every round."""
    stunts = f.tactics.stunt_difficulty >= 0 and not f.tactics.stunt_first_round
    return SLOW if f.loadout(MAIN).slow or stunts else STANCE_SPEED[f.stance]


def kinds_faced(fight: YagsFight, can: list[set[int]]) -> list[list[int]]:
    """For each fighter, the kinds of blow its foes can land on it."""
    out = []
    for f in fight.fighters:
        kinds = set()
        for j, g in enumerate(fight.fighters):
            if g.side == f.side:
                continue
            for i in can[j]:
                lo = g.loadout(i)
                kinds.add(lo.kind | (STUNLIKE if lo.damage_type in (MIXED, STUNS) else 0))
                if g.tactics.manoeuvre == KNOCKDOWN:
                    kinds.add(lo.kind | STUNLIKE)
        out.append(sorted(kinds))
    return out


DEFAULT_FUMBLES = Tactics()


def flags_of(fight: YagsFight, can: list[set[int]]) -> Flags:
    fs = fight.fighters
    los = [[f.loadout(i) for i in sorted(c)] for f, c in zip(fs, can, strict=True)]
    pairs = [(i, j) for i, f in enumerate(fs) for j, g in enumerate(fs) if f.side != g.side]
    faced = kinds_faced(fight, can)
    t = [f.tactics for f in fs]
    manoeuvres = {x.manoeuvre for x in t} - {NONE}
    mounted = any(f.mount for f in fs)
    gear = any(len({i % N_WEAPON_STATES for i in c}) > 1 for c in can)
    on = dict(
        gear_changes=gear,
        fumble_policies=gear or any(
            (x.own_fumbles, x.foe_fumbles) != (DEFAULT_FUMBLES.own_fumbles,
                                               DEFAULT_FUMBLES.foe_fumbles) for x in t),
        reach=any(a.reach != b.reach for i, j in pairs for a in los[i] for b in los[j]),
        armour_kinds=mounted or any(len({f.soak_against(k) for k in ks}) > 1
                                    for f, ks in zip(fs, faced, strict=True)),
        shifts=mounted or any(
            (a.light and fs[j].heavy_suit) or size_shift(a.size2, 2 * fs[j].size) != 0
            for i, j in pairs for a in los[i]),
        wide_fumbles=any(lo.fumble_range > 1 or lo.chain for x in los for lo in x),
        manoeuvres=bool(manoeuvres) or any(x.charge for x in t),
        grapple=GRAPPLE in manoeuvres,
        prone=bool(manoeuvres & {KNOCKDOWN, TRIP, CHARGE_THROUGH}) or mounted,
        mounted=mounted,
        shield=any(lo.shield for x in los for lo in x),
        unarmed_counter=any(a.unarmed and b.martial for i, j in pairs
                            for a in los[i] for b in los[j]),
        vitals=any(f.vitals for f in fs),
        draw=any(not f.drawn for f in fs),
        retreat=any(x.retreat_at < 99 for x in t),
        reroll=any(x.reroll_below >= 0 for x in t),
        stunts=any(x.stunt_difficulty >= 0 for x in t),
        exhaustion=fight.rules.exhausted_at is not None,
    )
    on["dynamic_order"] = any(on[k] for k in ("gear_changes", "prone", "grapple", "reroll",
                                               "stunts", "retreat"))
    on["any"] = any(on.values())
    return Flags(**on)
