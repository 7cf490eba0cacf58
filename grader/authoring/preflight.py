"""Run the hidden code once, before grading, so that its mistakes name the author's own line.

Graded in the sandbox, a probe that raises (an ImportError in `hidden/probes.py`, a call that does not
fit the student's function) is one failed case per case, told to the student's code; a judge that raises
is "the result could not be judged". Here, `tasks.py check` imports `hidden/probes.py` in a child
process beside the solution (the author's own code: outside the sandbox, with a time limit), calls each
check's probe on that check's smallest case, and runs the case's judge on what came back, each with its
full traceback. Every failure becomes one short message naming the file under `assignments/` and its line
(the innermost frame in the assignment's own files), grouped when one cause stops several checks.
"""
from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)
CALLER = Path(__file__).resolve().parents[1] / "sandbox" / "inside" / "caller.py"  # what the probes call through

CHILD = r'''
import importlib.util, json, sys, traceback
from pathlib import Path
import numpy as np

job, tree = Path(sys.argv[1]), sys.argv[2]
sys.path.append(tree)
spec = importlib.util.spec_from_file_location("lrkit_caller", sys.argv[3])  # lrkit_harness, as in the driver
caller = importlib.util.module_from_spec(spec)
spec.loader.exec_module(caller)
caller.install()

def failure(exc):
    text = str(exc).strip().split("\n")[0] if str(exc).strip() else ""
    return {"type": type(exc).__name__, "message": text[:2000],
            "frames": [(f.filename, f.lineno) for f in traceback.extract_tb(exc.__traceback__)]}

def plain(value):
    if hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    if isinstance(value, (bool, int, float, str)):
        return value
    return np.asarray(value)

out = {}
try:
    spec = importlib.util.spec_from_file_location("lrkit_probes", str(Path(tree, "hidden", "probes.py")))
    probes = importlib.util.module_from_spec(spec)
    sys.modules["lrkit_probes"] = probes
    spec.loader.exec_module(probes)
except BaseException as exc:
    out["import"] = failure(exc)
else:
    for case in json.loads((job / "cases.json").read_text()):
        kwargs = dict(case["scalars"])
        with np.load(job / (case["id"] + ".npz"), allow_pickle=False) as data:
            kwargs.update({key: data[key] for key in data.files})
        try:
            try:
                import torch
                torch.manual_seed(0)
            except ImportError:
                pass
            result = {str(k): plain(v) for k, v in getattr(probes, case["probe"])(**kwargs).items()}
            arrays = {k: v for k, v in result.items() if isinstance(v, np.ndarray) and v.dtype.kind in "biuf"}
            np.savez(job / (case["id"] + "-got.npz"), **arrays)
            out[case["id"]] = {"scalars": {k: v for k, v in result.items() if not isinstance(v, np.ndarray)}}
        except BaseException as exc:
            out[case["id"]] = {"error": failure(exc)}
(job / "out.json").write_text(json.dumps(out))
'''


@dataclass(frozen=True)
class Failure:
    """One exception of the hidden code: its type, first line, and (file, line) frames, innermost last."""

    type: str
    message: str
    frames: tuple[tuple[str, int], ...]


def _failure(data: dict) -> Failure:
    return Failure(str(data.get("type", "Exception")), str(data.get("message", "")),
                   tuple((str(f), int(n)) for f, n in data.get("frames", [])))


def smallest_cases(specs: dict) -> list[tuple[str, object, object]]:
    """(check name, spec, its smallest ordinary case) for every check that makes one."""
    from grader.grading.checks import Case

    chosen = []
    for name, spec in sorted(specs.items()):
        cases = [c for c in spec.cases() if isinstance(c, Case)]
        if cases:
            size = lambda c: sum(np.asarray(v).size for v in c.inputs.values())  # noqa: E731
            chosen.append((name, spec, min(cases, key=size)))
    return chosen


def run_probes(tree: Path, chosen: list, timeout_s: float) -> tuple[Failure | None, dict[str, object]]:
    """Import the probes beside the solution ``tree`` and call each chosen case's probe once, in a child
    process: (the import's failure or None, check name -> its result dict or its `Failure`)."""
    with tempfile.TemporaryDirectory(prefix="lrkit-preflight-") as tmp:
        job = Path(tmp)
        manifest = []
        for n, (name, spec, case) in enumerate(chosen):
            arrays = {k: np.asarray(v) for k, v in case.inputs.items() if isinstance(v, np.ndarray)}
            scalars = {k: v for k, v in case.inputs.items() if not isinstance(v, np.ndarray)}
            np.savez(job / f"c{n}.npz", **arrays)
            manifest.append({"id": f"c{n}", "probe": spec.probe, "scalars": scalars, "check": name})
        (job / "cases.json").write_text(json.dumps(manifest, default=float))
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "LRKIT_GRADING": "1"}
        try:
            subprocess.run([sys.executable, "-c", CHILD, str(job), str(tree), str(CALLER)], cwd=tree, env=env,
                           capture_output=True, timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired:
            return Failure("TimeoutError", f"the probes did not finish within {timeout_s:g} s", ()), {}
        try:
            out = json.loads((job / "out.json").read_text())
        except (OSError, ValueError):
            return Failure("RuntimeError", "the process calling the probes ended without an answer "
                                           "(does hidden/probes.py or the solution call exit()?)", ()), {}
        if "import" in out:
            return _failure(out["import"]), {}
        results: dict[str, object] = {}
        for entry in manifest:
            answer = out.get(entry["id"], {})
            if "error" in answer:
                results[entry["check"]] = _failure(answer["error"])
                continue
            got = dict(answer.get("scalars", {}))
            if (job / f"{entry['id']}-got.npz").is_file():
                with np.load(job / f"{entry['id']}-got.npz") as data:
                    got.update({k: data[k] for k in data.files})
            results[entry["check"]] = got
        return None, results


def judge_failure(case, got: dict) -> Failure | None:
    """The exception a case's judge raises on ``got`` (None when it returns)."""
    if case.judge is None:
        return None
    try:
        case.judge(got)
    except Exception as exc:  # the author's judge: any error is the author's
        frames = tuple((f.filename, f.lineno) for f in traceback.extract_tb(exc.__traceback__))
        return Failure(type(exc).__name__, str(exc).strip().split("\n")[0], frames)
    return None


def hidden_code_failures(tree: Path, specs: dict, timeout_s: float) -> list[tuple[Failure, str]]:
    """Every failure of the hidden code on the solution, each with what was running ("" = importing the probes)."""
    chosen = smallest_cases(specs)
    if not chosen or not (tree / "hidden" / "probes.py").is_file():
        return []
    failed, results = run_probes(tree, chosen, timeout_s)
    if failed is not None:
        return [(failed, "")]
    found = []
    for name, spec, case in chosen:
        got = results.get(name)
        if isinstance(got, Failure):
            found.append((got, f"probe {spec.probe!r} for check {name!r} (case {case.label!r})"))
        elif isinstance(got, dict):
            problem = judge_failure(case, got)
            if problem is not None:
                found.append((problem, f"the judge of check {name!r} (case {case.label!r}), on the solution's result"))
    return found
