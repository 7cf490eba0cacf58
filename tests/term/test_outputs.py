"""Is a batch output folder read as hostile input: links, sizes, types and a gradebook that does not match its
folders refused with the file named, and nothing ingested from a folder with a fault?"""
from __future__ import annotations

import json
import os

import pytest
from term_samples import ADA, GRACE, HYBRID, class_reports, report, write_output

from grader.term import outputs
from grader.term.outputs import OutputError, read_output


def _edit(path, **changes):
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def test_a_batch_output_reads_back_as_its_reports(out_dir):
    found = read_output(out_dir)
    assert [g.folder for g in found] == sorted(r.submission for r in class_reports())
    assert {g.report.score for g in found} == {10.0, 7.0, 4.0}


def test_the_term_folders_of_an_output_are_not_submissions(out_dir):
    (out_dir / "_feedback" / "101").mkdir(parents=True)
    (out_dir / "_term").mkdir()
    assert len(read_output(out_dir)) == 3


@pytest.mark.parametrize(("change", "words"), [
    ({"score": "ten"}, "score and max_score must be numbers"),
    ({"score": 11.0}, r"0 <= score <= max_score"),
    ({"status": "perfect"}, "status 'perfect' is not one of graded"),
    ({"schema_version": 7}, "report schema 7"),
    ({"items": [{"id": "x"}]}, "not a readable report"),
    ({"assignment": ["a"]}, "assignment and submission must be short text"),
    ({"environment": {"grader": 3}}, "hashes and environment must be text"),
])
def test_a_report_with_the_wrong_types_is_named_and_nothing_is_read(out_dir, change, words):
    _edit(out_dir / ADA / "report.json", **change)
    with pytest.raises(OutputError, match=rf"{ADA}/report.json: .*{words}.*nothing was ingested"):
        read_output(out_dir)


def test_nan_in_a_report_is_refused(out_dir):
    path = out_dir / ADA / "report.json"
    path.write_text(path.read_text().replace('"score": 10.0', '"score": NaN'))
    with pytest.raises(OutputError, match=r"NaN is not a number a report may hold"):
        read_output(out_dir)


def test_a_linked_report_and_an_oversized_one_are_refused(out_dir, tmp_path, monkeypatch):
    target = out_dir / GRACE / "report.json"
    (out_dir / ADA / "report.json").unlink()
    os.symlink(target, out_dir / ADA / "report.json")
    with pytest.raises(OutputError, match=rf"{ADA}/report.json: missing or not a regular file"):
        read_output(out_dir)
    (out_dir / ADA / "report.json").unlink()
    (out_dir / ADA / "report.json").write_text(target.read_text())
    monkeypatch.setattr(outputs, "MAX_REPORT_BYTES", 100)
    with pytest.raises(OutputError, match=r"report.json: over 0 MB"):
        read_output(out_dir)


def test_the_gradebook_must_name_exactly_the_reports(out_dir):
    (out_dir / "gradebook.csv").write_text((out_dir / "gradebook.csv").read_text() + "ghost,graded,1,10\n")
    with pytest.raises(OutputError, match=r"gradebook.csv:5: names 'ghost', which has no report.json"):
        read_output(out_dir)
    lines = (out_dir / "gradebook.csv").read_text().splitlines()
    (out_dir / "gradebook.csv").write_text("\n".join(line for line in lines if not line.startswith(("ghost", ADA))))
    with pytest.raises(OutputError, match=rf"has no row for '{ADA}', which has a report.json"):
        read_output(out_dir)


def test_an_output_without_a_gradebook_says_what_to_run(tmp_path):
    (tmp_path / "shard").mkdir()
    with pytest.raises(OutputError, match=r"shard: no gradebook.csv.*'grade merge' first"):
        read_output(tmp_path / "shard")
    with pytest.raises(OutputError, match=r"nope: no such folder; give the --out folder"):
        read_output(tmp_path / "nope")


def test_two_assignments_in_one_output_are_refused(tmp_path):
    out = write_output(tmp_path / "o", [report("a"), report("b", assignment=HYBRID)])
    with pytest.raises(OutputError, match=r"reports of several assignments \(linear-attention-basics, linear-"):
        read_output(out)
