"""Does the ledger create and migrate its schema in one transaction, refuse a file that is not one, and lose
no update when two processes write at once?"""
from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from term_samples import EXAMPLE, ROOT

from grader.errors import UsageError
from grader.term import ledger
from grader.term.roster import read_roster


def test_a_new_ledger_has_the_schema_and_wal(tmp_path):
    conn = ledger.connect(tmp_path / "t.sqlite")
    assert ledger.schema_version(conn) == ledger.SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"students", "submissions", "attempts", "item_scores", "penalties", "overrides", "releases",
            "regrades", "unmatched", "schema_version"} <= tables
    conn.close()
    again = ledger.connect(tmp_path / "t.sqlite")  # reopening migrates nothing twice
    assert ledger.schema_version(again) == ledger.SCHEMA_VERSION
    assert again.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 1


def test_a_later_migration_runs_once_and_keeps_the_data(tmp_path):
    conn = ledger.connect(tmp_path / "t.sqlite")
    ledger.put_roster(conn, read_roster(EXAMPLE / "canvas-roster.csv"), "now")
    step = "ALTER TABLE students ADD COLUMN pronouns TEXT NOT NULL DEFAULT ''"
    ledger.migrate(conn, ledger.MIGRATIONS + (step,))
    ledger.migrate(conn, ledger.MIGRATIONS + (step,))  # a second run would fail on the duplicate column
    assert ledger.schema_version(conn) == ledger.SCHEMA_VERSION + 1
    assert [r["pronouns"] for r in ledger.students(conn)] == [""] * 4


def test_a_failed_migration_changes_nothing(tmp_path):
    conn = ledger.connect(tmp_path / "t.sqlite")
    broken = ledger.MIGRATIONS + ("CREATE TABLE extra (x INTEGER); CREATE TABLE extra (x INTEGER)",)
    with pytest.raises(sqlite3.OperationalError, match="already exists"):
        ledger.migrate(conn, broken)
    assert ledger.schema_version(conn) == ledger.SCHEMA_VERSION
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchone() is None


def test_a_ledger_newer_than_the_kit_and_a_file_that_is_not_one_are_refused(tmp_path):
    conn = ledger.connect(tmp_path / "t.sqlite")
    conn.execute("UPDATE schema_version SET version = 99")
    conn.close()
    with pytest.raises(UsageError, match=r"t.sqlite: not a ledger of this kit \(its schema version 99 is newer"):
        ledger.connect(tmp_path / "t.sqlite")
    (tmp_path / "notes.txt").write_text("these are my notes\n" * 100)
    with pytest.raises(UsageError, match=r"notes.txt: not a ledger of this kit.*a file of its own"):
        ledger.connect(tmp_path / "notes.txt")


def test_a_write_that_raises_leaves_nothing(tmp_path):
    conn = ledger.connect(tmp_path / "t.sqlite")
    with pytest.raises(RuntimeError, match="half way"):
        with ledger.write(conn):
            conn.execute("INSERT INTO overrides (assignment, student, item, points, reason, by, at) "
                         "VALUES ('a', 's', 'i', 1, 'r', 'b', 't')")
            raise RuntimeError("half way")
    assert conn.execute("SELECT COUNT(*) FROM overrides").fetchone()[0] == 0


WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from grader.term import ledger
    conn = ledger.connect(Path(sys.argv[1]))
    for n in range(int(sys.argv[3])):
        with ledger.write(conn):  # read, then write what was read plus one: lost if another writer interleaves
            row = conn.execute("SELECT points FROM overrides WHERE item = 'counter' ORDER BY id DESC LIMIT 1")
            last = row.fetchone()
            conn.execute("INSERT INTO overrides (assignment, student, item, points, reason, by, at) "
                         "VALUES ('a', 's', 'counter', ?, ?, ?, 't')", ((last[0] if last else 0) + 1, sys.argv[2], n))
""")


def test_two_processes_writing_at_once_lose_no_update(tmp_path):
    """Two writers each add 150 read-modify-write updates to one counter: with BEGIN IMMEDIATE every
    update sees the one before it, so the counter ends at 300 and no value appears twice."""
    path = tmp_path / "t.sqlite"
    ledger.connect(path).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), who, "150"], cwd=ROOT,
                              stderr=subprocess.PIPE, text=True) for who in ("ta-1", "ta-2")]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    conn = ledger.connect(path)
    values = [r["points"] for r in conn.execute("SELECT points FROM overrides ORDER BY id")]
    assert values == [float(n) for n in range(1, 301)]
    assert {r["reason"] for r in conn.execute("SELECT reason FROM overrides")} == {"ta-1", "ta-2"}


def test_the_roster_is_upserted_and_its_header_kept(tmp_path):
    conn = ledger.connect(tmp_path / "t.sqlite")
    roster = read_roster(EXAMPLE / "canvas-roster.csv")
    ledger.put_roster(conn, roster, "t1")
    ledger.put_roster(conn, roster, "t2")
    assert [s["key"] for s in ledger.students(conn)] == ["101", "102", "103", "104"]  # no "Student, Test"
    assert [s["key"] for s in ledger.students(conn, "A02")] == ["102", "104"]
    assert "Linear attention basics (1234)" in ledger.roster_header(conn)


def test_the_ledger_lives_in_the_folder_asked(tmp_path):
    assert not (Path(tmp_path) / "deep").exists()
    ledger.connect(tmp_path / "deep" / "t.sqlite").close()
    assert (tmp_path / "deep" / "t.sqlite").is_file()
