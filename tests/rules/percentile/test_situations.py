"""Seed 004's situations acting in whole fights (vectorised engine, fixed seeds).

Each test compares a fight with a rule switched on against the same fight without it and
checks the direction the rule must push (or, for a rule whose net effect is a matter of
balance, that it moves the result far beyond noise). Differences are required to exceed
six standard errors of a difference of two proportions, so the tests cannot flake.
"""

from __future__ import annotations

import copy
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

import balance
from tests.rules.helpers import percentile_member as member

N = 20_000
SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "percentile"


def duel(a: dict, b: dict, **kw) -> dict:
    out = {"name": "t", "ruleset": "percentile", "trials": N, "seed": 4, "max_rounds": 40,
           "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    out.update(kw)
    return out


def run(scenario, trials: int = N):
    return balance.run(scenario, trials=trials, seed=11)


def gap(p: float, q: float, n: int = N) -> float:
    """Six standard errors of the difference of two proportions near p and q."""
    return 6 * np.sqrt((p * (1 - p) + q * (1 - q)) / n)


def more(p: float, q: float, n: int = N) -> bool:
    return p - q > gap(p, q, n)


def wins(scenario, side: str = "a", trials: int = N) -> float:
    return run(scenario, trials).outcomes[side]


# --- the three directional checks of the issue ------------------------------------------


def test_darkness_lowers_the_attackers_win_rate() -> None:
    strong = member(75, skills={"search": 30})
    weak = member(45, skills={"search": 30})
    bright = wins(duel(strong, weak))
    dark = wins(duel(strong, weak, situation={"light": "dark"}))
    pitch = wins(duel(strong, weak, situation={"light": "pitch_dark"}))
    assert more(bright, dark) and more(bright, pitch)
    # the bundled scenario: the guard, better armed, suffers more from it than the burglar
    loaded = balance.load_scenario(SCENARIOS / "fight_in_the_dark.yaml")
    lit = copy.deepcopy(loaded.model.model_dump())
    lit["situation"] = {"light": "bright"}
    assert more(wins(lit, "guard"), run(loaded).outcomes["guard"])


def test_a_braced_large_shield_stops_more_missiles_than_a_small_one() -> None:
    archer = member(75, weapon="self_bow", shield=None)

    def target(shield: str, brace: bool) -> dict:
        # a target who holds at 30 yards behind a shield: the archer shoots for 8 rounds
        return duel(archer, member(50, shield=shield, policy={"brace": brace,
                                                              "movement": "hold"}),
                    distance=30, max_rounds=8)

    small = wins(target("half_shield", False))
    large = wins(target("large_shield", False))
    braced = wins(target("large_shield", True))
    assert more(small, large) and more(large, braced)


def test_longer_weapons_lose_their_edge_in_cramped_quarters() -> None:
    """Seed 004: a long weapon needs two yards, "a medium weapon, especially a chopping
    one", a yard; else a quarter of the skill. A corridor is narrow, not short: a spear
    thrusts along it, a great sword cannot swing in it; cramped quarters take both."""
    spear = member(60, weapon="long_spear", shield=None)
    knife = member(60, weapon="dagger", shield=None)
    open_ = wins(duel(spear, knife))
    cramped = wins(duel(spear, knife, situation={"space": "cramped"}))
    corridor = wins(duel(spear, knife, situation={"space": "corridor"}))
    assert more(open_, 0.5)                               # reach wins in the open...
    assert abs(open_ - corridor) < gap(open_, corridor)   # ...and along a corridor,
    assert more(open_, cramped) and cramped < 0.5         # not with no room at all
    great_sword = member(60, weapon="great_sword", shield=None)
    assert more(wins(duel(great_sword, knife)),
                wins(duel(great_sword, knife, situation={"space": "corridor"})))


def test_a_long_spear_holds_a_corridor_better_than_the_open() -> None:
    """Seed 004: a choke point "works best when the defender's weapon is at least as long
    as the attackers'": one spearman against three swordsmen does better in a corridor
    (one sword at a time, each struck first as it closes) than surrounded in the open."""
    spear = member(70, weapon="long_spear", shield=None, armour="half_plate")
    crowd = member(45, count=3, weapon="scimitar", shield="half_shield")

    def fight(space: str) -> dict:
        return {"name": "t", "ruleset": "percentile", "max_rounds": 60,
                "situation": {"space": space},
                "sides": [{"name": "a", "members": [spear]}, {"name": "b", "members": [crowd]}]}

    assert more(wins(fight("corridor"), trials=5000), wins(fight("open"), trials=5000), 5000)


# --- each situational rule acting -----------------------------------------------------------


def test_a_corridor_holds_off_a_crowd() -> None:
    loaded = balance.load_scenario(SCENARIOS / "corridor.yaml")
    corridor = run(loaded, 5000).outcomes["veteran"]
    in_the_open = loaded.model.model_dump()
    in_the_open["situation"] = {"space": "open"}
    assert more(corridor, wins(in_the_open, "veteran", 5000), 5000)


def test_range_bands_and_point_blank() -> None:
    """An archer shooting at a foe who holds still hits less often the farther it is."""
    archer = member(70, weapon="self_bow", shield=None)
    target = member(50, shield=None, policy={"movement": "hold"})
    rates = [wins(duel(archer, target, distance=d, max_rounds=6)) for d in (3, 50, 100, 200)]
    assert all(more(a, b) for a, b in pairwise(rates))
    beyond = wins(duel(archer, target, distance=241, max_rounds=6))   # past 4x base range
    assert beyond == 0.0


def test_thrown_knives_and_axes_have_no_chance_past_double_range() -> None:
    """Seed 004: "thrown knives and axes have no chance to hit at all past double their
    base range"; other thrown weapons (a javelin) keep the triple and quadruple bands."""
    target = member(50, shield=None, policy={"movement": "hold"})
    for weapon, base in (("throwing_knife", 10), ("throwing_axe", 15)):
        thrower = member(70, weapon=weapon, shield=None)
        assert wins(duel(thrower, target, distance=2 * base - 1, max_rounds=4)) > 0.02
        assert wins(duel(thrower, target, distance=2 * base + 1, max_rounds=4)) == 0.0
    javelin = member(70, weapon="javelin", shield=None)
    assert wins(duel(javelin, target, distance=41, max_rounds=4)) > 0.002


def test_careful_aim_and_small_parts() -> None:
    archer = member(40, weapon="long_bow", shield=None)
    target = member(50, shield=None, policy={"movement": "hold"}, armour="plate")
    plain = wins(duel(archer, target, distance=60, max_rounds=8))
    aimed = wins(duel(dict(archer, policy={"aim": 10}), target, distance=60, max_rounds=8))
    eyes = wins(duel(dict(archer, policy={"small_part": True}), target, distance=60,
                     max_rounds=8))
    assert more(aimed, plain)
    assert more(plain, eyes)    # half the hits, and plate still stops a shot at an eye


def test_height_cover_and_fighting_while_down() -> None:
    even = wins(duel(member(), member()))
    assert more(wins(duel(member(situation={"position": "higher"}), member())), even)
    assert more(even, wins(duel(member(situation={"position": "down"}), member())))
    assert more(wins(duel(member(), member(situation={"cover": "partial"}))), 0.0) and more(
        even, wins(duel(member(), member(situation={"cover": "partial"}))))
    # a long weapon cancels the higher foe's advantage
    spear_low = member(weapon="long_spear", shield=None, situation={"position": "lower"})
    spear_level = member(weapon="long_spear", shield=None)
    assert abs(wins(duel(spear_low, member(situation={"position": "higher"})))
               - wins(duel(spear_level, member()))) < gap(0.5, 0.5)


def test_full_cover_stops_small_missiles() -> None:
    archer = member(90, weapon="self_bow", shield=None)
    hidden = member(50, situation={"cover": "full"}, policy={"movement": "hold"})
    res = run(duel(archer, hidden, distance=20, max_rounds=10))
    assert res.outcomes["a"] == 0.0 and res.outcomes["draw"] == 1.0


def test_steep_angles_and_big_targets() -> None:
    archer = member(60, weapon="self_bow", shield=None, situation={"position": "lower"})
    target = member(50, shield=None, policy={"movement": "hold"},
                    situation={"position": "higher"})
    flat = wins(duel(archer, target, distance=30, max_rounds=6))
    steep = wins(duel(archer, target, distance=30, max_rounds=6, situation={"steep": True}))
    assert more(flat, steep)
    giant = dict(target, characteristics={"SIZ": 60, "CON": 40}, hit_points=15)
    man = dict(target, hit_points=15)
    assert more(wins(duel(archer, giant, distance=30, max_rounds=6)),
                wins(duel(archer, man, distance=30, max_rounds=6)))


def test_the_extra_attack() -> None:
    """It trades the next round's attack for one now, after the foe's parry is spent."""
    quick = member(45, characteristics={"DEX": 18})
    n = 60_000
    base = wins(duel(quick, member(45)), trials=n)
    extra = wins(duel(dict(quick, policy={"extra_attack": True}), member(45)), trials=n)
    assert more(extra, base, n)


def test_a_disarmed_foe_fights_on_and_breaking_off_makes_foes_flee() -> None:
    """Seed 004: disarming "takes an opponent's weapon out of their hand and, by force or
    threat, keeps them from drawing a second one"; it does not end the fight (nobody
    yields). Policy ``disarm`` is "disarm, then strike the disarmed foe": in a mirror duel
    it is no trap, as the foe cannot re-arm while pressed (``rules.rearm_when_pressed:
    never``, default; about even here, ahead in the bundled duel); a contested pick-up (DEX
    against DEX, the action) gives most of that back, and a free one (the lab's reading
    before issue 26) makes disarming a trap."""
    res = run(duel(member(70, policy={"disarm": True}, characteristics={"STR": 18}),
                   member(50, characteristics={"STR": 9})))
    assert "yielded" not in res.fighter_status["b"]
    disarmer = member(policy={"disarm": True})
    mirror = wins(duel(disarmer, member()))
    contested = wins(duel(disarmer, member(), rules={"rearm_when_pressed": "contested"}))
    free = wins(duel(disarmer, member(), rules={"rearm_when_pressed": "free"}))
    assert mirror > 0.5 - gap(0.5, 0.5) and more(mirror, contested) and more(contested, free)
    assert free < 0.5 - gap(0.5, 0.5)
    # a free pick-up against a foe who fights on bare-handed (policy retrieve: false)
    keeps = wins(duel(disarmer, member(policy={"retrieve": False}),
                      rules={"rearm_when_pressed": "free"}))
    assert more(keeps, free)
    runs = run(duel(member(), member(policy={"break_off_at": 8})))
    assert runs.fighter_status["b"]["fled"] > 0.2
    # one who wants out from the first round: running always gets away, unless the free,
    # unparried blow it grants the foe drops it; a Dodge (DEX x 2 = 24%) often fails
    coward = {"break_off_at": 100}
    runs = run(duel(member(), member(policy=coward))).fighter_status["b"]
    dodges = run(duel(member(), member(policy=dict(coward, break_off_by="dodge"))))
    assert runs["fled"] > 0.75 and 0 < runs.get("unconscious", 0) + runs.get("dead", 0) < 0.25
    assert more(runs["fled"], dodges.fighter_status["b"]["fled"])


def test_entangling_a_foe_holds_it() -> None:
    """After round 1 about a fifth of the foes are in the net (a hit neither parried nor
    dodged); none without the policy. A held foe cannot attack, so it lands fewer blows."""
    from balance.rules import get

    netter = member(60, weapon="trident", shield=None, off_hand="net", skills={"off_hand": 60})
    held = []
    for policy in ({}, {"entangle": True}):
        loaded = balance.load_scenario(duel(dict(netter, policy=policy),
                                            member(55, shield=None), distance=5))
        system = get("percentile")
        fight = system.compile(loaded.model, loaded.tables)
        state = system.start(fight, N, np.random.default_rng(1))
        system.play_round(fight, state, np.random.default_rng(2), 1)
        held.append(float(state.entangled[1].mean()))
    assert held[0] == 0.0 and 0.1 < held[1] < 0.4
    plain = run(duel(netter, member(55, shield=None), distance=5))
    tangle = run(duel(dict(netter, policy={"entangle": True}), member(55, shield=None),
                      distance=5))
    assert tangle.rounds["mean"] > plain.rounds["mean"]


def test_knockback_knockout_and_pulled_blows() -> None:
    brute = member(60, characteristics={"STR": 18})
    base = run(duel(brute, member()))
    shoved = run(duel(dict(brute, policy={"knockback": True}), member()))
    assert abs(shoved.outcomes["a"] - base.outcomes["a"]) > gap(0.5, 0.5)
    ko = run(duel(member(policy={"knockout": True}), member()))
    assert ko.fighter_status["b"]["unconscious"] > base.fighter_status["b"]["unconscious"]
    assert more(base.fighter_status["b"]["dead"], ko.fighter_status["b"]["dead"])
    pulled = run(duel(member(policy={"pull_blows": True}), member()))
    assert pulled.rounds["mean"] > base.rounds["mean"] + 1
    assert more(base.outcomes["a"], pulled.outcomes["a"])


def test_two_weapons_and_the_riposte() -> None:
    fencer = member(65, shield=None, off_hand="dagger", skills={"off_hand": 55})
    riposte = wins(duel(fencer, member(60, shield=None)))
    no_riposte = wins(duel(dict(fencer, policy={"riposte": False}), member(60, shield=None)))
    assert more(riposte, no_riposte)


def test_fatigue_ends_long_fights_in_exhaustion() -> None:
    tank = member(30, characteristics={"CON": 2}, armour="plate", hit_points=60)
    scenario = duel(tank, tank, max_rounds=40)
    fresh = run(scenario).outcomes["draw"]
    tired = run(dict(scenario, rules={"fatigue": True})).outcomes["draw"]
    assert more(tired, fresh)


def test_underwater_only_thrusting_weapons_work() -> None:
    trident = member(60, weapon="trident", shield=None)
    sword = member(60, shield=None)
    dry = wins(duel(trident, sword))
    wet = wins(duel(trident, sword, situation={"underwater": True}))
    assert more(wet, dry) and wet > 0.8


def test_volleys() -> None:
    slinger = member(75, weapon="sling", shield=None)
    target = member(40, shield=None, policy={"movement": "hold"}, armour="none")
    aimed = run(duel(slinger, target, distance=40, max_rounds=3))
    volley = run(duel(dict(slinger, policy={"volley": True}), target, distance=40,
                      max_rounds=3))
    assert abs(volley.outcomes["a"] - aimed.outcomes["a"]) > gap(0.3, 0.3)


def test_a_mounted_charge_and_a_set_spear() -> None:
    lancer = member(70, weapon="lance", mount="warhorse", skills={"ride": 70})
    spear = member(60, weapon="long_spear", shield=None, policy={"movement": "hold"})
    on_foot = wins(duel(dict(lancer, mount=None), spear, distance=30))
    charging = wins(duel(lancer, spear, distance=30))
    assert more(charging, on_foot)
    set_spear = wins(duel(lancer, dict(spear, policy={"brace": True, "movement": "hold"}),
                          distance=30))
    assert more(charging, set_spear)
    capped = wins(duel(dict(lancer, skills={"ride": 20}), spear, distance=30))
    assert more(charging, capped)


def test_slick_footing_trips_movers() -> None:
    a, b = member(60), member(60, policy={"movement": "hold"})
    dry = run(duel(a, b, distance=10))
    slick = run(duel(a, b, distance=10, situation={"slick": True}))
    assert more(dry.outcomes["a"], slick.outcomes["a"])


def test_weapons_break_on_parries() -> None:
    sturdy = wins(duel(member(), member()))
    flimsy = wins(duel(member(), member(), tables={"shields": {"full_shield": {"hp": 3}}}))
    # both shields are flimsy: more blows get through, fights end sooner, still even...
    assert abs(flimsy - sturdy) < gap(0.5, 0.5)
    one_flimsy = duel(member(), member(shield="buckler"),
                      tables={"shields": {"buckler": {"hp": 1, "size": "full"}}})
    assert more(wins(one_flimsy), sturdy)
    club = wins(duel(member(weapon="club", shield=None), member(weapon="club", shield=None)))
    improvised = wins(duel(member(weapon="improvised_club", shield=None),
                           member(weapon="club", shield=None)))
    assert more(club, improvised)
    # seed 004: a second weapon is a backup when the first breaks. Both dodge (so the off
    # hand does not parry), and the chair leg breaks on the first blow it lands.
    brittle = {"weapons": {"improvised_club": {"hp": 1}}}
    alone = member(weapon="improvised_club", shield=None, policy={"defence": "dodge"})
    armed = dict(alone, off_hand="knife", skills={"attack": 60, "off_hand": 60},
                 policy={"defence": "dodge", "riposte": False})
    foe = member(weapon="club", shield=None, policy={"defence": "dodge"})
    assert more(wins(duel(armed, foe, tables=brittle)), wins(duel(alone, foe, tables=brittle)))


def test_more_defences_a_round() -> None:
    """Rule option: a second parry (at -20) against a second attacker in the same round."""
    two = {"name": "t", "ruleset": "percentile", "trials": N, "seed": 4, "max_rounds": 40,
           "sides": [{"name": "a", "members": [member(75, armour="half_plate")]},
                     {"name": "b", "members": [member(50, count=2)]}]}
    one = wins(two)
    assert more(wins(dict(two, rules={"defences_per_round": 2})), one)
    assert more(one, wins(dict(two, rules={"defences_per_round": 0})))


def test_a_bounded_resistance_table_limits_disarms() -> None:
    from balance.rules import get

    disarmer = member(70, policy={"disarm": True}, characteristics={"STR": 18, "DEX": 16})
    weak = member(50, characteristics={"STR": 6}, policy={"retrieve": False})
    lost = []
    for tables in ({}, {"resistance": {"standard": {"ceiling": 50}}}):
        loaded = balance.load_scenario(duel(disarmer, weak, tables=tables))
        system = get("percentile")
        fight = system.compile(loaded.model, loaded.tables)
        state = system.start(fight, N, np.random.default_rng(1))
        system.play_round(fight, state, np.random.default_rng(2), 1)
        lost.append(float(state.item_loose[0, 1].mean()))
    assert more(lost[0], lost[1])


def test_major_wounds_end_fights_sooner() -> None:
    base = run(duel(member(), member()))
    harsh = run(duel(member(), member(), rules={"major_wound_roll": 0}))
    assert harsh.rounds["mean"] < base.rounds["mean"]


@pytest.mark.parametrize("name", ["sword_and_shield_duel", "archer_vs_charging_spearman",
                                  "corridor", "fight_in_the_dark"])
def test_bundled_scenarios_run(name: str) -> None:
    res = balance.run(SCENARIOS / f"{name}.yaml", trials=3000)
    assert sum(res.outcomes.values()) == pytest.approx(1.0)
    assert 1 <= res.rounds["mean"] < 40


def test_the_knocked_out_come_to_after_1d10_plus_10_rounds() -> None:
    """Seed 004: "a successful knockout leaves the target unconscious for at least 1D10+10
    rounds". Knocked out in round 1, out for rounds 2 to 1 + (11..20), a fighter comes to
    at the start of round 13 to 22 (each equally likely), on the ground; in a fight that
    goes on, it fights again. (A few fall unconscious to their own fumbles: no waking.)"""
    from balance.engine.status import STANDING, UNCONSCIOUS
    from balance.rules import get

    club = member(90, weapon="club", shield=None, policy={"knockout": True},
                  characteristics={"STR": 18, "SIZ": 16, "DEX": 18})
    loaded = balance.load_scenario(duel(club, member(40, shield=None, hit_points=6)))
    system = get("percentile")
    fight = system.compile(loaded.model, loaded.tables)
    st = system.start(fight, N, np.random.default_rng(1))
    system.play_round(fight, st, np.random.default_rng(2), 1)
    out = st.status[1] == UNCONSCIOUS
    counts = np.bincount(st.wake_at[1, out], minlength=23)[13:]
    assert out.mean() > 0.3 and counts.sum() > 0.99 * out.sum() and (counts > 0).all()
    assert counts.max() - counts.min() < 6 * np.sqrt(counts.mean())
    st.wake_at[1] = np.where(out, 2, 0)
    system.play_round(fight, st, np.random.default_rng(3), 2)
    again = st.status[1, out] == UNCONSCIOUS     # woke, and was knocked out again
    assert (st.wake_at[1, out][again] >= 14).mean() > 0.99
    assert (st.status[1, out] == STANDING).mean() > 0.3


def test_an_entangling_weapon_wrenches_a_parrying_weapon_away() -> None:
    """Seed 004: "a successful STR-versus-STR roll on the Resistance Table can also use an
    entangling weapon to wrench a parrying weapon from a defender's grip". A strong netter
    (STR 18 against 8: certain) whose net is parried by a sword takes the sword; a shield
    that parries is never taken."""
    from balance.rules import get

    netter = member(60, weapon="trident", shield=None, off_hand="net", skills={"off_hand": 70},
                    policy={"entangle": True}, characteristics={"STR": 18, "DEX": 18})
    lost = []
    for shield in (None, "full_shield"):
        foe = member(70, shield=shield, characteristics={"STR": 8, "DEX": 10},
                     policy={"retrieve": False})
        loaded = balance.load_scenario(duel(netter, foe, distance=2))
        system = get("percentile")
        fight = system.compile(loaded.model, loaded.tables)
        state = system.start(fight, N, np.random.default_rng(1))
        system.play_round(fight, state, np.random.default_rng(2), 1)
        lost.append(float(state.item_loose[:, 1].any(axis=0).mean()))
    assert lost[0] > 0.2 and lost[1] == 0.0


def test_breaking_off_by_a_knock_back() -> None:
    """Seed 004: to break off, "use a successful knock-back attack, a successful dodge, or
    simply turn and run". A shove that lands (no parry against it) lets the fighter go;
    one that misses keeps it in the fight, so a poor brawler rarely gets away."""
    coward = {"break_off_at": 100, "break_off_by": "knockback"}
    shove = run(duel(member(), member(60, policy=coward, skills={"shield": 60})))
    clumsy = run(duel(member(), member(60, policy=coward, skills={"shield": 5})))
    assert shove.fighter_status["b"]["fled"] > 0.75
    assert more(shove.fighter_status["b"]["fled"], clumsy.fighter_status["b"].get("fled", 0))


def test_an_ambush_wins_fights() -> None:
    """Seed 004: a surprised target neither acts nor defends in round 1, so a laid ambush
    wins more fights than an open meeting (who reacts first otherwise: DEX ranks)."""
    plain = duel(member(skills={"hide": 70}), member())
    laid = copy.deepcopy(plain)
    laid["sides"][0]["ambush"] = "hide"
    assert more(wins(laid), wins(plain))


def test_a_knife_cuts_a_net_and_the_armoured_lose_their_balance() -> None:
    """Seed 004: "a DEX x3 roll (or a knife attack against a net) frees the target"; and
    "when only one side is armored, reduce that side's chances" in tests of balance (the
    lab: rules.armour_balance_penalty off DEX rolls on slick ground and against a shove)."""
    from balance.rules import get

    netter = member(60, weapon="trident", shield=None, off_hand="net", skills={"off_hand": 70},
                    policy={"entangle": True}, characteristics={"DEX": 18})
    still_held = []
    for weapon in ("broadsword", "dagger"):     # DEX 6: DEX x 3 = 18; the knife: 90
        foe = member(90, weapon=weapon, shield=None, characteristics={"DEX": 6})
        loaded = balance.load_scenario(duel(netter, foe, distance=2))
        system = get("percentile")
        fight = system.compile(loaded.model, loaded.tables)
        st = system.start(fight, N, np.random.default_rng(1))
        for round_no in (1, 2, 3):
            system.play_round(fight, st, np.random.default_rng(round_no + 1), round_no)
        still_held.append(float(st.entangled[1].mean()))
    assert more(still_held[0], still_held[1])
    brute = member(60, policy={"knockback": True}, characteristics={"STR": 18}, armour="none")
    plate = member(60, armour="plate")
    assert more(wins(duel(brute, plate)),
                wins(duel(brute, plate, rules={"armour_balance_penalty": 0})))
