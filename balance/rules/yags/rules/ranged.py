"""Numbers and small formulas of Yags fights at a distance (seed 000, Movement and Missile
Combat; docs/rules/yags-missiles.md), shared by the scalar reference and the kernel the way
``tracks`` is: each works on Python numbers and numpy arrays alike.
"""

from __future__ import annotations

import numpy as np

from balance.rules.yags.compile import CAREFUL, SNAP

# The lab's melee distance: the seed's melee threat band ("within 3m").
CONTACT = 3.0
RUN_FACTOR = 2           # lab: running (no attack) covers up to twice Move
METRE_OVER_PLACES = 1000.0   # ``nearest`` at a distance: a metre outweighs any places
MAX_BANDS = 4            # lab: no shot beyond four range bands (-15 damage there)
FALLOFF_STEP = 5         # lab: -5 damage per range band begun beyond the first
DRAW_BASE, DRAW_PER_REACH = 5, 5   # seed 000, Drawing a weapon: -5, and -5 per reach
# Lab's distance difficulty: 10 within 5 m, +5 per doubling beyond (15 to 10 m, 20 to 20 m).
DISTANCE_BASE, DISTANCE_STEP, FIRST_BAND = 10, 5, 5.0
_DOUBLINGS = FIRST_BAND * 2.0 ** np.arange(40)

# Threat bands (seed 000, Reach and Close Combat), and what a weapon's reach makes of them.
CLOSE_BAND, MELEE_BAND, MOVE_BAND, NO_BAND = 0, 1, 2, 9
UNAFFECTED, IMPAIRED, CRIPPLED = 0, 1, 2

# What a fighter at a distance does (beside the melee actions of ``tactics``).
SHOOT, LOAD, RUN, WAIT = 7, 8, 9, 10
# A closer's approach this round: none (already in reach), half Move (attack normally), full
# Move (a slow attack).
NO_APPROACH, HALF_MOVE, FULL_MOVE = 0, 1, 2


def distance_difficulty(metres):
    """Difficulty of a shot at an effective distance: 10 within 5 m, +5 per doubling."""
    doublings = np.searchsorted(_DOUBLINGS, metres, side="left")
    return DISTANCE_BASE + DISTANCE_STEP * doublings


def distance_factor(shot, snapped=False):
    """Effective distance over the real gap: snap shots double it, careful shots halve it;
    ``snapped`` (drawing, an unloaded Lo-0 weapon) forces a snap shot."""
    snap = (np.asarray(shot) == SNAP) | np.asarray(snapped)
    return np.where(snap, 2.0, np.where(np.asarray(shot) == CAREFUL, 0.5, 1.0))


def falloff(gap, band):
    """Damage lost to range: -5 per range band begun beyond the first (the real gap)."""
    return FALLOFF_STEP * np.maximum(np.ceil(np.asarray(gap, dtype=np.float64) / band) - 1, 0)


def in_range(gap, band):
    """Can a weapon with range band ``band`` shoot that far at all (four bands)."""
    return np.asarray(gap) <= MAX_BANDS * np.asarray(band, dtype=np.float64)


def threat(reach, band):
    """Unaffected below the band, impaired at it, crippled above it."""
    reach = np.asarray(reach)
    return np.where(reach < band, UNAFFECTED, np.where(reach == band, IMPAIRED, CRIPPLED))


def approach_of(need, move):
    """How a closer ``need`` metres short of melee distance comes in: already there, half
    Move (attacks normally), full Move (a slow attack), or it runs (no attack: RUN)."""
    need = np.asarray(need, dtype=np.float64)
    half = np.asarray(move, dtype=np.float64) / 2
    return np.where(need <= 0, NO_APPROACH,
                    np.where(need <= half, HALF_MOVE,
                             np.where(need <= np.asarray(move), FULL_MOVE, RUN)))


BAND_MARGIN = 0.1        # a decimetre: the kernel's resolution of positions


def out_of_band(gap, reach, foe_move, half_move, band):
    """Metres a shooter on ``auto`` gives ground before its shot, to shoot from outside the
    threat band that would impair or cripple its weapon (seed 000, Reach and Close Combat:
    the Move band is "within the target's combat move"; Movement: half Move "without
    penalty"): just past the foe's combat move (half its Move), if half its own Move gets it
    there without leaving its range (four bands); else it stays (0)."""
    gap = np.asarray(gap, dtype=np.float64)
    need = np.asarray(foe_move, dtype=np.float64) / 2 + BAND_MARGIN - gap
    room = MAX_BANDS * np.asarray(band, dtype=np.float64) - gap
    threatened = (np.asarray(reach) >= MOVE_BAND) & (gap > CONTACT) & (need > 0)
    ok = threatened & (need <= np.asarray(half_move)) & (need <= room)
    return np.where(ok, need, 0.0)


def keep_back(gap, foe_move, half_move, band):
    """Metres a shooter keeping its distance steps back: out of the reach of a foe who could
    close and strike this round (its Move + 3 m), at most half its own Move, and never out
    of its own range (four bands)."""
    gap = np.asarray(gap, dtype=np.float64)
    want = np.asarray(foe_move, dtype=np.float64) + CONTACT - gap
    room = MAX_BANDS * np.asarray(band, dtype=np.float64) - gap
    return np.clip(np.minimum(want, room), 0.0, half_move)
