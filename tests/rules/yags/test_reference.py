"""The Yags scalar reference, rule by rule: worked examples from seed 000 and small fights.

Unit tests feed chosen d20 results through a scripted stand-in for the Generator, so each
rule's arithmetic is checked exactly; fight-level tests use seeded Generators and tolerances
stated in standard errors (or margins far from what any seed gives).
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.engine.status import DEAD, DRAW, STANDING, UNCONSCIOUS, YIELDED
from balance.rules.yags.compile import AUTO, Fighter, YagsFight, YagsRules
from balance.rules.yags.reference.blows import FAIL, GOOD, SUCCESS, apply_damage, health_check
from balance.rules.yags.reference.fight import (
    declare,
    end_of_round,
    play_round,
    reference_run,
    reference_trial,
    roll_initiative,
    start_combat,
    take_action,
    winning_side,
)
from balance.rules.yags.reference.state import (
    Combat,
    FighterState,
    can_strike,
    round_penalty,
)
from balance.rules.yags.reference.strikes import resolve_attack
from balance.rules.yags.rules.tactics import WORST, Tactics
from balance.rules.yags.rules.tracks import (
    AGGRESSIVE,
    BREAK,
    DISARM,
    FAIL_DEFENCE,
    FATIGUE,
    MIXED,
    NORMAL,
    STUNS,
    WOUNDS,
    track_penalty,
)
from tests.rules.yags.scripted import ScriptedDice, state, veteran

RULES = YagsRules()






# Never hurt by anyone here, and never hurting anyone.
def tank(side: int, **changes: int) -> Fighter:
    # (strength 100: no blow knocks it back either; docs/rules/yags.md, knockback)
    return veteran(side, attack=-100, damage=0, soak=1000, strength=100, **changes)


def fight(*fighters: Fighter, max_rounds: int = 60) -> YagsFight:
    names = tuple(f"side{s}" for s in sorted({f.side for f in fighters}))
    return YagsFight(tuple(fighters), names, RULES, max_rounds)




# --- Tracks and health checks -----------------------------------------------------------------


def test_stun_sequence_from_the_seed() -> None:
    """Punches of 2, 2, 1, 5 stuns leave 2, 3, 3, 5 (seed 000, "Stun Damage")."""
    s, seen = state(), []
    for stuns in (2, 2, 1, 5):
        apply_damage(s, stuns, STUNS, RULES, rng=ScriptedDice())
        seen.append(s.stuns)
    assert seen == [2, 3, 3, 5]


@pytest.mark.parametrize(
    ("health", "die", "status"),
    [
        (3, 12, DEAD),         # 24 < 25: fail
        (3, 13, UNCONSCIOUS),  # 25: success
        (6, 10, UNCONSCIOUS),  # 34: success by 9, not good
        (6, 11, STANDING),     # 35: good success, fights on
        (10, 1, DEAD),         # natural 1 fails even at 41
    ],
)
def test_heavy_plus_three_wounds_checks_against_25(health: int, die: int, status: int) -> None:
    """Heavily wounded (4) taking 3 wounds checks at 20 + 5 x 1 = 25 (seed 000)."""
    s = FighterState(0, veteran(health=health))
    s.wounds = 4
    apply_damage(s, 3, WOUNDS, RULES, rng=ScriptedDice(die))
    assert s.status == status
    assert s.wounds == 6
    assert s.fighting_on_at_fatal == (status == STANDING)


def test_health_check_levels() -> None:
    assert health_check(3, 20, RULES, rng=ScriptedDice(7)) == FAIL       # 19
    assert health_check(3, 20, RULES, rng=ScriptedDice(8)) == SUCCESS    # 20
    assert health_check(3, 20, RULES, rng=ScriptedDice(18)) == GOOD      # 30
    assert health_check(9, 20, RULES, rng=ScriptedDice(1)) == FAIL       # fumble


def test_mixed_damage_adds_to_both_tracks() -> None:
    """Four stuns and one level of mixed damage make five stuns (seed 000, "Mixed Damage")."""
    s = state()
    s.stuns = 4
    apply_damage(s, 1, MIXED, RULES, rng=ScriptedDice())
    assert (s.stuns, s.wounds) == (5, 0)
    # 2 stuns -> 7: the stun beyond beaten is a wound (rules.excess_stuns wounds), so 1 + 1
    # wounds; then the beaten check at 25: 12 + 20 = 32
    apply_damage(s, 3, MIXED, RULES, rng=ScriptedDice(20))
    assert (s.stuns, s.wounds, s.status) == (6, 2, STANDING)


def test_mixed_damage_checks_wounds_first_and_skips_stuns_when_out() -> None:
    s = state()
    s.wounds, s.stuns = 5, 5
    dice = ScriptedDice(5)  # one check only: the wound check fails, no stun check follows
    apply_damage(s, 2, MIXED, RULES, rng=dice)
    assert s.status == DEAD and dice.done()

    s = state(health=6)
    s.wounds, s.stuns = 5, 5
    dice = ScriptedDice(20, 5)  # wound check 44: good; then the stun check 29: success
    apply_damage(s, 2, MIXED, RULES, rng=dice)
    assert (s.status, s.wounds, s.stuns) == (STANDING, 6, 6) and dice.done()


def test_end_of_round_checks_and_yielding() -> None:
    at_fatal = state()
    at_fatal.wounds, at_fatal.fighting_on_at_fatal = 6, True
    beaten = FighterState(1, veteran(1))
    beaten.stuns = 6
    bruised = FighterState(2, veteran(0, yield_at=3))
    bruised.wounds = 3
    combat = Combat([at_fatal, beaten, bruised], RULES)
    end_of_round(combat, rng=ScriptedDice(7, 7))  # 19 < 20 twice
    assert [s.status for s in combat.fighters] == [DEAD, UNCONSCIOUS, YIELDED]
    assert winning_side(combat) == DRAW


# --- Attacks, fumbles and counter strikes -----------------------------------------------------


def duel(attacker: FighterState, target: FighterState) -> Combat:
    target.index = 1
    return Combat([attacker, target], RULES)


def test_fumbled_attack_misses_and_costs_fatigue() -> None:
    attacker, target = state(attack=100), FighterState(1, veteran(1, skill=9))
    assert not resolve_attack(attacker, target, False, duel(attacker, target), 2,
                              rng=ScriptedDice(1)).hit
    assert attacker.fatigue == 1 and target.wounds == 0
    # seed 000: fatigue is "measured in a similar way to wounds": the first level is free
    assert round_penalty(attacker, RULES) == 0


@pytest.mark.parametrize(("attacker_skill", "hit", "fatigue"), [(4, False, 1), (5, True, 0)])
def test_fumbled_defence_chosen_by_the_more_skilled(attacker_skill: int, hit: bool,
                                                     fatigue: int) -> None:
    """Equal skill: the defender takes fatigue and its roll stands (16 < 101, a miss).

    A more skilled attacker picks "fail defence": 16 against the base difficulty 15 hits.
    """
    attacker = state(attack=0, skill=attacker_skill)
    target = FighterState(1, veteran(1, defence=100))
    dice = ScriptedDice(16, 1, 10, 10) if hit else ScriptedDice(16, 1)
    assert resolve_attack(attacker, target, True, duel(attacker, target), 2, rng=dice).hit == hit
    assert target.fatigue == fatigue and dice.done()
    assert target.wounds == (1 if hit else 0)  # 28 against 28: one wound


def test_no_defence_declared_gives_the_target_a_counter_strike() -> None:
    """All-out attack (defences=0) lets the target strike back; a declared defence does not."""
    for defences, expected in ((0, True), (AUTO, False), (1, False)):
        combat = start_combat(fight(veteran(0, defences=defences), veteran(1)),
                              rng=ScriptedDice(10, 10))
        declare(combat, 1)
        attacker, target = combat.fighters
        gets = target.index not in attacker.defended and can_strike(target, attacker, 1)
        assert gets == expected


def test_counter_strike_is_rolled_against_base_difficulty() -> None:
    combat = start_combat(fight(veteran(0, defences=0, defence=100), veteran(1)),
                          rng=ScriptedDice(10, 10))
    declare(combat, 1)
    attacker, target = combat.fighters
    # The attack fumbles (die 1; the target's defence roll is 10): a miss and a point of
    # fatigue. The counter strike, 15 + 2 = 17, hits against 15 although the attacker's defence
    # is 100; its damage 18 + 20 against soak 18 + 1 makes 1 + 19 // 5 = 4 wounds.
    dice = ScriptedDice(1, 10, 2, 20, 1)
    take_action(attacker, combat, 1, rng=dice)
    assert dice.done()
    assert (attacker.fatigue, attacker.wounds, target.fatigue, target.wounds) == (1, 4, 0, 0)


def test_group_auto_defence_covers_its_own_target() -> None:
    """Group fights: a fighter attacking a foe who is not attacking it still declares one
    defence (``auto``: at least one when it attacks; one defence costs nothing), and that
    spare slot covers its target, so no counter strike. All-out (``defences: 0``) it has
    none, and the counter strikes kill it.

    The foe ignores it (it targets the first fighter in scenario order, a tank).
    """
    striker = veteran(1, attack=100, damage=200, soak=1000)
    lunger = veteran(0, attack=-100, damage=0, soak=0, health=0)
    runs = reference_run(fight(tank(0), lunger, striker, max_rounds=3), 200,
                         np.random.default_rng(1))
    assert all(r.winner == DRAW and r.rounds == 3 for r in runs)
    assert all(r.status[1] == STANDING for r in runs)
    all_out = veteran(0, attack=-100, damage=0, soak=0, health=0, defences=0)
    runs = reference_run(fight(tank(0), all_out, striker, max_rounds=3), 200,
                         np.random.default_rng(1))
    out = np.mean([r.status[1] != STANDING for r in runs])
    assert out > 0.95  # a counter strike misses only on a fumble (or a fumbled initiative)


def test_fumbled_initiative_loses_the_first_round() -> None:
    combat = Combat([FighterState(0, veteran(0)), FighterState(1, veteran(1))], RULES)
    roll_initiative(combat, rng=ScriptedDice(1, 10))
    slow, fast = combat.fighters
    declare(combat, 1)
    # (``auto`` still declares one defence, covering the target it attacks: it costs nothing)
    assert (slow.target, slow.defences, fast.target, fast.defended) == (None, 0, 0, (0,))
    declare(combat, 2)
    assert (slow.target, slow.defended, fast.defended) == (1, (1,), (0,))


def test_fallen_fighter_does_not_act() -> None:
    combat = start_combat(fight(veteran(0), veteran(1)), rng=ScriptedDice(10, 10))
    declare(combat, 1)
    combat.fighters[0].status = UNCONSCIOUS
    take_action(combat.fighters[0], combat, 1, rng=ScriptedDice())  # no dice rolled
    take_action(combat.fighters[1], combat, 1, rng=ScriptedDice())  # target fell: lost


def test_multiple_defence_penalty() -> None:
    """Two attackers on one fighter with auto defences: two defences, -10 on its rolls."""
    combat = start_combat(fight(veteran(0), veteran(1), veteran(1)), rng=ScriptedDice(5, 5, 5))
    declare(combat, 1)
    assert [s.defences for s in combat.fighters] == [2, 1, 1]  # group: at least one
    assert [round_penalty(s, RULES) for s in combat.fighters] == [-10, 0, 0]


# --- Whole fights -------------------------------------------------------------------------------


def test_huge_attack_and_damage_beats_a_helpless_foe_at_once() -> None:
    hero = veteran(0, attack=100, damage=200, soak=1000)
    helpless = veteran(1, attack=-100, defence=-100, damage=0, soak=0, health=0)
    runs = reference_run(fight(hero, helpless), 300, np.random.default_rng(2))
    assert all(r.winner == 0 and r.status == (STANDING, DEAD) for r in runs)
    # Round 1 is lost only to a fumbled initiative or attack; two such rounds are rare (~0.5%).
    assert np.mean([r.rounds <= 2 for r in runs]) > 0.97


@pytest.mark.parametrize(("stance", "side0_wins"), [(AGGRESSIVE, True), (NORMAL, False)])
def test_aggressive_stance_acts_first(stance: int, side0_wins: bool) -> None:
    """One-shot killers: the fast (aggressive) one strikes before a normal one of far higher
    initiative; in the normal stance the higher initiative strikes first."""
    killer = {"attack": 100, "defence": -100, "damage": 200, "soak": 0, "health": 0}
    quick = veteran(0, stance=stance, initiative=0, **killer)
    alert = veteran(1, initiative=40, **killer)
    runs = reference_run(fight(quick, alert), 400, np.random.default_rng(3))
    side0 = np.mean([r.winner == 0 for r in runs])
    assert all(r.winner != DRAW for r in runs)
    # The first striker wins unless it fumbles its initiative or its attack (~10%).
    assert (side0 > 0.8) if side0_wins else (side0 < 0.2)


@pytest.mark.parametrize(("foe_fumbles", "rates"), [
    ((WORST,), (0.1, 0.1)),
    ((FAIL_DEFENCE, BREAK, DISARM, FATIGUE), (0.1, 0.05))])
def test_fatigue_from_fumbles_accumulates(foe_fumbles, rates) -> None:
    """Unhurt tanks fumble on a natural 1: each attack and each defence fumble adds fatigue.

    Equal skill: 0.05 + 0.05 a round. Seed 000: "You get to choose the fumble result unless
    your opponent has a higher skill, in which case they choose". The more skilled fighter
    picking the worst result for the other (the default) picks the fatigue, since failing a
    tank's defence changes nothing (its foe's attack -100 misses the base difficulty too): both
    gain 0.1 a round. Picking "fail defence" first (the lab's order before issue 25) turns
    the less skilled fighter's fumbled defences into failed ones: it gains only 0.05 a round.
    """
    n_fights, n_rounds, rng = 20, 100, np.random.default_rng(4)
    totals = np.zeros(2)
    chooser = Tactics(foe_fumbles=foe_fumbles)
    for _ in range(n_fights):
        combat = start_combat(fight(tank(0, skill=4, tactics=chooser), tank(1, skill=3)),
                              rng=rng)
        before = [0, 0]
        for round_no in range(1, n_rounds + 1):
            play_round(combat, round_no, rng=rng)
            now = [s.fatigue for s in combat.fighters]
            assert all(n >= b for n, b in zip(now, before, strict=True))
            before = now
        assert [round_penalty(s, RULES) for s in combat.fighters] == \
            [int(track_penalty(f)) for f in before]
        totals += before
    trials = n_fights * n_rounds
    for total, rate in zip(totals, rates, strict=True):
        se = np.sqrt(trials * rate * (1 - rate))
        assert abs(total - trials * rate) < 4.5 * se


def test_mirror_fight_is_even() -> None:
    runs = reference_run(fight(veteran(0), veteran(1)), 4000, np.random.default_rng(5))
    winners = np.array([r.winner for r in runs])
    decided = winners[winners != DRAW]
    se = np.sqrt(0.25 / decided.size)
    assert abs(np.mean(decided == 0) - 0.5) < 4.5 * se


def test_time_limit_is_a_draw() -> None:
    runs = reference_run(fight(tank(0), tank(1), max_rounds=1), 50, np.random.default_rng(6))
    assert all(r.winner == DRAW and r.rounds == 1 and r.status == (STANDING, STANDING)
               for r in runs)


def test_yielding_ends_fights_earlier() -> None:
    n = 1000
    rounds = {}
    for yield_at in (99, 2):
        runs = reference_run(fight(veteran(0, yield_at=yield_at), veteran(1, yield_at=yield_at)),
                             n, np.random.default_rng(7))
        rounds[yield_at] = np.array([r.rounds for r in runs], dtype=float)
        if yield_at == 2:
            assert any(YIELDED in r.status for r in runs)
    diff = rounds[99].mean() - rounds[2].mean()
    se = np.sqrt((rounds[99].var() + rounds[2].var()) / n)
    assert diff > 4.5 * se


def test_same_seed_same_fight() -> None:
    f = fight(veteran(0), veteran(1, stance=AGGRESSIVE, damage_type=MIXED))
    assert reference_run(f, 50, np.random.default_rng(8)) == \
        reference_run(f, 50, np.random.default_rng(8))
    assert reference_trial(f, np.random.default_rng(9)) == \
        reference_trial(f, np.random.default_rng(9))
