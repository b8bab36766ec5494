"""balance exchange: one step of a field priced in another (balance.analysis.exchange_rate)."""

from __future__ import annotations

import json

import pytest

from balance.analysis.exchange_rate import exchange, fieller
from balance.analysis.sensitivities import sensitivity
from balance.cli import main
from balance.errors import OptionError
from tests.analysis.helpers import GROUP, YAGS, YMLAD, percentile

SKILL = "sides.red.members.0.skills.single_weapon"


def test_fieller_matches_a_hand_derived_interval() -> None:
    """a = 2, b = 4, independent with variances 0.01 and 0.04, z = 1.959964 (z^2 = 3.841459):
    (4^2 - 3.841459 * 0.04) t^2 - 2 (8) t + (4 - 3.841459 * 0.01) = 0, i.e.
    15.846342 t^2 - 16 t + 3.961585 = 0, roots (8 -+ sqrt(64 - 62.776...)) / 15.846342."""
    lo, hi = fieller(2.0, 4.0, 0.01, 0.04, 0.0)
    qa, qc = 16 - 3.841459 * 0.04, 4 - 3.841459 * 0.01
    root = (64 - qa * qc) ** 0.5
    assert lo == pytest.approx((8 - root) / qa, rel=1e-5)
    assert hi == pytest.approx((8 + root) / qa, rel=1e-5)
    assert lo < 0.5 < hi
    assert fieller(1.0, 0.01, 0.01, 0.01, 0.0) is None       # b not clearly away from 0


@pytest.mark.parametrize("scenario,give,take", [
    (YAGS, "tables.weapons.mace.damage", SKILL),
    (YMLAD, "tables.hand_weapons.claws.melee", "sides.red.members.0.skills.melee"),
    (GROUP, "tables.weapons.mace.damage", "sides.red.members.0.skills.longshaft"),
    (None, "tables.weapons.knife.skill", "sides.red.members.0.skills.attack"),
], ids=["yags", "ymlad", "yags-group", "percentile"])
def test_an_unused_row_is_worth_exactly_nothing(scenario, give, take) -> None:
    """Known answer: nobody uses the row, so its step changes no trial: rate 0, interval
    [0, 0]; priced the other way round the rate has no finite interval. (A percentile skill
    moves in steps of 10 percentiles, to stand clear of the noise.)"""
    step = 10 if scenario is None else 1
    scenario = percentile() if scenario is None else scenario
    res = exchange(scenario, give, take, take_step=step, trials=4096, block_trials=4096,
                   engine="vector")
    assert res.give.delta == 0 and res.take.delta > 0 and res.take.significant
    assert res.rate == 0 and res.interval == (0.0, 0.0)
    back = exchange(scenario, take, give, give_step=step, trials=4096, block_trials=4096,
                    engine="vector")
    assert back.interval is None and "too little" in back.sentence()
    # an unused take once advised "a larger --step-take or more --trials"
    assert "the take step changes no trial" in back.to_text()
    assert "more --trials" not in back.to_text()


def test_the_rate_is_the_ratio_of_the_paired_changes() -> None:
    """The same trials as sensitivity's (one seed, common streams): the same two changes."""
    give = "sides.red.members.0.attributes.strength"
    res = exchange(YAGS, give, SKILL, trials=4096, block_trials=2048, seed=4)
    sens = sensitivity(YAGS, paths=[give, SKILL], both=False, trials=4096, block_trials=2048,
                       seed=4)
    by_path = {r.path: r.delta for r in sens.rows}
    assert res.give.delta == pytest.approx(by_path[res.give.path], abs=1e-12)
    assert res.rate == pytest.approx(by_path[res.give.path] / by_path[res.take.path])
    lo, hi = res.interval
    assert lo <= res.rate <= hi


def test_errors_and_cli(tmp_path, capsys) -> None:
    with pytest.raises(OptionError, match="same field"):
        exchange(YAGS, SKILL, SKILL)
    with pytest.raises(OptionError, match=r"--take: .*did you mean"):
        exchange(YAGS, SKILL, "sides.red.members.0.skills.single_weapn")
    path = tmp_path / "duel.yaml"
    path.write_text(json.dumps(YAGS))
    assert main(["exchange", str(path), "--give", "sides.red.members.0.attributes.strength",
                 "--take", SKILL, "--trials", "2048", "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"give", "take", "rate", "interval", "sentence", "for"} <= set(doc)
    assert "is worth" in doc["sentence"]
