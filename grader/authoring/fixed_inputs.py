"""Compared inputs that do not change with the grader's draw, and labels that do: `tasks.py check` refuses both.

A cost case is measured on inputs drawn from the grader's secret, and compared at short lengths by the check
it names (`CostCase.compared_by`). A case of that check whose inputs come out the same under every draw is one a
form can recognise by value (the hidden source is no secret from someone who read it: blind attacks12 listed
416 of them) and answer with other code than the one measured. So the check's cases are made twice, under two
throwaway secrets, and a case whose inputs are equal both times is reported: pass its seeds through
`grader.checks.drawn` (docs/authoring.md, "Draw every input").

A case's label reaches the student's report. One that prints a drawn value (the hybrid's first labels showed
every case's decays) hands the draw to the student, and a second submission can recognise the compared inputs
by it: labels must come out the same under both secrets.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from grader.grading import draws
from grader.grading.checks import Case, CheckSpec
from grader.grading.costs import CostCase

SHOWN = 3  # labels named per check


def _cases_under(specs: Mapping[str, CheckSpec], secret: bytes) -> dict[str, list]:
    with draws.under(secret):
        return {name: list(spec.cases()) for name, spec in specs.items()}


def _same(a: Case, b: Case) -> bool:
    if a.inputs.keys() != b.inputs.keys():
        return False
    return all(np.array_equal(a.inputs[k], b.inputs[k]) if isinstance(a.inputs[k], np.ndarray)
               else a.inputs[k] == b.inputs[k] for k in a.inputs)


def draw_problems(specs: Mapping[str, CheckSpec], src: str) -> list[str]:
    """One message per check that compares a cost case's form and has a case whose inputs no draw changes, and
    one per check whose case labels change with the draw."""
    first, second = _cases_under(specs, b"\x01" * 32), _cases_under(specs, b"\x02" * 32)
    return _fixed_compared(first, second, src) + _drawn_labels(first, second, src)


def _shown(labels: list[str]) -> str:
    return ", ".join(repr(label) for label in labels[:SHOWN]) + (" ..." if len(labels) > SHOWN else "")


def _fixed_compared(first: dict[str, list], second: dict[str, list], src: str) -> list[str]:
    compared = sorted({c.compared_by for cases in first.values() for c in cases
                       if isinstance(c, CostCase) and c.compared_by in first})
    problems = []
    for name in compared:
        fixed = [a.label for a, b in zip(first[name], second[name])
                 if isinstance(a, Case) and isinstance(b, Case) and _same(a, b)]
        if fixed:
            problems.append(f"{src}/hidden: check {name!r} compares a measured form, but {len(fixed)} of its cases "
                            f"have the same inputs under every draw ({_shown(fixed)}): a form could recognise them "
                            "and run other code where it is measured. Make their inputs from "
                            "grader.checks.drawn(seed) (docs/authoring.md, 'Draw every input')")
    return problems


def _drawn_labels(first: dict[str, list], second: dict[str, list], src: str) -> list[str]:
    problems = []
    for name in sorted(first):
        moved = [a.label for a, b in zip(first[name], second[name]) if a.label != b.label]
        if moved or len(first[name]) != len(second[name]):
            problems.append(f"{src}/hidden: check {name!r} has case labels that change with the draw "
                            f"({_shown(moved) or 'a different number of cases'}): a label reaches the student's "
                            "report, so it would show values drawn from the grader's secret. Label a case by what "
                            "the check set (shapes, a hand-picked setting), never by a drawn value")
    return problems
