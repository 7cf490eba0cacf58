"""Text a submission influenced, made safe for every file and terminal a report reaches.

A report carries student-controlled text: file names, exception messages, answers, cell
errors. Before any rendering, `sanitize` escapes in all of it the characters that act on a
terminal or a reader instead of being read: C0/C1 control characters (ANSI escape
sequences, bells, carriage returns), bidirectional overrides (Trojan-source reordering),
and lone surrogates (bytes of a file name that are not UTF-8, which cannot be written as
UTF-8 at all); and replaces bookkeeping numbers that JSON cannot hold (NaN, inf in timings,
seconds) by 0 — never points, whose NaN is a grader bug that must fail loudly. Newlines and
tabs stay where a field may hold several lines (messages, errors, notes). CSV cells a
spreadsheet would run as a formula get a leading quote (`csv_cell`).
"""
from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

from grader.results import Figure, Report

# C0 and C1 controls (but \t and \n), DEL, bidi embeddings/overrides/isolates, lone surrogates
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_UNSAFE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def _escape(match: re.Match) -> str:
    return _escape_code(ord(match.group()))


def _escape_code(code: int) -> str:
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def clean(text: str, *, lines: bool = True) -> str:
    """``text`` with unsafe characters escaped; with ``lines=False`` newlines and tabs too."""
    return (_UNSAFE if lines else _UNSAFE_LINE).sub(_escape, text)


def shown(name: str) -> str:
    """A name (a file in a submission, a folder) as text anyone can print on one line: every character that
    is not printable escaped (controls, bidi marks, zero-width and other format characters, odd bytes)."""
    name = _UNSAFE_LINE.sub(_escape, name)
    if name.isprintable():
        return name
    return "".join(ch if ch.isprintable() else _escape_code(ord(ch)) for ch in name)


def _value(value: Any, lines: bool) -> Any:
    if isinstance(value, str):
        return clean(value, lines=lines)
    if isinstance(value, float) and not math.isfinite(value):
        return 0.0
    if isinstance(value, tuple):
        return tuple(_value(v, lines) for v in value)
    if isinstance(value, list):
        return [_value(v, lines) for v in value]
    if isinstance(value, dict):
        return {_value(k, False): _value(v, lines) for k, v in value.items()}
    if isinstance(value, Figure):
        return value  # base64 checked where it was made
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: getattr(value, f.name) if f.name in _POINTS else
                                             _value(getattr(value, f.name), f.name not in _ONE_LINE)
                                             for f in dataclasses.fields(value)})
    return value


# a score that is not a number is the grader's bug: left alone, so writing fails loudly (a `crashed` row)
_POINTS = {"score", "max_score", "points", "max_points"}


# fields that are names or labels, never several lines
_ONE_LINE = {"assignment", "submission", "status", "id", "title", "check", "label", "cell_id", "exercise", "ename",
             "kind", "submission_hash", "bundle_hash"}


def sanitize(report: Report) -> Report:
    """The same report with every string made safe and every float finite."""
    return _value(report, True)


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: a leading quote before =, +, -, @, tab or CR."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def uncsv_cell(value: str) -> str:
    """The value `csv_cell` was given (for reading a sheet back)."""
    if value.startswith("'") and value[1:].startswith(FORMULA_START):
        return value[1:]
    return value
