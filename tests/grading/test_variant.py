"""One submission's variant (grader/grading/variant.py): whose it is, which numbers, answers for the defaults."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.bundle import read_identity
from grader.config import load_assignment
from grader.grading.answers import check_answers
from grader.grading.answers.formulas import variant_key
from grader.grading.pipeline import answer_key
from grader.grading.variant import default_numbers, notebook_student_id, resolve
from grader.variants import parameters_for

REPO = Path(__file__).resolve().parents[2]
HYBRID = REPO / "assignments" / "linear-attention-hybrid"
BASICS = REPO / "assignments" / "linear-attention-basics"


def notebook(*sources: str, kind: str = "code") -> dict:
    return {"cells": [{"cell_type": kind, "source": s, "metadata": {}} for s in sources]}


@pytest.fixture(scope="module")
def config():
    return load_assignment(HYBRID)


@pytest.mark.parametrize("source, found", [
    ('STUDENT_ID = "ada123"  # your id', "ada123"),
    ("x = 1\nSTUDENT_ID = 'Ada 123'\n", "Ada 123"),
    ('STUDENT_ID: str = "ada"', "ada"),
    ('STUDENT_ID = ""', ""),
    ('# STUDENT_ID = "bob"', ""),
    ('STUDENT_ID = input()', ""),
    ('STUDENT_ID = "' + "a" * 500 + '"', ""),
])
def test_the_student_id_is_read_from_the_cell_never_run(source, found):
    assert notebook_student_id(notebook(source)) == found


def test_a_markdown_cell_is_not_the_student_id_cell():
    assert notebook_student_id(notebook('STUDENT_ID = "ada"', kind="markdown")) == ""


def test_an_assignment_without_variants_has_no_variant():
    assert resolve(load_assignment(BASICS), "ada", "lrkit-assignment.json", notebook()) is None


def test_the_declared_id_wins_over_the_notebook_and_the_difference_is_noted(config):
    """Is a submission graded with its declared id's numbers, and a different STUDENT_ID noted for staff?"""
    v = resolve(config, "Ada", "lrkit-assignment.json", notebook('STUDENT_ID = "bob"'))
    assert v.student == "ada" and v.parameters == parameters_for(config.variants, config.name, "ada")
    assert any("'bob'" in n and "'ada'" in n for n in v.notes)


def test_the_notebook_cell_answers_when_nothing_is_declared(config):
    v = resolve(config, "", "", notebook('STUDENT_ID = "bob"'))
    assert (v.student, v.source, v.notes) == ("bob", "the notebook's STUDENT_ID cell", ())


def test_no_id_at_all_grades_with_the_default_numbers_and_says_so(config):
    v = resolve(config, "", "", notebook('STUDENT_ID = ""'))
    assert v.parameters == config.variants.defaults and v.student == ""
    assert "no student id" in v.notes[0]


def test_an_answer_for_the_default_numbers_is_wrong_and_named_without_the_expected_value(config):
    """Does an answer worked out with the notebook's defaults fail, saying so, with no expected value shown?"""
    key = answer_key(HYBRID, config)
    ada = resolve(config, "ada", "lrkit-assignment.json", notebook())
    own = variant_key(key, ada.parameters)
    given = {"mha_cache_one_layer": "16.384 GB", "grows_with_t": "b",
             "linear_state_one_layer": f"{own['linear_state_one_layer'].value:.0f} B"}
    judged = {o.id: o for o in check_answers(own, given, given)}
    outcomes, record = default_numbers(judged, own, key, ada)
    mha = outcomes["mha_cache_one_layer"]
    assert mha.status == "wrong" and "default numbers" in mha.message
    assert f"{own['mha_cache_one_layer'].value:,.0f}" not in mha.message
    assert f"{own['mha_cache_one_layer'].value:.0f}" not in mha.message
    assert outcomes["linear_state_one_layer"].status == "correct"
    assert record["wrong"] == {"mha_cache_one_layer": "16.384 GB"} and record["default_matches"] == [
        "mha_cache_one_layer"]
    assert record["parameters"] == ada.parameters and record["student"] == "ada"


@pytest.mark.parametrize("student, read", [("ada", "ada"), (" ada ", "ada"), ("a" * 101, ""), ("ada\x1b[2J", ""),
                                           (42, ""), (["ada"], ""), (None, "")])
def test_the_identity_files_student_is_read_as_hostile_text(student, read):
    """Is only a short, printable student id taken from lrkit-assignment.json (or the notebook's metadata)?"""
    data = json.dumps({"assignment": "linear-attention-hybrid", "release": "", "student": student})
    assert read_identity(data).student == read
