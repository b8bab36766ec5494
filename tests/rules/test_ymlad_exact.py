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

import balance
from balance.engine.status import FLED, STANDING
from balance.rules import get
from balance.rules.ymlad import flight, kernel
from balance.rules.ymlad.fighters import effort, harm_margin, resistance
from balance.rules.ymlad.tables import CLOSE, FROM_REAR, MELEE, p_success

N = 200_000
SIGMAS = 4


def at_least(j: int) -> float:
    """Exact P(drift >= j)."""
    return 1.0 if j <= -100 else (1 - 3.0 ** (j - 1) if j <= 0 else 3.0 ** -j)


def close_to(observed: float, exact: float, n: int = N) -> bool:
    """Within SIGMAS binomial standard errors of the exact probability."""
    return abs(observed - exact) <= SIGMAS * np.sqrt(exact * (1 - exact) / n) + 1e-12


def duel(a: dict, b: dict, **kw) -> dict:
    scenario = {"name": "exact", "ruleset": "ymlad",
                "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    scenario.update(kw)
    return scenario


def fighters_of(scenario: dict):
    loaded = balance.load_scenario(scenario)
    return get("ymlad").compile(loaded.model, loaded.tables).fighters


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
    loaded = balance.load_scenario({"name": "t", "ruleset": "ymlad", "sides": [
        {"name": "a", "members": [runner]}, {"name": "b", "members": [sword, sword]}]})
    fight = get("ymlad").compile(loaded.model, loaded.tables)
    s = fight.static
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
