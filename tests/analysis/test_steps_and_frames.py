"""A step per field in ``balance sensitivity`` and ``to_frame()`` on the answers of solve,
sensitivity and exchange (issue 30, item 14)."""

from __future__ import annotations

import json

import pytest
import yaml

from balance.analysis.exchange_rate import exchange
from balance.analysis.sensitivities import sensitivity
from balance.analysis.solving import solve
from balance.cli import main
from balance.errors import OptionError
from tests.analysis.helpers import YAGS

SKILL = "sides.red.members.0.skills.single_weapon"
DAMAGE = "tables.weapons.long_sword.damage"


def test_each_field_moves_by_its_own_step() -> None:
    """``steps`` gives damage a step of 3 while skill moves by the default 1; the moved
    values say so, and the change of +3 damage equals a plain sensitivity with step 3 on
    the same trials (the same variant played from the same streams)."""
    res = sensitivity(YAGS, paths=[SKILL, DAMAGE], steps={DAMAGE: 3}, trials=4096)
    moved = {(r.path, r.from_, r.to) for r in res.rows}
    assert moved == {("sides[0].members[0].skills.single_weapon", 4, 5),
                     ("sides[0].members[0].skills.single_weapon", 4, 3),
                     ("tables.weapons.long_sword.damage", 6, 9),
                     ("tables.weapons.long_sword.damage", 6, 3)}
    alone = sensitivity(YAGS, paths=[DAMAGE], step=3, trials=4096)
    by = {(r.path, r.to): r.delta for r in res.rows}
    assert all(by[(r.path, r.to)] == r.delta for r in alone.rows)
    assert res.to_dict()["steps"] == {"long_sword.damage": 3}
    assert "each field moved by ±1, long_sword.damage by ±3" in res.to_text()


def test_a_step_for_a_field_not_moved_is_an_error() -> None:
    with pytest.raises(OptionError, match="not one of the fields moved"):
        sensitivity(YAGS, paths=[SKILL], steps={DAMAGE: 2}, trials=4096)
    with pytest.raises(OptionError, match="must be a positive number"):
        sensitivity(YAGS, paths=[SKILL], steps={SKILL: -1}, trials=4096)


def test_the_command_takes_a_default_and_per_field_steps(tmp_path, capsys) -> None:
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(YAGS))
    assert main(["sensitivity", str(path), "--paths", SKILL, "--rows", "weapons:long_sword",
                 "--fields", "damage,attack", "--step", "2", "--step", f"{DAMAGE}=3",
                 "--up-only", "--trials", "4096", "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    moved = {r["label"]: r["to"] - r["from"] for r in doc["rows"]}
    assert moved == {"red.skills.single_weapon": 2, "long_sword.damage": 3,
                     "long_sword.attack": 2}
    for bad, words in ((["--step", "x"], "expected a number"),
                       (["--step", "1", "--step", "2"], "give one number"),
                       (["--step", f"{DAMAGE}=1", "--step", f"{DAMAGE}=2"], "given twice")):
        assert main(["sensitivity", str(path), "--paths", DAMAGE, *bad, "--quiet"]) == 2
        assert words in capsys.readouterr().err


def test_answers_become_data_frames() -> None:
    t = sensitivity(YAGS, paths=[SKILL, DAMAGE], trials=4096)
    frame = t.to_frame()
    assert list(frame.columns) == ["rank", "path", "label", "from", "to", "delta", "ci_low",
                                   "ci_high", "p_value", "significant"]
    assert len(frame) == len(t.rows) and frame["delta"].tolist() == [r.delta for r in t.rows]
    assert frame.attrs["metric"] == "win" and frame.attrs["trials"] == t.trials
    s = solve(YAGS, "sides.red.members.0.weapon.damage", 0.6, side="red", trials=4096)
    sf = s.to_frame()
    assert sf["value"].tolist() == [p.value for p in s.evaluations]
    assert sf["bracket"].sum() == 2 and sf.attrs["answer"] == s.value
    x = exchange(YAGS, DAMAGE, SKILL, side="red", trials=4096)
    xf = x.to_frame()
    assert xf["role"].tolist() == ["give", "take"] and xf["rate"].tolist() == [x.rate] * 2
    assert xf.loc[0, "delta"] == x.give.delta and xf.attrs["sentence"] == x.sentence()
