"""`grade merge OUT_1 … OUT_N --out OUT`: one gradebook and summary from the outputs of N shards.

Everything is checked before anything is written; a refusal names what is wrong and what to rerun:

    gap         a shard with no manifest; a submission of a shard without its report; a submission some
                shard saw in the class folder that its own shard did not grade (it came in late)
    duplicate   a shard given twice; a submission claimed by two manifests
    mix         manifests (or reports) of different bundles, grader versions, assignments or shard counts

The merged OUT holds every submission's folder (copied unless OUT is where the shard wrote it),
`gradebook.csv` and `summary.html`: byte for byte what one machine grading the class would write. With
per-student numbers the summary lists answers right for a classmate's numbers when the bundle a shard recorded
(its `_batch.json`) is still there; without it, only what the reports hold, and the summary says so.
"""
from __future__ import annotations

import logging
import shutil
from pathlib import Path

from grader.batch.run import read_inputs
from grader.batch.shards import Manifest, read_manifests, shard_of
from grader.batch.variants import recorded_matches
from grader.errors import UsageError
from grader.grading.version import version_of
from grader.report.render import load_report
from grader.report.summary import write_class_summary
from grader.results import Report

log = logging.getLogger(__name__)


class MergeError(UsageError):
    """The shard outputs do not add up to one class; nothing was written."""


def _one(values: dict[str, list[str]], what: str, hint: str) -> str:
    """The single value of a property across shards, or a MergeError naming who differs."""
    if len(values) == 1:
        return next(iter(values))
    listing = "; ".join(f"{value or '(none)'}: {', '.join(sorted(who)[:4])}" for value, who in sorted(values.items()))
    raise MergeError(f"the shards were graded with different {what} ({listing}); {hint}")


def _collect(folders: list[Path]) -> list[Manifest]:
    seen: dict[Path, Path] = {}
    manifests = []
    for folder in folders:
        real = folder.resolve()
        if real in seen:
            raise MergeError(f"{folder} is given twice (duplicate of {seen[real]})")
        seen[real] = folder
        if not folder.is_dir():
            raise MergeError(f"{folder}: no such folder")
        found = read_manifests(folder)
        if not found:
            raise MergeError(f"{folder} holds no shard manifest (_shards/shard-*-of-*.json): was it graded with "
                             "'grade batch … --shard I/N'?")
        manifests += found
    return manifests


def _where(m: Manifest) -> str:
    return f"{m.folder} (shard {m.shard})"


def check_shards(folders: list[Path]) -> tuple[list[Manifest], dict[str, tuple[Path, Report]]]:
    """Prove the shard outputs make one complete class; returns the manifests and name -> (folder, report)."""
    manifests = _collect(folders)

    def by(key) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for m in manifests:
            out.setdefault(str(key(m)), []).append(_where(m))
        return out

    count = int(_one(by(lambda m: m.shard.count), "shard counts (N in --shard I/N)",
                     "grade every shard of one run with the same N"))
    _one(by(lambda m: m.assignment), "assignments", "merge the shards of one assignment at a time")
    bundle_hash = _one(by(lambda m: m.bundle_hash), "bundles", "regrade the odd shards with the same bundle")
    version = _one(by(lambda m: m.grader_version), "grader versions",
                   "regrade the odd shards with the same lrkit (their rows would not be comparable)")
    _every_shard_once(manifests, count)
    owner = _owners(manifests, count)
    return manifests, _shard_reports(owner, bundle_hash, version)


def _every_shard_once(manifests: list[Manifest], count: int) -> None:
    index: dict[int, Manifest] = {}
    for m in manifests:
        if m.shard.index in index:
            raise MergeError(f"shard {m.shard} appears twice: {_where(index[m.shard.index])} and {_where(m)}; "
                             "merge one output per shard")
        index[m.shard.index] = m
    missing = [i for i in range(1, count + 1) if i not in index]
    if missing:
        raise MergeError(f"gap: no output of shard(s) {', '.join(f'{i}/{count}' for i in missing)} among the "
                         f"folders given; run 'grade batch … --shard {missing[0]}/{count}' (and the others) first")


def _owners(manifests: list[Manifest], count: int) -> dict[str, Manifest]:
    """Submission name -> the shard that graded it; every submission seen, graded once, by its own shard."""
    owner: dict[str, Manifest] = {}
    for m in manifests:
        for name in m.assigned:
            if name in owner:
                raise MergeError(f"duplicate: {name} was graded by {_where(owner[name])} and by {_where(m)}")
            if shard_of(name, count) != m.shard.index:
                raise MergeError(f"{_where(m)} lists {name}, which belongs to shard {shard_of(name, count)}/{count}; "
                                 "the manifest was edited or comes from another kit")
            owner[name] = m
    late = sorted({name for m in manifests for name in m.seen} - set(owner))
    if late:
        shards = sorted({shard_of(n, count) for n in late})
        raise MergeError(f"gap: {len(late)} submission(s) seen in the class folder were not graded by their shard "
                         f"(they came in after it ran): {', '.join(late[:5])}{', ...' if len(late) > 5 else ''}; "
                         f"rerun shard(s) {', '.join(f'{s}/{count}' for s in shards)} (they resume)")
    return owner


def _shard_reports(owner: dict[str, Manifest], bundle_hash: str, version: str) -> dict[str, tuple[Path, Report]]:
    reports: dict[str, tuple[Path, Report]] = {}
    unfinished: dict[str, list[str]] = {}
    for name, m in sorted(owner.items()):
        try:
            report = load_report(m.folder / name / "report.json")
        except (OSError, ValueError):
            unfinished.setdefault(str(m.shard), []).append(name)
            continue
        if report.submission != name or report.bundle_hash != bundle_hash or version_of(report.environment) != version:
            raise MergeError(f"{m.folder / name / 'report.json'} was not graded by that shard's run (other name, "
                             f"bundle or grader version); rerun shard {m.shard}")
        reports[name] = (m.folder, report)
    if unfinished:
        detail = "; ".join(f"shard {s}: {', '.join(n[:3])}{', ...' if len(n) > 3 else ''}"
                           for s, n in sorted(unfinished.items()))
        raise MergeError(f"gap: {sum(map(len, unfinished.values()))} submission(s) have no report ({detail}); "
                         "rerun those shards (they resume where they stopped)")
    return reports


def merge_shards(folders: list[Path], out: Path) -> int:
    """Check, copy the submissions' folders into ``out``, write the gradebook and summary.
    Returns 0 when every submission was graded, else 1 (like `grade batch`)."""
    manifests, reports = check_shards([Path(f) for f in folders])
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, (folder, _) in reports.items():
        source, target = folder / name, out / name
        if source.resolve() != target.resolve():
            shutil.copytree(source, target, dirs_exist_ok=True)
    ordered = [report for _, (_, report) in sorted(reports.items())]
    rubric = list(manifests[0].rubric)
    recorded = [r.autograder for r in map(read_inputs, sorted({m.folder for m in manifests})) if r is not None]
    matches = recorded_matches(recorded, {name: report for name, (_, report) in reports.items()})
    paths = write_class_summary(ordered, out, rubric_items=rubric, variant_matches=matches)
    bad = [r for r in ordered if r.status != "graded"]
    for r in bad:
        log.warning("%s: %s", r.submission, r.status)
    log.info("merged %d shard(s), %d submission(s): %s, %s", len(manifests), len(ordered), paths["gradebook.csv"],
             paths["summary.html"])
    return 1 if bad else 0
