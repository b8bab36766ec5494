"""The basic rules' attack, table-driven (seed 000, "Making an attack", "Fumbles in Combat",
"Inflicting Damage"): the kernel's path in fights where no detailed rule can act.

A basic attack depends on a few small integers only: the attack and defence dice, the damage
and soak dice, the two fighters, and the target's wound and stun levels. So the dice come in
pairs (one draw of 0..399 is two d20s: ``first = u // 20 + 1``, ``second = u % 20 + 1``),
the attack die less the parry die is a few vector operations on the pair; tables built once
per fight by the rule functions themselves (``rules.tracks.levels_caused``, ``blows.tracks_after``)
turn the rest into the outcome: the blow's kind and levels with knockback (``damage``), the
tracks after it and the health checks it calls for (``tracks``; in a duel both in one lookup,
``duel``). Fumbles, attacks nobody parries and health
checks, a few percent of attacks, take a slower path on those trials only. The detailed
rules' path is ``strikes.attack`` and ``blows.blow``; both read the same rule functions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.bits import Layout
from balance.engine.pick import Pick
from balance.engine.sparse import padded, true_indices
from balance.engine.status import STANDING, UNCONSCIOUS
from balance.engine.streams import integers_at
from balance.rules.yags.kernel import counting, gear
from balance.rules.yags.kernel.blows import beaten_check, fatal_check, tracks_after
from balance.rules.yags.kernel.rolls import d20_at
from balance.rules.yags.rules.tactics import CRUSHING_KNOCKBACK, KNOCKDOWN_STRENGTH
from balance.rules.yags.rules.tracks import FATAL, STUNS, TRACK_PENALTY, levels_caused

SIDES = 20
PAIRS = SIDES * SIDES        # one draw of 0..399: two d20s
LEVELS = FATAL + 1           # track levels 0..6
# ``tracks`` codes (int32), a declared layout (``balance.engine.bits``: widths named once,
# the code checked against int32 here and every value against its field when the table is
# built): the tracks held at 6, the checks due, the uncapped tracks the checks' targets grow
# with (held at 255), and the track penalty the blow adds (<= 0, stored negated). The low
# byte holds the capped tracks and the two check flags as its top bits (``apply`` reads it
# alone).
TRACK_CODE = Layout(wounds=3, stuns=3, check_wounds=1, check_stuns=1, raw_wounds=8,
                    raw_stuns=8, penalty=7)
TRACK_CODE.check_fits(np.int32)
WOUNDS_AT, STUNS_AT, CHECK_WOUNDS, CHECK_STUNS, RAW_WOUNDS_AT, RAW_STUNS_AT, PENALTY_AT = (
    f.shift for f in TRACK_CODE.fields.values())
assert TRACK_CODE.fields["wounds"].limit > FATAL and TRACK_CODE.fields["check_stuns"].shift == 7
CHECKS = (1 << CHECK_WOUNDS) | (1 << CHECK_STUNS)
MISS = PAIRS                 # ``Tables.duel``'s column of no blow


@dataclass(frozen=True)
class Tables:
    """A basic fight's outcome tables (see the module docstring).

    ``skills_differ``: some fighter is more skilled than another (then a fumbled defence may
    fail instead of tiring). ``damage`` (n * n * 400,): ``kind * n_levels + levels`` of a
    blow of fighter i on fighter j by the damage and soak pair, at ``(i * n + j) * 400 +
    pair`` (0: the blow does nothing), or (``alike``: every such blow the same) that one
    blow's codes (400,) by the pair. ``tracks`` (49 * n_codes,): the code (bit fields,
    ``*_AT``) of a body at ``wounds * 7 + stuns`` taking a blow's code. ``duel`` (two
    fighters): both lookups in one, the code of a body taking fighter i's blow by the damage
    and soak pair (or none, ``MISS``) at ``(i * 49 + body) * 401 + pair``, i always 0 when
    the two fighters' blows are the same (``duel_pairs`` = 1, else 2); None otherwise.
    """

    n: int
    skills_differ: bool
    damage: np.ndarray
    n_codes: int
    tracks: np.ndarray
    duel: np.ndarray | None = None
    duel_pairs: int = 0
    alike: bool = False


def tables_of(s) -> Tables:
    """The basic fight's tables from its per-fighter numbers (``Static``)."""
    n = s.attack.size
    first, second = np.divmod(np.arange(PAIRS), SIDES)
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
    code = TRACK_CODE.pack(wounds=w1c, stuns=s1c, check_wounds=check_wounds,
                           check_stuns=check_stuns, raw_wounds=np.minimum(w1, 255),
                           raw_stuns=np.minimum(s1, 255), penalty=-penalty)
    tracks = code.astype(np.int32).ravel()
    duel, pairs = (_duel_table(damage, tracks, n_codes) if n == 2 else (None, 0))
    # Every fighter's blow on every other (never on itself) the same: the first one serves.
    blows = damage[~np.eye(n, dtype=bool)]                          # (n * (n - 1), 400)
    alike = n > 1 and bool((blows == blows[:1]).all())
    return Tables(n=n, skills_differ=bool((s.skill != s.skill[0]).any()),
                  damage=blows[0] if alike else damage.ravel(), n_codes=n_codes,
                  tracks=tracks, duel=duel, duel_pairs=pairs, alike=alike)


def _duel_table(damage: np.ndarray, tracks: np.ndarray, n_codes: int) -> tuple[np.ndarray, int]:
    """``Tables.duel``: the track code of each body taking each fighter's blow on the other,
    by the damage and soak pair, or no blow (``MISS``)."""
    blows = np.stack([damage[0, 1], damage[1, 0]])                      # (2, 400)
    pairs = 1 if (blows[0] == blows[1]).all() else 2
    blows = np.concatenate([blows[:pairs], np.zeros((pairs, 1), blows.dtype)], axis=1)
    body = np.arange(LEVELS * LEVELS)[None, :, None]
    table = tracks[body * n_codes + blows[:, None, :]]               # (pairs, 49, 401)
    return table.astype(np.int32).ravel(), pairs


def attack(state, s, ctx, acting: np.ndarray, att: Pick, tgt: Pick, defending: np.ndarray,
           rng: np.random.Generator) -> None:
    """Places ``att`` attack places ``tgt`` in the trials where ``acting`` (a basic fight);
    in place. Every trial of the picks draws its dice; trials not acting change nothing.

    Seed 000: the attack roll against the parry roll (or the base difficulty when the target
    does not defend); a natural 1 fumbles: the fumbler takes fatigue, unless the foe is more
    skilled and picks "fail defence" for a fumbled defence where that lets the attack through
    (the result worst for the fumbler). A hit rolls damage against soak.
    """
    t = s.basic
    n = acting.size
    # attack/defence and damage/soak pairs, for every trial of the picks (their state columns);
    # a group fight draws the damage/soak pair only for the attacks that hit (below)
    if s.groups is None:
        u, v = integers_at(rng, att.rows, 0, PAIRS, (2,) if att.rows is not None else (2, n))
    else:
        u, v = integers_at(rng, att.rows, 0, PAIRS, () if att.rows is not None else (n,)), None
    rpen = ctx.rpen
    a_total = att.get(state.attack) + att.get(rpen)
    # The dice by arithmetic, not a lookup (int16 division by a constant is vectorised and
    # costs a tenth of a ``np.take``; numpy's int16 remainder is slow): attack die less one,
    # defence die less one. Attack roll >= parry roll <=> their difference >= the defence's
    # total less the attack's; a natural 1 on the attack never hits.
    first = u // np.int16(SIDES)
    second = u - first * np.int16(SIDES)
    hit = acting & (first - second >= tgt.get(state.defence) + tgt.get(rpen) - a_total)
    hit &= u >= SIDES
    # Places 0 and 1 attacking each other, each one row (a duel's declared attacks)?
    two_rows = (att.flat is None and att.rows is None and tgt.flat is None
                and tgt.rows is None and att.row + tgt.row == 1)
    every_parry = defending.all()
    if two_rows and every_parry and not t.skills_differ:
        _tire_fumblers(state, s, ctx, att.row, tgt.row, u < SIDES, second == 0, acting)
    else:
        odd = (second == 0) | (u < SIDES)
        if not every_parry:
            odd |= ~defending
        due = padded(n)     # (a sparse mask, a tenth of the trials: ``engine.sparse``)
        np.logical_and(odd, acting, out=due[:n])
        rows = true_indices(due, n)
        if rows.size:
            _odd(state, s, ctx, att.sub(rows), tgt.sub(rows), first[rows], second[rows],
                 a_total[rows], defending[rows], hit, rows)
    if state.counts is not None:   # the breakdown (vector/counting.py): no dice drawn
        counting.roll(state, att, tgt, acting, hit, u < SIDES, defending & (second == 0))
    if t.duel is not None and tgt.flat is None and tgt.rows is None:
        # A duel's target is one row: the blow and the track change in one lookup, on every
        # trial at once (a trial not hit takes the column of no blow).
        body = tgt.get(state.wounds) * np.int8(LEVELS) + tgt.get(state.stuns)
        at = body.astype(np.int16) * np.int16(PAIRS + 1) + np.int16(MISS)
        at += (v - np.int16(MISS)) * hit
        if t.duel_pairs > 1:
            at = at + att.get(state.who).astype(np.int32) * (LEVELS * LEVELS * (PAIRS + 1))
        apply(state, s, ctx, tgt, np.take(t.duel, at), rng)
        return
    if v is None:   # a group fight: the damage and soak pair for the hits alone
        _hits(state, s, ctx, att, tgt, hit, rng)
        return
    blow = _blows(state, t, att, tgt, v) * hit
    if tgt.flat is None and tgt.rows is None:   # one row: every trial at once, no gathers
        harm(state, s, ctx, tgt, blow, rng)
        return
    harmed = np.flatnonzero(blow != 0)    # (flatnonzero of an int16 array costs ~15x)
    if harmed.size:
        harm(state, s, ctx, tgt.sub(harmed), blow[harmed], rng)


def _hits(state, s, ctx, att: Pick, tgt: Pick, hit: np.ndarray,
          rng: np.random.Generator) -> None:
    """The damage and soak pair of each attack that hit (``hit``, one per trial of the picks),
    drawn for those trials alone in order, and the blows that do something. (A group fight
    hits in a third of its slot's trials or fewer: the pairs of the misses, their lookup and
    the test of their blows are spared.)"""
    t = s.basic
    rows = np.flatnonzero(hit)
    if not rows.size:
        return
    v = integers_at(rng, rows if att.rows is None else att.rows[rows], 0, PAIRS)
    blow = _blows(state, t, att.sub(rows), tgt.sub(rows), v)
    harmed = np.flatnonzero(blow != 0)    # (flatnonzero of an int16 array costs ~15x)
    if harmed.size:
        harm(state, s, ctx, tgt.sub(rows[harmed]), blow[harmed], rng)


def _blows(state, t: Tables, att: Pick, tgt: Pick, v: np.ndarray) -> np.ndarray:
    """``Tables.damage`` codes of the blows of ``att`` on ``tgt`` by the damage and soak pairs
    ``v`` (one per trial of the picks)."""
    if t.alike:    # every fighter's blow on every other alike: no gather of who is who
        return np.take(t.damage, v)
    if t.n == 2:   # (the target is the other fighter, pair 1 or 2)
        fighters = (att.get(state.who) * np.int16(PAIRS)) + np.int16(PAIRS)
    else:
        fighters = (att.get(state.who).astype(np.int32) * t.n + tgt.get(state.who)) * PAIRS
    return np.take(t.damage, fighters + v)


def _tire_fumblers(state, s, ctx, att_row: int, tgt_row: int, attack_fumble: np.ndarray,
                   defence_fumble: np.ndarray, acting: np.ndarray) -> None:
    """``_odd`` where it only tires (places 0 and 1 attacking each other, every parry stands,
    no foe more skilled): the fumblers by their dice alone, the flat indices of both rows by
    one ``flatnonzero`` on a (2, n) mask, without gathers onto the odd trials
    (``gear.tire_at`` does not depend on the indices' order)."""
    n = acting.size
    fumbled = padded(2 * n)     # (a sparse mask: ``balance.engine.sparse``)
    np.logical_and(attack_fumble, acting, out=fumbled[att_row * n:(att_row + 1) * n])
    np.logical_and(defence_fumble, acting, out=fumbled[tgt_row * n:(tgt_row + 1) * n])
    flat = true_indices(fumbled, 2 * n)
    if flat.size:
        gear.tire_at(state, s, ctx, flat)


def _odd(state, s, ctx, att: Pick, tgt: Pick, first: np.ndarray, second: np.ndarray,
         a_total: np.ndarray, defending, hit: np.ndarray, rows: np.ndarray) -> None:
    """Fumbles and attacks nobody parries, on those trials (the dice less one): tire the
    fumblers, and decide the hit (``hit[rows]``) against the parry or the base difficulty."""
    attack_fumble = first == 0
    defence_fumble = (second == 0) & defending
    unparried = a_total + first + 1 >= s.base_difficulty
    if s.basic.skills_differ:
        # The more skilled foe picks the worst result for the fumbler (tactics.fumble_harm_order;
        # a basic fighter's weapon cannot be lost): "fail defence" where the base difficulty
        # lets through the attack its parry stopped (tactics.defence_fail_effect > 0), unless
        # a level of fatigue would exhaust it.
        foe_picks = att.get(state.skill) > tgt.get(state.skill)
        fail_def = defence_fumble & foe_picks & ~attack_fumble & unparried & ~hit[rows]
        if s.on.exhaustion and fail_def.any():
            at = gear.per_place(s, "exhausted_at", tgt.get(state.who).astype(np.intp))
            fail_def &= tgt.get(state.fatigue) + 1 < at
        tired = defence_fumble & ~fail_def
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
    hit[rows] = ~attack_fumble & ((use_parry & hit[rows]) | (~use_parry & unparried))


def harm(state, s, ctx, tgt: Pick, blow: np.ndarray, rng: np.random.Generator) -> None:
    """The blows ``blow`` (``Tables.damage`` codes, one per trial of ``tgt``) on the tracks:
    wounds, stuns, penalties, and the health checks of those reaching fatal or beaten."""
    t = s.basic
    body = tgt.get(state.wounds) * np.int8(LEVELS) + tgt.get(state.stuns)   # at most 48
    wide = np.int16 if LEVELS * LEVELS * t.n_codes < 2 ** 15 else np.int32
    apply(state, s, ctx, tgt, np.take(t.tracks, body.astype(wide) * wide(t.n_codes) + blow), rng)


def apply(state, s, ctx, tgt: Pick, code: np.ndarray, rng: np.random.Generator) -> None:
    """The track changes ``code`` (``Tables.tracks`` codes, one per trial of ``tgt``). The
    live penalty ``ctx.rpen`` takes the penalty they add; ``state.penalty`` is made from it
    at the end of the round (``kernel.play_round``)."""
    penalty = (code >> PENALTY_AT).astype(np.int16)     # (stored negated)
    if tgt.flat is None and tgt.rows is None:
        # One row (a duel): the tracks and the check flags from the codes' low byte (a
        # quarter of the int32 codes' memory traffic), written into the rows in place; the
        # checks read from their flags.
        row = tgt.row
        low = code.astype(np.uint8)     # wounds | stuns << 3 | the two check flags << 6
        np.bitwise_and(low, 7, out=state.wounds[row], casting="unsafe")
        np.bitwise_and(low >> STUNS_AT, 7, out=state.stuns[row], casting="unsafe")
        np.subtract(ctx.rpen[row], penalty, out=ctx.rpen[row])
        due = padded(code.size)     # (a sparse mask: ``balance.engine.sparse``)
        np.greater_equal(low, 1 << CHECK_WOUNDS, out=due[:code.size])
        checks = true_indices(due, code.size)
        if checks.size:
            _checks(state.status[row], state.health4[row], checks, checks, code[checks],
                    s.success_step, rng)
        return
    w1 = (code & 7).astype(np.int8)
    s1 = ((code >> STUNS_AT) & 7).astype(np.int8)
    penalty = -penalty
    checks = np.flatnonzero((code & CHECKS) != 0)
    tgt.put(state.wounds, w1)
    tgt.put(state.stuns, s1)
    tgt.add(ctx.rpen, penalty)
    if checks.size:   # (the places' flat indices into the (c, n) arrays, and their trials)
        health = state.health4 if not any(state.health4.strides) else state.health4.ravel()
        _checks(state.status.ravel(), health, tgt.flat_at(checks),
                checks if tgt.rows is None else tgt.rows[checks], code[checks],
                s.success_step, rng)


def _checks(status: np.ndarray, health: np.ndarray, at: np.ndarray, cols: np.ndarray,
            code: np.ndarray, step: int, rng: np.random.Generator) -> None:
    """``blows.health_checks`` of the bodies at ``at`` (indices into ``status`` and
    ``health``, 1-d views: a row, or the flat (c, n) arrays; a health every fighter shares
    may be a broadcast of one number), in the trials (state columns) ``cols``, whose track
    changes ``code`` call for one, read from the codes' flags (the same dice in the same
    order, in fewer steps): reaching fatal wounds, a d20 each (seed 000: fail dies, success
    falls unconscious, a good success fights on); then beaten stuns, among those still
    standing (fail falls unconscious)."""
    fixed = not any(health.strides)   # one number for every fighter: no gathers of it
    due = np.flatnonzero((code & (1 << CHECK_WOUNDS)) != 0)
    if due.size:
        where = at[due]
        d = d20_at(rng, where if cols is at else cols[due])
        status[where] = fatal_check(status[where], health.flat[0] if fixed else health[where],
                                    d, (code[due] >> RAW_WOUNDS_AT) & 255, step)
    due = np.flatnonzero(((code & (1 << CHECK_STUNS)) != 0) & (status[at] == STANDING))
    if due.size:
        where = at[due]
        d = d20_at(rng, where if cols is at else cols[due])
        failed = beaten_check(health.flat[0] if fixed else health[where], d,
                              (code[due] >> RAW_STUNS_AT) & 255)
        status[where[failed]] = UNCONSCIOUS
