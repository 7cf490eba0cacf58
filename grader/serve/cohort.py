"""The class as the grading pages see it: the manual questions, and for each submission its answer and
what the answer refers to (the exercise's cells and figures, the exercise's automatic items).

Answers come in one fixed, shuffled order (a keyed hash of each folder, the key kept in the store), the
same for every grader and every restart: "answer 12" means one submission to everyone, and the order
says nothing about the names in anonymous mode.
"""
from __future__ import annotations

import csv
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from grader.batch.manual import reports_in
from grader.config import RubricKind
from grader.errors import UsageError
from grader.results import Figure, ItemResult, Report, code_cell_numbers
from grader.serve.guide import GuideItem

SECTIONS_FILE = "sections.csv"  # optional, in OUT_DIR: submission,section (a course section per student)
MAX_ANSWER = 20_000  # characters shown; reports already cap an answer far below this
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


@dataclass(frozen=True)
class Question:
    id: str
    title: str
    max_points: float
    exercise: str


@dataclass(frozen=True)
class Answer:
    """One submission's answer to one question, with the context a grader reads it in."""

    folder: str  # the report's folder under OUT_DIR: the key grades are stored under
    key: str  # an opaque id for the folder (forms carry it: no name in a page's source in anonymous mode)
    submission: str
    section: str
    texts: tuple[str, ...]
    notes: tuple[str, ...]  # "answer ex1_why is blank" and the like
    automatic: tuple[ItemResult, ...]
    cells: tuple[str, ...]  # "In [7]: error (ValueError: ...)"
    figures: tuple[Figure, ...]
    in_report: ItemResult  # the item as the report had it when the server started


@dataclass(frozen=True)
class Cohort:
    assignment: str
    questions: tuple[Question, ...]
    reports: dict[str, Report]  # folder -> report as loaded when the server started
    sections: dict[str, str]  # folder -> section
    keys: dict[str, str]  # folder -> its opaque key; iteration order is the answers' order

    def question(self, item_id: str) -> Question | None:
        return next((q for q in self.questions if q.id == item_id), None)

    def folders(self, question: Question) -> list[str]:
        """The folders whose report has ``question``, in the answers' order: position N is the N-th."""
        return [f for f in self.keys if any(i.id == question.id for i in self.reports[f].items)]


def read_reports(out_dir: Path) -> dict[str, Report]:
    if not out_dir.is_dir():
        raise UsageError(f"{out_dir}: no such folder (give the output folder of 'grade batch')")
    try:
        reports = {folder.name: report for folder, report in reports_in(out_dir)}
    except (ValueError, OSError) as exc:
        raise UsageError(f"{exc}; run 'grade batch' again for that submission") from None
    if not reports:
        raise UsageError(f"{out_dir}: no */report.json here (run 'grade batch ... --out {out_dir}' first)")
    return reports


def load_cohort(out_dir: Path, reports: dict[str, Report], guide: dict[str, GuideItem], salt: str) -> Cohort:
    questions: dict[str, Question] = {}
    for report in reports.values():
        for item in report.items:
            if item.kind == RubricKind.MANUAL and item.id not in questions:
                exercise = guide[item.id].exercise if item.id in guide else guess_exercise(item, report)
                questions[item.id] = Question(item.id, item.title, item.max_points, exercise)
    if not questions:
        raise UsageError(f"{out_dir}: these reports have no hand-graded (manual) items to grade")
    keys = {f: hashlib.sha256(f"{salt}\0{f}".encode("utf-8", "surrogateescape")).hexdigest()[:16] for f in reports}
    order = dict(sorted(keys.items(), key=lambda kv: kv[1]))
    assignment = next(iter(reports.values())).assignment
    return Cohort(assignment, tuple(questions.values()), reports, _sections(out_dir, reports), order)


def guess_exercise(item: ItemResult, report: Report) -> str:
    """Without a solution tree: the exercise an item's id names as one of its parts ("written_ex1" -> ex1)."""
    parts = set(item.id.split("_"))
    return next((c.exercise for c in report.cells if c.exercise and c.exercise in parts), "")


def _sections(out_dir: Path, reports: dict[str, Report]) -> dict[str, str]:
    path = out_dir / SECTIONS_FILE
    if not path.is_file():
        return {}
    by_name = {r.submission: folder for folder, r in reports.items()}
    sections = {}
    with path.open(newline="", encoding="utf-8") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            if not {"submission", "section"} <= set(row):
                raise UsageError(f"{path}:{line}: expected the columns submission,section")
            folder = by_name.get(row["submission"], row["submission"])
            if folder in reports:
                sections[folder] = (row["section"] or "").strip()[:80]
    return sections


def answer_of(cohort: Cohort, folder: str, question: Question, guide: GuideItem) -> Answer:
    """What the report of ``folder`` holds for ``question`` (which it has: see `Cohort.folders`)."""
    report = cohort.reports[folder]
    item = next(i for i in report.items if i.id == question.id)
    texts = tuple(m.removeprefix("answer: ")[:MAX_ANSWER] for m in item.messages if m.startswith("answer: "))
    notes = tuple(m for m in item.messages if m.startswith("answer ") and m.endswith(" is blank"))
    ex = question.exercise
    if guide.automatic:
        automatic = tuple(i for i in report.items if i.id in guide.automatic)
    else:
        automatic = tuple(i for i in report.items if ex and i.kind != RubricKind.MANUAL and ex in i.id.split("_"))
    cells = [c for c in report.cells if ex and c.exercise == ex]
    numbers = code_cell_numbers(report.cells)
    shown = tuple(f"In [{numbers[c.index]}]: {c.status}" + (f" ({c.ename}: {c.evalue[:300]})" if c.ename else "")
                  for c in cells)
    indexes = {c.index for c in cells}
    figures = tuple(f for f in report.figures if f.cell_index in indexes and _BASE64.fullmatch(f.png_base64))
    return Answer(folder, cohort.keys[folder], report.submission, cohort.sections.get(folder, ""), texts, notes,
                  automatic, shown, figures, item)
