"""`tasks.py bench class`: the real assignments, a whole class, against the floor measured in the same run.

For each assignment (or the ones named), a class of `--copies` copies of its example solution
(`examples/submissions/<name>/solution`) and one copy of each of its example bugs, graded with the
assignment's own bundle (released into a scratch folder from the current trees):

floor    one notebook whose only cell is `import torch`, run by nbclient in a fresh Python
single   one `grade submission` of the solution (a fresh process, warm start): wall and CPU
batch    `grade batch` of the class at each `--jobs`: wall and CPU per submission
stages   where a submission's time goes, read from the reports the batch wrote: the notebook (and its
         slowest cells), the checks (the ordinary cases in one run, then every cost case's runs), the
         whole grade; medians over the class's solution copies

Ratios are per submission against the floor. The machine's load is printed before and after: on a
shared machine, read the numbers with it. Targets (issue 28): basics batch at --jobs 2 <= 0.8 x the
floor per submission, hybrid <= 1.2 x; a single grade <= 0.6 x.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
from pathlib import Path

from benchmarks.grade import FLOOR, GRADE, PYTHON, measure
from grader import sandbox
from grader.grading.probing import lanes_for

ROOT = Path(__file__).resolve().parent.parent
ASSIGNMENTS = ("linear-attention-basics", "linear-attention-hybrid")
TARGETS = {"linear-attention-basics": 0.8, "linear-attention-hybrid": 1.2}
SINGLE_TARGET = 0.6


def bundle(name: str, dist: Path) -> Path:
    """The assignment's autograder bundle, released from the current trees (run `tasks.py build` first)."""
    from grader.authoring.release import release_assignment

    release_assignment(ROOT, name, dist)
    return dist / f"{name}-autograder.zip"


def make_class(name: str, dest: Path, copies: int) -> tuple[list[str], list[str]]:
    """(solution copies, bug copies) written under ``dest``: the example solution ``copies`` times, and
    every example submission that is not the solution or the untouched template once."""
    examples = ROOT / "examples" / "submissions" / name
    ignore = shutil.ignore_patterns("__pycache__", ".lrkit-cache")
    solutions = [f"solution{n:03d}" for n in range(copies)]
    for folder in solutions:
        shutil.copytree(examples / "solution", dest / folder, ignore=ignore)
    bugs = [p.name for p in sorted(examples.iterdir())
            if p.is_dir() and p.name not in ("solution", "untouched_template")]
    for folder in bugs:
        shutil.copytree(examples / folder, dest / folder, ignore=ignore)
    return solutions, bugs


def stages(out: Path, solutions: list[str]) -> dict:
    """Medians over the solution copies' reports: notebook, checks, total (wall and CPU), slowest cells."""
    timings, cells = [], {}
    for folder in solutions:
        path = out / folder / "report.json"
        if not path.is_file():
            continue
        report = json.loads(path.read_text())
        timings.append(report.get("timings") or {})
        for n, cell in enumerate(report.get("cells") or []):
            cells.setdefault(cell.get("id") or str(n), []).append(float(cell.get("seconds") or 0.0))
    keys = sorted({k for t in timings for k in t})
    out_stages = {k: round(statistics.median(t.get(k, 0.0) for t in timings), 2) for k in keys} if timings else {}
    slowest = sorted(((round(statistics.median(v), 2), k) for k, v in cells.items()), reverse=True)[:6]
    return {"timings": out_stages, "slowest_cells": [{"cell": k, "seconds": s} for s, k in slowest]}


def run_assignment(name: str, work: Path, copies: int, jobs: list[int], floor: float) -> dict:
    klass = work / name / "class"
    solutions, bugs = make_class(name, klass, copies)
    zip_path = bundle(name, work / name / "dist")
    total = len(solutions) + len(bugs)
    result: dict = {"submissions": total, "solutions": len(solutions), "bugs": bugs, "batch": {}}
    one_out = work / name / "one"
    wall, cpu = measure(GRADE + ["submission", str(klass / solutions[0]), "--autograder", str(zip_path),
                                 "--out", str(one_out)], ok=(0, 1))
    result["single"] = {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "x_floor": round(wall / floor, 2),
                        "lanes": lanes_for(1)}
    for j in jobs:
        out = work / name / f"batch-{j}"
        wall, cpu = measure(GRADE + ["batch", str(klass), "--autograder", str(zip_path), "--out", str(out),
                                     "--jobs", str(j), "--force"], ok=(0, 1))
        result["batch"][str(j)] = {"wall_s": round(wall, 2), "per_submission_s": round(wall / total, 2),
                                   "cpu_per_submission_s": round(cpu / total, 2),
                                   "x_floor": round(wall / total / floor, 2), "stages": stages(out, solutions),
                                   "lanes": lanes_for(j)}
    return result


def report(results: dict) -> None:
    floor = results["floor"]["wall_s"]
    print(f"load average before/after: {results['load_before']} / {results['load_after']} on {os.cpu_count()} CPUs")
    print(f"floor (nbclient, one cell `import torch`): {floor} s wall, {results['floor']['cpu_s']} s CPU")
    for name, r in results["assignments"].items():
        print(f"\n{name}: {r['submissions']} submissions ({r['solutions']} solution copies, bugs: "
              f"{', '.join(r['bugs']) or '-'})")
        one = r["single"]
        print(f"  grade submission ({one['lanes']} lane(s) of check runs): {one['wall_s']} s = {one['x_floor']} x "
              f"floor (target <= {SINGLE_TARGET}), {one['cpu_s']} s CPU")
        for j, b in sorted(r["batch"].items()):
            target = f" (target <= {TARGETS.get(name, '-')})" if j == "2" else ""
            print(f"  batch --jobs {j} ({b['lanes']} lane(s) a grading): {b['wall_s']} s, "
                  f"{b['per_submission_s']} s per submission = {b['x_floor']} x floor{target}, "
                  f"{b['cpu_per_submission_s']} s CPU per submission")
            t = b["stages"]["timings"]
            if t:
                print("    per solution copy (medians): " + ", ".join(f"{k} {v}" for k, v in t.items()))
            cells = b["stages"]["slowest_cells"]
            if cells:
                print("    slowest notebook cells: " + ", ".join(f"{c['cell']} {c['seconds']} s" for c in cells))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tasks.py bench class")
    p.add_argument("assignments", nargs="*", default=list(ASSIGNMENTS))
    p.add_argument("--copies", type=int, default=6, help="copies of the solution in each class")
    p.add_argument("--jobs", default="1,2", help="comma-separated --jobs values for the batch")
    p.add_argument("--repeat", type=int, default=3, help="runs of the floor")
    args = p.parse_args(argv)
    if not sandbox.sandbox_available():
        print("no sandbox here (Linux, root, bubblewrap): the comparison would not be the official one")
        return 1
    unknown = [a for a in args.assignments if not (ROOT / "examples" / "submissions" / a / "solution").is_dir()]
    if unknown:
        print(f"no example solution for {', '.join(unknown)} (examples/submissions/<name>/solution)")
        return 1
    jobs = [int(j) for j in args.jobs.split(",") if j.strip()]
    # a class of students whose code differs: every grading measures its cost cases (the copies of one solution
    # would otherwise stand on the first copy's kept passes: `model_costs.Kept.passed_before`)
    os.environ["LRKIT_KEEP_PASSES"] = "0"
    results: dict = {"copies": args.copies, "load_before": [round(x, 1) for x in os.getloadavg()],
                     "assignments": {}}
    with tempfile.TemporaryDirectory(prefix="lrkit-bench-class-") as tmp:
        work = Path(tmp)
        nb = {"cells": [{"cell_type": "code", "id": "c0", "metadata": {}, "source": "import torch", "outputs": [],
                         "execution_count": None}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        (work / "floor.ipynb").write_text(json.dumps(nb))
        env = {k: v for k, v in os.environ.items() if not k.startswith("LRKIT")}
        runs = [measure([PYTHON, "-c", FLOOR, str(work / "floor.ipynb")], env) for _ in range(args.repeat)]
        results["floor"] = {"wall_s": round(statistics.median(r[0] for r in runs), 2),
                            "cpu_s": round(statistics.median(r[1] for r in runs), 2)}
        for name in args.assignments:
            results["assignments"][name] = run_assignment(name, work, args.copies, jobs, results["floor"]["wall_s"])
    results["load_after"] = [round(x, 1) for x in os.getloadavg()]
    report(results)
    out = ROOT / "out" / "bench-class.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2, sort_keys=True))
    print(f"\nwrote {out}")
    return 0
