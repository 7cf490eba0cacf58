"""`grade batch … --engine dask`: each submission is one task on a Dask cluster (optional extra lrkit[dask]).

    --engine dask --workers K              a LocalCluster of K worker processes (a laptop, the tests)
    --engine dask --scheduler tcp://H:8786 an existing cluster (`dask scheduler` + `dask worker`, dask-jobqueue)

The driver probes every worker first (grader version, sandbox), sends the bundle once and has it
copied to every worker, and pins each task to a free worker thread (one task per thread in flight),
fresh submissions before regrades (and at a higher Dask `priority`, for clusters that several
drivers share). A task receives the submission as bytes and returns its report as a dict; only the
driver writes files.

A worker that dies mid-task (killed, out of memory, silent past `worker-ttl`, or stopped by the
driver because its task ran past a deadline far beyond the sandbox's own limits) fails that task at
once (the driver sets the scheduler's `allowed-failures` to 0, so the scheduler never queues it
behind another task that might kill its worker next); the driver grades it again on a live worker,
and a second death makes it a `crashed` row. Losing the scheduler stops the batch (rerun: it resumes).
"""
from __future__ import annotations

import logging
import os
import socket
import tempfile
import threading
import time
import uuid
from collections import Counter, deque
from pathlib import Path
from typing import Callable, Iterator

from grader.batch.engines import (
    Job,
    crashed_report,
    grade_one,
    isolation_decision,
    materialise,
    order_jobs,
    pack_submission,
)
from grader.bundle import Bundle, folder_files, open_bundle
from grader.errors import BundleError, LrkitError, UsageError
from grader.grading.intake import unpack_any
from grader.grading.pipeline import failed_report
from grader.grading.unpack import MAX_SUBMISSION_BYTES, SubmissionError
from grader.grading.version import grader_version
from grader.results import Report

log = logging.getLogger(__name__)
FRESH_PRIORITY, REGRADE_PRIORITY = 1, 0
POLL_S = 2.0  # how often the driver looks for tasks past their deadline
KILLED = ("the grading worker died twice while grading this submission (killed, out of memory or unresponsive; "
          "it was retried once); rerun the batch to try again, or tell the course staff")


def _require_dask():
    try:
        import dask  # noqa: F401
        import distributed
    except ImportError as exc:
        raise UsageError(f"--engine dask needs Dask ({exc}): pip install 'lrkit[dask]'") from None
    return distributed


# ----------------------------------------------------------------------------- on the workers

_BUNDLES: dict[str, tuple[tempfile.TemporaryDirectory, Bundle]] = {}
_BUNDLE_LOCK = threading.Lock()


def _worker_bundle(blob: tuple[str, object], expected_hash: str) -> Bundle:
    """The bundle opened once per worker process (from the bytes the driver sent once), checked against the
    driver's hash."""
    with _BUNDLE_LOCK:
        if expected_hash not in _BUNDLES:
            tmp = tempfile.TemporaryDirectory(prefix="lrkit-worker-bundle-")
            kind, data = blob
            if kind == "file":
                (Path(tmp.name) / "bundle.zip").write_bytes(data)  # type: ignore[arg-type]
                bundle = open_bundle(Path(tmp.name) / "bundle.zip", Path(tmp.name) / "open")
            else:
                bundle = open_bundle(materialise(blob, Path(tmp.name), "bundle"), Path(tmp.name) / "unused")
            if bundle.hash != expected_hash:
                tmp.cleanup()
                raise BundleError(f"the bundle arrived damaged on {socket.gethostname()} (hash {bundle.hash[:12]}, "
                                  f"expected {expected_hash[:12]})")
            _BUNDLES[expected_hash] = (tmp, bundle)
        return _BUNDLES[expected_hash][1]


async def _exit_worker() -> None:
    """Run by the driver in the event loop of a worker stuck past a task's deadline (a coroutine, so
    the driver need not wait for an answer that never comes); the nanny, if any, starts a new one."""
    os._exit(70)


def probe_worker() -> dict:
    """What the driver needs to know about a worker before it grades there."""
    from grader import sandbox

    return {"sandbox": sandbox.sandbox_available(), "isolation": list(sandbox.detect_isolation()),
            "grader": grader_version(), "host": socket.gethostname(), "pid": os.getpid()}


def grade_task(entry_name: str, name: str, payload: tuple[str, object], bundle_blob: tuple[str, object],
               bundle_hash: str, mode: str) -> dict:
    """One submission on a worker; returns `Report.to_dict()`."""
    from grader import sandbox

    bundle = _worker_bundle(bundle_blob, bundle_hash)
    has_sandbox = sandbox.sandbox_available()
    if mode == "sandboxed" and not has_sandbox:  # a worker that joined after the probe, without bwrap
        return crashed_report(bundle, name, f"worker {socket.gethostname()} has no sandbox; not graded there "
                                            "(fix or remove that worker and rerun the batch)").to_dict()
    unsandboxed = mode == "unsandboxed" or (mode == "mixed" and not has_sandbox)
    with tempfile.TemporaryDirectory(prefix="lrkit-task-") as tmp:
        path = materialise(payload, Path(tmp), entry_name)
        return grade_one(path, bundle, unsandboxed, name).to_dict()


# ----------------------------------------------------------------------------- on the driver


class BundleBytes:
    """The bundle as one Dask value (a tuple would travel as several keys)."""

    def __init__(self, path: Path):
        self.blob = ("file", path.read_bytes()) if path.is_file() else ("folder", folder_files(path))


def _bundle_blob(data: BundleBytes) -> tuple[str, object]:
    return data.blob


class DaskEngine:
    """Grades a batch on a Dask cluster; see the module's docstring. ``task`` is what runs on a worker
    (tests pass one that kills its worker); ``deaths`` worker deaths make a `crashed` row."""

    def __init__(self, *, scheduler: str | None = None, workers: int | None = None, allow_unsandboxed: bool = False,
                 allow_mixed: bool = False, task: Callable[..., dict] = grade_task, deaths: int = 2,
                 wait_s: float = 120.0, task_timeout_s: float | None = None):
        self.scheduler, self.workers = scheduler, workers
        self.allow_unsandboxed, self.allow_mixed = allow_unsandboxed, allow_mixed
        self.task, self.deaths, self.wait_s = task, max(1, deaths), wait_s
        self.task_timeout_s = task_timeout_s  # default: from the bundle's limits, with room to spare
        self.overdue: set[str] = set()
        self.start_s = 0.0  # how long start() took (cluster, probe, bundle): the benchmark reports it
        self.client = self.cluster = self.bundle = self.bundle_future = None
        self.mode = "sandboxed"

    # -- start: cluster, probe, bundle
    def start(self, bundle_path: Path, bundle: Bundle) -> bool:
        distributed = _require_dask()
        import dask

        self.bundle, started = bundle, time.monotonic()
        if self.task_timeout_s is None:  # the sandbox's own limits end student code long before this
            limits = bundle.config.limits
            self.task_timeout_s = 2 * (limits.notebook_timeout_s + limits.checks_timeout_s) + 300
        for noisy in ("distributed", "dask"):  # the cluster's INFO chatter would drown the progress lines
            logging.getLogger(noisy).setLevel(max(logging.WARNING, logging.getLogger(noisy).level))
        # A worker's death fails the task it was running at once (KilledWorker) instead of the scheduler
        # rescheduling it behind another task; the driver counts deaths per submission and resubmits.
        if self.scheduler:
            try:
                self.client = distributed.Client(self.scheduler, timeout=self.wait_s)
            except OSError as exc:
                raise UsageError(f"cannot reach the Dask scheduler at {self.scheduler}: {exc}") from None
            try:
                self.client.run_on_scheduler(lambda dask_scheduler: setattr(dask_scheduler, "allowed_failures", 0))
            except Exception as exc:  # a scheduler that blocks run_on_scheduler: its own setting then applies
                log.warning("could not set allowed-failures on the scheduler (%s); a submission that kills its "
                            "worker may kill more workers before its row says crashed", exc)
        else:
            with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
                self.cluster = distributed.LocalCluster(n_workers=self.workers or os.cpu_count() or 1,
                                                        threads_per_worker=1, processes=True,
                                                        dashboard_address=None, silence_logs=logging.ERROR)
            self.client = distributed.Client(self.cluster)
        try:
            self.client.wait_for_workers(self.workers or 1, timeout=self.wait_s)
        except (TimeoutError, OSError) as exc:
            self.close()
            raise UsageError(f"no Dask workers joined within {self.wait_s:.0f} s ({exc})") from None
        self._probe()
        # Sent once, as the data of a task (not `scatter`: scattered data is lost for good when the workers
        # holding it die; a task's result is recomputed from the scheduler's copy), then copied to every worker.
        self.bundle_future = self.client.submit(_bundle_blob, BundleBytes(Path(bundle_path)), pure=False,
                                                key=f"lrkit-bundle-{bundle.hash[:12]}-{uuid.uuid4().hex[:6]}")
        distributed.wait(self.bundle_future)
        self.client.replicate([self.bundle_future])
        self.start_s = time.monotonic() - started
        return self.mode == "unsandboxed"

    def _probe(self) -> None:
        probes = self.client.run(probe_worker)
        mine = grader_version()
        other = sorted(f"{addr} ({p['grader']})" for addr, p in probes.items() if p["grader"] != mine)
        if other:
            self.close()
            raise UsageError(f"{len(other)} worker(s) run another grader than this driver ({mine}): "
                             f"{', '.join(other[:3])}; install the same lrkit on every worker")
        try:
            self.mode = isolation_decision(probes, allow_unsandboxed=self.allow_unsandboxed,
                                           allow_mixed=self.allow_mixed)
        except UsageError:
            self.close()
            raise
        log.info("dask: %d worker(s), %d thread(s), grading %s", len(probes),
                 sum(self.client.nthreads().values()), self.mode)

    # -- run: each task pinned to a free worker thread, so a death concerns only the task that was running
    def run(self, jobs: list[Job]) -> Iterator[tuple[Job, Report]]:
        distributed = _require_dask()
        queue = deque(order_jobs(jobs))
        inflight: dict = {}  # future -> (job, worker address, when submitted)
        died: dict[str, int] = {}
        local: list[tuple[Job, Report]] = []

        def fill() -> None:
            busy = Counter(addr for _, addr, _ in inflight.values())
            free = [addr for addr, n in sorted(self.client.nthreads().items()) for _ in range(n - busy[addr])]
            while queue and free:
                job = queue.popleft()
                payload = pack_submission(job.path)
                if payload is None:  # a link, a device, too big: rejected while unpacking, here
                    local.append((job, self._unsendable(job)))
                    continue
                addr = free.pop(0)
                future = self.client.submit(
                    self.task, job.path.name, job.name, payload, self.bundle_future, self.bundle.hash, self.mode,
                    key=f"lrkit-grade-{uuid.uuid4().hex[:12]}", pure=False, retries=1, workers=[addr],
                    allow_other_workers=True, priority=REGRADE_PRIORITY if job.regrade else FRESH_PRIORITY)
                inflight[future] = (job, addr, time.monotonic())

        while queue or inflight or local:
            fill()
            while local:
                yield local.pop()
            if not inflight:
                if queue:
                    self._wait_for_workers()
                continue
            future = self._next_done(inflight, distributed)
            job, _, _ = inflight.pop(future)
            report = self._collect(future, job, died)
            future.release()
            if report is None:
                queue.appendleft(job)  # its worker died under it: once more, on a live worker
            else:
                yield job, report

    def _next_done(self, inflight: dict, distributed):
        """The first finished future; meanwhile, stop the worker of a task past its deadline (its
        death then counts like any other: graded again once, then a `crashed` row)."""
        while True:
            finished = [f for f in inflight if f.done()]
            if finished:
                return finished[0]
            try:
                distributed.wait(list(inflight), timeout=POLL_S, return_when="FIRST_COMPLETED")
            except Exception:  # the timeout, or cancelled futures (done: picked up above)
                pass
            now = time.monotonic()
            late = {f.key: job for f, (job, _, started) in inflight.items()
                    if now - started > self.task_timeout_s and job.name not in self.overdue}
            if late:
                for worker, keys in self.client.processing().items():
                    for key in set(keys) & set(late):
                        log.warning("%s: still grading after %.0f s; stopping its worker %s", late[key].name,
                                    self.task_timeout_s, worker)
                        self.overdue.add(late[key].name)
                        self.client.run(_exit_worker, workers=[worker], wait=False)

    def _wait_for_workers(self) -> None:
        try:
            self.client.wait_for_workers(1, timeout=self.wait_s)
        except (TimeoutError, OSError) as exc:
            raise LrkitError(f"no Dask worker left for {self.wait_s:.0f} s ({exc}); "
                             "rerun the batch: it resumes") from exc

    def _collect(self, future, job: Job, died: dict[str, int]) -> Report | None:
        """The report; None to grade the job again (its worker died, fewer than `deaths` times so far)."""
        distributed = _require_dask()
        try:
            return Report.from_dict(future.result())
        except distributed.KilledWorker:
            died[job.name] = died.get(job.name, 0) + 1
            late = job.name in self.overdue
            self.overdue.discard(job.name)
            if died[job.name] < self.deaths:
                log.warning("%s: its worker %s while grading it; grading it again", job.name,
                            "was stopped (too slow)" if late else "died")
                return None
            log.warning("%s: its worker died %d times; recorded as crashed", job.name, died[job.name])
            if late:
                return crashed_report(self.bundle, job.name, f"grading took longer than {self.task_timeout_s:.0f} s "
                                                             "on two workers (each was stopped); tell the course staff")
            return crashed_report(self.bundle, job.name, KILLED)
        except Exception as exc:
            if self.client.status not in ("running", "connecting"):
                raise LrkitError(f"lost the Dask scheduler ({exc}); rerun the batch: it resumes") from exc
            log.warning("%s: the cluster failed to grade it: %s", job.name, exc)
            return crashed_report(self.bundle, job.name, f"the cluster failed to grade this submission "
                                                         f"({type(exc).__name__}: {exc}); tell the course staff")

    def _unsendable(self, job: Job) -> Report:
        """Unpack on the driver (no student code runs) to give the same `invalid` report as anywhere else."""
        with tempfile.TemporaryDirectory(prefix="lrkit-check-") as tmp:
            try:
                unpack_any(job.path, Path(tmp) / "u", self.bundle.config)  # as the pipeline unpacks
            except SubmissionError as exc:
                return failed_report(self.bundle.config, self.bundle.rubric, job.name, "invalid", str(exc),
                                     bundle_hash=self.bundle.hash)
        return crashed_report(self.bundle, job.name, "this submission could not be sent to a worker "
                                                     f"(larger than {MAX_SUBMISSION_BYTES // 10**6} MB?); "
                                                     "tell the course staff")

    def close(self) -> None:
        for thing in (self.client, self.cluster):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # closing a half-started cluster must not hide the real error
                    log.debug("closing %r failed", thing, exc_info=True)
        self.client = self.cluster = None
