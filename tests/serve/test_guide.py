"""The grader's guide: questions and model answers from the solution notebook, notes and rubric entries
from hidden/handgrading.yaml, for the toy class and for the kit's own assignments."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.config import ConfigError, RubricKind, load_rubric
from grader.serve.guide import GUIDE_FILE, load_guide
from grader.serve.questions import scan_notebook

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


def test_the_toy_guide_has_questions_model_answers_notes_and_entries(klass):
    guide = load_guide(klass.solution)
    why, concepts = guide["ex1_why"], guide["concepts"]
    assert why.exercise == "ex1" and why.automatic == ("ex1_runs",)
    assert why.parts[0].question.startswith("**Question (ex1_why).**")
    assert why.parts[0].model_answer == "Because matrix products are associative: $(QK^T)V = Q(K^TV)$."
    assert why.notes == ("Full marks need the reassociation named.", "**Measured (solution run).** 42 tokens")
    assert [(e.points, e.comment) for e in why.entries][:2] == [(2, "Correct and complete"),
                                                                (1, "Names the property but gives no reason")]
    assert concepts.exercise == "" and [p.answer for p in concepts.parts] == ["a_concept", "b_concept"]
    assert concepts.automatic == () and concepts.notes == ()  # after an untagged heading: no exercise


def test_no_solution_tree_is_an_empty_guide():
    assert load_guide(None) == {}


@pytest.mark.parametrize("text, match", [
    ("items: [1, 2]", "expected one key, 'items'"),
    ("items:\n  ex1_why: {model: x}", "unknown key 'model'"),
    ("items:\n  ex1_why: {entries: [{points: yes, comment: a}]}", "points must be a number"),
    ("items:\n  ex1_why: {entries: [{points: 1}]}", r"each entry is \{points: N, comment: TEXT\}"),
    ("items:\n  ex1_why: {entries: [{points: 1, comment: ' '}]}", "an entry needs a comment"),
    ("items:\n  ex1_why: {notes: [a]}", "expected text"),
    ("items: {a: [", "not valid YAML"),
])
def test_a_wrong_guide_file_names_the_file_and_what_to_fix(klass, text, match):
    (klass.solution / GUIDE_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=match) as error:
        load_guide(klass.solution)
    assert "handgrading.yaml" in str(error.value)


def test_an_answer_belongs_to_the_exercise_of_its_section():
    cells = [{"cell_type": "markdown", "source": "## Exercise 2", "metadata": {}},
             {"cell_type": "code", "source": "x", "metadata": {"tags": ["exercise:ex2"]}},
             {"cell_type": "markdown", "source": "Q?", "metadata": {"tags": ["question"]}},
             {"cell_type": "markdown", "source": "**Answer:**\n\nA.", "metadata": {"tags": ["answer:two"]}},
             {"cell_type": "markdown", "source": "### Out loud", "metadata": {}},
             {"cell_type": "markdown", "source": "**Answer:**\n\nB.", "metadata": {"tags": ["answer:loud"]}}]
    found = scan_notebook({"cells": cells})
    assert found.answers["two"].exercise == "ex2" and found.answers["two"].question == "Q?"
    assert found.answers["loud"].exercise == "" and found.answers["loud"].question == ""


@pytest.mark.parametrize("assignment", ["linear-attention-basics", "linear-attention-hybrid"])
def test_every_written_answer_of_the_kits_assignments_has_a_question_model_answer_and_entries(assignment):
    guide = load_guide(SOLUTIONS / assignment)
    manual = [i for i in load_rubric(SOLUTIONS / assignment).items if i.kind == RubricKind.MANUAL]
    assert set(guide) == {i.id for i in manual}
    for item in manual:
        spec = guide[item.id]
        assert all(p.question and p.model_answer for p in spec.parts), item.id
        assert spec.entries, f"{item.id}: no rubric entries in {assignment}/{GUIDE_FILE}"
        assert max(e.points for e in spec.entries) <= item.points
        best = sum(e.points for e in spec.entries if e.points > 0)
        assert best >= item.points, f"{item.id}: the positive entries cannot reach {item.points:g} points"
