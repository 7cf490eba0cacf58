"""`grade --local` and per-student numbers (grader/student/local.py): the id asked once, recorded, reused."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader.bundle import IDENTITY, Identity
from grader.config import load_assignment
from grader.student.local import local_student, record_student, recorded_student

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "student_template" / "linear-attention-hybrid"


@pytest.fixture
def folder(tmp_path) -> Path:
    """The hybrid template as a student unzips it: with its identity file."""
    shutil.copy(TEMPLATE / "assignment.yaml", tmp_path / "assignment.yaml")
    shutil.copy(TEMPLATE / "linear_attention_hybrid.ipynb", tmp_path / "linear_attention_hybrid.ipynb")
    (tmp_path / IDENTITY).write_bytes(Identity("linear-attention-hybrid", "f" * 64).to_bytes("Hybrid"))
    return tmp_path


def test_the_first_run_asks_once_and_records_the_id(folder):
    """Is the id asked on the first run, written into lrkit-assignment.json, and not asked again?"""
    config = load_assignment(folder, check_name=False)
    asked = []
    assert local_student(folder, config, lambda: asked.append(1) or " Ada ").id == "Ada"
    assert json.loads((folder / IDENTITY).read_text())["student"] == "Ada"
    assert json.loads((folder / IDENTITY).read_text())["assignment"] == "linear-attention-hybrid"
    assert local_student(folder, config, lambda: asked.append(1) or "bob").id == "Ada" and asked == [1]


def test_nothing_is_asked_when_the_notebook_already_sets_the_id(folder):
    config = load_assignment(folder, check_name=False)
    nb_path = folder / config.notebook
    nb = json.loads(nb_path.read_text())
    cell = next(c for c in nb["cells"] if "STUDENT_ID = " in "".join(c["source"]))
    cell["source"] = ['STUDENT_ID = "ada"\n']
    nb_path.write_text(json.dumps(nb))
    assert local_student(folder, config, lambda: pytest.fail("asked")).id == ""  # the cell answers when grading
    assert recorded_student(folder) == ""


def test_no_identity_file_records_nothing(folder):
    (folder / IDENTITY).unlink()
    assert not record_student(folder, "ada") and recorded_student(folder) == ""
