"""Yags at a distance (issue 4; docs/rules/yags-missiles.md): the formulas, the kernel
against the scalar reference on fights built so that each missile rule decides many of them,
and directional checks (a careful shot beats a snap shot, more distance helps the archer).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import balance
from balance.errors import ScenarioError
from balance.rules import get
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.reference import missiles as ref
from balance.rules.yags.rules.ranged import (
    CLOSE_BAND,
    CRIPPLED,
    FULL_MOVE,
    HALF_MOVE,
    IMPAIRED,
    MELEE_BAND,
    MOVE_BAND,
    NO_APPROACH,
    NO_BAND,
    RUN,
    UNAFFECTED,
    approach_of,
    distance_difficulty,
    distance_factor,
    falloff,
    in_range,
    keep_back,
    threat,
)
from tests.rules.yags.fights import (
    ARCHER,
    MISSILE_FIGHTS,
    SE,
    SWORDSMAN,
    TRIALS,
    agree,
    archer_wins,
    fight,
    lancer_from_afar,
    m,
)

# --- Formulas ---------------------------------------------------------------------------------


def test_distance_difficulty_is_10_within_5_m_and_5_more_per_doubling() -> None:
    metres = [0, 1, 5, 5.1, 10, 10.5, 20, 40, 60, 80, 160, 161]
    assert [int(distance_difficulty(d)) for d in metres] == [
        10, 10, 10, 15, 15, 20, 20, 25, 30, 30, 35, 40]
    assert distance_difficulty(np.array([5.0, 20.0])).tolist() == [10, 20]


def test_snap_doubles_and_careful_halves_the_distance() -> None:
    assert distance_factor(np.array([0, 1, 2])).tolist() == [2.0, 1.0, 0.5]
    assert float(distance_factor(2, snapped=True)) == 2.0     # drawing forces a snap shot


def test_damage_falls_off_per_range_band_begun() -> None:
    assert falloff(np.array([0.0, 40, 40.5, 80, 81, 400]), 40).tolist() == [0, 0, 5, 5, 10, 45]
    assert in_range(160, 40) and not in_range(160.5, 40)     # four bands


def test_threat_bands_impair_at_equal_reach_and_cripple_above() -> None:
    assert threat(0, MELEE_BAND) == UNAFFECTED          # a pistol at melee distance
    assert threat(1, MELEE_BAND) == IMPAIRED
    assert threat(3, MOVE_BAND) == CRIPPLED              # a long bow within the foe's move
    assert threat(4, NO_BAND) == UNAFFECTED
    assert threat(0, CLOSE_BAND) == IMPAIRED


def test_closing_in_by_half_move_full_move_or_running() -> None:
    assert approach_of(np.array([0, 6, 6.5, 12, 12.5, 57]), 12).tolist() == [
        NO_APPROACH, HALF_MOVE, FULL_MOVE, FULL_MOVE, RUN, RUN]


def test_keeping_distance_steps_back_at_most_half_move_and_stays_in_range() -> None:
    assert float(keep_back(10, 12, 6, 40)) == 5.0     # out of 12 + 3 m
    assert float(keep_back(4, 12, 6, 40)) == 6.0
    assert float(keep_back(20, 12, 6, 40)) == 0.0
    assert float(keep_back(158, 400, 6, 40)) == 2.0   # four bands of 40 m at most


def compiled(scenario: dict):
    loaded = balance.load_scenario(scenario)
    return get("yags").compile(loaded.model, loaded.tables)


def test_zero_skill_loads_one_round_longer_or_twice_as_long() -> None:
    def times(weapon: str, skill: int) -> tuple[int, int]:
        f = compiled(fight(m(missile={"weapon": weapon, "skill": skill}), m())).fighters[0]
        return f.missile.load, f.missile.reload

    assert times("short_bow", 0) == (1, 1)
    assert times("light_crossbow", 0) == (2, 2)
    assert times("heavy_crossbow", 0) == (4, 4)
    assert times("heavy_crossbow", 1) == (2, 2)
    assert times("bolt_action_rifle", 0) == (1, 2)     # Lo-0 with a magazine reloaded in 1


def test_rate_of_fire_gives_an_extra_shot_per_full_4_skill() -> None:
    def shots(skill: int) -> int:
        return compiled(fight(m(missile={"weapon": "bolt_action_rifle", "skill": skill}),
                              m())).fighters[0].missile.shots

    assert [shots(k) for k in (0, 3, 4, 7, 8, 12)] == [1, 1, 2, 2, 3, 3]


def test_a_thrown_weapon_adds_strength_x_4_a_launcher_does_not() -> None:
    f = compiled(fight(m(attributes={"strength": 4}, missile={"weapon": "javelin"}),
                       m(attributes={"strength": 4}, missile={"weapon": "long_bow"})))
    assert [x.missile.damage for x in f.fighters] == [5 + 16, 18]


def test_an_unknown_missile_weapon_is_named_with_its_path() -> None:
    with pytest.raises(ScenarioError) as caught:
        balance.load_scenario(fight(m(missile={"weapon": "longbow"}), m()))
    text = str(caught.value)
    assert "sides[0].members[0].missile.weapon" in text and "long_bow" in text


def test_a_fight_without_distance_or_missiles_is_not_played_on_a_line() -> None:
    f = compiled(fight(m(), m()))
    assert not f.at_distance and not static_of(f).on.distance


# --- The reference, step by step --------------------------------------------------------------


def test_the_charging_swordsman_runs_twice_then_attacks_after_a_full_move() -> None:
    """From 60 m with Move 12: runs 24 m twice (36 m, 12 m), then a full Move and a slow
    attack (12 - 3 = 9 m is more than half Move)."""
    from balance.rules.yags.reference.declare import declare
    from balance.rules.yags.reference.fight import start_combat

    f = compiled(fight(m(missile={"weapon": "long_bow", "skill": 4}), m(), distance=60))
    combat = start_combat(f, rng=np.random.default_rng(0))
    archer, swordsman = combat.fighters
    seen = []
    for round_no in (1, 2, 3):
        declare(combat, round_no, plan=ref.plan)
        seen.append((archer.action, swordsman.action, swordsman.approach, swordsman.pace))
        if swordsman.action == ref.RUN:
            ref.run(swordsman, archer, round_no)
    assert [s[:2] for s in seen] == [(ref.SHOOT, ref.RUN)] * 2 + [(ref.SHOOT, 1)]
    assert seen[2][2:] == (FULL_MOVE, 2) and swordsman.pos == 12.0


# --- Kernel against the scalar reference ------------------------------------------------------










@pytest.mark.parametrize("name", sorted(MISSILE_FIGHTS))
def test_kernel_matches_reference_at_a_distance(name: str) -> None:
    f = compiled(MISSILE_FIGHTS[name])
    assert static_of(f).on.distance
    agree(f, 60_000, 3_000)


# --- Directions -------------------------------------------------------------------------------





def test_a_careful_shot_beats_a_snap_shot_at_the_same_distance() -> None:
    """Against a target that holds its ground 40 m off, over five rounds."""
    target = {**SWORDSMAN, "policy": {"movement": "hold"}}

    def downed(shot: str) -> float:
        scenario = fight({**ARCHER, "missile": {"weapon": "long_bow", "skill": 4,
                                                "shot": shot}}, target, distance=40,
                         max_rounds=5)
        return balance.run(scenario, trials=TRIALS, seed=5).outcomes["a"]

    careful, normal, snap = downed("careful"), downed("normal"), downed("snap")
    assert careful > normal + 4.5 * SE and normal > snap + 4.5 * SE


def test_more_starting_distance_helps_an_aiming_archer() -> None:
    """One good shot from 15 m, two from 60 m, four from 200 m, for an archer who loads a
    round and then aims (rules.lo0_shots aim). (Not at every distance: the runner's 24 m
    strides make the last shot before contact better or worse; with the seed's slow snap
    shots 200 m is worse than 60 m: docs/rules/yags-missiles.md shows the curves.)"""
    aim = {"lo0_shots": "aim"}
    near, mid, far = (archer_wins(7, distance=d, rules=aim) for d in (15, 60, 200))
    assert near + 4.5 * SE < mid < far - 4.5 * SE


def test_a_charging_swordsman_needs_the_distance_closed_first() -> None:
    """At melee distance the archer fights with her short sword and loses most fights."""
    assert archer_wins(9, distance=0) < 0.2 < archer_wins(9, distance=60)


def test_a_lance_charge_lands_only_after_a_round_of_running() -> None:
    """At a distance the charge needs the run first: from 60 m the warhorse (Move 24) runs
    48 m in round 1 and the lance lands as a charge in round 2; a rider that did not run the
    round before does not charge."""
    from balance.rules.yags.reference.declare import declare
    from balance.rules.yags.reference.fight import start_combat

    combat = start_combat(compiled(lancer_from_afar()), rng=np.random.default_rng(0))
    lancer = combat.fighters[0]
    declare(combat, 1, plan=ref.plan)
    assert lancer.action == ref.RUN
    ref.run(lancer, combat.fighters[lancer.target], 1)
    assert lancer.pos == 48.0
    declare(combat, 2, plan=ref.plan)
    assert lancer.action == 1 and lancer.charging            # ATTACK, as a charge
    declare(combat, 3, plan=ref.plan)
    assert not lancer.charging


def test_a_grenade_hit_lands_its_blast_on_everyone_near_the_target() -> None:
    """A hit on one of three goblins standing together harms all three (and not through the
    thrower's strength: only the blast does damage); the thrower 8 m off is out of it."""
    from balance.rules.yags.reference.fight import start_combat

    f = compiled(MISSILE_FIGHTS["grenades_on_goblins"])
    grenade = f.fighters[0].missile
    assert grenade.blast is not None and grenade.blast.radius == 2.0
    assert grenade.damage == 30 and static_of(f).on.blasts
    hurt = np.zeros(4)
    for seed in range(200):
        combat = start_combat(f, rng=np.random.default_rng(seed))
        thrower, goblin = combat.fighters[0], combat.fighters[1]
        thrower.pos = goblin.pos - 8.0
        ref.hit(thrower, goblin, 8.0, combat, rng=np.random.default_rng(seed))
        hurt += [s.wounds > 0 for s in combat.fighters]
    assert hurt[0] == 0 and (hurt[1:] > 190).all()


def test_grenades_beat_javelins_against_a_rushing_group() -> None:
    def wins(weapon: str) -> float:
        scenario = copy.deepcopy(MISSILE_FIGHTS["grenades_on_goblins"])
        scenario["sides"][0]["members"][0]["missile"]["weapon"] = weapon
        return balance.run(scenario, trials=TRIALS, seed=6).outcomes["a"]

    assert wins("hand_grenade") > wins("javelin") + 4.5 * SE


# --- Readings checked step by step (review findings) -------------------------------------------


def declared_round(scenario: dict, rounds: int = 1, seed: int = 0):
    """The reference combat after declaring ``rounds`` rounds (moving runners as they go)."""
    from balance.rules.yags.reference.declare import declare
    from balance.rules.yags.reference.fight import start_combat

    combat = start_combat(compiled(scenario), rng=np.random.default_rng(seed))
    for round_no in range(1, rounds + 1):
        declare(combat, round_no, plan=ref.plan)
        for state in combat.fighters:
            if state.action == ref.RUN:
                ref.run(state, combat.fighters[state.target], round_no)
    return combat


def test_after_a_full_move_only_a_standard_attack() -> None:
    """Seed 000, Movement: from 10 m (7 m to cover, more than half Move) the closer's
    knockdown policy gives way to a plain attack; from 8 m (5 m: half Move) it is made."""
    def manoeuvre(distance: float) -> int:
        closer = {**SWORDSMAN, "stance": "aggressive", "policy": {"manoeuvre": "knockdown"}}
        combat = declared_round(fight({**SWORDSMAN, "policy": {"movement": "hold"}}, closer,
                                      distance=distance))
        return combat.fighters[1].manoeuvre

    assert manoeuvre(10) == 0 and manoeuvre(8) != 0


def test_a_shooter_draws_its_melee_weapon_the_first_time_it_melees() -> None:
    """-5 per reach of the drawn weapon on every roll of that round, once."""
    scenario = fight({**ARCHER, "missile": {"weapon": "long_bow", "skill": 4}}, SWORDSMAN)
    combat = declared_round(scenario)
    archer = combat.fighters[0]
    assert archer.action == 1 and archer.round_mod == -5 * archer.gear.draw < 0
    from balance.rules.yags.reference.declare import declare

    declare(combat, 2, plan=ref.plan)
    assert archer.round_mod == 0


def test_auto_shooters_out_of_range_run_in_until_in_range() -> None:
    """Four range bands of a long bow are 320 m: from 1000 m both auto archers run in."""
    archer = {**ARCHER, "missile": {"weapon": "long_bow", "skill": 4}}
    combat = declared_round(fight(archer, archer, distance=1000))
    assert [s.action for s in combat.fighters] == [ref.RUN, ref.RUN]
    assert abs(combat.fighters[0].pos - combat.fighters[1].pos) == 1000 - 2 * 24


def test_an_unhorsed_rider_moves_at_its_own_pace() -> None:
    from balance.rules.yags.reference.state import knock_down

    combat = declared_round(lancer_from_afar())
    lancer = combat.fighters[0]
    assert ref.move_of(lancer) == 24
    knock_down(lancer)
    assert ref.move_of(lancer) == 12


def test_nearest_at_a_distance_does_not_gang_up_by_line_order() -> None:
    """Three swordsmen against two weak foes and a strong one, all within melee distance:
    1 m apart plays as 0 m apart (the line order no longer decides who is nearest)."""
    weak = m(skills={"single_weapon": 2}, weapon="short_sword")
    strong = m(attributes={"dexterity": 4}, skills={"single_weapon": 5}, weapon="long_sword",
               armour=["mail_hauberk"])
    three = {**SWORDSMAN, "count": 3, "policy": {"target": "nearest"}}

    def win(distance: float) -> float:
        scenario = fight(three, [weak, weak, strong], distance=distance)
        return balance.run(scenario, trials=TRIALS, seed=8).outcomes["a"]

    assert abs(win(0) - win(1)) < 4.5 * SE


def test_ammunition_comes_from_the_table_unless_the_member_says() -> None:
    f = compiled(fight(m(missile={"weapon": "javelin"}),
                       m(missile={"weapon": "javelin", "ammunition": "plenty"})))
    assert [x.missile.ammunition for x in f.fighters] == [3, -1]


def test_strict_lo0_reading_makes_every_later_bow_shot_a_slow_snap_shot() -> None:
    """Seed 000, Reloading Weapons: a Lo-0 weapon "may be loaded and fired in the first
    round, though as a slow snap shot" (the default); ``ready`` lets later shots be careful."""
    ready = archer_wins(12, rules={"lo0_shots": "ready"})
    strict = archer_wins(12)
    assert strict < ready - 4.5 * SE


def test_rate_of_fire_needs_a_round_without_moving() -> None:
    """A rifle (rate 3, skill 8) fires three shots from a standing start, one while it keeps
    its distance (it moved)."""
    def shots_fired(movement: str) -> int:
        rifle = {**ARCHER, "missile": {"weapon": "bolt_action_rifle", "skill": 8},
                 "policy": {"movement": movement}}
        combat = declared_round(fight(rifle, SWORDSMAN, distance=18))
        shooter, foe = combat.fighters
        before = shooter.gun.shots
        ref.shoot(shooter, foe, combat, 1, rng=np.random.default_rng(1))
        return before - shooter.gun.shots

    assert shots_fired("hold") == 3 and shots_fired("keep_distance") == 1


def test_a_rider_shooting_from_a_moving_mount_may_fall() -> None:
    """Riding 0 against difficulty 15: the check fails on 1-14; a failed rider loses the shot
    and checks again, and about half of them fall (0.7 x 0.7)."""
    archer = {**ARCHER, "mount": {}, "missile": {"weapon": "composite_bow", "skill": 4},
              "policy": {"movement": "keep_distance"}}
    fell = shot = 0
    for seed in range(300):
        combat = declared_round(fight(archer, SWORDSMAN, distance=10), seed=seed)
        rider, foe = combat.fighters
        before = rider.gun.ammo
        ref.shoot(rider, foe, combat, 1, rng=np.random.default_rng(seed))
        fell += not rider.mounted and rider.prone
        shot += rider.gun.ammo < before        # a bow's next arrow comes from the quiver
    assert 0.35 < fell / 300 < 0.65 and 0.2 < shot / 300 < 0.4
