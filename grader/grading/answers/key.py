"""The answer key: typed entries loaded from answer_key.yaml (an instructor's file)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from grader.config import Variants
from grader.grading.answers.units import norm_choice


class AnswerKeyError(ValueError):
    """An answer_key.yaml entry is malformed (an authoring error); ``key`` is the path of keys to it
    (the answer id, then the field), so a tool can point at its line without reading the message."""

    def __init__(self, message: str, *, key: tuple = ()):
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class Distractor:
    """A known wrong answer and what to tell a student who gives it."""

    value: Any
    feedback: str
    formula: str = ""  # the value from the assignment's variant parameters (grader/grading/answers/formulas.py)


@dataclass(frozen=True)
class QuantityEntry:
    id: str
    value: float  # bytes
    rtol: float = 0.01
    per_head: int | None = None
    distractors: tuple[Distractor, ...] = ()
    sigfigs: int = 0  # the floor: answers with at least this many significant figures are compared at theirs
    hints: bool = False  # say "too large/small" for other misses (lets a student bisect a hidden key)
    type: str = "quantity"
    formula: str = ""  # `value` computed from the variant parameters: the same for the default and every student
    per_head_of: str = ""  # `per_head` is this parameter (e.g. H)


@dataclass(frozen=True)
class NumberEntry:
    id: str
    value: float
    atol: float = 0.0
    rtol: float = 0.01
    distractors: tuple[Distractor, ...] = ()
    sigfigs: int = 0
    hints: bool = False
    type: str = "number"
    formula: str = ""


@dataclass(frozen=True)
class VectorEntry:
    id: str
    value: tuple[float, ...]
    atol: float = 0.01
    distractors: tuple[Distractor, ...] = ()
    type: str = "vector"


@dataclass(frozen=True)
class ChoiceEntry:
    id: str
    value: str
    distractors: tuple[Distractor, ...] = ()
    type: str = "choice"


@dataclass(frozen=True)
class TextEntry:
    """A free-text answer graded by hand; the grader only notices a blank."""

    id: str
    type: str = "text"


KeyEntry = QuantityEntry | NumberEntry | VectorEntry | ChoiceEntry | TextEntry

_FIELDS = {
    "quantity": {"type", "value", "formula", "rtol", "per_head", "distractors", "sigfigs", "hints"},
    "number": {"type", "value", "formula", "atol", "rtol", "distractors", "sigfigs", "hints"},
    "vector": {"type", "value", "atol", "distractors"},
    "choice": {"type", "value", "distractors"},
    "text": {"type"},
}


def load_key(path: Path | str, *, sigfigs: int = 0, hints: bool = False,
             variants: Variants | None = None) -> dict[str, KeyEntry]:
    """Load ``answer_key.yaml`` into typed entries; anything unknown is an error naming file and key.

    ``sigfigs`` and ``hints`` are the assignment's defaults (assignment.yaml ``answers:``) for
    numeric entries that do not set their own. Entries with a ``formula`` are evaluated for the default
    parameters of ``variants`` (assignment.yaml ``variants:``), and checked for every student's."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise AnswerKeyError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise AnswerKeyError(f"{path}: expected a mapping of answer ids to entries")
    defaults = {"sigfigs": sigfigs, "hints": hints}
    key = {str(key): _key_entry(path, str(key), spec, defaults) for key, spec in data.items()}
    from grader.grading.answers.formulas import with_formulas  # formulas evaluate key entries: import late

    key = with_formulas(path, key, data, variants)
    for entry in key.values():
        distractor_check(f"{path}: {entry.id}", entry)
    return key


def _key_entry(path: Path, key: str, spec: Any, defaults: dict | None = None) -> KeyEntry:
    where = f"{path}: {key}"
    if not re.fullmatch(r"[a-z0-9_]+", key):
        raise AnswerKeyError(f"{where}: answer ids use only a-z, 0-9 and _", key=(key,))
    if not isinstance(spec, dict):
        raise AnswerKeyError(f"{where}: expected a mapping with 'type' and 'value'", key=(key,))
    kind = spec.get("type")
    if kind not in _FIELDS:
        raise AnswerKeyError(f"{where}: unknown type {kind!r} (known: {', '.join(_FIELDS)})", key=(key,))
    unknown = sorted(set(spec) - _FIELDS[kind])
    if unknown:
        raise AnswerKeyError(f"{where}: unknown field(s) {', '.join(unknown)} for type {kind} "
                             f"(allowed: {', '.join(sorted(_FIELDS[kind]))})", key=(key,))
    if kind != "text" and "value" not in spec and "formula" not in spec:
        raise AnswerKeyError(f"{where}: missing 'value' (or 'formula')", key=(key,))
    if kind in ("quantity", "number"):
        spec = {**(defaults or {}), **spec}
    try:
        entry = _build_entry(kind, key, spec)
    except (TypeError, ValueError, KeyError) as exc:
        raise AnswerKeyError(f"{where}: {exc}", key=(key,)) from None
    return entry


def distractor_check(where: str, entry: KeyEntry) -> None:
    """A distractor that would be marked correct is an authoring error."""
    from grader.grading.answers.judge import (
        check_answer,  # the judge needs the key types: import late
    )

    for d in getattr(entry, "distractors", ()):
        if not isinstance(entry, ChoiceEntry) and check_answer(entry, _as_text(entry, d.value)).status == "correct":
            raise AnswerKeyError(f"{where}: distractor {d.value!r} is within the tolerance of the value, "
                                 "so it would be marked correct; tighten atol/rtol", key=(entry.id,))


def _as_text(entry: KeyEntry, value: Any) -> str:
    """A key value written the way a student would, to judge it like an answer."""
    if isinstance(entry, VectorEntry):
        return "[" + ", ".join(repr(v) for v in value) + "]"
    return f"{value!r} B" if isinstance(entry, QuantityEntry) else repr(value)


def _build_entry(kind: str, key: str, spec: dict) -> KeyEntry:
    opts = {name: float(spec[name]) for name in ("atol", "rtol") if name in spec}
    if kind in ("quantity", "number"):
        opts.update(_precision_opts(spec))
    if kind == "text":
        return TextEntry(key)
    if kind == "choice":
        raw = spec.get("distractors") or {}
        if not isinstance(raw, dict):
            raise ValueError("choice distractors are a mapping {option: feedback}")
        return ChoiceEntry(key, norm_choice(str(spec["value"])),
                           tuple(Distractor(norm_choice(str(k)), str(v)) for k, v in raw.items()))
    if kind == "vector":
        value = _float_tuple(spec["value"])
        distractors = tuple(Distractor(_float_tuple(d["value"]), str(d["feedback"])) for d in _dlist(spec))
        return VectorEntry(key, value, distractors=distractors, **opts)
    distractors = tuple(Distractor(float(d.get("value", 0)), str(d["feedback"]), _formula(d)) for d in _dlist(spec))
    value, formula = float(spec.get("value", 0)), _formula(spec)
    if kind == "number":
        return NumberEntry(key, value, distractors=distractors, formula=formula, **opts)
    per_head = spec.get("per_head")
    if isinstance(per_head, str):  # a parameter's name: resolved with the formulas
        return QuantityEntry(key, value, distractors=distractors, formula=formula, per_head_of=per_head, **opts)
    if per_head is not None and (isinstance(per_head, bool) or not isinstance(per_head, int) or per_head < 2):
        raise ValueError("per_head must be an integer ≥ 2 or the name of a variant parameter")
    return QuantityEntry(key, value, per_head=per_head, distractors=distractors, formula=formula, **opts)


def _formula(spec: dict) -> str:
    formula = spec.get("formula", "")
    if not isinstance(formula, str):
        raise ValueError(f"a formula is text (e.g. \"2 * T * D\"), got {formula!r}")
    return formula


def _precision_opts(spec: dict) -> dict[str, Any]:
    sigfigs, hints = spec.get("sigfigs", 0), spec.get("hints", False)
    if isinstance(sigfigs, bool) or not isinstance(sigfigs, int) or not 0 <= sigfigs <= 15:
        raise ValueError(f"sigfigs must be a whole number from 0 (off) to 15, got {sigfigs!r}")
    if not isinstance(hints, bool):
        raise ValueError(f"hints must be true or false, got {hints!r}")
    return {"sigfigs": sigfigs, "hints": hints}


def _dlist(spec: dict) -> list[dict]:
    raw = spec.get("distractors") or []
    if not isinstance(raw, list) or not all(isinstance(d, dict) and "feedback" in d and set(d) & {"value", "formula"}
                                            and set(d) <= {"value", "formula", "feedback"} for d in raw):
        raise ValueError("distractors are a list of {value, feedback} (or {formula, feedback})")
    return raw


def _float_tuple(value: Any) -> tuple[float, ...]:
    if not isinstance(value, (list, tuple)) or not value:
        raise ValueError("a vector value is a non-empty list of numbers")
    return tuple(float(v) for v in value)
