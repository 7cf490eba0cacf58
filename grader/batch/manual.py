"""Hand-graded items: export a sheet of free-text answers, import the points given.

    grade manual export OUT_DIR sheet.csv   one row per (submission, manual item), with the answer
    grade manual import OUT_DIR sheet.csv   fill the `points` column, then merge it into the reports

`merge_grades` is the one way hand-given points reach a report, for the sheet and for `grade serve`
alike; `write_class_files` then rewrites the class's gradebook and summary from the reports.
"""
from __future__ import annotations

import csv
import dataclasses
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping

from grader.batch.run import read_inputs
from grader.batch.variants import recorded_matches
from grader.config import RubricKind
from grader.errors import UsageError
from grader.grading.score import hand_graded, total
from grader.report import safe
from grader.report.render import load_report, write_reports
from grader.report.summary import write_class_summary
from grader.results import ItemResult, Report

log = logging.getLogger(__name__)
COLUMNS = ["submission", "item", "title", "max_points", "points", "answer", "comments"]
COMMENT = "comment: "  # a hand grader's comment, as a message of the item (the student reads it)
GRADEBOOK_FIRST = ("submission", "status", "score", "max_score")  # the gradebook's columns before the items


@dataclass(frozen=True)
class HandGrade:
    """Points a person gave one manual item, and the comments the student reads beside them."""

    points: float
    comments: tuple[str, ...] = ()


def reports_in(out_dir: Path) -> Iterator[tuple[Path, Report]]:
    """(folder, report) of every graded submission under ``out_dir``, in folder order."""
    for path in sorted(out_dir.glob("*/report.json")):
        yield path.parent, load_report(path)


def comments_of(item: ItemResult) -> tuple[str, ...]:
    return tuple(m.removeprefix(COMMENT) for m in item.messages if m.startswith(COMMENT))


def export_sheet(out_dir: Path, sheet: Path) -> int:
    rows = 0
    with sheet.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, COLUMNS)
        writer.writeheader()
        for _, report in reports_in(out_dir):
            for item in report.items:
                if item.kind != RubricKind.MANUAL:
                    continue
                answer = "\n".join(m.removeprefix("answer: ") for m in item.messages if m.startswith("answer: "))
                points = "" if item.status == "manual" else f"{item.points:g}"
                row = {"submission": report.submission, "item": item.id, "title": item.title,
                       "max_points": f"{item.max_points:g}", "points": points, "answer": answer,
                       "comments": "\n".join(comments_of(item))}
                # student text is shown, never run: no formulas, no control characters
                writer.writerow({key: safe.csv_cell(safe.clean(value)) for key, value in row.items()})
                rows += 1
    log.info("wrote %d row(s) to %s; fill the 'points' column, then run 'grade manual import'", rows, sheet)
    return 0


def graded_item(item: ItemResult, grade: HandGrade) -> ItemResult:
    """The one rule for a hand-graded item (the sheet and `grade serve` both): points, then the comments."""
    graded = hand_graded(item, grade.points)
    comments = tuple(COMMENT + c.strip() for c in grade.comments if c.strip())
    return dataclasses.replace(graded, messages=graded.messages[:1] + comments + graded.messages[1:])


def merge_grades(report: Report, grades: Mapping[str, HandGrade], where: str) -> Report:
    """``report`` with its manual items graded by ``grades`` (item id -> grade) and its score re-added."""
    items = []
    for item in report.items:
        grade = grades.get(item.id)
        if item.kind == RubricKind.MANUAL and grade is not None:
            if not 0 <= grade.points <= item.max_points:
                raise UsageError(f"{where}: {report.submission}/{item.id}: points {grade.points:g} outside "
                                 f"0..{item.max_points:g}")
            item = graded_item(item, grade)
        items.append(item)
    return dataclasses.replace(report, items=tuple(items), score=total(tuple(items)))


def write_if_changed(folder: Path, report: Report, grades: Mapping[str, HandGrade], where: str) -> bool:
    """Merge ``grades`` into the report in ``folder`` and rewrite its files if anything changed."""
    new = merge_grades(report, grades, where)
    if new == report:
        return False
    write_reports(new, folder)
    return True


def write_class_files(out_dir: Path, found: list[tuple[Path, Report]] | None = None) -> dict[str, Path]:
    """gradebook.csv and summary.html again, from the reports as they are now (``found``: (folder, report)
    pairs already read, default: every report in ``out_dir``), with the item columns the batch wrote. Only
    where the batch wrote them: a shard's folder has none until `grade merge`."""
    gradebook = out_dir / "gradebook.csv"
    if not gradebook.is_file():
        return {}
    found = list(reports_in(out_dir)) if found is None else found
    reports = [r for _, r in found]
    with gradebook.open(newline="", encoding="utf-8") as fh:
        header = next(csv.reader(fh), [])
    seen = {i.id: (i.id, i.title, i.max_points) for r in reports for i in r.items}
    columns = [seen.get(c, (c, c, 0.0)) for c in header[len(GRADEBOOK_FIRST):]] if header else None
    recorded = read_inputs(out_dir)  # per-student numbers: the batch's bundle, to list classmates' variants again
    matches = recorded_matches([recorded.autograder] if recorded else [], {f.name: r for f, r in found})
    return write_class_summary(reports, out_dir, rubric_items=columns or None,
                               folders={r.submission: folder.name for folder, r in found}, variant_matches=matches)


def _read_sheet(sheet: Path) -> dict[tuple[str, str], HandGrade]:
    given: dict[tuple[str, str], HandGrade] = {}
    with sheet.open(newline="", encoding="utf-8") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            if not (row.get("points") or "").strip():
                continue
            try:
                points = float(row["points"])
                key = (safe.uncsv_cell(row["submission"]), safe.uncsv_cell(row["item"]))
            except (KeyError, ValueError):
                raise UsageError(f"{sheet}:{line}: 'points' must be a number, got {row.get('points')!r}") from None
            comments = safe.uncsv_cell(row.get("comments") or "").splitlines()
            given[key] = HandGrade(points, tuple(c for c in comments if c.strip()))
    return given


def import_sheet(out_dir: Path, sheet: Path) -> int:
    given = _read_sheet(sheet)
    updated = 0
    for folder, report in reports_in(out_dir):
        name = safe.clean(report.submission)
        grades = {item: grade for (sub, item), grade in given.items() if sub == name}
        updated += write_if_changed(folder, report, grades, str(sheet))
    if updated:
        write_class_files(out_dir)
    log.info("merged hand-graded points into %d report(s)", updated)
    return 0
