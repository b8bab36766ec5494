"""Readable scalar reference of the Yags basic combat rules (docs/rules/yags.md, seed 000).

One fight at a time, with a small mutable state object per fighter and one function per rule
step, written to be read side by side with the rulebook. It is the oracle that the vectorised
kernel is tested against in distribution, so it is written independently of that kernel: only
the table code in ``tracks`` and the compiled numbers in ``fighters`` are shared.

Every d20 is ``int(rng.integers(1, 21))``; the only other draw is the initiative tie-break
order. Numbered comments ("Round 3", "An attack 5") point at the steps of the spec.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.status import DEAD, DRAW, STANDING, UNCONSCIOUS, YIELDED, TrialOutcome
from balance.rules.yags.fighters import AUTO, Fighter, YagsFight, YagsRules
from balance.rules.yags.tracks import (
    DEFENCE_PENALTY,
    FATAL,
    HEALTH_CHECK_BASE,
    MIXED,
    STANCE_ATTACK,
    STANCE_DAMAGE,
    STANCE_DEFENCE,
    STANCE_SPEED,
    STUNS,
    WOUNDS,
    apply_stuns,
    health_target,
    levels_caused,
    split_mixed,
    track_penalty,
)

NATURAL_ONE = 1  # seed 000: a natural 1 on attack, defence, initiative or health is a fumble

# Health check results.
FAIL, SUCCESS, GOOD = 0, 1, 2

# Fumble results offered by the basic rules (seed 000, "Fumbles in Combat").
FATIGUE, FAIL_DEFENCE = "fatigue", "fail defence"


def d20(rng: np.random.Generator) -> int:
    """One twenty-sided die."""
    return int(rng.integers(1, 21))


@dataclass
class FighterState:
    """One fighter's changing state during a fight; its fixed numbers are in ``fighter``."""

    index: int                      # position in scenario order
    fighter: Fighter
    initiative: int = 0             # agility x 4 + d20, rolled once per fight
    tiebreak: int = 0               # random order among equal initiatives, drawn once
    fumbled_initiative: bool = False
    wounds: int = 0                 # 0..6, held at 6 (fatal) while alive
    stuns: int = 0                  # 0..6, held at 6 (beaten)
    fatigue: int = 0                # points from fumbles, each -rules.fatigue_penalty
    status: int = STANDING
    fighting_on_at_fatal: bool = False
    # This round's declarations (Round 2).
    target: int | None = None
    defences: int = 0               # number of defences declared
    defended: tuple[int, ...] = ()  # indices of the attackers those defences cover

    @property
    def side(self) -> int:
        return self.fighter.side

    @property
    def standing(self) -> bool:
        return self.status == STANDING


@dataclass
class Combat:
    """Everyone in one fight, in scenario order, and the rule options."""

    fighters: list[FighterState]
    rules: YagsRules


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


def can_act(state: FighterState, round_no: int) -> bool:
    """Only standing fighters act; a fumbled initiative loses round 1 (no attack, no defence)."""
    return state.standing and not (round_no == 1 and state.fumbled_initiative)


# --- Round 2: declarations -----------------------------------------------------------------


def choose_target(attacker: FighterState, combat: Combat) -> int | None:
    """Lab assumption: the first standing foe in scenario order."""
    for other in combat.fighters:
        if other.side != attacker.side and other.standing:
            return other.index
    return None


def defences_against(defender: FighterState, attackers: list[int]) -> tuple[int, tuple[int, ...]]:
    """How many defences ``defender`` declares, and which attackers they cover.

    ``attackers`` are the foes that declared an attack on it, in scenario order. Policy
    ``auto`` declares one per attacker, a number fixes the count (0 is all-out attack); both
    are capped at the maximum, which already includes the defensive stance's extra one. With
    fewer defences than attackers, the first attackers in scenario order are covered.
    """
    wanted = len(attackers) if defender.fighter.defences == AUTO else defender.fighter.defences
    count = min(wanted, defender.fighter.max_defences)
    return count, tuple(attackers[:count])


def declare(combat: Combat, round_no: int) -> None:
    """Seed 000, "Declaring Actions": every fighter who can act picks a target and defences.

    Declaration order (increasing initiative) does not matter here: targets depend only on
    who is standing, and defences only on the declared targets.
    """
    for state in combat.fighters:
        state.target = choose_target(state, combat) if can_act(state, round_no) else None
    for state in combat.fighters:
        if can_act(state, round_no):
            attackers = [o.index for o in combat.fighters if o.target == state.index]
            state.defences, state.defended = defences_against(state, attackers)
        else:
            state.defences, state.defended = 0, ()


# --- Round 3: penalties ----------------------------------------------------------------------


def round_penalty(state: FighterState, rules: YagsRules) -> int:
    """Penalty on an attack or defence roll, taken when the roll is made (so a wound taken
    earlier in the round already counts: seed 000, wounds are "a penalty to all actions").

    Wound level + stun level (seed 000 tables; "their penalties add together") + fatigue
    (lab assumption: ``rules.fatigue_penalty`` a point) + multiple defences (seed 000,
    "Declaring Defenses": 1: 0, 2: -10, 3: -20, ...).
    """
    return (
        int(track_penalty(state.wounds))
        + int(track_penalty(state.stuns))
        - rules.fatigue_penalty * state.fatigue
        + int(DEFENCE_PENALTY[state.defences])
    )


# --- Round 4: actions --------------------------------------------------------------------------


def action_order(combat: Combat) -> list[FighterState]:
    """Seed 000: fast, then normal, then slow actions, each in decreasing initiative.

    Speed comes from stance (aggressive is fast, defensive slow; seed 000, "Stance").
    """
    return sorted(
        combat.fighters,
        key=lambda s: (STANCE_SPEED[s.fighter.stance], -s.initiative, s.tiebreak),
    )


def take_action(attacker: FighterState, combat: Combat, round_no: int, *,
                rng: np.random.Generator) -> None:
    """Perform one fighter's declared attack, then the target's counter strike if it has one.

    A fighter no longer standing does not act; an attack on a fallen target is lost (lab
    assumption: no re-targeting within a round).
    """
    if not can_act(attacker, round_no) or attacker.target is None:
        return
    target = combat.fighters[attacker.target]
    if not target.standing:
        return
    resolve_attack(attacker, target, attacker.index in target.defended, combat.rules, rng=rng)
    if gets_counter_strike(target, attacker, round_no):
        counter_strike(target, attacker, combat.rules, rng=rng)


def gets_counter_strike(target: FighterState, attacker: FighterState, round_no: int) -> bool:
    """Seed 000: attacking someone you declared no defence against gives them a counter strike.

    The target must still be standing and able to act this round.
    """
    return target.index not in attacker.defended and can_act(target, round_no)


def counter_strike(striker: FighterState, victim: FighterState, rules: YagsRules, *,
                   rng: np.random.Generator) -> None:
    """Seed 000, "Counter strike": an immediate attack against the base difficulty.

    The victim is not defending against it; the striker uses its own stance and penalties.
    It never triggers another counter strike.
    """
    resolve_attack(striker, victim, False, rules, rng=rng)


def fumble_result(fumbler: FighterState, opponent: FighterState, *, defending: bool) -> str:
    """Seed 000, "Fumbles in Combat": you choose the result unless your opponent's skill is higher.

    Lab policy: the fumbler takes a point of fatigue; a more skilled opponent picks "fail
    defence" for a fumbled defence, and fatigue for a fumbled attack (already a miss).
    """
    if opponent.fighter.skill > fumbler.fighter.skill and defending:
        return FAIL_DEFENCE
    return FATIGUE


def resolve_attack(attacker: FighterState, target: FighterState, defending: bool,
                   rules: YagsRules, *, rng: np.random.Generator) -> bool:
    """One attack (seed 000, "Making an attack"): rolls, fumbles, and damage on a hit.

    Returns whether it hit. ``defending`` says whether the target declared a defence against
    this attacker; if not, the attack roll is against ``rules.base_difficulty``.
    """
    # An attack 1: attribute x skill + weapon + stance + penalties + d20.
    attack_die = d20(rng)
    attack_roll = (attacker.fighter.attack + STANCE_ATTACK[attacker.fighter.stance]
                   + round_penalty(attacker, rules) + attack_die)
    # An attack 2: the defence roll, or the base difficulty.
    difficulty = rules.base_difficulty
    if defending:
        defence_die = d20(rng)
        difficulty = (target.fighter.defence + STANCE_DEFENCE[target.fighter.stance]
                      + round_penalty(target, rules) + defence_die)
        # An attack 4: a fumbled defence is not a miss by itself; the result is chosen.
        if defence_die == NATURAL_ONE:
            if fumble_result(target, attacker, defending=True) == FAIL_DEFENCE:
                difficulty = rules.base_difficulty
            else:
                target.fatigue += 1
    # An attack 4: a fumbled attack always misses, and costs the attacker a point of fatigue.
    if attack_die == NATURAL_ONE:
        if fumble_result(attacker, target, defending=False) == FATIGUE:
            attacker.fatigue += 1
        return False
    # An attack 3: equal or greater hits.
    if attack_roll < difficulty:
        return False
    levels = roll_damage(attacker, target, rng=rng)
    apply_damage(target, levels, attacker.fighter.damage_type, rules, rng=rng)
    return True


def roll_damage(attacker: FighterState, target: FighterState, *,
                rng: np.random.Generator) -> int:
    """Seed 000, "Inflicting Damage": damage roll against soak roll; neither fumbles.

    One level if the damage roll is at least the soak roll, plus one per 5 points above it.
    Lab assumption: no penalties on either roll.
    """
    damage_roll = (attacker.fighter.damage + STANCE_DAMAGE[attacker.fighter.stance]
                   + d20(rng))
    soak_roll = target.fighter.soak + d20(rng)
    return int(levels_caused(damage_roll, soak_roll))


# --- Damage, tracks and health checks -------------------------------------------------------


def apply_damage(state: FighterState, levels: int, damage_type: int, rules: YagsRules, *,
                 rng: np.random.Generator) -> None:
    """Put ``levels`` of damage of one type on the tracks, with the health checks it calls.

    Wounds add up; stuns follow the stun rule (replace, add one, or nothing); mixed damage puts
    ceil(levels / 2) on stuns and floor(levels / 2) on wounds, both added cumulatively
    (seed 000, "Mixed Damage"). For mixed damage the wound check comes first, and a fighter
    it puts out makes no stun check.
    """
    if levels <= 0:
        return
    if damage_type == WOUNDS:
        add_wounds(state, levels, rules, rng=rng)
    elif damage_type == STUNS:
        set_stuns(state, int(apply_stuns(state.stuns, levels)), rules, rng=rng)
    elif damage_type == MIXED:
        stuns, wounds = split_mixed(levels)
        add_wounds(state, wounds, rules, rng=rng)
        set_stuns(state, state.stuns + stuns, rules, rng=rng)
    else:
        raise ValueError(f"unknown damage type {damage_type!r}")


def add_wounds(state: FighterState, wounds: int, rules: YagsRules, *,
               rng: np.random.Generator) -> None:
    """Seed 000, wounds: damage taking you to fatal (6) or beyond calls a health check.

    The target is 20 + 5 per wound beyond 6. Failure or fumble: dead; success: unconscious;
    good success: fights on, checking again at the end of every round. The track is held at
    6: "you will never be in a state worse than fatally wounded".
    """
    if wounds <= 0:
        return
    total = state.wounds + wounds
    state.wounds = min(total, FATAL)
    if total < FATAL:
        return
    result = health_check(state.fighter.health, int(health_target(total)), rules, rng=rng)
    if result == FAIL:
        state.status = DEAD
    elif result == SUCCESS:
        state.status = UNCONSCIOUS
    state.fighting_on_at_fatal = state.standing


def set_stuns(state: FighterState, total: int, rules: YagsRules, *,
              rng: np.random.Generator) -> None:
    """Seed 000, stuns: a blow that raises the track to beaten (6) or beyond calls a check.

    The target is 20 + 5 per stun beyond 6. Failure: unconscious; success: still standing.
    The track is held at 6. A fighter already out makes no check.
    """
    before = state.stuns
    state.stuns = min(total, FATAL)
    if total > before and total >= FATAL and state.standing:
        result = health_check(state.fighter.health, int(health_target(total)), rules, rng=rng)
        if result == FAIL:
            state.status = UNCONSCIOUS


def health_check(health: int, target: int, rules: YagsRules, *,
                 rng: np.random.Generator) -> int:
    """Health x 4 + d20 against ``target``: FAIL, SUCCESS, or GOOD (by ``success_step`` or more).

    A natural 1 always fails (seed 000: "If you fumble the check, then you also die").
    """
    roll = d20(rng)
    total = 4 * health + roll
    if roll == NATURAL_ONE or total < target:
        return FAIL
    return GOOD if total - target >= rules.success_step else SUCCESS


# --- Round 5: end of round ---------------------------------------------------------------------


def end_of_round(combat: Combat, *, rng: np.random.Generator) -> None:
    """Seed 000, "End of Round": checks to stay alive and conscious, then yielding.

    A fighter fighting on at fatal wounds checks at 20 or dies; a beaten fighter still standing
    checks at 20 or falls unconscious ("every round they wish to act"). Then any fighter whose
    wound or stun level has reached its ``yield_at`` yields.
    """
    for state in combat.fighters:
        if state.standing and state.fighting_on_at_fatal:
            if health_check(state.fighter.health, HEALTH_CHECK_BASE, combat.rules,
                            rng=rng) == FAIL:
                state.status = DEAD
                state.fighting_on_at_fatal = False
        if state.standing and state.stuns >= FATAL:
            if health_check(state.fighter.health, HEALTH_CHECK_BASE, combat.rules,
                            rng=rng) == FAIL:
                state.status = UNCONSCIOUS
    for state in combat.fighters:
        if state.standing and max(state.wounds, state.stuns) >= state.fighter.yield_at:
            state.status = YIELDED


def winning_side(combat: Combat) -> int | None:
    """The side that won, ``DRAW`` if nobody is standing, or None while 2+ sides stand."""
    sides = {state.side for state in combat.fighters if state.standing}
    if len(sides) == 1:
        return sides.pop()
    return DRAW if not sides else None


# --- The whole fight ---------------------------------------------------------------------------


def start_combat(fight: YagsFight, *, rng: np.random.Generator) -> Combat:
    """Fresh states for every fighter, with initiative rolled."""
    combat = Combat([FighterState(i, f) for i, f in enumerate(fight.fighters)], fight.rules)
    roll_initiative(combat, rng=rng)
    return combat


def play_round(combat: Combat, round_no: int, *, rng: np.random.Generator) -> None:
    """Seed 000, "The Combat Round": declare, act by speed, book-keep."""
    declare(combat, round_no)
    for state in action_order(combat):
        take_action(state, combat, round_no, rng=rng)
    end_of_round(combat, rng=rng)


def outcome(combat: Combat, winner: int, rounds: int) -> TrialOutcome:
    return TrialOutcome(winner, rounds, tuple(state.status for state in combat.fighters))


def reference_trial(fight: YagsFight, rng: np.random.Generator) -> TrialOutcome:
    """Play one whole fight round by round; the fight ends as soon as it is decided.

    After ``fight.max_rounds`` rounds with two or more sides standing it is a draw.
    """
    combat = start_combat(fight, rng=rng)
    for round_no in range(1, fight.max_rounds + 1):
        play_round(combat, round_no, rng=rng)
        winner = winning_side(combat)
        if winner is not None:
            return outcome(combat, winner, round_no)
    return outcome(combat, DRAW, fight.max_rounds)


def reference_run(fight: YagsFight, n_trials: int,
                  rng: np.random.Generator) -> list[TrialOutcome]:
    """``n_trials`` independent fights from one generator."""
    return [reference_trial(fight, rng) for _ in range(n_trials)]
