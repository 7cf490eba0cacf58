"""The report and the class summary in a real browser (headless Chromium): math is laid out as
MathML, figures fit the page, nothing runs off the side, every report is linked.

A small script added to a copy of each page measures the layout after load and writes it into the
DOM, which `chromium --dump-dom` prints. Screenshots go to `$LRKIT_ARTIFACTS` (default
`artifacts/browser/`) for CI to keep. `scripts/setup.sh` installs Chromium where it is missing.
"""
from __future__ import annotations

import base64
import html
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure as MplFigure

from grader.report.render import render_html
from grader.report.summary import write_class_summary
from grader.results import CellOutcome, Figure, ItemResult, Report

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("LRKIT_ARTIFACTS", ROOT / "artifacts")) / "browser"
WIDTH = 900

MEASURE = """<script>
window.addEventListener("load", () => {
  const box = e => { const b = e.getBoundingClientRect(); return [b.width, b.height]; };
  const result = {
    math: [...document.querySelectorAll("math")].map(m => [getComputedStyle(m).display, ...box(m)]),
    images: [...document.images].map(i => [i.complete, i.naturalWidth, box(i)[0]]),
    page: document.documentElement.clientWidth,
    scroll: document.documentElement.scrollWidth,
    links: [...document.querySelectorAll("a[href]")].map(a => a.getAttribute("href")),
    anchors: [...document.querySelectorAll("[id^=cell-]")].map(e => e.id),
  };
  document.body.setAttribute("data-layout", JSON.stringify(result));
});
</script>"""


def chromium() -> str:
    found = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    assert found, "no headless Chromium: run scripts/setup.sh (it installs chromium), or apt-get install chromium"
    return found


def browse(page: Path, name: str) -> dict:
    """Load ``page`` in headless Chromium; its measured layout, and a screenshot in the artifacts."""
    measured = page.with_name(page.stem + ".measured.html")
    measured.write_text(page.read_text(encoding="utf-8").replace("</body>", MEASURE + "\n</body>"), encoding="utf-8")
    flags = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--window-size={WIDTH},1400", "--virtual-time-budget=5000"]
    done = subprocess.run([*flags, "--dump-dom", measured.as_uri()], capture_output=True, text=True, timeout=180)
    match = re.search(r'data-layout="([^"]*)"', done.stdout)
    assert match, f"the page did not report its layout: {done.stderr[-2000:]}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    subprocess.run([*flags, f"--screenshot={ARTIFACTS / (name + '.png')}", page.as_uri()], capture_output=True,
                   timeout=180)
    return json.loads(html.unescape(match.group(1)))


def wide_png() -> str:
    """A 2400-pixel-wide figure, like a notebook's plot saved at a high dpi."""
    fig = MplFigure(figsize=(24, 4), dpi=100)
    FigureCanvasAgg(fig)
    fig.add_subplot().plot(range(100), [i % 7 for i in range(100)])
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return base64.b64encode(buf.getvalue()).decode()


def report(name: str, status: str = "graded") -> Report:
    items = (
        ItemResult("normalizer", "Divides by $\\varphi(q_i)^\\top z_i$", 2, 2, "passed", "checks", hidden=True),
        ItemResult("ex1_why", "Why the forms agree", 0, 2, "manual", "manual", messages=(
            "awaiting a grader's reading",
            "answer: the numerator is $\\sum_{j\\le i}\\frac{\\varphi(q_i)^\\top\\varphi(k_j)}{z}\\,v_j$, and "
            "$$S_i = \\sum_{j \\le i} \\varphi(k_j) v_j^\\top$$")),
        ItemResult("notebook_runs", "The notebook runs", 0, 1, "failed", "cells", messages=(
            "exercise ex2, In [2]: raised ValueError: bad\n(the full error: report.html#cell-2)",)),
    )
    cells = (CellOutcome(1, "a", "ok", "ex1", figures=1),
             CellOutcome(3, "b", "error", "ex2", "ValueError", "bad\n" + "a_very_long_token_" * 40))
    return Report("linear-attention-basics", name, status, 2, 5, items, official=True,
                  isolation=("bwrap", "uid", "netns", "pidns", "rlimit"), cells=cells, figures=(Figure(1, wide_png()),),
                  timings={"notebook_s": 3.2, "notebook_peak_mb": 484.8, "total_s": 5.0})


def test_the_report_renders_math_and_fits_figures_to_the_page(tmp_path):
    page = tmp_path / "report.html"
    page.write_text(render_html(report("alice")), encoding="utf-8")
    layout = browse(page, "report")
    assert len(layout["math"]) >= 3
    assert all(display in ("math", "block math") and w > 0 and h > 0 for display, w, h in layout["math"]), layout
    (complete, natural, shown), = layout["images"]
    assert complete and natural == 2400 and 0 < shown <= layout["page"]
    assert layout["scroll"] <= layout["page"], "something runs off the side of the page"
    assert "cell-2" in layout["anchors"]


def test_the_summary_links_every_report_and_fits_the_page(tmp_path):
    reports = [report("alice"), report("bob"), report("carol", status="invalid")]
    for r in reports:
        (tmp_path / r.submission).mkdir()
        (tmp_path / r.submission / "report.html").write_text(render_html(r), encoding="utf-8")
    paths = write_class_summary(reports, tmp_path)
    layout = browse(paths["summary.html"], "summary")
    assert sorted(layout["links"]) == ["alice/report.html", "bob/report.html", "carol/report.html"]
    assert all((tmp_path / link).is_file() for link in layout["links"])
    assert layout["images"] and all(c and 0 < shown <= layout["page"] for c, _, shown in layout["images"])
    assert layout["scroll"] <= layout["page"]


@pytest.mark.parametrize("path", ["scripts/setup.sh"])
def test_setup_installs_chromium_where_it_is_missing(path):
    text = (ROOT / path).read_text()
    assert "command -v chromium" in text and "apt-get install" in text and "chromium" in text
