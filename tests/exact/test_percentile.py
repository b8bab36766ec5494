"""The exact engine on percentile duels (seed 004 and the Basic Roleplaying family's core):
against the vector kernel, against closed forms, and its coverage messages.

Each comparison with the kernel plays 10^6 fights at a fixed seed and requires every
outcome, final status, first-down share, the cumulative share decided by each of the first
30 rounds and the mean length within 4 standard errors of the exact value
(``balance.exact.compare``): a shift of 0.2 points in a 50% outcome is detectable. About 60
quantities a duel at 4 SE (two-sided p = 6e-5 each) keep the family-wise false alarm per
duel below 0.4%, and the seeds are fixed, so a pass is reproducible.
"""

from __future__ import annotations

import pytest

import balance
from balance.errors import OptionError
from balance.exact.compare import disagreements
from tests.rules.helpers import percentile_member

SUPPORTED = ["sword_and_shield_duel"]
UNSUPPORTED = {
    "fight_in_the_dark": "darkness (situation light)",
    "archer_vs_charging_spearman": "missile and thrown weapons",
    "corridor": "6 fighters on 2 sides",
}


def duel(a: dict, b: dict, **kw) -> dict:
    scenario = {"name": "duel", "ruleset": "percentile", "trials": 1000, "seed": 1,
                "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    scenario.update(kw)
    return scenario


# Generated plain duels, each reaching rules the bundled mirror does not: a long weapon
# against a medium one (the first blow, up close, the hold-off; the spear's impales), and
# a dagger that dodges against a broadsword (the hold-off of a short weapon, dodges, and
# fumbled dodges), one fighter starting down and fighting from the ground.
GENERATED = {
    "spear_vs_sword": duel(percentile_member(65, weapon="short_spear"), percentile_member(60)),
    "dagger_from_the_ground": duel(
        percentile_member(55, weapon="dagger", shield=None,
                          skills={"parry": 45, "dodge": 50}, policy={"defence": "dodge"},
                          characteristics={"DEX": 16}, situation={"position": "down"}),
        percentile_member(60, shield="half_shield",
                          policy={"when_down": "fight_down"})),
}


def _agree(scenario, seed: int) -> None:
    exact = balance.run(scenario, engine="exact")
    assert exact.engine == "exact" and exact.exact
    assert abs(sum(exact.outcomes.values()) - 1) < 1e-12
    sampled = balance.run(scenario, trials=1_000_000, seed=seed, engine="vector")
    bad = disagreements(exact, sampled)
    assert not bad, "; ".join(bad)


@pytest.mark.slow
@pytest.mark.parametrize("name", SUPPORTED)
def test_exact_agrees_with_the_kernel_on_bundled_duels(name: str) -> None:
    _agree(f"scenarios/percentile/{name}.yaml", seed=11)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GENERATED))
def test_exact_agrees_with_the_kernel_on_generated_duels(name: str) -> None:
    _agree(GENERATED[name], seed=13)


def one_blow(rules: dict | None = None, a: dict | None = None, b: dict | None = None) -> dict:
    """One round (max_rounds 1): A (broadsword 50, DEX 18, 40 hit points) against B (fists
    at 0, DEX 6, 1 hit point, no defence, no damage bonus: STR + SIZ 20)."""
    first = {"name": "A", "characteristics": {"STR": 10, "CON": 12, "SIZ": 10, "DEX": 18},
             "skills": {"attack": 50}, "weapon": "broadsword", "armour": "none",
             "hit_points": 40}
    second = {"name": "B", "characteristics": {"STR": 10, "CON": 12, "SIZ": 10, "DEX": 6},
              "skills": {"attack": 0}, "weapon": "fist", "armour": "none", "hit_points": 1,
              "policy": {"defence": "none"}}
    scenario = duel({**first, **(a or {})}, {**second, **(b or {})}, max_rounds=1)
    if rules:
        scenario["rules"] = rules
    return scenario


@pytest.mark.slow
def test_one_blow_held_off_and_up_close_match_closed_forms() -> None:
    """B's fists are shorter than A's broadsword, and B cannot parry or dodge; any blow of
    A's that lands kills B (1D8+1 after no armour, B has 1 hit point). A's chance 50:
    rolls 01-50 succeed (0.50), 51-97 fail (0.47), 98-00 fumble (0.03: the top
    ceil(50 / 20) rolls). B's chance 0 never succeeds and fumbles on the top
    ceil(100 / 20) = 5 rolls, 4 at 20; a fumble hits its wielder 10% of the time (the
    default fumble weights 40/25/15/10/10), fists 1D3 against no armour: B dies; it falls
    10% of the time (A then at +20, 70: 01-70). In one round:

    * defaults: up close the shorter weapon strikes first (``rules.up_close``), but the
      broadsword holds B's fists off (``rules.hold_off``): B's action does nothing, then A
      strikes: P(A wins) = 0.50 exactly.
    * ``hold_off: none``: B strikes first and may fumble: dead 0.05 x 0.10, down
      0.05 x 0.10 (then A at 70), else A at 50: 0.005 + 0.005 x 0.70 + 0.99 x 0.50 = 0.5035.
    * ``hold_off: none, up_close: none``: A first by DEX. A's success 0.50 wins; after A's
      failure (0.47) B's own fumble kills it 0.05 x 0.10; after A's fumble (0.03) A fell
      (0.10: B then at 0 + 20, fumbling on 4 rolls: 0.04 x 0.10) or not (0.90: 0.005):
      0.50 + 0.47 x 0.005 + 0.03 x (0.9 x 0.005 + 0.1 x 0.004) = 0.502497."""
    cases = [(None, 0.50), ({"hold_off": "none"}, 0.5035),
             ({"hold_off": "none", "up_close": "none"}, 0.502497)]
    for rules, p in cases:
        res = balance.run(one_blow(rules), engine="exact")
        assert abs(res.outcomes["a"] - p) < 1e-12, (rules, res.outcomes)
        assert abs(res.outcomes["draw"] - (1 - p)) < 1e-12, (rules, res.outcomes)
        assert res.outcomes["b"] == 0.0


def test_only_a_critical_gets_through_plate() -> None:
    """Fists (1D3, no damage bonus) against plate (1D10+2, at least 3): an ordinary hit
    does nothing, a critical ignores armour (Stormbringer/Elric!) and kills B's 1 hit
    point. A's fists at 60 are critical on 01-03 (60 / 20). B's own fumbles hit B's plate
    with its fists: nothing; A wears plate too. In one round P(A wins) = 0.03 exactly."""
    scenario = one_blow(a={"weapon": "fist", "skills": {"attack": 60}, "armour": "plate"},
                        b={"armour": "plate"})
    res = balance.run(scenario, engine="exact")
    assert abs(res.outcomes["a"] - 0.03) < 1e-12
    assert abs(res.outcomes["draw"] - 0.97) < 1e-12


@pytest.mark.slow
def test_a_mirror_duel_is_even_exactly() -> None:
    """Mirror fighters (few hit points, to keep the chain small): the coin for equal DEX
    ranks makes every round symmetric, so the two win chances are equal to rounding."""
    man = percentile_member(55, hit_points=6)
    res = balance.run(duel(man, man, max_rounds=30), engine="exact")
    assert abs(res.outcomes["a"] - res.outcomes["b"]) < 1e-12
    assert res.tally.states > 0


@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_unsupported_bundled_scenarios_name_the_feature(name: str) -> None:
    path = f"scenarios/percentile/{name}.yaml"
    with pytest.raises(OptionError, match="the exact engine cannot play") as err:
        balance.run(path, engine="exact")
    assert UNSUPPORTED[name] in str(err.value)


@pytest.mark.parametrize(("member", "phrase"), [
    (percentile_member(60, shield=None, off_hand="short_sword"), "two weapons"),
    (percentile_member(60, policy={"when_down": "stand_and_fight"}), "stand_and_fight"),
    (percentile_member(60, policy={"yield_at": 3}), "yielding"),
])
def test_unsupported_rules_name_the_feature(member: dict, phrase: str) -> None:
    with pytest.raises(OptionError, match=phrase):
        balance.run(duel(member, percentile_member(60)), engine="exact")


def test_auto_samples_a_percentile_duel_and_says_why() -> None:
    """The exact chain of a percentile duel is slower than sampling it, so ``auto`` (the
    analysis commands' default) samples, with the very numbers of ``vector``."""
    scenario = duel(percentile_member(60), percentile_member(55), trials=2000)
    auto = balance.run(scenario, engine="auto")
    vector = balance.run(scenario, engine="vector")
    assert auto.engine == "vector" and not auto.exact
    assert "--engine exact" in auto.engine_note
    assert auto.outcomes == vector.outcomes
