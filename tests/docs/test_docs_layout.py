"""The documentation's layout in a real browser (issue 35 item 6): headless Chromium opens the
built pages at 1280 px and measures them — nothing is wider than the window, command output up
to 128 columns is shown whole (the first `nbl stability` example of the guide, 128 columns,
keeps its lambda*, sign and tier columns in view), wider output scrolls inside the page instead
of being cut, and no page shows an empty section navigation.

Slow (it builds the site, as test_docs_build does); skipped with the reason when Chromium is
not installed (``apt-get install chromium``) or the docs extras are missing. ``NBL_DOCS_HTML``
points the test at an existing build instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("guide", "beyond", "report", "commands", "index")
WIDTH = 1280
#: command output up to this many columns must be shown whole at WIDTH (docs/_static/nbl.css)
COLUMNS = 128

pytestmark = pytest.mark.slow


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def html(tmp_path_factory) -> Path:
    given = os.environ.get("NBL_DOCS_HTML")
    if given:
        return Path(given)
    pytest.importorskip("sphinx_gallery")
    pytest.importorskip("pydata_sphinx_theme")
    out = tmp_path_factory.mktemp("html")
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(
        ROOT / "docs",
        src / "docs",
        ignore=shutil.ignore_patterns(
            "_build", "api", "figures", "auto_examples", "sg_execution_times.rst"
        ),
    )
    shutil.copytree(ROOT / "examples", src / "examples")
    for name in ("CHANGELOG.md", "CONTRIBUTING.md", "CITATION.cff"):
        shutil.copy(ROOT / name, src / name)
    env = {**os.environ, "NBL_DOCS_QUICK": "1", "MPLBACKEND": "Agg"}
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src / "docs"), str(out)],
        capture_output=True,
        text=True,
        timeout=3600,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


#: loads a page in a WIDTH-wide frame and writes what it measured into #out (read back
#: through --dump-dom): the document's width against the frame's, every <pre> whose content
#: is wider than its box without a way to scroll it, and the section navigation's links
_PROBE = """<!doctype html><html><body style="margin:0">
<iframe id="f" src="PAGE" style="width:WIDTHpx;height:900px;border:0"></iframe>
<pre id="out">pending</pre>
<script>
document.getElementById("f").onload = function () {
  var d = document.getElementById("f").contentDocument, w = d.defaultView;
  var cut = [];
  d.querySelectorAll("pre").forEach(function (p) {
    var s = w.getComputedStyle(p), box = p.parentElement;
    var scrolls = ["auto", "scroll"].indexOf(s.overflowX) >= 0 ||
                  ["auto", "scroll"].indexOf(w.getComputedStyle(box).overflowX) >= 0;
    if (p.scrollWidth > p.clientWidth + 1 && !scrolls) cut.push(p.textContent.slice(0, 60));
  });
  var hidden = [];
  d.querySelectorAll("div.highlight-console pre, div.highlight-text pre").forEach(function (p) {
    var longest = Math.max.apply(null, p.textContent.split("\\n").map(function (l) {
      return l.length; }));
    if (longest <= COLUMNS && p.scrollWidth > p.clientWidth + 1)
      hidden.push([longest, p.scrollWidth, p.clientWidth, p.textContent.slice(0, 60)]);
  });
  var nav = d.querySelector("nav.bd-docs-nav");
  document.getElementById("out").textContent = JSON.stringify({
    docWidth: d.documentElement.scrollWidth, frameWidth: w.innerWidth, cut: cut,
    hidden: hidden,
    nav: nav === null ? null : nav.querySelectorAll("a").length,
    navShown: nav !== null && nav.offsetParent !== null});
};
</script></body></html>"""


def _measure(browser: str, page: Path, tmp_path: Path) -> dict:
    probe = tmp_path / f"probe_{page.stem}.html"
    probe.write_text(
        _PROBE.replace("PAGE", page.as_uri())
        .replace("WIDTH", str(WIDTH))
        .replace("COLUMNS", str(COLUMNS))
    )
    proc = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--allow-file-access-from-files",
            "--virtual-time-budget=15000",
            f"--window-size={WIDTH + 40},1000",
            "--dump-dom",
            probe.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    text = proc.stdout
    start = text.find('<pre id="out">')
    assert start >= 0, proc.stderr[-2000:]
    body = text[start + len('<pre id="out">') : text.find("</pre>", start)]
    assert body != "pending", f"the probe did not run: {proc.stderr[-1000:]}"
    return json.loads(body.replace("&quot;", '"').replace("&amp;", "&"))


@pytest.mark.parametrize("name", PAGES)
def test_page_width_and_navigation(html, name, tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    got = _measure(browser, html / f"{name}.html", tmp_path)
    assert got["docWidth"] <= got["frameWidth"], f"{name}: the page is wider than {WIDTH} px"
    assert not got["cut"], f"{name}: code blocks cut at {WIDTH} px: {got['cut']}"
    assert not got["hidden"], (
        f"{name}: output of <= {COLUMNS} columns needs scrolling at "
        f"{WIDTH} px ([columns, content px, box px, text]): "
        f"{got['hidden']}"
    )
    assert not (got["navShown"] and got["nav"] == 0), f"{name}: an empty section navigation"
