"""Readable scalar reference, group fights (docs/rules/yags.md, Group fights): who attacks
whom, the second rank, and a broken side running away. Written independently of the kernel's
``groups`` (which uses ``balance.engine.targeting.choose_targets``); tested to agree in
distribution.
"""

from __future__ import annotations

import numpy as np

from balance.engine.morale import routing_sides_scalar
from balance.engine.status import FLED
from balance.engine.targeting import (
    DANGEROUS,
    ENGAGE,
    FIRST,
    FIXED,
    NEAREST,
    RANDOM,
    SPREAD,
    WEAKEST,
)
from balance.engine.targeting_scalar import best, choosing_order, engage_key
from balance.rules.yags.reference.state import ATTACK, Combat, FighterState, can_strike, settle
from balance.rules.yags.rules.equipment import MAIN
from balance.rules.yags.rules.ranged import CONTACT, METRE_OVER_PLACES

RANK_REACH = 2    # seed 000, ranks: the second rank out-reaches its target by two levels


def is_group(combat: Combat) -> bool:
    """A fight of more than two: the group rules apply (a duel keeps the basic rules)."""
    return len(combat.fighters) > 2


def choosing(combat: Combat) -> bool:
    """Can anyone's choice differ from the first standing foe? A target policy other than
    ``first``, an attacker limit some side can exceed, or someone in the second rank."""
    fs = combat.fighters
    sides = {s.side for s in fs}
    smallest = min(sum(1 for s in fs if s.side == k) for k in sides)
    return (any(s.fighter.target != FIRST or s.fighter.rank == 2 for s in fs)
            or len(fs) - smallest > combat.rules.max_attackers)


def sheltered(state: FighterState, combat: Combat) -> bool:
    """A second-rank fighter with a standing front rank before it: it cannot be attacked."""
    return state.fighter.rank == 2 and state.standing and any(
        o.standing and o.side == state.side and o.fighter.rank == 1 for o in combat.fighters)


def reaches_over(state: FighterState, foe: FighterState) -> bool:
    """Seed 000, ranks: a thrusting weapon at least two reach longer than the target's."""
    return state.fighter.thrust_reach >= foe.fighter.loadout(MAIN).reach + RANK_REACH


def assign_targets(combat: Combat, choosers: list[FighterState], *,
                   rng: np.random.Generator) -> None:
    """Every chooser's target (None: it waits), in seating order (the acting order at the
    start of the fight): first those who keep a target still standing, then the rest by
    their policy among foes under the attacker limit; the second rank last, out of the
    limit. ``state.last_target`` is last round's target."""
    fs = combat.fighters
    cap = {s.index: combat.rules.max_attackers for s in fs}
    for s in fs:   # grapplers already on a fighter take places in its limit
        if s.action == ATTACK and s.partner is not None:
            cap[s.target] -= 1
    count = dict.fromkeys(cap, 0)
    front = [s for s in combat.seats_order() if s in choosers and not sheltered(s, combat)]
    rear = [s for s in combat.seats_order() if s in choosers and sheltered(s, combat)]
    front = choosing_order(front, [s.fighter.target for s in front], rng)   # order-free

    def open_foe(me: FighterState, j: int) -> bool:
        foe = fs[j]
        return foe.standing and foe.side != me.side and not sheltered(foe, combat)

    for s in front:
        s.target = None
        t = s.last_target
        if t is not None and open_foe(s, t) and count[t] < cap[t]:
            s.target = t
            count[t] += 1
    for s in front:
        if s.target is None:
            options = [o.index for o in fs
                       if open_foe(s, o.index) and count[o.index] < cap[o.index]]
            aims = {o.index: o.target for o in front}
            s.target = pick(s, options, count, combat, rng=rng, aims=aims)
            if s.target is not None:
                count[s.target] += 1
    for s in rear:
        options = [o.index for o in fs if open_foe(s, o.index) and reaches_over(s, o)]
        t = s.last_target
        s.target = t if t in options else pick(s, options, dict.fromkeys(cap, 0), combat,
                                                 rng=rng)
        s.rear = s.target is not None
    for s in choosers:
        if s.target is not None:
            s.action = ATTACK


def pick(me: FighterState, options: list[int], count: dict[int, int], combat: Combat, *,
         rng: np.random.Generator, aims: dict[int, int | None] | None = None) -> int | None:
    """The foe ``me``'s policy picks among ``options`` (fighter indices); ties at random
    (``balance.engine.targeting_scalar.best``). ``aims``: the targets chosen so far in this
    assignment (for ``engage``)."""
    f = me.fighter
    fs = combat.fighters
    aims = aims or {}
    keys = {
        ENGAGE: lambda j: engage_key(me.index, aims.get(j), count[j], distance(me, fs[j], combat)),
        RANDOM: lambda j: 0,
        FIRST: lambda j: j,
        WEAKEST: lambda j: -(fs[j].wounds + fs[j].stuns),
        DANGEROUS: lambda j: -fs[j].fighter.attack,
        NEAREST: lambda j: nearness(me, fs[j], combat),
        SPREAD: lambda j: count[j],
        FIXED: lambda j: f.priority[j],
    }
    return best(options, keys[f.target], rng)


def run_away(combat: Combat, round_no: int, strike, *, rng: np.random.Generator) -> None:
    """End of round: a side whose share of fighters down reached ``breaks_at`` breaks, while
    a foe stands (``balance.engine.morale.routing_sides_scalar``). Each
    foe still able to strike that fought one of its standing fighters this round strikes at it
    once as it runs (undefended: it has turned its back), then those standing flee."""
    fs = combat.fighters
    sides = range(len(combat.breaks_at))
    broken = routing_sides_scalar([sum(1 for s in fs if s.side == k) for k in sides],
                                  [sum(1 for s in fs if s.side == k and not s.standing)
                                   for k in sides],
                                  [any(s.standing for s in fs if s.side == k) for k in sides],
                                  list(combat.breaks_at), rng)
    if not broken:
        return
    running = [s for s in fs if s.standing and s.side in broken]
    order = combat.seats_order()
    for v in order:
        if v not in running:
            continue
        for k in order:
            if k is v or k in running or k.side == v.side:
                continue
            fought = (k.action == ATTACK and k.target == v.index) or \
                (v.action == ATTACK and v.target == k.index)
            if combat.at_distance:   # and is within reach of it now
                fought = fought and abs(k.pos - v.pos) <= CONTACT
            if fought and k.standing and v.standing and can_strike(k, v, round_no):
                strike(k, v, combat, round_no, automatic=True, rng=rng)
                settle(combat)
    for s in running:
        if s.standing:
            s.status = FLED


def nearness(me: FighterState, foe: FighterState, combat: Combat) -> float:
    """How near a foe is for the ``nearest`` policy: places apart in the sides' lines, and
    at a distance metres apart on the line first (a metre outweighs any places)."""
    places = abs(foe.fighter.line - me.fighter.line)
    if not combat.at_distance:
        return places
    return abs(foe.pos - me.pos) * METRE_OVER_PLACES + places


def distance(me: FighterState, foe: FighterState, combat: Combat) -> float:
    """Metres between two fighters in a fight at a distance (0 otherwise: no positions)."""
    return abs(foe.pos - me.pos) if combat.at_distance else 0.0
