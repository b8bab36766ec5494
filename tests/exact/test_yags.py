"""The exact engine on basic Yags duels (seed 000): against the vector kernel, against
closed forms, and its coverage messages.

Each comparison with the kernel plays 10^6 fights at a fixed seed and requires every
outcome, final status, first-down share, the cumulative share decided by each round and
the mean length within 4 standard errors of the exact value (``balance.exact.compare``):
a shift of 0.2 points in a 50% outcome is detectable. Multiple comparisons: about 50
quantities a scenario at 4 SE (two-sided p = 6e-5 each) keep the family-wise false alarm
per scenario below 0.4%, and the seeds are fixed, so a pass is reproducible.

The closed forms are hand-written fighters (``tests/rules/yags/cases.veteran``:
attack and defence 15, d20 rolls against fixed numbers; damage 1,000 where a hit must kill,
since the fatal-wound check at 20 + 5 x ~190 always fails; attack -100 where a fighter must
never hit), one round (``max_rounds`` 1) from the start, so initiative and its fumble are
part of the derivation: initiative 100 against 0 fixes who acts first, and each fighter's
initiative d20 is a 1 (no action in round 1) with chance 1/20.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import balance
from balance.engine.status import DEAD, STANDING, YIELDED
from balance.exact.compare import disagreements
from balance.exact.duel import Unsupported
from balance.exact.run import exact_tally
from balance.rules.yags import YagsSystem
from balance.rules.yags.compile import YagsFight, YagsRules
from tests.rules.yags.cases import veteran

SUPPORTED = ["reference_duel", "stance_aggressive", "stance_defensive", "stance_normal",
             "stances"]
ACTS = 19 / 20          # an initiative d20 other than 1: the fighter acts in round 1
TOL = 1e-12


def one_round(*fighters, rules: YagsRules | None = None):
    """The exact tally of one round (``max_rounds`` 1) between two hand-written fighters."""
    fight = YagsFight(tuple(fighters), ("s0", "s1"), rules or YagsRules(), 1)
    return exact_tally(YagsSystem(), fight)


def share(tally, fighter: int, *statuses: int) -> float:
    return float(sum(tally.status[fighter, s] for s in statuses))


@pytest.mark.slow
@pytest.mark.parametrize("name", SUPPORTED)
def test_exact_agrees_with_the_kernel_on_bundled_duels(name: str) -> None:
    path = f"scenarios/yags/{name}.yaml"
    exact = balance.run(path, engine="exact")
    assert exact.engine == "exact" and exact.exact
    assert abs(sum(exact.outcomes.values()) - 1) < TOL
    sampled = balance.run(path, trials=1_000_000, seed=11)
    bad = disagreements(exact, sampled)
    assert not bad, f"{name}: " + "; ".join(bad)


def test_one_round_with_fatigue_and_a_fumbled_initiative() -> None:
    """A (initiative 100: first; attack 15, fatigue 2: -5; damage 1,000) against B (attack
    -100: never hits; defence 15). When both act, A hits where d1 - d2 >= 5 and d1 != 1:
    1 + 2 + ... + 15 = 120 of 400 pairs (tests/rules/yags/test_exact.py, fatigue). When B
    fumbled its initiative it does not act, so declares no defence: A's attack meets the
    base difficulty 15 only, 10 + d1 >= 15, 16 of 20. When A fumbled, nothing happens. So

        P(B dead) = 19/20 x (19/20 x 120/400 + 1/20 x 16/20) = 0.30875

    and A is never hurt."""
    a = veteran(0, attack=15, damage=1000, fatigue=2, initiative=100)
    b = veteran(1, attack=-100, defence=15, initiative=0)
    tally = one_round(a, b)
    p = ACTS * (ACTS * 120 / 400 + (1 - ACTS) * 16 / 20)
    assert abs(p - 0.30875) < TOL
    assert abs(share(tally, 1, DEAD) - p) < TOL
    assert abs(tally.wins[0] - p) < TOL
    assert abs(share(tally, 0, STANDING) - 1) < TOL
    assert abs(tally.wins[2] - (1 - p)) < TOL       # a draw by time otherwise


def test_one_round_of_a_counter_strike_and_exhaustion() -> None:
    """A (initiative 100: first; fatigue 3, exhausted at 4; declares no defence; never
    hits) attacks B (attack 10, damage 1,000). Both acting: A's natural 1 (1/20) is its
    fourth level of fatigue and it rests at once, yielded, before anything else; otherwise
    B's counter strike (A declared no defence against its target: seed 000, "they get a
    counter strike against you") and then B's own attack, each against the base difficulty
    15 (d20 >= 5: 16/20), kill it, but a B that fumbled its parry of A's attack (1/20) and
    then its counter strike (1/20) has two levels of fatigue (-5) for its own attack, which
    then needs d20 >= 10 (11/20): A survives both with 0.2 x 0.2 + (1/20)^2 x (0.45 - 0.2)
    = 0.040625. (Leaving out that fatigue gives 0.04: 1.5 standard errors of 10^6 kernel
    fights, 7 of 2 x 10^7, which side with the chain.) A fumbled its initiative: B's attack
    alone, 0.8. B fumbled: A's attack still may exhaust it (1/20), and B neither defends nor
    strikes. So

        P(A yielded) = 19/20 x 1/20,
        P(A dead) = (19/20)^2 x 19/20 x (1 - 0.040625) + 1/20 x 19/20 x 0.8."""
    a = veteran(0, attack=-100, defences=0, fatigue=3, exhausted_at=4, initiative=100)
    b = veteran(1, attack=10, damage=1000, initiative=0)
    tally = one_round(a, b)
    assert abs(share(tally, 0, YIELDED) - ACTS / 20) < TOL
    dead = ACTS ** 3 * (1 - 0.040625) + (1 - ACTS) * ACTS * 0.8
    assert abs(share(tally, 0, DEAD) - dead) < TOL
    assert abs(share(tally, 1, STANDING) - 1) < TOL


def test_a_counter_strike_only_when_the_attacker_left_its_foe_standing() -> None:
    """A (fighter 1, initiative 100: first; declares no defence; attack 100: every d20 but
    the natural 1 hits; damage 1,000) attacks B (attack 10, damage 1,000), one round, no
    exhaustion. Both acting: A's hit kills B (19/20), and a dead B strikes back at nobody;
    A's natural 1 (1/20) leaves B its counter strike and then its own attack, each against
    the base difficulty (16/20), with the fatigue of B's fumbles as in the case above: A
    survives both with 0.040625. A fumbled its initiative: B's attack alone, 0.8. B
    fumbled: it declared no defence, so A's attack kills with 19/20. So

        P(B dead) = (19/20)^2 x (19/20 + 1/20) = (19/20)^2,
        P(A dead) = (19/20)^2 x 1/20 x (1 - 0.040625) + 1/20 x 19/20 x 0.8."""
    b = veteran(0, attack=10, damage=1000, initiative=0)
    a = veteran(1, attack=100, damage=1000, defences=0, initiative=100)
    tally = one_round(b, a)
    assert abs(share(tally, 0, DEAD) - ACTS ** 2) < TOL
    dead = ACTS ** 2 / 20 * (1 - 0.040625) + (1 - ACTS) * ACTS * 0.8
    assert abs(share(tally, 1, DEAD) - dead) < TOL


def test_two_rounds_of_a_sure_kill_against_a_sure_parry() -> None:
    """A (first) hits B only against the base difficulty (B's defence 100 stops every
    parried attack; B fumbling a parry tires it, as A is not more skilled), and kills when
    it does (damage 1,000); B never hits. Round 1: A hits only if B fumbled its initiative
    (so declared no defence) and A did not, and then with every d20 but the natural 1
    (15 + d20 >= 15): 1/20 x 19/20 x 19/20. Round 2, B parries every attack: nothing. So
    the fight is decided in round 1 with that chance and is otherwise a draw by time."""
    a = veteran(0, damage=1000, initiative=100)
    b = veteran(1, attack=-100, defence=100, initiative=0)
    fight = YagsFight((a, b), ("s0", "s1"), YagsRules(), 2)
    tally = exact_tally(YagsSystem(), fight)
    p = (1 - ACTS) * ACTS * ACTS
    assert abs(tally.rounds[1] - p) < TOL and abs(tally.rounds[2] - (1 - p)) < TOL
    assert abs(tally.wins[0] - p) < TOL


@pytest.mark.slow
def test_a_mirror_duel_is_even_exactly() -> None:
    """The reference duel's two veterans are alike: the two win chances are equal to
    rounding (no sampling error)."""
    res = balance.run("scenarios/yags/reference_duel.yaml", engine="exact")
    assert abs(res.outcomes["red"] - res.outcomes["blue"]) < TOL
    assert res.tally.states > 0 and res.tally.transitions > res.tally.states


def test_more_skill_never_hurts_exactly() -> None:
    """One attack point more can only raise a fighter's exact chance (a strict
    inequality, no sampling error), here with blows that kill (a small chain)."""
    b = veteran(1, damage=1000)
    p = [exact_tally(YagsSystem(), YagsFight((veteran(0, attack=x, damage=1000), b),
                                             ("s0", "s1"), YagsRules(), 10)).wins[0]
         for x in (15, 16)]
    assert p[1] > p[0]


@pytest.mark.parametrize(("path", "feature"), [
    ("scenarios/yags/spear_vs_dagger.yaml", "unequal reach"),
    ("scenarios/yags/sword_and_shield_vs_two_weapons.yaml", "shields"),
    ("scenarios/yags/wrestler_vs_knife.yaml", "grappling"),
    ("scenarios/yags/great_axe_vs_plate.yaml", "vitals"),
    ("scenarios/yags/archer_vs_charging_swordsman.yaml", "distance between the sides"),
    ("scenarios/yags/tavern_brawl.yaml", "weapons lost"),
    ("scenarios/yags/two_guards.yaml", "fighters on"),
    ("scenarios/yags/skirmish_aftermath.yaml", "fighters on"),
])
def test_unsupported_scenarios_say_what_they_use(path: str, feature: str) -> None:
    with pytest.raises(balance.OptionError, match=feature):
        balance.run(path, engine="exact")


def test_auto_samples_yags_duels_and_says_why() -> None:
    """The exact engine takes longer than 250,000 kernel fights on a basic Yags duel
    (docs/exact.md, Yags: ``YagsSystem.exact_by_default`` is False): ``auto`` samples a
    covered duel too, and says so; ``exact`` solves it; a sweep under ``auto`` samples."""
    from balance.sweep import run_sweep

    res = balance.run("scenarios/yags/stances.yaml", engine="auto", trials=2000)
    assert res.engine == "vector" and "slower than sampling" in res.engine_note
    res = balance.run("scenarios/yags/spear_vs_dagger.yaml", engine="auto", trials=2000)
    assert res.engine == "vector"
    sweep = run_sweep("scenarios/yags/stances.yaml", sweep={"grid": {"max_rounds": [1, 2]}},
                      out=None, engine="auto", trials=2000)
    assert "slower than sampling" in sweep.manifest["engine_note"]


def test_stance_plans_and_growing_fatigue_penalties_are_named() -> None:
    """A stance plan (policy hurt_stance) makes a fight detailed; a fatigue penalty per
    level with no exhaustion never closes the chain: each is refused by name."""
    from balance.rules.yags.rules.tactics import Tactics
    from balance.rules.yags.rules.tracks import DEFENSIVE

    plan = veteran(0, tactics=Tactics(hurt_at=1, hurt_stance=DEFENSIVE))
    with pytest.raises(Unsupported, match="stance plans"):
        exact_tally(YagsSystem(), YagsFight((plan, veteran(1)), ("s0", "s1"), YagsRules(), 5))
    rules = dataclasses.replace(YagsRules(), fatigue_penalty=5)
    with pytest.raises(Unsupported, match="fatigue penalties"):
        exact_tally(YagsSystem(), YagsFight((veteran(0), veteran(1)), ("s0", "s1"), rules, 5))


def test_the_start_is_the_initiative_roll() -> None:
    """Equal initiative and speed: each fighter acts first half the time (the d20s, ties
    broken by a random order), and its d20 is a 1 (no action in round 1) 1/20 of the time:
    the start distribution's marginals."""
    from balance.rules.yags.exact import YagsDuel

    fight = YagsFight((veteran(0), veteran(1)), ("s0", "s1"), YagsRules(), 5)
    duel = YagsDuel(fight)
    codes, p = duel.start()
    v = duel.layout.unpack(codes)
    assert abs(p.sum() - 1) < TOL
    assert abs(p[v["first"] == 0].sum() - 0.5) < TOL
    assert abs(p[v["slow0"] == 1].sum() - 1 / 20) < TOL
    assert np.all(v["r1"] == 1)
