"""A Ymlad duel as a Markov chain (balance.exact; docs/exact.md, "Ymlad").

Between rounds a duel in contact is each fighter's harm (long-lasting, brief, grappling) and
status, and whether the two are in close combat. One round, as the kernel plays it
(``kernel.fight.play_round``; seed 002): two fighters who both want close combat engage; the
initiative d20s order the two attacks (19/40 each way) or make them simultaneous (1/20:
both strike at the state before either blow); each attack is effort against resistance
moved by the drift die, and a success closes in, backs off, or does harm moved by a second
drift; after each group of equal initiative a fighter at its ``yield_at`` gives up.

Every number comes from the compiled fight's tables (``kernel.fight.static_of``, built by the
rule functions of ``compile.py``): effort, resistance, harm margin and kind by style, the
harm track's penalties and thresholds. The contest's chance is ``rules.tables.p_success`` (exact),
the harm's the drift pmf (``balance.dice.Pmf.drift``, its tail below 1e-16 dropped).

Covered: a one-on-one fight starting in contact, in melee, formation or close combat (each
style with its own weapon and skill), with wounds, stuns and grappling, holds and releases,
a held fighter fighting back or disengaging (``policy.held``), and yielding. Not covered (the
scenario runs on Monte Carlo under ``--engine auto``): sides starting apart (movement,
missiles, charges, the lance charge), fleeing (``flee_at``), morale, and a weapon switch that
costs the attack (``rules.weapon_switch: attack``).
"""

from __future__ import annotations

import numpy as np

from balance.dice import Pmf
from balance.engine.bits import Layout, width_for
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.exact.chain import Branches, mix, then
from balance.exact.duel import DuelModel, Unsupported
from balance.rules.ymlad.compile import NEVER, YmladFight
from balance.rules.ymlad.kernel.fight import static_of
from balance.rules.ymlad.kernel.groups import CONTACT_EPS
from balance.rules.ymlad.rules.tables import (
    CLOSE,
    DISENGAGE_BONUS,
    FORMATION,
    GRAPPLE,
    MELEE,
    STUN,
    WOUND,
    p_success,
    stun_split,
)

P_FIRST = 19 / 40          # one d20 lower than the other
P_TOGETHER = 1 / 20        # equal initiative: both strike at the state before either blow


def unsupported(fight: YmladFight) -> list[str]:
    """What the exact engine does not model in this (two-fighter) fight."""
    reasons = []
    s = static_of(fight)
    if abs(float(s.start[0]) - float(s.start[1])) > s.contact + CONTACT_EPS:
        reasons.append("the fighters start apart (movement, missiles and charges)")
    if any(f.flee_at < NEVER for f in fight.fighters):
        reasons.append("fleeing (policy flee_at)")
    if any(b is not None for b in fight.breaks_at):
        reasons.append("morale (breaks_at)")
    if s.switch_attack:
        reasons.append("a weapon switch that costs the attack (rules.weapon_switch: attack)")
    return reasons


class YmladDuel:
    """The packed state of a Ymlad duel and one round over it."""

    def __init__(self, fight: YmladFight):
        s = static_of(fight)
        self.s = s
        self.room = s.room
        # Harm past these changes nothing (the fighter is dead, or down for good): stored
        # capped, so the state space stays small.
        self.body_cap = [int(v) for v in s.dead_at]
        self.brief_cap = [int(v) for v in s.down_at]
        self.grapple_cap = [int(v) for v in s.wasted_at]
        pen = int(max(1, -int(s.penalty.min())))
        widths = {}
        for i in range(2):
            widths |= {f"body{i}": width_for(self.body_cap[i]),
                       f"brief{i}": width_for(self.brief_cap[i]),
                       f"grapple{i}": width_for(self.grapple_cap[i]), f"status{i}": 3}
        widths |= {"engaged": 1,
                   # the state when a group of equal initiative began (seed, Initiative)
                   "snap": 1, "snap_up0": 1, "snap_up1": 1, "snap_pen0": width_for(pen),
                   "snap_pen1": width_for(pen), "snap_engaged": 1, "snap_free0": 1,
                   "snap_free1": 1}
        self.layout = Layout(**widths)
        self.drift = Pmf.drift()
        # The harm of a success: h = max(margin + drift, 0); beyond ``h_max`` every field is
        # capped whatever h is, so the tail is one branch.
        self.h_max = 2 * max(self.body_cap + self.brief_cap + self.grapple_cap) + 2
        # Style when not in close combat (seed, Melee: formation if both want it, or if the
        # one who wants it has secured flanks; a duel has no ring to outflank anyone).
        pf = s.prefers_formation
        free = []
        for f in range(2):
            t = 1 - f
            form_f, form_t = pf[f] & ~s.flanked[f], pf[t] & ~s.flanked[t]
            formation = ((form_f & form_t) | (form_f & ~pf[t] & s.flanks_secured[f])
                         | (form_t & ~pf[f] & s.flanks_secured[t]))
            free.append(FORMATION if formation else MELEE)
        self.free_style = free

    # --- fields ---------------------------------------------------------------------------
    def unpack(self, codes: np.ndarray) -> dict[str, np.ndarray]:
        return self.layout.unpack(codes)

    def pack(self, v: dict[str, np.ndarray]) -> np.ndarray:
        return self.layout.pack(**v)

    def penalty(self, v: dict[str, np.ndarray], f: int) -> np.ndarray:
        """The harm track penalty of fighter ``f`` (``kernel.harm._update_penalty``)."""
        s = self.s
        total = v[f"body{f}"] + v[f"brief{f}"] + v[f"grapple{f}"]
        out = np.zeros(total.shape, dtype=np.int64)
        for level in range(s.penalty_at.shape[0]):
            out = np.where(total >= s.penalty_at[level, f], s.penalty[level, f], out)
        return out

    def status(self, codes: np.ndarray) -> np.ndarray:
        v = self.unpack(codes)
        return np.stack([v["status0"], v["status1"]]).astype(np.int8)

    # --- the rules on fields ------------------------------------------------------------
    def _free(self, v: dict, f: int, where: np.ndarray) -> None:
        """Released from a hold: grappling harm gone; one only pinned stands again."""
        rest = v[f"body{f}"] + v[f"brief{f}"]
        up = where & (v[f"status{f}"] == UNCONSCIOUS) & (rest < self.s.down_at[f])
        v[f"status{f}"] = np.where(up, STANDING, v[f"status{f}"])
        v[f"grapple{f}"] = np.where(where, 0, v[f"grapple{f}"])

    def _inflict(self, v: dict, t: int, kind: np.ndarray, harm: np.ndarray,
                 where: np.ndarray) -> None:
        """Harm ``harm`` of ``kind`` on fighter ``t`` where ``where`` (``kernel.harm.inflict``)."""
        s, f = self.s, 1 - t
        harm = np.where(where, harm, 0)
        brief, lasting = stun_split(harm)
        stun, wound, grapple = kind == STUN, kind == WOUND, kind == GRAPPLE
        body = v[f"body{t}"] + wound * harm + stun * lasting
        brief = v[f"brief{t}"] + stun * brief * bool(s.stunnable[t])
        grip = v[f"grapple{t}"] + grapple * harm
        v[f"body{t}"] = np.minimum(body, self.body_cap[t])
        v[f"brief{t}"] = np.minimum(brief, self.brief_cap[t])
        v[f"grapple{t}"] = np.minimum(grip, self.grapple_cap[t])
        total = v[f"body{t}"] + v[f"brief{t}"] + v[f"grapple{t}"]
        dead = (v[f"body{t}"] >= s.dead_at[t]) | (v[f"grapple{t}"] >= s.wasted_at[t])
        down = np.where(dead, DEAD, np.where(total >= s.down_at[t], UNCONSCIOUS, STANDING))
        old = v[f"status{t}"]
        new = np.where(where, np.maximum(old, down), old)
        v[f"status{t}"] = new
        fell = where & (old == STANDING) & (new != STANDING)
        # Pinned: down only by the grappling harm of the partner who holds it; the hold
        # stays, its own grip on the partner goes. Anyone else who falls lets go.
        rest = v[f"body{t}"] + v[f"brief{t}"]
        pinned = fell & (v["engaged"] == 1) & (new == UNCONSCIOUS) & (rest < s.down_at[t])
        v[f"grapple{f}"] = np.where(pinned, 0, v[f"grapple{f}"])
        self._let_go(v, fell & ~pinned)

    def _let_go(self, v: dict, where: np.ndarray) -> None:
        """Who is out lets go: the hold ends and the partner is freed (``kernel.harm._let_go``)."""
        held = where & (v["engaged"] == 1)
        v["engaged"] = np.where(held, 0, v["engaged"])
        for f in range(2):   # (only the partner's release matters; the one out stays out)
            self._free(v, f, held & (v[f"status{f}"] != DEAD))

    # --- steps --------------------------------------------------------------------------
    def engage_both_close(self, codes: np.ndarray) -> Branches:
        """Seed, Close: two fighters who both want close combat engage at once."""
        s = self.s
        if not (s.prefers_close[0] and s.prefers_close[1]):
            return Branches.stay(codes)
        v = self.unpack(codes)
        up = (v["status0"] == STANDING) & (v["status1"] == STANDING)
        v["engaged"] = np.where(up, 1, v["engaged"])
        return Branches.stay(self.pack(v))

    def take_snapshot(self, codes: np.ndarray) -> Branches:
        v = self.unpack(codes)
        v["snap"] = np.ones_like(codes)
        for f in range(2):
            v[f"snap_up{f}"] = (v[f"status{f}"] == STANDING).astype(np.int64)
            v[f"snap_pen{f}"] = -self.penalty(v, f)
            v[f"snap_free{f}"] = (v[f"grapple{f}"] == 0).astype(np.int64)
        v["snap_engaged"] = v["engaged"].copy()
        return Branches.stay(self.pack(v))

    def drop_snapshot(self, codes: np.ndarray) -> Branches:
        v = self.unpack(codes)
        for name in ("snap", "snap_up0", "snap_up1", "snap_pen0", "snap_pen1", "snap_engaged",
                     "snap_free0", "snap_free1"):
            v[name] = np.zeros_like(codes)
        return Branches.stay(self.pack(v))

    def attack(self, f: int):
        """Fighter ``f``'s one attack of the round (``kernel.fight.act`` in a duel in contact):
        on the snapshot when one was taken (simultaneous), else on the state as it is."""
        s, t = self.s, 1 - f

        def step(codes: np.ndarray) -> Branches:
            v = self.unpack(codes)
            snap = v["snap"] == 1
            up_f = np.where(snap, v[f"snap_up{f}"] == 1, v[f"status{f}"] == STANDING)
            up_t = np.where(snap, v[f"snap_up{t}"] == 1, v[f"status{t}"] == STANDING)
            pen_f = np.where(snap, -v[f"snap_pen{f}"], self.penalty(v, f))
            pen_t = np.where(snap, -v[f"snap_pen{t}"], self.penalty(v, t))
            engaged = np.where(snap, v["snap_engaged"], v["engaged"]) == 1
            free_f = np.where(snap, v[f"snap_free{f}"] == 1, v[f"grapple{f}"] == 0)
            acting = up_f & up_t
            style = np.where(engaged, CLOSE, self.free_style[f])
            closing = ~engaged & bool(s.prefers_close[f])
            # Seed, Close: held, the other "can engage in close combat too, or try to
            # disengage" (policy.held, as the kernel reads it: Static.fights_back).
            leaving = engaged & ~bool(s.prefers_close[f]) & ~bool(s.fights_back[f, t])
            harmful = ~closing & ~leaving
            eff = s.effort[style, f, t] + pen_f + leaving * free_f * self.room * DISENGAGE_BONUS
            res = s.resistance[style, 0, t] + pen_t
            p_ok = np.where(acting, _p_success(eff - res), 0.0)
            # Branch 0: nothing happens (no action, or the contest failed).
            outs, probs = [codes], [1 - p_ok]
            # A success that closes in or backs off.
            moved = {k: a.copy() for k, a in v.items()}
            engage = acting & closing & (v["engaged"] == 0)
            moved["engaged"] = np.where(engage, 1, moved["engaged"])
            back = acting & leaving
            moved["engaged"] = np.where(back, 0, moved["engaged"])
            for g in range(2):
                self._free(moved, g, back)
            outs.append(self.pack(moved))
            probs.append(np.where(closing | leaving, p_ok, 0.0))
            # A harmful success: harm h = max(margin + drift, 0), h = 1 .. h_max (the last
            # column holds every h >= h_max; h = 0 changes nothing), all h at once as columns.
            margin = s.margin[style, 0, f, t].astype(np.int64)
            kind = s.kind[style, f, t]
            hit = acting & harmful
            h = np.arange(1, self.h_max + 1)
            p_h = self._harm_p(margin[:, None], h[None, :])             # (m, h_max)
            probs[0] = probs[0] + np.where(hit, p_ok * self._harm_p(margin, 0), 0.0)
            w = {k: np.repeat(a[:, None], h.size, axis=1) for k, a in v.items()}
            self._inflict(w, t, kind[:, None], np.broadcast_to(h, p_h.shape),
                          np.broadcast_to(hit[:, None], p_h.shape))
            dst = np.concatenate([np.stack(outs, axis=1), self.pack(w)], axis=1)
            p = np.concatenate([np.stack(probs, axis=1),
                                np.where(hit[:, None], p_ok[:, None] * p_h, 0.0)], axis=1)
            return Branches.table(dst, p)

        return step

    def _harm_p(self, margin: np.ndarray, h) -> np.ndarray:
        """P(harm = h) for 0 < h < h_max, P(harm >= h_max) at h_max, P(harm = 0) at 0, for
        each margin (broadcast against ``h``)."""
        d = self.drift
        h = np.asarray(h)
        if h.ndim == 0 and h == 0:
            return _cdf(d, -margin)                      # drift <= -margin
        exact = _pmf(d, h - margin)
        tail = 1 - _cdf(d, h - margin - 1)               # drift >= h - margin
        return np.where(h == self.h_max, tail, exact)

    def react(self, codes: np.ndarray) -> Branches:
        """After a group of equal initiative: a standing fighter whose harm reached its
        ``yield_at``, its foe standing, gives up and lets go (``kernel.flight.react``)."""
        s = self.s
        if not (s.yield_at < NEVER).any():
            return Branches.stay(codes)
        v = self.unpack(codes)
        up = [v[f"status{f}"] == STANDING for f in range(2)]
        for f in range(2):
            total = v[f"body{f}"] + v[f"brief{f}"] + v[f"grapple{f}"]
            gives_up = up[f] & up[1 - f] & (total >= s.yield_at[f])
            v[f"status{f}"] = np.where(gives_up, YIELDED, v[f"status{f}"])
            self._let_go(v, gives_up)
        return Branches.stay(self.pack(v))

    def round(self):
        one_then = [self.attack(0), self.react, self.attack(1), self.react]
        other_then = [self.attack(1), self.react, self.attack(0), self.react]
        together = [self.take_snapshot, self.attack(0), self.attack(1), self.drop_snapshot,
                    self.react]
        return then(self.engage_both_close,
                    mix((P_FIRST, then(*one_then)), (P_FIRST, then(*other_then)),
                        (P_TOGETHER, then(*together))))

    def start(self) -> np.ndarray:
        zero = {name: 0 for name in self.layout.fields}
        return self.layout.pack(**zero).reshape(1)


def _p_success(difference: np.ndarray) -> np.ndarray:
    """``rules.tables.p_success`` of each score difference (evaluated once per distinct one)."""
    values, where = np.unique(np.asarray(difference), return_inverse=True)
    p = np.array([p_success(int(d)) for d in values])
    return p[where].reshape(np.shape(difference))


def _pmf(d: Pmf, k: np.ndarray) -> np.ndarray:
    idx = np.asarray(k) - d.min_outcome
    ok = (idx >= 0) & (idx < d.probs.size)
    return np.where(ok, d.probs[np.clip(idx, 0, d.probs.size - 1)], 0.0)


def _cdf(d: Pmf, k: np.ndarray) -> np.ndarray:
    """P(drift <= k)."""
    c = np.cumsum(d.probs)
    idx = np.asarray(k) - d.min_outcome
    return np.where(idx < 0, 0.0, c[np.clip(idx, 0, c.size - 1)])


def duel_model(fight: YmladFight) -> DuelModel:
    """The exact model of a Ymlad duel, or :class:`Unsupported` naming what it lacks."""
    reasons = unsupported(fight)
    if reasons:
        raise Unsupported(reasons)
    d = YmladDuel(fight)
    return DuelModel(d.start(), np.ones(1), d.round(), d.status)
