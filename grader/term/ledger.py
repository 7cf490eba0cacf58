"""The term's ledger: one SQLite file (course.yaml's `ledger:`) for every assignment of the term.

    rosters      each roster file read (its format and header row: the LMS's own column names)
    students     the roster (upserted from each roster file given)
    submissions  what a student handed in: its content hash, the file's sha256, when it came in and where that
                 time came from, and which rule matched it to the student
    attempts     each grading run of a submission, kept (with the report it produced); one is `current`
    item_scores  the points per rubric item of each attempt
    penalties    late penalties as last computed from course.yaml (with the course file's hash): a record of what
                 was exported or shown, recomputed every time, never typed in and never read back as a number
    overrides    a person's points for one item of one student (the latest wins)
    releases     what was published to a student: the attempt, its scores and the receipt
    regrades     each change of a current attempt: the diff, and whether it was held (it would lower a
                 published grade)
    unmatched    submissions matched to nobody, and why

Plain SQL with a `schema_version` table: MIGRATIONS[n] takes the schema from version n to n + 1, all of them
run in order inside one transaction. WAL mode, a busy timeout, and every write in `BEGIN IMMEDIATE` (the write
lock is taken before anything is read), so two TAs or two processes writing at once lose no update."""
from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from grader.errors import UsageError

MIGRATIONS = (
    """
    CREATE TABLE rosters (id INTEGER PRIMARY KEY, path TEXT NOT NULL, source TEXT NOT NULL,
        header_json TEXT NOT NULL, students INTEGER NOT NULL, at TEXT NOT NULL);
    CREATE TABLE students (key TEXT PRIMARY KEY, name TEXT NOT NULL, section TEXT NOT NULL DEFAULT '',
        email TEXT NOT NULL DEFAULT '', sis_id TEXT NOT NULL DEFAULT '', login TEXT NOT NULL DEFAULT '',
        lms_id TEXT NOT NULL DEFAULT '', first TEXT NOT NULL DEFAULT '', last TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL DEFAULT '');
    CREATE TABLE submissions (id INTEGER PRIMARY KEY, assignment TEXT NOT NULL, student TEXT NOT NULL,
        folder TEXT NOT NULL, content_hash TEXT NOT NULL, file_sha256 TEXT NOT NULL DEFAULT '',
        received_at TEXT, time_source TEXT NOT NULL, matched_by TEXT NOT NULL, lms_late INTEGER NOT NULL,
        first_seen TEXT NOT NULL, UNIQUE (assignment, student, folder, content_hash));
    CREATE TABLE attempts (id INTEGER PRIMARY KEY, assignment TEXT NOT NULL, student TEXT NOT NULL,
        submission INTEGER NOT NULL REFERENCES submissions(id), status TEXT NOT NULL, score REAL NOT NULL,
        max_score REAL NOT NULL, bundle_hash TEXT NOT NULL, grader_version TEXT NOT NULL,
        ingested_at TEXT NOT NULL, current INTEGER NOT NULL, report_json TEXT NOT NULL);
    CREATE INDEX attempts_by_student ON attempts (assignment, student, current);
    CREATE TABLE item_scores (attempt INTEGER NOT NULL REFERENCES attempts(id), item TEXT NOT NULL,
        title TEXT NOT NULL, points REAL NOT NULL, max_points REAL NOT NULL, status TEXT NOT NULL,
        hidden INTEGER NOT NULL, PRIMARY KEY (attempt, item));
    CREATE TABLE penalties (assignment TEXT NOT NULL, student TEXT NOT NULL, state TEXT NOT NULL,
        fraction REAL NOT NULL, bank_days INTEGER NOT NULL, explain TEXT NOT NULL, course_hash TEXT NOT NULL,
        computed_at TEXT NOT NULL, PRIMARY KEY (assignment, student));
    CREATE TABLE overrides (id INTEGER PRIMARY KEY, assignment TEXT NOT NULL, student TEXT NOT NULL,
        item TEXT NOT NULL, points REAL NOT NULL, reason TEXT NOT NULL, by TEXT NOT NULL, at TEXT NOT NULL);
    CREATE TABLE releases (id INTEGER PRIMARY KEY, assignment TEXT NOT NULL, student TEXT NOT NULL,
        attempt INTEGER NOT NULL REFERENCES attempts(id), raw_score REAL NOT NULL, final_score REAL NOT NULL,
        explain TEXT NOT NULL, receipt_json TEXT NOT NULL, at TEXT NOT NULL, by TEXT NOT NULL);
    CREATE TABLE regrades (id INTEGER PRIMARY KEY, assignment TEXT NOT NULL, student TEXT NOT NULL,
        old_attempt INTEGER NOT NULL, new_attempt INTEGER NOT NULL, diff_json TEXT NOT NULL,
        held INTEGER NOT NULL, at TEXT NOT NULL);
    CREATE TABLE unmatched (assignment TEXT NOT NULL, folder TEXT NOT NULL, why TEXT NOT NULL, at TEXT NOT NULL,
        PRIMARY KEY (assignment, folder));
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
BUSY_TIMEOUT_S = 60.0  # how long a writer waits for another one (a TA's export while a merge ingests)


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating and migrating as needed) the ledger at ``path``."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)  # transactions: write()
    except (OSError, sqlite3.Error) as exc:
        raise UsageError(f"{path}: the ledger cannot be opened ({exc}); check course.yaml's 'ledger:'") from None
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        migrate(conn)
    except sqlite3.OperationalError as exc:
        conn.close()
        if "locked" not in str(exc):
            raise UsageError(f"{path}: the ledger cannot be set up ({exc})") from None
        raise UsageError(f"{path}: busy: another command held the ledger for {BUSY_TIMEOUT_S:g} s; run this one "
                         "again when it is done") from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise UsageError(f"{path}: not a ledger of this kit ({exc}); course.yaml's 'ledger:' must name a file "
                         "of its own") from None
    return conn


def schema_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return row["version"] if row else 0


def migrate(conn: sqlite3.Connection, migrations: tuple[str, ...] = MIGRATIONS) -> None:
    """Run the migrations the ledger has not had, in order, in one transaction (all or none)."""
    with write(conn):
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        had = conn.execute("SELECT version FROM schema_version").fetchone()
        version = had["version"] if had else 0
        if version > len(migrations):
            raise sqlite3.DatabaseError(f"its schema version {version} is newer than this kit's {len(migrations)}; "
                                        "upgrade lrkit")
        for step in migrations[version:]:
            for statement in (s for s in step.split(";") if s.strip()):
                conn.execute(statement)
        if had is None:
            conn.execute("INSERT INTO schema_version VALUES (?)", (len(migrations),))
        else:
            conn.execute("UPDATE schema_version SET version = ?", (len(migrations),))


@contextlib.contextmanager
def write(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction. BEGIN IMMEDIATE takes the write lock first, so a read-then-write never races
    another process; an exception rolls everything back."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


STUDENT_FIELDS = ("key", "name", "section", "email", "sis_id", "login", "lms_id", "first", "last")


def put_roster(conn: sqlite3.Connection, roster, at: str) -> int:
    """Add or update the students of a Roster and remember its header; returns how many students."""
    rows = [tuple(getattr(s, f) for f in STUDENT_FIELDS) + (roster.source,) for s in roster.students]
    updates = ", ".join(f"{f}=excluded.{f}" for f in (*STUDENT_FIELDS[1:], "source"))
    with write(conn):
        conn.executemany(f"INSERT INTO students VALUES ({','.join('?' * 10)}) ON CONFLICT(key) DO UPDATE SET "
                         f"{updates}", rows)
        conn.execute("INSERT INTO rosters (path, source, header_json, students, at) VALUES (?,?,?,?,?)",
                     (roster.path, roster.source, json.dumps(list(roster.header)), len(rows), at))
    return len(rows)


def roster_header(conn: sqlite3.Connection) -> tuple[str, ...]:
    """The header row of the roster file read last (() if none was)."""
    row = conn.execute("SELECT header_json FROM rosters ORDER BY id DESC LIMIT 1").fetchone()
    return tuple(json.loads(row["header_json"])) if row else ()


def students(conn: sqlite3.Connection, section: str | None = None) -> list[sqlite3.Row]:
    if section:
        return conn.execute("SELECT * FROM students WHERE section = ? ORDER BY key", (section,)).fetchall()
    return conn.execute("SELECT * FROM students ORDER BY key").fetchall()


def sections(conn: sqlite3.Connection) -> list[str]:
    return [r["section"] for r in conn.execute("SELECT DISTINCT section FROM students ORDER BY section")]


def assignments(conn: sqlite3.Connection) -> list[str]:
    return [r["assignment"] for r in conn.execute("SELECT DISTINCT assignment FROM attempts ORDER BY assignment")]


def current_attempt(conn: sqlite3.Connection, assignment: str, student: str) -> sqlite3.Row | None:
    """The attempt that counts, with its submission's fields (folder, received_at, time_source, ...)."""
    return conn.execute(
        "SELECT a.*, s.folder, s.content_hash, s.file_sha256, s.received_at, s.time_source, s.matched_by, "
        "s.lms_late FROM attempts a JOIN submissions s ON s.id = a.submission "
        "WHERE a.assignment = ? AND a.student = ? AND a.current = 1", (assignment, student)).fetchone()


def attempt(conn: sqlite3.Connection, attempt_id: int) -> sqlite3.Row | None:
    return conn.execute("SELECT a.*, s.folder, s.content_hash, s.file_sha256, s.received_at, s.time_source "
                        "FROM attempts a JOIN submissions s ON s.id = a.submission WHERE a.id = ?",
                        (attempt_id,)).fetchone()


def attempts_of(conn: sqlite3.Connection, assignment: str, student: str) -> list[sqlite3.Row]:
    return conn.execute("SELECT * FROM attempts WHERE assignment = ? AND student = ? ORDER BY id",
                        (assignment, student)).fetchall()


def items_of(conn: sqlite3.Connection, attempt_id: int) -> dict[str, sqlite3.Row]:
    return {r["item"]: r for r in conn.execute("SELECT * FROM item_scores WHERE attempt = ? ORDER BY rowid",
                                               (attempt_id,))}


def published(conn: sqlite3.Connection, assignment: str, student: str) -> sqlite3.Row | None:
    """The latest release of this student's grade, if any."""
    return conn.execute("SELECT * FROM releases WHERE assignment = ? AND student = ? ORDER BY id DESC LIMIT 1",
                        (assignment, student)).fetchone()


def overrides_of(conn: sqlite3.Connection, assignment: str, student: str) -> dict[str, sqlite3.Row]:
    rows = conn.execute("SELECT * FROM overrides WHERE assignment = ? AND student = ? ORDER BY id",
                        (assignment, student))
    return {r["item"]: r for r in rows}  # the latest override of an item wins


def regrades_of(conn: sqlite3.Connection, assignment: str, since: int = 0) -> list[sqlite3.Row]:
    return conn.execute("SELECT * FROM regrades WHERE assignment = ? AND id > ? ORDER BY id",
                        (assignment, since)).fetchall()


def last_regrade_id(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT COALESCE(MAX(id), 0) AS n FROM regrades").fetchone()["n"]


def unmatched(conn: sqlite3.Connection, assignment: str) -> list[sqlite3.Row]:
    return conn.execute("SELECT * FROM unmatched WHERE assignment = ? ORDER BY folder", (assignment,)).fetchall()
