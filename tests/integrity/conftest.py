"""Fixtures for the integrity room: a bundle folder of linear-attention-basics and the example class
(examples/integrity/class) as a batch output whose reports are stand-ins (nothing is graded here)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.batch.run import write_inputs
from grader.bundle import open_bundle
from grader.grading.pipeline import failed_report
from grader.report.render import write_reports

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENT = "linear-attention-basics"
EXAMPLE = REPO / "examples" / "integrity"
CLASS = EXAMPLE / "class"


def make_bundle(where: Path) -> Path:
    """An autograder bundle folder (solution/ and template/, no manifest) made from the generated trees."""
    shutil.copytree(REPO / "solutions" / ASSIGNMENT, where / "solution")
    shutil.copytree(REPO / "student_template" / ASSIGNMENT, where / "template")
    return where


def make_output(out: Path, submissions: Path, bundle: Path, *, record: bool = True, status: str = "graded") -> Path:
    """A batch output for ``submissions``: one stand-in report per entry, as `grade batch` lays them out."""
    opened = open_bundle(bundle, out.parent / "opened")
    for entry in sorted(submissions.iterdir()):
        name = entry.name.removesuffix(".zip")
        write_reports(failed_report(opened.config, opened.rubric, name, status, "stand-in"), out / name)
    if record:
        write_inputs(out, submissions, bundle)
    return out


@pytest.fixture(scope="session")
def bundle(tmp_path_factory) -> Path:
    return make_bundle(tmp_path_factory.mktemp("bundle"))


@pytest.fixture
def example_out(tmp_path, bundle) -> Path:
    out = make_output(tmp_path / "out", CLASS, bundle)
    shutil.copy(EXAMPLE / "sections.csv", out / "sections.csv")
    return out
