"""The vectorised percentile kernel against the scalar reference: same rules, same numbers.

Each fight is played by the kernel and by the readable reference at fixed seeds; the winner,
round and final-status distributions must be homogeneous by a chi-square test, rejecting
only at p < 1e-6. Bins are pooled (in order) until each expects at least five trials of the
smaller sample: a long tail of rare round counts would otherwise make the test meaningless.
The fights are chosen so that between them every optional rule of the kernel acts (see
``test_every_optional_rule_is_exercised``).

Power (``balance.rules.testing.detectable_shift``, one cell at 50%, alpha 1e-6): the named
fights (2,000 reference trials against 50,000 kernel trials) find a shift of 5.6 points half
the time and 7.0 points nine times in ten; the fights that make every optional rule act
(1,200 against 30,000) 7.2 and 9.1 points. One attack and its defence are checked exactly,
at every d100 pair, by ``test_conformance.py``. A failure names the outcome, the
fighter and the bins that differ most (``helpers.differ``).
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.engine.run import run_fight, run_reference
from tests.rules.helpers import (
    assert_stated_power,
    differ,
    round_labels,
    status_labels,
    win_labels,
)
from tests.rules.helpers import percentile_member as member
from tests.rules.percentile.helpers import ALPHA, SCENARIOS, fight, load, pooled_p

POWER = [(2_000, 50_000, 5.6, 7.0), (1_200, 30_000, 7.2, 9.1)]   # (see the docstring)
FAST, SLOW = 50_000, 2_000
# The five fights the issue names get the full samples; the fights that exist to make every
# optional rule act get fewer reference trials (the reference is ~1,000 fights a second).
NAMED = {"sword_and_shield_duel", "fight_in_the_dark", "archer_vs_charge",
         "corridor_one_vs_three", "three_vs_two", "groups_three_vs_two_policies"}
FAST_RULES, SLOW_RULES = 30_000, 1_200




FIGHTS = {
    "sword_and_shield_duel": SCENARIOS / "sword_and_shield_duel.yaml",
    "fight_in_the_dark": SCENARIOS / "fight_in_the_dark.yaml",
    "archer_vs_charge": SCENARIOS / "archer_vs_charging_spearman.yaml",
    "corridor_one_vs_three": fight(
        [member(85, armour="half_plate")],
        [member(50, shield="half_shield", count=3)], situation={"space": "corridor"}),
    "three_vs_two": fight(
        [member(70), member(55, weapon="long_spear", shield=None),
         member(50, weapon="short_sword", shield=None, off_hand="dagger",
                skills={"off_hand": 50})],
        [member(75, armour="half_plate", policy={"extra_attack": True}),
         member(65, weapon="great_axe", shield=None, policy={"defence": "dodge"})]),
    # the dice language's kept, exploding and counted dice as weapon damage: the kernel
    # samples their exact pmfs, the reference rolls them die by die
    "rich_dice_weapons": fight(
        [member(70, weapon="broadsword")], [member(65, weapon="battle_axe", shield=None)],
        tables={"weapons": {"broadsword": {"damage": "2D8kh1+1"},
                            "battle_axe": {"damage": "1D6!+(3D6>=5)"}}}),
    "pitch_dark_noisy_cramped": fight(
        [member(70, weapon="long_spear", shield=None, skills={"listen": 40, "scent": 70})],
        [member(55, weapon="dagger", shield=None, noisy=True, smelly=True,
                situation={"light": "semi_dark"})],
        situation={"light": "pitch_dark", "space": "cramped"}),
    "knockback_disarm_knockout": fight(
        [member(65, policy={"knockback": True}, characteristics={"STR": 17})],
        [member(60, shield=None, off_hand="dagger", policy={"disarm": True, "riposte": True}),
         member(55, weapon="club", shield=None, policy={"knockout": True, "pull_blows": True},
                armour="heavy_leather")], max_rounds=20,
        rules={"defences_per_round": 2, "extra_defence_penalty": 25},
        tables={"resistance": {"standard": {"floor": 10, "ceiling": 90}}}),
    "mounted_charge_into_set_spear": fight(
        [member(70, weapon="lance", shield="full_shield", mount="warhorse",
                skills={"ride": 65})],
        [member(55, weapon="long_spear", shield=None, policy={"brace": True},
                situation={"slick": True, "position": "higher"})],
        distance=20),
    "net_and_trident_vs_runner": fight(
        [member(60, weapon="trident", shield=None, off_hand="net",
                skills={"off_hand": 55}, policy={"entangle": True})],
        [member(55, weapon="mace", shield=None, sidearm="dagger",
                policy={"break_off_at": 6, "break_off_by": "run"})],
        distance=6),
    "volleys_at_a_braced_shield_in_cover": fight(
        [member(75, weapon="sling", shield=None, characteristics={"CON": 4},
                policy={"volley": True}, situation={"position": "higher", "steep": True}),
         member(60, weapon="long_bow", shield=None, policy={"aim": 10, "small_part": True},
                sidearm="dagger")],
        [member(60, shield="large_shield", policy={"brace": True, "movement": "hold"},
                situation={"cover": "partial"}),
         member(55, weapon="heavy_crossbow", shield=None, policy={"movement": "close"},
                characteristics={"SIZ": 4})],
        distance=60, max_rounds=20),
    "underwater_and_tired": fight(
        [member(60, weapon="trident", shield="half_shield", characteristics={"CON": 5})],
        [member(60, weapon="broadsword", characteristics={"CON": 5},
                policy={"break_off_at": 3, "break_off_by": "dodge"})],
        situation={"underwater": True}, rules={"fatigue": True}, max_rounds=60),
    # the hand a parry is made with (policy parry_with): the sword, better than the shield
    "parry_hands": fight(
        [member(60, skills={"parry": 70, "shield": 25}, policy={"parry_with": "best"})],
        [member(60, skills={"parry": 70, "shield": 25})]),
    "improvised_and_fragile": fight(
        [member(60, weapon="improvised_club", shield=None, off_hand="knife",
                skills={"off_hand": 45}, policy={"riposte": False})],
        [member(60, weapon="whip", shield=None, sidearm="hand_axe",
                policy={"entangle": True, "movement": "keep_distance"})],
        rules={"major_wound_roll": 0, "critical_needs_critical": False,
               "broken_parry_passes_excess": False}, max_rounds=20),
    # Group fights: every target policy, yielding and breaking off at a major wound, a side
    # that breaks at half its number, a lone fighter facing one attacker (the rest strike
    # from the side).
    "groups_three_vs_two_policies": fight(
        [member(65, policy={"target": "spread"}),
         member(55, weapon="long_spear", shield=None, policy={"target": "weakest"}),
         member(50, weapon="short_sword", shield=None, off_hand="dagger",
                skills={"off_hand": 45},
                policy={"target": "dangerous", "yield_at": "major_wound"})],
        [member(75, armour="half_plate", policy={"target": "fixed", "targets": ["a.1", "a.2"]}),
         member(65, weapon="great_axe", shield=None,
                policy={"target": "random", "break_off_at": "major_wound"})],
        side_keys=({}, {"morale": {"breaks_at": 0.5}}), rules={"faces": 1}),
    # A crowd in cramped quarters: the limits bind (one waits, a great sword among swords),
    # a side-wide policy (nearest), a shooter spreading its arrows, yielding at hit points.
    "groups_crowd_in_cramped_quarters": fight(
        [member(45, count=5),
         member(45, weapon="self_bow", shield=None, sidearm="dagger",
                policy={"target": "spread"}),
         member(50, weapon="great_sword", shield=None, policy={"target": "first"})],
        [member(95, weapon="long_spear", shield=None, armour="half_plate",
                policy={"yield_at": 4}),
         member(90, armour="half_plate", policy={"target": "weakest"})],
        side_keys=({"policy": {"target": "nearest"}, "morale": {"breaks_at": 0.4}},),
        situation={"space": "cramped"}, distance=10),
    # Issue 14's rules: an ambush from hiding, a full-move charge, a disarm (the weapon
    # retrieved), a knockout (the knocked-out wake), breaking off by a knock-back,
    # partly destroyed armour (and criticals ruining more), a knife against a net, a
    # shooter backing off, a 130% swordsman, an armoured fighter losing its balance.
    "ambush_charge_disarm_knockout": fight(
        [member(130, characteristics={"STR": 16}, skills={"hide": 70},
                policy={"disarm": True}),
         member(70, weapon="lance", shield=None, mount="warhorse", skills={"ride": 60}),
         member(60, weapon="club", shield=None, policy={"knockout": True}, armour="none")],
        [member(65, armour="chainmail", armour_damaged=True, skills={"search": 40},
                policy={"break_off_at": 4, "break_off_by": "knockback"}),
         member(55, weapon="dagger", shield=None, characteristics={"CON": 3}),
         member(60, weapon="self_bow", shield=None, sidearm="dagger",
                policy={"movement": "keep_distance"}, situation={"slick": True})],
        side_keys=({"ambush": "hide"},), distance=14, max_rounds=40,
        rules={"critical_damages_armour": True, "fatigue": True}),
    # a net (and a knife to cut it), a giant's sweeping blow, a clumsy long weapon, a pounce
    "net_knife_and_giant": fight(
        [member(60, weapon="trident", shield=None, off_hand="net", skills={"off_hand": 65},
                policy={"entangle": True}, characteristics={"DEX": 16}),
         member(55, weapon="long_spear", shield=None),
         member(60, weapon="pouncing_stick", shield=None, sidearm="dagger",
                skills={"fly": 50}, policy={"pounce": True})],
        [member(70, weapon="dagger", shield=None, characteristics={"DEX": 7}),
         member(60, weapon="club", shield=None, giant="STR",
                characteristics={"STR": 30, "SIZ": 30, "CON": 20})],
        distance=2, max_rounds=30),
    # Poisoned blades and arrows (seed 004's POT against CON), a dose for each blow past
    # armour until they run out, the Resistance Table kept within 5-95%; with the table's
    # onsets: viper venom at once (patched to 0 rounds), spider bites after 2 rounds (doses
    # joining one already working), cyanide after 5.
    "poisoned_blades_and_arrows": fight(
        [member(60, weapon="short_spear", shield=None, poison="viper_venom", poison_doses=2),
         member(55, weapon="self_bow", shield=None, sidearm="dagger", poison="spider_bite",
                poison_doses=3)],
        [member(65, weapon="dagger", shield=None, poison="cyanide", poison_doses=4,
                characteristics={"CON": 15})],
        distance=8, max_rounds=30, rules={"poison_onset": "table"},
        tables={"resistance": {"standard": {"floor": 5, "ceiling": 95}},
                "poisons": {"viper_venom": {"onset_rounds": 0},
                            "spider_bite": {"onset_rounds": 2}}}),
    # Issue 26's rules: Basic Roleplaying's parry matrix (specials and impales only partly
    # parried, parrying weapons worn), a longer weapon holding off shorter ones as they
    # close and after, getting up by the round's defence or fighting from the ground, a
    # contested pick-up of a disarmed weapon, a runner's free blow dodged, the held unable
    # to resist (a net), falls that stun.
    "matrix_hold_off_ground_and_rearm": fight(
        [member(75, weapon="short_spear", skills={"shield": 80}, policy={"disarm": True},
                characteristics={"STR": 16}),
         member(60, weapon="long_spear", shield=None,
                policy={"when_down": "stand_and_fight"}, skills={"dodge": 45})],
        [member(65, skills={"shield": 85}, policy={"when_down": "fight_down"}),
         member(55, weapon="dagger", shield=None, situation={"slick": True},
                policy={"break_off_at": 5, "when_down": "stand_and_fight"})],
        distance=4, max_rounds=30,
        rules={"parry_matrix": "brp", "rearm_when_pressed": "contested"}),
    "a_net_leaves_the_held_unable_to_resist": fight(
        [member(60, weapon="trident", shield=None, off_hand="net", skills={"off_hand": 65},
                policy={"entangle": True})],
        [member(60, weapon="great_axe", shield=None, policy={"when_down": "fight_down"})],
        distance=2, max_rounds=30,
        rules={"unable_to_resist": ["exhausted", "surprised", "held"],
               "parry_matrix": "brp", "critical_needs_critical": False}),
}






@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_kernel_matches_reference(name: str) -> None:
    system, compiled = load(FIGHTS[name])
    n_fast, n_slow = (FAST, SLOW) if name in NAMED else (FAST_RULES, SLOW_RULES)
    fast = run_fight(system, compiled, n_fast, seed=1)
    slow = run_reference(system, compiled, n_slow, seed=2)
    p = pooled_p(fast.wins, slow.wins)
    assert p > ALPHA, differ(f"{name}: winner", fast.wins, slow.wins,
                             win_labels(compiled.side_names), p=p)
    p = pooled_p(fast.rounds, slow.rounds)
    assert p > ALPHA, differ(f"{name}: fight length", fast.rounds, slow.rounds,
                             round_labels(fast.rounds.size), p=p)
    for i, f in enumerate(compiled.fighters):
        p = pooled_p(fast.status[i], slow.status[i])
        assert p > ALPHA, differ(f"{name}: {f.name}'s final status", fast.status[i],
                                 slow.status[i], status_labels(f.name), p=p)


def test_every_optional_rule_is_exercised() -> None:
    """Between them the fights switch on every rule the kernel can skip."""
    used = set().union(*(load(spec)[1].uses for spec in FIGHTS.values()))
    assert used >= {"small_part", "volley", "extra_attack", "disarm", "knockback", "knockout",
                    "pull_blows", "entangle", "brace", "missiles", "mounts", "break_off",
                    "slick", "improvised", "fatigue", "distance", "groups", "dark",
                    "cramped", "underwater", "cover", "height", "two_weapons", "stun",
                    "flank", "morale", "yield", "ambush", "damaged_armour", "loose",
                    "giants", "pounce", "poison", "poison_onset", "parry_wear"}


def test_pooling_keeps_a_real_difference() -> None:
    assert pooled_p(np.array([5000, 5000]), np.array([400, 600])) < ALPHA
    assert pooled_p(np.array([5000, 5000, 1, 0]), np.array([500, 500, 0, 1])) > 0.01


@pytest.mark.parametrize(("reference", "kernel", "half", "most"), POWER)
def test_stated_power(reference: int, kernel: int, half: float, most: float) -> None:
    """The power the module docstring states is what ``detectable_shift`` gives."""
    assert_stated_power(__doc__, reference, kernel, half, most, ALPHA)
