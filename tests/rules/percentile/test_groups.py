"""Group fights in the percentile system (docs/rules/percentile.md, Group fights).

Direct state checks after a round (who attacks whom, the attackers-per-target limits, blows
from the side, one parry a round, the rout's free blows) on the kernel and the reference,
and whole-fight statistics at fixed seeds: mirror groups are even, adding a member never
lowers a side's win rate, and each policy pushes the way it must. Statistical bounds are
4.5 to 6 standard errors, so they cannot flake.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

import balance
from balance.engine.status import DEAD, FLED, STANDING, UNCONSCIOUS, YIELDED
from balance.engine.targeting import NO_TARGET
from balance.errors import ScenarioError
from balance.rules import get
from balance.rules.percentile.kernel import fight as kernel
from balance.rules.percentile.kernel import groups as kernel_groups
from balance.rules.percentile.kernel.prepare import static_of
from balance.rules.percentile.kernel.strike import Ctx
from balance.rules.percentile.reference.fight import play_round as reference_round
from balance.rules.percentile.reference.groups import choose_group_targets, side_attacks
from balance.rules.percentile.reference.strike import Combat
from tests.rules.helpers import percentile_member as member

N = 20_000


def fight(*sides: list[dict], **kw) -> dict:
    out = {"name": "group", "ruleset": "percentile", "trials": N, "seed": 4, "max_rounds": 40,
           "sides": [{"name": "abcdefgh"[i], "members": m} for i, m in enumerate(sides)]}
    out.update(kw)
    return out


def compiled(scenario: dict):
    loaded = balance.load_scenario(scenario)
    return get("percentile").compile(loaded.model, loaded.tables)


def first_round(scenario: dict, n: int = 2000, seed: int = 0):
    """The kernel state after round 1 (targets stay set for inspection)."""
    f = compiled(scenario)
    rng = np.random.default_rng(seed)
    st = kernel.start(f, n, rng)
    kernel.play_round(f, st, rng, 1)
    return f, st


def run(scenario: dict, trials: int = N, seed: int = 11):
    return balance.run(scenario, trials=trials, seed=seed)


def se_diff(p: float, q: float, n: int = N) -> float:
    """Standard error of the difference of two independent proportions near p and q."""
    return float(np.sqrt((p * (1 - p) + q * (1 - q)) / n))


def attackers_on(st, place: int) -> np.ndarray:
    return (st.target == place).sum(axis=0)


# --- who attacks whom: the attackers-per-target limits ---------------------------------------


@pytest.mark.parametrize(("crowd", "situation", "limit"), [
    (member(50, count=8), "open", 5),                                      # seed: 5 swordsmen
    (member(50, weapon="long_spear", shield=None, count=10), "open", 8),   # ... 8 spearmen
    (member(50, weapon="great_sword", shield=None, count=4), "cramped", 2),  # 2 great swords
    (member(50, count=3), "corridor", 1),
])
def test_attacker_limits_hold_after_a_round(crowd, situation, limit) -> None:
    scenario = fight([member(90, armour="plate")], [crowd], situation={"space": situation})
    f, st = first_round(scenario)
    on_hero = attackers_on(st, 0)
    assert (on_hero == limit).all()                        # all standing at the start
    waiting = (st.target[1:] == NO_TARGET).sum(axis=0)
    assert (waiting == crowd["count"] - limit).all()       # the surplus waits
    # the reference makes the same choice
    combat = Combat.start(f)
    choose_group_targets(combat, rng=np.random.default_rng(0))
    assert sum(s.target == 0 for s in combat.fighters) == limit


def test_each_attacker_counts_against_its_own_weapons_limit() -> None:
    """Three swordsmen (limit 5) and seven spearmen (limit 8) on one foe: swordsmen choose
    first (the smaller row), then spearmen join while fewer than eight engage: eight in all."""
    crowd = [member(50, count=3), member(50, weapon="long_spear", shield=None, count=7)]
    _, st = first_round(fight([member(90, armour="plate")], crowd))
    assert (attackers_on(st, 0) == 8).all()
    assert (st.target[1:4] == 0).all()                     # every swordsman engages
    assert ((st.target[4:] == 0).sum(axis=0) == 5).all()
    # and the other way round: eight spears leave no room for a swordsman
    # ... whatever the scenario order: the swordsman still gets in, one spear waits
    spears_first = [member(50, weapon="long_spear", shield=None, count=8), member(50)]
    _, st = first_round(fight([member(90, armour="plate")], spears_first))
    assert (st.target[9] == 0).all() and (attackers_on(st, 0) == 8).all()
    assert ((st.target[1:9] == NO_TARGET).sum(axis=0) == 1).all()


def test_the_surplus_picks_another_target_and_limits_hold_every_round() -> None:
    scenario = fight([member(90, armour="plate", hit_points=40, count=2)],
                     [member(40, count=7, policy={"target": "first"})])   # all on the first
    f = compiled(scenario)
    rng = np.random.default_rng(3)
    st = kernel.start(f, 3000, rng)
    for round_no in range(1, 9):
        was_down = st.status != STANDING
        kernel.play_round(f, st, rng, round_no)
        if round_no == 1:
            assert (attackers_on(st, 0) == 5).all() and (attackers_on(st, 1) == 2).all()
        for k in (0, 1):     # swords: 5; one who lost its sword to fists counts fists' 6
            fists = ((st.target == k) & (st.wield == 3)).any(axis=0)
            assert (attackers_on(st, k) <= 5 + fists).all()
        # targets are chosen among those standing at the start of the round, by them only
        for place in range(f.n):
            assert not (st.target == place)[:, was_down[place]].any()
        assert (st.target[was_down] == NO_TARGET).all()


def test_targets_are_kept_until_they_fall() -> None:
    """Two heroes, three attackers on policy ``spread``: once chosen, a target is kept; when
    it falls its attackers turn to the other hero."""
    scenario = fight([member(90, hit_points=30, count=2)], [member(60, count=3,
                                                                  policy={"target": "spread"})])
    f = compiled(scenario)
    rng = np.random.default_rng(5)
    st = kernel.start(f, 2000, rng)
    kernel.play_round(f, st, rng, 1)
    before = st.target.copy()
    st.status[0] = DEAD                                    # the first hero falls
    kernel.play_round(f, st, rng, 2)
    up = (st.status[2:] == STANDING) & (st.status[1] == STANDING)
    assert (st.target[2:][up] == 1).all()                  # everyone on the second hero
    assert (before[2:][up] >= 0).all()


# --- target policies ---------------------------------------------------------------------------


def three_foes(policy: dict, **kw) -> dict:
    foes = [member(50, name="plain"),
            member(90, name="deadly", weapon="great_axe", shield=None,
                   characteristics={"STR": 17, "SIZ": 16}),
            member(50, name="frail", hit_points=6)]
    return fight([member(60, name="chooser", policy=policy)], foes, **kw)


@pytest.mark.parametrize(("policy", "expected"), [
    ({"target": "first"}, 1),
    ({"target": "weakest"}, 3),
    ({"target": "dangerous"}, 2),
    ({"target": "fixed", "targets": ["frail", "plain"]}, 3),
])
def test_each_target_policy_picks_its_foe(policy, expected) -> None:
    f, st = first_round(three_foes(policy), n=500)
    assert (st.target[0] == expected).all()
    combat = Combat.start(f)
    choose_group_targets(combat, rng=np.random.default_rng(0))
    assert combat.fighters[0].target == expected


def two_against_three_split(target: np.ndarray) -> np.ndarray:
    """Places 0-1 (side a) against 2-4 (side b), a trial per column: each of the two fights
    back at a foe attacking it, the two take different foes, the three split two and one."""
    on = np.stack([(target[2:] == a).sum(axis=0) for a in range(2)])
    back = [np.take_along_axis(target, target[a : a + 1].astype(np.intp), axis=0)[0] == a
            for a in range(2)]
    return ((np.sort(on, axis=0) == [[1], [2]]).all(axis=0) & (target[0] != target[1])
            & back[0] & back[1])


def test_engage_pairs_fighters_off_and_weakest_ties_are_even() -> None:
    """The default ``engage`` (docs/engine.md, Targeting; seed 004 names no target rule):
    two against three split into one against two and one against one, in every trial of the
    kernel and every fight of the reference. Ties under ``weakest`` (three unhurt foes) go
    to each foe a third of the time, not to listing order (4.5 standard errors)."""
    f = compiled(fight([member(60, count=2)], [member(60, count=3)]))
    n = 6000
    rng = np.random.default_rng(8)
    st = kernel.start(f, n, rng)
    kernel.choose_targets(Ctx(f, static_of(f), st, rng, 1))
    assert two_against_three_split(st.target).all()
    assert abs(((st.target[2:] == 0).sum(axis=0) == 2).mean() - 0.5) < 4.5 * np.sqrt(0.25 / n)
    for seed in range(30):
        combat = Combat.start(f)
        choose_group_targets(combat, rng=np.random.default_rng(seed))
        assert two_against_three_split(np.array([[s.target] for s in combat.fighters])).all()
    f = compiled(fight([member(60, policy={"target": "weakest"})], [member(60, count=3)]))
    st = kernel.start(f, n, rng)
    kernel.choose_targets(Ctx(f, static_of(f), st, rng, 1))
    share = np.bincount(st.target[0], minlength=4)[1:] / n
    assert np.all(np.abs(share - 1 / 3) < 4.5 * np.sqrt(2 / 9 / n))


def test_nearest_spread_and_random() -> None:
    # nearest: the foes of the side ten yards off, not the first side at thirty
    near = fight([member(60, policy={"target": "nearest"})], [member(50)], [member(50)])
    near["sides"][1]["distance"], near["sides"][2]["distance"] = 30, 10
    _, st = first_round(near, n=200)
    assert (st.target[0] == 2).all()
    near["sides"][0]["members"][0]["policy"] = {"target": "first"}
    _, st = first_round(near, n=200)
    assert (st.target[0] == 1).all()
    # spread: three on three, one each
    spread = fight([member(60, count=3, policy={"target": "spread"})], [member(50, count=3)])
    _, st = first_round(spread, n=500)
    assert all((attackers_on(st, p) == 1).all() for p in (3, 4, 5))
    # random: each of three foes about a third of the time
    _, st = first_round(three_foes({"target": "random"}), n=30_000)
    shares = np.bincount(st.target[0], minlength=4)[1:] / 30_000
    assert np.abs(shares - 1 / 3).max() < 4.5 * np.sqrt(2 / 9 / 30_000)


def test_a_sides_policy_is_its_members_default() -> None:
    scenario = fight([member(60), member(60, policy={"target": "first", "yield_at": 5})],
                     [member(50, count=2)])
    scenario["sides"][0]["policy"] = {"target": "weakest", "break_off_at": 3}
    f = compiled(scenario)
    a0, a1 = f.fighters[:2]
    assert (a0.target, a0.break_off_at, a0.yield_at) == (1, 3, 0)     # weakest, from the side
    assert (a1.target, a1.break_off_at, a1.yield_at) == (0, 3, 5)     # its own target wins


@pytest.mark.parametrize(("targets", "message"), [
    ([], "target: fixed needs the foes' names"),
    (["plian"], "'plian' is not a fighter in this fight (did you mean 'plain'?)"),
    (["chooser"], "'chooser' is on 'chooser''s own side"),
])
def test_fixed_target_lists_are_checked(targets, message) -> None:
    with pytest.raises(ScenarioError) as err:
        compiled(three_foes({"target": "fixed", "targets": targets}))
    assert any(message in p.message and p.path.endswith("policy.targets" if not targets
                                                        else "policy.targets[0]")
               for p in err.value.problems), [str(p) for p in err.value.problems]


# --- outnumbering: one parry a round, blows from the side --------------------------------------


def test_a_lone_fighter_defends_once_a_round() -> None:
    f = compiled(fight([member(90, armour="plate")], [member(70, count=4)]))
    rng = np.random.default_rng(2)
    st = kernel.start(f, 4000, rng)
    cx = Ctx(f, static_of(f), st, rng, 1)
    for step in (kernel.draw_order, kernel.choose_targets, kernel.declare,
                 kernel_groups.side_attacks, kernel.act):
        step(cx)
    assert st.defences[0].max() == 1 and st.defences[0].mean() > 0.5


@pytest.mark.parametrize(("faces", "space", "crowd", "flanking"), [
    (2, "open", 4, 2), (1, "open", 4, 3), (4, "open", 4, 0), (1, "corridor", 4, 0)])
def test_attackers_past_those_a_fighter_faces_strike_from_the_side(faces, space, crowd,
                                                                  flanking) -> None:
    # (the corridor is patched wide enough for four: its flanks stay sheltered)
    scenario = fight([member(90, armour="plate")], [member(50, count=crowd)],
                     situation={"space": space}, rules={"faces": faces},
                     tables={"lengths": {"medium": {"attackers": {
                         "open": 5, "cramped": 3, "corridor": 4}}}})
    f = compiled(scenario)
    rng = np.random.default_rng(1)
    st = kernel.start(f, 500, rng)
    cx = Ctx(f, static_of(f), st, rng, 1)
    kernel.choose_targets(cx)
    kernel_groups.side_attacks(cx)
    assert (attackers_on(st, 0) == crowd).all()
    assert (st.flank.sum(axis=0) == flanking).all()
    # the hero's own target is faced first; the others in a random order
    assert not np.take_along_axis(st.flank, st.target[:1].astype(np.intp), axis=0).any()
    if 0 < flanking < crowd - 1:
        assert (st.flank[1:].mean(axis=1) > 0).all()       # anyone else may be on the side
    combat = Combat.start(f)
    choose_group_targets(combat, rng=rng)
    side_attacks(combat, rng=rng)
    hero = combat.fighters[0]
    assert sum(s.flank for s in combat.fighters) == flanking
    assert not combat.fighters[hero.target].flank


def test_blows_from_the_side_help_the_crowd() -> None:
    scenario = fight([member(85, armour="half_plate", hit_points=20)], [member(45, count=4)])
    with_flanks = run(scenario).outcomes["b"]
    without = run({**scenario, "rules": {"side_attack_bonus": 0}}).outcomes["b"]
    assert with_flanks - without > 6 * se_diff(with_flanks, without)


# --- yielding, breaking off and morale ---------------------------------------------------------


def test_yielding_at_a_major_wound_saves_lives() -> None:
    plain = member(60, weapon="great_axe", shield=None, characteristics={"STR": 16})
    fighter = fight([plain], [plain])
    yielding = fight([member(60, weapon="great_axe", shield=None, characteristics={"STR": 16},
                             policy={"yield_at": "major_wound"})], [plain])
    a = run(fighter).fighter_status["a"]
    b = run(yielding).fighter_status["a"]
    assert b.get("yielded", 0) > 0.05 and "yielded" not in a
    assert a["dead"] - b["dead"] > 6 * se_diff(a["dead"], b["dead"])


def test_yielding_at_hit_points_and_breaking_off_at_a_major_wound() -> None:
    f, _ = first_round(fight([member(60, policy={"yield_at": 8})], [member(60)]), n=10)
    assert f.fighters[0].yield_at == 8 and "yield" in f.uses
    out = run(fight([member(60, policy={"yield_at": 8})], [member(60)])).fighter_status["a"]
    assert out["yielded"] > 0.2
    runner = fight([member(60, policy={"break_off_at": "major_wound"})],
                   [member(60, weapon="great_axe", shield=None)])
    assert run(runner).fighter_status["a"]["fled"] > 0.02


def test_a_side_breaks_and_runs_at_its_morale() -> None:
    scenario = fight([member(55, count=4)], [member(55, count=4)])
    steady = run(scenario)
    scenario["sides"][0]["morale"] = {"breaks_at": 0.5}
    shaky = run(scenario)
    a, b = shaky.outcomes["a"], steady.outcomes["a"]
    assert b - a > 6 * se_diff(a, b)
    fled = np.mean([shaky.fighter_status[f"a#{k}"].get("fled", 0) for k in range(1, 5)])
    assert fled > 0.1     # default ``engage``: pairs fight, fewer are left standing to run


def rout_state(distance: float):
    """Side b has lost one of two at the end of a round; a's two stand in reach (or not)."""
    scenario = fight([member(95, count=2, policy={"movement": "hold"})],
                     [member(60, count=2, armour="none", policy={"movement": "hold"})],
                     distance=distance)
    scenario["sides"][1]["morale"] = {"breaks_at": 0.5}
    f = compiled(scenario)
    rng = np.random.default_rng(9)
    st = kernel.start(f, 4000, rng)
    st.status[2] = DEAD
    cx = Ctx(f, static_of(f), st, rng, 1)
    kernel_groups.rout(cx)
    return f, st


def test_a_rout_draws_free_blows_that_cannot_be_parried() -> None:
    f, st = rout_state(0)
    runner = st.status[3]
    assert set(np.unique(runner)) <= {FLED, DEAD, UNCONSCIOUS}
    hurt = (st.hp[3] < f.fighters[3].hp).mean()
    # two free blows at 95% (no parry; seed 004 forbids only the parry, so the runner's
    # one defence of the round is a Dodge): hardly anyone escapes unhurt
    assert hurt > 0.9 and st.defences[3].max() == 1
    assert (runner == FLED).mean() < 0.8
    f, st = rout_state(10)                    # nobody in reach: everyone gets away
    assert (st.status[3] == FLED).all() and (st.hp[3] == f.fighters[3].hp).all()


def test_a_mutual_rout_leaves_the_less_broken_side_holding() -> None:
    """Both sides of two have lost one at the end of a round, both breaking at half: only one
    side runs (``balance.engine.morale.routing_sides``: as far past their break points, the
    one that holds is drawn at random, so each holds half the time, 4.5 standard errors);
    before issue 15 both ran and the fight was a draw."""
    scenario = fight([member(60, count=2)], [member(60, count=2)], distance=10)
    for side in scenario["sides"]:
        side["morale"] = {"breaks_at": 0.5}
    f = compiled(scenario)
    n = 4000
    rng = np.random.default_rng(10)
    st = kernel.start(f, n, rng)
    st.status[0] = st.status[2] = DEAD
    kernel_groups.rout(Ctx(f, static_of(f), st, rng, 1))
    ran = np.stack([st.status[1] == FLED, st.status[3] == FLED])
    assert (ran.sum(axis=0) == 1).all()
    assert abs(ran[0].mean() - 0.5) < 4.5 * np.sqrt(0.25 / n)


def test_the_reference_yields_and_routs_too() -> None:
    scenario = fight([member(95, count=2)], [member(40, count=2,
                                                   policy={"yield_at": "major_wound"})])
    scenario["sides"][1]["morale"] = {"breaks_at": 0.5}
    f = compiled(scenario)
    rng = np.random.default_rng(4)
    seen = set()
    for _ in range(300):
        combat = Combat.start(f)
        for round_no in range(1, 30):
            reference_round(combat, round_no, rng=rng)
            if len({s.side for s in combat.fighters if s.standing}) < 2:
                break
        seen |= {s.status for s in combat.fighters[2:]}
    assert {FLED, YIELDED} <= seen


# --- whole-fight properties --------------------------------------------------------------------


@pytest.mark.parametrize("policy", [{}, {"target": "spread", "yield_at": "major_wound"}])
def test_mirror_groups_are_even(policy) -> None:
    side = [member(60, count=2, policy=policy),
            member(55, weapon="long_spear", shield=None, policy=policy)]
    scenario = fight(side, side)
    if policy:
        for s in scenario["sides"]:
            s["morale"] = {"breaks_at": 0.5}
    p = run(scenario, seed=21).outcomes
    se = np.sqrt((p["a"] + p["b"] - (p["a"] - p["b"]) ** 2) / N)
    assert abs(p["a"] - p["b"]) < 4.5 * se


@pytest.mark.parametrize("policy", [{}, {"target": "spread"}])
def test_adding_a_member_never_lowers_a_sides_win_rate(policy) -> None:
    rates = []
    for k in range(1, 6):
        scenario = fight([member(55, count=k, policy=policy)], [member(60, count=3)])
        scenario["sides"][0]["morale"] = {"breaks_at": 0.5}
        rates.append(run(scenario, seed=30 + k).outcomes["a"])
    assert all(later > earlier - 4.5 * se_diff(earlier, later)
               for earlier, later in pairwise(rates)), rates
    assert rates[-1] - rates[0] > 0.5, rates


def test_who_keeps_a_target_over_its_limit_is_not_listing_order() -> None:
    """Two swordsmen both kept last round's target, but in a corridor one chopping weapon
    may engage it (docs/rules/percentile.md: limits per space; seed 004 does not say who
    stays): each keeps it in half the trials (the kernel, 4.5 standard errors) and in both
    orders over the reference's fights, not the first-listed always."""
    f = compiled(fight([member(60)], [member(60, count=2)], situation={"space": "corridor"}))
    n = 8000
    rng = np.random.default_rng(3)
    st = kernel.start(f, n, rng)
    st.target[:] = [[1], [0], [0]]
    kernel_groups.choose_group_targets(Ctx(f, static_of(f), st, rng, 2))
    kept = st.target[1:] == 0
    assert (kept.sum(axis=0) == 1).all()
    assert abs(kept[0].mean() - 0.5) < 4.5 * np.sqrt(0.25 / n)
    first = []
    for seed in range(40):
        combat = Combat.start(f)
        for s, t in zip(combat.fighters, (1, 0, 0), strict=True):
            s.target = t
        choose_group_targets(combat, rng=np.random.default_rng(seed))
        first.append(combat.fighters[1].target == 0)
    assert 0 < sum(first) < 40
