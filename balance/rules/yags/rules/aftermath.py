"""After the battle (seed 000, "Healing and First aid"): who is still alive N hours later.

Vectorised over trials like the fight: arrays are (n_fighters, n_trials), fighters in
scenario order; loops run over minutes, days and weeks, never over trials. The lab's
reading of the seed, and every assumption, is in docs/rules/yags.md ("After the battle").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.rules.yags.rules.tracks import CRITICAL, FATAL, TRACK_PENALTY, success_level

CHECK = 20              # untended wounds check at 20 (seed)
FIRST_AID_BASE = 10     # first aid: intelligence x first aid against 10 + half the penalties
HEALING_BASE = 10       # natural healing: weekly health roll at 10 + half the penalties
STUN_HEALING_BASE = 0   # stuns: each morning a health check at 0 + half the penalties
MINUTES = 60
DAY, WEEK = 24, 24 * 7  # hours


@dataclass(frozen=True)
class Healer:
    """Who tends a side's wounded: intelligence x first aid for first aid, and the first
    aid skill as the bonus to weekly healing rolls (seed: "a bonus equal to the healer's
    first aid score")."""

    intelligence: int
    first_aid: int


def first_aid_target(wounds, stuns):
    """10 + the wound and stun penalties halved, rounded up (seed: moderate wounds and light
    stuns give 10 + (10 + 5) / 2 = 18; beaten and fatally wounded give 50)."""
    return FIRST_AID_BASE + (1 - TRACK_PENALTY[np.minimum(wounds, FATAL)]
                             - TRACK_PENALTY[np.minimum(stuns, FATAL)]) // 2


def _d20(rng: np.random.Generator, shape) -> np.ndarray:
    return rng.integers(1, 21, size=shape, dtype=np.int16)


def after_battle(wounds: np.ndarray, stuns: np.ndarray, alive: np.ndarray,
                 side_of: np.ndarray, health: np.ndarray, healers: dict[int, Healer],
                 hours: float, rng: np.random.Generator,
                 success_step: int = 10) -> np.ndarray:
    """(c, n) bool: who is alive ``hours`` after the fight (``healing``'s survivors)."""
    return healing(wounds, stuns, alive, side_of, health, healers, hours, rng,
                   success_step)[2]


def healing(wounds: np.ndarray, stuns: np.ndarray, alive: np.ndarray,
            side_of: np.ndarray, health: np.ndarray, healers: dict[int, Healer],
            hours: float, rng: np.random.Generator,
            success_step: int = 10) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(wounds, stuns, alive), each (c, n), ``hours`` after the fight.

    ``wounds``/``stuns`` are the tracks when the fight ended, ``alive`` who left it alive,
    ``health`` each fighter's health attribute (c,), ``healers`` the healer tending each
    side's wounded (by side index; a side without one gets no first aid).

    Timeline (the lab's reading): every minute of the first day the side's healer tries first
    aid on its most badly wounded untreated fighter (success stabilises, a good success also
    heals a level; failures are retried next minute); fatally wounded fighters not yet
    stabilised check at 20 every minute (unconscious: "every minute if inactive") or die.
    After an hour, other wounds not yet treated check once at 20: failure worsens them a
    level and they stabilise; a fumble infects them (a level worse every day until death).
    Every day an untreated critical wound checks at 20: the first failure drops the fighter
    into a fatal coma, the next kills; each morning stuns heal (health at 0 + half the
    penalties, a stun healed per level of success). Every week each wounded survivor rolls
    health at 10 + half the penalties it has then (plus the healer's first aid): success
    heals a level, a fumble worsens one (death if already fatal).
    """
    w = wounds.astype(np.int16)
    s = stuns.astype(np.int16)
    dead = ~alive
    stable = dead | (w == 0)
    infected = np.zeros(w.shape, dtype=bool)
    coma = np.zeros(w.shape, dtype=bool)
    roll_base = (4 * health).astype(np.int16)[:, None]
    minutes = int(min(hours, DAY) * MINUTES)
    for minute in range(1, minutes + 1):
        _first_aid(w, s, stable, dead, infected, side_of, healers, rng, success_step)
        dying = ~dead & ~stable & (w >= FATAL) & ~coma
        if dying.any():
            d = _d20(rng, w.shape)
            dead |= dying & ((d == 1) | (roll_base + d < CHECK))
        if minute == MINUTES:  # an hour without medical attention: other wounds check once
            _untreated_wounds(w, stable, dead, infected, roll_base, rng)
        if minute >= MINUTES:
            waiting = ~dead & ~stable & ~infected & ~coma
            tended = np.isin(side_of, list(healers))[:, None]
            if not (waiting & ((w >= FATAL) | tended)).any():
                break  # nothing more can happen minute by minute
    for day in range(1, int(hours // DAY) + 1):
        _daily(w, stable, dead, infected, coma, roll_base, rng)
        _night(w, s, dead, roll_base, rng, success_step)
        if day % 7 == 0:
            _weekly(w, s, dead, side_of, healers, roll_base, rng)
    return w, s, ~dead


def _first_aid(w, s, stable, dead, infected, side_of, healers, rng, success_step) -> None:
    """Each side's healer treats its worst untreated patient this minute."""
    n = w.shape[1]
    for side, healer in healers.items():
        mine = (side_of == side)[:, None]
        waiting = mine & ~dead & ~stable & ~infected & (w > 0)
        if not waiting.any():
            continue
        severity = np.where(waiting, w, -1)
        patient = severity.argmax(axis=0)
        has = severity.max(axis=0) >= 0
        cols = np.arange(n)
        roll = healer.intelligence * healer.first_aid + _d20(rng, n)
        margin = roll - first_aid_target(w[patient, cols], s[patient, cols])
        ok = has & (margin >= 0)
        stable[patient[ok], cols[ok]] = True
        good = ok & (margin >= success_step)
        w[patient[good], cols[good]] -= 1


def _untreated_wounds(w, stable, dead, infected, roll_base, rng) -> None:
    """Seed: wounds short of critical not tended within the hour check at 20 once."""
    due = ~dead & ~stable & (w > 0) & (w < CRITICAL)
    if not due.any():
        return
    d = _d20(rng, w.shape)
    fumble = due & (d == 1)
    fail = due & ~fumble & (roll_base + d < CHECK)
    w += fail | fumble
    infected |= fumble
    stable |= due & ~fumble


def _daily(w, stable, dead, infected, coma, roll_base, rng) -> None:
    """Daily: critical wounds check (first failure: fatal coma, second: death);
    infected wounds worsen a level (beyond fatal: death)."""
    due = ~dead & ~stable & ((w == CRITICAL) | coma)
    if due.any():
        d = _d20(rng, w.shape)
        fail = due & ((d == 1) | (roll_base + d < CHECK))
        dead |= fail & coma
        newly = fail & ~coma
        coma |= newly
        w[newly] = FATAL
    sick = ~dead & infected
    w += sick
    dead |= sick & (w > FATAL)


def half_penalties(w, s):
    """The wound and stun penalties halved, rounded up (seed 000: "modified by half the total
    wound and stun penalties currently suffered"): the addition to every healing target."""
    return (1 - TRACK_PENALTY[np.minimum(w, FATAL)] - TRACK_PENALTY[np.minimum(s, FATAL)]) // 2


def stuns_healed(health4, die, w, s, step):
    """Seed 000, Recovering from stuns: "Each morning, a health check is made at a target of
    0, modified by half the total wound and stun penalties currently suffered. Each level of
    success causes one level of stun to be healed." Health x 4 + d20 (a natural 1 fails),
    levels of success by ``step`` (tracks.success_level). Returns the stuns healed (at most
    the stuns there are)."""
    margin = health4 + die - (STUN_HEALING_BASE + half_penalties(w, s))
    levels = (margin >= 0) * (die != 1) * success_level(np.maximum(margin, 0), step)
    return np.minimum(levels, s)


def _night(w, s, dead, roll_base, rng, step) -> None:
    """A night's rest: each living fighter with stuns rolls to heal them (``stuns_healed``).
    Issue 25: stuns used to stay at their end-of-fight level for weeks, and their penalty
    with them in every weekly wound roll."""
    due = ~dead & (s > 0)
    if not due.any():
        return
    d = _d20(rng, w.shape)
    s -= due * stuns_healed(roll_base, d, w, s, step).astype(s.dtype)


def _weekly(w, s, dead, side_of, healers, roll_base, rng) -> None:
    """Weekly natural healing roll; a fumble worsens the wound (death from fatal)."""
    due = ~dead & (w > 0)
    if not due.any():
        return
    bonus = np.array([healers[k].first_aid if k in healers else 0 for k in side_of],
                     dtype=np.int16)[:, None]
    d = _d20(rng, w.shape)
    target = HEALING_BASE + half_penalties(w, s)
    heal = due & (d != 1) & (roll_base + bonus + d >= target)
    worse = due & (d == 1)
    dead |= worse & (w >= FATAL)
    w += worse.astype(np.int16) - heal
