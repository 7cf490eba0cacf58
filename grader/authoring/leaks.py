"""The leak scan: nothing of the solution reaches students.

After the build split every file, every student-visible file and every notebook cell of the student
tree (its source, and its outputs, attachments and metadata; comments and docstrings included) is
compared with what the solution is:

* the lines of solution regions (`BEGIN/END SOLUTION`, a line ending in `# SOLUTION`, a `solution`
  cell, the model answer of an `answer:<id>` cell) and of HIDDEN regions and `hidden` cells;
* the hidden checks' code: every hidden file except `hidden/probes.py` (probes run beside the
  student's code, where it can read them; they hold no expected values by design);
* the values of the answer key's hidden entries, and the numbers of one-line Python solutions.

Lines are compared normalised (whitespace and quote style ignored, trailing comments dropped) and a
student line *containing* a solution line counts, so a hint quoting one line of a region, a commented-out
copy or a docstring example is caught. Lines too short or too common to prove anything (`return y`,
`pass`, an import, a signature, `torch.manual_seed(0)`, `fig, ax = plt.subplots(...)`) are not
compared (`code_key`). An exercise code cell with no solution region is reported too: students would
get it exactly as the author wrote it. Each finding is a build error naming the student file, cell and
line, and the source line the text came from. The author's way out is explicit, in the source:
`# allow: shown` on the line before a solution line students may see, `# allow: no-solution` in an
exercise cell that has nothing to write (docs/tags.md).
"""
from __future__ import annotations

import ast
import base64
import binascii
import json
import math
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

import yaml

from grader.authoring import markers
from grader.authoring.notebook_tags import CellSplit
from grader.authoring.tags import Region, Split, TagError

MIN_CODE_CHARS = 12  # normalised; `return y`, `x = 1`, `plt.show()` are too common to prove a leak
MIN_PROSE_CHARS = 20  # a sentence of a model answer or a Markdown solution
MIN_FIGURES = 3  # a hidden answer's number is looked for when written with at least this many figures
GRAM = 8  # the index's key length (at most MIN_CODE_CHARS)
NOT_SECRET = ("hidden/probes.py",)
TEXT_MIMES = ("text/", "application/json", "application/javascript", "image/svg+xml")
_STRING = re.compile(r"[rbuf]{0,2}(\"\"\"|'''|\"|')(?:\\.|(?!\1).)*\1", re.IGNORECASE)
_MD_NOISE = re.compile(r"<!--|-->|^\s*(?:#+|>+|[-*+]|\d+\.)\s+|[*_`]")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+")
_NUMBER = re.compile(r"(?<![\w.])[-−]?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
                     r"(?:\s*([kKMGTP]i?B|B|bytes?)\b)?")
_UNITS = {"B": 1, "byte": 1, "bytes": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15,
          "KiB": 2**10, "kiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50}


@dataclass(frozen=True)
class Secret:
    """A line of the solution, normalised (``key``) and as written (``text``), with where it is written."""

    key: str
    text: str
    origin: str  # "assignments/x/x.py:12", "assignments/x/x.ipynb: cell 3, line 2"
    what: str  # "a line of the solution region", ...
    fix: str  # how to say that students may see it
    home: tuple = ()  # (file, cell, source lines of its STUB): where the author chose to show it anyway
    prose: bool = False  # compared case-insensitively, Markdown emphasis ignored


@dataclass(frozen=True)
class Answer:
    """A hidden answer's value: one number (``unit``: a quantity in bytes) or a vector."""

    values: tuple[float, ...]
    quantity: bool
    text: str
    origin: str
    what: str


@dataclass(frozen=True)
class Place:
    """One piece of text students get: a line of a file or cell, or a cell's outputs/attachments/metadata."""

    rel: str
    cell: int | None
    line: int | None  # the source line it came from (file line, or line in the cell); None for a generated line
    part: str  # "" (the source), "outputs", "attachments", "metadata"
    text: str


def normalise(text: str) -> str:
    """The one comparison form: NFKC, no whitespace, one quote style."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).replace("'", '"')


def prose_form(text: str) -> str:
    return normalise(_MD_NOISE.sub(" ", text)).casefold()


# ---------------------------------------------------------------------------------------- what counts

def drop_comment(line: str) -> str:
    """The code of a Python line without its trailing comment (a `#` inside a string is kept)."""
    quote, i = "", 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif line.startswith(quote, i):
                i += len(quote) - 1
                quote = ""
        elif line.startswith(('"""', "'''"), i):
            quote = line[i:i + 3]
            i += 2
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return line[:i]
        i += 1
    return line


def code_key(line: str) -> str | None:
    """The normalised form of a line of code worth looking for, or None when it is too short, mostly text
    (a message, a docstring line), or too common to prove anything (imports, signatures, settings)."""
    code = drop_comment(line).strip()
    if not code or code.startswith(("#", "@", '"""', "'''")):
        return None
    key = normalise(code)
    if len(key) < MIN_CODE_CHARS or len(normalise(_STRING.sub('""', code))) < MIN_CODE_CHARS:
        return None
    return None if boilerplate(code) else key


def _parse(code: str) -> ast.Module | None:
    for text in (code, code + "\n    pass"):  # a block header (`for ...:`) needs a body
        try:
            return ast.parse(text)
        except SyntaxError:
            continue
    return None  # a fragment of a longer statement: judged by its length alone


def _literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp):
        return _literal(node.operand)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is None or _literal(k) for k in node.keys) and all(_literal(v) for v in node.values)
    return False


def _reference(node: ast.AST) -> bool:
    """A name, a dotted name or a literal (`x`, `x.shape`, `self.heads`, `(a, b)`)."""
    if isinstance(node, ast.Name) or _literal(node):
        return True
    if isinstance(node, ast.Attribute):
        return _reference(node.value)
    if isinstance(node, ast.Tuple):
        return all(_reference(e) for e in node.elts)
    return False


MODULES = frozenset({"torch", "np", "numpy", "plt", "matplotlib", "math", "nn", "F", "random", "os", "sys",
                     "time", "json", "pathlib", "Path", "itertools", "functools"})


def _module_call(node: ast.AST) -> bool:
    """A call of a function of a library module (`torch.zeros`, `plt.subplots`), not of the data."""
    func = node.func if isinstance(node, ast.Call) else None
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id in MODULES


def _setting(node: ast.AST) -> bool:
    """A fixed setting: a reference, or a call of a dotted name with literal arguments only
    (`torch.manual_seed(0)`, `plt.subplots(figsize=(6, 3))`, `torch.no_grad()`)."""
    if _reference(node):
        return True
    return (isinstance(node, ast.Call) and _reference(node.func) and all(_literal(a) for a in node.args)
            and all(_literal(k.value) for k in node.keywords))


def boilerplate(code: str) -> bool:
    """Is this one line of code something every solution and every lesson writes alike?"""
    tree = _parse(code)
    if tree is None or len(tree.body) != 1:
        return False
    node = tree.body[0]
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                         ast.Global, ast.Nonlocal, ast.Pass, ast.Break, ast.Continue)):
        return True  # imports, and signatures (public wherever the function is)
    if isinstance(node, ast.Return):
        return node.value is None or _reference(node.value)
    if isinstance(node, ast.Expr):
        return _setting(node.value)
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        # `fig, ax = plt.subplots(figsize=(6, 3))`, `y = x.shape`: settings; but a constant
        # (`EXPECTED = 0.1234`) or a method of the data (`total = x.sum(dim=-1)`) is the solution's own
        value = node.value
        if value is None or _literal(value):
            return False
        return _reference(value) or (_setting(value) and _module_call(value))
    if isinstance(node, ast.With):
        return all(_setting(item.context_expr) for item in node.items)
    return False


def prose_keys(line: str) -> list[str]:
    """The sentences of a line of prose worth looking for, normalised."""
    return [k for s in _SENTENCE.split(line.strip()) if len(k := prose_form(s)) >= MIN_PROSE_CHARS]


def yaml_key(line: str) -> str | None:
    text = line.split(" #", 1)[0].strip()
    if not text or text.startswith("#") or re.fullmatch(r"-?\s*[\w.\-]+:", text):
        return None
    key = normalise(text)
    return key if len(key) >= MIN_CODE_CHARS else None


# ---------------------------------------------------------------------------------------- the solution side

def _docstring_lines(text: str) -> set[int]:
    """Lines (1-based) inside multi-line strings of a Python text: prose, not code."""
    return {n for first, last in markers.string_spans(text) for n in range(first, last + 1)}


def _line_secrets(lines, *, kind: str, where, what: str, home: tuple = (), shown=frozenset(),
                  docstrings=frozenset(), prose_docstrings: bool = True) -> Iterator[Secret]:
    """Secrets of (text, source line) pairs; ``where(n)`` names source line n; ``kind``: python/yaml/markdown."""
    markdown_fix = kind == "markdown"
    for text, n in lines:
        if n in shown:
            continue
        if kind == "markdown" or (kind == "python" and n in docstrings):
            if kind == "python" and not prose_docstrings:
                continue
            keys, prose = prose_keys(text), True
        else:
            key = code_key(text) if kind == "python" else yaml_key(text)
            keys, prose = [key] if key else [], False
        fix = ("write '<!-- allow: shown -->' on the line above " if markdown_fix
               else "write '# allow: shown' on the line above ") + where(n)
        for key in keys:
            yield Secret(key, text.strip(), where(n), what, fix, home, prose)


def _file_secrets(src: str, rel: str, split: Split, kind: str) -> Iterator[Secret]:
    where = lambda n: f"{src}/{rel}:{n}"  # noqa: E731
    docstrings = _docstring_lines(split.solution) if kind == "python" else set()
    docstrings = {split.solution_lines[n - 1] for n in docstrings if 0 < n <= len(split.solution_lines)}
    if rel.startswith("hidden/") or "/hidden/" in f"/{rel}":
        if rel in NOT_SECRET:
            return
        pairs = list(zip(split.solution.split("\n"), split.solution_lines))
        yield from _line_secrets(pairs, kind=kind, where=where, what=f"a line of {rel}", shown=split.shown,
                                 docstrings=docstrings, prose_docstrings=False)
        return
    if rel == "answer_key.yaml":
        return  # its hidden entries are looked for by value (`answers`)
    for region in split.regions:
        home = (rel, None, frozenset(n for _, n in region.stub))
        yield from _line_secrets(region.lines, kind=kind, where=where, what=_region_what(region),
                                 home=home, shown=split.shown, docstrings=docstrings)


def _region_what(region: Region) -> str:
    return {"HIDDEN": "a line of the HIDDEN region", "ONE": "a one-line solution"}.get(
        region.kind, "a line of the solution region")


def _cell_secrets(src: str, rel: str, c: CellSplit) -> Iterator[Secret]:
    where = lambda n: f"{src}/{rel}: cell {c.index}, line {n}"  # noqa: E731
    split, kind = c.split, c.kind
    docstrings = _docstring_lines(split.solution) if kind == "python" else set()
    docstrings = {split.solution_lines[n - 1] for n in docstrings if 0 < n <= len(split.solution_lines)}
    pairs = list(zip(split.solution.split("\n"), split.solution_lines))
    if c.role.hidden or c.role.solution:
        what = "a line of the hidden cell" if c.role.hidden else "a line of the solution cell"
        yield from _line_secrets(pairs, kind=kind, where=where, what=what, shown=split.shown, docstrings=docstrings)
        return
    if c.role.answer_id:
        yield from _line_secrets(pairs[1:], kind="markdown", where=where, shown=split.shown,
                                 what=f"a line of the model answer of {c.role.answer_id!r}")
        return
    for region in split.regions:
        home = (rel, c.index, frozenset(n for _, n in region.stub))
        yield from _line_secrets(region.lines, kind="yaml" if c.role.answers else kind, where=where,
                                 what=_region_what(region), home=home, shown=split.shown, docstrings=docstrings)


def secrets(built) -> list[Secret]:
    """Every solution line the student tree must not show, from how the build split each file."""
    src = built.source or f"assignments/{built.name}"
    kinds = {".py": "python", ".md": "markdown"}
    found: list[Secret] = []
    for rel, split in sorted(built.splits.items()):
        kind = kinds.get("." + rel.rsplit(".", 1)[-1], "yaml")
        found += _file_secrets(src, rel, split, kind)
    for rel, cells in sorted(built.cells.items()):
        for c in cells:
            found += _cell_secrets(src, rel, c)
    return found


def split_secrets(split: Split, rel: str, kind: str = "python") -> frozenset[str]:
    """The solution lines (as written) of one split text file: what `secrets` takes from it."""
    return frozenset(s.text for s in _file_secrets("assignments/x", rel, split, kind))


def cell_secrets(cells: list[CellSplit], rel: str) -> frozenset[str]:
    """The solution lines (as written) of one split notebook's cells."""
    return frozenset(s.text for c in cells for s in _cell_secrets("assignments/x", rel, c))


def _numbers(value) -> tuple[float, ...] | None:
    values = value if isinstance(value, (list, tuple)) else [value]
    try:
        out = tuple(float(v) for v in values)
    except (TypeError, ValueError):
        return None
    return out if out and all(math.isfinite(v) for v in out) else None


def answers(built) -> list[Answer]:
    """The values of the answer key's hidden entries (those only the solution tree's key has), and the
    numbers of one-line Python solutions (`ratio = 781.25  # SOLUTION`)."""
    from grader.authoring.validate import yaml_line

    src = built.source or f"assignments/{built.name}"
    found = []
    split = built.splits.get("answer_key.yaml")
    if split is not None:
        solution, public = _yaml(split.solution), _yaml(built.student.get("answer_key.yaml", b"").decode())
        for entry_id, spec in solution.items():
            if entry_id in public or not isinstance(spec, dict):
                continue
            line = yaml_line(split.solution, [str(entry_id), "value"]) or yaml_line(split.solution, [str(entry_id)])
            source = split.solution_lines[line - 1] if line and line <= len(split.solution_lines) else line
            if source in split.shown or (source and source - 1 in split.shown):
                continue
            values = _key_values(spec)
            if values:
                found.append(Answer(values, spec.get("type") == "quantity", str(spec.get("value")),
                                    f"{src}/answer_key.yaml" + (f":{source}" if source else ""),
                                    f"the value of the hidden answer {entry_id!r}"))
    for rel, split in sorted(built.splits.items()):
        if rel.endswith(".py") and not rel.startswith("hidden/"):
            found += _one_line_values(f"{src}/{rel}", split)
    return found


def _yaml(text: str) -> dict:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def _key_values(spec: dict) -> tuple[float, ...] | None:
    value = spec.get("value")
    if spec.get("type") == "quantity" and isinstance(value, str):
        from grader.grading.answers.units import QuantityError, parse_quantity

        try:
            value = parse_quantity(value)
        except QuantityError:
            return None
    return _numbers(value) if spec.get("type") in ("number", "quantity", "vector") else None


def _one_line_values(where: str, split: Split) -> list[Answer]:
    found = []
    for region in split.regions:
        if region.kind != "ONE":
            continue
        (text, n), = region.lines
        if "=" not in text or n in split.shown:
            continue
        try:
            values = _numbers(ast.literal_eval(text.split("=", 1)[1].strip()))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if values:
            found.append(Answer(values, False, text.strip(), f"{where}:{n}", "the value of a one-line solution"))
    return found


# ---------------------------------------------------------------------------------------- the student side

def places(built) -> Iterator[Place]:
    """Every piece of text of the student tree, located at the source line it came from."""
    for rel, data in sorted(built.student.items()):
        if rel.endswith(".ipynb"):
            yield from _notebook_places(rel, data, built.cells.get(rel, []))
            continue
        if b"\0" in data:
            continue  # a binary file: nothing to read
        lines = built.lines.get(rel, ((), ()))[0]
        for n, text in enumerate(data.decode("utf-8", errors="replace").split("\n"), 1):
            yield Place(rel, None, lines[n - 1] if lines and n <= len(lines) else (None if lines else n), "", text)


def _notebook_places(rel: str, data: bytes, cells: list[CellSplit]) -> Iterator[Place]:
    try:
        nb = json.loads(data)
    except ValueError:
        return
    by_index = {c.index: c for c in cells}
    for cell in nb.get("cells", []):
        tail = str(cell.get("id", "")).rsplit("-", 1)[-1]  # ids end in the source cell's index
        index = int(tail) if tail.isdigit() else None
        c = by_index.get(index)
        lines = c.split.student_lines if c is not None and c.student == c.split.student else ()
        source = cell.get("source", "")
        for n, text in enumerate(("".join(source) if isinstance(source, list) else str(source)).split("\n"), 1):
            yield Place(rel, index, lines[n - 1] if n <= len(lines) else None, "", text)
        for part, texts in (("outputs", _output_texts(cell.get("outputs") or [])),
                            ("attachments", _attachment_texts(cell.get("attachments") or {})),
                            ("metadata", _strings(cell.get("metadata") or {}))):
            for text in texts:
                for line in text.split("\n"):
                    yield Place(rel, index, None, part, line)
    for text in _strings(nb.get("metadata") or {}):
        yield Place(rel, None, None, "metadata", text)


def _strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _output_texts(outputs: list) -> Iterator[str]:
    for out in outputs if isinstance(outputs, list) else []:
        if not isinstance(out, dict):
            continue
        for key in ("text", "ename", "evalue", "traceback"):
            yield from _strings(out.get(key))
        for mime, value in (out.get("data") or {}).items():
            if str(mime).startswith(TEXT_MIMES):
                yield from _strings(value)


def _attachment_texts(attachments: dict) -> Iterator[str]:
    for bundle in attachments.values() if isinstance(attachments, dict) else []:
        for mime, value in (bundle.items() if isinstance(bundle, dict) else []):
            if not str(mime).startswith(TEXT_MIMES):
                continue  # an image: nothing to read
            for text in _strings(value):
                try:
                    yield base64.b64decode(text, validate=False).decode("utf-8", errors="replace")
                except (binascii.Error, ValueError):
                    yield text


# ---------------------------------------------------------------------------------------- matching

class _Index:
    """Secrets by the first GRAM characters of their key: one pass over a student text finds every
    secret it contains."""

    def __init__(self, found: list[Secret]):
        self.by_gram: dict[tuple[bool, str], list[Secret]] = {}
        for s in found:
            self.by_gram.setdefault((s.prose, s.key[:GRAM]), []).append(s)

    def within(self, text: str) -> list[Secret]:
        hits: dict[int, Secret] = {}
        for prose, form in ((False, normalise(text)), (True, prose_form(text))):
            for i in range(len(form) - GRAM + 1):
                for s in self.by_gram.get((prose, form[i:i + GRAM]), ()):
                    if form.startswith(s.key, i):
                        hits.setdefault(id(s), s)
        return list(hits.values())


def secret_index(built) -> _Index:
    """Every solution line of one built assignment, ready to be looked for in a text (``.within(line)``)."""
    return _Index(secrets(built))


def _written(text: str) -> list[tuple[float, int, int, str]]:
    """Numbers as written in a text: (value, significant figures, decimals, unit)."""
    out = []
    for m in _NUMBER.finditer(text):
        digits = m[1].replace(",", "")
        mantissa = re.split(r"[eE]", digits)[0]
        figures = mantissa.replace(".", "").lstrip("0")
        if "." not in mantissa:
            figures = figures.rstrip("0")
        decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
        try:
            value = float(digits) * (-1 if m[0].startswith(("-", "−")) else 1)
        except ValueError:
            continue
        out.append((value, len(figures), decimals, m[2] or ""))
    return out


def _rounds_to(value: float, figures: int, written: float) -> bool:
    if value == 0 or not math.isfinite(value):
        return False
    rounded = float(f"{value:.{max(figures, 1) - 1}e}")
    return math.isclose(rounded, written, rel_tol=1e-9)


def shows_answer(text: str, answer: Answer) -> bool:
    """Does a text write ``answer`` (a number with enough figures, a quantity in any byte unit, a vector
    element by element at the precision it is written with)?"""
    written = _written(text)
    if len(answer.values) == 1:
        (want,) = answer.values
        for value, figures, _, unit in written:
            target = want / _UNITS[unit] if answer.quantity and unit in _UNITS else want
            if figures >= MIN_FIGURES and _rounds_to(target, figures, value):
                return True
        return False
    n = len(answer.values)
    for start in range(len(written) - n + 1):
        run = written[start:start + n]
        if sum(f for _, f, _, _ in run) >= 4 and all(
                math.isclose(round(want, d), value, rel_tol=1e-9, abs_tol=1e-12)
                for want, (value, _, d, _) in zip(answer.values, run)):
            return True
    return False


# ---------------------------------------------------------------------------------------- findings

def _where(src: str, place: Place, lines: list[int | None]) -> tuple[str, int | None, int | None]:
    """(file as shown, line, cell) of a group of places, for a `TagError`."""
    known = sorted({n for n in lines if n is not None})
    line = known[0] if known else None
    return f"{src}/{place.rel}", line, place.cell


def _leak_message(place: Place, lines: list[int | None], shown: str, what: str, origin: str, fix: str) -> str:
    known = sorted({n for n in lines if n is not None})
    also = f" (also on line{'s' * (len(known) > 2)} {', '.join(map(str, known[1:]))})" if len(known) > 1 else ""
    part = f"its {place.part} show" if place.part else "the student copy shows"
    return (f"{part} {shown[:100]!r}{also}, {what} at {origin}: students would get it. Take it out or tag it"
            f"; if students may see it, {fix}")


def leaks(built) -> list[TagError]:
    """One error per student file, cell and solution text that shows up in it."""
    src = built.source or f"assignments/{built.name}"
    index, values = _Index(secrets(built)), answers(built)
    groups: dict[tuple, list] = {}
    for place in places(built):
        if len(place.text.strip()) < 3:
            continue
        for s in index.within(place.text):
            home_file, home_cell, stub = s.home or (None, None, frozenset())
            if (home_file, home_cell) == (place.rel, place.cell) and place.line in stub:
                continue  # the region's own STUB block repeats a line of it on purpose
            groups.setdefault((place.rel, place.cell, place.part, s.origin.rsplit(":", 1)[0], s.what), []).append(
                (place, s.text, s.what, s.origin, s.fix))
        for a in values:
            if shows_answer(place.text, a):
                fix = f"write '# allow: shown' on the line above {a.origin}, or move the entry out of the HIDDEN region"
                groups.setdefault((place.rel, place.cell, place.part, a.origin, a.what), []).append(
                    (place, place.text.strip(), a.what, a.origin, fix))
    errors = []
    for found in groups.values():
        place, shown, what, origin, fix = found[0]
        lines = [p.line for p, *_ in found]
        file, line, cell = _where(src, place, lines)
        errors.append(TagError(file, line, _leak_message(place, lines, shown, what, origin, fix), cell))
    return errors


def exercise_problems(built) -> list[TagError]:
    """An exercise code cell without a solution region reaches students exactly as written; an
    `allow: no-solution` anywhere else allows nothing."""
    src = built.source or f"assignments/{built.name}"
    errors = []
    for rel, cells in sorted(built.cells.items()):
        for c in cells:
            allowed = [n for n, word in c.split.allows if word == "no-solution"]
            open_cell = (c.kind == "python" and c.role.exercise and not c.role.read_only and not c.role.solution
                         and not c.role.hidden and not any(r.kind in ("SOLUTION", "ONE") for r in c.split.regions))
            if open_cell and not allowed:
                errors.append(TagError(
                    f"{src}/{rel}", None, f"this exercise cell (exercise:{c.role.exercise}) has no solution region, "
                    "so students get it exactly as it is written here: put what students write between "
                    "'# BEGIN SOLUTION' and '# END SOLUTION' (or tag the cell 'solution'); if they have nothing "
                    "to write in it (it runs code they write elsewhere), add the line '# allow: no-solution'",
                    c.index))
            elif allowed and not open_cell:
                errors.append(TagError(f"{src}/{rel}", allowed[0], "'allow: no-solution' is for an exercise code "
                                       "cell without a solution region (not locked); this cell is not one: "
                                       "remove the line", c.index))
    for rel, split in sorted(built.splits.items()):
        for n, word in split.allows:
            if word == "no-solution":
                errors.append(TagError(f"{src}/{rel}", n, "'allow: no-solution' is for an exercise cell of a "
                                                          "notebook; in a file it allows nothing: remove the line"))
    return errors


def stub_problems(built) -> list[TagError]:
    """A STUB block that shows every line of the solution it replaces gives the solution away."""
    src = built.source or f"assignments/{built.name}"
    errors = []
    regions = [(f"{src}/{rel}", None, "python" if rel.endswith(".py") else "yaml", s.regions)
               for rel, s in sorted(built.splits.items())]
    regions += [(f"{src}/{rel}", c.index, c.kind, c.split.regions) for rel, cells in sorted(built.cells.items())
                for c in cells]
    for where, cell, kind, found in regions:
        for region in found:
            if region.kind != "SOLUTION" or not region.stub:
                continue
            key = code_key if kind == "python" else yaml_key
            wanted = {k for text, _ in region.lines if (k := key(text))}
            if wanted and wanted <= {k for text, _ in region.stub if (k := key(text))}:
                errors.append(TagError(where, region.stub[0][1], "the STUB block shows every line of the solution "
                                       f"region it replaces (lines {region.lines[0][1]}-{region.lines[-1][1]}): "
                                       "students would get the solution; write what they start from", cell))
    return errors


def leak_problems(built) -> list[TagError]:
    """Everything the leak scan finds in one built assignment (a `build.BuiltAssignment`)."""
    return exercise_problems(built) + stub_problems(built) + leaks(built)
