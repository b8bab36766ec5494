"""The basic rules' attack, table-driven (seed 000, "Making an attack", "Fumbles in Combat",
"Inflicting Damage"): the kernel's path in fights where no detailed rule can act.

A basic attack depends on a few small integers only: the attack and defence dice, the damage
and soak dice, the two fighters, and the target's wound and stun levels. So the dice come in
pairs (one draw of 0..399 is two d20s: ``first = u // 20 + 1``, ``second = u % 20 + 1``),
and tables built once per fight by the rule functions themselves (``tracks.levels_caused``,
``blows.tracks_after``) turn them into the outcome: the attack roll less the parry roll
(``delta``), the blow's kind and levels with knockback (``damage``), the tracks after it and
the health checks it calls for (``tracks``). Fumbles, attacks nobody parries and health
checks, a few percent of attacks, take a slower path on those trials only. The detailed
rules' path is ``strikes.attack`` and ``blows.blow``; both read the same rule functions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.pick import Pick
from balance.engine.streams import integers_at
from balance.rules.yags.tactics import CRUSHING_KNOCKBACK, KNOCKDOWN_STRENGTH
from balance.rules.yags.tracks import FATAL, STUNS, TRACK_PENALTY, levels_caused
from balance.rules.yags.vector import gear
from balance.rules.yags.vector.blows import health_checks, tracks_after
from balance.rules.yags.vector.turns import trials_of

SIDES = 20
PAIRS = SIDES * SIDES        # one draw of 0..399: two d20s
LEVELS = FATAL + 1           # track levels 0..6
# ``tracks`` codes: the tracks held at 6, the checks due, the uncapped tracks the checks'
# targets grow with, and the track penalty the blow adds (<= 0, stored negated).
WOUNDS_AT, STUNS_AT, CHECK_WOUNDS, CHECK_STUNS = 0, 3, 6, 7
RAW_WOUNDS_AT, RAW_STUNS_AT, PENALTY_AT = 8, 16, 24
CHECKS = (1 << CHECK_WOUNDS) | (1 << CHECK_STUNS)
NEVER = -(2 ** 14) + 1       # ``delta`` of a fumbled attack: odd, below every threshold


@dataclass(frozen=True)
class Tables:
    """A basic fight's outcome tables (see the module docstring).

    ``skills_differ``: some fighter is more skilled than another (then a fumbled defence may
    fail instead of tiring). ``delta`` (400,): by the pair, twice the attack die less the
    defence die, plus one where either is a 1 (a fumble: numpy's int16 remainder is slow, a
    lookup is cheaper than ``u % 20``), ``NEVER`` where the attack die is a 1. ``damage``
    (n * n * 400,): ``kind * n_levels + levels`` of a blow of fighter i on fighter j by the
    damage and soak pair, at ``(i * n + j) * 400 + pair`` (0: the blow does nothing).
    ``tracks`` (49 * n_codes,): the code (bit fields, ``*_AT``) of a body at ``wounds * 7 +
    stuns`` taking a blow's code.
    """

    n: int
    skills_differ: bool
    delta: np.ndarray
    damage: np.ndarray
    n_codes: int
    tracks: np.ndarray


def tables_of(s) -> Tables:
    """The basic fight's tables from its per-fighter numbers (``Static``)."""
    n = s.attack.size
    first, second = np.divmod(np.arange(PAIRS), SIDES)
    fumbled = (first == 0) | (second == 0)
    # A fumbled attack never hits: below any threshold (still odd, so still a fumble).
    delta = np.where(first == 0, NEVER, 2 * (first - second) + fumbled).astype(np.int16)
    # Damage roll against soak roll; a blow that did nothing may knock back (seed 000,
    # Crushing: "+5 bonus to damage for purposes of knockback ... stun damage") when the
    # roll (+5 crushing) beats the target's strength x 10: stuns, one per 5 points above.
    i, j = np.arange(n)[:, None, None], np.arange(n)[None, :, None]
    roll = s.damage[i].astype(np.int32) + first + 1
    levels = levels_caused(roll, s.soak[j].astype(np.int32) + second + 1)
    kind = np.broadcast_to(s.damage_type[i].astype(np.int32), levels.shape)
    if s.on.knockback:
        crushing = s.fighter["crush"][i] > 0
        knocked = (levels == 0) * levels_caused(roll + CRUSHING_KNOCKBACK * crushing,
                                                KNOCKDOWN_STRENGTH * s.fighter["strength"][j]
                                                + 1)
        kind = np.where(knocked > 0, STUNS, kind)
        levels = levels + knocked
    n_levels = int(levels.max()) + 1
    n_codes = (int(kind.max()) + 1) * n_levels
    code = np.where(levels > 0, kind * n_levels + levels, 0)     # 0: the blow does nothing
    damage = code.astype(np.int16 if n_codes < 2 ** 15 else np.int32)
    # Every body state and blow: the tracks after it, by the rule function itself.
    w0, s0 = np.divmod(np.arange(LEVELS * LEVELS), LEVELS)
    k, lv = np.divmod(np.arange(n_codes), n_levels)
    w0, s0, k, lv = w0[:, None], s0[:, None], k[None, :], lv[None, :]
    w1, s1, added, _ = tracks_after(w0, s0, k, lv, ineffective=False,
                                    stun_wounds=s.stun_wounds)
    w1c, s1c = np.minimum(w1, FATAL), np.minimum(s1, FATAL)
    penalty = (TRACK_PENALTY[w1c] + TRACK_PENALTY[s1c]
               - TRACK_PENALTY[w0] - TRACK_PENALTY[s0]).astype(np.int64)
    check_wounds = ((added > 0) & (w1 >= FATAL)).astype(np.int64)
    check_stuns = ((s1 > s0) & (s1 >= FATAL)).astype(np.int64)
    code = (w1c << WOUNDS_AT | s1c << STUNS_AT
            | check_wounds << CHECK_WOUNDS | check_stuns << CHECK_STUNS
            | np.minimum(w1, 255) << RAW_WOUNDS_AT | np.minimum(s1, 255) << RAW_STUNS_AT
            | -penalty << PENALTY_AT)
    return Tables(n=n, skills_differ=bool((s.skill != s.skill[0]).any()), delta=delta,
                  damage=damage.ravel(), n_codes=n_codes, tracks=code.astype(np.int32).ravel())


def attack(state, s, ctx, acting: np.ndarray, att: Pick, tgt: Pick, defending: np.ndarray,
           rng: np.random.Generator) -> None:
    """Places ``att`` attack places ``tgt`` in the trials where ``acting`` (a basic fight);
    in place. Every trial of the picks draws its dice; trials not acting change nothing.

    Seed 000: the attack roll against the parry roll (or the base difficulty when the target
    does not defend); a natural 1 fumbles: the fumbler takes fatigue, unless the foe is more
    skilled and picks "fail defence" for a fumbled defence. A hit rolls damage against soak.
    """
    t = s.basic
    n = acting.size
    # attack/defence and damage/soak pairs, for every trial of the picks (their state columns)
    u, v = integers_at(rng, att.rows, 0, PAIRS, (2,) if att.rows is not None else (2, n))
    rpen = ctx.rpen
    a_total = att.get(state.attack) + att.get(rpen)
    pair = np.take(t.delta, u)        # attack die less defence die, doubled; +1: a natural 1
    hit = acting & (pair >= 2 * (tgt.get(state.defence) + tgt.get(rpen) - a_total))
    odd = (pair & 1).astype(bool)     # (one lookup for both: two cost more)
    if not defending.all():
        odd |= ~defending
    rows = np.flatnonzero(odd & acting)
    if rows.size:
        _odd(state, s, ctx, att.sub(rows), tgt.sub(rows), u[rows], a_total[rows],
             defending[rows], hit, rows)
    who_a, who_t = att.get(state.who), tgt.get(state.who)
    if t.n == 2:   # (a duel: the target is the other fighter, pair 1 or 2)
        fighters = (who_a * np.int16(PAIRS)) + np.int16(PAIRS)
    else:
        fighters = (who_a.astype(np.int32) * t.n + who_t) * PAIRS
    blow = np.take(t.damage, fighters + v) * hit
    if tgt.flat is None and tgt.rows is None:   # one row: every trial at once, no gathers
        harm(state, s, ctx, tgt, blow, rng)
        return
    harmed = np.flatnonzero(blow != 0)    # (flatnonzero of an int16 array costs ~15x)
    if harmed.size:
        harm(state, s, ctx, tgt.sub(harmed), blow[harmed], rng)


def _odd(state, s, ctx, att: Pick, tgt: Pick, u: np.ndarray, a_total: np.ndarray,
         defending, hit: np.ndarray, rows: np.ndarray) -> None:
    """Fumbles and attacks nobody parries, on those trials: tire the fumblers, and decide
    the hit (``hit[rows]``) against the parry or the base difficulty."""
    first, second = np.divmod(u, SIDES)
    attack_fumble = first == 0
    defence_fumble = (second == 0) & defending
    if s.basic.skills_differ:
        foe_picks = att.get(state.skill) > tgt.get(state.skill)
        fail_def = defence_fumble & foe_picks
        tired = defence_fumble & ~foe_picks
    else:   # no foe is ever more skilled: every fumbler takes the fatigue
        fail_def, tired = False, defence_fumble
    # Both fumblers' fatigue at once (the attacker's and its target's places differ).
    flat = np.concatenate([att.flat_at(np.flatnonzero(attack_fumble)),
                           tgt.flat_at(np.flatnonzero(tired))])
    if flat.size:
        gear.tire_at(state, s, ctx, flat)
    if fail_def is False and defending.all():
        return   # every parry stands: ``hit`` holds (a fumbled attack's ``delta`` never hits)
    use_parry = defending & ~fail_def
    unparried = a_total + first + 1 >= s.base_difficulty
    hit[rows] = ~attack_fumble & ((use_parry & hit[rows]) | (~use_parry & unparried))


def harm(state, s, ctx, tgt: Pick, blow: np.ndarray, rng: np.random.Generator) -> None:
    """The blows ``blow`` (``Tables.damage`` codes, one per trial of ``tgt``) on the tracks:
    wounds, stuns, penalties, and the health checks of those reaching fatal or beaten."""
    t = s.basic
    w0, s0 = tgt.get(state.wounds), tgt.get(state.stuns)
    body = w0 * np.int8(LEVELS) + s0       # wounds * 7 + stuns, at most 48
    wide = np.int16 if LEVELS * LEVELS * t.n_codes < 2 ** 15 else np.int32
    code = np.take(t.tracks, body.astype(wide) * wide(t.n_codes) + blow)
    w1 = (code & 7).astype(np.int8)
    s1 = ((code >> STUNS_AT) & 7).astype(np.int8)
    penalty = -(code >> PENALTY_AT).astype(np.int16)
    checks = np.flatnonzero((code & CHECKS) != 0)
    before = s0[checks]         # (``s0`` may be a view of the stuns written below)
    tgt.put(state.wounds, w1)
    tgt.put(state.stuns, s1)
    tgt.add(state.penalty, penalty)
    tgt.add(ctx.rpen, penalty)
    if checks.size:
        c = code[checks]
        t_ = tgt.sub(checks)
        status = health_checks((c >> RAW_WOUNDS_AT) & 255, (c >> RAW_STUNS_AT) & 255, before,
                               (c >> CHECK_WOUNDS) & 1, t_.get(state.status),
                               t_.get(state.health4), s.success_step, rng, trials_of(t_))
        t_.put(state.status, status)
