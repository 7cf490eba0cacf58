"""What of a submission is compared with the others: its code (the student's .py files and the notebook's code
cells, magics left out) and its free-text answers, read from the submission itself, never run.

A submission is hostile input: it is unpacked by the grader's own intake (the same limits as grading: links,
bombs, sizes, only the assignment's files), its notebook read by the same hostile-JSON reader, and each text
cut at `MAX_CHARS` (a note says so). The template's own texts, read the same way, are what every student got:
`without_template` keeps of a submission's code only the lines that are not the template's (whatever their
indentation), so two students are never alike for what they were given, nor for where their own code meets
it; `grader/integrity/similarity.py` then also takes away the template's k-grams (template code re-typed).
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from grader.bundle import IDENTITY
from grader.config import AssignmentConfig
from grader.grading.execute import NotebookError, read_notebook
from grader.grading.intake import unpack_any
from grader.grading.notebook import answer_id_of, cell_source
from grader.grading.unpack import SubmissionError

MAX_CHARS = 200_000  # of one submission's code: far above any honest solution, cheap to fingerprint
MAX_ANSWER_CHARS = 5_000
PLACEHOLDER = "_Type your answer here._"
_MAGIC = re.compile(r"^\s*(%|!)")  # IPython line/cell magics and shell escapes
_HELP = re.compile(r"^\s*[\w.]+\?{1,2}\s*$")  # `obj?`, `obj??`


@dataclass(frozen=True)
class Sources:
    """The texts of one submission (or of the template) that similarity compares."""

    name: str  # the submission's folder in the batch output ("" for the template)
    code: str  # its .py files and code cells, each after a `# ---- <where>` line
    answers: tuple[tuple[str, str], ...]  # (free-text answer id, text), in notebook order
    notes: tuple[str, ...] = ()  # what was left out, and why

    def answer(self, answer_id: str) -> str:
        return dict(self.answers).get(answer_id, "")


def without_magics(source: str) -> str:
    """A code cell's source without IPython magics, shell escapes and help lines (they are not Python)."""
    return "\n".join(line for line in source.splitlines() if not _MAGIC.match(line) and not _HELP.match(line))


def answer_text(source: str) -> str:
    """The student's words in an `answer:<id>` cell: its first line (the "**Answer:**" prompt) and the template's
    placeholder taken away."""
    body = source.split("\n", 1)[1] if "\n" in source else ""
    return body.replace(PLACEHOLDER, "").strip()[:MAX_ANSWER_CHARS]


def notebook_parts(nb: dict) -> tuple[list[tuple[str, str]], list[tuple[str, str]], str]:
    """(code cells as (where, source), free-text answers as (id, text), every other Markdown cell's text)."""
    code, answers, prose = [], [], []
    for n, cell in enumerate(nb.get("cells", [])):
        source = cell_source(cell)
        if cell.get("cell_type") == "code":
            code.append((f"cell {n + 1}", without_magics(source)))
        elif answer_id_of(cell):
            answers.append((answer_id_of(cell), answer_text(source)))
        elif cell.get("cell_type") == "markdown":
            prose.append(source)
    return code, answers, "\n".join(prose)


HEADING = "# ---- "  # the line before each file and cell in `Sources.code`


def _joined(parts: list[tuple[str, str]]) -> str:
    return "".join(f"{HEADING}{where}\n{text.rstrip()}\n" for where, text in parts if text.strip())


def line_keys(line: str) -> set[str]:
    """What a line is compared as: without any whitespace, and also without a trailing comment (so re-indenting,
    re-spacing or dropping a comment does not make a template line the student's own)."""
    bare = re.sub(r"\s+", "", line)
    code = line.split("#", 1)[0]
    keys = {bare}
    if "#" in line and code.count('"') % 2 == 0 and code.count("'") % 2 == 0:
        keys.add(re.sub(r"\s+", "", code))
    return keys - {""}


def without_template(sources: Sources, template: Sources) -> Sources:
    """``sources`` with only the student's own code: every line that is a line of the template's code (compared
    as `line_keys`) is left out; headings stay, a heading with nothing of its own under it goes."""
    given = set().union(*(line_keys(line) for line in template.code.splitlines()))
    kept: list[str] = []
    for line in sources.code.splitlines():
        if line.startswith(HEADING):
            if kept and kept[-1].startswith(HEADING):
                kept.pop()
            kept.append(line)
        elif line_keys(line) and not line_keys(line) & given:
            kept.append(line)
    if kept and kept[-1].startswith(HEADING):
        kept.pop()
    return dataclasses.replace(sources, code="".join(line + "\n" for line in kept))


def read_tree(root: Path, files: list[str], config: AssignmentConfig, name: str) -> Sources:
    """The texts of a tree holding ``files`` (relative paths): its .py files, in path order, then the notebook."""
    parts: list[tuple[str, str]] = []
    answers: list[tuple[str, str]] = []
    notes: list[str] = []
    for rel in sorted(f for f in files if f.endswith(".py")):
        parts.append((rel, (root / rel).read_text(encoding="utf-8", errors="replace")))
    if config.notebook in files:
        try:
            nb = read_notebook((root / config.notebook).read_text(encoding="utf-8", errors="replace"),
                               config.notebook)
            cells, answers, _ = notebook_parts(nb)
            parts += [(f"{config.notebook}, {where}", text) for where, text in cells]
        except NotebookError as exc:
            notes.append(f"notebook not compared: {exc}")
    code = _joined(parts)
    if len(code) > MAX_CHARS:
        notes.append(f"only the first {MAX_CHARS:,} characters of {len(code):,} were compared")
        code = code[:MAX_CHARS]
    return Sources(name, code, tuple(answers), tuple(notes))


def read_submission(path: Path, name: str, config: AssignmentConfig, scratch: Path) -> Sources:
    """The texts of one handed-in submission (folder, .zip or notebook), unpacked into the empty ``scratch``."""
    try:
        unpacked = unpack_any(path, scratch, config)
    except SubmissionError as exc:
        return Sources(name, "", (), (f"not compared: {exc}",))
    files = [f for f in unpacked.files if f != IDENTITY and (unpacked.root / f).is_file()]
    return read_tree(unpacked.root, files, config, name)


def read_template(template: Path, config: AssignmentConfig) -> tuple[Sources, str]:
    """The template's texts (what every student got) and its notebook's Markdown (the questions, which students
    may quote)."""
    files = [p.relative_to(template).as_posix() for p in sorted(template.rglob("*")) if p.is_file()
             and not p.is_symlink() and "__pycache__" not in p.parts]
    sources = read_tree(template, files, config, "")  # all of its .py files: the public tests are given too
    prose = ""
    if config.notebook in files:
        prose = notebook_parts(read_notebook((template / config.notebook).read_text(encoding="utf-8"),
                                             config.notebook))[2]
    return sources, prose
