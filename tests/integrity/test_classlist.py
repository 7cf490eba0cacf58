"""A batch output read back as a class: each report folder, its submission, its section; what is left out."""
from __future__ import annotations

import pytest
from conftest import CLASS, make_output

from grader.errors import UsageError
from grader.integrity.classlist import read_class


def test_each_folder_finds_its_submission_and_section(example_out):
    klass = read_class(example_out)
    assert len(klass.members) == 17 and klass.submissions == CLASS.resolve()
    by = {m.folder: m for m in klass.members}
    assert by["kai"].path == CLASS.resolve() / "kai" and by["kai"].section == "A" and by["noa"].section == "B"


def test_invalid_submissions_are_not_compared(tmp_path, bundle):
    out = make_output(tmp_path / "out", CLASS, bundle, status="invalid")
    klass = read_class(out)
    assert not klass.members and any(n.endswith("invalid; left out") for n in klass.notes)


def test_a_sections_file_without_its_columns_names_the_line(example_out):
    (example_out / "sections.csv").write_text("who,where\nkai,A\n", encoding="utf-8")
    with pytest.raises(UsageError, match=r"sections.csv:2: expected the columns submission,section"):
        read_class(example_out)


def test_an_output_without_reports_says_to_run_the_batch(tmp_path, bundle):
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match="no report folder"):
        read_class(tmp_path / "empty", CLASS, bundle)
