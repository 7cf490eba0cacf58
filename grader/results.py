"""The one results model. Scoring produces a `Report`; every output (report.json,
report.md, report.html, Gradescope results.json, a gradebook row) is a rendering of it.

Plain frozen dataclasses, so a report can be compared, serialised and rebuilt from
JSON without surprises.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

SCHEMA_VERSION = 1

CellStatus = Literal["ok", "error", "timeout", "not_run"]
ItemStatus = Literal["passed", "failed", "partial", "manual", "hidden"]
# incomplete: graded on what was there, some of the assignment's files were missing (named in the notes)
SubmissionStatus = Literal["graded", "incomplete", "timeout", "crashed", "invalid", "bundle_error"]
# bundle_error: nothing was graded, because the autograder bundle holds an instructor error (named in the notes)


@dataclass(frozen=True)
class CellOutcome:
    """What happened to one notebook cell when the grader executed it."""

    index: int
    cell_id: str
    status: CellStatus
    exercise: str = ""
    ename: str = ""
    evalue: str = ""
    seconds: float = 0.0
    figures: int = 0


def code_cell_numbers(cells) -> dict[int, int]:
    """Jupyter-style numbers for code cells: notebook position -> n of `In [n]` after Run All (1-based)."""
    return {c.index: n for n, c in enumerate(sorted(cells, key=lambda c: c.index), start=1)}


@dataclass(frozen=True)
class CaseOutcome:
    """One case of one official check, judged in the grader process."""

    check: str
    label: str
    passed: bool
    message: str = ""
    cause: str = ""  # the likely mistake behind a failure (a named suspect, the check's pitfall), if known
    raised: bool = False  # the student's code raised on this case's input (not a wrong answer, not a stop)
    misshapen: bool = False  # its result had the wrong shape for the input (`grader.checks.Misshapen`): like
    # `raised`, the form cannot take this input class, and a property item leaves the case to the form's items
    excused_by: str = ""  # a failure that fails no gate (`requires`) when this check fails too (see costs.py)
    digest: str = ""  # a wrong result: its rounded fingerprint (grader/grading/fingerprint.py; staff evidence only)
    judged_if: str = ""  # the check's gate: where it fails, this case says nothing (grader/grading/checks.py)
    twin: bool = False  # a cost case's measured call, compared at a few hundred (or dozen) tokens (`costs.twin`):
    # its failure is not the form being wrong "where it is compared at short lengths": it excuses no cost case


@dataclass(frozen=True)
class AnswerOutcome:
    """One structured or free-text answer."""

    id: str
    status: Literal["correct", "wrong", "blank", "unreadable", "unchecked", "missing"]
    given: str = ""
    message: str = ""


@dataclass(frozen=True)
class Figure:
    """A PNG image produced by a notebook cell, base64 encoded."""

    cell_index: int
    png_base64: str


@dataclass(frozen=True)
class ItemResult:
    """The score of one rubric item and the words that explain it."""

    id: str
    title: str
    points: float
    max_points: float
    status: ItemStatus
    kind: str  # what the item grades: a grader.config.RubricKind value (checks, tests, cells, answers, manual)
    hidden: bool = False
    messages: tuple[str, ...] = ()
    cause: str = ""  # the likely cause of a failure; items sharing one are grouped in the report's notes


@dataclass(frozen=True)
class Report:
    """Everything a person or a program needs to know about one graded submission."""

    assignment: str
    submission: str
    status: SubmissionStatus
    score: float
    max_score: float
    items: tuple[ItemResult, ...]
    official: bool
    isolation: tuple[str, ...] = ()
    cells: tuple[CellOutcome, ...] = ()
    figures: tuple[Figure, ...] = ()
    notes: tuple[str, ...] = ()
    environment: dict[str, str] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    submission_hash: str = ""
    bundle_hash: str = ""
    # official check -> the fingerprint of this submission's wrong outputs on its fixed inputs (`grade similarity`)
    fingerprints: dict[str, str] = field(default_factory=dict)
    # per-student numbers (assignment.yaml `variants:`): {"student", "source", "parameters", "wrong": {answer id:
    # the answer as given}, "default_matches": [answer ids right for the default numbers]}; {} without variants
    variant: dict[str, Any] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        data = dict(data)
        if data.get("schema_version") != SCHEMA_VERSION:
            raise ValueError(
                f"report schema {data.get('schema_version')!r} is not {SCHEMA_VERSION}; regrade with this kit"
            )
        data["items"] = tuple(
            ItemResult(**{**i, "messages": tuple(i.get("messages", ()))}) for i in data["items"]
        )
        data["cells"] = tuple(CellOutcome(**c) for c in data.get("cells", ()))
        data["figures"] = tuple(Figure(**f) for f in data.get("figures", ()))
        for key in ("isolation", "notes"):
            data[key] = tuple(data.get(key, ()))
        return cls(**data)


@dataclass(frozen=True)
class VariantMatch:
    """Class-wide, per-student numbers: one submission's wrong answers that are right for another set of numbers
    (grader/batch/variants.py finds them; the class summary and `grade similarity` show them)."""

    submission: str
    student: str
    matches: str  # "the default numbers", or "the variant of <submission> (<student>)[, ...]"
    of: tuple[str, ...]  # the classmates' submissions whose numbers these are (empty for the defaults)
    answers: tuple[str, ...]  # answer ids
