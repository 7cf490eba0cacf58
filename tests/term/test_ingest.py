"""Does ingesting a batch output match each report to its student (Canvas names, the identity in an e-mailed
zip), time it, keep every attempt, record what a regrade changed, and hold a regrade that would lower a
published grade instead of lowering it?"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from zoneinfo import ZoneInfo

import pytest
from term_samples import ADA, ALAN, BASICS, DOWNLOAD, EXAMPLE, GRACE, class_reports, report, write_output

from grader.errors import UsageError
from grader.term import ledger
from grader.term.ingest import DIFF_FILE, TERM_DIR, Sources, accept, ingest
from grader.term.matching import Matcher
from grader.term.roster import read_roster
from grader.term.session import ledger_roster
from grader.term.times import LAST_RESORT, read_times

ZONE = ZoneInfo("America/New_York")


@pytest.fixture
def conn(tmp_path):
    conn = ledger.connect(tmp_path / "term.sqlite")
    ledger.put_roster(conn, read_roster(EXAMPLE / "canvas-roster.csv"), "now")
    yield conn
    conn.close()


def sources(with_times: bool = True) -> Sources:
    times = read_times(EXAMPLE / "times.csv", ZONE) if with_times else {}
    return Sources(DOWNLOAD, {}, times, ZONE)


def run(conn, out, with_times: bool = True):
    return ingest(conn, out, Matcher(ledger_roster(conn)), sources(with_times))


def test_each_report_finds_its_student_time_and_file(conn, out_dir):
    result = run(conn, out_dir)
    assert sorted(result.added) == ["101", "102", "103"] and result.missing == ("104",)
    grace = ledger.current_attempt(conn, BASICS, "102")
    assert "Canvas download name (user id 102)" in grace["matched_by"] and grace["lms_late"] == 1
    assert grace["received_at"] == "2026-09-17T05:59:00-04:00" and grace["time_source"].startswith("times CSV")
    alan = ledger.current_attempt(conn, BASICS, "103")
    assert alan["matched_by"] == "lrkit-assignment.json names 's1003'"
    zipped = (DOWNLOAD / "turing-by-email.zip").read_bytes()
    assert alan["file_sha256"] == hashlib.sha256(zipped).hexdigest()


def test_ingesting_again_changes_nothing(conn, out_dir):
    run(conn, out_dir)
    again = run(conn, out_dir)
    assert sorted(again.unchanged) == ["101", "102", "103"] and not again.added and not again.regrades
    assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 3


def test_a_submission_matched_to_nobody_is_listed_with_why(conn, tmp_path):
    out = write_output(tmp_path / "o", [*class_reports(), report("mystery-upload")])
    result = run(conn, out)
    assert result.unknown == (("mystery-upload", "no rule matched: add it to a mapping file (submission,student)"),)
    assert [r["folder"] for r in ledger.unmatched(conn, BASICS)] == ["mystery-upload"]


def test_a_regrade_keeps_the_previous_attempt_and_records_the_diff(conn, out_dir, tmp_path):
    run(conn, out_dir)
    fixed = [report(ADA, bundle="b2"), report(GRACE, {"checks": 5.0}, bundle="b2"),
             report(ALAN, {"checks": 0.0}, bundle="b2")]
    out = write_output(tmp_path / "regraded", fixed)
    result = run(conn, out)
    diffs = {d["student"]: d for d in result.regrades}
    assert diffs["102"]["items"] == {"checks": {"before": 3.0, "after": 5.0, "change": 2.0}}
    assert (diffs["102"]["score_before"], diffs["102"]["score_after"]) == (7.0, 9.0)
    assert diffs["102"]["because"] == ["a new autograder bundle"] and diffs["101"]["items"] == {}
    assert len(ledger.attempts_of(conn, BASICS, "102")) == 2
    assert ledger.current_attempt(conn, BASICS, "102")["score"] == 9.0
    written = json.loads((out / TERM_DIR / DIFF_FILE).read_text())
    assert {d["student"] for d in written} == {"101", "102", "103"}


def _publish(conn, student, score):
    row = ledger.current_attempt(conn, BASICS, student)
    conn.execute("INSERT INTO releases (assignment, student, attempt, raw_score, final_score, explain, "
                 "receipt_json, at, by) VALUES (?,?,?,?,?,'','{}','t','test')", (BASICS, student, row["id"], score,
                                                                                 score))


def test_a_regrade_that_would_lower_a_published_grade_is_held(conn, out_dir, tmp_path):
    run(conn, out_dir)
    _publish(conn, "101", 10.0)
    out = write_output(tmp_path / "lower", [report(ADA, {"checks": 2.0}, bundle="b2")])
    result = run(conn, out)
    assert result.held == ("101",) and result.regrades[0]["held"] is True
    assert "published grade stands" in result.regrades[0]["why"]
    assert ledger.current_attempt(conn, BASICS, "101")["score"] == 10.0  # not lowered
    assert run(conn, out).held == ("101",)  # ingesting again holds the same attempt, adds none
    assert len(ledger.attempts_of(conn, BASICS, "101")) == 2
    taken = accept(conn, BASICS, "101")
    assert ledger.current_attempt(conn, BASICS, "101")["id"] == taken
    assert ledger.current_attempt(conn, BASICS, "101")["score"] == 6.0
    with pytest.raises(UsageError, match=r"101: no held regrade of linear-attention-basics"):
        accept(conn, BASICS, "101")


def test_a_higher_regrade_of_a_published_grade_goes_through(conn, out_dir, tmp_path):
    run(conn, out_dir)
    _publish(conn, "102", 7.0)
    result = run(conn, write_output(tmp_path / "up", [report(GRACE, {"checks": 6.0}, bundle="b2")]))
    assert result.held == () and ledger.current_attempt(conn, BASICS, "102")["score"] == 10.0


def test_two_submissions_of_one_student_the_latest_counts(conn, tmp_path):
    second = "lovelaceada_101_55509_linear-attention-basics-submission-1"
    out = write_output(tmp_path / "o", [report(ADA, {"tests": 0.0}), report(second)])
    times = {ADA: dt.datetime(2026, 9, 14, tzinfo=ZONE), second: dt.datetime(2026, 9, 15, tzinfo=ZONE)}
    result = ingest(conn, out, Matcher(ledger_roster(conn)), Sources(None, {}, times, ZONE))
    assert result.superseded == ((ADA, f"101 handed in {second!r} later; that one counts"),)
    assert ledger.current_attempt(conn, BASICS, "101")["folder"] == second


def test_a_better_time_source_replaces_a_last_resort_one(conn, out_dir):
    run(conn, out_dir, with_times=False)
    assert ledger.current_attempt(conn, BASICS, "101")["time_source"] == LAST_RESORT
    run(conn, out_dir)
    assert ledger.current_attempt(conn, BASICS, "101")["time_source"] == "times CSV (101)"
    run(conn, out_dir, with_times=False)  # a worse source never replaces a better one
    assert ledger.current_attempt(conn, BASICS, "101")["received_at"] == "2026-09-15T20:00:00-04:00"
