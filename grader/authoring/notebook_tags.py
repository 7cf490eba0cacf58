"""Notebook cells by role: one tagged notebook in, a student and a solution notebook out.

Roles are cell-metadata tags (docs/tags.md); in-cell markers go through `tags.split_text`.
Both outputs are normalised (ids from position, outputs cleared, sorted metadata) so that
building twice gives the same bytes.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from grader.authoring.tags import MARKDOWN_STUB, Split, TagError, split_text

KNOWN_TAGS = {"solution", "hidden", "question", "answers", "heavy", "locked"}
PREFIX_TAGS = {"answer", "exercise"}
ID_PART = re.compile(r"^[a-z0-9_]+$")
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError(\"{what}: not implemented yet\")"


@dataclass(frozen=True)
class CellRole:
    """What the tags of one cell say about it."""

    solution: bool = False
    hidden: bool = False
    answer_id: str = ""
    exercise: str = ""


def cell_role(tags: list[str], cell_type: str, where: str) -> CellRole:
    """Validate a cell's tags and say what they mean."""
    role: dict = {}
    for tag in tags:
        name, _, value = tag.partition(":")
        if tag in KNOWN_TAGS:
            role[tag] = True
        elif name in PREFIX_TAGS:
            if not ID_PART.match(value):
                raise TagError(where, None, f"tag {tag!r} needs an id of lower-case letters, digits and _ "
                                            f"(e.g. '{name}:ex1')")
            role[name] = value
        else:
            known = sorted(KNOWN_TAGS) + [p + ":<id>" for p in sorted(PREFIX_TAGS)]
            raise TagError(where, None, f"unknown cell tag {tag!r} (known: {', '.join(known)})")
    if role.get("solution") and role.get("hidden"):
        raise TagError(where, None, "a cell cannot be both 'solution' and 'hidden'")
    if role.get("answers") and cell_type != "markdown":
        raise TagError(where, None, "an 'answers' cell must be a Markdown cell holding a ```yaml block")
    if role.get("answer") and cell_type != "markdown":
        raise TagError(where, None, f"'answer:{role['answer']}' must be on a Markdown cell")
    return CellRole(bool(role.get("solution")), bool(role.get("hidden")), role.get("answer", ""),
                    role.get("exercise", ""))


def _clean_cell(cell: dict, source: str, cell_id: str) -> dict:
    out = {"cell_type": cell["cell_type"], "id": cell_id, "metadata": _sorted(cell.get("metadata", {})),
           "source": source.splitlines(keepends=True)}
    if cell["cell_type"] == "code":
        out["execution_count"] = None
        out["outputs"] = []
    return out


def _sorted(value):
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


def _answer_stub(source: str) -> str:
    first = source.split("\n", 1)[0]
    return f"{first}\n\n{MARKDOWN_STUB}" if first.strip() else MARKDOWN_STUB


def split_notebook(text: str, where: str) -> tuple[str, str, frozenset[str]]:
    """Return (student_json, solution_json, secret_lines) for one tagged notebook."""
    try:
        nb = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TagError(where, exc.lineno, f"not valid notebook JSON: {exc.msg}") from None
    if not isinstance(nb, dict) or "cells" not in nb:
        raise TagError(where, None, "not a Jupyter notebook (no 'cells')")
    student_cells, solution_cells, secret = [], [], set()
    for index, cell in enumerate(nb["cells"]):
        cwhere = f"{where}: cell {index}"
        source = "".join(cell.get("source", ""))
        tags = list(cell.get("metadata", {}).get("tags", []))
        role = cell_role(tags, cell.get("cell_type", ""), cwhere)
        kind = "python" if cell.get("cell_type") == "code" else "markdown"
        try:
            split: Split = split_text(source, kind, where)
        except TagError as exc:
            raise TagError(where, exc.line, exc.message, cell=index) from None
        cell_id = f"{(role.exercise or role.answer_id or cell.get('cell_type', 'cell'))}-{index:03d}".replace("_", "-")
        solution_cells.append(_clean_cell(cell, split.solution, cell_id))
        secret |= split.secret
        if role.hidden:
            secret |= {ln.strip() for ln in split.solution.split("\n") if len(ln.strip()) >= 12}
            continue
        student_source = split.student
        if role.solution:
            what = role.exercise or f"cell {index}"
            student_source = CODE_STUB.format(what=what) if kind == "python" else MARKDOWN_STUB
            secret |= {ln.strip() for ln in split.solution.split("\n") if len(ln.strip()) >= 12}
        elif role.answer_id:
            student_source = _answer_stub(split.student)
            body = split.solution.split("\n")[1:]
            secret |= {ln.strip() for ln in body if len(ln.strip()) >= 12}
        student_cells.append(_clean_cell(cell, student_source, cell_id))
    public = set()
    for c in student_cells:
        public |= {ln.strip() for ln in "".join(c["source"]).split("\n")}
    secret -= public
    meta = _sorted({k: v for k, v in nb.get("metadata", {}).items() if k in ("kernelspec", "language_info")})
    if "kernelspec" in meta:
        meta["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    if "language_info" in meta:
        meta["language_info"] = {"name": "python"}
    def dump(cells: list[dict]) -> str:
        doc = {"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}
        return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    return dump(student_cells), dump(solution_cells), frozenset(secret)
