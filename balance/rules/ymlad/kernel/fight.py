"""The vectorised Ymlad round (seed 002) for every open trial at once.

Layout: every state array is (n_places, n_trials), a fighter's place is its scenario index
(initiative is re-rolled each round, so nobody is re-seated). Python loops run over
initiative slots, fighters, pairs and sides only, never over trials. Per-fighter formulas are
tabulated once (:func:`static_of`) from the same functions the scalar reference calls
(``compile.py``), so the kernel only adds the dice and the per-round state. The rules and
every assumption: ``docs/rules/ymlad.md``; ``reference/fight.py`` is the oracle for this module.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from balance.dice import drift
from balance.engine.breakdown import ATTACKS, DAMAGE_DEALT, DAMAGE_SOAKED, HITS, add_at
from balance.engine.distance import CLOSE as MOVE_CLOSE
from balance.engine.distance import KEEP_DISTANCE, step
from balance.engine.masks import set_where
from balance.engine.prepared import once
from balance.engine.sparse import flat_true
from balance.engine.state import TrialState
from balance.engine.status import STANDING
from balance.engine.targeting import turn_order
from balance.rules.ymlad.compile import (
    NEVER,
    YmladFight,
    angled_resistance,
    effort,
    fights_back_at,
    harm_margin,
    height_bonus,
)
from balance.rules.ymlad.kernel.flight import end_of_round, react
from balance.rules.ymlad.kernel.groups import (
    CONTACT_EPS,
    Choice,
    Layout,
    Ring,
    cells_of,
    choose,
    layout_of,
    ring_of,
)
from balance.rules.ymlad.kernel.harm import _engage, _release, inflict
from balance.rules.ymlad.rules.tables import (
    CLOSE,
    DISENGAGE_BONUS,
    FORMATION,
    MELEE,
    MISSILE,
    MISSILE_CHARGE_STOP,
    formation_by_charge,
    mounted_pace_penalty,
    outflanked,
    range_band,
    saddle_counts,
    shot_band,
    switch_costs_attack,
)

CHARGE_KEY = 32         # initiative key step per point of reach in a charge round


@dataclass(frozen=True)
class Static:
    """The compiled fight as arrays: per style, per fighter, per (attacker, defender) pair."""

    n_sides: int
    side_of: np.ndarray          # (c,) int8
    duel: bool                   # two fighters on two sides: targets never change
    effort: np.ndarray           # (4, c, c) int16: [style, attacker, defender], height in
    resistance: np.ndarray       # (4, 3, c) int16: [style, angle of attack, defender]
    margin: np.ndarray           # (4, 3, c, c) int16: harm margin [style, range band, a, d]
    charge_margin: np.ndarray    # (4, c, c) int16: the same in a charge round
    # (the breakdown's soak) ``margin`` and ``charge_margin`` against the defender unarmoured
    margin_bare: np.ndarray      # (4, 3, c, c) int16
    charge_bare: np.ndarray      # (4, c, c) int16
    kind: np.ndarray             # (4, c, c) int8: WOUND, STUN or GRAPPLE
    penalty_at: np.ndarray       # (L, c) int16: harm at which each penalty level starts
    penalty: np.ndarray          # (L, c) int16: its penalty (0 for who feels no pain)
    down_at: np.ndarray          # (c,) int16
    dead_at: np.ndarray          # long-lasting harm that kills
    wasted_at: np.ndarray        # grappling harm that kills (strangled)
    yield_at: np.ndarray
    stunnable: np.ndarray        # (c,) bool
    shooter: np.ndarray          # (c,) bool: prefers missile and has a missile weapon
    band_close: np.ndarray       # (c,) float32 range band ends
    band_medium: np.ndarray
    band_max: np.ndarray
    band_shift: np.ndarray       # (c,) int8
    range_effort: np.ndarray     # (3, c) int16
    rounds_per_shot: np.ndarray  # (c,) int8
    shots: np.ndarray            # (c,) int16
    far: np.ndarray              # (c,) float32
    keep_at: np.ndarray
    prefers_close: np.ndarray    # (c,) bool: contact style is close
    prefers_formation: np.ndarray
    flanks_secured: np.ndarray
    flanked: np.ndarray          # (c,) bool: attacked from side or rear
    moving: np.ndarray           # (c,) int16 standing moving-target bonus
    polearm: np.ndarray
    speed: np.ndarray            # (c,) float32
    reach: np.ndarray            # (c,) int16
    charge: np.ndarray           # (c,) bool
    contact: float
    room: bool
    parting: str                 # rules.parting_blows: all, one, none
    moving_shots: bool           # rules.moving_shots
    mounted: np.ndarray          # (c,) bool: in the saddle
    mounted_missile: np.ndarray  # (c,) int16: missile effort of its standing pace
    start: np.ndarray            # (c,) float32
    groups: Layout               # target policies, fixed lists, rows (groups.py)
    flee_at: np.ndarray          # (c,) int16 harm at which the fighter runs away
    breaks_at: tuple[float | None, ...]   # per side (None: never breaks)
    reacts: bool                 # someone may yield or run, or a side may break
    gives_up: np.ndarray         # (k,) intp: the fighters who may yield or run
    # Issue 27 (docs/rules/ymlad.md).
    effort_far: np.ndarray       # (c, c) int16 missile effort without a mount's height
    saddle: bool                 # some mount's height may not count (rules.saddle_height)
    saddle_near: float           # ... beyond this many metres
    lance: np.ndarray            # (c,) bool: charges with a lance from horseback
    lance_rule: int              # rules.lance_charge
    fights_back: np.ndarray      # (c, c) bool: held by the second, the first fights back
    weapon_id: np.ndarray        # (4, c) int8: the weapon each fighter takes up per style
    switch_attack: bool          # rules.weapon_switch: attack


def static_of(fight: YmladFight) -> Static:
    """The kernel's arrays for ``fight`` (:func:`tabulate`), built once while it lives
    (``balance.engine.prepared.once``: the compiled fight holds no kernel arrays)."""
    return once(tabulate, fight)


def tabulate(fight: YmladFight) -> Static:
    """Tabulate the formulas of ``compile.py`` for every style and pair."""
    fs, c, hard = fight.fighters, fight.n, fight.rules.hardness
    eff = np.zeros((4, c, c), dtype=np.int16)
    res = np.zeros((4, 3, c), dtype=np.int16)
    margin = np.zeros((4, 3, c, c), dtype=np.int16)
    charge = np.zeros((4, c, c), dtype=np.int16)
    margin_bare, charge_bare = np.zeros_like(margin), np.zeros_like(charge)
    bare = [replace(f, armour=0.0) for f in fs]     # the same fighter without its armour
    kind = np.zeros((4, c, c), dtype=np.int8)
    far = np.zeros((c, c), dtype=np.int16)
    back = np.zeros((c, c), dtype=bool)
    for a, fa in enumerate(fs):
        for d, fd in enumerate(fs):
            back[a, d] = fights_back_at(fa, fd)
            if fa.missile is not None:
                far[a, d] = effort(fa, MISSILE) + height_bonus(fa, fd, MISSILE, saddle=False)
    for style in range(4):
        for d, fd in enumerate(fs):
            for angle in range(3):
                res[style, angle, d] = angled_resistance(fd, style, angle)
        for a, fa in enumerate(fs):
            if style == MISSILE and fa.missile is None:
                continue
            for d, fd in enumerate(fs):
                eff[style, a, d] = effort(fa, style) + height_bonus(fa, fd, style)
                for band in range(3):
                    m, k = harm_margin(fa, fd, style, band if style == MISSILE else 0,
                                       hardness=hard)
                    margin[style, band, a, d], kind[style, a, d] = m, k
                    margin_bare[style, band, a, d] = harm_margin(
                        fa, bare[d], style, band if style == MISSILE else 0, hardness=hard)[0]
                charge[style, a, d] = harm_margin(fa, fd, style, 0, style != MISSILE,
                                                  hard)[0]
                charge_bare[style, a, d] = harm_margin(fa, bare[d], style, 0,
                                                       style != MISSILE, hard)[0]
    levels = max(len(f.penalty_at) for f in fs)
    pat = np.full((levels, c), 30_000, dtype=np.int16)
    pen = np.zeros((levels, c), dtype=np.int16)
    for i, f in enumerate(fs):
        pat[: len(f.penalty_at), i] = f.penalty_at
        pen[: len(f.penalty), i] = f.penalty if f.feels_pain else 0
    col = lambda name, dtype: np.array([getattr(f, name) for f in fs], dtype=dtype)  # noqa: E731
    mis = [f.missile for f in fs]
    mcol = lambda name, dtype, none=0: np.array(  # noqa: E731
        [getattr(m, name) if m else none for m in mis], dtype=dtype)
    return Static(
        n_sides=len(fight.side_names), side_of=fight.side_of,
        duel=c == 2 and len(fight.side_names) == 2,
        effort=eff, resistance=res, margin=margin, charge_margin=charge, kind=kind,
        margin_bare=margin_bare, charge_bare=charge_bare,
        penalty_at=pat, penalty=pen,
        down_at=col("down_at", np.int16), dead_at=col("dead_at", np.int16),
        wasted_at=col("wasted_at", np.int16),
        yield_at=col("yield_at", np.int16), stunnable=col("stunnable", bool),
        shooter=np.array([f.style == MISSILE and f.missile is not None for f in fs]),
        band_close=mcol("close", np.float32), band_medium=mcol("medium", np.float32),
        band_max=mcol("max", np.float32), band_shift=mcol("band_shift", np.int8),
        range_effort=np.array([m.range_effort if m else (0, 0, 0) for m in mis],
                              dtype=np.int16).T.copy(),
        rounds_per_shot=mcol("rounds_per_shot", np.int8, 1), shots=mcol("shots", np.int16),
        far=col("far", np.float32), keep_at=col("keep_at", np.float32),
        prefers_close=np.array([f.contact_style == CLOSE for f in fs]),
        prefers_formation=np.array([f.contact_style == FORMATION for f in fs]),
        flanks_secured=col("flanks_secured", bool), flanked=col("flanked", bool),
        moving=col("moving", np.int16), polearm=col("polearm", bool),
        speed=col("speed", np.float32), reach=col("reach", np.int16), charge=col("charge", bool),
        contact=float(fight.rules.contact), room=fight.rules.room_to_retreat,
        parting=fight.rules.parting_blows, moving_shots=fight.rules.moving_shots,
        mounted=col("mounted", bool), mounted_missile=col("mounted_missile", np.int16),
        start=fight.start, groups=layout_of(fight), flee_at=col("flee_at", np.int16),
        breaks_at=fight.breaks_at or (None,) * len(fight.side_names),
        reacts=any(f.yield_at < NEVER or f.flee_at < NEVER for f in fs)
        or any(b is not None for b in fight.breaks_at),
        gives_up=np.flatnonzero([f.yield_at < NEVER or f.flee_at < NEVER for f in fs]),
        effort_far=far, saddle=any(f.saddle for f in fs) and not fight.rules.saddle_always,
        saddle_near=float(fight.rules.saddle_near),
        lance=col("lance_charge", bool), lance_rule=fight.rules.lance_charge,
        fights_back=back,
        weapon_id=np.array([f.weapon_id for f in fs], dtype=np.int8).reshape(c, 4).T.copy(),
        switch_attack=fight.rules.switch_attack,
    )


@dataclass
class YmladState(TrialState):
    """Harm, engagement, ammunition and positions; every array is (n_places, n_trials)."""

    body: np.ndarray        # int16 long-lasting harm: wounds and the even stun points
    brief: np.ndarray       # int16 brief harm: the odd stun points
    grapple: np.ndarray     # int16 grappling harm, gone when the hold breaks
    penalty: np.ndarray     # int16 harm track penalty, kept in step with the harm
    pos: np.ndarray         # float32 position on the line
    close_with: np.ndarray  # int8 close-combat partner (-1: none)
    shots: np.ndarray       # int16 missiles left
    reload: np.ndarray      # int8 rounds until the missile weapon is loaded
    charged: np.ndarray     # bool: has charged (once per fight)
    target: np.ndarray      # int8 last round's target (-1: none), kept until it falls
    held: np.ndarray        # int8 the weapon in hand (Static.weapon_id; -1 none yet); a
    #                         read-only -1 unless rules.weapon_switch is attack


def start(fight: YmladFight, n: int, rng: np.random.Generator) -> YmladState:
    """Fresh trials: nobody harmed, everyone at their side's start, weapons loaded."""
    s = static_of(fight)
    c = fight.n
    zeros = np.zeros((c, n), dtype=np.int16)
    return YmladState(
        status=np.zeros((c, n), dtype=np.int8),
        side=np.repeat(s.side_of[:, None], n, axis=1),
        who=np.repeat(np.arange(c, dtype=np.int8)[:, None], n, axis=1),
        body=zeros.copy(), brief=zeros.copy(), grapple=zeros.copy(), penalty=zeros.copy(),
        pos=np.repeat(s.start[:, None], n, axis=1),
        close_with=np.full((c, n), -1, dtype=np.int8),
        shots=np.repeat(s.shots[:, None], n, axis=1),
        reload=np.zeros((c, n), dtype=np.int8),
        charged=np.zeros((c, n), dtype=bool),
        target=np.full((c, n), -1, dtype=np.int8),
        held=(np.full((c, n), -1, dtype=np.int8) if s.switch_attack
              else np.broadcast_to(np.int8(-1), (c, n))),
    )


def _gather(arr: np.ndarray, place: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``arr[place[i], cols[i]]`` for each i (place >= 0)."""
    return arr.ravel()[place.astype(np.intp) * arr.shape[1] + cols]


# --- targets and movement ------------------------------------------------------------------


def choose_targets(s: Static, state: YmladState, standing: np.ndarray,
                   rng: np.random.Generator) -> Choice:
    """This round's targets (groups.py, seed 002 Group fights); a duel needs no choosing."""
    if s.duel:
        c, n = standing.shape
        target = np.empty((2, n), dtype=np.int8)
        target[0], target[1] = 1, 0
        return Choice(target, target, np.zeros((c, n), dtype=bool), None)
    return choose(s, state, standing, rng)


def move(s: Static, state: YmladState, target: np.ndarray, standing: np.ndarray,
         rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Everyone moves, one after another (lab: so two runners meet instead of passing), in
    a random order each round (``balance.engine.targeting.turn_order``: never listing
    order, which would let the side listed first cover the ground and run).

    Missile users who prefer to shoot and have shots hold a band from their target (walking
    in to ``far``, backing off inside ``keep_at``), or make a missile charge (seed, Charge:
    ``policy.charge``, once, loaded, when a full run towards the target, stopping
    ``MISSILE_CHARGE_STOP`` beyond reach and no nearer than ``keep_at``, brings it within
    range); everyone else runs up to reach; fighters in reach or in close combat hold.
    Returns (c, n) arrays: int8 moving codes (0 still, 1 walked: at most half the running
    speed, 2 ran; seed, Moving target), int8 direction (+1 towards the target, -1 away, 0)
    and bool missile charges.
    """
    c, n = standing.shape
    cols = np.arange(n)
    moved = np.zeros((c, n), dtype=np.int8)
    toward = np.zeros((c, n), dtype=np.int8)
    charge = np.zeros((c, n), dtype=bool)
    reach = s.contact + CONTACT_EPS
    order = turn_order(c, n, rng)
    # Read and written through flat cells (docs/engine-tricks.md, flat indices and
    # ``np.take``: ``arr[f, cols]`` with a place per trial costs several times more).
    for k in range(c):
        f = order[k]
        at = f * n + cols
        t = target.ravel()[at]
        rows = flat_true(standing.ravel()[at] & (t >= 0)
                              & (state.close_with.ravel()[at] < 0))
        if not rows.size:
            continue
        f, t, at = f.take(rows), t.take(rows).astype(np.intp), at.take(rows)
        pos = state.pos.ravel()
        t *= n
        t += rows
        me, foe = pos.take(at), pos.take(t)
        gap = np.abs(me - foe)
        # Those not yet in reach, by their indices (one pass over the mask; a boolean
        # selection a array passes over it each time), none to drop when all are away.
        away = (gap > reach).nonzero()[0]
        if not away.size:
            continue
        if away.size < rows.size:
            rows, f, at, me, foe, gap = (a.take(away) for a in (rows, f, at, me, foe, gap))
        shooting = s.shooter[f] & (state.shots.ravel()[at] > 0)
        policy = np.where(shooting, KEEP_DISTANCE, MOVE_CLOSE)
        near = np.where(shooting, s.keep_at[f], s.contact).astype(np.float32)
        far = np.where(shooting, s.far[f], s.contact).astype(np.float32)
        if s.moving_shots:
            can = (s.charge[f] & shooting & ~state.charged.ravel()[at]
                   & (state.reload.ravel()[at] == 0))
            if can.any():
                stop = (np.maximum(s.keep_at[f], s.contact)
                        + MISSILE_CHARGE_STOP).astype(np.float32)
                after = np.maximum(gap - s.speed[f], stop)
                charges = can & (gap - after > s.speed[f] / 2) & (after <= s.band_max[f])
                charge.put(at, charges)
                policy = np.where(charges, MOVE_CLOSE, policy)
                near = np.where(charges, stop, near).astype(np.float32)
                far = np.where(charges, stop, far).astype(np.float32)
        new = step(me, foe, policy, s.speed[f], near, far)
        dist = np.abs(new - me)
        moved.put(at, (dist > 0) * np.int8(1) + (dist > s.speed[f] / 2))
        toward.put(at, np.sign(new - me) * np.sign(foe - me))
        state.pos.put(at, new)
    return moved, toward, charge


def engage_mutual(s: Static, state: YmladState, target: np.ndarray, standing: np.ndarray,
                  in_reach: np.ndarray) -> None:
    """Seed, Close: two fighters both aiming for close combat and near enough engage at once."""
    c, n = standing.shape
    cols = np.arange(n)
    for f in range(c):
        if not s.prefers_close[f]:
            continue
        t = np.maximum(target[f], 0)
        ok = standing[f] & (target[f] >= 0) & in_reach[f] & (state.close_with[f] < 0)
        ok &= s.prefers_close[t] & (_gather(state.close_with, t, cols) < 0)
        ok &= _gather(target, t, cols) == f
        if ok.any():
            state.close_with[f, ok] = t[ok]
            state.close_with.ravel()[t[ok].astype(np.intp) * n + cols[ok]] = f


# --- the round -----------------------------------------------------------------------------


@dataclass
class Round:
    """This round's decisions, fixed before anyone acts."""

    target: np.ndarray       # (c, n) int8
    moved: np.ndarray        # (c, n) int8 moving codes
    toward: np.ndarray       # (c, n) int8: moved towards its target (+1), away (-1), not (0)
    missile_charge: np.ndarray   # (c, n) bool: a missile charge this round (seed, Charge)
    contact: np.ndarray      # (c, n) bool: target within reach and in its front line
    ring: Ring               # who may strike in contact, ranks, angles (groups.py)
    rear: np.ndarray         # (c, n) bool: behind its side's front this round
    flanked: np.ndarray      # (c, n) bool: formation broken for this fighter
    charging: np.ndarray     # (c, n) bool


def plan_round(s: Static, state: YmladState, rng: np.random.Generator) -> Round:
    """What is decided before anyone strikes: targets, movement, engagements, charges and the
    ring of attackers round each fighter."""
    standing = state.status == STANDING
    choice = choose_targets(s, state, standing, rng)
    target, rear = choice.target, choice.rear
    state.target = target
    has_target = standing & (target >= 0)
    reach = s.contact + CONTACT_EPS
    at = cells_of(target)                      # (the three gathers through the same cells)
    was_out = np.abs(state.pos - np.take(state.pos, at)) > reach
    moved, toward, missile_charge = move(s, state, choice.goal, standing, rng)
    state.charged |= missile_charge
    in_reach = has_target & (np.abs(state.pos - np.take(state.pos, at)) <= reach)
    contact = in_reach & ~np.take(rear, at)
    engage_mutual(s, state, target, standing, contact & ~rear)
    # Seed, Charge: on first contact after a run-up; once per fight.
    charging = s.charge[:, None] & ~state.charged & was_out & contact & ~rear
    state.charged |= charging
    ring = ring_of(target, contact, rear, s.groups.reach_through, s.groups.ring, rng)
    # Seed, Formation: outflanked, or (Formation vs melee) beside a hole in its line.
    flanked = s.flanked[:, None] | outflanked(ring.count)
    if choice.holes is not None:
        flanked |= choice.holes > 0
    return Round(target, moved, toward, missile_charge, contact, ring, rear, flanked, charging)


@dataclass
class Snapshot:
    """State as it was when the current group of equal initiative began (seed, Initiative:
    equal initiative acts simultaneously, so those blows land on the state before any)."""

    status: np.ndarray
    penalty: np.ndarray
    grapple: np.ndarray
    close_with: np.ndarray
    changed: list[np.ndarray]    # flat cells the state changed in since they were copied

    FIELDS = ("status", "penalty", "grapple", "close_with")

    @classmethod
    def of(cls, state: YmladState) -> Snapshot:
        return cls(state.status.copy(), state.penalty.copy(), state.grapple.copy(),
                   state.close_with.copy(), [])

    def refresh(self, state: YmladState, where: np.ndarray) -> None:
        """Bring trials ``where`` (n,) up to date: only the cells that changed are copied."""
        if not self.changed:
            return
        flat = np.concatenate(self.changed)
        now = where[flat % where.size]
        cells = flat[now]
        for name in self.FIELDS:
            getattr(self, name).ravel()[cells] = getattr(state, name).ravel()[cells]
        self.changed = [] if now.all() else [flat[~now]]

    def touched(self, n: int) -> np.ndarray:
        """(n,) bool: trials with a cell changed since it was last brought up to date."""
        out = np.zeros(n, dtype=bool)
        if self.changed:
            out[np.concatenate(self.changed) % n] = True
        return out

    def copy(self, state: YmladState, where: np.ndarray) -> None:
        """Bring every cell of trials ``where`` (n,) bool up to date (the columns found once:
        a boolean column mask on a (c, n) array measured 700 us at (15, 32,768) with 1% of
        the trials, against 21 us by their indices)."""
        cols = flat_true(where)
        if not cols.size:
            return
        for name in self.FIELDS:
            getattr(self, name)[:, cols] = getattr(state, name)[:, cols]


def play_round(fight: YmladFight, state: YmladState, rng: np.random.Generator,
               round_no: int) -> None:
    """One round: targets, movement, engagements, then everyone's attack in initiative order.

    After each group of equal initiative has acted, fighters whose harm reached their
    ``yield_at`` or ``flee_at`` give up or run at once, and sides whose share down reached
    ``breaks_at`` break (``kernel.flight.react``). Seed, Rounds: "each participant in combat may
    attempt one attack"; so a foe's parting blow at one who runs is the attack it has not
    yet spent this round, and it loses its own turn for it.
    """
    s = static_of(fight)
    c, n = state.status.shape
    rnd = plan_round(s, state, rng)
    charging = rnd.charging
    has_target = (state.status == STANDING) & (rnd.target >= 0)

    # Seed, Initiative: d20 each round, low acts first, equal acts together. In a charge the
    # longest reach strikes first, initiative only breaking equal reach.
    key = rng.integers(1, 21, size=(c, n), dtype=np.int16)
    any_charge = charging.any(axis=0)
    if any_charge.any():
        key = key + any_charge * ((32 - s.reach[:, None]) * CHARGE_KEY).astype(np.int16)
    slot, sorted_key = _slots(key)
    snap = Snapshot.of(state)
    spent = np.zeros((c, n), dtype=bool)    # its turn has come, or it struck a parting blow
    for k in range(c):
        if k:
            new_group = sorted_key[k] != sorted_key[k - 1]
            if new_group.any():
                if s.reacts:
                    where = new_group & snap.touched(n)
                    snap.copy(state, react(s, state, rnd, rng, spent, where, snap.status))
                snap.refresh(state, new_group)
        now = slot == k
        cells = flat_true(now & (snap.status == STANDING) & has_target & ~spent)
        if cells.size:
            act(fight, s, state, snap, rnd, cells, rng)
        spent |= now
    end_of_round(s, state, rnd, rng, spent, snap.touched(n))


def _slots(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each fighter's slot in acting order (equal keys by scenario order) and the keys in
    slot order; both (c, n). Pairwise ranks: faster than a sort along a short axis."""
    c, n = key.shape
    slot = np.zeros((c, n), dtype=np.int8)
    for f in range(c):
        for g in range(c):
            if g < f:
                slot[f] += key[g] <= key[f]
            elif g > f:
                slot[f] += key[g] < key[f]
    sorted_key = np.empty_like(key)
    flat = slot.astype(np.intp)     # (flat cells and ``put``: put_along_axis is general)
    flat *= n
    flat += np.arange(n)
    sorted_key.put(flat, key)
    return slot, sorted_key


def act(fight: YmladFight, s: Static, state: YmladState, snap: Snapshot, rnd: Round,
        cells: np.ndarray, rng: np.random.Generator) -> None:
    """The actions of one initiative slot: each fighter ``cells // n`` in trial ``cells % n``
    (flat (fighter, trial) cells in increasing order, one fighter a trial) shoots, closes
    in, disengages or strikes.

    All the slot's fighters are played in one pass over their cells (docs/engine-tricks.md,
    one slot a pass): their trials differ, so no action reads what another of the slot
    wrote. The dice are drawn fighter by fighter in place order, each fighter's skirmish
    roll and then its harm roll, as when each was played on its own (:func:`_rolls`), so the
    numbers are the same.
    """
    c, n = state.status.shape
    f, idx = _places(cells, c, n)
    # (Choices on these random masks by arithmetic, reads by ``take``: docs/engine-tricks.md,
    # arithmetic, not np.where, on random masks; flat indices and ``np.take``.)
    partner = snap.close_with.take(cells)
    engaged = partner >= 0
    t = rnd.target.take(cells).astype(np.intp)
    set_where(t, engaged, partner)
    flat_t = t * n + idx
    keep = snap.status.ravel()[flat_t] == STANDING
    gap = np.abs(state.pos.ravel()[cells] - state.pos.ravel()[flat_t])
    # Within reach of a foe in its front line (a partner in close combat always is).
    in_reach = (gap <= s.contact + CONTACT_EPS) & (engaged | ~rnd.rear.ravel()[flat_t])
    # Seed, Missile: a shooter fires when the target is out of reach and within range and
    # the weapon loaded; from behind its front it shoots over it. Seed, Mounted combat and
    # Charge: also in a round it moved (``rules.moving_shots``; off: aiming takes the round).
    shoot = np.zeros(idx.size, dtype=bool)
    if s.shooter.any():
        shoot = (s.shooter[f] & (~in_reach | rnd.rear.ravel()[cells])
                 & (state.shots.ravel()[cells] > 0) & (state.reload.ravel()[cells] == 0)
                 & (gap <= s.band_max[f]))
        if not s.moving_shots:
            shoot &= rnd.moved.ravel()[cells] == 0
    contact = in_reach & (engaged | rnd.ring.allowed.ravel()[cells])
    keep &= shoot | contact
    if not keep.all():
        sel = keep.nonzero()[0]
        cells, f, idx, t, flat_t, gap, shoot, engaged = (
            a.take(sel) for a in (cells, f, idx, t, flat_t, gap, shoot, engaged))
    if not idx.size:
        return
    # The style of this attack, and whether it can do harm.
    t_free = snap.close_with.ravel()[flat_t] < 0
    through = rnd.ring.through.ravel()[cells] & ~engaged & ~shoot
    pf = s.prefers_formation
    pf_f, pf_t = pf[f], pf[t]
    form_f = pf_f & ~rnd.flanked.ravel()[cells]
    form_t = pf_t & ~rnd.flanked.ravel()[flat_t]
    formation = ((form_f & form_t) | (form_f & ~pf_t & s.flanks_secured[f])
                 | (form_t & ~pf_f & s.flanks_secured[t]) | through)
    # Seed, Formation: "the charge with lance of a knight from horseback ... ensures that at
    # least the first attack will be a formation attack" (rules.lance_charge).
    lance = np.zeros(idx.size, dtype=bool)
    if s.lance.any():
        mine = rnd.charging.ravel()[cells] & s.lance[f]
        theirs = (rnd.charging.ravel()[flat_t] & s.lance[t]
                  & (rnd.target.ravel()[flat_t] == f))
        lance = formation_by_charge(mine, theirs, s.lance_rule) & ~engaged & ~shoot
        formation = formation | lance
    style = np.full(idx.size, MELEE, dtype=np.intp)
    set_where(style, formation, FORMATION)
    set_where(style, engaged, CLOSE)
    set_where(style, shoot, MISSILE)
    closing = ~shoot & ~engaged & s.prefers_close[f] & t_free & ~through & ~lance
    # Seed, Close: held, the other "can engage in close combat too, or try to disengage"
    # (policy.held; tables.fights_back).
    # The tables are read through flat codes (docs/engine-tricks.md, flat indices and
    # ``np.take``): a gather through three index arrays measured 490 us at 65,536 cells,
    # against 90 us for one ``take``.
    pair = f * c + t
    sp = style * (c * c) + pair                     # [style, attacker, defender]
    disengaging = engaged & ~s.prefers_close[f] & ~s.fights_back.take(pair)
    harmful = ~closing & ~disengaging
    # Taking up this style's weapon may cost the attack (rules.weapon_switch: attack).
    acts = None
    if s.switch_attack:
        wanted = s.weapon_id.take(style * c + f)
        acts = ~switch_costs_attack(state.held.ravel()[cells], wanted, True)
        state.held[f, idx] = wanted
        shoot = shoot & acts

    # Skirmish: effort against resistance, moved by the drift die. Seed, Group fights: the
    # second attacker on one fighter +1 melee effort, the third +2 ...; past three they come
    # from the flanks and the rear (lab, groups.py).
    contact_style = (style == FORMATION) | (style == MELEE)
    angle = rnd.ring.angle.take(cells).astype(np.intp)
    angle *= contact_style
    pen_f = snap.penalty.ravel()[cells]
    eff = s.effort.take(sp) + pen_f
    if s.saddle and shoot.any():
        # Seed, Height: no mount's height for "shooting arrows tens of meters away".
        far = shoot & ~saddle_counts(gap, False, s.saddle_near)
        eff = np.where(far, s.effort_far.take(pair) + pen_f, eff)
    res = (s.resistance.take((style * 3 + angle) * c + t)
           + snap.penalty.ravel()[flat_t] * (style != MISSILE))
    eff = eff + (style == MELEE) * rnd.ring.rank.ravel()[cells]
    if disengaging.any() and s.room:
        free = snap.grapple.ravel()[cells] == 0   # seed: only free of grappling harm
        eff = eff + (disengaging & free) * DISENGAGE_BONUS
    band = np.zeros(idx.size, dtype=np.intp)
    if shoot.any():
        band = np.where(shoot, shot_band(
            range_band(gap, s.band_close[f], s.band_medium[f]), s.band_shift[f],
            rnd.missile_charge.ravel()[cells], rnd.toward.ravel()[cells] < 0), 0).astype(np.intp)
        moving = np.maximum(s.moving[t], rnd.moved.ravel()[flat_t])
        if s.mounted.any():     # seed, Mounted combat: -1 at a walk, -2 faster
            eff = eff + (shoot & s.mounted[f]) * mounted_pace_penalty(
                s.mounted_missile[f], rnd.moved.ravel()[cells])
        eff = eff + shoot * s.range_effort.take(band * c + f)
        res = res + shoot * moving
        state.shots[f, idx] -= shoot
        state.reload[f, idx] = np.where(shoot, s.rounds_per_shot[f], state.reload[f, idx])
    ok, rolled = _rolls(rng, f, idx, eff - res, acts, harmful)
    if state.counts is not None:   # the breakdown: every skirmish roll, and those won
        add_at(state, ATTACKS, cells if acts is None else cells[acts])
        add_at(state, HITS, cells[ok])

    win = flat_true(ok & closing)
    if win.size:
        _engage(state, f[win], idx[win], t[win])
        snap.changed += [cells[win], flat_t[win]]
    win = flat_true(ok & disengaging)
    if win.size:
        _release(s, state, f[win], idx[win], t[win])
        snap.changed += [cells[win], flat_t[win]]
    win = flat_true(ok & harmful)
    if win.size:
        cells, f, idx, t, style, band, flat_t, rolled, pair, sp = (
            a.take(win) for a in (cells, f, idx, t, style, band, flat_t, rolled, pair, sp))
        banded = (style * 3 + band) * (c * c) + pair      # [style, range band, a, d]
        charge = rnd.charging.ravel()[cells] | (rnd.charging.ravel()[flat_t]
                                                & (rnd.target.ravel()[flat_t] == f))
        m = np.where(charge, s.charge_margin.take(sp), s.margin.take(banded))
        harm = np.maximum(m + rolled, 0)
        hit = flat_true(harm)
        if state.counts is not None:   # the breakdown: harm points dealt, armour's share
            add_at(state, DAMAGE_DEALT, cells[hit], harm[hit])
            bare = np.where(charge, s.charge_bare.take(sp), s.margin_bare.take(banded))
            add_at(state, DAMAGE_SOAKED, cells, np.maximum(bare + rolled, 0) - harm)
        if hit.size:
            snap.changed.append(inflict(s, state, idx[hit], t[hit],
                                        s.kind.take(sp[hit]), harm[hit]))


def _places(cells: np.ndarray, c: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The place and the trial of each of the sorted flat cells ``cells``: the places by
    where each row's cells end (``searchsorted``), no division (an intp ``divmod`` measured
    320 us at 65,536 cells)."""
    ends = np.searchsorted(cells, np.arange(1, c + 1) * n).tolist()
    f = np.empty(cells.size, dtype=np.intp)
    lo = 0
    for place, hi in enumerate(ends):     # each place's run of cells: a fill, not a repeat
        f[lo:hi] = place
        lo = hi
    return f, cells - f * n


def _rolls(rng: np.random.Generator, f: np.ndarray, idx: np.ndarray, margin: np.ndarray,
           acts: np.ndarray | None, harmful: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The slot's drift dice, fighter by fighter in place order (``f`` sorted): the skirmish
    roll of each of its trials, then the harm roll of each it won with a harmful attack.
    Returns (m,) bool won (``margin`` + drift >= 0, and the attack made) and (m,) int8 harm
    drift (0 where none was rolled)."""
    ok = np.empty(idx.size, dtype=bool)
    rolled = np.zeros(idx.size, dtype=np.int8)
    bounds = flat_true(np.diff(f)) + 1
    for lo, hi in zip([0, *bounds.tolist()], [*bounds.tolist(), idx.size], strict=True):
        cols = idx[lo:hi]
        won = margin[lo:hi] + drift(rng, cols.size, cols=cols) >= 0
        if acts is not None:
            won &= acts[lo:hi]
        ok[lo:hi] = won
        harms = flat_true(won & harmful[lo:hi])
        if harms.size:
            rolled[lo + harms] = drift(rng, harms.size, cols=cols[harms])
    return ok, rolled
