"""Where the submissions of a batch are graded: an engine takes jobs and yields (job, report).

    ThreadEngine   this machine: a thread per job (`--jobs N`); the work runs in sandboxed child processes
    DaskEngine     a Dask cluster, or a LocalCluster it starts (grader/batch/dask_engine.py)

Engines only grade. The driver (grader/batch/run.py) is the one writer of the output folder.
Every engine grades a submission with the same `grade_one`, so they give the same reports, and a
failure of the grader on one submission becomes a `crashed` report, never an aborted batch.
Submissions travel to remote workers as bytes (`pack_submission` / `materialise`), so no shared
filesystem is needed.
"""
from __future__ import annotations

import logging
import os
import stat
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Protocol

from grader.bundle import Bundle
from grader.errors import UsageError
from grader.grading import messages
from grader.grading.pipeline import failed_report, grade_submission
from grader.grading.probing import lanes_for, usable_cpus
from grader.grading.unpack import JUNK_DIRS, MAX_SUBMISSION_BYTES
from grader.results import Report

log = logging.getLogger(__name__)
MAX_PAYLOAD_BYTES = MAX_SUBMISSION_BYTES  # unpack's own limit: anything bigger is invalid wherever it is unpacked


@dataclass(frozen=True)
class Job:
    """One submission to grade: where it is, the name its row and folder get, and whether it is a regrade
    (it has a report from an earlier run); regrades go after fresh submissions."""

    path: Path
    name: str
    regrade: bool = False


class Engine(Protocol):
    """Grades jobs; ``start`` probes where the work will run and returns the sandbox decision."""

    def start(self, bundle_path: Path, bundle: Bundle) -> bool: ...  # returns `unsandboxed`

    def run(self, jobs: list[Job]) -> Iterator[tuple[Job, Report]]: ...

    def close(self) -> None: ...


def grade_one(path: Path, bundle: Bundle, unsandboxed: bool, name: str, lanes: int = 1) -> Report:
    """Grade one submission; a grader failure becomes a `crashed` report for this submission only. ``lanes``: the
    checks' runs at once (`probing.lanes_for`)."""
    try:
        return grade_submission(path, bundle, unsandboxed=unsandboxed, name=name, lanes=lanes)
    except Exception as exc:  # a grader failure on one submission must not stop the class
        log.exception("grading %s crashed", path.name)
        return crashed_report(bundle, name, messages.grader_failed(exc))


def crashed_report(bundle: Bundle, name: str, message: str) -> Report:
    return failed_report(bundle.config, bundle.rubric, name, "crashed", message, bundle_hash=bundle.hash)


def default_jobs() -> int:
    """`--jobs` when not given: the CPUs this process may run on."""
    return usable_cpus()


def order_jobs(jobs: list[Job]) -> list[Job]:
    """Fresh submissions first, then regrades; each group in name order."""
    return sorted(jobs, key=lambda j: (j.regrade, j.name))


class ThreadEngine:
    """`--jobs N` on this machine. The sandbox decision is the caller's (the CLI checked this machine)."""

    def __init__(self, jobs: int | None = None, unsandboxed: bool = False):
        self.jobs, self.unsandboxed = max(1, jobs or default_jobs()), unsandboxed
        self.bundle: Bundle | None = None

    def start(self, bundle_path: Path, bundle: Bundle) -> bool:
        self.bundle = bundle
        return self.unsandboxed

    def run(self, jobs: list[Job]) -> Iterator[tuple[Job, Report]]:
        assert self.bundle is not None, "start() first"
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            lanes = lanes_for(self.jobs)  # a second lane only where every grading at once has two cores
            futures = {pool.submit(grade_one, j.path, self.bundle, self.unsandboxed, j.name, lanes): j
                       for j in order_jobs(jobs)}
            for future in as_completed(futures):
                yield futures[future], future.result()

    def close(self) -> None:
        pass


# ----------------------------------------------------------------------------- submissions as bytes


def pack_submission(path: Path) -> tuple[str, object] | None:
    """The submission as bytes for a remote worker: ("file", bytes) or ("folder", [(relpath, bytes)]).

    A folder is walked like `unpack_submission` walks it (tool folders such as .venv pruned). None when
    it cannot travel faithfully (a link, a device, over the size limit): unpacking rejects those anyway,
    so the caller grades them where they are, which runs no student code.
    """
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISREG(st.st_mode):
        return ("file", path.read_bytes()) if st.st_size <= MAX_PAYLOAD_BYTES else None
    if not stat.S_ISDIR(st.st_mode):
        return None
    files, total = [], 0
    for dirpath, dirnames, filenames in os.walk(path):
        for name in dirnames + filenames:
            full = Path(dirpath) / name
            mode = full.lstat().st_mode
            if stat.S_ISREG(mode):
                total += full.lstat().st_size
                if total > MAX_PAYLOAD_BYTES:
                    return None
                files.append((full.relative_to(path).as_posix(), full.read_bytes()))
            elif not stat.S_ISDIR(mode):
                return None
        dirnames[:] = [d for d in dirnames if d not in JUNK_DIRS]
    return "folder", sorted(files)


def materialise(payload: tuple[str, object], into: Path, entry_name: str) -> Path:
    """Write a packed submission under ``into`` with its original entry name; returns its path."""
    kind, data = payload
    target = into / entry_name
    if kind == "file":
        target.write_bytes(data)  # type: ignore[arg-type]
        return target
    target.mkdir()
    for rel, content in data:  # type: ignore[union-attr]
        parts = rel.split("/")
        if rel.startswith("/") or ".." in parts or "" in parts:
            raise UsageError(f"{entry_name}: packed path {rel!r} escapes the submission")
        file = target.joinpath(*parts)
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(content)
    return target


# ----------------------------------------------------------------------------- isolation


def isolation_decision(probes: dict[str, dict], *, allow_unsandboxed: bool, allow_mixed: bool) -> str:
    """'sandboxed', 'unsandboxed' or 'mixed' (each worker as it can) for workers probed as
    {address: {"sandbox": bool, ...}}; a UsageError when the batch would mix without being told to."""
    without = sorted(a for a, p in probes.items() if not p.get("sandbox"))
    if not without:
        return "sandboxed"
    if len(without) == len(probes):
        if allow_unsandboxed:
            return "unsandboxed"
        raise UsageError(f"no worker has the sandbox ({len(probes)} probed, e.g. {without[0]}: needs Linux, root "
                         "and bubblewrap on the worker); pass --allow-unsandboxed to grade anyway (the reports "
                         "will say so)")
    if allow_mixed and allow_unsandboxed:
        return "mixed"
    raise UsageError(f"{len(without)} of {len(probes)} workers have no sandbox ({', '.join(without[:3])}"
                     f"{', ...' if len(without) > 3 else ''}): one batch would mix official and unofficial "
                     "grades. Fix those workers (root + bubblewrap) or remove them; or pass --allow-unsandboxed "
                     "--allow-mixed-isolation to grade on each worker as it can (each report says how)")
