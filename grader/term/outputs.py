"""A `grade batch` (or `grade merge`) output folder, read as hostile input: one `report.json` per submission
folder and `gradebook.csv`. Every file is size-capped, no link is followed, every field the term uses is
type-checked, and gradebook.csv must name exactly the folders that hold a report (a half-copied output is
refused, never ingested as students with no submission). Any fault names the file and what to do, and
nothing is ingested from a folder that has one."""
from __future__ import annotations

import json
import math
import typing
from dataclasses import dataclass
from pathlib import Path

from grader.errors import UsageError
from grader.report.safe import uncsv_cell
from grader.results import Report, SubmissionStatus
from grader.term.roster import read_csv_rows

MAX_REPORT_BYTES = 64_000_000  # a report embeds its figures (base64 PNGs)
MAX_FOLDERS = 20_000
MAX_TEXT = 300
STATUSES = typing.get_args(SubmissionStatus)
GRADEBOOK = "gradebook.csv"


@dataclass(frozen=True)
class Graded:
    folder: str  # the report's folder in the output (also its gradebook row)
    report: Report


class OutputError(UsageError):
    """A batch output folder that cannot be ingested; the message names the file and the fix."""


def read_output(out_dir: Path) -> list[Graded]:
    """Every report of the output folder, in folder order; raises OutputError listing every fault found."""
    if not out_dir.is_dir() or out_dir.is_symlink():
        raise OutputError(f"{out_dir}: no such folder; give the --out folder of 'grade batch' (or 'grade merge')")
    if not (out_dir / GRADEBOOK).is_file() or (out_dir / GRADEBOOK).is_symlink():
        raise OutputError(f"{out_dir}: no {GRADEBOOK}; a batch writes it when every submission is graded "
                          "(a shard's output needs 'grade merge' first)")
    folders = [p for p in sorted(out_dir.iterdir()) if p.is_dir() and not p.name.startswith(("_", "."))]
    if len(folders) > MAX_FOLDERS:
        raise OutputError(f"{out_dir}: {len(folders)} folders, over {MAX_FOLDERS}; is this a batch output?")
    found, faults = [], []
    for folder in folders:
        try:
            found.append(Graded(folder.name, read_report(folder / "report.json")))
        except OutputError as exc:
            faults.append(str(exc))
    faults += _gradebook_faults(out_dir / GRADEBOOK, {g.folder for g in found})
    if not faults and len({g.report.assignment for g in found}) > 1:
        names = sorted({g.report.assignment for g in found})
        faults.append(f"{out_dir}: reports of several assignments ({', '.join(names)}); one batch is one assignment")
    if faults:
        raise OutputError("; ".join(faults[:10]) + (f"; and {len(faults) - 10} more" if len(faults) > 10 else "")
                          + "; nothing was ingested (regrade those with 'grade batch --force')")
    if not found:
        raise OutputError(f"{out_dir}: no report.json in any folder; run 'grade batch' into it first")
    return found


def read_report(path: Path) -> Report:
    """One report.json: a regular file, at most MAX_REPORT_BYTES, a Report whose fields have their types."""
    if path.is_symlink() or not path.is_file():
        raise OutputError(f"{path}: missing or not a regular file")
    if path.stat().st_size > MAX_REPORT_BYTES:
        raise OutputError(f"{path}: over {MAX_REPORT_BYTES // 1_000_000} MB")
    try:
        data = json.loads(path.read_bytes().decode("utf-8"), parse_constant=_no_constant)
        report = Report.from_dict(data) if isinstance(data, dict) else None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise OutputError(f"{path}: not a readable report ({str(exc)[:200]})") from None
    if report is None:
        raise OutputError(f"{path}: not a report (expected a JSON object)")
    problem = _type_problem(report)
    if problem:
        raise OutputError(f"{path}: {problem}")
    return report


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number a report may hold")


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _text(value: object, limit: int = MAX_TEXT) -> bool:
    return isinstance(value, str) and len(value) <= limit


def _type_problem(r: Report) -> str:
    if not (_text(r.assignment) and r.assignment and _text(r.submission) and r.submission):
        return "assignment and submission must be short text"
    if r.status not in STATUSES:
        return f"status {str(r.status)[:40]!r} is not one of {', '.join(STATUSES)}"
    if not (_number(r.score) and _number(r.max_score) and 0 <= r.score <= r.max_score + 1e-9):
        return "score and max_score must be numbers with 0 <= score <= max_score"
    if not (_text(r.submission_hash, 200) and _text(r.bundle_hash, 200) and isinstance(r.environment, dict)
            and all(_text(k) and _text(v, 2000) for k, v in r.environment.items())):
        return "hashes and environment must be text"
    ids = [i.id for i in r.items]
    if len(ids) != len(set(ids)):
        return "an item id appears twice"
    for i in r.items:
        if not (_text(i.id) and i.id and _text(i.title, 2000) and _text(i.status, 40) and _text(i.kind, 40)):
            return "item id, title, status and kind must be text"
        if not (_number(i.points) and _number(i.max_points) and isinstance(i.hidden, bool)):
            return f"item {i.id!r}: points and max_points must be numbers, hidden true or false"
        if not all(isinstance(m, str) for m in i.messages) or not isinstance(i.cause, str):
            return f"item {i.id!r}: messages must be text"
    if not all(isinstance(n, str) for n in r.notes):
        return "notes must be text"
    return ""


def _gradebook_faults(path: Path, folders: set[str]) -> list[str]:
    rows = read_csv_rows(path, what="a gradebook", fix="rerun 'grade batch' to write it again")
    if not rows or not rows[0] or rows[0][0] != "submission":
        return [f"{path}:1: not the gradebook of 'grade batch' (its first column is 'submission')"]
    listed = {uncsv_cell(r[0]): n for n, r in enumerate(rows[1:], start=2) if r and r[0]}
    faults = [f"{path}:{line}: names {name!r}, which has no report.json" for name, line in listed.items()
              if name not in folders]
    faults += [f"{path}: has no row for {name!r}, which has a report.json" for name in sorted(folders - set(listed))]
    return faults
