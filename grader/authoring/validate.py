"""Static validation of a built assignment: every instructor mistake that can be found without
running code, found in a second, before any test runs. `build` (and so `check` and `release`)
fails on any of them, naming the file in `assignments/` and its line:

* assignment.yaml, rubric.yaml and answer_key.yaml load (totals add up, known keys, ...);
* what they name exists: the notebook, student files, modules and public tests in the student
  tree; the rubric's checks, probes, tests, exercises and answers (`grading.targets`);
* every answer id of the key is asked in the notebook's `answers` cell, and vice versa;
* every generated `.py` file and notebook code cell compiles, in both trees;
* nothing students get imports from `hidden/` (a public file, a test, a locked cell);
* no line of a generated student file still looks like a marker (the last guard).
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path, PurePosixPath

import yaml

from grader.authoring import markers
from grader.authoring.notebook_tags import cell_splits, load_notebook
from grader.authoring.tags import TagError
from grader.config import ConfigError, load_assignment, load_rubric
from grader.grading import targets as tg
from grader.grading.answers import AnswerFormatError, AnswerKeyError, extract_answer_block, load_key, parse_answers

MAGIC = re.compile(r"^([ \t]*)[%!].*$", re.MULTILINE)


def validate(built, folder: Path, shown: str) -> list[TagError]:
    """Every static problem of one built assignment (a `build.BuiltAssignment`), as located errors."""
    v = _Validator(built, folder, shown)
    v.marker_guard()
    v.python_compiles()
    v.notebook_cells()
    v.configs()
    return v.errors


class _Validator:
    def __init__(self, built, folder: Path, shown: str):
        self.built, self.folder, self.shown = built, folder, shown
        self.errors: list[TagError] = []

    def error(self, rel: str, line: int | None, message: str, cell: int | None = None) -> None:
        self.errors.append(TagError(f"{self.shown}/{rel}", line, message, cell))

    def source_line(self, rel: str, line: int, tree: str = "student") -> int:
        maps = self.built.lines.get(rel)
        if not maps:
            return line
        lines = maps[0] if tree == "student" else maps[1]
        return lines[line - 1] if 0 < line <= len(lines) else line

    # ------------------------------------------------------------------ generated files

    def marker_guard(self) -> None:
        """The last guard: no line of any generated student file may still look like a marker."""
        for rel, data in sorted(self.built.student.items()):
            if rel.endswith(".ipynb"):
                self._notebook_guard(rel, data)
                continue
            if b"\0" in data:
                continue
            for n, line in enumerate(data.decode("utf-8", errors="replace").split("\n"), 1):
                if markers.marker_like(line):
                    tagged = rel in self.built.lines
                    why = ("" if tagged else f" ({PurePosixPath(rel).suffix or 'this'} files are copied as they "
                           "are; markers work in .py, .yaml, .md and .ipynb files)")
                    self.error(rel, self.source_line(rel, n), f"{line.strip()!r} looks like a marker and would reach "
                               f"students{why}: remove it, or keep the file under hidden/")

    def _notebook_guard(self, rel: str, data: bytes) -> None:
        for cell in json.loads(data).get("cells", []):
            tail = str(cell.get("id", "")).rsplit("-", 1)[-1]  # ids end in the source cell's index
            index = int(tail) if tail.isdigit() else None
            for n, line in enumerate("".join(cell.get("source", [])).split("\n"), 1):
                if markers.marker_like(line):
                    self.error(rel, n, f"{line.strip()!r} looks like a marker and would reach students: remove it",
                               index)

    def python_compiles(self) -> None:
        for tree, files in (("student", self.built.student), ("solution", self.built.solution)):
            for rel, data in sorted(files.items()):
                if not rel.endswith(".py"):
                    continue
                self._compile(data.decode("utf-8", errors="replace"), rel, tree,
                              lambda n, rel=rel, tree=tree: self.source_line(rel, n, tree))
                if tree == "student":
                    self._hidden_imports(data.decode("utf-8", errors="replace"), rel,
                                         lambda n, rel=rel: self.source_line(rel, n))

    def _compile(self, text: str, rel: str, tree: str, to_source, cell: int | None = None) -> bool:
        try:
            compile(text, rel, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
        except SyntaxError as exc:
            line = to_source(exc.lineno or 1)
            what = "what students get" if tree == "student" else "the solution"
            hint = (" (a solution region was replaced by a stub here: does the region cover whole statements?)"
                    if tree == "student" else "")
            self.error(rel, line, f"the {tree} version ({what}) does not compile: {exc.msg}{hint}", cell)
            return False
        return True

    def _hidden_imports(self, text: str, rel: str, to_source, cell: int | None = None) -> None:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return
        for node in ast.walk(tree):
            name = _hidden_import(node)
            if name:
                where = "this cell" if cell is not None else "this file"
                self.error(rel, to_source(node.lineno), f"{where} reaches students but uses {name!r} from hidden/, "
                           "which only the solution tree and the grader have: every student's copy would fail "
                           "here. Use what students have, or move it into a BEGIN/END HIDDEN region, a "
                           "'hidden' cell or the hidden/ folder", cell)

    # ------------------------------------------------------------------ notebooks

    def notebook_cells(self) -> None:
        for rel in sorted(r for r in self.built.solution if r.endswith(".ipynb")):
            text = (self.folder / rel).read_text(encoding="utf-8")
            for c in cell_splits(load_notebook(text, rel), f"{self.shown}/{rel}"):
                if c.kind == "python":
                    self._cell_code(rel, c)
                elif c.role.answers:
                    for tree, source in (("solution", c.split.solution), ("student", c.student)):
                        try:
                            parse_answers(extract_answer_block(source or "") or "", "the answers block")
                        except AnswerFormatError as exc:
                            self.error(rel, None, f"the {tree} version of this answers cell: {exc}", c.index)

    def _cell_code(self, rel: str, c) -> None:
        if c.split.solution.lstrip().startswith("%%"):
            return  # a cell magic: not Python
        for tree, text, lines in (("solution", c.split.solution, c.split.solution_lines),
                                  ("student", c.student, c.split.student_lines)):
            if text is None:
                continue
            code = MAGIC.sub(lambda m: m[1] + "pass", text)
            to_source = _mapper(lines)
            if self._compile(code, rel, tree, to_source, c.index) and tree == "student":
                self._hidden_imports(code, rel, to_source, c.index)

    # ------------------------------------------------------------------ configuration and targets

    def configs(self) -> None:
        config = self._load("assignment.yaml", lambda: load_assignment(self.folder))
        rubric = self._load("rubric.yaml", lambda: load_rubric(self.folder))
        for rel, data in sorted(self.built.student.items()):
            if rel.endswith((".yaml", ".yml")):
                try:
                    yaml.safe_load(data.decode("utf-8", errors="replace"))
                except yaml.YAMLError as exc:
                    mark = getattr(exc, "problem_mark", None)
                    line = self.source_line(rel, mark.line + 1) if mark else None
                    self.error(rel, line, f"the student version is not valid YAML ({getattr(exc, 'problem', exc)}): "
                                          "does a HIDDEN or SOLUTION region cut through a block?")
        if config is None:
            return
        self._config_targets(config)
        key = self._load("answer_key.yaml", lambda: load_key(self.folder / "answer_key.yaml",
                                                             variants=config.variants)) \
            if (self.folder / "answer_key.yaml").is_file() else {}
        if rubric is not None and key is not None and config.notebook in self.built.solution:
            self._rubric_targets(config, rubric, key)

    def _load(self, rel: str, load):
        try:
            return load()
        except (ConfigError, AnswerKeyError) as exc:
            text = (self.folder / rel).read_text(encoding="utf-8") if (self.folder / rel).is_file() else ""
            if isinstance(exc, ConfigError):
                message = f"{exc.where}: {exc.message}" if exc.where else exc.message
                self.error(rel, locate(exc, text), message + (f" ({exc.fix})" if exc.fix else ""))
            else:
                message = str(exc).replace(f"{self.folder / rel}: ", "").replace(str(self.folder / rel), rel)
                self.error(rel, (yaml_line(text, list(exc.key)) if exc.key else None) or (1 if text else None),
                           message)
            return None

    def _config_targets(self, config) -> None:
        text = (self.folder / "assignment.yaml").read_text(encoding="utf-8")
        student = self.built.student
        wanted = [("notebook", config.notebook), ("public_tests", config.public_tests)]
        wanted += [("student_files", f) for f in config.student_files]
        for key, rel in wanted:
            if rel not in student:
                hidden = rel in self.built.solution
                self.error("assignment.yaml", yaml_line(text, [key]) or None,
                           f"{key}: {rel!r} " + ("is hidden from students (it is under hidden/ or starts with _ or .)"
                                                 if hidden else f"does not exist in {self.shown}/"))
        for module in config.modules:
            base = module.replace(".", "/")
            if f"{base}.py" not in student and f"{base}/__init__.py" not in student:
                self.error("assignment.yaml", yaml_line(text, ["modules"]) or None,
                           f"modules: {module!r} is neither {base}.py nor {base}/__init__.py in the student tree")

    def _rubric_targets(self, config, rubric, key) -> None:
        sol = self.built.solution
        try:
            checks = {}  # verdicts.py may import checks from other hidden modules: read them all
            for rel in sorted(r for r in sol if r.startswith("hidden/") and r.endswith(".py")):
                checks.update(tg.declared_checks(sol[rel].decode()))
            probes = tg.probe_signatures(sol.get(tg.PROBES, b"").decode())
            tests = tg.test_functions(self.built.student.get(config.public_tests, b"").decode())
        except SyntaxError:
            return  # reported by the compile check
        exercises, free, asked = tg.notebook_targets(load_notebook(sol[config.notebook].decode(), config.notebook))
        found = tg.target_problems(rubric, tg.Targets(checks, probes, tests, exercises, free, frozenset(key), asked,
                                                      config.public_tests))
        rubric_text = (self.folder / "rubric.yaml").read_text(encoding="utf-8")
        for p in found:
            if p.item:
                line = yaml_item_line(rubric_text, p.item, p.field, p.name)
                self.error("rubric.yaml", line, f"item {p.item!r}: {p.message}")
            elif p.file == "notebook":
                self.error(config.notebook, None, p.message, p.cell)
            else:
                text = (self.folder / p.file).read_text(encoding="utf-8") if (self.folder / p.file).is_file() else ""
                pattern = rf"^\s*def\s+{re.escape(p.name)}\b" if p.file == tg.VERDICTS else rf"^{re.escape(p.name)}\s*:"
                self.error(p.file, _first_line(text, pattern), p.message)


def _mapper(lines: tuple[int, ...]):
    """Output line -> source line, through a `Split` line map."""
    return lambda n: lines[n - 1] if 0 < n <= len(lines) else n


def _hidden_import(node: ast.AST) -> str:
    """The hidden module a node imports ("" if none): `import hidden.x`, `from hidden import x`,
    `from .hidden import x`, `importlib.import_module("hidden.x")`, `sys.path.append("hidden")`."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom):
        names = [node.module or ""] if node.module else [a.name for a in node.names]
    elif isinstance(node, ast.Call) and node.args and isinstance(node.args[-1], ast.Constant) \
            and isinstance(node.args[-1].value, str):
        fn = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if fn in ("import_module", "__import__", "append", "insert", "spec_from_file_location", "run_path"):
            names = [node.args[-1].value]
    for name in names:
        if "hidden" in re.split(r"[./\\]", name):
            return name
    return ""


def _first_line(text: str, pattern: str) -> int | None:
    m = re.search(pattern, text, re.MULTILINE)
    return text[: m.start()].count("\n") + 1 if m else None


def _node(text: str):
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None


def _child(node, key):
    if isinstance(node, yaml.MappingNode):
        return next(((k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key), None)
    return None


def yaml_line(text: str, keys: list[str]) -> int | None:
    """Line of the (nested) mapping key ``keys`` in a YAML text, or None."""
    node, line = _node(text), None
    for key in keys:
        pair = _child(node, key)
        if pair is None:
            return line
        line, node = pair[0].start_mark.line + 1, pair[1]
    return line


def yaml_item_line(text: str, item_id: str, field: str = "", name: str = "") -> int | None:
    """Line of rubric item ``item_id`` (of its ``field``, of ``name`` in that list), or None."""
    items = _child(_node(text), "items")
    for item in items[1].value if items and isinstance(items[1], yaml.SequenceNode) else []:
        pair = _child(item, "id")
        if pair is None or pair[1].value != item_id:
            continue
        line = item.start_mark.line + 1
        fpair = _child(item, field) if field else None
        if fpair is None:
            return line
        for value in fpair[1].value if isinstance(fpair[1], yaml.SequenceNode) else []:
            if getattr(value, "value", None) == name:
                return value.start_mark.line + 1
        return fpair[0].start_mark.line + 1
    return None


def locate(exc: ConfigError, text: str) -> int | None:
    """The line of ``text`` (the file's YAML) that a configuration error is about, from its fields."""
    if exc.line:
        return exc.line
    key = list(exc.key)
    if exc.item:
        field = next((k for k in key[2:] if isinstance(k, str)), "")
        return yaml_item_line(text, exc.item, field)
    if len(key) >= 2 and key[0] == "items" and isinstance(key[1], int):
        items = _child(_node(text), "items")
        if items and isinstance(items[1], yaml.SequenceNode) and key[1] < len(items[1].value):
            node = items[1].value[key[1]]
            pair = _child(node, key[2]) if len(key) > 2 else None
            return (pair[0] if pair else node).start_mark.line + 1
    if key:
        return yaml_line(text, key) or yaml_line(text, key[:1])
    return 1 if text else None
