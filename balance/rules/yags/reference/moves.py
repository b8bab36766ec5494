"""Readable scalar reference, part 4: what a successful manoeuvre does, and the unarmed
manoeuvres (seed 000, "Melee Manoeuvres": grapple, trip, charge through, escape hold).
"""

from __future__ import annotations

import numpy as np

from balance.rules.yags.reference.blows import apply_damage, blow, d20
from balance.rules.yags.reference.state import (
    Combat,
    FighterState,
    can_act,
    condition_penalty,
    knock_down,
    lose_weapon,
    release,
    tire,
)
from balance.rules.yags.rules.tactics import (
    DISARM_FOE,
    GRAPPLE,
    IMPROVE_HOLD,
    MEET_BLOCK,
    MEET_DODGE,
    OVERWHELM,
    TIRING,
    TRIP,
)
from balance.rules.yags.rules.tracks import OVERWHELM_STEP, STUNS, success_level

SUPERB = 4


def land(a: FighterState, t: FighterState, m: int, level: int, to_damage: int,
         combat: Combat, round_no: int, *, rng: np.random.Generator) -> None:
    """The effect of a successful attack or manoeuvre (seed 000, Melee Manoeuvres)."""
    if m == OVERWHELM:
        t.round_mod -= OVERWHELM_STEP * level      # the rest of this round, against anyone
    elif m == DISARM_FOE:
        # A superb disarm with a free hand grabs the weapon: it cannot be picked up.
        lose_weapon(t, recoverable=not (level >= SUPERB and a.gear.free_hand))
    elif m == GRAPPLE:
        grapple(a, t, combat, round_no, rng=rng)
    elif m == TRIP:
        trip(a, t, combat, rng=rng)
    elif m == IMPROVE_HOLD:
        t.hold += level - 1       # good: +1, and +1 per level beyond
    else:
        blow(a, t, m, to_damage, combat, rng=rng)
    if m in TIRING:
        tire(a)                   # seed 000: fatigue after the manoeuvre, only on success


def contest(a: FighterState, t: FighterState, combat: Combat, *, rng: np.random.Generator,
            a_strength: int | None = None) -> int:
    """A contest of strength x brawl (seed 000): ``a`` wins on an equal or higher roll.
    Returns ``a``'s levels of success, 0 if it lost. Lab's assumption: contests take the
    condition penalties and never fumble."""
    rules = combat.rules
    strength = a.fighter.strength if a_strength is None else a_strength
    ra = strength * a.fighter.brawl + condition_penalty(a, rules) + d20(rng)
    rt = t.fighter.strength * t.fighter.brawl + condition_penalty(t, rules) + d20(rng)
    return int(success_level(ra - rt, rules.success_step)) if ra >= rt else 0


def grapple(a: FighterState, t: FighterState, combat: Combat, round_no: int, *,
            rng: np.random.Generator) -> None:
    """Seed 000, Grapple: a contest to keep hold; won, the target is held at -1 attribute per
    level of success and loses the rest of its actions this round."""
    levels = contest(a, t, combat, rng=rng)
    if not levels:
        return
    a.partner, t.partner = t.index, a.index
    a.holding, t.holding = True, False
    t.hold, t.neck = levels, a.tactics.neck
    t.lost_round = round_no


def trip(a: FighterState, t: FighterState, combat: Combat, *, rng: np.random.Generator) -> None:
    """Seed 000, Trip: a contest to throw; won, the target is prone, and takes a stun per
    extra level of success (the lab's tripper always takes them)."""
    levels = contest(a, t, combat, rng=rng)
    if levels:
        knock_down(t)
        apply_damage(t, levels - 1, STUNS, combat.rules, rng=rng, vitals=t.fighter.vitals)


def escape(t: FighterState, holder: FighterState, combat: Combat, *,
           rng: np.random.Generator) -> None:
    """Seed 000, Escape hold: strength x brawl against the holder's, with the hold's penalty
    taken off the escaper's strength; winning breaks the hold."""

    if contest(t, holder, combat, rng=rng, a_strength=max(0, t.fighter.strength - t.hold)):
        release(t, combat)


def charge_through(a: FighterState, t: FighterState, combat: Combat, round_no: int, *,
                   rng: np.random.Generator) -> None:
    """Seed 000, Charge through: the defender steps aside (nothing happens) or blocks (a
    contest of strength x brawl; the loser is knocked prone). Lab's policy ``auto``: block
    when at least as strong a brawler; a defender who cannot act blocks."""
    meet = t.tactics.meet_charge
    strong = t.fighter.strength * t.fighter.brawl >= a.fighter.strength * a.fighter.brawl
    dodge = can_act(t, round_no) and (meet == MEET_DODGE or (meet != MEET_BLOCK and not strong))
    if dodge:
        return
    knock_down(t if contest(a, t, combat, rng=rng) else a)
