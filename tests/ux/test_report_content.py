"""What a sweep report tells: a headline, the scenario text and its table overrides, the
version, seed and trials; a zip group as one categorical axis; honest colour scales with
readable ticks; one decimal where cells are close."""

from __future__ import annotations

import numpy as np
import pytest
import yaml
from matplotlib.figure import Figure

from balance.report import figures
from balance.report.build import write_report
from balance.sweep import run_sweep
from tests.sweep.helpers import duel

ZIP = {"zip": {"sides.0.members.0.weapon": ["long_sword", "spear", "mace"],
               "sides.1.members.0.weapon": ["spear", "long_sword", "club"]}}
GRID = {"grid": {"sides.0.members.0.weapon": ["long_sword", "club"],
                 "sides.1.members.0.armour": [[], ["plate"]]}}


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs")
    zipped = duel(ZIP)
    zipped["tables"] = {"weapons": {"mace": {"damage": 6}}}
    (out / "zip.yaml").write_text(yaml.safe_dump(zipped, sort_keys=False))
    run_sweep(out / "zip.yaml", trials=300, out=out, run_id="zip")
    run_sweep(duel(GRID), trials=300, out=out, run_id="grid")
    return {name: write_report(out / name) for name in ("zip", "grid")}


def test_zip_group_is_one_axis_drawn_as_intervals(reports) -> None:
    names = sorted(p.name for p in reports["zip"].glob("*.png"))
    assert not [n for n in names if "heatmap" in n]
    assert "01-win-rates.png" in names
    md = (reports["zip"] / "report.md").read_text()
    assert "by red.weapon / blue.weapon" in md
    assert "| long_sword / spear |" in md and "| mace / club |" in md


def test_headline_scenario_and_stamp_in_html_and_markdown(reports) -> None:
    for kind in ("md", "html"):
        text = (reports["grid"] / f"report.{kind}").read_text()
        assert "Biggest effect: " in text and "-point swing" in text
        assert "seed 5, 300 trials per cell, 4 cells" in text
        assert "balance 0" in text
        assert "local, 1 worker" in text and "1 workers" not in text
    md = (reports["zip"] / "report.md").read_text()
    assert "```yaml\n" in md and "ruleset: yags" in md
    assert "Table overrides: weapons.mace: damage 6." in md
    assert "Table overrides: none" in (reports["grid"] / "report.md").read_text()


def test_headline_names_the_axis_that_moves_the_win_rate_most(reports) -> None:
    """The headline's axis and swing are the largest difference between an axis's mean win
    rates (equal trials per cell, so the weighted mean is the plain mean)."""
    import balance

    table = balance.load(reports["grid"].parent)
    swings = {}
    for axis in ("red.weapon", "blue.armour"):
        means = table.groupby(axis, observed=True)["p_red"].mean()
        swings[axis] = means.max() - means.min()
    top = max(swings, key=swings.get)
    md = (reports["grid"] / "report.md").read_text()
    assert f"Biggest effect: {top}." in md
    assert f"{100 * swings[top]:.1f}-point swing" in md


def test_the_headline_says_an_eight_point_swing() -> None:
    """"a 8.8-point swing" once; numbers said with a vowel first take "an"."""
    from balance.report.sweep import number_article

    assert [number_article(n) for n in ("8.8", "11.0", "18.2", "83.5", "1.5", "80", "7.9",
                                        "100.0", "28.0")] == \
        ["an", "an", "an", "an", "a", "an", "a", "a", "a"]


def test_small_ranges_stay_pale_and_spans_are_shown() -> None:
    rounds = np.array([[5.04, 5.10], [5.16, 5.22]])
    norm = figures.colour_norm(rounds, None, percent=False)
    assert 0.35 < norm(5.04) < norm(5.22) < 0.65           # not stretched to full colour
    wide = figures.colour_norm(np.array([[2.0, 11.0]]), None, percent=False)
    assert (wide(2.0), wide(11.0)) == (0.0, 1.0)
    close = figures.colour_norm(np.array([[0.49, 0.51]]), 0.5, percent=True)
    assert (close.vmin, close.vmax) == pytest.approx((0.4, 0.6))
    fig = figures.heatmap(rounds, ["a", "b"], ["c", "d"], title="t", row_label="r",
                          col_label="c", scale_label="mean rounds", centre=None,
                          percent=False)
    assert "cells span 5.04 to 5.22" in fig.axes[1].get_ylabel()


def test_close_cells_get_one_decimal() -> None:
    p = np.array([[0.503, 0.511], [0.497, 0.515]])
    fig = figures.heatmap(p, ["a", "b"], ["c", "d"], title="t", row_label="r",
                          col_label="c", scale_label="P", low=p - 0.004, high=p + 0.004)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts[0] == "50.3%\n49.9–50.7"
    far = figures.heatmap(np.array([[0.2, 0.8]]), ["a"], ["c", "d"], title="t",
                          row_label="r", col_label="c", scale_label="P")
    assert [t.get_text() for t in far.axes[0].texts] == ["20%", "80%"]


@pytest.mark.parametrize(("vmin", "vmax", "expected"), [
    (-0.1, 0.1, ["-10%", "-5%", "0%", "5%", "10%"]),
    (0.4, 0.6, ["40%", "45%", "50%", "55%", "60%"]),
    (0.49, 0.51, ["49.0%", "49.5%", "50.0%", "50.5%", "51.0%"]),
])
def test_colour_bar_ticks_are_readable(vmin, vmax, expected) -> None:
    ax = Figure().add_subplot()
    figures.percent_ticks(ax.yaxis, vmin, vmax)
    ticks = ax.yaxis.get_major_locator().tick_values(vmin, vmax)
    shown = [v for v in ticks if vmin - 1e-9 <= v <= vmax + 1e-9]
    labels = [ax.yaxis.get_major_formatter()(v, 0) for v in shown]
    assert labels == expected
    assert figures.percent_text(-1e-17) == "0%"
