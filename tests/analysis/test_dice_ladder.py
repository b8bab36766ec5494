"""Dice fields stepped along their ladders by solve, sensitivity and autobalance
(balance.dice.ladder): the modifier by one, the die by size d4, d6, d8, d10, d12.

The ladder arithmetic is checked exactly; the questions are checked on the percentile
broadsword (1D8+1) against a battle axe, with small trial counts: each test asserts what the
question says (which values it played, how it spells them, where the ladder ends), and one
directional fact the rules make certain: more broadsword damage cannot lower its wielder's
chances by much, so the +1 modifier's change is checked to be positive only at ~4 SE.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import balance
from balance.analysis import sensitivity, solve
from balance.analysis.fields import varied_fields
from balance.analysis.subject import Subject
from balance.dice.ladder import DIE_LADDER, LadderError, at, position
from balance.errors import OptionError
from balance.sweep.plan import load_plan

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"

DUEL = {
    "name": "Broadsword vs axe", "ruleset": "percentile", "trials": 16384, "seed": 3,
    "max_rounds": 40,
    "sides": [{"name": "red", "members": [{
        "characteristics": {"STR": 13, "CON": 13, "SIZ": 13, "DEX": 12},
        "skills": {"attack": 65, "shield": 60}, "weapon": "broadsword",
        "shield": "full_shield", "armour": "leather_and_rings"}]},
        {"name": "blue", "members": [{
            "characteristics": {"STR": 13, "CON": 13, "SIZ": 13, "DEX": 12},
            "skills": {"attack": 65, "shield": 60}, "weapon": "battle_axe",
            "shield": "full_shield", "armour": "leather_and_rings"}]}],
}


# ------------------------------------------------------------------ the ladder itself
@pytest.mark.parametrize(("text", "modifier", "die"), [
    ("1D6+1", 1, 1), ("1D8+1", 1, 2), ("2D6", 0, 1), ("1D4-1", -1, 0), ("1D12+2", 2, 4),
    ("1D10+1D4+2", 2, 3), ("4d6kh3+2", 2, 1)])
def test_positions(text: str, modifier: int, die: int):
    assert (position(text, "modifier"), position(text, "die")) == (modifier, die)


def test_steps_keep_the_rest_and_the_spelling():
    assert [at("1D6+1", "modifier", k) for k in (-1, 0, 1, 2)] == \
        ["1D6-1", "1D6", "1D6+1", "1D6+2"]
    assert [at("1D6+1", "die", k) for k in range(5)] == \
        ["1D4+1", "1D6+1", "1D8+1", "1D10+1", "1D12+1"]
    assert at("2D6", "die", 2) == "2D8"                    # every die of the term moves
    assert at("1D10+1D4+2", "die", 4) == "1D12+1D4+2"      # only the first die term
    assert at("d8+1", "modifier", 3) == "d8+3"             # lower case stays lower case
    assert at("4d6kh3+2", "die", 0) == "4d4kh3+2"


def test_the_ladder_ends_and_off_ladder_dice_are_refused():
    with pytest.raises(LadderError, match="runs from d4 to d12: no step above"):
        at("1D12", "die", len(DIE_LADDER))
    with pytest.raises(LadderError, match="runs from d4 to d12: no step below"):
        at("1D4", "die", -1)
    with pytest.raises(LadderError, match="d3 is not on the die ladder"):
        position("1D3", "die")
    with pytest.raises(LadderError, match="no die"):
        position("3", "die")


# ----------------------------------------------------------------------- the paths
def test_a_dice_path_means_its_modifier_and_may_name_its_ladder():
    subject = Subject.load(copy.deepcopy(DUEL))
    plain = subject.resolve("tables.weapons.broadsword.damage")
    die = subject.resolve("tables.weapons.broadsword.damage.die")
    assert plain[-1] == "@modifier" and die[-1] == "@die"
    assert subject.resolve("tables.weapons.broadsword.damage.modifier") == plain
    assert (subject.numeric(plain), subject.numeric(die)) == (1, 2)
    assert subject.name_of(die) == "broadsword.damage.die"
    loaded = subject.variant({die: 3, subject.resolve("sides.red.members.0.skills.attack"): 70})
    assert loaded.tables.weapons["broadsword"].damage == "1D10+1"
    with pytest.raises(OptionError, match=r"is not a field|not a"):
        subject.resolve("tables.weapons.broadsword.skill.die")


def test_off_ladder_dice_say_so(tmp_path):
    data = copy.deepcopy(DUEL)
    data["tables"] = {"weapons": {"broadsword": {"damage": "1D3+1"}}}
    with pytest.raises(OptionError, match=r"damage.die: '1D3\+1': its die d3 is not on"):
        solve(data, "tables.weapons.broadsword.damage.die", 0.5, trials=1024,
              block_trials=1024)


# ---------------------------------------------------------------------- questions
def test_sensitivity_steps_the_modifier_and_the_die_and_spells_them():
    """Both ladders one step each way; the +1 modifier helps red (a paired change of at
    least 4 standard errors above 0 at 16,384 trials: about +6 points measured)."""
    res = sensitivity(copy.deepcopy(DUEL), paths=["tables.weapons.broadsword.damage",
                                                  "tables.weapons.broadsword.damage.die"],
                      side="red", trials=16384, block_trials=4096)
    moves = {(r.name, r.from_, r.to) for r in res.rows}
    assert moves == {("broadsword.damage.modifier", "1D8+1", "1D8+2"),
                     ("broadsword.damage.modifier", "1D8+1", "1D8"),
                     ("broadsword.damage.die", "1D8+1", "1D10+1"),
                     ("broadsword.damage.die", "1D8+1", "1D6+1")}
    up = next(r for r in res.rows if r.to == "1D8+2")
    half = (up.ci95[1] - up.ci95[0]) / 2
    assert up.delta > 2 * half          # ~4 SE: 95% half-width is 1.96 SE
    assert res.to_dict()["rows"][0]["from"] == "1D8+1"


def test_sensitivity_skips_a_step_off_the_end_of_the_die_ladder():
    data = copy.deepcopy(DUEL)
    data["tables"] = {"weapons": {"broadsword": {"damage": "1D12+1"}}}
    res = sensitivity(data, paths=["tables.weapons.broadsword.damage.die"], side="red",
                      trials=4096, block_trials=4096)
    assert [r.to for r in res.rows] == ["1D10+1"]
    assert res.skipped[0]["to"] == "(no step above)"
    assert "runs from d4 to d12" in res.skipped[0]["why"]


def test_solve_walks_the_modifier_and_answers_in_dice():
    res = solve(copy.deepcopy(DUEL), "tables.weapons.broadsword.damage", 0.5, side="red",
                trials=16384, block_trials=4096)
    assert res.integer and res.text == at("1D8+1", "modifier", res.value)
    assert all(p.text == at("1D8+1", "modifier", p.value) for p in res.evaluations)
    assert f"({res.text})" in res.to_text()
    assert res.to_dict()["text"] == res.text


def test_autobalance_fields_take_dice_with_ladder_bounds():
    plan = load_plan(SCENARIOS / "sweeps" / "percentile_weapon_round_robin.yaml")
    die, mod = varied_fields(plan, ["tables.weapons.rapier.damage.die",
                                    "tables.weapons.mace.damage"], {})
    assert (die.ladder, die.dice, die.start, die.low, die.high) == ("die", "1D6+1", 1, 0, 3)
    assert (mod.ladder, mod.dice, mod.start) == ("modifier", "1D8+2", 2)
    assert die.value(2) == "1D8+1" and mod.value(0) == "1D8"
    with pytest.raises(OptionError, match="named twice"):
        varied_fields(plan, ["tables.weapons.mace.damage", "tables.weapons.mace.damage.die"],
                      {})
    with pytest.raises(OptionError, match=r"\.die steps a dice field"):
        varied_fields(plan, ["tables.weapons.mace.skill.die"], {})


def test_run_accepts_the_stepped_text():
    data = copy.deepcopy(DUEL)
    data["tables"] = {"weapons": {"broadsword": {"damage": at("1D8+1", "die", 4)}}}
    assert balance.load_scenario(data).tables.weapons["broadsword"].damage == "1D12+1"


def test_exchange_spells_dice_steps():
    from balance.analysis import exchange

    res = exchange(copy.deepcopy(DUEL), give="tables.weapons.broadsword.damage.die",
                   take="tables.weapons.broadsword.damage", side="red", trials=4096,
                   block_trials=4096)
    assert res.give.texts == ("1D8+1", "1D10+1") and res.take.texts == ("1D8+1", "1D8+2")
    assert "broadsword.damage.die 1D8+1 -> 1D10+1:" in res.to_text()
    doc = res.to_dict()
    assert doc["give"]["to_text"] == "1D10+1" and doc["give"]["to"] == 3
