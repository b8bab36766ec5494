"""Missile rules of seed 002 beyond the formulas: shooting on the move, the Parthian shot, the
missile charge, rate of fire and loading; in the kernel and the reference."""

from __future__ import annotations

import numpy as np
import pytest

import balance
from balance.engine.status import STANDING
from balance.rules.ymlad.kernel import fight as kernel
from balance.rules.ymlad.reference import fight as ref
from balance.rules.ymlad.rules.tables import mounted_pace_penalty, shot_band
from tests.rules.helpers import ymlad_duel as duel
from tests.rules.helpers import ymlad_fight as compiled

RIDER = {"talents": {"strength": 3, "dexterity": 3}, "skills": {"missile": 5, "melee": 3},
         "missile": "hand_bow_war", "weapon": "saber", "mounted": "halted", "speed": 20.0,
         "armour": ["gambeson"], "policy": {"style": "missile", "keep_at": 30}}
SPEARMAN = {"talents": {"strength": 3, "dexterity": 2}, "skills": {"formation": 3, "melee": 4},
            "weapon": "spear", "shield": "medium",
            "armour": ["gambeson", "mail_shirt", "open_helmet"]}


def test_pace_and_band_shifts() -> None:
    """Seed, Mounted combat: -1 at a walk, -2 at a trot or faster, whatever the standing
    pace already costs; seed, Charge: a missile charge one band nearer, running backwards or
    a Parthian shot one farther, within close ... long."""
    assert [int(mounted_pace_penalty(0, m)) for m in (0, 1, 2)] == [0, -1, -2]
    assert [int(mounted_pace_penalty(-1, m)) for m in (0, 1, 2)] == [0, 0, -1]
    assert [int(mounted_pace_penalty(-2, m)) for m in (0, 1, 2)] == [0, 0, 0]
    assert [int(shot_band(b, 0, True, False)) for b in (0, 1, 2)] == [0, 0, 1]
    assert [int(shot_band(b, 0, False, True)) for b in (0, 1, 2)] == [1, 2, 2]
    assert int(shot_band(2, 1, True, False)) == 0


@pytest.mark.parametrize("moving_shots", [True, False])
def test_a_horse_archer_keeps_away_and_shoots(moving_shots: bool) -> None:
    """Before issue 13 a shooter who moved could not shoot: a horse archer keeping away from
    a spearman drew most fights. Now it shoots as it rides away (at -1 / -2 and one band
    farther) and wins; ``rules.moving_shots: false`` keeps the old rule, under which it
    shoots only in rounds it stood (since issue 15 moves go in a random order each round,
    so some rounds it stands while the spearman closes): the fights last longer and more
    end undecided. Since issue 27 its saddle's height counts only for shots up to 10 m
    (seed, Height: none "when shooting arrows tens of meters away from horseback"), which
    lengthens the fight (14 rounds before, 20 now, at 40,000 fights) but not who wins."""
    scenario = duel(RIDER, SPEARMAN, distance=60, rules={"moving_shots": moving_shots})
    result = balance.run(scenario, trials=10_000, seed=1)
    if moving_shots:
        assert result.outcomes["a"] > 0.85 and result.outcomes["draw"] < 0.02
        assert result.rounds["mean"] < 23
    else:
        assert result.outcomes["draw"] > 0.2 and result.rounds["mean"] > 35


def test_the_missile_charge_is_made_once() -> None:
    """Seed, Charge: a charge "can be done only once" (lab: once per fight, as for contact
    charges); kernel and reference."""
    charger = {**RIDER, "mounted": "no", "speed": 10.0,
               "policy": {"style": "missile", "charge": True}}
    fight = compiled(duel(charger, {**SPEARMAN, "speed": 0.0}, distance=100))
    s = kernel.static_of(fight)
    rng = np.random.default_rng(0)
    state = kernel.start(fight, 50, rng)
    first = kernel.plan_round(s, state, rng)
    assert first.missile_charge[0].all() and (state.pos[0] == 10).all()
    second = kernel.plan_round(s, state, rng)
    assert not second.missile_charge.any() and (state.pos[0] == 10).all()
    combat = ref.start_combat(fight)
    charges = []
    for _ in range(2):
        ref.choose_targets(combat, rng)
        ref.move_all(combat, rng)
        charges.append(combat.fighters[0].missile_charge)
    assert charges == [True, False] and combat.fighters[0].pos == 10   # then it stands


def test_crossbows_shoot_every_other_round() -> None:
    """Seed, Missile rate of fire: crossbows "must spend one or even multiple rounds
    loading"; an infantry crossbow (fire rate 1/2) shoots in rounds 1, 3, 5 (lab: it starts
    loaded); kernel and reference."""
    shooter = {"skills": {"missile": 4}, "missile": "infantry_crossbow",
               "policy": {"style": "missile"}}
    target = {"speed": 0.0, "resist": {"piercing": 20}}    # never hurt, never moves
    fight = compiled(duel(shooter, target, distance=50))
    rng = np.random.default_rng(0)
    state = kernel.start(fight, 20, rng)
    left = []
    for round_no in range(1, 6):
        kernel.play_round(fight, state, rng, round_no)
        left.append(int(state.shots[0, 0]))
    assert (state.status == STANDING).all()
    assert left == [19, 19, 18, 18, 17] and (state.shots[0] == 17).all()
    combat = ref.start_combat(fight)
    left = []
    for _ in range(5):
        ref.play_round(combat, rng)
        left.append(combat.fighters[0].shots)
    assert left == [19, 19, 18, 18, 17]
