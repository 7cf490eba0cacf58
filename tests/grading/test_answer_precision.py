"""Significant-figure answers (PrairieLearn's sigfig mode): the key rounded to the precision the
student states, with a floor the assignment sets; distractors named only when the answer matches them."""
from __future__ import annotations

import textwrap

import pytest

from grader.grading.answers import Distractor, NumberEntry, QuantityEntry, check_answer, load_key
from grader.grading.answers.precision import matches_at_figures, round_figures, stated_figures

# The (S, z) state of one layer: 1,056,768 B = 1.057 MB = 1.008 MiB; S alone is 1,048,576 B = 1 MiB.
STATE = QuantityEntry("linear_state_one_layer", 1_056_768, rtol=0.005, sigfigs=2,
                      distractors=(Distractor(1_048_576, "That is S alone."),))
GQA = QuantityEntry("gqa8_cache_one_layer", 4_096_000_000, sigfigs=2,
                    distractors=(Distractor(512_000_000, "That is one KV head's cache."),))


@pytest.mark.parametrize("text, figures", [
    ("1.1", (2, 2)), ("0.0477", (3, 3)), ("1.50", (3, 3)), ("16000", (2, 5)), ("1,056,768", (7, 7)),
    ("1.057e6", (4, 4)), ("0", (1, 1)), ("0.0", (1, 1)), ("~16.4", (3, 3)), ("-2.50", (3, 3)), ("16_384", (5, 5)),
    ("1.6 × 10^10", (2, 2)), ("100.", (3, 3)),
])
def test_stated_figures(text, figures):
    assert stated_figures(text) == figures


@pytest.mark.parametrize("text", ["3/2", "lots", ""])
def test_no_figures_for_fractions_and_words(text):
    assert stated_figures(text) is None


def test_rounding_is_decimal_not_binary():
    assert round_figures(1.056768, 2) == 1.1
    assert round_figures(0.125, 2) == 0.13  # half up, as people round
    assert matches_at_figures(0.12, 0.125, (2, 2), 2)  # half even is accepted too
    assert not matches_at_figures(1.0, 1.056768, (2, 2), 2)


@pytest.mark.parametrize("answer", [
    "1.1 MB",          # the course's own rounding of 1.057 MB
    "1.0 MiB",         # 1.008 MiB to two figures: right, although S alone is also 1.0 MiB
    "1.06 MB", "1.057 MB", "1.01 MiB", "1,056,768 B", "1057 kB", "0.0011 GB",
])
def test_the_key_rounded_to_the_stated_precision_is_correct(answer):
    assert check_answer(STATE, answer).status == "correct"


@pytest.mark.parametrize("answer", ["1 MB", "1 MiB", "0.001 GB"])
def test_below_the_floor_the_answer_asks_for_more_figures(answer):
    outcome = check_answer(STATE, answer)
    assert outcome.status == "wrong" and "at least 2" in outcome.message and "S alone" not in outcome.message


@pytest.mark.parametrize("answer", ["1.0 MB", "1.05 MB", "1.00 MiB", "1,048,576 B"])
def test_a_distractor_is_named_when_the_answer_matches_it_at_its_precision(answer):
    outcome = check_answer(STATE, answer)
    assert outcome.status == "wrong" and outcome.message == "That is S alone."


@pytest.mark.parametrize("answer", ["2.048 GB", "1.1 GB", "0.52 GB"])
def test_no_distractor_is_named_for_an_answer_that_does_not_match_it(answer):
    """GQA-8 as 2.048 GB is not one KV head (0.512 GB): no diagnosis, no direction, no value."""
    outcome = check_answer(GQA, answer)
    assert outcome.status == "wrong"
    assert "KV head" not in outcome.message and "K and V" not in outcome.message
    assert "too" not in outcome.message and "4.096" not in outcome.message


def test_the_distractor_at_its_own_precision():
    assert check_answer(GQA, "0.51 GB").message == "That is one KV head's cache."
    assert check_answer(GQA, "4.1 GB").status == "correct"


def test_unit_slips_are_matched_at_the_stated_precision():
    assert "GB vs GiB" in check_answer(GQA, "4.1 GiB").message
    assert "bits vs bytes" in check_answer(GQA, "33 GB").message


def test_numbers_use_figures_too():
    entry = NumberEntry("speedup", 781.25, rtol=0.001, sigfigs=2)
    assert check_answer(entry, "780").status == "correct"
    assert check_answer(entry, "7.8e2").status == "correct"
    assert check_answer(entry, "781").status == "correct"
    assert check_answer(entry, "790").status == "wrong"
    assert "at least 2" in check_answer(entry, "8e2").message


def test_the_assignment_sets_the_floor_and_an_entry_may_override_it(tmp_path):
    path = tmp_path / "answer_key.yaml"
    path.write_text(textwrap.dedent("""\
        state:
          type: quantity
          value: 1056768
          rtol: 0.005
        exact:
          type: quantity
          value: 1056768
          rtol: 0.005
          sigfigs: 4
          hints: true
        """), encoding="utf-8")
    key = load_key(path, sigfigs=2)
    assert key["state"].sigfigs == 2 and not key["state"].hints
    assert key["exact"].sigfigs == 4 and key["exact"].hints
    assert check_answer(key["state"], "1.1 MB").status == "correct"
    assert "at least 4" in check_answer(key["exact"], "1.1 MB").message
    assert load_key(path)["state"].sigfigs == 0  # off unless the assignment sets it


@pytest.mark.parametrize("bad", ["-1", "2.5", "true", "16"])
def test_sigfigs_must_be_a_small_whole_number(tmp_path, bad):
    path = tmp_path / "answer_key.yaml"
    path.write_text(f"a:\n  type: number\n  value: 1\n  sigfigs: {bad}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="sigfigs"):
        load_key(path)
