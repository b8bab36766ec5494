"""A percentile plain duel as a Markov chain (balance.exact; docs/exact.md, "Percentile").

Between rounds a plain duel (``PercentileFight.plain_duel``: two fighters, none of the
optional rules) is each fighter's hit points and status and a few flags: down, stunned, the
item in hand, the off hand (a shield) whole, no attack or no parry this round (a fumble's
lost attack or dropped weapon), a sidearm's draw still owed, and inside the foe's longer
weapon (seed 004's hold-off). One round, as the kernel plays it (``kernel.fight.play_round`` with
``kernel.duel.play_round``): stunned fighters roll CON x 5 to recover; the DEX ranks, a
draw's five ranks, the shorter weapon first up close (``rules.up_close``) and a coin for
equal ranks order the two actions (``DuelTable.order``); each action is one cell of the
duel table's 10,000 (``DuelTable``: the attacker's d100 against the defender's), then its
effects.

Nothing here restates a rule. The chance of each outcome of an action is the share of its
row of the duel table (built by ``kernel.duel.outcome_row`` from ``rules.tables.success_level``
and ``rules.tables.blow_after_defence``); damage is the table's exact pmfs, and a broken parry's
or a fumble's through ``kernel.duel.blow_pmfs`` and ``after_armour``, evaluated with
``rules.tables.broken_parry`` over the rolled damage's support. Every change of state is the
kernel's own function (``kernel.strike.raw_harm``, ``fall``, ``fumble_effect``,
``break_item``, ``kernel.duel.hold_off``, ``let_inside``, ``kernel.fight.recover_from_stun``,
``end_of_round``), played on the states as a batch of rows; where one of them rolls a
percentile (a major wound's CON x 5, a fall's stun roll) it is played twice, the roll made
and failed, and the two results weighted by the roll's exact chance (``_two_ways``).

Covered: every plain duel: shields, criticals, impales, fumbles (each effect of the fumble
table), broken parries and their excess, major wounds, falls and stuns, fighting while down
(``when_down: stand`` or ``fight_down``), the first blow and ``up_close``, and the hold-off
of a longer weapon. Not covered (``unsupported``): everything that takes a duel off the
duel table (two weapons, distance, missiles, mounts, darkness, ...; see ``PHRASES``) and
``when_down: stand_and_fight``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np

from balance.dice import Pmf
from balance.engine.bits import Layout, width_for
from balance.engine.status import STANDING
from balance.exact.chain import Branches, mix, then
from balance.exact.duel import DuelModel, Unsupported
from balance.rules.percentile.compile import (
    FIST,
    HIT_SELF,
    MAIN,
    OFF,
    SIDE,
    STAND_AND_FIGHT,
    PercentileFight,
)
from balance.rules.percentile.kernel import duel as kd
from balance.rules.percentile.kernel import fight as kernel
from balance.rules.percentile.kernel.prepare import duel_table_of, static_of
from balance.rules.percentile.kernel.strike import (
    LEVEL_HI,
    LEVEL_LO,
    Ctx,
    break_item,
    fall,
    fumble_effect,
    let_inside,
    level_table,
    raw_harm,
)
from balance.rules.percentile.rules import tables as tb

# What each optional rule of ``PercentileFight.uses`` is called in the message of a duel
# the exact engine does not cover (each takes the duel off the duel table).
PHRASES = {
    "ambush": "an ambush (side ambush)", "brace": "bracing (policy brace)",
    "break_off": "breaking off (policy break_off_at)", "cover": "cover",
    "cramped": "a cramped space or corridor", "damaged_armour": "damaged armour",
    "dark": "darkness (situation light)", "disarm": "disarming (policy disarm)",
    "distance": "distance between the fighters (movement, knock-backs, entangling)",
    "entangle": "entangling (policy entangle)", "extra_attack": "extra attacks",
    "fatigue": "fatigue (rules.fatigue)", "flank": "attacks from the side",
    "giants": "giants", "groups": "more than one fighter a side",
    "height": "height (situation position)", "improvised": "improvised weapons",
    "knockback": "knock-backs", "knockout": "knockout blows", "loose": "weapons on the ground",
    "missiles": "missile and thrown weapons", "morale": "morale (side breaks_at)",
    "mounts": "mounts", "parry_wear": "rules.parry_matrix: brp (parries wear weapons)",
    "poison": "poisoned weapons", "poison_onset": "poison onsets",
    "pounce": "the pouncing stick", "pull_blows": "pulled blows", "slick": "slick footing",
    "small_part": "aiming at a small part", "stun": "stunning blows",
    "two_weapons": "two weapons (an off-hand weapon and the riposte)",
    "underwater": "fighting underwater", "volley": "volley fire",
    "yield": "yielding (policy yield_at)",
}

# Per fighter i: hit points (0 once dead), status, and the flags a plain duel's round reads.
FLAGS = ("down", "stunned", "off_ok", "forfeit", "no_parry", "forfeit_next", "no_parry_next",
         "draw", "inside")
# Within a round only (0 between rounds): the order of its two actions (``lead`` acts first;
# ``o1``/``o2``: the first / second action happens), and the action being resolved (its
# ``actor``, the table's ``out``come, a ``blow`` of a longer weapon for ``let_inside`` and
# the item ``bslot`` it was struck with).
SCRATCH = {"half": 1, "lead": 1, "o1": 1, "o2": 1, "actor": 1, "out": 14, "blow": 1, "bslot": 2}
MIXED = 1 << 13             # an outcome of landed blows only: their damage mixed (``mixed``)
GENERAL_LEVEL = 3           # a GENERAL outcome keeps its level (bits 0-1) and parry (2-3)


def unsupported(fight: PercentileFight) -> list[str]:
    """What the exact engine does not model in this (two-fighter) fight."""
    reasons = [PHRASES.get(u, f"the rule {u!r}") for u in sorted(fight.uses)]
    if fight.rules.defences < 1:
        reasons.append("no defences (rules.defences_per_round: 0)")
    if any(f.when_down == STAND_AND_FIGHT for f in fight.fighters):
        reasons.append("getting up and fighting in one round (policy when_down: "
                       "stand_and_fight)")
    return reasons


@dataclass
class _Scripted(Ctx):
    """A kernel context whose percentile rolls all come out ``answer`` (the chance asked
    recorded), and which has no dice: the model enumerates every other roll itself."""

    answer: bool = True
    asked: list = field(default_factory=list)

    def succeeds(self, chance, k: int) -> np.ndarray:
        self.asked.append(np.broadcast_to(np.asarray(chance), (k,)).ravel())
        return np.full(k, self.answer)

    def d100(self, k: int) -> np.ndarray:
        raise AssertionError("the exact duel model met a d100 it does not enumerate")


class PercentileDuel:
    """The packed state of a plain percentile duel and one round over it."""

    def __init__(self, fight: PercentileFight) -> None:
        self.fight, self.S = fight, static_of(fight)
        self.table = duel_table_of(fight)
        S = self.S
        self.present = S.item_present.astype(bool)
        widths: dict[str, int] = {}
        for i in range(2):
            widths |= {f"hp{i}": width_for(int(S.hp[i])), f"status{i}": 2, f"wield{i}": 2}
            widths |= {f"{name}{i}": 1 for name in FLAGS}
        widths |= SCRATCH
        self.layout = Layout(**widths)
        if self.layout.bits > 62:
            raise Unsupported(f"hit points this high ({int(S.hp.max())}): the state needs "
                              f"{self.layout.bits} bits, more than a code holds")
        self.per_fighter = [n for n in widths if n not in SCRATCH]
        self._outcomes()

    # --- the duel table's rows as distributions ------------------------------------------
    def _outcomes(self) -> None:
        """Each row of the duel table as its distinct outcomes and their chances; a GENERAL
        cell (a parry the blow may break) also keeps the blow's level and the parry's item,
        read off the row's situation by the table's own ``rules.tables.success_level``."""
        table, levels = self.table, self.fight.levels
        rows = table.outcomes.reshape(-1, kd.ROLLS).astype(np.int64)
        keys = {i: key for key, i in table._rows.items()}
        first = np.arange(1, 101)[:, None]
        vals, probs = [], []
        self.mixed: list[Pmf] = []
        for r in range(rows.shape[0]):
            row = rows[r]
            general = row == kd.GENERAL
            if general.any():
                _, chance, *_, parry_slot, _ = keys[r]
                level = np.broadcast_to(tb.success_level(first, chance, levels),
                                        (100, 100)).reshape(-1).astype(np.int64)
                row = np.where(general, kd.GENERAL | (level - tb.SUCCESS)
                               | int(parry_slot) << 2, row)
            v, c = np.unique(row, return_counts=True)
            c = c / kd.ROLLS
            # the cells where a blow lands and nothing else happens, as one outcome: the
            # damage they do, mixed by their shares (one branch per amount, not per cell)
            plain = (v & kd.DAMAGE != 0) & (v & ~kd.DAMAGE == 0)
            if plain.sum() > 1:
                mass: dict[int, float] = {}
                for k, q in zip(v[plain], c[plain], strict=True):
                    for x, px in table.pmfs[int(k)]:
                        mass[x] = mass.get(x, 0.0) + q * px
                total = float(c[plain].sum())
                self.mixed.append(Pmf.from_dict({x: q / total for x, q in mass.items()}))
                v = np.append(v[~plain], MIXED | (len(self.mixed) - 1))
                c = np.append(c[~plain], total)
            vals.append(v)
            probs.append(c)
        width = max(v.size for v in vals)
        self.row_vals = np.zeros((len(vals), width), dtype=np.int64)
        self.row_probs = np.zeros((len(vals), width))
        for r, (v, p) in enumerate(zip(vals, probs, strict=True)):
            self.row_vals[r, : v.size], self.row_probs[r, : v.size] = v, p
        if self.row_vals.max() >= 1 << SCRATCH["out"] or len(self.mixed) >= kd.GENERAL:
            raise AssertionError("a duel table outcome does not fit the state's scratch field")

    # --- codes <-> the kernel's state arrays ------------------------------------------------
    def state_of(self, v: dict[str, np.ndarray]) -> SimpleNamespace:
        """The kernel's state (``kernel.state.PercentileState``'s plain-duel fields) of the
        rows ``v``: one trial a row."""
        m = v["hp0"].size

        def two(name: str, dtype) -> np.ndarray:
            return np.stack([v[f"{name}0"], v[f"{name}1"]]).astype(dtype)

        zeros = np.zeros((2, m), dtype=bool)
        st = SimpleNamespace(
            hp=two("hp", np.int16), status=two("status", np.int8), down=two("down", bool),
            stunned=two("stunned", bool), wield=two("wield", np.int8),
            forfeit=two("forfeit", bool), no_parry=two("no_parry", bool),
            forfeit_next=two("forfeit_next", bool), no_parry_next=two("no_parry_next", bool),
            draw_pending=two("draw", bool),
            inside=np.where(two("inside", bool), np.array([[1], [0]]), -1).astype(np.int8),
            no_draw=zeros.copy(), major=zeros.copy(), mounted=zeros.copy(),
            attacked=zeros.copy(), rising=zeros.copy(),
            defences=np.zeros((2, m), dtype=np.int8))
        st.item_ok = self._items(st.wield, two("off_ok", bool))
        return st

    def _items(self, wield: np.ndarray, off_ok: np.ndarray) -> np.ndarray:
        """(4, 2, m) items whole. Only the off hand is stored: in a plain duel the main
        weapon is whole while in hand (it leaves the hand only by breaking), and the
        sidearm until the fighter is down to fists (it is drawn when the main weapon breaks
        and, broken, leaves fists)."""
        ok = np.zeros((4, *wield.shape), dtype=bool)
        ok[MAIN] = self.present[MAIN][:, None] & (wield == MAIN)
        ok[OFF] = off_ok
        ok[SIDE] = self.present[SIDE][:, None] & (wield != FIST)
        ok[FIST] = self.present[FIST][:, None]
        return ok

    def fields_of(self, st: SimpleNamespace, v: dict[str, np.ndarray]) -> dict:
        """``v`` with its per-fighter fields read back from the state ``st``."""
        out = dict(v)
        if not np.array_equal(st.item_ok, self._items(st.wield, st.item_ok[OFF])):
            raise AssertionError("an item changed as a plain duel never changes it")
        for i in range(2):
            out[f"hp{i}"] = np.maximum(st.hp[i], 0).astype(np.int64)
            out[f"status{i}"] = st.status[i].astype(np.int64)
            out[f"wield{i}"] = st.wield[i].astype(np.int64)
            for name, arr in (("down", st.down), ("stunned", st.stunned),
                              ("off_ok", st.item_ok[OFF]), ("forfeit", st.forfeit),
                              ("no_parry", st.no_parry), ("forfeit_next", st.forfeit_next),
                              ("no_parry_next", st.no_parry_next), ("draw", st.draw_pending),
                              ("inside", st.inside >= 0)):
                out[f"{name}{i}"] = arr[i].astype(np.int64)
        return out

    def _ctx(self, st: SimpleNamespace, answer: bool = True) -> _Scripted:
        return _Scripted(self.fight, self.S, st, None, 1, table=self.table, answer=answer)

    def _p_success(self, chance: int) -> float:
        """The chance of a plain percentile roll against ``chance`` (``Ctx.succeeds``'s own
        table, ``rules.tables.success_range``)."""
        i = min(max(int(chance), LEVEL_LO), LEVEL_HI) - LEVEL_LO
        return float(level_table(self.fight.levels)[2][i]) / 100

    def _apply(self, v: dict, fn) -> list[tuple[dict, np.ndarray]]:
        """``fn(cx, st)``, a kernel step on the rows ``v``, as weighted results: once if it
        rolls nothing, else twice, its percentile roll made and failed (one chance per call:
        each step here rolls for one fighter)."""
        m = v["hp0"].size
        st = self.state_of(v)
        cx = self._ctx(st, True)
        fn(cx, st)
        made = self.fields_of(st, v)
        if not cx.asked:
            return [(made, np.ones(m))]
        st_b = self.state_of(v)
        cx_b = self._ctx(st_b, False)
        fn(cx_b, st_b)
        failed = self.fields_of(st_b, v)
        chances = np.unique(np.concatenate(cx.asked))
        if chances.size != 1:
            raise AssertionError("a step rolled against more than one chance")
        p = self._p_success(int(chances[0]))
        differ = np.zeros(m, dtype=bool)
        for name in self.per_fighter:
            differ |= made[name] != failed[name]
        return [(made, np.where(differ, p, 1.0)), (failed, np.where(differ, 1 - p, 0.0))]

    # --- building branches ---------------------------------------------------------------
    def _branches(self, parts: list[tuple[np.ndarray, dict | np.ndarray, np.ndarray]]
                  ) -> Branches:
        """Branches from parts ``(source rows, fields or codes, probabilities)``."""
        src, dst, prob = [], [], []
        for s, w, q in parts:
            keep = q > 0
            if not keep.any():
                continue
            if not keep.all():
                s, q = s[keep], q[keep]
                w = w[keep] if isinstance(w, np.ndarray) else _take(w, keep)
            src.append(s)
            dst.append(w if isinstance(w, np.ndarray) else self.pack(w))
            prob.append(q)
        return Branches(np.concatenate(src).astype(np.intp), np.concatenate(dst),
                        np.concatenate(prob))

    def pack(self, v: dict) -> np.ndarray:
        return self.layout.pack(**v)

    def _harm(self, src, v, p, t: int, pmfs: list[Pmf], which: np.ndarray) -> list:
        """Damage to fighter ``t`` in each row, pmf ``pmfs[which[row]]``: one row per amount,
        the hit points lost by ``kernel.strike.raw_harm``. That reads and writes only the
        target's hit points, status and down (and its major wound, not kept: nothing in a
        plain duel reads it), so it is played once per distinct (those, amount) and the
        result copied to the rows (a table of the kernel's function)."""
        codes = self.pack(v)
        f_hp, f_status, f_down = f"hp{t}", f"status{t}", f"down{t}"
        pmf_of = [pmfs[int(k)] for k in range(max(which) + 1)]
        size = np.array([q.outcomes.size for q in pmf_of])
        rep = np.repeat(np.arange(codes.size), size[which])
        first = np.cumsum(size[which]) - size[which]
        j = np.arange(rep.size) - np.repeat(first, size[which])
        amounts = np.concatenate([q.outcomes for q in pmf_of])
        chances = np.concatenate([q.probs for q in pmf_of])
        at = np.concatenate([[0], np.cumsum(size)[:-1]])[which[rep]] + j
        amount, chance = amounts[at].astype(np.int64), chances[at]
        key = ((v[f_hp][rep] * 4 + v[f_status][rep]) * 2 + v[f_down][rep]) * 1024 + amount
        uniq, pick, inverse = np.unique(key, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        w = _take(v, rep[pick])
        a = amount[pick]
        rows = np.arange(uniq.size)
        parts = []
        base = codes[rep]
        for res, q in self._apply(w, lambda cx, st: raw_harm(cx, t, rows, a)):
            out = self.layout.replace(base, **{f_hp: res[f_hp][inverse],
                                               f_status: res[f_status][inverse],
                                               f_down: res[f_down][inverse]})
            parts.append((src[rep], out, p[rep] * chance * q[inverse]))
        return parts

    # --- the round ---------------------------------------------------------------------
    def recover(self, f: int):
        """Seed 004: "each round afterward, a roll of CON x5 or less ends the effect"
        (``kernel.fight.recover_from_stun``, fighter ``f``'s roll)."""

        def step(codes: np.ndarray) -> Branches:
            v = self.layout.unpack(codes)
            if not v[f"stunned{f}"].any():
                return Branches.stay(codes)

            def fn(cx, st):
                other = st.stunned[1 - f].copy()
                st.stunned[1 - f] = False        # (the other's own roll is its step)
                kernel.recover_from_stun(cx)
                st.stunned[1 - f] = other

            src = np.arange(codes.size)
            return self._branches([(src, w, q) for w, q in self._apply(v, fn)])

        return step

    def order(self, coin: int):
        """Who acts first and whether each acts (``DuelTable.order``, this round's coin for
        equal ranks ``coin``); a fighter who acts this round has drawn
        (``kernel.duel.play_round``)."""

        def step(codes: np.ndarray) -> Branches:
            v = self.layout.unpack(codes)
            case = (v["wield0"] * 4 + v["wield1"] * 16 + v["draw0"] + v["draw1"] * 2
                    + coin * 64)
            order = self.table.order[case].astype(np.int64)
            both = (v["status0"] == STANDING) & (v["status1"] == STANDING)
            v["lead"] = 1 - (order & 1)
            v["o1"], v["o2"] = (order >> 1) & 1, (order >> 2) & 1
            for i in range(2):
                v[f"draw{i}"] = np.where(both, 0, v[f"draw{i}"])
            return Branches.stay(self.pack(v))

        return step

    def roll(self, k: int):
        """The round's ``k``-th action, up to its outcome: the hold-off decided
        (``kernel.duel.hold_off``), then each cell of the duel table's row, as its share of
        the 10,000 (``kernel.duel.actions``)."""
        rules = self.fight.rules

        def step(codes: np.ndarray) -> Branches:
            v = self.layout.unpack(codes)
            place = v["lead"] if k == 0 else 1 - v["lead"]
            both = (v["status0"] == STANDING) & (v["status1"] == STANDING)
            go = both & (v["o1" if k == 0 else "o2"] == 1)
            idle = np.flatnonzero(~go)
            parts = [(idle, codes[idle], np.ones(idle.size))]
            for p in (0, 1):
                idx = np.flatnonzero(go & (place == p))
                if not idx.size:
                    continue
                w = _take(v, idx)
                st = self.state_of(w)
                cx = self._ctx(st)
                n = idx.size
                by_1 = np.full(n, p == 1)
                acts = np.ones(n, dtype=bool)
                code = kd.codes(st)
                blow, bslot = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
                if rules.hold_off:
                    acts, blowers = kd.hold_off(cx, by_1, acts, code)
                    for _, rows, slot, _ in blowers or ():
                        blow[rows], bslot[rows] = 1, slot
                if cx.asked:
                    raise AssertionError("the hold-off rolled a die")
                w = self.fields_of(st, w)
                w["actor"], w["blow"], w["bslot"] = np.full(n, p), blow, bslot
                sit = ((by_1.astype(np.int64) * kd.CODES + code[0]) * (2 * kd.CODES)
                       + (~acts) * kd.CODES + code[1])
                row = self.table.base[sit] // kd.ROLLS
                probs = self.row_probs[row]
                cell = np.flatnonzero(probs.reshape(-1) > 0)
                rep = cell // probs.shape[1]
                out = self.layout.replace(self.pack(w)[rep],
                                          out=self.row_vals[row].reshape(-1)[cell])
                parts.append((idx[rep], out, probs.reshape(-1)[cell]))
            return self._branches(parts)

        return step

    def effects(self, codes: np.ndarray) -> Branches:
        """What an outcome does before its damage (``kernel.duel.before_damage``): a stand-up,
        a fumble (each effect of the fumble table by its weight), a fumbled dodge's fall, or
        a parry the blow may break."""
        v = self.layout.unpack(codes)
        out, actor = v["out"], v["actor"]
        general = ((out & kd.GENERAL) != 0) & ((out & MIXED) == 0)
        other = ~general & ((out & MIXED) == 0)
        stand = other & ((out & kd.STAND) != 0)
        fumbled = other & ((out & (kd.FUMBLE | kd.PARRY_FUMBLE)) != 0)
        falls = other & ((out & kd.DODGE_FUMBLE) != 0)
        rest = np.flatnonzero(~(general | fumbled | falls | stand))
        parts = [(rest, codes[rest], np.ones(rest.size))]
        up = np.flatnonzero(stand)
        if up.size:     # seed 004: "a successful Dodge roll gets the downed adventurer back"
            w = _take(v, up)
            for i in range(2):
                w[f"down{i}"] = np.where(w["actor"] == i, 0, w[f"down{i}"])
            parts.append((up, w, np.ones(up.size)))
        who = np.where((out & kd.FUMBLE) != 0, actor, 1 - actor)
        weights = np.asarray(self.fight.fumble_weights, dtype=float)
        for f in (0, 1):
            idx = np.flatnonzero(fumbled & (who == f))
            if idx.size and weights.sum() == 0:
                parts.append((idx, _take(v, idx), np.ones(idx.size)))
            elif idx.size:
                slot = ((out[idx] >> kd.SLOT_AT) & 3).astype(np.intp)
                parts += self._fumbles(idx, _take(v, idx), f, slot, weights / weights.sum())
            idx = np.flatnonzero(falls & (actor == 1 - f))
            if idx.size:
                rows = np.arange(idx.size)
                for res, q in self._apply(_take(v, idx), lambda cx, st, r=rows, t=f:
                                          fall(cx, t, r)):
                    parts.append((idx, res, q))
            idx = np.flatnonzero(general & (actor == f))
            if idx.size:
                parts += self._general(idx, _take(v, idx), f)
        return self._branches(parts)

    def _fumbles(self, src, v, f: int, slot: np.ndarray, chance: np.ndarray) -> list:
        """Fighter ``f`` fumbles with items ``slot``: each effect of the fumble table
        (``kernel.strike.fumble_effect``); hitting itself rolls its own damage against its
        own armour (``kernel.duel.blow_pmfs`` at ``tb.SUCCESS``)."""
        parts = []
        rows = np.arange(src.size)
        for code in np.flatnonzero(chance):
            q0 = np.full(src.size, chance[code])
            if code == HIT_SELF:
                key = slot * 2 + v[f"down{f}"]
                pmfs = [kd.blow_pmfs(self.fight, self.S, f, f, int(k) // 2, bool(k % 2),
                                     tb.SUCCESS)[1] if k in set(key.tolist())
                        else Pmf.constant(0) for k in range(8)]
                parts += self._harm(src, v, q0, f, pmfs, key)
                continue
            for res, q in self._apply(v, lambda cx, st, c=int(code):
                                      fumble_effect(cx, c, f, slot, rows)):
                parts.append((src, res, q0 * q))
        return parts

    def _general(self, src, v, a: int) -> list:
        """A blow of ``a`` parried, the parry item maybe broken (``kernel.strike.melee_attack``
        with ``parry_takes``): the damage rolled (``blow_pmfs``) against the item's hit
        points (``rules.tables.broken_parry``); broken, it is gone (``break_item``) and the excess
        passes, less armour (``after_armour``), if ``rules.broken_parry_passes_excess``."""
        t, S, rules = 1 - a, self.S, self.fight.rules
        out = v["out"]
        level = tb.SUCCESS + (out & GENERAL_LEVEL)
        pslot = (out >> 2) & 3
        key = ((level * 4 + v[f"wield{a}"]) * 2 + v[f"down{a}"]) * 4 + pslot
        parts = []
        for k in np.unique(key):
            idx = np.flatnonzero(key == k)
            lv, slot, down, ps = int(k) // 32, (int(k) // 8) % 4, bool((int(k) // 4) % 2), \
                int(k) % 4
            rolled, _ = kd.blow_pmfs(self.fight, self.S, a, t, slot, down, lv)
            breaks, excess = tb.broken_parry(rolled.outcomes, int(S.item_hp[ps, t]))
            held = float(rolled.probs[~breaks].sum())
            w = _take(v, idx)
            parts.append((src[idx], w, np.full(idx.size, held)))
            if not breaks.any():
                continue
            rows = np.arange(idx.size)
            gone = self._apply(w, lambda cx, st, r=rows, s=ps:
                               break_item(cx, t, np.full(r.size, s), r))
            for j in np.flatnonzero(breaks):
                e, p_x = int(excess[j]), float(rolled.probs[j])
                for res, q in gone:
                    if rules.broken_parry_passes_excess and e > 0:
                        through = kd.after_armour(self.fight, self.S, Pmf.constant(e), t, lv)
                        parts += self._harm(src[idx], res, q * p_x, t, [through],
                                            np.zeros(idx.size, dtype=np.int64))
                    else:
                        parts.append((src[idx], res, q * p_x))
        return parts

    def damage(self, codes: np.ndarray) -> Branches:
        """The damage of a blow that lands: the duel table's pmf of it after armour, on the
        target (``kernel.duel.actions``: ``raw_harm``)."""
        v = self.layout.unpack(codes)
        out = v["out"]
        mixed = (out & MIXED) != 0
        # pmf k of ``pmfs``: 0 none (a GENERAL blow's damage is its own), then the mixtures,
        # then the table's pmfs
        plain = out & kd.DAMAGE
        k = np.where(mixed, 1 + (out & (MIXED - 1)),
                     np.where(((out & kd.GENERAL) != 0) | (plain == 0), 0,
                              len(self.mixed) + plain))
        src = np.arange(codes.size)
        rest = np.flatnonzero(k == 0)
        parts = [(rest, codes[rest], np.ones(rest.size))]
        pmfs = [Pmf.constant(0), *self.mixed,
                *(self.table.pmfs[i] for i in range(1, len(self.table.pmfs)))]
        for t in (0, 1):
            idx = np.flatnonzero((k > 0) & (v["actor"] == 1 - t))
            if idx.size:
                parts += self._harm(src[idx], _take(v, idx), np.ones(idx.size), t, pmfs, k[idx])
        return self._branches(parts)

    def close(self, codes: np.ndarray) -> Branches:
        """After the action: a blow of the longer weapon that failed lets the foe inside
        (``kernel.strike.let_inside``); the action's marks cleared; a decided duel keeps only
        the statuses (nothing else is read again)."""
        v = self.layout.unpack(codes)
        if self.fight.rules.hold_off and v["blow"].any():
            for p in (0, 1):
                idx = np.flatnonzero((v["blow"] == 1) & (v["actor"] == p))
                if not idx.size:
                    continue
                w = _take(v, idx)
                landed = ((w["out"] & kd.DAMAGE) != 0) & ((w["out"] & kd.GENERAL) == 0)
                landed |= (w["out"] & MIXED) != 0
                st = self.state_of(w)
                # (a blow flagged was of the longer weapon as it was struck)
                let_inside(self._ctx(st), p, 1 - p, np.arange(idx.size),
                           (np.int8(1), np.int8(0)), landed)
                w = self.fields_of(st, w)
                for name in w:
                    v[name][idx] = w[name]
        for name in ("actor", "out", "blow", "bslot"):
            v[name] = np.zeros_like(v[name])
        return Branches.stay(self.pack(_settled(v)))

    def end(self, codes: np.ndarray) -> Branches:
        """End of the round (``kernel.fight.end_of_round``): lost attacks and dropped weapons move
        from next round to this one."""
        v = self.layout.unpack(codes)
        st = self.state_of(v)
        kernel.end_of_round(st, self.fight.uses)
        v = self.fields_of(st, v)
        for name in ("lead", "o1", "o2"):
            v[name] = np.zeros_like(v[name])     # (``turn`` sets ``half``)
        return Branches.stay(self.pack(_settled(v)))

    def round(self):
        """One half of a round, by the state's ``half``: the stun rolls, the order and the
        first action; or the second action and the round's end (``DuelModel``'s
        ``steps_per_round`` 2: the chain's matrix holds one action's branches a state)."""

        def action(k: int):
            return then(self.roll(k), self.effects, self.damage, self.close)

        def ordered(coin: int):
            return then(self.order(coin), action(0))

        first = then(self.recover(0), self.recover(1),
                     mix((0.5, ordered(0)), (0.5, ordered(1))), self.turn(1))
        second = then(action(1), self.end, self.turn(0))

        def step(codes: np.ndarray) -> Branches:
            late = self.layout.get(codes, "half") == 1
            if not late.any():
                return first(codes)
            if late.all():
                return second(codes)
            parts = []
            for mask, play in ((~late, first), (late, second)):
                idx = np.flatnonzero(mask)
                br = play(codes[idx])
                parts.append(Branches(idx[br.src], br.dst, br.p))
            return Branches(*(np.concatenate([getattr(b, f) for b in parts])
                              for f in ("src", "dst", "p")))

        return step

    def turn(self, half: int):
        """Mark which half of the round comes next (a decided duel keeps none)."""

        def step(codes: np.ndarray) -> Branches:
            v = self.layout.unpack(codes)
            both = (v["status0"] == STANDING) & (v["status1"] == STANDING)
            return Branches.stay(self.layout.replace(codes, half=np.where(both, half, 0),
                                                     o1=np.zeros_like(codes)))

        return step

    def start(self) -> np.ndarray:
        S = self.S
        v = {name: 0 for name in self.layout.fields}
        for i in range(2):
            v[f"hp{i}"] = int(S.hp[i])
            v[f"down{i}"] = int(S.starts_down[i])
            v[f"off_ok{i}"] = int(self.present[OFF, i])
        return self.layout.pack(**v).reshape(1)

    def status(self, codes: np.ndarray) -> np.ndarray:
        v = self.layout.unpack(codes)
        return np.stack([v["status0"], v["status1"]]).astype(np.int8)


def _take(v: dict, idx: np.ndarray) -> dict:
    return {name: a[idx] for name, a in v.items()}


def _settled(v: dict) -> dict:
    """A decided duel (not both standing) as its statuses alone."""
    done = (v["status0"] != STANDING) | (v["status1"] != STANDING)
    if not done.any():
        return v
    return {name: a if name.startswith("status") else np.where(done, 0, a)
            for name, a in v.items()}


def duel_model(fight: PercentileFight) -> DuelModel:
    """The exact model of a plain percentile duel, or :class:`Unsupported` naming what the
    fight uses that it does not model."""
    reasons = unsupported(fight)
    if reasons:
        raise Unsupported(reasons)
    d = PercentileDuel(fight)
    return DuelModel(d.start(), np.ones(1), d.round(), d.status, steps_per_round=2)
