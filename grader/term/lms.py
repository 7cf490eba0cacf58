"""Gradebooks each LMS imports as they are, one writer per format (and no format written anywhere else).

    Canvas  Student,ID,SIS User ID,SIS Login ID,Section,<Assignment (id)>...; then "    Points Possible" with
            each column's points. Canvas matches rows by ID (or SIS User ID / SIS Login ID) and columns by
            name: the roster export's own column for the assignment keeps its Canvas id (a new name would make
            a new assignment). Turn Canvas's automatic late policy off for these columns: the penalty is in.
    Moodle  First name,<Last name|Surname>,ID number,Institution,Department,Email address,<Assignment: X (Real)>
            (its export's columns: the import format is the export format); map "Email address" to useremail
            (or "ID number" to useridnumber) and each grade column to its grade item.
    csv     one row per student and assignment, with the raw score, the penalty and how it was computed.

An empty cell is "no grade": Canvas and Moodle leave the grade as it is (a crashed or broken-bundle report)."""
from __future__ import annotations

import csv
import io
import re
import sqlite3
from dataclasses import dataclass

from grader.errors import UsageError
from grader.report.render import fmt_points
from grader.report.safe import csv_cell
from grader.term.course import Course
from grader.term.grades import Grade

FORMATS = ("canvas", "moodle", "csv")
CANVAS_IDENTITY = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
CANVAS_ID_SUFFIX = re.compile(r"\s*\(\d+\)$")
CSV_COLUMNS = ("student", "name", "section", "email", "sis_id", "assignment", "state", "status", "score",
               "penalty_percent", "final", "max_points", "submitted_at", "time_source", "matched_by", "folder",
               "explain")


@dataclass(frozen=True)
class Column:
    assignment: str
    header: str  # the LMS's name for it
    max_points: float
    how: str  # where the name came from, in words


@dataclass(frozen=True)
class Gradebook:
    text: str
    columns: tuple[Column, ...]
    notes: tuple[str, ...]  # what to do on upload (Moodle's mapping), columns that are new to the LMS


def _title(course: Course | None, assignment: str) -> tuple[str, str]:
    d = course.deadline(assignment) if course else None
    return (d.title or assignment, d.lms_column) if d else (assignment, "")


def _column(fmt: str, course: Course | None, assignment: str, header: tuple[str, ...], max_points: float) -> Column:
    title, declared = _title(course, assignment)
    if declared:
        return Column(assignment, declared, max_points, "course.yaml lms_column")
    wanted = {title.casefold(), assignment.casefold()}
    for h in header:
        name = CANVAS_ID_SUFFIX.sub("", h) if fmt == "canvas" else re.sub(r"^Assignment: |\s*\(Real\)$", "", h)
        if name.strip().casefold() in wanted:
            return Column(assignment, h, max_points, "the roster export's column")
    if fmt == "moodle":
        return Column(assignment, f"Assignment: {title} (Real)", max_points, "new: map it to its grade item")
    return Column(assignment, title, max_points, "new: Canvas makes a new assignment of a column it does not know")


def columns(fmt: str, course: Course | None, assignments: list[str], header: tuple[str, ...],
            maxima: dict[str, float]) -> tuple[Column, ...]:
    return tuple(_column(fmt, course, a, header, maxima.get(a, 0.0)) for a in assignments)


def _points(x: float | None) -> str:
    return "" if x is None else fmt_points(x)


def _cell(grade: Grade | None) -> str:
    return "" if grade is None else _points(grade.final)


def _by_student(grades: list[Grade]) -> dict[str, dict[str, Grade]]:
    out: dict[str, dict[str, Grade]] = {}
    for g in grades:
        out.setdefault(g.student, {})[g.assignment] = g
    return out


def _rows(grades: list[Grade], students: list[sqlite3.Row], cols: tuple[Column, ...]):
    by = _by_student(grades)
    return [(s, [_cell(by.get(s["key"], {}).get(c.assignment)) for c in cols]) for s in students
            if s["key"] in by]


def _csv(rows: list[list[str]]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def canvas(grades: list[Grade], students: list[sqlite3.Row], cols: tuple[Column, ...]) -> Gradebook:
    unmatchable = [s["key"] for s in students if not (s["lms_id"] or s["sis_id"] or s["login"])]
    if unmatchable:
        raise UsageError(f"{', '.join(unmatchable[:5])}: no Canvas ID, SIS User ID or SIS Login ID, so Canvas cannot "
                         "match the row; give the Canvas gradebook export as the roster (--roster)")
    out = [[*CANVAS_IDENTITY, *(c.header for c in cols)],
           ["    Points Possible", "", "", "", "", *(f"{c.max_points:.2f}" for c in cols)]]
    for s, cells in _rows(grades, students, cols):
        name = f"{s['last']}, {s['first']}" if s["last"] and s["first"] else s["name"]
        out.append([csv_cell(name), s["lms_id"], s["sis_id"], s["login"], csv_cell(s["section"]), *cells])
    notes = tuple(f"{c.header}: {c.how}" for c in cols if c.how.startswith("new"))
    return Gradebook(_csv(out), cols, notes + ("turn Canvas's automatic late policy off for these columns: the "
                                               "late penalty is already applied",))


def moodle(grades: list[Grade], students: list[sqlite3.Row], cols: tuple[Column, ...],
           header: tuple[str, ...] = ()) -> Gradebook:
    if all(s["email"] for s in students):
        mapping = 'map "Email address" to useremail'
    elif all(s["sis_id"] for s in students):
        mapping = 'map "ID number" to useridnumber'
    else:
        missing = [s["key"] for s in students if not (s["email"] or s["sis_id"])][:5]
        raise UsageError(f"{', '.join(missing)}: neither an email address nor an ID number, so Moodle cannot match "
                         "the row; give the Moodle grades export (with the email address) as the roster (--roster)")
    surname = "Surname" if "Surname" in header else "Last name"
    out = [["First name", surname, "ID number", "Institution", "Department", "Email address",
            *(c.header for c in cols)]]
    for s, cells in _rows(grades, students, cols):
        first, last = (s["first"], s["last"]) if s["first"] or s["last"] else (s["name"], "")
        out.append([csv_cell(first), csv_cell(last), s["sis_id"], "", csv_cell(s["section"]), s["email"], *cells])
    notes = (f"Moodle: Grades > Import > CSV file; {mapping}; map each grade column to its grade item",)
    return Gradebook(_csv(out), cols, notes + tuple(f"{c.header}: {c.how}" for c in cols if c.how.startswith("new")))


def plain(grades: list[Grade], students: list[sqlite3.Row], cols: tuple[Column, ...]) -> Gradebook:
    who = {s["key"]: s for s in students}
    out = [list(CSV_COLUMNS)]
    for g in (g for g in grades if g.student in who):
        s = who[g.student]
        percent = g.penalty.fraction * 100 if g.raw is not None else None  # a missing row has no penalty
        row = [s["key"], s["name"], s["section"], s["email"], s["sis_id"], g.assignment, g.state, g.status,
               _points(g.raw), _points(percent), _points(g.final), fmt_points(g.max_points), g.received_at,
               g.time_source, g.matched_by, g.folder, g.explain]
        out.append([csv_cell(v) for v in row])
    return Gradebook(_csv(out), cols, ())
