"""The fights the Yags agreement tests play through kernel and reference (basic, detailed,
missile and group fights) and ``agree``, their kernel-vs-reference check (shared with the
coverage test's traced fights, so no test module imports another's)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml

import balance
from balance.engine.run import run_fight, run_reference
from balance.rules import get
from balance.rules.yags.compile import AUTO, Fighter, YagsFight
from balance.rules.yags.rules.tracks import AGGRESSIVE, DEFENSIVE, MIXED, NORMAL, STUNS, WOUNDS
from tests.rules.helpers import assert_tallies_agree

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


ROOT = Path(__file__).resolve().parents[3]


ARCHER = m(skills={"single_weapon": 2}, weapon="short_sword", armour=["soft_leather_jacket"])


SWORDSMAN = m(skills={"single_weapon": 4}, weapon="long_sword",
              armour=["soft_leather_jacket", "soft_leather_trousers"])


MISSILE_FIGHTS = {
    # Careful shots at a charging swordsman from 60 m, then the archer's short sword.
    "archer_vs_charge": fight(
        {**ARCHER, "missile": {"weapon": "long_bow", "skill": 4, "shot": "careful"}},
        SWORDSMAN, distance=60),
    # Two crossbowmen (one loaded Lo-1, one unloaded and undrawn Lo-2 with skill 0, so
    # Lo-4) against a brute in mail rushing from 40 m: loading, slow shots after loading,
    # the attacker limit and targets at different distances.
    "crossbows_vs_brute": fight(
        [{**ARCHER, "missile": {"weapon": "light_crossbow", "skill": 4}},
         {**ARCHER, "missile": {"weapon": "heavy_crossbow", "skill": 0, "loaded": False,
                                "drawn": False}}],
        m(attributes={"strength": 5, "health": 5}, skills={"great_weapon": 4},
          weapon="great_axe", armour=["mail_hauberk"]), distance=40),
    # A rifle: rate of fire (skill 8: three shots), recoil, a magazine of 5 and 7 rounds
    # carried, then it runs dry and closes in; against a shield-bearer 150 m off who holds
    # until the shooter is out, normal shots and no fall-off inside 300 m.
    "rifle_magazine_and_ammunition": fight(
        {**ARCHER, "missile": {"weapon": "bolt_action_rifle", "skill": 8, "ammunition": 7,
                               "shot": "snap"}},
        m(skills={"weapon_and_shield": 4}, weapon="broad_sword", off_hand="shield",
          armour=["mail_hauberk"], move=8), distance=150),
    # Snap shots while keeping the distance from a slow foe (Move 8), a sling (thrown:
    # strength adds; mixed damage) from a second thrower who closes while throwing.
    "keep_distance_and_sling": fight(
        [{**ARCHER, "move": 14, "missile": {"weapon": "short_bow", "skill": 3, "shot": "snap"},
          "policy": {"movement": "keep_distance"}},
         {**ARCHER, "missile": {"weapon": "sling", "skill": 4, "ammunition": 4},
          "policy": {"movement": "close"}}],
        {**SWORDSMAN, "move": 8}, distance=30, max_rounds=30),
    # Shooting in melee: a pistol (reach 0) against a dagger (the close band: impaired), a
    # long bow (reach 3: crippled) against a sword; both targets get full defences.
    "threat_bands_in_melee": fight(
        [{**ARCHER, "missile": {"weapon": "flintlock_pistol", "skill": 4, "in_melee": "shoot"}},
         {**ARCHER, "missile": {"weapon": "long_bow", "skill": 5, "in_melee": "shoot"}}],
        [m(skills={"single_weapon": 4}, weapon="dagger"), SWORDSMAN], distance=2,
        max_rounds=20),
    # A horse archer keeping its distance (moving: distance doubled, riding rolls) from a
    # footman, and a javelin thrower starting within the footman's move (the move band).
    "horse_archer_and_move_band": fight(
        [{**ARCHER, "skills": {"single_weapon": 2, "riding": 2}, "mount": {},
          "missile": {"weapon": "composite_bow", "skill": 4, "loaded": False},
          "policy": {"movement": "keep_distance"}, "fatigue": 1},
         {**ARCHER, "missile": {"weapon": "javelin", "skill": 3, "ammunition": 3},
          "exhaustion": 2}],
        [SWORDSMAN, SWORDSMAN], distance=5, max_rounds=30),
}


def lancer_from_afar() -> dict:
    """The bundled lancer against two spearmen, starting 60 m apart: the warhorse runs 48 m,
    then closes and the lance lands as a charge (the round after the run)."""
    scenario = yaml.safe_load((ROOT / "scenarios" / "yags" / "mounted_lancer.yaml").read_text())
    return {**scenario, "distance": 60, "max_rounds": 30}


MISSILE_FIGHTS["lancer_charges_from_60_m"] = lancer_from_afar()


# Lo-0 bows that load for a round and then aim (rules.lo0_shots aim; the default is the
# seed's sentence: every bow shot after the first a slow snap shot).
MISSILE_FIGHTS["aimed_lo0_bows"] = {**MISSILE_FIGHTS["archer_vs_charge"],
                                    "rules": {"lo0_shots": "aim"}}


# Hand grenades thrown at three goblins running in from 40 m (one position: a blast on one
# catches all three), then at melee distance, where the thrower is in its own blast.
MISSILE_FIGHTS["grenades_on_goblins"] = fight(
    m(attributes={"dexterity": 4, "health": 4}, skills={"single_weapon": 4},
      weapon="short_sword", armour=["mail_hauberk"],
      missile={"weapon": "hand_grenade", "skill": 4, "ammunition": 3, "in_melee": "shoot"}),
    m(attributes={"strength": 2, "size": 4}, skills={"single_weapon": 3}, weapon="short_sword",
      count=3, armour=["soft_leather_jacket"]), distance=40, max_rounds=30)


# Three swordsmen choosing the nearest foe on the line (metres first): an archer backing off,
# one holding, a spearman closing in to meet them; sticky targets re-chosen as they fall.
MISSILE_FIGHTS["nearest_by_position"] = fight(
    [{**ARCHER, "missile": {"weapon": "short_bow", "skill": 4},
      "policy": {"movement": "keep_distance"}},
     {**ARCHER, "missile": {"weapon": "short_bow", "skill": 3}},
     m(skills={"longshaft": 4}, weapon="spear", policy={"movement": "close"})],
    {**SWORDSMAN, "count": 3, "policy": {"target": "nearest"}}, distance=30, max_rounds=30)


TRIALS = 40_000


SE = np.sqrt(2 * 0.25 / TRIALS)


def archer_wins(seed: int, shot: str = "careful", distance: float = 60, **kw) -> float:
    scenario = fight({**ARCHER, "missile": {"weapon": "long_bow", "skill": 4, "shot": shot}},
                     SWORDSMAN, distance=distance, **kw)
    return balance.run(scenario, trials=TRIALS, seed=seed).outcomes["a"]


VETERAN = {"attributes": {"dexterity": 3, "agility": 3, "strength": 3},
           "skills": {"single_weapon": 4}, "weapon": "long_sword", "armour": ["mail_hauberk"]}


def man(**kw) -> dict:
    return {**VETERAN, **kw}


def scenario(a: list[dict], b: list[dict], **kw) -> dict:
    out = {"name": "g", "ruleset": "yags", "max_rounds": 40,
           "sides": [{"name": "a", "members": a}, {"name": "b", "members": b}]}
    out.update(kw)
    return out


GROUP_FIGHTS = {
    "three_vs_two_spread_weakest_ranks_morale": scenario(
        [man(name="front", count=2, policy={"target": "spread"}),
         man(name="pike", rank=2, weapon="long_spear", skills={"longshaft": 4},
             policy={"target": "weakest"})],
        [man(name="sword", skills={"single_weapon": 5}, policy={"target": "weakest"}),
         man(name="axe", weapon="hand_axe", policy={"target": "spread"},
             attributes={"dexterity": 3, "agility": 3, "strength": 4})],
        max_rounds=30),
    "five_vs_five_first_capped": scenario([man(count=5)], [man(count=5)], max_rounds=30),
    # Every other policy, a limit of two with a grappler counting in it, yielding.
    "policies_grapple_and_limit": scenario(
        [man(name="r", policy={"target": "random"}), man(name="n", policy={"target": "nearest"}),
         man(name="f", policy={"target": "fixed", "targets": ["w"], "yield_at": "heavy"})],
        [man(name="d", policy={"target": "dangerous"}, skills={"single_weapon": 5}),
         man(name="w", weapon="fist", skills={"brawl": 5},
             attributes={"agility": 4, "strength": 5},
             policy={"manoeuvre": "grapple", "target": "weakest"}),
         man(name="s", policy={"target": "spread"}, weapon="spear", skills={"longshaft": 4})],
        rules={"max_attackers": 2}, max_rounds=25),
    # Three sides, one attacker a fighter: the engine's choice (not the two-sided counting).
    "three_sides_one_each": {
        "name": "g", "ruleset": "yags", "max_rounds": 25, "rules": {"max_attackers": 1},
        "sides": [{"name": k, "members": [man(count=2)]} for k in ("a", "b", "c")]},
}


GROUP_FIGHTS["three_vs_two_spread_weakest_ranks_morale"]["sides"][0]["morale"] = \
    {"breaks_at": 0.5}


GROUP_FIGHTS["three_vs_two_spread_weakest_ranks_morale"]["sides"][1]["morale"] = \
    {"breaks_at": 0.5}

