"""One set of points: a grade given in the browser reaches report.json, results.json, the gradebook and the
summary exactly as the same points imported from a sheet do, and `grade manual export` carries it."""
from __future__ import annotations

import csv
import json
import shutil

import pytest
from conftest import TOKEN, build_class
from helpers import grade_form, signed_in

from grader.batch.manual import export_sheet, import_sheet
from grader.report.render import load_report
from grader.serve.app import create_app
from grader.serve.store import DB_FILE


def _position(app, folder: str) -> int:
    cohort = app.extensions["lrkit"].cohort
    return cohort.folders(cohort.question("ex1_why")).index(folder) + 1


@pytest.fixture
def graded(tmp_path):
    """alice's ex1_why graded in the app: entry 1 (+2, "Correct and complete") and a comment."""
    klass = build_class(tmp_path / "served")
    app = create_app(klass.out, TOKEN, klass.solution)
    client = app.test_client()
    signed_in(client)
    url = f"/q/ex1_why/{_position(app, 'alice')}"
    response = client.post(f"{url}/grade", data={**grade_form(client, url), "toggle": "1", "comment": "Well put."})
    assert response.status_code == 302
    return klass, app, client


def test_a_grade_from_the_page_equals_the_same_grade_from_a_sheet(graded, tmp_path):
    klass, _, _ = graded
    sheet_class = build_class(tmp_path / "sheet")
    sheet = tmp_path / "sheet.csv"
    with sheet.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["submission", "item", "points", "comments"])
        writer.writerow(["alice", "ex1_why", "2", "Correct and complete (+2)\nWell put."])
    assert import_sheet(sheet_class.out, sheet) == 0
    for name in ("report.json", "results.json", "report.md", "report.html"):
        assert (klass.out / "alice" / name).read_text() == (sheet_class.out / "alice" / name).read_text(), name
    assert (klass.out / "gradebook.csv").read_text() == (sheet_class.out / "gradebook.csv").read_text()
    report = load_report(klass.out / "alice" / "report.json")
    item = next(i for i in report.items if i.id == "ex1_why")
    assert (item.points, item.status, report.score) == (2, "passed", 3)
    assert item.messages[:3] == ("graded by hand", "comment: Correct and complete (+2)", "comment: Well put.")
    assert json.loads((klass.out / "alice" / "results.json").read_text())["score"] == 3


def test_the_gradebook_and_summary_follow_every_saved_grade(graded):
    klass, _, _ = graded
    rows = {r["submission"]: r for r in csv.DictReader((klass.out / "gradebook.csv").open())}
    assert rows["alice"]["ex1_why"] == "2" and rows["alice"]["score"] == "3" and rows["bob"]["ex1_why"] == "0"
    assert list(rows["alice"]) == ["submission", "status", "score", "max_score", "ex1_runs", "ex1_why", "concepts"]
    summary = (klass.out / "summary.html").read_text()
    assert "alice/report.html" in summary


def test_manual_export_carries_the_grade_and_its_comments(graded, tmp_path):
    klass, _, _ = graded
    sheet = tmp_path / "out.csv"
    export_sheet(klass.out, sheet)
    rows = [r for r in csv.DictReader(sheet.open(newline="", encoding="utf-8")) if r["item"] == "ex1_why"]
    alice = next(r for r in rows if r["submission"] == "alice")
    assert alice["points"] == "2" and alice["comments"] == "Correct and complete (+2)\nWell put."
    assert {r["points"] for r in rows if r["submission"] != "alice"} == {""}


def test_changing_an_entry_in_the_page_rescores_the_reports(graded):
    klass, app, client = graded
    page = client.get("/q/ex1_why/1").get_data(as_text=True)
    version = page.split('action="/q/ex1_why/entries/1"', 1)[1].split('name="version" value="', 1)[1].split('"')[0]
    csrf = grade_form(client, "/q/ex1_why/1")["csrf"]
    response = client.post("/q/ex1_why/entries/1", data={"csrf": csrf, "version": version, "points": "1.5",
                                                         "comment": "Correct, a little thin", "back": "/q/ex1_why/1"})
    assert response.status_code == 302
    item = next(i for i in load_report(klass.out / "alice" / "report.json").items if i.id == "ex1_why")
    assert item.points == 1.5 and "comment: Correct, a little thin (+1.5)" in item.messages
    rows = {r["submission"]: r for r in csv.DictReader((klass.out / "gradebook.csv").open())}
    assert rows["alice"]["ex1_why"] == "1.5"


def test_a_class_moved_elsewhere_keeps_its_grades_and_order(graded, tmp_path):
    klass, app, _ = graded
    moved = tmp_path / "moved"
    shutil.copytree(klass.out, moved)
    again = create_app(moved, TOKEN, klass.solution)
    assert list(again.extensions["lrkit"].cohort.keys) == list(app.extensions["lrkit"].cohort.keys)
    assert again.extensions["lrkit"].store.grades("ex1_why")["alice"].points == 2
    assert (moved / DB_FILE).is_file()


def test_a_report_that_cannot_be_written_saves_no_grade_and_says_why(klass, monkeypatch):
    app = create_app(klass.out, TOKEN, klass.solution)
    client = app.test_client()
    signed_in(client)

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("grader.batch.manual.write_reports", full)
    url = f"/q/ex1_why/{_position(app, 'alice')}"
    response = client.post(f"{url}/grade", data={**grade_form(client, url), "toggle": "1"})
    page = response.get_data(as_text=True)
    assert response.status_code == 500 and "the reports of alice cannot be written" in page and "No space" in page
    assert app.extensions["lrkit"].store.grades("ex1_why") == {}
    assert "graded by hand" not in (klass.out / "alice" / "report.json").read_text()
