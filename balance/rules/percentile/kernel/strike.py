"""Vectorised blows for the percentile kernel: chances, rolls, defences, damage, fumbles.

Every function works on a batch of trials ``rows`` (int indices into the state's trial
axis) with per-row attacker and target *places* ``a`` and ``t`` (int arrays, one per row);
state arrays are read and written as ``arr[place, rows]`` (and ``arr[slot, place, rows]``
for items), which is safe because a batch never holds a trial twice. Fixed numbers come
from :class:`~balance.rules.percentile.kernel.prepare.Static` (``Ctx.S``). The rules are those of
``reference/strike.py`` (the oracle); docs/rules/percentile.md, "A blow".
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from balance.dice.resistance import resistance_chance
from balance.engine.pick import (
    Cells,
    at_each,
    at_rows,
    get,
    get_item,
    item,
    per_row,
    put,
    some,
    spread,
)
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.rules.percentile.compile import (
    AUTO,
    BREAK,
    DB_HALF,
    DB_NONE,
    DODGE,
    DROP,
    FALL,
    FIST,
    HIT_SELF,
    LOSE_ATTACK,
    MAIN,
    MELEE,
    OFF,
    PARRY,
    SIDE,
    UNBREAKABLE,
    PercentileFight,
    resistance_table,
)
from balance.rules.percentile.kernel import counting
from balance.rules.percentile.rules import tables as tb

if TYPE_CHECKING:
    from balance.rules.percentile.kernel.prepare import Static

STRIKE, KNOCKBACK, DISARM, ENTANGLE = 0, 1, 2, 3
NONE = -1


@dataclass
class Ctx:
    """What every kernel step needs: the fight, its arrays, the state, the stream, the round."""

    fight: PercentileFight
    S: Static
    st: object            # PercentileState (kernel.py)
    rng: np.random.Generator
    round_no: int
    any_down: bool = True      # may anyone be down / stunned this round? (work skipped if not)
    any_stunned: bool = True
    any_no_parry: bool = True  # ... or unable to parry this round
    any_rising: bool = False   # ... or spending the round's defence to stand (when_down)
    table: Any = None          # a plain duel's outcome table (``kernel.prepare.duel_table_of``)

    @property
    def levels(self) -> tb.Levels:
        return self.fight.levels

    @functools.cached_property
    def outcomes(self) -> np.ndarray:
        """``outcome_table`` of the fight's levels, looked up once a round."""
        return outcome_table(self.fight.levels)

    def uses(self, name: str) -> bool:
        return name in self.fight.uses

    def d100(self, k: int) -> np.ndarray:
        return self.rng.integers(1, 101, size=k, dtype=np.int16)

    def succeeds(self, chance, k: int) -> np.ndarray:
        """``k`` plain percentile rolls (characteristic x N, Dodge) against ``chance``
        (``rules.tables.roll_succeeds``, by lookup in the level table)."""
        success = level_table(self.levels)[2]
        i = np.minimum(np.maximum(chance, LEVEL_LO), LEVEL_HI) - LEVEL_LO
        return self.d100(k) <= success.take(i)

    def caught_unaware(self, who, rows) -> np.ndarray | np.bool_:
        """Surprised by an ambush, in round 1 (seed 004): no action, no defence."""
        if self.round_no != 1 or not self.uses("ambush"):
            return np.False_
        return self.st.surprised[who, rows]

    def exhausted(self, who) -> np.ndarray:
        if not self.fight.rules.fatigue:
            return np.zeros(np.shape(who), dtype=bool)
        return tb.exhausted(self.round_no, self.S.CON[who])


def gap(cx: Ctx, a, b, rows) -> np.ndarray:
    pos = cx.st.pos
    return np.abs(get(pos, a, rows) - get(pos, b, rows))   # (rows.get: row or flat takes)


def in_reach(cx: Ctx, a, b, rows) -> np.ndarray:
    if not cx.uses("distance"):     # every side starts in reach and nobody moves
        return np.ones(np.shape(rows), dtype=bool)
    return gap(cx, a, b, rows) <= cx.fight.rules.reach + 1e-6


def wielded(cx: Ctx, who, rows) -> np.ndarray:
    return get(cx.st.wield, who, rows)


def can_strike(cx: Ctx, who, rows) -> np.ndarray:
    """Able to swing this instant (free attacks, ripostes, extra attacks)."""
    st, S = cx.st, cx.S
    slot = get(st.wield, who, rows)
    ok = ((get(st.status, who, rows) == STANDING) & ~get(st.stunned, who, rows)
          & ~get(st.entangled, who, rows) & (item(S.item_kind, slot, who) == MELEE)
          & ~(get(st.down, who, rows) & item(S.item_two_handed, slot, who)))
    return ok & ~cx.caught_unaware(who, rows)


def spear_set(cx: Ctx, who, rows) -> np.ndarray:
    st, S = cx.st, cx.S
    slot = get(st.wield, who, rows)
    return (get(st.bracing, who, rows) & (item(S.item_kind, slot, who) == MELEE)
            & item(S.item_thrusting, slot, who) & (item(S.item_length, slot, who) == tb.LONG))


def fall(cx: Ctx, who, rows, *, jolt: bool = True) -> None:
    """Falls down; a rider is thrown from the saddle. Seed 004: "knock-backs, falls, and
    similar jolts can incidentally stun": a fall (``jolt``; not a major wound's, nor the
    sprawl a knock-back's own roll covers) calls for the stun roll (``rules.falls_stun``;
    see reference ``fall_down``)."""
    put(cx.st.down, who, rows, True)
    if cx.uses("mounts"):
        put(cx.st.mounted, who, rows, False)
    cx.any_down = True
    if jolt and cx.fight.rules.falls_stun:
        stun_check(cx, who, rows)


# --- weapons in hand -----------------------------------------------------------------------


def fall_back(cx: Ctx, who, rows) -> None:
    """The off-hand weapon (already in hand), else the sidearm (five DEX ranks to draw unless
    101%+), else fists (see reference ``fall_back``)."""
    st, S = cx.st, cx.S
    held = get(st.wield, who, rows)
    off = ((held != OFF) & get(st.item_ok[OFF], who, rows) & ~S.item_shield[OFF, who]
           & (S.item_kind[OFF, who] == MELEE) & ~S.item_entangles[OFF, who])
    side = ~off & (held != SIDE) & get(st.item_ok[SIDE], who, rows) & ~get(st.no_draw, who, rows)
    put(st.wield, who, rows, np.where(off, OFF, np.where(side, SIDE, FIST)))
    put(st.draw_pending, who, rows, side & ~S.item_draw_free[SIDE, who])


def break_item(cx: Ctx, who, slot, rows) -> None:
    S, st = cx.S, cx.st
    breaks = (slot != FIST) & (item(S.item_hp, slot, who) < UNBREAKABLE)
    if not some(breaks):
        return
    who, slot, rows = at_each(breaks, who, slot, rows)
    st.item_ok[slot, who, rows] = False
    back = slot == get(st.wield, who, rows)
    if some(back):
        fall_back(cx, *at_each(back, who, rows))


def disarm(cx: Ctx, who, rows) -> None:
    """Seed 004: disarming takes the weapon from the hand and keeps the foe from drawing a
    second one: it fights on with an off-hand weapon already in hand, else bare-handed,
    and may pick the weapon up (see reference ``disarm``)."""
    put(cx.st.no_draw, who, rows, True)
    lose_weapon(cx, who, get(cx.st.wield, who, rows), rows)


def lose_weapon(cx: Ctx, who, slot, rows) -> None:
    """The weapon in ``slot`` is knocked or wrenched from the hand onto the ground; if it
    was the one in hand, the fighter falls back on another (see reference)."""
    st = cx.st
    st.item_ok[slot, who, rows] = False
    st.item_loose[slot, who, rows] = True
    back = slot == get(st.wield, who, rows)
    if some(back):
        fall_back(cx, *at_each(back, who, rows))


def switch_to_melee(cx: Ctx, who, rows) -> None:
    st = cx.st
    st.item_ok[get(st.wield, who, rows), who, rows] = False
    fall_back(cx, who, rows)


# --- chances -------------------------------------------------------------------------------


def level_of(cx: Ctx, who, rows) -> np.ndarray:
    return np.clip(cx.S.level[who] + get(cx.st.mounted, who, rows), -1, 1)


def situational_skill(cx: Ctx, who, rows, slot, skill, *, noisy, smelly=False,
                      weapon: bool = True):
    S, st = cx.S, cx.st
    if weapon and cx.uses("mounts"):
        skill = np.where(get(st.mounted, who, rows), np.minimum(skill, S.ride[who]), skill)
    if weapon and (cx.uses("cramped") or cx.uses("underwater")):
        skill = np.where(item(S.item_quartered, slot, who), tb.quarter(skill), skill)
    if cx.uses("dark"):
        skill = tb.light_skill(skill, S.light[who], search=S.search[who], int_=S.INT[who],
                               pow_=S.POW[who], listen=S.listen[who], noisy=noisy,
                               weapon=weapon, scent=S.scent[who], smelly=smelly)
    return skill


def melee_chance(cx: Ctx, a, t, rows, slot) -> np.ndarray:
    S, st = cx.S, cx.st
    chance = situational_skill(cx, a, rows, slot, item(S.item_attack, slot, a),
                               noisy=S.noisy[t], smelly=S.smelly[t])
    if cx.uses("height"):
        chance = chance + tb.height_modifier(level_of(cx, a, rows), level_of(cx, t, rows),
                                             item(S.item_length, slot, a),
                                             S.item_length[get(st.wield, t, rows), t])
    if cx.any_down:
        chance = chance + tb.down_modifier(get(st.down, a, rows), get(st.down, t, rows))
    if cx.uses("cover"):
        chance = np.where(S.cover[t] > 0, tb.ceil_div(chance, 2), chance)
    if cx.uses("flank"):   # a blow at one's own target from its side (kernel_groups)
        side = get(st.flank, a, rows) & (get(st.target, a, rows) == t)
        chance = chance + cx.fight.rules.side_attack_bonus * side
    return chance


def missile_chance(cx: Ctx, a, t, rows, slot, divisor) -> np.ndarray:
    S, st = cx.S, cx.st
    chance = situational_skill(cx, a, rows, slot, item(S.item_attack, slot, a), noisy=S.noisy[t],
                               smelly=S.smelly[t])
    chance = chance + tb.angle_modifier(S.level[a], S.level[t], S.steep[a])
    chance = chance + tb.target_size_modifier(S.SIZ[t])
    dist = gap(cx, a, t, rows)
    num = np.where(tb.point_blank(dist, S.DEX[a]), 2, 1)
    den = divisor * np.where(S.volley[a], 3, 1) * np.where(S.cover[t] > 0, 2, 1)
    chance = tb.ceil_div(chance * num, den)
    steps = get(st.aim, a, rows)
    bonus = np.where(steps > 0, tb.aim_bonus(chance, steps, dist, item(S.item_range, slot, a)), 0)
    chance = np.where(S.small_part[a], tb.ceil_div(chance, 2), chance)
    return chance + bonus


LEVEL_LO, LEVEL_HI = -500, 1500     # chances outside are read as these ends


@functools.cache
def level_table(levels: tb.Levels) -> tuple[np.ndarray, ...]:
    """Per chance (LEVEL_LO..LEVEL_HI): critical, special and success ranges, and the fumble
    range for each fumble multiplier 1, 2, 4, 8 (rows), all from the shared tables."""
    chance = np.arange(LEVEL_LO, LEVEL_HI + 1)
    fumble = np.stack([tb.fumble_range(chance, levels, m) for m in (1, 2, 4, 8)])
    return (tb.critical_range(chance, levels).astype(np.int16),
            tb.special_range(chance, levels).astype(np.int16),
            tb.success_range(chance, levels).astype(np.int16), fumble.astype(np.int16))


@functools.cache
def outcome_table(levels: tb.Levels) -> np.ndarray:
    """(4, n_chances * 100) int8: the level of each d100 roll against each chance
    (LEVEL_LO..LEVEL_HI), at ``[log2 fumble multiplier, (chance - LEVEL_LO) * 100 + roll - 1]``,
    by the tables' ``success_level`` (the reference's reading): one lookup a roll."""
    chance = np.arange(LEVEL_LO, LEVEL_HI + 1)[:, None]
    roll = np.arange(1, 101)[None, :]
    return np.stack([tb.success_level(roll, chance, levels, m).ravel() for m in (1, 2, 4, 8)])


def attack_roll(cx: Ctx, a, t, rows: np.ndarray, slot, chance,
                roll: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """An attack roll of ``a`` at ``chance`` against ``t``, a blow's or a shot's alike: its
    level (``roll_level``; against a target unable to resist, ``against_the_helpless``,
    which also says where the blow does its least damage, else None), counted for the
    breakdown, and a fumble's effects played with the item in hand (``fumble``)."""
    level = roll_level(cx, a, chance, roll)
    least = None
    if cx.fight.helpless_possible:
        level, least = against_the_helpless(cx, t, rows, level)
    if cx.st.counts is not None:   # the breakdown (counting.py): no dice drawn
        counting.roll(cx.st, a, rows, level)
    fumbled = level == tb.FUMBLE
    if some(fumbled):
        fumble(cx, at_rows(a, fumbled), at_rows(slot, fumbled), rows[fumbled])
    return level, least


def roll_level(cx: Ctx, who, chance, roll: np.ndarray | None = None) -> np.ndarray:
    """Roll d100 against ``chance`` for each row (or read the rows' ``roll``, dice already
    thrown): the level, by one lookup in the outcome table (fatigue and water multiply
    fumbles)."""
    S = cx.S
    i = (np.minimum(np.maximum(chance, LEVEL_LO), LEVEL_HI) - LEVEL_LO) * 100 - 1
    if roll is None:
        roll = cx.d100(i.size)
    table = cx.outcomes
    if cx.fight.rules.fatigue or cx.uses("underwater"):
        mult = np.zeros(np.shape(chance), dtype=np.intp)     # log2 of the fumble multiplier
        if cx.fight.rules.fatigue:
            mult = mult + np.log2(tb.fatigue_fumble_multiplier(cx.round_no, S.CON[who])
                                  ).astype(np.intp)
        if cx.uses("underwater"):
            mult = mult + S.underwater[who]
        return table[mult, i + roll]
    return table[0].take(i + roll)


def helpless(cx: Ctx, t, rows) -> np.ndarray:
    """Which rows' targets are "unable to resist" (``rules.tables.unable_to_resist``, by the
    fight's ``rules.unable_to_resist``): exhausted, surprised (round 1), held."""
    k = np.shape(rows)
    exhausted = np.broadcast_to(cx.exhausted(t), k)
    surprised = np.broadcast_to(cx.caught_unaware(t, rows), k)
    held = get(cx.st.entangled, t, rows) if cx.uses("entangle") else np.zeros(k, dtype=bool)
    return tb.unable_to_resist(exhausted, surprised, held, cx.fight.rules.helpless)


def against_the_helpless(cx: Ctx, t, rows, level) -> tuple[np.ndarray, np.ndarray]:
    """Seed 004: "a target unable to resist is hit automatically; a fumble ... still does
    only the weapon's minimum damage" (``helpless``). Returns the levels (a miss becomes a
    hit) and which rows do only the minimum damage."""
    unable = helpless(cx, t, rows)
    least = unable & (level == tb.FUMBLE)
    return np.where(unable & (level <= tb.FAILURE), tb.SUCCESS, level), least


# --- defence -------------------------------------------------------------------------------


def parry_slot(cx: Ctx, t, rows) -> np.ndarray:
    """The item each target parries with: of the off hand and the item in hand, those that
    can parry, the one its policy ``parry_with`` prefers (``compile.off_hand_parries``)."""
    S, st = cx.S, cx.st
    off = get(st.item_ok[OFF], t, rows)
    off &= S.off_can_parry.take(t) if per_row(t) else S.off_can_parry[t]
    if off.all() and (S.off_first_all.take(t).all() if per_row(t) else S.off_first_all[t]):
        # e.g. whole shields, preferred to all
        return np.full(rows.size, OFF, dtype=np.int8)
    held = get(st.wield, t, rows)
    own = get_item(st.item_ok, held, t, rows) & item(S.item_can_parry, held, t)
    off &= ~own | item(S.off_first, held, t)
    # OFF where ``off``, else the item in hand where ``own``, else NONE, by arithmetic
    # (docs/engine-tricks.md, arithmetic, not ``np.where``, on random masks)
    slot = held - np.int8(NONE)
    slot *= own
    slot += np.int8(NONE)
    slot += (np.int8(OFF) - slot) * off
    return slot


def defend(cx: Ctx, t, rows, level, *, parriable, entangle: bool = False,
           excess=0, roll: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(landed, parried_with, parry level) for each row: the level the blow lands at after
    a parry or dodge (FAILURE: stopped; ``rules.tables.blow_after_defence``, by the fight's parry
    matrix), the item that parried (NONE if none did) and the parry's level, if the round's
    defences are not used up (see reference ``defend``); ``roll``: each row's d100, if
    already thrown."""
    S, st = cx.S, cx.st
    k = rows.size
    able = get(st.status, t, rows) == STANDING
    counted = not cx.fight.defends_once    # else every defence is the round's first
    if counted:
        used = get(st.defences, t, rows)
        able &= used < cx.fight.rules.defences
    if cx.fight.rules.fatigue:
        able &= ~cx.exhausted(t)
    if cx.round_no == 1 and cx.uses("ambush"):
        able &= ~cx.caught_unaware(t, rows)
    if cx.fight.helpless_possible:
        able &= ~helpless(cx, t, rows)
    if cx.any_rising:     # getting up spends the round's defence (policy when_down)
        able &= ~get(st.rising, t, rows)
    slot = parry_slot(cx, t, rows) if parriable else np.full(k, NONE, dtype=np.int8)
    if parriable and cx.any_no_parry:
        slot = np.where(get(st.no_parry, t, rows), NONE, slot)
    can_dodge = ~get(st.down, t, rows) if cx.any_down else True
    choice = S.defence[t]
    has_slot = slot != NONE
    if per_row(t):
        use_parry = able & has_slot & ((choice == PARRY) | (choice == AUTO))
        use_dodge = able & can_dodge & ((choice == DODGE) | ((choice == AUTO) & ~has_slot))
    else:           # one target: its choice is one number
        use_parry = able & has_slot if choice in (PARRY, AUTO) else np.zeros(k, dtype=bool)
        use_dodge = (able & can_dodge if choice == DODGE else
                     able & can_dodge & ~has_slot if choice == AUTO else np.zeros(k, dtype=bool))
    landed = np.array(level, dtype=np.int8, copy=True)
    parried = np.full(k, NONE, dtype=np.int64)
    got_parry = np.full(k, tb.FAILURE, dtype=np.int8)
    use = use_parry | use_dodge
    if not some(use):
        return landed, parried, got_parry
    idx = use.nonzero()[0]
    tt, rr, ss, up = at_each(idx, t, rows, slot, use_parry)
    ss = np.maximum(ss, 0)
    parries = some(up)
    chance = np.zeros(idx.size, dtype=np.int32)
    if parries:
        chance = situational_skill(cx, tt, rr, ss, item(S.item_parry, ss, tt), noisy=False)
    if np.count_nonzero(up) < up.size:
        dodge = S.dodge[tt]
        if cx.uses("mounts"):
            dodge = np.where(get(st.mounted, tt, rr), tb.rider_dodge(dodge), dodge)
        chance_d = situational_skill(cx, tt, rr, ss, dodge, noisy=False, weapon=False)
        chance = np.where(up, chance, chance_d) if parries else \
            spread(chance_d, idx.size)
    penalty = cx.fight.rules.extra_defence_penalty
    if counted and penalty and cx.fight.rules.defences > 1:
        chance = chance - penalty * used[idx]
    if np.ndim(excess):
        chance = chance - excess[idx]
    if counted:
        cells = Cells(tt, rr, st.defences.shape[1])      # (no repeated cell: one a row)
        cells.put(st.defences, cells.get(st.defences) + 1)
    got = roll_level(cx, tt, chance, None if roll is None else roll.take(idx))
    fumbled = got == tb.FUMBLE
    if some(fumbled):
        if st.counts is not None:   # the breakdown (counting.py)
            counting.fumbled(st, at_rows(tt, fumbled), rr[fumbled])
        fp = fumbled & up
        if some(fp):
            fumble(cx, at_rows(tt, fp), at_rows(ss, fp), rr[fp])
        fd = fumbled & ~up
        if some(fd):
            fall(cx, at_rows(tt, fd), rr[fd])
    if entangle:    # seed 004: any Dodge negates it; a critical one needs a critical parry
        after = tb.blow_after_defence(level.take(idx), got, tb.ELRIC, ~up)
    else:
        after = tb.blow_after_defence(level.take(idx), got, cx.fight.rules.parry_matrix,
                                      not cx.fight.rules.critical_needs_critical)
    landed[idx] = after
    parried[idx] = np.where(up & (after < level.take(idx)), ss, NONE)
    got_parry[idx] = np.where(up, got, tb.FAILURE)
    return landed, parried, got_parry


# --- damage --------------------------------------------------------------------------------


def roll_damage(cx: Ctx, a, t, rows, slot, level, *, missile: bool) -> np.ndarray:
    """Rolled damage before armour (see reference ``roll_damage``)."""
    S, st, pmfs = cx.S, cx.st, cx.fight.pmfs
    impale = (level >= tb.SPECIAL) & item(S.item_thrusting, slot, a)
    pull = S.pull_blows[a]
    usual = not some(pull)     # the weapon and its holder's usual bonus: one table roll
    if usual and not missile:
        usual = not ((cx.any_down and some(get(st.down, a, rows)))
                     or (cx.uses("mounts") and some(get(st.charging, a, rows))))
    if usual:
        idx = item(S.item_normal_db, slot, a)
        if some(impale):
            idx = np.where(impale, item(S.item_impale_db, slot, a), idx)
        total = pmfs.sample(idx, cx.rng).astype(np.int32)
    else:
        w_idx = np.where(pull, np.where(impale, item(S.item_pulled_impale, slot, a),
                                        item(S.item_pulled, slot, a)),
                         np.where(impale, item(S.item_impale, slot, a),
                                  item(S.item_normal, slot, a)))
        mode = item(S.item_db_mode, slot, a)
        none = pull | (mode == DB_NONE)
        if not missile and cx.any_down:
            none = none | get(st.down, a, rows)
        db = np.where(mode == DB_HALF, S.db_half[a], S.db_own[a])
        if not missile and cx.uses("mounts"):
            db = np.where(get(st.charging, a, rows), S.db_horse[a], db)
        db = np.where(none, 0, db)
        total = pmfs.sample(w_idx, cx.rng).astype(np.int32) + pmfs.sample(db, cx.rng)
    if not missile and cx.uses("mounts") and cx.uses("brace"):
        extra = spear_set(cx, a, rows) & get(st.charging, t, rows)
        if some(extra):
            horse = np.broadcast_to(S.db_horse[at_rows(t, extra)], (int(extra.sum()),))
            total[extra] += pmfs.sample(horse, cx.rng)
    total = np.maximum(total, 0)
    if not missile and cx.uses("underwater"):
        total = np.where(S.underwater[a] & ~impale, np.maximum(total - 1, 0), total)
    if missile:
        half = tb.half_damage_at(gap(cx, a, t, rows), item(S.item_range, slot, a))
        total = np.where(half, total // 2, total)
    return total


def raw_harm(cx: Ctx, t, rows, amount) -> None:
    """Hit points lost: death at 0 or below; a major wound drops, then CON x N or out; then
    a fighter who yields at these hit points or at a major wound gives up."""
    st, S = cx.st, cx.S
    hurt = amount > 0
    k = np.count_nonzero(hurt)
    if not k:
        return
    if k < hurt.size:
        t, rows, amount = at_each(hurt, t, rows, amount)
    cells = Cells(t, rows, st.hp.shape[1])
    hp = cells.get(st.hp) - amount
    cells.put(st.hp, hp)
    dead = hp <= 0
    if some(dead):
        put(st.status, *at_each(dead, t, rows), DEAD)
    hp_max = S.hp.take(t) if per_row(t) else S.hp[t]
    major = ~dead & tb.is_major_wound(amount, hp_max) & (cells.get(st.status) == STANDING)
    if some(major):
        mt, mr = at_each(major, t, rows)
        fall(cx, mt, mr, jolt=False)
        put(st.major, mt, mr, True)
        mult = cx.fight.rules.major_wound_roll
        out = np.ones(mr.size, dtype=bool) if mult == 0 else \
            ~cx.succeeds(mult * S.CON[mt], mr.size)
        put(st.status, at_rows(mt, out), mr[out], UNCONSCIOUS)
    if cx.uses("yield"):
        gives_up = (get(st.status, t, rows) == STANDING) & (
            (hp <= S.yield_at[t]) | (get(st.major, t, rows) & S.yield_major[t]))
        put(st.status, at_rows(t, gives_up), rows[gives_up], YIELDED)


def wound(cx: Ctx, a, t, rows, slot, rolled, level, *, missile: bool) -> None:
    """Armour, then the knockout rule if declared, else hit points, then a poisoned
    weapon's dose (see reference)."""
    S, st = cx.S, cx.st
    ignores = level == tb.CRITICAL
    armour = cx.fight.pmfs.sample(np.where(ignores, 0, armour_index(cx, t, rows)), cx.rng)
    final = np.maximum(rolled - armour, 0)
    if cx.fight.rules.critical_damages_armour:
        put(st.armour_damaged, at_rows(t, ignores), rows[ignores], True)
    dosed = poison_dose(cx, a, t, rows, slot, final) if cx.uses("poison") else None
    if not missile and cx.uses("knockout"):
        ko = np.broadcast_to(S.knockout[a] & S.humanoid[t], rows.shape)
        if ko.any():
            major = ko & tb.is_major_wound(final, S.hp[t])
            out = major & (get(st.status, t, rows) == STANDING)
            if out.any():
                ot, orows = at_rows(t, out), rows[out]
                put(st.status, ot, orows, UNCONSCIOUS)
                put(st.wake_at, ot, orows, cx.round_no + 1 + tb.knockout_rounds(
                    cx.rng.integers(1, 11, size=orows.size)))
            minor = ko & ~major & (final > 0)      # a blow armour stops does nothing
            if minor.any():
                kt, kr = at_rows(t, minor), rows[minor]
                least = S.item_minimum[at_rows(slot, minor), at_rows(a, minor)]
                if st.counts is not None:   # the breakdown (counting.py)
                    counting.dealt(st, at_rows(a, minor), kr, np.minimum(least, final[minor]))
                raw_harm(cx, kt, kr, np.minimum(least, final[minor]))
                stun_check(cx, kt, kr)
            keep = ~ko
            a, t, rows, final = at_rows(a, keep), at_rows(t, keep), rows[keep], final[keep]
    if st.counts is not None:   # the breakdown (counting.py)
        counting.dealt(st, a, rows, final)
    raw_harm(cx, t, rows, final)
    if dosed is not None:
        raw_harm(cx, *dosed)


def poison_dose(cx: Ctx, a, t, rows, slot, final) -> tuple | None:
    """A poisoned main weapon's blow that got past armour uses a dose (see reference):
    seed 004's POT against the target's CON on the Resistance Table, "the poison is the
    active side"; returns (targets, rows, hit points lost) for ``raw_harm``, or None."""
    st, S = cx.st, cx.S
    dosed = (final > 0) & (slot == MAIN) & (get(st.poison_doses, a, rows) > 0)
    if not dosed.any():
        return None
    a, t, rows = at_each(dosed, a, t, rows)
    st.poison_doses[a, rows] -= 1
    pot = S.poison_pot[a]
    chance = tb.poison_chance(pot, S.CON[t], **resistance_table(cx.fight.rules))
    lost = tb.poison_damage(pot, overcome=cx.d100(rows.size) <= chance)
    if cx.uses("poison_onset"):       # the loss waits for the poison's onset
        later = np.broadcast_to(S.poison_onset[a] > 0, rows.shape)
        if later.any():
            lt, lr = at_rows(t, later), rows[later]
            due = cx.round_no + S.poison_onset[at_rows(a, later)]
            now = get(st.poison_at, lt, lr)
            put(st.poison_at, lt, lr, np.where(now > 0, np.minimum(now, due), due))
            # held within int16: any loss past 30,000 kills (hit points are at most 500)
            put(st.poison_hp, lt, lr,
                np.minimum(get(st.poison_hp, lt, lr) + lost[later], 30_000))
            t, rows, lost = at_rows(t, ~later), rows[~later], lost[~later]
    return t, rows, lost


def armour_index(cx: Ctx, t, rows):
    """The pmf of each target's armour roll: whole, or partly destroyed (seed 004: halved)."""
    if not cx.uses("damaged_armour"):
        return cx.S.armour[t]
    return np.where(get(cx.st.armour_damaged, t, rows), cx.S.armour_half[t], cx.S.armour[t])


def stun_check(cx: Ctx, t, rows) -> None:
    st = cx.st
    up = get(st.status, t, rows) == STANDING
    if some(up):
        t, rows = at_rows(t, up), rows[up]
        stunned = ~cx.succeeds(5 * cx.S.CON[t], rows.size)
        put(st.stunned, at_rows(t, stunned), rows[stunned], True)
        cx.any_stunned = True


# --- fumbles -------------------------------------------------------------------------------


def fumble(cx: Ctx, who, slot, rows) -> None:
    """Draw fumble effects by weight for each row and apply them."""
    weights = cx.S.fumble_cumulative
    total = int(weights[-1])
    if total == 0:
        return
    effect = weights.searchsorted(cx.rng.random(rows.size) * total, side="right")
    count = np.bincount(effect, minlength=len(weights))
    if np.count_nonzero(count) > 1:     # the rows grouped by effect (each group in order)
        who, slot, rows = at_each(effect.argsort(kind="stable"), who, slot, rows)
    end = count.cumsum()
    for code in count.nonzero()[0]:
        group = slice(end[code] - count[code], end[code])
        w, s, r = (x[group] if per_row(x) else x for x in (who, slot, rows))
        fumble_effect(cx, code, w, s, r)


def fumble_effect(cx: Ctx, code: int, w, s, r) -> None:
    """Fumble effect ``code`` (``FUMBLE_EFFECTS``) on fighters ``w`` fumbling with items ``s``
    in rows ``r`` (the exact duel model plays each effect through this too)."""
    st, S = cx.st, cx.S
    if code == LOSE_ATTACK:
        put(st.forfeit_next, w, r, True)
    elif code == DROP:     # the next round goes to retrieving it; a rider dismounts
        put(st.forfeit_next, w, r, True)
        put(st.no_parry_next, w, r, True)
        if cx.uses("mounts"):
            put(st.mounted, w, r, False)
    elif code == BREAK:
        break_item(cx, w, s, r)
    elif code == HIT_SELF:
        missile = (item(S.item_kind, s, w) != MELEE) if cx.uses("missiles") else None
        for shot in (False, True) if missile is not None else (False,):
            k = missile == shot if missile is not None else None
            if k is None or some(k):
                kw, kr, ks = (w, r, s) if k is None else at_each(k, w, r, s)
                rolled = roll_damage(cx, kw, kw, kr, ks, np.full(kr.size, tb.SUCCESS),
                                     missile=shot)
                armour = cx.fight.pmfs.sample(
                    spread(armour_index(cx, kw, kr), kr.size), cx.rng)
                raw_harm(cx, kw, kr, np.maximum(rolled - armour, 0))
    elif code == FALL:
        fall(cx, w, r)


# --- blows ---------------------------------------------------------------------------------


def melee_attack(cx: Ctx, a, t, rows, slot, mode: int, *, parriable: bool = True,
                 defendable: bool = True, extra: bool = False, riposte: bool = False,
                 pounce: bool = False, rolls: tuple[np.ndarray, np.ndarray] | None = None
                 ) -> np.ndarray:
    """Hand-to-hand attacks of one ``mode`` for a batch of rows (see reference); returns
    which of the rows it landed in (neither missed nor stopped; a blow only partly parried
    lands). ``rolls``: each row's attack and defence d100, if already thrown
    (``kernel.duel`` sends its rare blows here)."""
    st, S = cx.st, cx.S
    n_rows = rows.size
    landed_rows = np.zeros(n_rows, dtype=bool)
    chance = melee_chance(cx, a, t, rows, slot)
    if extra:
        chance = tb.extra_attack_chance(chance)
    level, least = attack_roll(cx, a, t, rows, slot, chance,
                               None if rolls is None else rolls[0])
    hit = level >= tb.SUCCESS
    if not some(hit):
        return landed_rows
    a, t, rows, slot, level = at_each(hit, a, t, rows, slot, level)
    if least is not None:
        least = least[hit]
    if defendable:
        excess = 0
        if cx.fight.rules.over_100_reduces_defence and some(chance > 100):
            # BRP family: the attack's chance over 100 comes off the parry or dodge
            excess = np.maximum(np.broadcast_to(chance, hit.shape)[hit] - 100, 0)
        after, parried, parry_level = defend(cx, t, rows, level, parriable=parriable,
                                             entangle=mode == ENTANGLE, excess=excess,
                                             roll=None if rolls is None else rolls[1][hit])
    else:
        after, parried = level, np.full(rows.size, NONE)
        parry_level = np.full(rows.size, tb.FAILURE, dtype=np.int8)
    stopped = after == tb.FAILURE
    landed_rows[np.flatnonzero(hit)[~stopped]] = True
    if st.counts is not None:
        counting.landed(st, a, rows, ~stopped)
    if mode == KNOCKBACK:
        go = ~stopped
        if some(go):
            knock_back(cx, at_rows(a, go), at_rows(t, go), rows[go])
        return landed_rows
    if mode == DISARM:
        go = ~stopped
        table = resistance_table(cx.fight.rules)
        won = go & (cx.d100(rows.size) <= resistance_chance(S.STR[a], S.STR[t], **table))
        if some(won):
            disarm(cx, at_rows(t, won), rows[won])
        return landed_rows
    if mode == ENTANGLE:
        go = ~stopped
        put(st.entangled, at_rows(t, go), rows[go], True)
        put(st.held_until, at_rows(t, go), rows[go], cx.round_no + 1)
        put(st.netted, at_rows(t, go), rows[go], np.broadcast_to(
            item(S.item_kind, slot, a) != MELEE, go.shape)[go])
        wrench = parried != NONE
        if some(wrench):
            wrench[wrench] = ~S.item_shield[parried[wrench], at_rows(t, wrench)]
        if some(wrench):
            # Seed 004: STR against STR on the Resistance Table wrenches the parrying
            # weapon from the defender's grip with the entangling weapon.
            table = resistance_table(cx.fight.rules)
            wa, wt, wr = at_each(wrench, a, t, rows)
            won = cx.d100(wr.size) <= resistance_chance(S.STR[wa], S.STR[wt], **table)
            if some(won):
                lose_weapon(cx, at_rows(wt, won), parried[wrench][won], wr[won])
        return landed_rows
    # a blow only partly parried (the parry matrix ``brp``) lands at the lower level
    hit_level = level
    if cx.uses("parry_wear"):
        level = np.where(stopped, level, after)
    if pounce:      # seed 004: double damage on a success, triple on a critical
        plain = np.minimum(level, tb.SUCCESS)
        rolled = roll_damage(cx, a, t, rows, slot, plain, missile=False) * np.where(
            level == tb.CRITICAL, 3, 2)
    else:
        rolled = roll_damage(cx, a, t, rows, slot, level, missile=False)
    if least is not None and some(least):
        rolled = np.where(least, item(S.item_minimum, slot, a), rolled)
    by_parry = stopped & (parried != NONE)
    if not (cx.uses("two_weapons") or cx.fight.items_wear):
        # a parry only matters (breaks, passes the excess) with more damage than the
        # weakest item the target can parry with holds; no riposte, no wear
        by_parry &= rolled > S.weakest_parry[t]
    if some(by_parry):
        pa, pt, pr, ps, with_, p_rolled, p_level = at_each(by_parry, a, t, rows, slot, parried,
                                                            rolled, hit_level)
        excess = parry_takes(cx, pt, pr, with_, p_rolled)
        passes = excess > 0
        if some(passes):
            wound(cx, *at_each(passes, pa, pt, pr, ps, excess, p_level), missile=False)
        if not riposte and cx.uses("two_weapons"):
            back = ((with_ == OFF) & ~S.item_shield[OFF, pt] & S.riposte[pt]
                    & st.item_ok[OFF, pt, pr] & can_strike(cx, pt, pr)
                    & (get(st.status, pa, pr) == STANDING))
            if some(back):
                melee_attack(cx, *at_each(back, pt, pa, pr), np.full(int(back.sum()), OFF),
                             STRIKE, riposte=True)
    land = ~stopped
    if some(land):
        la, lt, lr, ls, l_rolled, l_level = at_each(land, a, t, rows, slot, rolled, level)
        wound(cx, la, lt, lr, ls, l_rolled, l_level, missile=False)
        if cx.uses("improvised"):
            wear(cx, la, ls, lr)
    if cx.uses("parry_wear"):
        matrix_wear(cx, a, t, rows, slot, parried, hit_level, parry_level, after)
    return landed_rows


def free_blow(cx: Ctx, a, t, rows) -> None:
    """Seed 004: running "grants the opponent one free attack that can't be parried": the
    weapon in hand, no parry; the runner may still Dodge it (the seed forbids only the
    parry; see reference ``free_blow``). Breaking off by running and a side's rout."""
    melee_attack(cx, a, t, rows, get(cx.st.wield, a, rows).astype(np.intp), STRIKE,
                 parriable=False)


# --- holding off a shorter weapon (seed 004; rules.hold_off) ---------------------------------


def breaking_off(cx: Ctx, p, rows) -> np.ndarray:
    """Hurt to its ``break_off_at`` (or after a major wound, with ``major_wound``) and on
    its feet: the fighter's action is to break off (seed 004; kernel ``break_off``)."""
    st, S = cx.st, cx.S
    return (((get(st.hp, p, rows) <= S.break_off_at[p])
             | (get(st.major, p, rows) & S.break_off_major[p])) & ~get(st.down, p, rows))


def ready_to_hold(cx: Ctx, h, foe, rows) -> np.ndarray:
    """Can ``h`` keep ``foe`` at its weapon's point this instant (``rules.tables.holds_off``): on
    its feet, neither stunned, held, surprised, exhausted, forfeiting its attack nor
    breaking off, a deployable melee weapon in hand, facing ``foe`` (its target)?"""
    st, S = cx.st, cx.S
    slot = get(st.wield, h, rows)
    ready = ((get(st.status, h, rows) == STANDING) & ~get(st.down, h, rows)
             & ~get(st.stunned, h, rows) & ~get(st.forfeit, h, rows)
             & (item(S.item_kind, slot, h) == MELEE) & ~item(S.item_quartered, slot, h))
    if st.status.shape[0] > 2:
        ready &= get(st.target, h, rows) == foe
    if cx.uses("entangle"):
        ready &= ~get(st.entangled, h, rows)
    if cx.fight.rules.fatigue:
        ready &= ~np.broadcast_to(cx.exhausted(h), rows.shape)
    if cx.round_no == 1 and cx.uses("ambush"):
        ready &= ~cx.caught_unaware(h, rows)
    if cx.uses("break_off"):
        ready &= ~breaking_off(cx, h, rows)
    return ready


def held_off(cx: Ctx, p, t, rows, slot) -> np.ndarray:
    """Which of ``p``'s blows at ``t`` (with the items ``slot``) its target holds off
    (``rules.tables.holds_off``); the others have got inside ``t``'s weapon (``st.inside``), if
    they were not already."""
    st, S = cx.st, cx.S
    mine = item(S.melee_length, slot, p)
    theirs = item(S.melee_length, get(st.wield, t, rows), t)
    held = (theirs > mine) & (get(st.inside, p, rows) != t)
    if not some(held):
        return held
    idx = held.nonzero()[0]
    hp, ht, hr = at_each(idx, p, t, rows)
    held[idx] = tb.holds_off(theirs.take(idx) if per_row(theirs) else theirs,
                             mine.take(idx) if per_row(mine) else mine,
                             ready_to_hold(cx, ht, hp, hr), False)
    gets_in = idx[~held[idx]]       # not held off: it is inside the longer weapon now
    if gets_in.size:
        put(st.inside, at_rows(p, gets_in), rows.take(gets_in), at_rows(t, gets_in))
    return held


def lengths_at_blow(cx: Ctx, h, t, rows, slot) -> tuple[np.ndarray, np.ndarray]:
    """The length classes of ``h``'s weapon (``slot``) and of ``t``'s weapon in hand, read
    as ``h``'s blow at ``t`` is struck (before it can break or knock away either): what
    ``let_inside`` judges (``rules.tables.lets_inside``)."""
    st, S = cx.st, cx.S
    return (item(S.melee_length, slot, h),
            item(S.melee_length, get(st.wield, t, rows), t))


def let_inside(cx: Ctx, h, t, rows, lengths, landed) -> None:
    """Seed 004's hold-off ends when a blow of the longer weapon fails: where ``h``'s blow
    at ``t`` did not land and ``h``'s weapon was the longer as it was struck (``lengths``
    from ``lengths_at_blow``), ``t`` gets inside (``rules.tables.lets_inside``)."""
    st = cx.st
    facing = get(st.target, t, rows) == h if st.status.shape[0] > 2 else True
    gets_in = tb.lets_inside(lengths[0], lengths[1], landed,
                             get(st.status, t, rows) == STANDING, facing)
    if some(gets_in):
        tt, rr, hh = at_each(gets_in, t, rows, h)
        put(st.inside, tt, rr, hh)


def matrix_wear(cx: Ctx, a, t, rows, slot, parried, level, parry_level, after) -> None:
    """Basic Roleplaying's matrix wears weapons (``rules.tables.parry_wear``): a partly parried
    blow costs the parrying item 2 hit points, an ordinary blow stopped by a better parry
    costs the attacker's weapon 1 (see reference ``matrix_wear``)."""
    by_parry = parried != NONE
    if not some(by_parry):
        return
    a, t, rows, slot, parried, level, parry_level, after = at_each(
        by_parry, a, t, rows, slot, parried, level, parry_level, after)
    on_parrier, on_weapon = tb.parry_wear(level, parry_level, after, tb.BRP)
    for who, what, points in ((t, parried, on_parrier), (a, slot, on_weapon)):
        m = (points > 0) & get_item(cx.st.item_ok, what, who, rows)
        if some(m):
            wear_item(cx, *at_each(m, who, what, rows, points))


def wear_item(cx: Ctx, who, slot, rows, points) -> None:
    """Items lose hit points; one worn to nothing breaks (fists and unbreakable items do
    not wear)."""
    st, S = cx.st, cx.S
    m = item(S.item_hp, slot, who) < UNBREAKABLE
    if not some(m):
        return
    who, slot, rows, points = at_each(m, who, slot, rows, points)
    st.item_hp[slot, who, rows] -= points
    gone = st.item_hp[slot, who, rows] <= 0
    if some(gone):
        break_item(cx, *at_each(gone, who, slot, rows))


def parry_takes(cx: Ctx, t, rows, slot, rolled) -> np.ndarray:
    """The parrying item breaks on damage above its hit points; returns what passes."""
    # items wear only where some are improvised or the matrix wears parries; else their
    # hit points are the table's
    hp = get_item(cx.st.item_hp, slot, t, rows) if cx.fight.items_wear else \
        item(cx.S.item_hp, slot, t)
    breaks, excess = tb.broken_parry(rolled, hp)
    if some(breaks):
        break_item(cx, at_rows(t, breaks), at_rows(slot, breaks), rows[breaks])
    return excess if cx.fight.rules.broken_parry_passes_excess else np.zeros_like(excess)


def wear(cx: Ctx, a, slot, rows) -> None:
    st, S = cx.st, cx.S
    m = item(S.item_improvised, slot, a) & st.item_ok[slot, a, rows]
    if some(m):
        a, slot, rows = at_rows(a, m), at_rows(slot, m), rows[m]
        st.item_hp[slot, a, rows] -= 1
        gone = st.item_hp[slot, a, rows] <= 0
        if some(gone):
            break_item(cx, at_rows(a, gone), at_rows(slot, gone), rows[gone])


def knock_back(cx: Ctx, a, t, rows) -> None:
    st, S = cx.st, cx.S
    yards = tb.knockback_yards(S.STR[a], S.SIZ[t])
    away = np.sign(get(st.pos, t, rows) - get(st.pos, a, rows))
    away = np.where(away == 0, np.where(t > a, 1.0, -1.0), away)
    put(st.pos, t, rows, (get(st.pos, t, rows) + away * yards).astype(np.float32))
    rider = get(st.mounted, t, rows)
    if some(rider):
        fall(cx, at_rows(t, rider), rows[rider], jolt=False)
    foot = ~rider
    if some(foot):
        ft, fr = at_rows(t, foot), rows[foot]
        falls = ~cx.succeeds(5 * S.DEX[ft] - S.balance_penalty[ft], fr.size)
        fall(cx, at_rows(ft, falls), fr[falls], jolt=False)
    # seed 004: the rim "slams into the target's chin, stunning and disorienting": one
    # stun roll for the shove and the sprawl it may end in
    stun_check(cx, t, rows)


def shoot(cx: Ctx, a, t, rows, divisor) -> None:
    """One missile per row: no parry or dodge; a shield may block an ordinary hit."""
    st, S = cx.st, cx.S
    slot = get(st.wield, a, rows)
    level, least = attack_roll(cx, a, t, rows, slot,
                               missile_chance(cx, a, t, rows, slot, divisor))
    if least is None:
        least = np.zeros(rows.size, dtype=bool)
    hit = level >= tb.SUCCESS
    if not some(hit):
        return
    a, t, rows, slot, level, least = *at_each(hit, a, t, rows, slot), level[hit], least[hit]
    shield = (st.item_ok[OFF, t, rows] & S.item_shield[OFF, t] & ~S.underwater[t]
              & tb.missile_blockable(level, item(S.item_thrusting, slot, a)))
    if some(shield):
        idx = np.flatnonzero(shield)
        chance = tb.shield_block_chance(S.item_shield_size[OFF, at_rows(t, idx)],
                                        st.bracing[at_rows(t, idx), rows[idx]])
        blocked = np.zeros(rows.size, dtype=bool)
        blocked[idx] = cx.d100(idx.size) <= chance
        keep = ~blocked
        a, t, rows, slot, level = *at_each(keep, a, t, rows, slot), level[keep]
        least = least[keep]
    if st.counts is not None:
        counting.landed(st, a, rows, np.ones(rows.size, dtype=bool))
    rolled = roll_damage(cx, a, t, rows, slot, level, missile=True)
    if some(least):
        rolled = np.where(least, item(S.item_minimum, slot, a), rolled)
    wound(cx, a, t, rows, slot, rolled, level, missile=True)


def missile_volley(cx: Ctx, a, t, rows) -> np.ndarray:
    """This round's shots for each row; returns the rows' mask of 'a shot was possible'."""
    st, S = cx.st, cx.S
    slot = get(st.wield, a, rows)
    ok = (~get(st.bracing, a, rows) & ~get(st.down, a, rows) & ~S.underwater[a]
          & (get(st.reload, a, rows) == 0) & (get(st.ammo, a, rows) > 0) & (S.cover[t] != 2))
    # Seed 004: no shooting while running other than straight ahead; move half the
    # round, then shoot.
    speed = np.where(get(st.mounted, a, rows), S.mount_move[a], S.move[a])
    ok &= ~(get(st.backed, a, rows) & (2 * get(st.moved, a, rows) > speed))
    divisor = tb.range_divisor(gap(cx, a, t, rows), item(S.item_range, slot, a),
                              item(S.item_max_multiple, slot, a))
    ok &= divisor != 0
    if not some(ok):
        return ok
    idx = np.flatnonzero(ok)
    a, t, rows, slot, divisor = *at_each(idx, a, t, rows, slot), divisor[idx]
    shots = np.where(S.volley[a], tb.volley_shots(item(S.item_volley, slot, a),
                                                  get(st.volleyed, a, rows),
                                                  S.CON[a]), 1)
    for k in range(int(shots.max())):
        go = ((k < shots) & (get(st.status, t, rows) == STANDING) & (get(st.ammo, a, rows) > 0)
              & (S.item_kind[get(st.wield, a, rows), a] != MELEE))
        if not some(go):
            break
        shoot(cx, at_rows(a, go), at_rows(t, go), rows[go], divisor[go])
        st.ammo[at_rows(a, go), rows[go]] -= 1
    st.volleyed[a, rows] += S.volley[a]
    reload = item(S.item_reload, slot, a)
    put(st.reload, a, rows, np.where(reload > 0, reload + 1, 0))
    empty = (get(st.ammo, a, rows) <= 0) & (S.item_kind[get(st.wield, a, rows), a] != MELEE)
    if some(empty):
        switch_to_melee(cx, at_rows(a, empty), rows[empty])
    return ok
