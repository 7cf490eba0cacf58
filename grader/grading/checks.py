"""Official checks: the grader-side half of each probe/verdict pair.

An instructor writes, in ``hidden/verdicts.py``::

    @check(probe="linear_parallel")
    def normalizer_parallel():
        '''Linear attention (parallel form) divides by phi(q).z.'''
        yield Case(label="L=7", inputs={...}, expect={"y": ref_y}, hint="...")

The probe of the same name in ``hidden/probes.py`` runs in the sandbox on ``inputs``;
its plain-data results come back here and `judge_case` compares them with ``expect``
(or hands them to ``judge``). Nothing in this module ever imports student code.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, NamedTuple

import numpy as np

from grader.grading.fingerprint import output_digest
from grader.results import CaseOutcome
from grader.sandbox.channel import seeded_array, seeded_tokens

Scalar = bool | int | float | str
Value = np.ndarray | Scalar


class Misshapen(str):
    """A judge's verdict that the student's result has the wrong shape for the input (or cannot be read as the
    property needs): the form cannot take this input class, as when it raises on it. The case says nothing about
    a property (an item with `evidence` leaves it to the form's own items, grader/grading/score.py); a check about
    the form itself (no `evidence`) still fails it. Return ``Misshapen("...")`` (or `shape_problem`) from a judge;
    a plain string is a wrong answer."""


def shape_problem(y: np.ndarray, want: tuple[int, ...], what: str = "the output") -> Misshapen | None:
    """`Misshapen` when ``y`` does not have the shape ``want``, else None."""
    if tuple(np.shape(y)) != tuple(want):
        return Misshapen(f"{what} has shape {tuple(np.shape(y))}, expected {tuple(want)}")
    return None


class Seeded(NamedTuple):
    """An input array named by its seed: numpy's ``default_rng(seed).standard_normal(shape) * scale``, float64. The
    driver makes it in the sandbox and hands it to the student's process as any input array (a cost case's 192 MiB
    are not sent); `array` makes the same one here, for the reference (`inside/seeded.py`: one rule, both sides)."""

    seed: int
    shape: tuple[int, ...]
    scale: float = 1.0
    # handed over token by token (`inside/seeded.Stream`: ``token(t)`` in order), never whole: a decoding step's
    # input, so that no history of it lies in the stepping process but what the step keeps (blind attacks25)
    stream: bool = False

    def array(self) -> np.ndarray:
        return seeded_array(self.seed, self.shape, self.scale)

    def tokens(self, start: int, stop: int) -> np.ndarray:
        """Its tokens ``start`` .. ``stop - 1`` along the token axis (-2), as `array` has them: a part of a long
        stream without the whole of it in memory."""
        return seeded_tokens(self.seed, self.shape, start, stop, self.scale)


@dataclass(frozen=True)
class Case:
    """One input to a probe and the rule that decides whether its result is right."""

    label: str
    inputs: Mapping[str, Value]
    expect: Mapping[str, Value] | None = None
    judge: Callable[[Mapping[str, Value]], str | None] | None = None
    atol: float = 1e-8
    rtol: float = 1e-6
    suspects: Mapping[str, Mapping[str, Value] | np.ndarray] = field(default_factory=dict)
    hint: str = ""
    judged_if: str = ""  # this case's gate, where one check runs several forms (else the check's `judged_if`)
    # what the probe's result is judged as (a digest of long outputs: `grader.checks.digested`), where not as it is
    outputs: Callable[[Mapping[str, Value]], Mapping[str, Value]] | None = None


@dataclass(frozen=True)
class CheckSpec:
    """A registered check: its name, the probe it drives and its case generator."""

    name: str
    probe: str
    title: str
    cases: Callable[[], Iterator[Case]]
    cause: str = ""
    judged_if: str = ""  # a check that must hold for this one to be judged (its form works from a given state ...)
    raising_fails: bool = False  # the check is about an input class: code that raises on it fails it


def check(probe: str, title: str | None = None, cause: str = "", judged_if: str = "",
          raising_fails: bool = False) -> Callable:
    """Mark a generator of `Case`s as an official check driving ``probe``. ``cause``: the mistake a
    failure of this check points at (a pitfall check's pitfall), so that the items one mistake costs
    can be grouped under it in the report. ``judged_if``: another check (a gate, never an item's) that
    must hold for this one to say anything: a property tested on step from a given state says nothing
    when step ignores the state it is given. Where the gate fails, an item with `evidence` is judged on
    its other checks (as for cases where the code raised); with none left, it gets no credit.
    ``raising_fails``: the check is about an input class (long sequences, one token, a batch of one), so
    code that raises on its inputs fails it, where the form is judged at all, instead of being left out as
    a crash that belongs to another item."""

    def mark(fn: Callable[[], Iterator[Case]]) -> Callable[[], Iterator[Case]]:
        doc = (fn.__doc__ or "").strip().splitlines()
        fn.__lrkit_check__ = CheckSpec(fn.__name__, probe, title or (doc[0] if doc else fn.__name__), fn, cause,
                                       judged_if, raising_fails)
        return fn

    return mark


_IMPORT_LOCK = threading.Lock()


def load_checks(hidden_dir: Path) -> dict[str, CheckSpec]:
    """Import ``hidden_dir/verdicts.py`` as a private package and collect its checks.
    Serialised: a batch's worker threads share one bundle, and a module registered in
    sys.modules before it finished executing would look empty to a second thread."""
    with _IMPORT_LOCK:
        return _load_checks(hidden_dir)


def _load_checks(hidden_dir: Path) -> dict[str, CheckSpec]:
    verdicts = hidden_dir / "verdicts.py"
    if not verdicts.is_file():
        return {}
    pkg = f"_lrkit_hidden_{abs(hash(str(hidden_dir.resolve())))}"
    if pkg not in sys.modules:
        init_spec = importlib.util.spec_from_file_location(
            pkg, hidden_dir / "__init__.py", submodule_search_locations=[str(hidden_dir)]
        )
        package = importlib.util.module_from_spec(init_spec)
        sys.modules[pkg] = package
        if (hidden_dir / "__init__.py").is_file():
            init_spec.loader.exec_module(package)
    name = f"{pkg}.verdicts"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, verdicts)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    found = {}
    # verdicts.py and the hidden modules it imports (a long verdicts file may be split in several)
    modules = [module] + [m for n, m in sorted(sys.modules.items()) if n.startswith(pkg + ".") and m is not module]
    for mod in modules:
        for value in vars(mod).values():
            spec_ = getattr(value, "__lrkit_check__", None)
            if isinstance(spec_, CheckSpec):
                found.setdefault(spec_.name, spec_)
    return found


def probe_names(hidden_dir: Path) -> set[str]:
    """Names of the top-level functions in ``hidden/probes.py`` (read, not imported)."""
    import ast

    path = hidden_dir / "probes.py"
    if not path.is_file():
        return set()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}


# ----------------------------------------------------------------------------- judging

def _where(index: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(int(i)) for i in index) + ")"


def _compare(name: str, got: Any, want: Any, atol: float, rtol: float) -> str | None:
    """Return None when ``got`` matches ``want``, else a message without the expected values."""
    if isinstance(want, str) or isinstance(want, bool):
        if type(got) is not type(want) or got != want:
            return f"'{name}' is not what a correct implementation gives"
        return None
    want_arr = np.asarray(want, dtype=np.float64)
    if not isinstance(got, (np.ndarray, int, float)) or isinstance(got, bool) and want_arr.dtype != bool:
        return f"'{name}' should be numeric, got {type(got).__name__}"
    got_arr = np.asarray(got)
    if got_arr.dtype.kind not in "biuf":
        return f"'{name}' has dtype {got_arr.dtype}, expected a real number type"
    if got_arr.shape != want_arr.shape:
        return Misshapen(f"'{name}' has shape {tuple(got_arr.shape)}, expected {tuple(want_arr.shape)}")
    got_arr = got_arr.astype(np.float64)
    bad = ~np.isfinite(got_arr) & np.isfinite(want_arr)
    if bad.any():
        return f"'{name}' contains NaN or inf, first at index {_where(np.argwhere(bad)[0])}"
    diff = np.abs(got_arr - want_arr)
    wrong = ~(diff <= atol + rtol * np.abs(want_arr))
    wrong &= ~(np.isnan(got_arr) & np.isnan(want_arr))
    if not wrong.any():
        return None
    first = np.argwhere(wrong)[0] if got_arr.ndim else ()
    finite = diff[np.isfinite(diff)]
    largest = float(finite.max()) if finite.size else float("inf")
    return (
        f"'{name}' differs from a correct implementation: {int(wrong.sum())} of {wrong.size} entries wrong, "
        f"first at index {_where(tuple(first))}, largest error {largest:.3g}"
    )


def _matches(got: Mapping[str, Value], suspect: Mapping[str, Value] | np.ndarray, atol: float, rtol: float,
             keys: list[str]) -> bool:
    if not isinstance(suspect, Mapping):
        suspect = {keys[0]: suspect}
    return all(k in got and _compare(k, got[k], v, atol, rtol) is None for k, v in suspect.items())


def judge_case(spec: CheckSpec, case: Case, got: Mapping[str, Value] | None, error: str = "") -> CaseOutcome:
    """Decide one case. ``got`` is the probe's plain-data result, ``error`` why there is none."""
    outcome = _judged(spec, case, got, error)
    if spec.raising_fails and (outcome.raised or outcome.misshapen):  # the input class this check is about
        outcome = dataclasses.replace(outcome, raised=False, misshapen=False)  # raising on it is its failure
    gate = case.judged_if or spec.judged_if
    return dataclasses.replace(outcome, judged_if=gate) if gate else outcome


def _judged(spec: CheckSpec, case: Case, got: Mapping[str, Value] | None, error: str) -> CaseOutcome:
    prefix = f"{spec.title} [{case.label}]"
    hint = f" Hint: {case.hint}" if case.hint else ""
    if got is None:
        raised = error.startswith("raised ")
        return CaseOutcome(spec.name, case.label, False, f"{prefix}: {error or 'no result'}.{hint}",
                           cause=error if raised else spec.cause, raised=raised)
    if case.outputs is not None:
        try:
            got = case.outputs(got)
        except Exception as exc:  # hostile or odd output: a failed case, said plainly
            return CaseOutcome(spec.name, case.label, False, f"{prefix}: the result could not be read "
                               f"({type(exc).__name__}: {str(exc)[:200]}).{hint}", cause=spec.cause)
    problems: list[str] = []
    keys = list(case.expect or {})
    for key, want in (case.expect or {}).items():
        if key not in got:
            problems.append(f"the result has no '{key}'")
            continue
        problem = _compare(key, got[key], want, case.atol, case.rtol)
        if problem:
            problems.append(problem)
    if case.judge is not None and not problems:
        try:
            verdict = case.judge(got)
        except Exception as exc:  # a judge crashing on odd student output is a failed case
            verdict = f"the result could not be judged ({type(exc).__name__}: {exc})"
        if verdict:
            problems.append(verdict)
    if not problems:
        return CaseOutcome(spec.name, case.label, True)
    cause = spec.cause
    for mistake, suspect in case.suspects.items():
        if keys and _matches(got, suspect, case.atol, case.rtol, keys):
            problems.append(f"{SUSPECT_PHRASE}{mistake}")
            break
    named = [p.split(SUSPECT_PHRASE, 1)[1] for p in problems if SUSPECT_PHRASE in p]
    if named:
        cause = named[-1]
    return CaseOutcome(spec.name, case.label, False, f"{prefix}: {'; '.join(problems)}.{hint}", cause=cause,
                       digest=output_digest(got, keys),  # who else gave these wrong numbers: grade similarity
                       misshapen=any(isinstance(p, Misshapen) for p in problems))


SUSPECT_PHRASE = "this is exactly what you get when "
