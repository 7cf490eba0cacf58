"""`tasks.py check`: each assignment graded through the real pipeline, as the grader will grade it.

1. the build's static validation (`validate.py`), and the generated trees in sync with `assignments/`;
2. the bundle itself (`grading.targets.bundle_problems`): the checks load and make their cases,
   every case's inputs fit its probe, everything the rubric names exists;
3. the solution tree, graded as a submission by `grade_submission` against a bundle zipped from the
   generated trees, gets full automatic marks: every check, every notebook item, every answer
   matching the key; every code cell of the solution notebook runs;
4. the untouched template gets its declared baseline: `baseline.score` automatic points (default 0)
   and exactly `baseline.passed`/`baseline.failed` public tests; its modules import;
5. the solution passes every public test; no secret line reaches the student tree.

Every problem names the file in `assignments/<name>/` (and its line, item or cell). A passing check
is recorded (`gate.py`), so that `release` ships exactly the trees that passed.
"""
from __future__ import annotations

import logging
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from grader import sandbox
from grader.authoring.build import BuiltAssignment, build_all, readable_text, stale_files
from grader.authoring.validate import yaml_item_line
from grader.bundle import bundle_entries, open_bundle, write_zip
from grader.config import RubricKind, load_assignment
from grader.grading.pipeline import grade_submission
from grader.grading.public_tests import run_public_tests
from grader.grading.targets import asked_answers, bundle_problems

log = logging.getLogger(__name__)
FILE_LINE = re.compile(r"(?<![\w/.])((?:[\w.-]+/)*[\w.-]+\.(?:py|yaml|ipynb)):(\d+)")


class _Sources:
    """Turns paths and lines of the generated trees into `assignments/<name>/<file>:<line>`."""

    def __init__(self, root: Path, built: BuiltAssignment):
        self.built = built
        self.src = built.source or f"assignments/{built.name}"
        self.rubric_text = (root / self.src / "rubric.yaml").read_text(encoding="utf-8") \
            if (root / self.src / "rubric.yaml").is_file() else ""

    def line(self, rel: str, line: int) -> int:
        maps = self.built.lines.get(rel)
        return maps[1][line - 1] if maps and 0 < line <= len(maps[1]) else line

    def text(self, message: str) -> str:
        """A message with every `file.py:N` of the solution tree rewritten as its source path and line."""
        def repl(m: re.Match) -> str:
            rel = m[1]
            if rel in self.built.solution:
                return f"{self.src}/{rel}:{self.line(rel, int(m[2]))}"
            return m[0]
        return FILE_LINE.sub(repl, message)

    def check_def(self, name: str) -> str:
        """`assignments/<name>/hidden/<file>.py:<line>` of a check's definition ("" if not found)."""
        for rel in sorted(r for r in self.built.solution if r.startswith("hidden/") and r.endswith(".py")):
            text = self.built.solution[rel].decode(errors="replace")
            m = re.search(rf"^\s*def\s+{re.escape(name)}\s*\(", text, re.MULTILINE)
            if m:
                line = text[: m.start()].count("\n") + 1
                return f"{self.src}/{rel}:{self.line(rel, line)}"
        return ""

    def item(self, item_id: str) -> str:
        line = yaml_item_line(self.rubric_text, item_id)
        return f"{self.src}/rubric.yaml" + (f":{line}" if line else "")


def leaks(root: Path, built: BuiltAssignment) -> list[str]:
    found = []
    template = root / "student_template" / built.name
    for path in sorted(template.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        text = readable_text(path.name, path.read_bytes())
        for line in text.split("\n"):
            stripped = line.strip()
            if stripped in built.secret:
                rel = path.relative_to(template).as_posix()
                found.append(f"{built.source}/{rel}: the student version shows {stripped[:80]!r}, a line of a "
                             "solution region, hidden file or answer key: tag it, or reword the public line")
    return found


def module_import_problems(tree: Path, modules: tuple[str, ...], src: str) -> list[str]:
    code = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)"
    done = subprocess.run([sys.executable, "-c", code, *modules], cwd=tree, capture_output=True, text=True,
                          timeout=300)
    if done.returncode == 0:
        return []
    last = (done.stderr.strip().splitlines() or ["?"])[-1]
    return [f"{src}: the untouched template's modules {', '.join(modules)} do not import ({last}); "
            "students could not even start: a stub must leave the module importable"]


def _solution_problems(report, s: _Sources, notebook: str, asked: dict[str, int], rubric) -> list[str]:
    problems = []
    if report.status != "graded":
        problems.append(f"{s.src}: the solution was graded '{report.status}', not 'graded': "
                        + s.text("; ".join(report.notes[:3])))
    for cell in report.cells:
        if cell.status != "ok":
            what = f"raised {cell.ename}: {cell.evalue[:300]}" if cell.status == "error" else \
                "timed out" if cell.status == "timeout" else "was not run (an earlier cell stopped the notebook)"
            problems.append(f"{s.src}/{notebook}: cell {cell.index}: the solution notebook {what}"
                            " (the solution must run top to bottom)")
    for item in report.items:
        if item.kind == RubricKind.MANUAL or item.points >= item.max_points:
            continue
        messages = [s.text(m) for m in item.messages] or ["no message"]
        if item.kind == RubricKind.ANSWERS:
            for m in messages:
                answer = m.split(":", 1)[0]
                where = f"{s.src}/{notebook}: cell {asked[answer]}" if answer in asked else s.item(item.id)
                problems.append(f"{where}: the solution's answer {answer!r} does not match answer_key.yaml "
                                f"(item {item.id!r}): {m.split(':', 1)[-1].strip()}")
            continue
        culprit = ""
        if item.kind == RubricKind.CHECKS:
            defs = [s.check_def(c) for c in rubric.item(item.id).checks]
            culprit = f" (the solution, or the check at {', '.join(d for d in defs if d)}, is wrong)" \
                if any(defs) else ""
        problems.append(f"{s.item(item.id)}: item {item.id!r} ({item.kind}): the solution gets {item.points:g} of "
                        f"{item.max_points:g} points{culprit}: " + " | ".join(messages[:4]))
    return problems


def _template_problems(report, s: _Sources, baseline) -> list[str]:
    automatic = sum(i.points for i in report.items if i.kind != RubricKind.MANUAL)
    want = getattr(baseline, "score", 0.0)
    if abs(automatic - want) < 1e-9:
        return []
    earned = ", ".join(f"{i.id} {i.points:g}" for i in report.items if i.points > 0 and i.kind != RubricKind.MANUAL)
    return [f"{s.src}/assignment.yaml: the untouched template earns {automatic:g} automatic points ({earned}); "
            f"baseline.score declares {want:g}: a stub passes something it should not, or declare the score"]


def check_assignment(root: Path, built: BuiltAssignment) -> list[str]:
    """Every problem of one built assignment whose trees are written under ``root`` ([] = it passes)."""
    s = _Sources(root, built)
    solution, template = root / "solutions" / built.name, root / "student_template" / built.name
    stale = [f for f in stale_files(root, [built])]
    if stale:
        return [f"{s.src}: the generated trees differ from assignments/ ({stale[0]}, ...): "
                "run 'python tasks.py build' first"]
    config = load_assignment(solution)
    problems = [f"{s.src}/{s.text(p)}" for p in bundle_problems(solution, template, config,
                                                                  _rubric(solution))]
    if problems:
        return problems  # grading with a broken bundle would only repeat these
    problems += leaks(root, built)
    asked = asked_answers(_json(solution / config.notebook))
    unsandboxed = not sandbox.sandbox_available()
    with tempfile.TemporaryDirectory(prefix="lrkit-check-") as tmp:
        bundle_zip = Path(tmp) / f"{built.name}-autograder.zip"
        write_zip(bundle_zip, bundle_entries(solution, template))
        bundle = open_bundle(bundle_zip, Path(tmp) / "bundle")
        with ThreadPoolExecutor(max_workers=5) as pool:
            graded_solution = pool.submit(grade_submission, solution, bundle, unsandboxed=unsandboxed,
                                          name="solution")
            graded_template = pool.submit(grade_submission, template, bundle, unsandboxed=unsandboxed,
                                          name="untouched_template")
            sol_tests = pool.submit(run_public_tests, solution, config.public_tests)
            tpl_tests = pool.submit(run_public_tests, template, config.public_tests)
            imports = pool.submit(module_import_problems, template, config.modules, s.src)
            sol, base = sol_tests.result(), tpl_tests.result()
            sol_report, tpl_report = graded_solution.result(), graded_template.result()
            problems += imports.result()
    if sol.failed or not sol.passed:
        bad = sorted(n for n, ok in sol.outcomes.items() if not ok)
        problems.append(f"{s.src}/{config.public_tests}: the solution fails {sol.failed} public test(s): "
                        f"{', '.join(bad) or '(pytest could not run them)'}")
    if (base.passed, base.failed) != (config.baseline.passed, config.baseline.failed):
        problems.append(f"{s.src}/assignment.yaml: the untouched template gives {base.passed} passed / {base.failed} "
                        f"failed public tests; baseline declares {config.baseline.passed} / {config.baseline.failed}")
    problems += _solution_problems(sol_report, s, config.notebook, asked, bundle.rubric)
    problems += _template_problems(tpl_report, s, config.baseline)
    automatic = sum(i.max_points for i in sol_report.items if i.kind != RubricKind.MANUAL)
    log.info("%s: solution %g/%g automatic points (%.0f s), %d public tests passed; template %g points, "
             "%d passed / %d failed public tests", built.name,
             sum(i.points for i in sol_report.items if i.kind != RubricKind.MANUAL), automatic,
             sol_report.timings.get("total_s", 0.0), sol.passed,
             sum(i.points for i in tpl_report.items if i.kind != RubricKind.MANUAL), base.passed, base.failed)
    return problems


def _json(path: Path) -> dict:
    import json

    return json.loads(path.read_text(encoding="utf-8"))


def _rubric(tree: Path):
    from grader.config import load_rubric

    return load_rubric(tree)


def check(root: Path, names: list[str] | None = None, mutants: bool = True) -> int:
    """`tasks.py check [NAME...]`: 0 when every assignment passes (and is recorded for release); with
    ``mutants``, also grades tests/mutants/<name>/ and prints what each mutant costs."""
    from grader.authoring.gate import fingerprint, record_pass
    from grader.authoring.mutants import mutant_report

    built = build_all(root, names)
    failed = 0
    for b in built:
        before = fingerprint(root, b.name)
        problems = check_assignment(root, b)
        if mutants and not problems:
            problems = mutant_report(root, b.name)
        for problem in problems:
            log.error("%s", problem)
        if problems:
            failed += 1
            log.error("%s: check failed: %d problem(s)", b.name, len(problems))
        else:
            record_pass(root, b.name, before)
            log.info("%s: check passed", b.name)
    if failed:
        return 1
    log.info("check passed for %s", ", ".join(b.name for b in built))
    return 0
