"""Run the official checks of one assignment against one submission.

The grader side of the trust boundary: it makes every case's inputs, ships them with
the probes and the fixed driver into a sandboxed child, reads back plain data only
(``np.load(allow_pickle=False)``, size-capped JSON) and judges each case with
`checks.judge_case`. Student code is never imported here. A child that hangs, crashes
or exits early costs the case it was on; the driver is restarted for the rest.
"""
from __future__ import annotations

import functools
import json
import logging
import secrets
import shutil
import tempfile
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from grader import sandbox
from grader.config import AssignmentConfig, load_assignment
from grader.grading.checks import Case, CheckSpec, judge_case, load_checks
from grader.results import CaseOutcome

log = logging.getLogger(__name__)

DRIVER = sandbox.inside_script("driver.py")
MAX_RESULT_BYTES = 64 * 1024 * 1024
MAX_RESTARTS = 3


@dataclass(frozen=True)
class PlannedCase:
    id: str
    spec: CheckSpec
    case: Case


@dataclass(frozen=True)
class CheckRun:
    """Outcomes of every case, plus what the grader noticed on the way."""

    outcomes: tuple[CaseOutcome, ...]
    notes: tuple[str, ...]
    isolation: tuple[str, ...]
    seconds: float
    import_hung: bool = False  # importing the student's modules never finished
    peak_memory_mb: float = 0.0
    cpu_s: float = 0.0  # CPU time of the sandboxed process trees, restarts included


def plan(tree: Path) -> list[PlannedCase]:
    """Every case of every check, in a fixed order (check name, then generation order).
    Made once per bundle (keyed by the verdicts file and its mtime): a batch reuses it."""
    verdicts = (tree / "hidden" / "verdicts.py").resolve()
    stamp = verdicts.stat().st_mtime_ns if verdicts.is_file() else 0
    with _PLAN_LOCK:  # one thread makes the plan, the others reuse it
        return _plan(str(verdicts.parent.parent), stamp)


_PLAN_LOCK = threading.Lock()


@functools.lru_cache(maxsize=8)
def _plan(tree: str, stamp: int) -> list[PlannedCase]:
    tree = Path(tree)
    planned = []
    for name, spec in sorted(load_checks(tree / "hidden").items()):
        for n, case in enumerate(spec.cases()):
            planned.append(PlannedCase(f"{name}-{n:03d}", spec, case))
    return planned


def _write_harness(harness: Path, tree: Path, planned: list[PlannedCase], job: dict) -> None:
    (harness / "inputs").mkdir(parents=True)
    shutil.copy(DRIVER, harness / "driver.py")
    shutil.copy(tree / "hidden" / "probes.py", harness / "probes.py")
    cases = []
    for p in planned:
        arrays = {k: np.asarray(v) for k, v in p.case.inputs.items() if isinstance(v, np.ndarray)}
        scalars = {k: v for k, v in p.case.inputs.items() if not isinstance(v, np.ndarray)}
        np.savez(harness / "inputs" / f"{p.id}.npz", **arrays)
        cases.append({"id": p.id, "probe": p.spec.probe, "scalars": scalars})
    job["cases"] = cases
    (harness / "job.json").write_text(json.dumps(job))
    for path in [harness, *harness.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


def _read_manifest(path: Path, nonce: str) -> list[dict]:
    if not path.is_file():
        return []
    entries = []
    with path.open("rb") as fh:
        for raw in fh.read(MAX_RESULT_BYTES).splitlines():
            try:
                entry = json.loads(raw)
            except ValueError:
                continue
            if isinstance(entry, dict) and entry.get("nonce") == nonce:
                entries.append(entry)
    return entries


def _read_result(out: Path, case_id: str) -> dict | None:
    """Load one case's arrays and scalars as plain data, or None if anything is off."""
    npz, js = out / f"{case_id}.npz", out / f"{case_id}.json"
    try:
        if npz.stat().st_size > MAX_RESULT_BYTES or js.stat().st_size > 1_000_000:
            return None
        got: dict = {}
        with np.load(npz, allow_pickle=False) as data:
            for key in data.files:
                arr = data[key]
                if arr.dtype.kind not in "biuf":
                    return None
                got[key] = np.array(arr)
        scalars = json.loads(js.read_text()).get("scalars", {})
        for key, value in scalars.items():
            if type(value) not in (bool, int, float, str):
                return None
            got[key] = value
        return got
    except (OSError, ValueError, zipfile.BadZipFile, AttributeError):
        return None


def _why_stopped(result: sandbox.RunResult, limits, disk_mb: int = sandbox.RunLimits.max_disk_mb) -> str:
    if result.disk_exceeded:
        return (f"your code wrote more than {disk_mb} MB of files (the disk limit) and was stopped; "
                "write less, or nothing, to disk")
    if result.memory_exceeded:
        return f"your code used more than the {limits.memory_mb} MB memory limit and was stopped"
    if result.idle_timed_out:
        return (f"it did not finish within the {limits.case_timeout_s:g} s time limit "
                "(an endless loop, a sleep, or far too slow?)")
    if result.timed_out:
        return f"the checks ran out of their {limits.checks_timeout_s:g} s time limit"
    return f"the process ended (exit code {result.returncode}) before this case finished; does your code call exit()?"


def _error_text(error: dict) -> str:
    where = f" at {error['where']}" if error.get("where") else ""
    return f"raised {error.get('message', 'an error')}{where}"


def run_checks(tree: Path, submission: Path, *, unsandboxed: bool = False,
               config: AssignmentConfig | None = None) -> CheckRun:
    """Judge every case of ``tree``'s hidden checks against the code in ``submission``."""
    config = config or load_assignment(tree)
    limits = config.limits
    planned = plan(tree)
    if not planned:
        return CheckRun((), (), (), 0.0)
    nonce = secrets.token_hex(8)
    verdict: dict[str, CaseOutcome] = {}
    notes: list[str] = []
    isolation: tuple[str, ...] = ()
    seconds = 0.0
    import_hung, peak, cpu = False, 0.0, 0.0
    with tempfile.TemporaryDirectory(prefix="lrkit-checks-") as tmp:
        work = Path(tmp)
        harness, out, scratch = work / "harness", work / "out", work / "submission"
        shutil.copytree(submission, scratch, symlinks=False, ignore=shutil.ignore_patterns("__pycache__"))
        out.mkdir()
        job = {"nonce": nonce, "harness": "/harness", "out": "/out", "submission": "/submission",
               "modules": list(config.modules), "start": 0}
        _write_harness(harness, tree, planned, job)
        mounts = [sandbox.Mount(harness, "/harness"), sandbox.Mount(out, "/out", writable=True),
                  sandbox.Mount(scratch, "/submission", writable=True)]
        start, restarts = 0, 0
        while start < len(planned):
            job["start"] = start
            (harness / "job.json").write_text(json.dumps(job))
            run_limits = sandbox.RunLimits(wall_s=limits.checks_timeout_s, idle_s=limits.case_timeout_s,
                                        memory_mb=limits.memory_mb)
            result = sandbox.run(
                [sandbox.sandbox_python(), "-I", "/harness/driver.py", "/harness/job.json"],
                mounts=mounts, cwd="/submission", env={"LRKIT_GRADING": "1"}, limits=run_limits,
                progress_file=out / "manifest.jsonl", unsandboxed=unsandboxed)
            isolation, seconds = result.isolation, seconds + result.wall_s
            peak = max(peak, result.peak_memory_mb)
            cpu += result.cpu_s
            entries = _read_manifest(out / "manifest.jsonl", nonce)
            import_error = next((e for e in entries if e.get("event") == "import" and "error" in e), None)
            if import_error:
                message = (f"importing your module '{import_error['module']}' failed: "
                           f"{_error_text(import_error['error'])}")
                notes.append(message)
                break
            if start == 0 and not any(e.get("event") == "import" for e in entries):
                notes.append(f"importing your module failed: {_why_stopped(result, limits, run_limits.max_disk_mb)}")
                import_hung = result.timed_out or result.idle_timed_out
                break
            for entry in entries:
                for name in entry.get("tampered", []):
                    note = f"tampering detected: {name} was replaced or hooked by your code (flagged for review)"
                    if note not in notes:
                        notes.append(note)
            done = {e["case"]: e for e in entries if e.get("event") == "case"}
            for p in planned[start:]:
                entry = done.get(p.id)
                if entry is None:
                    break
                if "error" in entry:
                    verdict[p.id] = judge_case(p.spec, p.case, None, _error_text(entry["error"]))
                else:
                    got = _read_result(out, p.id)
                    verdict[p.id] = judge_case(p.spec, p.case, got, "" if got is not None else
                                               "the result could not be read back as plain numbers")
                start += 1
            if start >= len(planned) or any(e.get("event") == "done" for e in entries):
                break
            if result.timed_out and not result.idle_timed_out:
                break
            stuck = planned[start]
            why = _why_stopped(result, limits, run_limits.max_disk_mb)
            verdict[stuck.id] = judge_case(stuck.spec, stuck.case, None, why)
            start += 1
            if result.disk_exceeded:  # the files are still there: a restart would be stopped at once
                notes.append(why)
                break
            restarts += 1
            if restarts > MAX_RESTARTS:
                break
        for p in planned:
            if p.id not in verdict:
                reason = notes[-1] if notes else "the checks were stopped after earlier failures"
                verdict[p.id] = CaseOutcome(p.spec.name, p.case.label, False,
                                            f"{p.spec.title}: not checked, because {reason[:300]}.")
    return CheckRun(tuple(verdict[p.id] for p in planned), tuple(notes), isolation, seconds, import_hung, peak,
                    round(cpu, 3))
