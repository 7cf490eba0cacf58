"""Notebook cells by role: one tagged notebook in, a student and a solution notebook out.

Roles are cell-metadata tags (docs/tags.md); in-cell markers go through `tags.split_text`.
Both outputs are normalised (ids from position, outputs cleared, sorted metadata) so that
building twice gives the same bytes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from grader.authoring.tags import MARKDOWN_STUB, Split, TagError, split_text
from grader.grading.notebook import (
    ID_TAGS,
    PLAIN_TAGS,
    CellRole,
    CellTagError,
    cell_source,
    cell_tags,
    parse_role,
)

KNOWN_TAGS, PREFIX_TAGS = PLAIN_TAGS, ID_TAGS  # the names this module had before grading.notebook owned them
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError(\"{what}: not implemented yet\")"


def cell_role(tags: list[str], cell_type: str, where: str) -> CellRole:
    """Validate a cell's tags and say what they mean (the rules live in `grader.grading.notebook`)."""
    try:
        return parse_role(tags, cell_type)
    except CellTagError as exc:
        raise TagError(where, None, str(exc)) from None


@dataclass(frozen=True)
class CellSplit:
    """One source cell: its role, and its two versions (``student`` is None for a hidden cell)."""

    index: int
    cell: dict
    role: CellRole
    kind: str  # "python" for code cells, "markdown" otherwise
    split: Split
    student: str | None


def load_notebook(text: str, where: str) -> dict:
    try:
        nb = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TagError(where, exc.lineno, f"not valid notebook JSON: {exc.msg}") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise TagError(where, None, "not a Jupyter notebook (no 'cells')")
    return nb


def cell_splits(nb: dict, where: str) -> list[CellSplit]:
    """Split every cell of a tagged notebook; the first mistake raises, naming its cell."""
    out = []
    for index, cell in enumerate(nb["cells"]):
        role = cell_role(cell_tags(cell), cell.get("cell_type", ""), f"{where}: cell {index}")
        kind = "python" if cell.get("cell_type") == "code" else "markdown"
        try:
            split = split_text(cell_source(cell), kind, where)
        except TagError as exc:
            raise TagError(where, exc.line, exc.message, cell=index) from None
        student: str | None = split.student
        if role.hidden:
            student = None
        elif role.solution:
            student = CODE_STUB.format(what=role.exercise or f"cell {index}") if kind == "python" else MARKDOWN_STUB
        elif role.answer_id:
            student = _answer_stub(split.student)
        out.append(CellSplit(index, cell, role, kind, split, student))
    return out


RUN_METADATA = ("execution", "ExecuteTime")  # what the author's own run of the notebook leaves: times, not content


def _clean_cell(cell: dict, source: str, cell_id: str) -> dict:
    metadata = {k: v for k, v in (cell.get("metadata") or {}).items() if k not in RUN_METADATA}
    out = {"cell_type": cell["cell_type"], "id": cell_id, "metadata": _sorted(metadata),
           "source": source.splitlines(keepends=True)}
    if cell.get("attachments") and cell["cell_type"] in ("markdown", "raw"):  # images pasted into the cell
        out["attachments"] = _sorted(cell["attachments"])
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


def split_notebook(text: str, where: str) -> tuple[str, str, list[CellSplit]]:
    """Return (student_json, solution_json, the cells' splits) for one tagged notebook."""
    nb = load_notebook(text, where)
    student_cells, solution_cells = [], []
    cells = cell_splits(nb, where)
    for c in cells:
        role, split = c.role, c.split
        stem = role.exercise or role.answer_id or c.cell.get("cell_type", "cell")
        cell_id = f"{stem}-{c.index:03d}".replace("_", "-")
        solution_cells.append(_clean_cell(c.cell, split.solution, cell_id))
        if c.student is not None:
            student_cells.append(_clean_cell(c.cell, c.student, cell_id))
    meta = _sorted({k: v for k, v in nb.get("metadata", {}).items() if k in ("kernelspec", "language_info")})
    if "kernelspec" in meta:
        meta["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    if "language_info" in meta:
        meta["language_info"] = {"name": "python"}
    def dump(cells: list[dict]) -> str:
        doc = {"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}
        return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    return dump(student_cells), dump(solution_cells), cells
