"""Class summary: gradebook.csv rows and columns, summary.html content, stable figures."""
from __future__ import annotations

import base64
import csv
import re

import pytest

from grader.report.summary import write_class_summary
from grader.results import ItemResult, Report, VariantMatch

RUBRIC = [("normalizer", "Linear attention divides by φ(q)·z", 3.0),
          ("your_turn", "Worked example, third token", 1.0),
          ("causal_retention", "Causal retention", 4.0)]


def graded(name: str, normalizer: float, your_turn: float, causal: float) -> Report:
    items = (ItemResult("normalizer", RUBRIC[0][1], normalizer, 3, "passed" if normalizer == 3 else "failed", "checks"),
             ItemResult("your_turn", RUBRIC[1][1], your_turn, 1, "passed" if your_turn == 1 else "failed", "answers"),
             ItemResult("causal_retention", RUBRIC[2][1], causal, 4, "hidden", "checks", hidden=True))
    return Report("linear-attention-basics", name, "graded", normalizer + your_turn + causal, 8, items, official=True)


def failed(name: str, status: str) -> Report:
    return Report("linear-attention-basics", name, status, 0, 8, (), official=True, notes=(f"{status}",))


@pytest.fixture
def batch() -> list[Report]:
    return [graded("carol", 3, 1, 4), failed("bob", "crashed"), graded("alice", 3, 0, 2),
            failed("dave", "timeout"), failed("<script>eve</script>", "invalid"), failed("=HYPERLINK(1)", "crashed")]


def read_csv(path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_gradebook_has_a_sorted_row_for_every_submission(tmp_path, batch):
    paths = write_class_summary(batch, tmp_path, rubric_items=RUBRIC)
    rows = read_csv(paths["gradebook.csv"])
    assert list(rows[0]) == ["submission", "status", "score", "max_score",
                             "normalizer", "your_turn", "causal_retention"]
    # sorted by name; a name a spreadsheet would run as a formula gets a leading quote
    assert [r["submission"] for r in rows] == ["<script>eve</script>", "'=HYPERLINK(1)",
                                               "alice", "bob", "carol", "dave"]
    alice = rows[2]
    assert alice == {"submission": "alice", "status": "graded", "score": "5", "max_score": "8",
                     "normalizer": "3", "your_turn": "0", "causal_retention": "2"}
    assert rows[3]["status"] == "crashed" and rows[3]["score"] == "0" and rows[3]["normalizer"] == ""


def test_gradebook_columns_without_a_rubric_come_from_the_reports(tmp_path, batch):
    rows = read_csv(write_class_summary(batch, tmp_path)["gradebook.csv"])
    assert list(rows[0])[4:] == ["normalizer", "your_turn", "causal_retention"]


def test_summary_html_counts_scores_rates_and_figures(tmp_path, batch):
    html = write_class_summary(batch, tmp_path, rubric_items=RUBRIC)["summary.html"].read_text(encoding="utf-8")
    assert "6 submissions" in html
    for status, count in [("graded", 2), ("crashed", 2), ("timeout", 1), ("invalid", 1)]:
        assert re.search(rf"<td>{status}</td><td class=\"num\">{count}</td>", html)
    # invalid and crashed are left out of the statistics: scores 8, 5, 0 -> mean 4.33, median 5
    assert "mean score 4.33, median 5 (out of 8)" in html
    assert "cover 3 submissions; left out: 1 invalid, 2 crashed" in html
    # your_turn: full marks for carol only, 1 of the 3 counted
    assert re.search(r"<code>your_turn</code>.*?33%", html)
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(images) == 2
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)


def test_summary_links_every_report(tmp_path, batch):
    html = write_class_summary(batch, tmp_path, folders={"alice": "alice-2"})["summary.html"].read_text()
    assert '<a href="alice-2/report.html">alice</a>' in html and '<a href="dave/report.html">dave</a>' in html
    assert '<a href="%3Cscript%3Eeve%3C/script%3E/report.html">' in html  # every one, even an invalid one
    assert html.count("/report.html") == len(batch)


def test_manual_items_nobody_graded_yet_are_pending_not_zero(tmp_path):
    why = ("why", "Why it works", 2.0)
    reports = [Report("toy", n, "graded", 3, 5, (ItemResult("normalizer", "N", 3, 3, "passed", "checks"),
                                                 ItemResult("why", "Why it works", 0, 2, "manual", "manual")),
                      official=True) for n in ("a", "b")]
    html = write_class_summary(reports, tmp_path, rubric_items=[RUBRIC[0], why])["summary.html"].read_text()
    assert re.search(r"<code>why</code>.*?<em>pending</em>", html) and not re.search(r"<code>why</code>[^\n]*0%", html)


def test_summary_escapes_submission_names(tmp_path, batch):
    html = write_class_summary(batch, tmp_path)["summary.html"].read_text(encoding="utf-8")
    assert "<script>eve" not in html and "&lt;script&gt;eve&lt;/script&gt;" in html


def test_figures_are_byte_stable(tmp_path, batch):
    """Do two runs on the same reports give identical files (no timestamps, no Software tag)?"""
    first = write_class_summary(batch, tmp_path / "a", rubric_items=RUBRIC)
    second = write_class_summary(list(reversed(batch)), tmp_path / "b", rubric_items=RUBRIC)
    for kind in ("gradebook.csv", "summary.html"):
        assert first[kind].read_bytes() == second[kind].read_bytes()
    assert b"Software" not in base64.b64decode(
        re.search(r'base64,([A-Za-z0-9+/=]+)"', first["summary.html"].read_text()).group(1))


def test_empty_and_all_crashed_batches(tmp_path):
    paths = write_class_summary([], tmp_path / "empty", rubric_items=RUBRIC)
    assert read_csv(paths["gradebook.csv"]) == []
    assert "0 submissions" in paths["summary.html"].read_text(encoding="utf-8")
    paths = write_class_summary([failed("bob", "crashed")], tmp_path / "crashed", rubric_items=RUBRIC)
    assert read_csv(paths["gradebook.csv"])[0]["normalizer"] == ""


def test_the_gradebook_is_written_even_when_the_page_cannot_be_drawn(tmp_path, batch, monkeypatch):
    """Is the gradebook (the record) written whole, with a page that says why, when drawing fails?"""
    write_class_summary(batch, tmp_path)

    def broken(*args, **kwargs):
        raise RuntimeError("template exploded")

    monkeypatch.setattr("grader.report.summary.render_html_template", broken)
    paths = write_class_summary(batch[:2], tmp_path)
    assert len(paths["gradebook.csv"].read_text().splitlines()) == 3  # header and the two rows
    assert "could not be drawn (RuntimeError: template exploded)" in paths["summary.html"].read_text()


def test_summary_shows_each_submissions_own_numbers_and_what_they_match(tmp_path):
    """With per-student numbers, does the class summary show each submission's, and answers right for the defaults?"""
    ada = {"student": "ada", "parameters": {"T": 2_000_000, "D": 3072}, "default_matches": ["mha_cache_one_layer"]}
    reports = [Report("a", "ada_sub", "graded", 1, 8, (), official=True, variant=ada),
               Report("a", "anon", "graded", 1, 8, (), official=True,
                      variant={"student": "", "parameters": {"T": 1_000_000, "D": 4096}, "default_matches": []})]
    html = write_class_summary(reports, tmp_path)["summary.html"].read_text(encoding="utf-8")
    assert "Own numbers" in html and "T = 2,000,000, D = 3072" in html
    assert "right for the default numbers: mha_cache_one_layer" in html
    assert "no student id (graded with the default numbers)" in html


def test_summary_without_variants_has_no_numbers_column(tmp_path, batch):
    html = write_class_summary(batch, tmp_path)["summary.html"].read_text(encoding="utf-8")
    assert "Own numbers" not in html


def with_variant(name: str, student: str, defaults: tuple[str, ...] = ()) -> Report:
    variant = {"student": student, "source": "the notebook's STUDENT_ID cell", "parameters": {"T": 800000, "D": 2048},
               "wrong": {}, "default_matches": list(defaults)}
    return Report("linear-attention-hybrid", name, "graded", 1, 2, (), official=True, variant=variant)


def test_classmates_variants_are_listed_when_given(tmp_path):
    """Does the summary list an answer right for a classmate's numbers, with the student text escaped?"""
    match = VariantMatch("<b>bob</b>", "bob", "the variant of ada (ada)", ("ada",), ("mha_cache_one_layer",))
    html = write_class_summary([with_variant("ada", "ada"), with_variant("<b>bob</b>", "bob")], tmp_path,
                               variant_matches=[match])["summary.html"].read_text(encoding="utf-8")
    assert "matches the variant of ada (ada)" in html and "mha_cache_one_layer" in html
    assert "<b>bob</b>" not in html and "not compared" not in html


def test_without_the_bundle_the_summary_says_what_it_could_not_compare(tmp_path):
    """Written from reports alone (variant_matches=None), the summary keeps the default-number listing and says
    that classmates' numbers were not compared, and how to compare them."""
    html = write_class_summary([with_variant("ada", "ada", ("mha_cache_one_layer",)), with_variant("cy", "")],
                               tmp_path)["summary.html"].read_text(encoding="utf-8")
    assert "right for the default numbers: mha_cache_one_layer" in html and "no student id" in html
    assert "were not compared" in html and "grade similarity" in html


def test_an_assignment_without_variants_has_no_such_section(tmp_path, batch):
    html = write_class_summary(batch, tmp_path, variant_matches=[])["summary.html"].read_text(encoding="utf-8")
    assert "other numbers" not in html and "not compared" not in html


def test_one_student_id_claimed_by_two_submissions_is_flagged_in_both(tmp_path):
    """dee sets STUDENT_ID to ada's id (and can copy ada's right answers): both rows say so; a third does not."""
    html = write_class_summary([with_variant("ada", "ada"), with_variant("dee", "ada"), with_variant("eli", "eli")],
                               tmp_path)["summary.html"].read_text(encoding="utf-8")
    assert "the same student id as dee (flagged for review)" in html
    assert "the same student id as ada (flagged for review)" in html
    assert html.count("flagged for review") == 2
