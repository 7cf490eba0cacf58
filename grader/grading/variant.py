"""One submission's variant: whose it is, which numbers that gives, and the answers right for other numbers.

    the student id: a caller that knows it (a batch's mapping) -> lrkit-assignment.json's `student` (or the
    notebook's `metadata.lrkit.student`) -> the notebook's `STUDENT_ID = "..."` cell -> none (the defaults)
    -> parameters (grader/variants.py) -> the answer key for them (answers/formulas.py)

The id is read from the submission's text, never by running it. An answer judged wrong that the default
numbers make right is told so (the student used the notebook's defaults, not their own numbers); the message
names the parameters, never an expected value. What the class summary compares across students (an answer
right for a classmate's numbers) is the report's `variant`: the student, the parameters and the wrong
answers as given.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from grader.config import AssignmentConfig
from grader.grading.answers.formulas import varies
from grader.grading.answers.judge import check_answer
from grader.grading.notebook import cell_source
from grader.results import AnswerOutcome
from grader.variants import describe, parameters_for, student_key

# `STUDENT_ID = "ada123"` at the start of a line of a code cell (the first such line counts)
_CELL_ID = re.compile(r"""^STUDENT_ID\s*(?::\s*str\s*)?=\s*(["'])([^"'\\\n]{0,100})\1""", re.MULTILINE)
MAX_SCANNED_CHARS = 20_000  # of each cell: the id is on the cell's first lines


@dataclass(frozen=True)
class StudentVariant:
    """The numbers one submission is graded with, and where its student id came from."""

    student: str  # as the rule reads it (student_key); "" when none was found
    source: str  # where the id came from, in words
    parameters: dict[str, int | float]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"student": self.student, "source": self.source, "parameters": dict(self.parameters)}


def notebook_student_id(nb: dict) -> str:
    """The value of the notebook's `STUDENT_ID = "..."` line, or ""."""
    for cell in nb.get("cells", ()):
        if cell.get("cell_type") == "code":
            match = _CELL_ID.search(cell_source(cell)[:MAX_SCANNED_CHARS])
            if match and match.group(2).strip():
                return match.group(2)
    return ""


def resolve(config: AssignmentConfig, declared: str, source: str, nb: dict) -> StudentVariant | None:
    """The submission's variant (None for an assignment without variants). ``declared``: the id the
    caller or the identity file gives (``source`` says which)."""
    if not config.variants:
        return None
    in_cell = student_key(notebook_student_id(nb))
    who, notes = student_key(declared), []
    if who and in_cell and in_cell != who:
        notes.append(f"the notebook's STUDENT_ID is {in_cell!r} but {source} says {who!r}: graded with the "
                     f"numbers of {who!r}")
    if not who and in_cell:
        who, source = in_cell, "the notebook's STUDENT_ID cell"
    if not who:
        notes.append("no student id (STUDENT_ID in the notebook, or `grade --local`): graded with the default "
                     f"numbers ({describe(config.variants.defaults)})")
        source = "none"
    parameters = parameters_for(config.variants, config.name, who)
    return StudentVariant(who, source, parameters, tuple(notes))


def default_numbers(outcomes: dict[str, AnswerOutcome], key: dict, default_key: dict,
                    variant: StudentVariant) -> tuple[dict[str, AnswerOutcome], dict]:
    """(outcomes, the report's `variant` record). A wrong answer that the default numbers make right says
    so; the record keeps each wrong answer of a varying entry as given, for the class-level comparison."""
    wrong, defaults = {}, []
    out = dict(outcomes)
    for answer_id, outcome in outcomes.items():
        if outcome.status != "wrong" or answer_id not in key or not varies(key[answer_id]):
            continue
        wrong[answer_id] = outcome.given[:200]
        if default_key[answer_id].value != key[answer_id].value and \
                check_answer(default_key[answer_id], outcome.given).status == "correct":
            defaults.append(answer_id)
            out[answer_id] = dataclasses.replace(outcome, message=(
                f"That is the answer for the notebook's default numbers, not for yours ({describe(variant.parameters)}"
                "): work it out with the numbers the STUDENT_ID cell prints for your id."))
    return out, {**variant.to_dict(), "wrong": wrong, "default_matches": defaults}
