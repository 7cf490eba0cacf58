"""Reports people can read: math as MathML, figures that fit the page, a status for every item,
manual items pending everywhere, Jupyter cell numbers with anchors, units, files 0644."""
from __future__ import annotations

import json
import stat

from grader.report.render import (
    LOCAL,
    render_gradescope,
    render_html,
    render_markdown,
    render_terminal,
    write_reports,
)
from grader.results import CellOutcome, Figure, ItemResult, Report

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII="
WHY = "answer: the score factors as $\\varphi(q_i)\\cdot\\varphi(k_j)$, so $$S_i = \\sum_{j\\le i} k_j v_j^\\top$$"


def report(**overrides) -> Report:
    items = (
        ItemResult("normalizer", "Divides by $\\varphi(q)^\\top z$", 3, 3, "passed", "checks", hidden=True),
        ItemResult("causal", "Causal", 0, 2, "failed", "checks", hidden=True, messages=("L=9: changed",)),
        ItemResult("ex1_why", "Why the forms agree", 0, 2, "manual", "manual",
                   messages=("awaiting a grader's reading", WHY)),
        ItemResult("ex2_gamma0", "gamma = 0", 0, 1, "manual", "manual", messages=("answer ex2_gamma0 is blank",)),
        ItemResult("notebook_runs", "Runs", 0, 1, "failed", "cells",
                   messages=("exercise ex1, In [2]: raised ValueError: bad …\n(the full error: report.html#cell-2)",)),
    )
    fields = dict(assignment="linear-attention-basics", submission="alice", status="graded", score=3, max_score=9,
                  items=items, official=True, isolation=("bwrap", "uid", "netns", "pidns", "rlimit"),
                  cells=(CellOutcome(1, "a", "ok", "ex1", figures=1), CellOutcome(4, "b", "error", "ex1", "ValueError",
                                                                                   "bad shape\nlikely cause: x")),
                  figures=(Figure(1, PNG),),
                  timings={"notebook_s": 4.0, "notebook_peak_mb": 484.8, "total_s": 6.25})
    fields.update(overrides)
    return Report(**fields)


def test_latex_in_titles_and_answers_becomes_mathml():
    html = render_html(report())
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in html
    assert 'display="block"' in html  # $$…$$
    assert "$\\varphi" not in html and "<mi>φ</mi>" in html


def test_figures_scale_to_the_page():
    html = render_html(report())
    assert "img { max-width: 100%; height: auto; }" in html
    assert "<figcaption>In [1]</figcaption>" in html


def test_every_item_has_passed_failed_or_pending():
    html = render_html(report())
    assert ">hidden<" not in html
    assert html.count('<td class="manual">pending</td>') == 2
    assert '<td class="passed">passed</td>' in html and '<td class="failed">failed</td>' in html
    assert "| pending |" in render_markdown(report())


def test_cells_are_numbered_like_jupyter_with_anchors():
    html = render_html(report())
    assert '<tr id="cell-2">' in html and ">[2]<" in html  # the second code cell, whatever its position
    assert "likely cause: x" in html  # the full error lives here
    assert '<a href="#cell-2">report.html#cell-2</a>' in html  # and the shortened message links to it


def test_units_are_right():
    html = render_html(report())
    assert "notebook peak 485 MB" in html and "notebook 4.00 s" in html and "MB s" not in html


def test_a_local_run_with_a_sandbox_is_not_called_unsandboxed():
    local = report(official=False, submission="linear-attention-basics",
                   items=(ItemResult("causal", "Causal", 0, 2, "hidden", "checks", hidden=True),))
    text = render_terminal(local)
    assert text.splitlines()[0].count("linear-attention-basics") == 1  # the title once
    assert LOCAL in text and "not sandboxed" not in text
    assert "1 item (2 points) is graded only by the official grader" in text and "0/2" not in text
    assert "official grader only" in render_html(local)


def test_terminal_says_pending_for_manual_items():
    text = render_terminal(report())
    assert "ex1_why — Why the forms agree  (pending: graded by a person)" in text
    assert "ex2_gamma0 — gamma = 0  (pending: graded by a person)" in text


def test_gradescope_leaves_pending_manual_items_out_and_says_so():
    gs = render_gradescope(report())
    assert [t["name"] for t in gs["tests"]] == ["Divides by $\\varphi(q)^\\top z$", "Causal", "Runs"]
    assert "Pending, graded by a person: Why the forms agree, gamma = 0 (3 points)" in gs["output"]
    assert [t["visibility"] for t in gs["tests"]] == ["after_published", "after_published", "visible"]


def test_report_files_are_readable_by_everyone(tmp_path):
    paths = write_reports(report(), tmp_path / "alice")
    for path in paths.values():
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
    json.loads(paths["results.json"].read_text())


def test_student_latex_cannot_inject_markup():
    evil = ItemResult("q", "Q", 0, 1, "failed", "answers",
                      messages=("you wrote $\\text{<script>alert(1)</script>}$ and $\\href{javascript:x}{y}$",))
    html = render_html(report(items=(evil,)))
    assert "<script>" not in html and "javascript:x" not in html.replace("\\href{javascript:x}", "")
