"""Yags group fights (docs/rules/yags.md, Group fights): target policies, the attacker limit,
defences in groups, the second rank, morale; kernel against reference."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import balance
from balance.engine.run import run_fight
from balance.engine.status import FLED, STANDING
from balance.engine.targeting import choose_targets
from balance.errors import ScenarioError
from balance.rules import get
from balance.rules.yags.kernel import declare as kdeclare
from balance.rules.yags.kernel import fight as kernel
from balance.rules.yags.kernel import groups
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.reference.declare import declare
from balance.rules.yags.reference.fight import start_combat
from tests.rules.yags.fights import GROUP_FIGHTS, agree, man, scenario

ROOT = Path(__file__).resolve().parents[3]
POLICIES = ["first", "weakest", "dangerous", "nearest", "spread", "random"]






def compiled(sc: dict):
    loaded = balance.load_scenario(sc)
    return get("yags").compile(loaded.model, loaded.tables)


def win_rate(sc: dict, trials: int, seed: int = 1) -> tuple[float, float]:
    """Side a's wins and their standard error."""
    tally = run_fight(get("yags"), compiled(sc), trials, seed=seed)
    p = tally.wins[0] / tally.trials
    return p, float(np.sqrt(p * (1 - p) / tally.trials))


@pytest.mark.parametrize("policy", POLICIES)
def test_mirror_groups_are_even(policy: str) -> None:
    sc = scenario([man(count=3, policy={"target": policy})],
                  [man(count=3, policy={"target": policy})])
    tally = run_fight(get("yags"), compiled(sc), 40_000, seed=3)
    a, b = tally.wins[0], tally.wins[1]
    se = np.sqrt(a + b)
    assert abs(a - b) < 4.5 * se


@pytest.mark.parametrize("extra", [man(), man(skills={"single_weapon": 1}, armour=[]),
                                   man(policy={"target": "weakest"}, rank=2, weapon="spear",
                                       skills={"longshaft": 3})])
def test_adding_a_member_never_lowers_the_win_rate(extra: dict) -> None:
    base = [man(count=2)]
    foes = [man(count=3, skills={"single_weapon": 5})]
    before, se0 = win_rate(scenario(base, foes), 30_000)
    after, se1 = win_rate(scenario([*base, extra], foes), 30_000)
    assert after > before - 3 * np.hypot(se0, se1)


def attackers_per_target(state) -> np.ndarray:
    """(c, n): how many places attack each place (front rank only)."""
    c, n = state.target.shape
    on = np.zeros((c, n), dtype=int)
    rear = state.rear if state.rear.size else np.zeros((c, n), dtype=bool)  # (0, n): no ranks
    for i in range(c):
        for j in range(c):
            on[j] += state.attacking[i] & (state.target[i] == j) & ~rear[i]
    return on


@pytest.mark.parametrize("many, cap, rules", [(6, 4, {}), (5, 2, {"confined_reach": 2}),
                                              (7, 3, {"max_attackers": 3})])
def test_attacker_limits_hold_after_every_round(many: int, cap: int, rules: dict) -> None:
    f = compiled(scenario([man(count=2)], [man(count=many, policy={"target": "weakest"})],
                          rules=rules))
    assert f.rules.max_attackers == cap
    rng = np.random.default_rng(5)
    state = kernel.start(f, 4_000, rng)
    for round_no in range(1, 6):
        kernel.play_round(f, state, rng, round_no)
        assert attackers_per_target(state).max() <= cap
        # nobody waits while a foe has room: with two foes up, 2 * cap are busy
        busy = state.attacking.sum(axis=0)
        standing = state.status == STANDING
        up_a = (standing & (state.side == 0)).sum(axis=0)
        if round_no == 1:
            assert (busy[up_a == 2] >= 2 + min(many, 2 * cap) - 4).all()


def test_each_policy_picks_its_foe_in_kernel_and_reference() -> None:
    """One chooser against three foes: a hurt one, a dangerous one, a listed one."""
    foes = [man(name="plain"), man(name="deadly", skills={"single_weapon": 7}),
            man(name="listed")]
    expect = {"first": 1, "weakest": 3, "dangerous": 2, "nearest": 1, "fixed": 3}
    for policy, want in expect.items():
        pol = {"target": policy, **({"targets": ["listed"]} if policy == "fixed" else {})}
        sc = scenario([man(name="me", policy=pol)], foes)
        f = compiled(sc)
        rng = np.random.default_rng(1)
        state = kernel.start(f, 200, rng)
        wi = state.who.astype(int)
        hurt = wi == 3
        state.wounds[hurt] = 2       # 'listed' is the weakest
        standing = state.status == STANDING
        kdeclare.update_declarations(state, static_of(f), standing, standing, 2, rng)
        me = wi == 0
        got = state.who[state.target[me].astype(int), np.nonzero(me)[1]]
        assert (got == want).all(), policy
        combat = start_combat(f, rng=rng)
        combat.fighters[3].wounds = 2
        declare(combat, 2, rng=rng)
        assert combat.fighters[0].target == want, policy


def test_engage_pairs_fighters_off_in_kernel_and_reference() -> None:
    """The default ``engage`` (docs/engine.md, Targeting; the seed names no target rule, and
    "Defending against multiple attackers means you suffer a penalty"): two against three,
    each of the two fights back at a foe attacking it, the two take different foes and the
    three split two and one, in every trial; which of the two faces the pair is even (not
    listing order: 4.5 standard errors)."""
    f = compiled(scenario([man(count=2)], [man(count=3)]))
    n = 4000
    rng = np.random.default_rng(3)
    state = kernel.start(f, n, rng)
    standing = state.status == STANDING
    kdeclare.update_declarations(state, static_of(f), standing, standing, 2, rng)
    who = state.who.astype(np.intp)
    aim = np.empty_like(who)                       # each fighter's target, by fighter
    np.put_along_axis(aim, who, np.take_along_axis(who, state.target.astype(np.intp), axis=0),
                      axis=0)

    def split(aim: np.ndarray) -> np.ndarray:
        on = np.stack([(aim[2:] == a).sum(axis=0) for a in range(2)])
        back = [np.take_along_axis(aim, aim[a : a + 1], axis=0)[0] == a for a in range(2)]
        return ((np.sort(on, axis=0) == [[1], [2]]).all(axis=0) & (aim[0] != aim[1])
                & back[0] & back[1])

    assert split(aim).all()
    heavy = ((aim[2:] == 0).sum(axis=0) == 2).mean()
    assert abs(heavy - 0.5) < 4.5 * np.sqrt(0.25 / n)
    for seed in range(30):
        combat = start_combat(f, rng=np.random.default_rng(seed))
        declare(combat, 2, rng=np.random.default_rng(seed))
        assert split(np.array([[s.target] for s in combat.fighters])).all()


def test_spread_spreads_and_random_picks_everyone() -> None:
    sc = scenario([man(count=3, policy={"target": "spread"})], [man(count=3)])
    f = compiled(sc)
    rng = np.random.default_rng(2)
    state = kernel.start(f, 500, rng)
    standing = state.status == STANDING
    kdeclare.update_declarations(state, static_of(f), standing, standing, 2, rng)
    mine = state.side == 0
    cols = np.broadcast_to(np.arange(500), state.target.shape)
    chosen = np.sort(np.where(mine, state.who[state.target.clip(0), cols], 99), axis=0)[:3]
    assert (chosen == np.array([[3], [4], [5]])).all()
    sc = scenario([man(policy={"target": "random"})], [man(count=3)])
    combat_targets = set()
    f = compiled(sc)
    for seed in range(40):
        combat = start_combat(f, rng=np.random.default_rng(seed))
        declare(combat, 2, rng=np.random.default_rng(seed))
        combat_targets.add(combat.fighters[0].target)
    assert combat_targets == {1, 2, 3}


def test_auto_declares_one_defence_against_its_own_target_in_groups() -> None:
    """Three against one whose target is the hero's friend: the hero's friend attacks a foe
    that attacks someone else; it still declares one defence, which covers its target."""
    sc = scenario([man(name="hero"), man(name="friend", policy={"target": "fixed",
                                                                "targets": ["g2"]})],
                  [man(name="g1", policy={"target": "fixed", "targets": ["hero"]}),
                   man(name="g2", policy={"target": "fixed", "targets": ["hero"]})])
    f = compiled(sc)
    combat = start_combat(f, rng=np.random.default_rng(1))
    declare(combat, 2, rng=np.random.default_rng(2))
    hero, friend, _g1, g2 = combat.fighters
    assert friend.target == g2.index and g2.target == hero.index
    assert friend.defences == 1 and g2.index in friend.defended
    rng = np.random.default_rng(1)
    state = kernel.start(f, 100, rng)
    kernel.play_round(f, state, rng, 2)
    wi = state.who.astype(int)
    # The friend attacks g2, which attacks the hero: its one defence covers g2, so its attack
    # draws no counter strike (without the cover it would: seed 000, Free Strikes).
    assert state.attacking[wi == 1].all() and not state.exposed[wi == 1].any()
    assert (state.defence_penalty[wi == 1] == 0).all()


def test_bad_target_lists_are_clear_errors() -> None:
    with pytest.raises(ScenarioError, match="nobody"):
        compiled(scenario([man(policy={"target": "fixed", "targets": ["nobody"]})], [man()]))
    with pytest.raises(ScenarioError, match="own side"):
        compiled(scenario([man(name="x"), man(policy={"target": "fixed", "targets": ["x"]})],
                          [man()]))


def test_side_policy_is_the_default_members_change_it() -> None:
    sc = scenario([man(), man(policy={"target": "first", "yield_at": "heavy"})], [man()])
    sc["sides"][0]["policy"] = {"target": "weakest", "yield_at": "critical"}
    f = compiled(sc)
    a, b = f.fighters[:2]
    assert (a.target, b.target) == (1, 0)
    assert (a.yield_at, b.yield_at) == (5, 4)


# --- kernel against reference ----------------------------------------------------------------



@pytest.mark.parametrize("name", sorted(GROUP_FIGHTS))
def test_kernel_matches_reference_in_groups(name: str) -> None:
    agree(compiled(GROUP_FIGHTS[name]), 100_000, 4_000, name)


def test_morale_breaks_and_the_broken_flee() -> None:
    sc = GROUP_FIGHTS["three_vs_two_spread_weakest_ranks_morale"]
    tally = run_fight(get("yags"), compiled(sc), 20_000, seed=4)
    fled = tally.status[:, FLED]
    assert fled[:3].sum() > 0 and fled[3:].sum() > 0     # both sides break sometimes
    without = {**sc, "sides": [{k: v for k, v in s.items() if k != "morale"}
                               for s in sc["sides"]]}
    assert run_fight(get("yags"), compiled(without), 5_000, seed=4).status[:, FLED].sum() == 0


@pytest.mark.parametrize("na, nb, cap", [(5, 5, 4), (7, 3, 2), (2, 9, 3), (6, 6, 1)])
def test_the_counting_first_is_choose_targets(na: int, nb: int, cap: int) -> None:
    """The kernel's fast ``first`` (two sides, everyone ``first``) gives exactly the engine's
    ``choose_targets`` answer, kept targets and all."""
    f = compiled(scenario([man(count=na)], [man(count=nb)], rules={"max_attackers": cap}))
    rng = np.random.default_rng(0)
    state = kernel.start(f, 2_000, rng)
    caps = np.full(state.status.shape, cap, dtype=np.int16)
    first = np.zeros(state.status.shape, dtype=np.int8)
    for _ in range(10):
        up = rng.random(first.shape) < 0.8
        picks = up & (rng.random(first.shape) < 0.9)
        before = up | (rng.random(first.shape) < 0.3)
        current = choose_targets(first, state.side, state.who, before, before, cap=caps)
        fast = groups.first_with_room(static_of(f), state.side, state.who, up, picks, current)
        slow = choose_targets(first, state.side, state.who, up, picks, current=current, cap=caps)
        assert (fast == slow).all()


@pytest.mark.parametrize("path, winner, at_least", [
    ("scenarios/groups/yags_bridge_hold.yaml", 0, 0.5),   # 58%: the knight steps back
    # 55% at this count: the better swordsmen break spears on fumbled parries (issue 25)
    ("scenarios/groups/yags_spearmen_vs_swordsmen.yaml", 0, 0.5),
    ("scenarios/groups/yags_two_guards_vs_hero.yaml", 0, 0.4)])
def test_group_scenarios_run(path: str, winner: int, at_least: float) -> None:
    loaded = balance.load_scenario(ROOT / path)
    f = get("yags").compile(loaded.model, loaded.tables)
    tally = run_fight(get("yags"), f, 4_000, seed=1)
    assert tally.wins[winner] / tally.trials > at_least


def test_the_second_rank_is_sheltered_thrusts_and_steps_up() -> None:
    """Rank 2 behind a standing front: nobody attacks it, it thrusts (slow) at a foe its long
    spear out-reaches by two, shares its target's first defence slot and draws no counter
    strike; once its front is down it is attacked like anyone."""
    sc = scenario([man(name="front"), man(name="pike", rank=2, weapon="long_spear",
                                          skills={"longshaft": 4})],
                  [man(name="s1", weapon="short_sword"), man(name="s2", weapon="short_sword")])
    f = compiled(sc)
    assert static_of(f).on.ranks and static_of(f).speed[1] == max(static_of(f).speed)
    rng = np.random.default_rng(3)
    state = kernel.start(f, 3_000, rng)
    kernel.play_round(f, state, rng, 2)
    wi = state.who.astype(int)
    cols = np.broadcast_to(np.arange(3_000), wi.shape)
    target_who = np.where(state.target >= 0, wi[state.target.clip(0), cols], -1)
    front_up = (state.status[wi == 0] == STANDING)
    foes = state.side == 1
    assert not ((target_who == 1) & foes & front_up[None, :]).any()   # nobody on the pike
    pike = wi == 1
    assert (state.rear[pike] == (state.target[pike] >= 0)).all()
    assert state.rear[pike].mean() > 0.9
    # Reference: the same shelter, and the pike steps up when the front is down.
    combat = start_combat(f, rng=np.random.default_rng(1))
    declare(combat, 2, rng=np.random.default_rng(1))
    front, pike_, s1, s2 = combat.fighters
    assert pike_.rear and s1.target == 0 and s2.target == 0
    assert pike_.index in combat.fighters[pike_.target].defended
    front.status = 3
    declare(combat, 3, rng=np.random.default_rng(1))
    assert not pike_.rear and s1.target == 1 and s2.target == 1
