"""Answers right for someone else's numbers, class-wide: with per-student variants (assignment.yaml
`variants:`), a wrong answer that the default numbers, or a classmate's, make right says where it came from.

Each report's `variant` holds the student id and the wrong answers as given (grader/grading/variant.py). The
numbers are worked out again here from the id with the one rule (grader/variants.py), never read from the
report, and each distinct set of numbers is judged once with the key's formulas (answers/formulas.py):

    a wrong answer -> right for the default numbers?  -> "matches the default numbers"
                   -> right for a classmate's numbers? -> "matches the variant of <their submission>"

`grade batch` lists them in the class summary (it has the bundle, so the key); `grade similarity` in its report.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Mapping, Sequence

from grader.bundle import Bundle, open_bundle
from grader.config import AssignmentConfig
from grader.errors import LrkitError
from grader.grading.answers import check_answer
from grader.grading.answers.formulas import variant_key, varies
from grader.grading.pipeline import answer_key
from grader.results import Report, VariantMatch
from grader.sandbox import scratch_dir
from grader.variants import parameters_for, student_key

log = logging.getLogger(__name__)
DEFAULT = "the default numbers"
MAX_ANSWER_CHARS = 200


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


def class_matches(variants: Mapping[str, object], key: dict, config: AssignmentConfig) -> tuple[VariantMatch, ...]:
    """Every submission's wrong answers that the default numbers or a classmate's make right. ``variants``:
    each submission's report folder -> its report's `variant`."""
    if not config.variants:
        return ()
    default = tuple(sorted(config.variants.defaults.items()))
    owners: dict[tuple, list[tuple[str, str]]] = {}
    own = {folder: _numbers_of(config, v) for folder, v in variants.items()}
    for folder, (student, numbers) in own.items():
        if student:
            owners.setdefault(numbers, []).append((folder, student))
    keys = {numbers: variant_key(key, dict(numbers)) for numbers in {default, *owners}}
    found = []
    for folder, v in variants.items():
        student, mine = own[folder]
        wrong = _wrong(v, key)
        for numbers, judged in keys.items():
            if numbers == mine or not wrong:
                continue
            others = [(f, s) for f, s in owners.get(numbers, []) if f != folder]
            if numbers != default and not others:
                continue
            right = tuple(sorted(a for a, given in wrong.items() if check_answer(judged[a], given).status == "correct"))
            if right:
                named = "the variant of " + ", ".join(f"{f} ({s})" for f, s in others)
                matches = named if numbers != default else DEFAULT + (f" (also {named})" if others else "")
                found.append(VariantMatch(folder, student, matches, tuple(f for f, _ in others), right))
    return tuple(sorted(found, key=lambda v: (v.matches.startswith(DEFAULT), v.submission, v.matches)))


def without_id(variants: Mapping[str, object], config: AssignmentConfig) -> tuple[str, ...]:
    """Submissions graded with the default numbers because no student id was found (``variants`` as above)."""
    if not config.variants:
        return ()
    return tuple(sorted(folder for folder, v in variants.items() if isinstance(v, dict) and v
                        and not v.get("student")))


def summary_matches(reports: Mapping[str, Report], bundle: Bundle) -> tuple[VariantMatch, ...] | None:
    """The class summary's listing: ``reports`` (report folder -> report) judged with ``bundle``'s key; None
    when there is no key to judge with (the summary then lists only what the reports hold, and says so)."""
    variants = {folder: r.variant for folder, r in reports.items() if r.variant}
    if not variants or not bundle.config.variants:
        return ()
    try:
        key = answer_key(bundle.solution, bundle.config)
    except (OSError, ValueError) as exc:  # graded already, so unlikely; the summary still gets written
        log.warning("classmates' numbers not compared for the class summary: the answer key (%s)", exc)
        return None
    return class_matches(variants, key, bundle.config)


def recorded_matches(bundles: Sequence[Path], reports: Mapping[str, Report]) -> tuple[VariantMatch, ...] | None:
    """The same when the summary is written again from reports alone (`grade merge`, `grade manual import`,
    `grade serve`): with the first of ``bundles`` (what the batches recorded, OUT/_batch.json) that is still
    there and is the one every report was graded with; else None."""
    if not any(r.variant for r in reports.values()):
        return ()
    graded_with = {r.bundle_hash for r in reports.values() if r.bundle_hash}
    for path in dict.fromkeys(bundles):
        if not path.exists():
            continue
        with scratch_dir("summary-bundle") as tmp:
            try:
                bundle = open_bundle(path, tmp)
            except LrkitError as exc:
                log.info("%s: %s", path, exc)
                continue
            if {bundle.hash} == graded_with:
                return summary_matches(reports, bundle)
    return None
