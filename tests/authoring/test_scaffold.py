"""`tasks.py new NAME`: what it writes passes build, check and release as generated, and the released
bundle grades its own solution at full automatic marks.

END-TO-END and SLOW (marked `slow`; about a minute on an idle 2-core machine): it grades the
solution and the template through the sandbox once in `check` and the solution once more against
the released zip. Everything else here is static and fast."""
from __future__ import annotations

import logging
from pathlib import Path

import pytest
import yaml

from grader import sandbox
from grader.authoring.gate import has_passed
from grader.authoring.scaffold import MUTANT, new_assignment, sources
from grader.config import RubricKind
from grader.errors import UsageError


def _tasks_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("lrkit_tasks", Path(__file__).parents[2] / "tasks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def root(tmp_path) -> Path:
    (tmp_path / "assignments").mkdir()
    return tmp_path


@pytest.mark.slow
def test_new_assignment_builds_checks_releases_and_grades_its_solution(root, caplog):
    from grader.grading.pipeline import grade_submission

    tasks = _tasks_module()

    with caplog.at_level(logging.INFO):
        assert tasks.main(["--root", str(root), "new", "kv-cache"]) == 0
        assert tasks.main(["--root", str(root), "check", "kv-cache"]) == 0
        assert has_passed(root, "kv-cache")
        assert tasks.main(["--root", str(root), "release", "kv-cache"]) == 0
    assert "check passed on exactly these trees" in caplog.text  # release did not check twice
    report = grade_submission(root / "examples/submissions/kv-cache/solution", root / "dist/kv-cache-autograder.zip",
                              unsandboxed=not sandbox.sandbox_available())
    automatic = [i for i in report.items if i.kind != RubricKind.MANUAL]
    assert report.status == "graded" and automatic
    assert [(i.id, i.points) for i in automatic] == [(i.id, i.max_points) for i in automatic], report.items
    assert report.score == report.max_score == 6


def test_new_writes_every_part_of_an_assignment_and_its_examples(root):
    """Module, notebook, public tests, probe, verdict, rubric, key, examples and a mutant that applies."""
    new_assignment(root, "kv-cache", "KV caches")
    folder = root / "assignments/kv-cache"
    assert {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} == set(sources("kv-cache", "x"))
    module = (root / "solutions/kv-cache/kv_cache.py").read_text()
    assert "NotImplementedError" in (root / "student_template/kv-cache/kv_cache.py").read_text()
    mutant = yaml.safe_load((root / "tests/mutants/kv-cache/no_decay.yaml").read_text())
    assert mutant == yaml.safe_load(MUTANT.format(module="kv_cache"))
    assert module.count(mutant["replace"][0]["old"]) == 1
    wrong = (root / "examples/submissions/kv-cache/no_decay/kv_cache.py").read_text()
    assert wrong == module.replace(mutant["replace"][0]["old"], mutant["replace"][0]["new"])
    for example, tree in (("solution", "solutions"), ("untouched_template", "student_template")):
        for rel in ("kv_cache.py", "kv_cache.ipynb"):
            assert (root / "examples/submissions/kv-cache" / example / rel).read_bytes() == \
                (root / tree / "kv-cache" / rel).read_bytes()
    expected = yaml.safe_load((root / "examples/submissions/kv-cache/expected.yaml").read_text())
    assert set(expected) == {"solution", "untouched_template", "no_decay"}


@pytest.mark.parametrize("name", ["KV", "kv_cache", "1kv", "kv--cache", "-kv"])
def test_new_refuses_a_name_that_cannot_be_a_module(root, name):
    with pytest.raises(UsageError, match="not a usable assignment name"):
        new_assignment(root, name)


@pytest.mark.parametrize("name", ["numpy", "torch"])
def test_new_refuses_a_module_that_would_shadow_an_installed_one(root, name):
    with pytest.raises(UsageError, match="would shadow the installed module"):
        new_assignment(root, name)


def test_new_refuses_to_overwrite(root):
    (root / "assignments/kv-cache").mkdir()
    with pytest.raises(UsageError, match="already exists"):
        new_assignment(root, "kv-cache")


def test_the_scaffolds_example_text_is_named_until_replaced(root):
    """check's warnings: the example mutant and submission, and the example module and notebook text too."""
    from grader.authoring.scaffold import leftovers

    new_assignment(root, "kv-cache", "KV caches")
    found = leftovers(root, "kv-cache")
    assert any(f.startswith("assignments/kv-cache/kv_cache.py: still has the example module's docstring, the "
                            "example function decayed_sum") for f in found), found
    assert any(f.startswith("assignments/kv-cache/kv_cache.ipynb: still has the example notebook's introduction")
               for f in found), found
    module = root / "assignments/kv-cache/kv_cache.py"
    module.write_text('"""KV caches."""\n\ndef cache_bytes(T, D):\n    return 2 * T * D\n')
    assert not any("kv_cache.py" in f for f in leftovers(root, "kv-cache"))
