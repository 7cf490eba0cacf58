"""The per-student rule (grader/variants.py): which numbers a student id gives, and the key's formulas."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.config import load_variants
from grader.variants import FormulaError, describe, evaluate, parameters_for, show_parameters, student_key

REPO = Path(__file__).resolve().parents[1]
HYBRID = REPO / "assignments" / "linear-attention-hybrid"
VARIANTS = load_variants({"T": {"default": 1000, "choices": [500, 1000, 2000, 4000]},
                          "D": {"default": 64, "range": [32, 256, 32]}}, Path("assignment.yaml"))
IDS = [f"s{n:07d}" for n in range(200)]


def test_no_student_id_gives_the_defaults():
    """Does a notebook without STUDENT_ID (or an assignment without variants) keep today's numbers?"""
    assert parameters_for(VARIANTS, "demo", "") == parameters_for(VARIANTS, "demo", "   ") == {"T": 1000, "D": 64}


def test_the_same_id_gives_the_same_numbers_however_it_is_spelled():
    """Is the rule deterministic, and blind to case and surrounding spaces?"""
    first = parameters_for(VARIANTS, "demo", "Ada.Lovelace")
    assert first == parameters_for(VARIANTS, "demo", "  ada.lovelace ")
    assert first == parameters_for(VARIANTS, "demo", "ADA.LOVELACE")
    assert student_key(" Ada ") == "ada"


def test_two_ids_give_different_numbers_and_every_value_is_used():
    """Do classmates get different numbers, all of them among the declared values?"""
    assert parameters_for(VARIANTS, "demo", "s0000001") != parameters_for(VARIANTS, "demo", "s0000002")
    seen = [parameters_for(VARIANTS, "demo", i) for i in IDS]
    assert {p["T"] for p in seen} == {500, 1000, 2000, 4000}
    assert {p["D"] for p in seen} == set(range(32, 257, 32))
    assert len({tuple(p.values()) for p in seen}) > 20


def test_the_numbers_depend_on_the_assignment_too():
    """Does one id give unrelated numbers in two assignments (no answer carries over)?"""
    same = sum(parameters_for(VARIANTS, "one", i) == parameters_for(VARIANTS, "two", i) for i in IDS)
    assert same < len(IDS) // 4


def test_formulas_are_exact_arithmetic_on_the_parameters():
    """Do whole-number formulas stay exact (the default must reproduce the key's value to the byte)?"""
    assert evaluate("2 * T * D * BYTES", {"T": 1_000_000, "D": 4096, "BYTES": 2}) == 16_384_000_000
    assert evaluate("(D * D // H + D) * 2", {"D": 4096, "H": 32}) == 1_056_768
    assert evaluate("-(2 ** 3) % 5 + 1.5", {}) == 3.5


@pytest.mark.parametrize("formula, message", [
    ("2 * X", "names 'X', which is not a parameter"),
    ("__import__('os')", "only numbers, parameter names"),
    ("T / (D - D)", "division by zero"),
    ("T ** 1000", "an exponent above 64"),
    ("2 *", "is not an arithmetic expression"),
])
def test_a_formula_that_is_not_arithmetic_on_the_parameters_is_refused(formula, message):
    with pytest.raises(FormulaError, match=message.replace("(", r"\(").replace("*", r"\*")):
        evaluate(formula, {"T": 10, "D": 4})


def test_the_notebook_cell_prints_the_students_numbers(capsys):
    """Does `show_parameters` (the notebook's STUDENT_ID cell) print and return this student's numbers?"""
    mine = show_parameters("ada", HYBRID)
    out = capsys.readouterr().out
    assert "Your numbers (student id 'ada')" in out and describe(mine) in out
    assert set(mine) == {"T", "D", "H", "BYTES"}
    show_parameters("", HYBRID)
    assert "STUDENT_ID is not set" in capsys.readouterr().out


def test_describe_groups_large_numbers():
    assert describe({"T": 1_000_000, "D": 4096}) == "T = 1,000,000, D = 4096"
