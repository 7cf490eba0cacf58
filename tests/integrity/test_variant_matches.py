"""Answers right for someone else's numbers (grader/integrity/variant_matches.py): the defaults, a classmate's."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.config import load_assignment
from grader.grading.answers.formulas import variant_key
from grader.grading.pipeline import answer_key
from grader.integrity.classlist import Member
from grader.integrity.variant_matches import DEFAULT, variant_matches, without_id
from grader.results import Report
from grader.variants import parameters_for

REPO = Path(__file__).resolve().parents[2]
HYBRID = REPO / "assignments" / "linear-attention-hybrid"
BASICS = REPO / "assignments" / "linear-attention-basics"


@pytest.fixture(scope="module")
def config():
    return load_assignment(HYBRID)


@pytest.fixture(scope="module")
def key(config):
    return answer_key(HYBRID, config)


def bytes_for(key, config, student: str, answer: str) -> str:
    """The right answer for ``student``'s numbers, as a student writes it."""
    return f"{variant_key(key, parameters_for(config.variants, config.name, student))[answer].value:.0f} B"


def member(folder: str, student: str, wrong: dict[str, str] | None = None) -> Member:
    variant = {"student": student, "source": "lrkit-assignment.json", "parameters": {}, "wrong": wrong or {},
               "default_matches": []}
    return Member(folder, Path(folder), Report("linear-attention-hybrid", folder, "graded", 0, 1, (), True,
                                               variant=variant))


def test_an_answer_right_for_a_classmates_numbers_is_listed_with_the_classmate(config, key):
    """Is bob's answer, worked out with ada's numbers, listed as matching ada's variant?"""
    mha = "mha_cache_one_layer"
    members = [member("ada_sub", "ada"),
               member("bob_sub", "bob", {mha: bytes_for(key, config, "ada", mha),
                                         "linear_state_one_layer": "12 B"}),
               member("cy_sub", "cy", {mha: "16.384 GB"})]
    found = variant_matches(members, key, config)
    assert [(v.submission, v.answers, v.of) for v in found] == [("bob_sub", (mha,), ("ada_sub",)),
                                                                  ("cy_sub", (mha,), ())]
    assert found[0].matches == "the variant of ada_sub (ada)" and found[1].matches == DEFAULT


def test_the_numbers_come_from_the_id_not_from_what_the_report_claims(config, key):
    """A report claiming ada's parameters for bob changes nothing: the rule works bob's out from his id."""
    mha = "mha_cache_one_layer"
    forged = member("bob_sub", "bob", {mha: bytes_for(key, config, "ada", mha)})
    forged.report.variant["parameters"] = parameters_for(config.variants, config.name, "ada")
    (found,) = variant_matches([member("ada_sub", "ada"), forged], key, config)
    assert (found.submission, found.of) == ("bob_sub", ("ada_sub",))


def test_submissions_without_a_student_id_are_listed(config):
    assert without_id([member("ada_sub", "ada"), member("anon", "")], config) == ("anon",)


def test_an_assignment_without_variants_lists_nothing():
    basics = load_assignment(BASICS)
    assert variant_matches([member("a", "ada", {"x": "1"})], {}, basics) == () == without_id([], basics)
