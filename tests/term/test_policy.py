"""Do late submissions, extensions, accommodations and the late-day bank give the penalties the policy says,
and are they recomputed when a deadline moves?"""
from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from grader.term.course import load_course
from grader.term.policy import student_deadline, term_penalties

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "course" / "course.yaml"
BASICS, HYBRID = "linear-attention-basics", "linear-attention-hybrid"


@pytest.fixture(scope="module")
def course():
    return load_course(EXAMPLE)


def after_due(course, assignment: str, **delta) -> dt.datetime:
    return course.deadline(assignment).due + dt.timedelta(**delta)


@pytest.mark.parametrize(("late", "percent"), [
    ({"minutes": 10}, 0.0),  # inside the 15-minute grace period
    ({"minutes": 20}, 10.0),  # one started day
    ({"hours": 30}, 20.0),  # two started days
    ({"days": 6, "minutes": 1}, 50.0),  # seven days would be 70%: the cap
])
def test_per_day_penalty_with_grace_and_cap(course, late, percent):
    p = term_penalties(course, "101", {BASICS: after_due(course, BASICS, **late)})[BASICS]
    assert p.fraction * 100 == pytest.approx(percent)
    assert ("(the cap)" in p.explain) == (percent == 50.0)


def test_after_the_lock_date_counts_zero_and_says_why(course):
    p = term_penalties(course, "101", {BASICS: after_due(course, BASICS, days=8)})[BASICS]
    assert (p.state, p.fraction) == ("after_lock", 1.0) and "lock date" in p.explain


def test_a_student_without_a_submission_is_missing(course):
    p = term_penalties(course, "101", {})[BASICS]
    assert (p.state, p.fraction) == ("missing", 1.0) and "counts as 0" in p.explain


def test_an_extension_moves_due_and_lock(course):
    own = student_deadline(course, course.deadline(BASICS), "103")
    assert own.due == after_due(course, BASICS, days=2)
    assert own.lock == course.deadline(BASICS).lock + dt.timedelta(days=2)
    p = term_penalties(course, "103", {BASICS: after_due(course, BASICS, days=1)})[BASICS]
    assert p.fraction == 0.0 and "extension" in p.explain and "illness" in p.explain


def test_an_extension_past_the_lock_date_overrides_it(course):
    far = dataclasses.replace(course.extensions[0], days=0.0,
                              due=course.deadline(BASICS).lock + dt.timedelta(days=3))
    moved = dataclasses.replace(course, extensions=(far,))
    p = term_penalties(moved, "103", {BASICS: far.due - dt.timedelta(hours=1)})[BASICS]
    assert p.state == "on_time"


def test_standing_accommodations_apply_to_every_assignment(course):
    for d in course.deadlines:
        assert student_deadline(course, d, "102").due == d.due + dt.timedelta(days=1)
        window = d.due - d.opens
        assert student_deadline(course, d, "104").due == d.due + window * 0.5


def test_the_bank_is_spent_in_due_date_order_then_penalties_apply(course):
    bank_only = dataclasses.replace(course, deadlines=tuple(
        dataclasses.replace(d, late_policy=None) for d in course.deadlines))
    times = {BASICS: after_due(bank_only, BASICS, days=1, hours=12), HYBRID: after_due(bank_only, HYBRID, days=2)}
    p = term_penalties(bank_only, "101", times)
    assert (p[BASICS].bank_days, p[BASICS].fraction) == (2, 0.0)  # 2 started days, from the bank of 3
    assert (p[HYBRID].bank_days, p[HYBRID].fraction) == (1, pytest.approx(0.2))  # 1 left, 1 day at 20%
    assert "1 late day from the bank (0 left)" in p[HYBRID].explain


def test_moving_a_deadline_recomputes_the_penalty(course):
    when = after_due(course, BASICS, days=2)
    before = term_penalties(course, "101", {BASICS: when})[BASICS]
    moved_deadline = dataclasses.replace(course.deadline(BASICS), due=when)
    moved = dataclasses.replace(course, deadlines=tuple(moved_deadline if d.assignment == BASICS else d
                                                         for d in course.deadlines))
    after = term_penalties(moved, "101", {BASICS: when})[BASICS]
    assert before.fraction == pytest.approx(0.2) and after.fraction == 0.0


def test_an_unknown_time_is_no_penalty_and_says_so(course):
    p = term_penalties(course, "101", {BASICS: None})[BASICS]
    assert p.state == "time_unknown" and p.fraction == 0.0 and "no submission time known" in p.explain
