"""What each page shows, as plain data for the templates: which answers a filter keeps, where next and
previous lead, a question's progress, one answer's grading view."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from grader.serve.cohort import Answer, Cohort, Question, answer_of
from grader.serve.guide import GuideItem
from grader.serve.store import Draft, Entry, Grade

SHOW = ("all", "ungraded", "graded")


@dataclass(frozen=True)
class Filters:
    show: str = "all"  # all, ungraded, graded
    section: str = ""
    score: str = ""  # the points of a graded answer, as shown ("1.5")

    @classmethod
    def read(cls, args: Mapping[str, str]) -> Filters:
        show = args.get("show", "all")
        return cls(show if show in SHOW else "all", args.get("section", "")[:80], args.get("score", "")[:20])

    def query(self) -> dict[str, str]:
        return {k: v for k, v in (("show", self.show), ("section", self.section), ("score", self.score))
                if v and v != "all"}


@dataclass(frozen=True)
class Progress:
    question: Question
    graded: int
    total: int
    first_ungraded: int | None  # its position


@dataclass(frozen=True)
class Refused:
    """A write that was refused because someone else wrote first: what this grader tried, and who won."""

    draft: Draft
    current: Grade | None


@dataclass(frozen=True)
class AnswerView:
    question: Question
    position: int  # 1-based, in the answers' order
    name: str  # the submission's name, or "answer N" in anonymous mode
    answer: Answer
    grade: Grade | None
    entries: dict[int, Entry]
    history: tuple[Grade, ...]
    guide: GuideItem
    shown: list[int]  # the positions the filters keep
    previous: int | None
    next: int | None
    next_ungraded: int | None  # in this question, after this one (wrapping round)
    progress: Progress
    scores: list[str]  # the points given so far, as shown, for the score filter
    refused: Refused | None = None


def points_shown(points: float) -> str:
    return f"{round(points, 2):g}"


def kept(cohort: Cohort, folders: list[str], grades: dict[str, Grade], filters: Filters) -> list[int]:
    out = []
    for position, folder in enumerate(folders, start=1):
        grade = grades.get(folder)
        if (filters.show == "ungraded" and grade) or (filters.show == "graded" and not grade):
            continue
        if filters.section and cohort.sections.get(folder, "") != filters.section:
            continue
        if filters.score and (grade is None or points_shown(grade.points) != filters.score):
            continue
        out.append(position)
    return out


def progress(question: Question, folders: list[str], grades: dict[str, Grade]) -> Progress:
    ungraded = [p for p, f in enumerate(folders, start=1) if f not in grades]
    return Progress(question, len(folders) - len(ungraded), len(folders), ungraded[0] if ungraded else None)


def next_ungraded(folders: list[str], grades: dict[str, Grade], position: int) -> int | None:
    """The first ungraded position after ``position``, wrapping round; None when every other one is graded."""
    ungraded = [p for p in range(1, len(folders) + 1) if folders[p - 1] not in grades and p != position]
    return next((p for p in ungraded if p > position), ungraded[0] if ungraded else None)


def answer_view(cohort: Cohort, question: Question, position: int, *, grades: dict[str, Grade],
                entries: dict[int, Entry], history: tuple[Grade, ...], guide: GuideItem, filters: Filters,
                anonymous: bool, refused: Refused | None = None) -> AnswerView | None:
    folders = cohort.folders(question)
    if not 1 <= position <= len(folders):
        return None
    folder = folders[position - 1]
    answer = answer_of(cohort, folder, question, guide)
    shown = kept(cohort, folders, grades, filters)
    return AnswerView(
        question, position, f"answer {position}" if anonymous else answer.submission, answer,
        grades.get(folder), entries, history, guide, shown,
        previous=max((p for p in shown if p < position), default=None),
        next=min((p for p in shown if p > position), default=None),
        next_ungraded=next_ungraded(folders, grades, position),
        progress=progress(question, folders, grades),
        scores=sorted({points_shown(g.points) for g in grades.values()}, key=float), refused=refused)
