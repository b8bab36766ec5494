"""A plain duel's actions by one table lookup a blow (issue 19; docs/engine.md).

In a duel where none of the optional rules can act (``PercentileFight.plain_duel``) what an
action does depends only on a few small numbers of each fighter, its *code* (the item in
hand, down or not, off-hand item whole, unable to parry this round, forfeiting its
attack), and on two d100s: the attacker's (its attack, or its Dodge roll to stand up) and
the target's (its parry or dodge). ``DuelTable`` holds, for every pair of codes and each of
the 10,000 pairs of rolls, what happens, by the same rules as ``kernel.strike``:

* the damage of a blow that lands: ``pmfs[k]`` for k in the low bits (0: none), the
  damage *after* armour (the weapon and its holder's bonus less the target's armour roll,
  as one exact distribution; a critical ignores the armour), so one uniform rolls what
  took two;
* what happens before it, in a few rows: a downed fighter's Dodge roll gets it up (its
  action); the attacker fumbles (the fumble effects, ``kernel.strike.fumble``, with the
  item in hand); the target fumbles its parry (the effects, with the item it parried
  with) or its dodge (it falls); or a parry the blow may break, a row the general blow
  (``kernel.strike.melee_attack``) plays with the same dice.

So an action is: both fighters' codes, one lookup of the pair's row, one draw of a number
in 0..9999 for the two d100s, one lookup of the outcome; then hit points for the rows a
blow lands in (``raw_harm``, as the general blow). The trials act in two phases, each
with a place per row: first the one that goes first in each trial, then the other (its
codes read after the first phase), so each trial sees its two actions in order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from balance.dice import Pmf
from balance.engine.bits import Layout, LayoutError
from balance.engine.breakdown import ATTACKS, CRITICALS, FUMBLES, HITS
from balance.engine.pick import get, put, some
from balance.engine.status import STANDING
from balance.rules.percentile.compile import AUTO, DODGE, DRAW_RANKS, OFF, PARRY, PercentileFight
from balance.rules.percentile.compile import STAND as STAND_POLICY
from balance.rules.percentile.kernel import counting
from balance.rules.percentile.kernel.strike import (
    LEVEL_HI,
    LEVEL_LO,
    NONE,
    STRIKE,
    Ctx,
    fall,
    fumble,
    held_off,
    let_inside,
    melee_attack,
    raw_harm,
)
from balance.rules.percentile.rules import tables as tb
from balance.rules.percentile.rules.damage import CountTable, PmfTable, at_least_zero

if TYPE_CHECKING:
    from balance.rules.percentile.kernel.prepare import Static

# The table's packed numbers, each a declared layout (``balance.engine.bits``: the widths
# named once, the shifts computed, every layout checked against the dtype it is stored in
# here, at import, and every value against its field when a table is built).
#
# An outcome (int16, ``outcome_row``): the damage pmf of a blow that lands (its index in
# ``pmfs``, 0: none) and what else happens first: the attacker stands up; fumbles its
# attack; the target fumbles its parry (with the item ``slot``) or its dodge (falls); or the
# general blow plays the row (a parry the blow may break).
OUTCOME = Layout(damage=6, stand=1, fumble=1, parry_fumble=1, dodge_fumble=1, general=1,
                 slot=2)
DAMAGE, STAND, FUMBLE, PARRY_FUMBLE, DODGE_FUMBLE, GENERAL = (
    OUTCOME.fields[f].mask
    for f in ("damage", "stand", "fumble", "parry_fumble", "dodge_fumble", "general"))
SLOT_AT = OUTCOME.fields["slot"].shift
# A fighter's code (int8, ``codes``): the item in hand, down, the off-hand item whole, unable
# to parry this round, no attack this round (forfeit or stunned). What the attacker's row
# reads of it is its role (slot, down, forfeit); the target's (slot, down, off whole, no
# parry).
CODE = Layout(slot=2, down=1, off_whole=1, no_parry=1, forfeit=1)
CODES = CODE.size
DOWN, OFF_WHOLE, NO_PARRY, FORFEIT = (
    CODE.fields[f].mask for f in ("down", "off_whole", "no_parry", "forfeit"))
ATTACKER = Layout(slot=2, down=1, forfeit=1)
TARGET = Layout(slot=2, down=1, off_whole=1, no_parry=1)
# An action's situation (int16, ``actions``): the target's code, no action (the idle row),
# the attacker's code, and whether place 1 is the attacker: the row's start in ``base``.
SITUATION = Layout(target=CODE.bits, idle=1, attacker=CODE.bits, by_1=1)
# ``order_case`` (int8): the draws pending, the items in hand, this round's coin for equal
# ranks; ``DuelTable.order`` (int8): place 0 first (or place 1 not at all), one acts, both.
ORDER_CASE = Layout(draw_0=1, draw_1=1, wield_0=2, wield_1=2, coin=1)
ORDER = Layout(first=1, one=1, both=1)
for _layout, _dtype in ((OUTCOME, np.int16), (CODE, np.int8), (SITUATION, np.int16),
                        (ORDER_CASE, np.int8), (ORDER, np.int8), (ATTACKER, np.int8),
                        (TARGET, np.int8)):
    _layout.check_fits(_dtype)
ORDER_FIRST, ORDER_ONE, ORDER_BOTH = (ORDER.fields[f].mask for f in ORDER.fields)
ROLLS = 10_000              # (attack d100 - 1) * 100 + (defence d100 - 1)


def attacker_role(code):
    """The attacker's role (``ATTACKER``: slot, down, forfeit) in its code (``CODE``), by
    shifts alone (it runs in the round too, where ``Layout.pack``'s checks would cost)."""
    low = code & (CODE.fields["slot"].mask | DOWN)
    return low | ((code >> CODE.fields["forfeit"].shift) << ATTACKER.fields["forfeit"].shift)


def target_role(code):
    """The target's role (``TARGET``: slot, down, off whole, no parry): the code's low bits."""
    return code & (TARGET.size - 1)


# (the roles keep the code's own bit places for what they share)
assert all(ATTACKER.fields[f].shift == CODE.fields[f].shift for f in ("slot", "down"))
assert all(TARGET.fields[f].shift == CODE.fields[f].shift for f in TARGET.fields)


class DuelTable:
    """Outcome rows for every (attacker place, attacker code, target code): ``base`` maps a
    row's situation (``actions``) to the start of its row in ``outcomes`` (int16,
    ``ROLLS`` a row); ``pmfs`` holds the damage of landed blows."""

    def __init__(self, fight: PercentileFight, S: Static) -> None:
        self.fight, self.S = fight, S
        self.pmfs = PmfTable()
        self._rows: dict[tuple, int] = {}
        self._vectors: list[np.ndarray] = []
        self._final: dict[tuple, tuple[int, int]] = {}
        idle = self._row(("none",))
        by_role = np.zeros((2, ATTACKER.size, TARGET.size), dtype=np.int32)
        for p in (0, 1):
            for ar in range(ATTACKER.size):
                for dr in range(TARGET.size):
                    by_role[p, ar, dr] = self._row(self._key(p, ar, dr))
        # each situation (``SITUATION``): the attacker's and the target's roles read off
        # their codes
        code = np.arange(CODES)
        a_role, t_role = attacker_role(code), target_role(code)
        by_0 = by_role[0][a_role[:, None], t_role[None, :]]         # [code 0, code 1]
        by_1 = by_role[1][a_role[None, :], t_role[:, None]]
        idle = np.full((CODES, CODES), idle)
        base = np.stack([np.concatenate([by_0, idle], axis=1),
                         np.concatenate([by_1, idle], axis=1)])      # (2, 64, 128)
        assert base.size == SITUATION.size
        self.base = base.reshape(-1).astype(np.int32) * ROLLS
        # does a fighter of each code strike a blow (rather than stand up or do nothing)?
        self.blows = np.stack([
            np.array([self._key(p, int(r), 0)[0] == "blow" for r in a_role]) for p in (0, 1)])
        if len(self.pmfs) > DAMAGE + 1:
            raise LayoutError(f"{len(self.pmfs)} damage distributions: the outcome's damage "
                              f"field holds {DAMAGE + 1}")
        self.outcomes = np.concatenate(self._vectors)
        self.order = self._order()
        # the landed damage by one integer draw and one lookup (exact), where the dice allow
        self.damage = CountTable.of(self.pmfs) or self.pmfs
        self._tallies: np.ndarray | None = None

    def tallies(self) -> np.ndarray:
        """The breakdown's counts of each outcome (``tally_row``), indexed as ``outcomes``;
        built on first use (only a run with the breakdown reads them)."""
        if self._tallies is None:     # (``_rows`` keeps its keys in the rows' order)
            self._tallies = np.concatenate([tally_row(key, self.fight.levels)
                                            for key in self._rows])
        return self._tallies

    def _order(self) -> np.ndarray:
        """(128,) int8 by ``order_case``: bit 0, place 0 goes first; bit 1, someone acts;
        bit 2, both do. Both fighters standing, each the other's target, as the general
        declaration (``kernel.fight.declare``, ``kernel.fight.up_close``) keys them, by its rule
        functions evaluated over the cases: the DEX rank less a draw's five ranks
        (``rules.tables.drawn_rank``), the key (``rules.tables.rank_key``), up close the
        longer melee
        weapon after the shorter (``rules.tables.strikes_after``, ``rules.up_close``); then, as
        ``kernel.fight.act`` orders them, the higher key first, the round's coin (bit 6) between
        equal keys, and a key under 2 not acting."""
        S = self.S
        case = ORDER_CASE.unpack(np.arange(ORDER_CASE.size))
        drawing = (case["draw_0"], case["draw_1"])
        wield = (case["wield_0"], case["wield_1"])
        coin = (case["coin"], 1 - case["coin"])
        key = [tb.rank_key(tb.drawn_rank(int(S.DEX[p]), drawing[p], DRAW_RANKS), True)
               for p in (0, 1)]
        if self.fight.rules.up_close:   # a plain duel: nobody moves, both in reach
            length = [S.melee_length[wield[p], p] for p in (0, 1)]
            after = [(length[p] > length[1 - p]) & (key[p] >= 4) & (key[1 - p] >= 4)
                     & (length[1 - p] >= 0) for p in (0, 1)]
            key = [np.where(after[p], tb.strikes_after(key[p], key[1 - p]), key[p])
                   for p in (0, 1)]
        acts = [k >= 2 for k in key]
        slot_key = [np.where(acts[p], key[p] * 2 + coin[p], -1) for p in (0, 1)]
        first = slot_key[0] > slot_key[1]
        return ORDER.pack(first=first, one=acts[0] | acts[1],
                          both=acts[0] & acts[1]).astype(np.int8)

    def _row(self, key: tuple) -> int:
        if key not in self._rows:
            self._rows[key] = len(self._vectors)
            self._vectors.append(outcome_row(key, self.fight.levels))
        return self._rows[key]

    def _key(self, p: int, ar: int, dr: int) -> tuple:
        """What decides the outcomes of place ``p``'s action against the other (see
        ``kernel.fight.take_action``, ``attack_action`` and ``kernel.strike.melee_attack``)."""
        S, rules, t = self.S, self.fight.rules, 1 - p
        slot, down, forfeit = (int(ATTACKER.get(ar, f)) for f in ("slot", "down", "forfeit"))
        t_slot, t_down, off_whole, no_parry = (int(TARGET.get(dr, f)) for f in TARGET.fields)
        down, forfeit, t_down, off_whole, no_parry = map(
            bool, (down, forfeit, t_down, off_whole, no_parry))
        if down and S.when_down[p] == STAND_POLICY:     # its action is to get up: a Dodge roll
            return ("stand", int(tb.success_range(S.dodge[p], self.fight.levels)))
        # (a fighter getting up by ``stand_and_fight`` plays its round by the general steps,
        # ``actions``; down here, it went down this round and fights from the ground)
        if forfeit or (down and S.item_two_handed[slot, p]):
            return ("none",)
        chance = int(S.item_attack[slot, p] + tb.down_modifier(down, t_down))
        # the target's parry: the off hand or the item in hand, as parry_with prefers (the
        # item in hand is always whole: a broken one is dropped for another); none while
        # it cannot parry
        off = off_whole and S.item_can_parry[OFF, t] and not (S.item_shield[OFF, t]
                                                             and S.underwater[t])
        own = bool(S.item_can_parry[t_slot, t])
        parry_slot = OFF if off and (S.off_first[t_slot, t] or not own) else \
            slot_or_none(t_slot, own)
        if no_parry:
            parry_slot = NONE
        choice = S.defence[t]
        if parry_slot != NONE and choice in (PARRY, AUTO):
            defence, skill = "parry", int(S.item_parry[parry_slot, t])
        elif not t_down and (choice == DODGE or (choice == AUTO and parry_slot == NONE)):
            defence, skill = "dodge", int(S.dodge[t])
        else:
            defence, skill = "none", 0
        if rules.over_100_reduces_defence and chance > 100:
            skill -= chance - 100
        holds = int(S.item_hp[parry_slot, t]) if defence == "parry" else 0
        landed, breaks = [], []
        for level in (tb.SUCCESS, tb.SPECIAL, tb.CRITICAL):
            pmf, most = self._landed(p, slot, down, level)
            landed.append(pmf)
            breaks.append(defence == "parry" and most > holds)
        return ("blow", clip(chance), defence, clip(skill), not rules.critical_needs_critical,
                tuple(landed), tuple(breaks), slot, max(parry_slot, 0), rules.parry_matrix)

    def _landed(self, p: int, slot: int, down: bool, level: int) -> tuple[int, int]:
        """(pmf index of the damage after armour, the most damage rolled before it) of a
        blow of ``level`` (see ``kernel.strike.roll_damage`` and ``wound``)."""
        key = (p, slot, down, level)
        if key not in self._final:
            rolled, final = blow_pmfs(self.fight, self.S, p, 1 - p, slot, down, level)
            self._final[key] = (self.pmfs.add(final), rolled.max_outcome)
        return self._final[key]


def blow_pmfs(fight: PercentileFight, S: Static, a: int, t: int, slot: int, down: bool, level: int
              ) -> tuple[Pmf, Pmf]:
    """(the damage rolled, the damage after ``t``'s armour) of a blow of ``level`` by
    ``a`` with item ``slot`` (``down``: from the ground), as exact pmfs, by the rules of
    ``kernel.strike.roll_damage`` and ``wound`` in a plain duel (no pulled blows, charges,
    water or damaged armour). A fumble that hits its own wielder is ``t == a`` at
    ``tb.SUCCESS``. The duel table and the exact duel model (``exact.py``) both read it."""
    pmfs = fight.pmfs
    impale = level >= tb.SPECIAL and S.item_thrusting[slot, a]
    if down:     # seed 004: no damage bonus while down
        w = S.item_impale[slot, a] if impale else S.item_normal[slot, a]
    else:
        w = S.item_impale_db[slot, a] if impale else S.item_normal_db[slot, a]
    rolled = at_least_zero(pmfs[int(w)])
    return rolled, after_armour(fight, S, rolled, t, level)


def after_armour(fight: PercentileFight, S: Static, rolled: Pmf, t: int, level: int) -> Pmf:
    """The damage ``rolled`` of a blow of ``level`` that ``t``'s armour lets through
    (``kernel.strike.wound``: a critical ignores armour; never below 0), exact."""
    if level == tb.CRITICAL:
        return rolled
    return at_least_zero(rolled - fight.pmfs[int(S.armour[t])])


def slot_or_none(slot: int, ok: bool) -> int:
    return slot if ok else NONE


def clip(chance: int) -> int:
    """A chance as ``kernel.strike.roll_level`` reads it."""
    return min(max(chance, LEVEL_LO), LEVEL_HI)


def outcome_row(key: tuple, levels: tb.Levels) -> np.ndarray:
    """The ``ROLLS`` outcomes (int16) of one situation ``key`` (``DuelTable._key``)."""
    first = np.arange(1, 101)[:, None]       # the attacker's d100
    second = np.arange(1, 101)[None, :]      # the target's
    out = np.zeros((100, 100), dtype=np.int16)
    if key[0] == "stand":
        out[:] = np.where(first <= key[1], STAND, 0)
    elif key[0] == "blow":
        _, chance, defence, skill, lenient, landed, breaks, slot, parry_slot, matrix = key
        level = tb.success_level(first, chance, levels)
        got = tb.success_level(second, skill, levels) if defence != "none" else \
            np.full_like(second, tb.FAILURE)
        # the parry matrix (rules.parry_matrix), the rule kernel_strike.defend plays
        after = np.where(level >= tb.SUCCESS,
                         tb.blow_after_defence(level, got, matrix, lenient), level)
        stopped = after == tb.FAILURE
        fumbled = got == tb.FUMBLE
        for k, lv in enumerate((tb.SUCCESS, tb.SPECIAL, tb.CRITICAL)):
            out += np.where(after == lv, landed[k], 0).astype(np.int16)
            if breaks[k]:
                out[(level == lv) & stopped] = GENERAL
        if defence == "parry":
            out += np.where((level >= tb.SUCCESS) & fumbled,
                            PARRY_FUMBLE | parry_slot << SLOT_AT, 0).astype(np.int16)
        elif defence == "dodge":
            out += np.where((level >= tb.SUCCESS) & fumbled, DODGE_FUMBLE, 0).astype(np.int16)
        out[np.broadcast_to(level == tb.FUMBLE, out.shape)] = FUMBLE | slot << SLOT_AT
    return out.reshape(-1)


# ``tally_row`` bits: an attack roll, a blow that landed, a critical attack roll, a fumbled
# attack, the target's fumbled parry or dodge (none in the rows the general blow plays: it
# counts them itself).
T_ATTACK, T_LANDED, T_CRITICAL, T_FUMBLE, T_DEFENCE_FUMBLE = 1, 2, 4, 8, 16


def tally_row(key: tuple, levels: tb.Levels) -> np.ndarray:
    """The ``ROLLS`` breakdown counts (int8, ``T_*`` bits) of one situation ``key``, by the
    same levels as ``outcome_row``."""
    out = np.zeros((100, 100), dtype=np.int8)
    if key[0] == "blow":
        _, chance, defence, skill, lenient, _, breaks, _, _, matrix = key
        first = np.arange(1, 101)[:, None]
        second = np.arange(1, 101)[None, :]
        level = tb.success_level(first, chance, levels)
        got = tb.success_level(second, skill, levels) if defence != "none" else \
            np.full_like(second, tb.FAILURE)
        after = np.where(level >= tb.SUCCESS,
                         tb.blow_after_defence(level, got, matrix, lenient), level)
        out += T_ATTACK
        out += np.where((level >= tb.SUCCESS) & (after >= tb.SUCCESS), T_LANDED, 0).astype(np.int8)
        out += np.where(level == tb.CRITICAL, T_CRITICAL, 0).astype(np.int8)
        out += np.where(level == tb.FUMBLE, T_FUMBLE, 0).astype(np.int8)
        if defence != "none":
            out += np.where((level >= tb.SUCCESS) & (got == tb.FUMBLE), T_DEFENCE_FUMBLE,
                            0).astype(np.int8)
        general = np.zeros(out.shape, dtype=bool)
        for k, lv in enumerate((tb.SUCCESS, tb.SPECIAL, tb.CRITICAL)):
            if breaks[k]:
                general |= (level == lv) & (after == tb.FAILURE)
        out[general] = 0
    return out.reshape(-1)


def count_actions(st, by_1: np.ndarray, at: np.ndarray, table: DuelTable) -> None:
    """The breakdown of this phase's actions (``counting``), read off the outcomes' rows and
    dice (``at``): no dice drawn."""
    flags = table.tallies().take(at)
    a = by_1.view(np.int8).astype(np.intp)
    cols = np.arange(a.size)
    for bit, metric, who in ((T_ATTACK, ATTACKS, a), (T_LANDED, HITS, a),
                             (T_CRITICAL, CRITICALS, a), (T_FUMBLE, FUMBLES, a),
                             (T_DEFENCE_FUMBLE, FUMBLES, 1 - a)):
        counting.count(st, metric, who, cols, mask=(flags & bit) != 0)


def codes(st) -> np.ndarray:
    """(2, n) int8: each fighter's code (see ``CODES``). (Multiplications: numpy's int8
    shifts and masked ``where=`` adds cost ten to a hundred times as much here.)"""
    code = st.down.view(np.int8) * np.int8(DOWN)
    code += st.wield
    code += st.item_ok[OFF].view(np.int8) * np.int8(OFF_WHOLE)
    code += st.no_parry.view(np.int8) * np.int8(NO_PARRY)
    code += (st.forfeit | st.stunned).view(np.int8) * np.int8(FORFEIT)   # (no attack either way)
    return code


def play_round(cx: Ctx, take_action: Callable | None = None) -> None:
    """A plain duel's round up to its end (``kernel.fight.play_round``): who goes first (a coin
    for equal DEX ranks) and each trial's two actions in that order (``take_action``: the
    general steps' action, ``kernel.fight.take_action``, for what the table cannot play)."""
    st, table = cx.st, cx.table
    both = (st.status[0] == STANDING) & (st.status[1] == STANDING)
    order = table.order.take(order_case(st, cx.rng))
    st.draw_pending &= ~both          # a fighter who acts this round has drawn
    first = (order & ORDER_FIRST).view(bool)    # place 0 acts first (or place 1 not at all)
    actions(cx, ~first, ((order & ORDER_ONE) != 0) & both, take_action)
    standing = st.status == STANDING
    actions(cx, first, ((order & ORDER_BOTH) != 0) & standing[0] & standing[1], take_action)


def order_case(st, rng: np.random.Generator) -> np.ndarray:
    """(n,) int8: each trial's case of ``DuelTable.order``: the draws pending (bits 0-1),
    the items in hand (2-3, 4-5) and this round's coin for equal ranks (6)."""
    f = ORDER_CASE.fields
    case = st.wield[0] * np.int8(1 << f["wield_0"].shift)
    case += st.wield[1] * np.int8(1 << f["wield_1"].shift)
    case += st.draw_pending[0].view(np.int8)
    case += st.draw_pending[1].view(np.int8) * np.int8(1 << f["draw_1"].shift)
    case += rng.integers(0, 2, size=case.size, dtype=bool).view(np.int8) \
        * np.int8(1 << f["coin"].shift)
    return case


def actions(cx: Ctx, by_1: np.ndarray, go: np.ndarray,
            take_action: Callable | None = None) -> None:
    """One action in every row where ``go``: by place 1 where ``by_1``, else by place 0,
    against the other (``take_action``: as ``play_round``). (A fighter whose foe fell
    earlier in the round does not act: the trial is decided, and standing up then changes
    nothing recorded.)"""
    st, table = cx.st, cx.table
    if cx.any_rising:
        go = go & ~by_the_steps(cx, by_1, go & (st.rising[0] | st.rising[1]), take_action)
    code = codes(st)
    blowers = None
    if cx.fight.rules.hold_off:
        go, blowers = hold_off(cx, by_1, go, code)
    row = by_1.view(np.int8) * np.int8(CODES)         # (SITUATION: by_1, attacker, then
    row += code[0]                                    # idle and target in the low byte)
    sit = row.astype(np.int16)
    sit *= np.int16(1 << SITUATION.fields["attacker"].shift)
    row = (~go).view(np.int8) * np.int8(1 << SITUATION.fields["idle"].shift)
    row += code[1]
    sit += row
    rolls = cx.rng.integers(0, ROLLS, size=sit.size, dtype=np.int32)
    at = table.base.take(sit)
    at += rolls
    outcome = table.outcomes.take(at)
    if st.counts is not None:     # the breakdown (counting.py), off the same dice
        count_actions(st, by_1, at, table)
    # (masks as bool: numpy's nonzero of an int array costs ten times as much)
    rows = (outcome > DAMAGE).nonzero()[0]
    landed = None
    if rows.size:
        landed = before_damage(cx, by_1.take(rows).view(np.int8), rows, outcome.take(rows),
                               rolls)
    rows = ((outcome & DAMAGE) != 0).nonzero()[0]
    if rows.size:
        target = 1 - by_1.take(rows).view(np.int8)
        damage = table.damage.sample(outcome.take(rows) & DAMAGE, cx.rng)
        if st.counts is not None:
            counting.dealt(st, 1 - target, rows, damage)
        raw_harm(cx, target, rows, damage)
    if blowers is not None:
        # seed 004: a blow of the longer weapon that fails lets the shorter one inside it
        hit = (outcome & DAMAGE) != 0
        if landed is not None:
            hit[landed] = True
        for p, r, _, lengths in blowers:
            let_inside(cx, p, 1 - p, r, lengths, hit.take(r))


def by_the_steps(cx: Ctx, by_1: np.ndarray, general: np.ndarray,
                 take_action: Callable | None) -> np.ndarray:
    """Play the actions the table cannot by the general steps (``take_action``:
    ``kernel.fight.take_action``, the same rules, passed in by ``kernel.fight.play_round`` so this
    module never imports the kernel) and return their rows' mask: a fighter getting up
    (``when_down: stand_and_fight``, ``kernel.fight.rise_intents``) acts, or is attacked without a
    defence."""
    if take_action is None:
        raise ValueError("a fighter getting up needs the general steps (take_action)")
    for p in (0, 1):
        rows = (general & (by_1 == bool(p))).nonzero()[0]
        if rows.size:
            take_action(cx, p, rows)
    return general


def hold_off(cx: Ctx, by_1: np.ndarray, go: np.ndarray, code: np.ndarray
             ) -> tuple[np.ndarray, list | None]:
    """Seed 004: a longer weapon may "hold off a shorter-armed opponent entirely"
    (``rules.hold_off``; the shared ``kernel.strike.held_off`` and ``let_inside``). Where a
    fighter about to strike a blow holds a shorter weapon than its foe's and is not inside
    it, ``held_off`` decides: held off, it does nothing this action (``go`` cleared);
    else it is inside from now on. Returns ``go`` and, for the blows of longer weapons at
    foes not inside them, (place, rows, item, the two lengths as struck) for
    ``let_inside`` once the blows are struck (None: none)."""
    st, S, table = cx.st, cx.S, cx.table
    if S.mains_one_length:
        # (MAIN is 0: with one length of main weapon, only a trial where someone holds
        # another item can have two lengths)
        if not some(st.wield):
            return go, None
        cols = (go & st.wield.any(axis=0)).nonzero()[0]
    else:
        cols = go.nonzero()[0]
    if not cols.size:
        return go, None
    wield = [st.wield[0].take(cols), st.wield[1].take(cols)]
    length = [S.melee_length[:, 0].take(wield[0]), S.melee_length[:, 1].take(wield[1])]
    two = (length[0] != length[1]).nonzero()[0]
    if not two.size:
        return go, None
    cols, wield, length = cols.take(two), [w.take(two) for w in wield], \
        [x.take(two) for x in length]
    actor = by_1.take(cols)
    a_code = np.where(actor, code[1].take(cols), code[0].take(cols))
    blows = table.blows[actor.view(np.int8), attacker_role(a_code)]
    go = go.copy()
    blowers = []
    for p in (0, 1):
        mine = (actor == bool(p)) & blows
        shorter = mine & (length[p] < length[1 - p]) & (st.inside[p].take(cols) != 1 - p)
        if some(shorter):
            r, slot = cols[shorter], wield[p][shorter].astype(np.intp)
            held = held_off(cx, p, 1 - p, r, slot)
            go[r[held]] = False
        longer = mine & (length[p] > length[1 - p]) & (st.inside[1 - p].take(cols) != p)
        if some(longer):       # (the lengths as the blow is struck: tables.lets_inside)
            blowers.append((p, cols[longer], wield[p][longer].astype(np.intp),
                            (length[p][longer], length[1 - p][longer])))
    return go, blowers or None


def before_damage(cx: Ctx, a: np.ndarray, rows: np.ndarray, what: np.ndarray,
                  rolls: np.ndarray) -> np.ndarray | None:
    """The rows' stand-ups, fumbles and general blows (attacker places ``a``), in one call
    each: they come before any damage the rows' blows do. Returns the rows a general blow
    landed in (None: no general blow)."""
    up = ((what & STAND) != 0).nonzero()[0]
    if up.size:
        put(cx.st.down, a.take(up), rows.take(up), False)
    fumbles = ((what & (FUMBLE | PARRY_FUMBLE)) != 0).nonzero()[0]
    if fumbles.size:
        w, f = what.take(fumbles), a.take(fumbles)
        who = np.where(w & FUMBLE, f, 1 - f)      # (a few rows)
        fumble(cx, who, (w >> SLOT_AT).astype(np.intp), rows.take(fumbles))
    falls = ((what & DODGE_FUMBLE) != 0).nonzero()[0]
    if falls.size:
        fall(cx, 1 - a.take(falls), rows.take(falls))
    general = ((what & GENERAL) != 0).nonzero()[0]
    if general.size:
        g, r = a.take(general), rows.take(general)
        roll = rolls.take(r)
        landed = melee_attack(cx, g, 1 - g, r, get(cx.st.wield, g, r).astype(np.intp),
                              STRIKE, rolls=(roll // 100 + 1, roll % 100 + 1))
        return r[landed]
    return None
