"""What the solution notebook says about each free-text answer: its question, its model answer and the
exercise it sits in, plus what each exercise asks in its answers cells and the notes hidden in it.

An answer belongs to the exercise of the cells before it: a cell tagged `exercise:<id>` opens (or
continues) that exercise, a Markdown heading without such a tag closes it. So "### Exercise 2", then
the `exercise:ex2` cells, the question and the `answer:ex2_gamma0` cell all belong to ex2, and an answer
under a later untagged heading belongs to no exercise. Cell tags are read through grader.grading.notebook,
as everywhere else.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grader.grading.answers import AnswerFormatError, extract_answer_block, parse_answers
from grader.grading.notebook import answer_id_of, cell_source, cell_tags, exercise_of, is_answers_cell

MAX_TEXT = 20_000  # characters of one question, model answer or note


@dataclass(frozen=True)
class AnswerCell:
    question: str = ""
    model_answer: str = ""
    exercise: str = ""


@dataclass(frozen=True)
class Found:
    answers: dict[str, AnswerCell] = field(default_factory=dict)  # answer id -> its cell
    asked: dict[str, frozenset[str]] = field(default_factory=dict)  # exercise -> ids its answers cells ask
    hidden: dict[str, tuple[str, ...]] = field(default_factory=dict)  # exercise -> its hidden Markdown cells


def answer_text(source: str) -> str:
    """An answer cell's answer: what follows its first line (the "**Answer:**" prompt), as the grader reads
    a student's (grader/grading/pipeline.py)."""
    body = source.split("\n", 1)[1] if "\n" in source else ""
    return body.replace("_Type your answer here._", "").strip()[:MAX_TEXT]


def _is_heading(cell: dict[str, Any]) -> bool:
    return cell.get("cell_type") == "markdown" and cell_source(cell).lstrip().startswith("#")


def scan_notebook(nb: dict[str, Any]) -> Found:
    answers: dict[str, AnswerCell] = {}
    asked: dict[str, set[str]] = {}
    hidden: dict[str, list[str]] = {}
    exercise, question = "", ""
    cells = nb.get("cells", []) if isinstance(nb, dict) else []
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict):
            continue
        source, tags = cell_source(cell), cell_tags(cell)
        if exercise_of(cell):
            exercise = exercise_of(cell)
        elif _is_heading(cell):
            exercise, question = "", ""
        if "question" in tags:
            question = source.strip()[:MAX_TEXT]
        if answer_id_of(cell):
            answers[answer_id_of(cell)] = AnswerCell(question, answer_text(source), exercise)
            question = ""
        if is_answers_cell(cell) and exercise:
            try:
                asked.setdefault(exercise, set()).update(parse_answers(extract_answer_block(source) or "", "solution"))
            except AnswerFormatError:
                pass  # the build validated this notebook; a block it cannot read asks nothing here
        if "hidden" in tags and cell.get("cell_type") == "markdown" and exercise:
            hidden.setdefault(exercise, []).append(source.strip()[:MAX_TEXT])
    return Found(answers, {k: frozenset(v) for k, v in asked.items()}, {k: tuple(v) for k, v in hidden.items()})
