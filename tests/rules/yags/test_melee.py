"""The detailed melee rules in the scalar reference, each shown acting with chosen dice.

A scripted stand-in for the Generator hands out the d20 results each test names, in order,
so every rule's arithmetic is checked exactly (and ``dice.done()`` proves no other roll was
made). Fighters are written by hand: a veteran's basic numbers, with one loadout changed.
"""

from __future__ import annotations

import pytest

from balance.engine.status import DEAD, STANDING, UNCONSCIOUS
from balance.rules.yags.compile import MountStats
from balance.rules.yags.reference.blows import apply_damage, blow, blow_type
from balance.rules.yags.reference.fight import declare, take_action
from balance.rules.yags.reference.moves import contest, land
from balance.rules.yags.reference.state import FighterState, MountState, helpless
from balance.rules.yags.reference.strikes import reach_bonus, resolve_attack
from balance.rules.yags.rules.equipment import BARE, MAIN
from balance.rules.yags.rules.tactics import (
    DISARM_FOE,
    GRAPPLE,
    IMPROVE_HOLD,
    IMPROVED,
    KNOCKDOWN,
    MASSIVE,
    OVERWHELM,
    VITAL,
    Tactics,
)
from balance.rules.yags.rules.tracks import (
    AGGRESSIVE,
    AUTOMATIC_STRIKE,
    BREAK,
    DEFENSIVE,
    DISARM,
    FAIL_DEFENCE,
    FATIGUE,
    FREE_STRIKE,
    INEFFECTIVE,
    MIXED,
    NO_DAMAGE,
    NO_STRIKE,
    STUNS,
    WOUNDS,
    merge_strikes,
    shift_type,
    size_shift,
    stance_mods,
    success_level,
)
from tests.rules.yags.cases import RULES, declared, fight, fight_of, veteran
from tests.rules.yags.scripted import ScriptedDice

# --- Tables ----------------------------------------------------------------------------------


def test_size_shifts() -> None:
    """Seed 000: 10 Size larger shifts damage one category down, 15 larger two; a great
    weapon counts +50% Size (a human's 5 becomes 7.5: no shift against a horse of 15)."""
    assert [size_shift(10, 2 * s) for s in (14, 15, 19, 20, 40)] == [0, 1, 1, 2, 2]
    assert [size_shift(2 * s, 10) for s in (14, 15, 20)] == [0, -1, -2]
    assert size_shift(15, 30) == 0
    assert shift_type(WOUNDS, 1) == MIXED and shift_type(STUNS, 1) == INEFFECTIVE
    assert shift_type(STUNS, 2) == NO_DAMAGE and shift_type(WOUNDS, -2) == WOUNDS
    assert blow_type(WOUNDS, light=True, heavy_suit=True, attacker_size2=10,
                     target_size=5) == MIXED      # light weapon on a heavy suit


def test_strikes_merge_and_are_ignored() -> None:
    assert [merge_strikes(f, 0) for f in (0, 1, 2, 3)] == [NO_STRIKE, FREE_STRIKE,
                                                         AUTOMATIC_STRIKE, AUTOMATIC_STRIKE]
    assert [merge_strikes(f, 1) for f in (0, 1, 2)] == [NO_STRIKE, NO_STRIKE, FREE_STRIKE]


def test_success_levels_and_chain_stances() -> None:
    assert [success_level(m, 10) for m in (0, 9, 10, 29, 30)] == [1, 1, 2, 3, 4]
    assert stance_mods(AGGRESSIVE, True) == (10, -10, 10)
    assert stance_mods(DEFENSIVE, True) == (-10, 10, 0)
    assert stance_mods(AGGRESSIVE, False) == (5, -10, 5)


def test_ineffective_damage_is_half_the_stuns() -> None:
    s = FighterState(0, veteran())
    apply_damage(s, 5, INEFFECTIVE, RULES, rng=ScriptedDice())
    assert s.stuns == 2
    apply_damage(s, 4, NO_DAMAGE, RULES, rng=ScriptedDice())
    assert (s.stuns, s.wounds) == (2, 0)


# --- Reach and strikes ---------------------------------------------------------------------------

KILLER = dict(attack=100, damage=300)
HELPLESS = dict(attack=0, defence=0, damage=0, health=0)


def test_a_longer_weapon_strikes_first_and_can_end_the_attack() -> None:
    """The dagger (reach 0) attacks the spear (reach 3): the spear's free strike comes first;
    it kills, so the dagger's attack is never rolled."""
    c = declared(veteran(0, gear={"reach": 0}, **HELPLESS), veteran(1, gear={"reach": 3},
                                                                   **KILLER))
    dagger, spear = c.fighters
    dice = ScriptedDice(10, 10, 10, 10, 5)   # spear attack, dagger defence, damage, soak, health
    take_action(dagger, c, 2, rng=dice)
    assert dice.done() and dagger.status == DEAD and spear.status == STANDING


def test_a_longer_attacker_ignores_the_counter_strike() -> None:
    """All-out attack (no defence) draws a counter strike, unless the weapon is longer."""
    for reach, strikes_back in ((3, False), (1, True)):
        c = declared(veteran(0, defences=0, gear={"reach": reach}, attack=0, damage=0),
                     veteran(1, gear={"reach": 1}, damage=0))
        attacker = c.fighters[0]
        # attack 2 against the defence: a miss; then the counter strike's attack roll
        dice = ScriptedDice(2, 10, *((10, 10, 10) if strikes_back else ()))
        take_action(attacker, c, 2, rng=dice)
        assert dice.done()


def test_grappling_an_armed_foe_draws_an_automatic_strike() -> None:
    """Two free strikes (the longer weapon, the grapple) merge into an automatic strike:
    rolled against the base difficulty, with no defence roll."""
    grappler = veteran(0, defence=100, gear={"reach": 0, "unarmed": True},
                       tactics=Tactics(manoeuvre=GRAPPLE))
    c = declared(grappler, veteran(1, gear={"reach": 3}, attack=0, damage=0))
    a = c.fighters[0]
    assert a.manoeuvre == GRAPPLE
    # strike: 15 against 15 hits (damage 0 + 1 against soak 18 + 20: nothing); then the
    # grapple: attack 1 (a fumble) and the defence roll
    dice = ScriptedDice(15, 1, 20, 1, 10)
    take_action(a, c, 2, rng=dice)
    assert dice.done() and a.partner is None


def test_unarmed_attack_well_parried_by_a_martial_weapon_draws_a_counter() -> None:
    c = declared(veteran(0, gear={"reach": 0, "unarmed": True}, damage=0),
                 veteran(1, gear={"reach": 0, "martial": True}, damage=0))
    a = c.fighters[0]
    # attack 5 + 15 = 20 against defence 15 + 15 = 30: parried by 10 (good): counter strike
    dice = ScriptedDice(5, 15, 10, 10, 10, 10)
    take_action(a, c, 2, rng=dice)
    assert dice.done()


def test_shield_gives_a_free_defence_against_its_target() -> None:
    """With a shield, all-out attack still defends its target: no counter strike; and two
    attackers cost one declared defence, not two."""
    c = declared(veteran(0, defences=0, gear={"shield": True}, damage=0), veteran(1, damage=0))
    a = c.fighters[0]
    assert a.defended == (1,) and a.defences == 0
    dice = ScriptedDice(2, 10)            # a miss; no counter strike follows
    take_action(a, c, 2, rng=dice)
    assert dice.done()
    c = declared(veteran(0, gear={"shield": True}), veteran(1), veteran(1))
    assert c.fighters[0].defences == 1 and c.fighters[0].defended == (1, 2)


def test_great_weapon_longshaft_and_closing_reach_bonuses() -> None:
    great = FighterState(0, veteran(gear={"reach": 3, "great": True}))
    short = FighterState(1, veteran(1, gear={"reach": 1}))
    great.defences = 2
    assert reach_bonus(great, short, False) == 5        # -10 halved
    assert reach_bonus(short, great, False) == 0
    pole = FighterState(0, veteran(stance=DEFENSIVE, gear={"reach": 3, "longshaft": True}))
    assert reach_bonus(pole, short, False) == 10        # no -10 for the defensive stance
    short.inside.add(0)                                 # rules.reach closing: got inside
    assert reach_bonus(pole, short, True) == 10 - 10


def test_chain_makes_shorter_weapons_fumble_on_two() -> None:
    a = FighterState(0, veteran(gear={"reach": 1}))
    t = FighterState(1, veteran(1, gear={"reach": 2, "chain": True}))
    dice = ScriptedDice(2, 10)
    assert not resolve_attack(a, t, True, fight_of(a, t), 2, rng=dice).hit
    assert a.fatigue == 1 and dice.done()




# --- Fumbles -------------------------------------------------------------------------------


@pytest.mark.parametrize(("prefs", "weak", "strong", "defending", "result"), [
    ((DISARM, FATIGUE), False, False, False, DISARM),
    ((BREAK, FATIGUE), False, False, False, FATIGUE),    # only weak weapons break attacking
    ((BREAK, FATIGUE), True, False, False, BREAK),
    ((BREAK, FATIGUE), False, True, True, FATIGUE),      # strong weapons never break
    ((BREAK, FATIGUE), False, False, True, BREAK),
    ((FAIL_DEFENCE, FATIGUE), False, False, False, FATIGUE),
])
def test_fumble_choices(prefs, weak, strong, defending, result) -> None:
    from balance.rules.yags.rules.tactics import fumble_choice

    assert fumble_choice(prefs, defending=defending, losable=True, weak=weak,
                         strong=strong) == result


def test_a_more_skilled_foe_disarms_a_fumbler() -> None:
    gear = {"losable": True, "skill": 3}
    a = FighterState(0, veteran(gear=gear))
    t = FighterState(1, veteran(1, gear={"skill": 6}, tactics=Tactics()))
    dice = ScriptedDice(1, 10)
    resolve_attack(a, t, True, fight_of(a, t), 2, rng=dice)
    assert (a.weapons, a.main_down, a.fatigue) == (BARE, True, 0)


# --- Manoeuvres -----------------------------------------------------------------------------------


def test_improved_damage_needs_an_excellent_success() -> None:
    a = FighterState(0, veteran(stance=AGGRESSIVE, attack=20))
    t = FighterState(1, veteran(1, defence=20))
    # 25 + 14 = 39 against 20 + 5 = 25: good (14), not excellent: the attack fails entirely
    dice = ScriptedDice(14, 5)
    assert not resolve_attack(a, t, True, fight_of(a, t), 2, rng=dice,
                              manoeuvre=IMPROVED).hit
    assert t.wounds == 0 and a.fatigue == 0
    # by 20: excellent; +5 damage, and a point of fatigue
    dice = ScriptedDice(20, 5, 10, 10)   # damage 23 + 5 + 10 = 38, soak 28: 3 wounds
    assert resolve_attack(a, t, True, fight_of(a, t), 2, rng=dice, manoeuvre=IMPROVED).hit
    assert (t.wounds, a.fatigue) == (3, 1)


def test_massive_damage_adds_ten() -> None:
    a, t = FighterState(0, veteran()), FighterState(1, veteran(1))
    c = fight_of(a, t)
    land(a, t, MASSIVE, 4, 0, c, 2, rng=ScriptedDice(10, 10))   # 18 + 10 + 10 vs 28: 3
    assert t.wounds == 3 and a.fatigue == 1


def test_overwhelm_lowers_the_foes_rolls_this_round() -> None:
    a, t = FighterState(0, veteran()), FighterState(1, veteran(1))
    land(a, t, OVERWHELM, 3, 0, fight_of(a, t), 2, rng=ScriptedDice())
    assert t.round_mod == -15 and t.wounds == 0


def test_knockdown_is_stun_damage_and_puts_the_foe_down() -> None:
    a = FighterState(0, veteran(gear={"crushing": True}))
    t = FighterState(1, veteran(1))
    c = fight_of(a, t)
    # damage roll 18 + 12 = 30, +5 crushing = 35 > strength 3 x 10: prone; 30 vs 28: 1 stun
    blow(a, t, KNOCKDOWN, 0, c, rng=ScriptedDice(12, 10))
    assert t.prone and (t.stuns, t.wounds) == (1, 0)
    a2 = FighterState(0, veteran())
    t2 = FighterState(1, veteran(1))
    blow(a2, t2, KNOCKDOWN, 0, fight_of(a2, t2), rng=ScriptedDice(12, 10))
    assert not t2.prone                                  # 30 is not above 30


def test_vital_strike_fells_on_a_failed_check() -> None:
    a, t = FighterState(0, veteran()), FighterState(1, veteran(1, size=5))
    # 18 + 10 vs 18 + 10: one wound; health 3 x Size 5 + 9 = 24 < 25: falls fatally
    # wounded, and checks as for any fatal wound: 12 + 10 = 22 >= 20, unconscious
    blow(a, t, VITAL, 0, fight_of(a, t), rng=ScriptedDice(10, 10, 9, 10))
    assert (t.wounds, t.status, t.prone) == (6, UNCONSCIOUS, True)
    a, t = FighterState(0, veteran()), FighterState(1, veteran(1))
    blow(a, t, VITAL, 0, fight_of(a, t), rng=ScriptedDice(10, 10, 10))
    assert (t.wounds, t.status) == (1, STANDING)


def test_disarm_and_a_superb_grab() -> None:
    a = FighterState(0, veteran(gear={"free_hand": True}))
    t = FighterState(1, veteran(1, gear={"losable": True}))
    land(a, t, DISARM_FOE, 3, 0, fight_of(a, t), 2, rng=ScriptedDice())
    assert (t.weapons, t.main_down) == (BARE, True)
    t = FighterState(1, veteran(1, gear={"losable": True}))
    land(a, t, DISARM_FOE, 4, 0, fight_of(a, t), 2, rng=ScriptedDice())
    assert (t.weapons, t.main_down) == (BARE, False)    # grabbed: it cannot be picked up


# --- Grappling ------------------------------------------------------------------------------------


def test_grapple_hold_penalties_and_helplessness() -> None:
    strong = veteran(strength=5, brawl=5, tactics=Tactics(neck=True))
    a, t = FighterState(0, strong), FighterState(1, veteran(1, brawl=3, gear={"skill": 3}))
    c = fight_of(a, t)
    # contest 25 + 15 = 40 against 9 + 11 = 20: won by 20, 3 levels: held at -3 on the neck
    land(a, t, GRAPPLE, 3, 0, c, 2, rng=ScriptedDice(15, 11))
    assert (a.partner, t.partner, a.holding, t.hold, t.neck, t.lost_round) == (1, 0, True, 3,
                                                                               True, 2)
    assert helpless(t)                                   # 3 >= strength 3
    land(a, t, IMPROVE_HOLD, 3, 0, c, 3, rng=ScriptedDice())
    assert t.hold == 5


def test_contests_of_strength_and_brawl() -> None:
    a, t = FighterState(0, veteran(strength=4, brawl=3)), FighterState(1, veteran(1, brawl=3))
    c = fight_of(a, t)
    assert contest(a, t, c, rng=ScriptedDice(10, 13)) == 1       # 22 against 22: a wins
    assert contest(a, t, c, rng=ScriptedDice(10, 14)) == 0
    assert contest(a, t, c, rng=ScriptedDice(10, 14), a_strength=5) == 1


# --- Mounts --------------------------------------------------------------------------------


def test_mounted_charge_adds_the_mounts_strength_and_a_stun_per_wound() -> None:
    horse = MountStats(size=15, strength=7, health=5, soak_vs=(20,) * 8, heavy_suit=False,
                       saddle=True, warhorse=True)
    a = FighterState(0, veteran(mount=horse))
    a.mount, a.mounted, a.charging = MountState(horse), True, True
    t = FighterState(1, veteran(1))
    blow(a, t, 0, 0, fight_of(a, t), rng=ScriptedDice(10, 10))   # 18 + 7 + 10 vs 28: 2
    assert (t.wounds, t.stuns) == (2, 2)


def test_attacks_at_the_mount_hit_the_mount_and_its_size() -> None:
    horse = MountStats(size=15, strength=7, health=5, soak_vs=(20,) * 8, heavy_suit=False,
                       saddle=True, warhorse=True)
    rider = FighterState(1, veteran(1, mount=horse))
    rider.mount, rider.mounted = MountState(horse), True
    a = FighterState(0, veteran())
    a.at_mount = True
    blow(a, rider, 0, 0, fight_of(a, rider), rng=ScriptedDice(20, 1))   # 38 vs 21: 4 levels
    assert (rider.wounds, rider.mount.wounds, rider.mount.stuns) == (0, 2, 2)  # mixed: size


def test_riding_checks_lose_the_attack_and_can_unseat() -> None:
    horse = MountStats(size=15, strength=6, health=5, soak_vs=(20,) * 8, heavy_suit=False,
                       saddle=True, warhorse=False)
    rider = veteran(0, mount=horse, riding=1, agility=3)
    combat = fight(rider, veteran(1))
    combat.fighters[0].mount, combat.fighters[0].mounted = MountState(horse), True
    for i, s in enumerate(combat.fighters):
        s.initiative, s.tiebreak = 20 - i, i
    # riding 3 x 1 + 11 = 14 < 15: loses its attack; again 14: falls
    declare(combat, 2, rng=ScriptedDice(11, 11))
    r = combat.fighters[0]
    assert (r.action, r.mounted, r.prone) == (0, False, True)


def test_loadout_index_follows_hands_and_grapples() -> None:
    f = veteran(gear={"reach": 2})
    s = FighterState(0, f)
    assert s.gear is f.gear[MAIN]
