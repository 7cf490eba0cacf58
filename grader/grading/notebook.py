"""Notebook cells and their tags: the one place that reads what a cell's tags say.

Roles are cell-metadata tags (docs/tags.md): plain tags (`solution`, `hidden`, `question`,
`answers`, `heavy`, `locked`) and id tags (`exercise:<id>`, `answer:<id>`). The build
(`authoring.notebook_tags`), the grader (`execute`, `pipeline`) and `tasks.py check` all
read tags through these functions, so a tag means the same thing everywhere.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

PLAIN_TAGS = frozenset({"solution", "hidden", "question", "answers", "heavy", "locked"})
ID_TAGS = frozenset({"answer", "exercise"})
READ_ONLY_TAGS = frozenset({"question", "locked"})  # restored from the template by the grader
ID_PART = re.compile(r"^[a-z0-9_]+$")


class CellTagError(ValueError):
    """A cell's tags are wrong (an authoring mistake); the message says what to write."""


@dataclass(frozen=True)
class CellRole:
    """What the tags of one cell say about it."""

    solution: bool = False
    hidden: bool = False
    answer_id: str = ""
    exercise: str = ""
    answers: bool = False
    read_only: bool = False


def cell_source(cell: dict[str, Any]) -> str:
    """A cell's source as one string (notebooks store it as a string or a list of lines)."""
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def cell_tags(cell: dict[str, Any]) -> list[str]:
    """A cell's tags (an empty list when it has none or its metadata is malformed)."""
    meta = cell.get("metadata") if isinstance(cell, dict) else None
    tags = meta.get("tags", []) if isinstance(meta, dict) else []
    return [str(t) for t in tags] if isinstance(tags, list) else []


def tag_id(tags: Iterable[str], prefix: str) -> str:
    """The id of the first ``<prefix>:<id>`` tag ("" when there is none)."""
    return next((t.split(":", 1)[1] for t in tags if t.startswith(prefix + ":")), "")


def exercise_of(cell: dict[str, Any]) -> str:
    """The exercise id of a cell tagged ``exercise:<id>`` ("" otherwise)."""
    return tag_id(cell_tags(cell), "exercise")


def answer_id_of(cell: dict[str, Any]) -> str:
    """The question id of a free-text answer cell tagged ``answer:<id>`` ("" otherwise)."""
    return tag_id(cell_tags(cell), "answer")


def is_answers_cell(cell: dict[str, Any]) -> bool:
    """Is this the structured answers cell (tag ``answers``, one ```yaml block)?"""
    return "answers" in cell_tags(cell)


def is_read_only(tags: Iterable[str]) -> bool:
    return bool(READ_ONLY_TAGS & set(tags))


def parse_role(tags: list[str], cell_type: str) -> CellRole:
    """Validate a cell's tags and say what they mean; `CellTagError` names the wrong tag."""
    role: dict[str, Any] = {}
    for tag in tags:
        name, _, value = tag.partition(":")
        if tag in PLAIN_TAGS:
            role[tag] = True
        elif name in ID_TAGS:
            if not ID_PART.match(value):
                raise CellTagError(f"tag {tag!r} needs an id of lower-case letters, digits and _ "
                                   f"(e.g. '{name}:ex1')")
            role[name] = value
        else:
            known = sorted(PLAIN_TAGS) + [p + ":<id>" for p in sorted(ID_TAGS)]
            raise CellTagError(f"unknown cell tag {tag!r} (known: {', '.join(known)})")
    if role.get("solution") and role.get("hidden"):
        raise CellTagError("a cell cannot be both 'solution' and 'hidden'")
    if role.get("answers") and cell_type != "markdown":
        raise CellTagError("an 'answers' cell must be a Markdown cell holding a ```yaml block")
    if role.get("answer") and cell_type != "markdown":
        raise CellTagError(f"'answer:{role['answer']}' must be on a Markdown cell")
    return CellRole(bool(role.get("solution")), bool(role.get("hidden")), role.get("answer", ""),
                    role.get("exercise", ""), bool(role.get("answers")), is_read_only(tags))


def exercise_cell_counts(nb: dict[str, Any]) -> dict[str, int]:
    """Exercise id -> how many code cells carry it (what a complete notebook must run)."""
    counts: dict[str, int] = {}
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code" and exercise_of(cell):
            counts[exercise_of(cell)] = counts.get(exercise_of(cell), 0) + 1
    return counts


def notebook_ids(nb: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(exercise ids, free-text answer ids) named by a notebook's cell tags."""
    exercises, answers = set(), set()
    for cell in nb.get("cells", []):
        tags = cell_tags(cell)
        exercises |= {tag_id([t], "exercise") for t in tags if t.startswith("exercise:")}
        answers |= {tag_id([t], "answer") for t in tags if t.startswith("answer:")}
    return exercises, answers
