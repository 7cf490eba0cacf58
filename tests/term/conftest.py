"""Fixtures for the term's tests: a copy of the example course with its ledger in tmp, a synthetic class."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from term_samples import BASICS, DOWNLOAD, EXAMPLE, class_reports, write_output

from grader.term import ledger
from grader.term.course import load_course
from grader.term.ingest import Sources, ingest
from grader.term.matching import Matcher
from grader.term.roster import read_roster
from grader.term.session import ledger_roster
from grader.term.times import read_times


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


@pytest.fixture(scope="session")
def course():
    """The example Canvas course, as loaded from examples/course/course.yaml."""
    return load_course(EXAMPLE / "course.yaml")


@pytest.fixture
def conn(tmp_path, course):
    """A ledger holding the example Canvas roster and the synthetic class, ingested with the example's inputs."""
    conn = ledger.connect(tmp_path / "term.sqlite")
    ledger.put_roster(conn, read_roster(EXAMPLE / "canvas-roster.csv"), "now")
    zone = course.deadline(BASICS).due.tzinfo
    out = write_output(tmp_path / "class-out", class_reports())
    ingest(conn, out, Matcher(ledger_roster(conn)), Sources(DOWNLOAD, {}, read_times(EXAMPLE / "times.csv", zone)))
    yield conn
    conn.close()
