"""The roster, read from what the LMS exports: a Canvas gradebook CSV, a Moodle grades export CSV, or a plain
CSV (id, name, email, section; optional sis_id, login). The format is told from the header row.

    Canvas:  Student, ID, SIS User ID, SIS Login ID, [Integration ID,] Section, <assignments...>
             then a "Points Possible" row (and, in newer exports, a "Manual Posting" row): skipped, and so is
             Canvas's own "Student, Test" (Student View)
    Moodle:  First name, Last name (or Surname), ID number, Institution, Department, Email address, ...
    plain:   id, name, email, section
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from grader.errors import UsageError

MAX_BYTES = 20_000_000
MAX_CELL = 300


@dataclass(frozen=True)
class Student:
    key: str  # the ledger's id: Canvas ID, Moodle ID number (else email), the plain CSV's id
    name: str
    section: str = ""
    email: str = ""
    sis_id: str = ""
    login: str = ""
    lms_id: str = ""  # Canvas user id (its bulk download names carry it)
    first: str = ""
    last: str = ""


@dataclass(frozen=True)
class Roster:
    source: str  # canvas | moodle | plain
    path: str
    students: tuple[Student, ...]
    header: tuple[str, ...] = ()  # the export's own columns (its assignment columns name the LMS's items)

    def by_key(self) -> dict[str, Student]:
        return {s.key: s for s in self.students}


class RosterError(UsageError):
    """A roster file that cannot be read; the message names the file, the line and what to do."""


def read_csv_rows(path: Path, what: str = "the gradebook export", fix: str = "export it again as CSV (UTF-8)"
                  ) -> list[list[str]]:
    """All rows of a CSV (UTF-8, with or without a BOM), size-capped, cells cut to MAX_CELL; ``what`` and
    ``fix`` word the messages (which file it should have been, what to do)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RosterError(f"{path}: cannot be read ({exc.strerror}); give {what}") from None
    if len(data) > MAX_BYTES:
        raise RosterError(f"{path}: over {MAX_BYTES // 1_000_000} MB; is this {what}?")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RosterError(f"{path}:{line}: not UTF-8; {fix}") from None
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise RosterError(f"{path}: not a CSV ({exc}); {fix}") from None
    return [[cell.strip()[:MAX_CELL] for cell in row] for row in rows]


def read_roster(path: Path) -> Roster:
    rows = read_csv_rows(path, what="the roster (the LMS's gradebook export, or id,name,email,section)")
    if not rows:
        raise RosterError(f"{path}:1: empty; export the gradebook (Canvas, Moodle) or write id,name,email,section")
    header = rows[0]
    if "SIS User ID" in header and "Student" in header:
        students = _canvas(path, header, rows[1:])
        source = "canvas"
    elif "Email address" in header and "First name" in header:
        students = _moodle(path, header, rows[1:])
        source = "moodle"
    elif "id" in [h.lower() for h in header]:
        students = _plain(path, header, rows[1:])
        source = "plain"
    else:
        raise RosterError(f"{path}:1: header {', '.join(header[:6])!r} is none of a Canvas gradebook export "
                          "(Student, ID, SIS User ID, ...), a Moodle grades export (First name, ..., Email address) "
                          "or a plain roster (id, name, email, section)")
    _unique(path, students)
    return Roster(source, str(path), tuple(s for _, s in students), tuple(header))


def _cells(header: list[str], row: list[str]) -> dict[str, str]:
    return {h: (row[n] if n < len(row) else "") for n, h in enumerate(header)}


def _canvas(path: Path, header: list[str], rows: list[list[str]]) -> list[tuple[int, Student]]:
    out = []
    for n, row in enumerate(rows, start=2):
        c = _cells(header, row)
        if not c.get("ID") or c.get("Student", "").strip().lower() in ("points possible", ""):
            continue  # Points Possible / Manual Posting rows: no student
        if c["Student"] == "Student, Test" and not c.get("SIS User ID"):
            continue  # the test student Canvas adds to every course (Student View)
        name = c["Student"]
        last, _, first = name.partition(", ")
        shown = f"{first} {last}".strip() if first else name
        out.append((n, Student(key=c["ID"], name=shown, section=c.get("Section", ""), sis_id=c.get("SIS User ID", ""),
                               login=c.get("SIS Login ID", ""), lms_id=c["ID"], first=first or name, last=last)))
    return out


def _moodle(path: Path, header: list[str], rows: list[list[str]]) -> list[tuple[int, Student]]:
    out = []
    surname = "Last name" if "Last name" in header else "Surname"
    for n, row in enumerate(rows, start=2):
        c = _cells(header, row)
        key = c.get("ID number") or c.get("Email address", "")
        if not key:
            raise RosterError(f"{path}:{n}: a student with neither 'ID number' nor 'Email address'; "
                              "export the grades with the email address included")
        first, last = c.get("First name", ""), c.get(surname, "")
        out.append((n, Student(key=key, name=f"{first} {last}".strip(), section=c.get("Department", ""),
                               email=c.get("Email address", ""), sis_id=c.get("ID number", ""), first=first,
                               last=last)))
    return out


def _plain(path: Path, header: list[str], rows: list[list[str]]) -> list[tuple[int, Student]]:
    lower = [h.lower() for h in header]
    out = []
    for n, row in enumerate(rows, start=2):
        c = _cells(lower, row)
        if not any(row):
            continue
        if not c.get("id"):
            raise RosterError(f"{path}:{n}: no id; every student needs one (the column 'id')")
        out.append((n, Student(key=c["id"], name=c.get("name", c["id"]), section=c.get("section", ""),
                               email=c.get("email", ""), sis_id=c.get("sis_id", ""), login=c.get("login", ""),
                               lms_id=c.get("lms_id", ""))))
    return out


def _unique(path: Path, students: list[tuple[int, Student]]) -> None:
    seen: dict[str, int] = {}
    for line, s in students:
        if s.key in seen:
            raise RosterError(f"{path}:{line}: student id {s.key!r} again (first on line {seen[s.key]}); "
                              "each student once")
        seen[s.key] = line
