"""Yags damage tracks and fixed tables (seed 000, "Basic Combat" and "Melee Combat"), as
small pure functions.

Every function works on Python ints and on numpy integer arrays alike, so the scalar
reference and the vectorised kernel share the same table code.
"""

from __future__ import annotations

import numpy as np

# Damage types, as small ints for arrays, from the most to the least effective. Seed 000:
# size and light weapons shift the type a category down ("wounds become mixed, mixed become
# stuns and stuns become ineffective"); below ineffective a blow does nothing.
WOUNDS, MIXED, STUNS, INEFFECTIVE, NO_DAMAGE = 0, 1, 2, 3, 4
DAMAGE_TYPES = {"wounds": WOUNDS, "mixed": MIXED, "stuns": STUNS}

# Stances; speed classes act in this order within a round (fast, normal, slow). PRONE and
# GRAPPLED are forced on a fighter and replace its declared stance while they last; FOCUSED
# is the stance of a fighter re-rolling its initiative (no defences).
NORMAL, AGGRESSIVE, DEFENSIVE, PRONE, GRAPPLED, FOCUSED = 0, 1, 2, 3, 4, 5
STANCES = {"normal": NORMAL, "aggressive": AGGRESSIVE, "defensive": DEFENSIVE}
FAST, NORMAL_SPEED, SLOW = 0, 1, 2
# Seed 000, Stance: aggressive attacks are fast, +5 attack and damage, -10 defence;
# defensive is slow, +5 defence, -10 attack, one more defence allowed; prone is slow, -10
# attack and defence; grappled and focused change no roll.
STANCE_SPEED = {NORMAL: NORMAL_SPEED, AGGRESSIVE: FAST, DEFENSIVE: SLOW, PRONE: SLOW,
                GRAPPLED: NORMAL_SPEED, FOCUSED: NORMAL_SPEED}
STANCE_ATTACK = {NORMAL: 0, AGGRESSIVE: 5, DEFENSIVE: -10, PRONE: -10, GRAPPLED: 0, FOCUSED: 0}
STANCE_DEFENCE = {NORMAL: 0, AGGRESSIVE: -10, DEFENSIVE: 5, PRONE: -10, GRAPPLED: 0, FOCUSED: 0}
STANCE_DAMAGE = {NORMAL: 0, AGGRESSIVE: 5, DEFENSIVE: 0, PRONE: 0, GRAPPLED: 0, FOCUSED: 0}
STANCE_EXTRA_DEFENCES = {NORMAL: 0, AGGRESSIVE: 0, DEFENSIVE: 1, PRONE: 0, GRAPPLED: 0,
                         FOCUSED: 0}

# Wound and stun levels: 0 ok, 1 minor, 2 light, 3 medium, 4 heavy, 5 critical, 6 fatal/beaten.
CRITICAL, FATAL = 5, 6
LEVEL_NAMES = ("okay", "minor", "light", "medium", "heavy", "critical", "fatal")
TRACK_PENALTY = np.array([0, 0, -5, -10, -15, -25, -40], dtype=np.int16)

# Seed 000, Declaring Defenses: penalty to all attacks and defences by defences declared.
# 0 and 1 defences cost nothing; more than 6 is never allowed by the models.
DEFENCE_PENALTY = np.array([0, 0, -10, -20, -40, -60, -80, -100], dtype=np.int16)

HEALTH_CHECK_BASE = 20   # seed 000: fatal wounds and beaten stuns check at 20 + 5 per extra
EXTRA_LEVEL_STEP = 5
WOUND_STEP = 5           # one wound plus one per 5 points of damage over the soak roll

# Blows, by what armour cares about (seed 000, Advanced Armour): impaling (mail and soft
# armour halved), heavy (light suits halved), stun-like (stun or mixed: soft armour doubled).
IMPALING, HEAVY, STUNLIKE = 1, 2, 4
N_KINDS = 8

# Strikes a fighter's action draws from one foe (seed 000, Free Strikes).
NO_STRIKE, FREE_STRIKE, AUTOMATIC_STRIKE = 0, 1, 2

# Fumble results (seed 000, Fumbles in Combat).
FATIGUE, DISARM, BREAK, FAIL_DEFENCE = 0, 1, 2, 3
FUMBLE_RESULTS = {"fatigue": FATIGUE, "disarm": DISARM, "break": BREAK,
                  "fail_defence": FAIL_DEFENCE}

PRONE_PENALTY = -10       # seed 000, Prone: attack and defence rolls at -10
BROKEN_LIMB_PENALTY = -40  # seed 000, Break limb: -40 to all attempts to use it
DRAW_STEP = 5             # seed 000, Drawing a weapon: -5 per reach that round
RETREAT_STEP = 3          # seed 000, Retreat: +3 defence per metre
OVERWHELM_STEP = 5        # seed 000, Overwhelming attacks: -5 per level of success


PENALTY_OF_LEVEL = tuple(int(p) for p in TRACK_PENALTY)


def track_penalty(level):
    """Penalty of a wound or stun level (levels above fatal count as fatal)."""
    if isinstance(level, int):   # the scalar reference: plain Python is far faster
        return PENALTY_OF_LEVEL[min(level, FATAL)]
    return TRACK_PENALTY[np.minimum(level, FATAL)]


# Fatigue levels the kernel's penalty table covers: every value of its int16 fatigue array,
# so the table is indexed without clipping.
MAX_FATIGUE = np.iinfo(np.int16).max


def fatigue_penalty(level, per_level):
    """Penalty of a fatigue level (seed 000: fatigue "is measured in a similar way to
    wounds"): the wound track's, the first level free (``per_level`` None, the default
    ``rules.fatigue_penalty: track``), or ``per_level`` for every level."""
    if per_level is None:
        return track_penalty(level)
    return -per_level * level


def fatigue_penalties(per_level) -> np.ndarray:
    """(MAX_FATIGUE + 1,) int16: ``fatigue_penalty`` of every level, for the kernel."""
    levels = np.arange(MAX_FATIGUE + 1)
    if per_level is None:
        return TRACK_PENALTY[np.minimum(levels, FATAL)]
    return np.maximum(-per_level * levels, np.iinfo(np.int16).min // 2).astype(np.int16)


def levels_caused(damage, soak):
    """Levels of damage from a damage roll against a soak roll: 0 if the soak roll is higher."""
    return (damage >= soak) * (1 + (damage - soak) // WOUND_STEP)


def split_mixed(levels):
    """Mixed damage: half stuns, half wounds, odd levels on stuns. Returns (stuns, wounds)."""
    wounds = levels // 2
    return levels - wounds, wounds


def apply_stuns(current, new):
    """Stuns do not add: more than you have replaces; at least half of it adds one (seed 000)."""
    if isinstance(current, int) and isinstance(new, int):
        return new if new > current else current + int(0 < new and 2 * new >= current)
    replace = new > current
    add_one = ~replace & (new > 0) & (2 * new >= current)
    return np.where(replace, new, current + add_one)


def health_target(total):
    """Health check target on reaching fatal wounds or beaten stuns: 20 + 5 per extra level."""
    return HEALTH_CHECK_BASE + EXTRA_LEVEL_STEP * (total - FATAL)


def max_defences(agility, perception):
    """Average of agility and perception, rounded up (seed 000, Declaring Defenses)."""
    return (agility + perception + 1) // 2


MAX_DEFENCES = 6   # lab's assumption: never more than the seed's multiple-defence table gives


def defences_allowed(base, defensive):
    """Most defences a fighter may declare this round: ``base`` (the average of agility and
    perception, ``max_defences``), one more in the defensive stance (seed 000, Defensive:
    "Character also adds one to the maximum number of defences they can make that round"; a
    retreat is made defensively), and never more than 6 (the lab: the seed's table ends
    there). Python ints or numpy arrays alike."""
    total = base + STANCE_EXTRA_DEFENCES[DEFENSIVE] * defensive
    if isinstance(total, int):
        return min(total, MAX_DEFENCES)
    return np.minimum(total, MAX_DEFENCES)


def success_level(margin, step):
    """Levels of success of a roll that made its target by ``margin`` (>= 0): 1 a plain
    success, 2 good, 3 excellent, 4 superb, and one more per further ``step`` (the lab's
    reading of the seed's "each extra level of success")."""
    return 1 + margin // step


def size_shift(attacker_size2, target_size2):
    """Damage categories a blow drops for the target being larger (seed 000, Size effects on
    Damage): 1 at 10 or more Size points larger, 2 at 15 or more; negative when the attacker is
    the larger. Sizes are doubled so that a great weapon's +50% stays an integer."""
    d = target_size2 - attacker_size2
    if isinstance(d, int):
        return (d >= 20) + (d >= 30) - (d <= -20) - (d <= -30)
    return (d >= 20) * 1 + (d >= 30) * 1 - (d <= -20) * 1 - (d <= -30) * 1


def shift_type(base, shift):
    """A damage type moved ``shift`` categories less effective (negative: more), never above
    wounds and never below no damage."""
    if isinstance(base, int) and isinstance(shift, int):
        return min(max(base + shift, WOUNDS), NO_DAMAGE)
    return np.clip(base + shift, WOUNDS, NO_DAMAGE)


def merge_strikes(free_strikes, ignored):
    """Seed 000, Free Strikes: several free strikes from one foe merge into one automatic
    strike; ignoring one (a longer weapon) turns an automatic strike into a free strike and a
    free strike into none."""
    if isinstance(free_strikes, int) and isinstance(ignored, int):
        return max(min(free_strikes, AUTOMATIC_STRIKE) - ignored, NO_STRIKE)
    merged = np.minimum(free_strikes, AUTOMATIC_STRIKE)
    return np.maximum(merged - ignored, NO_STRIKE)


def stance_mods(stance: int, chain: bool) -> tuple[int, int, int]:
    """Attack, defence and damage modifiers of a stance; a chain weapon makes the aggressive
    and defensive bonuses +10 instead of +5 (seed 000, Chain weapon); penalties stay."""
    a, d, g = STANCE_ATTACK[stance], STANCE_DEFENCE[stance], STANCE_DAMAGE[stance]
    if chain and stance in (AGGRESSIVE, DEFENSIVE):
        a, d, g = (2 * x if x > 0 else x for x in (a, d, g))
    return a, d, g
