"""More detailed melee rules shown acting in the scalar reference with chosen dice: the
grapple's breaks and escapes, trips and charges through, retreats, re-rolled initiative,
drawing and switching weapons, stunts, exhaustion, confined spaces, the closing reach option,
vitals and falling mounts."""

from __future__ import annotations

import dataclasses

import numpy as np

from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.rules.yags.compile import MountStats, YagsRules
from balance.rules.yags.reference.blows import blow
from balance.rules.yags.reference.declare import declare
from balance.rules.yags.reference.fight import end_of_round, take_action
from balance.rules.yags.reference.moves import charge_through, escape, trip
from balance.rules.yags.reference.state import (
    PICK_UP,
    REROLL,
    RETREAT,
    FighterState,
    MountState,
    release,
    round_penalty,
    settle,
)
from balance.rules.yags.reference.strikes import attack_action, resolve_attack
from balance.rules.yags.rules.equipment import BARE, MAIN, SPARE
from balance.rules.yags.rules.tactics import BREAK_LIMB, BREAK_NECK, MEET_DODGE, Tactics
from tests.rules.yags.cases import declared, fight_of, veteran
from tests.rules.yags.scripted import ScriptedDice

RULES = YagsRules()


# --- Grappling ---------------------------------------------------------------------------------


def held_pair(hold: int = 2, **held_changes):
    a = FighterState(0, veteran(strength=5, brawl=5))
    t = FighterState(1, veteran(1, brawl=3, **held_changes))
    c = fight_of(a, t)
    a.partner, t.partner, a.holding, t.hold = 1, 0, True, hold
    return a, t, c


def test_a_hold_costs_the_held_its_attribute_times_skill() -> None:
    a, t, _ = held_pair(hold=2)
    assert round_penalty(t, RULES) == -2 * t.gear.skill and round_penalty(a, RULES) == 0


def test_break_limb_needs_two_levels_and_costs_a_wound_and_forty() -> None:
    a, t, c = held_pair()
    # damage 18 + 10 = 28 against soak 18 + 5 = 23: 2 levels (wounds), and the limb breaks
    blow(a, t, BREAK_LIMB, 0, c, rng=ScriptedDice(10, 5))
    assert (t.limbs, t.wounds) == (1, 3)
    assert round_penalty(t, RULES) == -10 - 2 * t.gear.skill - 40
    a, t, c = held_pair()
    blow(a, t, BREAK_LIMB, 0, c, rng=ScriptedDice(10, 10))      # one level only
    assert (t.limbs, t.wounds) == (0, 1)


def test_break_neck_fells_and_may_kill() -> None:
    a, t, c = held_pair()
    # 18 + 20 = 38 against 18 + 5 = 23: 4 levels: fatally wounded; health 12 + 3 < 10 + 4
    blow(a, t, BREAK_NECK, 0, c, rng=ScriptedDice(20, 5, 1))
    assert (t.wounds, t.status) == (6, DEAD)
    a, t, c = held_pair()
    blow(a, t, BREAK_NECK, 0, c, rng=ScriptedDice(20, 5, 10))
    assert (t.wounds, t.status) == (6, UNCONSCIOUS)


def test_escape_is_strength_less_the_hold() -> None:
    a, t, c = held_pair(hold=2, strength=4)
    # (4 - 2) x 3 + 20 = 26 against 5 x 5 + 1 = 26: the escaper wins ties
    escape(t, a, c, rng=ScriptedDice(20, 1))
    assert t.partner is None and a.partner is None and not a.holding
    a, t, c = held_pair(hold=2, strength=4)
    escape(t, a, c, rng=ScriptedDice(19, 1))
    assert t.partner == 0


def test_a_fallen_partner_ends_the_grapple() -> None:
    a, t, c = held_pair()
    t.status = UNCONSCIOUS
    settle(c)
    assert a.partner is None and t.hold == 0
    a, t, c = held_pair()
    release(a, c)
    assert (a.partner, t.partner) == (None, None)


def test_trip_throws_and_bruises() -> None:
    a = FighterState(0, veteran(strength=6, brawl=5))
    t = FighterState(1, veteran(1, brawl=2))
    c = fight_of(a, t)
    # 30 + 10 = 40 against 6 + 4 = 10: won by 30, four levels: prone, and three stuns
    trip(a, t, c, rng=ScriptedDice(10, 4))
    assert t.prone and t.stuns == 3


def test_charge_through_block_or_dodge() -> None:
    a = FighterState(0, veteran(strength=4, brawl=4))
    t = FighterState(1, veteran(1, strength=3, brawl=3))
    c = fight_of(a, t)
    charge_through(a, t, c, 2, rng=ScriptedDice(1, 20))     # weaker: steps aside (auto)
    assert not (a.prone or t.prone)
    t = FighterState(1, veteran(1, strength=5, brawl=4))
    c = fight_of(a, t)
    charge_through(a, t, c, 2, rng=ScriptedDice(1, 20))     # stronger: blocks, wins
    assert a.prone and not t.prone
    a = FighterState(0, veteran(strength=4, brawl=4))
    t = FighterState(1, veteran(1, tactics=Tactics(meet_charge=MEET_DODGE), brawl=9))
    c = fight_of(a, t)
    charge_through(a, t, c, 2, rng=ScriptedDice())
    assert not (a.prone or t.prone)


# --- Other actions ------------------------------------------------------------------------------


def test_retreat_defends_at_plus_three_per_metre_and_never_attacks() -> None:
    c = declared(veteran(0, tactics=Tactics(retreat_at=2), agility=4),
                 veteran(1, attack=0, damage=0))
    r, foe = c.fighters
    r.wounds = 2
    declare(c, 3)
    assert r.action == RETREAT and r.defences == 1 and r.stance_now == 2   # defensive
    # the foe attacks: 0 + 15 = 15 against 15 + 5 (defensive) + 12 (4 metres) + 1 - 5 = 28;
    # the retreater's defence fumbles (1): fatigue; and it makes no counter strike
    dice = ScriptedDice(15, 1)
    take_action(foe, c, 3, rng=dice)
    assert r.fatigue == 1 and dice.done()
    take_action(r, c, 3, rng=ScriptedDice())         # no attack, no dice


def test_reroll_initiative_spends_round_one() -> None:
    c = declared(veteran(0, tactics=Tactics(reroll_below=30)), veteran(1), round_no=1)
    slow, foe = c.fighters
    assert slow.action == REROLL and slow.defended == () and foe.action == 1
    slow.initiative = 3
    end_of_round(c, rng=ScriptedDice(17))
    assert slow.initiative == 12 + 17


def test_drawing_weapons_costs_five_per_reach_in_round_one() -> None:
    c = declared(veteran(0, drawn=False, gear={"draw": 4}), veteran(1), round_no=1)
    assert c.fighters[0].round_mod == -20
    declare(c, 2)
    assert c.fighters[0].round_mod == 0


def test_rearming_draws_the_spare_or_picks_up() -> None:
    sword = veteran(0, has_spare=True, gear={"draw": 1, "losable": True})
    c = declared(sword, veteran(1))
    s = c.fighters[0]
    s.spare_left, s.weapons, s.main_down = True, BARE, True
    declare(c, 3)
    assert (s.weapons, s.spare_left, s.round_mod) == (SPARE, False, -5)
    s.weapons = BARE
    declare(c, 4)
    assert s.action == PICK_UP
    take_action(s, c, 4, rng=ScriptedDice())
    assert (s.weapons, s.main_down) == (MAIN, False)


def test_switching_to_a_shorter_spare_when_grappled() -> None:
    long_ = veteran(0, has_spare=True, tactics=Tactics(switch_when_grappled=True, escape=False))
    gear = tuple(dataclasses.replace(long_.basic_loadout, reach=r, draw=r)
                 for r in (3, 0, 0, 3, 0, 0))       # main weapon reach 3, spare (dagger) 0
    c = declared(dataclasses.replace(long_, gear=gear), veteran(1))
    s, holder = c.fighters
    s.partner, holder.partner, holder.holding, s.hold = 1, 0, True, 1
    s.spare_left = True
    declare(c, 3)
    assert (s.weapons, s.main_down, s.gear.reach) == (SPARE, True, 0)


def test_a_failed_stunt_is_a_fumble_and_a_good_one_adds_damage() -> None:
    a = FighterState(0, veteran(athletics=3, tactics=Tactics(stunt_difficulty=15)))
    t = FighterState(1, veteran(1))
    dice = ScriptedDice(5)           # 9 + 5 < 15: the attack is a fumble (fatigue)
    assert not resolve_attack(a, t, True, fight_of(a, t), 2, rng=dice, stunt=True).hit
    assert a.fatigue == 1 and dice.done()
    a = FighterState(0, veteran(athletics=3, tactics=Tactics(stunt_difficulty=15,
                                                             stunt_damage=True)))
    t = FighterState(1, veteran(1))
    # stunt 9 + 16 = 25: good, +10 damage; attack 15 + 10 vs 15 + 10 hits; 28 + 10 vs 28
    dice = ScriptedDice(16, 10, 10, 10, 10)
    assert resolve_attack(a, t, True, fight_of(a, t), 2, rng=dice, stunt=True).hit
    assert t.wounds == 3


def test_exhaustion_makes_a_fighter_leave() -> None:
    c = declared(veteran(0, exhausted_at=3), veteran(1, exhausted_at=3))
    c.fighters[0].fatigue = 3
    end_of_round(c, rng=ScriptedDice())
    assert c.fighters[0].status == YIELDED and c.fighters[1].status == STANDING


def test_exhausted_at_health_is_one_level_more_than_health() -> None:
    from balance.rules.yags.compile import _exhausted_at

    assert [_exhausted_at("health", h) for h in (2, 3, 5)] == [3, 4, 6]
    assert _exhausted_at(None, 3) == 99 and _exhausted_at(2, 3) == 2


# --- Reach options, vitals, mounts ------------------------------------------------------------


def test_closing_gives_one_free_strike_then_the_long_weapon_suffers() -> None:
    rules = YagsRules(reach_closing=True)
    c = declared(veteran(0, gear={"reach": 0}, damage=0),
                 veteran(1, gear={"reach": 3}, damage=0), rules=rules)
    dagger, spear = c.fighters
    # first attack: the spear's free strike (a miss: 2 vs 10 + 15), then the dagger's (miss)
    attack_action(dagger, spear, c, 2, rng=ScriptedDice(2, 10, 2, 10))
    assert dagger.inside == {1}
    # next: no free strike any more
    dice = ScriptedDice(2, 10)
    attack_action(dagger, spear, c, 3, rng=dice)
    assert dice.done()


def test_vitals_add_to_the_checks_a_blow_calls() -> None:
    a = FighterState(0, veteran())
    t = FighterState(1, veteran(1, vitals=5))
    t.wounds = 5
    # one wound: fatal; health 12 + vitals 5 + 4 = 21 >= 20: unconscious, not dead
    blow(a, t, 0, 0, fight_of(a, t), rng=ScriptedDice(10, 10, 4))
    assert t.status == UNCONSCIOUS


def test_a_falling_mount_takes_its_rider_down() -> None:
    horse = MountStats(size=15, strength=6, health=5, soak_vs=(20,) * 8, heavy_suit=False,
                       saddle=True, warhorse=False)
    r = FighterState(0, veteran(mount=horse))
    r.mount, r.mounted = MountState(horse), True
    c = fight_of(r, FighterState(1, veteran(1)))
    r.mount.status = DEAD
    settle(c)
    assert (r.mounted, r.prone) == (False, True)


def test_confined_space_costs_five_per_excess_reach() -> None:
    from tests.rules.yags.cases import compile_one

    open_ = compile_one({"skills": {"longshaft": 4}, "weapon": "long_spear"})
    corridor = compile_one({"skills": {"longshaft": 4}, "weapon": "long_spear"},
                           rules={"confined_reach": 1})
    assert open_.fighters[0].attack - corridor.fighters[0].attack == 5 * (4 - 1)
    assert open_.fighters[0].defence == corridor.fighters[0].defence


def test_fumbled_initiative_cannot_reroll() -> None:
    c = declared(veteran(0, tactics=Tactics(reroll_below=99)), veteran(1), round_no=1)
    s = c.fighters[0]
    s.fumbled_initiative = True
    declare(c, 1)
    assert s.action != REROLL and np.all([f.status == STANDING for f in c.fighters])
