"""Readable scalar reference, part 5: what a blow does (seed 000, "Inflicting Damage",
"Stun Damage", "Mixed Damage", "Advanced Armour", "Size effects on Damage").

A *body* is anything with ``wounds``, ``stuns``, ``status``, ``health`` and
``fighting_on_at_fatal``: a fighter, or the mount it rides. Every d20 is
``int(rng.integers(1, 21))``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.engine.status import DEAD, STANDING, UNCONSCIOUS
from balance.rules.yags.compile import YagsRules
from balance.rules.yags.reference.state import Combat, FighterState, knock_down
from balance.rules.yags.rules.tactics import (
    BREAK_LIMB,
    BREAK_LIMB_LEVELS,
    BREAK_NECK,
    BREAK_NECK_BASE,
    BREAK_NECK_LEVELS,
    CRUSHING_KNOCKBACK,
    DAMAGE_BONUS,
    KNOCKDOWN,
    KNOCKDOWN_STRENGTH,
    VITAL,
)
from balance.rules.yags.rules.tracks import (
    EXTRA_LEVEL_STEP,
    FATAL,
    HEALTH_CHECK_BASE,
    INEFFECTIVE,
    MIXED,
    NO_DAMAGE,
    STUNLIKE,
    STUNS,
    WOUNDS,
    apply_stuns,
    health_target,
    levels_caused,
    shift_type,
    size_shift,
    split_mixed,
)

NATURAL_ONE = 1  # seed 000: a natural 1 on attack, defence, initiative or health is a fumble

# Health check results.
FAIL, SUCCESS, GOOD = 0, 1, 2


def d20(rng: np.random.Generator) -> int:
    """One twenty-sided die."""
    return int(rng.integers(1, 21))


def blow_kind(attack_kind: int, damage_type: int) -> int:
    """What the armour sees: the weapon's impaling and heavy bits, and stun-like for a stun or
    mixed blow (soft armour doubles against those: seed 000, Soft)."""
    return attack_kind | (STUNLIKE if damage_type in (MIXED, STUNS) else 0)


def roll_levels(damage: int, soak: int, *, rng: np.random.Generator) -> tuple[int, int]:
    """Seed 000: damage roll against soak roll; neither fumbles. One level if the damage roll
    is at least the soak roll, plus one per 5 points above it. Lab assumption: no penalties on
    either roll. Returns (levels, the damage roll)."""
    damage_roll = damage + d20(rng)
    soak_roll = soak + d20(rng)
    return int(levels_caused(damage_roll, soak_roll)), damage_roll


def knockback_levels(damage_roll: int, crushing: bool, strength: int) -> int:
    """Stun levels a hit knocks into a body when it caused no damage (seed 000, Crushing:
    "+5 bonus to damage for purposes of knockback. This increases the chance of causing stun
    damage, even if the attack didn't get through the target's armour"). Lab's mechanism,
    the seed's own measure of a blow's force (Knockdown: "damage roll (ignoring armour and
    soak) is greater than your foe's strength x 10"): the damage roll, +5 for a crushing
    weapon, greater than strength x 10 knocks back one stun, plus one per 5 points above."""
    return int(levels_caused(damage_roll + CRUSHING_KNOCKBACK * crushing,
                             KNOCKDOWN_STRENGTH * strength + 1))


def blow_type(base: int, *, light: bool, heavy_suit: bool, attacker_size2: int,
              target_size: int) -> int:
    """The damage type that lands: a light weapon against a heavy suit is one category worse
    (seed 000, Light); size differences of 10 and 15 shift one and two categories."""
    shift = int(light and heavy_suit) + int(size_shift(attacker_size2, 2 * target_size))
    return int(shift_type(base, shift))


def apply_damage(body: Any, levels: int, damage_type: int, rules: YagsRules, *,
                 rng: np.random.Generator, vitals: int = 0) -> int:
    """Put ``levels`` of damage of one type on a body's tracks, with the health checks it
    calls; returns the wounds added.

    Wounds add up; stuns follow the stun rule (replace, add one, or nothing); mixed damage puts
    ceil(levels / 2) on stuns and floor(levels / 2) on wounds, both added cumulatively
    (seed 000, "Mixed Damage"); ineffective damage is stun damage with the levels halved,
    rounded down. For mixed damage the wound check comes first, and a body it puts out makes
    no stun check. ``vitals``: the armour's bonus to these checks (seed 000, Vitals).
    """
    if levels <= 0 or damage_type == NO_DAMAGE:
        return 0
    if damage_type == WOUNDS:
        add_wounds(body, levels, rules, rng=rng, vitals=vitals)
        return levels
    if damage_type in (STUNS, INEFFECTIVE):
        hit = levels if damage_type == STUNS else levels // 2
        if hit:
            take_stuns(body, int(apply_stuns(body.stuns, hit)), 0, rules, rng=rng,
                       vitals=vitals)
        return 0
    if damage_type == MIXED:
        stuns, wounds = split_mixed(levels)
        take_stuns(body, body.stuns + stuns, wounds, rules, rng=rng, vitals=vitals)
        return wounds
    raise ValueError(f"unknown damage type {damage_type!r}")


def add_wounds(body: Any, wounds: int, rules: YagsRules, *, rng: np.random.Generator,
               vitals: int = 0) -> None:
    """Seed 000, wounds: damage taking you to fatal (6) or beyond calls a health check.

    The target is 20 + 5 per wound beyond 6. Failure or fumble: dead; success: unconscious;
    good success: fights on, checking again at the end of every round. The track is held at
    6: "you will never be in a state worse than fatally wounded".
    """
    if wounds <= 0:
        return
    total = body.wounds + wounds
    body.wounds = min(total, FATAL)
    if total < FATAL:
        return
    result = health_check(body.health, int(health_target(total)), rules, rng=rng, bonus=vitals)
    if result == FAIL:
        body.status = DEAD
    elif result == SUCCESS:
        body.status = UNCONSCIOUS
    body.fighting_on_at_fatal = body.status == STANDING


def take_stuns(body: Any, total: int, wounds: int, rules: YagsRules, *,
               rng: np.random.Generator, vitals: int = 0) -> None:
    """A blow's stuns (the stun track's new ``total``) and its own ``wounds``. Seed 000:
    "Excessive stun damage may lead to wounds": with rules.excess_stuns wounds (default),
    each stun beyond beaten (6) is a wound instead, added with the blow's own (one fatal-wound
    check); then the stun track and its beaten check."""
    excess = max(total - FATAL, 0) if rules.stun_wounds else 0
    add_wounds(body, wounds + excess, rules, rng=rng, vitals=vitals)
    set_stuns(body, total, rules, rng=rng, vitals=vitals)


def set_stuns(body: Any, total: int, rules: YagsRules, *, rng: np.random.Generator,
              vitals: int = 0) -> None:
    """Seed 000, stuns: a blow that raises the track to beaten (6) or beyond calls a check.

    The target is 20 + 5 per stun beyond 6. Failure: unconscious; success: still standing.
    The track is held at 6. A body already out makes no check.
    """
    before = body.stuns
    body.stuns = min(total, FATAL)
    if total > before and total >= FATAL and body.status == STANDING:
        result = health_check(body.health, int(health_target(total)), rules, rng=rng,
                              bonus=vitals)
        if result == FAIL:
            body.status = UNCONSCIOUS


def health_check(health: int, target: int, rules: YagsRules, *, rng: np.random.Generator,
                 bonus: int = 0, multiplier: int = 4) -> int:
    """Health x 4 (+ bonus) + d20 against ``target``: FAIL, SUCCESS, or GOOD (by
    ``success_step`` or more). A natural 1 always fails (seed 000: "If you fumble the check,
    then you also die"). ``multiplier``: the vital strike rolls health x Size instead."""
    roll = d20(rng)
    total = multiplier * health + bonus + roll
    if roll == NATURAL_ONE or total < target:
        return FAIL
    return GOOD if total - target >= rules.success_step else SUCCESS


def fall_from_vital_strike(t: FighterState, rules: YagsRules, *, rng: np.random.Generator,
                           vitals: int = 0) -> None:
    """Seed 000, Vital strike: "they immediately fall to the ground fatally wounded". Fallen
    (prone; a rider falls off), its wounds at fatal, and, as for any damage that takes a
    fighter to fatally wounded, the health check at 20 (+ vitals): failure or fumble, dead;
    success, unconscious; a good success, it fights on from the ground at fatal wounds,
    checking at the end of every round."""
    knock_down(t)
    t.wounds = FATAL
    result = health_check(t.health, int(health_target(FATAL)), rules, rng=rng, bonus=vitals)
    if result == FAIL:
        t.status = DEAD
    elif result == SUCCESS:
        t.status = UNCONSCIOUS
    t.fighting_on_at_fatal = t.status == STANDING


def fall_fatally_wounded(body: Any) -> None:
    """Seed 000, Break neck: the target "drops to fatally wounded" and makes the break's own
    check to stay alive (the lab counts a survivor unconscious: out of the fight, dying)."""
    body.wounds = FATAL
    if body.status == STANDING:
        body.status = UNCONSCIOUS
    body.fighting_on_at_fatal = False


def end_of_round_checks(body: Any, rules: YagsRules, *, rng: np.random.Generator) -> None:
    """Seed 000, "End of Round": a body fighting on at fatal wounds checks at 20 or dies; a
    beaten body still standing checks at 20 or falls unconscious."""
    if body.status == STANDING and body.fighting_on_at_fatal:
        if health_check(body.health, 20, rules, rng=rng) == FAIL:
            body.status = DEAD
            body.fighting_on_at_fatal = False
    if body.status == STANDING and body.stuns >= FATAL:
        if health_check(body.health, 20, rules, rng=rng) == FAIL:
            body.status = UNCONSCIOUS


# --- A blow ------------------------------------------------------------------------------


def blow(a: FighterState, t: FighterState, m: int, to_damage: int, combat: Combat, *,
         rng: np.random.Generator) -> None:
    """Damage from a hit: armour by the kind of blow, damage type shifted by light weapons and
    size, and the damage manoeuvres' extras."""
    rules = combat.rules
    body = t.mount if a.at_mount and t.mounted else t
    on_mount = body is not t
    base = STUNS if m == KNOCKDOWN else a.gear.damage_type   # knockdown: stun damage
    kind = blow_kind(a.gear.kind, base)
    soak = body.stats.soak_vs[kind] if on_mount else t.fighter.soak_against(kind)
    _, _, damage = a.numbers()
    damage += DAMAGE_BONUS.get(m, 0) + to_damage
    if a.charging:
        damage += a.mount.stats.strength          # seed 000, Mounted charge
    levels, damage_roll = roll_levels(damage, soak, rng=rng)
    heavy = body.stats.heavy_suit if on_mount else t.fighter.heavy_suit
    size = body.stats.size if on_mount else t.fighter.size
    kind_of_damage = blow_type(base, light=a.gear.light, heavy_suit=heavy,
                               attacker_size2=a.gear.size2, target_size=size)
    vitals = 0 if on_mount else t.fighter.vitals
    if m == BREAK_NECK and levels >= BREAK_NECK_LEVELS:
        break_neck(t, levels, combat, rng=rng)
        return
    wounds = apply_damage(body, levels, kind_of_damage, rules, rng=rng, vitals=vitals)
    if levels == 0 and rules.knockback:
        # Knockback (rules.knockback stuns): stun damage, shifted by Size as any blow.
        strength = body.stats.strength if on_mount else t.fighter.strength
        knocked = knockback_levels(damage_roll, a.gear.crushing, strength)
        shift = int(size_shift(a.gear.size2, 2 * size))
        apply_damage(body, knocked, int(shift_type(STUNS, shift)), rules, rng=rng,
                     vitals=vitals)
    if m == BREAK_LIMB and levels >= BREAK_LIMB_LEVELS:
        t.limbs += 1                               # -40 to use it, and a wound at once
        add_wounds(t, 1, rules, rng=rng, vitals=vitals)
    if a.charging and wounds:
        # Seed 000, Mounted charge: a stun for each wound dealt, from the shock.
        take_stuns(body, int(apply_stuns(body.stuns, wounds)), 0, rules, rng=rng,
                   vitals=vitals)
    knockback = damage_roll + CRUSHING_KNOCKBACK * a.gear.crushing
    if m == KNOCKDOWN and t.standing and knockback > KNOCKDOWN_STRENGTH * t.fighter.strength:
        knock_down(t)
    if m == VITAL and wounds >= 1 and t.standing:
        # Seed 000, Vital strike: health x Size against 20 + 5 x wounds caused, or fall.
        target = HEALTH_CHECK_BASE + EXTRA_LEVEL_STEP * wounds
        if health_check(t.health, target, rules, rng=rng, bonus=vitals,
                        multiplier=t.fighter.size) == FAIL:
            fall_from_vital_strike(t, rules, rng=rng, vitals=vitals)


def break_neck(t: FighterState, levels: int, combat: Combat, *,
               rng: np.random.Generator) -> None:
    """Seed 000, Break neck: fatally wounded at once, and a health x 4 check against 10 +
    levels caused to stay alive."""
    fall_fatally_wounded(t)
    if health_check(t.health, BREAK_NECK_BASE + levels, combat.rules, rng=rng,
                    bonus=t.fighter.vitals) == FAIL:
        t.status = DEAD
