"""`tasks.py check`: the round-trip invariants of each assignment.

1. the solution passes its public tests and every official check;
2. the template's modules import, and its public tests give exactly the declared baseline;
3. no line of a solution region, hidden file or answer key reaches the student tree;
4. every rubric item points at checks, tests, cells and answers that exist.
"""
from __future__ import annotations

import ast
import json
import logging
import subprocess
import sys
from pathlib import Path

from grader.authoring.build import BuiltAssignment, build_all, readable_text
from grader.config import load_assignment, load_rubric
from grader.grading.answers import load_key
from grader.grading.checks import load_checks, probe_names
from grader.grading.probing import run_checks
from grader.grading.public_tests import run_public_tests

log = logging.getLogger(__name__)


def test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test")}


def notebook_ids(path: Path) -> tuple[set[str], set[str]]:
    """(exercise ids, free-text answer ids) found in a notebook's cell tags."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    exercises, answers = set(), set()
    for cell in nb["cells"]:
        for tag in cell.get("metadata", {}).get("tags", []):
            kind, _, value = tag.partition(":")
            (exercises if kind == "exercise" else answers if kind == "answer" else set()).add(value)
    return exercises, answers


def rubric_problems(tree: Path) -> list[str]:
    """Every rubric target that does not exist in the solution tree."""
    config, rubric = load_assignment(tree), load_rubric(tree)
    checks = load_checks(tree / "hidden")
    probes = probe_names(tree / "hidden")
    tests = test_names(tree / config.public_tests)
    exercises, free = notebook_ids(tree / config.notebook)
    key = load_key(tree / "answer_key.yaml") if (tree / "answer_key.yaml").is_file() else {}
    problems = [f"check {c.name!r} drives probe {c.probe!r}, which hidden/probes.py does not define"
                for c in checks.values() if c.probe not in probes]
    for item in rubric.items:
        where = f"{tree.name}/rubric.yaml: item {item.id!r}"
        for kind, names, known in (("check", item.checks, checks), ("test", item.tests, tests),
                                   ("exercise", item.cells, exercises), ("answer", item.answers, key),
                                   ("manual answer", item.manual, free)):
            problems += [f"{where}: {kind} {n!r} does not exist" for n in names if n not in known]
    return problems


def leaks(root: Path, built: BuiltAssignment) -> list[str]:
    found = []
    template = root / "student_template" / built.name
    for path in sorted(template.rglob("*")):
        if not path.is_file():
            continue
        text = readable_text(path.name, path.read_bytes())
        for line in text.split("\n"):
            stripped = line.strip()
            if stripped in built.secret:
                found.append(f"{path.relative_to(root)}: {stripped[:80]!r}")
    return found


def module_import_problems(tree: Path, modules: tuple[str, ...]) -> list[str]:
    code = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)"
    done = subprocess.run([sys.executable, "-c", code, *modules], cwd=tree, capture_output=True, text=True,
                          timeout=120)
    return [] if done.returncode == 0 else [f"{tree}: importing {modules} failed:\n{done.stderr[-800:]}"]


def check_assignment(root: Path, built: BuiltAssignment) -> list[str]:
    solution, template = root / "solutions" / built.name, root / "student_template" / built.name
    config = load_assignment(solution)
    problems = rubric_problems(solution)
    problems += leaks(root, built)
    problems += module_import_problems(template, config.modules)
    sol = run_public_tests(solution, config.public_tests)
    if sol.failed or not sol.passed:
        bad = sorted(n for n, ok in sol.outcomes.items() if not ok)
        problems.append(f"{built.name}: the solution fails {sol.failed} public test(s): {', '.join(bad) or '?'}")
    base = run_public_tests(template, config.public_tests)
    if (base.passed, base.failed) != (config.baseline.passed, config.baseline.failed):
        problems.append(f"{built.name}: the template gives {base.passed} passed / {base.failed} failed public "
                        f"tests; assignment.yaml declares {config.baseline.passed} / {config.baseline.failed}")
    run = run_checks(solution, solution, config=config)
    for outcome in run.outcomes:
        if not outcome.passed:
            problems.append(f"{built.name}: the solution fails check {outcome.check}: {outcome.message}")
    problems += [f"{built.name}: {note}" for note in run.notes]
    log.info("%s: solution %d public tests passed, %d/%d check cases passed; template %d passed / %d failed",
             built.name, sol.passed, sum(o.passed for o in run.outcomes), len(run.outcomes),
             base.passed, base.failed)
    return problems


def check(root: Path, names: list[str] | None = None) -> int:
    built = build_all(root, names)
    problems = []
    for b in built:
        problems += check_assignment(root, b)
    for problem in problems:
        log.error("%s", problem)
    if problems:
        log.error("check failed: %d problem(s)", len(problems))
        return 1
    log.info("check passed for %s", ", ".join(b.name for b in built))
    return 0
