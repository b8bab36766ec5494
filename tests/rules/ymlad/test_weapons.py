"""A fighter's weapons (seed 002, issue 27): the knight's lance charge, a weapon and a skill
per style, the cost of changing weapons, and what drives a missile's harm.

Hand-derived exact cases on the vectorised kernel, like ``test_exact.py`` (each played
200,000 times at a fixed seed and held to 4 standard errors of the exact value; the
derivation in each docstring), and the compile step's formulas against hand-worked numbers.
The drift die gives P(success) = P(d) = 1 - (1/3)^(d+1) for a score difference d >= 0 and
(1/3)^(-d) below (``rules.tables.p_success``).
"""

from __future__ import annotations

import numpy as np
import pytest

import balance
from balance.engine.status import STANDING
from balance.errors import ScenarioError
from balance.rules.ymlad.compile import effort, harm_margin, resistance
from balance.rules.ymlad.kernel import fight as kernel
from balance.rules.ymlad.rules.tables import (
    CLOSE,
    FORMATION,
    HELD,
    MELEE,
    MISSILE,
    fights_back,
    formation_by_charge,
    lance_charger,
    missile_adds_strength,
    p_success,
    switch_costs_attack,
)
from tests.rules.helpers import ymlad_duel as duel
from tests.rules.helpers import ymlad_fight

N = 200_000
SIGMAS = 4
ONE_HIT = {"slashing": -20, "piercing": -20, "pummeling": -20}   # any hit puts him down


def close_to(observed: float, exact: float, n: int = N) -> bool:
    """Within SIGMAS binomial standard errors of the exact probability."""
    return abs(observed - exact) <= SIGMAS * np.sqrt(exact * (1 - exact) / n) + 1e-12


KNIGHT = {"talents": {"strength": 3, "dexterity": 3}, "skills": {"formation": 4, "melee": 4},
          "weapon": "lance", "weapons": {"melee": "battle_sword"}, "mounted": "fast",
          "speed": 20.0, "resist": ONE_HIT, "policy": {"charge": True}}
SERGEANT = {"skills": {"formation": 2, "melee": 4}, "weapon": "battle_sword",
            "shield": "medium", "speed": 0.0, "resist": ONE_HIT}


def one_round(p: float, q: float, first: float) -> tuple[float, float]:
    """(P(a wins), P(b wins)) of one round in which a hits with ``p`` and b with ``q``, any
    hit puts the other down, a strikes first with probability ``first``, b first with
    ``1 - first - 1/20`` and both together with 1/20 (equal d20) unless ``first`` is 1
    (a charge round led by the longer reach)."""
    tie = 0.0 if first == 1 else 1 / 20
    b_first = 1 - first - tie
    return (first * p + b_first * (1 - q) * p + tie * p * (1 - q),
            b_first * q + first * (1 - p) * q + tie * q * (1 - p))


@pytest.mark.parametrize(("rule", "p", "q", "first"), [
    ("first_attack", p_success(3), p_success(-2), 1.0),
    ("charge_round", p_success(3), p_success(-7), 1.0),
    ("none", p_success(0), p_success(-2), 19 / 40),
])
def test_the_lance_charge_opens_with_a_formation_attack(rule: str, p: float, q: float,
                                                        first: float) -> None:
    """Seed, Formation: "Another possibility is the charge with lance of a knight from
    horseback, which ensures that at least the first attack will be a formation attack."
    (``rules.lance_charge``: ``first_attack``, the default, the charger's own attack of its
    charge round; ``charge_round`` also its target's attack back that round; ``none`` the
    style by the usual rules, the lab before issue 27.)

    A mounted knight (strength and dexterity 3: +1, +1; formation and melee 4: +2; a lance
    for the charge, a battle sword for the melee) charges a sergeant who stands 8 m away
    (sword and medium shield, formation 2: 0, melee 4: +2); the knight rides into reach in
    round 1, a charge round: the longer reach strikes first (seed, Charge: lance 5 + 1
    against sword 2 + 1). Any hit puts either down (``resist: -20``). One round:

    * knight, a formation attack with the lance: 0 + 2 + 6 (lance) + 1 (seed, Height: from
      horseback) = 9 against the sergeant's formation resistance 0 + 0 + 2 + 2 x 2 (shield)
      = 6: d = 3, p = 80/81;
    * if he misses (1/81), the sergeant strikes back, in melee (``first_attack``):
      0 + 0 + 2 + 4 - 1 (fighting up at a rider) = 5 against the knight's melee resistance
      with his sword 0 + 1 + 2 + 4 = 7: d = -2, q = 1/9; in formation (``charge_round``):
      0 + 0 + 2 - 1 = 1 against 0 + 2 + 6 = 8: d = -7;
    * ``none``: the knight charges with the sword he fights with (reach 3, as the
      sergeant's: the d20 orders the round) and strikes in melee, 0 + 1 + 2 + 4 + 1 = 8
      against 0 + 0 + 2 + 4 + 2 = 8: d = 0, p = 2/3; the sergeant at q = 1/9 (``one_round``).
    """
    scenario = duel(KNIGHT, SERGEANT, distance=8, max_rounds=1, rules={"lance_charge": rule})
    a, b = ymlad_fight(scenario).fighters
    lance = rule != "none"
    assert a.lance_charge == lance and (a.reach, b.reach) == ((6 if lance else 3), 3)
    assert effort(a, FORMATION) + 1 - resistance(b, FORMATION) == 3
    outcomes = balance.run(scenario, trials=N, seed=27).outcomes
    knight, sergeant = one_round(p, q, first)
    assert close_to(outcomes["a"], knight)
    assert close_to(outcomes["b"], sergeant)


def test_after_the_charge_the_knight_fights_with_his_sword() -> None:
    """Seed, Formation: "at least the first attack" (after it, the usual rules: the knight
    wants melee, so the fight is a melee); seed, The party: fighters carry more than one
    weapon and switch. Round 2 of the charge above, both still standing: no charge now,
    plain initiative. The knight strikes in melee with his battle sword (``weapons: {melee:
    battle_sword}``) at d = 0 (p = 2/3, as worked in the test above), the sergeant at his
    sword's resistance 7, d = -2 (q = 1/9). With the lance alone in melee (melee score 1:
    0 + 1 + 2 + 1 + 1 = 5 against 8, d = -3, p = 1/27; and he parries with it: resistance
    0 + 1 + 2 + 1 = 4, the sergeant at d = 1, q = 8/9): what a lance is worth after the
    charge. The sergeant is down after the round with P(knight wins) of ``one_round``
    plus the mutual falls, (1/20) p q.
    """
    for melee, p, q in (("battle_sword", p_success(0), p_success(-2)),
                        ("lance", p_success(-3), p_success(1))):
        knight = {**KNIGHT, "weapons": {"melee": melee}}
        fight = ymlad_fight(duel(knight, SERGEANT, distance=8))
        rng = np.random.default_rng(28)
        state = kernel.start(fight, N, rng)
        state.pos[0] = state.pos[1]              # in reach, the charge already made
        state.charged[0] = True
        kernel.play_round(fight, state, rng, 2)
        exact = one_round(p, q, 19 / 40)[0] + p * q / 20
        assert close_to((state.status[1] != STANDING).mean(), exact)


@pytest.mark.parametrize(("weapons", "exact"), [
    ({"melee": {"weapon": "battle_sword", "skill": 2}}, p_success(-2)),
    ({"melee": "battle_sword"}, p_success(2)),
    ({}, p_success(1)),
])
def test_a_weapon_per_style_with_its_own_skill(weapons: dict, exact: float) -> None:
    """Seed, The party: Sir Florimond "wields a long poleaxe and keeps a dagger as backup
    weapon"; Neelay "In missile combat she prefers a sling; in melee she fights with a
    saber"; the skeletons' "skill levels listed are for the weapons that the skeletons
    prefer to use. If they are forced to switch to other weapons, skill levels are lower".

    A spearman (melee 6: +4) whose melee weapon is a battle sword (``weapons: {melee:
    ...}``) strikes a swordsman (melee 4: +2, battle sword: resistance 6) who cannot hit
    back; any hit downs him; one round. With the sword and his melee skill: 0 + 0 + 4 + 4
    = 8, d = 2, P = 26/27; with the sword at ``skill: 2`` (0): 4, d = -2, P = 1/9; with his
    spear (melee score 3): 7, d = 1, P = 8/9.
    """
    spearman = {"skills": {"melee": 6}, "weapon": "spear", "weapons": weapons}
    swordsman = {"skills": {"melee": 4}, "weapon": "battle_sword", "resist": ONE_HIT,
                 "effort": {"melee": -20}}
    scenario = duel(spearman, swordsman, max_rounds=1)
    a, b = ymlad_fight(scenario).fighters
    assert effort(a, MELEE) - resistance(b, MELEE) == {p_success(-2): -2, p_success(2): 2,
                                                       p_success(1): 1}[exact]
    assert close_to(balance.run(scenario, trials=N, seed=29).outcomes["a"], exact)


@pytest.mark.parametrize("switch", ["free", "attack"])
def test_taking_up_another_weapon_may_cost_the_attack(switch: str) -> None:
    """``rules.weapon_switch`` (lab; the seed's own cost of another weapon is the skill
    with it): ``free`` (default), or ``attack``: the round a fighter takes up a different
    weapon it does not attack.

    A swordsman with a dagger for close combat (``weapons: {close: dagger}``, close 3: +1)
    who last struck with his sword is held in close combat by a wrestler whose attacks never
    land; he fights back (``policy.held: fight``) with the dagger: close effort
    0 + 0 + 1 + 4 = 5 against the wrestler's 0 + 0 + 2 + 3 = 5, d = 0, P = 2/3 each attack,
    and any hit downs the wrestler. ``free``: down after round 1 with 2/3, after round 2
    with 8/9; ``attack``: round 1 goes on drawing the dagger, so 0 and then 2/3.
    """
    swordsman = {"skills": {"melee": 4, "close": 3}, "weapon": "battle_sword",
                 "weapons": {"close": "dagger"}, "policy": {"held": "fight"}}
    wrestler = {"skills": {"close": 4}, "weapon": "fist", "resist": ONE_HIT,
                "effort": {"close": -20, "melee": -20}, "policy": {"style": "close"}}
    fight = ymlad_fight(duel(swordsman, wrestler, rules={"weapon_switch": switch}))
    a, b = fight.fighters
    assert effort(a, CLOSE) - resistance(b, CLOSE) == 0 and a.weapon_id[CLOSE] != a.weapon_id[MELEE]
    rng = np.random.default_rng(30)
    state = kernel.start(fight, N, rng)
    state.close_with[0], state.close_with[1] = 1, 0
    if switch == "attack":
        state.held[0] = a.weapon_id[MELEE]       # the sword in hand from the melee before
    down = []
    for round_no in (1, 2):
        kernel.play_round(fight, state, rng, round_no)
        down.append((state.status[1] != STANDING).mean())
    p = p_success(0)
    expected = [p, 1 - (1 - p) ** 2] if switch == "free" else [0.0, p]
    assert close_to(down[0], expected[0]) and close_to(down[1], expected[1])


@pytest.mark.parametrize(("missile", "rules", "margin"), [
    ("hand_bow_war", {}, 6),                                      # a bow: the arm's strength
    ("hand_bow_war", {"missile_strength": {"bow": False}}, 4),   # the lab before issue 27
    ("cavalry_crossbow", {}, 5),                                  # a crossbow's mechanism
    ("cavalry_crossbow", {"missile_strength": {"crossbow": True}}, 7),
])
def test_a_missiles_harm_takes_the_strength_that_drives_it(missile: str, rules: dict,
                                                           margin: int) -> None:
    """Seed, Wounding: "The formula for effort is body harm modifier + strength modifier +
    weapon slashing/piercing/pummeling harm score", missiles included; lab reading
    (``rules.missile_strength``, per kind): the strength of the arm that drives a bow, a
    sling or a throw counts, a crossbow's mechanism does not take its user's.

    A strong archer (strength 4: +2; dexterity 4: +2; missile 6: +4) shoots at 10 m (the
    close band, no penalty) at an unarmoured man who stands (speed 0) and carries no shield:
    effort 2 + 4 + 3 (the bow's or the crossbow's missile score 3 or 4) against 0: d = 9 or
    10. Harm: 0 + 2 + 4 (war arrow) = 6, or 4 without strength; the crossbow's bolt 5, or 7
    with strength; against 0 (no armour). He goes down at 7 harm (threshold 2: past 3T):
    P(down) = P(hit) x P(drift >= 7 - margin), (1/3)^j for j >= 1.
    """
    archer = {"talents": {"strength": 4, "dexterity": 4}, "skills": {"missile": 6},
              "missile": missile, "policy": {"style": "missile"}}
    target = {"speed": 0.0, "effort": {"melee": -20}}
    scenario = duel(archer, target, distance=10, max_rounds=1, rules=rules)
    a, b = ymlad_fight(scenario).fighters
    assert harm_margin(a, b, MISSILE)[0] == margin
    hit = p_success(effort(a, MISSILE) - resistance(b, MISSILE))
    need = 7 - margin
    exact = hit * (3.0 ** -need if need >= 1 else 1 - 3.0 ** (need - 1))
    assert close_to(balance.run(scenario, trials=N, seed=31).outcomes["a"], exact)


def test_the_rule_functions() -> None:
    """The small rules behind the cases above, on plain numbers."""
    assert lance_charger(True, True, True, 0) and not lance_charger(False, True, True, 0)
    assert not lance_charger(True, True, True, 2) and not lance_charger(True, False, True, 0)
    assert [bool(formation_by_charge(m, t, r)) for r in (0, 1, 2) for m, t in
            ((True, False), (False, True))] == [True, False, True, True, False, False]
    assert fights_back(HELD["fight"], -3, 2) and not fights_back(HELD["disengage"], 5, 0)
    assert fights_back(HELD["auto"], 1, 1) and not fights_back(HELD["auto"], 0, 1)
    assert not switch_costs_attack(-1, 2, True) and switch_costs_attack(1, 2, True)
    assert not switch_costs_attack(1, 2, False) and not switch_costs_attack(2, 2, True)

    class Rule:
        bow, crossbow, sling, thrown, blowgun = True, False, True, True, False

    assert missile_adds_strength("bow", None, Rule) and not missile_adds_strength(
        "crossbow", None, Rule)
    assert missile_adds_strength("crossbow", True, Rule) and not missile_adds_strength(
        None, None, Rule)


def test_weapons_per_style_compile() -> None:
    """Skirmish scores, harm, reach and load come from the weapon of each style; a roster
    entry's ``weapons`` merge key by key; a two-handed weapon among them refuses a shield."""
    knight = {**KNIGHT, "weapons": {"melee": "battle_sword", "close": "dagger"},
              "shield": "cavalry"}
    a, _ = ymlad_fight(duel(knight, SERGEANT)).fighters
    assert a.weapon[FORMATION:] == (6, 4, 4) and a.harm[FORMATION].piercing == 7
    assert a.harm[MELEE].slashing == 6 and a.harm[CLOSE].piercing == 3
    assert len(set(a.weapon_id)) == 4 and a.reach == 6 and not a.polearm and a.reach_through
    member = {"roster": "sir_florimond", "weapons": {"melee": "battle_sword"}}
    f, _ = ymlad_fight(duel(member, SERGEANT)).fighters
    assert f.weapon[FORMATION:] == (5, 4, 4)          # poleaxe, sword, the roster's dagger
    with pytest.raises(ScenarioError, match="two-handed"):
        ymlad_fight(duel({**knight, "weapons": {"formation": "pike"}}, SERGEANT))
    with pytest.raises(ScenarioError, match="hand_weapon"):
        balance.load_scenario(duel({"weapons": {"melee": {"weapon": "sward"}}}, SERGEANT))
