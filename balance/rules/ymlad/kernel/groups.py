"""Group fights in the vectorised Ymlad kernel (seed 002, Group fights): formation rows, who
attacks whom, and the ring of attackers round each fighter.

Arrays are (n_places, n_trials) like every kernel array; a place is a fighter's scenario index.
Loops run over places and sides only. Target choice is the engine's
:func:`balance.engine.targeting.choose_targets`; this module decides who chooses, among whom,
under which cap and with which preference. The rules and every assumption:
docs/rules/ymlad.md, "Group fights"; ``reference/fight.py`` plays the same rules one fight at
a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.sparse import flat_true
from balance.engine.targeting import (
    DANGEROUS,
    ENGAGE,
    FIRST,
    NO_TARGET,
    WEAKEST,
    attacker_rank,
    choose_targets,
    counting,
    nearest_foe,
)
from balance.rules.ymlad.compile import danger
from balance.rules.ymlad.rules.tables import (
    FORMATION,
    attacker_places,
    open_sides,
    ring_angle,
)

CONTACT_EPS = 1e-3      # positions are float32: "within reach" allows for rounding


@dataclass(frozen=True)
class Layout:
    """The fixed group facts of a fight, tabulated once (part of the kernel's ``Static``)."""

    policy: np.ndarray        # (c,) int8 target policy
    priority: np.ndarray      # (c, c) int16: rank of fighter j in fighter i's fixed list
    danger: np.ndarray        # (c,) int16 (fighters.danger)
    rows: tuple[tuple[np.ndarray, int], ...]   # per side with rows: places by (row, order), width
    places_any: np.ndarray    # (c, 3) int16: attacker places round each fighter, any weapon ...
    places_all: np.ndarray    # (c, 3) int16: ... and in all; by the holes beside it (0-2)
    needs_weakness: bool
    needs_danger: bool
    # Sides whose flanks are secured, as lines (rules.holes): places by (row, order), width.
    lines: tuple[tuple[np.ndarray, int], ...]
    reach_through: np.ndarray   # (c,) bool: its formation weapon is a spear or polearm
    ring: int                   # rules.ring (tables.ring_angle)


def layout_of(fight) -> Layout:
    """Tabulate target policies, fixed priorities, danger and formation rows."""
    fs = fight.fighters
    c = len(fs)
    policy = np.array([f.target for f in fs], dtype=np.int8)
    rows, lines = [], []
    for side in range(len(fight.side_names)):
        places = [i for i, f in enumerate(fs) if f.side == side]
        ordered = sorted(places, key=lambda i: (fs[i].row, i))
        front = min(fs[i].row for i in places)
        width = sum(1 for i in places if fs[i].row == front)
        if len({fs[i].row for i in places}) > 1:
            rows.append((np.array(ordered, dtype=np.intp), width))
        if fight.rules.holes and width > 1 and fs[places[0]].flanks_secured:
            lines.append((np.array(ordered, dtype=np.intp), width))
    # Built by the shared rule (tables.attacker_places) for 0, 1 and 2 holes beside each.
    places = [[attacker_places(f.flanks_secured and not f.flanked,
                               f.contact_style == FORMATION, holes) for holes in range(3)]
              for f in fs]
    return Layout(
        policy=policy,
        places_any=np.array([[p[0] for p in row] for row in places], dtype=np.int16),
        places_all=np.array([[p[1] for p in row] for row in places], dtype=np.int16),
        lines=tuple(lines),
        reach_through=np.array([f.reach_through for f in fs], dtype=bool),
        ring=fight.rules.ring,
        priority=np.array([f.priority for f in fs], dtype=np.int16).reshape(c, c),
        danger=np.array([danger(f) for f in fs], dtype=np.int16),
        rows=tuple(rows),
        needs_weakness=bool((policy == WEAKEST).any()),
        needs_danger=bool((policy == DANGEROUS).any()),
    )


def rear_rows(layout: Layout, standing: np.ndarray) -> np.ndarray:
    """(c, n) bool: fighters standing behind their side's front this round.

    Lab (seed, Formation: further rows "may be able to close the gap"): a side's front is as
    wide as its first row; of its standing fighters, in order of row and then scenario order,
    the first that many are the front and the rest stand behind. So a fighter from the second
    row steps into the front at the start of the round after a front fighter falls.
    """
    rear = np.zeros(standing.shape, dtype=bool)
    for ordered, width in layout.rows:
        before = np.zeros(standing.shape[1], dtype=np.int16)
        for place in ordered:
            rear[place] = standing[place] & (before >= width)
            before += standing[place]
    return rear


def holes_of(layout: Layout, standing: np.ndarray) -> np.ndarray:
    """(c, n) int8: on how many sides (0-2) each fighter of a line with secured flanks has a
    hole this round (seed, Formation vs melee: "Once they take a man down they may move in
    and engage in melee combat"; ``rules.tables.open_sides``); 0 elsewhere."""
    holes = np.zeros(standing.shape, dtype=np.int8)
    for ordered, width in layout.lines:
        holes[ordered] = open_sides(standing[ordered], width)
    return holes


def gather(arr: np.ndarray, place: np.ndarray) -> np.ndarray:
    """(c, n): ``arr[place[f, i], i]`` for every place f and trial i (-1 reads place 0).
    Through flat indices and ``np.take`` (docs/engine-tricks.md, flat indices and
    ``np.take``: ``take_along_axis`` measured 7x slower at (2, 32,768), 1.25x at 15 places)."""
    return np.take(arr, cells_of(place))


def cells_of(place: np.ndarray) -> np.ndarray:
    """(c, n) intp: the flat cells ``place[f, i] * n + i`` (-1 reads place 0), for several
    ``np.take`` gathers through the same places (:func:`gather`)."""
    n = place.shape[1]
    flat = np.maximum(place, 0).astype(np.intp)
    flat *= n
    flat += np.arange(n)
    return flat


@dataclass
class Choice:
    """This round's targets: ``target`` to attack (-1: none, the fighter waits), ``goal`` to
    move towards (the target, else the first standing foe), and who shoots this round."""

    target: np.ndarray      # (c, n) int8
    goal: np.ndarray        # (c, n) int8
    rear: np.ndarray        # (c, n) bool: behind the front (untouchable in contact)
    holes: np.ndarray | None   # (c, n) int8: sides open beside it in its line (holes_of)


def choose(s, state, standing: np.ndarray, rng: np.random.Generator) -> Choice:
    """Who attacks whom this round (seed, Group fights; lab choices in docs/rules/ymlad.md).

    * In close combat a fighter attacks only its partner (seed, Close).
    * A missile user with shots and no foe within reach (or safe behind its front) shoots at
      the foe its policy picks, among all standing foes, with no limit per target (seed: in
      missile combat "anybody who is in sight and range").
    * Everyone else picks a foe in the front line under its policy, at most six on one foe,
      up to twelve if those past six wield spears or polearms; a close-combat partner counts.
      The ``first`` policy, and a missile user who is run down, take a foe within reach first.
      Targets are kept round to round until they fall (or, for ``first``, until the fighter
      finds its target out of reach and a foe within it).
    * Behind the front, only spears and polearms reach a foe (formation style); the others
      wait. A fighter without a target moves towards the first standing foe.

    Only trials where some fighter must choose afresh go through the choice (the others keep
    last round's targets, which is what the choice would give them).
    """
    c, n = standing.shape
    g = s.groups
    rear = rear_rows(g, standing) if g.rows else np.zeros((c, n), dtype=bool)
    holes = holes_of(g, standing) if g.lines else np.zeros((c, n), dtype=np.int8)
    if g.lines:
        place = np.arange(c)[:, None]
        places_any, places_all = g.places_any[place, holes], g.places_all[place, holes]
    else:   # no holes anywhere: one column each (docs/engine-tricks.md, broadcast constants)
        places_any = np.broadcast_to(g.places_any[:, :1], (c, n))
        places_all = np.broadcast_to(g.places_all[:, :1], (c, n))
    engaged = state.close_with >= 0
    targetable = standing & ~rear
    reach = s.contact + CONTACT_EPS
    free = standing & ~engaged
    shooter = s.shooter[:, None] & (state.shots > 0)
    current = np.where(free, state.target, NO_TARGET)
    # Every gather below through these cells: a target dropped below (-1) is masked there.
    at = cells_of(current)
    # Is each place's current target still targetable, still standing (read once here, and
    # passed on to the choice, which keeps targets where these hold)?
    cur_targetable, cur_standing = np.take(targetable, at), np.take(standing, at)
    cur_near = ((current >= 0) & cur_targetable
                & (np.abs(state.pos - np.take(state.pos, at)) <= reach))
    first = np.isin(g.policy, (FIRST, ENGAGE))[:, None]   # a foe within reach first
    foe_near = np.zeros((c, n), dtype=bool)
    need = free & (shooter | (first & ~cur_near))
    for f in range(c):
        if need[f].any():
            for j in flat_true(s.side_of != s.side_of[f]):
                foe_near[f] |= targetable[j] & (np.abs(state.pos[f] - state.pos[j]) <= reach)
    foe_near &= need
    run_down = shooter & foe_near & ~rear
    shoots = free & shooter & ~run_down
    fights = free & ~shoots & (~rear | g.reach_through[:, None])
    hasty = first | run_down                          # takes a foe within reach first
    current = np.where(hasty & ~cur_near & foe_near, NO_TARGET, current)
    # Keep last round's targets where they still stand, in the front line for contact, and
    # within the six on each (a close-combat partner counting among them).
    keeps_fight = fights & (current >= 0) & cur_targetable
    keeps_shot = shoots & (current >= 0) & cur_standing
    redo = ((fights & ~keeps_fight) | (shoots & ~keeps_shot)).any(axis=0)
    kept = np.where(keeps_fight, current, NO_TARGET)
    redo |= (_on_each(kept, kept >= 0) > places_any - engaged).any(axis=0)
    target = np.where(keeps_fight | keeps_shot, current, NO_TARGET).astype(np.int8)
    cols = flat_true(redo)
    if cols.size:
        sub = _pick(s, state, cols, fights[:, cols], shoots[:, cols], current[:, cols],
                    hasty[:, cols], targetable[:, cols], standing[:, cols], engaged[:, cols],
                    places_any[:, cols], places_all[:, cols], cur_targetable[:, cols],
                    cur_standing[:, cols], rng)
        target[:, cols] = sub
    target = np.where(standing & engaged, state.close_with, target).astype(np.int8)
    goal = target
    idle = standing & (target < 0)
    if idle.any():
        side = np.broadcast_to(s.side_of[:, None], (c, n))
        goal = np.where(idle, nearest_foe(side, standing, state.pos, idle, rng),
                        target).astype(np.int8)
    return Choice(target, goal, rear, holes)


def _pick(s, state, cols: np.ndarray, fights: np.ndarray, shoots: np.ndarray,
          current: np.ndarray, hasty: np.ndarray, targetable: np.ndarray,
          standing: np.ndarray, engaged: np.ndarray, places_any: np.ndarray,
          places_all: np.ndarray, cur_targetable: np.ndarray, cur_standing: np.ndarray,
          rng: np.random.Generator) -> np.ndarray:
    """The choice itself, on trials ``cols`` (every array here is already (c, len(cols))).
    ``cur_targetable``, ``cur_standing``: is each place's ``current`` target targetable,
    standing (anything where it has none)."""
    c = fights.shape[0]
    g = s.groups
    pos = state.pos[:, cols]
    prefer = _Near(pos, s.contact + CONTACT_EPS, hasty)
    kw = {"position": pos, "priority": g.priority, "rng": rng}
    if g.needs_weakness:
        kw["weakness"] = (state.body[:, cols] + state.brief[:, cols] + state.grapple[:, cols]
                          - s.down_at[:, None])
    if g.needs_danger:
        kw["danger"] = g.danger[:, None] + state.penalty[:, cols]
    side = s.side_of[:, None]
    who = np.arange(c, dtype=np.int8)[:, None]

    def pick(chooses, allowed, cur_allowed, cap, cur, pref):
        return _choose(g.policy, side, who, allowed, cur_allowed, chooses, cur, cap, pref, kw)

    target = np.full(fights.shape, NO_TARGET, dtype=np.int8)
    if fights.any():
        # Seed, Group fights: at most six on one fighter (a close-combat partner among them);
        # a fighter with secured flanks has only its front (tables.attacker_places).
        cap = np.maximum(places_any - engaged, 0).astype(np.int16)
        first = pick(fights, targetable, cur_targetable, cap, current, prefer)
        target = np.where(fights, first, target)
        # ... twelve when those past six wield spears or polearms (three in a secured front).
        more = fights & (first < 0) & s.polearm[:, None]
        if more.any():
            count = np.stack([(first == j).sum(axis=0) for j in range(c)]).astype(np.int16)
            cap = np.maximum(places_all - engaged - count, 0).astype(np.int16)
            second = pick(more, targetable, cur_targetable, cap,
                          np.where(more, current, NO_TARGET), prefer)
            target = np.where(more, second, target)
    if shoots.any():
        target = np.where(shoots, pick(shoots, standing, cur_standing, None, current, None),
                          target)
    return target


class _Near:
    """Which foes each fighter prefers: those within reach, for the hasty (``first`` policy,
    or a missile user run down). ``choose_targets`` asks for the rows of the choosers it
    plays, a step at a time (``prefer(i, cols)``), rather than taking the whole (c, c, n)
    array: only the choosers' own rows are computed, on the trials where they choose
    (docs/engine-tricks.md, work that cannot change the answer, skipped)."""

    def __init__(self, pos: np.ndarray, reach: float, hasty: np.ndarray):
        self.pos, self.reach, self.hasty = pos, reach, hasty

    def __call__(self, i: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """(c, k) bool: the foes within reach of chooser ``i`` (k,) on columns ``cols`` (k,),
        none when it is not hasty (through flat cells: docs/engine-tricks.md, flat indices
        and ``np.take``)."""
        at = i * self.pos.shape[1]
        at += cols
        hasty = self.hasty.ravel().take(at)
        some = hasty.nonzero()[0]
        if some.size == cols.size:
            return np.abs(self.pos.take(cols, axis=1) - self.pos.ravel().take(at)) <= self.reach
        # Only the hasty choosers' trials (no foe is preferred by the others).
        out = np.zeros((self.pos.shape[0], cols.size), dtype=bool)
        if some.size:
            out[:, some] = (np.abs(self.pos.take(cols.take(some), axis=1)
                                   - self.pos.ravel().take(at.take(some))) <= self.reach)
        return out


def _choose(policy: np.ndarray, side: np.ndarray, who: np.ndarray, allowed: np.ndarray,
            cur_allowed: np.ndarray, chooses: np.ndarray, current: np.ndarray,
            cap: np.ndarray | None, prefer: _Near | None, kw: dict) -> np.ndarray:
    """``choose_targets`` with sticky ``current`` targets, the keeping done here first.
    ``cur_allowed``: ``allowed`` at each place's ``current`` target (any value where it has
    none), as the caller already read it.

    The same choice as ``choose_targets(..., current=current, cap=cap)``: targets still
    standing are kept in place order while their foe is under its cap; then the others
    choose under what is left of each cap. (Only ``spread`` looks at the attackers already
    on a foe, so with it the engine keeps them itself.) Done here because most fighters keep
    their targets, and then only the few who choose afresh go through the policy loop.
    """
    c, m = chooses.shape
    # No cap (missiles: "anybody who is in sight and range") is passed on as none: the
    # engine's own cap of c never binds either (at most c - 1 attackers on one), so the
    # keeping below checks nothing and no (c, m) cap is built, gathered or compared
    # (docs/engine-tricks.md, work that cannot change the answer, skipped).
    active = chooses.any(axis=1)
    if counting(policy[active]):
        rows = np.where(active, policy, FIRST)[:, None]
        return choose_targets(rows, side, who, allowed, chooses, current=current, cap=cap,
                              prefer=prefer,
                              **kw)
    kept = np.where(chooses & (current >= 0) & cur_allowed, current, NO_TARGET)
    rest = None
    if cap is not None:
        count = np.zeros((c, m), dtype=np.int16)
        flat = count.ravel()
        cols = np.arange(m)
        for i in range(c):
            t = kept[i]
            if not (t >= 0).any():
                continue
            cell = np.maximum(t, 0).astype(np.intp) * m + cols
            ok = (t >= 0) & (flat[cell] < cap.ravel()[cell])
            kept[i] = np.where(ok, t, NO_TARGET)
            flat[cell] += ok
        rest = (cap - count).astype(np.int16)
    free = chooses & (kept < 0)
    if not free.any():
        return kept.astype(np.int8)
    rows = np.where(free.any(axis=1), policy, FIRST)[:, None]
    fresh = choose_targets(rows, side, who, allowed, free, cap=rest, prefer=prefer, **kw)
    return np.where(free, fresh, kept).astype(np.int8)


def _on_each(target: np.ndarray, attacks: np.ndarray) -> np.ndarray:
    """(c, n) int16: how many places ``attacks`` their ``target`` (c, n; -1 for none; a place
    that attacks has one) has each place: the attackers' targets (-1 for the others) compared
    with each place in turn, counted along the short axis in int16 (docs/engine-tricks.md,
    narrow counts: at (15, 32,768) 0.82 against 1.83 ms for a scatter-add a place through
    intp flat cells, at (5, 32,768) 0.11 against 0.40)."""
    c, n = target.shape
    aimed = target.astype(np.int16) if c >= 127 else target
    aimed = (aimed + aimed.dtype.type(1)) * attacks
    aimed -= aimed.dtype.type(1)
    count = np.empty((c, n), dtype=np.int16)
    for p in range(c):
        (aimed == p).sum(axis=0, dtype=np.int16, out=count[p])
    return count


@dataclass
class Ring:
    """Who may strike in reach this round, and the ring round each fighter (seed, Group
    fights): ``rank`` is an attacker's place among those on its target (random order), which
    gives the +1, +2 ... melee bonus and the angle it attacks from; ``count`` is how many
    ring a fighter."""

    allowed: np.ndarray      # (c, n) bool: may attack in contact this round
    ring: np.ndarray         # (c, n) bool: attacks its target from the front line
    through: np.ndarray      # (c, n) bool: attacks from a rear row, through its front
    rank: np.ndarray         # (c, n) int16
    angle: np.ndarray        # (c, n) int8: FROM_FRONT, FROM_SIDE, FROM_REAR
    count: np.ndarray        # (c, n) int16: ring attackers on each fighter


def ring_of(target: np.ndarray, contact: np.ndarray, rear: np.ndarray,
            reach_through: np.ndarray, geometry: int, rng: np.random.Generator) -> Ring:
    """The attackers on each target, counted in a random order each round (lab: the seed
    says who is second only by arrival; ``balance.engine.targeting.attacker_rank``, never
    listing order). ``contact`` (c, n): the fighter's target is within reach and in its
    front line; ``reach_through`` (c,): its formation weapon is a spear or polearm, so it
    attacks from a rear row; ``geometry``: ``rules.ring`` (``rules.tables.ring_angle``)."""
    ring = contact & ~rear
    through = contact & rear & reach_through[:, None]
    rank = attacker_rank(target, ring, rng)
    count = _on_each(target, ring)
    angle = (ring_angle(rank, geometry) * ring).astype(np.int8)
    return Ring(ring | through, ring, through, rank, angle, count)
