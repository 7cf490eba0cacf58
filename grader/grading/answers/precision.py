"""Significant figures, as a student writes them and as a key value rounds to them.

PrairieLearn's `sigfig` mode, in the kit's words: an answer written with p significant
figures is right when the key, rounded to p significant figures in the student's own
unit, gives the number the student wrote, and p is at least the floor the assignment
sets. "1.1 MB" for 1,056,768 B (two figures) is right; "1 MB" (one figure) is too coarse
to tell right from wrong. Integers with trailing zeros are ambiguous ("16000" has two to
five figures); every reading from the least to the most precise is tried.
"""
from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation

from grader.grading.answers.units import unhedged

# the leading number of an answer as written: "16.4", "1,056,768", "1.057e6", "0.50"
_LITERAL = re.compile(r"\s*([+-]?(?:\d[\d,_]*)?(?:\.\d*)?(?:[eE][+-]?\d{1,4})?)")
# forms whose precision cannot be read off the digits (a fraction), so only tolerances apply
_FRACTION = re.compile(r"\d\s*/\s*[\d.]")


def stated_figures(text: str) -> tuple[int, int] | None:
    """(fewest, most) significant figures of the number ``text`` starts with, or None.

    "1.1" -> (2, 2); "0.0477" -> (3, 3); "1.50" -> (3, 3); "16000" -> (2, 5);
    "1,056,768" -> (7, 7); "1.057e6" -> (4, 4); "0" -> (1, 1).
    """
    text = unhedged(str(text))  # "about 780" states 2 figures, as "780" does
    if _FRACTION.search(text):
        return None
    match = _LITERAL.match(text)
    literal = match.group(1) if match else ""
    mantissa = re.split(r"[eE]", literal.lstrip("+-"), maxsplit=1)[0].replace(",", "").replace("_", "")
    if not re.search(r"\d", mantissa):
        return None
    if "." in mantissa:
        digits = mantissa.replace(".", "").lstrip("0")
        figures = len(digits) if digits else max(1, len(mantissa.split(".", 1)[1]))
        return figures, figures
    digits = mantissa.lstrip("0")
    if not digits:
        return 1, 1
    return max(1, len(digits.rstrip("0"))), len(digits)


def round_figures(value: float, figures: int, rounding: str = ROUND_HALF_UP) -> float:
    """``value`` rounded to ``figures`` significant figures (half up by default, as people round)."""
    if value == 0 or not math.isfinite(value):
        return value
    exact = Decimal(repr(value))
    quantum = Decimal(1).scaleb(exact.adjusted() - figures + 1)
    try:
        return float(exact.quantize(quantum, rounding=rounding))
    except InvalidOperation:
        return value


def matches_at_figures(written: float, value: float, figures: tuple[int, int] | None, floor: int) -> bool:
    """True when ``value`` rounded to some stated precision p ≥ ``floor`` is ``written``.

    Both numbers are in the student's unit. Half-up and half-even rounding are both accepted.
    """
    if figures is None or not (math.isfinite(written) and math.isfinite(value)):
        return False
    fewest, most = figures
    for p in range(max(fewest, floor), most + 1):
        for rounding in (ROUND_HALF_UP, ROUND_HALF_EVEN):
            if math.isclose(round_figures(value, p, rounding), written, rel_tol=1e-9, abs_tol=0.0):
                return True
    return False


def too_coarse(figures: tuple[int, int] | None, floor: int) -> bool:
    """True when the answer states fewer significant figures than the floor, however it is read."""
    return figures is not None and floor > 0 and figures[1] < floor


def figures_phrase(figures: tuple[int, int]) -> str:
    fewest, most = figures
    if fewest == most:
        return f"{most} significant figure{'s' * (most != 1)}"
    return f"at most {most} significant figures"
