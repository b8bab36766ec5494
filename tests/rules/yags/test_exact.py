"""Hand-derived exact probabilities for the Yags rules issue 12 changed, against the kernel.

Kernel-vs-reference agreement shares one reading of the seed, so it cannot catch a
misreading. Each test here is a fight small enough to work out by hand: one round of the
vectorised kernel (played as round 2, so no fumbled initiative loses it) over 200,000
trials, with the derivation in the docstring, checked within 4 standard errors. Fighters are
hand-written rows: d20 rolls against fixed numbers, damage 1,000 where a hit must fell the
target (no soak stops it, and the fatal-wound check at 20 + 5 x ~190 always fails), attack
-100 where a fighter must never hit. Initiative 100 against 0 fixes who acts first. Seed 000
is quoted beside each rule in tests/rules/yags/test_seed.py and docs/rules/yags.md.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from balance.engine.distance import HOLD
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.engine.targeting import FIXED
from balance.rules.yags.compile import (
    FOLLOW,
    FULL_DEFENCE,
    HALF_DEFENCE,
    HOLD_GROUND,
    NO_DEFENCE,
    STEP_BACK,
    YagsFight,
    YagsRules,
)
from balance.rules.yags.kernel import fight as kernel
from balance.rules.yags.kernel.gear import sync_penalty
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.rules.tactics import BEST, OVERWHELM, WORST, Tactics
from balance.rules.yags.rules.tracks import (
    AGGRESSIVE,
    BREAK,
    DEFENSIVE,
    DISARM,
    FAIL_DEFENCE,
    FATIGUE,
    NORMAL,
    STUNS,
)
from tests.rules.yags.cases import FISTS, holding, shooter, veteran

N = 200_000
SIGMAS = 4
DEFAULT_RULES = YagsRules()


def one_round(fight: YagsFight, seed: int, *, inside: bool = False,
              wounds: dict[int, int] | None = None):
    """Seat ``N`` trials and play one round (as round 2); optionally fighter 0 starts inside
    fighter 1's reach, and fighters start with ``wounds`` (by fighter). Returns the state
    with its (c, n) arrays in place order (``by_fighter`` reorders them)."""
    rng = np.random.default_rng(seed)
    state = kernel.start(fight, N, rng)
    if inside:
        p0, p1 = np.argmax(state.who == 0, axis=0), np.argmax(state.who == 1, axis=0)
        state.inside[p0, p1, np.arange(N)] = True
    for f, level in (wounds or {}).items():
        state.wounds[state.who == f] = level
        sync_penalty(state, static_of(fight), None)
    kernel.play_round(fight, state, rng, 2)
    return state


def by_fighter(state, arr: np.ndarray) -> np.ndarray:
    """A (c, n) place array in fighter order."""
    out = np.empty_like(arr)
    np.put_along_axis(out, state.who.astype(np.intp), arr, axis=0)
    return out


def assert_close(observed: np.ndarray, p: float) -> None:
    """The share of True in ``observed`` is within SIGMAS standard errors of ``p``."""
    se = np.sqrt(p * (1 - p) / observed.size)
    assert abs(observed.mean() - p) <= SIGMAS * max(se, 1 / observed.size), \
        (observed.mean(), p)


def fight_of(*fighters, rules: YagsRules = DEFAULT_RULES, distance: float = 0.0) -> YagsFight:
    return YagsFight(tuple(fighters), ("s0", "s1"), rules, 5,
                     side_distance=(0.0, distance) if distance else ())


def armed(side: int, reach: int, **changes):
    """A hand-written fighter with a weapon of ``reach`` (its only loadout)."""
    return veteran(side, gear={"reach": reach}, **changes)


# --- Reach --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("closing", "p_down"), [(True, 1 - 0.2 * 0.7 * 0.7),
                                                 (False, 1 - 0.2 ** 3)])
def test_reach_free_strike_on_closing_then_minus_ten_inside(closing: bool, p_down: float):
    """A (reach 1, first, never hits, declares no defence) attacks B (reach 3, attack 10,
    damage 1,000), who strikes at the base difficulty 15: a hit needs d20 >= 5 (and not the
    natural 1): p = 16/20 = 0.8; at -10, d20 >= 15: q = 6/20 = 0.3.

    rules.reach closing: B's free strike as A closes (p), then A is inside: B's counter
    strike (A declared no defence) and B's own attack are at -5 x 2 excess levels (q each).
    P(A down) = 1 - (1 - 0.8)(1 - 0.3)^2 = 0.902. every_attack: no -10, all three at p:
    1 - 0.2^3 = 0.992. (rules.fatigue_penalty 0: B's fumbles change nothing.)"""
    a = armed(0, 1, attack=-100, defences=0, initiative=100)
    b = armed(1, 3, attack=10, damage=1000, initiative=0)
    rules = YagsRules(reach_closing=closing, fatigue_penalty=0)
    state = one_round(fight_of(a, b, rules=rules), seed=1)
    assert_close(by_fighter(state, state.status)[0] != STANDING, p_down)


@pytest.mark.parametrize(("step_back", "p_down"), [(True, 21 / 400), (False, 209 / 400)])
def test_a_longer_weapon_steps_back_from_a_foe_inside(step_back: bool, p_down: float):
    """A (reach 1, attack 15, first) is inside B's reach (3) at the start of the round.

    step_back: B gives ground (a retreat): no attack, defence 15 + 5 (defensive) + 3 x 3
    metres (agility 3) = 29 + d2 against A's 15 + d1: hits when d1 - d2 >= 14 (d1 >= 15;
    a fumbled defence still stands): 1 + 2 + ... + 6 = 21 of 400 pairs. And B is no longer
    in the fight's pair: at the end of the round A is outside its reach again.
    Holding (step_back false): B's defence 15 + d2: d1 >= d2 and d1 != 1: 2 + ... + 20 = 209
    of 400."""
    a = armed(0, 1, attack=15, damage=1000, initiative=100)
    b = armed(1, 3, attack=-100, initiative=0, tactics=Tactics(step_back=step_back))
    state = one_round(fight_of(a, b, rules=YagsRules(fatigue_penalty=0)), seed=2, inside=True)
    status = by_fighter(state, state.status)
    assert_close(status[1] != STANDING, p_down)
    assert (status[0] == STANDING).all()               # B never hits back
    assert state.inside.any() != step_back            # stepping back opened the distance


# --- Stuns into wounds --------------------------------------------------------------------------


@pytest.mark.parametrize(("stun_wounds", "fate"), [(True, DEAD), (False, UNCONSCIOUS)])
def test_stuns_beyond_beaten_wound_and_kill(stun_wounds: bool, fate: int):
    """A's stun blow (damage 100 against soak 0: 1 + (81..119) // 5 = 17-24 stuns) on B.

    rules.excess_stuns wounds: the stuns beyond 6 are 11-18 wounds: fatal, checked at 20 + 5
    x (11 - 6) = 45 or more, which health 3 (12 + d20) never makes: dead. none: the stun
    track stops at 6 and the beaten check at 20 + 5 x 11 fails: unconscious.
    P(hit): A first, attack 0 + d1 against B's defence -100 + d2: every roll but the natural
    1: 19/20."""
    a = veteran(0, attack=0, damage=100, damage_type=STUNS, initiative=100)
    b = veteran(1, attack=-100, defence=-100, soak=0, initiative=0)
    state = one_round(fight_of(a, b, rules=YagsRules(stun_wounds=stun_wounds)), seed=3)
    assert_close(by_fighter(state, state.status)[1] == fate, 19 / 20)


# --- Crushing and knockback ---------------------------------------------------------------------


@pytest.mark.parametrize(("crushing", "levels"), [
    # d3 needed for 1, 2, 3 stuns: damage 20 + d3 (+5) > 30, + 5 per level
    (True, {1: 5 / 20, 2: 5 / 20, 3: 5 / 20}),     # 25 + d3 >= 31, 36, 41: d3 6-10, 11-15, 16-20
    (False, {1: 5 / 20, 2: 5 / 20, 3: 0.0})])     # 20 + d3 >= 31, 36: d3 11-15, 16-20
def test_knockback_stuns_a_foe_the_armour_saved(crushing: bool, levels: dict[int, float]):
    """A hits B (attack 0 against defence -100: 19/20) for damage 20 + d3 against soak
    1,000 + d4: never through. Knockback: the damage roll, +5 crushing, greater than B's
    strength 3 x 10 = 30 is a stun, and one more per 5 points: P(k stuns) = 19/20 x the
    share of d3 above; B (attack -100) never hits back."""
    a = veteran(0, attack=0, damage=20, initiative=100, gear={"crushing": crushing})
    b = veteran(1, attack=-100, defence=-100, soak=1000, strength=3, initiative=0)
    state = one_round(fight_of(a, b), seed=4 + crushing)
    stuns = by_fighter(state, state.stuns)[1]
    for k, share in levels.items():
        assert_close(stuns == k, 19 / 20 * share)
    assert_close(stuns == 0, 1 - 19 / 20 * sum(levels.values()))


# --- Fatigue ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("per_level", "p_hit"), [(None, 120 / 400), (5, 55 / 400)])
def test_fatigue_costs_the_wound_tracks_penalty(per_level: int | None, p_hit: float):
    """A (first, attack 15, fatigue 2) against B's defence 15 + d2; A's hit fells B.

    rules.fatigue_penalty track: level 2 costs -5 (as two wounds do): hits when d1 - d2 >= 5
    and d1 != 1: 1 + 2 + ... + 15 = 120 of 400. The old -5 a level: -10, d1 - d2 >= 10:
    1 + ... + 10 = 55 of 400."""
    a = veteran(0, attack=15, damage=1000, fatigue=2, initiative=100)
    b = veteran(1, attack=-100, defence=15, initiative=0)
    state = one_round(fight_of(a, b, rules=YagsRules(fatigue_penalty=per_level)), seed=6)
    assert_close(by_fighter(state, state.status)[1] != STANDING, p_hit)


def test_an_exhausted_fighter_rests_before_its_foe_strikes():
    """A (first, fatigue 3, exhausted at 4, declares no defence, never hits) attacks B (attack
    10, damage 1,000). A's natural 1 (1/20) is its fourth level: it rests at once, before
    B's counter strike. Otherwise B's counter strike and B's attack, each at the base
    difficulty 15 (d20 >= 5: 0.8), fell it: P(A dead) = 19/20 x (1 - 0.2^2) = 0.912, and
    P(A yielded) = 1/20. (Resting at the end of the round would leave it to take both.)"""
    a = veteran(0, attack=-100, defences=0, fatigue=3, exhausted_at=4, initiative=100)
    b = veteran(1, attack=10, damage=1000, initiative=0)
    state = one_round(fight_of(a, b), seed=7)
    status = by_fighter(state, state.status)[0]
    assert_close(status == DEAD, 0.95 * 0.96)
    assert_close(status == YIELDED, 0.05)


# --- Missiles -----------------------------------------------------------------------------------




@pytest.mark.parametrize(("mode", "firearm", "p_hit"), [
    (HALF_DEFENCE, False, 209 / 400),   # half of 30: 15 + d2
    (FULL_DEFENCE, False, 29 / 400),    # 30 + d2
    (NO_DEFENCE, False, 19 / 20),       # difficulty 15 only
    (HALF_DEFENCE, True, 19 / 20)])     # no defence against a firearm
def test_a_shot_meets_half_the_targets_defence(mode: int, firearm: bool, p_hit: float):
    """A shoots B (defence 30, holding 10 m off, out of every threat band) once: 15 + d1
    must beat the higher of the distance difficulty 15 and B's defence roll; B's fumbled
    defence (d2 = 1) is no defence; A's natural 1 misses.

    half: 15 + d2 (at least 16, above 15): d1 >= d2 >= 2 and d1 >= 2: 1 + ... + 19 = 190
    pairs, plus the 19 with d2 = 1: 209/400. full: 30 + d2: d1 - d2 >= 15 with d2 >= 2: 1 +
    2 + 3 + 4 = 10 pairs, + 19: 29/400. none, or a firearm under half: d1 >= 2: 19/20."""
    b = dataclasses.replace(veteran(1, attack=-100, defence=30, initiative=0), movement=HOLD)
    rules = YagsRules(missile_defence=mode)
    state = one_round(fight_of(shooter(firearm), b, rules=rules, distance=10.0), seed=8)
    assert_close(by_fighter(state, state.status)[1] != STANDING, p_hit)


# --- Fumbles: who chooses, and what (issue 25) --------------------------------------------------




def weapon_state(state, place_row: int):
    """(broken, dropped) per trial for fighter ``place_row``: bare with the weapon gone for
    good, or bare with it on the ground."""
    x = by_fighter(state, state.x("weapons"))[place_row]
    down = by_fighter(state, state.x("main_down"))[place_row]
    return (x == 2) & (down == 0), (x == 2) & (down == 1)


SWORD = {"losable": True, "weak": False, "strong": False}


@pytest.mark.parametrize(("foe_fumbles", "p_broken", "p_dropped"), [
    ((WORST,), 1 / 20, 19 / 20 * 1 / 20),
    ((FAIL_DEFENCE, BREAK, DISARM, FATIGUE), 0.0, 1 / 20)])
def test_the_more_skilled_picks_the_worst_fumble_for_the_fumbler(foe_fumbles, p_broken,
                                                                 p_dropped):
    """Seed 000: "You get to choose the fumble result unless your opponent has a higher skill,
    in which case they choose." A (skill 5, first, never hits) attacks B (skill 4, a sword
    neither weak nor strong, never hits); nobody is hurt, so only the fumbles act.

    The default, the result worst for B (tactics.fumble_harm_order): B's fumbled defence
    (d2 = 1: 1/20) breaks its sword ("only if it is not strong"); B's fumbled attack with the
    sword still in hand (19/20 x 1/20) drops it ("You lose your weapon"; it cannot break: "only
    if it is weak"). The old order [fail_defence, break, disarm, fatigue]: a fumbled defence
    fails (nothing breaks), a fumbled attack drops the sword: 1/20 (a broken sword's fists
    cannot be dropped)."""
    a = holding(0, skill=5, attack=-100, initiative=100,
                tactics=Tactics(foe_fumbles=foe_fumbles))
    b = holding(1, main=SWORD, skill=4, attack=-100, initiative=0)
    state = one_round(fight_of(a, b), seed=11)
    broken, dropped = weapon_state(state, 1)
    assert_close(broken, p_broken)
    assert_close(dropped, p_dropped)
    assert (by_fighter(state, state.status) == STANDING).all()


def test_the_worst_fumble_for_one_about_to_be_exhausted_is_fatigue():
    """Seed 000: "If a character becomes Exhausted then they must immediately rest". B (fatigue
    3, exhausted at 4, a sword) fumbles its defence against A (skill 5, more skilled): the
    worst result for B is the fatigue that exhausts it (it rests at once, out of the fight),
    not the broken sword: P(B yielded) = 1/20, and its sword never breaks. B's own attack
    fumble (19/20 x 1/20) is chosen by A too: fatigue again (B rests). So P(yielded) =
    1/20 + 19/20 x 1/20, and nothing is ever lost."""
    a = holding(0, skill=5, attack=-100, initiative=100)
    b = holding(1, main=SWORD, skill=4, attack=-100, initiative=0, fatigue=3, exhausted_at=4)
    state = one_round(fight_of(a, b), seed=12)
    assert_close(by_fighter(state, state.status)[1] == YIELDED, 1 / 20 + 19 / 400)
    broken, dropped = weapon_state(state, 1)
    assert not (broken | dropped).any()


@pytest.mark.parametrize(("own", "b_defence", "a_attack", "p_dead"), [
    # worst (A chooses): the failed defence lets through what the parry stopped
    (None, 100, 15, 1 / 20 * 19 / 20),
    # best (B chooses, equal skill): failing a parry below the base difficulty turns hits into
    # misses; the attack then needs d1 >= 15
    ((BEST,), -100, 0, 19 / 20 * 19 / 20 + 1 / 20 * 6 / 20),
    # the default own choice, fatigue: the parry below the base difficulty stands
    (None, -100, 0, 19 / 20)])
def test_fail_defence_is_chosen_by_what_it_does(own, b_defence, a_attack, p_dead):
    """Seed 000, Fumbling a defence: "4. Fail defence, use base difficulty only". A (first,
    damage 1,000) attacks B (natural weapons, nothing to lose); B never hits back.

    A more skilled (skill 5 against 4), B's parry 100 + d2: A's 15 + d1 never beats it, but
    beats the base difficulty 15 whenever d1 != 1. A picks the worst for B: on B's fumbled
    defence (1/20) "fail defence" (tactics.defence_fail_effect +1): 1/20 x 19/20 dead. Equal
    skill, B's parry -100 + d2, A's d1 (attack 0): every roll but the natural 1 beats the
    parry, only d1 >= 15 the base difficulty. B choosing its best (``best``) takes "fail
    defence" on its fumbled defence (effect -1 or 0): dead with d1 >= 15 (6/20); otherwise
    19/20. B taking the fatigue (the default ``[fatigue]``): 19/20 whatever it rolls."""
    a = holding(0, skill=5 if own is None and b_defence > 0 else 4, attack=a_attack,
                damage=1000, initiative=100)
    b_tactics = Tactics() if own is None else Tactics(own_fumbles=own)
    b = holding(1, skill=4, defence=b_defence, attack=-100, initiative=0, tactics=b_tactics)
    state = one_round(fight_of(a, b), seed=13)
    assert_close(by_fighter(state, state.status)[1] != STANDING, p_dead)


# --- Counter strikes read the hands as they were when the attack was made (issue 25) ---------




@pytest.mark.parametrize(("case", "p_down"), [
    ("attacker_fumbles_its_sword_away", 0.0),          # before issue 25: 1/20 x 19/20
    ("defender_fumbles_its_sword_away", 19 / 20)])     # before issue 25: (19/20)^2
def test_a_counter_strike_reads_the_hands_of_the_attack(case: str, p_down: float):
    """Seed 000, Unarmed attack: "When making an unarmed attack against someone who is
    defending with martial weapons, the attacker risks being harmed. If the defender makes a
    successful defence, then they get an immediate counter strike"; Counter Strikes: "If you
    have a martial weapon, and your attacker does not, you gain a counter strike if you make
    a good defence". Driven through the vector kernel.

    A (first) attacks B; B's parry 55 - 10 (two attackers) + d2 beats A's 15 + d1 by a good
    success (10) whatever the dice, and B's counter strike (attack 0 against A's parry -100:
    every roll but the natural 1) kills A (damage 1,000): 19/20. B attacks C; C (side of A,
    skill 0, attack -100) attacks B and never hurts anyone; A's spare defence covers B, so no
    counter strike for an undefended attack. Only the unarmed counter strike can fell A.

    The attacker fumbles its sword away: A (a martial sword, skill 3) fumbles (d1 = 1: 1/20)
    and B (skill 5) picks the worst result for it, the sword dropped: A is bare, but it
    attacked with a sword: no counter strike, A never falls (it fell 1/20 x 19/20 when the
    hands were read after the attack). The defender fumbles its sword away: A (fists, skill 5)
    attacks B (a martial sword, skill 3); B's fumbled parry (d2 = 1) still stands and A picks
    the worst result for B, the sword broken; B parried with it: the counter strike comes in
    every trial, with its fists when the sword broke: 19/20 (it was (19/20)^2, the broken
    sword's trials losing it). (Every weapon here has the same reach: no reach rule acts.)"""
    sword = {"losable": True, "weak": False, "strong": False}
    if case == "attacker_fumbles_its_sword_away":
        a = holding(0, main=sword, bare=FISTS, skill=3, attack=15, defence=-100,
                    initiative=100)
        b = holding(1, main=sword, bare=FISTS, skill=5, attack=0, defence=55, damage=1000,
                    initiative=50)
    else:
        a = holding(0, main=FISTS, skill=5, attack=15, defence=-100, initiative=100)
        b = holding(1, main=sword, bare={**FISTS, "attack": 0}, skill=3, attack=0, defence=55,
                    damage=1000, initiative=50)
    c = holding(0, skill=0, attack=-100, damage=0, initiative=0)
    a, b, c = (dataclasses.replace(f, target=FIXED, priority=p)
               for f, p in ((a, (9, 0, 9)), (b, (9, 9, 0)), (c, (9, 0, 9))))
    state = one_round(fight_of(a, b, c), seed=14)
    down = by_fighter(state, state.status)[0] != STANDING
    if p_down == 0.0:
        assert not down.any()
        assert_close(weapon_state(state, 0)[1], 1 / 20)     # the fumbled swords were dropped
    else:
        assert_close(down, p_down)
        assert_close(weapon_state(state, 1)[0], 1 / 20)     # ... and broken


# --- Missile fumbles (issue 25) ----------------------------------------------------------------


@pytest.mark.parametrize(("case", "p_dropped", "p_broken", "p_tired"), [
    ("target_more_skilled", 1 / 20, 0.0, 0.0),
    ("target_more_skilled_weak_bow", 0.0, 1 / 20, 0.0),
    ("target_more_skilled_thrown", 0.0, 0.0, 1 / 20),
    ("shooter_more_skilled", 0.0, 0.0, 1 / 20),
    ("rules_miss", 0.0, 0.0, 0.0)])
def test_a_fumbled_shot_has_the_results_that_make_sense_for_a_shot(case, p_dropped, p_broken,
                                                                   p_tired):
    """Seed 000: "When making an attack or defence roll, if you roll a natural '1', then a
    fumble occurs ... You get to choose the fumble result unless your opponent has a higher
    skill"; "A fumbled attack roll is always an automatic miss ... 1. You gain a point of
    fatigue. 2. You lose your weapon ... 3. Your primary weapon breaks, but only if it is
    weak". A (bow skill 3, or 5) shoots once at B (skill 4, 10 m off, holding): the natural 1
    (1/20) is the fumble. B more skilled picks the worst for A: the bow dropped (a round to
    pick it up), a weak bow broken; a thrown weapon has left the hand, so only the fatigue
    is left. A more skilled takes the fatigue (its default). rules.missile_fumbles miss: the
    natural 1 only misses (the lab before issue 25)."""
    skill = 5 if case == "shooter_more_skilled" else 3
    gun = dataclasses.replace(shooter().missile, skill=skill, weak=case.endswith("weak_bow"),
                              thrown=case.endswith("thrown"), damage=-100)
    a = dataclasses.replace(shooter(), missile=gun)
    b = dataclasses.replace(veteran(1, attack=-100, defence=-100, initiative=0), movement=HOLD)
    rules = YagsRules(missile_fumbles=case != "rules_miss")
    state = one_round(fight_of(a, b, rules=rules, distance=10.0), seed=15)
    shots = by_fighter(state, state.x("g_shots"))[0]
    ammo = by_fighter(state, state.x("g_ammo"))[0]
    assert_close(by_fighter(state, state.x("g_down"))[0] == 1, p_dropped)
    assert_close((shots == 0) & (ammo == 0), p_broken)
    assert_close(by_fighter(state, state.fatigue)[0] == 1, p_tired)


# --- How a longer weapon regains its reach: three readings (issue 25) ----------------------------


@pytest.mark.parametrize(("regain", "retreats", "p_down", "inside_after"), [
    (STEP_BACK, False, 21 / 400, False),   # it steps back: the distance reopens
    (HOLD_GROUND, False, 209 / 400, True),  # it holds at -5 a level: A stays inside
    (FOLLOW, False, 209 / 400, True),      # stepping back would gain nothing: it holds
    (FOLLOW, True, 21 / 400, True),        # it retreats (retreat_at), A follows: still inside
    (HOLD_GROUND, True, 21 / 400, False)])  # a retreat reopens the distance
def test_three_readings_of_regaining_reach(regain: int, retreats: bool, p_down: float,
                                           inside_after: bool):
    """The seed says how a foe gets inside a longer weapon's reach, not how the longer
    weapon gets its distance back; Retreat: "If you use the defensive stance, and give
    ground to your attacker, you can gain a bonus to your defense rolls ... each metre gives a
    +3 bonus ... However, you may not make any attacks that turn."

    A (reach 1, attack 15, first) is inside B's reach (3). B giving ground (a step back, or
    a retreat by retreat_at) defends at 15 + 5 (defensive) + 3 x 3 metres = 29 + d2 against
    A's 15 + d1: 21/400; B holding: 15 + d2: 209/400 (tests above). step_back: B steps back
    and A is outside again at the end of the round; hold: B never steps back (but a
    retreat reopens the distance); follow: B does not step back (A would follow), and when it
    retreats A, attacking it, follows and stays inside."""
    tactics = Tactics(step_back=True, retreat_at=0 if retreats else 99)
    a = armed(0, 1, attack=15, damage=1000, initiative=100)
    b = armed(1, 3, attack=-100, initiative=0, tactics=tactics)
    rules = YagsRules(fatigue_penalty=0, regain_reach=regain)
    state = one_round(fight_of(a, b, rules=rules), seed=16, inside=True)
    assert_close(by_fighter(state, state.status)[1] != STANDING, p_down)
    assert state.inside.any(axis=(0, 1)).all() == inside_after
    assert state.inside.any() == inside_after


# --- Stances: speed, the extra defence, and a stance each round (issue 25) ----------------------


@pytest.mark.parametrize(("stance", "p_first_down"), [
    (AGGRESSIVE, 1 / 20 * 19 / 20),     # fast: it strikes first despite initiative 0
    (NORMAL, 19 / 20),                  # normal: the foe's initiative 100 strikes first
    (DEFENSIVE, 19 / 20)])              # slow
def test_the_aggressive_stance_is_fast_and_the_defensive_slow(stance, p_first_down):
    """Seed 000, Stance: aggressive: "All attacks are fast"; defensive: "actions are
    considered to be slow"; Performing Actions: "First, everyone who has a fast action will
    act (in initiative order), then all normal actions and finally all slow actions."

    A (initiative 0, the stance under test) and B (initiative 100, normal) each hit the other
    at will (attack 100 against defence -100: every roll but the natural 1) and kill (damage
    1,000). Fast, A strikes first: A falls only if its attack missed (1/20) and B's hit
    (19/20). Normal or slow, B strikes first: A falls with 19/20."""
    killer = {"attack": 100, "defence": -100, "damage": 1000}
    a = veteran(0, stance=stance, initiative=0, **killer)
    b = veteran(1, initiative=100, **killer)
    if stance == DEFENSIVE:   # (its +5 defence and -10 attack change nothing here)
        a = dataclasses.replace(a, max_defences=4)
    state = one_round(fight_of(a, b), seed=17)
    assert_close(by_fighter(state, state.status)[0] != STANDING, p_first_down)


@pytest.mark.parametrize(("stance", "p_down"), [(NORMAL, 19 / 20), (DEFENSIVE, 0.0)])
def test_the_defensive_stance_adds_a_defence(stance, p_down):
    """Seed 000, Defensive: "Character also adds one to the maximum number of defences they
    can make that round." A (agility and perception averaging 1: one defence; defence 100)
    is attacked by B and C (attack 15, damage 1,000); B is seated first (initiative 100 to
    50) and takes A's one defence; C attacks against the base difficulty 15: d20 >= 2, 19/20.
    Defensive, A declares two (-10; 100 - 10 + 5 and a d20 no attack of 15 + d20 reaches):
    never hit."""
    a = holding(0, attack=-100, defence=100, initiative=0, stance=stance, defences_base=1,
                max_defences=1 + (stance == DEFENSIVE))
    b = holding(1, attack=15, damage=1000, initiative=100)
    c = holding(1, attack=15, damage=1000, initiative=50)
    state = one_round(fight_of(a, b, c), seed=18)
    assert_close(by_fighter(state, state.status)[0] != STANDING, p_down)


def hit_pairs(margin: int) -> int:
    """Pairs (d1, d2) of d20s with d1 != 1 and d1 - d2 >= margin: attack + d1 against defence
    + d2 where defence - attack = margin (the natural 1 misses; a fumbled parry stands)."""
    return sum(1 for d1 in range(2, 21) for d2 in range(1, 21) if d1 - d2 >= margin)


@pytest.mark.parametrize("defences", [1, 2, 3, 4, 5, 6])
def test_the_multiple_defence_penalty_for_every_number_of_defences(defences: int):
    """Seed 000, Declaring Defenses: "Defending against multiple attackers means you suffer a
    penalty to all attacks and defences that round": 1 -0, 2 -10, 3 -20, 4 -40, 5 -60,
    6 -80. A declares ``defences`` (policy, maximum 6) and defends against B (attack 15,
    damage 1,000) with defence 15 + the table's penalty undone (15 + 0, 25, 35, 55, 75, 95):
    if the kernel takes exactly the table's penalty, every case parries like defence 15:
    B hits with d1 >= d2, d1 != 1: 209 of 400."""
    penalty = {1: 0, 2: 10, 3: 20, 4: 40, 5: 60, 6: 80}[defences]
    a = veteran(0, attack=-100, defence=15 + penalty, defences=defences, max_defences=6,
                initiative=100)
    b = veteran(1, attack=15, damage=1000, initiative=0)
    state = one_round(fight_of(a, b), seed=19 + defences)
    assert hit_pairs(0) == 209
    assert_close(by_fighter(state, state.status)[0] != STANDING, 209 / 400)


def test_an_overwhelming_attack_lowers_the_foes_further_attacks_that_round():
    """Seed 000, Overwhelming attacks: "you do no damage, but your foe receives -5 per level
    of success to any further attacks or defences that they make that round against anyone".

    A (first, attack 14, no defence declared) overwhelms B (no defence: the base difficulty
    15): roll 14 + d1 makes 15 by d1 - 1: d1 = 2-10 one level, 11-20 two (d1 = 1: a fumble,
    none). B then strikes A twice that round against the base difficulty: its counter strike
    (A declared no defence against it) and its own attack, each 15 - 5 x level + d20 >= 15,
    killing (damage 1,000): d20 >= 2 (19/20), 5 (16/20) or 10 (11/20). P(A down) = 1/20 (1 -
    (1/20)^2) + 9/20 (1 - (4/20)^2) + 10/20 (1 - (9/20)^2)."""
    a = veteran(0, attack=14, damage=0, defences=0, initiative=100,
                tactics=Tactics(manoeuvre=OVERWHELM))
    b = veteran(1, attack=15, damage=1000, defences=0, initiative=0)
    state = one_round(fight_of(a, b), seed=26)
    p = 1 / 20 * (1 - (1 / 20) ** 2) + 9 / 20 * (1 - (4 / 20) ** 2) + 10 / 20 * (1 - (9 / 20) ** 2)
    assert_close(by_fighter(state, state.status)[0] != STANDING, p)


@pytest.mark.parametrize(("plan", "p_down"), [
    (None, 289 / 400),                     # light wounds (-5): defence 10
    ("defensive", 209 / 400)])             # hurt: defensive, +5: defence 15
def test_a_stance_plan_turns_defensive_when_hurt(plan, p_down):
    """Seed 000, Stance: "When declaring your action at the start of the round, you may
    declare a stance"; Defensive: "Defence rolls are at +5". A (lightly wounded: -5; plan
    hurt_at light -> defensive, never hits) is attacked by B (attack 15, damage 1,000): its
    parry 15 - 5 (+ 5 defensive) + d2 against 15 + d1: hit_pairs(-5) = 289 of 400 without
    the plan, hit_pairs(0) = 209 with it."""
    tactics = Tactics() if plan is None else Tactics(hurt_at=2, hurt_stance=DEFENSIVE)
    a = veteran(0, attack=-100, initiative=100, tactics=tactics, max_defences=4,
                defences_base=3)
    b = veteran(1, attack=15, damage=1000, initiative=0)
    state = one_round(fight_of(a, b), seed=27, wounds={0: 2})
    assert (hit_pairs(-5), hit_pairs(0)) == (289, 209)
    assert_close(by_fighter(state, state.status)[0] != STANDING, p_down)


@pytest.mark.parametrize(("a_initiative", "p_down"), [(100, 66 / 400), (0, 21 / 400)])
def test_declaring_last_an_unopposed_fighter_turns_aggressive(a_initiative, p_down):
    """Seed 000, Declaring Actions: "all combatants declare their actions in order of
    increasing initiative. This gives characters with a high initiative a big tactical
    advantage". B retreats (retreat_at: always; no attack: "you may not make any attacks that
    turn"; defence 15 + 5 + 3 x 3 = 29). A's plan: unopposed -> aggressive (+5 attack).

    A with the higher initiative declares after B and sees no attack on it: aggressive, 20 +
    d1 against 29 + d2: hit_pairs(9) = 66 of 400. With the lower initiative A declares first,
    knows nothing, stays normal: 15 + d1, hit_pairs(14) = 21 of 400."""
    a = veteran(0, attack=15, damage=1000, initiative=a_initiative,
                tactics=Tactics(unopposed_stance=AGGRESSIVE))
    b = veteran(1, attack=-100, initiative=50, tactics=Tactics(retreat_at=0))
    state = one_round(fight_of(a, b, rules=YagsRules(fatigue_penalty=0)), seed=28)
    assert (hit_pairs(9), hit_pairs(14)) == (66, 21)
    assert_close(by_fighter(state, state.status)[1] != STANDING, p_down)


def compiled(scenario: dict) -> YagsFight:
    """A scenario dict through the whole compile step (tables, styles, loadouts)."""
    import balance
    from balance.rules import get

    loaded = balance.load_scenario(scenario)
    return get("yags").compile(loaded.model, loaded.tables)


def test_the_unarmed_counter_strike_from_compiled_fists_and_sword():
    """Seed 000, Unarmed attack: "When making an unarmed attack against someone who is
    defending with martial weapons, the attacker risks being harmed. If the defender makes a
    successful defence, then they get an immediate counter strike"; Counter Strikes: "If you
    have a martial weapon, and your attacker does not, you gain a counter strike if you make
    a good defence" (rules.unarmed_counter good). No flag is set by hand: the fists (unarmed)
    and the short sword (martial: reach 1, wounds) come from the tables through the compile
    step, and the vector kernel plays the round.

    The brawler (agility 10, brawl 1: attack 10, initiative 40 + d20: always first; soak 12)
    attacks the swordsman (dexterity 3 x single weapon 4 + short sword: attack 15, defence 14,
    damage 16; soak 200: nothing hurts it), already inside the sword's reach (so no free
    strike; the sword holds its ground and is at -5 for the excess level). A good parry, 14 +
    d2 against 10 + d1 by 10 or more (d2 - d1 >= 6: 105 of 400), draws the counter strike:
    15 - 5 + d3 against the brawler's 10 + d4 (hit_pairs(0): 209 of 400), its damage 16 + d5
    against soak 12 + d6 wounding when d5 - d6 >= -4 (280 of 400). The swordsman's own attack
    that round is an overwhelm (no damage). P(brawler wounded) = 105 x 209 x 280 / 400^3."""
    fight = compiled({
        "name": "t", "ruleset": "yags", "sides": [
            {"name": "brawler", "members": [{
                "attributes": {"agility": 10, "strength": 3}, "skills": {"brawl": 1},
                "weapon": "fist"}]},
            {"name": "swordsman", "members": [{
                "attributes": {"dexterity": 3, "agility": 3, "strength": 3},
                "skills": {"single_weapon": 4}, "weapon": "short_sword", "soak": 200,
                "policy": {"step_back": False, "manoeuvre": "overwhelm"}}]}]})
    fist, sword = fight.fighters[0].loadout(0), fight.fighters[1].loadout(0)
    assert (fist.unarmed, fist.martial, sword.unarmed, sword.martial) == (
        True, False, False, True)
    assert static_of(fight).on.unarmed_counter
    assert (fight.fighters[0].attack, fight.fighters[1].attack,
            fight.fighters[1].defence, fight.fighters[1].damage) == (10, 15, 14, 16)
    state = one_round(fight, seed=29, inside=True)
    pairs = sum(1 for d1 in range(1, 21) for d2 in range(1, 21) if d2 - d1 >= 6)
    assert (pairs, hit_pairs(0)) == (105, 209)
    assert_close(by_fighter(state, state.wounds)[0] > 0, 105 * 209 * 280 / 400 ** 3)


@pytest.mark.parametrize(("lo0", "p_down"), [
    ("snap", 1 - 1 / 20 * 4 / 20),     # round 3: a slow snap shot, 20 m: difficulty 20
    ("ready", 1 - 1 / 20 * 1 / 20),    # round 3: the declared normal shot again
    ("aim", 19 / 20)])                 # round 3: loading
def test_a_lo0_bow_shoots_its_later_shots_as_slow_snap_shots(lo0: str, p_down: float):
    """Seed 000, Reloading Weapons: "If X is zero, then the weapon may be loaded and fired in
    the first round, though as a slow snap shot. Bows are examples of Lo-0 weapons"; Snap
    shots: "This doubles the effective distance to the target". Two rounds of the vector
    kernel: A (loaded bow, attack 15, damage 1,000) shoots B 10 m off (holding; no defence
    against shots, rules.missile_defence none). Round 2: the loaded shot, normal, difficulty
    15: d20 >= 2 (19/20). Round 3, if B stands: rules.lo0_shots snap, loaded and fired in the
    round as a snap shot, 20 m: difficulty 20 (d20 >= 5: 16/20); ready: 15 again (19/20);
    aim: it loads (no shot)."""
    gun = dataclasses.replace(shooter().missile, skill=9)     # its own fumbles: fatigue
    a = dataclasses.replace(shooter(), missile=gun)
    b = dataclasses.replace(veteran(1, attack=-100, initiative=0, skill=0), movement=HOLD)
    rules = YagsRules(missile_defence=NO_DEFENCE, lo0_snap=lo0 == "snap", lo0_aim=lo0 == "aim")
    fight = fight_of(a, b, rules=rules, distance=10.0)
    rng = np.random.default_rng(30)
    state = kernel.start(fight, N, rng)
    for round_no in (2, 3):
        kernel.play_round(fight, state, rng, round_no)
    assert_close(by_fighter(state, state.status)[1] != STANDING, p_down)
