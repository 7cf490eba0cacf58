"""Structured answers: read the student's YAML answers cell, load the answer key, judge.

A notebook's answers cell holds one ```yaml block of ``id: value`` lines. Each value is
kept as the student typed it (``"16.384 GiB"``, ``"[1.5, 2.5]"``) and judged against a
typed `KeyEntry`. Wrong quantities are checked for the usual confusions (GB vs GiB, a
missing factor 2 for K and V, bits vs bytes, one head instead of the layer) so the
message can name the likely mistake; no message for a wrong answer contains the
expected value.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

from .results import AnswerOutcome


class AnswerFormatError(ValueError):
    """A student's answers cell cannot be read."""


class AnswerKeyError(ValueError):
    """An answer_key.yaml entry is malformed (an authoring error)."""


# ---------------------------------------------------------------- key entries


@dataclass(frozen=True)
class Distractor:
    """A known wrong answer and what to tell a student who gives it."""

    value: Any
    feedback: str


@dataclass(frozen=True)
class QuantityEntry:
    id: str
    value: float  # bytes
    rtol: float = 0.01
    per_head: int | None = None
    distractors: tuple[Distractor, ...] = ()
    type: str = "quantity"


@dataclass(frozen=True)
class NumberEntry:
    id: str
    value: float
    atol: float = 0.0
    rtol: float = 0.01
    distractors: tuple[Distractor, ...] = ()
    type: str = "number"


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
    "quantity": {"type", "value", "rtol", "per_head", "distractors"},
    "number": {"type", "value", "atol", "rtol", "distractors"},
    "vector": {"type", "value", "atol", "distractors"},
    "choice": {"type", "value", "distractors"},
    "text": {"type"},
}


def load_key(path: Path | str) -> dict[str, KeyEntry]:
    """Load ``answer_key.yaml`` into typed entries; anything unknown is an error naming file and key."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise AnswerKeyError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise AnswerKeyError(f"{path}: expected a mapping of answer ids to entries")
    return {str(key): _key_entry(path, str(key), spec) for key, spec in data.items()}


def _key_entry(path: Path, key: str, spec: Any) -> KeyEntry:
    where = f"{path}: {key}"
    if not re.fullmatch(r"[a-z0-9_]+", key):
        raise AnswerKeyError(f"{where}: answer ids use only a-z, 0-9 and _")
    if not isinstance(spec, dict):
        raise AnswerKeyError(f"{where}: expected a mapping with 'type' and 'value'")
    kind = spec.get("type")
    if kind not in _FIELDS:
        raise AnswerKeyError(f"{where}: unknown type {kind!r} (known: {', '.join(_FIELDS)})")
    unknown = sorted(set(spec) - _FIELDS[kind])
    if unknown:
        raise AnswerKeyError(f"{where}: unknown field(s) {', '.join(unknown)} for type {kind} "
                             f"(allowed: {', '.join(sorted(_FIELDS[kind]))})")
    if kind != "text" and "value" not in spec:
        raise AnswerKeyError(f"{where}: missing 'value'")
    try:
        entry = _build_entry(kind, key, spec)
    except (TypeError, ValueError, KeyError) as exc:
        raise AnswerKeyError(f"{where}: {exc}") from None
    for d in getattr(entry, "distractors", ()):
        if not isinstance(entry, ChoiceEntry) and check_answer(entry, _as_text(entry, d.value)).status == "correct":
            raise AnswerKeyError(f"{where}: distractor {d.value!r} is within the tolerance of the value, "
                                 "so it would be marked correct; tighten atol/rtol")
    return entry


def _as_text(entry: KeyEntry, value: Any) -> str:
    """A key value written the way a student would, to judge it like an answer."""
    if isinstance(entry, VectorEntry):
        return "[" + ", ".join(repr(v) for v in value) + "]"
    return f"{value!r} B" if isinstance(entry, QuantityEntry) else repr(value)


def _build_entry(kind: str, key: str, spec: dict) -> KeyEntry:
    opts = {name: float(spec[name]) for name in ("atol", "rtol") if name in spec}
    if kind == "text":
        return TextEntry(key)
    if kind == "choice":
        raw = spec.get("distractors") or {}
        if not isinstance(raw, dict):
            raise ValueError("choice distractors are a mapping {option: feedback}")
        return ChoiceEntry(key, _norm_choice(str(spec["value"])),
                           tuple(Distractor(_norm_choice(str(k)), str(v)) for k, v in raw.items()))
    if kind == "vector":
        value = _float_tuple(spec["value"])
        distractors = tuple(Distractor(_float_tuple(d["value"]), str(d["feedback"])) for d in _dlist(spec))
        return VectorEntry(key, value, distractors=distractors, **opts)
    distractors = tuple(Distractor(float(d["value"]), str(d["feedback"])) for d in _dlist(spec))
    if kind == "number":
        return NumberEntry(key, float(spec["value"]), distractors=distractors, **opts)
    per_head = spec.get("per_head")
    if per_head is not None and (not isinstance(per_head, int) or per_head < 2):
        raise ValueError("per_head must be an integer ≥ 2")
    return QuantityEntry(key, float(spec["value"]), per_head=per_head, distractors=distractors, **opts)


def _dlist(spec: dict) -> list[dict]:
    raw = spec.get("distractors") or []
    if not isinstance(raw, list) or not all(isinstance(d, dict) and set(d) == {"value", "feedback"} for d in raw):
        raise ValueError("distractors are a list of {value, feedback}")
    return raw


def _float_tuple(value: Any) -> tuple[float, ...]:
    if not isinstance(value, (list, tuple)) or not value:
        raise ValueError("a vector value is a non-empty list of numbers")
    return tuple(float(v) for v in value)


# ---------------------------------------------------------------- the answers cell

_FENCE = re.compile(r"^ {0,3}(`{3,})\s*ya?ml\s*$", re.IGNORECASE)


def extract_answer_block(markdown: str) -> str | None:
    """The text inside the first ```yaml fence of a Markdown cell (to the end if unclosed)."""
    lines = markdown.splitlines()
    for start, line in enumerate(lines):
        match = _FENCE.match(line)
        if match:
            ticks = len(match.group(1))
            body = []
            for inner in lines[start + 1:]:
                if re.fullmatch(r" {0,3}`{%d,}\s*" % ticks, inner):
                    break
                body.append(inner)
            return "\n".join(body) + ("\n" if body else "")
    return None


def parse_answers(text: str, where: str) -> dict[str, str]:
    """Map each id in a YAML answers block to the student's raw value ("" for blank)."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        problem = exc.problem or str(exc)
        start = exc.context_mark
        if exc.context and start is not None and exc.problem_mark is not None and start.line != exc.problem_mark.line:
            problem += f" ({exc.context} that starts at line {start.line + 1}: `{_line(text, start.line)}`)"
        raise AnswerFormatError(_format_problem(text, where, exc.problem_mark or start, problem)) from None
    except yaml.YAMLError as exc:
        raise AnswerFormatError(f"{where}: the answers block is not valid YAML ({exc}). {_HOW}") from None
    if root is None:
        return {}
    if not isinstance(root, yaml.MappingNode):
        raise AnswerFormatError(f"{where}: the answers block should be `id: value` lines. {_HOW}")
    answers: dict[str, str] = {}
    for key_node, value_node in root.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise AnswerFormatError(_format_problem(text, where, key_node.start_mark,
                                                    "an answer id must be a plain name"))
        if key_node.value in answers:
            raise AnswerFormatError(_format_problem(text, where, key_node.start_mark,
                                                    f"'{key_node.value}' is answered twice; keep one line"))
        answers[key_node.value] = _raw_value(value_node)
    return answers


_HOW = ("Write one `id: value` per line inside the ```yaml block, as in the template "
        "(e.g. `mha_cache_one_layer: 16.4 GB`), with comments after `#`.")


def _format_problem(text: str, where: str, mark: Any, problem: str) -> str:
    if mark is None:
        return f"{where}: the answers block is not valid YAML ({problem}). {_HOW}"
    return (f"{where}: the answers block is not valid YAML at line {mark.line + 1} "
            f"(`{_line(text, mark.line)}`): {problem}. {_HOW}")


def _line(text: str, index: int) -> str:
    lines = text.splitlines()
    return lines[index].strip() if index < len(lines) else ""


def _raw_value(node: yaml.Node) -> str:
    """The student's value as written: scalars unquoted, sequences as ``[a, b]``."""
    if isinstance(node, yaml.ScalarNode):
        if node.tag == "tag:yaml.org,2002:null" or (node.style is None and node.value in ("~", "null", "Null", "NULL")):
            return ""
        return node.value.strip()
    if isinstance(node, yaml.SequenceNode):
        return "[" + ", ".join(_raw_value(item) for item in node.value) + "]"
    return "{" + ", ".join(f"{_raw_value(k)}: {_raw_value(v)}" for k, v in node.value) + "}"


# ---------------------------------------------------------------- quantities

_NUMBER = r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d[\d_]*)?(?:\.\d+)?(?:[eE][+-]?\d+)?"
_TIMES_TEN = r"(?:\s*[x×*·]\s*10\s*(?:\^|\*\*)\s*([+-]?\d+))?"
_QUANTITY = re.compile(rf"^\s*({_NUMBER}){_TIMES_TEN}\s*([A-Za-z]*)\s*$")
_PREFIX = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
_WORD_PREFIX = {"kilo": "k", "mega": "m", "giga": "g", "tera": "t", "peta": "p",
                "kibi": "ki", "mebi": "mi", "gibi": "gi", "tebi": "ti", "pebi": "pi"}

QUANTITY_FORMS = ("16.4 GB", "15.26 GiB", "64 MiB", "1.057e6 B", "16,384,000,000 bytes", "131 Gbit")
_ACCEPTED = ("Write a number and a unit, e.g. " + ", ".join(f"`{f}`" for f in QUANTITY_FORMS)
             + ". Units: B, kB, MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB (powers of 1024), "
             "or bits (bit, Mbit, Gbit).")


@dataclass(frozen=True)
class _Quantity:
    number: float  # as written, before the unit
    level: int  # 0 = bytes, 1 = k/Ki, 2 = M/Mi, ...
    binary: bool
    bits: bool
    unit: str

    @property
    def bytes(self) -> float:
        return self.number * (1024 if self.binary else 1000) ** self.level / (8 if self.bits else 1)


class QuantityError(ValueError):
    """A quantity the grader cannot read; the message shows the accepted forms."""


def parse_quantity(s: str) -> float:
    """Bytes in ``s`` (``"16.4 GB"``, ``"15.26 GiB"``, ``"1.057e6 bytes"``, ``"131 Gbit"``)."""
    return _read_quantity(s).bytes


def _read_quantity(s: str) -> _Quantity:
    match = _QUANTITY.match(str(s).strip().lstrip("~≈").rstrip("."))
    if not match or not re.search(r"\d", match.group(1)):
        raise QuantityError(f"could not read {s!r} as an amount of memory. {_ACCEPTED}")
    number = _to_float(match.group(1)) * (10.0 ** int(match.group(2)) if match.group(2) else 1.0)
    unit = match.group(3)
    if not unit:
        raise QuantityError(f"{s!r} has no unit; a bare number could be bytes, kB or GB. {_ACCEPTED}")
    parsed = _read_unit(unit)
    if parsed is None:
        raise QuantityError(f"unknown unit {unit!r} in {s!r}. {_ACCEPTED}")
    level, binary, bits = parsed
    return _Quantity(number, level, binary, bits, unit)


def _read_unit(unit: str) -> tuple[int, bool, bool] | None:
    low = unit.lower()
    for word, short in _WORD_PREFIX.items():
        if low.startswith(word) and low[len(word):] in ("byte", "bytes", "bit", "bits"):
            low = short + ("bit" if low[len(word):].startswith("bit") else "b")
            unit = low
            break
    match = re.fullmatch(r"([kmgtp]?)(i?)(b|bytes?|bits?)", low)
    if not match:
        return None
    prefix, binary, tail = match.groups()
    # "Mb", "Gb", "Tb" (capital prefix, lower-case b) are the usual way of writing bits;
    # "kb" is almost always meant as kilobytes, and lower-case "gb" as gigabytes.
    bits = tail.startswith("bit") or (not binary and bool(re.fullmatch(r"[MGTP]b", unit)))
    return _PREFIX[prefix], bool(binary), bits


def _to_float(text: str) -> float:
    return float(text.replace(",", "").replace("_", ""))


# ---------------------------------------------------------------- numbers and vectors

_PLAIN = re.compile(rf"^\s*({_NUMBER}){_TIMES_TEN}\s*(?:/\s*({_NUMBER}))?\s*[x×]?\s*$")


def _read_number(text: str) -> float:
    match = _PLAIN.match(text)
    if not match or not re.search(r"\d", match.group(1)):
        raise ValueError(text)
    value = _to_float(match.group(1)) * (10.0 ** int(match.group(2)) if match.group(2) else 1.0)
    if match.group(3):
        value /= _to_float(match.group(3))
    return value


def _read_vector(text: str) -> tuple[float, ...]:
    inner = text.strip()
    if inner[:1] in "([" and inner[-1:] in ")]":
        inner = inner[1:-1]
    parts = [p for p in re.split(r"[,;\s]+", inner.strip()) if p]
    if not parts:
        raise ValueError(text)
    return tuple(_read_number(p) for p in parts)


def _norm_choice(text: str) -> str:
    return text.strip().strip("().").strip().lower()


# ---------------------------------------------------------------- judging

_BLANKS = {"", "...", "…", "?", "??", "???", "todo", "tbd", "your answer", "_type your answer here._"}


def check_answer(entry: KeyEntry, raw: str | None) -> AnswerOutcome:
    """Judge one answer. Messages for wrong answers name the likely mistake, never the value."""
    given = "" if raw is None else str(raw).strip()
    if given.lower() in _BLANKS:
        return AnswerOutcome(entry.id, "blank", given, "No answer given.")
    if isinstance(entry, TextEntry):
        return AnswerOutcome(entry.id, "unchecked", given, "Graded by hand.")
    judge = {QuantityEntry: _check_quantity, NumberEntry: _check_number,
             VectorEntry: _check_vector, ChoiceEntry: _check_choice}[type(entry)]
    status, message = judge(entry, given)
    return AnswerOutcome(entry.id, status, given, message)


def check_answers(key: Mapping[str, KeyEntry], answers: Mapping[str, str], ids: Iterable[str]) -> list[AnswerOutcome]:
    """Judge the answers named by ``ids``; an id absent from the notebook is ``missing``."""
    outcomes = []
    for answer_id in ids:
        if answer_id not in key:
            raise AnswerKeyError(f"answer id {answer_id!r} is not in the answer key")
        if answer_id not in answers:
            outcomes.append(AnswerOutcome(answer_id, "missing", "", (
                f"No line `{answer_id}:` in the answers cell; restore it from the template and answer it.")))
        else:
            outcomes.append(check_answer(key[answer_id], answers[answer_id]))
    return outcomes


def _close(got: float, want: float, rtol: float, atol: float = 0.0) -> bool:
    return math.isfinite(got) and abs(got - want) <= atol + rtol * abs(want)


def _check_quantity(entry: QuantityEntry, given: str) -> tuple[str, str]:
    try:
        q = _read_quantity(given)
    except QuantityError as exc:
        return "unreadable", str(exc)
    want, got = entry.value, q.bytes
    if _close(got, want, entry.rtol):
        return "correct", ""
    for d in entry.distractors:
        if _close(got, d.value, entry.rtol):
            return "wrong", d.feedback
    return "wrong", _quantity_confusion(entry, q)


def _quantity_confusion(entry: QuantityEntry, q: _Quantity) -> str:
    want, got, rtol = entry.value, q.bytes, entry.rtol
    if q.level and not q.bits:
        swapped = q.number * (1000 if q.binary else 1024) ** q.level
        if _close(swapped, want, rtol):
            p = "kMGTP"[q.level - 1]
            dec, bin_ = f"{p}B", f"{'K' if p == 'k' else p}iB"
            return (f"{dec} vs {bin_}: 1 {dec} = 10^{3 * q.level} bytes, 1 {bin_} = 2^{10 * q.level} bytes. "
                    f"Your number fits the other unit; convert it to the unit you wrote.")
    if _close(got * 2, want, rtol):
        return ("Too small by a factor of 2: did you count both K and V? "
                "The cache holds a key and a value per token.")
    if _close(got, 8 * want, rtol) or (q.bits and _close(got * 8, want, rtol)):
        return "Looks like bits vs bytes: 1 byte = 8 bits, and the question asks for bytes."
    if entry.per_head and _close(got * entry.per_head, want, rtol):
        return "That is one head's share; the question asks for the whole layer (all heads)."
    return _generic_miss(got, want, rtol)


def _generic_miss(got: float, want: float, rtol: float) -> str:
    """Direction and rough size of the miss, without giving away the expected value."""
    if want == 0 or not math.isfinite(got) or got <= 0:
        return "Not the expected value; check the formula and the sizes you used."
    ratio = got / want
    direction = "too large" if ratio > 1 else "too small"
    size = ratio if ratio > 1 else 1 / ratio
    if size < 1.1:
        band = f"within 10% but outside the {rtol * 100:g}% tolerance"
    elif size < 2:
        band = "off by between 10% and a factor of 2"
    elif size < 10:
        band = "off by a factor between 2 and 10"
    else:
        band = f"off by about {10 ** round(math.log10(size)):,}×"
    return f"Not the expected value: {direction}, {band}. Check each factor of the formula and the unit."


def _check_number(entry: NumberEntry, given: str) -> tuple[str, str]:
    try:
        got = _read_number(given)
    except ValueError:
        return "unreadable", f"could not read {given!r} as a number; write e.g. `780`, `781.25` or `1.5e3`."
    if _close(got, entry.value, entry.rtol, entry.atol):
        return "correct", ""
    for d in entry.distractors:
        if _close(got, d.value, entry.rtol, entry.atol):
            return "wrong", d.feedback
    return "wrong", _generic_miss(got, entry.value, entry.rtol) if entry.value > 0 else "Not the expected value."


def _check_vector(entry: VectorEntry, given: str) -> tuple[str, str]:
    try:
        got = _read_vector(given)
    except ValueError:
        return "unreadable", (f"could not read {given!r} as a vector; write the numbers in brackets, "
                              "e.g. `[0.5, 3]` or `(0.5, 3)`.")
    if len(got) != len(entry.value):
        return "wrong", f"Expected a vector of {len(entry.value)} numbers, got {len(got)}."

    def near(want: tuple[float, ...]) -> bool:
        return len(want) == len(got) and all(_close(g, w, 0.0, entry.atol) for g, w in zip(got, want))

    if near(entry.value):
        return "correct", ""
    for d in entry.distractors:
        if near(d.value):
            return "wrong", d.feedback
    return "wrong", "Not the expected vector."


def _check_choice(entry: ChoiceEntry, given: str) -> tuple[str, str]:
    got = _norm_choice(given)
    if not re.fullmatch(r"[\w-]+", got):
        return "unreadable", f"could not read {given!r} as a choice; write just the letter of one option, e.g. `a`."
    if got == entry.value:
        return "correct", ""
    for d in entry.distractors:
        if got == d.value:
            return "wrong", d.feedback
    return "wrong", "Not the expected choice."
