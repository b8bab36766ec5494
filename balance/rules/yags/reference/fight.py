"""Readable scalar reference of the Yags melee rules (docs/rules/yags.md, seed 000).

One fight at a time, with a small mutable state object per fighter and one function per rule
step, written to be read side by side with the rulebook. It is the oracle that the vectorised
kernel is tested against in distribution, so it is written independently of that kernel: only
the table code in ``tracks`` and ``tactics`` and the compiled numbers in ``fighters`` are
shared. This module holds the round; ``state`` the fighter's state, ``declare`` the
declarations, ``strikes`` an attack and the strikes it sets off, ``moves`` the manoeuvres,
``blows`` what a blow does (each beside the kernel module of the same name in ``vector``).

Every d20 is ``int(rng.integers(1, 21))``; the only other draw is the initiative tie-break
order. Numbered comments ("Round 3") point at the steps of the spec.
"""

from __future__ import annotations

import numpy as np

from balance.engine.status import DRAW, YIELDED, TrialOutcome
from balance.rules.yags.compile import YagsFight
from balance.rules.yags.reference import missiles as missiles
from balance.rules.yags.reference.blasts import blasts_at_start
from balance.rules.yags.reference.blows import NATURAL_ONE, d20, end_of_round_checks
from balance.rules.yags.reference.declare import declare
from balance.rules.yags.reference.groups import is_group, run_away
from balance.rules.yags.reference.moves import escape
from balance.rules.yags.reference.state import (
    ATTACK,
    ESCAPE,
    NO_ACTION,
    PICK_UP,
    REROLL,
    RETREAT,
    STAND_UP,
    Combat,
    FighterState,
    MountState,
    can_act,
    open_distance,
    round_penalty,
    settle,
)
from balance.rules.yags.reference.strikes import attack_action, strike
from balance.rules.yags.rules.equipment import MAIN, SPARE
from balance.rules.yags.rules.tracks import SLOW, STANCE_SPEED

__all__ = ["Combat", "FighterState", "reference_run", "reference_trial", "round_penalty"]

# --- Round 1: initiative -----------------------------------------------------------------


def roll_initiative(combat: Combat, *, rng: np.random.Generator) -> None:
    """Seed 000, "The Combat Sequence": agility x 4 + d20, fixed for the whole combat.

    A fumbled initiative loses the first round. Ties are broken by a random order drawn once
    here (lab assumption), so neither side is favoured.
    """
    for state in combat.fighters:
        roll = d20(rng)
        state.initiative = state.fighter.initiative + roll
        state.fumbled_initiative = roll == NATURAL_ONE
    for state, rank in zip(combat.fighters, rng.permutation(len(combat.fighters)), strict=True):
        state.tiebreak = int(rank)


# --- Round 4: actions --------------------------------------------------------------------------


def speed(state: FighterState) -> int:
    """Seed 000: fast (aggressive), normal or slow (defensive); prone, stunts and the wrong
    style make a fighter's actions slow. At a distance a shot has its own speed, and so has
    an attack after a full Move (docs/rules/yags-missiles.md)."""
    if state.pace is not None:
        return state.pace
    if state.prone or state.stunting or state.gear.slow or state.fighter.rank == 2:
        return SLOW   # (seed 000: the second rank's thrusts are slow)
    return STANCE_SPEED[state.stance_now]


def action_order(combat: Combat) -> list[FighterState]:
    """Fast, then normal, then slow actions, each in decreasing initiative. Lab assumption:
    the order is settled when actions are declared; a fighter knocked down later in the round
    still acts in its place (with the prone penalties)."""
    return sorted(combat.fighters, key=lambda s: (speed(s), -s.initiative, s.tiebreak))


def take_action(state: FighterState, combat: Combat, round_no: int, *,
                rng: np.random.Generator) -> None:
    """Perform one fighter's declared action. A fighter no longer able to act does nothing;
    an attack on a fallen target is lost (lab assumption: no re-targeting within a round)."""
    if state.action == NO_ACTION or not can_act(state, round_no):
        return
    if state.action == STAND_UP:
        state.prone = False
    elif state.action == PICK_UP:
        if state.main_down:
            state.weapons, state.main_down = MAIN, False
        elif state.spare_down:
            state.weapons, state.spare_down = SPARE, False
    elif state.action == ESCAPE:
        if state.partner is not None:
            escape(state, combat.fighters[state.partner], combat, rng=rng)
    elif state.action == ATTACK:
        target = combat.fighters[state.target]
        if target.standing and state.partner in (None, target.index):
            if not combat.at_distance or missiles.approach(state, target):
                attack_action(state, target, combat, round_no, rng=rng)
    elif state.action == missiles.LOAD:
        missiles.load(state)
    elif state.action in (missiles.SHOOT, missiles.RUN):
        target = combat.fighters[state.target]
        if target.standing:
            if state.action == missiles.SHOOT:
                missiles.shoot(state, target, combat, round_no, rng=rng)
            else:
                missiles.run(state, target, round_no)
    settle(combat)


# --- Round 5: end of round ---------------------------------------------------------------------


def end_of_round(combat: Combat, *, rng: np.random.Generator, round_no: int = 2) -> None:
    """Seed 000, "End of Round": checks to stay alive and conscious (riders' mounts too), then
    exhaustion and yielding, broken sides running away, then re-rolled initiatives."""
    rules = combat.rules
    for state in combat.fighters:
        if state.action == RETREAT:   # it gave ground: foes inside its reach are outside
            open_distance(state, combat)
    for state in combat.fighters:
        end_of_round_checks(state, rules, rng=rng)
        if state.mounted:
            end_of_round_checks(state.mount, rules, rng=rng)
    settle(combat)
    for state in combat.fighters:
        if not state.standing:
            continue
        tired = state.fatigue >= state.fighter.exhausted_at
        if tired or max(state.wounds, state.stuns) >= state.fighter.yield_at:
            state.status = YIELDED
    settle(combat)
    if is_group(combat) and any(b is not None for b in combat.breaks_at):
        run_away(combat, round_no, strike, rng=rng)
        settle(combat)
    for state in combat.fighters:
        if state.action == REROLL:
            state.initiative = state.fighter.initiative + d20(rng)   # keep whatever is rolled


def winning_side(combat: Combat) -> int | None:
    """The side that won, ``DRAW`` if nobody is standing, or None while 2+ sides stand."""
    sides = {state.side for state in combat.fighters if state.standing}
    if len(sides) == 1:
        return sides.pop()
    return DRAW if not sides else None


# --- The whole fight ---------------------------------------------------------------------------


def start_combat(fight: YagsFight, *, rng: np.random.Generator) -> Combat:
    """Fresh states for every fighter, with initiative rolled."""
    states = []
    for i, f in enumerate(fight.fighters):
        state = FighterState(i, f, spare_left=f.has_spare, fatigue=f.fatigue)
        if f.fatigue >= f.exhausted_at:
            state.status = YIELDED     # exhausted before the fight: it must rest
        if f.mount is not None:
            state.mount, state.mounted = MountState(f.mount), True
        states.append(state)
    combat = Combat(states, fight.rules, fight.breaks_at, at_distance=fight.at_distance)
    if combat.at_distance:
        distances = fight.side_distance or (0.0,) * len(fight.side_names)
        for state in states:
            state.pos = 0.0 if state.side == 0 else distances[state.side]
            if state.fighter.missile is not None:
                state.gun = missiles.new_gun(state.fighter.missile)
    roll_initiative(combat, rng=rng)
    combat.seats = [s.index for s in sorted(
        combat.fighters, key=lambda s: (start_speed(s), -s.initiative, s.tiebreak))]
    return combat


def start_speed(state: FighterState) -> int:
    """The speed it acts at when the fight begins: slow with the wrong style, stunting every
    round or in the second rank, else its stance's."""
    t = state.fighter.tactics
    every_round_stunt = t.stunt_difficulty >= 0 and not t.stunt_first_round
    if state.gear.slow or every_round_stunt or state.fighter.rank == 2:
        return SLOW
    return STANCE_SPEED[state.fighter.stance]


def play_round(combat: Combat, round_no: int, *, rng: np.random.Generator,
               explosions: tuple = ()) -> None:
    """Seed 000, "The Combat Round": declare, act by speed, book-keep. Explosions placed at
    the start of this round go off first (reference/blasts.py)."""
    if explosions:
        blasts_at_start(combat, explosions, round_no, rng=rng)
    declare(combat, round_no, rng=rng, plan=missiles.plan if combat.at_distance else None)
    for state in action_order(combat):
        take_action(state, combat, round_no, rng=rng)
    end_of_round(combat, rng=rng, round_no=round_no)


def outcome(combat: Combat, winner: int, rounds: int) -> TrialOutcome:
    return TrialOutcome(winner, rounds, tuple(state.status for state in combat.fighters))


def reference_trial(fight: YagsFight, rng: np.random.Generator) -> TrialOutcome:
    """Play one whole fight round by round; the fight ends as soon as it is decided.

    After ``fight.max_rounds`` rounds with two or more sides standing it is a draw.
    """
    combat = start_combat(fight, rng=rng)
    for round_no in range(1, fight.max_rounds + 1):
        play_round(combat, round_no, rng=rng, explosions=fight.explosions)
        winner = winning_side(combat)
        if winner is not None:
            return outcome(combat, winner, round_no)
    return outcome(combat, DRAW, fight.max_rounds)


def reference_run(fight: YagsFight, n_trials: int,
                  rng: np.random.Generator) -> list[TrialOutcome]:
    """``n_trials`` independent fights from one generator."""
    return [reference_trial(fight, rng) for _ in range(n_trials)]

