"""The answer key's formulas: one function, `for_parameters`, gives an entry's expected value for a set of
variant parameters, for the default parameters (what `load_key` returns, checked against the key's `value`)
and for each student's (`variant_key`, used by the grader) alike.

    answer_key.yaml                                  assignment.yaml
    mha_cache_one_layer:                             variants:
      type: quantity                                   T: {default: 1000000, choices: [...]}
      formula: 2 * T * D * BYTES                       D: {default: 4096, choices: [...]}
      value: 16384000000  # the default, checked       BYTES: {default: 2, choices: [1, 2]}
      per_head: H
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from pathlib import Path

from grader.config import Variants
from grader.grading.answers.key import AnswerKeyError, ChoiceEntry, KeyEntry, distractor_check
from grader.variants import FormulaError, describe, evaluate

MAX_CHECKED_VARIANTS = 2000  # parameter combinations a key is checked on at load (in a fixed order)


def varies(entry: KeyEntry) -> bool:
    """Whether the entry's expected value (or one of its distractors, or its per-head count) has a formula."""
    return bool(getattr(entry, "formula", "") or getattr(entry, "per_head_of", "")
                or any(d.formula for d in getattr(entry, "distractors", ()) if not isinstance(entry, ChoiceEntry)))


def for_parameters(entry: KeyEntry, parameters: dict[str, int | float]) -> KeyEntry:
    """``entry`` with its value, its distractors' values and its per-head count for ``parameters``.
    A distractor equal to the value for these parameters is dropped (it names no mistake here)."""
    if not varies(entry):
        return entry
    changes: dict = {}
    if entry.formula:
        changes["value"] = _number(entry.formula, parameters)
    if getattr(entry, "per_head_of", ""):
        if entry.per_head_of not in parameters:
            raise FormulaError(f"per_head names {entry.per_head_of!r}, which is not a parameter "
                               f"(known: {', '.join(parameters) or 'none'})")
        changes["per_head"] = int(parameters[entry.per_head_of])
    value = changes.get("value", entry.value)
    distractors = tuple(dataclasses.replace(d, value=_number(d.formula, parameters)) if d.formula else d
                        for d in entry.distractors)
    changes["distractors"] = tuple(d for d in distractors if not math.isclose(d.value, value, rel_tol=1e-12))
    return dataclasses.replace(entry, **changes)


def variant_key(key: dict[str, KeyEntry], parameters: dict[str, int | float]) -> dict[str, KeyEntry]:
    """The whole key for one student's parameters."""
    return {answer_id: for_parameters(entry, parameters) for answer_id, entry in key.items()}


def _number(formula: str, parameters: dict[str, int | float]) -> float:
    value = float(evaluate(formula, parameters))
    if not math.isfinite(value):
        raise FormulaError(f"{formula!r} is not a finite number with {describe(parameters)}")
    return value


def with_formulas(path: Path, key: dict[str, KeyEntry], data: dict, variants: Variants | None) -> dict[str, KeyEntry]:
    """The key at the default parameters; every formula checked on the default (against the entry's `value`,
    when it gives one) and on every student's parameters (it evaluates, no distractor is marked correct)."""
    out = {}
    for answer_id, entry in key.items():
        if not varies(entry):
            out[answer_id] = entry
            continue
        where = f"{path}: {answer_id}"
        if not variants:
            raise AnswerKeyError(f"{where}: a formula needs the assignment's variant parameters (assignment.yaml "
                                 "`variants:`); write its value instead, or declare them", key=(answer_id, "formula"))
        default = _evaluated(where, entry, variants.defaults, answer_id)
        written = data[answer_id].get("value")
        if written is not None and not math.isclose(float(written), default.value, rel_tol=1e-12):
            raise AnswerKeyError(f"{where}: value {written!r} is not what its formula gives with the default "
                                 f"parameters ({default.value:.17g}); correct one of them", key=(answer_id, "value"))
        for combination in itertools.islice(itertools.product(*(p.values for p in variants.parameters)),
                                            MAX_CHECKED_VARIANTS):
            parameters = dict(zip((p.name for p in variants.parameters), combination))
            distractor_check(f"{where} (with {describe(parameters)})",
                             _evaluated(where, entry, parameters, answer_id))
        out[answer_id] = default
    return out


def _evaluated(where: str, entry: KeyEntry, parameters: dict, answer_id: str) -> KeyEntry:
    try:
        return for_parameters(entry, parameters)
    except FormulaError as exc:
        raise AnswerKeyError(f"{where}: {exc}", key=(answer_id, "formula")) from None
