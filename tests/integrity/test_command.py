"""`grade similarity OUT_DIR [--to DIR]` from the command line: what it writes, where, and what it refuses."""
from __future__ import annotations

import json
import shutil

import yaml
from conftest import CLASS, EXAMPLE, make_output

from grader.cli import main

EXPECTED = yaml.safe_load((EXAMPLE / "expected.yaml").read_text(encoding="utf-8"))


def test_it_writes_the_pairs_most_similar_first_and_the_page(example_out, capsys):
    assert main(["similarity", str(example_out)]) == 0
    pairs = json.loads((example_out / "similarity.json").read_text(encoding="utf-8"))
    assert isinstance(pairs, list) and pairs[0].keys() >= {"a", "b", "score"}
    assert [p["score"] for p in pairs] == sorted((p["score"] for p in pairs), reverse=True)
    assert {frozenset((p["a"], p["b"])) for p in pairs[:4]} == {frozenset(p) for p in EXPECTED["copied"]}
    assert all((example_out / p["page"]).is_file() for p in pairs if p["flagged"])
    page = (example_out / "similarity.html").read_text(encoding="utf-8")
    assert "Staff only" in page and "mo, noa, oli" in page
    everything = json.loads((example_out / "_similarity" / "integrity.json").read_text(encoding="utf-8"))
    assert everything["too_short"] == ["pat", "quinn"] and len(everything["compared"]) == 15
    out = capsys.readouterr().out
    assert "compared 15 of 17 submissions" in out and "4 code pair(s)" in out


def test_to_puts_the_report_elsewhere_and_leaves_the_output_alone(example_out, tmp_path):
    before = sorted(p.relative_to(example_out) for p in example_out.rglob("*"))
    assert main(["similarity", str(example_out), "--to", str(tmp_path / "staff")]) == 0
    assert (tmp_path / "staff" / "similarity.json").is_file() and (tmp_path / "staff" / "similarity.html").is_file()
    assert sorted(p.relative_to(example_out) for p in example_out.rglob("*")) == before


def test_an_output_without_the_batch_record_needs_the_flags(tmp_path, bundle, capsys):
    out = make_output(tmp_path / "merged", CLASS, bundle, record=False)
    assert main(["similarity", str(out)]) == 2
    assert "give --submissions DIR" in capsys.readouterr().err
    assert not (out / "similarity.json").exists()
    assert main(["similarity", str(out), "--submissions", str(CLASS), "--autograder", str(bundle)]) == 0
    assert (out / "similarity.json").is_file()


def test_a_missing_output_folder_is_a_usage_error(tmp_path, capsys):
    assert main(["similarity", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_submissions_moved_away_are_named(tmp_path, bundle, capsys):
    subs = tmp_path / "subs"
    shutil.copytree(CLASS, subs)
    out = make_output(tmp_path / "out", subs, bundle)
    shutil.rmtree(subs)
    assert main(["similarity", str(out)]) == 2
    assert "must still be where 'grade batch' found them" in capsys.readouterr().err


def test_a_folder_in_the_way_of_the_report_is_refused(example_out, capsys):
    (example_out / "similarity.html").mkdir()
    assert main(["similarity", str(example_out)]) == 2
    assert "is a folder or a link" in capsys.readouterr().err


def test_invalid_submissions_and_unreadable_reports_are_left_out_with_a_note(tmp_path, bundle):
    subs = tmp_path / "subs"
    shutil.copytree(CLASS, subs, ignore=lambda d, names: [n for n in names if n not in ("kai", "lea", "mo")]
                    if d == str(CLASS) else [])
    out = make_output(tmp_path / "out", subs, bundle)
    (out / "mo" / "report.json").write_text("{broken", encoding="utf-8")
    assert main(["similarity", str(out)]) == 0
    notes = json.loads((out / "_similarity" / "integrity.json").read_text(encoding="utf-8"))["notes"]
    assert any(n.startswith("mo: report not readable") for n in notes)
    pairs = json.loads((out / "similarity.json").read_text(encoding="utf-8"))
    assert [(p["a"], p["b"], p["flagged"]) for p in pairs] == [("kai", "lea", True)]
