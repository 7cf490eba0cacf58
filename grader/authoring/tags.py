"""The tag syntax: one pure transform from a tagged source text to its two versions.

``split_text(text, kind, where)`` returns a ``Split``: the student and solution versions, their
regions and `allow:` lines (for the leak scan, `leaks.py`) and line maps; the
notebook layer (`notebook_tags`) applies it cell by cell. Every mistake raises a
`TagError` that names the file, the line and (for notebooks) the cell. See docs/tags.md.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from grader.authoring import markers

Kind = Literal["python", "yaml", "markdown"]

WORDS = ("SOLUTION", "STUB", "HIDDEN")
_LEADER = r"(?:#|<!--)"
MARKER = re.compile(rf"^(?P<indent>[ \t]*){_LEADER}\s*(?P<edge>BEGIN|END)\s+(?P<word>[A-Z]+)\s*(?:-->)?\s*$")
# A near-miss marker: BEGIN/END in any case followed by one word ("# begin solution") or by something
# starting like a marker word ("# BEGIN SOLUTION (fast)"); "# End of the loop" is an ordinary comment.
LOOKS_LIKE_MARKER = re.compile(rf"^[ \t]*{_LEADER}\s*(?:begin|end)(?![a-z])[\s_-]*(?:\w*\W*$|solu|stub|hidd)",
                               re.IGNORECASE)
ONE_LINE = re.compile(r"^(?P<body>.*?\S)\s*#\s*SOLUTION\s*$")
PY_ASSIGN = re.compile(r"^(?P<lhs>[ \t]*[A-Za-z_][\w\.\[\]'\", ]*?)\s*=(?!=)")
YAML_KEY = re.compile(r"^(?P<key>[ \t]*(?:- )?[\w.\-]+:)")
DEF = re.compile(r"^(?P<indent>[ \t]*)(?:async\s+)?def\s+(?P<name>\w+)")
CLASS = re.compile(r"^(?P<indent>[ \t]*)class\s+(?P<name>\w+)")

# `# allow: WORD ...` (Markdown: `<!-- allow: WORD ... -->`): an author's explicit exception to the leak scan
# (`leaks.py`), a line of its own, dropped from both trees; words and their meaning in docs/tags.md.
ALLOW = re.compile(r"^[ \t]*(?:#|<!--)[ \t]*allow:[ \t]*(?P<word>[\w-]*)(?P<why>.*?)[ \t]*(?:-->)?[ \t]*$")
ALLOW_WORDS = {
    "shown": "the next line is a solution line that students may see (the lesson shows it)",
    "no-solution": "this exercise cell has no solution region on purpose (it runs code students write elsewhere)",
}

MARKDOWN_STUB = "_Type your answer here._"


class TagError(Exception):
    """A tagging mistake in an assignment source, located to the line."""

    def __init__(self, where: str, line: int | None, message: str, cell: int | None = None):
        self.where, self.line, self.message, self.cell = where, line, message, cell
        if cell is not None:
            loc = f"{where}: cell {cell}" + (f", line {line}" if line is not None else "")
        else:
            loc = f"{where}:{line}" if line is not None else where
        super().__init__(f"{loc}: {message}")


@dataclass(frozen=True)
class Region:
    """One region of a source text, as the leak scan needs it: ``kind`` SOLUTION, HIDDEN or ONE (a line
    ending in `# SOLUTION`), its lines with their source line numbers, and the source lines of the
    STUB block that replaces it (what the author chose to show students instead)."""

    kind: str
    lines: tuple[tuple[str, int], ...]
    stub: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Split:
    """The two versions of one text, and what the leak scan needs to know about its regions.
    ``student_lines``/``solution_lines``: the source line (1-based, offset included) of each
    output line, so an error found in a generated file can name the line the instructor edits.
    ``allows``: the `allow:` lines, (source line, word); ``shown``: the lines an `allow: shown` covers."""

    student: str
    solution: str
    regions: tuple[Region, ...] = ()
    student_lines: tuple[int, ...] = ()
    solution_lines: tuple[int, ...] = ()
    allows: tuple[tuple[int, str], ...] = ()
    shown: frozenset[int] = frozenset()


def enclosing_name(lines: list[str], index: int, indent: str) -> str:
    """Name of the def (with its class) that contains line ``index`` at ``indent``."""
    name, limit = "", len(indent)
    for line in reversed(lines[:index]):
        for pattern in (DEF, CLASS):
            m = pattern.match(line)
            if m and len(m["indent"]) < limit:
                if not name and pattern is DEF:
                    name, limit = m["name"], len(m["indent"])
                elif not name:
                    return m["name"]
                else:  # the def's own parent: a class makes it a method, a def a nested function
                    return f"{m['name']}.{name}" if pattern is CLASS else name
    return name or "this part"


def default_stub(kind: Kind, lines: list[str], index: int, indent: str) -> list[str]:
    if kind == "python":
        name = enclosing_name(lines, index, indent)
        return [f'{indent}raise NotImplementedError("{name}: not implemented yet (see the docstring)")']
    if kind == "markdown":
        return [indent + MARKDOWN_STUB]
    return []


def one_line_student(body: str, kind: Kind) -> str | None:
    """The student version of a ``... # SOLUTION`` line, or None to drop it."""
    if kind == "python":
        m = PY_ASSIGN.match(body)
        return f"{m['lhs'].rstrip()} = ...  # YOUR ANSWER" if m else None
    m = YAML_KEY.match(body)
    return m["key"] if m else None


def _is_marker_like(line: str) -> bool:
    return bool(MARKER.match(markers.translate(line)) or LOOKS_LIKE_MARKER.match(line) or markers.marker_like(line)
                or markers.foreign_problem(line) or ALLOW.match(line))


def _allow_word(line: str, where: str, lineno: int) -> str | None:
    """The word of an `allow:` line (None for any other line); an unknown word raises."""
    m = ALLOW.match(line)
    if m is None:
        return None
    if m["word"] not in ALLOW_WORDS:
        known = "; ".join(f"'allow: {w}' ({meaning})" for w, meaning in ALLOW_WORDS.items())
        raise TagError(where, lineno, f"unknown 'allow:' word {m['word']!r}: known are {known}")
    return m["word"]


def _kit_marker(line: str, where: str, lineno: int) -> re.Match | None:
    """The kit marker on this (already translated) line, or None; a line that only looks like a
    marker (another tool's, a near-miss, an unknown word) raises a TagError saying what to write."""
    problem = markers.foreign_problem(line)
    if problem:
        raise TagError(where, lineno, problem)
    m = MARKER.match(line)
    if m is None:
        problem = markers.unknown_marker(line) if LOOKS_LIKE_MARKER.match(line) else markers.near_miss(line)
        if problem:
            raise TagError(where, lineno, problem)
        return None
    if m["word"] not in WORDS:
        guess = markers.suggestion(line)
        fix = f"; did you mean '{guess}'?" if guess else ""
        raise TagError(where, lineno, f"unknown marker word {m['word']!r}{fix} (known: {', '.join(WORDS)})")
    return m


@dataclass
class _Regions:
    """Where `split_text` is: the open region and what each version has gathered so far."""

    student: list = field(default_factory=list)  # (line, source line number)
    solution: list = field(default_factory=list)
    regions: list = field(default_factory=list)  # finished `Region`s
    region_lines: list = field(default_factory=list)  # (line, source line number) of the open region
    allows: list = field(default_factory=list)  # (source line, word)
    shown: set = field(default_factory=set)
    allow_next: bool = False  # an `allow: shown` waits for its line
    state: str | None = None  # None, "SOLUTION", "STUB", "HIDDEN"
    opened_at: int = 0
    stub_allowed: bool = False
    pending_stub: list | None = None  # default stub waiting in case a STUB block follows
    stub_body: list = field(default_factory=list)
    stub_indent: str = ""

    def flush_pending(self) -> None:
        if self.pending_stub is not None:
            self.student.extend(self.pending_stub)
            self.pending_stub = None


def _refuse_marker_in_string(text: str, where: str, line_offset: int) -> None:
    inside = markers.marker_in_string(text, _is_marker_like)
    if inside:
        line, first = inside
        raise TagError(where, line + line_offset, f"{text.split(chr(10))[line - 1].strip()!r} is inside a string "
                                                  f"(the string opened at line {first + line_offset}); markers "
                                                  "work only as comment lines of code: move it out of the "
                                                  "docstring or string")


def _on_marker(r: _Regions, m, kind: Kind, lines: list[str], i: int, where: str, lineno: int) -> None:
    edge, word = m["edge"], m["word"]
    if edge == "BEGIN":
        if r.state is not None:
            raise TagError(where, lineno, f"'BEGIN {word}' inside the {r.state} region opened at line "
                                          f"{r.opened_at}; regions do not nest")
        if word == "STUB" and not r.stub_allowed:
            raise TagError(where, lineno, "'BEGIN STUB' must directly follow an 'END SOLUTION' line")
        if word != "STUB":
            r.flush_pending()
            r.region_lines = []
        r.state, r.opened_at, r.stub_indent, r.stub_body, r.stub_allowed = word, lineno, m["indent"], [], False
        return
    if r.state != word:
        expected = f"; the open region is {r.state} (line {r.opened_at})" if r.state else ""
        raise TagError(where, lineno, f"'END {word}' has no matching 'BEGIN {word}'{expected}")
    if word == "SOLUTION":
        r.pending_stub = [(s, r.opened_at) for s in default_stub(kind, lines, i, r.stub_indent)]
        r.stub_allowed = True
    elif word == "STUB":
        r.pending_stub = None
        r.student.extend(r.stub_body)
        last = r.regions.pop()
        r.regions.append(Region(last.kind, last.lines, tuple(r.stub_body)))
    if word != "STUB":
        r.regions.append(Region(word, tuple(r.region_lines)))
    r.state = None


def _on_line(r: _Regions, line: str, kind: Kind, lineno: int) -> None:
    if r.allow_next:
        r.shown.add(lineno)
        r.allow_next = False
    if r.state is None:
        r.stub_allowed = False
        r.flush_pending()
        one = ONE_LINE.match(line) if kind in ("python", "yaml", "markdown") else None
        if one:
            r.solution.append((one["body"], lineno))
            r.regions.append(Region("ONE", ((one["body"], lineno),)))
            replacement = one_line_student(one["body"], kind)
            if replacement is not None:
                r.student.append((replacement, lineno))
            return
        r.student.append((line, lineno))
        r.solution.append((line, lineno))
    elif r.state in ("SOLUTION", "HIDDEN"):
        r.solution.append((line, lineno))
        r.region_lines.append((line, lineno))
    elif r.state == "STUB":
        r.stub_body.append((line, lineno))


def split_text(text: str, kind: Kind, where: str, line_offset: int = 0) -> Split:
    """Split a tagged text into its student and solution versions."""
    if kind == "python":
        _refuse_marker_in_string(text, where, line_offset)
    lines = [markers.translate(line) for line in text.split("\n")]
    r = _Regions()
    for i, line in enumerate(lines):
        lineno = i + 1 + line_offset
        word = _allow_word(line, where, lineno)
        if word is not None:  # a directive for the leak scan: in neither tree
            r.allows.append((lineno, word))
            r.allow_next = r.allow_next or word == "shown"
            continue
        m = _kit_marker(line, where, lineno)
        if m is not None:
            _on_marker(r, m, kind, lines, i, where, lineno)
        else:
            _on_line(r, line, kind, lineno)
    if r.state is not None:
        raise TagError(where, r.opened_at, f"'BEGIN {r.state}' is never closed (add '# END {r.state}')")
    r.flush_pending()
    return Split("\n".join(s for s, _ in r.student), "\n".join(s for s, _ in r.solution), tuple(r.regions),
                 tuple(n for _, n in r.student), tuple(n for _, n in r.solution), tuple(r.allows),
                 frozenset(r.shown))
