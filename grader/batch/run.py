"""Grade a whole class: one report per submission, a gradebook and a class summary.

    plan (what to grade; resume) -> engine (where: threads here, or a Dask cluster) -> the driver writes

The driver is the only writer: each report as it arrives (atomically, grader/report/render.py), then
`gradebook.csv` and `summary.html` once at the end (with per-student numbers, the answers right for a
classmate's numbers: grader/batch/variants.py). A submission whose report already carries the
same content hash, bundle hash and grader version is skipped, so a batch (or its driver) killed
half-way resumes where it stopped, without duplicates. Nothing a submission does can stop the
batch: every one ends with a row in the gradebook.

With `shard=Shard(i, N)` only the submissions whose name hashes to shard i are graded, a manifest
goes to `OUT/_shards/`, and no gradebook is written: `grade merge` writes it for all shards
(grader/batch/shards.py, grader/batch/merge.py). Engines: grader/batch/engines.py.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import sys
import time
from pathlib import Path

from grader.batch import naming
from grader.batch.engines import Engine, Job, ThreadEngine
from grader.batch.shards import Manifest, Shard, write_manifest
from grader.batch.variants import summary_matches
from grader.bundle import Bundle, open_bundle
from grader.config import AssignmentConfig
from grader.errors import UsageError
from grader.grading.intake import submission_name, unpack_any
from grader.grading.pipeline import failed_report
from grader.grading.unpack import content_hash
from grader.grading.version import grader_version, version_of
from grader.report.render import load_report, write_atomic, write_reports
from grader.report.summary import write_class_summary
from grader.results import Report
from grader.sandbox import scratch_dir

log = logging.getLogger(__name__)
REPORT_FILES = ("report.json", "report.md", "report.html", "results.json")
_NOT_SUBMISSIONS = {"_shards", "__MACOSX"}  # the kit's own folder, and what unzipping on a Mac leaves
INPUTS_FILE = "_batch.json"  # where the class came from (`grade similarity` reads the submissions again)


@dataclasses.dataclass(frozen=True)
class BatchInputs:
    """What a batch graded: the submissions folder and the autograder bundle, as absolute paths."""

    submissions: Path
    autograder: Path


def write_inputs(out: Path, folder: Path, bundle_path: Path) -> None:
    data = {"submissions": str(folder.resolve()), "autograder": str(bundle_path.resolve())}
    write_atomic({out / INPUTS_FILE: json.dumps(data, indent=1) + "\n"})


def read_inputs(out: Path) -> BatchInputs | None:
    """The inputs `write_inputs` recorded in ``out`` (None when there is no readable record)."""
    file = out / INPUTS_FILE
    if file.is_symlink() or not file.is_file() or file.stat().st_size > 64_000:
        return None
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        return BatchInputs(Path(data["submissions"]), Path(data["autograder"]))
    except (ValueError, KeyError, TypeError):
        return None


def submissions_in(folder: Path) -> list[Path]:
    """Every entry of ``folder`` but hidden ones (`.git`, `_shards`): each gets a row. A bare notebook
    is a notebook-only submission; anything that cannot be a submission is graded `invalid`, with why."""
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder; 'grade batch' takes the folder that holds the submissions "
                         "(one folder, .zip or .ipynb per student)")
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".") and p.name not in _NOT_SUBMISSIONS)


def _name(path: Path) -> str:
    return submission_name(path)


def _hash_of(path: Path, config: AssignmentConfig) -> str:
    with scratch_dir("hash") as tmp:
        try:
            unpacked = unpack_any(path, tmp / "u", config)
        except Exception:  # whatever is wrong with it, it is graded (and says why) rather than skipped
            return "invalid"
        return content_hash(unpacked.root)


def _already_graded(out: Path, path: Path, bundle: Bundle) -> Report | None:
    """The report in ``out`` if it grades this very submission with this bundle and this grader."""
    file = out / "report.json"
    if not file.is_file():
        return None
    try:
        report = load_report(file)
    except (ValueError, KeyError, TypeError, OSError):
        return None
    if (report.bundle_hash != bundle.hash or version_of(report.environment) != grader_version()
            or report.status == "crashed"):
        return None
    if report.submission_hash != _hash_of(path, bundle.config):
        return None
    return report


def _write(report: Report, folder: Path, note: str | None, bundle: Bundle) -> Report:
    """Write one submission's reports (with the note on its folder name, if any); a report that
    cannot be written becomes a `crashed` one that can, so the row is never lost."""
    if note and note not in report.notes:
        report = dataclasses.replace(report, notes=(note, *report.notes))
    try:
        write_reports(report, folder)
        return report
    except Exception as exc:
        log.exception("writing the report of %s failed", report.submission)
        crashed = failed_report(bundle.config, bundle.rubric, report.submission, "crashed",
                                f"the report could not be written ({type(exc).__name__}: {str(exc)[:200]}); "
                                "tell the course staff", bundle_hash=bundle.hash,
                                submission_hash=report.submission_hash)
        write_reports(crashed, folder)
        return crashed


def _rubric_columns(bundle: Bundle) -> list[tuple[str, str, float]]:
    return [(i.id, i.title, i.points) for i in bundle.rubric.items]


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


def _plan(entries: list[tuple[Path, str]], out: Path, bundle: Bundle, force: bool
          ) -> tuple[dict[str, Report], list[Job]]:
    """Split the entries into reports already there (re-rendered if a file is missing) and jobs."""
    reports: dict[str, Report] = {}
    todo = []
    for path, name in entries:
        previous = None if force else _already_graded(out / name, path, bundle)
        if previous is not None:
            reports[name] = previous
            missing = tuple(f for f in REPORT_FILES if not (out / name / f).is_file())
            if missing:  # killed between two renames: re-render only what is missing
                write_reports(previous, out / name, only=missing)
        else:
            todo.append(Job(path, name, regrade=(out / name / "report.json").is_file()))
    return reports, todo


def grade_batch(folder: Path, bundle_path: Path, out: Path, *, jobs: int | None = None, force: bool = False,
                unsandboxed: bool = False, shard: Shard | None = None, engine: Engine | None = None) -> int:
    """Grade every submission in ``folder`` (or the part of it in ``shard``) on ``engine`` (default:
    `jobs` threads here). Returns 0 when all were graded, else 1."""
    engine = engine or ThreadEngine(jobs, unsandboxed)
    with scratch_dir("bundle") as tmp:
        entries, renamed = naming.assign(submissions_in(folder))  # a bad path or bundle: nothing written
        bundle = open_bundle(bundle_path, tmp)
        out.mkdir(parents=True, exist_ok=True)
        write_inputs(out, folder, bundle_path)
        mine = [(path, name) for path, name in entries if shard is None or shard.holds(name)]
        reports, todo = _plan(mine, out, bundle, force)
        where = f"shard {shard}: {len(mine)} of {len(entries)} in the class; " if shard else ""
        log.info("%s%d submission(s): %d to grade, %d already graded with this bundle", where, len(mine), len(todo),
                 len(reports))
        try:
            engine.start(bundle_path, bundle)
            if shard is not None:
                write_manifest(out, Manifest(shard, bundle.config.name, bundle.hash, grader_version(),
                                             tuple(sorted(n for _, n in mine)), tuple(sorted(n for _, n in entries)),
                                             tuple(_rubric_columns(bundle)), out))
            progress = Progress(len(todo))
            try:
                for job, report in engine.run(todo):
                    reports[job.name] = _write(report, out / job.name, renamed.get(job.name), bundle)
                    progress.step(job.name)
            except Exception as exc:  # the engine itself failed: every submission still gets its row
                log.exception("the batch stopped early")
                for job in todo:
                    if job.name not in reports:
                        reports[job.name] = _write(failed_report(
                            bundle.config, bundle.rubric, job.name, "crashed",
                            f"not graded: the batch stopped early ({type(exc).__name__}: {exc}); grade it again",
                            bundle_hash=bundle.hash), out / job.name, renamed.get(job.name), bundle)
        finally:
            engine.close()
        matches = summary_matches(reports, bundle) if shard is None else ()  # the key is in the bundle's folder
    ordered = [reports[k] for k in sorted(reports)]
    bad = [r for r in ordered if r.status != "graded"]
    for r in bad:
        log.warning("%s: %s", r.submission, r.status)
    if shard is not None:
        log.info("shard %s done; when every shard is, 'grade merge' writes the gradebook", shard)
        return 1 if bad else 0
    paths = write_class_summary(ordered, out, rubric_items=_rubric_columns(bundle), variant_matches=matches)
    log.info("class summary: %s; gradebook: %s", paths.get("summary.html", out / "summary.html"),
             paths.get("gradebook.csv", out / "gradebook.csv"))
    return 1 if bad else 0
