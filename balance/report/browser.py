"""Open a report in a real headless browser: do its figures load, does it log errors?

A report is one self-contained HTML page; tests of its text cannot see a figure the browser
refuses (a truncated data URI) or an error it logs. :func:`check_page` opens a *copy* of the
page with a small probe script first in ``<head>`` (it records errors and, once the page has
loaded, which images have no pixels) in headless Chromium, reads the probe's verdict from the
page's DOM, and can save a screenshot. Chromium runs with a fresh profile and without
background networking, sync or component updates, so it reaches nothing outside the page.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome",
            "headless_shell")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")

_PROBE = """<script>
window.__probe = {errors: []};
window.addEventListener("error", function (e) {
  var what = e.message || (e.target && e.target.tagName ? e.target.tagName + " failed to load"
                                                       : "error");
  window.__probe.errors.push(what);
}, true);
["error", "warn"].forEach(function (level) {
  var original = console[level];
  console[level] = function () {
    window.__probe.errors.push("console." + level + ": " +
                               Array.prototype.join.call(arguments, " "));
    return original.apply(console, arguments);
  };
});
window.addEventListener("load", function () {
  var images = Array.prototype.slice.call(document.images);
  var out = document.createElement("pre");
  out.id = "__probe";
  out.textContent = JSON.stringify({
    images: images.length,
    broken: images.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                  .map(function (i) { return i.alt || i.src.slice(0, 40); }),
    errors: window.__probe.errors});
  document.body.appendChild(out);
});
</script>"""


@dataclass(frozen=True)
class PageCheck:
    """What the browser saw: how many images, which did not load, errors logged."""

    images: int
    broken: list[str]
    errors: list[str]

    @property
    def ok(self) -> bool:
        return not self.broken and not self.errors


def find_browser() -> str | None:
    """A Chromium-family browser: ``$BALANCE_BROWSER``, else the first of :data:`BROWSERS`
    on the PATH (Debian's ``chromium``: ``apt-get install chromium``)."""
    given = os.environ.get("BALANCE_BROWSER")
    if given:
        return shutil.which(given) or (given if os.access(given, os.X_OK) else None)
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def check_page(page: str | os.PathLike, *, browser: str,
               screenshot: str | os.PathLike | None = None, width: int = 1280,
               height: int = 2400, timeout: float = 120) -> PageCheck:
    """Load ``page`` in headless ``browser``; with ``screenshot``, save a PNG of it there."""
    page = Path(page).resolve()
    html = page.read_text(encoding="utf-8")
    head = re.search(r"<head[^>]*>", html, flags=re.IGNORECASE)
    at = head.end() if head else 0
    with tempfile.TemporaryDirectory(prefix="balance-browser-") as tmp:
        probe = page.parent / f".{page.stem}.probe-{os.getpid()}.html"   # beside it: same
        probe.write_text(html[:at] + _PROBE + html[at:], encoding="utf-8")   # relative links
        try:
            dom = _run(browser, tmp, "profile", ["--virtual-time-budget=10000", "--dump-dom",
                                                 probe.as_uri()], timeout)
        finally:
            probe.unlink(missing_ok=True)
        if screenshot is not None:
            target = Path(screenshot).resolve()
            target.parent.mkdir(parents=True, exist_ok=True)
            _run(browser, tmp, "shot", [f"--window-size={width},{height}", "--hide-scrollbars",
                                        f"--screenshot={target}", page.as_uri()], timeout)
    found = re.search(r'<pre id="__probe">(.*?)</pre>', dom, flags=re.DOTALL)
    if found is None:
        return PageCheck(0, [], ["the page never finished loading (no probe result)"])
    data = json.loads(_unescape(found.group(1)))
    return PageCheck(int(data["images"]), list(data["broken"]), list(data["errors"]))


def _run(browser: str, tmp: str, profile: str, args: list[str], timeout: float) -> str:
    """Run the browser once with a fresh profile; its stdout (the DOM for --dump-dom)."""
    command = [browser, *FLAGS, f"--user-data-dir={Path(tmp) / profile}", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False,
                          cwd=tmp)
    if done.returncode != 0:
        raise RuntimeError(f"{browser} exited with {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


def _unescape(text: str) -> str:
    return (text.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
            .replace("&amp;", "&"))
