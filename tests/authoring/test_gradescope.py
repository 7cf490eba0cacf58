"""The Gradescope zip works as Gradescope runs it: `run_autograder` on a fake /autograder tree.

The toy assignment is released; its `-gradescope.zip` is unzipped into `<root>/source` as Gradescope
does; a submission goes to `<root>/submission`; `run_autograder` runs with `LRKIT_AUTOGRADER_ROOT`
pointing at the fake root. It must write `results/results.json` in Gradescope's format, leave the
pending manual item out (saying so), hide hidden-key feedback until publishing, and still write a
results file when there is nothing it can grade.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from grader.authoring.build import build
from grader.authoring.release import release_assignment

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "fixtures" / "toy-root"


@pytest.fixture(scope="module")
def gradescope_zip(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("gs") / "root"
    shutil.copytree(TOY, root)
    assert build(root) == 0
    release_assignment(root, "toy", root / "dist")
    return root


def fake_autograder(base: Path, released: Path) -> Path:
    """/autograder as Gradescope lays it out: source/ (the zip, unzipped, modes kept), submission/, results/."""
    tree = base / "autograder"
    (tree / "submission").mkdir(parents=True)
    with zipfile.ZipFile(released / "dist" / "toy-gradescope.zip") as zf:
        for info in zf.infolist():
            zf.extract(info, tree / "source")
            mode = info.external_attr >> 16
            if mode & 0o111:
                os.chmod(tree / "source" / info.filename, 0o755)
    return tree


def run_autograder(tree: Path) -> dict:
    env = {**os.environ, "LRKIT_AUTOGRADER_ROOT": str(tree), "LRKIT_PYTHON": sys.executable}
    done = subprocess.run([str(tree / "source" / "run_autograder")], env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads((tree / "results" / "results.json").read_text())


def test_the_zip_holds_what_gradescope_expects(gradescope_zip):
    with zipfile.ZipFile(gradescope_zip / "dist" / "toy-gradescope.zip") as zf:
        modes = {i.filename: i.external_attr >> 16 for i in zf.infolist()}
        setup = zf.read("setup.sh").decode()
    assert stat.S_IMODE(modes["run_autograder"]) == 0o755 and stat.S_IMODE(modes["setup.sh"]) == 0o755
    assert {"toy-autograder.zip", "requirements.txt"} <= set(modes)
    assert any(n.startswith("wheels/lrkit-") for n in modes)
    assert "$PIP install -q --no-index --find-links wheels lrkit" in setup and "bubblewrap" in setup
    check = subprocess.run(["bash", "-n"], input=setup, text=True, capture_output=True)
    assert check.returncode == 0, check.stderr


def test_run_autograder_grades_the_solution(gradescope_zip, tmp_path):
    tree = fake_autograder(tmp_path, gradescope_zip)
    solution = gradescope_zip / "solutions" / "toy"
    for name in ("toy.py", "toy.ipynb"):  # Gradescope puts the uploaded files here, flat
        shutil.copy(solution / name, tree / "submission" / name)
    results = run_autograder(tree)
    assert results["score"] == 4.0  # every automatic point; the manual item (1 point) waits for a person
    names = [t["name"] for t in results["tests"]]
    assert "Why it works" not in names and len(names) == 3
    assert "Pending, graded by a person: Why it works (1 points)" in results["output"]
    visibility = {t["name"]: t["visibility"] for t in results["tests"]}
    assert visibility["Worked example"] == "after_published"  # judged against a hidden key
    assert visibility["Causal running sum"] == "after_published" and visibility["The exercise cell runs"] == "visible"
    assert all(t["status"] == "passed" for t in results["tests"])
    assert (tree / "results" / "report.html").is_file()


def test_run_autograder_always_leaves_results(gradescope_zip, tmp_path):
    """Nothing gradable in the upload: a results.json that says why, not a silent failure."""
    tree = fake_autograder(tmp_path, gradescope_zip)
    (tree / "submission" / "notes.txt").write_text("I could not finish")
    results = run_autograder(tree)
    assert results["score"] == 0 and "invalid" in results["output"]
    assert "none of the files this assignment grades" in results["output"]
