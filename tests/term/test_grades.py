"""Does every roster student get a grade (missing counts 0 and says so), is the late penalty the one
course.yaml gives today (recomputed when a deadline or an extension moves), and do overrides count?"""
from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from term_samples import ADA, BASICS, HYBRID, report, write_output

from grader.term.grades import record_penalties, term_grades
from grader.term.ingest import Sources, ingest
from grader.term.matching import Matcher
from grader.term.session import ledger_roster


def by_student(grades):
    return {g.student: g for g in grades}


def test_every_roster_student_has_a_grade_and_the_policy_decides(conn, course):
    g = by_student(term_grades(conn, course, [BASICS]))
    assert list(g) == ["101", "102", "103", "104"]
    assert (g["101"].final, g["101"].penalty.state) == (10.0, "on_time")
    # due 15 Sept 23:59, +1 day standing accommodation, handed in 17 Sept 05:59: 6 h late, one day at 10%
    assert (g["102"].raw, g["102"].final) == (7.0, 6.3)
    assert "accommodation: +1 day" in g["102"].explain and "10% x 1 day = 10%" in g["102"].explain
    assert g["103"].final == 4.0 and "extension" in g["103"].explain and "illness" in g["103"].explain
    assert (g["104"].state, g["104"].final, g["104"].max_points) == ("missing", 0.0, 10.0)
    assert "counts as 0" in g["104"].explain


def test_moving_the_deadline_changes_the_penalty(conn, course):
    later = dataclasses.replace(course.deadline(BASICS), due=course.deadline(BASICS).due + dt.timedelta(days=1))
    moved = dataclasses.replace(course, deadlines=tuple(later if d.assignment == BASICS else d
                                                         for d in course.deadlines))
    assert by_student(term_grades(conn, course, [BASICS]))["102"].final == 6.3
    assert by_student(term_grades(conn, moved, [BASICS]))["102"].final == 7.0


def test_an_extension_given_later_removes_the_penalty(conn, course):
    ext = dataclasses.replace(course.extensions[0], student="102", days=3.0, reason="flu")
    extended = dataclasses.replace(course, extensions=course.extensions + (ext,))
    grace = by_student(term_grades(conn, extended, [BASICS]))["102"]
    assert grace.final == 7.0 and "flu" in grace.explain


def test_an_override_changes_the_score_and_says_who(conn, course):
    conn.execute("INSERT INTO overrides (assignment, student, item, points, reason, by, at) VALUES "
                 "(?, '102', 'checks', 6, 'regrade request: case 3 was a grader bug', 'ta-1', 't')", (BASICS,))
    grace = by_student(term_grades(conn, course, [BASICS]))["102"]
    assert (grace.raw, grace.final) == (10.0, 9.0)
    assert "override checks: 3 -> 6 (regrade request: case 3 was a grader bug, ta-1)" in grace.explain


def test_a_crashed_report_exports_no_number(conn, course, tmp_path):
    out = write_output(tmp_path / "again", [report(ADA, status="crashed", points={"checks": 0.0, "tests": 0.0,
                                                                                    "your_turn": 0.0})])
    ingest(conn, out, Matcher(ledger_roster(conn)), Sources())
    ada = by_student(term_grades(conn, course, [BASICS]))["101"]
    assert (ada.state, ada.final) == ("needs_grading", None) and "grade it again" in ada.explain


def test_an_assignment_nobody_handed_in_yet_is_not_graded_rather_than_missing(conn, course):
    g = [x for x in term_grades(conn, course, [BASICS, HYBRID]) if x.assignment == HYBRID]
    assert {x.state for x in g} == {"not_graded"} and {x.final for x in g} == {None}


def test_without_a_course_nothing_is_late(conn):
    grace = by_student(term_grades(conn, None, [BASICS]))["102"]
    assert grace.final == 7.0 and "no course.yaml" in grace.explain


def test_computed_penalties_are_recorded_with_the_course_file(conn, course):
    record_penalties(conn, term_grades(conn, course, [BASICS]), course)
    row = conn.execute("SELECT * FROM penalties WHERE student = '102'").fetchone()
    assert (row["fraction"], row["course_hash"]) == (pytest.approx(0.1), course.digest)
