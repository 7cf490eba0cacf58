"""Judge a raw answer against its key entry; name the likely confusion, never the expected value."""
from __future__ import annotations

import math
import re
from typing import Iterable, Mapping

from grader.grading.answers.key import (
    AnswerKeyError,
    ChoiceEntry,
    KeyEntry,
    NumberEntry,
    QuantityEntry,
    TextEntry,
    VectorEntry,
)
from grader.grading.answers.precision import figures_phrase, matches_at_figures, stated_figures, too_coarse
from grader.grading.answers.units import (
    NUMBER_FORMS,
    Quantity,
    QuantityError,
    norm_choice,
    read_number,
    read_quantity,
    read_vector,
)
from grader.results import AnswerOutcome

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


def _unit_bytes(q: Quantity) -> float:
    """Bytes in one of the units the student wrote (1e9 for GB, 2**30 for GiB, 1/8 for a bit)."""
    return (1024 if q.binary else 1000) ** q.level / (8 if q.bits else 1)


class _Reading:
    """One numeric answer as written: its value, its unit and the precision it states."""

    def __init__(self, entry: QuantityEntry | NumberEntry, given: str, number: float, unit: float, value: float):
        self.entry, self.number, self.unit, self.value = entry, number, unit, value
        self.figures = stated_figures(given)

    def agrees(self, want: float) -> bool:
        """The answer is ``want`` (in bytes, or plain): within the key's tolerances, or ``want``
        rounded to the precision the answer states (at least the assignment's floor)."""
        entry = self.entry
        if _close(self.value, want, entry.rtol, getattr(entry, "atol", 0.0)):
            return True
        return entry.sigfigs > 0 and matches_at_figures(self.number, want / self.unit, self.figures, entry.sigfigs)

    def too_coarse(self) -> str:
        if not too_coarse(self.figures, self.entry.sigfigs):
            return ""
        return (f"This answer states {figures_phrase(self.figures)}; give at least {self.entry.sigfigs} "
                "(the question says how precise to be).")

    def judge(self, confusions) -> tuple[str, str]:
        """correct / too coarse / a named distractor / a named confusion / a plain miss, in that order."""
        entry = self.entry
        if self.agrees(entry.value):
            return "correct", ""
        if self.too_coarse():
            return "wrong", self.too_coarse()
        for d in entry.distractors:
            if self.agrees(d.value):
                return "wrong", d.feedback
        for message in confusions:
            if message:
                return "wrong", message
        return "wrong", _plain_miss(self.value, entry)


def _check_quantity(entry: QuantityEntry, given: str) -> tuple[str, str]:
    try:
        q = read_quantity(given)
    except QuantityError as exc:
        return "unreadable", str(exc)
    reading = _Reading(entry, given, q.number, _unit_bytes(q), q.bytes)
    return reading.judge(_quantity_confusions(entry, q, reading))


def _quantity_confusions(entry: QuantityEntry, q: Quantity, reading: _Reading):
    """Named confusions, each tried only if the answer matches it (at its own precision).

    Only unit slips are recognised by themselves: their cause is certain. A factor of 2 has
    several causes (K only, fp8, half the heads), so it is named only by a key's distractor."""
    want = entry.value
    if q.level and not q.bits:
        other = (1000 if q.binary else 1024) ** q.level
        if _close(q.number * other, want, entry.rtol) or (
                entry.sigfigs and matches_at_figures(q.number, want / other, reading.figures, entry.sigfigs)):
            p = "kMGTP"[q.level - 1]
            dec, bin_ = f"{p}B", f"{'K' if p == 'k' else p}iB"
            yield (f"{dec} vs {bin_}: 1 {dec} = 10^{3 * q.level} bytes, 1 {bin_} = 2^{10 * q.level} bytes. "
                   f"Your number fits the other unit; convert it to the unit you wrote.")
    if reading.agrees(8 * want) or (q.bits and reading.agrees(want / 8)):
        yield "Looks like bits vs bytes: 1 byte = 8 bits, and the question asks for bytes."
    if entry.per_head and reading.agrees(want / entry.per_head):
        yield "That is one head's share; the question asks for the whole layer (all heads)."


def _plain_miss(got: float, entry: QuantityEntry | NumberEntry) -> str:
    """A miss with no named cause. Direction and size only when the key opts in (``hints``):
    on a hidden key they let a student bisect the expected value across resubmissions."""
    if not entry.hints:
        return "Not the expected value. Check each factor of the formula, and the unit."
    want, rtol = entry.value, entry.rtol
    if want <= 0 or not math.isfinite(got) or got <= 0:
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
        got = read_number(given)
    except ValueError:
        return "unreadable", (f"could not read {given!r} as a number; write one number, e.g. "
                              + ", ".join(f"`{form}`" for form in NUMBER_FORMS) + ".")
    return _Reading(entry, given, got, 1.0, got).judge(())


def _check_vector(entry: VectorEntry, given: str) -> tuple[str, str]:
    try:
        got = read_vector(given)
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
    got = norm_choice(given)
    if not re.fullmatch(r"[\w-]+", got):
        return "unreadable", f"could not read {given!r} as a choice; write just the letter of one option, e.g. `a`."
    if got == entry.value:
        return "correct", ""
    for d in entry.distractors:
        if got == d.value:
            return "wrong", d.feedback
    return "wrong", "Not the expected choice."
