"""Do the term's commands work from the command line as the README says: export after a deadline moves,
export without a course, publish one student, a regrade's diff, overrides, the term summary, and the
messages (exit 2, nothing written) when the input is wrong?"""
from __future__ import annotations

import csv
import io
import json
import sqlite3

from term_samples import ADA, ALAN, BASICS, EXAMPLE, GRACE, HIDDEN_MESSAGE, HYBRID, report, write_output

from grader import cli
from grader.batch import naming
from grader.batch.run import submissions_in
from grader.term.commands import FEEDBACK_DIR, student_folder


def canvas_cells(path) -> dict[str, str]:
    return {r[1]: r[5] for r in list(csv.reader(io.StringIO(path.read_text())))[2:]}


def export(course_dir, out_dir, to, *extra) -> int:
    return cli.main(["export", "canvas", str(out_dir), "--to", str(to), "--course", str(course_dir / "course.yaml"),
                     *extra])


def test_moving_the_deadline_in_course_yaml_changes_the_exported_grade(course_dir, out_dir, tmp_path, capsys):
    assert export(course_dir, out_dir, tmp_path / "before.csv") == 0
    assert canvas_cells(tmp_path / "before.csv") == {"101": "10", "102": "6.3", "103": "4", "104": "0"}
    said = capsys.readouterr().out
    assert "no submission (counts as 0): 104" in said and "1 late penalty applied" in said
    path = course_dir / "course.yaml"
    path.write_text(path.read_text().replace('due: "2026-09-15 23:59"', 'due: "2026-09-16 23:59"'))
    assert export(course_dir, out_dir, tmp_path / "after.csv") == 0
    assert canvas_cells(tmp_path / "after.csv")["102"] == "7"


def test_an_export_without_a_course_needs_only_the_roster(out_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no course.yaml here
    code = cli.main(["export", "canvas", str(out_dir), "--to", "g.csv", "--roster", str(EXAMPLE / "canvas-roster.csv")])
    assert code == 0 and canvas_cells(tmp_path / "g.csv")["102"] == "7"  # no course: nothing is late
    assert (out_dir / "_term" / "term.sqlite").is_file()
    assert cli.main(["export", "csv", str(out_dir), "--to", "g2.csv"]) == 0  # the roster is in the ledger now


def test_no_roster_and_an_unknown_section_are_usage_errors(out_dir, course_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["export", "csv", str(out_dir), "--to", "g.csv"]) == 2
    assert "no roster yet; pass --roster FILE" in capsys.readouterr().err
    assert export(course_dir, out_dir, tmp_path / "g.csv", "--section", "Z99") == 2
    assert "no student in section 'Z99'; the roster's sections are: 'A01', 'A02'" in capsys.readouterr().err
    assert not (tmp_path / "g.csv").exists()


def test_a_broken_report_stops_everything_with_its_file_named(course_dir, out_dir, tmp_path, capsys):
    (out_dir / GRACE / "report.json").write_text('{"score": ')
    assert export(course_dir, out_dir, tmp_path / "g.csv") == 2
    assert f"{GRACE}/report.json: not a readable report" in capsys.readouterr().err
    assert not (tmp_path / "g.csv").exists()
    conn = sqlite3.connect(course_dir / "term.sqlite")
    assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 0


def test_publishing_one_student_releases_only_theirs(course_dir, out_dir, capsys):
    args = ["--course", str(course_dir / "course.yaml")]
    assert cli.main(["publish", str(out_dir), "--student", "ada", "--by", "prof", *args]) == 0
    assert "released 1, already released 0" in capsys.readouterr().out
    ada = json.loads((out_dir / FEEDBACK_DIR / "101" / "feedback.json").read_text())
    grace = json.loads((out_dir / FEEDBACK_DIR / "102" / "feedback.json").read_text())
    assert ada["released"] and ada["final"] == 10.0 and HIDDEN_MESSAGE in json.dumps(ada)
    assert not grace["released"] and grace["final"] is None and HIDDEN_MESSAGE not in json.dumps(grace)
    assert not (out_dir / FEEDBACK_DIR / "104").exists()  # nothing handed in: nothing to read
    assert cli.main(["publish", str(out_dir), *args]) == 0
    assert "released 2, already released 1" in capsys.readouterr().out


def test_a_regrade_after_publishing_shows_its_diff_and_holds_the_lower_grade(course_dir, out_dir, tmp_path, capsys):
    args = ["--course", str(course_dir / "course.yaml")]
    assert cli.main(["publish", str(out_dir), *args]) == 0
    regraded = write_output(tmp_path / "regraded", [report(ADA, {"tests": 1.0}, bundle="b2"),
                                                    report(GRACE, {"checks": 6.0}, bundle="b2"),
                                                    report(ALAN, {"checks": 0.0}, bundle="b2")])
    capsys.readouterr()
    assert cli.main(["regrade-diff", str(regraded), *args]) == 0
    said = capsys.readouterr().out
    assert "101: 10 -> 8 (-2; a new autograder bundle) HELD" in said and "items: tests 3.0 -> 1.0" in said
    assert "102: 7 -> 10 (+3; a new autograder bundle); items: checks 3.0 -> 6.0" in said
    assert export(course_dir, regraded, tmp_path / "g.csv") == 0
    assert canvas_cells(tmp_path / "g.csv")["101"] == "10"  # held: not lowered
    assert cli.main(["term", "accept", "--assignment", BASICS, "--student", "101", *args]) == 0
    assert export(course_dir, regraded, tmp_path / "g.csv") == 0
    assert canvas_cells(tmp_path / "g.csv")["101"] == "8"


def test_an_override_counts_and_the_term_summary_shows_it(course_dir, out_dir, tmp_path, capsys):
    args = ["--course", str(course_dir / "course.yaml")]
    assert export(course_dir, out_dir, tmp_path / "g.csv") == 0
    override = ["term", "override", "--assignment", BASICS, "--student", "s1003", "--item", "checks"]
    assert cli.main([*override, "--points", "9", "--reason", "r", *args]) == 2
    assert "9 is outside 0..6, the points checks is worth" in capsys.readouterr().err
    assert cli.main([*override, "--points", "5", "--reason", "regrade request", "--by", "ta", *args]) == 0
    assert cli.main(["term", "summary", "--to", str(tmp_path), *args]) == 0
    table = {r["student"]: r for r in csv.DictReader((tmp_path / "term-summary.csv").open())}
    assert table["103"][BASICS] == "9" and "override checks: 0 -> 5 (regrade request, ta)" in table["103"][
        f"{BASICS} how"]
    assert table["103"][f"{HYBRID} state"] == "not_graded"
    assert "Alan Turing" in (tmp_path / "term-summary.html").read_text()


def test_the_moodle_course_exports_what_moodle_imports(course_dir, tmp_path, capsys):
    download = course_dir / "moodle-download" / BASICS
    names = [name for _, name in naming.assign(submissions_in(download))[0]]
    points = {"Grace": {"checks": 3.0}, "turing": {"checks": 0.0}}
    reports = [report(n, next((p for k, p in points.items() if n.startswith(k)), None)) for n in names]
    out = write_output(tmp_path / "out", reports)
    code = cli.main(["export", "moodle", str(out), "--to", str(tmp_path / "m.csv"),
                     "--course", str(course_dir / "course-moodle.yaml")])
    assert code == 0 and 'map "Email address" to useremail' in capsys.readouterr().out
    rows = list(csv.reader(io.StringIO((tmp_path / "m.csv").read_text())))
    assert rows[0][-1] == "Assignment: Linear attention basics (Real)"
    assert [(r[2], r[5], r[6]) for r in rows[1:]] == [("s1001", "ada@uni.example", "10"),
                                                      ("s1002", "grace@uni.example", "6.3"),
                                                      ("s1003", "alan@uni.example", "4"),
                                                      ("s1004", "emmy@uni.example", "0")]


def test_a_student_key_that_is_not_a_safe_name_gets_a_safe_folder():
    assert student_folder("101") == "101"
    assert "/" not in student_folder("../etc") and student_folder("../etc").startswith("etc~")
    assert student_folder("a b") != student_folder("a_b")  # two keys never share a folder


def test_grade_ingest_lists_the_unmatched_and_a_mapping_file_matches_them(course_dir, tmp_path, capsys):
    out = write_output(tmp_path / "o", [report(ADA), report("scan-0042")])
    args = ["--course", str(course_dir / "course.yaml")]
    assert cli.main(["ingest", str(out), *args]) == 0
    said = capsys.readouterr().out
    assert "not matched: scan-0042: no rule matched: add it to a mapping file" in said
    assert "no submission (counts as 0): 102, 103, 104" in said
    (tmp_path / "map.csv").write_text("submission,student\nscan-0042,grace\n", encoding="utf-8")
    assert cli.main(["ingest", str(out), "--mapping", str(tmp_path / "map.csv"), *args]) == 0
    said = capsys.readouterr().out
    assert "not matched" not in said and "no submission (counts as 0): 103, 104" in said


def test_term_commands_name_what_they_need(course_dir, capsys):
    args = ["--course", str(course_dir / "course.yaml")]
    assert cli.main(["term", "override", "--student", "ada", *args]) == 2
    assert "grade term override needs --assignment NAME --student ID" in capsys.readouterr().err
    assert cli.main(["term", "accept", "--assignment", BASICS, "--student", "nobody", *args]) == 2
    assert "'nobody' is not on the roster (by id, SIS id, login or email)" in capsys.readouterr().err
