"""The model solution's cost measurements, kept on disk per bundle and machine.

A cost verdict compares the student's runs with the model solution's, measured the same way (`costs`). Measuring
the model takes two runs at each length of every cost case: 15-35 s of a grader's start. A batch pays it once per
process; a single `grade submission`, a regrade, a student's re-submission and every test that grades would pay it
every time. So the measurements are kept in the grader's own cache (``~/.cache/lrkit/model-costs``, 0700, files
this user wrote), under a key that names everything they depend on: the bundle's checks and model solution (their
content), the case (its check, label, lengths and inputs), how runs are measured (sandboxed or not, how they start:
warm from a template and what it holds, or cold, `sandbox.warm.measured_as`, and the content of the harness that
runs inside them: `grader/sandbox/inside/`, whose malloc settings move the figures) and the machine (host, CPU,
kernel, Python, torch). They are kept `KEPT_S`: a machine's speed drifts (updates, other
tenants), and a fresh measurement costs only seconds. The files hold seconds and bytes, nothing hidden.

The cost cases' float64 references are kept there too (``reference-*.npz``, keyed by the bundle's content, the case
and its drawn inputs): a grader process made them once each, ~4 s of a single `grade submission`. They are hidden
expected values, in the grader's own 0700 folder, which no sandboxed run mounts.

Beside them lies the grader's `secret` (random bytes, made once): every draw is made from it (`draws`): where each
cost case comes in its run (`probing._companions`) and the cost cases' inputs, the same for the model and for every
student on this machine, so what the earlier cases leave behind weighs the same on both sides of a verdict; and,
with each submission's code, the compared cases' inputs. No student can know it.
"""
from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import platform
import sys
import tempfile
import time
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from grader.grading.costs import CostCase, Measurement
from grader.sandbox.scratch import user_cache

log = logging.getLogger(__name__)

KEPT_S = 12 * 3600
VERSION = 8  # of what is kept and how it is measured: bump when a change to the runs changes the figures
# (7: a short twin among the comparing check's cases, so among a cost run's companions; a step's inputs streamed;
# 8: a gated cost case's gate twin among them too, `costs.at_gate`)


@lru_cache(maxsize=1)
def machine() -> str:
    """What the figures depend on besides the code: this host, its CPU and kernel, Python and torch."""
    cpu = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            cpu = next((line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), "")
    except OSError:
        pass
    try:
        from importlib.metadata import version
        torch_version = version("torch")
    except Exception:  # noqa: BLE001 - no torch here: the runs' torch is the model's too
        torch_version = ""
    return json.dumps([platform.node(), platform.machine(), cpu, os.cpu_count(), platform.release(),
                       sys.version.split()[0], torch_version])


@lru_cache(maxsize=1)
def harness() -> str:
    """The content of the code that runs inside every cost run (the driver and its modules)."""
    h = hashlib.sha256()
    inside = Path(__file__).resolve().parent.parent / "sandbox" / "inside"
    for path in sorted(inside.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


@lru_cache(maxsize=1)
def verdict_code() -> str:
    """The content of the code that measures runs and turns them into verdicts (`grader/grading/`, `grader/sandbox/`,
    `grader/checks.py`): a pass kept by one version of it is not a pass of another (a fix to a bound, a twin, an
    excuse or a meter is measured again: blind attacks25)."""
    h = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for path in sorted([*(package / "grading").rglob("*.py"), *(package / "sandbox").rglob("*.py"),
                        package / "checks.py"]):
        if "__pycache__" not in path.parts:
            h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def bundle_digest(checks_tree: Path) -> str:
    """The content of the bundle's checks and model solution (its Python and YAML files)."""
    h = hashlib.sha256()
    for path in sorted(p for p in checks_tree.rglob("*") if p.suffix in (".py", ".yaml") and p.is_file()):
        if "__pycache__" in path.parts:
            continue
        h.update(str(path.relative_to(checks_tree)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


@dataclass(frozen=True)
class Kept:
    """The kept measurements of one bundle (its digest), measured one way (sandboxed or not), on this machine."""

    folder: Path
    bundle: str
    unsandboxed: bool
    runs_start: str  # how the runs start (`sandbox.warm.measured_as`: warm, and the template's preloads, or cold)

    def _path(self, check: str, case: CostCase) -> Path:
        inputs = sorted((k, repr(v)) for k, v in case.inputs_at(case.lengths[0]).items())  # seeded arrays' seeds too
        key = json.dumps([VERSION, self.bundle, self.unsandboxed, self.runs_start, harness(), machine(), check,
                          case.label, list(case.lengths), case.length_key, case.grows, case.sequences, inputs,
                          hashlib.sha256(secret()).hexdigest()])  # the model was measured at this secret's cuts
        return self.folder / f"{hashlib.sha256(key.encode()).hexdigest()}.json"

    def load(self, check: str, case: CostCase) -> tuple[Measurement, Measurement] | None:
        """The model's (short, long) measurements kept for this case, or None (none, too old, or unreadable)."""
        try:
            data = json.loads(self._path(check, case).read_text(encoding="utf-8"))
            saved, runs = float(data["saved"]), data["runs"]
            if not 0 <= time.time() - saved <= KEPT_S or len(runs) != 2:
                return None
            out = tuple(Measurement(int(n), int(peak), float(cpu)) for n, peak, cpu in runs)
        except (OSError, ValueError, TypeError, KeyError):
            return None
        if [m.n for m in out] != list(case.lengths) or any(m.peak_bytes < 0 or not math.isfinite(m.cpu_s)
                                                           or m.cpu_s < 0 for m in out):
            return None
        return out  # type: ignore[return-value]

    def _reference_path(self, check: str, case: CostCase, n: int) -> Path:
        inputs = sorted((k, repr(v)) for k, v in case.inputs_at(n).items())  # the drawn seed among them
        key = json.dumps([VERSION, "reference", self.bundle, check, case.label, case.length_key, inputs, n])
        return self.folder / f"reference-{hashlib.sha256(key.encode()).hexdigest()}.npz"

    def reference(self, check: str, case: CostCase, n: int) -> dict[str, np.ndarray] | None:
        """The case's float64 reference at length n as an earlier grader made it, or None (none, or unreadable).
        It depends on the bundle's checks and the inputs only, so it is kept as long as the file is there."""
        try:
            with np.load(self._reference_path(check, case, n), allow_pickle=False) as data:
                out = {key: np.array(data[key]) for key in data.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError):
            return None
        return out if out and all(a.dtype.kind == "f" for a in out.values()) else None

    def keep_reference(self, check: str, case: CostCase, n: int, expect: Mapping) -> None:
        """Keep a reference of float arrays (written whole or not at all); anything else is not kept."""
        if not isinstance(expect, Mapping) or not expect or not all(
                isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in expect.values()):
            return
        try:
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=".npz")
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, **{str(k): v for k, v in expect.items()})
            os.replace(tmp, self._reference_path(check, case, n))
        except OSError as exc:
            log.info("a cost case's reference was not kept (%s): the next grader makes it again", exc)

    def save(self, check: str, case: CostCase, measured: tuple[Measurement, Measurement]) -> None:
        """Keep ``measured`` (written whole or not at all: a half-written file never replaces a good one)."""
        path = self._path(check, case)
        data = {"saved": time.time(), "check": check, "case": case.label,
                "runs": [[m.n, m.peak_bytes, m.cpu_s] for m in measured]}
        try:
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh)
            os.replace(tmp, path)
        except OSError as exc:
            log.info("the model's cost measurements were not kept (%s): the next grader measures them again", exc)

    def _pass_path(self, check: str, case: CostCase, code: bytes) -> Path:
        # the model's own key (`_path`: bundle, way of measuring, harness, machine, case, inputs, secret), the code
        # that judged it (`verdict_code`) and the student's code
        key = self._path(check, case).name + verdict_code() + code.hex()
        return self.folder / f"pass-{hashlib.sha256(key.encode()).hexdigest()}"

    def passed_before(self, check: str, case: CostCase, code: bytes) -> bool:
        """This very code (`probing._code_digest`: every Python file and folder a cost run sees) passed ``case`` of
        this bundle, measured this way on this machine, within `KEPT_S`: its verdict stands without its runs."""
        try:
            data = json.loads(self._pass_path(check, case, code).read_text(encoding="utf-8"))
            return data.get("passed") is True and 0 <= time.time() - float(data["saved"]) <= KEPT_S
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return False

    def keep_pass(self, check: str, case: CostCase, code: bytes) -> None:
        """Keep that this code passed ``case`` (written whole or not at all). Only a pass is kept: a failure is
        measured again at the next grading (another chance on a quieter machine), never replayed."""
        try:
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"saved": time.time(), "passed": True, "check": check, "case": case.label}, fh)
            os.replace(tmp, self._pass_path(check, case, code))
        except OSError as exc:
            log.info("a cost case's pass was not kept (%s): the next grading measures it again", exc)


SECRET_BYTES = 32
_SECRET: list[bytes] = []


def secret() -> bytes:
    """The grader's own random bytes (``model-costs/secret``, 0600, made once; per process where the grader has no
    cache of its own). Never in a bundle, a report or a run: a student cannot read or guess it."""
    if _SECRET:
        return _SECRET[0]
    folder = user_cache("model-costs")
    value = os.urandom(SECRET_BYTES)
    if folder is not None:
        path = folder / "secret"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as fh:  # the first grader makes it; the others read it
                fh.write(value)
        except FileExistsError:
            pass
        except OSError as exc:
            log.info("the grader's secret was not kept (%s): this process draws its own", exc)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, "rb") as fh:
                kept = fh.read(SECRET_BYTES + 1)
            if len(kept) == SECRET_BYTES and os.stat(path, follow_symlinks=False).st_uid == os.getuid():
                value = kept
        except OSError:
            pass
    _SECRET.append(value)
    return _SECRET[0]


def kept_for(checks_tree: Path, unsandboxed: bool, stamp: object, runs_start: str) -> Kept | None:
    """Where this bundle's model measurements are kept, or None where the grader has no cache of its own.
    ``stamp``: the bundle's version as the in-process calibration keys it (`probing._stamp`): a class's
    submissions share one unpacked bundle, hashed once. ``runs_start``: how this grader's runs start
    (`sandbox.warm.measured_as`): measurements made another way are not these."""
    folder = user_cache("model-costs")
    if folder is None:
        return None
    try:
        return Kept(folder, _digest(str(checks_tree), stamp), unsandboxed, runs_start)
    except OSError:
        return None


@lru_cache(maxsize=8)
def _digest(checks_tree: str, stamp: object) -> str:
    return bundle_digest(Path(checks_tree))
