"""The vectorised Yags kernel against the scalar reference: same rules, same distributions.

Each fight is played by the kernel and by the reference at fixed seeds; the winner, round and
final-status distributions must be homogeneous (chi-square test of the two count tables),
rejecting only at p < 1e-6 so that noise never fails a build while a real difference of a few
points in a win rate does. The basic fights are hand-written ``Fighter`` rows; the detailed
ones are scenarios, so the compile step is exercised too, and each is built so that the rules
it names decide a large share of its fights.

Power (``balance.rules.testing.detectable_shift``, one cell at 50%, alpha 1e-6): the basic
fights (5,000 reference trials against 100,000 kernel trials) find a shift of 3.5 points
half the time and 4.5 points nine times in ten; the detailed fights (4,000 against 100,000)
3.9 and 5.0 points. So these tests see whole fights, group choices and compaction, but only
shifts of several points; one attack's rules are checked exactly, at every dice
combination, by ``test_yags_conformance.py``. A failure names the outcome, the fighter and
the bins that differ most (``helpers.differ``).
"""

from __future__ import annotations

import pytest

import balance
from balance.engine.run import run_fight, run_reference
from balance.rules import get
from balance.rules.yags.compile import AUTO, Fighter, YagsFight, YagsRules
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.rules.tracks import AGGRESSIVE, DEFENSIVE, MIXED, NORMAL, STUNS, WOUNDS
from tests.rules.helpers import (
    assert_stated_power,
    assert_tallies_agree,
)

ALPHA = 1e-6


def fighter(side: int, name: str, **kw) -> Fighter:
    """A veteran: dexterity 3 x skill 4 + long sword, strength 3, mail (soak 12 + 6)."""
    base = dict(attack=15, defence=15, damage=18, damage_type=WOUNDS, soak=18, initiative=12,
                health=3, skill=4, max_defences=3, stance=NORMAL, defences=AUTO, yield_at=99)
    base.update(kw)
    return Fighter(side=side, name=name, **base)


BASIC = {
    "mirror": [fighter(0, "a"), fighter(1, "b")],
    "aggressive_mixed_vs_defensive": [
        fighter(0, "a", stance=AGGRESSIVE, damage_type=MIXED, skill=5, attack=18),
        fighter(1, "b", stance=DEFENSIVE, max_defences=4, soak=14)],
    "stuns_vs_wounds": [
        fighter(0, "a", damage_type=STUNS, damage=12, attack=12, defence=12),
        fighter(1, "b", damage=14, soak=12, attack=13)],
    "all_out_attack": [fighter(0, "a", defences=0), fighter(1, "b")],
    "two_guards_vs_hero": [
        fighter(0, "hero", attack=20, defence=20, skill=6, health=4),
        fighter(1, "g1", attack=12, defence=12, skill=3, yield_at=5),
        fighter(1, "g2", attack=12, defence=12, skill=3)],
    "three_sides": [fighter(0, "a"), fighter(1, "b", stance=AGGRESSIVE),
                    fighter(2, "c", stance=DEFENSIVE)],
    "yielding_fumbly": [fighter(0, "a", yield_at=4, skill=1, attack=5, defence=5),
                        fighter(1, "b", yield_at=3, skill=1, attack=5, defence=5)],
}


def m(**kw) -> dict:
    """A member: attributes 3 unless given."""
    member = {"attributes": {"dexterity": 3, "agility": 3, "strength": 3}}
    member.update(kw)
    return member


def fight(a, b, **kw) -> dict:
    scenario = {"name": "t", "ruleset": "yags", "max_rounds": 40,
                "sides": [{"name": "a", "members": a if isinstance(a, list) else [a]},
                          {"name": "b", "members": b if isinstance(b, list) else [b]}]}
    scenario.update(kw)
    return scenario


# Detailed fights: (scenario, the rules it exercises).
DETAILED = {
    # Reach free strikes, a longshaft's +5, impaling against mail, a dagger's unarmed attacks
    # drawing counter strikes when well parried by a martial weapon.
    "reach_spear_vs_dagger": fight(
        m(skills={"longshaft": 4}, weapon="spear",
          armour=["soft_leather_jacket", "soft_leather_trousers"]),
        m(skills={"single_weapon": 5, "brawl": 3}, weapon="dagger", armour=["mail_hauberk"],
          stance="aggressive")),
    # The shield's free defence (no counter strike against it), two weapons' half bonuses,
    # an all-out attacker, more skilled fighters disarming the fumblers.
    "shield_vs_two_weapons": fight(
        m(skills={"weapon_and_shield": 4}, weapon="short_sword", off_hand="shield",
          armour=["mail_vest"]),
        [m(skills={"two_weapons": 4}, weapon="short_sword", off_hand="dagger",
           armour=["leather_vest"]),
         m(skills={"single_weapon": 3}, weapon="club", policy={"defences": 0})]),
    # A great weapon (halved multiple-defence penalty, +50% size) and heavy blows against
    # plate and a large brute (size shifts; soft armour doubled against stuns).
    "great_axe_vs_plate_and_size": fight(
        m(attributes={"dexterity": 3, "agility": 3, "strength": 4}, skills={"great_weapon": 4},
          weapon="great_axe", armour=["soft_leather_jacket"]),
        [m(skills={"single_weapon": 4}, weapon="long_sword", armour=["plate"]),
         m(attributes={"dexterity": 2, "agility": 2, "strength": 6, "size": 15, "health": 5},
           skills={"brawl": 4}, weapon="fist")]),
    # Chain: +10 stance bonus, shorter weapons fumble on 1-2; the wrong style: slow, 1-2.
    "chain_and_wrong_style": fight(
        m(skills={"chain": 4}, weapon="flail", stance="aggressive", armour=["mail_vest"]),
        m(skills={"weapon_and_shield": 4, "single_weapon": 1}, weapon="short_sword",
          style="weapon_and_shield", armour=["mail_vest"])),
    # Improved damage and vital strikes against knockdowns (prone, standing up) and an
    # overwhelming defender; manoeuvre fatigue.
    "damage_manoeuvres": fight(
        [m(skills={"single_weapon": 6}, weapon="long_sword", stance="aggressive",
           armour=["mail_hauberk"], policy={"manoeuvre": "improved_damage"}),
         m(skills={"single_weapon": 5}, weapon="broad_sword", stance="aggressive",
           armour=["breastplate"], policy={"manoeuvre": "vital_strike", "yield_at": "heavy"})],
        [m(attributes={"dexterity": 4, "agility": 3, "strength": 5}, skills={"single_weapon": 5},
           weapon="mace", stance="aggressive", armour=["mail_hauberk"],
           policy={"manoeuvre": "knockdown"}),
         m(skills={"single_weapon": 5}, weapon="long_sword", armour=["mail_vest"],
           policy={"manoeuvre": "overwhelm", "yield_at": "heavy"})], max_rounds=12),
    # Disarms (a superb one grabs the weapon), fumbles that break weak weapons, drawing a
    # spare, picking a weapon up.
    "disarm_and_rearm": fight(
        m(skills={"single_weapon": 7}, weapon="long_sword", armour=["mail_vest"],
          policy={"manoeuvre": "disarm", "fumbles": {"foe": ["disarm", "fatigue"]}}),
        [m(skills={"single_weapon": 4}, weapon="club", spare="dagger", armour=["leather_vest"]),
         m(skills={"single_weapon": 3}, weapon="broken_bottle",
           policy={"rearm": "pick_up", "fumbles": {"own": ["break", "disarm", "fatigue"]}})]),
    # Grapples on the neck, improving the hold until the foe is helpless, breaking the neck;
    # escapes; automatic strikes when grappling an armed foe.
    "grapple_and_break": fight(
        m(attributes={"agility": 5, "strength": 6}, skills={"brawl": 6}, weapon="fist",
          policy={"manoeuvre": "grapple", "grapple_hold": "neck"}),
        m(attributes={"strength": 2}, skills={"brawl": 3, "single_weapon": 2}, weapon="knife"),
        max_rounds=15),
    # A held spearman drops his spear for a dagger and fights (weapons at -5 per reach when
    # grappled); the holder strikes; breaking limbs.
    "grapple_switch_and_limbs": fight(
        [m(attributes={"agility": 4, "strength": 6}, skills={"brawl": 5}, weapon="fist",
           policy={"manoeuvre": "grapple", "holding": "strike"}),
         m(attributes={"agility": 4, "strength": 6}, skills={"brawl": 6}, weapon="fist",
           policy={"manoeuvre": "grapple", "holding": "break"})],
        [m(skills={"brawl": 3, "longshaft": 4}, weapon="spear", spare="dagger",
           policy={"when_held": "fight", "switch_when_grappled": True}),
         m(skills={"brawl": 4}, weapon="fist", policy={"when_held": "fight"})], max_rounds=12),
    # Trips and charges through (prone, stuns from a good throw), against padded cloth.
    "trip_and_charge_through": fight(
        [m(attributes={"strength": 6}, skills={"brawl": 5}, weapon="fist",
           policy={"manoeuvre": "trip"}),
         m(attributes={"strength": 6}, skills={"brawl": 4}, weapon="fist",
           policy={"manoeuvre": "charge_through"})],
        m(skills={"brawl": 4}, weapon="fist", armour=["padded_jacket"]), max_rounds=15),
    # A lancer's mounted charge (mount strength, a stun per wound), a spearman on foot
    # striking at the mount (size shifts, the rider falls with it), riding without saddle
    # with the mounted combat technique.
    "mounted_charge_and_mount": fight(
        m(skills={"longshaft": 4, "riding": 3}, weapon="lance", armour=["mail_hauberk"],
          mount={"warhorse": True, "strength": 7, "health": 5}, policy={"charge": True}),
        [m(skills={"longshaft": 4}, weapon="long_spear", armour=["soft_leather_jacket"],
           policy={"attack_mount": True}),
         m(skills={"single_weapon": 4, "riding": 2}, weapon="long_sword", mount={"saddle": False},
           techniques=["mounted_combat"])]),
    # Riding checks every round (losing attacks, falling off) against a rider whose wrong
    # style forbids its technique.
    "riding_checks": fight(
        m(skills={"single_weapon": 4, "riding": 1}, weapon="long_sword", mount={},
          armour=["mail_vest"]),
        m(skills={"single_weapon": 4, "riding": 3}, weapon="long_sword",
          mount={"saddle": False}, techniques=["mounted_combat"], style="weapon_and_shield")),
    # Drawing weapons in round 1, stunts (first round, every round), re-rolling a bad
    # initiative, retreating, exhaustion.
    "other_actions": fight(
        [m(skills={"single_weapon": 4, "athletics": 3}, weapon="broad_sword", drawn=False,
           armour=["mail_vest"], policy={"retreat_at": "heavy", "stunt": {
               "difficulty": 12, "bonus": "damage", "when": "first_round"}}),
         m(attributes={"agility": 2}, skills={"single_weapon": 4, "athletics": 4},
           weapon="short_sword",
           policy={"reroll_initiative_below": 18, "stunt": {"difficulty": 15}})],
        m(attributes={"dexterity": 4, "agility": 4}, skills={"single_weapon": 5},
          weapon="long_sword", armour=["mail_hauberk"], policy={"retreat_at": "medium"}),
        rules={"exhausted_at": 3}),
    # Soft armour doubled against mixed and stun blows, a weak fighter short of strength, a
    # confined space (-5 per excess reach), a single vambrace without a shield.
    "soft_armour_strength_space": fight(
        [m(attributes={"strength": 5}, skills={"longshaft": 5}, weapon="quarterstaff",
           armour=["padded_jacket", "soft_leather_trousers"]),
         m(attributes={"strength": 6, "agility": 4}, skills={"brawl": 5}, weapon="fist",
           armour=["soft_leather_jacket"])],
        m(attributes={"strength": 1, "dexterity": 4}, skills={"single_weapon": 6},
          weapon="broad_sword", armour=["padded_jacket", "mail_coif", "helm", "plate_vambrace"]),
        rules={"confined_reach": 2}, max_rounds=12),
    # rules.reach closing (the default): one free strike to get inside, then the longer weapon
    # is at -5 per excess reach; stepping back and retreating open the distance again.
    "reach_closing_and_retreat": fight(
        m(skills={"longshaft": 4}, weapon="spear", armour=["mail_hauberk"],
          policy={"retreat_at": "medium"}),
        m(skills={"single_weapon": 5}, weapon="dagger", armour=["mail_hauberk"]),
        rules={"reach": "closing"}, max_rounds=15),
    # rules.regain_reach follow (issue 25): nobody steps back, a retreat reopens no distance
    # from a foe that attacked the retreater that round; the knife (reach 0) follows.
    "reach_follow_and_retreat": fight(
        m(skills={"longshaft": 4}, weapon="spear", armour=["mail_hauberk"],
          policy={"retreat_at": "light"}),
        [m(skills={"single_weapon": 5}, weapon="dagger", armour=["mail_hauberk"]),
         m(skills={"brawl": 4}, weapon="knife")],
        rules={"regain_reach": "follow"}, max_rounds=15),
    # Stance plans (issue 25): defensive when hurt, aggressive when declaring last with no
    # foe attacking it (a knocked-down foe standing up; a spear stepping back).
    "stance_plans": fight(
        [m(skills={"single_weapon": 5}, weapon="long_sword", armour=["mail_hauberk"],
           policy={"stance_plan": {"hurt_at": "medium", "when_hurt": "defensive",
                                   "unopposed": "aggressive"}}),
         m(attributes={"agility": 4}, skills={"single_weapon": 4}, weapon="short_sword",
           policy={"stance_plan": {"unopposed": "aggressive"}})],
        [m(attributes={"strength": 5}, skills={"single_weapon": 5}, weapon="mace",
           stance="aggressive", policy={"manoeuvre": "knockdown"}),
         m(skills={"longshaft": 4}, weapon="spear",
           policy={"stance_plan": {"hurt_at": "light", "when_hurt": "aggressive"}})],
        max_rounds=15),
    # Issue 12's readings together: a crushing club's knockback on plate, stuns piling past
    # beaten into wounds, vital strikes felling a fighter who checks as for fatal wounds, a
    # long sword stepping back from the club and the fists inside its reach, a tired knight
    # resting the moment a fumble exhausts him, an unarmed counter strike on a success.
    "readings_of_issue_12": fight(
        [m(attributes={"strength": 5}, skills={"single_weapon": 5}, weapon="club",
           stance="aggressive", policy={"manoeuvre": "vital_strike"}),
         m(attributes={"strength": 5, "agility": 4}, skills={"brawl": 5}, weapon="fist")],
        m(attributes={"dexterity": 4}, skills={"single_weapon": 5}, weapon="long_sword",
          armour=["plate"], fatigue=2),
        rules={"exhausted_at": 4, "unarmed_counter": "success"}, max_rounds=20),
}


def agree(fight_: YagsFight, fast_trials: int, slow_trials: int,
          name: str | None = None) -> None:
    name = name or " v ".join(fight_.side_names)   # the fight the messages name
    system = get("yags")
    fast = run_fight(system, fight_, fast_trials, seed=1)
    slow = run_reference(system, fight_, slow_trials, seed=2)
    assert_tallies_agree(name, fight_, fast, slow, ALPHA)


@pytest.mark.parametrize("name", sorted(BASIC))
def test_kernel_matches_reference(name: str) -> None:
    fs = BASIC[name]
    n_sides = len({f.side for f in fs})
    agree(YagsFight(tuple(fs), tuple(f"s{s}" for s in range(n_sides)), YagsRules(), 40),
          100_000, 5_000, name)


@pytest.mark.parametrize("name", sorted(DETAILED))
def test_kernel_matches_reference_detailed(name: str) -> None:
    loaded = balance.load_scenario(DETAILED[name])
    compiled = get("yags").compile(loaded.model, loaded.tables)
    assert static_of(compiled).on.any, f"{name}: no detailed rule can act"
    agree(compiled, 100_000, 4_000, name)


@pytest.mark.parametrize(("reference", "kernel", "half", "most"),
                         [(5_000, 100_000, 3.5, 4.5), (4_000, 100_000, 3.9, 5.0)])
def test_stated_power(reference: int, kernel: int, half: float, most: float) -> None:
    """The power the module docstring states is what ``detectable_shift`` gives."""
    assert_stated_power(__doc__, reference, kernel, half, most, ALPHA)
