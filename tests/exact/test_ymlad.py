"""The exact engine on Ymlad duels (seed 002): against the vector kernel, against closed
forms, and its coverage messages.

Each comparison with the kernel plays 10^6 fights at a fixed seed and requires every
outcome, final status, first-down share, the cumulative share decided by each round and
the mean length within 4 standard errors of the exact value (``balance.exact.compare``):
a shift of 0.2 points in a 50% outcome is detectable. Multiple comparisons: about 60
quantities a scenario at 4 SE (two-sided p = 6e-5 each) keep the family-wise false alarm
per scenario below 0.4%, and the seeds are fixed, so a pass is reproducible.
"""

from __future__ import annotations

import pytest

import balance
from balance.exact.compare import disagreements
from balance.rules.ymlad.rules.tables import p_success
from tests.rules.helpers import ymlad_duel

SUPPORTED = ["duel_threshold_1", "duel_threshold_2", "duel_threshold_3",
             "poleaxe_cut_vs_plate", "poleaxe_hammer_vs_plate", "wrestler_vs_swordsman"]


@pytest.mark.slow
@pytest.mark.parametrize("name", SUPPORTED)
def test_exact_agrees_with_the_kernel_on_bundled_duels(name: str) -> None:
    path = f"scenarios/ymlad/{name}.yaml"
    exact = balance.run(path, engine="exact")
    assert exact.engine == "exact" and exact.exact
    assert abs(sum(exact.outcomes.values()) - 1) < 1e-12
    sampled = balance.run(path, trials=1_000_000, seed=11)
    bad = disagreements(exact, sampled)
    assert not bad, f"{name}: " + "; ".join(bad)


def test_one_round_of_grappling_matches_the_closed_form() -> None:
    """The grappling case of tests/rules/ymlad/test_exact.py, solved exactly: both want
    close combat and engage at once; the wrestler's close contest has d = 9 and his
    grappling margin is 13 against a victim whose own attacks never succeed (d = -29);
    at threshold 2 the victim goes down past 7 grappling harm and is strangled ("wasted")
    past 15. In one round (max_rounds 1):

        P(victim down) = P(9) (1 - 3^-7),   P(victim dead) = P(9) / 9

    (P(d): the contest's chance, 1 - 3^-(d+1); the victim's own success, 3^-29, shifts
    nothing above 1e-13)."""
    wrestler = {"body": "large", "talents": {"strength": 4, "dexterity": 4},
                "skills": {"close": 6}, "weapon": "fist",
                "policy": {"style": "close", "harm": "grapple"}}
    victim = {"weapon": "fist", "resist": {"grappling": -5}, "effort": {"close": -20},
              "policy": {"style": "close"}}
    res = balance.run(ymlad_duel(wrestler, victim, max_rounds=1), engine="exact")
    status = res.fighter_status["b"]
    down = p_success(9) * (1 - 3.0 ** -7)
    dead = p_success(9) / 9
    assert abs(status.get("dead", 0.0) - dead) < 1e-12
    assert abs(status.get("unconscious", 0.0) + status.get("dead", 0.0) - down) < 1e-12


def test_a_mirror_duel_is_even_exactly() -> None:
    """Mirror fighters: every state's round is symmetric, so the two win chances are equal
    to rounding."""
    man = {"talents": {"strength": 3, "dexterity": 3}, "skills": {"melee": 4},
           "weapon": "long_sword", "armour": ["mail_hauberk"]}
    res = balance.run(ymlad_duel(man, man, max_rounds=40), engine="exact")
    assert abs(res.outcomes["a"] - res.outcomes["b"]) < 1e-12


def test_more_skill_never_hurts_exactly() -> None:
    """One melee skill step more can only raise a fighter's exact chance (no sampling
    error: a strict inequality)."""
    base = {"talents": {"strength": 3, "dexterity": 3}, "skills": {"melee": 4},
            "weapon": "long_sword"}
    foe = {**base, "skills": {"melee": 4}}
    p4 = balance.run(ymlad_duel(base, foe), engine="exact").outcomes["a"]
    p5 = balance.run(ymlad_duel({**base, "skills": {"melee": 5}}, foe),
                     engine="exact").outcomes["a"]
    assert p5 > p4


def test_unsupported_scenarios_say_what_they_use() -> None:
    with pytest.raises(balance.OptionError, match="start apart"):
        balance.run("scenarios/ymlad/archer_vs_charger.yaml", engine="exact")
    with pytest.raises(balance.OptionError, match="fighters on"):
        balance.run("scenarios/ymlad/party_vs_skeletons.yaml", engine="exact")
    res = balance.run("scenarios/ymlad/archer_vs_charger.yaml", engine="auto", trials=2000)
    assert res.engine == "vector" and "start apart" in res.engine_note


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["held_fights_back", "weapons_per_style"])
def test_exact_agrees_with_the_kernel_on_issue_27_rules(variant: str) -> None:
    """A held swordsman who fights back (``policy.held: fight``) and a fighter with a weapon
    and skill per style (a spear in formation and a dagger in close combat against a
    wrestler): the exact chain plays them as the kernel does (10^6 fights, 4 SE)."""
    import yaml

    sc = yaml.safe_load(open("scenarios/ymlad/wrestler_vs_swordsman.yaml"))
    sword = sc["sides"][1]["members"][0]
    if variant == "held_fights_back":
        sword["policy"] = {"held": "fight"}
    else:
        sword.pop("weapon")
        sword["weapons"] = {"melee": {"weapon": "battle_sword", "skill": 4},
                            "close": {"weapon": "dagger", "skill": 3}}
    exact = balance.run(sc, engine="exact")
    sampled = balance.run(sc, trials=1_000_000, seed=12)
    bad = disagreements(exact, sampled)
    assert not bad, f"{variant}: " + "; ".join(bad)
