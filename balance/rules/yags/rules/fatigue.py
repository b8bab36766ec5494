"""The fatigue track (seed 000, "Fatigue", "Recovering from Fatigue"), as small pure functions.

Fatigue and exhaustion share one track: together they count as that many levels, and the
track's length comes from health (the lab: a fighter can take ``health`` levels, one more
exhausts it; ``compile.EXHAUSTED_OVER_HEALTH``). Fatigue goes with rest, five minutes per
level on the track for each level lost; exhaustion only with sleep.
"""

from __future__ import annotations

import math

from balance.rules.yags.compile import EXHAUSTED_OVER_HEALTH

REST_MINUTES_PER_LEVEL = 5   # seed 000: five minutes per level on the track, per level lost
SLEEP_HOURS = 4              # seed 000: four hours of good sleep


def exhausted(fatigue: int, exhaustion: int, health: int) -> bool:
    """Is a fighter with these levels exhausted (and must rest at once)?"""
    return fatigue + exhaustion >= health + EXHAUSTED_OVER_HEALTH


def gain(fatigue: int, exhaustion: int, health: int, *, fatigue_levels: int = 0,
         exhaustion_levels: int = 0) -> tuple[int, int]:
    """The track after gaining levels; once exhausted, each further level turns one level of
    fatigue into exhaustion (seed 000) instead of lengthening the track."""
    for kind in [0] * fatigue_levels + [1] * exhaustion_levels:
        if exhausted(fatigue, exhaustion, health):
            if fatigue > 0:
                fatigue, exhaustion = fatigue - 1, exhaustion + 1
        elif kind == 0:
            fatigue += 1
        else:
            exhaustion += 1
    return fatigue, exhaustion


def rest_minutes(fatigue: int, exhaustion: int) -> int:
    """Minutes of rest that clear all fatigue: losing a level takes five minutes per level
    on the track at the time (exhaustion counts, and stays)."""
    return sum(REST_MINUTES_PER_LEVEL * (exhaustion + level) for level in range(fatigue, 0, -1))


def after_rest(fatigue: int, exhaustion: int, minutes: float) -> int:
    """Fatigue left after ``minutes`` of rest."""
    while fatigue > 0 and minutes >= REST_MINUTES_PER_LEVEL * (fatigue + exhaustion):
        minutes -= REST_MINUTES_PER_LEVEL * (fatigue + exhaustion)
        fatigue -= 1
    return fatigue


def after_sleep(exhaustion: int, health: int, hours: float) -> tuple[int, int]:
    """(fatigue, exhaustion) after sleep: each four hours clear all fatigue and one level of
    exhaustion per two points of health, rounded up (seed 000: health 3 or 4 clears 2)."""
    nights = int(hours // SLEEP_HOURS)
    if nights == 0:
        raise ValueError("recovering by sleep takes at least four hours")
    return 0, max(0, exhaustion - nights * math.ceil(health / 2))
