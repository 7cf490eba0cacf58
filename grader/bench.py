"""`tasks.py bench grade`: where grading time goes, against the floor measured in the same run.

floor    = a sandboxed kernel that starts and imports torch (through nbrunner)
         + one sandboxed Python process that imports torch
overhead = grading wall time - the time the notebook's own cells spend computing
target   : overhead <= 2 x floor for one submission; --jobs 2 gives >= 1.7x the throughput of --jobs 1
"""
from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from grader import sandbox
from grader.config import AssignmentLimits
from grader.grading.batch import grade_batch
from grader.grading.execute import execute_notebook
from grader.grading.pipeline import grade_submission
from grader.report.render import write_reports

ROOT = Path(__file__).resolve().parent.parent


def measure_floor(unsandboxed: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="lrkit-floor-") as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        nb = {"cells": [{"cell_type": "code", "id": "c0", "metadata": {"tags": []}, "source": "import torch",
                         "outputs": [], "execution_count": None}],
              "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        started = time.perf_counter()
        execute_notebook(tree, "floor.ipynb", nb, AssignmentLimits(), unsandboxed=unsandboxed)
        kernel = time.perf_counter() - started
        started = time.perf_counter()
        sandbox.run([sandbox.sandbox_python(), "-I", "-c", "import torch"],
                    mounts=[sandbox.Mount(tree, "/submission", writable=True)], cwd="/submission", env={},
                    limits=sandbox.RunLimits(wall_s=120), unsandboxed=unsandboxed)
        process = time.perf_counter() - started
    return {"kernel_with_torch_s": round(kernel, 2), "process_with_torch_s": round(process, 2),
            "floor_s": round(kernel + process, 2)}


def measure_one(name: str, unsandboxed: bool) -> dict[str, float]:
    submission = ROOT / "examples" / "submissions" / name / "solution"
    bundle = ROOT / "dist" / f"{name}-autograder.zip"
    started = time.perf_counter()
    report = grade_submission(submission, bundle, unsandboxed=unsandboxed)
    graded = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        write_reports(report, Path(tmp))
        reporting = time.perf_counter() - started
    compute = sum(c.seconds for c in report.cells)
    peak = max(report.timings.get("notebook_peak_mb", 0.0), report.timings.get("checks_peak_mb", 0.0))
    return {"notebook_s": report.timings.get("notebook_s", 0.0), "checks_s": report.timings.get("checks_s", 0.0),
            "reporting_s": round(reporting, 3), "total_s": round(graded + reporting, 2),
            "cell_compute_s": round(compute, 2), "overhead_s": round(graded + reporting - compute, 2),
            "peak_sandbox_memory_mb": round(peak, 1), "score": report.score, "max_score": report.max_score}


def measure_batch(name: str, count: int, jobs: int, unsandboxed: bool) -> float:
    source = ROOT / "examples" / "submissions" / name / "solution"
    with tempfile.TemporaryDirectory(prefix="lrkit-bench-") as tmp:
        subs = Path(tmp) / "subs"
        for n in range(count):
            shutil.copytree(source, subs / f"student{n:02d}")
        started = time.perf_counter()
        grade_batch(subs, ROOT / "dist" / f"{name}-autograder.zip", Path(tmp) / "out", jobs=jobs, force=True,
                    unsandboxed=unsandboxed)
        return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tasks.py bench grade")
    p.add_argument("--assignments", nargs="*", default=["linear-attention-basics", "linear-attention-hybrid"])
    p.add_argument("--batch", type=int, default=8, help="submissions in the jobs 1 vs 2 comparison")
    p.add_argument("--batch-assignment", default="linear-attention-basics")
    args = p.parse_args(argv)
    unsandboxed = not sandbox.sandbox_available()
    results: dict = {"isolation": list(sandbox.detect_isolation()) if not unsandboxed else ["unsandboxed"]}
    results["floor"] = floor = measure_floor(unsandboxed)
    print(f"floor: kernel+torch {floor['kernel_with_torch_s']} s + process+torch {floor['process_with_torch_s']} s"
          f" = {floor['floor_s']} s")
    for name in args.assignments:
        one = measure_one(name, unsandboxed)
        ratio = one["overhead_s"] / floor["floor_s"]
        results[name] = {**one, "overhead_over_floor": round(ratio, 2)}
        print(f"{name}: total {one['total_s']} s = notebook {one['notebook_s']} s (cells computing "
              f"{one['cell_compute_s']} s) + checks {one['checks_s']} s + reporting {one['reporting_s']} s; "
              f"overhead {one['overhead_s']} s = {ratio:.2f} x floor (target <= 2); peak sandbox memory "
              f"{one['peak_sandbox_memory_mb']} MB; score {one['score']:g}/{one['max_score']:g}")
    if args.batch:
        t1 = measure_batch(args.batch_assignment, args.batch, 1, unsandboxed)
        t2 = measure_batch(args.batch_assignment, args.batch, 2, unsandboxed)
        results["batch"] = {"submissions": args.batch, "jobs1_s": round(t1, 1), "jobs2_s": round(t2, 1),
                            "speedup": round(t1 / t2, 2)}
        print(f"batch of {args.batch} ({args.batch_assignment}): --jobs 1 {t1:.1f} s, --jobs 2 {t2:.1f} s, "
              f"throughput x{t1 / t2:.2f} (target >= 1.7)")
    out = ROOT / "out" / "bench-grade.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2, sort_keys=True))
    print(f"wrote {out}")
    return 0
