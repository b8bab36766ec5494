"""Group fights in the readable scalar reference: who attacks whom, blows from the side, and
sides that break and run (docs/rules/percentile.md, Group fights).

Plain Python, one fight at a time, written beside the rules document and independently of
the kernel (``kernel_groups.py``), which must agree with it in distribution.
"""

from __future__ import annotations

import numpy as np

from balance.engine.status import FLED
from balance.engine.targeting import DANGEROUS, FIRST, FIXED, NEAREST, RANDOM, SPREAD, WEAKEST
from balance.rules.percentile import tables as tb
from balance.rules.percentile.fighters import MELEE
from balance.rules.percentile.reference_strike import (
    STRIKE,
    Combat,
    FighterState,
    engaged,
    melee_attack,
)

# --- who attacks whom ----------------------------------------------------------------------


def fights_hand_to_hand(s: FighterState) -> bool:
    return s.item().kind == MELEE


def limit(s: FighterState, foe: FighterState) -> int:
    """Seed 004: how many with the weapon ``s`` holds can engage ``foe`` in its space."""
    return s.item().limits[foe.f.space_class]


def choose_group_targets(combat: Combat, *, rng: np.random.Generator) -> None:
    """Each standing fighter's target for the round, in a fight of three or more.

    1. Targets are kept until they fall: in scenario order, a fighter keeps last round's
       target if it still stands and, with a melee weapon, fewer than its weapon's limit
       (in the target's space) of the keepers before it already engage it.
    2. Melee fighters without a target choose, grouped by their weapon's attackers-per-target
       row (smallest first), in scenario order within a group, by their policy among the
       standing foes fewer than their own limit engage.
    3. Shooters without a target choose among all standing foes; they are never limited and
       never count as engaging.
    A fighter with no foe to choose waits this round.
    """
    fighters = combat.fighters
    engaging = [0] * len(fighters)       # melee attackers on each fighter
    for s in fighters:
        kept, s.target = s.target, None
        if not s.standing or kept is None or not fighters[kept].standing:
            continue
        if fights_hand_to_hand(s):
            if engaging[kept] >= limit(s, fighters[kept]):
                continue
            engaging[kept] += 1
        s.target = kept
    free = [s for s in fighters if s.standing and s.target is None]
    for s in sorted((s for s in free if fights_hand_to_hand(s)),
                    key=lambda s: (s.item().limits, s.index)):
        foes = [o for o in fighters if o.side != s.side and o.standing
                and engaging[o.index] < limit(s, o)]
        chosen = pick(s, foes, engaging, combat, rng=rng)
        if chosen is not None:
            s.target = chosen.index
            engaging[chosen.index] += 1
    for s in free:
        if fights_hand_to_hand(s):
            continue
        attackers = [sum(1 for x in fighters if x.target == o.index) for o in fighters]
        foes = [o for o in fighters if o.side != s.side and o.standing]
        chosen = pick(s, foes, attackers, combat, rng=rng)
        s.target = None if chosen is None else chosen.index


def pick(s: FighterState, foes: list[FighterState], attackers: list[int], combat: Combat, *,
         rng: np.random.Generator) -> FighterState | None:
    """The foe ``s``'s target policy picks (ties to the first in scenario order)."""
    if not foes:
        return None
    policy = s.f.target
    if policy == RANDOM:
        return foes[int(rng.integers(len(foes)))]
    if policy == FIRST:
        return foes[0]

    def key(o: FighterState):
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

    return min(foes, key=lambda o: (key(o), o.index))


# --- blows from the side -------------------------------------------------------------------


def side_attacks(combat: Combat) -> None:
    """After movement: a fighter faces ``rules.faces`` of the melee attackers in reach of it
    (its own target first, if that one attacks it, then in scenario order); the others
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
        for a in (own + others)[combat.rules.faces:]:
            a.flank = True


# --- morale ------------------------------------------------------------------------------------


def rout(combat: Combat, *, rng: np.random.Generator) -> None:
    """End of round: a side whose share of fighters out of the fight (yielded, unconscious,
    dead or fled) has reached its ``morale.breaks_at`` breaks, as long as a foe still stands.
    Each of its standing fighters, in scenario order, takes one free blow (no parry, no
    dodge) from each foe in reach who is not running too (seed 004: turning to run grants
    a free attack that cannot be parried); then they have all fled."""
    fighters = combat.fighters
    n_sides = len(combat.fight.side_names)
    size = [sum(1 for s in fighters if s.side == k) for k in range(n_sides)]
    out = [sum(1 for s in fighters if s.side == k and not s.standing) for k in range(n_sides)]
    standing_sides = {s.side for s in fighters if s.standing}
    if len(standing_sides) < 2:
        return
    broken = {k for k in standing_sides
              if combat.fight.breaks_at[k] is not None
              and out[k] >= np.ceil(combat.fight.breaks_at[k] * size[k] - 1e-9)}
    runners = [s for s in fighters if s.standing and s.side in broken]
    for s in runners:
        for foe in fighters:
            if (foe.side != s.side and foe.side not in broken and foe.standing and s.standing
                    and engaged(foe, s, combat) and foe.can_strike()):
                melee_attack(foe, s, foe.wield, STRIKE, combat, rng=rng, defendable=False)
    for s in runners:
        if s.standing:
            s.status = FLED
