"""Seed 004's hazards as exact calculators, ``balance hazard`` and ``balance dice
--resistance``: exact values, the JSON contract, clean errors."""

from __future__ import annotations

import argparse
import json

import pytest

from balance.commands import dice as dice_command
from balance.commands import hazard as hazard_command
from balance.dice import Pmf
from balance.errors import OptionError
from balance.rules.percentile.rules import hazards as hz


def run(module, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    parser = argparse.ArgumentParser(prog="balance")
    module.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    assert args.func(args) == 0
    return capsys.readouterr().out


def test_poison_json_contract(capsys) -> None:
    doc = json.loads(run(hazard_command, capsys, "hazard", "poison", "--pot", "16", "--con",
                         "12", "--json"))
    # POT 16 against CON 12: 50% + 4 x 5% = 70%; overcome 16 hp, resisted half: 8
    assert doc == {"hazard": "poison",
                   "inputs": {"poison": None, "pot": 16, "con": 12, "mild": False, "hp": None},
                   "p_overcome": pytest.approx(0.7),
                   "damage": {"8": pytest.approx(0.3), "16": pytest.approx(0.7)}}


def test_poison_by_name_with_death_chance_and_text(capsys) -> None:
    out = run(hazard_command, capsys, "hazard", "poison", "--poison", "cyanide", "--con", "14",
              "--hp", "12")
    assert out.startswith("cyanide: POT 20 against CON 14")
    assert "cyanide overcomes CON 14: 0.800000  (80.00%), losing 20 hp" in out
    assert "CON 14 overcomes cyanide: 0.200000  (20.00%), losing 10 hp (half the POT)" in out
    assert "death (>= 12 hp lost): 0.800000" in out       # 20 kills, 10 does not
    doc = json.loads(run(hazard_command, capsys, "hazard", "poison", "--pot", "8", "--con",
                         "20", "--mild", "--json"))
    assert doc["p_overcome"] == 0.0 and doc["damage"] == {"0": 1.0}
    assert doc["inputs"] == {"poison": None, "pot": 8, "con": 20, "mild": True, "hp": None}


@pytest.mark.parametrize(("argv", "message"), [
    (["poison", "--poison", "arsenik", "--con", "10"], "did you mean 'arsenic'"),
    (["poison", "--poison", "wine_of_bakshaan", "--con", "10"], "has no POT"),
    (["poison", "--pot", "0", "--con", "10"], "--pot must be between 1 and 1000"),
    (["fall", "--yards", "5", "--armour", "mithril"], "not a known armour"),
    (["fire", "--source", "volcano"], "not a known fire"),
    (["poison", "--pot", "10", "--con", "10", "--hp", "0"], "--hp must be at least 1"),
])
def test_hazard_errors_are_clean(argv, message, capsys) -> None:
    parser = argparse.ArgumentParser(prog="balance")
    hazard_command.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["hazard", *argv])
    with pytest.raises(OptionError, match=message):
        args.func(args)


def same(a: Pmf, b: Pmf) -> bool:
    return a.to_dict() == pytest.approx(b.to_dict())


def test_poison_on_a_bounded_table() -> None:
    table = {"base": 50, "step": 5, "floor": 5, "ceiling": 95}
    assert hz.poison(30, 10, table=table).p == pytest.approx(0.95)
    assert hz.poison(30, 10).p == 1.0


def test_falls() -> None:
    assert same(hz.fall(2).damage, Pmf.ndm(1, 6))            # any part of the first three yards
    assert same(hz.fall(9).damage, Pmf.ndm(3, 6))
    plate = hz.fall(9, plate=True)
    assert same(plate.damage, Pmf.ndm(4, 6)) and plate.p == 0.0
    jump = hz.fall(9, jump=40)                           # a Jump of 40% saves 1D6
    assert jump.p == 0.4
    assert jump.damage.mean() == pytest.approx(0.4 * 7 + 0.6 * 10.5)
    assert same(hz.fall(0).damage, Pmf.constant(0))


def test_drowning_exact() -> None:
    # CON 10: x5 = 50%, then x4 = 40%, x3 = 30% held breath; a failure costs 1D6 that round
    # and every round after. Over 2 rounds: fail in round 1 (0.5): 2D6; in round 2
    # (0.5 x 0.6): 1D6; hold both (0.5 x 0.4): nothing.
    result = hz.drowning(10, 2)
    assert result.p == pytest.approx(0.8)
    expected = {0: 0.2} | {x: 0.3 / 6 for x in range(1, 7)}
    for x, p in Pmf.ndm(2, 6):
        expected[x] = expected.get(x, 0.0) + 0.5 * p
    assert result.damage.to_dict() == pytest.approx(expected)
    no_breath = hz.drowning(10, 1, breath=False)          # starts at CON x 3
    assert no_breath.p == pytest.approx(0.7)


def test_drowning_in_armour() -> None:
    assert hz.drowning(12, 10, weight="light", never_soaks=True).p == 0.0   # sea leather
    assert hz.drowning(12, 10, weight="none").p == 0.0
    plate = hz.drowning(12, 1, weight="plate")            # sinks: CON x 3, no breath first
    assert plate.p == pytest.approx(1 - 0.36)
    heavy = hz.drowning(12, 1, weight="heavy", swim=70)   # Swim fails 30%, then CON x 3
    assert heavy.p == pytest.approx(0.3 * 0.64)
    light = hz.drowning(12, 10, weight="light")           # afloat until soaked (25 rounds)
    assert light.p == 0.0


def test_fire_and_disease() -> None:
    bare = hz.fire("1D6", 2)
    assert same(bare.damage, Pmf.ndm(2, 6)) and bare.p == 1.0
    armoured = hz.fire("1D6", 2, armoured=True)           # insulated 1D6 rounds
    assert armoured.p == pytest.approx(1 / 6)
    assert armoured.damage.to_dict()[0] == pytest.approx(5 / 6)
    minor = hz.disease(12)                                # CON x 5 = 60% resists
    assert minor.p == pytest.approx(0.4)
    assert minor.damage.to_dict() == pytest.approx({0: 0.6, 1: 0.2, 2: 0.2})
    major = hz.disease(12, major=True, hours=8)           # 1D3 an hour: 8-24 over 8 hours
    assert major.damage.max_outcome == 24 and major.p_dead(8) == pytest.approx(0.4)


def test_every_hazard_prints_json(capsys) -> None:
    for argv, key in ((["fall", "--yards", "7", "--jump", "50"], "p_jump"),
                      (["drowning", "--con", "12", "--rounds", "3", "--armour", "plate"],
                       "p_injured"),
                      (["fire", "--damage", "2D6", "--rounds", "2", "--armoured"], "p_burned"),
                      (["disease", "--con", "9", "--major", "--hours", "3"], "p_caught"),
                      (["acid", "--damage", "1D6", "--rounds", "2"], "p_burned"),
                      (["explosion", "--dice", "5", "--distance", "3"], "p_hurt"),
                      (["wine", "--pow", "12"], "p_madness"),
                      (["shock", "--pow", "12"], "p_lingers"),
                      (["shed-armour", "--dex", "12", "--rounds", "4"], "p_drowning")):
        doc = json.loads(run(hazard_command, capsys, "hazard", *argv, "--json", "--hp", "10"))
        assert set(doc) == {"hazard", "inputs", key, "damage", "p_dead"}
        assert doc["hazard"] == argv[0] and doc["inputs"]["hp"] == 10
        assert sum(doc["damage"].values()) == pytest.approx(1.0)


def test_dice_resistance_option(capsys) -> None:
    doc = json.loads(run(dice_command, capsys, "dice", "--resistance", "16", "12", "--json"))
    assert doc == {"active": 16, "passive": 12, "p_success": 0.7}
    doc = json.loads(run(dice_command, capsys, "dice", "--resistance", "13", "10", "--json",
                         "--samples", "200000", "--seed", "3"))
    assert abs(doc["sampled_p_success"] - 0.65) < 5 * (0.65 * 0.35 / 200_000) ** 0.5
    out = run(dice_command, capsys, "dice", "--resistance", "10", "30")
    assert "= 0.00" in out
    # the ordinary use is unchanged
    assert json.loads(run(dice_command, capsys, "dice", "2d6", "--json"))["mean"] == \
        pytest.approx(7)


@pytest.mark.parametrize(("argv", "message"), [
    (["--resistance", "10", "10", "2d6"], "takes no dice expression"),
    ([], "a dice expression is required"),
    (["--resistance", "-1", "10"], "between 0 and 1000"),
])
def test_dice_resistance_errors(argv, message) -> None:
    parser = argparse.ArgumentParser(prog="balance")
    dice_command.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["dice", *argv])
    with pytest.raises(OptionError, match=message):
        args.func(args)


def test_acid_explosions_wine_shock_and_shedding_armour() -> None:
    """Seed 004's remaining hazards, exactly (their numbers are the lab's tables)."""
    assert same(hz.acid("1D6", 2).damage, Pmf.ndm(2, 6))      # no armour against acid
    assert hz.acid("1D3", 0).p == 0.0
    # a 4D6 blast with 2-yard rings: 4D6 at 1 yard, 3D6 at 2, none from 8 yards on
    assert same(hz.explosion(4, 2, 1).damage, Pmf.ndm(4, 6))
    assert same(hz.explosion(4, 2, 2).damage, Pmf.ndm(3, 6))
    assert hz.explosion(4, 2, 8).p == 0.0
    # Wine of Bakshaan: madness on a failed POW x 5 (POW 11: 55%); mental shock lingers
    # on a failed Luck (POW x 5)
    assert hz.wine_of_bakshaan(11).p == pytest.approx(0.45)
    assert hz.mental_shock(16).p == pytest.approx(0.20)
    # three rounds to shed it, DEX 10 (50%), Swim 40: each round 0.5 progress,
    # 0.5 x 0.6 = 0.3 drowning: 1 - (0.5 / 0.8)^3
    assert hz.shed_armour(10, 40, 3).p == pytest.approx(1 - 0.625 ** 3)
    assert hz.shed_armour(10, 40, 3, cut=True).p == 0.0
