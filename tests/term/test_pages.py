"""Are the student's feedback page and the term summary renderings that escape what a student wrote and say
how each penalty was computed?"""
from __future__ import annotations

import csv
import dataclasses
import io
import json

from term_samples import ADA, BASICS, HIDDEN_MESSAGE, report

from grader.results import ItemResult
from grader.term import ledger
from grader.term.grades import term_grades
from grader.term.pages import SummaryColumn, feedback_files, summary_csv, summary_html, summary_rows
from grader.term.release import student_view

EVIL = "<script>alert(1)</script>\u202egnp.exe"


def hostile_report():
    r = report(ADA)
    answer = ItemResult("essay", "Essay", 1.0, 1.0, "passed", "answers", messages=(f"you wrote: {EVIL}",))
    return dataclasses.replace(r, items=r.items + (answer,))


def test_feedback_escapes_student_text_and_holds_no_hidden_message_before_release():
    files = feedback_files(student_view(hostile_report(), "101", {}, released=False, due_passed=True),
                           {"student": "101", "file_sha256": "ab" * 32})
    html = files["feedback.html"]
    assert "<script>" not in html and "&lt;script&gt;" in html and "\u202e" not in html and "\\u202e" in html
    assert HIDDEN_MESSAGE not in html and HIDDEN_MESSAGE not in files["feedback.json"]
    assert "shown when staff publish grades" in html and "Not yet published" in html
    assert json.loads(files["receipt.json"])["file_sha256"] == "ab" * 32


def test_released_feedback_shows_the_grade_and_how_it_was_computed():
    view = student_view(hostile_report(), "101", {}, released=True, due_passed=True, final=9.0,
                        explain="late by 2h; 10% x 1 day = 10% off the score earned")
    html = feedback_files(view, {"student": "101"})["feedback.html"]
    assert 'class="final">9</strong> / 10' in html and "10% x 1 day = 10% off" in html and HIDDEN_MESSAGE in html


def test_the_term_summary_lists_every_student_with_the_penalty_explained(conn, course):
    grades = term_grades(conn, course, [BASICS])
    rows = summary_rows(ledger.students(conn), grades, [BASICS])
    columns = [SummaryColumn(BASICS, "Linear attention basics", 10.0)]
    table = list(csv.DictReader(io.StringIO(summary_csv(rows, columns))))
    assert [r["student"] for r in table] == ["101", "102", "103", "104"]
    assert (table[1][BASICS], table[1]["total"]) == ("6.3", "6.3") and "10% x 1 day" in table[1][f"{BASICS} how"]
    assert (table[3][f"{BASICS} state"], table[3][BASICS]) == ("missing", "0")
    html = summary_html("LA-101 <b>", rows, columns, None, course.digest)
    assert "LA-101 &lt;b&gt;" in html and "counts as 0" in html and course.digest[:12] in html


def test_summary_csv_cells_a_spreadsheet_would_run_are_quoted(conn, course):
    conn.execute("UPDATE students SET name = '=cmd|calc' WHERE key = '101'")
    rows = summary_rows(ledger.students(conn), term_grades(conn, course, [BASICS]), [BASICS])
    text = summary_csv(rows, [SummaryColumn(BASICS, "B", 10.0)])
    assert "\n101,'=cmd|calc," in text
