"""Is the example course what it says it is (its downloads are the example submissions, named as Canvas and
Moodle name them), and can a TA grade it with one command and upload the Canvas gradebook unchanged?"""
from __future__ import annotations

import csv
import importlib.util
import io
import shutil
import zipfile
from pathlib import Path

import pytest
from term_samples import BASICS, EXAMPLE, ROOT

from grader import cli, sandbox
from grader.bundle import IDENTITY, bundle_entries, release_identity, write_zip
from grader.config import load_assignment
from grader.report.render import load_report
from grader.term.roster import read_roster


def _make_downloads():
    spec = importlib.util.spec_from_file_location("make_downloads", EXAMPLE / "make_downloads.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_downloads_are_the_example_submissions():
    """Stale after an example submission changes: rebuild with examples/course/make_downloads.py."""
    wanted = _make_downloads().downloads()
    on_disk = [*(EXAMPLE / "canvas-download").rglob("*.zip"), *(EXAMPLE / "moodle-download").rglob("*.zip")]
    assert sorted(on_disk) == sorted(wanted), "run .venv/bin/python examples/course/make_downloads.py"
    for path, files in wanted.items():
        with zipfile.ZipFile(path) as zf:
            held = sorted((i.filename, zf.read(i)) for i in zf.infolist())
        assert held == sorted(files), f"{path.name} is stale: run .venv/bin/python examples/course/make_downloads.py"


def _bundle(dist: Path) -> Path:
    """The autograder bundle of the committed trees (what `tasks.py release` puts in the zip, without the wheel)."""
    solution, template = ROOT / "solutions" / BASICS, ROOT / "student_template" / BASICS
    config = load_assignment(solution, check_name=False)
    identity = release_identity(BASICS, solution, template)
    entries = bundle_entries(solution, template) + [
        (IDENTITY, identity.to_bytes(config.title, (*config.student_files, IDENTITY)))]
    path = dist / f"{BASICS}-autograder.zip"
    write_zip(path, entries)
    return path


@pytest.mark.slow
def test_grade_the_canvas_class_and_export_what_canvas_imports(tmp_path, capsys):
    course = tmp_path / "course"
    shutil.copytree(EXAMPLE, course)
    text = (course / "course.yaml").read_text(encoding="utf-8")
    (course / "course.yaml").write_text(text.replace("../../out/course/term.sqlite", "term.sqlite"), encoding="utf-8")
    download, out = course / "canvas-download" / BASICS, tmp_path / "out"
    allow = [] if sandbox.sandbox_available() else ["--allow-unsandboxed"]
    batch = ["batch", str(download), "--autograder", str(_bundle(tmp_path / "dist")), "--out", str(out), "--jobs", "2"]
    assert cli.main([*batch, *allow]) in (0, 1)  # 1: the untouched template is 'incomplete' or worse
    reports = {p.parent.name: load_report(p) for p in out.glob("*/report.json")}
    assert len(reports) == 3
    to = tmp_path / "canvas-upload.csv"
    assert cli.main(["export", "canvas", str(out), "--to", str(to), "--course", str(course / "course.yaml")]) == 0
    said = capsys.readouterr().out
    assert "no submission (counts as 0): 104\n" in said and "not matched" not in said  # Alan by his identity file
    rows = list(csv.reader(io.StringIO(to.read_text(encoding="utf-8"))))
    exported = list(csv.reader(io.StringIO((EXAMPLE / "canvas-roster.csv").read_text(encoding="utf-8"))))
    assert rows[0] == exported[0][:5] + ["Linear attention basics (1234)"]  # Canvas's own names, its id kept
    max_score = next(iter(reports.values())).max_score
    assert rows[1] == ["    Points Possible", "", "", "", "", f"{max_score:.2f}"]
    assert [r[:5] for r in rows[2:]] == [r[:5] for r in exported[2:6]]  # identity as exported; no test student
    score = {folder.split("_")[0]: r.score for folder, r in reports.items()}
    ada, grace, alan, emmy = (float(r[5]) for r in rows[2:])
    solution = next(r for folder, r in reports.items() if folder.startswith("lovelaceada"))
    pending = sum(i.max_points for i in solution.items if i.status == "manual")  # hand-graded items: later
    assert ada == score["lovelaceada"] == max_score - pending  # the solution, on time
    assert grace == round(score["hoppergrace"] * 0.9, 2)  # 6 h late after her +1 day: one day at 10%
    assert alan == score["turing-by-email"]  # e-mailed, matched by its identity file
    assert emmy == 0.0  # no submission
    assert read_roster(to).students == read_roster(EXAMPLE / "canvas-roster.csv").students
