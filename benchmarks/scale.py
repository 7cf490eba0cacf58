"""`tasks.py bench scale`: batch throughput on the engines, and what the Dask engine costs per task.

    threads --jobs 1, --jobs 2     K copies of an example solution, graded from scratch (--force)
    dask LocalCluster (W workers)  the same K, each submission a task; cluster start timed apart
    engine overhead                N no-op tasks through the same path (submission packed, sent, written
                                   out on the worker; bundle opened once per worker; report returned)

Writes out/bench-scale.json. Needs dist/<name>-autograder.zip (`tasks.py release`).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from grader import sandbox
from grader.batch.engines import Job, ThreadEngine, materialise, pack_submission
from grader.batch.run import grade_batch
from grader.bundle import open_bundle
from grader.errors import UsageError
from grader.results import ItemResult, Report

ROOT = Path(__file__).resolve().parent.parent


def noop_task(entry_name: str, name: str, payload, bundle_blob, bundle_hash: str, mode: str) -> dict:
    """Everything a grading task does except grading: the bundle (opened once per worker), the
    submission written out, a report returned."""
    from grader.batch.dask_engine import _worker_bundle

    bundle = _worker_bundle(bundle_blob, bundle_hash)
    with tempfile.TemporaryDirectory(prefix="lrkit-noop-") as tmp:
        materialise(payload, Path(tmp), entry_name)
    items = tuple(ItemResult(i.id, i.title, 0.0, i.points, "failed", i.kind) for i in bundle.rubric.items)
    return Report(bundle.config.name, name, "crashed", 0.0, bundle.rubric.total, items, True,
                  bundle_hash=bundle.hash).to_dict()


def _class(source: Path, into: Path, count: int) -> Path:
    for n in range(count):
        shutil.copytree(source, into / f"student{n:03d}")
    return into


def _timed_batch(subs: Path, bundle: Path, out: Path, engine) -> float:
    started = time.perf_counter()
    grade_batch(subs, bundle, out, force=True, engine=engine)
    return time.perf_counter() - started


def _dask(workers: int, unsandboxed: bool, **kwargs):
    from grader.batch.dask_engine import DaskEngine

    return DaskEngine(workers=workers, allow_unsandboxed=unsandboxed, **kwargs)


def measure_overhead(bundle_path: Path, source: Path, tasks: int, workers: int, unsandboxed: bool) -> dict:
    """Per-task cost of the Dask engine itself, and of starting a LocalCluster."""
    from grader.batch.dask_engine import BundleBytes

    with tempfile.TemporaryDirectory(prefix="lrkit-bench-") as tmp:
        bundle = open_bundle(bundle_path, Path(tmp) / "bundle")
        engine = _dask(workers, unsandboxed, task=noop_task)
        started = time.perf_counter()
        engine.start(bundle_path, bundle)
        start_s = time.perf_counter() - started
        try:
            jobs = [Job(source, f"noop{n:04d}") for n in range(tasks)]
            started = time.perf_counter()
            assert sum(1 for _ in engine.run(jobs)) == tasks
            wall = time.perf_counter() - started
        finally:
            engine.close()
        # the same task body called here, without the engine: what is left is the engine's own cost
        payload, blob = pack_submission(source), BundleBytes(bundle_path).blob
        started = time.perf_counter()
        for n in range(min(tasks, 50)):
            noop_task(source.name, f"noop{n:04d}", payload, blob, bundle.hash, "sandboxed")
        body = (time.perf_counter() - started) / min(tasks, 50)
    per_task = wall * workers / tasks
    return {"cluster_start_s": round(start_s, 2), "noop_tasks": tasks, "noop_wall_s": round(wall, 2),
            "per_task_ms": round(1000 * per_task, 1), "task_body_ms": round(1000 * body, 1),
            "engine_ms_per_task": round(1000 * (per_task - body), 1), "tasks_per_s": round(tasks / wall, 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tasks.py bench scale")
    p.add_argument("--assignment", default="linear-attention-basics")
    p.add_argument("--submissions", type=int, default=6, help="class size for the throughput runs")
    p.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes")
    p.add_argument("--noop", type=int, default=200, help="no-op tasks for the engine overhead")
    p.add_argument("--skip-threads", action="store_true", help="only the Dask numbers")
    args = p.parse_args(argv)
    bundle = ROOT / "dist" / f"{args.assignment}-autograder.zip"
    source = ROOT / "examples" / "submissions" / args.assignment / "solution"
    if not bundle.is_file() or not source.is_dir():
        raise UsageError(f"bench scale needs {bundle} (run 'tasks.py release') and {source}")
    unsandboxed = not sandbox.sandbox_available()
    n = args.submissions
    results: dict = {"assignment": args.assignment, "submissions": n, "unsandboxed": unsandboxed}
    results["overhead"] = over = measure_overhead(bundle, source, args.noop, args.workers, unsandboxed)
    print(f"dask engine: LocalCluster of {args.workers} started in {over['cluster_start_s']} s; {args.noop} no-op "
          f"tasks in {over['noop_wall_s']} s = {over['per_task_ms']} ms per task per worker "
          f"({over['tasks_per_s']} tasks/s), of which the task's body {over['task_body_ms']} ms (timed here) and "
          f"the engine {over['engine_ms_per_task']} ms; load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="lrkit-bench-") as tmp:
        if n == 0:  # --submissions 0: the engine overhead only
            return _write(results)
        subs = _class(source, Path(tmp) / "subs", n)
        runs = [] if args.skip_threads else [("jobs1", ThreadEngine(1, unsandboxed)),
                                             ("jobs2", ThreadEngine(2, unsandboxed))]
        runs.append((f"dask{args.workers}", _dask(args.workers, unsandboxed)))
        for label, engine in runs:
            wall = _timed_batch(subs, bundle, Path(tmp) / label, engine)
            start = getattr(engine, "start_s", 0.0)
            results[label] = {"wall_s": round(wall, 1), "per_submission_s": round(wall / n, 2),
                              "submissions_per_min": round(60 * n / wall, 2), "engine_start_s": round(start, 1),
                              "load_average": round(os.getloadavg()[0], 1)}
            print(f"{label}: {n} submissions in {wall:.1f} s = {60 * n / wall:.2f}/min ({wall / n:.2f} s each)"
                  + (f", of which {start:.1f} s starting the cluster" if start else "")
                  + f"; load average {os.getloadavg()[0]:.1f}")
        books = {label: (Path(tmp) / label / "gradebook.csv").read_bytes() for label, _ in runs}
        results["same_gradebook"] = len(set(books.values())) == 1
        print(f"gradebooks identical across engines: {results['same_gradebook']}")
    if "jobs1" in results:
        for label in ("jobs2", f"dask{args.workers}"):
            results[label]["speedup_over_jobs1"] = round(results["jobs1"]["wall_s"] / results[label]["wall_s"], 2)
    return _write(results)


def _write(results: dict) -> int:
    out = ROOT / "out" / "bench-scale.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2, sort_keys=True))
    print(f"wrote {out}")
    return 0
