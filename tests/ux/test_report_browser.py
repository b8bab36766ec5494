"""report.html in a real browser: headless Chromium loads it, every figure has pixels, nothing
is logged as an error, and a screenshot is saved under results/ to look at. Skipped (saying
why) only where no Chromium can be had; .ci/run installs Debian's chromium when missing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from balance.report.browser import check_page, find_browser
from balance.report.build import write_report
from balance.sweep import run_sweep
from tests.sweep.helpers import GRID, duel

ROOT = Path(__file__).resolve().parents[2]
BROWSER = find_browser()
needs_browser = pytest.mark.skipif(
    BROWSER is None, reason="no Chromium-family browser on this machine (apt-get install "
                            "chromium, or set BALANCE_BROWSER); .ci/run installs one")


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("browser")
    run_sweep(duel(GRID), trials=300, out=out, run_id="grid")
    return write_report(out / "grid") / "report.html"


@needs_browser
def test_report_loads_cleanly_in_a_browser(report) -> None:
    shot = ROOT / "results" / "browser-check" / "report.png"
    shot.unlink(missing_ok=True)
    seen = check_page(report, browser=BROWSER, screenshot=shot)
    assert seen.errors == [] and seen.broken == []
    assert seen.images == report.read_text().count("data:image/png;base64,") >= 3
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000


@needs_browser
def test_the_check_sees_a_broken_figure_and_an_error(report, tmp_path) -> None:
    html = report.read_text()
    html = re.sub(r"base64,[A-Za-z0-9+/=]{200}", "base64,AAAA", html, count=1)
    html = html.replace("</body>", "<script>console.error('boom')</script></body>")
    bad = tmp_path / "bad.html"
    bad.write_text(html)
    seen = check_page(bad, browser=BROWSER)
    assert len(seen.broken) == 1 and any("boom" in e for e in seen.errors)
    assert not seen.ok
