"""The term's commands, one function each, over a `Term` (grader/term/session.py); each returns the lines
to print. grader/term/verbs.py parses the command line and calls them.

Every command that reads a batch output ingests it first (idempotent: an unchanged report adds nothing),
so the ledger holds the attempt behind every grade exported, summarised or published. Ingest before you
regrade (any of these commands does): the ledger then keeps the attempt the regrade replaces."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

from grader.batch.naming import safe_name
from grader.errors import UsageError
from grader.report.render import write_atomic
from grader.results import Report
from grader.term import ledger, lms
from grader.term.grades import record_penalties, term_grades
from grader.term.ingest import DIFF_FILE, TERM_DIR, Ingested, ingest
from grader.term.outputs import read_output
from grader.term.pages import FEEDBACK_FILES, SummaryColumn, feedback_files, summary_csv, summary_html, summary_rows
from grader.term.release import due_passed, receipt, release, student_view
from grader.term.session import Term, inputs_for, matcher_and_sources

FEEDBACK_DIR = "_feedback"  # OUT_DIR/_feedback/<student>/: what each student may read now
SUMMARY_FILES = ("term-summary.csv", "term-summary.html")


def _now(now: dt.datetime | None) -> dt.datetime:
    return now or dt.datetime.now(dt.timezone.utc)


def ingest_output(term: Term, out_dir: Path, flags: dict, now: dt.datetime | None = None) -> Ingested:
    """Ingest one batch output (with course.yaml's inputs for its assignment, replaced by ``flags``), write
    the regrade diffs it made and every student's feedback as it stands."""
    found = read_output(out_dir)
    assignment = found[0].report.assignment
    matcher, sources = matcher_and_sources(term, inputs_for(term.course, assignment, flags))
    result = ingest(term.conn, out_dir, matcher, sources, _now(now), found)
    if result.regrades:
        write_diffs(out_dir, list(result.regrades))
    write_feedback(term, out_dir, assignment, _now(now))
    return result


def write_diffs(out_dir: Path, diffs: list[dict]) -> Path:
    path = out_dir / TERM_DIR / DIFF_FILE
    write_atomic({path: json.dumps(diffs, indent=1, sort_keys=True) + "\n"})
    return path


def ingest_lines(r: Ingested) -> list[str]:
    lines = [f"{r.assignment}: {len(r.added)} new or changed, {len(r.unchanged)} unchanged, {len(r.held)} held"]
    lines += [f"  regraded {d['student']}: {d['score_before']:g} -> {d['score_after']:g}"
              f"{' HELD: ' + d['why'] if d['held'] else ''}" for d in r.regrades]
    lines += [f"  not matched: {folder}: {why}" for folder, why in r.unknown]
    lines += [f"  superseded: {folder}: {why}" for folder, why in r.superseded]
    if r.missing:
        lines.append(f"  no submission (counts as 0): {', '.join(r.missing)}")
    return lines


def student_folder(key: str) -> str:
    """A student's feedback folder: the key itself when it is a safe name, else a safe name and a hash."""
    name = safe_name(key)
    return name if name == key else f"{name}~{hashlib.sha256(key.encode()).hexdigest()[:8]}"


def write_feedback(term: Term, out_dir: Path, assignment: str, now: dt.datetime,
                   students: list[str] | None = None) -> int:
    """OUT_DIR/_feedback/<student>/ for each student with an attempt: the released attempt as published, else
    the current one as unreleased (only what its visibility levels show before release); returns how many."""
    deadline = term.course.deadline(assignment) if term.course else None
    levels = dict(deadline.visibility) if deadline else {}
    files: dict[Path, str] = {}
    for g in term_grades(term.conn, term.course, [assignment], students=students):
        rel = ledger.published(term.conn, assignment, g.student)
        attempt = rel["attempt"] if rel is not None else g.attempt
        if attempt is None:
            continue
        row = ledger.attempt(term.conn, attempt)
        report = Report.from_dict(json.loads(row["report_json"]))
        view = student_view(report, g.student, levels, released=rel is not None,
                            due_passed=due_passed(term.course, assignment, g.student, now),
                            final=rel["final_score"] if rel is not None else None,
                            explain=rel["explain"] if rel is not None else "")
        folder = out_dir / FEEDBACK_DIR / student_folder(g.student)
        files.update({folder / name: text for name, text in feedback_files(view, receipt(row)).items()})
    write_atomic(files)
    return len(files) // len(FEEDBACK_FILES)


def _assignments(results: list[Ingested]) -> list[str]:
    return list(dict.fromkeys(r.assignment for r in results))


def export(term: Term, fmt: str, out_dirs: list[Path], to: Path, section: str | None, flags: dict,
           now: dt.datetime | None = None) -> list[str]:
    """Write the LMS gradebook of these batch outputs' assignments (one column each) for every roster student
    (of ``section``) to ``to``."""
    results = [ingest_output(term, out, flags, now) for out in out_dirs]
    lines = [line for r in results for line in ingest_lines(r)]
    students = ledger.students(term.conn, section)
    if not students:
        raise UsageError(f"no student in section {section!r}; the roster's sections are: "
                         f"{', '.join(repr(s) for s in ledger.sections(term.conn))}")
    assignments = _assignments(results)
    grades = term_grades(term.conn, term.course, assignments, section)
    record_penalties(term.conn, grades, term.course, now)
    maxima = {a: max((g.max_points for g in grades if g.assignment == a), default=0.0) for a in assignments}
    cols = lms.columns(fmt, term.course, assignments, ledger.roster_header(term.conn), maxima)
    if fmt == "canvas":
        book = lms.canvas(grades, students, cols)
    elif fmt == "moodle":
        book = lms.moodle(grades, students, cols, ledger.roster_header(term.conn))
    else:
        book = lms.plain(grades, students, cols)
    write_atomic({to: book.text})
    lines.append(f"wrote {to}: {len(students)} student(s), column(s) {', '.join(c.header for c in cols)}")
    lines += [f"  {n}" for n in book.notes]
    lines += [f"  {g.student}: {g.explain}" for g in grades if g.state in ("needs_grading", "after_lock")]
    late = sum(g.penalty.fraction > 0 and g.state == "graded" for g in grades)
    lines.append(f"  {late} late penalt{'y' if late == 1 else 'ies'} applied; "
                 f"{sum(g.state == 'missing' for g in grades)} missing (0)")
    return lines


def resolve_student(term: Term, who: str) -> str:
    """A roster key from its key, SIS id, login, email or LMS id."""
    row = term.conn.execute("SELECT key FROM students WHERE key = ? OR sis_id = ? OR login = ? OR email = ? "
                            "OR lms_id = ? ORDER BY key = ? DESC LIMIT 1", (who,) * 6).fetchone()
    if row is None:
        raise UsageError(f"{who!r} is not on the roster (by id, SIS id, login or email); the ledger "
                         f"{term.ledger_path} has {len(ledger.students(term.conn))} students")
    return row["key"]


def publish(term: Term, out_dir: Path, student: str | None, by: str, flags: dict,
            now: dt.datetime | None = None) -> list[str]:
    """Release the feedback and grade of the class (or one student) for this batch output's assignment."""
    result = ingest_output(term, out_dir, flags, now)
    keys = [resolve_student(term, student)] if student else None
    grades = term_grades(term.conn, term.course, [result.assignment], students=keys)
    record_penalties(term.conn, grades, term.course, now)
    done = release(term.conn, grades, by, _now(now))
    write_feedback(term, out_dir, result.assignment, _now(now), students=keys)
    lines = ingest_lines(result) + [f"released {len(done.released)}, already released {len(done.already)}; "
                                    f"feedback in {out_dir / FEEDBACK_DIR}"]
    lines += [f"  not released: {who}: {why}" for who, why in done.skipped]
    return lines


def regrade_diff(term: Term, out_dir: Path, flags: dict, now: dt.datetime | None = None) -> list[str]:
    """Ingest the output, then list the regrades it made (or, when it made none, every regrade recorded)."""
    before = ledger.last_regrade_id(term.conn)
    result = ingest_output(term, out_dir, flags, now)
    rows = ledger.regrades_of(term.conn, result.assignment, since=before)
    lines = [f"{result.assignment}: {len(rows)} regrade(s) in this output"]
    if not rows:
        rows = ledger.regrades_of(term.conn, result.assignment)
        lines = [f"{result.assignment}: nothing changed since the last ingest; {len(rows)} regrade(s) recorded"]
    diffs = [json.loads(r["diff_json"]) for r in rows]
    for d in diffs:
        held = " HELD (published grade would go down: 'grade term accept' to take it)" if d["held"] else ""
        items = ", ".join(f"{k} {v['before']} -> {v['after']}" for k, v in sorted(d["items"].items()))
        lines.append(f"  {d['student']}: {d['score_before']:g} -> {d['score_after']:g} ({d['change']:+g}; "
                     f"{', '.join(d['because'])}){held}; items: {items or 'none'}")
    if diffs:
        lines.append(f"  written to {write_diffs(out_dir, diffs)}")
    return lines


def summary(term: Term, to_dir: Path, section: str | None, now: dt.datetime | None = None) -> list[str]:
    """term-summary.csv and term-summary.html: each student across every assignment of the term."""
    course = term.course
    known = ledger.assignments(term.conn)
    names = [d.assignment for d in course.deadlines] if course else []
    assignments = names + [a for a in known if a not in names]
    grades = term_grades(term.conn, course, assignments, section)
    record_penalties(term.conn, grades, course, now)
    maxima = {a: max((g.max_points for g in grades if g.assignment == a), default=0.0) for a in assignments}
    titles = {d.assignment: d.title for d in course.deadlines} if course else {}
    columns = [SummaryColumn(a, titles.get(a, a), maxima[a]) for a in assignments]
    rows = summary_rows(ledger.students(term.conn, section), grades, assignments)
    digest = course.digest if course else ""
    paths = {name: to_dir / name for name in SUMMARY_FILES}
    write_atomic({paths["term-summary.csv"]: summary_csv(rows, columns),
                  paths["term-summary.html"]: summary_html(course.name if course else "the term", rows, columns,
                                                           section, digest)})
    return [f"wrote {p}" for p in paths.values()]


def override(term: Term, assignment: str, who: str, item: str, points: float, reason: str, by: str,
             now: dt.datetime | None = None) -> list[str]:
    """A person's points for one item of one student's current attempt (the latest override wins)."""
    student = resolve_student(term, who)
    with ledger.write(term.conn):
        row = ledger.current_attempt(term.conn, assignment, student)
        if row is None:
            raise UsageError(f"{student} has no graded attempt of {assignment}; ingest its batch first")
        items = ledger.items_of(term.conn, row["id"])
        if item not in items:
            raise UsageError(f"{item!r} is not an item of {assignment}; its items: {', '.join(items)}")
        if not 0 <= points <= items[item]["max_points"]:
            raise UsageError(f"{points:g} is outside 0..{items[item]['max_points']:g}, the points {item} is worth")
        term.conn.execute("INSERT INTO overrides (assignment, student, item, points, reason, by, at) "
                          "VALUES (?,?,?,?,?,?,?)", (assignment, student, item, points, reason, by,
                                                     _now(now).isoformat(timespec="seconds")))
    return [f"{student} {assignment} {item}: {items[item]['points']:g} -> {points:g} ({reason})"]
