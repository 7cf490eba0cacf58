"""Fingerprints of wrong outputs: what a submission's code gave on an official check's fixed inputs, rounded so
that float noise does not matter, for staff to see who shares a wrong answer (`grade similarity`).

A case's digest summarises each output (by name): its type, shape, how many entries are not finite, its scale
(the mean absolute value, 3 significant figures) and, relative to that scale, its mean and four fixed random
projections (3 decimals). Two implementations of the same wrong formula agree on all of these (their float
noise is far below the rounding); two different mistakes almost never do. A check's fingerprint joins its
cases in order, each as its digest, "ok" (passed) or "none" (no result): it exists only when at least one case
gave a wrong result. It is evidence for staff, never a grade, and says nothing about the expected values.
"""
from __future__ import annotations

import hashlib
import math
from typing import Any, Iterable, Mapping

import numpy as np

from grader.results import CaseOutcome

MAX_KEYS = 16  # outputs of one case that are summarised
PROJECTIONS = 4
CHUNK = 1 << 20


def _sig(x: float) -> str:
    return "0" if x == 0 else f"{x:.3g}"


def _projections(values: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """PROJECTIONS sums of ``values`` with fixed random signs (the same for every array of this shape), a chunk at
    a time so a large output costs no more memory than a chunk."""
    seed = int.from_bytes(hashlib.sha256(repr(tuple(int(d) for d in shape)).encode()).digest()[:4], "little")
    total = np.zeros(PROJECTIONS)
    for n, start in enumerate(range(0, values.size, CHUNK)):
        part = values[start:start + CHUNK]
        signs = np.random.default_rng([seed, n]).integers(0, 2, size=(PROJECTIONS, part.size)) * 2.0 - 1.0
        total += signs @ part
    return total


def _array_summary(arr: np.ndarray) -> list[str]:
    values = arr.astype(np.float64, copy=False).ravel()
    finite = np.isfinite(values)
    values = np.where(finite, values, 0.0)
    n = max(values.size, 1)
    scale = float(np.abs(values).sum() / n)
    out = [f"{arr.dtype.kind}{tuple(arr.shape)}", f"nonfinite={int(values.size - finite.sum())}", _sig(scale)]
    if scale == 0 or not math.isfinite(scale):
        return out
    stats = [values.sum() / n, *(_projections(values, arr.shape) / n)]
    return out + [f"{round(float(s) / scale, 3) + 0.0:.3f}" for s in stats]  # + 0.0: no "-0.000"


def _summary(value: Any) -> list[str]:
    if isinstance(value, (str, bool)) or value is None:
        return [type(value).__name__, repr(value)[:200]]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return ["num", _sig(float(value)) if math.isfinite(value) else repr(float(value))]
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        return _array_summary(value)
    return [type(value).__name__]


def output_digest(got: Mapping[str, Any], keys: Iterable[str] = ()) -> str:
    """The digest of one case's outputs: those named in ``keys`` (the case's expected outputs), else all of them."""
    names = sorted(keys) or sorted(str(k) for k in got)[:MAX_KEYS]
    parts = [f"{name}:{'|'.join(_summary(got[name])) if name in got else 'missing'}" for name in names[:MAX_KEYS]]
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def check_fingerprints(cases: Iterable[CaseOutcome]) -> dict[str, str]:
    """Check -> the fingerprint of its cases, for the checks where at least one case gave a wrong result."""
    by_check: dict[str, list[CaseOutcome]] = {}
    for case in cases:
        by_check.setdefault(case.check, []).append(case)
    found = {}
    for check, outcomes in sorted(by_check.items()):
        if any(c.digest for c in outcomes):
            joined = "\n".join(f"{c.label}={c.digest or ('ok' if c.passed else 'none')}" for c in outcomes)
            found[check] = hashlib.sha256(joined.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return found
