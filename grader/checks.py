"""The authoring API for hidden checks: ``from grader.checks import Case, check`` (and `CostCase`, a cost
measured from outside the student's process; `close`, `moved`; `drawn`, the seed a check's inputs are made
from; `Misshapen` / `shape_problem`, a judge's "the result has the wrong shape for this input").

Kept at this path for assignments written against it; the implementation of checks lives in
`grader.grading.checks`. `close` and `moved` are the two comparisons judges make of an answer
against a reference (one owner for every assignment's verdict files).
"""
import math

import numpy as np

from grader.grading import draws
from grader.grading.checks import (  # noqa: F401
    Case,
    CheckSpec,
    Misshapen,
    Seeded,
    check,
    judge_case,
    load_checks,
    probe_names,
    shape_problem,
)
from grader.grading.costs import LINEAR, STEPS, CostCase  # noqa: F401

__all__ = ["DIGEST", "LINEAR", "STEPS", "Case", "CheckSpec", "CostCase", "Misshapen", "Seeded", "check", "close",
           "digest", "digested", "drawn", "judge_case", "load_checks", "moved", "probe_names", "shape_problem"]


def drawn(seed: int) -> int:
    """The seed to make a check's inputs from where its source names ``seed``: drawn from the grader's secret,
    the same for every submission one grader grades (and for the model solution), and in no file a student can
    read, so no form can list the compared inputs (blind attacks12). Pass it where a helper takes a seed:
    ``ref.qkv(drawn(7), ...)``, ``np.random.default_rng(drawn(7))``. Every expected value must then be computed
    from the inputs, never written down."""
    return draws.compared(seed)



def close(a: np.ndarray, b: np.ndarray, rtol: float = 1e-6) -> bool:
    """Is ``a`` equal to ``b`` up to rounding (float32 internals included)? The same shape, within ``rtol`` of
    each value plus ``rtol`` times b's largest finite magnitude (at least 1), NaN where b is NaN too."""
    finite = np.abs(b[np.isfinite(b)])
    scale = max(1.0, float(finite.max())) if finite.size else 1.0
    return a.shape == b.shape and np.allclose(a, b, rtol=rtol, atol=rtol * scale, equal_nan=True)


def moved(a: np.ndarray, b: np.ndarray, *, rtol: float, lead: int = -1) -> bool:
    """Does ``a`` differ clearly from ``b`` in every slice over its first ``lead`` axes (``-1``: all but the
    last, one slice per vector; ``1``: one slice per batch element)? Clearly: somewhere in the slice by more
    than ``rtol`` times (1 + the slice's largest magnitude in b). False unless both are finite and the same
    shape."""
    if a.shape != b.shape or not (np.isfinite(a).all() and np.isfinite(b).all()):
        return False
    shape = (math.prod(a.shape[:lead]), math.prod(a.shape[lead:]))  # one row per slice
    diff = np.abs(a - b).reshape(shape).max(axis=1)
    scale = 1.0 + np.abs(b).reshape(shape).max(axis=1)
    return bool((diff > rtol * scale).all())


DIGEST = {"tail": 64, "every": 61}  # what a cost probe returns of its outputs (the inputs `digest` reads)


def digest(y: np.ndarray, *, time_axis: int = -2, tail: int = DIGEST["tail"], every: int = DIGEST["every"]) -> dict:
    """A cost case's outputs as its probe returns them: every output summed over the tokens (``y_sum``) and its
    square summed (``y_sq``), the last ``tail`` tokens (``y_tail``) and every ``every``-th token from the first
    (``y_every``). A long run's full outputs would be most of what the run holds and sends; a form wrong at any
    token still moves the sums, and the sum of squares has no shortcut: it needs every output (a plain sum of
    a linear form can be had from one backward recurrence, without the outputs). The probe computes the same
    four from the student's outputs (``y.sum(axis)``, ``(y * y).sum(axis)``, ``y[..., -tail:, :]``,
    ``y[..., ::every, :]`` along the time axis)."""
    y = np.moveaxis(np.asarray(y), time_axis, -1)
    return {"y_sum": y.sum(-1), "y_sq": (y * y).sum(-1), "y_tail": np.moveaxis(y[..., -tail:], -1, time_axis),
            "y_every": np.moveaxis(y[..., ::every], -1, time_axis)}


DIGEST_PARTS = ("sum", "sq", "tail", "every")


def digested(got, key: str = "y0", *, time_axis: int = -2) -> dict:
    """The digest (`digest`) of output ``key`` of a probe's result: made here from the full outputs where the probe
    sent them, or as the probe made it after the call where they were long (keys ``<key>_sum``, ``<key>_sq``,
    ``<key>_tail``, ``<key>_every``, as `digest` names them with ``y``). A cost case's ``outputs``: its reference
    is a digest, and a probe cannot send 64 MiB of outputs."""
    if key in got:
        return digest(np.asarray(got[key], dtype=np.float64), time_axis=time_axis)
    missing = [part for part in DIGEST_PARTS if f"{key}_{part}" not in got]
    if missing:
        raise ValueError(f"the result has no '{key}'")
    return {f"y_{part}": np.asarray(got[f"{key}_{part}"], dtype=np.float64) for part in DIGEST_PARTS}
