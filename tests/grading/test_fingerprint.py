"""Do two students who share a wrong formula get one fingerprint, whatever their float noise, and two different
mistakes two? (grader/grading/fingerprint.py; used by `grade similarity`, never by a grade.)"""
from __future__ import annotations

import numpy as np
import pytest

from grader.grading.checks import Case, CheckSpec, judge_case
from grader.grading.fingerprint import check_fingerprints, output_digest
from grader.results import CaseOutcome, Report

RNG = np.random.default_rng(0)
Q, K, V = (RNG.standard_normal((2, 9, 4)).astype(np.float32) for _ in range(3))


def no_mask_matmul(q, k, v):
    a = np.exp(q) @ np.exp(k).swapaxes(-1, -2)
    return (a @ v) / a.sum(-1, keepdims=True)


def no_mask_einsum(q, k, v):
    a = np.einsum("bim,bjm->bij", np.exp(q).astype(np.float64), np.exp(k).astype(np.float64))
    return (np.einsum("bij,bjd->bid", a, v) / np.einsum("bij->bi", a)[..., None]).astype(np.float32)


def masked(q, k, v):
    a = np.tril(np.exp(q) @ np.exp(k).swapaxes(-1, -2))
    return (a @ v) / a.sum(-1, keepdims=True)


def test_one_wrong_formula_written_two_ways_has_one_digest():
    one, two = no_mask_matmul(Q, K, V), no_mask_einsum(Q, K, V)
    assert not np.array_equal(one, two) and np.allclose(one, two, rtol=1e-5)
    assert output_digest({"y": one}, ["y"]) == output_digest({"y": two}, ["y"])


@pytest.mark.parametrize("other", [masked(Q, K, V), 2 * no_mask_matmul(Q, K, V), no_mask_matmul(Q, K, V)[:, :8],
                                   no_mask_matmul(Q, K, V).astype(np.float64).round(1)])
def test_another_mistake_has_another_digest(other):
    assert output_digest({"y": no_mask_matmul(Q, K, V)}, ["y"]) != output_digest({"y": other}, ["y"])


def test_noise_around_zero_does_not_split_a_group():
    base = RNG.standard_normal(50)
    base -= base.mean()  # a mean of ~0, where relative rounding alone would flip on noise
    noisy = base + RNG.standard_normal(50) * 1e-9
    assert output_digest({"y": base}) == output_digest({"y": noisy})


def test_non_finite_entries_scalars_and_strings_are_told_apart():
    nan = np.array([1.0, np.nan, 2.0])
    assert output_digest({"y": nan}) != output_digest({"y": np.array([1.0, 0.0, 2.0])})
    assert output_digest({"n": 3}) != output_digest({"n": 4}) and output_digest({"s": "a"}) != output_digest({"s": "b"})
    assert output_digest({"y": np.zeros(3)}, ["y", "z"]) != output_digest({"y": np.zeros(3)}, ["y"])


SPEC = CheckSpec("causal", "linear_runs", "Linear attention is causal", lambda: iter(()))


def test_a_wrong_result_carries_its_digest_and_nothing_else_does():
    case = Case("L=9", {"Q": Q}, expect={"y": masked(Q, K, V).astype(np.float64)}, atol=1e-5, rtol=1e-4)
    wrong = judge_case(SPEC, case, {"y": no_mask_matmul(Q, K, V)})
    right = judge_case(SPEC, case, {"y": masked(Q, K, V)})
    raised = judge_case(SPEC, case, None, "raised ValueError: no")
    assert not wrong.passed and wrong.digest == output_digest({"y": no_mask_einsum(Q, K, V)}, ["y"])
    assert right.passed and right.digest == "" and raised.digest == ""


def test_a_check_is_fingerprinted_only_where_a_case_gave_a_wrong_result():
    cases = [CaseOutcome("a", "1", True), CaseOutcome("a", "2", False, digest="d1"),
             CaseOutcome("b", "1", False, raised=True), CaseOutcome("c", "1", True)]
    found = check_fingerprints(cases)
    assert set(found) == {"a"}
    same = check_fingerprints([CaseOutcome("a", "1", True), CaseOutcome("a", "2", False, digest="d1")])
    other = check_fingerprints([CaseOutcome("a", "1", False), CaseOutcome("a", "2", False, digest="d1")])
    assert found == same and other != found


def test_reports_keep_their_fingerprints_and_older_ones_read_without():
    report = Report("a", "s", "graded", 1.0, 2.0, (), True, fingerprints={"causal": "0123456789abcdef"})
    assert Report.from_dict(report.to_dict()) == report
    older = report.to_dict()
    del older["fingerprints"]
    assert Report.from_dict(older).fingerprints == {}
