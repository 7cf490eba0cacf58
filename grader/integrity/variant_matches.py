"""Answers right for someone else's numbers: with per-student variants (assignment.yaml `variants:`), a wrong
answer that the default numbers, or a classmate's, make right says where it came from.

Each report's `variant` holds the student id and the wrong answers as given (grader/grading/variant.py). The
numbers are worked out again here from the id with the one rule (grader/variants.py), never read from the
report, and each distinct set of numbers is judged once with the key's formulas (answers/formulas.py):

    a wrong answer -> right for the default numbers?  -> "matches the default numbers"
                   -> right for a classmate's numbers? -> "matches the variant of <their submission>"
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from grader.config import AssignmentConfig
from grader.grading.answers import check_answer
from grader.grading.answers.formulas import variant_key, varies
from grader.integrity.classlist import Member
from grader.variants import parameters_for, student_key

DEFAULT = "the default numbers"
MAX_ANSWER_CHARS = 200


@dataclass(frozen=True)
class VariantMatch:
    """One submission's wrong answers that are right for another set of numbers."""

    submission: str
    student: str
    matches: str  # DEFAULT, or "the variant of <submission> (<student>)[, ...]"
    of: tuple[str, ...]  # the classmates' submissions whose numbers these are (empty for the defaults)
    answers: tuple[str, ...]  # answer ids


def _numbers_of(config: AssignmentConfig, report_variant: object) -> tuple[str, tuple]:
    """(the student id, their numbers as a hashable tuple); the id is hostile text, capped."""
    student = report_variant.get("student", "") if isinstance(report_variant, dict) else ""
    student = student_key(student) if isinstance(student, str) else ""
    numbers = parameters_for(config.variants, config.name, student)
    return student, tuple(sorted(numbers.items()))


def _wrong(report_variant: object, key: dict) -> dict[str, str]:
    wrong = report_variant.get("wrong", {}) if isinstance(report_variant, dict) else {}
    if not isinstance(wrong, dict):
        return {}
    return {a: g[:MAX_ANSWER_CHARS] for a, g in wrong.items()
            if isinstance(a, str) and isinstance(g, str) and a in key and varies(key[a])}


def variant_matches(members: Sequence[Member], key: dict, config: AssignmentConfig) -> tuple[VariantMatch, ...]:
    """Every submission's wrong answers that the default numbers or a classmate's make right, by submission."""
    if not config.variants:
        return ()
    default = tuple(sorted(config.variants.defaults.items()))
    owners: dict[tuple, list[tuple[str, str]]] = {}
    own: dict[str, tuple[str, tuple]] = {}
    for m in members:
        student, numbers = _numbers_of(config, m.report.variant)
        own[m.folder] = (student, numbers)
        if student:
            owners.setdefault(numbers, []).append((m.folder, student))
    keys = {numbers: variant_key(key, dict(numbers)) for numbers in {default, *owners}}
    found = []
    for m in members:
        student, mine = own[m.folder]
        wrong = _wrong(m.report.variant, key)
        for numbers, judged in keys.items():
            if numbers == mine or not wrong:
                continue
            others = [(f, s) for f, s in owners.get(numbers, []) if f != m.folder]
            if numbers != default and not others:
                continue
            right = tuple(sorted(a for a, given in wrong.items() if check_answer(judged[a], given).status == "correct"))
            if right:
                named = "the variant of " + ", ".join(f"{f} ({s})" for f, s in others)
                matches = named if numbers != default else DEFAULT + (f" (also {named})" if others else "")
                found.append(VariantMatch(m.folder, student, matches, tuple(f for f, _ in others), right))
    return tuple(sorted(found, key=lambda v: (v.matches.startswith(DEFAULT), v.submission, v.matches)))


def without_id(members: Sequence[Member], config: AssignmentConfig) -> tuple[str, ...]:
    """Submissions graded with the default numbers because no student id was found."""
    if not config.variants:
        return ()
    return tuple(sorted(m.folder for m in members if isinstance(m.report.variant, dict)
                        and m.report.variant and not m.report.variant.get("student")))
