"""Group fights in the readable scalar reference: who attacks whom, blows from the side, and
sides that break and run (docs/rules/percentile.md, Group fights).

Plain Python, one fight at a time, written beside the rules document and independently of
the kernel (``kernel/groups.py``), which must agree with it in distribution.
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
from balance.engine.targeting_scalar import attacker_ranks, best, choosing_order, engage_key
from balance.rules.percentile.compile import MELEE
from balance.rules.percentile.reference.strike import Combat, FighterState, engaged, free_blow
from balance.rules.percentile.rules import tables as tb

# --- who attacks whom ----------------------------------------------------------------------


def fights_hand_to_hand(s: FighterState) -> bool:
    return s.item().kind == MELEE


def limit(s: FighterState, foe: FighterState) -> int:
    """Seed 004: how many with the weapon ``s`` holds can engage ``foe`` in its space."""
    return s.item().limits[foe.f.space_class]


def choose_group_targets(combat: Combat, *, rng: np.random.Generator) -> None:
    """Each standing fighter's target for the round, in a fight of three or more.

    1. Targets are kept until they fall: in a random order, a fighter keeps last round's
       target if it still stands and, with a melee weapon, fewer than its weapon's limit
       (in the target's space) of the keepers before it already engage it.
    2. Melee fighters without a target choose, grouped by their weapon's attackers-per-target
       row (smallest first), in the engine's choosing order within a group (random unless
       all are ``first``), by their policy among the standing foes fewer than their own
       limit engage.
    3. Shooters without a target choose among all standing foes, in the engine's choosing
       order; they are never limited and never count as engaging.
    A fighter with no foe to choose waits this round.
    """
    fighters = combat.fighters
    engaging = [0] * len(fighters)       # melee attackers on each fighter
    for i in rng.permutation(len(fighters)):     # keepers in a random order, not listing
        s = fighters[i]
        kept, s.target = s.target, None
        if not s.standing or kept is None or not fighters[kept].standing:
            continue
        if fights_hand_to_hand(s):
            if engaging[kept] >= limit(s, fighters[kept]):
                continue
            engaging[kept] += 1
        s.target = kept
    free = [s for s in fighters if s.standing and s.target is None]
    melee = [s for s in free if fights_hand_to_hand(s)]
    for row in sorted({s.item().limits for s in melee}):
        group = [s for s in melee if s.item().limits == row]
        for s in choosing_order(group, [s.f.target for s in group], rng):
            foes = [o for o in fighters if o.side != s.side and o.standing
                    and engaging[o.index] < limit(s, o)]
            aims = {x.index: x.target for x in fighters if fights_hand_to_hand(x)}
            chosen = pick(s, foes, engaging, combat, rng=rng, aims=aims)
            if chosen is not None:
                s.target = chosen.index
                engaging[chosen.index] += 1
    shooters = [s for s in free if not fights_hand_to_hand(s)]
    for s in choosing_order(shooters, [s.f.target for s in shooters], rng):
        attackers = [sum(1 for x in fighters if x.target == o.index) for o in fighters]
        foes = [o for o in fighters if o.side != s.side and o.standing]
        aims = {x.index: x.target for x in fighters}
        chosen = pick(s, foes, attackers, combat, rng=rng, aims=aims)
        s.target = None if chosen is None else chosen.index


def pick(s: FighterState, foes: list[FighterState], attackers: list[int], combat: Combat, *,
         rng: np.random.Generator, aims: dict[int, int | None] | None = None
         ) -> FighterState | None:
    """The foe ``s``'s target policy picks (ties at random, ``targeting_scalar.best``).
    ``aims``: whom each fighter of this choice attacks so far (``engage``)."""
    policy = s.f.target
    aims = aims or {}

    def key(o: FighterState):
        if policy == ENGAGE:
            return engage_key(s.index, aims.get(o.index), attackers[o.index],
                              float(np.float32(abs(np.float32(s.pos) - np.float32(o.pos)))))
        if policy == RANDOM:
            return 0
        if policy == FIRST:
            return o.index
        if policy == WEAKEST:
            return o.hp                               # fewest hit points left
        if policy == DANGEROUS:
            return -o.f.threat[o.wield]               # skill x mean damage in hand
        if policy == NEAREST:
            # float32 distance scaled as the engine's sort key (exact: a power of two)
            return float(np.float32(abs(np.float32(s.pos) - np.float32(o.pos)))
                         * np.float32(1024))
        if policy == SPREAD:
            return attackers[o.index]                 # fewest attackers so far
        assert policy == FIXED
        return s.f.priority[o.index]                  # its place in the list

    return best(foes, key, rng)


# --- blows from the side -------------------------------------------------------------------


def side_attacks(combat: Combat, *, rng: np.random.Generator) -> None:
    """After movement: a fighter faces ``rules.faces`` of the melee attackers in reach of it
    (its own target first, if that one attacks it, then in a random order:
    ``targeting_scalar.attacker_ranks``, never listing order); the others
    strike it from the side this round, unless it stands in a corridor (seed 004: a choke
    point shields the defender's flanks)."""
    fighters = combat.fighters
    for s in fighters:
        s.flank = False
    attacking: dict[int, list[FighterState]] = {}
    for s in fighters:
        if (s.standing and s.target is not None and fights_hand_to_hand(s)
                and engaged(s, fighters[s.target], combat)):
            attacking.setdefault(s.target, []).append(s)
    for t, attackers in attacking.items():
        target = fighters[t]
        if target.f.space_class == tb.CORRIDOR:
            continue
        own = [a for a in attackers if a.index == target.target]
        others = [a for a in attackers if a.index != target.target]
        ranks = attacker_ranks(len(others), rng)
        others = [a for _, a in sorted(zip(ranks, others, strict=True), key=lambda x: x[0])]
        for a in (own + others)[combat.rules.faces:]:
            a.flank = True


# --- morale ------------------------------------------------------------------------------------


def rout(combat: Combat, *, rng: np.random.Generator) -> None:
    """End of round: a side whose share of fighters out of the fight (yielded, unconscious,
    dead or fled) has reached its ``morale.breaks_at`` breaks, as long as a foe still stands.
    If every side standing breaks at once, the one least far past its break point holds
    (``balance.engine.morale``). Each of its standing fighters, in scenario order, takes one
    free blow (no parry; a Dodge may avoid it: ``reference.strike.free_blow``) from each foe
    in reach who is not running too (seed 004: turning to run grants a free attack that
    cannot be parried); then they have all fled."""
    fighters = combat.fighters
    n_sides = len(combat.fight.side_names)
    size = [sum(1 for s in fighters if s.side == k) for k in range(n_sides)]
    out = [sum(1 for s in fighters if s.side == k and not s.standing) for k in range(n_sides)]
    up = [any(s.standing for s in fighters if s.side == k) for k in range(n_sides)]
    broken = routing_sides_scalar(size, out, up, list(combat.fight.breaks_at), rng)
    runners = [s for s in fighters if s.standing and s.side in broken]
    for s in runners:
        for foe in fighters:
            if (foe.side != s.side and foe.side not in broken and foe.standing and s.standing
                    and engaged(foe, s, combat) and foe.can_strike()):
                free_blow(foe, s, combat, rng=rng)
    for s in runners:
        if s.standing:
            s.status = FLED
