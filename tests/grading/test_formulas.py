"""The answer key's formulas (grader/grading/answers/formulas.py): one function gives the expected values for
the default numbers (today's key, to the byte) and for every student's."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.config import load_assignment, load_variants
from grader.grading.answers import AnswerKeyError, Distractor, NumberEntry, check_answer, load_key
from grader.grading.answers.formulas import for_parameters, variant_key
from grader.grading.pipeline import answer_key
from grader.variants import parameters_for

REPO = Path(__file__).resolve().parents[2]
HYBRID = REPO / "assignments" / "linear-attention-hybrid"
BASICS = REPO / "assignments" / "linear-attention-basics"
# the hybrid key's values before it had formulas (T = 1,000,000, D = 4096, H = 32, fp16)
TODAY = {"mha_cache_one_layer": 16_384_000_000, "gqa8_cache_one_layer": 4_096_000_000,
         "window4096_cache_one_layer": 67_108_864, "linear_state_one_layer": 1_056_768,
         "all_mha_stack_4_layers": 65_536_000_000, "hybrid_lllf_stack_4_layers": 16_387_170_304}
TODAY_DISTRACTORS = {"mha_cache_one_layer": [32_768_000_000], "gqa8_cache_one_layer": [512_000_000],
                     "window4096_cache_one_layer": [16_384_000_000],
                     "linear_state_one_layer": [33_554_432, 1_048_576, 33_562_624],
                     "all_mha_stack_4_layers": [16_384_000_000], "hybrid_lllf_stack_4_layers": [4_099_170_304]}


@pytest.fixture(scope="module")
def config():
    return load_assignment(HYBRID)


@pytest.fixture(scope="module")
def key(config):
    return answer_key(HYBRID, config)


def test_the_default_numbers_reproduce_todays_key_exactly(key):
    """Is the key at the default numbers the key as it was, values, distractors and per-head counts?"""
    assert {k: e.value for k, e in key.items() if k in TODAY} == TODAY
    assert {k: [d.value for d in key[k].distractors] for k in TODAY} == TODAY_DISTRACTORS
    assert key["mha_cache_one_layer"].per_head == 32 and key["gqa8_cache_one_layer"].per_head == 8


def test_an_assignment_without_variants_loads_as_before():
    """Does the basics key (no variants, no formulas) load the same with and without the variants argument?"""
    config = load_assignment(BASICS)
    assert not config.variants
    assert answer_key(BASICS, config) == load_key(BASICS / "answer_key.yaml", sigfigs=config.answers.sigfigs,
                                                  hints=config.answers.hints)


def test_a_students_numbers_give_the_keys_formulas_for_them(config, key):
    """Does a student's key hold the formulas evaluated at their numbers (by hand: MHA = 2·T·D·BYTES)?"""
    p = parameters_for(config.variants, config.name, "bob")
    assert p != config.variants.defaults
    bob = variant_key(key, p)
    d_h = p["D"] // p["H"]
    assert bob["mha_cache_one_layer"].value == 2 * p["T"] * p["D"] * p["BYTES"]
    assert bob["gqa8_cache_one_layer"].value == 2 * p["T"] * 8 * d_h * p["BYTES"]
    assert bob["linear_state_one_layer"].value == (p["H"] * d_h * d_h + p["H"] * d_h) * p["BYTES"]
    assert bob["mha_cache_one_layer"].per_head == p["H"]
    assert bob["grows_with_t"] == key["grows_with_t"]  # no formula: the same for everyone


def test_an_answer_right_for_a_classmates_numbers_is_wrong_for_yours(config, key):
    ada = variant_key(key, parameters_for(config.variants, config.name, "ada"))
    bob = variant_key(key, parameters_for(config.variants, config.name, "bob"))
    bobs_answer = f"{bob['mha_cache_one_layer'].value:.0f} B"
    assert check_answer(bob["mha_cache_one_layer"], bobs_answer).status == "correct"
    judged = check_answer(ada["mha_cache_one_layer"], bobs_answer)
    assert judged.status == "wrong" and f"{ada['mha_cache_one_layer'].value:.0f}" not in judged.message


def write_key(tmp_path: Path, text: str) -> Path:
    (tmp_path / "answer_key.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "answer_key.yaml"


VARIANTS = load_variants({"T": {"default": 10, "choices": [10, 20]}, "B": {"default": 2, "choices": [1, 2]}},
                         Path("assignment.yaml"))


def test_a_formula_without_variants_is_refused(tmp_path):
    path = write_key(tmp_path, "bill: {type: quantity, formula: 2 * T}\n")
    with pytest.raises(AnswerKeyError, match="a formula needs the assignment's variant parameters") as info:
        load_key(path)
    assert info.value.key == ("bill", "formula")


def test_a_value_that_the_formula_does_not_give_is_refused(tmp_path):
    """Is a key whose written default disagrees with its formula an error naming the entry's value?"""
    path = write_key(tmp_path, "bill: {type: quantity, formula: 2 * T * B, value: 41}\n")
    with pytest.raises(AnswerKeyError, match=re.escape("bill: value 41 is not what its formula gives")) as info:
        load_key(path, variants=VARIANTS)
    assert info.value.key == ("bill", "value")


def test_a_formula_naming_an_unknown_parameter_is_refused(tmp_path):
    path = write_key(tmp_path, "bill: {type: quantity, formula: 2 * T * D}\n")
    with pytest.raises(AnswerKeyError, match="names 'D', which is not a parameter"):
        load_key(path, variants=VARIANTS)


def test_a_distractor_that_one_students_numbers_make_right_is_refused(tmp_path):
    """Is every student's key checked, not only the default's (T = 20, B = 1 puts the distractor within 1%)?"""
    path = write_key(tmp_path, "bill:\n  type: number\n  formula: T * B\n  distractors:\n"
                               "    - {formula: 20 * B + 0.1, feedback: twice}\n")
    with pytest.raises(AnswerKeyError, match=re.escape("bill (with T = 20, B = 1): distractor")):
        load_key(path, variants=VARIANTS)


def test_a_distractor_equal_to_a_students_value_names_no_mistake_for_them():
    entry = NumberEntry("bill", 0.0, distractors=(Distractor(0.0, "fp32", formula="4 * T"),), formula="2 * T * B")
    assert [d.value for d in for_parameters(entry, {"T": 10, "B": 1}).distractors] == [40.0]
    assert for_parameters(entry, {"T": 10, "B": 2}).distractors == ()
