"""`grade --local` re-runs only what changed.

The student loop is: edit, `grade --local`, read, edit again. Most edits touch one thing, so each
stage's result is kept in the assignment folder (`.lrkit-cache/`) under a content hash of what
the stage can depend on, and reused while that hash is the same:

* the notebook stage: the notebook's code cells (ids, tags, source: editing a markdown or
  answers cell does not re-run it), every other file of the folder the notebook could import or
  read (modules, data; not the public tests), the assignment's configuration, and the grader,
  Python and library versions;
* the public tests: every file of the folder except the notebook, and the same versions.

When a stage's inputs did change, most edits still touch one function, and only what can use it runs again
(`depends`): the notebook's code cells that use it, or use what such a cell made, with the earlier cells they
need to rebuild their variables (the others' outcomes and figures are the last run's), and the public tests
whose functions, fixtures and helpers reach it. Anything the reading cannot follow (a file that does not parse,
`eval`, a data file changed) runs everything again, as does a last run that did not finish.

A reused stage says so in the report. Local runs are unofficial in any case; an official grade
never reads a cache.
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import logging
import os
import platform
import tempfile
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from grader.grading.execute import NotebookRun
from grader.grading.public_tests import TestCounts
from grader.grading.version import grader_version
from grader.results import CellOutcome, Figure
from grader.student import depends

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


@dataclass(frozen=True)
class Plan:
    """What each code cell and each public test of one folder can depend on (`depends`)."""

    cells: tuple[int, ...]  # the notebook index of each code cell, in order
    cell_keys: tuple[str, ...]
    needs: tuple[tuple[int, ...], ...]  # for each code cell, the code cells (positions in `cells`) it needs
    tests: tuple[depends.TestUnit, ...] | None  # None: the tests cannot be told apart (all run)


def _test_files(folder: Path, tests: str) -> list[Path]:
    root = folder / tests
    if root.is_file():
        return [root]
    if root.is_dir():
        return sorted(p for p in root.rglob("*.py") if p.name.startswith("test_") or p.name.endswith("_test.py"))
    return []


def read_plan(folder: Path, notebook: str, prepared: dict, tests: str) -> Plan | None:
    """The folder's plan, or None where it cannot be read (then every stage runs whole, as before)."""
    try:
        files = _files(folder, {notebook})
        test_root = Path(tests).parts[0] if tests else ""
        outside = [p for p in files if not (test_root and p.relative_to(folder).parts[0] == test_root)]
        versions = _versions() + ";" + depends.READING  # (another reading keys every cell and test anew)
        data_nb = hashlib.sha256(b"cells\0" + versions.encode())
        _hash_files(data_nb, folder, [p for p in outside if p.suffix != ".py"])
        data_tests = hashlib.sha256(b"tests\0" + versions.encode())
        _hash_files(data_tests, folder, [p for p in files if p.suffix != ".py"])
        code = [(i, c) for i, c in enumerate(prepared["cells"]) if c.get("cell_type") == "code"]
        identities = [json.dumps([c.get("id"), c.get("metadata", {}).get("tags", [])]) + "\0\0" +
                      (c["source"] if isinstance(c.get("source"), str) else "".join(c.get("source", ())))
                      for _, c in code]
        keys, needs = depends.cell_keys(depends.read_sources(depends.python_files(folder, outside)), identities,
                                        data_nb.hexdigest())
        all_sources = depends.read_sources(depends.python_files(folder, files))
        test_files = {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8", errors="replace")
                      for p in _test_files(folder, tests)}
        units = depends.test_units(all_sources, test_files, data_tests.hexdigest()) if test_files else None
    except (OSError, ValueError, RecursionError, MemoryError) as exc:
        log.debug("no plan for a partial run: %s", exc)
        return None
    return Plan(tuple(i for i, _ in code), tuple(keys), tuple(tuple(n) for n in needs),
                tuple(units) if units else None)


class LocalCache:
    """The stage results of the last local runs of one assignment folder (at most one per stage)."""

    def __init__(self, folder: Path):
        self.dir = folder / CACHE_DIR

    def _record(self, stage: str) -> tuple[str, dict] | None:
        """(key, value) of the stage's last kept run, whatever its key."""
        try:
            data = json.loads((self.dir / f"{stage}.json").read_text())
        except (OSError, ValueError):
            return None
        if not (isinstance(data, dict) and isinstance(data.get("key"), str) and isinstance(data.get("value"), dict)):
            return None
        return data["key"], data["value"]

    def _load(self, stage: str, key: str) -> dict | None:
        record = self._record(stage)
        return record[1] if record and record[0] == key else None

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
        its inputs are the same, or rerunning only what an edit can affect (``notebook`` None: the notebook is
        not there, ``fallback`` says so). ``notebook(prepared)`` and ``tests(select)`` run a part."""
        nb_key = notebook_key(tree, config.notebook, prepared, config.public_tests)
        t_key = tests_key(tree, config.notebook)
        plan = read_plan(tree, config.notebook, prepared, config.public_tests)
        return ((lambda: self.notebook(nb_key, notebook, plan, prepared)) if notebook else fallback), \
            (lambda: self.tests(t_key, tests, plan))

    def notebook(self, key: str, run, plan: Plan | None = None, prepared: dict | None = None):
        """``run()``'s NotebookRun, or the one cached under ``key`` (a completed run only), or, after an edit, the
        last run's with the cells that can see the edit run again (``run(part)``: the notebook with every other
        code cell left empty)."""
        cached = self._load("notebook", key)
        if cached is not None:
            try:
                reused = self._notebook_run(cached, "notebook unchanged since the last run (code cells and the files "
                                                    "it can use): its results were reused")
            except (TypeError, KeyError, ValueError):
                reused = None
            if reused is not None:
                if plan is not None and cached.get("cell_keys") != list(plan.cell_keys) \
                        and len(reused.cells) == len(plan.cells):  # kept by an older reading: key it anew
                    self._store("notebook", key, {**cached, "cell_keys": list(plan.cell_keys)})
                return reused
        result = None
        if plan is not None and prepared is not None:
            result = self._partial_notebook(run, plan, prepared)
        if result is None:
            result = run()
        if result.status in ("ok", "error") or result.status.startswith("error"):
            value = dataclasses.asdict(result)
            value.pop("seconds", None)
            if plan is not None and len(result.cells) == len(plan.cells):
                value["cell_keys"] = list(plan.cell_keys)
            self._store("notebook", key, value)
        return result

    @staticmethod
    def _notebook_run(value: dict, note: str) -> NotebookRun:
        value = {k: v for k, v in value.items() if k != "cell_keys"}
        cells = tuple(CellOutcome(**c) for c in value.pop("cells"))
        figures = tuple(Figure(**f) for f in value.pop("figures"))
        notes = (note, *value.pop("notes"))
        return NotebookRun(cells, figures, notes=notes, seconds=0.0, isolation=tuple(value.pop("isolation")), **value)

    def _partial_notebook(self, run, plan: Plan, prepared: dict) -> NotebookRun | None:
        """The last run with only the stale cells (and the cells they need) run again; None: run it all."""
        record = self._record("notebook")
        if record is None or record[1].get("status") != "ok":
            return None
        try:
            last = record[1]
            keys = last.get("cell_keys")
            cells = [CellOutcome(**c) for c in last["cells"]]
            figures = [Figure(**f) for f in last["figures"]]
        except (TypeError, KeyError, ValueError):
            return None
        if not isinstance(keys, list) or len(keys) != len(cells):
            return None
        by_key = {k: c for k, c in zip(keys, cells) if isinstance(k, str)}
        stale = {n for n, k in enumerate(plan.cell_keys) if k not in by_key}
        if not stale and list(plan.cell_keys) == keys:
            try:
                return self._notebook_run(last, "no code cell can use what changed since the last run: the "
                                                "notebook's results were reused")
            except (TypeError, KeyError, ValueError):
                return None
        if not stale or len(stale) == len(plan.cell_keys):
            return None
        again = depends.run_set(stale, [list(n) for n in plan.needs])
        part = copy.deepcopy(prepared)
        for n, index in enumerate(plan.cells):
            if n not in again:
                part["cells"][index]["source"] = ""  # nbclient skips an empty cell: no record, no kernel time
        ran = run(part)
        fresh = {c.index: c for c in ran.cells}
        position = {index: n for n, index in enumerate(plan.cells)}
        merged = []
        kept_figures = [f for f in ran.figures if position.get(f.cell_index) in again]
        for n, index in enumerate(plan.cells):
            if n in again:
                merged.append(fresh[index])
                continue
            old = by_key[plan.cell_keys[n]]
            merged.append(dataclasses.replace(old, index=index, cell_id=str(prepared["cells"][index].get("id", ""))))
            kept_figures += [Figure(index, f.png_base64) for f in figures if f.cell_index == old.index]
        note = (f"{len(again)} of {len(plan.cells)} code cells ran again (those that can use what changed since "
                f"the last run, and the earlier cells they need); the others' results were reused")
        kept_figures.sort(key=lambda f: f.cell_index)  # (stable: a cell's figures keep their order)
        return dataclasses.replace(ran, cells=tuple(merged), figures=tuple(kept_figures), notes=(note, *ran.notes))

    def tests(self, key: str, run, plan: Plan | None = None):
        cached = self._load("tests", key)
        if cached is not None and plan is not None and plan.tests and isinstance(cached.get("counts"), dict):
            units = {u.key: {n: cached["counts"].get(n) for n in u.names} for u in plan.tests}
            if cached.get("units") != units:  # kept by an older reading: key it anew
                self._store("tests", key, {**cached, "units": units})
        if cached is not None:
            try:
                return TestCounts(**{**{k: v for k, v in cached.items() if k != "units"},
                                     "notes": ("public tests unchanged since the last run: their results were reused",),
                                     "isolation": tuple(cached["isolation"])})
            except TypeError:
                pass
        result = None
        if plan is not None and plan.tests:
            result = self._partial_tests(run, plan)
        if result is None:
            result = run()
        if result.passed or result.failed:
            value = dataclasses.asdict(result)
            if plan is not None and plan.tests:
                value["units"] = {u.key: {n: result.counts.get(n) for n in u.names} for u in plan.tests}
            self._store("tests", key, value)
        return result

    def _partial_tests(self, run, plan: Plan) -> TestCounts | None:
        """The last run's counts with only the tests that can see the edit run again; None: run them all."""
        record = self._record("tests")
        if record is None:
            return None
        last = record[1]
        units, counts = last.get("units"), last.get("counts")
        if not isinstance(units, dict) or not isinstance(counts, dict):
            return None
        owned = {n for u in plan.tests for n in u.names}
        if set(counts) - owned:
            return None  # a test no unit accounts for (generated, another file): run them all
        stale = [u for u in plan.tests if not _known(units.get(u.key), u.names)]
        if not stale and set(units) == {u.key for u in plan.tests}:
            try:
                return TestCounts(**{**{k: v for k, v in last.items() if k not in ("units", "counts")},
                                     "counts": {n: tuple(c) for n, c in counts.items()},
                                     "notes": ("no public test can use what changed since the last run: their "
                                               "results were reused",), "isolation": tuple(last["isolation"])})
            except (TypeError, KeyError):
                return None
        if not stale or len(stale) == len(plan.tests):
            return None
        ran = run(tuple(u.node for u in stale))
        if not (ran.passed or ran.failed):
            return None if ran.notes else ran  # the part did not run (a stop: say so with its notes)
        merged: dict[str, tuple[int, int]] = {}
        for u in plan.tests:
            source = ran.counts if u in stale else {n: tuple(units[u.key][n]) for n in u.names}
            merged.update({n: tuple(source[n]) for n in u.names if n in source})
        outcomes = {n: f == 0 for n, (p, f) in merged.items()}
        note = (f"{len(stale)} of {len(plan.tests)} public tests ran again (those that can use what changed since "
                "the last run); the others' results were reused")
        return dataclasses.replace(ran, passed=sum(p for p, _ in merged.values()),
                                   failed=sum(f for _, f in merged.values()), outcomes=outcomes, counts=merged,
                                   notes=(note, *ran.notes))


def _known(entry: object, names: tuple[str, ...]) -> bool:
    """Whether a kept unit's counts are there, well formed, for each of its test names."""
    return isinstance(entry, dict) and all(
        isinstance(entry.get(n), list) and len(entry[n]) == 2 and all(type(x) is int and x >= 0 for x in entry[n])
        for n in names) and bool(names)
