"""Yags damage tracks and fixed tables (seed 000, "Basic Combat"), as small pure functions.

Every function works on Python ints and on numpy integer arrays alike, so the scalar
reference and the vectorised kernel share the same table code.
"""

from __future__ import annotations

import numpy as np

# Damage types, as small ints for arrays.
WOUNDS, MIXED, STUNS = 0, 1, 2
DAMAGE_TYPES = {"wounds": WOUNDS, "mixed": MIXED, "stuns": STUNS}

# Stances; speed classes act in this order within a round (fast, normal, slow).
NORMAL, AGGRESSIVE, DEFENSIVE = 0, 1, 2
STANCES = {"normal": NORMAL, "aggressive": AGGRESSIVE, "defensive": DEFENSIVE}
FAST, NORMAL_SPEED, SLOW = 0, 1, 2
# Seed 000, Stance: aggressive attacks are fast, +5 attack and damage, -10 defence;
# defensive is slow, +5 defence, -10 attack, one more defence allowed.
STANCE_SPEED = {NORMAL: NORMAL_SPEED, AGGRESSIVE: FAST, DEFENSIVE: SLOW}
STANCE_ATTACK = {NORMAL: 0, AGGRESSIVE: 5, DEFENSIVE: -10}
STANCE_DEFENCE = {NORMAL: 0, AGGRESSIVE: -10, DEFENSIVE: 5}
STANCE_DAMAGE = {NORMAL: 0, AGGRESSIVE: 5, DEFENSIVE: 0}
STANCE_EXTRA_DEFENCES = {NORMAL: 0, AGGRESSIVE: 0, DEFENSIVE: 1}

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


def track_penalty(level):
    """Penalty of a wound or stun level (levels above fatal count as fatal)."""
    return TRACK_PENALTY[np.minimum(level, FATAL)]


def levels_caused(damage, soak):
    """Levels of damage from a damage roll against a soak roll: 0 if the soak roll is higher."""
    return (damage >= soak) * (1 + (damage - soak) // WOUND_STEP)


def split_mixed(levels):
    """Mixed damage: half stuns, half wounds, odd levels on stuns. Returns (stuns, wounds)."""
    wounds = levels // 2
    return levels - wounds, wounds


def apply_stuns(current, new):
    """Stuns do not add: more than you have replaces; at least half of it adds one (seed 000)."""
    replace = new > current
    add_one = ~replace & (new > 0) & (2 * new >= current)
    return np.where(replace, new, current + add_one)


def health_target(total):
    """Health check target on reaching fatal wounds or beaten stuns: 20 + 5 per extra level."""
    return HEALTH_CHECK_BASE + EXTRA_LEVEL_STEP * (total - FATAL)


def max_defences(agility, perception):
    """Average of agility and perception, rounded up (seed 000, Declaring Defenses)."""
    return (agility + perception + 1) // 2
