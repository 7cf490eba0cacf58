"""Fixtures for the term's tests: a copy of the example course with its ledger in tmp, a synthetic class."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from term_samples import EXAMPLE, class_reports, write_output


@pytest.fixture
def course_dir(tmp_path) -> Path:
    """The example course, copied: its ledger in tmp, its inputs (downloads, times) the example's own."""
    here = tmp_path / "course"
    here.mkdir()
    for name in ("canvas-roster.csv", "moodle-roster.csv", "times.csv", "moodle-times.csv"):
        shutil.copy(EXAMPLE / name, here / name)
    for name in ("canvas-download", "moodle-download"):
        shutil.copytree(EXAMPLE / name, here / name)
    for name in ("course.yaml", "course-moodle.yaml"):
        text = (EXAMPLE / name).read_text(encoding="utf-8")
        text = text.replace("../../out/course/term.sqlite", "term.sqlite").replace(
            "../../out/course-moodle/term.sqlite", "term-moodle.sqlite")
        (here / name).write_text(text, encoding="utf-8")
    return here


@pytest.fixture
def out_dir(tmp_path) -> Path:
    return write_output(tmp_path / "out", class_reports())
