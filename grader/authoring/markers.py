"""Marker lines the kit does not speak, and the last guard against shipping any.

* nbgrader's region markers (`### BEGIN SOLUTION`, `### BEGIN HIDDEN TESTS`, any number of
  `#`) mean what the kit's `# BEGIN SOLUTION` / `# BEGIN HIDDEN` mean: they are translated.
* otter's structure markers (`# BEGIN QUESTION`, `# BEGIN TESTS`, `# BEGIN PROMPT`) and
  nbgrader's mark schemes have no equivalent: they are errors that say what to write instead.
* A near-miss (`# begin solution`, `# BEGIN SOLUTON`, `// BEGIN SOLUTION`) is an error that
  suggests the marker it resembles.
* `marker_like` is the guard run over every generated student file: a line that still looks
  like a marker there fails the build, wherever it came from.
"""
from __future__ import annotations

import difflib
import io
import re
import tokenize

KIT_WORDS = ("SOLUTION", "STUB", "HIDDEN")
KNOWN = "BEGIN/END SOLUTION, BEGIN/END STUB, BEGIN/END HIDDEN, in capitals, alone on their line"

NBGRADER = re.compile(r"^(?P<indent>[ \t]*)#+[ \t]*(?P<edge>BEGIN|END)[ \t]+"
                      r"(?P<what>SOLUTION|HIDDEN[ \t]+TESTS)[ \t]*$")
OTTER = re.compile(r"^[ \t]*#+[ \t]*(?P<edge>BEGIN|END)[ \t]+(?P<what>QUESTION|TESTS|PROMPT)\b.*$")
MARK_SCHEME = re.compile(r"^[ \t]*(?:#+|=+|<!--)?[ \t]*(?P<edge>BEGIN|END)[ \t]+MARK[ \t]+SCHEME\b.*$", re.IGNORECASE)
_WORDS = r"(?:solutions?|stub|hidden(?:[ \t]+tests)?|tests?|question|prompt|mark[ \t]*scheme)"
# a comment-ish leader, then BEGIN/END and a marker word, in any case
_LEADED = re.compile(r"^[ \t]*(?:#+|<!--|//+|%+|--|;+|\*+|=+|\"\"\"|''')[ \t]*(?P<edge>begin|end)\b[ \t_:=-]*"
                     rf"(?P<word>{_WORDS})\b", re.IGNORECASE)
# no leader at all, but written in capitals as a marker would be
_BARE = re.compile(r"^[\W_]*(?P<edge>BEGIN|END)[ \t:]+(?P<word>SOLUTIONS?|STUB|HIDDEN(?:[ \t]+TESTS)?|TESTS?|QUESTION"
                   r"|PROMPT)[\W_]*$")

OTTER_FIX = {
    "QUESTION": "tag the question's Markdown cell 'question', its answer cell 'answer:<id>' (free text) or "
                "'answers' (checked against answer_key.yaml), give it points in rubric.yaml, and delete this line",
    "TESTS": "put tests students may run in tests/test_*.py and official checks in hidden/verdicts.py "
             "(docs/authoring.md); a notebook cell only the solution may keep is tagged 'hidden'",
    "PROMPT": "write what students see between '# BEGIN STUB' and '# END STUB', directly after '# END SOLUTION'",
}


def translate(line: str) -> str:
    """nbgrader's region markers, rewritten as the kit's (other lines unchanged)."""
    m = NBGRADER.match(line)
    if m is None:
        return line
    word = "SOLUTION" if m["what"] == "SOLUTION" else "HIDDEN"
    return f"{m['indent']}# {m['edge']} {word}"


def suggestion(line: str) -> str:
    """The kit marker a near-miss most likely meant, e.g. '# BEGIN SOLUTION' ("" if none)."""
    m = re.search(r"(?<![a-z])(begin|end)(?![a-z])[\W_]*([a-z]+)", line, re.IGNORECASE)
    if m is None:
        return ""
    word = m[2].upper().rstrip("S") if m[2].upper() not in KIT_WORDS else m[2].upper()
    close = difflib.get_close_matches(word, KIT_WORDS, n=1, cutoff=0.6)
    if not close:
        return ""
    leader = "<!-- {} -->" if line.lstrip().startswith("<!--") else "# {}"
    return leader.format(f"{m[1].upper()} {close[0]}")


def foreign_problem(line: str) -> str | None:
    """Why a line written as another tool's marker cannot be used, and what to write instead."""
    text = line.strip()
    m = OTTER.match(line)
    if m:
        return f"{text!r} is an otter-grader marker, which this kit does not use: {OTTER_FIX[m['what']]}"
    if MARK_SCHEME.match(line):
        return (f"{text!r} is an nbgrader mark-scheme marker: put marking notes between '<!-- BEGIN HIDDEN -->' "
                "and '<!-- END HIDDEN -->' (they reach only the solution tree)")
    return None


def near_miss(line: str) -> str | None:
    """A message for a line that looks like a marker but is not one the kit reads, else None."""
    if not (_LEADED.match(line) or _BARE.match(line)):
        return None
    return unknown_marker(line)


def unknown_marker(line: str) -> str:
    guess = suggestion(line)
    fix = f"; did you mean '{guess}'?" if guess else ""
    return f"unknown marker {line.strip()!r}{fix} (known: {KNOWN})"


def marker_like(line: str) -> bool:
    """Does a line of a generated student file still look like a marker (of any tool)?"""
    return bool(_LEADED.match(line) or _BARE.match(line) or MARK_SCHEME.match(line))


def string_spans(source: str) -> list[tuple[int, int]]:
    """(first, last) line of every Python string literal spanning several lines (docstrings included).
    Source that does not tokenize gives what was read so far (the compile check reports the rest)."""
    spans = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.STRING and tok.end[0] > tok.start[0]:
                spans.append((tok.start[0], tok.end[0]))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return spans


def marker_in_string(source: str, is_marker) -> tuple[int, int] | None:
    """(marker line, string's first line) of the first marker line inside a multi-line string, else None."""
    lines = source.split("\n")
    for first, last in string_spans(source):
        for lineno in range(first + 1, last + 1):
            if lineno <= len(lines) and is_marker(lines[lineno - 1]):
                return lineno, first
    return None
