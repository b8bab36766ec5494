"""Readable scalar reference, group fights (docs/rules/yags.md, Group fights): who attacks
whom, the second rank, and a broken side running away. Written independently of the kernel's
``groups`` (which uses ``balance.engine.targeting.choose_targets``); tested to agree in
distribution.
"""

from __future__ import annotations

import math

import numpy as np

from balance.engine.status import FLED
from balance.engine.targeting import DANGEROUS, FIRST, FIXED, NEAREST, RANDOM, SPREAD, WEAKEST
from balance.rules.yags.equipment import MAIN
from balance.rules.yags.ranged import CONTACT, METRE_OVER_PLACES
from balance.rules.yags.reference.state import ATTACK, Combat, FighterState, can_strike, settle

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
            s.target = pick(s, options, count, combat, rng=rng)
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
         rng: np.random.Generator) -> int | None:
    """The foe ``me``'s policy picks among ``options`` (fighter indices); ties to scenario
    order."""
    if not options:
        return None
    f = me.fighter
    fs = combat.fighters
    if f.target == RANDOM:
        return options[int(rng.integers(len(options)))]
    keys = {
        FIRST: lambda j: 0,
        WEAKEST: lambda j: -(fs[j].wounds + fs[j].stuns),
        DANGEROUS: lambda j: -fs[j].fighter.attack,
        NEAREST: lambda j: nearness(me, fs[j], combat),
        SPREAD: lambda j: count[j],
        FIXED: lambda j: f.priority[j],
    }
    key = keys[f.target]
    return min(options, key=lambda j: (key(j), j))


def run_away(combat: Combat, round_no: int, strike, *, rng: np.random.Generator) -> None:
    """End of round: a side whose share of fighters down reached ``breaks_at`` breaks. Each
    foe still able to strike that fought one of its standing fighters this round strikes at it
    once as it runs (undefended: it has turned its back), then those standing flee."""
    fs = combat.fighters
    broken = set()
    for side, limit in enumerate(combat.breaks_at):
        mine = [s for s in fs if s.side == side]
        if limit is not None and mine and \
                sum(not s.standing for s in mine) >= math.ceil(limit * len(mine) - 1e-9):
            broken.add(side)
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
