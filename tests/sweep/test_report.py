"""Reports on small runs: files exist, figures are real PNGs, the Markdown matches the data."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import balance
from balance.cli import main
from balance.report.build import write_report
from balance.report.roundrobin import round_robin
from balance.sweep import run_sweep
from tests.sweep.helpers import GRID, duel

PNG = b"\x89PNG\r\n\x1a\n"


def md_table(text: str, after: str) -> list[list[str]]:
    """The rows of the first Markdown table after the heading ``after``."""
    lines = text[text.index(after):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


@pytest.fixture(scope="module")
def grid_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs")
    run_sweep(duel(GRID), trials=600, out=out, run_id="grid")
    return out / "grid"


def test_report_files_exist_and_figures_are_png(grid_run, tmp_path) -> None:
    out = write_report(grid_run, tmp_path / "rep")
    names = sorted(p.name for p in out.iterdir())
    assert "report.html" in names and "report.md" in names
    pngs = [out / n for n in names if n.endswith(".png")]
    assert any("heatmap" in p.name for p in pngs) and any("rounds" in p.name for p in pngs)
    for p in pngs:
        data = p.read_bytes()
        assert data.startswith(PNG) and len(data) > 5000
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == len(pngs)
    assert not re.search(r"(src|href)=\"(https?:)?//", html)       # opens offline
    md = (out / "report.md").read_text()
    assert all(f"]({p.name})" in md for p in pngs)


def test_markdown_cells_table_matches_the_data(grid_run, tmp_path) -> None:
    out = write_report(grid_run, tmp_path / "rep")
    rows = md_table((out / "report.md").read_text(), "## Cells")
    df = balance.load(grid_run)
    assert len(rows) == len(df)
    for row, (_, cell) in zip(rows, df.iterrows(), strict=True):
        assert row[:2] == [str(cell["red.weapon"]), str(cell["armour"])]
        for k, o in enumerate(("red", "blue", "draw")):
            p, lo, hi = map(float, re.fullmatch(r"([\d.]+) \[([\d.]+), ([\d.]+)\]",
                                                row[2 + k]).groups())
            assert p == round(100 * cell[f"p_{o}"], 1)
            assert (lo, hi) == (round(100 * cell[f"lo_{o}"], 1), round(100 * cell[f"hi_{o}"], 1))
        assert float(row[5]) == round(cell["rounds_mean"], 2)
        assert int(row[6].replace(",", "")) == cell["trials"]


def test_one_axis_group_fight_and_round_robin_reports(tmp_path) -> None:
    run_sweep(duel({"grid": {"sides.1.members.0.count": [1, 2]}}), trials=400, out=tmp_path,
              run_id="one")
    out = write_report(tmp_path / "one")
    md = (out / "report.md").read_text()
    assert "## Casualties" in md and "win-rates" in md
    rr = {"round_robin": {"paths": ["sides.0.members.0.weapon", "sides.1.members.0.weapon"],
                          "values": ["long_sword", "club", "spear"]}}
    run_sweep(duel(rr), trials=600, out=tmp_path, run_id="rr")
    md = (write_report(tmp_path / "rr") / "report.md").read_text()
    ranking = md_table(md, "**Ranking**")
    assert [r[1] for r in ranking][-1] == "club"
    assert ranking[-1][5].startswith("dominated by ")


def test_round_robin_report_results_first_one_vocabulary_no_empty_sections(tmp_path) -> None:
    """Issue 30, point 13: the headline's numbers are the ranking's; "dominated" is said as
    balance metagame says it (and by the same function); results come before the run's
    provenance; no section says only "see above"; heat-map intervals never read 14–14."""
    from balance.analysis.matrix import from_run
    from balance.analysis.metagame import analyse, domination_words
    from balance.io.store import load

    rr = {"round_robin": {"paths": ["sides.0.members.0.weapon", "sides.1.members.0.weapon"],
                          "values": ["long_sword", "club", "spear"]}}
    run_sweep(duel(rr), trials=600, out=tmp_path, run_id="rr")
    md = (write_report(tmp_path / "rr") / "report.md").read_text()
    ranking = md_table(md, "**Ranking**")
    top, bottom = ranking[0], ranking[-1]
    lead = md.split("\n\n")[1]
    assert lead.startswith(f"Strongest option: {top[1]}, winning {top[2]}% of its fights")
    assert f"weakest: {bottom[1]}, {bottom[2]}%." in lead
    table = load(tmp_path / "rr")
    words = domination_words(analyse(from_run(table, table.attrs["manifest"])))
    for row in ranking:
        if row[1] in words:
            assert row[5].startswith(words[row[1]][0])
    titles = re.findall(r"^## (.+)$", md, flags=re.M)
    assert titles[-2:] == ["Run", "Scenario"] and titles[0] == "Round robin"
    assert not any(t.startswith("Win probability") for t in titles)
    assert "See the round robin above" not in md


def test_interval_text_has_enough_decimals() -> None:
    from balance.report.figures import span_text

    assert span_text(13.6, 14.4) == "13.6–14.4"
    assert span_text(13.61, 13.64) == "13.61–13.64"
    assert span_text(12.2, 16.8) == "12–17"


def test_round_robin_scores_pool_both_seatings_and_flag_by_interval() -> None:
    opts = ["a", "b", "c"]
    rows = []
    first = {("a", "b"): 700, ("b", "a"): 350, ("a", "c"): 800, ("c", "a"): 150,
             ("b", "c"): 520, ("c", "b"): 450, ("a", "a"): 500, ("b", "b"): 500,
             ("c", "c"): 500}
    for (x, y), k in first.items():
        rows.append({"x": x, "y": y, "n_one": k, "n_two": 1000 - k, "trials": 1000})
    table = pd.DataFrame(rows)
    table["x"] = pd.Categorical(table["x"], categories=opts)
    rr = round_robin(table, ("x", "y"), ("one", "two"))
    # a vs b: 700 wins seated first, 650 seated second, of 2000
    assert rr.score.loc["a", "b"] == pytest.approx(1350 / 2000)
    assert rr.score.loc["b", "a"] == pytest.approx(650 / 2000)
    assert np.allclose(rr.score.to_numpy() + rr.score.to_numpy().T, 1)
    flags = dict(zip(rr.ranking["option"], rr.ranking["flag"], strict=True))
    assert flags == {"a": "dominant", "b": "", "c": "dominated"}
    assert rr.ranking["option"].tolist() == ["a", "b", "c"]


def test_cli_report_and_step_summary(grid_run, tmp_path, monkeypatch, capsys) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert main(["report", str(grid_run), "--out", str(tmp_path / "r"), "--side", "blue"]) == 0
    assert "report.html" in capsys.readouterr().out
    text = summary.read_text()
    assert "P(blue wins)" not in text and "## Cells" in text and "![" not in text
    assert main(["report", str(grid_run), "--side", "green"]) == 2
    assert "not a side" in capsys.readouterr().err
    assert main(["report", str(tmp_path)]) == 2
