"""Markers the kit does not speak: nbgrader's are translated, otter's and near-misses are errors that
say what to write instead, markers inside strings are errors, and ordinary lines stay ordinary."""
from __future__ import annotations

import json
import re

import pytest

from grader.authoring import markers
from grader.authoring.leaks import cell_secrets
from grader.authoring.notebook_tags import split_notebook
from grader.authoring.tags import TagError, split_text

NBGRADER = (
    "def f(x):\n"
    '    """Double x."""\n'
    "    ### BEGIN SOLUTION\n"
    "    return 2 * x\n"
    "    ### END SOLUTION\n"
    "\n"
    "### BEGIN HIDDEN TESTS\n"
    "assert f(2) == 4, 'the hidden test'\n"
    "### END HIDDEN TESTS\n"
)


def test_nbgrader_regions_are_translated_to_the_kits():
    """Do `### BEGIN SOLUTION` and `### BEGIN HIDDEN TESTS` mean exactly `# BEGIN SOLUTION` / `# BEGIN HIDDEN`?"""
    s = split_text(NBGRADER, "python", "f.py")
    kit = split_text(NBGRADER.replace("### BEGIN HIDDEN TESTS", "# BEGIN HIDDEN").replace(
        "### END HIDDEN TESTS", "# END HIDDEN").replace("###", "#"), "python", "f.py")
    assert (s.student, s.solution, s.regions) == (kit.student, kit.solution, kit.regions)
    assert 'raise NotImplementedError("f: not implemented yet (see the docstring)")' in s.student
    assert "2 * x" not in s.student and "hidden test" not in s.student
    assert "    return 2 * x" in s.solution.split("\n") and "BEGIN" not in s.solution


def test_nbgrader_markers_in_a_notebook_cell_never_ship_the_solution():
    """Issue 12, mistake 1: an nbgrader-style cell built with exit 0 and shipped its solution. Not any more."""
    cell = {"cell_type": "code", "metadata": {}, "source": "y = 1\n### BEGIN SOLUTION\nz = secret_formula(y)\n"
                                                           "### END SOLUTION\n", "outputs": [], "execution_count": None}
    nb = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    student, solution, cells = split_notebook(nb, "x.ipynb")
    assert "secret_formula" not in student and "NotImplementedError" in student
    assert "secret_formula" in solution and "z = secret_formula(y)" in cell_secrets(cells, "x.ipynb")


OTTER = [
    ("# BEGIN QUESTION", "tag the question's Markdown cell 'question'"),
    ("# END QUESTION", "tag the question's Markdown cell 'question'"),
    ("# BEGIN TESTS", "put tests students may run in tests/test_*.py and official checks in hidden/verdicts.py"),
    ("# BEGIN PROMPT", "between '# BEGIN STUB' and '# END STUB', directly after '# END SOLUTION'"),
    ("### BEGIN MARK SCHEME", "put marking notes between '<!-- BEGIN HIDDEN -->'"),
    ("=== BEGIN MARK SCHEME ===", "put marking notes between '<!-- BEGIN HIDDEN -->'"),
]


@pytest.mark.parametrize("line, fix", OTTER, ids=[o[0] for o in OTTER])
@pytest.mark.parametrize("kind", ["python", "markdown"])
def test_otter_and_mark_scheme_markers_are_errors_that_say_what_to_write(line, fix, kind):
    """Is each marker of another tool with no equivalent rejected at its line, saying what to write instead?"""
    with pytest.raises(TagError, match=re.escape(fix)) as info:
        split_text(f"intro\n{line}\nname: q1\n", kind, "q.md")
    assert info.value.line == 2
    assert str(info.value).startswith(f"q.md:2: {line!r} is ") and fix in str(info.value)


NEAR_MISSES = [
    ("# begin solution", "# BEGIN SOLUTION"),
    ("# BEGIN SOLUTON", "# BEGIN SOLUTION"),
    ("#BEGIN SOLUTIONS", "# BEGIN SOLUTION"),
    ("// BEGIN SOLUTION", "# BEGIN SOLUTION"),
    ("# BEGIN: SOLUTION", "# BEGIN SOLUTION"),
    ("# BEGIN_HIDDEN", "# BEGIN HIDDEN"),
    ("# End Hidden", "# END HIDDEN"),
    ("<!-- end solution -->", "<!-- END SOLUTION -->"),
    ("BEGIN SOLUTION", "# BEGIN SOLUTION"),
    ("== END STUB ==", "# END STUB"),
]


@pytest.mark.parametrize("line, guess", NEAR_MISSES, ids=[n[0] for n in NEAR_MISSES])
def test_near_misses_are_errors_suggesting_the_marker_they_resemble(line, guess):
    """Is a line that looks like a marker but is not one rejected, with a 'did you mean'?"""
    with pytest.raises(TagError, match="did you mean") as info:
        split_text(f"x = 1\n{line}\n", "markdown", "n.md")
    assert info.value.line == 2
    assert f"did you mean '{guess}'?" in str(info.value)


ORDINARY = ["# End of the loop", "# end of the hidden layer", "Begin testing with pytest.", "END_TESTS = 3",
            "# Beginning of the solution space", "## End-to-end example", "x = '# BEGIN SOLUTION'",
            "# The solution begins here"]


@pytest.mark.parametrize("line", ORDINARY)
def test_ordinary_lines_that_mention_begin_or_end_are_left_alone(line):
    """Are comments, headings and code that only mention BEGIN/END copied as they are, in both trees?"""
    text = f"{line}\n"
    s = split_text(text, "python" if "=" in line else "markdown", "o.py")
    assert s.student == s.solution == text
    assert not markers.marker_like(line)


def test_a_marker_inside_a_docstring_is_an_error():
    """Issue 12, mistake 5: a region opened inside a docstring gave a stub inside the docstring."""
    text = 'def f(x):\n    """Return x.\n\n    # BEGIN SOLUTION\n    """\n    return x\n    # END SOLUTION\n'
    with pytest.raises(TagError, match="is inside a string") as info:
        split_text(text, "python", "m.py")
    assert str(info.value).startswith("m.py:4: '# BEGIN SOLUTION' is inside a string (the string opened at line 2)")
    assert "move it out of the docstring" in str(info.value)


def test_a_marker_inside_a_string_in_a_notebook_cell_names_the_cell():
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": "text = '''\n# BEGIN HIDDEN\n'''\n"}
    nb = json.dumps({"cells": [{"cell_type": "markdown", "metadata": {}, "source": "hi"}, cell], "metadata": {},
                     "nbformat": 4, "nbformat_minor": 5})
    with pytest.raises(TagError, match=r"^x\.ipynb: cell 1, line 2: '# BEGIN HIDDEN' is inside a string"):
        split_notebook(nb, "x.ipynb")


def test_the_last_guard_recognises_every_tool_s_markers():
    """Would the scan of the generated student tree notice each kind of marker line?"""
    for line in ["# BEGIN SOLUTION", "### BEGIN HIDDEN TESTS", "# END QUESTION", "<!-- END STUB -->",
                 "// begin solution", "BEGIN TESTS", "=== BEGIN MARK SCHEME ==="]:
        assert markers.marker_like(line), line
