"""Hand-derived exact cases of the Ymlad rules (seed 002), played by the vectorised kernel.

Kernel-vs-reference agreement shares one reading of the seed, so it cannot catch a
misreading. Each case here is a small fight whose outcome probabilities follow from the
seed's rules by hand; the derivation is in the test's docstring. Each is played 200,000
times at a fixed seed and must land within 4 standard errors of the exact value.

The drift die (seed, Attack and defense) gives P(drift = 0) = 1/3 and P(drift = +k) =
P(drift = -k) = (2/3)(1/3)^k, so P(drift <= -j) = P(drift >= j) = (1/3)^j for j >= 1, and
an attempt with score difference d succeeds with P(d) = 1 - (1/3)^(d+1) for d >= 0,
(1/3)^(-d) below 0.
"""

from __future__ import annotations

import numpy as np
import pytest

import balance
from balance.engine.status import FLED, STANDING
from balance.rules.ymlad.compile import effort, harm_margin, resistance
from balance.rules.ymlad.kernel import fight as kernel
from balance.rules.ymlad.kernel import flight
from balance.rules.ymlad.rules.tables import CLOSE, FROM_REAR, MELEE, p_success
from tests.rules.helpers import ymlad_duel as duel
from tests.rules.helpers import ymlad_fight

N = 200_000
SIGMAS = 4


def at_least(j: int) -> float:
    """Exact P(drift >= j)."""
    return 1.0 if j <= -100 else (1 - 3.0 ** (j - 1) if j <= 0 else 3.0 ** -j)


def close_to(observed: float, exact: float, n: int = N) -> bool:
    """Within SIGMAS binomial standard errors of the exact probability."""
    return abs(observed - exact) <= SIGMAS * np.sqrt(exact * (1 - exact) / n) + 1e-12


def fighters_of(scenario: dict):
    return ymlad_fight(scenario).fighters


def test_grappling_dead_is_suffocating_and_only_wasted_kills() -> None:
    """Seed, Harm effects: in grappling "'dead' means not yet dead but suffocating towards
    death; 'wasted' means mangled and strangled to death".

    Two fighters who both want close combat start in reach, so they engage at once (seed,
    Close) and attack in close style in round 1; the fight lasts one round. The wrestler
    (large body, strength 4, close 6, fists) has close effort 1 + 2 + 4 + 3 = 10 against the
    victim's close resistance 0 + 0 - 2 + 3 = 1: d = 9. Its grappling effort is
    3 x 2 + 2 + 2 = 10 against 3 x 0 + 0 + 2 - 5 (the victim's ``resist.grappling: -5``) = -3:
    margin 13. The victim's own attacks are at -19 against 10 (3^-29: never). At threshold 2
    the harm track goes down past 3T (7), dead past 5T (11), wasted past 7T (15). So

        P(victim down)  = P(9) x P(drift >= 7 - 13) = P(9) (1 - 3^-7)
        P(victim dead)  = P(9) x P(drift >= 15 - 13) = P(9) / 9

    (grappling harm reaching the "dead" level, 11 to 14, only keeps him down, suffocating).
    """
    wrestler = {"body": "large", "talents": {"strength": 4, "dexterity": 4},
                "skills": {"close": 6}, "weapon": "fist",
                "policy": {"style": "close", "harm": "grapple"}}
    victim = {"weapon": "fist", "resist": {"grappling": -5}, "effort": {"close": -20},
              "policy": {"style": "close"}}
    scenario = duel(wrestler, victim, max_rounds=1)
    a, b = fighters_of(scenario)
    assert (effort(a, CLOSE), resistance(b, CLOSE)) == (10, 1)
    assert (effort(b, CLOSE), resistance(a, CLOSE)) == (-19, 10)
    assert harm_margin(a, b, CLOSE)[0] == 13
    assert (b.down_at, b.dead_at, b.wasted_at) == (7, 11, 15)
    status = balance.run(scenario, trials=N, seed=3).fighter_status["b"]
    down = p_success(9) * at_least(-6)
    dead = p_success(9) * at_least(2)
    assert close_to(status.get("dead", 0.0), dead)
    assert close_to(status.get("unconscious", 0.0) + status.get("dead", 0.0), down)


def test_a_parting_blow_is_the_attack_not_yet_spent() -> None:
    """Seed, Rounds: one attack a round. A fighter runs (``flee_at: hurt``, already hurt)
    while two foes in front attack him; the first has had its turn this round, the second
    has not. Only the second strikes at his back: melee effort 0 + 1 + 2 + 4 = 7 against his
    resistance from the rear 7 - 2 (seed, Angle: -2 behind, no shield) = 5, d = 2, and any
    hit puts him down (his ``resist: -20`` makes every harm margin over 20). So he gets away
    with P = 1 - P(2) = 1/27; with both turns spent, always.
    """
    sword = {"talents": {"strength": 3, "dexterity": 3}, "skills": {"melee": 4},
             "weapon": "long_sword"}
    runner = {**sword, "resist": {"slashing": -20, "piercing": -20, "pummeling": -20},
              "policy": {"flee_at": "hurt"}}
    fight = ymlad_fight({"name": "t", "ruleset": "ymlad", "sides": [
        {"name": "a", "members": [runner]}, {"name": "b", "members": [sword, sword]}]})
    s = kernel.static_of(fight)
    assert s.effort[MELEE, 2, 0] - s.resistance[MELEE, FROM_REAR, 0] == 2
    rng = np.random.default_rng(8)
    state = kernel.start(fight, N, rng)
    state.body[0] = 3                                    # hurt: past 1 x threshold 2
    rnd = kernel.plan_round(s, state, rng)
    assert rnd.ring.ring[1:].all() and (rnd.target[1:] == 0).all()
    spent = np.zeros_like(state.status, dtype=bool)
    spent[1] = True                                      # the first foe has had his turn
    flight.end_of_round(s, state, rnd, rng, spent)
    assert close_to((state.status[0] == FLED).mean(), 1 - p_success(2))
    assert spent[2].all()                                # the blow was the second's attack
    state = kernel.start(fight, 1000, rng)
    state.body[0] = 3
    spent = np.ones_like(state.status, dtype=bool)
    flight.end_of_round(s, state, kernel.plan_round(s, state, rng), rng, spent)
    assert (state.status[0] == FLED).all() and (state.status[1:] == STANDING).all()


ARCHER = {"talents": {"strength": 3, "dexterity": 3}, "skills": {"missile": 5},
          "missile": "hand_bow_war", "armour": []}
TARGET = {"resist": {"slashing": -20, "piercing": -20, "pummeling": -20}, "armour": []}


@pytest.mark.parametrize("saddle", ["near", "always"])
def test_parthian_shot_from_a_walking_horse(saddle: str) -> None:
    """Seed, Mounted combat: a rider moving "in a walk or amble" gets -1 missile effort;
    seed, Charge: "running backwards or delivering a 'Parthian shot', weapon range category
    is increased"; seed, Moving target: +2 missile resistance if the defender is running;
    seed, Height: the GM "may remove the bonus ... when shooting arrows tens of meters away
    from horseback" (``rules.saddle_height``: ``near``, the default, counts a mount's height
    for shots up to 10 m; ``always``, the lab before issue 27).

    A mounted archer (speed 20, ``keep_at: 30``) 25 m from a spearman who runs at him. Moves
    go one after another in a random order each round (issue 15), each order with P = 1/2:

    * archer first: he backs off 5 m (a walk: at most half his speed), the spearman runs
      10 m: 20 m apart, the medium band of a hand bow (15-50 m), counted one farther: long,
      -2. Effort 1 + 3 + 3 - 1 (walking mount) - 2 (long) = 4, + 1 with ``always`` (seed,
      Height: horseback is higher ground), against the spearman's missile resistance
      0 + 3 x 1 (cavalry shield) + 2 (running) = 5: d = -1, P = 1/3 (``always``: d = 0,
      2/3);
    * spearman first: he runs to 15 m, the archer backs off 15 m (more than half his speed:
      a trot or faster, -2) to 30 m, medium counted one farther: long, -2. Effort 3 (4)
      against 5: d = -2, P = 1/9 (``always``: 1/3).

    Any hit downs him (``resist: -20``) and the fight lasts one round, so P(archer wins) =
    (1/3 + 1/9) / 2 = 2/9 (``always``: (2/3 + 1/3) / 2 = 1/2): both shots are tens of metres.
    """
    rider = {**ARCHER, "mounted": "halted", "speed": 20.0,
             "policy": {"style": "missile", "keep_at": 30}}
    spearman = {**TARGET, "weapon": "spear", "shield": "cavalry"}
    scenario = duel(rider, spearman, distance=25, max_rounds=1,
                    rules={"saddle_height": saddle})
    won = balance.run(scenario, trials=N, seed=4).outcomes["a"]
    height = 1 if saddle == "always" else 0
    assert close_to(won, (p_success(-1 + height) + p_success(-2 + height)) / 2)


def test_a_missile_charge_counts_one_band_nearer() -> None:
    """Seed, Charge: "With missile weapons range category is reduced"; a missile user runs
    up "just enough to gain extra speed and power, fire / shoot, then stop".

    An archer on foot with ``policy.charge`` 40 m from a foe who stands (speed 0) runs his
    10 m and shoots from 30 m: the medium band, counted one nearer: close, no penalty.
    Effort 1 + 3 + 3 = 7 against 0 + 3 x 2 (medium shield) = 6: d = 1, P = 8/9 (without the
    charge, the medium band's -1 would make it 2/3). One round: P(archer wins) = 8/9.
    """
    charger = {**ARCHER, "policy": {"style": "missile", "charge": True}}
    foe = {**TARGET, "weapon": "spear", "shield": "medium", "speed": 0.0}
    scenario = duel(charger, foe, distance=40, max_rounds=1)
    won = balance.run(scenario, trials=N, seed=5).outcomes["a"]
    assert close_to(won, p_success(1))


def test_a_walking_target_is_harder_to_hit() -> None:
    """Seed, Moving target: "Missile resistance gets a +1 bonus if the defender is walking".

    Two archers 20 m apart. The second wants the close band (``range: close``: within 15 m)
    and walks 5 m in (half his running speed of 10 or less: walking); his own shots are at
    -20 and never land. The first stands and shoots at 15 m, the close band: effort 7
    against 0 + 1 (walking) = 1, and a second archer with a body shield (3 x 3 = 9) makes it
    7 against 10: d = -3, P = 1/27 (standing still it would be 1/9).
    """
    first = {**ARCHER, "policy": {"style": "missile"}}
    second = {**ARCHER, **TARGET, "shield": "body", "effort": {"missile": -20},
              "policy": {"style": "missile", "range": "close"}}
    scenario = duel(first, second, distance=20, max_rounds=1)
    won = balance.run(scenario, trials=N, seed=6).outcomes["a"]
    assert close_to(won, p_success(-3))


ONE_HIT = {"resist": {"slashing": -20, "piercing": -20, "pummeling": -20}, "armour": []}


def test_simultaneous_mutual_kill() -> None:
    """Seed, Initiative: attacks go from low d20 to high; "If a character is incapacitated
    before attempting his attack, then the attempt is of course aborted. If initiative is
    equal, attacks occur simultaneously ... a 'mutual kill'".

    Two identical fighters in reach, skirmish difference 0 (each attack lands with 2/3), any
    hit downs (``resist: -20``). Unequal initiative (19/20): the first lands with 2/3, else
    the second with 2/3; equal (1/20): both attack, both fall with 4/9. Either way a round
    ends the fight with 1 - 1/9 = 8/9, so the rounds are geometric, mean 9/8; a draw needs
    the tie and both hits: P(draw) = (1/20)(4/9) / (8/9) = 1/40.
    """
    fighter = {**ONE_HIT, "skills": {"melee": 4}, "weapon": "long_sword"}
    result = balance.run(duel(fighter, fighter), trials=N, seed=7)
    assert close_to(result.outcomes["draw"], 1 / 40)
    rounds = np.arange(result.tally.rounds.size)
    mean = rounds @ result.tally.rounds / N
    assert abs(mean - 9 / 8) <= SIGMAS * np.sqrt((1 / 9) / (8 / 9) ** 2 / N)


def test_the_charge_round_goes_by_reach_and_comes_once() -> None:
    """Seed, Charge: "In a charge, normal initiative rules are abandoned. The wielder of the
    body and weapon with the longest reach attacks first"; "This can be done only once".

    A swordsman (long sword, reach 1 + 2) charges a poleaxe man (reach 1 + 3) who stands
    (speed 0) 8 m away: he runs into reach and round 1 is a charge round. Both have melee
    effort and resistance 6 (d = 0: 2/3) and any hit downs. Round 1: the poleaxe strikes
    first, P(poleaxe) = 2/3, P(sword) = (1/3)(2/3) = 2/9, open 1/9. Round 2 is no charge:
    plain initiative, P(poleaxe) = P(sword) = (19/20)(1/2)(8/9) + (1/20)(2/9) = 13/30, both
    fall (1/20)(4/9), open 1/9. So over two rounds P(poleaxe) = 2/3 + 13/270.
    """
    sword = {**ONE_HIT, "skills": {"melee": 4}, "weapon": "long_sword",
             "policy": {"charge": True}}
    poleaxe = {**ONE_HIT, "skills": {"melee": 4}, "weapon": "poleaxe", "speed": 0.0}
    a, b = fighters_of(duel(sword, poleaxe))
    assert (a.reach, b.reach) == (3, 4)
    from balance.rules.ymlad.rules.tables import MELEE
    assert effort(a, MELEE) == resistance(b, MELEE) == effort(b, MELEE) == resistance(a, MELEE)
    result = balance.run(duel(sword, poleaxe, distance=8, max_rounds=2), trials=N, seed=9)
    assert close_to(result.outcomes["b"], 2 / 3 + 13 / 270)
    assert close_to(result.outcomes["a"], 2 / 9 + 13 / 270)


def test_disengaging_gets_four_unless_grappled() -> None:
    """Seed, Close: "for such a disengagement attack the character receives a +4 bonus to
    effort, provided that (1) there is some room to retreat too and (2) that he/she is free
    of grappling harm".

    A swordsman (close effort 0 + 0 - 2 + 2 = 0) held by a wrestler (close resistance
    0 + 0 + 1 + 3 = 4 at ``close: 3``, with fists) whose own attacks (to hold him, or to
    close in again) never land: d = -4, so with the +4
    he gets free in round 1 with P(0) = 2/3; holding 1 grappling harm, with P(-4) = 1/81;
    with ``rules.room_to_retreat: false``, also 1/81.
    """
    wrestler = {"skills": {"close": 3}, "weapon": "fist", "effort": {"close": -20, "melee": -20},
                "policy": {"style": "close", "harm": "grapple"}}
    swordsman = {"weapon": "battle_sword", "policy": {"held": "disengage"}}
    freed = []
    for grapple, room in ((0, True), (1, True), (0, False)):
        fight = ymlad_fight(duel(swordsman, wrestler, rules={"room_to_retreat": room}))
        assert effort(fight.fighters[0], CLOSE) - resistance(fight.fighters[1], CLOSE) == -4
        rng = np.random.default_rng(10 + grapple)
        state = kernel.start(fight, N, rng)
        state.close_with[0], state.close_with[1] = 1, 0
        state.grapple[0] = grapple
        kernel.play_round(fight, state, rng, 1)
        freed.append((state.close_with[0] < 0).mean())
    assert close_to(freed[0], p_success(0))
    assert close_to(freed[1], p_success(-4)) and close_to(freed[2], p_success(-4))


def test_the_second_on_a_loner_gets_one_more() -> None:
    """Seed, Group fights: "in a situation of one against several, the second fighter of the
    group gets a +1 bonus to melee skirmish effort".

    Two swordsmen in reach of a loner who cannot hit back (melee effort -20). Each has d = 0
    against him; the second +1, d = 1. Any hit downs him. In one round he stays up only if
    both miss: (1/3)(1/9) = 1/27, whichever strikes first (without the bonus: 1/9).
    """
    man = {**ONE_HIT, "skills": {"melee": 4}, "weapon": "long_sword"}
    loner = {**man, "effort": {"melee": -20}}
    scenario = {"name": "two on one", "ruleset": "ymlad", "max_rounds": 1, "sides": [
        {"name": "pair", "members": [{**man, "count": 2}]},
        {"name": "loner", "members": [loner]}]}
    result = balance.run(scenario, trials=N, seed=11)
    assert close_to(result.outcomes["draw"], (1 / 3) * (1 - p_success(1)))


def test_closing_in_is_a_harmless_melee_attack() -> None:
    """Seed, Close: "If one fighter wants to keep it that way but the other wants to attack in
    close combat, he/she must first make a successful melee attack, so not yet close combat,
    to close the distance. This does not do any harm".

    A wrestler (melee effort 0 + 2 + 2 + 1 with fists = 5) against a swordsman who wants
    melee (melee resistance 0 + 0 + 2 + 4 = 6): d = -1, so after round 1 they are in close
    combat with P = 1/3, and the swordsman has taken no harm at all. (The swordsman's blows
    cannot hurt the wrestler, ``resist: +20``, and once held he never gets free, close
    effort -20.)
    """
    wrestler = {"talents": {"dexterity": 4}, "skills": {"melee": 4, "close": 4},
                "weapon": "fist", "resist": {"slashing": 20, "piercing": 20, "pummeling": 20},
                "policy": {"style": "close", "harm": "grapple"}}
    swordsman = {"skills": {"melee": 4}, "weapon": "battle_sword", "effort": {"close": -20}}
    fight = ymlad_fight(duel(wrestler, swordsman))
    s = kernel.static_of(fight)
    assert s.effort[MELEE, 0, 1] - s.resistance[MELEE, 0, 1] == -1
    rng = np.random.default_rng(12)
    state = kernel.start(fight, N, rng)
    kernel.play_round(fight, state, rng, 1)
    assert close_to((state.close_with[1] == 0).mean(), p_success(-1))
    assert (state.body[1] == 0).all() and (state.grapple[1] == 0).all()


@pytest.mark.parametrize("other", ["close", "melee"])
def test_both_wanting_close_combat_engage_at_once(other: str) -> None:
    """Seed, Close: "If two fighters are both aiming for close combat, and they are near
    enough to each other, they can engage right away ... But normally a fight starts as a
    melee. If one fighter wants to keep it that way but the other wants to attack in close
    combat, he/she must first make a successful melee attack".

    Two fighters in reach. The first (close 2: 0, melee 0: -2, fists) wants close combat;
    the second (close 2, melee 6: +4, fists; his attacks never land) wants ``other``. Both
    close: they are in close combat before anyone strikes (every trial), and the first's
    close attack is 0 + 0 + 0 + 3 = 3 against 0 + 0 + 0 + 3: d = 0, P = 2/3 that it lands,
    and any hit downs the second. The second wanting melee: the first must close in, a
    harmless melee attack at -2 + 1 = -1 against 4 + 1 = 5 (d = -6), so nobody falls.
    """
    first = {**ONE_HIT, "skills": {"close": 2}, "weapon": "fist", "policy": {"style": "close"}}
    second = {**ONE_HIT, "skills": {"close": 2, "melee": 6}, "weapon": "fist",
              "effort": {"close": -20, "melee": -20}, "policy": {"style": other}}
    fight = ymlad_fight(duel(first, second, max_rounds=1))
    a, b = fight.fighters
    assert effort(a, CLOSE) - resistance(b, CLOSE) == 0
    assert effort(a, MELEE) - resistance(b, MELEE) == -6
    rng = np.random.default_rng(20)
    state = kernel.start(fight, N, rng)
    kernel.plan_round(kernel.static_of(fight), state, rng)
    assert ((state.close_with[0] == 1) == (other == "close")).all()
    state = kernel.start(fight, N, rng)
    kernel.play_round(fight, state, rng, 1)
    down = (state.status[1] != STANDING).mean()
    assert close_to(down, p_success(0)) if other == "close" else down == 0


@pytest.mark.parametrize(("secured", "wants", "exact"), [
    (True, "melee", p_success(0)),         # formation: the pikeman has his way
    (False, "melee", p_success(-1)),       # melee: he cannot secure his flanks
    (False, "formation", p_success(0)),    # both want formation
])
def test_formation_against_melee_goes_by_secured_flanks(secured: bool, wants: str,
                                                        exact: float) -> None:
    """Seed, Melee: "If one party wants to fight in formation style and the other in melee,
    the result will be a formation fight if the first can secure its flanks and rear and
    melee otherwise."

    A pikeman (formation 4: +2, melee 1: -1, pike formation 7, melee 1; he never lands a
    blow) who wants formation, and a swordsman (formation 2: 0, melee 4: +2, dexterity 3:
    +1; ``effort: {formation: +7, melee: -8}``) who wants ``wants``; any hit downs the
    pikeman; one round. Formation: 0 + 0 + 2 + 7 = 9 against 0 + 2 + 7 = 9, d = 0, P = 2/3;
    melee: 0 + 1 + 2 + 4 - 8 = -1 against 0 + 0 - 1 + 1 = 0, d = -1, P = 1/3.
    """
    pike = {**ONE_HIT, "talents": {"strength": 3, "dexterity": 2},
            "skills": {"formation": 4, "melee": 1}, "weapon": "pike",
            "effort": {"formation": -20, "melee": -20}, "policy": {"style": "formation"}}
    sword = {"talents": {"strength": 3, "dexterity": 3}, "skills": {"formation": 2, "melee": 4},
             "weapon": "battle_sword", "effort": {"formation": 7, "melee": -8},
             "policy": {"style": wants}}
    scenario = {"name": "f", "ruleset": "ymlad", "max_rounds": 1, "sides": [
        {"name": "a", "flanks_secured": secured, "members": [pike]},
        {"name": "b", "members": [sword]}]}
    a, b = fighters_of(scenario)
    from balance.rules.ymlad.rules.tables import FORMATION
    assert effort(b, FORMATION) - resistance(a, FORMATION) == 0
    assert effort(b, MELEE) - resistance(a, MELEE) == -1
    assert close_to(balance.run(scenario, trials=N, seed=21).outcomes["b"], exact)


@pytest.mark.parametrize(("harm", "stunnable", "down", "dead"), [
    ("stun", True, at_least(-6), at_least(2)),       # dead only at 12 harm: 6 even points
    ("stun", False, at_least(-2), at_least(2)),      # no brief points: down at 8
    ("pummeling", True, at_least(-6), at_least(-4)),  # the same blows wounding: dead at 6
])
def test_stunning_kills_only_through_its_even_points(harm: str, stunnable: bool,
                                                     down: float, dead: float) -> None:
    """Seed, Stunning: "Half of stunning harm is brief, the other half long-lasting like
    wound harm. All odd points (first, third, fifth etc.) are brief; add even points
    (second, fourth, sixth etc.) long-lasting"; "a heavy blow may still kill".

    A strong maceman (strength 4: +2; melee 6 against a man at -20 melee resistance: the
    blow always lands, 1 - 3^-27) stuns a foe who never strikes back, at threshold 1:
    down past 3 (4 harm), dead past 5 (6 long-lasting). Pummeling margin 0 + 2 + 6 (mace)
    against 0 + 0 - 2 (``resist.pummeling: -2``): 10. A stun of h harm is (h + 1) // 2
    brief and h // 2 lasting points: down at h >= 4 (drift >= -6), dead only at h >= 12
    (drift >= 2: 1/9); a foe who cannot be stunned takes no brief points, down at h >= 8
    (drift >= -2). The same blow wounding (``harm: pummeling``) kills at h >= 6
    (drift >= -4).
    """
    maceman = {"talents": {"strength": 4}, "skills": {"melee": 6}, "weapon": "mace",
               "policy": {"harm": harm}}
    foe = {"resist": {"pummeling": -2}, "resistance": {"melee": -20},
           "effort": {"melee": -20}, "stunnable": stunnable}
    scenario = duel(maceman, foe, max_rounds=1, rules={"harm_threshold": 1})
    a, b = fighters_of(scenario)
    assert harm_margin(a, b, MELEE)[0] == 10 and (b.down_at, b.dead_at) == (4, 6)
    status = balance.run(scenario, trials=N, seed=22).fighter_status["b"]
    assert close_to(status.get("dead", 0.0), dead)
    assert close_to(status.get("dead", 0.0) + status.get("unconscious", 0.0), down)


@pytest.mark.parametrize(("held", "fights"), [("auto", True), ("disengage", False),
                                              ("fight", True)])
def test_a_held_fighter_fights_back_or_backs_off(held: str, fights: bool) -> None:
    """Seed, Close: "The other fighter can engage in close combat too, or try to disengage
    back to melee. For this to work, he/she must make a close combat counterattack ...
    which is also non-damaging" (``policy.held``; ``auto``, the default, fights back when it
    is at least as good in close combat as its holder).

    A swordsman with a dagger for close combat (close 4: +2; close effort 0 + 0 + 2 + 4 = 6)
    is held by a wrestler (close 4, fists: resistance 0 + 0 + 2 + 3 = 5) whose own close
    attacks are at -20 (so the swordsman is the better in close combat: ``auto`` fights).
    One round. Fighting back: a close attack at d = 1, P = 8/9, downs the wrestler (any
    hit does). Backing off: a harmless close attack at d = 1 + 4 (room to retreat, no
    grappling harm), freed with P = 1 - 3^-6, the wrestler unhurt.
    """
    swordsman = {"skills": {"melee": 4, "close": 4}, "weapon": "battle_sword",
                 "close_weapon": "dagger", "policy": {"held": held}}
    wrestler = {**ONE_HIT, "skills": {"close": 4}, "weapon": "fist",
                "effort": {"close": -20, "melee": -20}, "policy": {"style": "close"}}
    fight = ymlad_fight(duel(swordsman, wrestler))
    assert bool(kernel.static_of(fight).fights_back[0, 1]) == fights
    rng = np.random.default_rng(23)
    state = kernel.start(fight, N, rng)
    state.close_with[0], state.close_with[1] = 1, 0
    kernel.play_round(fight, state, rng, 1)
    down = (state.status[1] != STANDING).mean()
    freed = (state.close_with[0] < 0).mean()
    if fights:
        assert close_to(down, p_success(1))
    else:
        assert down == 0 and close_to(freed, p_success(5))


@pytest.mark.parametrize(("ring", "fourth"), [("flanks_and_rear", p_success(3)),
                                              ("flanks", p_success(3)),
                                              ("front", p_success(0))])
def test_the_ring_geometry_places_the_fourth(ring: str, fourth: float) -> None:
    """Seed, Group fights: "If one fighter faces many opponents some of them may be able to
    move to his flanks or even rear, which gives attack bonuses"; seed, Angle: "-1 penalty
    to resistance" from the side; shields "only work against opponents who are in front".
    The lab's geometry (``rules.ring``): the first three in front, the fourth and fifth at
    the flanks (``flanks_and_rear``, default; ``flanks`` also), or everyone in front.

    Four swordsmen on a loner with a medium shield who cannot hit back; any hit downs him;
    one round. Each attacker's melee effort less the loner's front resistance is -3, plus
    its place's bonus (+0, +1, +2, +3: seed, the second +1 ...), so d = -3, -2, -1 and 0
    for the fourth in front (2/3); from a flank the fourth also takes away the shield's 2
    and 1 more: d = 3 (80/81). He stays up only if all four miss:
    (26/27)(8/9)(2/3)(1 - P(fourth)).
    """
    man = {**ONE_HIT, "skills": {"melee": 4}, "weapon": "long_sword",
           "effort": {"melee": -3}}
    loner = {**ONE_HIT, "skills": {"melee": 4}, "weapon": "long_sword", "shield": "medium",
             "resistance": {"melee": -2}, "effort": {"melee": -20}}
    scenario = {"name": "ring", "ruleset": "ymlad", "max_rounds": 1, "rules": {"ring": ring},
                "sides": [{"name": "four", "members": [{**man, "count": 4}]},
                          {"name": "loner", "members": [loner]}]}
    fs = fighters_of(scenario)
    assert effort(fs[0], MELEE) - resistance(fs[4], MELEE) == -3
    from balance.rules.ymlad.rules.tables import RINGS, ring_angle
    assert [int(ring_angle(k, RINGS[ring])) for k in range(7)] == {
        "flanks_and_rear": [0, 0, 0, 1, 1, 2, 2], "flanks": [0, 0, 0, 1, 1, 1, 1],
        "front": [0] * 7}[ring]
    stays = (1 - p_success(-3)) * (1 - p_success(-2)) * (1 - p_success(-1)) * (1 - fourth)
    result = balance.run(scenario, trials=N, seed=24)
    assert close_to(result.outcomes["draw"], stays)
