"""``balance run FILE --report DIR``: one run's report, the same offline HTML as a sweep's,
its sections in order (results first, provenance last), checked in headless Chromium as the
sweep report is (skipped, saying why, where no Chromium can be had)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from balance.cli import main
from balance.report.browser import check_page, find_browser
from balance.report.single import BREAKDOWN_TITLE

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "scenarios" / "yags" / "reference_duel.yaml"
BROWSER = find_browser()


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run-report") / "duel"
    assert main(["run", str(DUEL), "--trials", "3000", "--quiet", "--report", str(out)]) == 0
    return out


def test_the_report_holds_results_first_and_provenance_last(report, capsys) -> None:
    md = (report / "report.md").read_text(encoding="utf-8")
    titles = re.findall(r"^## (.+)$", md, flags=re.M)
    assert titles == ["Outcomes", "How long fights last", "How each fighter ended",
                      BREAKDOWN_TITLE, "Run", "Scenario"]
    lead = md.split("\n\n")[1]
    assert re.match(r"(red|blue) wins \d+\.\d\d% of fights \(95% interval \d+\.\d\d%–"
                    r"\d+\.\d\d%\)", lead)
    assert "run it with --breakdown" in md          # how to ask for the breakdown
    assert DUEL.read_text(encoding="utf-8").strip() in md          # the scenario as run
    for lo, hi in re.findall(r"(\d+\.\d+)%–(\d+\.\d+)%", md):
        assert lo != hi                                             # never 14–14
    assert sorted(p.name for p in report.iterdir() if p.suffix == ".png") == \
        ["01-outcomes.png", "02-survival.png"]
    html = (report / "report.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 2 and "http" not in html.split("<body>")[1]


def test_a_bad_report_folder_is_refused_before_any_fight(tmp_path, capsys) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("my own notes")
    assert main(["run", str(DUEL), "--trials", "1000000000", "--quiet",
                 "--report", str(tmp_path / "mine")]) == 2
    err = capsys.readouterr().err
    assert "is a folder the lab did not write" in err
    assert (tmp_path / "mine" / "notes.txt").read_text() == "my own notes"


@pytest.mark.skipif(BROWSER is None, reason="no Chromium-family browser on this machine "
                    "(apt-get install chromium, or set BALANCE_BROWSER); .ci/run installs one")
def test_the_run_report_loads_cleanly_in_a_browser(report) -> None:
    shot = ROOT / "results" / "browser-check" / "run-report.png"
    shot.unlink(missing_ok=True)
    seen = check_page(report / "report.html", browser=BROWSER, screenshot=shot)
    assert seen.errors == [] and seen.broken == []
    assert seen.images == 2
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000


def test_a_breakdown_run_reports_each_fighters_counts(tmp_path) -> None:
    out = tmp_path / "bd"
    assert main(["run", str(DUEL), "--trials", "2000", "--quiet", "--breakdown",
                 "--report", str(out)]) == 0
    md = (out / "report.md").read_text(encoding="utf-8")
    section = md.split(f"## {BREAKDOWN_TITLE}")[1].split("\n## ")[0]
    assert "rounds standing" in section and "run it with --breakdown" not in section
