"""What a grader reads beside each hand-graded item: the question, the model answer, the grading notes and
the rubric entries, gathered from the assignment's solution tree (the autograder bundle's `solution/`, or
`solutions/<name>/` in the kit's checkout).

* the rubric names each manual item's free-text answers (`manual: [ex1_why]`);
* the solution notebook holds each answer's question (the cell tagged `question` before it), its model
  answer (the `answer:<id>` cell, as the solution wrote it), and the exercise it belongs to
  (grader/serve/questions.py); the hidden cells of that exercise are shown as notes;
* `hidden/handgrading.yaml`, optional (hidden/ reaches the solution tree and the bundle, never the
  student), adds notes and the rubric entries a grader applies with one key:

      items:
        ex1_why:                      # a manual rubric item's id
          exercise: ex1               # the exercise it is about (default: the answer cell's section)
          notes: Full marks need the reassociation named.
          entries:                    # one key each while grading (1, 2, ...)
            - {points: 2, comment: "Correct and complete"}
            - {points: -1, comment: "No reason given"}
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from grader.config import ConfigError, Rubric, RubricKind, load_assignment, load_rubric
from grader.serve.questions import AnswerCell, Found, scan_notebook

GUIDE_FILE = "hidden/handgrading.yaml"
MAX_ENTRIES = 20
MAX_NOTEBOOK_BYTES = 50_000_000


@dataclass(frozen=True)
class EntryDraft:
    """A rubric entry as the guide defines it (the store numbers it and keeps its changes)."""

    points: float
    comment: str


@dataclass(frozen=True)
class Part:
    """One free-text answer a manual item grades."""

    answer: str  # its id (the `answer:<id>` cell)
    question: str = ""
    model_answer: str = ""


@dataclass(frozen=True)
class GuideItem:
    exercise: str = ""
    parts: tuple[Part, ...] = ()
    notes: tuple[str, ...] = ()
    entries: tuple[EntryDraft, ...] = ()
    automatic: tuple[str, ...] = ()  # ids of the rubric's automatic items on the same exercise


@dataclass(frozen=True)
class FileItem:
    """One item of hidden/handgrading.yaml."""

    exercise: str = ""
    notes: str = ""
    entries: tuple[EntryDraft, ...] = ()


def load_guide(solution: Path | None) -> dict[str, GuideItem]:
    """Manual item id -> its guide, from the solution tree ``solution``; {} without one."""
    if solution is None:
        return {}
    rubric, config = load_rubric(solution), load_assignment(solution, check_name=False)
    notebook = solution / config.notebook
    if not notebook.is_file() or notebook.stat().st_size > MAX_NOTEBOOK_BYTES:
        raise ConfigError(notebook, "the solution notebook is missing or too large to read")
    try:
        found = scan_notebook(json.loads(notebook.read_text(encoding="utf-8")))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ConfigError(notebook, f"not a readable notebook ({exc})") from None
    extra = read_guide_file(solution / GUIDE_FILE)
    guide = {}
    for item in rubric.items:
        if item.kind == RubricKind.MANUAL:
            guide[item.id] = _guide_item(item.manual, found, extra.get(item.id, FileItem()), rubric)
    return guide


def _guide_item(answers: tuple[str, ...], found: Found, extra: FileItem, rubric: Rubric) -> GuideItem:
    cells = [found.answers.get(a, AnswerCell()) for a in answers]
    parts = tuple(Part(a, c.question, c.model_answer) for a, c in zip(answers, cells))
    exercise = extra.exercise or next((c.exercise for c in cells if c.exercise), "")
    asked = found.asked.get(exercise, frozenset())
    automatic = tuple(i.id for i in rubric.items if exercise and i.kind != RubricKind.MANUAL
                      and (exercise in i.cells or set(i.answers) & asked))
    notes = ((extra.notes,) if extra.notes else ()) + found.hidden.get(exercise, ())
    return GuideItem(exercise, parts, notes, extra.entries, automatic)


def read_guide_file(path: Path) -> dict[str, FileItem]:
    """Item id -> what hidden/handgrading.yaml says of it; {} when there is no such file."""
    if not path.is_file():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(path, f"not valid YAML ({getattr(exc, 'problem', exc)})",
                          line=mark.line + 1 if mark else None) from None
    if not isinstance(data, dict) or set(data) - {"items"} or not isinstance(data.get("items", {}), dict):
        raise ConfigError(path, "expected one key, 'items', mapping item ids to their guide", key=("items",))
    return {str(item_id): _file_item(raw, path, str(item_id)) for item_id, raw in data.get("items", {}).items()}


def _file_item(raw: Any, path: Path, item_id: str) -> FileItem:
    def fail(message: str, name: str = "") -> ConfigError:
        key = ("items", item_id) + ((name,) if name else ())
        return ConfigError(path, message, where=".".join(map(str, key)), key=key, item=item_id)

    known = {"exercise", "notes", "entries"}
    if not isinstance(raw, dict):
        raise fail("expected a mapping (exercise, notes, entries)")
    unknown = sorted(set(raw) - known)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})", unknown[0])
    for name in ("exercise", "notes"):
        if not isinstance(raw.get(name, ""), str):
            raise fail("expected text", name)
    entries = raw.get("entries", [])
    if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
        raise fail(f"expected a list of at most {MAX_ENTRIES} entries", "entries")
    return FileItem(raw.get("exercise", ""), raw.get("notes", "").strip(), tuple(_entry(e, fail) for e in entries))


def _entry(raw: Any, fail) -> EntryDraft:
    if not isinstance(raw, dict) or set(raw) != {"points", "comment"}:
        raise fail("each entry is {points: N, comment: TEXT}", "entries")
    points, comment = raw["points"], raw["comment"]
    if isinstance(points, bool) or not isinstance(points, (int, float)) or not isinstance(comment, str):
        raise fail(f"entry {comment!r}: points must be a number and comment text", "entries")
    if not comment.strip():
        raise fail("an entry needs a comment (what the student reads)", "entries")
    return EntryDraft(float(points), comment.strip())
