"""Hand-graded items: export a sheet of free-text answers, import the points given.

    grade manual export OUT_DIR sheet.csv   one row per (submission, manual item), with the answer
    grade manual import OUT_DIR sheet.csv   fill the `points` column, then merge it into the reports
"""
from __future__ import annotations

import csv
import dataclasses
import logging
from pathlib import Path

from grader.config import RubricKind
from grader.errors import UsageError
from grader.grading.score import hand_graded, total
from grader.report import safe
from grader.report.render import load_report, write_reports

log = logging.getLogger(__name__)
COLUMNS = ["submission", "item", "title", "max_points", "points", "answer"]


def _reports(out_dir: Path):
    for path in sorted(out_dir.glob("*/report.json")):
        yield path.parent, load_report(path)


def export_sheet(out_dir: Path, sheet: Path) -> int:
    rows = 0
    with sheet.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, COLUMNS)
        writer.writeheader()
        for _, report in _reports(out_dir):
            for item in report.items:
                if item.kind != RubricKind.MANUAL:
                    continue
                answer = "\n".join(m.removeprefix("answer: ") for m in item.messages if m.startswith("answer: "))
                points = "" if item.status == "manual" else f"{item.points:g}"
                row = {"submission": report.submission, "item": item.id, "title": item.title,
                       "max_points": f"{item.max_points:g}", "points": points, "answer": answer}
                # student text is shown, never run: no formulas, no control characters
                writer.writerow({key: safe.csv_cell(safe.clean(value)) for key, value in row.items()})
                rows += 1
    log.info("wrote %d row(s) to %s; fill the 'points' column, then run 'grade manual import'", rows, sheet)
    return 0


def import_sheet(out_dir: Path, sheet: Path) -> int:
    given: dict[tuple[str, str], float] = {}
    with sheet.open(newline="", encoding="utf-8") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            if not (row.get("points") or "").strip():
                continue
            try:
                given[(safe.uncsv_cell(row["submission"]), safe.uncsv_cell(row["item"]))] = float(row["points"])
            except (KeyError, ValueError):
                raise UsageError(f"{sheet}:{line}: 'points' must be a number, got {row.get('points')!r}")
    updated = 0
    for folder, report in _reports(out_dir):
        items = []
        for item in report.items:
            points = given.get((safe.clean(report.submission), item.id))
            if item.kind == RubricKind.MANUAL and points is not None:
                if not 0 <= points <= item.max_points:
                    raise UsageError(f"{sheet}: {report.submission}/{item.id}: points {points:g} outside 0..{item.max_points:g}")
                item = hand_graded(item, points)
            items.append(item)
        new = dataclasses.replace(report, items=tuple(items), score=total(tuple(items)))
        if new != report:
            write_reports(new, folder)
            updated += 1
    log.info("merged hand-graded points into %d report(s)", updated)
    return 0
