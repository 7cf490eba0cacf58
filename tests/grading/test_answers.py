"""Answers cell parsing, answer key loading and the confusion messages, on the real memory bill."""
from __future__ import annotations

import dataclasses
import re
import textwrap

import pytest

from grader.grading.answers import (
    AnswerFormatError,
    AnswerKeyError,
    ChoiceEntry,
    Distractor,
    NumberEntry,
    QuantityEntry,
    QuantityError,
    TextEntry,
    VectorEntry,
    check_answer,
    check_answers,
    extract_answer_block,
    load_key,
    parse_answers,
    parse_quantity,
)

# The memory bill (T = 1e6, D = 4096, H = 32, fp16), in bytes.
MHA = QuantityEntry("mha_cache_one_layer", 16_384_000_000, per_head=32)
GQA = QuantityEntry("gqa_cache_one_layer", 4_096_000_000)
WINDOW = QuantityEntry("window_cache_one_layer", 67_108_864)
# S alone (1 MiB) is 0.78% below the (S, z) state, so this entry needs rtol below 1%.
STATE = QuantityEntry("linear_state_one_layer", 1_056_768, rtol=0.005,
                      distractors=(Distractor(1_048_576, "That is S alone; z needs H · d_h numbers too."),))
YOUR_TURN = VectorEntry("your_turn", (1.5, 2.5), distractors=(
    Distractor((2.0, 3.3333), "(2, 3.33) divides by the old z: add the new key to z before reading."),
    Distractor((0.5, 3.5), "(0.5, 3.5) adds v kᵀ instead of k vᵀ."),
    Distractor((6.0, 10.0), "(6, 10) skips the divide by q·z."),
))


def no_value_in(message: str, *values: str) -> bool:
    return not any(v in message for v in values)


# ---------------------------------------------------------------- parse_quantity


@pytest.mark.parametrize("text, expected", [
    ("16.4 GB", 16.4e9),
    ("16,384,000,000 B", 16_384_000_000),
    ("1.057e6 bytes", 1.057e6),
    ("15.26 GiB", 15.26 * 2**30),
    ("64 MiB", 64 * 2**20),
    ("1.1 MB", 1.1e6),
    ("0.98 MiB", 0.98 * 2**20),
    ("16.384gb", 16.384e9),
    ("16.384 GIB", 16.384 * 2**30),
    ("1056 kB", 1_056_000),
    ("1056 KB", 1_056_000),
    ("1056 kb", 1_056_000),
    ("1032 KiB", 1032 * 1024),
    ("131.072 Gbit", 16.384e9),
    ("131.072 Gb", 16.384e9),
    ("8 bits", 1),
    ("1.057 x 10^6 B", 1.057e6),
    ("2 gigabytes", 2e9),
    ("~16.4 GB.", 16.4e9),
])
def test_parse_quantity_accepted_forms(text, expected):
    assert parse_quantity(text) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("text", ["16384000000", "16,4 GB", "lots", "3 parsecs", "GB", ""])
def test_parse_quantity_unreadable_shows_accepted_forms(text):
    """Does an unreadable quantity (a bare number included) say which forms are accepted?"""
    with pytest.raises(QuantityError, match="GiB") as err:
        parse_quantity(text)
    assert "GiB" in str(err.value) and "2.5 GB" in str(err.value)


def test_bare_number_asks_for_a_unit():
    with pytest.raises(QuantityError, match="no unit"):
        parse_quantity("16384000000")


# ---------------------------------------------------------------- quantities: the confusions


@pytest.mark.parametrize("entry, answer", [
    (MHA, "16.384 GB"), (MHA, "15.259 GiB"), (MHA, "16,384,000,000 B"), (MHA, "16.4 GB"),
    (GQA, "4.096 GB"), (GQA, "3.815 GiB"),
    (WINDOW, "64 MiB"), (WINDOW, "67,108,864 bytes"), (WINDOW, "0.0671 GB"),
    (STATE, "1,056,768 B"), (STATE, "1.057 MB"), (STATE, "1.057e6 bytes"), (STATE, "1.008 MiB"),
    (STATE, "0.000984 GiB"),
])
def test_right_quantities_are_correct(entry, answer):
    assert check_answer(entry, answer).status == "correct"


@pytest.mark.parametrize("entry, answer, words", [
    # the right number with the other unit family
    (MHA, "16.384 GiB", "GB vs GiB"),
    (MHA, "15.259 GB", "GB vs GiB"),
    (GQA, "4.096 GiB", "GB vs GiB"),
    (WINDOW, "64 MB", "MB vs MiB"),
    (STATE, "1.057 MiB", "MB vs MiB"),
    (STATE, "1032 kB", "kB vs KiB"),
    # bits instead of bytes: eight times too large, or written in bits
    (MHA, "131.072 GB", "bits vs bytes"),
    (MHA, "16.384 Gb", "bits vs bytes"),
    (WINDOW, "536,870,912 B", "bits vs bytes"),
    # one head's share (D / H = 128)
    (MHA, "512 MB", "one head's share"),
])
def test_quantity_confusions_are_named(entry, answer, words):
    outcome = check_answer(entry, answer)
    assert outcome.status == "wrong"
    assert words in outcome.message
    assert outcome.given == answer


def test_per_head_is_only_recognised_when_the_key_says_so():
    outcome = check_answer(GQA, "128 MB")  # 4.096 GB / 32, but GQA has no per_head
    assert outcome.status == "wrong" and "head" not in outcome.message


@pytest.mark.parametrize("entry, answer", [(MHA, "8.192 GB"), (GQA, "2.048 GB"), (WINDOW, "32 MiB")])
def test_a_factor_of_two_is_not_blamed_on_k_and_v_by_itself(entry, answer):
    """Half the cache has several causes (K only, fp8, half the heads): naming one is a guess that may
    be wrong, and it tells the student to double their number. Only a key's distractor names it."""
    outcome = check_answer(entry, answer)
    assert outcome.status == "wrong" and "K and V" not in outcome.message and "factor" in outcome.message


@pytest.mark.parametrize("entry, answer", [(MHA, "16 GB"), (MHA, "20 GB"), (STATE, "1.1 MB"), (GQA, "400 GB")])
def test_a_plain_miss_gives_no_direction_unless_the_key_opts_in(entry, answer):
    """Does a wrong answer say "too large"/"too small" only when the assignment allows hints?"""
    quiet = check_answer(entry, answer)
    assert quiet.status == "wrong" and "too large" not in quiet.message and "too small" not in quiet.message
    outcome = check_answer(dataclasses.replace(entry, hints=True), answer)
    assert outcome.status == "wrong"
    assert "too large" in outcome.message or "too small" in outcome.message
    assert no_value_in(outcome.message, "16.384", "16384", "15.259", "4.096", "1.057", "1,056,768", "1056768")


def test_without_significant_figures_1_1_mb_is_outside_the_tolerance():
    """'About 1.1 MB' is 4% off the (S, z) state's 1.057 MB: close, but not within 1%."""
    outcome = check_answer(dataclasses.replace(STATE, hints=True), "1.1 MB")
    assert outcome.status == "wrong" and "within 10% but outside the 0.5% tolerance" in outcome.message


def test_quantity_distractor_feedback():
    assert check_answer(STATE, "1 MiB").message.startswith("That is S alone")
    assert check_answer(STATE, "1,048,576 B").message.startswith("That is S alone")


def test_quantity_distractor_wins_over_builtin_confusions():
    entry = QuantityEntry("mha", 16_384_000_000, distractors=(Distractor(8_192_000_000, "Count K and V."),))
    assert check_answer(entry, "8.192 GB").message == "Count K and V."


def test_a_wrong_mixed_unit_answer_is_wrong():
    """0.98 MiB mixes the GiB column with MiB: 2.8% off the state."""
    assert check_answer(STATE, "0.98 MiB").status == "wrong"


def test_unreadable_quantity_is_unreadable_not_wrong():
    outcome = check_answer(MHA, "16384000000")
    assert outcome.status == "unreadable" and "unit" in outcome.message


@pytest.mark.parametrize("raw", [None, "", "   ", "...", "TODO"])
def test_blank_answers(raw):
    assert check_answer(MHA, raw).status == "blank"


# ---------------------------------------------------------------- vectors, numbers, choices, text


@pytest.mark.parametrize("answer", ["[1.5, 2.5]", "(1.5, 2.5)", "1.5, 2.5", "1.5 2.5", "[1.504, 2.499]", "(3/2, 5/2)"])
def test_worked_example_right(answer):
    assert check_answer(YOUR_TURN, answer).status == "correct"


@pytest.mark.parametrize("answer, words", [
    ("(2, 3.33)", "old z"),
    ("[2, 3.3333]", "old z"),
    ("(0.5, 3.5)", "v kᵀ"),
    ("(6, 10)", "skips the divide"),
])
def test_worked_example_distractors(answer, words):
    outcome = check_answer(YOUR_TURN, answer)
    assert outcome.status == "wrong" and words in outcome.message


def test_worked_example_other_wrong_vectors():
    assert check_answer(YOUR_TURN, "(1, 2)").message == "Not the expected vector."
    outcome = check_answer(YOUR_TURN, "(1.5, 2.5, 0)")
    assert outcome.status == "wrong" and "2 numbers" in outcome.message
    assert check_answer(YOUR_TURN, "(one, two)").status == "unreadable"


def test_number_with_tolerance_and_times_sign():
    entry = NumberEntry("attention_vs_state", 781.25, rtol=0.01)
    assert check_answer(entry, "780").status == "correct"
    assert check_answer(entry, "781.25×").status == "correct"
    assert check_answer(entry, "128").status == "wrong"
    assert check_answer(entry, "a lot").status == "unreadable"


@pytest.mark.parametrize("answer", ["≈ 781 ×", "~781x", "781 x", "781 times", "about 781", "roughly 781-fold",
                                    "≈781×.", "approx. 7.81 × 10^2", "~781x (times more operations)",
                                    "781 (softmax re-reads every cached key)"])
def test_numbers_are_read_as_people_write_them(answer):
    """Is "≈ 781 ×" read as 781, as "781" is (the tolerance still applies)?"""
    assert check_answer(NumberEntry("attention_vs_state", 781.25, rtol=0.01), answer).status == "correct"
    assert check_answer(NumberEntry("attention_vs_state", 600.0, rtol=0.01), answer).status == "wrong"


def test_an_unreadable_number_names_the_accepted_forms():
    outcome = check_answer(NumberEntry("attention_vs_state", 781.25, rtol=0.01), "lots and lots")
    assert outcome.status == "unreadable" and "≈ 42 ×" in outcome.message and "42 times" in outcome.message
    assert "781" not in outcome.message and "78" not in outcome.message  # the examples never hint at the key


@pytest.mark.parametrize("answer", ["b", "B", "(b)", "b)", " b. ", "b) only the full-attention caches",
                                    "(b) the caches", "B. the caches", "b: the caches"])
def test_choice_forms(answer):
    entry = ChoiceEntry("which_grows", "b", (Distractor("a", "The window does not grow with T."),))
    assert check_answer(entry, answer).status == "correct"


def test_choice_distractor_and_other():
    entry = ChoiceEntry("which_grows", "b", (Distractor("a", "The window does not grow with T."),))
    assert check_answer(entry, "a").message == "The window does not grow with T."
    assert check_answer(entry, "c").message == "Not the expected choice."
    outcome = check_answer(entry, "a or b")
    assert outcome.status == "unreadable" and "b" not in outcome.message.replace("a or b", "")


def test_text_is_unchecked_unless_blank():
    assert check_answer(TextEntry("ex1_why"), "Because S sums k vᵀ.").status == "unchecked"
    assert check_answer(TextEntry("ex1_why"), "").status == "blank"


def test_check_answers_marks_missing_ids():
    key = {"mha_cache_one_layer": MHA, "your_turn": YOUR_TURN}
    outcomes = check_answers(key, {"your_turn": "(1.5, 2.5)"}, ["mha_cache_one_layer", "your_turn"])
    assert [(o.id, o.status) for o in outcomes] == [("mha_cache_one_layer", "missing"), ("your_turn", "correct")]
    assert "mha_cache_one_layer:" in outcomes[0].message


def test_check_answers_rejects_an_id_the_key_lacks():
    with pytest.raises(AnswerKeyError, match="nope"):
        check_answers({}, {}, ["nope"])


# ---------------------------------------------------------------- the answers cell

CELL = textwrap.dedent("""\
    **Exercise 5 — your numbers** (bytes, with a unit)

    ```yaml
    mha_cache_one_layer: 16.384 GB   # 2 · T · D · 2
    gqa_cache_one_layer:
    your_turn: [1.5, 2.5]
    other: (2, 3.33)
    quoted: "1.1 MB"
    nothing: ~
    ```

    ```yaml
    second_block: 1 GB
    ```
    """)


def test_extract_first_yaml_block():
    block = extract_answer_block(CELL)
    assert block is not None and "mha_cache_one_layer" in block and "second_block" not in block


def test_extract_handles_yml_and_unclosed_and_absent():
    assert extract_answer_block("```yml\na: 1\n```") == "a: 1\n"
    assert extract_answer_block("```YAML\na: 1\nb: 2") == "a: 1\nb: 2\n"
    assert extract_answer_block("```python\na = 1\n```") is None
    assert extract_answer_block("no block here") is None


def test_parse_answers_keeps_raw_strings():
    answers = parse_answers(extract_answer_block(CELL), "linear_attention.ipynb cell 14")
    assert answers == {
        "mha_cache_one_layer": "16.384 GB",
        "gqa_cache_one_layer": "",
        "your_turn": "[1.5, 2.5]",
        "other": "(2, 3.33)",
        "quoted": "1.1 MB",
        "nothing": "",
    }


def test_parse_answers_keeps_number_text_as_written():
    assert parse_answers("a: 1e6\nb: 0.50\nc: yes\n", "x") == {"a": "1e6", "b": "0.50", "c": "yes"}


@pytest.mark.parametrize("block, line, words", [
    ("a: 16 GB\nb: 16 GB: 3\n", "line 2", "b: 16 GB: 3"),
    ("a: 16 GB\nb: [1.5, 2.5\nc: 1 GB\n", "line 2", "b: [1.5, 2.5"),
    ("a: 1 GB\n\tb: 2 GB\n", "line 2", "b: 2 GB"),
    ("a: 1 GB\na: 2 GB\n", "line 2", "answered twice"),
])
def test_malformed_answers_name_the_cell_and_line(block, line, words):
    """Does a YAML error name the notebook cell, the line, and say what to do?"""
    with pytest.raises(AnswerFormatError, match="^linear_attention.ipynb cell 14:") as err:
        parse_answers(block, "linear_attention.ipynb cell 14")
    message = str(err.value)
    assert message.startswith("linear_attention.ipynb cell 14:")
    assert line in message and words in message and "id: value" in message


def test_answers_block_that_is_not_a_mapping():
    with pytest.raises(AnswerFormatError, match="cell 3"):
        parse_answers("- 1\n- 2\n", "nb cell 3")
    assert parse_answers("", "nb cell 3") == {}


# ---------------------------------------------------------------- answer_key.yaml

KEY = textwrap.dedent("""\
    example_1_1:
      type: vector
      value: [0.5, 3]
    # BEGIN HIDDEN
    your_turn:
      type: vector
      value: [1.5, 2.5]
      atol: 0.01
      distractors:
        - value: [2, 3.3333]
          feedback: "(2, 3.33) divides by the old z: add the new key to z before reading."
    mha_cache_one_layer:
      type: quantity
      value: 16384000000
      rtol: 0.01
      per_head: 32
    # END HIDDEN
    which_grows:
      type: choice
      value: b
      distractors: {a: "The window is fixed.", c: "The state is fixed."}
    speedup:
      type: number
      value: 781.25
      rtol: 0.02
    ex1_why:
      type: text
    """)


def test_load_key_builds_typed_entries(tmp_path):
    path = tmp_path / "answer_key.yaml"
    path.write_text(KEY, encoding="utf-8")
    key = load_key(path)
    assert key["example_1_1"] == VectorEntry("example_1_1", (0.5, 3.0))
    assert key["mha_cache_one_layer"] == QuantityEntry("mha_cache_one_layer", 16_384_000_000.0, per_head=32)
    assert key["your_turn"].distractors[0].value == (2.0, 3.3333)
    assert key["which_grows"].distractors == (Distractor("a", "The window is fixed."),
                                              Distractor("c", "The state is fixed."))
    assert key["speedup"].rtol == 0.02
    assert key["ex1_why"] == TextEntry("ex1_why")


@pytest.mark.parametrize("text, words", [
    ("a:\n  type: quantity\n  value: 1\n  tolerance: 0.1\n", "unknown field(s) tolerance"),
    ("a:\n  type: matrix\n  value: 1\n", "unknown type 'matrix'"),
    ("a:\n  type: quantity\n", "missing 'value'"),
    ("a:\n  type: quantity\n  value: 16 GB\n", "could not convert"),
    ("a:\n  type: quantity\n  value: 1\n  per_head: 1\n", "per_head"),
    ("a:\n  type: vector\n  value: [1, 2]\n  distractors: [{value: [1, 1]}]\n", "distractors"),
    ("a:\n  type: choice\n  value: b\n  distractors: [a]\n", "distractors"),
    ("Bad-Id:\n  type: text\n", "a-z"),
    ("a:\n  type: quantity\n  value: 1056768\n  distractors: [{value: 1048576, feedback: S alone}]\n",
     "within the tolerance"),
    ("a:\n  type: vector\n  value: [1.5, 2.5]\n  distractors: [{value: [1.5, 2.505], feedback: x}]\n",
     "within the tolerance"),
])
def test_load_key_rejects_with_file_and_key(tmp_path, text, words):
    path = tmp_path / "answer_key.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AnswerKeyError, match=re.escape(words)) as err:
        load_key(path)
    assert str(path) in str(err.value) and words in str(err.value)
