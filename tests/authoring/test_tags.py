"""The tag syntax on real fixture files (tests/fixtures/tags/), one rule or fault per file."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.authoring.build import BuiltAssignment
from grader.authoring.leaks import leak_problems, split_secrets
from grader.authoring.tags import MARKDOWN_STUB, Split, TagError, split_text

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tags"
KINDS = {".py": "python", ".yaml": "yaml", ".md": "markdown"}


def split(name: str) -> Split:
    path = FIXTURES / name
    return split_text(path.read_text(), KINDS[path.suffix], f"fixtures/tags/{name}")


def stub(name: str, indent: str) -> str:
    return f'{indent}raise NotImplementedError("{name}: not implemented yet (see the docstring)")'


# --- regions ---------------------------------------------------------------------------------------------------

def test_solution_region_becomes_a_stub_naming_the_function():
    """Is a solution region replaced, at its indentation, by a stub that names the enclosing def?"""
    s = split("default_stub_names_function.py")
    assert stub("linear_attention", "    ") in s.student.split("\n")
    assert "einsum" not in s.student and "BEGIN" not in s.student
    assert '    scores = torch.einsum("id,jd->ij", q, k).tril()' in s.solution.split("\n")
    assert "SOLUTION" not in s.solution


def test_default_stub_names_class_and_method_and_nested_function():
    """Does the stub say Class.method inside a class, and the inner def's name for a nested function?"""
    lines = split("default_stub_names_method.py").student.split("\n")
    assert stub("Retention.forward", " " * 8) in lines
    assert stub("readout", " " * 8) in lines
    assert not any("Retention.readout" in ln for ln in lines)


def test_solution_at_module_level_gets_a_generic_stub():
    """Does a top-level solution region still get a Python stub (there is no def to name)?"""
    s = split_text("x = 1\n# BEGIN SOLUTION\ny = 2\n# END SOLUTION\n", "python", "m.py")
    assert s.student.split("\n")[1].startswith('raise NotImplementedError("')
    assert s.solution == "x = 1\ny = 2\n"


def test_explicit_stub_replaces_the_default_and_is_dropped_from_the_solution():
    """Does a STUB block right after END SOLUTION replace the default stub, and vanish from the solution tree?"""
    s = split("explicit_stub.py")
    assert s.student == (
        'def chunk_sizes(total, chunk):\n'
        '    """Sizes of the chunks that cover `total` tokens."""\n'
        '    sizes = []  # fill me\n'
        '    return sizes\n'
    )
    assert "NotImplementedError" not in s.student
    assert "fill me" not in s.solution and "STUB" not in s.solution
    assert "    full, rest = divmod(total, chunk)" in s.solution.split("\n")


def test_hidden_region_is_dropped_for_students_and_kept_in_the_solution():
    """Is a HIDDEN region absent (no stub) from the student version and kept, markers removed, in the solution?"""
    s = split("hidden_region.py")
    assert "HIDDEN_TOLERANCE_TABLE" not in s.student and "NotImplementedError" not in s.student
    assert s.student.startswith("import numpy as np\n\n\n\ndef tolerance")
    assert 'HIDDEN_TOLERANCE_TABLE = {"fp64": 1e-10}' in s.solution.split("\n")
    assert "BEGIN" not in s.solution and "END" not in s.solution


def test_one_line_python_assignment_becomes_ellipsis_and_other_lines_are_dropped():
    """Does `name = value  # SOLUTION` become `name = ...  # YOUR ANSWER`, and any other such line disappear?"""
    s = split("one_line_python.py")
    assert s.student == (
        "def exercise():\n"
        "    answer = ...  # YOUR ANSWER\n"
        "    return answer\n"
        "\n"
        "gamma, chunk = ...  # YOUR ANSWER\n"
    )
    assert "    answer = compute_the_real_answer(42)" in s.solution.split("\n")
    assert "# SOLUTION" not in s.solution


def test_one_line_yaml_keeps_the_key_and_blanks_the_value():
    """Does `key: value  # SOLUTION` in YAML become `key:`, keeping indentation and list dashes?"""
    s = split("one_line_yaml.yaml")
    assert s.student == (
        "example_1_1: [0.5, 3]\n"
        "mha_cache_one_layer:\n"
        "choices:\n"
        "  - chosen_option:\n"
        "nested:\n"
        "  gqa_cache_one_layer:\n"
    )
    assert "mha_cache_one_layer: 16.384 GB" in s.solution.split("\n")


def test_markdown_regions_and_yaml_block():
    """Do `<!-- BEGIN SOLUTION -->` regions become the Markdown stub, HIDDEN vanish, and a yaml block keep its keys?"""
    s = split("markdown_regions.md")
    lines = s.student.split("\n")
    assert MARKDOWN_STUB in lines
    assert "grouped heads" not in s.student and "Grader note" not in s.student
    assert "mha_cache_one_layer:" in lines and "gqa_cache_one_layer:" in lines
    assert "16.384" not in s.student and "4.096" not in s.student
    assert "Because grouped heads share one key and value cache per group." in s.solution.split("\n")
    assert "Grader note: accept per-head answers for partial credit." in s.solution.split("\n")
    assert "<!--" not in s.solution and "SOLUTION" not in s.solution


@pytest.mark.parametrize("name", ["comments_that_are_not_markers.py", "headings_that_are_not_markers.md"])
def test_ordinary_comments_starting_with_begin_or_end_are_not_markers(name):
    """Are `# End of the loop` and a Markdown heading `# End-to-end example` left alone, in both trees?"""
    text = (FIXTURES / name).read_text()
    s = split(name)
    assert s.student == s.solution == text
    assert split_secrets(s, name, "python" if name.endswith(".py") else "markdown") == frozenset()


def test_untagged_text_is_unchanged_including_the_final_newline():
    """Does a file without markers come out byte-identical in both versions?"""
    text = "def f():\n    return 1\n\n"
    s = split_text(text, "python", "f.py")
    assert s.student == s.solution == text


# --- secret lines (material for the leak scan) ------------------------------------------------------------------

def test_secret_holds_solution_and_hidden_lines_but_not_public_ones():
    """Are solution/hidden lines secret, while short lines, comments and lines also shown to students are not?"""
    text = (
        "def f(x):\n"
        "    # BEGIN SOLUTION\n"
        "    total = x.sum(dim=-1)\n"
        "    # a comment in the solution\n"
        "    y = x\n"
        "    return total.float()\n"
        "    # END SOLUTION\n"
        "\n"
        "def g(x):\n"
        "    return total.float()\n"
        "\n"
        "# BEGIN HIDDEN\n"
        "HIDDEN_SEED_VALUE = 20240601\n"
        "# END HIDDEN\n"
        "answer_value = 6 * 7  # SOLUTION\n"
    )
    s = split_text(text, "python", "f.py")
    assert split_secrets(s, "f.py") == {"total = x.sum(dim=-1)", "return total.float()", "HIDDEN_SEED_VALUE = 20240601",
                                        "answer_value = 6 * 7"}


def test_explicit_stub_lines_are_public():
    """Is a STUB body (shown to students) never counted as secret, even if a solution line repeats it?"""
    text = ("def f():\n    # BEGIN SOLUTION\n    result_value = []\n    result_value.append(compute(1))\n"
            "    # END SOLUTION\n    # BEGIN STUB\n    result_value = []\n    # END STUB\n")
    s = split_text(text, "python", "f.py")
    # the region's lines are looked for ...
    assert split_secrets(s, "f.py") == {"result_value = []", "result_value.append(compute(1))"}
    built = BuiltAssignment("t", student={"f.py": s.student.encode()}, solution={"f.py": s.solution.encode()},
                            lines={"f.py": (s.student_lines, s.solution_lines)}, splits={"f.py": s})
    assert leak_problems(built) == []  # ... but not where its own STUB block shows it


# --- errors: each names the file and the exact line -------------------------------------------------------------

ERRORS = [
    ("end_without_begin.py", 3, "'END SOLUTION' has no matching 'BEGIN SOLUTION'"),
    ("end_of_another_region.py", 4,
     "'END HIDDEN' has no matching 'BEGIN HIDDEN'; the open region is SOLUTION (line 2)"),
    ("nested_solution.py", 4, "inside the SOLUTION region opened at line 2; regions do not nest"),
    ("unclosed_hidden.py", 3, "'BEGIN HIDDEN' is never closed"),
    ("stub_not_after_solution.py", 6, "'BEGIN STUB' must directly follow an 'END SOLUTION' line"),
    ("misspelled_marker.py", 2, "unknown marker word 'SOLUTON'"),
    ("lowercase_marker.py", 2, "unknown marker '# begin solution'"),
    ("marker_with_trailing_words.py", 2, "unknown marker '# BEGIN SOLUTION (the fast path)'"),
    ("unclosed_markdown_solution.md", 5, "'BEGIN SOLUTION' is never closed"),
    ("hidden_region_in_yaml_never_closed.yaml", 4, "'BEGIN HIDDEN' is never closed"),
]


@pytest.mark.parametrize("name, line, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_tag_error_names_file_and_line(name, line, message):
    """Does each tagging mistake raise a TagError located at `file:line`, saying what is wrong?"""
    with pytest.raises(TagError, match=re.escape(message)) as info:
        split(name)
    assert str(info.value).startswith(f"fixtures/tags/{name}:{line}: ")
    assert message in str(info.value)
    assert info.value.line == line


def test_line_offset_shifts_reported_lines():
    """Is `line_offset` added to the reported line (for texts embedded in a larger file)?"""
    with pytest.raises(TagError, match=r"^f\.py:12: "):
        split_text("x = 1\n# END SOLUTION\n", "python", "f.py", line_offset=10)
