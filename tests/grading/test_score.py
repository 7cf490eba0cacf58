"""Scoring is a pure function: outcomes + rubric -> items and a total. Each rule once, tested here."""
from __future__ import annotations

import pytest

from grader.config import Rubric, RubricItem
from grader.grading.score import Outcomes, hand_graded, score, total
from grader.results import AnswerOutcome, CaseOutcome, CellOutcome, ItemResult


def rubric(*items: RubricItem) -> Rubric:
    return Rubric(items, sum(i.points for i in items))


def case(check: str, label: str, passed: bool, message: str = "") -> CaseOutcome:
    return CaseOutcome(check, label, passed, message or f"{check} [{label}]: wrong")


def test_an_item_passes_only_when_every_case_of_its_checks_passes():
    """Does one failing case cost the whole (non-partial) item and nothing else?"""
    r = rubric(RubricItem("a", "A", 2, checks=("ca",)), RubricItem("b", "B", 3, checks=("cb",)))
    out = Outcomes(cases=(case("ca", "1", True), case("ca", "2", False), case("cb", "1", True)))
    items, got = score(r, out)
    assert [(i.id, i.points, i.status) for i in items] == [("a", 0.0, "failed"), ("b", 3.0, "passed")]
    assert got == 3.0 and items[0].hidden and items[0].messages == ("ca [2]: wrong",)


def test_partial_items_get_the_fraction_of_cases_that_pass():
    r = rubric(RubricItem("a", "A", 4, checks=("ca",), partial=True))
    out = Outcomes(cases=(case("ca", "1", True), case("ca", "2", True), case("ca", "3", True), case("ca", "4", False)))
    (item,), got = score(r, out)
    assert (item.points, item.status, got) == (3.0, "partial", 3.0)


def test_an_item_with_nothing_to_grade_earns_nothing():
    """No cases at all (the checks never ran) is never full marks."""
    (item,), got = score(rubric(RubricItem("a", "A", 2, checks=("ca",))), Outcomes(cases=()))
    assert (item.points, item.status, got) == (0.0, "failed", 0.0)
    assert "nothing was found to grade" in item.messages[0]


def test_many_failures_of_one_check_are_said_once():
    r = rubric(RubricItem("a", "A", 1, checks=("ca",)))
    out = Outcomes(cases=tuple(case("ca", str(n), False) for n in range(8)))
    (item,), _ = score(r, out)
    assert len(item.messages) == 1
    assert item.messages[0].startswith("ca [0]: wrong") and "7 more case(s)" in item.messages[0]


def test_hidden_checks_are_hidden_locally_and_public_tests_stand_in():
    r = rubric(RubricItem("a", "A", 2, checks=("ca",), tests=("test_a",)), RubricItem("b", "B", 1, checks=("cb",)))
    items, got = score(r, Outcomes(checks_run=False, tests={"test_a": True}))
    assert (items[0].status, items[0].points) == ("passed", 2.0)
    assert (items[1].status, items[1].points, items[1].hidden) == ("hidden", 0.0, True)
    assert got == 2.0


def test_failed_public_tests_name_the_command_to_rerun():
    r = rubric(RubricItem("a", "A", 1, tests=("test_x", "test_y")))
    (item,), _ = score(r, Outcomes(checks_run=False, tests={"test_x": False}))
    assert item.messages == ("public test test_x failed (run: pytest -k test_x)", "public test test_y did not run")


def cell(index: int, status: str, exercise: str = "ex1", figures: int = 0, **kw) -> CellOutcome:
    return CellOutcome(index, f"c{index}", status, exercise=exercise, figures=figures, **kw)


def test_cells_items_need_every_cell_of_the_exercise_and_its_figures():
    r = rubric(RubricItem("ex", "Ex", 2, cells=("ex1",), figures=1))
    ok = Outcomes(cells=(cell(3, "ok"), cell(4, "ok", figures=1)), exercise_cells={"ex1": 2})
    assert score(r, ok)[1] == 2.0
    no_fig = Outcomes(cells=(cell(3, "ok"), cell(4, "ok")), exercise_cells={"ex1": 2})
    (item,), got = score(r, no_fig)
    assert got == 0.0 and "expected at least 1 figure(s)" in item.messages[-1]
    missing = Outcomes(cells=(cell(3, "ok", figures=1),), exercise_cells={"ex1": 2})
    (item,), got = score(r, missing)
    assert got == 0.0 and "1 of its cells are missing" in item.messages[0]


def test_a_cell_error_is_reported_with_its_exception():
    r = rubric(RubricItem("ex", "Ex", 1, cells=("ex1",)))
    out = Outcomes(cells=(cell(5, "error", ename="ValueError", evalue="bad shape"),), exercise_cells={"ex1": 1})
    (item,), _ = score(r, out)
    assert "In [1]" in item.messages[0] and "ValueError" in item.messages[0] and "bad shape" in item.messages[0]


def test_a_long_cell_error_keeps_its_numbers_and_its_likely_cause():
    """Is a long error shortened at whole lines, never inside a number, with the cause kept and a link?"""
    lines = ["step() disagrees with forward(): 96 of 96 values differ", "    step()       0.047712345",
             "    forward()    0.0477123"] + [f"  detail line {i} " + "x " * 30 for i in range(30)]
    evalue = "\n".join(lines + ["  likely cause:", "    the normalizer φ(q)·z is missing in one form"])
    code = (cell(0, "ok", exercise="setup"), cell(3, "error", ename="AssertionError", evalue=evalue))
    r = rubric(RubricItem("ex", "Ex", 1, cells=("ex1",)))
    (item,), _ = score(r, Outcomes(cells=code, exercise_cells={"ex1": 1}))
    message = item.messages[0]
    assert message.startswith("exercise ex1, In [2]: raised AssertionError: step() disagrees")
    assert "0.047712345" in message and "0.0477123\n" in message
    assert "the normalizer φ(q)·z is missing in one form" in message
    assert "report.html#cell-2" in message and len(message) < 800


def test_withheld_cells_earn_nothing_and_say_why():
    r = rubric(RubricItem("ex", "Ex", 1, cells=("ex1",)))
    out = Outcomes(cells=(cell(5, "ok"),), exercise_cells={"ex1": 1}, cells_withheld="hooks found")
    (item,), got = score(r, out)
    assert got == 0.0 and item.messages == ("hooks found",)


def test_answers_items_pass_when_every_answer_is_correct():
    r = rubric(RubricItem("q", "Q", 2, answers=("a1", "a2")))
    good = {"a1": AnswerOutcome("a1", "correct"), "a2": AnswerOutcome("a2", "correct")}
    assert score(r, Outcomes(answers=good))[1] == 2.0
    half = {"a1": AnswerOutcome("a1", "correct"), "a2": AnswerOutcome("a2", "wrong", "3", "too small")}
    (item,), got = score(r, Outcomes(answers=half))
    assert got == 0.0 and item.messages == ("a2: too small",)
    (item,), got = score(r, Outcomes(answers={}))
    assert got == 0.0 and "no answer 'a1' found" in item.messages[0]


def test_unchecked_answers_are_hidden_not_failed():
    r = rubric(RubricItem("q", "Q", 2, answers=("a1",)))
    (item,), got = score(r, Outcomes(answers={"a1": AnswerOutcome("a1", "unchecked", "3", "checked officially")}))
    assert (item.status, item.hidden, got) == ("hidden", True, 0.0)


@pytest.mark.parametrize("given, status", [("", "manual"), ("a thoughtful answer", "manual")])
def test_manual_items_wait_for_a_person_even_when_blank(given, status):
    """A blank free-text answer is pending like any other: a person confirms the 0 (status "manual")."""
    r = rubric(RubricItem("m", "M", 3, manual=("why",)))
    answers = {"why": AnswerOutcome("why", "blank" if not given else "unchecked", given)}
    (item,), got = score(r, Outcomes(answers=answers))
    assert (item.status, got) == (status, 0.0)
    if given:
        assert f"answer: {given}" in item.messages
    else:
        assert item.messages == ("answer why is blank",)


@pytest.mark.parametrize("points, status, expected", [(3, "passed", 3.0), (1.5, "partial", 1.5), (0, "failed", 0.0),
                                                       (7, "passed", 3.0), (-2, "failed", 0.0)])
def test_hand_graded_points_are_clamped_and_keep_the_answer(points, status, expected):
    pending = ItemResult("m", "M", 0.0, 3.0, "manual", "manual", messages=("awaiting", "answer: because"))
    item = hand_graded(pending, points)
    assert (item.points, item.status) == (expected, status)
    assert item.messages == ("graded by hand", "answer: because")


def test_total_is_the_sum_of_item_points_rounded():
    items = tuple(ItemResult(str(n), "t", 0.1, 1, "partial", "checks") for n in range(3))
    assert total(items) == 0.3
