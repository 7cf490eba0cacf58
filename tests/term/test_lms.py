"""Does each gradebook hold exactly what its LMS imports? Checked against the example course's own Canvas and
Moodle exports: the written file reads back as that LMS's export, row by row and column by column."""
from __future__ import annotations

import csv
import io

import pytest
from term_samples import BASICS, EXAMPLE

from grader.errors import UsageError
from grader.term import ledger, lms
from grader.term.grades import term_grades
from grader.term.roster import read_roster


def book(conn, course, fmt, section=None):
    grades = term_grades(conn, course, [BASICS], section)
    cols = lms.columns(fmt, course, [BASICS], ledger.roster_header(conn), {BASICS: 10.0})
    students = ledger.students(conn, section)
    if fmt == "canvas":
        return lms.canvas(grades, students, cols)
    if fmt == "moodle":
        return lms.moodle(grades, students, cols, ledger.roster_header(conn))
    return lms.plain(grades, students, cols)


def rows(text):
    return list(csv.reader(io.StringIO(text)))


def test_canvas_has_its_header_points_possible_and_the_roster_column(conn, course):
    out = rows(book(conn, course, "canvas").text)
    assert out[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Linear attention basics (1234)"]
    assert out[1] == ["    Points Possible", "", "", "", "", "10.00"]
    assert out[2:] == [["Lovelace, Ada", "101", "s1001", "ada", "A01", "10"],
                       ["Hopper, Grace", "102", "s1002", "grace", "A02", "6.3"],
                       ["Turing, Alan", "103", "s1003", "alan", "A01", "4"],
                       ["Noether, Emmy", "104", "s1004", "emmy", "A02", "0"]]


def test_the_canvas_file_reads_back_as_a_canvas_export(conn, course, tmp_path):
    (tmp_path / "upload.csv").write_text(book(conn, course, "canvas").text, encoding="utf-8")
    again = read_roster(tmp_path / "upload.csv")
    original = read_roster(EXAMPLE / "canvas-roster.csv")
    assert again.source == "canvas" and again.students == original.students


def test_a_section_exports_only_its_students(conn, course):
    out = rows(book(conn, course, "canvas", section="A02").text)
    assert [r[1] for r in out[2:]] == ["102", "104"]


def test_a_column_canvas_does_not_know_is_said_to_be_new(conn, course):
    cols = lms.columns("canvas", None, [BASICS], (), {BASICS: 10.0})
    assert cols[0].header == BASICS and cols[0].how.startswith("new: Canvas makes a new assignment")


def test_moodle_has_its_export_columns_and_says_how_to_map(conn, course):
    gradebook = book(conn, course, "moodle")
    out = rows(gradebook.text)
    assert out[0] == ["First name", "Last name", "ID number", "Institution", "Department", "Email address",
                      f"Assignment: {course.deadline(BASICS).title} (Real)"]
    assert out[2] == ["Grace", "Hopper", "s1002", "", "A02", "", "6.3"]
    assert any('map "ID number" to useridnumber' in n for n in gradebook.notes)  # a Canvas roster has no email


def test_a_moodle_roster_gives_its_own_columns_and_the_email_mapping(tmp_path, course):
    conn = ledger.connect(tmp_path / "m.sqlite")
    ledger.put_roster(conn, read_roster(EXAMPLE / "moodle-roster.csv"), "now")
    header = ledger.roster_header(conn)
    cols = lms.columns("moodle", course, [BASICS], header, {BASICS: 10.0})
    assert cols[0].header == "Assignment: Linear attention basics (Real)" and cols[0].how.startswith("the roster")
    gradebook = lms.moodle(term_grades(conn, course, [BASICS]), ledger.students(conn), cols, header)
    assert any('map "Email address" to useremail' in n for n in gradebook.notes)
    (tmp_path / "upload.csv").write_text(gradebook.text, encoding="utf-8")
    assert read_roster(tmp_path / "upload.csv").students == read_roster(EXAMPLE / "moodle-roster.csv").students


def test_students_the_lms_cannot_match_are_refused(tmp_path, course):
    conn = ledger.connect(tmp_path / "p.sqlite")
    (tmp_path / "plain.csv").write_text("id,name\nx1,Someone\n", encoding="utf-8")
    ledger.put_roster(conn, read_roster(tmp_path / "plain.csv"), "now")
    with pytest.raises(UsageError, match=r"x1: no Canvas ID, SIS User ID or SIS Login ID.*--roster"):
        lms.canvas([], ledger.students(conn), ())
    with pytest.raises(UsageError, match=r"x1: neither an email address nor an ID number.*--roster"):
        lms.moodle([], ledger.students(conn), ())


def test_a_name_a_spreadsheet_would_run_is_quoted(tmp_path):
    conn = ledger.connect(tmp_path / "p.sqlite")
    (tmp_path / "plain.csv").write_text('id,name,sis_id\nx1,"=HYPERLINK(""http://evil"")",s9\n', encoding="utf-8")
    ledger.put_roster(conn, read_roster(tmp_path / "plain.csv"), "now")
    grades = term_grades(conn, None, [BASICS])  # nothing ingested: a row that says so, with no number
    cols = lms.columns("canvas", None, [BASICS], (), {BASICS: 10.0})
    out = rows(lms.canvas(grades, ledger.students(conn), cols).text)
    assert out[2] == ["'=HYPERLINK(\"http://evil\")", "", "s9", "", "", ""]
    plain = list(csv.DictReader(io.StringIO(lms.plain(grades, ledger.students(conn), cols).text)))
    assert plain[0]["name"].startswith("'=") and plain[0]["state"] == "not_graded"


def test_the_plain_csv_says_how_each_grade_was_computed(conn, course):
    out = {r["student"]: r for r in csv.DictReader(io.StringIO(book(conn, course, "csv").text))}
    assert list(out["102"])[:5] == ["student", "name", "section", "email", "sis_id"]
    assert (out["102"]["score"], out["102"]["penalty_percent"], out["102"]["final"]) == ("7", "10", "6.3")
    assert out["102"]["time_source"] == "times CSV (102)" and "10% x 1 day" in out["102"]["explain"]
    assert (out["104"]["state"], out["104"]["final"], out["104"]["penalty_percent"]) == ("missing", "0", "")


def test_the_command_line_offers_exactly_the_formats_written_here():
    from grader.term import verbs

    assert verbs.FORMATS == lms.FORMATS
