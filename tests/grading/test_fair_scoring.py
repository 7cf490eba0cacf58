"""Fair verdicts in scoring: no points without work (`requires` gates), one cause said once, and
tampered or forged answers costing the cases they touch."""
from __future__ import annotations

import numpy as np
import pytest

from grader.config import ConfigError, Rubric, RubricItem, load_rubric
from grader.grading.checks import Case, CheckSpec, judge_case
from grader.grading.score import Outcomes, cause_notes, score
from grader.results import CaseOutcome, CellOutcome


def rubric(*items: RubricItem) -> Rubric:
    return Rubric(items, sum(i.points for i in items))


def case(check: str, passed: bool, cause: str = "", label: str = "1") -> CaseOutcome:
    return CaseOutcome(check, label, passed, "" if passed else f"{check} [{label}]: wrong", cause=cause)


def test_a_failed_gate_costs_the_item_even_when_its_own_checks_pass():
    """Does `return V` keep a causality item it trivially passes? Not when the item requires 'works'."""
    r = rubric(RubricItem("causal", "Causal", 2, checks=("causal",), requires=("works",)),
               RubricItem("other", "Other", 1, checks=("causal",)))
    out = Outcomes(cases=(case("causal", True), case("works", False, cause="f does not do its job at all")))
    (gated, free), got = score(r, out)
    assert (gated.points, gated.status, free.points, got) == (0.0, "failed", 1.0, 1.0)
    assert gated.messages[0].startswith("no credit: works [1]")


def test_a_passing_gate_changes_nothing():
    r = rubric(RubricItem("causal", "Causal", 2, checks=("causal",), requires=("works",)))
    (item,), got = score(r, Outcomes(cases=(case("causal", True), case("works", True))))
    assert (item.points, got) == (2.0, 2.0)


def test_exercise_cells_earn_nothing_when_the_code_they_run_does_no_work():
    """A stub module with a notebook whose cells all run: the exercise item is gated to 0."""
    r = rubric(RubricItem("ex1", "Ex 1", 3, cells=("ex1",), requires=("works",)))
    cells = (CellOutcome(0, "c0", "ok", "ex1"),)
    (stub,), _ = score(r, Outcomes(cases=(case("works", False),), cells=cells, exercise_cells={"ex1": 1}))
    (real,), _ = score(r, Outcomes(cases=(case("works", True),), cells=cells, exercise_cells={"ex1": 1}))
    assert (stub.points, real.points) == (0.0, 3.0)


def test_gates_are_not_applied_without_official_checks():
    """`grade --local` has no hidden checks: its provisional cell score is not gated."""
    r = rubric(RubricItem("ex1", "Ex 1", 1, cells=("ex1",), requires=("works",)))
    out = Outcomes(cells=(CellOutcome(0, "c0", "ok", "ex1"),), checks_run=False, exercise_cells={"ex1": 1})
    assert score(r, out)[1] == 1.0


def test_one_cause_that_costs_several_items_is_named_once():
    """Two items failing with the same likely cause: one note names it; each item points there."""
    cause = "the state is read before token t is added to it"
    r = rubric(RubricItem("eq", "Equivalence", 2, checks=("eq",)), RubricItem("order", "Order", 2, checks=("order",)),
               RubricItem("other", "Other", 1, checks=("other",)))
    out = Outcomes(cases=(
        CaseOutcome("eq", "1", False, f"eq [1]: wrong; this is exactly what you get when {cause}.", cause=cause),
        case("order", False, cause=cause), case("other", False, cause="something else")))
    items, _ = score(r, out)
    notes = cause_notes(items)
    assert notes == (f"One likely cause costs 2 items (eq, order; 4 points): {cause}.",)
    eq, order, other = items
    assert eq.messages[0].startswith("likely cause shared with order") and cause not in " ".join(eq.messages)
    assert order.messages[0].startswith("likely cause shared with eq")
    assert other.cause == "something else" and not other.messages[0].startswith("likely cause")


def test_a_check_names_its_cause_and_a_matched_suspect_overrides_it():
    spec = CheckSpec("order", "p", "Order", lambda: iter(()), cause="read before update")
    wrong = {"y": np.array([2.0])}
    plain = judge_case(spec, Case("1", {}, expect={"y": [1.0]}), wrong)
    named = judge_case(spec, Case("1", {}, expect={"y": [1.0]}, suspects={"no decay": {"y": [2.0]}}), wrong)
    crashed = judge_case(spec, Case("1", {}, expect={"y": [1.0]}), None, "raised ValueError: x at m.py:3 in f")
    assert (plain.cause, named.cause, crashed.cause) == ("read before update", "no decay",
                                                         "raised ValueError: x at m.py:3 in f")


def test_requires_must_name_a_gateable_item(tmp_path):
    (tmp_path / "rubric.yaml").write_text(
        "items:\n  - {id: a, title: A, points: 1, answers: [x], requires: [works]}\ntotal: 1\n")
    with pytest.raises(ConfigError, match="requires"):
        load_rubric(tmp_path)


def test_a_tampered_or_forged_answer_fails_its_case_and_says_why():
    """A case answered after the student's code replaced what the checks rely on is not trusted."""
    from grader.grading import probing

    assert probing._tampered({"tampered": ["torch.allclose"]}).startswith("your code replaced or hooked torch.allclose")
    assert "written ahead" in probing._tampered({"stopped": "forged"})
    assert probing._tampered({"tampered": []}) == ""


# ---------------------------------------------------------------- `evidence`: judged on the forms that work

def raised(check: str, label: str = "batched") -> CaseOutcome:
    return CaseOutcome(check, label, False, f"{check} [{label}]: raised RuntimeError: shapes", raised=True,
                       cause="raised RuntimeError: shapes")


PROPERTY = RubricItem("normalizer", "Normalizer", 2, checks=("normalizer",),
                      evidence=("works_parallel", "works_step"))


def test_a_form_that_raises_on_one_input_class_keeps_the_properties_it_shows():
    """Does a step that raises on batched input lose the normalizer it gets right everywhere else? No."""
    out = Outcomes(cases=(case("works_parallel", True), case("works_step", True, label="one token"),
                          raised("works_step"), case("normalizer", True, label="parallel"),
                          case("normalizer", True, label="step, one token"), raised("normalizer")))
    (item,), got = score(rubric(PROPERTY), out)
    assert (item.points, got) == (2.0, 2.0)


def test_a_form_whose_result_has_the_wrong_shape_on_one_input_class_keeps_the_properties_it_shows():
    """Blind round 12: a recurrent form that returned a (B, B, d_v) block for batched inputs (and raised at two
    leading dims) lost three property items. A judge's `Misshapen` verdict leaves the case to the form's own
    items, as a raise does; its equivalence item (no `evidence`) still fails it."""
    from grader.checks import shape_problem

    spec = CheckSpec("normalizer", "p", "Normalizer", lambda: iter(()))
    form = CheckSpec("form", "p", "Form", lambda: iter(()))
    wrong_shape = judge_case(spec, Case("batched", {}, judge=lambda got: shape_problem(got["y"], (2, 3))),
                             {"y": np.zeros((2, 2, 3))})
    wrong_values = judge_case(spec, Case("batched", {}, judge=lambda got: "the weights do not sum to 1"),
                              {"y": np.zeros((2, 3))})
    compared = judge_case(form, Case("batched", {}, expect={"y": np.zeros((2, 3))}), {"y": np.zeros((2, 2, 3))})
    assert wrong_shape.misshapen and compared.misshapen and not wrong_values.misshapen
    assert "has shape (2, 2, 3), expected (2, 3)" in wrong_shape.message
    r = rubric(PROPERTY, RubricItem("form", "Form", 2, checks=("form",)))
    out = Outcomes(cases=(case("works_parallel", True), case("works_step", True), case("normalizer", True),
                          wrong_shape, compared))
    items, _ = score(r, out)
    assert {i.id: i.points for i in items} == {"normalizer": 2.0, "form": 0.0}
    out = Outcomes(cases=(case("works_parallel", True), case("works_step", True), case("normalizer", True),
                          wrong_values))
    assert score(r, out)[0][0].points == 0.0  # a wrong answer of the right shape is the property's
    only = Outcomes(cases=(case("works_parallel", True), wrong_shape))
    (item, _), _ = score(r, only)
    assert item.points == 0.0 and "has shape (2, 2, 3)" in item.messages[0]  # nothing else showed it


def test_a_check_about_an_input_class_fails_a_wrong_shape_on_it():
    spec = CheckSpec("long", "p", "Long sequences", lambda: iter(()), raising_fails=True)
    outcome = judge_case(spec, Case("L=4096", {}, expect={"y": np.zeros((4, 2))}), {"y": np.zeros((2,))})
    assert not outcome.passed and not outcome.misshapen


def test_a_wrong_answer_on_a_property_still_costs_it():
    out = Outcomes(cases=(case("works_parallel", True), case("works_step", True), case("normalizer", True),
                          case("normalizer", False, label="step")))
    (item,), _ = score(rubric(PROPERTY), out)
    assert item.points == 0.0 and "normalizer [step]: wrong" in item.messages[0]


def test_one_broken_form_does_not_gate_the_properties_of_the_others():
    """A forward whose gate fails (its mask keeps the future) leaves the normalizer judged on step."""
    out = Outcomes(cases=(case("works_parallel", False), case("works_step", True), case("normalizer", True)))
    (item,), _ = score(rubric(PROPERTY), out)
    assert item.points == 2.0


@pytest.mark.parametrize("gates", [
    (False, False),        # a random or constant model: no form does its job
    ("raised", "raised"),  # a template: every form raises NotImplementedError
])
def test_no_form_that_works_means_no_credit(gates):
    made = [raised(name) if g == "raised" else case(name, g)
            for name, g in zip(("works_parallel", "works_step"), gates)]
    out = Outcomes(cases=(*made, case("normalizer", True)))
    (item,), _ = score(rubric(PROPERTY), out)
    assert item.points == 0.0 and item.messages[0].startswith("no credit: works_parallel")


def test_code_that_raises_on_every_input_of_a_property_earns_nothing_for_it():
    out = Outcomes(cases=(case("works_parallel", True), raised("normalizer", "a"), raised("normalizer", "b")))
    (item,), _ = score(rubric(PROPERTY), out)
    assert item.points == 0.0 and "raised RuntimeError" in item.messages[0]


def test_an_exercise_with_evidence_earns_when_one_form_it_uses_works():
    r = rubric(RubricItem("ex1", "Ex 1", 1, cells=("ex1",), evidence=("works_parallel", "works_step")))
    cells = (CellOutcome(0, "c", "ok", "ex1"),)
    one = Outcomes(cases=(case("works_parallel", False), case("works_step", True)), cells=cells,
                   exercise_cells={"ex1": 1})
    none = Outcomes(cases=(case("works_parallel", False), case("works_step", False)), cells=cells,
                    exercise_cells={"ex1": 1})
    assert score(r, one)[1] == 1.0 and score(r, none)[1] == 0.0


def test_evidence_is_only_for_checks_and_cells_items(tmp_path):
    (tmp_path / "rubric.yaml").write_text("items:\n  - id: a\n    title: A\n    points: 1\n    answers: [x]\n"
                                          "    evidence: [works]\ntotal: 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="'evidence' gates checks and cells items only"):
        load_rubric(tmp_path)


def test_one_blank_answer_keeps_the_others_readable():
    """A manual item of four answers with one blank: the grader still reads the three written."""
    from grader.results import AnswerOutcome

    r = rubric(RubricItem("concepts", "Concepts", 4, manual=("a", "b")))
    out = Outcomes(answers={"a": AnswerOutcome("a", "blank"), "b": AnswerOutcome("b", "unchecked", "the state")})
    (item,), _ = score(r, out)
    assert item.messages == ("answer a is blank", "answer: the state")


def _cost_wrong(excused_by: str) -> CaseOutcome:
    return CaseOutcome("cost_form", "1", False, "cost_form [1]: at L=1024: wrong (a cost counts only for correct "
                       "outputs)", excused_by=excused_by)


def test_a_cost_case_with_wrong_outputs_does_not_gate_when_the_form_is_wrong_where_it_is_compared():
    """An honest bug (wrong at every length): the cost item fails, the items requiring the cost check do not."""
    r = rubric(RubricItem("boundaries", "Boundaries", 3, checks=("boundaries",), requires=("cost_form",)),
               RubricItem("memory", "Memory", 2, checks=("cost_form",)),
               RubricItem("form", "Form", 2, checks=("form",)))
    out = Outcomes(cases=(case("boundaries", True), case("form", False), _cost_wrong("form")))
    items, _ = score(r, out)
    assert {i.id: i.points for i in items} == {"boundaries": 3.0, "memory": 0.0, "form": 0.0}


def test_a_cost_item_gated_by_a_form_that_does_not_work_names_the_rule_too():
    """A recurrent form wrong for batched input (blind rounds 12-13): its works gate fails, and so do its cost
    cases' outputs, where the costs are measured (128 sequences). The cost item is lost by the rule that a cost
    counts only for correct work, and says so, so the corpus tables and the mutant budget read it as that rule's."""
    from grader.grading.costs import ONLY_CORRECT, charged_by_rule

    r = rubric(RubricItem("memory", "Memory", 2, checks=("cost_form",), requires=("works_form",)),
               RubricItem("form", "Form", 2, checks=("form",), requires=("works_form",)))
    out = Outcomes(cases=(case("works_form", False), case("form", False), _cost_wrong("form")))
    items, _ = score(r, out)
    memory = items[0]
    assert memory.points == 0.0 and "no credit: works_form [1]: wrong" in memory.messages
    assert ONLY_CORRECT in memory.messages[-1]
    assert charged_by_rule({i.id: i.messages for i in items}) == ("memory",)
    fast = Outcomes(cases=(case("works_form", False), case("form", False), case("cost_form", True)))
    items, _ = score(r, fast)
    assert "no credit: works_form [1]: wrong" in items[0].messages  # a gate alone: not the rule's
    assert not any(ONLY_CORRECT in m for m in items[0].messages)
    assert charged_by_rule({i.id: i.messages for i in items}) == ()


def test_the_rule_charges_the_cost_item_that_says_it_not_an_item_that_quotes_it_as_its_gate():
    """Blind round 15: a recurrent form wrong for batched input lost its equivalence item through the cost gate ("no
    credit: <the cost case> ... (a cost counts only for correct outputs)") and the cost item by its own cost case. The
    rule's one item is the cost item: the equivalence item is the bug's own anyway."""
    from grader.grading.costs import ONLY_CORRECT, charged_by_rule

    gated = (f"no credit: form carries a state [128 sequences]: at L=16384: raised ValueError {ONLY_CORRECT}",)
    own = ("no credit: works_form [1]: wrong", f"form carries a state [1 sequence]: at L=1024: wrong {ONLY_CORRECT}")
    assert charged_by_rule({"a_form": gated, "cost_item": own}) == ("cost_item",)
    assert charged_by_rule({"a_form": gated}) == ("a_form",)  # only quoted: as before


def test_a_form_right_where_compared_and_wrong_where_measured_fails_the_gate():
    """A length switch (honest below the cost lengths, wrong or raising at them) costs what a parallel form does."""
    r = rubric(RubricItem("boundaries", "Boundaries", 3, checks=("boundaries",), requires=("cost_form",)),
               RubricItem("form", "Form", 2, checks=("form",)))
    for excused_by in ("form", ""):
        out = Outcomes(cases=(case("boundaries", True), case("form", True), _cost_wrong(excused_by)))
        items, _ = score(r, out)
        assert {i.id: i.points for i in items} == {"boundaries": 0.0, "form": 2.0}, excused_by


def test_a_form_wrong_only_at_the_measured_calls_twin_is_a_length_switch_and_fails_the_gate():
    """The comparing check failing only at the twin (the measured call at a few hundred tokens) is no honest bug
    "where it is compared at short lengths": code right at a few dozen tokens and raising past 256 (blind
    attacks21) loses the items that require the form's cost check, as its slow control does. A failure at a
    short compared case still excuses it."""
    r = rubric(RubricItem("boundaries", "Boundaries", 3, checks=("boundaries",), requires=("cost_form",)),
               RubricItem("form", "Form", 2, checks=("form",)))
    twin = CaseOutcome("form", "cost: the measured call, compared over a few hundred tokens", False, "wrong",
                       twin=True)
    out = Outcomes(cases=(case("boundaries", True), case("form", True), twin, _cost_wrong("form")))
    items, _ = score(r, out)
    assert {i.id: i.points for i in items} == {"boundaries": 0.0, "form": 0.0}
    out = Outcomes(cases=(case("boundaries", True), case("form", False), twin, _cost_wrong("form")))
    items, _ = score(r, out)
    assert {i.id: i.points for i in items} == {"boundaries": 3.0, "form": 0.0}


@pytest.mark.parametrize("short_twin", ["passed", "raised", "wrong"])
def test_a_cost_case_failed_where_measured_is_excused_only_where_its_short_twin_fails_the_same_way(short_twin):
    """Blind attacks22: a slow chunkwise form raising (or wrong) where it is measured, beside a bug elsewhere in its
    comparing check (per-head decays), kept the items that require it to be efficient. The short twin (the measured
    call over a few dozen tokens) says which it is: right there, or wrong where the measured run raised (a decay
    near 1 taken as 1, and a refusal past 1000 tokens), a form that fails this way from some length on (the gate
    fails, as the slow control's); failing there the same way, an honest bug at those settings (excused)."""
    from grader.grading.probing import PlannedCase, excuses_checked

    form = CheckSpec("form", "form_runs", "form matches", lambda: iter(()))
    cost = CheckSpec("cost_form", "form_runs", "form is efficient", lambda: iter(()), cause="not efficient")
    planned = [PlannedCase("cost_form-000", cost, Case("long", {}, {})),
               PlannedCase("form-000", form, Case("per-head decays", {}, {})),
               PlannedCase("form-001", form, Case("short twin", {}, {}), short_twin_of="cost_form-000",
                           twin_probe="form_runs")]
    raised = CaseOutcome("cost_form", "long", False, "cost_form [long]: at L=2048: raised ValueError. Hint: carry R.",
                         raised=True, excused_by="form")
    twin = CaseOutcome("form", "short twin", short_twin == "passed", "" if short_twin == "passed" else "form: no",
                       raised=short_twin == "raised", digest="3c2b1a09" if short_twin == "wrong" else "")
    by_id = {"cost_form-000": raised, "form-000": case("form", False), "form-001": twin}
    checked = excuses_checked(planned, by_id)["cost_form-000"]
    r = rubric(RubricItem("boundaries", "Boundaries", 3, checks=("boundaries",), requires=("cost_form",)),
               RubricItem("form", "Form", 2, checks=("form",)))
    items, _ = score(r, Outcomes(cases=(case("boundaries", True), by_id["form-000"], by_id["form-001"], checked)))
    if short_twin != "raised":  # right there, or wrong where the measured run raised: from some length on
        assert checked.excused_by == "" and checked.cause == "not efficient"
        assert "Over a few dozen tokens at the same settings " + (
            "its outputs are right" if short_twin == "passed" else "it is wrong instead") in checked.message
        assert checked.message.endswith("Hint: carry R.")
        assert {i.id: i.points for i in items} == {"boundaries": 0.0, "form": 0.0}
    else:
        assert checked == raised
        assert {i.id: i.points for i in items} == {"boundaries": 3.0, "form": 0.0}


@pytest.mark.parametrize("short_twin, excused", [("wrong", True), ("stopped", False), ("raised", False)])
def test_wrong_outputs_where_measured_are_excused_only_where_the_short_twin_gave_wrong_outputs_too(short_twin, excused):
    """A cost run wrong (and efficient) where measured is an honest bug only where its short twin gave a result that
    is wrong too: a twin that hung, crashed or raised gave none (blind attacks25: a stopped twin counted as wrong)."""
    from grader.grading.probing import PlannedCase, excuses_checked

    form = CheckSpec("form", "form_runs", "form matches", lambda: iter(()))
    cost = CheckSpec("cost_form", "form_runs", "form is efficient", lambda: iter(()), cause="not efficient")
    planned = [PlannedCase("cost_form-000", cost, Case("long", {}, {})),
               PlannedCase("form-001", form, Case("short twin", {}, {}), short_twin_of="cost_form-000",
                           twin_probe="form_runs")]
    wrong = CaseOutcome("cost_form", "long", False, "cost_form [long]: at L=2048: wrong", excused_by="form")
    twin = CaseOutcome("form", "short twin", False, f"form: {short_twin}", raised=short_twin == "raised",
                       digest="9f8e7d6c" if short_twin == "wrong" else "")
    checked = excuses_checked(planned, {"cost_form-000": wrong, "form-001": twin})["cost_form-000"]
    assert (checked == wrong) is excused
    assert excused or (checked.excused_by == "" and checked.cause == "not efficient")


def test_a_check_whose_own_gate_fails_says_nothing_and_the_item_is_judged_on_the_other_form():
    """A step that ignores the state it is given: its from-a-given-state property check cannot show the
    property, so the item is judged on forward's check alone; with forward broken too, no credit."""
    r = rubric(RubricItem("norm", "Normalizer", 4, checks=("norm_fwd", "norm_step"),
                          evidence=("works_forward", "works_step")))
    from_state = CaseOutcome("norm_step", "from a given state", False, "norm_step: z alone changes nothing",
                             judged_if="step_uses_state")
    fair = Outcomes(cases=(case("works_forward", True), case("works_step", True), case("norm_fwd", True),
                           from_state, case("step_uses_state", False)))
    (item,), _ = score(r, fair)
    assert (item.points, item.status) == (4.0, "passed")
    honest = Outcomes(cases=(*fair.cases[:4], case("step_uses_state", True)))
    (item,), _ = score(r, honest)
    assert item.points == 0.0  # the gate holds: the step check is judged, and it failed
    nothing = Outcomes(cases=(case("works_forward", True), case("works_step", True),
                              CaseOutcome("norm_fwd", "1", False, "norm_fwd [1]: raised RuntimeError", raised=True),
                              from_state,
                              case("step_uses_state", False)))
    (item,), _ = score(r, nothing)
    assert item.points == 0.0 and item.messages[0].startswith("no credit: norm_fwd")


def test_judge_case_carries_the_checks_gate():
    spec = CheckSpec("norm_step", "step_runs", "Normalizer", lambda: iter(()), judged_if="step_uses_state")
    out = judge_case(spec, Case("one", {}, expect={"y": 1.0}), {"y": 1.0})
    assert out.passed and out.judged_if == "step_uses_state"


def test_a_check_about_an_input_class_counts_a_raise_as_its_failure():
    """A forward that raises on long sequences (a mask cached for 256 tokens) fails the long-sequence item,
    where its own gate (the form right on short inputs) holds; a raise elsewhere is still left out."""
    long_spec = CheckSpec("long_fwd", "forward_runs", "Long", lambda: iter(()), judged_if="fwd_ref",
                          raising_fails=True)
    crashed = judge_case(long_spec, Case("T=300", {}, expect={"y": 1.0}), None, "raised RuntimeError: size")
    assert not crashed.passed and not crashed.raised and crashed.judged_if == "fwd_ref"
    r = rubric(RubricItem("long", "Long sequences", 3, checks=("long_fwd", "long_step"),
                          evidence=("works_forward", "works_step")))
    outcomes = Outcomes(cases=(case("works_forward", True), case("works_step", True), case("fwd_ref", True),
                               crashed, case("long_step", True)))
    (item,), _ = score(r, outcomes)
    assert item.points == 0.0
    plain = CheckSpec("long_fwd", "forward_runs", "Long", lambda: iter(()), judged_if="fwd_ref")
    left_out = judge_case(plain, Case("T=300", {}, expect={"y": 1.0}), None, "raised RuntimeError: size")
    (item,), _ = score(r, Outcomes(cases=(*outcomes.cases[:3], left_out, case("long_step", True))))
    assert item.points == 3.0
