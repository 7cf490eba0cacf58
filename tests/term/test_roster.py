"""Are the roster exports of Canvas, Moodle and a plain CSV read into the same students, and are submissions
matched to them from the names the LMSs give their bulk downloads?"""
from __future__ import annotations

import datetime as dt
import json
import zipfile
from pathlib import Path

import pytest

from grader.term.matching import Entry, Matcher, read_gradescope, read_mapping
from grader.term.roster import RosterError, read_roster
from grader.term.times import LAST_RESORT, submission_time

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def canvas():
    return read_roster(FIXTURES / "canvas_gradebook.csv")


def test_canvas_export_skips_points_possible_and_keeps_identity(canvas):
    assert canvas.source == "canvas"
    ada = canvas.by_key()["101"]
    assert (ada.name, ada.sis_id, ada.login, ada.section, ada.lms_id) == ("Ada Lovelace", "s1001", "ada", "A01", "101")
    assert [s.key for s in canvas.students] == ["101", "102", "103"]


def test_moodle_export_with_a_bom_keys_on_id_number():
    moodle = read_roster(FIXTURES / "moodle_grades.csv")
    assert moodle.source == "moodle"
    assert [(s.key, s.name, s.email) for s in moodle.students][0] == ("s1001", "Ada Lovelace", "ada@uni.example")


def test_a_duplicate_id_names_both_lines():
    with pytest.raises(RosterError, match=r"duplicate-student-id.csv:3: student id 's1' again \(first on line 2\)"):
        read_roster(FIXTURES / "duplicate-student-id.csv")


def test_an_unknown_header_lists_the_formats(tmp_path):
    (tmp_path / "r.csv").write_text("who,what\nx,y\n", encoding="utf-8")
    with pytest.raises(RosterError, match=r"r.csv:1: header .* none of a Canvas.*Moodle.*plain"):
        read_roster(tmp_path / "r.csv")


@pytest.mark.parametrize(("folder", "student", "late"), [
    ("lovelaceada_101_5551_linear-attention-basics-submission", "101", False),
    ("hopper_late_102_5552_hw", "102", True),
])
def test_canvas_bulk_download_names(canvas, folder, student, late):
    m = Matcher(canvas).match(Entry(folder))
    assert (m.students, m.lms_late) == ((student,), late) and "Canvas" in m.how


def test_moodle_folder_names_match_by_full_name_and_never_guess():
    moodle = read_roster(FIXTURES / "moodle_grades.csv")
    assert Matcher(moodle).match(Entry("Grace_Hopper_77_assignsubmission_file")).students == ("s1002",)
    unknown = Matcher(moodle).match(Entry("Nobody_Here_78_assignsubmission_file"))
    assert unknown.students == () and "no student on the roster" in unknown.how


def test_gradescope_metadata_names_the_submitter_and_the_time(canvas):
    meta = read_gradescope(FIXTURES / "gradescope_submission_metadata.json")
    m = Matcher(canvas, gradescope=meta).match(Entry("submission_555"))
    assert m.students == ("102",)
    t = submission_time("submission_555", m.students, None, gradescope=meta["submission_555"])
    assert t.when == dt.datetime(2026, 9, 16, 14, 0, tzinfo=dt.timezone.utc) and t.source.startswith("gradescope")


def test_the_identity_in_a_student_zip_and_a_mapping_file(canvas, tmp_path):
    z = tmp_path / "whatever.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("hw/lrkit-assignment.json", json.dumps({"assignment": "a", "release": "r", "student": "alan"}))
    assert Matcher(canvas).match(Entry("whatever", z)).students == ("103",)
    (tmp_path / "map.csv").write_text("submission,student\nmystery,s1001\n", encoding="utf-8")
    assert Matcher(canvas, mapping=read_mapping(tmp_path / "map.csv")).match(Entry("mystery")).students == ("101",)
    assert Matcher(canvas).match(Entry("mystery")).students == ()


def test_mtime_is_the_last_resort_and_says_so(tmp_path):
    (tmp_path / "sub").mkdir()
    t = submission_time("sub", (), tmp_path / "sub")
    assert t.source == LAST_RESORT and t.when is not None
    assert submission_time("sub", (), None).when is None


def test_gradescope_export_yaml_and_one_autograder_runs_metadata(canvas, tmp_path):
    (tmp_path / "submission_metadata.yml").write_text(
        "submission_777:\n  :submitters:\n  - :name: Alan Turing\n    :sid: s1003\n    :email: alan@uni.example\n"
        "  :created_at: 2026-09-16 09:30:00.000000000 -04:00\n", encoding="utf-8")
    meta = read_gradescope(tmp_path / "submission_metadata.yml")
    assert Matcher(canvas, gradescope=meta).match(Entry("submission_777")).students == ("103",)
    t = submission_time("submission_777", ("103",), None, gradescope=meta["submission_777"])
    assert t.when == dt.datetime(2026, 9, 16, 13, 30, tzinfo=dt.timezone.utc)
    (tmp_path / "one.json").write_text(json.dumps({"id": 9, "created_at": "2026-09-16T10:00:00Z", "users": [
        {"email": "x@y", "id": 1, "name": "Grace Hopper", "sid": "s1002"}]}), encoding="utf-8")
    assert Matcher(canvas, gradescope=read_gradescope(tmp_path / "one.json")).match(
        Entry("submission_9")).students == ("102",)


def test_gradescope_metadata_that_is_not_is_refused_with_the_file(tmp_path):
    (tmp_path / "m.yml").write_text("a: [unclosed\n", encoding="utf-8")
    with pytest.raises(RosterError, match=r"m.yml:2: not Gradescope's submission metadata.*download the export"):
        read_gradescope(tmp_path / "m.yml")


def test_the_moodle_file_name_with_the_original_name_after_it():
    moodle = read_roster(FIXTURES / "moodle_grades.csv")
    name = "Ada_Lovelace_7101_assignsubmission_file_linear-attention-basics-submission"  # as grade batch names it
    m = Matcher(moodle).match(Entry(name))
    assert m.students == ("s1001",) and "participant 7101" in m.how


def test_the_canvas_test_student_is_not_on_the_roster():
    roster = read_roster(FIXTURES.parents[2] / "examples" / "course" / "canvas-roster.csv")
    assert [s.key for s in roster.students] == ["101", "102", "103", "104"]
