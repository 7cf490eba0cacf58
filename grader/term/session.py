"""What every term command starts from: the course (course.yaml, given or in the current folder; optional
for one assignment's export), the ledger it names (without a course: OUT_DIR/_term/term.sqlite), the roster
(a file given or named by course.yaml, else the one already in the ledger), and what the class handed in for
an assignment (course.yaml's inputs, each replaceable by a command-line flag)."""
from __future__ import annotations

import dataclasses
import datetime as dt
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

from grader.errors import UsageError
from grader.term import ledger
from grader.term.course import Course, Inputs, load_course
from grader.term.ingest import TERM_DIR, Sources
from grader.term.matching import Matcher, read_gradescope, read_mapping
from grader.term.roster import Roster, Student, read_roster
from grader.term.times import read_times

COURSE_FILE = "course.yaml"
LEDGER_FILE = "term.sqlite"


@dataclass(frozen=True)
class Term:
    course: Course | None
    conn: sqlite3.Connection
    ledger_path: Path


def find_course(given: str | None) -> Path | None:
    """--course FILE, else ./course.yaml if there is one, else none."""
    if given:
        path = Path(given)
        if not path.is_file():
            raise UsageError(f"{path}: no such course file; write one (examples/course/course.yaml is complete) "
                             "or leave out --course")
        return path
    return Path(COURSE_FILE) if Path(COURSE_FILE).is_file() else None


def open_term(course_file: str | None, out_dir: Path | None = None, roster_file: str | None = None,
              now: dt.datetime | None = None) -> Term:
    path = find_course(course_file)
    course = load_course(path) if path is not None else None
    if course is not None:
        ledger_path = course.ledger
    elif out_dir is not None:
        ledger_path = out_dir / TERM_DIR / LEDGER_FILE
    else:
        raise UsageError(f"no {COURSE_FILE} here and none given: pass --course FILE (the term's ledger is named "
                         "there)")
    conn = ledger.connect(ledger_path)
    roster = Path(roster_file) if roster_file else course.roster if course else None
    if roster is not None:
        stamp = (now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds")
        ledger.put_roster(conn, read_roster(roster), stamp)
    elif not ledger.students(conn):
        conn.close()
        raise UsageError(f"{ledger_path}: no roster yet; pass --roster FILE (the LMS's gradebook export, or "
                         "id,name,email,section) or name it in course.yaml's roster:")
    return Term(course, conn, ledger_path)


def ledger_roster(conn: sqlite3.Connection) -> Roster:
    """The roster as the ledger holds it (every file read so far, merged)."""
    names = [f.name for f in dataclasses.fields(Student)]
    students = tuple(Student(**{k: row[k] for k in names}) for row in ledger.students(conn))
    return Roster("ledger", "", students, ledger.roster_header(conn))


def inputs_for(course: Course | None, assignment: str, flags: dict[str, str | None]) -> Inputs:
    """course.yaml's inputs for the assignment, with each flag given (submissions, times, ...) in its place."""
    deadline = course.deadline(assignment) if course else None
    declared = deadline.inputs if deadline else Inputs()
    given = {k: Path(v) for k, v in flags.items() if v}
    return dataclasses.replace(declared, **given)


def matcher_and_sources(term: Term, inputs: Inputs) -> tuple[Matcher, Sources]:
    zone = ZoneInfo(term.course.timezone) if term.course else dt.timezone.utc
    gradescope = read_gradescope(inputs.gradescope) if inputs.gradescope else {}
    mapping = read_mapping(inputs.mapping) if inputs.mapping else {}
    times = read_times(inputs.times, zone) if inputs.times else {}
    if inputs.submissions is not None and not inputs.submissions.is_dir():
        raise UsageError(f"{inputs.submissions}: no such folder; give the folder 'grade batch' graded (the bulk "
                         "download) as --submissions, or fix course.yaml's submissions:")
    matcher = Matcher(ledger_roster(term.conn), mapping=mapping, gradescope=gradescope)
    return matcher, Sources(inputs.submissions, gradescope, times, zone)
