"""Intake never grades the wrong thing silently: whose submission it is, what it lacks, what it is.

On the toy assignment (built and released once for the module): another assignment's submission
and a submission with none of the assignment's files are `invalid`, naming what is wrong; missing
files make it `incomplete`, graded on what is there (never the template's stubs); a batch gives every
entry a row; bad paths and bundles are usage errors that write nothing.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from grader import sandbox
from grader.authoring.build import build
from grader.authoring.release import release_assignment
from grader.batch.run import grade_batch
from grader.bundle import IDENTITY, Identity
from grader.grading.pipeline import grade_submission
from grader.report.render import load_report

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "fixtures" / "toy-root"
UNSANDBOXED = not sandbox.sandbox_available()


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    base = tmp_path_factory.mktemp("intake")
    root = base / "root"
    shutil.copytree(TOY, root)
    assert build(root) == 0
    release_assignment(root, "toy", root / "dist")  # the zips alone (release() also runs check first)
    with zipfile.ZipFile(root / "dist" / "toy-student.zip") as zf:
        zf.extractall(base / "student")
    return base, root / "dist" / "toy-autograder.zip", base / "student" / "toy"


def identity_of(student: Path) -> Identity:
    data = json.loads((student / IDENTITY).read_text())
    return Identity(data["assignment"], data["release"])


def test_the_student_zip_and_its_notebook_carry_the_identity_of_the_bundle(toy):
    base, bundle, student = toy
    with zipfile.ZipFile(bundle) as zf:
        ours = json.loads(zf.read(IDENTITY))
    assert identity_of(student) == Identity("toy", ours["release"]) and len(ours["release"]) == 64
    meta = json.loads((student / "toy.ipynb").read_text())["metadata"]["lrkit"]
    assert meta == {"assignment": "toy", "release": ours["release"]}


def test_another_assignments_submission_is_invalid_naming_both(toy, tmp_path):
    base, bundle, student = toy
    sub = tmp_path / "bob"
    sub.mkdir()
    shutil.copy(student / "toy.py", sub / "toy.py")
    shutil.copy(student / "toy.ipynb", sub / "toy.ipynb")
    (sub / IDENTITY).write_bytes(Identity("linear-attention-basics", "ab" * 32).to_bytes())
    report = grade_submission(sub, bundle, unsandboxed=UNSANDBOXED)
    assert report.status == "invalid" and report.score == 0
    assert "'linear-attention-basics'" in report.notes[0] and "'toy'" in report.notes[0]
    assert "linear-attention-basics-autograder.zip" in report.notes[0]


def test_the_notebook_metadata_alone_identifies_a_submission(toy, tmp_path):
    """A student who uploads only their two files (no identity file) is still recognised."""
    base, bundle, student = toy
    sub = tmp_path / "carol"
    sub.mkdir()
    nb = json.loads((student / "toy.ipynb").read_text())
    nb["metadata"]["lrkit"] = {"assignment": "linear-attention-hybrid", "release": "cd" * 32}
    (sub / "toy.ipynb").write_text(json.dumps(nb))
    shutil.copy(student / "toy.py", sub / "toy.py")
    report = grade_submission(sub, bundle, unsandboxed=UNSANDBOXED)
    assert report.status == "invalid" and "'linear-attention-hybrid'" in report.notes[0]


def test_a_submission_of_another_assignments_files_is_invalid(toy, tmp_path):
    """The basics class graded with the toy bundle (no identity file): none of toy's files, so invalid."""
    base, bundle, student = toy
    sub = tmp_path / "dave"
    sub.mkdir()
    (sub / "linear_attention.py").write_text("x = 1\n")
    (sub / "linear_attention.ipynb").write_text("{}")
    report = grade_submission(sub, bundle, unsandboxed=UNSANDBOXED)
    assert report.status == "invalid"
    assert "none of the files this assignment grades is in the submission (toy.py, toy.ipynb)" in report.notes[0]
    assert "linear_attention.py" in report.notes[0]


def test_a_missing_notebook_is_incomplete_and_the_code_is_still_graded(toy, tmp_path):
    base, bundle, student = toy
    sub = tmp_path / "erin"
    sub.mkdir()
    shutil.copy(ROOT / "tests" / "fixtures" / "toy-root" / "assignments" / "toy" / "toy.py", sub / "toy.py")
    report = grade_submission(sub, bundle, unsandboxed=UNSANDBOXED)
    assert report.status == "incomplete"
    assert any("toy.ipynb is missing" in n and "template's copy is not used" in n for n in report.notes)
    items = {i.id: i for i in report.items}
    assert items["cumsum"].status == "passed"  # the module it did hand in earns its points
    assert items["notebook_runs"].points == 0 and all(c.status == "not_run" for c in report.cells)
    assert items["your_turn"].points == 0  # no answers without the notebook, not the template's


def test_a_batch_gives_every_entry_a_row(toy, tmp_path):
    base, bundle, student = toy
    subs, out = tmp_path / "subs", tmp_path / "out"
    subs.mkdir()
    alice = subs / "alice"
    alice.mkdir()
    solution = base / "root" / "solutions" / "toy"
    for name in ("toy.py", "toy.ipynb"):
        shutil.copy(solution / name, alice / name)
    (alice / IDENTITY).write_bytes(Identity("toy", "00" * 32).to_bytes())  # an older release of the same
    shutil.copy(solution / "toy.ipynb", subs / "frank.ipynb")  # a bare notebook
    (subs / "README.txt").write_text("how to submit")
    grade_batch(subs, bundle, out, jobs=2, unsandboxed=UNSANDBOXED)
    with (out / "gradebook.csv").open() as fh:
        rows = {line.split(",")[0]: line.split(",")[1] for line in fh.read().splitlines()[1:]}
    assert rows == {"alice": "graded", "frank": "incomplete", "README.txt": "invalid"}
    alice_report = load_report(out / "alice" / "report.json")
    assert any("handed in from release 000000000000 of toy" in n for n in alice_report.notes)
    frank = load_report(out / "frank" / "report.json")
    assert any("toy.py is missing" in n for n in frank.notes)
    readme = load_report(out / "README.txt" / "report.json")
    assert "not a submission" in readme.notes[0]
    summary = (out / "summary.html").read_text()
    assert "left out: 1 invalid" in summary and 'href="frank/report.html"' in summary


def _grade(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_bad_paths_and_bundles_are_usage_errors_that_write_nothing(toy, tmp_path):
    base, bundle, student = toy
    cases = [
        ("submission", "typo.zip", "--autograder", str(bundle), "--out", "out"),
        ("submission", str(student), "--autograder", "missing-autograder.zip", "--out", "out"),
        ("batch", "no-such-folder", "--autograder", str(bundle), "--out", "out"),
        ("batch", str(tmp_path), "--autograder", "missing-autograder.zip", "--out", "out"),
    ]
    for args in cases:
        done = _grade(*args, "--allow-unsandboxed", cwd=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert "Traceback" not in done.stderr and done.stderr.startswith("grade: "), done.stderr
        assert not (tmp_path / "out").exists(), args


def test_grade_pack_zips_exactly_what_the_grader_takes(toy, tmp_path):
    base, bundle, student = toy
    work = tmp_path / "toy"
    shutil.copytree(student, work)
    (work / "scratch.py").write_text("print('mine')")
    done = _grade("pack", cwd=work)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(work / "toy-submission.zip") as zf:
        assert sorted(zf.namelist()) == sorted(["toy.py", "toy.ipynb", IDENTITY])
    (work / "toy.py").unlink()
    done = _grade("pack", cwd=work)
    assert done.returncode == 2 and "toy.py" in done.stderr and "Traceback" not in done.stderr
