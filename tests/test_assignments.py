"""The shipped assignments, proved from outside: round-trip invariants and planted pitfalls.

For each assignment the solution must pass every public test and every official check,
the untouched template must give exactly its declared baseline, nothing hidden may leak,
and every mutant in tests/mutants/<name>/ (the solution with ONE pitfall planted) must
lose the rubric item named after that pitfall, with feedback that says something.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from grader.authoring.build import build_all, write_trees
from grader.authoring.check import check_assignment
from grader.config import load_rubric
from grader.grading.probing import run_checks

ROOT = Path(__file__).resolve().parents[1]
NAMES = sorted(p.name for p in (ROOT / "assignments").iterdir() if (p / "assignment.yaml").is_file())
MUTANTS = ROOT / "tests" / "mutants"


@pytest.fixture(scope="module")
def built_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("kit")
    shutil.copytree(ROOT / "assignments", root / "assignments")
    write_trees(root, build_all(root))
    return root


@pytest.mark.parametrize("name", NAMES)
def test_round_trip_invariants_hold(built_root, name):
    """Does the solution pass everything, the template give its baseline, and nothing leak?"""
    built = next(b for b in build_all(built_root, [name]))
    assert check_assignment(built_root, built) == []


def _mutant_cases() -> list[tuple[str, str, str, str]]:
    cases = []
    for name in NAMES:
        expected = MUTANTS / name / "expected.yaml"
        if not expected.is_file():
            continue
        for fault, spec in sorted(yaml.safe_load(expected.read_text()).items()):
            if isinstance(spec, str):
                spec = {"item": spec}
            cases.append((name, fault, spec.get("file", "linear_attention.py"), spec["item"]))
    return cases


@pytest.mark.parametrize("name,fault,target,item", _mutant_cases(), ids=lambda v: str(v))
def test_planted_pitfall_loses_its_item(built_root, tmp_path, name, fault, target, item):
    """Does a solution with exactly one planted pitfall lose the rubric item named after it?"""
    solution = built_root / "solutions" / name
    submission = tmp_path / "submission"
    shutil.copytree(solution, submission, ignore=shutil.ignore_patterns("hidden", "__pycache__"))
    shutil.copyfile(MUTANTS / name / f"{fault}.py", submission / target)
    rubric = load_rubric(solution)
    assert item in {i.id for i in rubric.items}, f"{fault}: rubric has no item {item!r}"
    run = run_checks(solution, submission)
    checks = set(rubric.item(item).checks)
    failing = [o for o in run.outcomes if o.check in checks and not o.passed]
    assert failing, f"{fault}: every case of item {item!r} still passes"
    assert all(len(o.message) > 40 for o in failing)


@pytest.mark.parametrize("name", NAMES)
def test_student_release_holds_nothing_hidden(built_root, tmp_path, name):
    """Does the student zip leave out hidden files, hidden answer-key entries and solution lines?"""
    import zipfile

    from grader.authoring.build import readable_text
    from grader.authoring.release import release_assignment

    built = next(b for b in build_all(built_root, [name]))
    student_zip, bundle_zip = release_assignment(built_root, name, tmp_path)
    with zipfile.ZipFile(student_zip) as zf:
        names = zf.namelist()
        assert not [n for n in names if "/hidden/" in n or n.endswith("/hidden")]
        for entry in names:
            text = readable_text(entry, zf.read(entry))
            leaked = [ln.strip() for ln in text.split("\n") if ln.strip() in built.secret]
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
