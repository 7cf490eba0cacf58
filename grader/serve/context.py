"""What every view of the app reaches for: the class being graded (`Grading`), the grader's name, the
question a URL names, and numbers read from a form."""
from __future__ import annotations

import math
from dataclasses import dataclass

from flask import abort, current_app, session

from grader.serve.cohort import Cohort, Question
from grader.serve.guide import GuideItem
from grader.serve.publish import Publisher
from grader.serve.store import Store

MAX_NAME = 60
MAX_COMMENT = 2000
MAX_POINTS = 1000


@dataclass(frozen=True)
class Grading:
    cohort: Cohort
    guide: dict[str, GuideItem]
    store: Store
    publisher: Publisher
    anonymous: bool  # what a new browser starts with (grade serve --anonymous)


def grading() -> Grading:
    return current_app.extensions["lrkit"]


def grader() -> str:
    return session.get("grader", "")


def anonymous() -> bool:
    return bool(session.get("anonymous", grading().anonymous))


def question_or_404(item: str) -> Question:
    question = grading().cohort.question(item)
    if question is None:
        abort(404, f"no hand-graded item {item[:80]!r} in this class")
    return question


def folder_at(question: Question, position: int) -> str:
    folders = grading().cohort.folders(question)
    if not 1 <= position <= len(folders):
        abort(404, f"{question.id} has answers 1 to {len(folders)}")
    return folders[position - 1]


def number(text: str, what: str) -> float:
    """A number a person typed, within ±MAX_POINTS (400 otherwise)."""
    try:
        value = float(text)
    except ValueError:
        abort(400, f"{what} must be a number, got {text[:40]!r}")
    if not math.isfinite(value) or abs(value) > MAX_POINTS:
        abort(400, f"{what} must be a number between -{MAX_POINTS} and {MAX_POINTS}")
    return value


def whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        abort(400, f"{what} must be a whole number, got {text[:40]!r}: reload the page")


def one_line(text: str, limit: int) -> str:
    return " ".join(text.split())[:limit]


def local_path(target: str, default: str = "/") -> str:
    """``target`` if it is a path on this server (never another site: no scheme, no //host)."""
    return target if target.startswith("/") and not target.startswith(("//", "/\\")) else default
