"""The README's main job, last step: batch-grade the shipped example submissions.

`examples/submissions/<name>/` holds one folder per example (the solution, the untouched
template, realistic wrong ones) and `expected.yaml` with the score range each must get.
Reports go to `out/<name>/`; a score outside its range fails the job.
"""
from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

import yaml

from grader import sandbox
from grader.batch.run import grade_batch
from grader.report.render import load_report

log = logging.getLogger(__name__)


def check_expected(out: Path, expected_file: Path) -> list[str]:
    expected = yaml.safe_load(expected_file.read_text()) or {}
    problems = []
    for name, want in sorted(expected.items()):
        path = out / name / "report.json"
        if not path.is_file():
            problems.append(f"{name}: no report was written")
            continue
        report = load_report(path)
        low, high = want.get("min", 0), want.get("max", report.max_score)
        if not low <= report.score <= high or report.status != want.get("status", "graded"):
            problems.append(f"{name}: scored {report.score:g}/{report.max_score:g} ({report.status}); "
                            f"expected {low:g}..{high:g} ({want.get('status', 'graded')})")
        for item in want.get("loses", []):
            got = next((i for i in report.items if i.id == item), None)
            if got is None or got.points >= got.max_points:
                problems.append(f"{name}: should lose rubric item {item!r} but did not")
    return problems


def grade_examples(root: Path, names: list[str], *, jobs: int = 2, force: bool = False) -> int:
    unsandboxed = not sandbox.sandbox_available()
    if unsandboxed:
        log.warning("no sandbox here (needs root + bubblewrap): grading the trusted examples unsandboxed")
    problems = []
    for name in names:
        folder = root / "examples" / "submissions" / name
        if not folder.is_dir():
            log.warning("no examples for %s (%s)", name, folder)
            continue
        out = root / "out" / name
        with tempfile.TemporaryDirectory(prefix="lrkit-examples-") as tmp:
            # the class folder a TA would have: the submissions only, not expected.yaml
            for entry in sorted(folder.iterdir()):
                if entry.name != "expected.yaml" and not entry.name.startswith("."):
                    (shutil.copytree if entry.is_dir() else shutil.copy2)(entry, Path(tmp) / entry.name)
            grade_batch(Path(tmp), root / "dist" / f"{name}-autograder.zip", out, jobs=jobs, force=force,
                        unsandboxed=unsandboxed)
        problems += [f"{name}/{p}" for p in check_expected(out, folder / "expected.yaml")]
        log.info("%s: class summary at %s", name, out / "summary.html")
    for p in problems:
        log.error("example graded unexpectedly: %s", p)
    return 1 if problems else 0
