"""The compiled fight as arrays for the vectorised kernel (``Static``), with the flags of
``flags.py`` saying which detailed rules can act in it. Tables indexed by fighter are flat
``(n_fighters * k,)`` arrays, gathered as ``table[who * k + i]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.engine.distance import start_positions
from balance.engine.targeting import FIRST
from balance.rules.yags.compile import FOLLOW, YagsFight
from balance.rules.yags.kernel.flags import Flags, flags_of, kinds_faced, reachable
from balance.rules.yags.rules.equipment import MAIN, N_WEAPON_STATES, Loadout
from balance.rules.yags.rules.tactics import (
    CRUSHING_KNOCKBACK,
    KNOCKDOWN_STRENGTH,
    N_MANOEUVRES,
    fumble_choice,
)
from balance.rules.yags.rules.tracks import (
    DEFENSIVE,
    GRAPPLED,
    N_KINDS,
    PRONE,
    SLOW,
    STANCE_SPEED,
    fatigue_penalties,
    stance_mods,
)

N_LOADOUTS = 2 * N_WEAPON_STATES
# Stance modes of the number tables: the stance codes themselves (tracks: normal, aggressive,
# defensive, prone, grappled); a retreat is made in the defensive stance.
PRONE_MODE, GRAPPLED_MODE, RETREAT_MODE = PRONE, GRAPPLED, DEFENSIVE
N_MODES = GRAPPLED + 1
LOADOUT_FIELDS = ("reach", "kind", "light", "crushing", "unarmed", "martial", "fumble_range",
                  "slow", "great", "longshaft", "chain", "shield", "weak", "strong", "losable",
                  "skill", "free_hand", "draw", "size2", "technique", "damage_type")
# The loadout fields a place's ``more`` rows hold (``gear.MORE`` begins with them; skill and
# damage type have arrays of their own).
MORE_LOADOUT = tuple(f for f in LOADOUT_FIELDS if f not in ("skill", "damage_type"))
TACTIC_FIELDS = ("manoeuvre", "first_round_only", "neck", "holding", "escape", "stand",
                 "meet_charge", "rearm", "switch_when_grappled", "retreat_at", "reroll_below",
                 "stunt_difficulty", "stunt_damage", "stunt_first_round", "attack_mount",
                 "charge", "step_back", "hurt_at", "hurt_stance", "unopposed_stance")


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
    fatigue_pen: np.ndarray        # (MAX_FATIGUE + 1,) penalty by fatigue level
    fatigue_step: np.ndarray       # (MAX_FATIGUE + 1,) what reaching each level adds to it
    riding_difficulty: int
    reach_closing: bool            # rules.reach: closing
    regain_follow: bool            # rules.regain_reach: follow
    lo0_snap: bool                 # rules.lo0_shots: snap
    lo0_aim: bool                  # rules.lo0_shots: aim
    missile_defence: int           # rules.missile_defence (fighters.NO_/HALF_/FULL_DEFENCE)
    missile_fumbles: bool          # rules.missile_fumbles: results
    counter_margin: int            # rules.unarmed_counter: the parry's margin that counters
    knock_floor: int               # no damage roll at or below this can knock anyone back
    stun_wounds: bool              # rules.excess_stuns: wounds
    on: Flags
    loadout: dict[str, np.ndarray]  # field -> (n * N_LOADOUTS,) int16
    loadout_rows: np.ndarray       # (len(gear.MORE_LOADOUT), n * N_LOADOUTS) int16: those
                                   # fields of ``loadout`` stacked, in ``gear.MORE`` order
    varying: tuple                 # the ``loadout_rows`` rows whose number differs between
                                   # loadouts (the others are one number in every loadout
                                   # of the fight: the seating writes them once)
    varying_rows: np.ndarray       # (len(varying), n * N_LOADOUTS): those rows
    numbers: np.ndarray            # (3, n * N_LOADOUTS * N_MODES): attack, defence, damage
    seat_rows: np.ndarray          # (5, n * N_LOADOUTS * N_MODES): ``numbers``, then the
                                   # loadout's damage type and skill (the same in every mode)
    fighter: dict[str, np.ndarray]  # per-fighter detailed numbers and tactics, (n,) int16
    soak_vs: np.ndarray            # (n * N_KINDS,)
    mount_soak_vs: np.ndarray      # (n * N_KINDS,)
    fumble_choice: np.ndarray      # (n * FUMBLE_CASES,): see ``fumble_index``
    groups: Groups | None = None   # group fights' numbers (None: a duel)
    start: np.ndarray | None = None  # (n,) float: positions at the start (fights at a distance)
    blasts: tuple = ()             # per fighter: its thrown explosive's blast (or None)
    basic: Any = None              # basic fights: the outcome tables (basic.Tables)
    # Can blocks of it be played stacked (``balance.engine.streams``)? See ``stackable``.
    stackable: bool = False


@dataclass(frozen=True)
class Groups:
    """What a fight of more than two needs (docs/rules/yags.md, Group fights): ``choosing``
    says the target policies can differ from the first standing foe (a policy other than
    ``first``, an attacker limit that can bind, or ranks); ``breaks_at`` the sides' morale."""

    choosing: bool
    policy: np.ndarray             # (n,) int8 target policy
    priority: np.ndarray           # (n, n) int16 fixed lists
    danger: np.ndarray             # (n,) int16: the fighter's attack
    line: np.ndarray               # (n,) float: its place in its side's line
    rank2: np.ndarray              # (n,) bool
    rank_ok: np.ndarray            # (n * n,) bool: [i * n + j] i can thrust at j from rank 2
    max_attackers: int
    breaks_at: list[float | None]
    morale: bool
    all_first: bool                # every policy is ``first``
    side_of: np.ndarray            # (n,) int8


def stance_numbers(lo: Loadout, stance: int) -> tuple[int, int, int]:
    """A loadout's attack, defence and damage in a stance (a mode of the number tables)."""
    a, d, g = stance_mods(stance, lo.chain)
    return lo.attack + a, lo.defence + d, lo.damage + g


FUMBLE_CASES = 2 * 2 * 2 * 2 * 2 * 2 * 3   # as_foe, defending, losable, weak, strong,
#                                            exhausts, fail effect (-1, 0, +1)


def fumble_index(who, as_foe, defending, losable, weak, strong, exhausts, effect):
    """Index into ``Static.fumble_choice``: the result fighter ``who`` picks, for its own
    fumble or (``as_foe``) a less skilled foe's, given the fumbler's roll and weapon, whether
    a level of fatigue would exhaust it, and what failing its defence would do (``effect``
    -1, 0 or +1: ``rules.tactics.defence_fail_effect``)."""
    flags = ((((as_foe * 2 + defending) * 2 + losable) * 2 + weak) * 2 + strong) * 2 + exhausts
    return (who * (FUMBLE_CASES // 3) + flags) * 3 + effect + 1


def fumble_table(fs) -> np.ndarray:
    """``Static.fumble_choice``: every case of ``fumble_index`` for every fighter, by the
    shared rule function ``rules.tactics.fumble_choice`` itself."""
    choice = [fumble_choice(f.tactics.foe_fumbles if foe else f.tactics.own_fumbles,
                            defending=bool(d), losable=bool(lo), weak=bool(w), strong=bool(st),
                            exhausts=bool(ex), fail_effect=e)
              for f in fs for foe in (0, 1) for d in (0, 1) for lo in (0, 1)
              for w in (0, 1) for st in (0, 1) for ex in (0, 1) for e in (-1, 0, 1)]
    return np.array(choice, dtype=np.int8)


def code_set(codes, size: int = N_MANOEUVRES) -> np.ndarray:
    """(size,) bool: is each code one of ``codes`` (a rule's tuple of manoeuvres), read as
    ``table.take(m)``: the same answer as ``np.isin(m, codes)``, a gather instead of a
    sort (``np.isin`` costs ~0.3 ms a call on a few thousand codes)."""
    table = np.zeros(size, dtype=bool)
    table[list(codes)] = True
    return table


def i16(values) -> np.ndarray:
    return np.array(values, dtype=np.int16)


def stackable(s: Static) -> bool:
    """Does every draw of this basic fight name the state columns it is for, and does no
    draw over all columns hang on the other columns (``balance.engine.streams``)? Duels, and
    group fights without morale (a broken side's run draws over whole sides) whose target
    policies are all ``first`` or none is (``targeting.choose_targets`` shuffles the choosers
    where any chooser's is not). Such a fight draws an attack's dice in every trial of the
    slot even when no trial acts (``strikes.attack_action``)."""
    g = s.groups
    if g is None:
        return True
    first = g.policy == FIRST
    return not g.morale and not g.rank2.any() and bool(first.all() or not first.any())


def tabulate(fight: YagsFight) -> Static:
    fs = fight.fighters
    r = fight.rules
    can = reachable(fight)
    on = flags_of(fight, can)
    col = fight.column
    # The seat of the basic rules: the main loadout in the declared stance, mounted.
    main = [_seat(f) for f in fs]
    faced = kinds_faced(fight, can)
    per = {name: i16([int(getattr(f.tactics, name)) for f in fs]) for name in TACTIC_FIELDS}
    per.update({name: i16([int(getattr(f, name)) for f in fs]) for name in FIGHTER_FIELDS})
    per["has_mount"] = i16([f.mount is not None for f in fs])
    per.update(missile_numbers(fight))
    for name in ("size", "strength", "health", "heavy_suit", "saddle", "move"):
        per[f"mount_{name}"] = i16([int(getattr(f.mount, name)) if f.mount else 0 for f in fs])
    # Knockback (docs/rules/yags.md, Damage): does the main weapon crush (the basic rules'
    # only loadout).
    per["crush"] = i16([f.loadout(MAIN).crushing for f in fs])
    numbers = i16([[stance_numbers(f.loadout(i), mode)[k]
                    for f in fs for i in range(N_LOADOUTS) for mode in range(N_MODES)]
                   for k in range(3)])
    loadout = {name: i16([int(getattr(f.loadout(i), name)) for f in fs for i in range(N_LOADOUTS)])
               for name in LOADOUT_FIELDS}
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
        fatigue_pen=fatigue_penalties(r.fatigue_penalty),
        fatigue_step=np.diff(fatigue_penalties(r.fatigue_penalty), prepend=np.int16(0)),
        riding_difficulty=r.riding_difficulty,
        reach_closing=r.reach_closing,
        regain_follow=r.regain_reach == FOLLOW,
        lo0_snap=r.lo0_snap,
        lo0_aim=r.lo0_aim,
        missile_defence=r.missile_defence,
        missile_fumbles=r.missile_fumbles,
        counter_margin=r.success_step if r.unarmed_counter_good else 1,
        knock_floor=KNOCKDOWN_STRENGTH * min(
            [f.strength for f in fs] + [f.mount.strength for f in fs if f.mount])
        - CRUSHING_KNOCKBACK,
        stun_wounds=r.stun_wounds,
        on=on,
        loadout=loadout,
        loadout_rows=(rows := np.stack([loadout[name] for name in MORE_LOADOUT])),
        varying=(varying := tuple(np.flatnonzero((rows != rows[:, :1]).any(axis=1)).tolist())),
        varying_rows=rows[list(varying)],
        numbers=numbers,
        seat_rows=np.vstack([numbers, np.repeat(loadout["damage_type"], N_MODES),
                             np.repeat(loadout["skill"], N_MODES)]),
        fighter=per,
        soak_vs=i16([f.soak_against(k) for f in fs for k in range(N_KINDS)]),
        mount_soak_vs=i16([f.mount.soak_vs[k] if f.mount else 0
                           for f in fs for k in range(N_KINDS)]),
        fumble_choice=fumble_table(fs),
        groups=groups_of(fight) if fight.n > 2 else None,
        start=start_of(fight) if on.distance else None,
        blasts=tuple(f.missile.blast if f.missile else None for f in fs),
    )


def start_of(fight: YagsFight) -> np.ndarray:
    """Each fighter's position at the start: side 0 at 0, other sides at their distance."""
    distances = list(fight.side_distance) or [0.0] * len(fight.side_names)
    return start_positions(fight.side_of, distances).astype(np.float64)


MISSILE_FIELDS = ("attack", "bonus", "damage", "damage_type", "kind", "reach", "shots",
                  "recoil", "magazine", "shot", "loaded", "drawn", "ammunition",
                  "shoot_in_melee", "firearm", "skill", "thrown", "weak")


def missile_numbers(fight: YagsFight) -> dict[str, np.ndarray]:
    """Per-fighter missile numbers as ``m_<field>`` (zeros for fighters without one), its
    load time after the last loaded shot ``m_time`` and range band ``m_range`` (metres)."""
    fs = fight.fighters
    out = {f"m_{name}": i16([int(getattr(f.missile, name)) if f.missile else 0 for f in fs])
           for name in MISSILE_FIELDS}
    out["has_missile"] = i16([f.missile is not None for f in fs])
    out["m_blast"] = i16([f.missile is not None and f.missile.blast is not None for f in fs])
    out["m_time"] = i16([f.missile.load_time if f.missile else 0 for f in fs])
    out["m_range"] = np.array([f.missile.range if f.missile else 1.0 for f in fs])
    return out


# Seed 000, ranks: the second rank's weapon reaches at least two levels beyond the target's.
RANK_REACH = 2


def groups_of(fight: YagsFight) -> Groups:
    fs = fight.fighters
    n = len(fs)
    side = fight.side_of
    cap = fight.rules.max_attackers
    smallest = min(int((side == k).sum()) for k in range(len(fight.side_names)))
    rank2 = np.array([f.rank == 2 for f in fs])
    reach = [f.loadout(MAIN).reach for f in fs]
    rank_ok = np.array([fs[i].rank == 2 and fs[i].side != fs[j].side
                        and fs[i].thrust_reach >= reach[j] + RANK_REACH
                        for i in range(n) for j in range(n)])
    priority = np.array([f.priority or (0,) * n for f in fs], dtype=np.int16)
    breaks_at = list(fight.breaks_at) or [None] * len(fight.side_names)
    return Groups(
        choosing=bool(any(f.target != FIRST for f in fs) or n - smallest > cap or rank2.any()),
        policy=np.array([f.target for f in fs], dtype=np.int8),
        priority=priority,
        danger=i16([f.attack for f in fs]),
        line=np.array([f.line for f in fs], dtype=np.float64),
        rank2=rank2,
        rank_ok=rank_ok,
        max_attackers=cap,
        breaks_at=breaks_at,
        morale=any(b is not None for b in breaks_at),
        all_first=all(f.target == FIRST for f in fs),
        side_of=side,
    )


FIGHTER_FIELDS = ("vitals", "size", "strength", "agility", "brawl", "athletics", "riding",
                  "mounted_combat", "drawn", "has_spare", "heavy_suit", "health", "stance",
                  "max_defences", "rank", "move", "movement", "fatigue", "exhausted_at",
                  "open_defences")


def _seat(f) -> tuple[int, int, int]:
    """Attack, defence and damage of the main loadout in the declared stance, mounted."""
    lo = f.loadout(MAIN)
    a, d, g = stance_numbers(lo, f.stance)
    if f.mount is None:
        return a, d, g
    ride = f.riding
    tech = ride if f.mounted_combat and lo.technique else 0
    return a + ride, d + tech, g + tech


def start_speed(f) -> int:
    """The speed class a fighter acts in at the start: its stance's; slow with the wrong
    style or when it stunts every round."""
    stunts = f.tactics.stunt_difficulty >= 0 and not f.tactics.stunt_first_round
    rank2 = f.rank == 2     # seed 000: the second rank's attacks are slow
    return SLOW if f.loadout(MAIN).slow or stunts or rank2 else STANCE_SPEED[f.stance]

