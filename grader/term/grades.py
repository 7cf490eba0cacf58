"""The grade of each roster student for each assignment, computed whenever one is shown, exported or
published: the current attempt's score, with a person's item overrides, less the late penalty that
course.yaml gives today (the student's own deadline, grace, lock date, policy and late-day bank). This
is the one place a final score is computed; every export, summary and release reads it from here.

Every student gets a grade: `missing` (counts as 0 and says so), `after_lock` (0, says why), `needs_grading`
(the grader crashed or the bundle was broken: no number is exported, the row says so) or `graded`."""
from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import dataclass

from grader.term import ledger
from grader.term.course import Course
from grader.term.policy import Penalty, term_penalties

NO_NUMBER = ("crashed", "bundle_error")  # the grader failed: a 0 would be a grade nobody gave


@dataclass(frozen=True)
class Grade:
    student: str
    assignment: str
    state: str  # graded | missing | after_lock | needs_grading | not_graded (nobody's batch ingested yet)
    status: str  # the report's status ('' when missing)
    raw: float | None  # the attempt's score with overrides
    max_points: float
    penalty: Penalty
    final: float | None  # what the LMS gets; None: leave the LMS cell empty
    attempt: int | None = None
    folder: str = ""
    received_at: str = ""
    time_source: str = ""
    matched_by: str = ""
    overrides: tuple[str, ...] = ()  # "item: 2 -> 3 (reason, by)"

    @property
    def explain(self) -> str:
        parts = [self.penalty.explain] + [f"override {o}" for o in self.overrides]
        if self.state == "needs_grading":
            parts.insert(0, f"the report is '{self.status}': grade it again; no number is exported")
        return "; ".join(parts)


NOT_GRADED = Penalty("not_graded", 0.0, 0, "not graded yet: no batch of this assignment was ingested")
NO_COURSE = Penalty("on_time", 0.0, 0, "no course.yaml: no deadline, so no late penalty")


def _max_points(conn: sqlite3.Connection, assignment: str) -> float:
    row = conn.execute("SELECT max_score FROM attempts WHERE assignment = ? ORDER BY id DESC LIMIT 1",
                       (assignment,)).fetchone()
    return float(row["max_score"]) if row else 0.0


def _penalties(course: Course | None, student: str, current: dict[str, sqlite3.Row],
               assignments: list[str]) -> dict[str, Penalty]:
    if course is None:
        return {a: NO_COURSE for a in assignments}
    submitted = {a: (dt.datetime.fromisoformat(r["received_at"]) if r["received_at"] else None)
                 for a, r in current.items()}
    found = term_penalties(course, student, submitted)
    for a in assignments:
        if a not in found:  # graded, but course.yaml has no due date for it
            found[a] = Penalty("on_time", 0.0, 0, f"course.yaml has no due date for {a}: no late penalty; "
                               "add it under assignments:")
    return found


def _with_overrides(conn: sqlite3.Connection, row: sqlite3.Row) -> tuple[float, tuple[str, ...]]:
    items = ledger.items_of(conn, row["id"])
    score, said = float(row["score"]), []
    for item, o in ledger.overrides_of(conn, row["assignment"], row["student"]).items():
        before = items[item]["points"] if item in items else 0.0
        score += o["points"] - before
        said.append(f"{item}: {before:g} -> {o['points']:g} ({o['reason']}, {o['by']})")
    return max(0.0, min(score, float(row["max_score"]))), tuple(said)


def _grade(conn: sqlite3.Connection, student: str, assignment: str, row: sqlite3.Row | None, penalty: Penalty,
           max_points: float) -> Grade:
    if row is None:
        return Grade(student, assignment, "missing", "", None, max_points, penalty, 0.0)
    raw, said = _with_overrides(conn, row)
    where = dict(attempt=row["id"], folder=row["folder"], received_at=row["received_at"] or "",
                 time_source=row["time_source"], matched_by=row["matched_by"], overrides=said)
    if row["status"] in NO_NUMBER:
        return Grade(student, assignment, "needs_grading", row["status"], None, row["max_score"], penalty, None,
                     **where)
    final = round(raw * (1.0 - penalty.fraction), 2)
    state = "after_lock" if penalty.state == "after_lock" else "graded"
    return Grade(student, assignment, state, row["status"], raw, row["max_score"], penalty, final, **where)


def term_grades(conn: sqlite3.Connection, course: Course | None, assignments: list[str],
                section: str | None = None, students: list[str] | None = None) -> list[Grade]:
    """A grade for every roster student (of ``section``, or among ``students``) and every assignment, in
    roster order then ``assignments`` order. The late-day bank is spent over all of course.yaml's
    assignments, so a student's grade here is the same whichever assignments are asked for."""
    known = set(ledger.assignments(conn))
    every = sorted(known | {d.assignment for d in course.deadlines} if course else known)
    maxima = {a: _max_points(conn, a) for a in every}
    out = []
    for s in ledger.students(conn, section):
        if students is not None and s["key"] not in students:
            continue
        current = {a: r for a in every if (r := ledger.current_attempt(conn, a, s["key"])) is not None}
        penalties = _penalties(course, s["key"], current, every)
        out += [_grade(conn, s["key"], a, current.get(a), penalties[a], maxima.get(a, 0.0)) if a in known else
                Grade(s["key"], a, "not_graded", "", None, 0.0, NOT_GRADED, None) for a in assignments]
    return out


def record_penalties(conn: sqlite3.Connection, grades: list[Grade], course: Course | None,
                     now: dt.datetime | None = None) -> None:
    """Keep what was computed (state, fraction, bank days, the words, which course.yaml): a record, never an input."""
    stamp = (now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds")
    digest = course.digest if course else ""
    with ledger.write(conn):
        conn.executemany("INSERT OR REPLACE INTO penalties VALUES (?,?,?,?,?,?,?,?)",
                         [(g.assignment, g.student, g.penalty.state, g.penalty.fraction, g.penalty.bank_days,
                           g.penalty.explain, digest, stamp) for g in grades])
