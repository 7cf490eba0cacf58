"""Feedback released on purpose: what a student's report holds before and after `grade publish`, the
release record and the receipt.

Each item has a visibility level (grader.config.FEEDBACK_VISIBILITY): an item graded with hidden material
(hidden checks, a hidden answer key: the report's `hidden`) is `after_published`, any other is `visible`, and
course.yaml's `visibility:` may make an item stricter, never looser, so nothing from a hidden check reaches a
student before release.

    visible          points and messages shown at once
    after_due_date   shown once the student's own due date (extensions included) has passed
    after_published  shown once staff publish; before that, the title and the points it is worth
    hidden           never listed; its points count in the total once published

A hidden check's source and expected values are never in a report (the scorer keeps them out); the student
report is built from the item fields alone (title, points, status, messages) and the notes, less the notes
that summarise items not shown. Each graded submission gets a receipt: content hash, the sha256 of the file
handed in, when it came in, the bundle hash and the grader version."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
from dataclasses import dataclass

from grader.config import FEEDBACK_VISIBILITY
from grader.grading.score import cause_notes
from grader.results import ItemResult, Report
from grader.term import ledger
from grader.term.course import Course
from grader.term.grades import Grade
from grader.term.policy import student_deadline

STRICTNESS = tuple(sorted(FEEDBACK_VISIBILITY, key=("visible", "after_due_date", "after_published", "hidden").index))
WAIT_WORDS = {"after_due_date": "shown after the due date", "after_published": "shown when staff publish grades"}


@dataclass(frozen=True)
class ShownItem:
    id: str
    title: str
    max_points: float
    level: str
    shown: bool  # False: title and points possible only
    points: float | None = None
    status: str = ""
    messages: tuple[str, ...] = ()
    wait: str = ""  # when it will be shown, in words


@dataclass(frozen=True)
class StudentView:
    assignment: str
    student: str
    released: bool
    items: tuple[ShownItem, ...]  # never the hidden-level ones
    notes: tuple[str, ...]
    shown_points: float  # of the items shown
    shown_max: float
    max_score: float
    final: float | None = None  # with penalty and overrides: only once released
    explain: str = ""  # how the final score was computed: only once released
    unlisted: int = 0  # items at the hidden level


def level_of(item: ItemResult, course_levels: dict[str, str]) -> str:
    default = "after_published" if item.hidden else "visible"
    asked = course_levels.get(item.id, default)
    return max(default, asked, key=STRICTNESS.index)


def _shown(level: str, released: bool, due_passed: bool) -> bool:
    return level == "visible" or (level == "after_due_date" and due_passed) or \
        (level == "after_published" and released)


def student_view(report: Report, student: str, course_levels: dict[str, str], *, released: bool,
                 due_passed: bool, final: float | None = None, explain: str = "") -> StudentView:
    """What the student may read now: pure, so released and unreleased views differ only as the levels say
    (``final`` and ``explain``, the published grade and how it was computed, are shown only when released)."""
    shown, listed = [], []
    for item in report.items:
        level = level_of(item, course_levels)
        if level == "hidden":
            continue
        if _shown(level, released, due_passed):
            shown.append(item)
            listed.append(ShownItem(item.id, item.title, item.max_points, level, True, item.points, item.status,
                                    item.messages))
        else:
            listed.append(ShownItem(item.id, item.title, item.max_points, level, False, wait=WAIT_WORDS[level]))
    withheld_notes = set(cause_notes(report.items)) - set(cause_notes(tuple(shown)))
    notes = tuple(n for n in report.notes if n not in withheld_notes)
    return StudentView(report.assignment, student, released, tuple(listed), notes,
                       sum(i.points for i in shown), sum(i.max_points for i in shown), report.max_score,
                       final if released else None, explain if released else "",
                       sum(level_of(i, course_levels) == "hidden" for i in report.items))


def due_passed(course: Course | None, assignment: str, student: str, now: dt.datetime) -> bool:
    deadline = course.deadline(assignment) if course else None
    return deadline is not None and student_deadline(course, deadline, student).due <= now


def receipt(row: sqlite3.Row) -> dict:
    """What a student can check against what they handed in (`sha256sum` of their file) and what graded it."""
    body = {"assignment": row["assignment"], "student": row["student"], "attempt": row["id"],
            "folder": row["folder"], "content_hash": row["content_hash"], "file_sha256": row["file_sha256"],
            "received_at": row["received_at"] or "", "time_source": row["time_source"],
            "bundle_hash": row["bundle_hash"], "grader_version": row["grader_version"], "score": row["score"],
            "status": row["status"]}
    seal = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    return {**body, "issued_at": row["ingested_at"], "receipt_sha256": seal}


@dataclass(frozen=True)
class Released:
    released: tuple[str, ...]
    already: tuple[str, ...]  # the same attempt and final score were released before
    skipped: tuple[tuple[str, str], ...]  # (student, why)


def release(conn: sqlite3.Connection, grades: list[Grade], by: str, now: dt.datetime) -> Released:
    """Record a release for each graded student whose released grade would change; one transaction."""
    done, already, skipped = [], [], []
    stamp = now.isoformat(timespec="seconds")
    with ledger.write(conn):
        for g in grades:
            if g.attempt is None or g.final is None:
                why = "no submission" if g.state == "missing" else f"{g.state}: grade it again first"
                skipped.append((g.student, why))
                continue
            last = ledger.published(conn, g.assignment, g.student)
            if last is not None and last["attempt"] == g.attempt and abs(last["final_score"] - g.final) < 1e-9:
                already.append(g.student)
                continue
            row = ledger.attempt(conn, g.attempt)
            conn.execute("INSERT INTO releases (assignment, student, attempt, raw_score, final_score, explain, "
                         "receipt_json, at, by) VALUES (?,?,?,?,?,?,?,?,?)",
                         (g.assignment, g.student, g.attempt, g.raw, g.final, g.explain,
                          json.dumps(receipt(row), sort_keys=True), stamp, by))
            done.append(g.student)
    return Released(tuple(done), tuple(already), tuple(skipped))
