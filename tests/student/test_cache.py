"""`grade --local` re-runs only what changed (grader/grading/local_cache.py): the keys and the reuse."""
from __future__ import annotations

import json
from pathlib import Path

from grader.grading import public_tests
from grader.grading.execute import NotebookRun
from grader.results import CellOutcome, Figure
from grader.student import cache as local_cache
from grader.student.cache import LocalCache


def _folder(tmp_path: Path) -> tuple[Path, dict]:
    folder = tmp_path / "hw"
    (folder / "tests").mkdir(parents=True)
    (folder / "toy.py").write_text("def f(x):\n    return x\n")
    (folder / "tests" / "test_toy.py").write_text("def test_f():\n    pass\n")
    (folder / "assignment.yaml").write_text("name: toy\n")
    nb = {"cells": [{"cell_type": "code", "id": "a", "metadata": {"tags": []}, "source": "import toy"},
                    {"cell_type": "markdown", "id": "b", "metadata": {"tags": ["answer:why"]}, "source": "because"}]}
    (folder / "toy.ipynb").write_text(json.dumps(nb))
    return folder, nb


def _keys(folder: Path, nb: dict) -> tuple[str, str]:
    return (local_cache.notebook_key(folder, "toy.ipynb", nb, "tests/test_toy.py"),
            local_cache.tests_key(folder, "toy.ipynb"))


def test_a_stage_is_rerun_only_when_what_it_can_use_changed(tmp_path):
    folder, nb = _folder(tmp_path)
    first = _keys(folder, nb)
    assert _keys(folder, nb) == first
    nb["cells"][1]["source"] = "because each output adds only earlier inputs"  # an answer: nothing re-runs
    (folder / "toy.ipynb").write_text(json.dumps(nb))
    (folder / "grade-report").mkdir()
    (folder / "grade-report" / "report.html").write_text("<html>")
    assert _keys(folder, nb) == first
    (folder / "tests" / "test_toy.py").write_text("def test_f():\n    assert True\n")  # tests: only the tests
    second = _keys(folder, nb)
    assert second[0] == first[0] and second[1] != first[1]
    (folder / "toy.py").write_text("def f(x):\n    return 2 * x\n")  # the module: both
    third = _keys(folder, nb)
    assert third[0] != second[0] and third[1] != second[1]
    nb["cells"][0]["source"] = "import toy\ntoy.f(1)"  # a code cell: the notebook
    assert _keys(folder, nb)[0] != third[0] and _keys(folder, nb)[1] == third[1]
    before = _keys(folder, nb)
    (folder / "data.csv").write_text("1,2\n")  # a file the notebook could read: both
    after = _keys(folder, nb)
    assert after[0] != before[0] and after[1] != before[1]


def test_results_are_reused_under_the_same_key_and_said_so(tmp_path):
    cache = LocalCache(tmp_path)
    calls = []
    run = NotebookRun((CellOutcome(0, "a", "ok", "ex1", seconds=0.5, figures=1),), (Figure(0, "iVBORw0KGgo="),),
                      "ok", (), 3.0, ("zygote", "uid"), 80.0, 0.9)

    def execute():
        calls.append(1)
        return run

    assert cache.notebook("k1", execute) == run
    again = cache.notebook("k1", execute)
    assert len(calls) == 1 and again.cells == run.cells and again.figures == run.figures
    assert again.status == "ok" and "reused" in again.notes[0]
    cache.notebook("k2", execute)
    assert len(calls) == 2  # another key: run again (and only the latest is kept)
    counts = public_tests.TestCounts(2, 1, {"test_a": True, "test_b": False})
    assert cache.tests("t", lambda: counts) == counts
    reused = cache.tests("t", lambda: (_ for _ in ()).throw(AssertionError("must not run")))
    assert (reused.passed, reused.failed, reused.outcomes) == (2, 1, counts.outcomes) and "reused" in reused.notes[0]


def test_a_run_that_did_not_finish_is_not_kept(tmp_path):
    cache = LocalCache(tmp_path)
    killed = NotebookRun((), (), "timeout", ("too slow",), 60.0, ())
    calls = []
    cache.notebook("k", lambda: calls.append(1) or killed)
    cache.notebook("k", lambda: calls.append(1) or killed)
    assert len(calls) == 2
