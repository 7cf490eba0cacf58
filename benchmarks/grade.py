"""`tasks.py bench grade`: grading time against the floor, measured in the same run.

floor   one notebook whose only cell is `import torch`, run by nbclient in a fresh Python (what
        any notebook grader pays at least): wall time and CPU.
single  one `grade submission` (the CLI, a fresh process) of the tiny toy assignment's solution
        (tests/fixtures/toy-root: three functions' worth of checks, one notebook), warm (the
        default) and cold (LRKIT_WARM=0), each against the floor.
batch   `grade batch` of N copies at --jobs 1 and 2: wall time per submission, warm and cold.
CPU     everything a command and all its children used (a cgroup around it: cpuacct or cpu.stat;
        getrusage(RUSAGE_CHILDREN) where there is none), per submission.
stages  where the time of one grade goes, each stage alone: a sandboxed Python, + `import torch`,
        + the interpreter's teardown, the notebook stage, the checks stage, the template's start.

Targets (issue 16): single <= 0.9 x floor; batch at --jobs 2 <= 0.4 x floor per submission; CPU per
submission at most half of cold; the same verdicts warm and cold. The machine's load is printed
with the numbers: on a shared machine, read them with it.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from grader import sandbox
from grader.config import load_assignment
from grader.sandbox.cgroup import Cgroup, cgroup_kind

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
GRADE = [PYTHON, "-m", "grader.cli"]
FLOOR = ("import sys, nbformat; from nbclient import NotebookClient; "
         "NotebookClient(nbformat.read(sys.argv[1], 4)).execute()")
PREPARE = """import sys; from pathlib import Path
from grader.authoring.build import build; from grader.authoring.release import release_assignment
root = Path(sys.argv[1]); assert build(root) == 0; release_assignment(root, "toy", root / "dist")"""


def measure(argv: list[str], env: dict[str, str] | None = None, ok: tuple[int, ...] = (0,),
            outliving: list | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and everything it started); exit codes in ``ok`` only.
    (`grade` exits 1 when a submission was not graded, e.g. timed out: the verdicts then differ.) ``outliving``:
    the command may leave a process that outlives it (`grade --local`'s kept template): its cgroup is appended
    there for the caller to remove (and so end that process) when done, instead of removed at once."""
    group = Cgroup.create(memory_mb=1 << 16, max_procs=4096, cpus=float(os.cpu_count() or 1)) if cgroup_kind() else None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run(argv, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, preexec_fn=_join(group.procs_files()) if group else None)
        wall = time.perf_counter() - started
        if done.returncode not in ok:
            raise subprocess.CalledProcessError(done.returncode, argv, stderr=done.stderr)
        if group is not None and group.cpu_s() > 0:
            return wall, group.cpu_s()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    except subprocess.CalledProcessError as exc:
        raise RuntimeError(f"{' '.join(argv[:4])} failed: {exc.stderr.decode(errors='replace')[-2000:]}") from None
    finally:
        if group is not None and outliving is not None:
            outliving.append(group)
        elif group is not None:
            group.remove()


def _join(files: list[str]):
    def apply() -> None:
        for name in files:
            with open(name, "w") as fh:
                fh.write(str(os.getpid()))
    return apply


def median(pairs: list[tuple[float, float]]) -> dict[str, float]:
    return {"wall_s": round(statistics.median(p[0] for p in pairs), 2),
            "cpu_s": round(statistics.median(p[1] for p in pairs), 2)}


def prepare(work: Path, copies: int) -> dict[str, Path]:
    root = work / "toy-root"
    shutil.copytree(ROOT / "tests" / "fixtures" / "toy-root", root)
    subprocess.run([PYTHON, "-c", PREPARE, str(root)], check=True, stdout=subprocess.DEVNULL)
    solution = root / "solutions" / "toy"
    batch = work / "class"
    for n in range(copies):
        for name in load_assignment(solution, check_name=False).student_files:
            (batch / f"student{n:02d}").mkdir(parents=True, exist_ok=True)
            shutil.copy(solution / name, batch / f"student{n:02d}" / name)
    nb = {"cells": [{"cell_type": "code", "id": "c0", "metadata": {}, "source": "import torch", "outputs": [],
                     "execution_count": None}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (work / "floor.ipynb").write_text(json.dumps(nb))
    return {"bundle": root / "dist" / "toy-autograder.zip", "one": batch / "student00", "batch": batch,
            "floor": work / "floor.ipynb", "solution": solution}


def verdicts(out: Path) -> list[tuple]:
    found = []
    for path in sorted(out.rglob("report.json")):
        report = json.loads(path.read_text())
        found.append((report["status"], report["score"], tuple((i["id"], i["points"]) for i in report["items"])))
    return found


def single(paths: dict, work: Path, mode: str, repeat: int) -> tuple[dict, list]:
    runs, seen = [], []
    for n in range(repeat):
        out = work / f"one-{mode}-{n}"
        runs.append(measure(GRADE + ["submission", str(paths["one"]), "--autograder", str(paths["bundle"]),
                                     "--out", str(out)], {"LRKIT_WARM": "1" if mode == "warm" else "0"}, ok=(0, 1)))
        seen += verdicts(out)
    return median(runs), seen


def batch(paths: dict, work: Path, mode: str, jobs: int, copies: int) -> tuple[dict, list]:
    out = work / f"batch-{mode}-{jobs}"
    wall, cpu = measure(GRADE + ["batch", str(paths["batch"]), "--autograder", str(paths["bundle"]), "--out", str(out),
                                 "--jobs", str(jobs), "--force"], {"LRKIT_WARM": "1" if mode == "warm" else "0"},
                        ok=(0, 1))
    return {"wall_s": round(wall, 2), "per_submission_s": round(wall / copies, 2),
            "cpu_per_submission_s": round(cpu / copies, 2)}, verdicts(out)


def stages(paths: dict, repeat: int) -> dict[str, dict[str, float]]:
    """Each stage of one grade alone, in this process (medians of `repeat`): wall and CPU."""
    from grader.grading.execute import execute_notebook, prepare_notebook
    from grader.grading.probing import run_checks

    config = load_assignment(paths["solution"], check_name=False)
    nb = json.loads((paths["solution"] / config.notebook).read_text())
    prepared, _ = prepare_notebook(nb, nb)
    limits = sandbox.RunLimits(wall_s=120)
    tree = paths["one"]

    def py(code: str):
        result = sandbox.run([sandbox.sandbox_python(), "-I", "-c", code], mounts=[], cwd="/", env={}, limits=limits)
        return result.wall_s, result.cpu_s

    def notebook():
        run = execute_notebook(tree, config.notebook, prepared, config.limits)
        return run.seconds, run.cpu_s

    def checks():
        run = run_checks(paths["solution"], tree, config=config)
        return run.seconds, run.cpu_s

    out: dict[str, dict[str, float]] = {}
    for mode in ("cold", "warm"):
        os.environ["LRKIT_WARM"] = "1" if mode == "warm" else "0"
        if mode == "warm":
            sandbox.warm.shutdown()
            started = time.perf_counter()
            sandbox.warm._template()
            out["warm: template start (once per grader)"] = {"wall_s": round(time.perf_counter() - started, 2),
                                                             "cpu_s": 0.0}
        for name, fn in ((f"{mode}: sandboxed python", lambda: py("pass")),
                         (f"{mode}: + import torch", lambda: py("import torch")),
                         (f"{mode}: + import torch, no teardown", lambda: py("import torch, os; os._exit(0)")),
                         (f"{mode}: notebook stage (toy)", notebook), (f"{mode}: checks stage (toy)", checks)):
            out[name] = median([fn() for _ in range(repeat)])
    os.environ.pop("LRKIT_WARM", None)
    sandbox.warm.shutdown()
    return out


def report(results: dict) -> None:
    floor = results["floor"]["wall_s"]
    print(f"load average before/after: {results['load_before']} / {results['load_after']} on {os.cpu_count()} CPUs")
    print(f"floor (nbclient, one cell `import torch`): {floor} s wall, {results['floor']['cpu_s']} s CPU")
    for mode in ("cold", "warm"):
        one = results["single"][mode]
        print(f"grade submission, {mode}: {one['wall_s']} s = {one['wall_s'] / floor:.2f} x floor "
              f"(target <= 0.9), {one['cpu_s']} s CPU")
    for mode in ("cold", "warm"):
        for jobs, b in sorted(results["batch"][mode].items()):
            print(f"batch of {results['copies']}, {mode}, --jobs {jobs}: {b['per_submission_s']} s per submission = "
                  f"{b['per_submission_s'] / floor:.2f} x floor{' (target <= 0.4)' if jobs == '2' else ''}, "
                  f"{b['cpu_per_submission_s']} s CPU per submission")
    cold_cpu = results["batch"]["cold"]["1"]["cpu_per_submission_s"]
    warm_cpu = results["batch"]["warm"]["1"]["cpu_per_submission_s"]
    print(f"CPU per submission (batch, --jobs 1): cold {cold_cpu} s, warm {warm_cpu} s = {warm_cpu / cold_cpu:.2f} x "
          "(target <= 0.5)")
    print(f"verdicts identical warm and cold: {results['same_verdicts']}"
          + ("" if results["same_verdicts"] else f" {results['verdicts']}"))
    print("stages (each alone, medians):")
    for name, s in results["stages"].items():
        print(f"  {name:<42} {s['wall_s']:6.2f} s wall {s['cpu_s']:6.2f} s CPU")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tasks.py bench grade")
    p.add_argument("--copies", type=int, default=8, help="submissions in each batch")
    p.add_argument("--repeat", type=int, default=3, help="runs of the floor, the single grade and each stage")
    p.add_argument("--no-stages", action="store_true")
    args = p.parse_args(argv)
    if not sandbox.sandbox_available():
        print("no sandbox here (Linux, root, bubblewrap): the comparison would not be the official one")
        return 1
    results: dict = {"isolation": list(sandbox.detect_isolation()), "copies": args.copies,
                     "load_before": [round(x, 1) for x in os.getloadavg()]}
    with tempfile.TemporaryDirectory(prefix="lrkit-bench-") as tmp:
        work = Path(tmp)
        paths = prepare(work, args.copies)
        floor_env = {k: v for k, v in os.environ.items() if not k.startswith("LRKIT")}
        results["floor"] = median([measure([PYTHON, "-c", FLOOR, str(paths["floor"])], floor_env)
                                   for _ in range(args.repeat)])
        results["single"], seen = {}, {}
        for mode in ("warm", "cold"):
            results["single"][mode], seen[f"single-{mode}"] = single(paths, work, mode, args.repeat)
        results["batch"] = {"warm": {}, "cold": {}}
        for mode in ("warm", "cold"):
            for jobs in (1, 2):
                results["batch"][mode][str(jobs)], seen[f"batch-{mode}-{jobs}"] = batch(paths, work, mode, jobs,
                                                                                      args.copies)
        results["same_verdicts"] = len({v for found in seen.values() for v in found}) == 1
        results["verdicts"] = {run: sorted({f"{v[0]} {v[1]:g}" for v in found}) for run, found in seen.items()}
        results["stages"] = {} if args.no_stages else stages(paths, args.repeat)
    results["load_after"] = [round(x, 1) for x in os.getloadavg()]
    report(results)
    out = ROOT / "out" / "bench-grade.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2, sort_keys=True))
    print(f"wrote {out}")
    return 0
