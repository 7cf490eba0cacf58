"""Every grade in one SQLite file (OUT_DIR/handgrading.sqlite), safe for several graders at once.

A grade has a version; a write names the version it was made on and is refused (`StaleWrite`) when
someone else wrote since, so two graders never overwrite each other. Each write is one transaction
(BEGIN IMMEDIATE: one writer at a time, readers never blocked, WAL) that also appends to `history`, so
every change is kept with who made it and when. The ``publish`` callback runs inside the transaction:
the reports are rewritten from the state being committed, one writer at a time, or the grade is not
saved at all.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import json
import secrets
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from grader.errors import LrkitError, UsageError
from grader.serve.guide import GuideItem

DB_FILE = "handgrading.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS grades (folder TEXT NOT NULL, item TEXT NOT NULL, version INTEGER NOT NULL,
    points REAL NOT NULL, entries TEXT NOT NULL, adjust REAL NOT NULL, comment TEXT NOT NULL, grader TEXT NOT NULL,
    at TEXT NOT NULL, PRIMARY KEY (folder, item));
CREATE TABLE IF NOT EXISTS history (id INTEGER PRIMARY KEY, folder TEXT NOT NULL, item TEXT NOT NULL,
    version INTEGER NOT NULL, points REAL NOT NULL, entries TEXT NOT NULL, adjust REAL NOT NULL, comment TEXT NOT NULL,
    grader TEXT NOT NULL, at TEXT NOT NULL, why TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS history_by_answer ON history (folder, item);
CREATE TABLE IF NOT EXISTS entries (item TEXT NOT NULL, number INTEGER NOT NULL, points REAL NOT NULL,
    comment TEXT NOT NULL, version INTEGER NOT NULL, grader TEXT NOT NULL, at TEXT NOT NULL,
    PRIMARY KEY (item, number));
CREATE TABLE IF NOT EXISTS entry_history (id INTEGER PRIMARY KEY, item TEXT NOT NULL, number INTEGER NOT NULL,
    points REAL NOT NULL, comment TEXT NOT NULL, version INTEGER NOT NULL, grader TEXT NOT NULL, at TEXT NOT NULL);
"""
_GRADE_COLUMNS = "folder, item, version, points, entries, adjust, comment, grader, at"


@dataclass(frozen=True)
class Grade:
    folder: str
    item: str
    version: int
    points: float
    entries: tuple[int, ...]  # the numbers of the rubric entries applied
    adjust: float  # free points added to the entries' (may be negative)
    comment: str
    grader: str
    at: str  # UTC, ISO 8601
    why: str = ""  # in history: "graded" or "entry 2 changed"


@dataclass(frozen=True)
class Entry:
    item: str
    number: int  # its key while grading (1-9; later ones by click)
    points: float
    comment: str
    version: int


@dataclass(frozen=True)
class Draft:
    """What a grader asks to write on top of version ``expected`` (0: the answer was ungraded)."""

    expected: int
    entries: tuple[int, ...] = ()
    adjust: float = 0.0
    comment: str = ""


class StaleWrite(LrkitError):
    """Someone else changed this grade (or entry) since the page was loaded; nothing was written."""

    def __init__(self, current: Grade | Entry | None, what: str = "this grade"):
        self.current = current
        who = getattr(current, "grader", "")
        super().__init__(f"{what} was changed meanwhile{f' by {who}' if who else ''}; nothing was saved")


# (folder, {item: its new grade}, {(item, number): entry}): rewrite that folder's report
Publish = Callable[[str, dict[str, Grade], dict[tuple[str, int], Entry]], None]


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def points_of(entries: tuple[int, ...], adjust: float, table: dict[int, Entry], max_points: float) -> float:
    """The one scoring rule of a hand grade: the applied entries' points plus the free points, in 0..max."""
    raw = sum(table[n].points for n in entries if n in table) + adjust
    return round(min(max(raw, 0.0), max_points), 4)


def _grade(row: tuple) -> Grade:
    return Grade(row[0], row[1], row[2], row[3], tuple(json.loads(row[4])), row[5], row[6], row[7], row[8],
                 *row[9:10])


class Store:
    def __init__(self, path: Path):
        self.path = path
        try:
            with self.connect() as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:  # not a database, or a folder this user cannot write
            raise UsageError(f"{path}: cannot be the hand-grading database ({exc}); make its folder writable, or "
                             "move the file away to start afresh") from None

    @contextlib.contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            yield db
        finally:
            db.close()

    @contextlib.contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed when the block ends, rolled back when it raises."""
        with self.connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def salt(self) -> str:
        """This class's random key (made once): it fixes the answers' shuffled order for every grader."""
        with self.writing() as db:
            db.execute("INSERT OR IGNORE INTO meta VALUES ('salt', ?)", (secrets.token_hex(16),))
            return db.execute("SELECT value FROM meta WHERE key = 'salt'").fetchone()[0]

    def seed_entries(self, guide: dict[str, GuideItem]) -> None:
        """The guide's entries, for items that have none yet (later edits live in the store)."""
        with self.writing() as db:
            for item, spec in guide.items():
                if not db.execute("SELECT 1 FROM entries WHERE item = ?", (item,)).fetchone():
                    for n, draft in enumerate(spec.entries, start=1):
                        self._put_entry(db, Entry(item, n, draft.points, draft.comment, 1), "the guide")

    def entries(self, item: str, db: sqlite3.Connection | None = None) -> dict[int, Entry]:
        with contextlib.nullcontext(db) if db else self.connect() as con:
            rows = con.execute("SELECT item, number, points, comment, version FROM entries WHERE item = ? "
                               "ORDER BY number", (item,)).fetchall()
        return {r[1]: Entry(*r) for r in rows}

    def grades(self, item: str) -> dict[str, Grade]:
        """folder -> the current grade of ``item``."""
        with self.connect() as db:
            rows = db.execute(f"SELECT {_GRADE_COLUMNS} FROM grades WHERE item = ?", (item,)).fetchall()
        return {r[0]: _grade(r) for r in rows}

    def grade(self, folder: str, item: str, db: sqlite3.Connection | None = None) -> Grade | None:
        with contextlib.nullcontext(db) if db else self.connect() as con:
            row = con.execute(f"SELECT {_GRADE_COLUMNS} FROM grades WHERE folder = ? AND item = ?",
                              (folder, item)).fetchone()
        return _grade(row) if row else None

    def history(self, folder: str, item: str) -> tuple[Grade, ...]:
        """Every version this answer's grade has had, oldest first."""
        with self.connect() as db:
            rows = db.execute(f"SELECT {_GRADE_COLUMNS}, why FROM history WHERE folder = ? AND item = ? ORDER BY id",
                              (folder, item)).fetchall()
        return tuple(_grade(r) for r in rows)

    def save(self, folder: str, item: str, draft: Draft, grader: str, max_points: float, publish: Publish) -> Grade:
        """Write ``draft`` as the new grade, or raise StaleWrite if the grade is no longer at its version."""
        with self.writing() as db:
            current = self.grade(folder, item, db)
            table = self.entries(item, db)
            if (current.version if current else 0) != draft.expected or not set(draft.entries) <= set(table):
                raise StaleWrite(current)  # someone wrote since, or an entry this page showed is gone
            points = points_of(draft.entries, draft.adjust, table, max_points)
            new = Grade(folder, item, draft.expected + 1, points, tuple(sorted(set(draft.entries))), draft.adjust,
                        draft.comment, grader, now(), "graded")
            self._put_grade(db, new)
            publish(folder, {item: new}, self._all_entries(db))
        return new

    def add_entry(self, item: str, points: float, comment: str, grader: str) -> Entry:
        with self.writing() as db:
            number = db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM entries WHERE item = ?",
                                (item,)).fetchone()[0]
            entry = Entry(item, number, points, comment, 1)
            self._put_entry(db, entry, grader)
        return entry

    def change_entry(self, entry: Entry, grader: str, max_points: float, publish: Publish) -> int:
        """Write ``entry`` (its version: the one it was edited on) and re-score every answer graded with it;
        returns how many answers were re-scored."""
        with self.writing() as db:
            current = self.entries(entry.item, db).get(entry.number)
            if current is None or current.version != entry.version:
                raise StaleWrite(current, f"rubric entry {entry.number}")
            self._put_entry(db, Entry(entry.item, entry.number, entry.points, entry.comment, entry.version + 1),
                            grader)
            table = self.entries(entry.item, db)
            rows = db.execute(f"SELECT {_GRADE_COLUMNS} FROM grades WHERE item = ?", (entry.item,)).fetchall()
            touched = [g for g in map(_grade, rows) if entry.number in g.entries]
            entries = self._all_entries(db)
            for old in touched:
                points = points_of(old.entries, old.adjust, table, max_points)
                new = Grade(old.folder, old.item, old.version + 1, points, old.entries, old.adjust, old.comment,
                            grader, now(), f"entry {entry.number} changed")
                self._put_grade(db, new)
                publish(new.folder, {new.item: new}, entries)
        return len(touched)

    def _all_entries(self, db: sqlite3.Connection) -> dict[tuple[str, int], Entry]:
        rows = db.execute("SELECT item, number, points, comment, version FROM entries").fetchall()
        return {(r[0], r[1]): Entry(*r) for r in rows}

    def _put_grade(self, db: sqlite3.Connection, g: Grade) -> None:
        values = (g.folder, g.item, g.version, g.points, json.dumps(list(g.entries)), g.adjust, g.comment, g.grader,
                  g.at)
        db.execute(f"INSERT OR REPLACE INTO grades ({_GRADE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
        db.execute(f"INSERT INTO history ({_GRADE_COLUMNS}, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   values + (g.why,))

    def _put_entry(self, db: sqlite3.Connection, e: Entry, grader: str) -> None:
        values = (e.item, e.number, e.points, e.comment, e.version, grader, now())
        db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)", values)
        db.execute("INSERT INTO entry_history (item, number, points, comment, version, grader, at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)", values)
