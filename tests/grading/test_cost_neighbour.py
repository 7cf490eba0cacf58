"""Fair time: a submission that spins 60 busy processes at every import, graded in the same batch (--jobs 2),
leaves its neighbours' verdicts unchanged: the solution and a correct alternative (every full chunk at once)
keep every automatic point, cost items included (each run has its CPU share; costs are CPU time and growth)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader import sandbox
from grader.authoring.build import build
from grader.authoring.release import release_assignment
from grader.batch.run import grade_batch
from grader.report.render import load_report

ROOT = Path(__file__).resolve().parents[2]
NAME = "linear-attention-basics"
CORPUS = ROOT / "tests" / "adversarial"
FILES = ("linear_attention.py", "linear_attention.ipynb")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sandbox.sandbox_available(), reason="needs the official sandbox (Linux, root)")]


def _solution_plus(root: Path, dest: Path, case: str | None) -> None:
    dest.mkdir(parents=True)
    for name in FILES:
        shutil.copy(root / "solutions" / NAME / name, dest / name)
    if case:
        with (dest / "linear_attention.py").open("a") as fh:
            fh.write("\n\n" + (CORPUS / case / "attack.py").read_text())


def test_a_spinning_neighbour_moves_no_verdict(tmp_path, monkeypatch):
    monkeypatch.setenv("LRKIT_KEEP_PASSES", "0")  # the solution measured beside the spinner, no pass kept before
    root, subs, out = tmp_path / "root", tmp_path / "subs", tmp_path / "out"
    shutil.copytree(ROOT / "assignments" / NAME, root / "assignments" / NAME,
                    ignore=shutil.ignore_patterns("__pycache__"))
    assert build(root, [NAME]) == 0
    _, bundle = release_assignment(root, NAME, root / "dist")
    _solution_plus(root, subs / "a_spinner", "cost_spinning_neighbour")  # (first: graded beside both others)
    _solution_plus(root, subs / "b_solution", None)
    _solution_plus(root, subs / "c_batched_chunkwise", "cost_batched_chunkwise")
    grade_batch(subs, bundle, out, jobs=2)
    for name in ("b_solution", "c_batched_chunkwise"):
        report = load_report(out / name / "report.json")
        short = [(i.id, i.points, i.messages[-1:]) for i in report.items
                 if i.kind != "manual" and i.points != i.max_points]
        assert report.status == "graded" and not short, (name, short)
    spinner = load_report(out / "a_spinner" / "report.json")
    assert spinner.score < load_report(out / "b_solution" / "report.json").score
