"""The comparison messages a student reads: precise about what is wrong, silent about expected values."""
from __future__ import annotations

import numpy as np
import pytest

from grader.grading.checks import Case, CheckSpec, judge_case

SPEC = CheckSpec("eq", "probe", "outputs match", lambda: iter(()))
SECRET = np.array([[0.123456789, 2.5], [3.75, -4.125]])


def judge(got, **case_kw):
    return judge_case(SPEC, Case("L=2", {}, expect={"y": SECRET}, **case_kw), got)


def test_a_match_within_tolerance_passes():
    assert judge({"y": SECRET + 1e-10}).passed


def test_a_wrong_entry_names_count_index_and_size_but_not_the_expected_value():
    got = SECRET.copy()
    got[1, 0] = 99.0
    outcome = judge({"y": got})
    assert not outcome.passed
    assert "1 of 4 entries wrong" in outcome.message and "first at index (1, 0)" in outcome.message
    assert "largest error" in outcome.message
    for secret in ("3.75", "0.1234", "2.5", "-4.125"):
        assert secret not in outcome.message


def test_a_shape_mismatch_says_both_shapes():
    outcome = judge({"y": np.zeros((2, 3))})
    assert "shape (2, 3), expected (2, 2)" in outcome.message


def test_nan_is_reported_as_such():
    got = SECRET.copy()
    got[0, 1] = np.nan
    assert "NaN or inf, first at index (0, 1)" in judge({"y": got}).message


@pytest.mark.parametrize("bad, words", [("text", "should be numeric"),
                                        (np.array(["a", "b"]), "expected a real number type"),
                                        (np.zeros((2, 2), dtype=complex), "expected a real number type")])
def test_a_non_numeric_result_is_named(bad, words):
    assert words in judge({"y": bad}).message


def test_a_missing_key_is_named():
    assert "the result has no 'y'" in judge({"z": SECRET}).message


def test_a_matching_suspect_names_the_likely_mistake():
    outcome = judge({"y": SECRET * 2}, suspects={"you counted K and V twice": SECRET * 2})
    assert "this is exactly what you get when you counted K and V twice" in outcome.message


def test_no_result_gives_the_reason_and_the_hint():
    outcome = judge_case(SPEC, Case("L=2", {}, expect={"y": SECRET}, hint="read the state first"), None, "timed out")
    assert outcome.message == "outputs match [L=2]: timed out. Hint: read the state first"


def test_a_crashing_judge_is_a_failed_case_not_a_crash():
    def boom(got):
        raise ZeroDivisionError("x")

    outcome = judge_case(SPEC, Case("c", {}, judge=boom), {"y": 1.0})
    assert not outcome.passed and "could not be judged (ZeroDivisionError" in outcome.message
