"""A poisoned weapon in a percentile fight (member ``poison:`` and ``poison_doses:``).

Seed 004 rates every poison by its POT and pits it against the victim's CON on the
Resistance Table, "the poison is the active side": overcome, the victim loses POT hit
points; resisting, half the POT. The seed says nothing of blades or doses; the lab's
reading (docs/rules/percentile.md, "Poisoned weapons"): the main weapon's first
``poison_doses`` (default 1) blows that get past armour each use a dose.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import balance
from balance.api import compile_scenario
from balance.errors import ScenarioError

N = 200_000

# A fighter that cannot miss and always does exactly 1 point: attack 200 with a weapon of
# fixed damage 1 and no damage bonus; `auto_failure: 101` lifts the 96-00 automatic miss, so
# every roll succeeds (success range 100, no fumble range left).
STABBER = {"characteristics": {"DEX": 15}, "skills": {"attack": 200}, "weapon": "pin",
           "armour": "none"}
# A victim that never harms it: attack 0 with its fists (rolls 96-00 fumble, the rest
# miss), no parry or dodge, 30 hit points, CON 10.
VICTIM = {"characteristics": {"CON": 10, "DEX": 5}, "skills": {"attack": 0},
          "weapon": "fist", "armour": "none", "hit_points": 30, "policy": {"defence": "none"}}


def bout(stabber: dict, victim: dict = VICTIM, **kw) -> dict:
    out = {"name": "poison", "ruleset": "percentile", "trials": N, "seed": 18,
           "max_rounds": 60, "rules": {"auto_failure": 101},
           # the pin: fixed damage 1, no damage bonus; a fumble only loses the next attack
           "tables": {"weapons": {"pin": {"skill": 25, "damage": "1", "db": "none"}},
                      "fumbles": {name: {"weight": 0} for name in
                                  ("drop_weapon", "weapon_breaks", "hit_self", "fall")}},
           "sides": [{"name": "a", "members": [stabber]}, {"name": "b", "members": [victim]}]}
    out.update(kw)
    return out


def rounds_ended(scenario: dict, trials: int = N) -> dict[int, float]:
    """The share of fights decided in each round."""
    counts = balance.run(scenario, trials=trials).tally.rounds
    return {r: c / trials for r, c in enumerate(np.asarray(counts)) if c}


def within_4se(share: float, p: float, n: int = N) -> bool:
    return abs(share - p) <= 4 * math.sqrt(p * (1 - p) / n)


def test_a_poisoned_blade_shortens_the_fight_exactly() -> None:
    """Seed 004: POT against CON, "the poison is the active side"; overcome, POT hit
    points; resisted, half the POT.

    The stabber hits every round for exactly 1 (see ``STABBER``) and the victim never
    harms it, so without poison the victim's 30 hit points last until round 30. With adder
    venom (POT 10) the first blow gets through (no armour) and uses the one dose: POT 10
    against CON 10 on the Resistance Table is 50%. Overcome: 1 + 10 lost in round 1, 19
    left, dead in round 1 + 19 = 20; resisted: 1 + 5 (half of 10), 24 left, dead in round
    25. No loss reaches a major wound (15, half of 30). So the fight ends in round 20 or 25,
    one half each, and in no other round. With two doses the first two blows are poisoned:
    30 - 2 - (10 or 5) - (10 or 5) leaves 8, 13 or 18: the fight ends in round 10, 15 or 20
    with probability 1/4, 1/2, 1/4.
    """
    assert rounds_ended(bout(STABBER), trials=1_000) == {30: 1.0}
    one = rounds_ended(bout({**STABBER, "poison": "adder_venom"}))
    assert set(one) == {20, 25} and within_4se(one[20], 0.5), one
    two = rounds_ended(bout({**STABBER, "poison": "adder_venom", "poison_doses": 2}),
                       trials=50_000)
    assert set(two) == {10, 15, 20}, two
    assert within_4se(two[10], 0.25, 50_000) and within_4se(two[15], 0.5, 50_000), two


def test_the_tables_onset_holds_the_loss_back() -> None:
    """Seed 004: "most poisons work slowly"; with ``rules.poison_onset: table`` a poisoned
    blow's loss waits the poison's ``onset_rounds`` and comes at the start of that round.

    The bout above with a POT 10 poison that takes hold after 20 rounds: dosed by the blow
    of round 1, it strikes at the start of round 21, when 30 - 20 = 10 hit points are left.
    Overcome (50%), 10 lost: dead in round 21. Resisted, 5 lost, 5 left: the blows of rounds
    21 to 25 kill. So the fight ends in round 21 or 25, one half each. Adder venom (75
    rounds in the shipped table) never takes hold inside the 30 rounds the blows need.
    """
    slow = bout({**STABBER, "poison": "slow"}, rules={"auto_failure": 101,
                                                     "poison_onset": "table"})
    slow["tables"]["poisons"] = {"slow": {"pot": 10, "onset_rounds": 20}}
    got = rounds_ended(slow)
    assert set(got) == {21, 25} and within_4se(got[21], 0.5), got
    adder = {**slow, "sides": bout({**STABBER, "poison": "adder_venom"})["sides"]}
    assert rounds_ended(adder, trials=1_000) == {30: 1.0}


def test_armour_that_stops_the_blow_keeps_the_dose() -> None:
    """The lab: only a blow whose damage gets past armour uses a dose.

    Against 1 point of armour the stabber's 1-point blows do nothing, except its criticals
    (rolls 01-10 at 200%: 200 / 20), which ignore armour. The victim, CON 20, always
    resists a POT 10 poison (a difference of ten: 50 - 50 = 0%), losing half the POT, 5.
    After 20 rounds a victim never struck by a critical (0.9^20, about 12%) has lost
    nothing and the dose is still on the blade; any other has lost 5 to the poison and one
    point per critical, at least 6.
    """
    victim = {**VICTIM, "characteristics": {"CON": 20, "DEX": 5}, "armour": "one_point"}
    scenario = bout({**STABBER, "poison": "adder_venom"}, victim)
    scenario["tables"]["armour"] = {"one_point": {"protection": 1}}
    system, fight = compile_scenario(balance.load_scenario(scenario))
    state = system.start(fight, 2_000, np.random.default_rng(1))
    rng = np.random.default_rng(2)
    for round_no in range(1, 21):
        system.play_round(fight, state, rng, round_no)
    lost = 30 - state.hp[1].astype(int)
    dosed = state.poison_doses[0] == 0
    assert 0.05 < 1 - dosed.mean() < 0.2
    assert (lost[~dosed] == 0).all() and (lost[dosed] >= 6).all()


GOOD = """\
name: poison check
ruleset: percentile
sides:
  - name: red
    members:
      - weapon: dagger
        poison: {poison}
  - name: blue
    members:
      - weapon: broadsword
"""


@pytest.mark.parametrize(("poison", "message"), [
    ("wine_of_bakshaan", "'wine_of_bakshaan' has no POT"),
    ("adder_venon", "did you mean 'adder_venom'"),
])
def test_a_poison_without_a_pot_or_name_is_a_clean_error(tmp_path, poison, message) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(GOOD.format(poison=poison))
    with pytest.raises(ScenarioError) as caught:
        compile_scenario(balance.load_scenario(path))
    (problem,) = caught.value.problems
    assert problem.path == "sides[0].members[0].poison" and message in problem.message
    assert problem.line == 7 and str(path) in str(problem)
    if poison == "wine_of_bakshaan":    # the usable rows are listed
        assert "adder_venom" in problem.message and "cyanide" in problem.message


@pytest.mark.parametrize(("extra", "message"), [
    ({"poison_doses": 2}, "poison_doses needs a poison"),
    ({"poison": "cyanide", "poison_doses": 0}, "greater than or equal to 1"),
])
def test_doses_need_a_poison_and_are_counted(extra, message) -> None:
    with pytest.raises(ScenarioError, match=message):
        balance.load_scenario(bout({**STABBER, **extra}))


def test_a_fight_without_poison_keeps_no_dose_state() -> None:
    """Decided when the fight is compiled: no poison, no dose step and no dose array."""
    loaded = balance.load_scenario(bout(STABBER))
    system, fight = compile_scenario(loaded)
    assert "poison" not in fight.uses
    assert system.start(fight, 10, np.random.default_rng(0)).poison_doses.shape == (0, 10)
