"""Do released and unreleased feedback differ exactly as the visibility levels say, does nothing from a hidden
check reach a student before release, and does each release carry a receipt a student can check?"""
from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json

import pytest
from term_samples import ADA, BASICS, DOWNLOAD, HIDDEN_MESSAGE, report

from grader.config import FEEDBACK_VISIBILITY
from grader.grading.score import cause_notes
from grader.results import ItemResult
from grader.term import ledger
from grader.term.grades import term_grades
from grader.term.release import STRICTNESS, due_passed, level_of, receipt, release, student_view

NOW = dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc)


def test_the_levels_are_the_configs():
    assert set(STRICTNESS) == set(FEEDBACK_VISIBILITY) and STRICTNESS[0] == "visible"


@pytest.mark.parametrize(("hidden", "asked", "level"), [
    (False, None, "visible"),
    (True, None, "after_published"),
    (True, "visible", "after_published"),  # course.yaml can never show a hidden check early
    (False, "after_due_date", "after_due_date"),
    (True, "hidden", "hidden"),
])
def test_course_yaml_can_only_make_an_item_stricter(hidden, asked, level):
    item = ItemResult("q", "Q", 1.0, 1.0, "passed", "checks", hidden=hidden)
    assert level_of(item, {"q": asked} if asked else {}) == level


def views(r, levels, due):
    return (student_view(r, "101", levels, released=False, due_passed=due),
            student_view(r, "101", levels, released=True, due_passed=due, final=9.0, explain="on time"))


def test_before_release_a_hidden_item_shows_its_title_and_points_possible_only():
    before, after = views(report(ADA), {}, due=True)
    hidden_before = next(i for i in before.items if i.id == "checks")
    assert (hidden_before.shown, hidden_before.points, hidden_before.messages) == (False, None, ())
    assert hidden_before.wait == "shown when staff publish grades" and hidden_before.max_points == 6.0
    assert HIDDEN_MESSAGE not in json.dumps(dataclasses.asdict(before))
    assert (before.final, before.explain, before.shown_points, before.shown_max) == (None, "", 4.0, 4.0)
    hidden_after = next(i for i in after.items if i.id == "checks")
    assert hidden_after.shown and hidden_after.points == 6.0 and HIDDEN_MESSAGE in hidden_after.messages[0]
    assert (after.final, after.explain) == (9.0, "on time")
    # the visible items are the same in both
    assert [i for i in before.items if i.id != "checks"] == [i for i in after.items if i.id != "checks"]


def test_after_due_date_waits_for_the_students_own_due_date_and_hidden_is_never_listed():
    levels = {"your_turn": "after_due_date", "tests": "hidden"}
    early, _ = views(report(ADA), levels, due=False)
    late, released = views(report(ADA), levels, due=True)
    turn = {v: next(i for i in v.items if i.id == "your_turn") for v in (early, late)}
    assert (turn[early].shown, turn[late].shown) == (False, True)
    assert all(i.id != "tests" for v in (early, late, released) for i in v.items)
    assert released.unlisted == 1


def test_notes_about_items_not_shown_are_withheld():
    cause = "the normalizer divides by the wrong sum"
    items = tuple(ItemResult(i, i, 0.0, 2.0, "failed", "checks", hidden=True, cause=cause) for i in ("a", "b"))
    shared = cause_notes(items)
    r = report(ADA)
    r = dataclasses.replace(r, items=items + r.items, notes=shared + ("renamed: a note for all",))
    before, after = views(r, {}, due=True)
    assert before.notes == ("renamed: a note for all",) and after.notes == shared + ("renamed: a note for all",)


def test_the_due_date_passed_is_the_students_own(course):
    due = course.deadline(BASICS).due
    one_hour_after = due + dt.timedelta(hours=1)
    assert due_passed(course, BASICS, "101", one_hour_after)
    assert not due_passed(course, BASICS, "103", one_hour_after)  # a 2-day extension
    assert not due_passed(None, BASICS, "101", NOW)


def test_a_receipt_names_what_was_graded_and_seals_it(conn):
    row = ledger.attempt(conn, ledger.current_attempt(conn, BASICS, "101")["id"])
    r = receipt(row)
    zipped = next(DOWNLOAD.glob("lovelaceada_*")).read_bytes()
    assert r["file_sha256"] == hashlib.sha256(zipped).hexdigest()
    assert (r["content_hash"], r["bundle_hash"], r["grader_version"]) == (f"sha-{ADA}", "b1", "0.1.0+test")
    assert r["received_at"] == "2026-09-15T20:00:00-04:00"
    body = {k: v for k, v in r.items() if k not in ("issued_at", "receipt_sha256")}
    assert r["receipt_sha256"] == hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def test_a_release_is_recorded_once_per_grade(conn, course):
    grades = term_grades(conn, course, [BASICS])
    first = release(conn, grades, "prof", NOW)
    assert first.released == ("101", "102", "103") and first.skipped == (("104", "no submission"),)
    again = release(conn, grades, "prof", NOW)
    assert again.released == () and again.already == ("101", "102", "103")
    row = ledger.published(conn, BASICS, "102")
    assert (row["raw_score"], row["final_score"], row["by"]) == (7.0, 6.3, "prof")
    assert "10% x 1 day" in row["explain"] and json.loads(row["receipt_json"])["student"] == "102"
