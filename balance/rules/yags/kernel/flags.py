"""Which detailed rules can act in a fight, worked out once per fight at compile time.

Every detailed rule costs the kernel nothing in a fight where no fighter can use it: the
flags here come from what each fighter can ever hold (the loadouts it can reach: losing a
weapon depends on who may choose it, which depends on the loadouts of both) and do (its
manoeuvres and policies), and the kernel skips whole code paths with a plain ``if``.
"""

from __future__ import annotations

from dataclasses import dataclass

from balance.rules.yags.compile import NEVER_EXHAUSTED, STEP_BACK, YagsFight
from balance.rules.yags.rules.equipment import BARE, MAIN, N_WEAPON_STATES, SPARE
from balance.rules.yags.rules.tactics import (
    BEST,
    CHARGE_THROUGH,
    DISARM_FOE,
    GRAPPLE,
    KNOCKDOWN,
    NONE,
    TRIP,
    VITAL,
    WORST,
    Tactics,
)
from balance.rules.yags.rules.tracks import (
    BREAK,
    DISARM,
    FAIL_DEFENCE,
    FATIGUE,
    MIXED,
    STUNLIKE,
    STUNS,
    size_shift,
)


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
    step_back: bool = False        # rules.reach closing: someone gives ground to keep its reach
    reroll: bool = False
    stunts: bool = False
    stances: bool = False          # a stance plan can change someone's stance round by round
    ranks: bool = False            # someone stands in the second rank (group fights)
    distance: bool = False         # positions matter: sides start apart, or someone shoots
    blasts: bool = False           # someone throws explosives
    dynamic_order: bool = False    # speed or initiative can change during the fight
    any: bool = False              # any of the above: the fight is not a basic one
    # Rules that act in basic fights too (so not counted in ``any``):
    knockback: bool = False        # rules.knockback: blows that do no damage can stun
    exhaustion: bool = False       # rules.exhausted_at: the exhausted rest at once


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
            picks = _reached(f.tactics.own_fumbles)
            for j, g in enumerate(fs):
                if g.side != f.side and max(g.loadout(w).skill for w in held(j)) > least:
                    picks |= _reached(g.tactics.foe_fumbles)
            if disarming or picks & {DISARM, BREAK}:
                states[i] |= {BARE} | ({SPARE} if f.has_spare else set())
    return [held(k) for k in range(len(fs))]


def _reached(prefs: tuple[int, ...]) -> set[int]:
    """The results a chooser can ever pick: a ranking any of them (``rules.tactics.fumble_choice``),
    a list those up to its first fatigue (the later ones are never reached)."""
    if prefs and prefs[0] in (WORST, BEST):
        return {FATIGUE, DISARM, BREAK, FAIL_DEFENCE}
    return set(prefs[:prefs.index(FATIGUE) + 1 if FATIGUE in prefs else len(prefs)])


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
        prone=bool(manoeuvres & {KNOCKDOWN, TRIP, CHARGE_THROUGH, VITAL}) or mounted,
        mounted=mounted,
        shield=any(lo.shield for x in los for lo in x),
        unarmed_counter=any(a.unarmed and b.martial for i, j in pairs
                            for a in los[i] for b in los[j]),
        vitals=any(f.vitals for f in fs),
        draw=any(not f.drawn for f in fs),
        step_back=False,
        reroll=any(x.reroll_below >= 0 for x in t),
        stunts=any(x.stunt_difficulty >= 0 for x in t),
        stances=any(x.hurt_stance >= 0 or x.unopposed_stance >= 0 for x in t),
        ranks=any(f.rank == 2 for f in fs),
        distance=fight.at_distance,
        blasts=any(f.missile is not None and f.missile.blast is not None for f in fs),
    )
    # rules.reach closing: a longer weapon can step back from a shorter one inside its reach
    # (a retreat), when foes' reaches can differ.
    # rules.regain_reach step_back only: under follow and hold nobody steps back.
    on["step_back"] = (fight.rules.reach_closing and on["reach"] and any(x.step_back for x in t)
                       and fight.rules.regain_reach == STEP_BACK)
    on["retreat"] = on["step_back"] or any(x.retreat_at < 99 for x in t)
    on["dynamic_order"] = any(on[k] for k in ("gear_changes", "prone", "grapple", "reroll",
                                               "stunts", "retreat", "distance", "stances"))
    on["any"] = any(on.values())
    # rules.knockback stuns: any blow that causes no damage can knock its target back. It
    # acts in basic fights too, so it does not make a fight detailed.
    on["knockback"] = fight.rules.knockback
    # Exhaustion (rules.exhausted_at): fumbles tire fighters in basic fights too.
    on["exhaustion"] = any(f.exhausted_at < NEVER_EXHAUSTED for f in fs)
    return Flags(**on)
