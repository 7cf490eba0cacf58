"""Numbers, vectors and quantities with units as students write them."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

_NUMBER = r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d[\d_]*)?(?:\.\d+)?(?:[eE][+-]?\d{1,4})?"
_TIMES_TEN = r"(?:\s*[x×*·]\s*10\s*(?:\^|\*\*)\s*([+-]?\d{1,4}))?"
MAX_TEXT = 200  # an answer longer than this is not a number a student typed
_QUANTITY = re.compile(rf"^\s*({_NUMBER}){_TIMES_TEN}\s*([A-Za-z]*)\s*$")
_PREFIX = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
_WORD_PREFIX = {"kilo": "k", "mega": "m", "giga": "g", "tera": "t", "peta": "p",
                "kibi": "ki", "mebi": "mi", "gibi": "gi", "tebi": "ti", "pebi": "pi"}

# examples only: none of them may be a key's value (an example a student is shown is a hint)
QUANTITY_FORMS = ("2.5 GB", "2.33 GiB", "512 KiB", "2.5e9 B", "2,500,000,000 bytes", "20 Gbit")
_ACCEPTED = ("Write a number and a unit, e.g. " + ", ".join(f"`{f}`" for f in QUANTITY_FORMS)
             + ". Units: B, kB, MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB (powers of 1024), "
             "or bits (bit, Mbit, Gbit).")


@dataclass(frozen=True)
class Quantity:
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
    return read_quantity(s).bytes


def read_quantity(s: str) -> Quantity:
    if len(str(s)) > MAX_TEXT:
        raise QuantityError(f"could not read an answer of {len(str(s))} characters as an amount of memory. {_ACCEPTED}")
    match = _QUANTITY.match(unhedged(str(s)).rstrip("."))
    if not match or not re.search(r"\d", match.group(1)):
        raise QuantityError(f"could not read {s!r} as an amount of memory. {_ACCEPTED}")
    try:
        number = _scaled(match.group(1), match.group(2))
    except ValueError:
        raise QuantityError(f"{s!r} is too large (or too small) a number to work with. {_ACCEPTED}") from None
    unit = match.group(3)
    if not unit:
        raise QuantityError(f"{s!r} has no unit; a bare number could be bytes, kB or GB. {_ACCEPTED}")
    parsed = _read_unit(unit)
    if parsed is None:
        raise QuantityError(f"unknown unit {unit!r} in {s!r}. {_ACCEPTED}")
    level, binary, bits = parsed
    quantity = Quantity(number, level, binary, bits, unit)
    if not math.isfinite(quantity.bytes):
        raise QuantityError(f"{s!r} is too large a number to work with. {_ACCEPTED}")
    return quantity


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
    """A finite float, or ValueError (never inf or NaN)."""
    value = float(text.replace(",", "").replace("_", ""))
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _scaled(number: str, times_ten: str | None) -> float:
    """``number`` × 10^``times_ten``: finite, or ValueError (no OverflowError)."""
    value = _to_float(number)
    if times_ten:
        try:
            value *= 10.0 ** int(times_ten)
        except OverflowError:
            raise ValueError(times_ten) from None
    if not math.isfinite(value):
        raise ValueError(number)
    return value


# ---------------------------------------------------------------- numbers and vectors

_PLAIN = re.compile(rf"^\s*({_NUMBER}){_TIMES_TEN}\s*(?:/\s*({_NUMBER}))?\s*$")
# How people hedge and label a number: "≈ 781 ×", "~781x", "about 781 times", "roughly 781-fold".
_HEDGE = re.compile(r"^\s*(?:[~≈≃∼]|approx(?:imately\b|\.|\b)|about\b|around\b|roughly\b|circa\b|ca\.)\s*", re.I)
_TIMES = re.compile(r"\s*(?:[x×]|times|-?fold)\s*$", re.I)
# The examples in a message: numbers no answer of the course is near (a message never hints at a key).
NUMBER_FORMS = ("42", "42.5", "1.5e3", "4.2 × 10^5", "≈ 42 ×", "~42x", "42 times", "42 (my estimate)")
_REMARK = re.compile(r"\s*\((?=[^()]*[^\W\d_])[^()]*\)\s*\.?\s*$")  # "~781x (times more operations)"


def unhedged(text: str) -> str:
    """``text`` without a leading "≈", "~" or "about" (the precision as written still applies)."""
    return _HEDGE.sub("", text.strip(), count=1).strip()


def read_number(text: str) -> float:
    """A finite float from ``text``, or ValueError (never OverflowError or ZeroDivisionError)."""
    if len(text) > MAX_TEXT:
        raise ValueError("too long")
    match = _PLAIN.match(_TIMES.sub("", unhedged(_REMARK.sub("", text, count=1)).rstrip("."), count=1))
    if not match or not re.search(r"\d", match.group(1)):
        raise ValueError(text)
    value = _scaled(match.group(1), match.group(2))
    if match.group(3):
        divisor = _to_float(match.group(3))
        if divisor == 0:
            raise ValueError("division by zero")
        value /= divisor
        if not math.isfinite(value):
            raise ValueError(text)
    return value


def read_vector(text: str) -> tuple[float, ...]:
    if len(text) > 50 * MAX_TEXT:
        raise ValueError("too long")
    inner = text.strip()
    if inner[:1] in "([" and inner[-1:] in ")]":
        inner = inner[1:-1]
    parts = [p for p in re.split(r"[,;\s]+", inner.strip()) if p]
    if not parts:
        raise ValueError(text)
    return tuple(read_number(p) for p in parts)


_LABELLED = re.compile(r"^\s*\(?([A-Za-z0-9])\s*[).:]\s+\S")  # "b) only the caches", "(b) ...", "b. ..."


def norm_choice(text: str) -> str:
    """The option a student chose: "b", "(b)", "B." and "b) only the full-attention caches" are all "b"."""
    labelled = _LABELLED.match(text)
    if labelled:
        return labelled.group(1).lower()
    return text.strip().strip("().").strip().lower()
