"""Each check's cases run in a fresh child of the driver: what one check leaves behind in the student's
process (a module-level counter, a class attribute, a cache updated in place) cannot change another
check's verdict, while the cases of one check still share their child (a check about state kept between
calls can see it)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from grader import sandbox
from grader.grading.probing import run_checks

VERDICTS = '''
from grader.checks import Case, check


@check(probe="tick")
def a_first():
    """Two calls in one check see one process."""
    yield Case(label="first", inputs={"k": 1}, expect={"n": 1.0})
    yield Case(label="second", inputs={"k": 1}, expect={"n": 2.0})


@check(probe="tick")
def b_second():
    """Another check starts from a fresh import."""
    yield Case(label="first", inputs={"k": 1}, expect={"n": 1.0})


@check(probe="notebook_here")
def c_no_notebook():
    """The checks import modules only: the notebook is not in their copy of the submission."""
    yield Case(label="listing", inputs={"k": 0}, expect={"n": 0.0})
'''


def _tree(base: Path) -> Path:
    tree = base / "iso"
    (tree / "hidden").mkdir(parents=True)
    (tree / "assignment.yaml").write_text(textwrap.dedent("""\
        name: iso
        title: isolation
        notebook: iso.ipynb
        student_files: [mod.py]
        modules: [mod]
        public_tests: tests/test_mod.py
        baseline: {passed: 0, failed: 0}
        limits: {cell_timeout_s: 30, notebook_timeout_s: 60, checks_timeout_s: 60, case_timeout_s: 10,
                 memory_mb: 2048}
        """))
    (tree / "hidden" / "__init__.py").write_text("")
    (tree / "hidden" / "verdicts.py").write_text(VERDICTS)
    (tree / "hidden" / "probes.py").write_text(
        "import os\n\n\ndef tick(k):\n    import mod\n    return {'n': float(mod.tick(k))}\n\n\n"
        "def notebook_here(k):\n    return {'n': float(os.path.exists(os.path.join(os.getcwd(), 'iso.ipynb')))}\n")
    return tree


def test_a_check_never_sees_what_another_check_left_in_the_students_process(tmp_path):
    tree = _tree(tmp_path)
    student = tmp_path / "student"
    student.mkdir()
    (student / "iso.ipynb").write_text("{}")  # a cost run would hold it in its charged scratch space
    (student / "mod.py").write_text("calls = 0\n\n\ndef tick(k):\n    global calls\n    calls += k\n    return calls\n")
    run = run_checks(tree, student, unsandboxed=not sandbox.sandbox_available())
    verdicts = {(o.check, o.label): o.passed for o in run.outcomes}
    assert verdicts == {("a_first", "first"): True, ("a_first", "second"): True, ("b_second", "first"): True,
                        ("c_no_notebook", "listing"): True}, \
        [o.message for o in run.outcomes if not o.passed]
