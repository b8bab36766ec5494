"""The percentile family's numbers and seed 004's situational rules, as small pure functions.

Every function takes Python ints or numpy integer arrays (broadcasting) and returns numpy
values, so the scalar reference (which wraps results in ``int``) and the vectorised kernel
share one copy of every table. Rounding, where a rule halves or thirds a chance, follows the
seed's one explicit instruction ("round fractions up", aimed shots): *chances* round up,
*damage* rounds down (in the victim's favour, as the seed's halved armour rounds in the
wearer's favour). Docstrings cite the rule; docs/rules/percentile.md says which numbers are
the lab's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.dice.resistance import resistance_chance

# --- success levels ------------------------------------------------------------------------

FUMBLE, FAILURE, SUCCESS, SPECIAL, CRITICAL = 0, 1, 2, 3, 4
LEVEL_NAMES = ("fumble", "failure", "success", "special", "critical")


@dataclass(frozen=True)
class Levels:
    """The success-level fractions (rule options; the family's conventions by default).

    critical: 1/20 of the chance, special: 1/5, both rounded half up, a critical at least 01;
    success: the chance, but 01-05 always succeed and 96-00 always fail (a chance of 0 or
    less cannot succeed); fumble: the top 1/20 of the failure range, rounded up, at least 00.
    """

    critical_divisor: int = 20
    special_divisor: int = 5
    fumble_divisor: int = 20
    auto_success: int = 5
    auto_failure: int = 96


DEFAULT_LEVELS = Levels()


def ceil_div(num, den):
    """ceil(num / den) for integers (den > 0)."""
    return -(-np.asarray(num) // den)


def round_half_up(num, den):
    """num / den rounded half up, for integers num >= 0 and den > 0."""
    return (2 * np.asarray(num) + den) // (2 * den)


def critical_range(chance, lv: Levels = DEFAULT_LEVELS):
    """Rolls 1..this are criticals (0 when the chance is 0 or less)."""
    chance = np.asarray(chance)
    return np.where(chance >= 1, np.maximum(1, round_half_up(np.maximum(chance, 0),
                                                            lv.critical_divisor)), 0)


def special_range(chance, lv: Levels = DEFAULT_LEVELS):
    """Rolls 1..this are specials or better (impales with a thrusting weapon)."""
    chance = np.asarray(chance)
    return np.maximum(critical_range(chance, lv),
                      np.where(chance >= 1, round_half_up(np.maximum(chance, 0),
                                                          lv.special_divisor), 0))


def success_range(chance, lv: Levels = DEFAULT_LEVELS):
    """Rolls 1..this succeed: the chance held within the automatic limits."""
    chance = np.asarray(chance)
    return np.where(chance >= 1, np.clip(chance, lv.auto_success, lv.auto_failure - 1), 0)


def fumble_range(chance, lv: Levels = DEFAULT_LEVELS, multiplier=1):
    """How many of the top rolls (00 down) fumble. Fatigue and water multiply it (seed 004);
    it never reaches into the success range."""
    chance = np.asarray(chance)
    base = np.maximum(1, ceil_div(100 - chance, lv.fumble_divisor))
    return np.minimum(base * multiplier, 100 - success_range(chance, lv))


def success_level(roll, chance, lv: Levels = DEFAULT_LEVELS, fumble_multiplier=1):
    """The level (FUMBLE..CRITICAL) of a d100 ``roll`` against ``chance``."""
    roll = np.asarray(roll)
    fumble = roll > 100 - fumble_range(chance, lv, fumble_multiplier)
    return np.where(roll <= critical_range(chance, lv), CRITICAL,
           np.where(roll <= special_range(chance, lv), SPECIAL,
           np.where(roll <= success_range(chance, lv), SUCCESS,
           np.where(fumble, FUMBLE, FAILURE)))).astype(np.int8)


def level_probabilities(chance: int, lv: Levels = DEFAULT_LEVELS,
                        fumble_multiplier: int = 1) -> dict[str, float]:
    """Exact chance of each level for one ``chance`` (each d100 face counted once)."""
    levels = success_level(np.arange(1, 101), chance, lv, fumble_multiplier)
    return {name: int(np.count_nonzero(levels == k)) / 100
            for k, name in enumerate(LEVEL_NAMES)}


# --- the parry matrix: what a parry or dodge does to a successful attack ------------------

ELRIC, BRP = 0, 1
PARRY_MATRICES = {"elric": ELRIC, "brp": BRP}
# Basic Roleplaying's matrix: a parry that only partly stops a blow costs the parrying weapon
# or shield 2 hit points; an ordinary blow stopped by a special parry costs the attacking
# weapon 1 ("Attack and Defense Matrix", BRP's combat summary)
PARTLY_PARRIED_WEAR, OUT_PARRIED_WEAR = 2, 1


def blow_after_defence(attack, defence, matrix=ELRIC, lenient=False):
    """The level at which a successful ``attack`` lands after a parry or dodge rolled at
    level ``defence`` (FUMBLE..CRITICAL); FAILURE means the defence stopped it.

    ``ELRIC`` (rules.parry_matrix ``elric``; Elric!, the game whose "odds and ends" seed 004
    retells, and Magic World after it): any successful defence stops the blow, but a
    critical only a critical defence ("a critical parry does block an impale", Elric!'s
    designers; the seed itself: "a critical parry negates a critical entangle, though an
    ordinary parry does nothing against one"); a defence that does not stop a blow leaves it
    whole. ``BRP`` (``brp``; Basic Roleplaying's attack and defence matrix: "a success
    cancels out an equivalent level of success"): a defence at the attack's level or better
    stops it; one level short (an ordinary parry or dodge against a special) stops it only
    partly: the blow lands one level lower ("achieves a normal success", armour counting);
    further short, the blow lands whole. **Assumption**: BRP's matrix has no criticals; the
    lab extends it a level (a special defence partly stops a critical, which lands as a
    special). ``lenient`` (``rules.critical_needs_critical: false``; per row for an
    entangle's dodge) makes a critical no harder to stop than a special (``BRP``) or a plain
    hit (``ELRIC``)."""
    attack, defence = np.asarray(attack), np.asarray(defence)
    stood = defence >= SUCCESS
    if matrix == ELRIC:
        stopped = stood & ((attack < CRITICAL) | (defence == CRITICAL) | lenient)
        return np.where(stopped, FAILURE, attack).astype(np.int8)
    against = np.where(lenient & (attack == CRITICAL), SPECIAL, attack)
    partly = stood & (defence == against - 1)
    return np.where(stood & (defence >= against), FAILURE,
                    np.where(partly, attack - 1, attack)).astype(np.int8)


def parry_wear(attack, defence, landed, matrix=ELRIC):
    """(hit points the parrying item loses, hit points the attacking weapon loses) to a
    parry rolled at ``defence`` against ``attack`` that left the blow at ``landed``
    (``blow_after_defence``). Only Basic Roleplaying's matrix wears weapons this way: a
    partly parried blow costs the parrying weapon or shield ``PARTLY_PARRIED_WEAR``; a plain
    hit stopped by a better parry costs the attacking weapon ``OUT_PARRIED_WEAR``."""
    attack, defence, landed = np.asarray(attack), np.asarray(defence), np.asarray(landed)
    if matrix != BRP:
        zero = np.zeros(np.broadcast(attack, defence, landed).shape, dtype=np.int8)
        return zero, zero
    partly = (landed > FAILURE) & (landed < attack)
    out = (landed == FAILURE) & (defence > attack)
    return (np.where(partly, PARTLY_PARRIED_WEAR, 0).astype(np.int8),
            np.where(out, OUT_PARRIED_WEAR, 0).astype(np.int8))


HELPLESS_STATES = ("exhausted", "surprised", "held")


def unable_to_resist(exhausted, surprised, held, counts=(True, True, False)):
    """Seed 004: "a target unable to resist is hit automatically". Which of the states a
    fight has count (``rules.unable_to_resist``, in ``HELPLESS_STATES`` order): exhausted
    ("unable even to lift a sword", default), surprised (by an ambush, in round 1: the lab's
    surprise takes every defence, default) and held by an entangle (off by default: the seed
    says only that it "prevents the target from moving or attacking")."""
    return ((np.asarray(exhausted) & counts[0]) | (np.asarray(surprised) & counts[1])
            | (np.asarray(held) & counts[2]))


def roll_succeeds(roll, chance, lv: Levels = DEFAULT_LEVELS):
    """A plain percentile roll (characteristic x N, Dodge, ...): success or better."""
    return np.asarray(roll) <= success_range(chance, lv)


# --- characteristics ---------------------------------------------------------------------


def hit_points_average(con, siz):
    """Hit points as the average of CON and SIZ, rounded up (BRP / Elric! convention)."""
    return ceil_div(np.asarray(con) + siz, 2)


def hit_points_con_adjusted(con, siz, pow_):
    """Hit points as CON, +1 per SIZ over 12, -1 per SIZ under 9, +1 per POW over 16,
    -1 per POW under 5 (the older RuneQuest / Stormbringer convention); at least 1."""
    siz, pow_ = np.asarray(siz), np.asarray(pow_)
    hp = (np.asarray(con) + np.maximum(0, siz - 12) - np.maximum(0, 9 - siz)
          + np.maximum(0, pow_ - 16) - np.maximum(0, 5 - pow_))
    return np.maximum(1, hp)


def is_major_wound(damage, hp_max):
    """Damage of at least half the hit points in one blow is a major wound."""
    return 2 * np.asarray(damage) >= hp_max


def broken_parry(rolled, item_hp):
    """Seed 004: a parrying weapon or shield breaks when the blow's rolled damage exceeds
    its hit points; returns (breaks, the excess over its hit points, 0 where it holds)."""
    rolled = np.asarray(rolled)
    breaks = rolled > item_hp
    return breaks, np.where(breaks, rolled - item_hp, 0)


def spot_chance(search, hidden):
    """Seed 004: a target's Search roll to spot an ambush first; ambushers lying in wait
    (hidden, not moving) are "only half as likely to be noticed" (halved, rounded up)."""
    return np.where(hidden, ceil_div(search, 2), search)


def free_from_entangle_chance(dex, knife_skill, netted):
    """Seed 004: after the hold "a DEX x3 roll (or a knife attack against a net) frees the
    target": the better of DEX x 3 and, caught in a net with a knife in hand, the knife's
    attack skill (``knife_skill`` 0 when there is none)."""
    return np.where(netted, np.maximum(3 * np.asarray(dex), knife_skill), 3 * np.asarray(dex))


def extra_attack_chance(chance):
    """Seed 004, DEX x 3 extra attack: at 50 percentiles or the normal skill, the lower."""
    return np.minimum(50, chance)


# --- light (seed 004, darkness) ------------------------------------------------------------

BRIGHT, SEMI_DARK, DARK, PITCH_DARK = 0, 1, 2, 3
LIGHTS = {"bright": BRIGHT, "semi_dark": SEMI_DARK, "dark": DARK, "pitch_dark": PITCH_DARK}


def light_skill(skill, light, search, int_, pow_, listen=0, noisy=False, weapon=True,
                scent=0, smelly=False):
    """A vision-dependent skill in the light given.

    Semi-darkness halves weapon skills (``weapon``; a Dodge is not weapon-related); true
    darkness leaves a third of the skill or half Search, the lower; pitch darkness makes an
    attack guesswork: INT x 3, POW x 3 or a quarter of the skill, the smallest, or half
    Listen instead against a foe who makes noise, or half Scent/Taste against one with a
    strong smell (the better of these; the lab applies the guess to parries and dodges
    too: no one parries what they cannot see).
    """
    skill, light = np.asarray(skill), np.asarray(light)
    semi = ceil_div(skill, 2) if weapon else skill
    dark = np.minimum(ceil_div(skill, 3), ceil_div(search, 2))
    guess = np.minimum(np.minimum(3 * np.asarray(int_), 3 * np.asarray(pow_)),
                       ceil_div(skill, 4))
    guess = np.where(noisy, np.maximum(guess, ceil_div(listen, 2)), guess)
    guess = np.where(smelly, np.maximum(guess, ceil_div(scent, 2)), guess)
    return np.where(light == BRIGHT, skill,
           np.where(light == SEMI_DARK, semi, np.where(light == DARK, dark, guess)))


# --- space, weapon length, height ------------------------------------------------------------

SHORT, MEDIUM, LONG = 0, 1, 2
LENGTHS = {"short": SHORT, "medium": MEDIUM, "long": LONG}
OPEN, CRAMPED, CORRIDOR = 0, 1, 2
SPACES = {"open": OPEN, "cramped": CRAMPED, "corridor": CORRIDOR}


def quarter(skill):
    """A quarter of the skill, rounded up (seed 004: an undeployable weapon)."""
    return ceil_div(skill, 4)


def deployable(width_needed, space_needed, clearance, depth):
    """Seed 004, cramped quarters: a weapon needs its length's clear space (long 2 yd,
    "a medium weapon, especially a chopping one", 1 yd, short a foot). A chopping weapon
    swings: it needs that room to the sides (``width_needed`` = its space) and ahead; a
    thrusting one needs it only ahead (``depth``) and a foot to the sides. ``clearance``
    (to the sides) and ``depth`` are inf in the open."""
    return (np.asarray(width_needed) <= clearance) & (np.asarray(space_needed) <= depth)


def cramped_skill(skill, can_deploy):
    """The skill with a weapon that can (or cannot) be deployed: full, or a quarter."""
    return np.where(can_deploy, skill, quarter(skill))


def height_modifier(my_level, foe_level, my_length, foe_length):
    """Seed 004, superior position: the higher fighter +10, the lower -10, unless the lower
    one wields the longer weapon, "long against medium or short" (then height stops
    mattering; a medium weapon against a short one does not). Levels: -1 lower, 0, +1."""
    diff = np.sign(np.asarray(my_level) - foe_level)
    my_length, foe_length = np.asarray(my_length), np.asarray(foe_length)
    i_am_lower_and_longer = (diff < 0) & (my_length == LONG) & (foe_length < LONG)
    foe_is_lower_and_longer = (diff > 0) & (foe_length == LONG) & (my_length < LONG)
    return np.where(i_am_lower_and_longer | foe_is_lower_and_longer, 0, 10 * diff)


def down_modifier(attacker_down, target_down):
    """Seed 004, fighting while down: -20 for a downed attacker, +20 for a standing one
    against a downed target (melee)."""
    attacker_down = np.asarray(attacker_down)
    return np.where(attacker_down, -20, np.where(target_down, 20, 0))


def attackers_allowed(limits, space):
    """Seed 004: how many attackers with one weapon class can engage one target in a space;
    ``limits`` is the (open, cramped, corridor) row of the weapon's class."""
    return np.asarray(limits)[..., space] if np.ndim(space) == 0 else \
        np.take_along_axis(np.asarray(limits), np.asarray(space)[..., None], -1)[..., 0]


# --- missiles (seed 004) ---------------------------------------------------------------------


def range_divisor(distance, base_range, max_multiple=4):
    """Seed 004, range: the chance is divided by 1 within base range, 2 to double, 4 to
    triple, 8 to quadruple; 0 means no chance: beyond ``max_multiple`` times the base range
    (4; seed 004: "thrown knives and axes have no chance to hit at all past double their
    base range", 2 in their weapon rows)."""
    d, b = np.asarray(distance), np.asarray(base_range)
    div = np.where(d <= b, 1, np.where(d <= 2 * b, 2, np.where(d <= 3 * b, 4,
                   np.where(d <= 4 * b, 8, 0))))
    return np.where(d > np.asarray(max_multiple) * b, 0, div)


def half_damage_at(distance, base_range):
    """Seed 004: beyond double range a missile does half damage."""
    return np.asarray(distance) > 2 * np.asarray(base_range)


def point_blank(distance, dex):
    """Seed 004: a missile's chance doubles within the shooter's DEX in feet (DEX / 3 yd)."""
    return 3 * np.asarray(distance) <= dex


def aim_bonus(chance, steps, distance, base_range):
    """Seed 004, careful aim: +10% of the current chance (rounded up) for every five DEX
    ranks delayed; no effect beyond double the base range."""
    bonus = ceil_div(np.asarray(chance) * steps, 10)
    return np.where(np.asarray(distance) <= 2 * np.asarray(base_range), bonus, 0)


def aim_steps(wanted_steps, rank_left):
    """Whole five-rank aiming steps that still leave the shot a DEX rank of at least 1."""
    return np.clip(np.minimum(wanted_steps, (np.asarray(rank_left) - 1) // 5), 0, None)


def fixed_point_chance(chance, distance, base_range):
    """Seed 004, aiming at a doorway: full chance if the target steps in at half base range
    or closer, none otherwise (no time to shoot before it moves clear)."""
    return np.where(2 * np.asarray(distance) <= base_range, chance, 0)


def target_size_modifier(siz):
    """Seed 004: +5 per full 10 SIZ above 30, -5 per SIZ below 5 (before range)."""
    siz = np.asarray(siz)
    return np.where(siz >= 30, 5 * ((siz - 30) // 10), np.where(siz < 5, -5 * (5 - siz), 0))


def angle_modifier(my_level, foe_level, steep):
    """Seed 004: shooting up at over 45 degrees -20, down -30."""
    diff = np.sign(np.asarray(foe_level) - my_level)
    return np.where(np.asarray(steep) & (diff > 0), -20,
                    np.where(np.asarray(steep) & (diff < 0), -30, 0))


def volley_chance(chance):
    """Seed 004, volley fire: the chance drops by two-thirds (a third is left, rounded up)."""
    return ceil_div(chance, 3)


def volley_shots(shots, rounds_volleyed, con):
    """Seed 004: after CON x 2 rounds of volleys the rate halves (rounded up) for CON / 2
    rounds (rounded up), then full volleys resume; ``rounds_volleyed`` counts earlier ones."""
    con = np.asarray(con)
    cycle = 2 * con + ceil_div(con, 2)
    tired = np.asarray(rounds_volleyed) % cycle >= 2 * con
    return np.where(tired, ceil_div(shots, 2), shots)


SMALL, FULL, LARGE = 1, 2, 3
SHIELD_SIZES = {"small": SMALL, "full": FULL, "large": LARGE}
# Seed 004: a small or half shield blocks 15% of missiles, a full 30%, a large 60%; braced,
# a full one 60% and a large 90% (a braced small shield is not given: no better, the lab's).
SHIELD_BLOCK = np.array([0, 15, 30, 60], dtype=np.int16)
SHIELD_BLOCK_BRACED = np.array([0, 15, 60, 90], dtype=np.int16)


def shield_block_chance(size, braced):
    """Percent chance that a carried shield blocks an ordinary missile hit."""
    return np.where(braced, SHIELD_BLOCK_BRACED[size], SHIELD_BLOCK[size])


def missile_blockable(level, impales):
    """Only ordinary hits are blocked: impales (a special with a thrusting missile) and
    criticals pass (seed 004); a special of a non-thrusting missile is an ordinary hit."""
    level = np.asarray(level)
    return (level == SUCCESS) | ((level == SPECIAL) & ~np.asarray(impales))


# --- DEX ranks (seed 004) ---------------------------------------------------------------------


def drawn_rank(rank, drawing, draw_ranks, out=None):
    """Seed 004: drawing a weapon costs ``draw_ranks`` DEX ranks (five): the rank of a
    fighter ``drawing`` this round. With ``out`` (the kernel's int16 ranks, ``rank`` itself),
    the same numbers written in place, only where ``drawing`` holds."""
    if out is not None:
        return np.subtract(rank, draw_ranks, out=out, where=drawing)
    return np.asarray(rank) - np.asarray(drawing) * draw_ranks


def rank_key(rank, acting, out=None):
    """The key a fighter acts by (four per DEX rank; 0 for one that does not act): keys a
    step of 2 apart leave room for ``strikes_after`` below any foe's key. With ``out``, the
    same numbers written into it (in ``rank``'s dtype)."""
    if out is not None:
        np.multiply(rank, 4, out=out)
        out *= acting
        return out
    return np.asarray(rank) * 4 * np.asarray(acting)


def strikes_after(key, foe_key):
    """The key of one who strikes after its foe (seed 004: a longer weapon "is more likely
    to land the first blow", so one closing on it strikes after it; "but it's also clumsier
    to use up close", so there the longer weapon strikes after): just below the foe's key,
    whatever the round's coin for equal keys."""
    return np.minimum(key, np.asarray(foe_key) - 2)


# --- manoeuvres (seed 004) ---------------------------------------------------------------------


def holds_off(holder_length, foe_length, ready, inside):
    """Seed 004: a longer weapon may "hold off a shorter-armed opponent entirely". The lab
    (``rules.hold_off: until_missed``): a fighter ``ready`` to keep a foe at its weapon's
    point (on its feet, neither stunned, held, surprised nor forfeiting its attack, its
    melee weapon deployable and facing that foe) holds off that foe while its weapon is the
    longer (``holder_length`` > ``foe_length``, length classes) and the foe has not got
    ``inside`` it; a blow of the holder's that fails lets the foe in."""
    return np.asarray(ready) & (np.asarray(holder_length) > foe_length) & ~np.asarray(inside)


def lets_inside(holder_length, foe_length, landed, foe_standing, foe_facing):
    """Seed 004: a longer weapon may "hold off a shorter-armed opponent entirely"; the lab's
    reading (``rules.hold_off: until_missed``) ends it when a blow *of the longer weapon*
    fails: the foe (on its feet, fighting the holder) gets inside. The lengths are the two
    weapons' as the blow is struck (length classes), not after it: a blow struck while the
    weapons were of one length lets nobody inside, even if it breaks or knocks away the
    foe's weapon (a spear broken parrying a great axe leaves its owner outside the axe, to
    be held off once it draws a dagger); a failed blow of the longer weapon that breaks or
    drops it lets the foe in all the same (a fumble is a failed blow)."""
    return ((np.asarray(holder_length) > foe_length) & ~np.asarray(landed)
            & np.asarray(foe_standing) & np.asarray(foe_facing))


REARM_CONTESTED, REARM_NEVER, REARM_FREE = 0, 1, 2


def rearm_chance(dex, presser_dex, pressed, mode=REARM_NEVER, **table):
    """Percent chance that a fighter picking its weapon up off the ground (its action)
    gets it back. Seed 004's disarm "keeps them from drawing a second one" by force or
    threat; while a foe ``pressed`` it (``rules.rearm_when_pressed``): ``never`` (default);
    ``contested``, its DEX against the presser's on the Resistance Table (``table``: its
    numbers); ``free``, always. Unpressed, it always gets it."""
    contested = resistance_chance(dex, presser_dex, **table)
    when_pressed = contested if mode == REARM_CONTESTED else (0 if mode == REARM_NEVER else 100)
    return np.where(pressed, when_pressed, 100)


def knockback_yards(str_, siz):
    """Seed 004: pushed one yard per point of STR over the target's SIZ, at least one."""
    return np.maximum(1, np.asarray(str_) - siz)


def knockout_rounds(d10):
    """Seed 004: a successful knockout leaves the target unconscious for at least 1D10+10
    rounds (``d10`` is the die rolled); the lab wakes it after exactly that many."""
    return np.asarray(d10) + 10


def fatigue_fumble_multiplier(rounds, con):
    """Seed 004, fatigue: fumbles doubled after CON x 3 rounds, quadrupled after CON x 4."""
    rounds, con = np.asarray(rounds), np.asarray(con)
    return np.where(rounds > 4 * con, 4, np.where(rounds > 3 * con, 2, 1))


def exhausted(rounds, con):
    """Seed 004: complete exhaustion after CON x 10 uninterrupted rounds."""
    return np.asarray(rounds) > 10 * np.asarray(con)


def rider_skill(skill, ride):
    """Seed 004: a rider's fighting skill never exceeds Ride."""
    return np.minimum(skill, ride)


def rider_dodge(dodge):
    """Seed 004: a rider's Dodge drops to 50 unless already lower."""
    return np.minimum(dodge, 50)


def poison_damage(pot, overcome):
    """Seed 004: hit points lost to a poison: its POT if it overcomes CON, half (rounded
    down) if resisted. ``balance hazard poison`` and poisoned blows in fights both use it."""
    return np.where(overcome, pot, np.asarray(pot) // 2)


def poison_chance(pot, con, **table):
    """Percent chance that a poison of ``pot`` overcomes ``con`` (seed 004: "the poison is the
    active side"); ``table``: the Resistance Table's numbers (``balance.dice.resistance``)."""
    return resistance_chance(pot, con, **table)


def fall_dice(yards):
    """Seed 004: 1D6 per three yards fallen, the first three yards (or any part) one die."""
    yards = np.asarray(yards)
    return np.where(yards > 0, np.maximum(1, np.floor(yards / 3).astype(np.int64)), 0)


def drowning_multiplier(round_index, breath=True):
    """Seed 004: the CON multiplier of the breath roll in the ``round_index``-th round (0 is
    the first) of being unable to breathe: x5 falling by one a round to x1 (x3 without a
    chance to grab a breath first)."""
    start = np.where(breath, 5, 3)
    return np.maximum(1, start - np.asarray(round_index))
