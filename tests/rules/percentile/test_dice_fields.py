"""Dice fields of the percentile tables take the whole dice language (keep/drop, exploding,
counted dice), except the two the family halves by halving their dice: the damage bonus and
the armour roll, which refuse anything but plain dice with a clear error."""

from __future__ import annotations

import pytest

import balance
from balance.dice import parse
from balance.errors import ScenarioError
from balance.rules import get
from balance.rules.percentile.rules import damage as dmg
from tests.rules.helpers import percentile_member as member


def duel(tables: dict) -> dict:
    return {"name": "dice fields", "ruleset": "percentile", "trials": 1000, "seed": 1,
            "max_rounds": 20, "tables": tables,
            "sides": [{"name": "a", "members": [member(70)]},
                      {"name": "b", "members": [member(60)]}]}


def test_a_weapon_with_kept_dice_compiles_to_its_exact_pmf():
    """2D8kh1+1 (the better of two d8, plus 1): P(9) = P(best d8 is 8) = 15/64."""
    loaded = balance.load_scenario(duel({"weapons": {"broadsword": {"damage": "2D8kh1+1"}}}))
    assert loaded.tables.weapons["broadsword"].damage == "2D8kh1+1"
    assert dmg.weapon_pmf("2D8kh1+1").to_dict()[9] == pytest.approx(15 / 64)
    get("percentile").compile(loaded.model, loaded.tables)   # compiles without complaint
    res = balance.run(duel({"weapons": {"broadsword": {"damage": "1D8!+1"}}}), trials=2000)
    assert sum(res.outcomes.values()) == pytest.approx(1)


def test_a_pulled_blow_keeps_rich_dice_as_dice():
    """Seed 004, pulled blow: halve the dice result, ignore modifiers. 2D4kh1+3 -> the better
    of two d4, halved: P(0) = P(best is 1) = 1/16, P(1) = P(best 2 or 3) = 3/16 + 5/16."""
    pulled = dmg.pulled_pmf("2D4kh1+3").to_dict()
    assert pulled == pytest.approx({0: 1 / 16, 1: 8 / 16, 2: 7 / 16})


@pytest.mark.parametrize(("tables", "where"), [
    ({"damage_bonus": {"huge": {"at_least": 90, "bonus": "2D6kh1"}}}, "bonus"),
    ({"armour": {"leather": {"protection": "1D6!"}}}, "protection"),
])
def test_halved_fields_refuse_rich_dice(tables: dict, where: str):
    with pytest.raises(ScenarioError) as info:
        balance.load_scenario(duel(tables))
    text = str(info.value)
    assert where in text and "plain dice and numbers only" in text


def test_literal_rolls_use_the_terms_own_roll():
    """The scalar reference rolls a kept pool die by die: with scripted dice the better of
    2d8 is kept."""
    class Scripted:
        def __init__(self, faces):
            self.faces = list(faces)

        def integers(self, lo, hi):
            return self.faces.pop(0)

    assert dmg.roll_dice("2D8kh1+1", Scripted([3, 7])) == 8
    assert dmg.roll_dice("1D6!+1", Scripted([6, 6, 2])) == 15
    assert parse("5D10>=7").roll(Scripted([7, 1, 10, 6, 9])) == 3
