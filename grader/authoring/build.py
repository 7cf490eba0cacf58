"""Generate `student_template/<name>/` and `solutions/<name>/` from `assignments/<name>/`.

The pipeline is: read every source file -> split it (tags.py / notebook_tags.py) ->
hold both trees in memory -> only when every file of every assignment split cleanly,
swap the new trees in. A failed build therefore writes nothing.
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from grader.authoring.notebook_tags import CellSplit, split_notebook
from grader.authoring.tags import Split, TagError, split_text
from grader.errors import LrkitError, UsageError

log = logging.getLogger(__name__)

TEXT_KINDS = {".py": "python", ".yaml": "yaml", ".yml": "yaml", ".toml": "yaml", ".cfg": "yaml",
              ".sh": "yaml", ".md": "markdown"}
TREES = ("student_template", "solutions")


class BuildError(LrkitError):
    """One or more tagging mistakes; nothing was written."""

    def __init__(self, errors: list[TagError]):
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


@dataclass
class BuiltAssignment:
    """Both generated trees of one assignment, in memory: relative path -> bytes. ``lines`` maps
    each tagged text file to (student, solution) source-line maps, so that an error found in a
    generated file names the line of `assignments/<name>/...` the instructor edits. ``splits`` and
    ``cells`` keep how each tagged text file and each notebook cell was split (for the leak scan)."""

    name: str
    student: dict[str, bytes] = field(default_factory=dict)
    solution: dict[str, bytes] = field(default_factory=dict)
    lines: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=dict)
    source: str = ""  # the assignment folder as shown in messages: assignments/<name>
    splits: dict[str, Split] = field(default_factory=dict)
    cells: dict[str, list[CellSplit]] = field(default_factory=dict)


def is_hidden(rel: PurePosixPath) -> bool:
    return "hidden" in rel.parts


def is_ignored(rel: PurePosixPath) -> bool:
    return any(part.startswith((".", "_")) and part != "__init__.py" for part in rel.parts)


def source_files(folder: Path) -> list[PurePosixPath]:
    files = []
    for path in sorted(folder.rglob("*")):
        rel = PurePosixPath(path.relative_to(folder).as_posix())
        if path.is_file() and not is_ignored(rel):
            files.append(rel)
    return files


def build_assignment(folder: Path, root: Path | None = None, *, validate: bool = True) -> BuiltAssignment:
    """Split every file of one assignment, then validate the result statically
    (`authoring.validate`); collect all errors before failing."""
    shown = folder.relative_to(root) if root and folder.is_relative_to(root) else folder
    built = BuiltAssignment(folder.name, source=str(shown))
    errors: list[TagError] = []
    for rel in source_files(folder):
        data = (folder / rel).read_bytes()
        where = f"{shown}/{rel}"
        try:
            student, solution, split = split_source(rel, data, where)
        except TagError as exc:
            errors.append(exc)
            continue
        if isinstance(split, Split):
            built.splits[str(rel)] = split
            built.lines[str(rel)] = (split.student_lines, split.solution_lines)
        elif split is not None:
            built.cells[str(rel)] = split
        built.solution[str(rel)] = solution
        if not is_hidden(rel):
            built.student[str(rel)] = student
    if not errors and validate:
        from grader.authoring.leaks import leak_problems
        from grader.authoring.validate import validate as static_checks

        errors = static_checks(built, folder, str(shown))
        errors += leak_problems(built)
    if errors:
        raise BuildError(errors)
    return built


def readable_text(rel: str, data: bytes) -> str:
    """The text a person reads in a generated file: for notebooks, the cells' sources."""
    text = data.decode("utf-8", errors="replace")
    if rel.endswith(".ipynb"):
        text = "\n".join("".join(c.get("source", "")) for c in json.loads(text).get("cells", []))
    return text


def split_source(rel: PurePosixPath, data: bytes, where: str):
    """(student bytes, solution bytes, how it was split) of one source file: a `Split` for a tagged
    text file, the cells' splits for a notebook, None for a file copied as it is."""
    if rel.suffix == ".ipynb":
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TagError(where, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        student, solution, cells = split_notebook(text, where)
        ran = [c.index for c in cells if c.cell.get("outputs")]
        if ran:  # never shipped (both trees get empty outputs), but the author should know what was dropped
            log.info("%s: cell(s) %s hold outputs from a run; they are dropped from both trees (a solution's output "
                     "never reaches students)", where, ", ".join(map(str, ran[:8])) + (", ..." if len(ran) > 8 else ""))
        return student.encode(), solution.encode(), cells
    kind = TEXT_KINDS.get(rel.suffix)
    if kind is None:
        return data, data, None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TagError(where, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    split = split_text(text, kind, where)
    return split.student.encode(), split.solution.encode(), split


def assignment_folders(root: Path, names: list[str] | None = None) -> list[Path]:
    base = root / "assignments"
    folders = sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    if names:
        known = {p.name: p for p in folders}
        missing = [n for n in names if n not in known]
        if missing:
            raise UsageError(f"unknown assignment {missing[0]!r}; known: {', '.join(known) or '(none)'}")
        folders = [known[n] for n in names]
    return folders


def build_all(root: Path, names: list[str] | None = None) -> list[BuiltAssignment]:
    built, errors = [], []
    for folder in assignment_folders(root, names):
        try:
            built.append(build_assignment(folder, root))
        except BuildError as exc:
            errors.extend(exc.errors)
    if errors:
        raise BuildError(errors)
    return built


def _tree_files(built: BuiltAssignment, tree: str) -> dict[str, bytes]:
    return built.student if tree == "student_template" else built.solution


def write_trees(root: Path, built: list[BuiltAssignment]) -> None:
    """Swap in the new trees: stage everything first, then rename, so a failure mid-way
    leaves either the old or the new tree in place, never a half-written one."""
    for tree in TREES:
        (root / tree).mkdir(exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=root))
    try:
        for b in built:
            for tree in TREES:
                for rel, data in _tree_files(b, tree).items():
                    path = staging / tree / b.name / rel
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
        for b in built:
            for tree in TREES:
                target = root / tree / b.name
                old = staging / f"old-{tree}-{b.name}"
                if target.exists():
                    os.replace(target, old)
                os.replace(staging / tree / b.name, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def stale_files(root: Path, built: list[BuiltAssignment]) -> list[str]:
    """Files whose committed bytes differ from a fresh build (missing, changed or extra)."""
    stale = []
    for b in built:
        for tree in TREES:
            want = _tree_files(b, tree)
            folder = root / tree / b.name
            have = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} \
                if folder.exists() else set()
            have = {h for h in have if not is_ignored(PurePosixPath(h))}
            for rel in sorted(set(want) | have):
                path = f"{tree}/{b.name}/{rel}"
                if rel not in have:
                    stale.append(f"{path} (missing)")
                elif rel not in want:
                    stale.append(f"{path} (not generated by the build; remove it)")
                elif (folder / rel).read_bytes() != want[rel]:
                    stale.append(f"{path} (differs)")
    return stale


def build(root: Path, names: list[str] | None = None, check: bool = False) -> int:
    """`tasks.py build [--check] [NAME...]`: 0 on success, 1 on stale trees or tag errors."""
    try:
        built = build_all(root, names)
    except BuildError as exc:
        for error in exc.errors:
            log.error("%s", error)
        log.error("build failed: %d error(s); nothing was written", len(exc.errors))
        log.debug("where the build stopped", exc_info=exc)
        return 1
    if check:
        stale = stale_files(root, built)
        for line in stale:
            log.error("stale: %s", line)
        if stale:
            log.error("the committed trees drift from assignments/: run 'python tasks.py build' and commit")
            return 1
        log.info("generated trees are in sync (%d assignment(s))", len(built))
        return 0
    write_trees(root, built)
    for b in built:
        log.info("built %s: %d student files, %d solution files", b.name, len(b.student), len(b.solution))
    return 0
