"""Scoring: a pure function from outcomes and rubric to item results.

Official items are scored from what the grader itself judged (check cases, notebook cell
outcomes it recorded, answers it parsed). Public pytest results only feed the local,
unofficial score. Manual items wait for `grade manual import`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Mapping

from grader.config import Rubric, RubricItem, RubricKind
from grader.grading.checks import SUSPECT_PHRASE
from grader.grading.messages import excerpt
from grader.results import AnswerOutcome, CaseOutcome, CellOutcome, ItemResult, code_cell_numbers

MAX_MESSAGES = 6


@dataclass(frozen=True)
class Outcomes:
    """Everything scoring looks at, gathered by the pipeline."""

    cases: tuple[CaseOutcome, ...] = ()
    cells: tuple[CellOutcome, ...] = ()
    answers: Mapping[str, AnswerOutcome] = field(default_factory=dict)
    tests: Mapping[str, bool] | None = None  # public pytest outcomes (local mode only)
    manual: Mapping[str, float] = field(default_factory=dict)  # item id -> points given by a person
    checks_run: bool = True  # False in local mode: hidden checks are not available
    exercise_cells: Mapping[str, int] = field(default_factory=dict)  # exercise id -> cells in the template
    cells_withheld: str = ""  # why notebook-cell items get no credit (e.g. execution hooks found)


def _award(item: RubricItem, passed: int, total: int, messages: list[str], kind: str) -> ItemResult:
    if total == 0:
        return ItemResult(item.id, item.title, 0.0, item.points, "failed", kind,
                          messages=tuple(messages or ["nothing was found to grade for this item"]))
    if passed == total:
        return ItemResult(item.id, item.title, item.points, item.points, "passed", kind)
    points = round(item.points * passed / total, 4) if item.partial else 0.0
    status = "partial" if points > 0 else "failed"
    if len(messages) > MAX_MESSAGES:
        messages = messages[:MAX_MESSAGES] + [f"... and {len(messages) - MAX_MESSAGES} more failing case(s)"]
    return ItemResult(item.id, item.title, points, item.points, status, kind, messages=tuple(messages))


def _grouped(failures: list[CaseOutcome]) -> list[str]:
    """One message per check: its first failing case in full, then the labels of the others."""
    by_check: dict[str, list[CaseOutcome]] = {}
    for f in failures:
        by_check.setdefault(f.check, []).append(f)
    messages = []
    for group in by_check.values():
        message = group[0].message
        if len(group) > 1:
            others = ", ".join(f.label for f in group[1:5]) + (", ..." if len(group) > 5 else "")
            message += f" The same check also fails for {len(group) - 1} more case(s): {others}."
        messages.append(message)
    return messages


def _gate(item: RubricItem, outcomes: Outcomes) -> CaseOutcome | None:
    """The first failing case of a check the item requires (it does not do its job at all), if any.

    A cost case whose outputs were wrong (or that raised) fails no gate when its form's comparing check
    (``excused_by``) fails too: the form is wrong where it is compared, an honest bug charged to that form's
    items. Only a failure at the compared lengths counts, not one of the twin (the measured call, compared at a
    few hundred tokens): code right at a few dozen tokens and wrong or raising from a few hundred on is a
    length switch, and fails the gate as a slow form does (blind attacks21: a slow chunkwise that raised past
    256 tokens kept the two items that require it to be chunkwise)."""
    if not item.requires or not outcomes.checks_run:
        return None
    failing = _failing_where_compared(outcomes)
    return next((c for c in outcomes.cases if c.check in item.requires and not c.passed
                 and not (c.excused_by and c.excused_by in failing)), None)


def _failing_where_compared(outcomes: Outcomes) -> set[str]:
    """The checks with a failing case other than a cost case's twin (what `excused_by` is read against)."""
    return {c.check for c in outcomes.cases if not c.passed and not c.twin}


def _holds(check: str, outcomes: Outcomes) -> bool:
    """A check holds when every case the student's code could take passed, and at least one did (a case where it
    raised, or returned a result of the wrong shape, is an input class the form cannot take: its own items')."""
    ran = [c for c in outcomes.cases if c.check == check and not _cannot_take(c)]
    return bool(ran) and all(c.passed for c in ran)


def _no_evidence(item: RubricItem, outcomes: Outcomes) -> CaseOutcome | None:
    """For an item judged on the forms that work: a failing case of its evidence checks when none holds.

    `evidence: [works_a, works_b]` is "at least one form does its job": a property (causality, the
    normalizer, the update order) is judged on every form and input the code handles, so a form that is
    broken or raises on one input class costs its own items, not every property it would have shown.
    """
    if not item.evidence or not outcomes.checks_run or any(_holds(c, outcomes) for c in item.evidence):
        return None
    failing = [c for c in outcomes.cases if c.check in item.evidence and not c.passed]
    return next((c for c in failing if not _cannot_take(c)), failing[0] if failing else
                CaseOutcome(item.evidence[0], "", False, f"{item.evidence[0]} did not run"))


def _judged_cases(item: RubricItem, outcomes: Outcomes) -> list[CaseOutcome]:
    """The cases an item is scored on: with `evidence`, the cases where the student's code raised, or returned a
    result of the wrong shape for the input (`Misshapen`: blind round 12, a recurrent form that returned a
    (B, B, d_v) block for batched inputs lost three property items), are left to the items about that form and
    input class (its equivalence item fails for them), and so are the cases of a check whose own gate
    (`judged_if`) fails: they cannot show the property."""
    cases = [c for c in outcomes.cases if c.check in item.checks]
    return [c for c in cases if not _unjudged(c, outcomes)] if item.evidence else cases


def _why_unjudged(unjudged: list[CaseOutcome], outcomes: Outcomes) -> CaseOutcome:
    """A case that says why nothing could be judged: one where the code raised (or gave the wrong shape), else a
    failing case of a gate."""
    raised = next((c for c in unjudged if _cannot_take(c)), None)
    if raised is not None:
        return raised
    gates = {c.judged_if for c in unjudged}
    return next((c for c in outcomes.cases if c.check in gates and not c.passed), unjudged[0])


def _cannot_take(case: CaseOutcome) -> bool:
    """The student's code cannot take this case's input: it raised, or its result had the wrong shape."""
    return case.raised or case.misshapen


def _unjudged(case: CaseOutcome, outcomes: Outcomes) -> bool:
    return _cannot_take(case) or bool(case.judged_if) and not _holds(case.judged_if, outcomes)


def _wrong_where_measured(item: RubricItem, outcomes: Outcomes) -> CaseOutcome | None:
    """One of the item's own cost cases whose outputs were wrong (or that raised) where its form's comparing check
    fails too (`excused_by`): an item gated by a form that does not work loses it by the rule that a cost counts only
    for correct work as well, and says so (its message names the rule: `costs.charged_by_rule`; blind rounds 12-13,
    a recurrent form wrong for batched input, where the costs are measured)."""
    failing = _failing_where_compared(outcomes)
    return next((c for c in outcomes.cases if c.check in item.checks and not c.passed and c.excused_by
                 and c.excused_by in failing), None)


def _gated(item: RubricItem, gate: CaseOutcome, kind: str) -> ItemResult:
    return ItemResult(item.id, item.title, 0.0, item.points, "failed", kind, hidden=kind == RubricKind.CHECKS,
                      messages=(f"no credit: {gate.message}",), cause=gate.cause or gate.message)


def _likely_cause(failures: list[CaseOutcome]) -> str:
    """The cause named by most failing cases (first named wins a tie)."""
    counts: dict[str, int] = {}
    for f in failures:
        if f.cause:
            counts[f.cause] = counts.get(f.cause, 0) + 1
    return max(counts, key=lambda c: counts[c]) if counts else ""


def score_checks(item: RubricItem, outcomes: Outcomes) -> ItemResult:
    if not outcomes.checks_run:
        if outcomes.tests is not None and item.tests:
            return score_tests(item, outcomes)
        return ItemResult(item.id, item.title, 0.0, item.points, "hidden", RubricKind.CHECKS, hidden=True,
                          messages=("checked by the official grader with hidden tests",))
    gate = _gate(item, outcomes) or _no_evidence(item, outcomes)
    if gate is not None:
        result = _gated(item, gate, RubricKind.CHECKS)
        wrong = _wrong_where_measured(item, outcomes)
        return dataclasses.replace(result, messages=result.messages + (wrong.message,)) if wrong else result
    cases = _judged_cases(item, outcomes)
    unjudged = [c for c in outcomes.cases if c.check in item.checks and _unjudged(c, outcomes)]
    if not cases and unjudged:  # the code raised (or a gate failed) on every input: nothing shows the property
        return _gated(item, _why_unjudged(unjudged, outcomes), RubricKind.CHECKS)
    failures = [c for c in cases if not c.passed]
    passed = sum(c.passed for c in cases)
    result = _award(item, passed, len(cases), _grouped(failures), RubricKind.CHECKS)
    return dataclasses.replace(result, hidden=True, cause=_likely_cause(failures) if failures else "")


def score_tests(item: RubricItem, outcomes: Outcomes) -> ItemResult:
    tests = outcomes.tests or {}
    failed = [f"public test {t} failed (run: pytest -k {t})" if t in tests else f"public test {t} did not run"
              for t in item.tests if not tests.get(t)]
    return _award(item, len(item.tests) - len(failed), len(item.tests), failed, RubricKind.TESTS)


def score_cells(item: RubricItem, outcomes: Outcomes) -> ItemResult:
    if outcomes.cells_withheld:
        return ItemResult(item.id, item.title, 0.0, item.points, "failed", RubricKind.CELLS,
                          messages=(outcomes.cells_withheld,))
    gate = _gate(item, outcomes) or _no_evidence(item, outcomes)
    if gate is not None:
        return _gated(item, gate, RubricKind.CELLS)
    messages, passed, total, figures = [], 0, 0, 0
    numbers = code_cell_numbers(outcomes.cells)
    for exercise in item.cells:
        cells = [c for c in outcomes.cells if c.exercise == exercise]
        expected = outcomes.exercise_cells.get(exercise, len(cells))
        total += max(expected, 1)
        if len(cells) < expected:
            messages.append(f"exercise {exercise}: {expected - len(cells)} of its cells are missing from the notebook")
        for cell in cells:
            figures += cell.figures
            where = f"exercise {exercise}, In [{numbers.get(cell.index, '?')}]"
            if cell.status == "ok":
                passed += 1
            elif cell.status == "error":
                messages.append(cell_error_message(where, cell, numbers.get(cell.index, 0)))
            elif cell.status == "timeout":
                messages.append(f"{where}: timed out")
            else:
                messages.append(f"{where}: not run (an earlier cell stopped the notebook)")
    if passed == total and figures < item.figures:
        messages.append(f"expected at least {item.figures} figure(s) from these cells, found {figures}")
        passed -= 1
    return _award(item, max(passed, 0), total, messages, RubricKind.CELLS)


def cell_error_message(where: str, cell: CellOutcome, number: int) -> str:
    """The cell's error, its first lines and likely cause kept whole; the HTML report has all of it."""
    text, shortened = excerpt(f"{cell.ename}: {cell.evalue}".strip(": "), limit=600)
    more = f"\n(the full error: report.html#cell-{number})" if shortened else ""
    return f"{where}: raised {text}{more}"


def score_answers(item: RubricItem, outcomes: Outcomes) -> ItemResult:
    results = [outcomes.answers.get(a) or AnswerOutcome(a, "missing", message=f"no answer '{a}' found")
               for a in item.answers]
    if any(r.status == "unchecked" for r in results):
        return ItemResult(item.id, item.title, 0.0, item.points, "hidden", RubricKind.ANSWERS, hidden=True,
                          messages=tuple(r.message for r in results if r.message))
    failed = [f"{r.id}: {r.message}" if r.message else f"{r.id}: {r.status}" for r in results
              if r.status != "correct"]
    return _award(item, len(results) - len(failed), len(results), failed, RubricKind.ANSWERS)


def score_manual(item: RubricItem, outcomes: Outcomes) -> ItemResult:
    blank = [a for a in item.manual if (outcomes.answers.get(a) or AnswerOutcome(a, "missing")).status
             in ("blank", "missing")]
    if item.id in outcomes.manual:
        pending = ItemResult(item.id, item.title, 0.0, item.points, "manual", RubricKind.MANUAL)
        return hand_graded(pending, float(outcomes.manual[item.id]))
    given = [(outcomes.answers.get(a) or AnswerOutcome(a, "missing")).given for a in item.manual]
    texts = tuple(f"answer: {g[:1500]}" for a, g in zip(item.manual, given) if a not in blank)
    if blank:  # still a person's call (pending); the answers that were written stay readable
        return ItemResult(item.id, item.title, 0.0, item.points, "manual", RubricKind.MANUAL,
                          messages=tuple(f"answer {a} is blank" for a in blank) + texts)
    return ItemResult(item.id, item.title, 0.0, item.points, "manual", RubricKind.MANUAL,
                      messages=("awaiting a grader's reading",) + texts)


SCORERS = {RubricKind.CHECKS: score_checks, RubricKind.TESTS: score_tests, RubricKind.CELLS: score_cells,
           RubricKind.ANSWERS: score_answers, RubricKind.MANUAL: score_manual}


def hand_graded(item: ItemResult, points: float) -> ItemResult:
    """A manual item once a person gave it ``points`` (clamped to 0..max); the answer text is kept."""
    points = min(max(points, 0.0), item.max_points)
    status = "passed" if points == item.max_points else "partial" if points > 0 else "failed"
    kept = tuple(m for m in item.messages if m.startswith("answer: "))
    return dataclasses.replace(item, points=points, status=status, messages=("graded by hand",) + kept)


def total(items: tuple[ItemResult, ...]) -> float:
    """The one rule for a report's score: the sum of its items' points."""
    return round(sum(i.points for i in items), 4)


def shared_causes(items: tuple[ItemResult, ...]) -> dict[str, tuple[ItemResult, ...]]:
    """Likely causes that cost more than one item, each with the items it costs (rubric order)."""
    by_cause: dict[str, list[ItemResult]] = {}
    for item in items:
        if item.cause and item.points < item.max_points:
            by_cause.setdefault(item.cause, []).append(item)
    return {cause: tuple(group) for cause, group in by_cause.items() if len(group) > 1}


def cause_notes(items: tuple[ItemResult, ...]) -> tuple[str, ...]:
    """One report note per cause shared by several failing items: the cause, said once."""
    return tuple(f"One likely cause costs {len(group)} items ({', '.join(i.id for i in group)}; "
                 f"{sum(i.max_points - i.points for i in group):g} points): {cause}."
                 for cause, group in shared_causes(items).items())


def _said_once(items: tuple[ItemResult, ...]) -> tuple[ItemResult, ...]:
    """Items sharing a cause point at the report note instead of each naming the cause again."""
    shared = shared_causes(items)
    out = []
    for item in items:
        if item.cause in shared:
            others = [i.id for i in shared[item.cause] if i.id != item.id]
            pointer = f"likely cause shared with {', '.join(others)}: see the notes at the top"
            messages = tuple(m.replace(f"; {SUSPECT_PHRASE}{item.cause}", "") for m in item.messages)
            item = dataclasses.replace(item, messages=(pointer,) + messages)
        out.append(item)
    return tuple(out)


def score(rubric: Rubric, outcomes: Outcomes) -> tuple[tuple[ItemResult, ...], float]:
    items = _said_once(tuple(SCORERS[item.kind](item, outcomes) for item in rubric.items))
    return items, total(items)
