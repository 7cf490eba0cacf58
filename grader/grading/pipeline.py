"""Grade one submission: the stages, in order, as one visible pipeline.

    open bundle -> unpack submission onto the template -> prepare + execute notebook
    -> official checks (probe/verdict pairs) -> answers -> score -> Report

`grade_submission` is the official path (sandboxed, hidden checks, full answer key);
`grader.student.local.grade_local` (the student's `grade --local`) runs `grade_tree` with public material.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import platform
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from grader import __version__, sandbox
from grader.bundle import Bundle, folder_hash, open_bundle
from grader.config import AssignmentConfig, Rubric, RubricKind
from grader.grading import messages
from grader.grading.answers import (
    AnswerFormatError,
    check_answers,
    extract_answer_block,
    load_key,
    parse_answers,
)
from grader.grading.answers.formulas import variant_key
from grader.grading.execute import (
    NotebookError,
    execute_notebook,
    execution_hooks,
    prepare_notebook,
    read_notebook,
    skipped_run,
)
from grader.grading.fingerprint import check_fingerprints
from grader.grading.intake import assemble, submission_name, take_in
from grader.grading.notebook import answer_id_of, cell_source, exercise_cell_counts, is_answers_cell
from grader.grading.probing import CheckRun, run_checks
from grader.grading.public_tests import run_public_tests
from grader.grading.score import Outcomes, cause_notes, score
from grader.grading.targets import bundle_error_message, bundle_problems
from grader.grading.unpack import SubmissionError
from grader.grading.variant import default_numbers, resolve
from grader.grading.version import grader_version
from grader.results import AnswerOutcome, CellOutcome, Figure, ItemResult, Report

log = logging.getLogger(__name__)


def environment() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    return {"lrkit": __version__, "grader": grader_version(), "python": platform.python_version(),
            "torch": installed("torch"), "numpy": installed("numpy"), "nbclient": installed("nbclient"),
            "ipykernel": installed("ipykernel"),
            "platform": platform.platform(terse=True), "seed": "fixed per case"}


def _answers(nb: dict, key: dict, rubric: Rubric, where: str) -> tuple[dict, list[str]]:
    """Parse every `answers` cell and free-text answer cell; judge against ``key``."""
    given: dict[str, str] = {}
    free: dict[str, str] = {}
    notes: list[str] = []
    for n, cell in enumerate(nb["cells"]):
        source = cell_source(cell)
        if is_answers_cell(cell):
            block = extract_answer_block(source)
            try:
                given.update(parse_answers(block or "", f"{where}, the answers cell (cell {n + 1} from the top)"))
            except AnswerFormatError as exc:
                notes.append(str(exc))
        if answer_id_of(cell):
            body = source.split("\n", 1)[1] if "\n" in source else ""
            free[answer_id_of(cell)] = body.replace("_Type your answer here._", "").strip()
    outcomes: dict[str, AnswerOutcome] = {}
    for item in rubric.items:
        for answer_id in item.answers:
            if answer_id in key:
                outcomes[answer_id] = _judge_answer(key, given, answer_id)
            else:
                outcomes[answer_id] = AnswerOutcome(answer_id, "unchecked", given.get(answer_id, ""),
                                                    "checked by the official grader")
        for answer_id in item.manual:
            text = free.get(answer_id)
            status = "missing" if text is None else "blank" if not text else "unchecked"
            outcomes[answer_id] = AnswerOutcome(answer_id, status, (text or "")[:2000])
    return outcomes, notes


def _judge_answer(key: dict, given: dict[str, str], answer_id: str) -> AnswerOutcome:
    """One answer judged; whatever the text, an outcome (an answer that breaks the judge is unreadable)."""
    try:
        return check_answers(key, given, [answer_id])[0]
    except Exception as exc:
        log.warning("answer %s could not be judged: %s: %s", answer_id, type(exc).__name__, exc)
        return AnswerOutcome(answer_id, "unreadable", given.get(answer_id, "")[:200],
                             "could not be read as an answer; write a plain number, unit or choice as in the template")


def _exercise_cells(template_nb: dict) -> dict[str, int]:
    return exercise_cell_counts(template_nb)


class StageCache(Protocol):
    """What `grade_tree` asks of a stage cache (the student room's `LocalCache`): wrap the notebook and
    public-test stages so that one whose inputs did not change returns its last result."""

    def wrap(self, tree: Path, config: AssignmentConfig, prepared: dict, notebook, tests, fallback): ...


@dataclass(frozen=True)
class GradedTree:
    """What the stages shared by the official and the local path decided about one tree."""

    items: tuple[ItemResult, ...]
    score: float
    cells: tuple[CellOutcome, ...]
    figures: tuple[Figure, ...]
    notes: tuple[str, ...]
    isolation: tuple[str, ...]
    timings: dict[str, float]
    status: str
    fingerprints: dict[str, str] = dataclasses.field(default_factory=dict)  # check -> its wrong outputs' digest
    variant: dict = dataclasses.field(default_factory=dict)  # the student's numbers (grader/grading/variant.py)


def _timed(fn, *args, **kwargs):
    started = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, round(time.perf_counter() - started, 2)


@dataclass(frozen=True)
class HandedIn:
    """The submitted notebook, read and cleaned onto the template's (or the template's, when it is missing or
    unreadable: ``handed_in`` False and ``skip`` says why its cells did not run)."""

    prepared: dict
    handed_in: bool
    skip: str
    notes: tuple[str, ...]


def _hand_in(tree: Path, template: Path, config: AssignmentConfig, template_nb: dict) -> HandedIn:
    nb_path = tree / config.notebook
    prepared = _template_notebook(template, config)
    if not nb_path.is_file():  # a submission without its notebook is graded on what it has
        return HandedIn(prepared, False, f"the notebook was not run: {config.notebook} is not in the submission", ())
    try:  # a notebook that cannot be read costs the notebook's items, not the code's
        submitted = read_notebook(nb_path.read_text(encoding="utf-8", errors="replace"), config.notebook)
        prepared, prep_notes = prepare_notebook(submitted, template_nb)
    except NotebookError as exc:
        return HandedIn(prepared, False, f"the notebook was not run and its answers were not read: {exc}", ())
    return HandedIn(prepared, True, "", tuple(prep_notes))


def _run_stages(tree: Path, config: AssignmentConfig, nb: HandedIn, *, checks_from: Path | None,
                unsandboxed: bool, parallel: bool, cache: StageCache | None, lanes: int = 1):
    """(the notebook's run, the checks' or public tests' run, timings). The notebook and the checks (or
    public tests) run side by side, in separate sandboxed processes, each on its own copy of the tree. A
    module whose import already hangs does not get to hang the notebook too: once the checks say so, the
    notebook run is stopped and marked skipped."""
    timings: dict[str, float] = {}
    cancel = threading.Event()

    def notebook(part: dict | None = None):  # part: the notebook with only some code cells left (grade --local)
        if not nb.handed_in:
            return skipped_run(nb.prepared, nb.skip)
        return execute_notebook(tree, config.notebook, part or nb.prepared, config.limits, unsandboxed=unsandboxed,
                                cancel=cancel)

    def checks(select: tuple[str, ...] | None = None):  # select: some public tests' node ids (grade --local)
        if checks_from is not None:
            return run_checks(checks_from, tree, unsandboxed=unsandboxed, config=config, lanes=lanes)
        return run_public_tests(tree, config.public_tests, timeout=config.limits.notebook_timeout_s,
                                memory_mb=config.limits.memory_mb, select=select)

    if cache is not None:  # grade --local: a stage whose inputs did not change is not run again
        notebook, checks = cache.wrap(tree, config, nb.prepared, notebook if nb.handed_in else None, checks, notebook)
    if parallel:
        with ThreadPoolExecutor(max_workers=1) as pool:
            nb_future = pool.submit(_timed, notebook)
            other, timings["checks_s"] = _timed(checks)
            if other.import_hung:
                cancel.set()
            run, timings["notebook_s"] = nb_future.result()
    else:
        other, timings["checks_s"] = _timed(checks)
        run, timings["notebook_s"] = (None, 0.0) if other.import_hung else _timed(notebook)
    if other.import_hung:
        run = skipped_run(nb.prepared, "the notebook was not run: importing your module already hangs "
                                       "(see the checks)")
    timings.update(notebook_peak_mb=run.peak_memory_mb, checks_peak_mb=other.peak_memory_mb,
                   notebook_cpu_s=run.cpu_s, checks_cpu_s=other.cpu_s)
    if isinstance(other, CheckRun):  # (official) of the checks' CPU, the student's cost runs
        timings["checks_cost_cpu_s"] = other.cost_cpu_s
    return run, other, timings


@dataclass(frozen=True)
class Student:
    """Whose submission it is, as far as the caller knows (``source``: where ``id`` came from, in words);
    the notebook's STUDENT_ID cell answers when ``id`` is empty."""

    id: str = ""
    source: str = ""


def _judged_answers(nb: HandedIn, key: dict, rubric: Rubric, config: AssignmentConfig, student: Student):
    """(outcomes, notes, the report's `variant`): the answers judged with the student's own numbers."""
    cells = nb.prepared if nb.handed_in else {"cells": []}
    variant = resolve(config, student.id, student.source, cells)
    own_key = variant_key(key, variant.parameters) if variant else key
    answers, notes = _answers(cells, own_key, rubric, config.notebook)
    if variant is None:
        return answers, notes, {}
    answers, record = default_numbers(answers, own_key, key, variant)
    return answers, [*variant.notes, *notes], record


def grade_tree(tree: Path, template: Path, config: AssignmentConfig, rubric: Rubric, *, key: dict,
               checks_from: Path | None, unsandboxed: bool, parallel: bool = True,
               cache: StageCache | None = None, student: Student = Student(), lanes: int = 1) -> GradedTree:
    """The stages shared by the official and the local path (``cache``: the local path's stage results;
    ``key``: the answer key at the default numbers, judged at ``student``'s own; ``lanes``: the checks' runs at
    once, `probing.run_checks`)."""
    if not unsandboxed:  # before any run of this grading is forked: each finds the same modules imported
        sandbox.warm.preload(config.preload)
    template_nb = json.loads((template / config.notebook).read_text())
    nb = _hand_in(tree, template, config, template_nb)
    run, other, timings = _run_stages(tree, config, nb, checks_from=checks_from, unsandboxed=unsandboxed,
                                      parallel=parallel, cache=cache, lanes=lanes)
    notes = [*nb.notes, *run.notes, *other.notes]
    official = checks_from is not None
    cases, isolation = (other.outcomes, other.isolation or run.isolation) if official else ((), run.isolation)
    hooks = execution_hooks(nb.prepared)
    withheld = ""
    if hooks:
        withheld = ("no credit for notebook cells: the notebook changes how IPython executes cells ("
                    + "; ".join(hooks[:3]) + "), so 'this cell ran' cannot be trusted (flagged for review)")
        notes.append("tampering suspected: " + withheld)
    answers, answer_notes, variant = _judged_answers(nb, key, rubric, config, student)
    notes += answer_notes
    outcomes = Outcomes(cases=cases, cells=run.cells, answers=answers, tests=None if official else other.outcomes,
                        checks_run=official, exercise_cells=_exercise_cells(template_nb), cells_withheld=withheld)
    items, total = score(rubric, outcomes)
    notes += cause_notes(items)
    nothing_ran = not any(c.status == "ok" for c in run.cells)
    status = "timeout" if other.import_hung or (run.status == "timeout" and nothing_ran) else "graded"
    return GradedTree(items, total, run.cells, run.figures, tuple(notes), isolation, timings, status,
                      check_fingerprints(cases), variant)


def failed_report(config: AssignmentConfig, rubric: Rubric, name: str, status: str, message: str, *,
                  official: bool = True, bundle_hash: str = "", submission_hash: str = "") -> Report:
    """A report with every item at 0 and ``message`` saying why (invalid, crashed, bundle_error ...)."""
    items = tuple(ItemResult(i.id, i.title, 0.0, i.points, "failed", i.kind, hidden=i.kind == RubricKind.CHECKS,
                             messages=(message,)) for i in rubric.items)
    return Report(config.name, name, status, 0.0, rubric.total, items, official, notes=(message,),
                  environment=environment(), submission_hash=submission_hash, bundle_hash=bundle_hash)


def grade_submission(submission: Path, bundle_path: Path | Bundle, *, unsandboxed: bool = False,
                     name: str | None = None, parallel: bool = True, student: str = "", lanes: int = 1) -> Report:
    """Official grading of one submission (a folder, a .zip or a bare notebook) against an autograder
    bundle (its zip or folder, or a `Bundle` already opened, as a batch does once for the class).
    ``student``: the student's id when the caller knows it (it wins over what the submission says).
    ``lanes``: how many of the checks' sandboxed runs go at once (`probing.run_checks`; `lanes_for` says how many
    a grader with cores to spare may use).

    Always a report: a fault of the submission is `invalid`, anything else that goes wrong while
    grading it (a bug of ours included) is `crashed`, with the cause in words. Only a broken
    bundle (the instructor's) raises."""
    submission = Path(submission)
    name = name or submission_name(submission)
    if not unsandboxed:
        sandbox.warm.prestart()  # the warm-start template imports torch while the bundle is opened
    with ExitStack() as stack:
        bundle = bundle_path if isinstance(bundle_path, Bundle) else \
            open_bundle(Path(bundle_path), stack.enter_context(sandbox.scratch_dir("bundle")))
        problems = bundle_problems(bundle.solution, bundle.template, bundle.config, bundle.rubric, bundle.hash)
        if problems:  # the instructor's mistake: grading against it would cost students points
            return failed_report(bundle.config, bundle.rubric, name, "bundle_error",
                                 bundle_error_message(bundle.config.name, problems), bundle_hash=bundle.hash)
        try:
            return _grade_submission(submission, bundle, unsandboxed=unsandboxed, name=name, parallel=parallel,
                                     student=student, lanes=lanes)
        except Exception as exc:  # nothing about one submission may stop a class
            log.exception("grading %s crashed", name)
            return failed_report(bundle.config, bundle.rubric, name, "crashed", messages.grader_failed(exc),
                                 bundle_hash=bundle.hash)


def _grade_submission(submission: Path, bundle: Bundle, *, unsandboxed: bool, name: str, parallel: bool,
                      student: str, lanes: int) -> Report:
    started = time.perf_counter()
    with sandbox.scratch_dir("grade") as work:
        config, rubric = bundle.config, bundle.rubric
        try:
            intake = take_in(submission, work, bundle)
            tree, notes = assemble(intake, bundle.template, config, work)
            sub_hash = folder_hash(work / "unpacked")
        except SubmissionError as exc:
            return failed_report(config, rubric, name, "invalid", str(exc), bundle_hash=bundle.hash)
        key = answer_key(bundle.solution, config)
        try:
            graded = grade_tree(tree, bundle.template, config, rubric, key=key, checks_from=bundle.solution,
                                unsandboxed=unsandboxed, parallel=parallel, student=_student(student, intake),
                                lanes=lanes)
        except NotebookError as exc:
            return failed_report(config, rubric, name, "invalid", str(exc), bundle_hash=bundle.hash,
                                 submission_hash=sub_hash)
        graded = _feedback_after_publishing(graded, rubric, answer_key(bundle.template, config), config)
    if intake.missing and graded.status == "graded":
        graded = dataclasses.replace(graded, status="incomplete")
    if unsandboxed:
        notes.append("graded WITHOUT a sandbox (--allow-unsandboxed): not an official grade")
    return build_report(config, rubric, name, graded, started, official=not unsandboxed, before=notes,
                   submission_hash=sub_hash, bundle_hash=bundle.hash)


def _student(given: str, intake) -> Student:
    if given:
        return Student(given, "the grader's list of students")
    found = intake.identity.student if intake.identity else ""
    return Student(found, "lrkit-assignment.json (or the notebook's metadata)" if found else "")


def _template_notebook(template: Path, config: AssignmentConfig) -> dict:
    """The template's notebook, read and prepared like a submitted one (what a missing notebook shows)."""
    text = (template / config.notebook).read_text(encoding="utf-8")
    return prepare_notebook(read_notebook(text, config.notebook), json.loads(text))[0]


def answer_key(folder: Path, config: AssignmentConfig) -> dict:
    path = folder / "answer_key.yaml"
    return load_key(path, sigfigs=config.answers.sigfigs, hints=config.answers.hints,
                    variants=config.variants) if path.is_file() else {}


def _feedback_after_publishing(graded: GradedTree, rubric: Rubric, public_key: dict,
                               config: AssignmentConfig) -> GradedTree:
    """Answer items judged against a hidden key are `hidden`: Gradescope shows their feedback once
    grades are published, so it cannot steer resubmissions (unless `answers.feedback: visible`)."""
    if config.answers.feedback == "visible":
        return graded
    secret = {i.id for i in rubric.items
              if i.kind == RubricKind.ANSWERS and any(a not in public_key for a in i.answers)}
    items = tuple(dataclasses.replace(i, hidden=True) if i.id in secret else i for i in graded.items)
    return dataclasses.replace(graded, items=items)


def build_report(config: AssignmentConfig, rubric: Rubric, name: str, graded: GradedTree, started: float, *,
            official: bool, before: list[str] = (), after: list[str] = (), submission_hash: str = "",
            bundle_hash: str = "") -> Report:
    """The one place a graded tree becomes a Report."""
    timings = {**graded.timings, "total_s": round(time.perf_counter() - started, 2)}
    return Report(config.name, name, graded.status, graded.score, rubric.total, graded.items, official,
                  isolation=graded.isolation, cells=graded.cells, figures=graded.figures,
                  notes=(*before, *graded.notes, *after), environment=environment(), timings=timings,
                  submission_hash=submission_hash, bundle_hash=bundle_hash, fingerprints=graded.fingerprints,
                  variant=graded.variant)
