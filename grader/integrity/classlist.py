"""A batch output read back as a class: each report folder with the submission it grades, and its section.

`grade batch` records where its submissions and bundle were (OUT_DIR/_batch.json, grader/batch/run.py); a
submission's folder in the output is the name `grader.batch.naming.assign` gives its entry, so the same call
finds each folder's entry again. Reports are hostile input (students influenced them): size-capped, no link
followed, and read through the results model. A folder whose report cannot be read, or whose submission is
gone from the submissions folder, is left out with a note; nothing is ever written into a report folder.
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

from grader.batch.naming import assign
from grader.batch.run import read_inputs, submissions_in
from grader.errors import UsageError
from grader.results import Report

MAX_REPORT_BYTES = 64_000_000  # a report embeds its figures
SECTIONS_FILE = "sections.csv"  # optional, in OUT_DIR: submission,section (as `grade serve` reads it)
NOT_COMPARED = ("invalid", "bundle_error")  # not this assignment's work, or nothing was graded


@dataclass(frozen=True)
class Member:
    """One submission of the class."""

    folder: str  # its report folder in the batch output
    path: Path  # the submission as handed in
    report: Report
    section: str = ""


@dataclass(frozen=True)
class ClassList:
    members: tuple[Member, ...]
    submissions: Path
    autograder: Path
    notes: tuple[str, ...]  # folders left out, and why


def inputs_of(out_dir: Path, submissions: Path | None, autograder: Path | None) -> tuple[Path, Path]:
    """The submissions folder and the bundle: as given, else as the batch recorded them."""
    recorded = read_inputs(out_dir)
    submissions = submissions or (recorded.submissions if recorded else None)
    autograder = autograder or (recorded.autograder if recorded else None)
    if submissions is None or autograder is None:
        raise UsageError(f"{out_dir}: the batch did not record what it graded (no readable _batch.json: a merged "
                         "or older output); give --submissions DIR (what 'grade batch' was given) and "
                         "--autograder ZIP")
    if not submissions.is_dir():
        raise UsageError(f"{submissions}: no such folder; the submissions must still be where 'grade batch' found "
                         "them (or give --submissions DIR)")
    return submissions, autograder


def read_report(path: Path) -> Report:
    if path.is_symlink() or not path.is_file():
        raise ValueError("missing or not a regular file")
    if path.stat().st_size > MAX_REPORT_BYTES:
        raise ValueError(f"over {MAX_REPORT_BYTES // 1_000_000} MB")
    data = json.loads(path.read_bytes().decode("utf-8"))
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    report = Report.from_dict(data)
    prints = report.fingerprints
    if not isinstance(prints, dict) or not all(isinstance(k, str) and isinstance(v, str) and len(v) <= 64
                                               for k, v in prints.items()):
        raise ValueError("its fingerprints are not check -> digest")
    return report


def sections_of(out_dir: Path, by_name: dict[str, str]) -> dict[str, str]:
    """Folder -> section from OUT_DIR/sections.csv (rows name a submission or its folder); {} without one."""
    path = out_dir / SECTIONS_FILE
    if path.is_symlink() or not path.is_file():
        return {}
    found = {}
    with path.open(newline="", encoding="utf-8", errors="replace") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            if not {"submission", "section"} <= set(row):
                raise UsageError(f"{path}:{line}: expected the columns submission,section")
            name = str(row["submission"] or "")
            found[by_name.get(name, name)] = str(row["section"] or "").strip()[:80]
    return found


def read_class(out_dir: Path, submissions: Path | None = None, autograder: Path | None = None) -> ClassList:
    """Every compared member of the batch output ``out_dir`` (folder order)."""
    if not out_dir.is_dir():
        raise UsageError(f"{out_dir}: no such folder; give the --out folder of 'grade batch'")
    submissions, autograder = inputs_of(out_dir, submissions, autograder)
    entries = {name: path for path, name in assign(submissions_in(submissions))[0]}
    folders = [p for p in sorted(out_dir.iterdir()) if p.is_dir() and not p.is_symlink()
               and not p.name.startswith(("_", ".")) and (p / "report.json").exists()]
    if not folders:
        raise UsageError(f"{out_dir}: no report folder; run 'grade batch ... --out {out_dir}' first")
    reports, notes = {}, []
    for folder in folders:
        try:
            reports[folder.name] = read_report(folder / "report.json")
        except (ValueError, TypeError, KeyError, AttributeError, OSError) as exc:
            notes.append(f"{folder.name}: report not readable ({str(exc)[:120]}); left out")
    sections = sections_of(out_dir, {r.submission: f for f, r in reports.items()})
    members = []
    for folder, report in reports.items():
        if report.status in NOT_COMPARED:
            notes.append(f"{folder}: {report.status}; left out")
        elif folder not in entries:
            notes.append(f"{folder}: no such submission in {submissions} any more; left out")
        else:
            members.append(Member(folder, entries[folder], report, sections.get(folder, "")))
    return ClassList(tuple(members), submissions, autograder, tuple(notes))
