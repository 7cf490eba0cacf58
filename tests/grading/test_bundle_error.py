"""A bundle with an instructor error grades nobody: every report says `bundle_error` and names the
mistake, instead of a student losing the item the instructor broke (issue 12, mistake 3)."""
from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from grader.authoring.build import build
from grader.batch.run import grade_batch
from grader.bundle import bundle_entries, write_zip
from grader.grading.pipeline import grade_submission
from grader.report.render import load_report

TOY = Path(__file__).parents[1] / "fixtures" / "toy-root"


def broken_bundle(tmp_path: Path, rel: str, old: str, new: str) -> Path:
    """The toy's bundle with one file of its solution tree edited after the build (as a bundle made by
    hand, or by an older kit, could be)."""
    root = tmp_path / "root"
    shutil.copytree(TOY, root)
    assert build(root) == 0
    path = root / "solutions" / "toy" / rel
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    bundle = tmp_path / "toy-autograder.zip"
    write_zip(bundle, bundle_entries(root / "solutions" / "toy", root / "student_template" / "toy"))
    return bundle


BROKEN = [
    ("rubric.yaml", "checks: [cumsum_matches]", "checks: [cumsum_matchs]",
     "rubric.yaml: item 'cumsum': check 'cumsum_matchs' is not defined in hidden/verdicts.py"),
    ("hidden/verdicts.py", "import numpy as np", "import numpy as np\nraise RuntimeError('reference broke')",
     "hidden/verdicts.py cannot be loaded: hidden/verdicts.py:2: RuntimeError: reference broke"),
    ("hidden/verdicts.py", 'inputs={"x": x}', 'inputs={"xs": x}',
     "hidden/verdicts.py: check 'cumsum_matches', case 'shape (1,)': the inputs (xs) must be named as the "
     "parameters of probe 'running_sum' (x)"),
]


@pytest.mark.parametrize("rel, old, new, named", BROKEN, ids=["missing check", "verdicts raise", "inputs"])
def test_a_bundle_with_an_instructor_error_reports_bundle_error(tmp_path, rel, old, new, named):
    bundle = broken_bundle(tmp_path, rel, old, new)
    report = grade_submission(tmp_path / "root" / "solutions" / "toy", bundle, unsandboxed=True)
    assert report.status == "bundle_error"
    assert named in report.notes[0]
    assert report.notes[0].startswith("not graded: the autograder bundle has an instructor error (not the student's)")
    assert report.score == 0 and all(named in i.messages[0] for i in report.items)


def test_a_batch_gives_every_submission_a_bundle_error_row(tmp_path):
    bundle = broken_bundle(tmp_path, *BROKEN[0][:3])
    subs = tmp_path / "subs"
    for name in ("alice", "bob"):
        shutil.copytree(tmp_path / "root" / "solutions" / "toy", subs / name,
                        ignore=shutil.ignore_patterns("hidden", "__pycache__"))
    assert grade_batch(subs, bundle, tmp_path / "out", jobs=1, unsandboxed=True) == 1
    with open(tmp_path / "out" / "gradebook.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["submission"], r["status"]) for r in rows] == [("alice", "bundle_error"), ("bob", "bundle_error")]
    assert load_report(tmp_path / "out" / "alice" / "report.json").status == "bundle_error"
