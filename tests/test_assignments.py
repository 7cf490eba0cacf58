"""The shipped assignments, proved from outside: round-trip invariants and planted pitfalls.

For each assignment the solution must pass every public test and every official check,
the untouched template must give exactly its declared baseline, and nothing hidden may leak.
What each mutant in tests/mutants/<name>/ costs is measured in tests/test_mutants.py.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.authoring.build import build_all, write_trees
from grader.authoring.check import check_assignment

ROOT = Path(__file__).resolve().parents[1]
NAMES = sorted(p.name for p in (ROOT / "assignments").iterdir() if (p / "assignment.yaml").is_file())


@pytest.fixture(scope="module")
def built_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("kit")
    shutil.copytree(ROOT / "assignments", root / "assignments")
    write_trees(root, build_all(root))
    return root


@pytest.mark.slow  # a full official grade of the solution and of the template each (~80 s an assignment)
@pytest.mark.parametrize("name", NAMES)
def test_round_trip_invariants_hold(built_root, name):
    """Does the solution pass everything, the template give its baseline, and nothing leak?"""
    built = next(b for b in build_all(built_root, [name]))
    assert check_assignment(built_root, built) == []


@pytest.mark.parametrize("name", NAMES)
def test_student_release_holds_nothing_hidden(built_root, tmp_path, name):
    """Does the student zip leave out hidden files, hidden answer-key entries and solution lines?"""
    import zipfile

    from grader.authoring.build import readable_text
    from grader.authoring.leaks import leak_problems, secret_index
    from grader.authoring.release import release_assignment

    built = next(b for b in build_all(built_root, [name]))
    assert leak_problems(built) == []
    index = secret_index(built)
    student_zip, bundle_zip = release_assignment(built_root, name, tmp_path)
    with zipfile.ZipFile(student_zip) as zf:
        names = zf.namelist()
        assert not [n for n in names if "/hidden/" in n or n.endswith("/hidden")]
        for entry in names:
            text = readable_text(entry, zf.read(entry))
            leaked = [ln.strip() for ln in text.split("\n") if index.within(ln)]
            assert not leaked, f"{entry} leaks {leaked[:3]}"
    with zipfile.ZipFile(bundle_zip) as zf:
        assert any(n.startswith("solution/hidden/") for n in zf.namelist())


@pytest.mark.parametrize("name", NAMES)
def test_shipped_examples_match_the_generated_trees(built_root, name):
    """Are examples/submissions/<name>/solution and untouched_template copies of today's trees?"""
    from grader.config import load_assignment

    examples = ROOT / "examples" / "submissions" / name
    config = load_assignment(built_root / "solutions" / name)
    for example, tree in (("solution", "solutions"), ("untouched_template", "student_template")):
        for rel in config.student_files:
            shipped = examples / example / rel
            assert shipped.read_bytes() == (built_root / tree / name / rel).read_bytes(), (
                f"{shipped} is stale: copy it from {tree}/{name}/{rel}")
