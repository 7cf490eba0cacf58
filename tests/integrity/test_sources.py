"""What of a submission is compared: its own code (magics and the template's lines away) and its answers."""
from __future__ import annotations

import json
import zipfile

from conftest import ASSIGNMENT, REPO

from grader.config import load_assignment
from grader.integrity.sources import (
    MAX_CHARS,
    Sources,
    answer_text,
    line_keys,
    notebook_parts,
    read_submission,
    read_template,
    without_magics,
    without_template,
)

CONFIG = load_assignment(REPO / "solutions" / ASSIGNMENT)


def test_magics_shell_escapes_and_help_lines_are_not_python():
    cell = "%matplotlib inline\n!pip install x\n%%time\ntorch.ones?\ny = f(x)  # keep\n  %time z = 1"
    assert without_magics(cell) == "y = f(x)  # keep"


def test_an_answer_is_the_words_after_the_prompt_without_the_placeholder():
    assert answer_text("**Answer:**\n\n_Type your answer here._") == ""
    assert answer_text("**Answer:**\n\nBecause it factors.") == "Because it factors."
    assert answer_text("**Answer:**") == ""


def test_a_notebook_splits_into_code_cells_answers_and_prose():
    nb = {"cells": [{"cell_type": "code", "source": ["%pylab\n", "x = 1\n"]},
                    {"cell_type": "markdown", "metadata": {"tags": ["answer:why"]}, "source": "**Answer:**\n\nit is"},
                    {"cell_type": "markdown", "source": "## a question"}]}
    code, answers, prose = notebook_parts(nb)
    assert code == [("cell 1", "x = 1")] and answers == [("why", "it is")] and prose == "## a question"


def test_template_lines_go_whatever_their_spacing_or_comments():
    template = Sources("", "# ---- m.py\ndef f(x):\n    y = x + 1  # the given line\n    return y\n", ())
    student = Sources("s", "# ---- m.py\ndef f(x):\n  y=x+1\n  z = y * 2\n    return y   # mine\n"
                           "# ---- nb, cell 3\nreturn y\n", ())
    assert without_template(student, template).code == "# ---- m.py\n  z = y * 2\n"
    assert line_keys("   ") == set() and line_keys("s = '#'  # c") >= {"s='#'#c"}


def test_the_template_reads_as_every_student_got_it():
    template, prose = read_template(REPO / "student_template" / ASSIGNMENT, CONFIG)
    assert [a for a, _ in template.answers] == ["ex1_why", "ex2_gamma0", "ex3_selectivity"]
    assert all(text == "" for _, text in template.answers)
    assert "# ---- linear_attention.py" in template.code and "Question (Exercise 1)" in prose


def test_a_hostile_zip_is_left_out_with_the_reason_and_nothing_escapes(tmp_path):
    bad = tmp_path / "evil.zip"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("../../escaped.py", "x = 1\n")
    found = read_submission(bad, "evil", CONFIG, tmp_path / "scratch")
    assert found.code == "" and found.notes and "not compared" in found.notes[0]
    assert not (tmp_path.parent / "escaped.py").exists()


def test_a_notebook_that_is_not_json_costs_only_the_notebook(tmp_path):
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "linear_attention.py").write_text("def mine():\n    return 42\n")
    (tmp_path / "s" / "linear_attention.ipynb").write_text("{not json")
    found = read_submission(tmp_path / "s", "s", CONFIG, tmp_path / "scratch")
    assert "return 42" in found.code and any("notebook not compared" in n for n in found.notes)


def test_a_huge_module_is_cut_and_says_so(tmp_path):
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "linear_attention.py").write_text("x = 1\n" * (MAX_CHARS // 4))
    (tmp_path / "s" / "linear_attention.ipynb").write_text(json.dumps({"cells": []}))
    found = read_submission(tmp_path / "s", "s", CONFIG, tmp_path / "scratch")
    assert len(found.code) == MAX_CHARS and any("first 200,000 characters" in n for n in found.notes)
