"""The hand-grading sheet: export every manual answer, import points and comments through the one merge
(`merge_grades`, which `grade serve` uses too), and the class files follow."""
from __future__ import annotations

import csv

import pytest

from grader.batch.manual import HandGrade, export_sheet, import_sheet, merge_grades
from grader.errors import UsageError
from grader.report.render import load_report, write_reports
from grader.report.summary import write_class_summary
from grader.results import ItemResult, Report

COLUMNS = [("auto", "Automatic", 1.0), ("why", "Why it works", 2.0)]


def _report(name: str, answer: str = "because") -> Report:
    return Report("toy", name, "graded", 1.0, 3.0, (
        ItemResult("auto", "Automatic", 1.0, 1.0, "passed", "checks"),
        ItemResult("why", "Why it works", 0.0, 2.0, "manual", "manual",
                   messages=("awaiting a grader's reading", f"answer: {answer}"))), True)


@pytest.fixture
def out(tmp_path):
    out = tmp_path / "out"
    reports = [_report("alice"), _report("bob", "=HYPERLINK(\"x\")")]
    for report in reports:
        write_reports(report, out / report.submission)
    write_class_summary(reports, out, rubric_items=COLUMNS)
    return out


def _write(sheet, rows, columns=("submission", "item", "points", "comments")):
    with sheet.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, list(columns))
        writer.writeheader()
        writer.writerows(rows)


def test_export_has_every_manual_answer_with_formulas_defused(out, tmp_path):
    sheet = tmp_path / "sheet.csv"
    assert export_sheet(out, sheet) == 0
    rows = list(csv.DictReader(sheet.open(newline="", encoding="utf-8")))
    assert [(r["submission"], r["item"], r["points"], r["comments"]) for r in rows] == [
        ("alice", "why", "", ""), ("bob", "why", "", "")]
    assert rows[1]["answer"].startswith("'=HYPERLINK")


def test_import_merges_points_and_comments_and_rewrites_the_gradebook(out, tmp_path):
    sheet = tmp_path / "sheet.csv"
    _write(sheet, [{"submission": "alice", "item": "why", "points": "1.5", "comments": "Good start\n+1 for numbers"}])
    assert import_sheet(out, sheet) == 0
    report = load_report(out / "alice" / "report.json")
    why = report.items[1]
    assert (why.points, why.status, report.score) == (1.5, "partial", 2.5)
    assert why.messages == ("graded by hand", "comment: Good start", "comment: +1 for numbers", "answer: because")
    rows = {r["submission"]: r for r in csv.DictReader((out / "gradebook.csv").open())}
    assert rows["alice"]["why"] == "1.5" and rows["alice"]["score"] == "2.5" and rows["bob"]["why"] == "0"
    assert list(rows["alice"]) == ["submission", "status", "score", "max_score", "auto", "why"]
    assert "Why it works" in (out / "summary.html").read_text()  # no longer pending in the summary


def test_export_then_import_round_trips_the_comments(out, tmp_path):
    merged = merge_grades(load_report(out / "alice" / "report.json"), {"why": HandGrade(2, ("+1 names it",))}, "t")
    write_reports(merged, out / "alice")
    sheet = tmp_path / "sheet.csv"
    export_sheet(out, sheet)
    before = (out / "alice" / "report.json").read_text()
    import_sheet(out, sheet)
    assert (out / "alice" / "report.json").read_text() == before


def test_a_sheet_without_a_comments_column_still_imports(out, tmp_path):
    sheet = tmp_path / "old.csv"
    _write(sheet, [{"submission": "bob", "item": "why", "points": "2"}], ("submission", "item", "points"))
    import_sheet(out, sheet)
    assert load_report(out / "bob" / "report.json").items[1].messages[0] == "graded by hand"


def test_a_shard_folder_gets_no_gradebook_from_an_import(out, tmp_path):
    (out / "gradebook.csv").unlink()
    (out / "summary.html").unlink()
    sheet = tmp_path / "sheet.csv"
    _write(sheet, [{"submission": "alice", "item": "why", "points": "2", "comments": ""}])
    import_sheet(out, sheet)
    assert load_report(out / "alice" / "report.json").score == 3
    assert not (out / "gradebook.csv").exists() and not (out / "summary.html").exists()


@pytest.mark.parametrize("points, match", [("lots", r"sheet.csv:2: 'points' must be a number"),
                                           ("3", r"alice/why: points 3 outside 0..2")])
def test_bad_points_name_the_row_and_write_nothing(out, tmp_path, points, match):
    sheet = tmp_path / "sheet.csv"
    _write(sheet, [{"submission": "alice", "item": "why", "points": points, "comments": ""}])
    before = (out / "alice" / "report.json").read_text()
    with pytest.raises(UsageError, match=match):
        import_sheet(out, sheet)
    assert (out / "alice" / "report.json").read_text() == before
