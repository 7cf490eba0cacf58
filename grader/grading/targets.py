"""Does everything the rubric names exist? The one rule, for the build, `check` and the grader.

An instructor's typo (a rubric naming a check that is not defined, a probe that does not
exist, an answer the notebook never asks for) must never cost a student points. The build
checks it statically (`authoring.validate`), `tasks.py check` and the grader check it on
the real tree (`bundle_problems`): a bundle with such an error grades nobody and reports
status `bundle_error`, naming the mistake.
"""
from __future__ import annotations

import ast
import json
import threading
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from grader.config import Rubric
from grader.grading.notebook import cell_source, is_answers_cell, notebook_ids

VERDICTS, PROBES = "hidden/verdicts.py", "hidden/probes.py"


@dataclass(frozen=True)
class Targets:
    """The names an assignment defines, wherever they were read from."""

    checks: Mapping[str, str]  # check name -> the probe it drives
    probes: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], bool]]  # probe -> (params, required, **kwargs?)
    tests: frozenset[str]
    exercises: frozenset[str]
    free_answers: frozenset[str]  # answer:<id> cells
    key: frozenset[str]  # answer_key.yaml ids
    asked: Mapping[str, int] = field(default_factory=dict)  # ids in the notebook's answers cells -> cell index
    public_tests: str = "the public tests"


@dataclass(frozen=True)
class TargetProblem:
    """One missing name: where it is named (a rubric item and field, or a file) and what is wrong."""

    message: str
    item: str = ""  # rubric item id ("" when the problem is not in rubric.yaml)
    field: str = ""  # the item's list: checks, tests, cells, answers, manual, requires, evidence
    name: str = ""
    file: str = "rubric.yaml"
    cell: int | None = None  # the notebook cell, for problems found in the notebook


def _known(names) -> str:
    names = sorted(names)
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return f" (defined: {shown})" if names else " (none is defined)"


def target_problems(rubric: Rubric, t: Targets) -> list[TargetProblem]:
    """Every name the rubric (or the answer key, or a check) uses that does not exist."""
    found = [TargetProblem(f"check {c!r} drives probe {p!r}, which {PROBES} does not define{_known(t.probes)}",
                           name=c, file=VERDICTS) for c, p in sorted(t.checks.items()) if p not in t.probes]
    for item in rubric.items:
        wants = (("checks", item.checks, t.checks, f"check {{!r}} is not defined in {VERDICTS}"),
                 ("requires", getattr(item, "requires", ()), t.checks, f"check {{!r}} is not defined in {VERDICTS}"),
                 ("evidence", getattr(item, "evidence", ()), t.checks, f"check {{!r}} is not defined in {VERDICTS}"),
                 ("tests", item.tests, t.tests, f"test {{!r}} is not defined in {t.public_tests}"),
                 ("cells", item.cells, t.exercises, "exercise {!r}: no notebook cell is tagged 'exercise:{}'"),
                 ("answers", item.answers, t.key, "answer {!r} has no entry in answer_key.yaml"),
                 ("manual", item.manual, t.free_answers, "free-text answer {!r}: no notebook cell is tagged "
                                                          "'answer:{}'"))
        for kind, names, known, text in wants:
            for n in names:
                if n not in known:
                    hint = _known(known) if kind in ("checks", "requires", "evidence", "tests") else ""
                    found.append(TargetProblem(text.format(n, n) + hint, item.id, kind, n))
    for n in sorted(t.key - set(t.asked)):
        found.append(TargetProblem(f"{n!r} is never asked: no 'answers' cell of the notebook has a line '{n}:' "
                                   "(add it there, or remove the entry)", name=n, file="answer_key.yaml"))
    for n, cell in sorted(t.asked.items()):
        if n not in t.key:
            found.append(TargetProblem(f"the answers cell asks for {n!r}, which answer_key.yaml does not define "
                                       "(add an entry, or fix the id)", name=n, file="notebook", cell=cell))
    return found


# ----------------------------------------------------------------------------- names, read statically

def probe_signatures(source: str) -> dict[str, tuple[tuple[str, ...], tuple[str, ...], bool]]:
    """Top-level public functions of a probes file -> (parameter names, those without a default,
    takes **kwargs). The driver calls a probe with the case's inputs as keyword arguments."""
    out = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            a = node.args
            positional = [*a.posonlyargs, *a.args]
            required = positional[:len(positional) - len(a.defaults)]
            required += [k for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is None]
            names = tuple(x.arg for x in [*positional, *a.kwonlyargs])
            out[node.name] = (names, tuple(x.arg for x in required), a.kwarg is not None)
    return out


def declared_checks(source: str) -> dict[str, str]:
    """``@check(probe=...)`` functions of a verdicts file, read without running it: name -> probe."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        for dec in node.decorator_list:
            if not isinstance(dec, ast.Call):
                continue
            fn = dec.func.attr if isinstance(dec.func, ast.Attribute) else getattr(dec.func, "id", "")
            if fn != "check":
                continue
            args = [k.value for k in dec.keywords if k.arg == "probe"] or dec.args[:1]
            probe = args[0].value if args and isinstance(args[0], ast.Constant) else node.name
            found[node.name] = str(probe)
    return found


def test_functions(source: str) -> frozenset[str]:
    return frozenset(n.name for n in ast.walk(ast.parse(source))
                     if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test"))


def asked_answers(nb: dict) -> dict[str, int]:
    """Answer ids written in the notebook's `answers` cells -> the cell index (keys only; values ignored)."""
    from grader.grading.answers import AnswerFormatError, extract_answer_block, parse_answers

    asked: dict[str, int] = {}
    for index, cell in enumerate(nb.get("cells", [])):
        if is_answers_cell(cell):
            try:
                ids = parse_answers(extract_answer_block(cell_source(cell)) or "", f"cell {index}")
            except AnswerFormatError:
                continue
            asked.update({i: index for i in ids if i not in asked})
    return asked


def notebook_targets(nb: dict) -> tuple[frozenset[str], frozenset[str], dict[str, int]]:
    exercises, free = notebook_ids(nb)
    return frozenset(exercises), frozenset(free), asked_answers(nb)


# ----------------------------------------------------------------------------- a real tree or bundle

def instructor_error(exc: BaseException, tree: Path) -> str:
    """`path:line: Type: message` for an exception raised by instructor code under ``tree``."""
    if isinstance(exc, SyntaxError) and exc.filename:
        where = _relative(exc.filename, tree)
        return f"{where}:{exc.lineno}: SyntaxError: {exc.msg}"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if _relative(f.filename, tree) != f.filename]
    where = f"{_relative(frames[-1].filename, tree)}:{frames[-1].lineno}: " if frames else ""
    return f"{where}{type(exc).__name__}: {exc}"


def _relative(filename: str, tree: Path) -> str:
    try:
        return Path(filename).resolve().relative_to(Path(tree).resolve()).as_posix()
    except ValueError:
        return filename


_CACHE: dict[tuple[str, str, str], tuple[str, ...]] = {}
_LOCK = threading.Lock()


def bundle_problems(solution: Path, template: Path, config, rubric: Rubric, cache_key: str = "") -> list[str]:
    """Instructor errors in a built assignment (a bundle's solution/ and template/, or the
    generated trees): names that do not exist, checks that cannot be loaded or cannot make
    their cases, cases whose inputs do not fit their probe. Each message names a file.
    With ``cache_key`` (a bundle's hash) the answer is remembered: a batch asks once per class."""
    key = (str(solution), str(template), cache_key)
    with _LOCK:
        if cache_key and key in _CACHE:
            return list(_CACHE[key])
        found = _bundle_problems(Path(solution), Path(template), config, rubric)
        if cache_key:
            _CACHE[key] = found
    return list(found)


def _bundle_problems(sol: Path, tpl: Path, config, rubric: Rubric) -> tuple[str, ...]:
    from grader.grading.answers import load_key
    from grader.grading.checks import load_checks
    from grader.grading.probing import plan

    problems: list[str] = []
    specs = {}
    try:
        specs = load_checks(sol / "hidden")
    except Exception as exc:  # instructor code: any error is the instructor's
        problems.append(f"{VERDICTS} cannot be loaded: {instructor_error(exc, sol)}")
    probes = {}
    if (sol / PROBES).is_file():
        try:
            probes = probe_signatures((sol / PROBES).read_text(encoding="utf-8"))
        except SyntaxError as exc:
            problems.append(f"{PROBES}:{exc.lineno}: SyntaxError: {exc.msg}")
    try:
        has_key = (sol / "answer_key.yaml").is_file()
        key = frozenset(load_key(sol / "answer_key.yaml", variants=config.variants)) if has_key else frozenset()
    except Exception as exc:
        problems.append(f"answer_key.yaml: {exc}")
        key = frozenset()
    try:
        nb = json.loads((tpl / config.notebook).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        problems.append(f"{config.notebook}: the template notebook cannot be read ({exc})")
        nb = {"cells": []}
    tests = frozenset()
    if (tpl / config.public_tests).is_file():
        try:
            tests = test_functions((tpl / config.public_tests).read_text(encoding="utf-8"))
        except SyntaxError as exc:
            problems.append(f"{config.public_tests}:{exc.lineno}: SyntaxError: {exc.msg}")
    exercises, free, asked = notebook_targets(nb)
    targets = Targets({n: s.probe for n, s in specs.items()}, probes, tests, exercises, free, key, asked,
                      config.public_tests)
    unloadable = any(p.startswith(f"{VERDICTS} cannot be loaded") for p in problems)
    for p in target_problems(rubric, targets):
        if unloadable and p.field in ("checks", "requires", "evidence"):
            continue  # already said: the checks could not be loaded at all
        where = f"rubric.yaml: item {p.item!r}: " if p.item else \
            (f"{config.notebook}: cell {p.cell}: " if p.file == "notebook" else f"{p.file}: ")
        problems.append(where + p.message)
    if specs and not any(p.startswith(VERDICTS) for p in problems):
        problems += _case_problems(sol, specs, probes, plan)
    return tuple(problems)


def _case_problems(sol: Path, specs, probes, plan) -> list[str]:
    try:
        planned = plan(sol)
    except Exception:  # find the check whose cases cannot be made, and say where it failed
        for name, spec in sorted(specs.items()):
            try:
                list(spec.cases())
            except Exception as exc:
                return [f"{VERDICTS}: check {name!r} cannot make its cases: {instructor_error(exc, sol)}"]
        return [f"{VERDICTS}: the checks cannot make their cases"]
    problems, seen = [], set()
    for p in planned:
        params, required, var_kw = probes.get(p.probe, ((), (), True))
        given = set(p.case.inputs_at(p.case.lengths[0]) if hasattr(p.case, "inputs_at") else p.case.inputs)
        missing, extra = set(required) - given, set() if var_kw else given - set(params)
        if (missing or extra) and p.spec.name not in seen:
            seen.add(p.spec.name)
            problems.append(f"{VERDICTS}: check {p.spec.name!r}, case {p.case.label!r}: the inputs "
                            f"({', '.join(sorted(given))}) must be named as the parameters of probe "
                            f"{p.probe!r} ({', '.join(params)})")
    return problems


def bundle_error_message(name: str, problems: list[str]) -> str:
    """The one message a `bundle_error` report carries: what is wrong, whose mistake, what to do."""
    shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
    return (f"not graded: the autograder bundle has an instructor error (not the student's): {shown}. "
            f"Fix assignments/{name}/, run 'python tasks.py check {name}', release again and regrade")
