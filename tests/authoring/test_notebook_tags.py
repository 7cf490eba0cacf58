"""Notebook cells by role, on real fixture notebooks (tests/fixtures/tags/*.ipynb)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from grader.authoring.leaks import cell_secrets
from grader.authoring.notebook_tags import split_notebook
from grader.authoring.tags import MARKDOWN_STUB, TagError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tags"


def split(name: str) -> tuple[dict, dict, frozenset[str], str, str]:
    """(student, solution, secret, student_text, solution_text); cell sources joined into one string."""
    student, solution, cells = split_notebook((FIXTURES / name).read_text(), f"fixtures/tags/{name}")
    return joined(student), joined(solution), cell_secrets(cells, name), student, solution


def joined(text: str) -> dict:
    nb = json.loads(text)
    for cell in nb["cells"]:
        cell["source"] = "".join(cell["source"])
    return nb


@pytest.fixture(scope="module")
def roles():
    return split("cell_roles.ipynb")


def test_solution_cell_is_stubbed_for_students(roles):
    """Does a `solution` code cell become `# YOUR CODE HERE` + a raise naming its exercise, whole in the solution?"""
    student, solution, *_ = roles
    assert student["cells"][1]["source"] == '# YOUR CODE HERE\nraise NotImplementedError("ex1: not implemented yet")'
    assert solution["cells"][1]["source"] == "def double_plus_thousand(x):\n    return x * 2 + 1000\n"


def test_hidden_cell_exists_only_in_the_solution(roles):
    """Is a `hidden` cell removed from the student notebook and kept in the solution notebook?"""
    student, solution, *_ = roles
    assert len(solution["cells"]) == 8 and len(student["cells"]) == 7
    assert not any("hidden check" in c["source"] for c in student["cells"])
    assert "hidden check of the value" in solution["cells"][2]["source"]


def test_answer_cell_keeps_only_its_first_line(roles):
    """Does an `answer:<id>` cell keep its first line plus the Markdown placeholder, and the solution the full text?"""
    student, solution, *_ = roles
    assert student["cells"][2]["source"] == f"**Answer:**\n\n{MARKDOWN_STUB}"
    assert solution["cells"][3]["source"] == "**Answer:**\nBecause the running sum over j is a state."


def test_answers_cell_keeps_keys_with_blank_values(roles):
    """Does an `answers` cell keep its yaml keys, with the `# SOLUTION` values blanked?"""
    student, solution, *_ = roles
    assert student["cells"][3]["source"] == (
        "**Your numbers**\n\n```yaml\nmha_cache_one_layer:\ngqa_cache_one_layer:\n```")
    assert "mha_cache_one_layer: 16.384 GB" in solution["cells"][4]["source"]
    assert "SOLUTION" not in solution["cells"][4]["source"]


def test_in_cell_markers_work_as_in_files(roles):
    """Are BEGIN/END SOLUTION markers inside an untagged code cell handled as in a .py file?"""
    student, solution, *_ = roles
    assert student["cells"][4]["source"] == (
        'x = 1.0\nraise NotImplementedError("this part: not implemented yet (see the docstring)")\nprint(x)\n')
    assert solution["cells"][5]["source"] == "x = 1.0\ny = compute_the_thing(x)\nprint(x)\n"


def test_cell_ids_come_from_position_and_match_between_trees(roles):
    """Are ids `<exercise-or-answer-or-type>-<index>` from the source position, the same in both trees?"""
    student, solution, *_ = roles
    assert [c["id"] for c in solution["cells"]] == [
        "ex1-000", "ex1-001", "code-002", "ex1-why-003", "markdown-004", "code-005", "ex2-006", "markdown-007"]
    by_id = {c["id"]: c for c in solution["cells"]}
    assert [c["id"] for c in student["cells"]] == [i for i in by_id if i != "code-002"]
    for cell in student["cells"]:
        assert cell["metadata"] == by_id[cell["id"]]["metadata"]


def test_outputs_and_execution_counts_are_cleared(roles):
    """Do code cells come out with no outputs and a null execution count, and Markdown cells without those keys?"""
    student, solution, *_ = roles
    for nb in (student, solution):
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None
            else:
                assert "outputs" not in cell and "execution_count" not in cell


def test_metadata_is_sorted_and_normalised(roles):
    """Are all keys sorted, the kernelspec/language_info normalised and other notebook metadata dropped?"""
    *_, student_text, solution_text = roles
    for text in (student_text, solution_text):
        def check_sorted(pairs):
            keys = [k for k, _ in pairs]
            assert keys == sorted(keys)
            return dict(pairs)
        nb = json.loads(text, object_pairs_hook=check_sorted)
        assert nb["metadata"] == {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        }
        assert (nb["nbformat"], nb["nbformat_minor"]) == (4, 5)
        assert text.endswith("}\n")
    student = json.loads(student_text)
    assert student["cells"][5]["metadata"] == {"alpha": {"a": 2, "b": 1}, "tags": ["heavy", "exercise:ex2"], "zeta": 1}


def test_output_is_a_valid_nbformat_notebook(roles):
    """Do both outputs validate against the nbformat 4.5 schema?"""
    nbformat = pytest.importorskip("nbformat")
    *_, student_text, solution_text = roles
    for text in (student_text, solution_text):
        nbformat.validate(nbformat.reads(text, as_version=4))


def test_splitting_twice_gives_the_same_bytes():
    """Is the transform deterministic (nothing depends on time or on dict order)?"""
    assert split("cell_roles.ipynb")[3:] == split("cell_roles.ipynb")[3:]


def test_secret_holds_solution_hidden_and_answer_text(roles):
    """Are solution-cell, hidden-cell, answer-body and one-line answers secret, but nothing the student sees?"""
    student, _, secret, *_ = roles
    assert {
        "return x * 2 + 1000",
        "assert double_plus_thousand(1) == 1002, 'hidden check of the value'",
        "Because the running sum over j is a state.",
        "mha_cache_one_layer: 16.384 GB",
        "y = compute_the_thing(x)",
    } <= secret
    shown = {ln.strip() for c in student["cells"] for ln in c["source"].split("\n")}
    assert not secret & shown


# --- errors: each names the file, the cell and (for in-cell markers) the line -----------------------------------

ERRORS = [
    ("unknown_cell_tag.ipynb", "cell 1: ", "unknown cell tag 'soluton'"),
    ("solution_and_hidden_cell.ipynb", "cell 2: ", "cannot be both 'solution' and 'hidden'"),
    ("answers_on_code_cell.ipynb", "cell 1: ", "an 'answers' cell must be a Markdown cell"),
    ("answer_without_id.ipynb", "cell 1: ", "tag 'answer:' needs an id"),
    ("answer_id_with_capitals.ipynb", "cell 1: ", "tag 'answer:Ex1' needs an id"),
    ("misspelled_marker_in_cell.ipynb", "cell 3, line 3: ", "unknown marker word 'SOLUTON'"),
    ("unclosed_solution_in_cell.ipynb", "cell 1, line 2: ", "'BEGIN SOLUTION' is never closed"),
]


@pytest.mark.parametrize("name, location, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_notebook_error_names_file_cell_and_line(name, location, message):
    """Does each notebook mistake raise a TagError reading `file: cell N[, line M]: what is wrong`?"""
    with pytest.raises(TagError, match=re.escape(message)) as info:
        split(name)
    assert str(info.value).startswith(f"fixtures/tags/{name}: {location}")
    assert message in str(info.value)


def test_not_json_is_reported_with_its_line():
    """Is a notebook that is not JSON reported with the file and the JSON line?"""
    with pytest.raises(TagError, match=r"^x\.ipynb:2: not valid notebook JSON"):
        split_notebook('{"cells": [\n oops]}', "x.ipynb")


def test_the_authors_run_leaves_no_times_in_either_tree():
    """A source notebook the author ran (nbclient's metadata.execution, ExecuteTime): the trees keep no time."""
    nb = json.loads((FIXTURES / "cell_roles.ipynb").read_text())
    for cell in nb["cells"]:
        cell["metadata"]["execution"] = {"iopub.execute_input": "2026-12-04T03:14:40.1Z"}
        cell["metadata"]["ExecuteTime"] = {"end_time": "2026-12-04T03:14:41Z"}
    student, solution, _ = split_notebook(json.dumps(nb), "ran.ipynb")
    clean_student, clean_solution, _ = split_notebook((FIXTURES / "cell_roles.ipynb").read_text(), "ran.ipynb")
    assert (student, solution) == (clean_student, clean_solution)
    assert "2026-12-04" not in student + solution


def test_build_names_the_cells_whose_outputs_it_drops(caplog):
    """An author's run left outputs (perhaps a solution's printout): dropped from both trees, and said by cell."""
    import logging

    from grader.authoring.build import split_source

    nb = json.loads((FIXTURES / "cell_roles.ipynb").read_text())
    code = next(i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code")
    nb["cells"][code]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "the answer is 42\n"}]
    with caplog.at_level(logging.INFO, logger="grader.authoring.build"):
        student, solution, _ = split_source(Path("nb.ipynb"), json.dumps(nb).encode(), "assignments/x/nb.ipynb")
    assert b"the answer is 42" not in student + solution
    listed = re.search(r"assignments/x/nb\.ipynb: cell\(s\) ([\d, ]+) hold outputs from a run", caplog.text)
    assert listed and str(code) in listed[1].split(", "), caplog.text
