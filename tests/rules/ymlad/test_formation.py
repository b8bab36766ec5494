"""The formation front (seed 002, Group fights and Formation), kernel and reference.

Seed: "in formation combat, a maximum of three people in front of him/her"; formation
fighting favours "a single fighter ... defending a narrow recess"; "Fighters can attack the
enemy right in front of them. If they wield a spear or other type of polearm, they can also
attack the enemy to the left and right, if any, but not beyond that." Secured flanks (walls)
leave a fighter only its front; those who find no place wait or go to another foe.
"""

from __future__ import annotations

import numpy as np
import pytest

import balance
from balance.engine.status import STANDING
from balance.rules.ymlad.kernel import fight as kernel
from balance.rules.ymlad.reference import fight as ref
from balance.rules.ymlad.rules.tables import FROM_FRONT
from tests.rules.helpers import ymlad_fight as compiled

SWORD = {"talents": {"strength": 3, "dexterity": 3},
         "skills": {"formation": 2, "melee": 4, "close": 2}, "weapon": "battle_sword",
         "shield": "medium", "armour": ["gambeson", "mail_shirt", "open_helmet"]}
PIKE = {"talents": {"strength": 3, "dexterity": 2}, "skills": {"formation": 4, "melee": 1},
        "weapon": "pike", "armour": ["gambeson", "open_helmet"],
        "policy": {"style": "formation"}}


def recess(foe: dict, count: int, *, secured: bool = True, defender: dict = PIKE) -> dict:
    return {"name": "recess", "ruleset": "ymlad", "sides": [
        {"name": "a", "flanks_secured": secured, "members": [defender]},
        {"name": "b", "members": [{**foe, "count": count}]}]}


def on_the_defender(scenario: dict) -> tuple[list[int], list[int], int]:
    """How many attack fighter 0 in round 1, by the kernel (the counts seen over 200 trials)
    and by the reference, and the worst angle any of them comes from (kernel)."""
    fight = compiled(scenario)
    rng = np.random.default_rng(0)
    state = kernel.start(fight, 200, rng)
    rnd = kernel.plan_round(kernel.static_of(fight), state, rng)
    on = rnd.target[1:] == 0
    combat = ref.start_combat(fight)
    ref.choose_targets(combat, rng)
    return (sorted(set(on.sum(axis=0).tolist())),
            [sum(m.target == 0 for m in combat.fighters[1:])],
            int(rnd.ring.angle[1:][on].max()))


@pytest.mark.parametrize(("foe", "count", "secured", "defender", "expected"), [
    (SWORD, 4, True, PIKE, 1),                          # formation: one right in front ...
    ({**SWORD, "weapon": "spear"}, 5, True, PIKE, 3),   # ... spears also left and right
    (SWORD, 5, True, SWORD, 3),                         # a swordsman in a corridor: front
    (SWORD, 8, False, PIKE, 6),                         # open ground: six round him
])
def test_secured_flanks_leave_only_the_front(foe, count, secured, defender, expected) -> None:
    kernel_counts, reference_counts, worst = on_the_defender(
        recess(foe, count, secured=secured, defender=defender))
    assert kernel_counts == [expected] and reference_counts == [expected]
    assert (worst == FROM_FRONT) == secured          # no flank or rear places behind walls


def test_those_without_a_place_go_to_another_foe() -> None:
    """Two pikemen holding a gap: one sword takes the place in front of each, the third waits
    (kernel and reference; which sword waits is random since issue 15)."""
    scenario = {"name": "gap", "ruleset": "ymlad", "sides": [
        {"name": "a", "flanks_secured": True, "members": [{**PIKE, "count": 2}]},
        {"name": "b", "members": [{**SWORD, "count": 3}]}]}
    fight = compiled(scenario)
    rng = np.random.default_rng(0)
    state = kernel.start(fight, 10, rng)
    choice = kernel.choose_targets(kernel.static_of(fight), state, state.status == STANDING, rng)
    assert (np.sort(choice.target[2:], axis=0).T == [-1, 0, 1]).all()
    combat = ref.start_combat(fight)
    ref.choose_targets(combat, rng)
    assert sorted(-1 if m.target is None else m.target for m in combat.fighters[2:]) == [-1, 0, 1]


def test_a_pikeman_in_a_recess_holds_against_any_number_of_swords() -> None:
    """Before issue 13 the fourth swordsman came round the flank of a pikeman whose flanks
    were secured and forced melee: 99.8% against three, 0% against four. Now the swords come
    one at a time through the recess, in formation style, whatever their number."""
    n = 20_000
    three = balance.run(recess(SWORD, 3), trials=n, seed=1).outcomes["a"]
    four = balance.run(recess(SWORD, 4), trials=n, seed=1).outcomes["a"]
    assert three > 0.99 and four > 0.99
    open_ground = balance.run(recess(SWORD, 4, secured=False), trials=n, seed=1).outcomes["a"]
    assert open_ground < 0.05
