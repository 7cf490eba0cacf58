"""The build's static validation, on the toy assignment with one instructor mistake at a time.

Each mistake must fail the build (nothing written) with one message naming the file in
`assignments/`, the line (or cell) and what to do, before any test or notebook runs."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader.authoring.build import BuildError, build, build_assignment

TOY = Path(__file__).parents[1] / "fixtures" / "toy-root"


@pytest.fixture
def toy(tmp_path) -> Path:
    shutil.copytree(TOY, tmp_path / "root")
    return tmp_path / "root" / "assignments" / "toy"


def errors(folder: Path) -> list[str]:
    with pytest.raises(BuildError, match="assignments/") as info:
        build_assignment(folder, folder.parents[1])
    return [str(e) for e in info.value.errors]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def edit_cell(folder: Path, index: int, fn) -> None:
    path = folder / "toy.ipynb"
    nb = json.loads(path.read_text())
    cell = nb["cells"][index]
    cell["source"] = fn("".join(cell["source"]))
    path.write_text(json.dumps(nb, indent=1))


def test_the_toy_assignment_builds_as_it_is(toy):
    """Does an assignment written against today's documented API pass the validation untouched?"""
    built = build_assignment(toy, toy.parents[1])
    assert "toy.py" in built.student and "hidden/verdicts.py" in built.solution


CONFIG_MISTAKES = [
    ("rubric.yaml", "total: 5", "total: 6",
     "assignments/toy/rubric.yaml:19: total is 6 but the items add up to 5 (write 'total: 5', or change the items' "
     "points)"),
    ("rubric.yaml", "    cells: [ex1]", "    cells: [ex1]\n    answers: [your_turn]",
     "assignments/toy/rubric.yaml:7: item 'notebook_runs': has cells and answers; an item grades one kind of thing "
     "(split it into two items, one with cells, one with answers)"),
    ("rubric.yaml", "checks: [cumsum_matches]", "checks: [cumsum_matchs]",
     "assignments/toy/rubric.yaml:5: item 'cumsum': check 'cumsum_matchs' is not defined in hidden/verdicts.py "
     "(defined: cumsum_matches)"),
    ("rubric.yaml", "tests: [test_cumsum]", "tests: [test_cumsm]",
     "assignments/toy/rubric.yaml:6: item 'cumsum': test 'test_cumsm' is not defined in tests/test_toy.py (defined: "
     "test_cumsum, test_double)"),
    ("rubric.yaml", "cells: [ex1]", "cells: [ex2]",
     "assignments/toy/rubric.yaml:10: item 'notebook_runs': exercise 'ex2': no notebook cell is tagged 'exercise:ex2'"),
    ("rubric.yaml", "manual: [why]", "manual: [whyy]",
     "assignments/toy/rubric.yaml:18: item 'why': free-text answer 'whyy': no notebook cell is tagged 'answer:whyy'"),
    ("rubric.yaml", "answers: [your_turn]", "answers: [your_turm]",
     "assignments/toy/rubric.yaml:14: item 'your_turn': answer 'your_turm' has no entry in answer_key.yaml"),
    ("rubric.yaml", "    cells: [ex1]", "    cell: [ex1]",
     "assignments/toy/rubric.yaml:10: items[1]: unknown key 'cell' (known: id, title, points, checks, tests, cells, "),
    ("hidden/probes.py", "def running_sum(x):", "def running_total(x):",
     "assignments/toy/hidden/verdicts.py:7: check 'cumsum_matches' drives probe 'running_sum', which "
     "hidden/probes.py does not define (defined: running_total)"),
    ("assignment.yaml", "notebook: toy.ipynb", "notebook: toy2.ipynb",
     "assignments/toy/assignment.yaml:3: notebook: 'toy2.ipynb' does not exist in assignments/toy/"),
    ("assignment.yaml", "modules: [toy]", "modules: [toy, toys]",
     "assignments/toy/assignment.yaml:5: modules: 'toys' is neither toys.py nor toys/__init__.py in the student tree"),
    ("answer_key.yaml", "  type: vector", "  type: vectr",
     "assignments/toy/answer_key.yaml:2: your_turn: unknown type 'vectr'"),
    ("tests/test_toy.py", "from toy import double, running_sum",
     "from toy import double, running_sum\nfrom hidden.verdicts import cumsum_matches",
     "assignments/toy/tests/test_toy.py:3: this file reaches students but uses 'hidden.verdicts' from hidden/"),
    ("toy.py", "    # BEGIN SOLUTION\n    return torch.cumsum(x, dim=-1)\n    # END SOLUTION",
     "    # BEGIN SOLUTION\n    if True:\n    # END SOLUTION\n        return torch.cumsum(x, dim=-1)",
     "assignments/toy/toy.py:15: the student version (what students get) does not compile: unexpected indent (a "
     "solution region was replaced by a stub here: does the region cover whole statements?)"),
    ("toy.py", "return torch.cumsum(x, dim=-1)", "return torch.cumsum(x, dim=-1))",
     "assignments/toy/toy.py:13: the solution version (the solution) does not compile: unmatched ')'"),
]


@pytest.mark.parametrize("rel, old, new, message", CONFIG_MISTAKES, ids=[m[3].split(": ", 1)[1][:40]
                                                                         for m in CONFIG_MISTAKES])
def test_each_static_mistake_fails_the_build_at_its_line(toy, rel, old, new, message):
    edit(toy / rel, old, new)
    found = errors(toy)
    assert any(e.startswith(message) for e in found), found


def test_answer_ids_must_match_between_key_and_notebook(toy):
    """Issue 12, mistake 2: a misspelt answer id (every student would get 'no answer given')."""
    edit_cell(toy, 5, lambda s: s.replace("your_turn:", "your_trun:"))
    assert errors(toy) == [
        "assignments/toy/answer_key.yaml:2: 'your_turn' is never asked: no 'answers' cell of the notebook has a line "
        "'your_turn:' (add it there, or remove the entry)",
        "assignments/toy/toy.ipynb: cell 5: the answers cell asks for 'your_trun', which answer_key.yaml does not "
        "define (add an entry, or fix the id)",
    ]


def test_a_locked_cell_importing_hidden_fails_the_build(toy):
    """Issue 12, mistake 2: a locked cell importing hidden.reference would break every student's notebook."""
    edit_cell(toy, 1, lambda s: s + "\nfrom hidden.verdicts import cumsum_matches")
    assert errors(toy) == [
        "assignments/toy/toy.ipynb: cell 1, line 4: this cell reaches students but uses 'hidden.verdicts' from "
        "hidden/, which only the solution tree and the grader have: every student's copy would fail here. Use what "
        "students have, or move it into a BEGIN/END HIDDEN region, a 'hidden' cell or the hidden/ folder"]


def test_a_marker_in_an_untagged_file_would_reach_students(toy):
    """The last guard: a .txt is copied as it is, so a marker in it fails the build instead of shipping."""
    (toy / "notes.txt").write_text("Grading notes\n# BEGIN SOLUTION\nthe answer is 42\n")
    assert errors(toy) == [
        "assignments/toy/notes.txt:2: '# BEGIN SOLUTION' looks like a marker and would reach students (.txt files "
        "are copied as they are; markers work in .py, .yaml, .md and .ipynb files): remove it, or keep the file "
        "under hidden/"]


def test_a_failed_validation_writes_nothing(toy, caplog):
    root = toy.parents[1]
    edit(toy / "rubric.yaml", "total: 5", "total: 7")
    assert build(root) == 1
    assert not (root / "solutions").exists() or not any((root / "solutions").iterdir())
    assert "build failed: 1 error(s); nothing was written" in caplog.text


@pytest.mark.parametrize("task", ["build", "check", "release"])
def test_an_instructor_error_prints_one_message_and_debug_shows_the_traceback(toy, task):
    """No task prints a traceback for an instructor's mistake; `--debug` does."""
    import subprocess
    import sys

    edit(toy / "rubric.yaml", "total: 5", "total: 6")
    tasks = Path(__file__).parents[2] / "tasks.py"
    root = str(toy.parents[1])
    plain = subprocess.run([sys.executable, str(tasks), "--root", root, task], capture_output=True, text=True)
    assert plain.returncode == 1
    assert "Traceback" not in plain.stderr
    assert "assignments/toy/rubric.yaml:19: total is 6 but the items add up to 5" in plain.stderr
    debug = subprocess.run([sys.executable, str(tasks), "--root", root, "--debug", task], capture_output=True,
                           text=True)
    assert debug.returncode != 0 and "Traceback" in debug.stderr
