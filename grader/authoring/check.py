"""`tasks.py check`: each assignment graded through the real pipeline, as the grader will grade it.

1. the build, first (static validation and the leak scan, `build.py`); stale generated trees are rewritten;
2. the bundle itself (`grading.targets.bundle_problems`): the checks load and make their cases,
   every case's inputs fit its probe, everything the rubric names exists;
3. the hidden code, run once beside the solution (`preflight.py`): the probes import, each check's probe
   runs on its smallest case and its judge on the answer; a failure names the author's file and line;
4. the solution tree, graded as a submission by `grade_submission` against a bundle zipped from the
   generated trees, gets full automatic marks: every check, every notebook item, every answer
   matching the key; every code cell of the solution notebook runs;
5. the untouched template gets its declared baseline: `baseline.score` automatic points (default 0)
   and exactly `baseline.passed`/`baseline.failed` public tests; its modules import;
6. the solution passes every public test.

Every problem names the file in `assignments/<name>/` (and its line, item or cell), once: failures with
one cause are one message. Warnings (gates that cannot see what they guard, scaffold leftovers) do not
fail the check. A passing check is recorded (`gate.py`), so that `release` ships exactly the trees that
passed.
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
from grader.authoring.build import BuildError, BuiltAssignment, build_all, stale_files, write_trees
from grader.authoring.validate import yaml_item_line
from grader.bundle import bundle_entries, open_bundle, write_zip
from grader.config import RubricKind, load_assignment
from grader.grading.pipeline import grade_submission
from grader.grading.public_tests import run_public_tests
from grader.grading.targets import asked_answers, bundle_problems

log = logging.getLogger(__name__)
FILE_LINE = re.compile(r"(?<![\w/.])((?:[\w.-]+/)*[\w.-]+\.(?:py|yaml|ipynb)):(\d+)")


class Sources:
    """Turns paths and lines of the generated trees into `assignments/<name>/<file>:<line>`."""

    def __init__(self, root: Path, built: BuiltAssignment):
        self.built = built
        self.src = built.source or f"assignments/{built.name}"
        self.rubric_text = (root / self.src / "rubric.yaml").read_text(encoding="utf-8") \
            if (root / self.src / "rubric.yaml").is_file() else ""
        rels = sorted(built.solution, key=len, reverse=True)
        # any path ending in a file of the solution tree (the generated tree, a bundle's copy, the sandbox's
        # /submission), with or without its line
        self.paths = re.compile(r"(?<![\w.-])/?(?:[\w.@+~-]+/)*(" + "|".join(map(re.escape, rels))
                                + r")(?![\w-])(?::(\d+))?") if rels else None

    def line(self, rel: str, line: int) -> int:
        maps = self.built.lines.get(rel)
        return maps[1][line - 1] if maps and 0 < line <= len(maps[1]) else line

    def text(self, message: str) -> str:
        """A message with every path into a generated tree rewritten as the source path (and line)."""
        def repl(m: re.Match) -> str:
            return f"{self.src}/{m[1]}" + (f":{self.line(m[1], int(m[2]))}" if m[2] else "")
        return self.paths.sub(repl, message) if self.paths else message

    def located(self, message: str) -> str:
        """A bundle problem (``hidden/verdicts.py: ...``, relative to the tree) under the source folder, paths
        inside it rewritten too, the folder said once."""
        text = self.text(message)
        return text if text.startswith(f"{self.src}/") else f"{self.src}/{text}"

    def frame(self, filename: str, line: int, tree: Path) -> str:
        """`assignments/<name>/<file>:<line>` of a traceback frame in ``tree`` ("" when it is not ours)."""
        try:
            rel = Path(filename).resolve().relative_to(tree.resolve()).as_posix()
        except (ValueError, OSError):
            return ""
        return f"{self.src}/{rel}:{self.line(rel, line)}" if rel in self.built.solution else ""

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


def shorten(text: str, limit: int = 300) -> str:
    """Whole sentences of ``text`` up to ``limit`` characters (at least the first): never cut mid-sentence."""
    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    kept = [sentences[0]]
    for sentence in sentences[1:]:
        if len(" ".join([*kept, sentence])) > limit:
            break
        kept.append(sentence)
    return " ".join(kept)


POINTER = re.compile(r"^likely cause shared with .*: see the notes at the top$")


def hidden_code_problems(s: Sources, tree: Path, specs: dict, timeout_s: float) -> list[str]:
    """The hidden code's own failures on the solution (`preflight.py`), one message per cause."""
    from grader.authoring.preflight import hidden_code_failures

    grouped: dict[tuple[str, str], list[str]] = {}
    for failure, doing in hidden_code_failures(tree, specs, timeout_s):
        ours = [w for f, n in failure.frames if (w := s.frame(f, n, tree))]
        where = ours[-1] if ours else f"{s.src}/hidden/probes.py"
        what = f"{failure.type}: {shorten(s.text(failure.message), 200)}" if failure.message else failure.type
        if len(ours) > 1 and ours[0] != where:
            what += f" (called from {ours[0]})"
        grouped.setdefault((where, what), []).append(doing)
    problems = []
    for (where, what), doings in grouped.items():
        if doings == [""]:
            problems.append(f"{where}: {what}: importing hidden/probes.py fails, so no check can run")
            continue
        shown = "; ".join(doings[:3]) + (f"; and {len(doings) - 3} more" if len(doings) > 3 else "")
        problems.append(f"{where}: {what}: raised by {shown}")
    return problems


def module_import_problems(tree: Path, modules: tuple[str, ...], src: str) -> list[str]:
    code = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)"
    done = subprocess.run([sys.executable, "-c", code, *modules], cwd=tree, capture_output=True, text=True,
                          timeout=300)
    if done.returncode == 0:
        return []
    last = (done.stderr.strip().splitlines() or ["?"])[-1]
    return [f"{src}: the untouched template's modules {', '.join(modules)} do not import ({last}); "
            "students could not even start: a stub must leave the module importable"]


def _solution_problems(report, s: Sources, notebook: str, asked: dict[str, int], rubric) -> list[str]:
    problems = []
    if report.status != "graded":
        notes = [shorten(s.text(n)) for n in report.notes if not n.startswith("One likely cause")]
        problems.append(f"{s.src}: the solution was graded '{report.status}', not 'graded'"
                        + (": " + "; ".join(notes[:3]) if notes else ""))
    for cell in report.cells:
        if cell.status != "ok":
            what = f"raised {cell.ename}: {shorten(s.text(cell.evalue))}" if cell.status == "error" else \
                "timed out" if cell.status == "timeout" else "was not run (an earlier cell stopped the notebook)"
            problems.append(f"{s.src}/{notebook}: cell {cell.index}: the solution notebook {what}"
                            " (the solution must run top to bottom)")
    failing = [i for i in report.items if i.kind != RubricKind.MANUAL and i.points < i.max_points]
    for item in (i for i in failing if i.kind == RubricKind.ANSWERS):
        for m in [s.text(m) for m in item.messages] or ["no message"]:
            answer = m.split(":", 1)[0]
            where = f"{s.src}/{notebook}: cell {asked[answer]}" if answer in asked else s.item(item.id)
            problems.append(f"{where}: the solution's answer {answer!r} does not match answer_key.yaml "
                            f"(item {item.id!r}): {shorten(m.split(':', 1)[-1])}")
    by_cause: dict[str, list] = {}
    for item in (i for i in failing if i.kind != RubricKind.ANSWERS):
        by_cause.setdefault(item.cause or f"(item {item.id})", []).append(item)
    for cause, items in by_cause.items():
        problems.append(_failing_items(s, rubric, items, cause if len(items) > 1 else ""))
    return problems


def _failing_items(s: Sources, rubric, items: list, cause: str) -> str:
    """One problem for rubric items the solution fails: with several, their one likely cause."""
    defs = sorted({d for i in items if i.kind == RubricKind.CHECKS for c in rubric.item(i.id).checks
                   if (d := s.check_def(c))})
    culprit = f" (the solution, or the check{'s' * (len(defs) > 1)} at {', '.join(defs)}, is wrong)" if defs else ""
    lost = sum(i.max_points - i.points for i in items)
    if cause:
        where = ", ".join(s.item(i.id) for i in items)
        return (f"{where}: items {', '.join(i.id for i in items)} ({lost:g} points): the solution fails them with one "
                f"likely cause: {shorten(s.text(cause))}{culprit}")
    item = items[0]
    messages = [shorten(s.text(m)) for m in item.messages if not POINTER.match(m)] or ["no message"]
    return (f"{s.item(item.id)}: item {item.id!r} ({item.kind}): the solution gets {item.points:g} of "
            f"{item.max_points:g} points{culprit}: " + " | ".join(messages[:2]))


def _template_problems(report, s: Sources, baseline) -> list[str]:
    automatic = sum(i.points for i in report.items if i.kind != RubricKind.MANUAL)
    want = getattr(baseline, "score", 0.0)
    if abs(automatic - want) < 1e-9:
        return []
    earned = ", ".join(f"{i.id} {i.points:g}" for i in report.items if i.points > 0 and i.kind != RubricKind.MANUAL)
    return [f"{s.src}/assignment.yaml: the untouched template earns {automatic:g} automatic points ({earned}); "
            f"baseline.score declares {want:g}: students would get them for doing nothing. Is a stub too "
            "complete, or an answer or solution line left untagged? Fix the template; declare baseline.score "
            "only for points you mean to give away"]


def check_assignment(root: Path, built: BuiltAssignment) -> list[str]:
    """Every problem of one built assignment whose trees are written under ``root`` ([] = it passes)."""
    s = Sources(root, built)
    solution, template = root / "solutions" / built.name, root / "student_template" / built.name
    stale = [f for f in stale_files(root, [built])]
    if stale:
        return [f"{s.src}: the generated trees differ from assignments/ ({stale[0]}, ...): "
                "run 'python tasks.py build' first"]
    config = load_assignment(solution)
    problems = [s.located(p) for p in bundle_problems(solution, template, config, _rubric(solution))]
    if not problems:
        from grader.authoring.fixed_inputs import draw_problems
        from grader.grading.checks import load_checks

        specs = load_checks(solution / "hidden")
        problems = hidden_code_problems(s, solution, specs, config.limits.checks_timeout_s + 60)
        problems += draw_problems(specs, s.src)
    if problems:
        return problems  # grading with a broken bundle or broken hidden code would only repeat these
    asked = asked_answers(_json(solution / config.notebook))
    sol, base, sol_report, tpl_report, imports = _grade_both(root, built, config, s)
    problems += imports
    if sol.failed or not sol.passed:
        bad = sorted(n for n, ok in sol.outcomes.items() if not ok)
        problems.append(f"{s.src}/{config.public_tests}: the solution fails {sol.failed} public test(s): "
                        f"{', '.join(bad) or '(pytest could not run them)'}")
    if (base.passed, base.failed) != (config.baseline.passed, config.baseline.failed):
        problems.append(f"{s.src}/assignment.yaml: the untouched template gives {base.passed} passed / {base.failed} "
                        f"failed public tests; baseline declares {config.baseline.passed} / {config.baseline.failed}")
    problems += _solution_problems(sol_report, s, config.notebook, asked, _rubric(solution))
    problems += _template_problems(tpl_report, s, config.baseline)
    automatic = sum(i.max_points for i in sol_report.items if i.kind != RubricKind.MANUAL)
    log.info("%s: solution %g/%g automatic points (%.0f s), %d public tests passed; template %g points, "
             "%d passed / %d failed public tests", built.name,
             sum(i.points for i in sol_report.items if i.kind != RubricKind.MANUAL), automatic,
             sol_report.timings.get("total_s", 0.0), sol.passed,
             sum(i.points for i in tpl_report.items if i.kind != RubricKind.MANUAL), base.passed, base.failed)
    return problems


def _grade_both(root: Path, built: BuiltAssignment, config, s: Sources):
    """The solution and the template, each graded against a bundle zipped from the trees, and their public
    tests: (solution tests, template tests, solution report, template report, import problems)."""
    solution, template = root / "solutions" / built.name, root / "student_template" / built.name
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
            return (sol_tests.result(), tpl_tests.result(), graded_solution.result(), graded_template.result(),
                    imports.result())


def _json(path: Path) -> dict:
    import json

    return json.loads(path.read_text(encoding="utf-8"))


def _rubric(tree: Path):
    from grader.config import load_rubric

    return load_rubric(tree)


def check(root: Path, names: list[str] | None = None, mutants: bool = True) -> int:
    """`tasks.py check [NAME...]`: builds first (the docs' order: build, then check), then 0 when every
    assignment passes (and is recorded for release); with ``mutants``, also grades tests/mutants/<name>/ and
    prints what each mutant costs. Warnings (a gate that cannot see what it guards, scaffold leftovers)
    are printed, and do not fail."""
    from grader.authoring.gate import fingerprint, record_pass
    from grader.authoring.mutants import mutant_report

    try:
        built = build_all(root, names)
    except BuildError as exc:
        for error in exc.errors:
            log.error("%s", error)
        log.error("check stopped: the build fails with %d error(s); nothing was written", len(exc.errors))
        log.debug("where the build stopped", exc_info=exc)
        return 1
    if stale_files(root, built):
        write_trees(root, built)
        log.info("built %s (the generated trees were out of date)", ", ".join(b.name for b in built))
    failed = 0
    for b in built:
        for warning in check_warnings(root, b):
            log.warning("%s", warning)
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


def check_warnings(root: Path, built: BuiltAssignment) -> list[str]:
    """What `check` points out without failing: gates whose inputs cannot show what they guard
    (`gate_power.py`), and what `tasks.py new` wrote as an example and is still there (`scaffold.py`)."""
    from grader.authoring.gate_power import gate_warnings
    from grader.authoring.scaffold import leftovers

    return gate_warnings(root, built) + leftovers(root, built.name)
