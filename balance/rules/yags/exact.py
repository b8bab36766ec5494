"""A basic Yags duel as a Markov chain (balance.exact; docs/exact.md, "Yags").

Between rounds a basic duel (no detailed rule can act: ``vector/flags.py``, ``s.on.any``
false) is each fighter's wound and stun levels (0..6, held at 6 as the kernel holds them),
fatigue and status, who acts first (initiative is rolled once for the fight: seed 000,
"fixed for the entire combat") and, in round 1 only, who fumbled initiative ("you may not
act for the first round"). One round, as the kernel plays it (``vector/kernel.py``,
``vector/strikes.py``, ``vector/basic.py``): the first in order attacks (attack die against
parry die, or the base difficulty where no defence was declared; natural 1s fumble and
tire, or, chosen by a more skilled foe, fail the defence), its blow goes on the target's
tracks with the health checks it calls for, an attack against a foe who declared no
defence against its target draws that foe's counter strike; then the second; then the
end-of-round checks at 20 and yielding.

Every number comes from the kernel's own compiled tables: the fighters' numbers from
``static_of`` and the blow's outcome from ``basic.tables_of`` (built by the rule functions
``tracks.levels_caused`` and ``blows.tracks_after``: knockback and excess stuns included),
the health checks by ``blows.fatal_check`` and ``blows.beaten_check``, the declarations by
``declare.declare_defences``, a fumbled defence's choice by ``tactics.defence_fail_effect``.
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
from balance.rules.yags.fighters import NEVER_EXHAUSTED, YagsFight
from balance.rules.yags.tactics import defence_fail_effect
from balance.rules.yags.tracks import DEFENCE_PENALTY, FATAL, TRACK_PENALTY
from balance.rules.yags.vector.basic import (
    CHECK_STUNS,
    CHECK_WOUNDS,
    LEVELS,
    PAIRS,
    RAW_STUNS_AT,
    RAW_WOUNDS_AT,
    SIDES,
    STUNS_AT,
)
from balance.rules.yags.vector.blows import beaten_check, fatal_check
from balance.rules.yags.vector.declare import declare_defences
from balance.rules.yags.vector.static import static_of

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

    def _blow_table(self, t) -> None:
        """Each fighter's blow on each body (wounds * 7 + stuns) as the distinct track codes
        of ``Tables.duel`` with their chances over the 400 damage/soak pairs."""
        table = t.duel.reshape(t.duel_pairs, LEVELS * LEVELS, PAIRS + 1)[:, :, :PAIRS]
        per = []
        for a in range(2):
            rows = table[a if t.duel_pairs > 1 else 0]
            per.append([np.unique(r, return_counts=True) for r in rows])
        k = max(len(c) for p in per for c, _ in p)
        self.blow_code = np.zeros((2, LEVELS * LEVELS, k), dtype=np.int64)
        self.blow_p = np.zeros((2, LEVELS * LEVELS, k))
        for a in range(2):
            for b, (codes, counts) in enumerate(per[a]):
                self.blow_code[a, b, : codes.size] = codes
                self.blow_p[a, b, : codes.size] = counts * P_PAIR

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

    # --- steps --------------------------------------------------------------------------
    def roll(self, slot: int, counter: bool):
        """The attack roll of the fighter in ``slot`` (``counter``: its foe's counter
        strike on it), over the 400 attack/parry pairs; sets ``hit`` for the blow and, after
        a declared attack on a foe who declared no defence against it, ``ctr``."""
        s = self.s

        def step(codes: np.ndarray) -> Branches:
            v = self.layout.unpack(codes)
            m = codes.size
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
                defending = np.zeros(m, dtype=bool)
            else:
                acting = self.can[a, case] & (st_a == STANDING) & (st_t == STANDING)
                defending = self.defended[a, case]
            rpen_a = self.penalty(v, a) + self.def_pen[a, case]
            rpen_t = self.penalty(v, t) + self.def_pen[t, case]
            first, second = np.divmod(np.arange(PAIRS), SIDES)      # dice less one
            roll = (self.attack[a] + rpen_a)[:, None] + first + 1   # (m, 400)
            parry = (self.defence[t] + rpen_t)[:, None] + second + 1
            attack_fumble = first == 0
            defence_fumble = (second == 0) & defending[:, None]
            unparried = roll >= s.base_difficulty
            # A more skilled foe picks "fail defence" where the base difficulty lets through
            # the attack the parry stopped, unless fatigue would exhaust the fumbler.
            foe_picks = self.skill[a] > self.skill[t]
            fail_def = (defence_fumble & foe_picks[:, None] & ~attack_fumble
                        & (defence_fail_effect(roll, parry, s.base_difficulty, 1,
                                               s.success_step) > 0))
            if self.exhaustion:
                fat_t = self.field(v, "fat", t)
                fail_def &= (fat_t + 1 < self.exhausted_at[t])[:, None]
            use_parry = defending[:, None] & ~fail_def
            hit = ~attack_fumble & ((use_parry & (roll >= parry)) | (~use_parry & unparried))
            tired_t = defence_fumble & ~fail_def
            cls = (hit * 4 + attack_fumble * 2 + tired_t) * acting[:, None]
            counts = np.bincount((np.arange(m)[:, None] * 8 + cls).ravel(),
                                 minlength=8 * m).reshape(m, 8)
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
            return Branches.table(self.layout.pack(**w), counts * P_PAIR)

        return step

    def blow(self, slot: int, counter: bool):
        """The pending blow (``hit``) on the tracks, with the health checks it calls for
        (``basic.apply``: reaching fatal wounds, ``fatal_check``; then beaten stuns among
        those still standing, ``beaten_check``), over the damage/soak pairs and the d20s."""
        s = self.s

        def step(codes: np.ndarray) -> Branches:
            v = self.layout.unpack(codes)
            if not v["hit"].any():
                return Branches.stay(codes)
            me = v["first"] if slot == 0 else 1 - v["first"]
            a, t = (1 - me, me) if counter else (me, 1 - me)
            hit = v["hit"] == 1
            body = self.field(v, "w", t) * LEVELS + self.field(v, "s", t)
            code = self.blow_code[a, body]                         # (m, k)
            p = np.where(hit[:, None], self.blow_p[a, body], 0.0)
            k = code.shape[1]
            w1 = code & 7
            s1 = (code >> STUNS_AT) & 7
            check_w = ((code >> CHECK_WOUNDS) & 1) == 1
            check_s = ((code >> CHECK_STUNS) & 1) == 1
            raw_w = (code >> RAW_WOUNDS_AT) & 255
            raw_s = (code >> RAW_STUNS_AT) & 255
            st = self.field(v, "st", t)[:, None]
            h4 = self.health4[t][:, None]
            # The fatal-wound check's status for each d20, then the beaten check's chance of
            # failing (a second d20) for those still standing.
            after = np.where(check_w[..., None],
                             fatal_check(st[..., None], h4[..., None], D20, raw_w[..., None],
                                         s.success_step),
                             st[..., None])                        # (m, k, 20)
            beaten = beaten_check(h4[..., None], D20, raw_s[..., None]).mean(axis=-1)
            beaten = np.where(check_s, beaten, 0.0)                # (m, k)
            statuses = np.arange(4)
            share = (after[..., None] == statuses).mean(axis=2)   # (m, k, 4)
            up = share[..., STANDING].copy()
            share[..., STANDING] = up * (1 - beaten)
            share[..., UNCONSCIOUS] += up * beaten
            w = {name: np.repeat(np.repeat(x[:, None], k, axis=1)[..., None], 4, axis=2)
                 for name, x in v.items()}
            tt = np.repeat(np.repeat(t[:, None], k, axis=1)[..., None], 4, axis=2)
            miss = ~hit[:, None, None]
            for name, new in (("w", w1), ("s", s1)):
                old = self.field(w, name, tt)
                self.put(w, name, tt, np.where(miss, old, new[..., None]))
            old = self.field(w, "st", tt)
            self.put(w, "st", tt, np.where(miss, old, statuses))
            w["hit"] = np.zeros_like(tt)
            # (A miss keeps its code, with all its chance in one column.)
            first_col = (np.arange(k)[:, None] == 0) & (statuses == STANDING)
            prob = np.where(miss, first_col, p[..., None] * share)
            m = codes.size
            return Branches.table(self.layout.pack(**w).reshape(m, -1), prob.reshape(m, -1))

        return step

    def end(self, codes: np.ndarray) -> Branches:
        """Seed 000, end of round: a fighter still up at fatal wounds checks health at 20
        (failure dies), then at beaten stuns (failure falls unconscious); then one whose
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
