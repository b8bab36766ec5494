"""A basic Yags duel as a Markov chain (balance.exact; docs/exact.md, "Yags").

Between rounds a basic duel (no detailed rule can act: ``kernel/flags.py``, ``s.on.any``
false) is each fighter's wound and stun levels (0..6, held at 6 as the kernel holds them),
fatigue and status, who acts first (initiative is rolled once for the fight: seed 000,
"fixed for the entire combat") and, in round 1 only, who fumbled initiative ("you may not
act for the first round"). One round, as the kernel plays it (``kernel/fight.py``,
``kernel/strikes.py``, ``kernel/basic.py``): the first in order attacks (attack die against
parry die, or the base difficulty where no defence was declared; natural 1s fumble and
tire, or, chosen by a more skilled foe, fail the defence), its blow goes on the target's
tracks with the health checks it calls for, an attack against a foe who declared no
defence against its target draws that foe's counter strike; then the second; then the
end-of-round checks at 20 and yielding.

Every number comes from the kernel's own compiled tables: the fighters' numbers from
``static_of`` and the blow's outcome from ``basic.tables_of`` (built by the rule functions
``rules.tracks.levels_caused`` and ``blows.tracks_after``: knockback and excess stuns included),
the health checks by ``blows.fatal_check`` and ``blows.beaten_check``, the declarations by
``declare.declare_defences``, a fumbled defence's choice by ``rules.tactics.defence_fail_effect``.
Dice are enumerated, never sampled: the 400 attack/parry pairs, the 400 damage/soak pairs
(through the table's histogram), the d20 of a check.

Covered: one fighter a side in contact, fixed stances, any weapons of equal reach, armour,
declared defences (auto or a number; none draws counter strikes), fumbles and fatigue
(exhaustion included), knockback, wounds, stuns, the health checks, yielding, and
initiative fumbles. Not covered (Monte Carlo under ``--engine auto``): everything that makes
a fight detailed (unequal reach, shields, manoeuvres, grappling, mounts, stance plans,
retreats, missiles and distance, weapons lost or drawn, ...; each named by
:func:`unsupported`), explosions, and fatigue penalties that keep growing with no
exhaustion to end them.
"""

from __future__ import annotations

import numpy as np

from balance.engine.bits import Layout, width_for
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.exact.chain import Branches, then
from balance.exact.duel import DuelModel, Unsupported
from balance.rules.yags.compile import NEVER_EXHAUSTED, YagsFight
from balance.rules.yags.kernel.basic import (
    CHECK_STUNS,
    CHECK_WOUNDS,
    LEVELS,
    PAIRS,
    RAW_STUNS_AT,
    RAW_WOUNDS_AT,
    SIDES,
    STUNS_AT,
)
from balance.rules.yags.kernel.blows import beaten_check, fatal_check
from balance.rules.yags.kernel.declare import declare_defences
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.rules.tactics import defence_fail_effect
from balance.rules.yags.rules.tracks import DEFENCE_PENALTY, FATAL, TRACK_PENALTY

# The detailed rules' flags (``vector/flags.Flags``), each as the feature it names.
DETAILED = {
    "reach": "unequal reach (free strikes and reach between weapons of different length)",
    "gear_changes": "weapons lost, broken, drawn or picked up",
    "fumble_policies": "fumble choices other than the basic rules' (policy fumbles)",
    "armour_kinds": "armour that differs by the kind of blow",
    "shifts": "damage types shifted by light weapons or size",
    "wide_fumbles": "fumbles on 1-2 (the wrong style, chain weapons)",
    "manoeuvres": "manoeuvres and charges",
    "grapple": "grappling",
    "prone": "knockdown and fighting prone",
    "mounted": "mounts",
    "shield": "shields (free defences)",
    "unarmed_counter": "counter strikes of unarmed attacks against martial weapons",
    "vitals": "vitals (armour's bonus to health checks)",
    "draw": "weapons drawn in the first round",
    "retreat": "retreats and giving ground",
    "reroll": "re-rolled initiative",
    "stunts": "stunts",
    "stances": "stance plans (a stance that changes round by round)",
    "ranks": "ranks",
    "distance": "distance between the sides (movement and missiles)",
    "blasts": "explosives",
}
# More fatigue levels than this a fighter would carry in the state: refused (the penalty
# would keep growing with no exhaustion to end the fight; the chain would never close).
MAX_FATIGUE_LEVELS = 100
P_PAIR = 1.0 / PAIRS
D20 = np.arange(1, SIDES + 1)


def fatigue_levels(s) -> list[int]:
    """Per fighter, the highest fatigue level the state keeps apart: the exhaustion level
    (reaching it, the fighter rests: yielded), or else the level from which the fatigue
    penalty no longer changes (``rules.fatigue_penalty``; the track's: 6)."""
    pen = s.fatigue_pen
    changes = np.flatnonzero(pen[1:] != pen[:-1])
    flat_from = int(changes[-1]) + 1 if changes.size else 0
    out = []
    for at in s.fighter["exhausted_at"]:
        exhausts = s.on.exhaustion and int(at) < NEVER_EXHAUSTED
        out.append(int(at) if exhausts else flat_from)
    return out


def unsupported(fight: YagsFight) -> list[str]:
    """What the exact engine does not model in this (two-fighter) Yags fight."""
    s = static_of(fight)
    reasons = [phrase for flag, phrase in DETAILED.items() if getattr(s.on, flag)]
    if s.on.any and not reasons:
        reasons.append("an acting order that changes during the fight")
    if fight.explosions:
        reasons.append("explosions (blasts placed in a given round)")
    if not s.on.any and max(fatigue_levels(s)) > MAX_FATIGUE_LEVELS:
        reasons.append("fatigue penalties that keep growing with no exhaustion "
                       "(rules.fatigue_penalty per level, rules.exhausted_at never)")
    return reasons


class YagsDuel:
    """The packed state of a basic Yags duel and one round over it."""

    def __init__(self, fight: YagsFight):
        s = static_of(fight)
        self.s = s
        t = s.basic
        self.cap = fatigue_levels(s)
        widths = {}
        for f in range(2):
            widths |= {f"w{f}": 3, f"s{f}": 3, f"fat{f}": width_for(self.cap[f]),
                       f"st{f}": 3}
        # first: the fighter acting first (fixed for the fight); r1, slow0, slow1: round 1,
        # and who fumbled initiative (no action in round 1). hit, ctr: within a round, a
        # blow to apply and a counter strike due (cleared by the steps that read them).
        widths |= {"first": 1, "r1": 1, "slow0": 1, "slow1": 1, "hit": 1, "ctr": 1}
        self.layout = Layout(**widths)
        self.attack = s.attack.astype(np.int64)
        self.defence = s.defence.astype(np.int64)
        self.skill = s.skill.astype(np.int64)
        self.health4 = s.health4.astype(np.int64)
        self.yield_at = s.yield_at.astype(np.int64)
        self.exhausted_at = s.fighter["exhausted_at"].astype(np.int64)
        self.fatigue_pen = s.fatigue_pen[: max(self.cap) + 2].astype(np.int64)
        self.exhaustion = bool(s.on.exhaustion)
        # Declarations for each case of who can act (round 1: not who fumbled initiative),
        # by the kernel's own function: case = can0 * 2 + can1.
        can = np.array([[c >> 1 & 1 for c in range(4)], [c & 1 for c in range(4)]], bool)
        target = np.array([[1] * 4, [0] * 4], dtype=np.int8)
        fixed = np.repeat(s.fixed_defences[:, None], 4, axis=1)
        most = np.repeat(s.max_defences[:, None], 4, axis=1)
        declared, defended, _ = declare_defences(fixed, most, can, target, can)
        self.can = can                                             # (2, 4)
        self.defended = defended                                   # (2, 4), by attacker
        self.def_pen = DEFENCE_PENALTY[declared].astype(np.int64)  # (2, 4)
        # A counter strike can happen: some attacker's target declared no defence against it.
        self.counters = bool((can & ~defended[::-1] & can[::-1]).any())
        self._blow_table(t)

    # --- fields ---------------------------------------------------------------------------
    def penalty(self, v: dict, f) -> np.ndarray:
        """Fighter ``f``'s wound, stun and fatigue penalty (``f`` an array of fighters)."""
        w = np.where(f == 0, v["w0"], v["w1"])
        st = np.where(f == 0, v["s0"], v["s1"])
        fat = np.where(f == 0, v["fat0"], v["fat1"])
        return TRACK_PENALTY[w].astype(np.int64) + TRACK_PENALTY[st] + self.fatigue_pen[fat]

    def status(self, codes: np.ndarray) -> np.ndarray:
        v = self.layout.unpack(codes)
        return np.stack([v["st0"], v["st1"]]).astype(np.int8)

    @staticmethod
    def field(v: dict, name: str, f: np.ndarray) -> np.ndarray:
        return np.where(f == 0, v[f"{name}0"], v[f"{name}1"])

    @staticmethod
    def put(v: dict, name: str, f: np.ndarray, value: np.ndarray) -> None:
        """Set field ``name`` of fighter ``f`` (per state) to ``value``."""
        for g in range(2):
            v[f"{name}{g}"] = np.where(f == g, value, v[f"{name}{g}"])

    def case(self, v: dict) -> np.ndarray:
        """Who could act when the round began (the declarations' case)."""
        can0 = 1 - v["r1"] * v["slow0"]
        can1 = 1 - v["r1"] * v["slow1"]
        return can0 * 2 + can1

    def tire(self, w: dict, f: np.ndarray, where: np.ndarray) -> None:
        """A level of fatigue for fighter ``f`` where ``where`` (``gear.tire_at``): one who
        becomes exhausted rests at once, as yielded."""
        fat = self.field(w, "fat", f)
        after = np.minimum(fat + where, np.array(self.cap)[f])
        self.put(w, "fat", f, after)
        if self.exhaustion:
            st = self.field(w, "st", f)
            rests = where & (after >= self.exhausted_at[f]) & (st == STANDING)
            self.put(w, "st", f, np.where(rests, YIELDED, st))

    @staticmethod
    def settle(w: dict, where=True) -> None:
        """Forget what no longer matters: a fighter down (not standing) is never hit again
        nor checked, and once one is down nobody acts again this round (no attack, no
        counter strike: it needs both standing), so its tracks and fatigue, who acts first
        and a counter strike due are cleared (fewer distinct states, the same chances; the
        survivor's tracks stay until the end-of-round checks). Only ``where`` (not where a
        blow is still to land on one just exhausted)."""
        down = where & ((w["st0"] != STANDING) | (w["st1"] != STANDING))
        for f in range(2):
            out = where & (w[f"st{f}"] != STANDING)
            for name in ("w", "s", "fat"):
                w[f"{name}{f}"] = np.where(out, 0, w[f"{name}{f}"])
        w["first"] = np.where(down, 0, w["first"])
        w["ctr"] = np.where(down, 0, w["ctr"])

    # --- steps --------------------------------------------------------------------------
    def roll(self, slot: int, counter: bool):
        """The attack roll of the fighter in ``slot`` (``counter``: its foe's counter
        strike on it), over the 400 attack/parry pairs; sets ``hit`` for the blow and, after
        a declared attack on a foe who declared no defence against it, ``ctr``."""

        def step(codes: np.ndarray) -> Branches:
            v = self.layout.unpack(codes)
            me = v["first"] if slot == 0 else 1 - v["first"]
            a, t = (1 - me, me) if counter else (me, 1 - me)
            case = self.case(v)
            st_a, st_t = self.field(v, "st", a), self.field(v, "st", t)
            if counter:
                # seed 000, Free Strikes: "they get a counter strike against you"; only a
                # fighter able to act strikes (basic rules: its victim still standing when
                # exhaustion can make it rest in its own attack).
                acting = (v["ctr"] == 1) & (st_a == STANDING) & self.can[a, case]
                if self.exhaustion:
                    acting &= st_t == STANDING
                defending = np.zeros(codes.size, dtype=bool)
            else:
                acting = self.can[a, case] & (st_a == STANDING) & (st_t == STANDING)
                defending = self.defended[a, case]
            a_total = self.attack[a] + self.penalty(v, a) + self.def_pen[a, case]
            d_total = self.defence[t] + self.penalty(v, t) + self.def_pen[t, case]
            # A more skilled foe may pick "fail defence" for a fumbled parry, unless a level
            # of fatigue would exhaust the fumbler.
            picks = self.skill[a] > self.skill[t]
            if self.exhaustion:
                picks &= self.field(v, "fat", t) + 1 < self.exhausted_at[t]
            counts = self._roll_classes(a_total, d_total, defending, picks) * acting[:, None]
            counts[:, 0] += ~acting
            # Each class's state: the fumblers tired (both at once), the blow pending.
            k = np.arange(8)
            w = {name: np.repeat(x[:, None], 8, axis=1) for name, x in v.items()}
            aa, tt = np.repeat(a[:, None], 8, axis=1), np.repeat(t[:, None], 8, axis=1)
            self.tire(w, aa, np.broadcast_to((k >> 1) & 1, aa.shape).astype(np.int64))
            self.tire(w, tt, np.broadcast_to(k & 1, tt.shape).astype(np.int64))
            w["hit"] = np.broadcast_to(k >> 2, aa.shape).astype(np.int64)
            w["ctr"] = np.zeros_like(aa)
            if not counter and self.counters:
                undefended = acting & ~self.defended[t, case] & self.can[t, case]
                w["ctr"] = np.repeat(undefended[:, None].astype(np.int64), 8, axis=1)
            self.settle(w, w["hit"] == 0)
            return Branches.table(self.layout.pack(**w), counts)

        return step

    def _roll_classes(self, a_total, d_total, defending, picks) -> np.ndarray:
        """(m, 8) chances of each class ``hit * 4 + attacker fumbled * 2 + defender tired``
        of an attack roll, over the 400 attack/parry pairs (the kernel's ``basic.attack``,
        ``basic._odd``), computed once per distinct (totals, defending, foe picks)."""
        s = self.s
        key = np.stack([a_total, d_total, defending, picks]).astype(np.int64)
        keys, inv = np.unique(key, axis=1, return_inverse=True)
        a_tot, d_tot, defend, pick = (keys[i][:, None] for i in range(4))
        defend, pick = defend == 1, pick == 1
        first, second = np.divmod(np.arange(PAIRS), SIDES)      # dice less one
        roll = a_tot + first + 1
        parry = d_tot + second + 1
        attack_fumble = first == 0
        defence_fumble = (second == 0) & defend
        unparried = roll >= s.base_difficulty
        # "fail defence, use base difficulty only" where that lets the parried attack through
        fail_def = (defence_fumble & pick & ~attack_fumble
                    & (defence_fail_effect(roll, parry, s.base_difficulty, 1,
                                           s.success_step) > 0))
        use_parry = defend & ~fail_def
        hit = ~attack_fumble & ((use_parry & (roll >= parry)) | (~use_parry & unparried))
        tired = defence_fumble & ~fail_def
        cls = hit * 4 + attack_fumble * 2 + tired
        u = keys.shape[1]
        counts = np.bincount((np.arange(u)[:, None] * 8 + cls).ravel(),
                             minlength=8 * u).reshape(u, 8) * P_PAIR
        return counts[inv.ravel()]

    def _blow_table(self, t) -> None:
        """Each fighter's blow on each body (wounds * 7 + stuns) in each status: the
        distinct (wounds, stuns, status) after it with their chances, over the 400
        damage/soak pairs of ``Tables.duel`` (``basic.apply``) and the d20s of the health
        checks it calls for (reaching fatal wounds, ``fatal_check``; then beaten stuns
        among those still standing, ``beaten_check``)."""
        s = self.s
        table = t.duel.reshape(t.duel_pairs, LEVELS * LEVELS, PAIRS + 1)[:, :, :PAIRS]
        # The distinct track codes of each (attacker, body) and their chances.
        hist = [np.unique(table[a if t.duel_pairs > 1 else 0][b], return_counts=True)
                for a in range(2) for b in range(LEVELS * LEVELS)]
        n = max(c.size for c, _ in hist)
        code = np.zeros((2 * LEVELS * LEVELS, n), dtype=np.int64)
        chance = np.zeros((2 * LEVELS * LEVELS, n))
        for i, (c, count) in enumerate(hist):
            code[i, : c.size], chance[i, : c.size] = c, count * P_PAIR
        code = code.reshape(2, LEVELS * LEVELS, 1, n, 1)          # (a, body, st, code, d20)
        chance = chance.reshape(2, LEVELS * LEVELS, 1, n, 1)
        st = np.arange(4)[None, None, :, None, None]
        h4 = self.health4[:, None, None, None, None]
        raw_w = (code >> RAW_WOUNDS_AT) & 255
        raw_s = (code >> RAW_STUNS_AT) & 255
        check_w = ((code >> CHECK_WOUNDS) & 1) == 1
        check_s = ((code >> CHECK_STUNS) & 1) == 1
        after = np.where(check_w, fatal_check(st, h4, D20, raw_w, s.success_step), st)
        p_beaten = np.mean([beaten_check(h4, d, raw_s) for d in D20], axis=0)
        p_beaten = np.where(check_s & (after == STANDING), p_beaten, 0.0)
        tracks = ((code & 7) * 8 + ((code >> STUNS_AT) & 7)) * 8
        shape = np.broadcast_shapes(after.shape, chance.shape)
        key = np.concatenate([np.broadcast_to(tracks + after, shape),
                              np.broadcast_to(tracks + UNCONSCIOUS, shape)], axis=-1)
        p = np.concatenate([np.broadcast_to(chance * (1 - p_beaten) / SIDES, shape),
                            np.broadcast_to(chance * p_beaten / SIDES, shape)], axis=-1)
        flat = key.reshape(2 * LEVELS * LEVELS * 4, -1)
        p = p.reshape(flat.shape)
        rows = np.repeat(np.arange(flat.shape[0]), flat.shape[1])
        both = rows * 512 + flat.ravel()
        uniq, inv = np.unique(both, return_inverse=True)
        mass = np.bincount(inv.ravel(), weights=p.ravel(), minlength=uniq.size)
        keep = mass > 0
        uniq, mass = uniq[keep], mass[keep]
        row, what = np.divmod(uniq, 512)
        n_out = np.bincount(row, minlength=flat.shape[0])
        k = int(n_out.max())
        col = np.arange(row.size) - np.repeat(np.cumsum(n_out) - n_out, n_out)
        self.blow_next = np.zeros((flat.shape[0], k), dtype=np.int64)
        self.blow_p = np.zeros((flat.shape[0], k))
        self.blow_next[row, col] = what
        self.blow_p[row, col] = mass

    def blow(self, slot: int, counter: bool):
        """The pending blow (``hit``) on the target's tracks and status, by the table of
        :meth:`_blow_table`."""

        def step(codes: np.ndarray) -> Branches:
            v = self.layout.unpack(codes)
            hit = v["hit"] == 1
            if not hit.any():
                return Branches.stay(codes)
            me = v["first"] if slot == 0 else 1 - v["first"]
            a, t = (1 - me, me) if counter else (me, 1 - me)
            body = self.field(v, "w", t) * LEVELS + self.field(v, "s", t)
            row = (a * LEVELS * LEVELS + body) * 4 + self.field(v, "st", t)
            what = self.blow_next[row]                              # (m, k)
            p = np.where(hit[:, None], self.blow_p[row], 0.0)
            k = what.shape[1]
            w = {name: np.repeat(x[:, None], k, axis=1) for name, x in v.items()}
            tt = np.repeat(t[:, None], k, axis=1)
            keep = ~hit[:, None]
            for name, new in (("w", what >> 6), ("s", (what >> 3) & 7), ("st", what & 7)):
                self.put(w, name, tt, np.where(keep, self.field(w, name, tt), new))
            w["hit"] = np.zeros_like(tt)
            p[:, 0] += ~hit          # (a miss keeps its code, with all its chance)
            self.settle(w)
            return Branches.table(self.layout.pack(**w), p)

        return step

    def end(self, codes: np.ndarray) -> Branches:
        """Seed 000, end of round: a fighter fighting on at fatal wounds "must make another
        check at the end of each round at a target of 20" (failure dies), then one at
        beaten stuns (failure falls unconscious); then one whose
        worse track reached its ``yield_at`` yields (``kernel.end_of_round``). Round 1's
        flags go; a decided fight keeps only the statuses (its other fields never matter)."""
        v = self.layout.unpack(codes)
        m = codes.size
        outs = []
        for f in range(2):
            st, w, sn = v[f"st{f}"], v[f"w{f}"], v[f"s{f}"]
            up = st == STANDING
            fail = beaten_check(self.health4[f], D20, FATAL).mean()   # at 20: d20 1 or short
            p_dead = np.where(up & (w >= FATAL), fail, 0.0)
            p_out = np.where(up & (sn >= FATAL), (1 - p_dead) * fail, 0.0)
            # statuses: as is, dead, unconscious; then yielding of those still standing
            worst = np.maximum(w, sn)
            stays = np.where(up & (worst >= self.yield_at[f]), YIELDED, st)
            outs.append((np.stack([stays, np.full(m, DEAD), np.full(m, UNCONSCIOUS)], axis=1),
                         np.stack([1 - p_dead - p_out, p_dead, p_out], axis=1)))
        (st0, p0), (st1, p1) = outs
        w = {name: np.repeat(x[:, None], 9, axis=1) for name, x in v.items()}
        w["st0"] = np.repeat(st0, 3, axis=1)
        w["st1"] = np.tile(st1, (1, 3))
        p = np.repeat(p0, 3, axis=1) * np.tile(p1, (1, 3))
        w["r1"] = np.zeros_like(w["r1"])
        w["slow0"] = np.zeros_like(w["r1"])
        w["slow1"] = np.zeros_like(w["r1"])
        decided = (w["st0"] != STANDING) | (w["st1"] != STANDING)
        for name in ("w0", "w1", "s0", "s1", "fat0", "fat1", "first"):
            w[name] = np.where(decided, 0, w[name])
        return Branches.table(self.layout.pack(**w), p)

    def round(self):
        """Each fighter's action in turn (its roll, its blow, and the counter strike it may
        draw), then the end of the round; the states between the steps merged
        (``chain.then``; continuing the branches unmerged within an action measured no
        faster)."""
        steps = []
        for slot in range(2):
            steps += [self.roll(slot, False), self.blow(slot, False)]
            if self.counters:
                steps += [self.roll(slot, True), self.blow(slot, True)]
        return then(*steps, self.end)

    def start(self) -> tuple[np.ndarray, np.ndarray]:
        """Initiative (agility x 4 + d20, once for the fight; speed class first; ties by a
        random order, ``kernel.start``) and fumbled initiative, over the 400 d20 pairs; a
        fighter who starts exhausted rests (never fights)."""
        s = self.s
        r0, r1 = np.divmod(np.arange(PAIRS), SIDES)
        r0, r1 = r0 + 1, r1 + 1
        key0 = s.speed[0] * 1000 - int(s.initiative[0]) - r0
        key1 = s.speed[1] * 1000 - int(s.initiative[1]) - r1
        fatigue = s.fighter["fatigue"].astype(np.int64)
        st = [YIELDED if self.exhaustion and fatigue[f] >= self.exhausted_at[f] else STANDING
              for f in range(2)]
        base = dict(w0=0, w1=0, s0=0, s1=0, st0=st[0], st1=st[1], r1=1, hit=0, ctr=0,
                    fat0=min(int(fatigue[0]), self.cap[0]),
                    fat1=min(int(fatigue[1]), self.cap[1]))
        codes, probs = [], []
        for first, p in ((0, (key0 < key1) + 0.5 * (key0 == key1)),
                         (1, (key1 < key0) + 0.5 * (key0 == key1))):
            c = self.layout.pack(**base, first=first, slow0=(r0 == 1).astype(np.int64),
                                 slow1=(r1 == 1).astype(np.int64))
            codes.append(c)
            probs.append(p * P_PAIR)
        return np.concatenate(codes), np.concatenate(probs)


def duel_model(fight: YagsFight) -> DuelModel:
    """The exact model of a basic Yags duel, or :class:`Unsupported` naming what it lacks."""
    reasons = unsupported(fight)
    if reasons:
        raise Unsupported(reasons)
    d = YagsDuel(fight)
    codes, p = d.start()
    return DuelModel(codes, p, d.round(), d.status)
