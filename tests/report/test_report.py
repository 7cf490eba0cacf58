"""Renderings of a Report: what each shows, what hidden items keep back, escaping, atomic writes."""
from __future__ import annotations

import base64
import json

import pytest

from grader.report import render as report_mod
from grader.report.render import (
    UNOFFICIAL,
    gradebook_row,
    load_report,
    render_gradescope,
    render_html,
    render_json,
    render_markdown,
    render_terminal,
    write_reports,
)
from grader.results import SCHEMA_VERSION, CellOutcome, Figure, ItemResult, Report

PNG_1X1 = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")).decode()
SCRIPT = "<script>alert('x')</script>"


def make_report(**overrides) -> Report:
    items = (
        ItemResult("normalizer", "Linear attention divides by φ(q)·z", 3, 3, "passed", "checks"),
        ItemResult("your_turn", "Worked example, third token", 0, 1, "failed", "answers",
                   messages=(f"your_turn: you wrote {SCRIPT}; not the expected vector.",)),
        ItemResult("notebook_runs", "The notebook runs top to bottom", 1, 2, "partial", "cells",
                   messages=("cell 7 (ex2): ValueError: shapes (3,4) and (5,4) not aligned",)),
        ItemResult("causal_retention", "Changing a future token never changes an earlier output", 2, 4,
                   "partial", "checks", hidden=True,
                   messages=("L=9, t=4: an output before position 4 changed when token 4 changed",)),
    )
    fields = dict(
        assignment="linear-attention-basics", submission="alice", status="graded", score=6, max_score=10,
        items=items, official=True, isolation=("bwrap", "no network"),
        cells=(CellOutcome(3, "c3", "ok", "ex1", seconds=0.5, figures=1),
               CellOutcome(7, "c7", "error", "ex2", "ValueError", "shapes (3,4) and (5,4) not aligned", 0.1)),
        figures=(Figure(3, PNG_1X1),), notes=(), environment={"python": "3.11.2", "torch": "2.13.0"},
        timings={"notebook_s": 4.0, "checks_s": 1.5, "total_s": 6.25},
        submission_hash="sha256:abc", bundle_hash="sha256:def",
    )
    if overrides.get("official") is False:  # an unofficial report here means an unsandboxed one
        fields["isolation"] = ("rlimit", "unsandboxed")
    fields.update(overrides)
    return Report(**fields)


# ---------------------------------------------------------------- JSON


def test_json_round_trips_and_carries_the_schema_version(tmp_path):
    report = make_report()
    text = render_json(report)
    data = json.loads(text)
    assert data["schema_version"] == SCHEMA_VERSION
    assert list(data) == sorted(data)
    path = tmp_path / "report.json"
    path.write_text(text, encoding="utf-8")
    assert load_report(path) == report


def test_load_report_names_the_file_on_a_schema_mismatch(tmp_path):
    path = tmp_path / "report.json"
    path.write_text(json.dumps({**make_report().to_dict(), "schema_version": 99}), encoding="utf-8")
    with pytest.raises(ValueError, match="report.json"):
        load_report(path)


def test_json_refuses_nan():
    with pytest.raises(ValueError, match="(?i)nan|finite|compliant"):
        render_json(make_report(score=float("nan")))


# ---------------------------------------------------------------- HTML


def test_html_header_items_cells_figures_and_footer():
    html = render_html(make_report())
    assert "6 / 10" in html and "graded" in html
    assert UNOFFICIAL not in html
    assert "Linear attention divides by φ(q)·z" in html and "<code>normalizer</code>" in html
    assert f'src="data:image/png;base64,{PNG_1X1}"' in html
    assert "shapes (3,4) and (5,4) not aligned" in html
    assert "bwrap" in html and "torch 2.13.0" in html and "sha256:def" in html


def test_html_unofficial_banner():
    assert UNOFFICIAL in render_html(make_report(official=False))


def test_html_escapes_student_strings():
    """Is a student's `<script>` answer shown as text, never as markup?"""
    html = render_html(make_report(submission=SCRIPT))
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html


def test_html_hidden_item_shows_title_points_and_message_only():
    html = render_html(make_report())
    row = html[html.index('<tr class="hidden-item">'):]
    row = row[:row.index("</tr>")]
    assert "Changing a future token never changes an earlier output" in row
    assert "2 / 4" in row and ">partial<" in row  # passed/failed/partial, never just "hidden"
    assert "an output before position 4 changed" in row
    assert "causal_retention" not in html  # the id is not shown anywhere
    assert "checks" not in row  # nor the kind of item


# ---------------------------------------------------------------- Markdown


def test_markdown_escapes_tables_and_html():
    md = render_markdown(make_report(official=False))
    assert f"> **{UNOFFICIAL}**" in md
    assert "<script>" not in md and "&lt;script&gt;" in md
    item_rows = [line for line in md.splitlines() if line.startswith("| `your_turn`")]
    assert len(item_rows) == 1 and item_rows[0].count(" | ") == 3
    assert "causal_retention" not in md
    assert "an output before position 4 changed" in md


def test_markdown_pipe_in_a_message_does_not_break_the_table():
    item = ItemResult("a", "A", 0, 1, "failed", "answers", messages=("got a | b",))
    md = render_markdown(make_report(items=(item,)))
    row = next(line for line in md.splitlines() if line.startswith("| `a`"))
    assert "a \\| b" in row


# ---------------------------------------------------------------- terminal


def test_terminal_lines():
    text = render_terminal(make_report(official=False), "out/alice/report.html")
    lines = text.splitlines()
    assert "  [ 3/3 ] normalizer — Linear attention divides by φ(q)·z" in lines
    assert "  [ 0/1 ] your_turn — Worked example, third token" in lines
    after = lines[lines.index("  [ 0/1 ] your_turn — Worked example, third token") + 1]
    assert after.startswith("        your_turn:")
    assert any("1 hidden item (1 partial): 2/4 points" in line for line in lines)
    assert "    [ 2/4 ] Changing a future token never changes an earlier output" in lines  # titles, not ids
    assert "causal_retention" not in text and "position 4" not in text
    assert lines[-1] == "HTML report: out/alice/report.html"
    assert UNOFFICIAL in text


def test_terminal_neutralises_control_characters():
    item = ItemResult("a", "A", 0, 1, "failed", "checks", messages=("boom \x1b[2J\x07",))
    text = render_terminal(make_report(items=(item,)))
    assert "\x1b" not in text and "\\x1b[2J" in text


# ---------------------------------------------------------------- Gradescope and gradebook


def test_gradescope_shape():
    gs = render_gradescope(make_report())
    assert set(gs) == {"score", "execution_time", "output", "output_format", "tests"}
    assert gs["score"] == 6 and gs["execution_time"] == 6.25
    assert [t["status"] for t in gs["tests"]] == ["passed", "failed", "failed", "failed"]
    assert [t["visibility"] for t in gs["tests"]] == ["visible"] * 3 + ["after_published"]
    for test in gs["tests"]:
        assert set(test) == {"name", "score", "max_score", "status", "output", "output_format", "visibility"}
    assert gs["tests"][3]["name"] == "Changing a future token never changes an earlier output"
    assert gs["tests"][2]["score"] == 1 and gs["tests"][2]["max_score"] == 2
    json.dumps(gs, allow_nan=False)


def test_gradescope_unofficial_and_notes_in_output():
    gs = render_gradescope(make_report(official=False, status="timeout", notes=("the notebook ran past 600 s",)))
    assert UNOFFICIAL in gs["output"] and "600 s" in gs["output"] and "timeout" in gs["output"]


def test_gradebook_row():
    assert gradebook_row(make_report()) == {
        "submission": "alice", "status": "graded", "score": 6, "max_score": 10,
        "normalizer": 3, "your_turn": 0, "notebook_runs": 1, "causal_retention": 2,
    }


# ---------------------------------------------------------------- writing


def test_write_reports_writes_four_files(tmp_path):
    paths = write_reports(make_report(), tmp_path / "alice")
    assert {name: p.name for name, p in paths.items()} == {
        n: n for n in ("report.json", "report.md", "report.html", "results.json")}
    assert json.loads(paths["results.json"].read_text(encoding="utf-8"))["score"] == 6
    assert load_report(paths["report.json"]) == make_report()
    assert sorted(p.name for p in (tmp_path / "alice").iterdir()) == sorted(p.name for p in paths.values())


def test_failed_rendering_replaces_nothing(tmp_path, monkeypatch):
    """Does a rendering that raises leave every old file as it was?"""
    paths = write_reports(make_report(score=6), tmp_path)
    before = {p: p.read_bytes() for p in paths.values()}

    def broken(report):
        raise RuntimeError("template exploded")

    monkeypatch.setattr(report_mod, "render_html", broken)
    with pytest.raises(RuntimeError, match="template exploded"):
        write_reports(make_report(score=9), tmp_path)
    assert {p: p.read_bytes() for p in paths.values()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths.values())


def test_failed_write_leaves_no_temp_files(tmp_path, monkeypatch):
    paths = write_reports(make_report(score=6), tmp_path)
    before = {p: p.read_bytes() for p in paths.values()}

    def replace_fails(src, dst):
        raise OSError("disk full")

    with monkeypatch.context() as patch:
        patch.setattr(report_mod.os, "replace", replace_fails)
        with pytest.raises(OSError, match="disk full"):
            write_reports(make_report(score=9), tmp_path)
    assert {p: p.read_bytes() for p in paths.values()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths.values())


VARIANT = {"student": "ada", "source": "lrkit-assignment.json", "parameters": {"T": 2_000_000, "D": 3072, "H": 64},
           "wrong": {}, "default_matches": []}


def test_every_rendering_shows_the_students_own_numbers(tmp_path):
    """Do report.json, the HTML, Markdown, terminal and Gradescope texts show whose numbers were graded?"""
    report = make_report(variant=VARIANT)
    shown = "student id 'ada', from lrkit-assignment.json): T = 2,000,000, D = 3072, H = 64"
    assert shown in render_html(report).replace("&#39;", "'")
    assert shown in render_markdown(report).replace("\\", "")
    assert shown in render_terminal(report)
    assert shown in render_gradescope(report)["output"]
    assert json.loads(render_json(report))["variant"]["parameters"] == VARIANT["parameters"]
    write_reports(report, tmp_path)
    assert load_report(tmp_path / "report.json").variant == VARIANT


def test_a_report_without_variants_shows_no_numbers():
    report = make_report()
    assert "Graded with the numbers" not in render_html(report) + render_terminal(report)
    assert "variant" not in render_gradescope(report)["output"]
