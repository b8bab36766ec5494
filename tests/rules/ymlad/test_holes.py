"""Holes cut in a line with secured flanks (seed 002, Formation vs melee; issue 27).

Seed: "If the formation fighters have their way, the melee fighters may be able to cut holes
in the enemy formation by making successful formation, not melee attacks. Once they take a
man down they may move in and engage in melee combat as they prefer to, even when there is
still formation style fighting going on left and right of them. If the formation has
secondary, tertiary or other rows, they may continue to attack in formation style and in
their turn may be able to close the gap." The lab's line (``rules.tables.open_sides``): each man
of the first row holds a file between the walls; a man of a row behind takes the file of
one who falls; an empty file is a hole, and the men beside it are fought in melee, with a
place at the flank for each hole (``rules.tables.attacker_places``).
"""

from __future__ import annotations

import numpy as np
import pytest

import balance
from balance.engine.status import STANDING, UNCONSCIOUS
from balance.rules.ymlad.kernel import fight as kernel
from balance.rules.ymlad.reference import fight as ref
from balance.rules.ymlad.rules.tables import FROM_SIDE, attacker_places, open_sides, p_success
from tests.rules.helpers import ymlad_fight

N = 200_000
SIGMAS = 4

PIKE = {"talents": {"strength": 3, "dexterity": 2}, "skills": {"formation": 4, "melee": 1},
        "weapon": "pike", "resist": {"slashing": -20, "piercing": -20, "pummeling": -20},
        "effort": {"formation": -20, "melee": -20}, "policy": {"style": "formation"}}
SWORD = {"talents": {"strength": 3, "dexterity": 3}, "skills": {"formation": 2, "melee": 4},
         "weapon": "battle_sword", "effort": {"melee": -7}}


def line(swords: int, holes: bool = True, pikes: int = 3, **sword) -> dict:
    return {"name": "gap", "ruleset": "ymlad", "rules": {"holes": holes}, "sides": [
        {"name": "a", "flanks_secured": True, "members": [{**PIKE, "count": pikes}]},
        {"name": "b", "members": [{**SWORD, **sword, "count": swords}]}]}


def test_open_sides_of_a_line() -> None:
    """A line of three between walls: the middle man down leaves both others one open side;
    an end man down, the middle one; a man of the second row steps into the empty file, so
    no hole while one stands behind (seed: "may be able to close the gap"); two down and
    one behind, he closes the first (the files in order) and the second stays open."""
    up = np.array([[1, 1, 0, 1, 0], [0, 1, 1, 0, 0], [1, 1, 1, 1, 1], [0, 0, 0, 1, 1]],
                  dtype=bool)
    sides = open_sides(up, 3)
    assert sides[:, 0].tolist() == [1, 0, 1, 0]        # middle down, nobody behind standing
    assert sides[:, 1].tolist() == [0, 0, 0, 0]        # all three up
    assert sides[:, 2].tolist() == [0, 1, 0, 0]        # an end man down
    assert sides[:, 3].tolist() == [0, 0, 0, 0]        # the man behind fills the file
    assert sides[:, 4].tolist() == [0, 0, 1, 1]        # two down, one behind: he takes the
    #                                                    first empty file, the other is a hole
    assert attacker_places(True, True, 0) == (1, 3) and attacker_places(True, True, 1) == (4, 4)
    assert attacker_places(True, False, 2) == (5, 5) and attacker_places(False, True, 1) == (6, 12)


@pytest.mark.parametrize("holes", [True, False])
def test_a_hole_lets_the_swords_in(holes: bool) -> None:
    """Seed, Formation vs melee: "Once they take a man down they may move in and engage in
    melee combat as they prefer to".

    Three pikemen hold a gap between walls, in formation; the middle one is down before
    the round (nobody behind to close the gap). Two swordsmen, one on each of the others
    (``engage``: the fewest attackers first), attack once; the pikemen cannot hit back and
    any hit downs one.

    * With the hole (``rules.holes``, default): the swordsman engages the man beside it in
      melee, as he prefers (seed): melee effort 0 + 1 + 2 + 4 - 7 (his ``effort``) = 0
      against the pikeman's melee resistance 0 + 0 - 1 + 1 (a pike is clumsy in melee) = 0:
      d = 0, P = 2/3 for each pikeman.
    * Without (the lab before issue 27): formation, 0 + 0 + 2 = 2 against 0 + 2 + 7 = 9:
      d = -7, P = 1/2187.
    """
    fight = ymlad_fight(line(2, holes))
    rng = np.random.default_rng(40)
    state = kernel.start(fight, N, rng)
    state.status[1], state.body[1] = UNCONSCIOUS, fight.fighters[1].down_at
    kernel.play_round(fight, state, rng, 1)
    exact = p_success(0) if holes else p_success(-7)
    for pikeman in (0, 2):
        down = (state.status[pikeman] != STANDING).mean()
        assert abs(down - exact) <= SIGMAS * np.sqrt(exact * (1 - exact) / N) + 1e-12


def test_beside_a_hole_more_may_attack_and_one_from_the_flank() -> None:
    """Five swordsmen on two pikemen left beside a hole: each pikeman has three places in
    front and one at the flank of the hole (seed: they "move in"), so four and one wait, or
    any split under four each; with the whole line standing, one each in front and three
    wait. The kernel and the reference count the same places; an attacker past the third
    comes from the side (the flank of the hole)."""
    fight = ymlad_fight(line(5))
    rng = np.random.default_rng(41)
    state = kernel.start(fight, 400, rng)
    state.status[1] = UNCONSCIOUS
    rnd = kernel.plan_round(kernel.static_of(fight), state, rng)
    on = np.stack([(rnd.target[3:] == p).sum(axis=0) for p in (0, 2)])
    assert (on.max(axis=0) <= 4).all() and (on.sum(axis=0) == 5).all()
    assert (rnd.flanked[[0, 2]]).all()
    assert (rnd.ring.angle[3:][rnd.ring.rank[3:] == 3] == FROM_SIDE).all()
    combat = ref.start_combat(fight)
    combat.fighters[1].status = UNCONSCIOUS
    ref.choose_targets(combat, rng)
    counts = [sum(m.target == p for m in combat.fighters[3:]) for p in (0, 2)]
    assert max(counts) <= 4 and sum(counts) == 5
    assert [m.holes for m in combat.fighters[:3]] == [1, 0, 1]
    whole = ymlad_fight(line(5))
    state = kernel.start(whole, 50, rng)
    rnd = kernel.plan_round(kernel.static_of(whole), state, rng)
    assert ((rnd.target[3:] >= 0).sum(axis=0) == 3).all() and not rnd.flanked[:3].any()


def test_three_pikemen_against_spearmen_lose_the_gap_once_a_man_falls() -> None:
    """Directional, on the fight that moved (docs/rules/ymlad.md, Holes): three pikemen in a
    gap against six spearmen, whose spears reach the places left and right of each pikeman
    in formation. Once a pikeman falls his neighbours are fought in melee, where the pike
    is clumsy: the pikemen won about 88% before issue 27 and about half the fights now
    (50,000 fights, seed 17). At 5,000 fights the standard error is under 0.5 (before) and
    0.8 points (now), so the test detects a change of the hole rule worth 5 points or more
    in either direction's margin."""
    scenario = line(6, pikes=3, weapon="spear", effort={})
    scenario["sides"][0]["members"] = [{
        "count": 3, "talents": {"strength": 3, "dexterity": 2},
        "skills": {"formation": 4, "melee": 1, "close": 1}, "weapon": "pike",
        "close_weapon": "dagger", "armour": ["gambeson", "open_helmet"],
        "policy": {"style": "formation"}}]
    scenario["sides"][1]["members"][0].update(
        {"skills": {"formation": 3, "melee": 4, "close": 2}, "shield": "medium",
         "armour": ["gambeson", "mail_shirt", "open_helmet"]})
    scenario["distance"] = 20
    held = balance.run(scenario, trials=5_000, seed=17).outcomes["a"]
    scenario["rules"] = {"holes": False}
    before = balance.run(scenario, trials=5_000, seed=17).outcomes["a"]
    assert before > 0.84 and held < 0.6
