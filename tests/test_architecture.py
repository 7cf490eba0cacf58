"""Does the package keep its shape? Imports flow one way, the sandbox's inside imports nothing of
ours, and no module grows past what one person reads at a sitting."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "grader"
FUNCTION_BUDGET = 60

# layer -> the grader layers it may import (its own layer is always allowed)
# The rooms, by audience: `grading` (one submission -> Report), `batch` (a class), `student` (the laptop),
# `authoring` (instructors), `term` (the term's ledger: roster, deadlines, LMS exports), `integrity`
# (similarity, shared wrong outputs, variants), `serve` (the hand-grading web app).
CORE = {"grader.errors", "grader.results", "grader.config", "grader.bundle", "grader.sandbox", "grader.report",
        "grader.variants", "grader"}
ALLOWED = {
    "grader.errors": set(),
    "grader.results": {"grader.errors"},
    "grader.config": {"grader.errors"},
    "grader.bundle": {"grader.errors", "grader.config"},
    "grader.variants": {"grader.errors", "grader.config"},  # the per-student rule; a notebook cell imports it
    "grader.sandbox.inside": set(),
    "grader.sandbox": {"grader.errors", "grader.sandbox.inside"},  # channel.py reads what inside/wire.py frames
    "grader.report": {"grader.errors", "grader.results", "grader.config", "grader.variants"},
    "grader.grading": CORE,
    "grader.checks": {"grader.grading"},
    "grader.batch": CORE | {"grader.grading"},
    "grader.student": CORE | {"grader.grading"},
    "grader.authoring": CORE | {"grader.grading", "grader.batch"},
    "grader.integrity": CORE | {"grader.grading", "grader.batch"},
    "grader.term": CORE | {"grader.grading", "grader.batch", "grader.integrity"},
    "grader.serve": CORE | {"grader.grading", "grader.batch", "grader.term"},
    "grader.cli": CORE | {"grader.grading", "grader.batch", "grader.student", "grader.authoring", "grader.term",
                          "grader.integrity", "grader.serve"},
}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def layer_of(name: str) -> str:
    return max((layer for layer in ALLOWED if name == layer or name.startswith(layer + ".")), key=len,
               default="grader")


def grader_imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            found.append((node.lineno, "grader (relative import)"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "grader":
            names = [node.module] if node.module != "grader" else [f"grader.{a.name}" for a in node.names]
            found += [(node.lineno, n) for n in names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "grader"]
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_imports_flow_one_way(path):
    """Does every module import only from the layers below its own?"""
    name = module_name(path)
    layer = layer_of(name)
    bad = []
    for line, imported in grader_imports(path):
        target = layer_of(imported) if imported != "grader" else "grader"
        if imported == "grader.__version__":
            target = "grader"
        if target == layer or target in ALLOWED[layer]:
            continue
        bad.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {layer} may not import {imported}")
    assert not bad, "\n".join(bad)


def test_the_inside_of_the_sandbox_imports_nothing_of_ours():
    """Could grader code run beside student code? Not if the inside scripts import none of it."""
    inside = sorted((PACKAGE / "sandbox" / "inside").glob("*.py"))
    assert {p.name for p in inside} >= {"driver.py", "nbrunner.py"}
    for path in inside:
        assert not grader_imports(path), f"{path.name} imports from grader"


def test_grading_never_imports_authoring():
    for path in sorted((PACKAGE / "grading").rglob("*.py")):
        for line, imported in grader_imports(path):
            assert not imported.startswith("grader.authoring"), f"{path}:{line} imports {imported}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_no_function_is_too_long_to_read(path):
    """A function one person reads at a sitting: at most FUNCTION_BUDGET lines (a module may grow by more,
    smaller functions; a long text constant is data, not a function)."""
    long = [f"{path.relative_to(PACKAGE.parent)}:{n.lineno} {n.name} ({n.end_lineno - n.lineno + 1} lines)"
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.end_lineno - n.lineno + 1 > FUNCTION_BUDGET]
    assert not long, f"over {FUNCTION_BUDGET} lines; split: " + ", ".join(long)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_no_private_name_crosses_a_module_boundary(path):
    """`_name` means "this module's own": importing one from another module (or reaching into it as
    `module._name`) couples the two where neither says so."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
               and (n.module or "").startswith("grader") for a in n.names}
    bad = [f"{n.lineno}: from {n.module} import {a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
           and (n.module or "").startswith("grader") for a in n.names if _private(a.name)]
    bad += [f"{n.lineno}: {n.value.id}.{n.attr}" for n in ast.walk(tree) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name) and n.value.id in modules and _private(n.attr)]
    assert not bad, f"{path.relative_to(PACKAGE.parent)}: " + "; ".join(bad)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_library_code_raises_typed_errors_not_system_exit():
    """Exit codes belong to cli.py and tasks.py; library code raises grader.errors types."""
    for path in MODULES:
        if path.name == "cli.py" or "inside" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        assert "raise SystemExit" not in text and "sys.exit(" not in text, path


def test_the_authoring_api_of_hidden_checks_still_imports():
    from grader.checks import Case, check
    from grader.grading import checks

    assert Case is checks.Case and check is checks.check


MACHINE_PATHS = re.compile(r"/work/main\b|/home/\w+/")


def test_no_test_probes_the_path_of_one_particular_checkout():
    """Would the suite check nothing from a clone elsewhere? Tests and cases find the repository (and the
    grader's home) at run time: `Path(__file__).parents[...]`, `@REPO@`/`@HOME@` in the adversarial cases."""
    tests = PACKAGE.parent / "tests"
    found = [f"{p.relative_to(tests.parent)}:{n}" for p in sorted(tests.rglob("*"))
             if p.suffix in (".py", ".yaml") and "blind" not in p.parts
             for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if MACHINE_PATHS.search(line) and "MACHINE_PATHS" not in line]
    assert not found, "fixed machine paths in tests: " + ", ".join(found)


def test_every_raises_says_which_error():
    """A bare raises-block (no match=) passes for any E, even the wrong one; each names the words it expects."""
    tests = PACKAGE.parent / "tests"
    ours = [p for p in sorted(tests.rglob("test_*.py")) if "blind" not in p.parts]  # blind/: students' own tests
    bare = [f"{p.relative_to(tests.parent)}:{n}" for p in ours
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"pytest\.raises\(\w", line) and "match=" not in line]
    assert not bare, "pytest.raises without match=: " + ", ".join(bare)
