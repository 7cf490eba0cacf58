"""`grade --local`: a student's own copy of the template, graded with public material only (the public
tests, the public answer key), unofficially, reusing the stages whose inputs did not change."""
from __future__ import annotations

import dataclasses
import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from grader import sandbox
from grader.bundle import IDENTITY, folder_hash, read_identity
from grader.config import AssignmentConfig, load_assignment, load_rubric
from grader.errors import UsageError
from grader.grading.pipeline import Student, answer_key, build_report, grade_tree
from grader.grading.variant import notebook_student_id
from grader.results import Report
from grader.student.cache import LocalCache


def recorded_student(folder: Path) -> str:
    """The student id `grade --local` recorded in the folder's lrkit-assignment.json, or ""."""
    path = folder / IDENTITY
    identity = read_identity(path.read_bytes()) if path.is_file() and not path.is_symlink() else None
    return identity.student if identity else ""


def record_student(folder: Path, student: str) -> bool:
    """Write ``student`` into lrkit-assignment.json (it goes back with the hand-in); False without the file."""
    path = folder / IDENTITY
    identity = read_identity(path.read_bytes()) if path.is_file() and not path.is_symlink() else None
    if identity is None or not student.strip():
        return False
    data = json.loads(path.read_text(encoding="utf-8"))
    data["student"] = student.strip()
    path.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return True


def local_student(folder: Path, config: AssignmentConfig, ask: Callable[[], str] | None) -> Student:
    """The id the numbers come from: recorded, else asked once (first run) and recorded, else the notebook's."""
    found = recorded_student(folder)
    if not found and config.variants and ask is not None and (folder / config.notebook).is_file():
        in_notebook = notebook_student_id(json.loads((folder / config.notebook).read_text(encoding="utf-8")))
        if not in_notebook and record_student(folder, ask()):
            found = recorded_student(folder)
    return Student(found, IDENTITY) if found else Student()


def grade_local(folder: Path, ask: Callable[[], str] | None = None) -> Report:
    """`grade --local`: a student's own copy of the template; public material only, unofficial. ``ask``: how to
    ask for the student id on a first run of an assignment with per-student numbers (None: never ask)."""
    folder = Path(folder).resolve()
    if not (folder / "assignment.yaml").is_file():
        raise UsageError(f"{folder} has no assignment.yaml; run 'grade --local' inside your assignment folder "
                         "(the one holding the notebook)")
    config, rubric = load_assignment(folder, check_name=False), load_rubric(folder)
    key = answer_key(folder, config)
    student = local_student(folder, config, ask)
    started = time.perf_counter()
    with sandbox.scratch_dir("local") as tmp:
        tree = tmp / "tree"
        shutil.copytree(folder, tree, ignore=shutil.ignore_patterns("__pycache__", "grade-report", ".*", "venv",
                                                                    "wheels", "*.zip"))
        graded = grade_tree(tree, folder, config, rubric, key=key, checks_from=None,
                            unsandboxed=not sandbox.sandbox_available(), cache=LocalCache(folder), student=student)
    after = ["local run: public tests and public answers only; hidden items are graded by the official grader"]
    if not sandbox.sandbox_available():  # (the notebook may have been skipped: its isolation says nothing)
        after.append("unofficial: not sandboxed")
    elif not graded.isolation:
        graded = dataclasses.replace(graded, isolation=sandbox.detect_isolation())
    report = build_report(config, rubric, folder.name, graded, started, official=False, after=after,
                          submission_hash=folder_hash(folder))
    return _say_where_scores_differ(report, rubric)


def _say_where_scores_differ(report: Report, rubric) -> Report:
    """Items the official grader scores with hidden checks were scored here from their public tests: say so on
    each, and once in the notes, so that a local 0/2 and an official 2/2 (or the reverse) is no surprise."""
    local = {i.id for i in rubric.items if i.checks and i.tests}
    items = tuple(dataclasses.replace(i, messages=(*i.messages, "local score from the public tests "
                                                   f"{', '.join(rubric.item(i.id).tests)}; the official grade "
                                                   "uses hidden checks instead, so it can differ either way"))
                  if i.id in local and i.status != "hidden" else i for i in report.items)
    if items == report.items:
        return report
    note = (f"{sum(i.id in local for i in report.items)} item(s) scored here from public tests are graded "
            "officially by hidden checks: the official score can differ from this one")
    return dataclasses.replace(report, items=items, notes=(*report.notes, note))
