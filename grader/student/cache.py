"""`grade --local` re-runs only what changed.

The student loop is: edit, `grade --local`, read, edit again. Most edits touch one thing, so each
stage's result is kept in the assignment folder (`.lrkit-cache/`) under a content hash of what
the stage can depend on, and reused while that hash is the same:

* the notebook stage: the notebook's code cells (ids, tags, source: editing a markdown or
  answers cell does not re-run it), every other file of the folder the notebook could import or
  read (modules, data; not the public tests), the assignment's configuration, and the grader,
  Python and library versions;
* the public tests: every file of the folder except the notebook, and the same versions.

A reused stage says so in the report. Local runs are unofficial in any case; an official grade
never reads a cache.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import platform
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from grader.grading.execute import NotebookRun
from grader.grading.public_tests import TestCounts
from grader.grading.version import grader_version
from grader.results import CellOutcome, Figure

log = logging.getLogger(__name__)

CACHE_DIR = ".lrkit-cache"
SKIPPED = {CACHE_DIR, "grade-report", "__pycache__", ".git", ".ipynb_checkpoints", ".venv", "venv", "wheels"}
MAX_FILE_BYTES = 200_000_000  # a bigger file is hashed by size and mtime only


def _versions() -> str:
    found = [grader_version(), platform.python_version()]
    for name in ("torch", "numpy", "nbclient", "ipykernel", "matplotlib"):
        try:
            found.append(f"{name}={version(name)}")
        except PackageNotFoundError:
            found.append(f"{name}=none")
    return ";".join(found)


def _files(folder: Path, leave_out: set[str]) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED and not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = path.relative_to(folder).as_posix()
            if rel not in leave_out and not name.startswith(".") and not name.endswith((".pyc", ".zip")):
                out.append(path)
    return out


def _hash_files(digest, folder: Path, files: list[Path]) -> None:
    for path in files:
        rel = path.relative_to(folder).as_posix()
        st = path.stat()
        digest.update(rel.encode() + b"\0")
        if st.st_size > MAX_FILE_BYTES:
            digest.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
        else:
            digest.update(path.read_bytes())
        digest.update(b"\0")


def notebook_key(folder: Path, notebook: str, prepared: dict, tests: str) -> str:
    digest = hashlib.sha256(b"notebook\0" + _versions().encode())
    code = [(c.get("id"), c.get("metadata", {}).get("tags", []), c.get("source", ""))
            for c in prepared["cells"] if c.get("cell_type") == "code"]
    digest.update(json.dumps(code, sort_keys=True).encode())
    test_root = Path(tests).parts[0] if tests else ""
    others = [p for p in _files(folder, {notebook}) if not (test_root and p.relative_to(folder).parts[0] == test_root)]
    _hash_files(digest, folder, others)
    return digest.hexdigest()


def tests_key(folder: Path, notebook: str) -> str:
    digest = hashlib.sha256(b"tests\0" + _versions().encode())
    _hash_files(digest, folder, _files(folder, {notebook}))
    return digest.hexdigest()


class LocalCache:
    """The stage results of the last local runs of one assignment folder (at most one per stage)."""

    def __init__(self, folder: Path):
        self.dir = folder / CACHE_DIR

    def _load(self, stage: str, key: str) -> dict | None:
        try:
            data = json.loads((self.dir / f"{stage}.json").read_text())
        except (OSError, ValueError):
            return None
        return data.get("value") if isinstance(data, dict) and data.get("key") == key else None

    def _store(self, stage: str, key: str, value: dict) -> None:
        try:
            self.dir.mkdir(exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=self.dir, delete=False, suffix=".tmp") as fh:
                json.dump({"key": key, "value": value}, fh)
            os.replace(fh.name, self.dir / f"{stage}.json")
        except OSError as exc:  # a read-only folder: the next run is simply not faster
            log.debug("could not cache %s: %s", stage, exc)

    def wrap(self, tree: Path, config, prepared: dict, notebook, tests, fallback):
        """The notebook and public-test stages of `grade_tree`, each reusing its last result when
        its inputs are the same (``notebook`` None: the notebook is not there, ``fallback`` says so)."""
        nb_key = notebook_key(tree, config.notebook, prepared, config.public_tests)
        t_key = tests_key(tree, config.notebook)
        return ((lambda: self.notebook(nb_key, notebook)) if notebook else fallback), (lambda: self.tests(t_key, tests))

    def notebook(self, key: str, run):
        """``run()``'s NotebookRun, or the one cached under ``key`` (a completed run only)."""
        cached = self._load("notebook", key)
        if cached is not None:
            try:
                cells = tuple(CellOutcome(**c) for c in cached.pop("cells"))
                figures = tuple(Figure(**f) for f in cached.pop("figures"))
                notes = ("notebook unchanged since the last run (code cells and the files it can use): "
                         "its results were reused", *cached.pop("notes"))
                return NotebookRun(cells, figures, notes=notes, seconds=0.0, isolation=tuple(cached.pop("isolation")),
                                   **cached)
            except (TypeError, KeyError, ValueError):
                pass
        result = run()
        if result.status in ("ok", "error") or result.status.startswith("error"):
            value = dataclasses.asdict(result)
            value.pop("seconds", None)
            self._store("notebook", key, value)
        return result

    def tests(self, key: str, run):
        cached = self._load("tests", key)
        if cached is not None:
            try:
                return TestCounts(**{**cached, "notes": ("public tests unchanged since the last run: their results "
                                                         "were reused",), "isolation": tuple(cached["isolation"])})
            except TypeError:
                pass
        result = run()
        if result.passed or result.failed:
            self._store("tests", key, dataclasses.asdict(result))
        return result
