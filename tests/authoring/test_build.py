"""`build` on a small real assignment assembled from tests/fixtures/tags/ in a temporary root."""
from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from grader.authoring.build import BuildError, build, build_assignment
from grader.authoring.tags import split_text
from grader.errors import UsageError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tags"
BINARY = bytes(range(256)) + b"\n# BEGIN SOLUTION\n\xff\xfe"
VERDICTS = "import numpy as np\n\nEXPECTED_NORMALIZER_VALUE = 0.123456789\n"
ASSIGNMENT = """name: {name}
title: Demo of every tag
notebook: demo.ipynb
student_files: [model.py, demo.ipynb]
modules: [model, pkg]
public_tests: tests/test_public.py
baseline: {{passed: 1, failed: 0}}
"""
RUBRIC = b"""items:
  - {id: public, title: The public test, points: 1, tests: [test_public]}
  - {id: ex1_runs, title: Exercise 1 runs, points: 1, cells: [ex1]}
  - {id: bill, title: The memory bill, points: 2, answers: [mha_cache_one_layer, gqa_cache_one_layer]}
  - {id: why, title: Why, points: 1, manual: [ex1_why]}
total: 5
"""
KEY = b"""# BEGIN HIDDEN
mha_cache_one_layer: {type: quantity, value: 16384000000}
gqa_cache_one_layer: {type: quantity, value: 4096000000}
# END HIDDEN
"""

# path in the assignment -> fixture file (or literal bytes)
LAYOUT: dict[str, str | bytes] = {
    "model.py": "default_stub_names_method.py",
    "chunks.py": "explicit_stub.py",
    "answers.py": "one_line_python.py",
    "answers.yaml": "one_line_yaml.yaml",
    "answer_key.yaml": KEY,
    "assignment.yaml": b"",  # written per assignment name by make_assignment
    "rubric.yaml": RUBRIC,
    "README.md": "markdown_regions.md",
    "demo.ipynb": "cell_roles.ipynb",
    "pkg/__init__.py": b"",
    "pkg/tolerances.py": "hidden_region.py",
    "hidden/verdicts.py": VERDICTS.encode(),
    "tests/hidden/test_secret.py": b"def test_secret_threshold_value():\n    assert 41 + 1 == 42\n",
    "tests/test_public.py": b"def test_public():\n    assert True\n",
    "data/weights.bin": BINARY,
    "notes.txt": b"plain text is copied as is\n# BEGIN and END lines are fine here when no marker word follows\n",
}
IGNORED = ["__pycache__/model.cpython-311.pyc", ".ipynb_checkpoints/demo-checkpoint.ipynb", "_scratch.py",
           ".env", "pkg/_private.py"]


def make_assignment(root: Path, name: str = "demo") -> Path:
    folder = root / "assignments" / name
    for rel, source in {**LAYOUT, **{i: b"SHOULD NEVER BE COPIED\n" for i in IGNORED}}.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(source if isinstance(source, bytes) else (FIXTURES / source).read_bytes())
    (folder / "assignment.yaml").write_text(ASSIGNMENT.format(name=name))
    return folder


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root except the sources, as relative path -> bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.relative_to(root).parts[0] != "assignments"}


@pytest.fixture
def root(tmp_path):
    make_assignment(tmp_path)
    return tmp_path


@pytest.fixture
def built(root):
    assert build(root) == 0
    return root


def tree_files(root: Path, tree: str) -> set[str]:
    folder = root / tree / "demo"
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


# --- what goes where --------------------------------------------------------------------------------------------

def test_trees_hold_the_expected_files(built):
    """Does the solution tree hold every source file, and the student tree all but the hidden ones?"""
    assert tree_files(built, "solutions") == set(LAYOUT)
    assert tree_files(built, "student_template") == set(LAYOUT) - {"hidden/verdicts.py", "tests/hidden/test_secret.py"}


def test_underscore_and_dot_paths_are_never_copied(built):
    """Are __pycache__, .ipynb_checkpoints, _private modules and dotfiles left out of both trees, __init__.py kept?"""
    for tree in ("student_template", "solutions"):
        files = tree_files(built, tree)
        assert not files & set(IGNORED)
        assert "pkg/__init__.py" in files
        for path in (built / tree).rglob("*"):
            assert b"SHOULD NEVER BE COPIED" not in (path.read_bytes() if path.is_file() else b"")


def test_hidden_files_reach_only_the_solution_tree(built):
    """Is a file under a `hidden` folder (at any depth) copied to solutions/ only?"""
    assert (built / "solutions/demo/hidden/verdicts.py").read_text() == VERDICTS
    assert (built / "solutions/demo/tests/hidden/test_secret.py").exists()
    assert not (built / "student_template/demo/hidden").exists()
    assert not (built / "student_template/demo/tests/hidden").exists()


def test_non_text_files_are_copied_verbatim(built):
    """Are files the tag syntax does not cover (binary, .txt) copied byte for byte?"""
    for tree in ("student_template", "solutions"):
        assert (built / tree / "demo/data/weights.bin").read_bytes() == BINARY
        assert (built / tree / "demo/notes.txt").read_bytes() == LAYOUT["notes.txt"]


def test_tagged_files_are_split(built):
    """Are .py/.yaml/.md files written as the two versions split_text makes of them?"""
    for rel, kind in [("model.py", "python"), ("answers.yaml", "yaml"), ("README.md", "markdown")]:
        split = split_text((built / "assignments/demo" / rel).read_text(), kind, rel)
        assert (built / "student_template/demo" / rel).read_text() == split.student
        assert (built / "solutions/demo" / rel).read_text() == split.solution
    assert "Retention.forward: not implemented" in (built / "student_template/demo/model.py").read_text()
    assert "hidden check" not in (built / "student_template/demo/demo.ipynb").read_text()


# --- determinism and atomicity ----------------------------------------------------------------------------------

def test_building_twice_gives_the_same_bytes(tmp_path):
    """Do two builds of the same sources, in two different roots, give byte-identical trees?"""
    first, second = tmp_path / "a", tmp_path / "b"
    make_assignment(first)
    shutil.copytree(first / "assignments", second / "assignments")
    assert build(first) == 0 and build(second) == 0
    assert snapshot(first) == snapshot(second)
    assert len(snapshot(first)) == 2 * len(LAYOUT) - 2


def test_rebuilding_in_place_changes_nothing(built):
    """Does a second build over existing trees leave every byte as it was?"""
    before = snapshot(built)
    assert build(built) == 0
    assert snapshot(built) == before


def test_rebuild_removes_files_whose_source_is_gone(built):
    """When a source file is deleted, does the rebuilt tree lose it too (the tree is replaced, not merged)?"""
    (built / "assignments/demo/notes.txt").unlink()
    assert build(built) == 0
    assert "notes.txt" not in tree_files(built, "student_template") | tree_files(built, "solutions")


def test_failed_build_writes_nothing(built, caplog):
    """After a tag error, does build return 1, leave the previous trees byte-identical and no staging folder?"""
    before = snapshot(built)
    (built / "assignments/demo/model.py").write_text("def f():\n    # BEGIN SOLUTION\n    return 1\n")
    (built / "assignments/demo/broken.py").write_bytes((FIXTURES / "end_without_begin.py").read_bytes())
    with caplog.at_level(logging.ERROR, logger="grader.authoring.build"):
        assert build(built) == 1
    assert snapshot(built) == before
    assert not list(built.glob(".build-*"))
    assert "assignments/demo/broken.py:3: 'END SOLUTION' has no matching 'BEGIN SOLUTION'" in caplog.text
    assert "assignments/demo/model.py:2: 'BEGIN SOLUTION' is never closed" in caplog.text
    assert "2 error(s); nothing was written" in caplog.text


def test_first_build_with_an_error_creates_no_tree_content(root):
    """Does a failing first build leave no generated files for the assignment?"""
    (root / "assignments/demo/broken.py").write_bytes((FIXTURES / "nested_solution.py").read_bytes())
    assert build(root) == 1
    assert not (root / "student_template/demo").exists() and not (root / "solutions/demo").exists()
    assert not list(root.glob(".build-*"))


def test_an_error_in_one_assignment_blocks_all(built):
    """Does a tag error in one assignment stop every assignment from being written?"""
    other = make_assignment(built, "other")
    (other / "model.py").write_bytes((FIXTURES / "misspelled_marker.py").read_bytes())
    (built / "assignments/demo/notes.txt").write_text("changed\n")
    before = snapshot(built)
    assert build(built) == 1
    assert snapshot(built) == before
    assert not (built / "solutions/other").exists()


def test_build_of_named_assignment_only(built):
    """Does `build(root, [name])` rebuild that assignment and leave the others alone?"""
    make_assignment(built, "other")
    assert build(built, ["other"]) == 0
    assert (built / "student_template/other/model.py").exists()
    with pytest.raises(UsageError, match="unknown assignment 'nope'"):
        build(built, ["nope"])


# --- --check ----------------------------------------------------------------------------------------------------

def test_check_passes_right_after_a_build(built):
    """Does `build --check` return 0 when the trees match a fresh build, ignoring caches written by running tests?"""
    (built / "student_template/demo/__pycache__").mkdir()
    (built / "student_template/demo/__pycache__/model.cpython-311.pyc").write_bytes(b"\0")
    before = snapshot(built)
    assert build(built, check=True) == 0
    assert snapshot(built) == before


def test_check_reports_stale_files(built, caplog):
    """After a source edit, does `build --check` return 1, write nothing and name every stale file?"""
    source = built / "assignments/demo/model.py"
    source.write_text(source.read_text().replace("self.positions", "self.offsets"))
    (built / "solutions/demo/extra.py").write_text("x = 1\n")
    (built / "student_template/demo/notes.txt").unlink()
    before = snapshot(built)
    with caplog.at_level(logging.ERROR, logger="grader.authoring.build"):
        assert build(built, check=True) == 1
    assert snapshot(built) == before
    stale = sorted(r.getMessage() for r in caplog.records if r.getMessage().startswith("stale: "))
    assert stale == [
        "stale: solutions/demo/extra.py (not generated by the build; remove it)",
        "stale: solutions/demo/model.py (differs)",
        "stale: student_template/demo/notes.txt (missing)",
    ]
    assert "run 'python tasks.py build'" in caplog.text


def test_check_on_a_never_built_root_fails(root, caplog):
    """Does `--check` fail, listing missing files, when nothing was ever built?"""
    with caplog.at_level(logging.ERROR, logger="grader.authoring.build"):
        assert build(root, check=True) == 1
    assert "stale: student_template/demo/model.py (missing)" in caplog.text


# --- leak-scan material and errors from build_assignment --------------------------------------------------------

def test_secret_holds_solution_and_hidden_file_lines_only(root):
    """Does the leak scan's material hold solution-region lines and hidden-file lines, but no import?"""
    from grader.authoring.leaks import secrets

    secret = {s.text for s in secrets(build_assignment(root / "assignments/demo", root))}
    assert {
        "decay = self.gamma ** (self.positions[:, None] - self.positions[None, :])",  # model.py solution
        "full, rest = divmod(total, chunk)",  # chunks.py solution
        'HIDDEN_TOLERANCE_TABLE = {"fp64": 1e-10}',  # pkg/tolerances.py hidden region
        "EXPECTED_NORMALIZER_VALUE = 0.123456789",  # hidden/verdicts.py
        "assert 41 + 1 == 42",  # tests/hidden/test_secret.py (its signature is public by design)
        "return x * 2 + 1000",  # demo.ipynb solution cell
    } <= secret
    assert "import numpy as np" not in secret  # in hidden/verdicts.py, but also in pkg/tolerances.py
    assert "sizes = []  # fill me" not in secret


def test_all_tag_errors_are_collected_with_their_paths(root):
    """Does build_assignment report every broken file, each as `assignments/<name>/<path>:<line>`?"""
    folder = root / "assignments/demo"
    for name in ("unclosed_hidden.py", "lowercase_marker.py"):
        (folder / "sub").mkdir(exist_ok=True)
        (folder / "sub" / name).write_bytes((FIXTURES / name).read_bytes())
    shutil.copy(FIXTURES / "misspelled_marker_in_cell.ipynb", folder / "bad.ipynb")
    with pytest.raises(BuildError, match="assignments/") as info:
        build_assignment(folder, root)
    assert sorted(str(e) for e in info.value.errors) == [
        "assignments/demo/bad.ipynb: cell 3, line 3: unknown marker word 'SOLUTON'; did you mean "
        "'# BEGIN SOLUTION'? (known: SOLUTION, STUB, HIDDEN)",
        "assignments/demo/sub/lowercase_marker.py:2: unknown marker '# begin solution'; did you mean "
        "'# BEGIN SOLUTION'? (known: BEGIN/END SOLUTION, BEGIN/END STUB, BEGIN/END HIDDEN, in capitals, "
        "alone on their line)",
        "assignments/demo/sub/unclosed_hidden.py:3: 'BEGIN HIDDEN' is never closed (add '# END HIDDEN')",
    ]


def test_tagged_file_that_is_not_utf8_is_an_error(root):
    """Is a .py file that is not UTF-8 reported with its path instead of crashing the build?"""
    (root / "assignments/demo/latin1.py").write_bytes("x = 'caf\xe9'\n".encode("latin-1"))
    with pytest.raises(BuildError, match=r"assignments/demo/latin1\.py: not UTF-8 text"):
        build_assignment(root / "assignments/demo", root)
