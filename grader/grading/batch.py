"""Grade a whole class: one report per submission, a gradebook and a class summary.

Each submission is graded in its own worker thread (the work happens in sandboxed child
processes); a submission whose report already carries the same content hash and bundle
hash is skipped, so a batch killed half-way resumes where it stopped. Nothing a
submission does can stop the batch: every one ends with a row in the gradebook.
"""
from __future__ import annotations

import logging
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from grader.bundle import Bundle, open_bundle
from grader.grading.pipeline import failed_report, grade_submission
from grader.grading.unpack import SubmissionError, content_hash, unpack_submission
from grader.report.render import load_report, write_reports
from grader.report.summary import write_class_summary
from grader.results import Report

log = logging.getLogger(__name__)
REPORT_FILES = ("report.json", "report.md", "report.html", "results.json")


def submissions_in(folder: Path) -> list[Path]:
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith((".", "_")) and
                     (p.is_dir() or p.suffix == ".zip"))
    return entries


def _name(path: Path) -> str:
    return path.name.removesuffix(".zip")


def _hash_of(path: Path, allowed: list[str]) -> str:
    with tempfile.TemporaryDirectory(prefix="lrkit-hash-") as tmp:
        try:
            unpacked = unpack_submission(path, Path(tmp) / "u", allowed=allowed)
        except SubmissionError:
            return "invalid"
        return content_hash(unpacked.root)


def _already_graded(out: Path, sub_hash: str, bundle_hash: str) -> Report | None:
    path = out / "report.json"
    if not path.is_file():
        return None
    try:
        report = load_report(path)
    except (ValueError, KeyError, TypeError, OSError):
        return None
    if report.submission_hash == sub_hash and report.bundle_hash == bundle_hash and report.status != "crashed":
        return report
    return None


def _grade_one(path: Path, bundle: Bundle, unsandboxed: bool) -> Report:
    try:
        return grade_submission(path, bundle, unsandboxed=unsandboxed, name=_name(path), parallel=False)
    except Exception as exc:  # a grader failure on one submission must not stop the class
        log.exception("grading %s crashed", path.name)
        return failed_report(bundle.config, bundle.rubric, _name(path), "crashed",
                             f"the grader failed on this submission ({type(exc).__name__}: {exc}); "
                             "tell the course staff", True, bundle.hash)


class Progress:
    """A one-line progress bar with an ETA, on stderr."""

    def __init__(self, total: int):
        self.total, self.done, self.started = total, 0, time.perf_counter()

    def step(self, label: str) -> None:
        self.done += 1
        elapsed = time.perf_counter() - self.started
        eta = elapsed / self.done * (self.total - self.done)
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                f"{elapsed:5.0f}s elapsed, ETA {eta:4.0f}s  {label[:30]:<30}")
        if sys.stderr.isatty():  # redraw in place; in a CI log, one line per submission
            sys.stderr.write("\r" + line + ("\n" if self.done == self.total else ""))
        else:
            sys.stderr.write(line.rstrip() + "\n")
        sys.stderr.flush()


def grade_batch(folder: Path, bundle_path: Path, out: Path, *, jobs: int = 1, force: bool = False,
                unsandboxed: bool = False) -> int:
    """Grade every submission in ``folder``. Returns 0 when all were graded, else 1."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lrkit-bundle-") as tmp:
        bundle = open_bundle(bundle_path, Path(tmp))
        config, rubric = bundle.config, bundle.rubric
        subs = submissions_in(folder)
        reports: dict[str, Report] = {}
        todo = []
        for path in subs:
            previous = None if force else _already_graded(out / _name(path), _hash_of(path, list(config.student_files)),
                                                          bundle.hash)
            if previous is not None:
                reports[_name(path)] = previous
                if not all((out / _name(path) / f).is_file() for f in REPORT_FILES):
                    write_reports(previous, out / _name(path))  # killed between two renames: re-render only
            else:
                todo.append(path)
        log.info("%d submission(s): %d to grade, %d already graded with this bundle", len(subs), len(todo),
                 len(reports))
        progress = Progress(len(todo))
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(_grade_one, p, bundle, unsandboxed): p for p in todo}
            for future in as_completed(futures):
                path = futures[future]
                report = future.result()
                write_reports(report, out / _name(path))
                reports[_name(path)] = report
                progress.step(path.name)
    ordered = [reports[k] for k in sorted(reports)]
    paths = write_class_summary(ordered, out, rubric_items=[(i.id, i.title, i.points) for i in rubric.items])
    bad = [r for r in ordered if r.status != "graded"]
    for r in bad:
        log.warning("%s: %s", r.submission, r.status)
    log.info("class summary: %s; gradebook: %s", paths.get("summary.html", out / "summary.html"),
             paths.get("gradebook.csv", out / "gradebook.csv"))
    return 1 if bad else 0
