"""The tag syntax: one pure transform from a tagged source text to its two versions.

``split_text(text, kind, where)`` returns ``Split(student, solution, secret)``; the
notebook layer (`notebook_tags`) applies it cell by cell. Every mistake raises a
`TagError` that names the file, the line and (for notebooks) the cell. See docs/tags.md.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Literal

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

MARKDOWN_STUB = "_Type your answer here._"
MIN_SECRET_CHARS = 12  # shorter lines (`return y`, `pass`, `x = 1`) are too common to prove a leak


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
class Split:
    """The two versions of one text, and the lines that must never reach students.
    ``student_lines``/``solution_lines``: the source line (1-based, offset included) of each
    output line, so an error found in a generated file can name the line the instructor edits."""

    student: str
    solution: str
    secret: frozenset[str]
    student_lines: tuple[int, ...] = ()
    solution_lines: tuple[int, ...] = ()


def secret_lines(lines: Iterable[str], *, code_only: bool = False) -> set[str]:
    """The one rule for what the leak scan looks for: stripped lines of at least MIN_SECRET_CHARS
    characters; with ``code_only``, comment and docstring-delimiter lines are left out too."""
    found = set()
    for line in lines:
        text = line.strip()
        if len(text) >= MIN_SECRET_CHARS and not (code_only and text.startswith(("#", "<!--", '"""', "'''"))):
            found.add(text)
    return found


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
                or markers.foreign_problem(line))


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
    hidden_or_solution: list = field(default_factory=list)
    public: set = field(default_factory=set)
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
    r.state = None


def _on_line(r: _Regions, line: str, kind: Kind, lineno: int) -> None:
    if r.state is None:
        r.stub_allowed = False
        r.flush_pending()
        one = ONE_LINE.match(line) if kind in ("python", "yaml", "markdown") else None
        if one:
            r.solution.append((one["body"], lineno))
            r.hidden_or_solution.append(one["body"])
            replacement = one_line_student(one["body"], kind)
            if replacement is not None:
                r.student.append((replacement, lineno))
            return
        r.student.append((line, lineno))
        r.solution.append((line, lineno))
        r.public.add(line.strip())
    elif r.state in ("SOLUTION", "HIDDEN"):
        r.solution.append((line, lineno))
        r.hidden_or_solution.append(line)
    elif r.state == "STUB":
        r.stub_body.append((line, lineno))
        r.public.add(line.strip())


def split_text(text: str, kind: Kind, where: str, line_offset: int = 0) -> Split:
    """Split a tagged text into its student and solution versions."""
    if kind == "python":
        _refuse_marker_in_string(text, where, line_offset)
    lines = [markers.translate(line) for line in text.split("\n")]
    r = _Regions()
    for i, line in enumerate(lines):
        lineno = i + 1 + line_offset
        m = _kit_marker(line, where, lineno)
        if m is not None:
            _on_marker(r, m, kind, lines, i, where, lineno)
        else:
            _on_line(r, line, kind, lineno)
    if r.state is not None:
        raise TagError(where, r.opened_at, f"'BEGIN {r.state}' is never closed (add '# END {r.state}')")
    r.flush_pending()
    secret = frozenset(secret_lines(r.hidden_or_solution, code_only=True) - r.public)
    return Split("\n".join(s for s, _ in r.student), "\n".join(s for s, _ in r.solution), secret,
                 tuple(n for _, n in r.student), tuple(n for _, n in r.solution))
