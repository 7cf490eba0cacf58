"""A graded batch into the ledger: each report of a `grade batch` output folder matched to its student(s),
timed, and stored as an attempt of a submission. Ingesting the same output again changes nothing.

    read (grader/term/outputs.py: hostile files) -> match + time (outside any transaction: zips, git)
      -> one submission per student (the latest; the others are listed as superseded) -> store (one transaction)

A new attempt for a student who has one (a regrade after a bundle change, hand grades imported, or a new
submission) keeps the previous attempt and records a diff: which items, by how much. If the student's grade
is published and the new raw score is lower, the new attempt is stored but not made current: it is held and
listed, and the published grade stands until a person accepts it (`grade term accept`)."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from grader.batch import naming
from grader.batch.run import submissions_in
from grader.errors import UsageError
from grader.grading.version import version_of
from grader.report.render import write_atomic
from grader.results import Report
from grader.term import ledger
from grader.term.matching import Entry, Match, Matcher
from grader.term.outputs import Graded, read_output
from grader.term.times import LAST_RESORT, SubmissionTime, submission_time

TERM_DIR = "_term"  # the term's files inside a batch output (no submission folder can start with '_')
DIFF_FILE = "regrade-diff.json"
# where a time came from, best first: a better (or equally good, corrected) source replaces a stored time
TIME_RANK = ("gradescope", "times CSV", "git", LAST_RESORT, "unknown")
HELD_WHY = ("the grade is published and this attempt would lower it: held, the published grade stands until "
            "'grade term accept'")


@dataclass(frozen=True)
class Sources:
    """What the class handed in besides the reports: the submissions folder and the metadata files' contents."""

    submissions: Path | None = None
    gradescope: dict[str, dict] = field(default_factory=dict)
    times: dict[str, dt.datetime] = field(default_factory=dict)
    zone: dt.tzinfo = dt.timezone.utc


@dataclass(frozen=True)
class Planned:
    """One report, matched and timed, for one student."""

    student: str
    graded: Graded
    match: Match
    when: SubmissionTime
    file_sha256: str


@dataclass(frozen=True)
class Ingested:
    assignment: str
    added: tuple[str, ...]  # students with a new current attempt (first or changed)
    unchanged: tuple[str, ...]
    regrades: tuple[dict, ...]  # one diff per student whose attempt changed
    held: tuple[str, ...]  # changes that would lower a published grade
    unknown: tuple[tuple[str, str], ...]  # (folder, why) of submissions matched to nobody
    superseded: tuple[tuple[str, str], ...]  # (folder, why): a student's older submission in the same batch
    missing: tuple[str, ...]  # roster students with no submission


def ingest(conn: sqlite3.Connection, out_dir: Path, matcher: Matcher, sources: Sources,
           now: dt.datetime | None = None, found: list[Graded] | None = None) -> Ingested:
    """Store one batch output's reports (``found``: already read from it) as attempts; returns what changed."""
    found = found if found is not None else read_output(out_dir)
    assignment = found[0].report.assignment
    stamp = (now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds")
    planned, unknown = _plan(found, matcher, sources)
    chosen, superseded = _latest_per_student(planned)
    outcomes: dict[str, list[str]] = {"added": [], "unchanged": [], "held": []}
    regrades = []
    with ledger.write(conn):
        for p in chosen:
            outcome, diff = _store(conn, p, stamp)
            outcomes[outcome].append(p.student)
            if diff is not None:
                regrades.append(diff)
        conn.execute("DELETE FROM unmatched WHERE assignment = ?", (assignment,))
        conn.executemany("INSERT INTO unmatched VALUES (?,?,?,?)",
                         [(assignment, folder, why, stamp) for folder, why in unknown + superseded])
    if regrades:
        write_atomic({out_dir / TERM_DIR / DIFF_FILE: json.dumps(regrades, indent=1, sort_keys=True) + "\n"})
    have = {r["student"] for r in conn.execute("SELECT student FROM attempts WHERE assignment = ? AND current = 1",
                                               (assignment,))}
    missing = tuple(s["key"] for s in ledger.students(conn) if s["key"] not in have)
    return Ingested(assignment, tuple(outcomes["added"]), tuple(outcomes["unchanged"]), tuple(regrades),
                    tuple(outcomes["held"]), tuple(unknown), tuple(superseded), missing)


def _plan(found: list[Graded], matcher: Matcher, sources: Sources
          ) -> tuple[list[Planned], list[tuple[str, str]]]:
    paths: dict[str, Path] = {}
    if sources.submissions is not None:
        paths = {name: path for path, name in naming.assign(submissions_in(sources.submissions))[0]}
    planned, unknown = [], []
    for g in found:
        path = paths.get(g.folder)
        match = matcher.match(Entry(g.folder, path))
        if not match.students:
            unknown.append((g.folder, match.how))
            continue
        stem = path.name if path is not None else g.folder
        meta = sources.gradescope.get(g.folder) or sources.gradescope.get(stem.removesuffix(".zip")) or {}
        when = submission_time(g.folder, match.students, path, gradescope=meta, times=sources.times,
                               zone=sources.zone)
        digest = file_sha256(path)
        planned += [Planned(student, g, match, when, digest) for student in match.students]
    return planned, unknown


def file_sha256(path: Path | None) -> str:
    """The sha256 of the file handed in (what `sha256sum` prints for it), or '' for a folder or no file."""
    if path is None or path.is_symlink() or not path.is_file():
        return ""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _latest_per_student(planned: list[Planned]) -> tuple[list[Planned], list[tuple[str, str]]]:
    """One submission per student: the latest received (unknown times count as earliest, then by folder)."""
    by_student: dict[str, list[Planned]] = {}
    for p in planned:
        by_student.setdefault(p.student, []).append(p)
    chosen, superseded = [], []
    floor = dt.datetime.min.replace(tzinfo=dt.timezone.utc)
    for student in sorted(by_student):
        ranked = sorted(by_student[student], key=lambda p: (p.when.when or floor, p.graded.folder))
        chosen.append(ranked[-1])
        superseded += [(p.graded.folder, f"{student} handed in {ranked[-1].graded.folder!r} later; that one counts")
                       for p in ranked[:-1]]
    return chosen, superseded


def _rank(source: str) -> int:
    return next((n for n, prefix in enumerate(TIME_RANK) if source.startswith(prefix)), len(TIME_RANK))


def _submission(conn: sqlite3.Connection, p: Planned, stamp: str) -> int:
    """The submission's row (added, or its time improved when a better or corrected source gave one)."""
    r = p.graded.report
    key = (r.assignment, p.student, p.graded.folder, r.submission_hash)
    when = p.when.when.isoformat() if p.when.when else None
    row = conn.execute("SELECT id, time_source FROM submissions WHERE assignment = ? AND student = ? AND folder = ?"
                       " AND content_hash = ?", key).fetchone()
    if row is None:
        return conn.execute("INSERT INTO submissions (assignment, student, folder, content_hash, file_sha256, "
                            "received_at, time_source, matched_by, lms_late, first_seen) VALUES (?,?,?,?,?,?,?,?,?,?)",
                            (*key, p.file_sha256, when, p.when.source, p.match.how, int(p.match.lms_late),
                             stamp)).lastrowid
    if _rank(p.when.source) <= _rank(row["time_source"]):
        conn.execute("UPDATE submissions SET received_at = ?, time_source = ? WHERE id = ?",
                     (when, p.when.source, row["id"]))
    if p.file_sha256:
        conn.execute("UPDATE submissions SET file_sha256 = ? WHERE id = ?", (p.file_sha256, row["id"]))
    return row["id"]


def _fingerprint(report: Report) -> tuple:
    return (report.bundle_hash, version_of(report.environment), report.status, report.score,
            tuple((i.id, i.points, i.status) for i in report.items))


def _stored_fingerprint(conn: sqlite3.Connection, row: sqlite3.Row) -> tuple:
    items = tuple((i["item"], i["points"], i["status"]) for i in ledger.items_of(conn, row["id"]).values())
    return (row["bundle_hash"], row["grader_version"], row["status"], row["score"], items)


def _store(conn: sqlite3.Connection, p: Planned, stamp: str) -> tuple[str, dict | None]:
    report = p.graded.report
    submission = _submission(conn, p, stamp)
    latest = conn.execute("SELECT * FROM attempts WHERE assignment = ? AND student = ? ORDER BY id DESC LIMIT 1",
                          (report.assignment, p.student)).fetchone()
    if latest is not None and latest["submission"] == submission and \
            _stored_fingerprint(conn, latest) == _fingerprint(report):
        return ("unchanged" if latest["current"] else "held"), None
    previous = ledger.current_attempt(conn, report.assignment, p.student)
    release = ledger.published(conn, report.assignment, p.student)
    lower = previous is not None and release is not None and report.score < release["raw_score"] - 1e-9
    attempt = conn.execute(
        "INSERT INTO attempts (assignment, student, submission, status, score, max_score, bundle_hash, "
        "grader_version, ingested_at, current, report_json) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        (report.assignment, p.student, submission, report.status, report.score, report.max_score,
         report.bundle_hash, version_of(report.environment), stamp, 0 if lower else 1,
         json.dumps(report.to_dict(), sort_keys=True))).lastrowid
    conn.executemany("INSERT INTO item_scores VALUES (?,?,?,?,?,?,?)",
                     [(attempt, i.id, i.title, i.points, i.max_points, i.status, int(i.hidden))
                      for i in report.items])
    if previous is None:
        return "added", None
    if not lower:
        conn.execute("UPDATE attempts SET current = 0 WHERE id = ?", (previous["id"],))
    diff = attempt_diff(conn, previous, attempt, p, held=lower)
    conn.execute("INSERT INTO regrades (assignment, student, old_attempt, new_attempt, diff_json, held, at)"
                 " VALUES (?,?,?,?,?,?,?)", (report.assignment, p.student, previous["id"], attempt,
                                             json.dumps(diff, sort_keys=True), int(lower), stamp))
    return ("held" if lower else "added"), diff


def attempt_diff(conn: sqlite3.Connection, previous: sqlite3.Row, attempt: int, p: Planned, held: bool) -> dict:
    """Which items changed between the previous attempt and this one, and by how much."""
    report = p.graded.report
    old = ledger.items_of(conn, previous["id"])
    items = {}
    for item in report.items:
        before = old[item.id]["points"] if item.id in old else None
        if before != item.points:
            items[item.id] = {"before": before, "after": item.points,
                              "change": round(item.points - (before or 0.0), 6)}
    items.update({k: {"before": v["points"], "after": None, "change": -v["points"]} for k, v in old.items()
                  if k not in {i.id for i in report.items}})
    why = [w for w, changed in (("a new submission", previous["content_hash"] != report.submission_hash),
                                ("a new autograder bundle", previous["bundle_hash"] != report.bundle_hash),
                                ("a new grader version", previous["grader_version"] != version_of(report.environment)))
           if changed] or ["the report changed (hand grades imported?)"]
    return {"assignment": report.assignment, "student": p.student, "old_attempt": previous["id"],
            "new_attempt": attempt, "score_before": previous["score"], "score_after": report.score,
            "change": round(report.score - previous["score"], 6), "items": items, "because": why,
            "held": held, "why": HELD_WHY if held else ""}


def accept(conn: sqlite3.Connection, assignment: str, student: str) -> int:
    """Make the newest held attempt current (a person decided the lower grade is right); returns its id."""
    with ledger.write(conn):
        row = conn.execute("SELECT id, new_attempt FROM regrades WHERE assignment = ? AND student = ? AND held = 1"
                           " ORDER BY id DESC LIMIT 1", (assignment, student)).fetchone()
        if row is None:
            raise UsageError(f"{student}: no held regrade of {assignment}; 'grade regrade-diff OUT_DIR' lists them")
        conn.execute("UPDATE attempts SET current = (id = ?) WHERE assignment = ? AND student = ?",
                     (row["new_attempt"], assignment, student))
        conn.execute("UPDATE regrades SET held = 0 WHERE assignment = ? AND student = ? AND held = 1",
                     (assignment, student))
    return row["new_attempt"]
