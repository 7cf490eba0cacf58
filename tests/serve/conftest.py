"""A small class to grade, built in seconds from synthetic files: a solution tree (assignment.yaml,
rubric.yaml, a notebook with questions and model answers, hidden/handgrading.yaml) and, per student, the
report files `grade batch` writes (report.json and friends, then gradebook.csv and summary.html).

Five students answer `ex1_why` (2 points, exercise ex1, with a figure) and `concepts` (two answers, 4
points); `mallory` answers with markup, a bidi override and 30,000 characters, written to report.json
as is (not through the sanitizer that `grade batch` uses), as a tampered report would be.
"""
from __future__ import annotations

import base64
import io
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure as MplFigure
from werkzeug.serving import make_server

from grader.report.render import write_reports
from grader.report.summary import write_class_summary
from grader.results import CellOutcome, Figure, ItemResult, Report

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("LRKIT_ARTIFACTS", ROOT / "artifacts")) / "serve"
TOKEN = "test-token-0123456789abcdef"
HOSTILE = ("<script>window.__pwned = 1</script><img src=x onerror=\"window.__pwned = 2\"> "
           "\u202eexe.elif\u202c **bold** $a^2$ " + "A" * 30_000)
ANSWERS = {
    "alice": "Because the score factors as $\\varphi(q)\\cdot\\varphi(k)$, so the sum regroups.",
    "bob": "They are the same function computed in another order.",
    "carol": "",
    "dave": "Associativity: $(QK^T)V = Q(K^TV)$, so **both** give the same output.",
    "mallory": HOSTILE,
}
RUBRIC = """\
items:
  - {id: ex1_runs, title: Exercise 1 runs, points: 1, cells: [ex1]}
  - {id: ex1_why, title: "Exercise 1, why the two faces agree", points: 2, manual: [ex1_why]}
  - {id: concepts, title: Two concepts in your words, points: 4, manual: [a_concept, b_concept]}
total: 7
"""
ASSIGNMENT = """\
name: toy-serve
title: Toy for grade serve
notebook: toy.ipynb
student_files: [toy.ipynb]
modules: []
public_tests: tests/test_toy.py
baseline: {passed: 0, failed: 0}
"""
GUIDE = """\
items:
  ex1_why:
    notes: Full marks need the reassociation named.
    entries:
      - {points: 2, comment: Correct and complete}
      - {points: 1, comment: Names the property but gives no reason}
      - {points: -1, comment: No numbers}
  concepts:
    entries:
      - {points: 2, comment: First concept right}
      - {points: 2, comment: Second concept right}
"""


def _cell(kind: str, source: str, *tags: str) -> dict:
    cell = {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": source}
    return {**cell, "outputs": [], "execution_count": None} if kind == "code" else cell


NOTEBOOK = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
    _cell("markdown", "# Toy"),
    _cell("markdown", "## Exercise 1"),
    _cell("code", "y = f(x)", "exercise:ex1"),
    _cell("markdown", "**Measured (solution run).** 42 tokens", "hidden"),
    _cell("markdown", "**Question (ex1_why).** Why must the two faces agree?", "question"),
    _cell("markdown", "**Answer:**\n\nBecause matrix products are associative: $(QK^T)V = Q(K^TV)$.", "answer:ex1_why"),
    _cell("markdown", "## Concepts"),
    _cell("markdown", "**Question (a_concept).** What is a state?", "question"),
    _cell("markdown", "**Answer:**\n\nA fixed-size summary of the past.", "answer:a_concept"),
    _cell("markdown", "**Question (b_concept).** What does decay do?", "question"),
    _cell("markdown", "**Answer:**\n\nIt forgets old tokens geometrically.", "answer:b_concept"),
]}


def png() -> str:
    fig = MplFigure(figsize=(3, 2), dpi=60)
    fig.add_subplot().plot([0, 1, 2], [0, 1, 4])
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def report_of(name: str, answer: str, figure: str) -> Report:
    why = (ItemResult("ex1_why", "Exercise 1, why the two faces agree", 0.0, 2.0, "manual", "manual",
                      messages=("awaiting a grader's reading", f"answer: {answer}")) if answer else
           ItemResult("ex1_why", "Exercise 1, why the two faces agree", 0.0, 2.0, "manual", "manual",
                      messages=("answer ex1_why is blank",)))
    concepts = ItemResult("concepts", "Two concepts in your words", 0.0, 4.0, "manual", "manual",
                          messages=("awaiting a grader's reading", f"answer: {name}'s state",
                                    f"answer: {name}'s decay"))
    runs = ItemResult("ex1_runs", "Exercise 1 runs", 1.0, 1.0, "passed", "cells")
    return Report("toy-serve", name, "graded", 1.0, 7.0, (runs, why, concepts), True,
                  cells=(CellOutcome(2, "c2", "ok", "ex1", figures=1),), figures=(Figure(2, figure),))


@dataclass(frozen=True)
class Klass:
    out: Path  # what `grade batch --out` wrote
    solution: Path  # the assignment's solution tree
    names: tuple[str, ...]


def build_class(base: Path) -> Klass:
    solution = base / "solution"
    (solution / "hidden").mkdir(parents=True)
    (solution / "assignment.yaml").write_text(ASSIGNMENT, encoding="utf-8")
    (solution / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    (solution / "hidden" / "handgrading.yaml").write_text(GUIDE, encoding="utf-8")
    (solution / "toy.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    out, figure, reports = base / "out", png(), []
    for name, answer in ANSWERS.items():
        report = report_of(name, answer, figure)
        write_reports(report, out / name)
        if name == "mallory":  # as tampered: not through the sanitizer
            (out / name / "report.json").write_text(json.dumps(report.to_dict()), encoding="utf-8")
        reports.append(report)
    write_class_summary(reports, out, rubric_items=[("ex1_runs", "Exercise 1 runs", 1.0),
                                                    ("ex1_why", "Exercise 1, why the two faces agree", 2.0),
                                                    ("concepts", "Two concepts in your words", 4.0)])
    return Klass(out, solution, tuple(ANSWERS))


@pytest.fixture
def klass(tmp_path) -> Klass:
    return build_class(tmp_path)


class Running:
    """The app on a free port of 127.0.0.1, served by threads as `grade serve` serves it."""

    def __init__(self, app):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.base = f"http://127.0.0.1:{self.server.server_port}"
        self.url = f"{self.base}/?token={TOKEN}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
