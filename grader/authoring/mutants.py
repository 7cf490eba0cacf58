"""Mutants: the solution with one planted change, and what each one costs.

A mutant is a small YAML record in ``tests/mutants/<assignment>/<name>.yaml``, a patch against the
generated solution (``solutions/<assignment>/``), never a copy of it:

    kind: bug            # bug | stub | substitution | alternative
    about: linear_attention_recurrent reads the state before adding token t
    loses: [linear_recurrent, update_before_read]   # exactly the items it may lose
    file: linear_attention.py                       # optional: the first .py student file
    replace:
      - old: "S = S + k"   # must occur exactly once in the file, or the mutant is stale
        new: "S = S - k"

`measure` grades each mutant through the official checks (probes in the sandbox, verdicts here)
and scores it with every exercise cell taken as run, so that only the code decides. `problems`
holds each kind to its promise: a bug loses exactly its declared items, at most two automatic ones
and at most a quarter of the automatic points (unless ``breaks: <works_ check>`` says it breaks a
whole function, then only items requiring that check); a stub loses every code and exercise item;
a substitution loses exactly its declared items; an alternative loses nothing.
"""
from __future__ import annotations

import logging
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from grader.config import Rubric, RubricKind, load_assignment, load_rubric
from grader.errors import LrkitError
from grader.grading.probing import run_checks
from grader.grading.score import Outcomes, score
from grader.results import CellOutcome
from grader.sandbox import sandbox_available

KINDS = ("bug", "stub", "substitution", "alternative")


class MutantError(LrkitError):
    """A mutant record is malformed, or stale: its patch no longer applies to the solution."""


@dataclass(frozen=True)
class Mutant:
    name: str
    kind: str
    about: str
    loses: tuple[str, ...]
    file: str
    replace: tuple[tuple[str, str], ...]
    breaks: str = ""


@dataclass(frozen=True)
class Measured:
    mutant: Mutant
    lost: dict[str, float]          # item id -> points lost
    seconds: float
    notes: tuple[str, ...] = ()
    messages: dict[str, tuple[str, ...]] = field(default_factory=dict)


def load_mutants(folder: Path, default_file: str) -> list[Mutant]:
    mutants = []
    for path in sorted(Path(folder).glob("*.yaml")):
        where = str(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise MutantError(f"{where}: not valid YAML ({exc})") from None
        unknown = set(data) - {"kind", "about", "loses", "file", "replace", "breaks"}
        if unknown or data.get("kind") not in KINDS or not data.get("replace"):
            raise MutantError(f"{where}: needs kind ({'/'.join(KINDS)}), replace: [{{old, new}}], and no other "
                              f"keys than about, loses, file, breaks (found {sorted(data)})")
        pairs = tuple((str(r["old"]), str(r["new"])) for r in data["replace"])
        mutants.append(Mutant(path.stem, data["kind"], str(data.get("about", "")), tuple(data.get("loses") or ()),
                              str(data.get("file", default_file)), pairs, str(data.get("breaks", ""))))
    return mutants


def apply(mutant: Mutant, solution: Path, student_files: tuple[str, ...], into: Path) -> Path:
    """Copy the solution tree (what a graded submission is assembled into, hidden files left out) into
    ``into`` and plant the mutant in one of its student files; stale patches raise."""
    if mutant.file not in student_files:
        raise MutantError(f"mutant {mutant.name}: {mutant.file} is not one of the student files {student_files}")
    shutil.copytree(solution, into, dirs_exist_ok=True, ignore=shutil.ignore_patterns("hidden", "__pycache__"))
    target = into / mutant.file
    text = target.read_text(encoding="utf-8")
    for old, new in mutant.replace:
        text = _replace_once(text, old, new, mutant)
    target.write_text(text, encoding="utf-8")
    return into


PREFIXES = tuple(" " * n for n in range(16, -1, -4))


def _indent(block: str, prefix: str) -> str:
    return "".join(prefix + line if line.strip() else line for line in block.splitlines(keepends=True))


def _replace_once(text: str, old: str, new: str, mutant: Mutant) -> str:
    """Replace the one place where ``old`` occurs, at whatever indentation it sits (YAML blocks lose
    their absolute indentation); ``new`` takes the same indentation. Stale or ambiguous patches raise."""
    found: dict[int, str] = {}
    for prefix in PREFIXES:
        block, start = _indent(old, prefix), 0
        while (at := text.find(block, start)) >= 0:
            found.setdefault(at + len(prefix), prefix)
            start = at + 1
    if len(found) != 1:
        raise MutantError(f"stale mutant {mutant.name}: {mutant.file} contains the text to replace "
                          f"{len(found)} times, not once (has the solution changed?): {old.strip()[:80]!r}")
    (core, prefix), = found.items()
    at = core - len(prefix)
    return text[:at] + _indent(new, prefix) + text[at + len(_indent(old, prefix)):]


def graded_items(rubric: Rubric) -> list[str]:
    """Items the code decides: official checks, and exercise cells (gated on the code)."""
    return [i.id for i in rubric.items if i.kind in (RubricKind.CHECKS, RubricKind.CELLS)]


def automatic_points(rubric: Rubric) -> float:
    return sum(i.points for i in rubric.items if i.kind != RubricKind.MANUAL)


def _cells_ran(rubric: Rubric) -> tuple[CellOutcome, ...]:
    cells = []
    for item in rubric.items:
        for exercise in item.cells:
            cells.append(CellOutcome(len(cells), f"{exercise}-ran", "ok", exercise, figures=item.figures))
    return tuple(cells)


def measure_one(tree: Path, mutant: Mutant, *, unsandboxed: bool = False) -> Measured:
    config, rubric = load_assignment(tree, check_name=False), load_rubric(tree)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"lrkit-mutant-{mutant.name}-") as tmp:
        submission = apply(mutant, tree, config.student_files, Path(tmp))
        run = run_checks(tree, submission, unsandboxed=unsandboxed, config=config)
    outcomes = Outcomes(cases=run.outcomes, cells=_cells_ran(rubric))
    items, _ = score(rubric, outcomes)
    lost = {i.id: i.max_points - i.points for i in items if i.id in graded_items(rubric) and i.points < i.max_points}
    messages = {i.id: i.messages for i in items if i.id in lost}
    return Measured(mutant, lost, round(time.perf_counter() - started, 1), run.notes, messages)


def measure(tree: Path, mutants: list[Mutant], *, jobs: int = 2, unsandboxed: bool = False) -> list[Measured]:
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda m: measure_one(tree, m, unsandboxed=unsandboxed), mutants))


def requiring(rubric: Rubric, check: str) -> set[str]:
    return {i.id for i in rubric.items if check in i.requires}


def problems(rubric: Rubric, measured: Measured) -> list[str]:
    """What is wrong with one measured mutant, measured against the promise of its kind."""
    m, lost = measured.mutant, set(measured.lost)
    auto = automatic_points(rubric)
    name = f"{m.kind} {m.name}"
    out = []
    if m.kind == "stub":
        kept = [i for i in graded_items(rubric) if i not in lost]
        if kept:
            out.append(f"{name} still earns {', '.join(kept)}")
        return out
    if m.kind == "alternative":
        return [f"{name} (a correct implementation) loses {', '.join(sorted(lost))}"] if lost else []
    if lost != set(m.loses):
        extra, missing = sorted(lost - set(m.loses)), sorted(set(m.loses) - lost)
        out.append(f"{name} loses {sorted(lost)}, declared {sorted(m.loses)}"
                   + (f"; not declared: {extra}" if extra else "") + (f"; kept: {missing}" if missing else ""))
    if m.kind == "bug":
        points = sum(measured.lost.values())
        if m.breaks:
            outside = sorted(lost - requiring(rubric, m.breaks))
            if outside:
                out.append(f"{name} breaks {m.breaks} but also loses {outside}, which do not test that function")
        elif len(lost) > 2 or points > auto / 4:
            out.append(f"{name} costs {len(lost)} items and {points:g} points; a single bug may cost at most "
                       f"2 automatic items and {auto / 4:g} points (a quarter of {auto:g})")
        if not lost:
            out.append(f"{name} loses nothing: the checks do not see it")
    return out


def table(rubric: Rubric, measured: list[Measured]) -> str:
    """mutant -> items lost -> points lost, one line each."""
    auto = automatic_points(rubric)
    rows = [("mutant", "kind", "items lost", "points lost")]
    for r in measured:
        items = ", ".join(sorted(r.lost)) or "-"
        rows.append((r.mutant.name, r.mutant.kind, items, f"{sum(r.lost.values()):g} / {auto:g}"))
    width = [max(len(row[k]) for row in rows) for k in range(3)]
    return "\n".join(f"{a:<{width[0]}}  {b:<{width[1]}}  {c:<{width[2]}}  {d}" for a, b, c, d in rows)


log = logging.getLogger(__name__)


def mutant_report(root: Path, name: str, *, jobs: int = 2) -> list[str]:
    """`tasks.py check`: grade tests/mutants/<name>/ against solutions/<name>/, log the table, return problems."""
    folder, tree = root / "tests" / "mutants" / name, root / "solutions" / name
    if not folder.is_dir():
        return []
    config, rubric = load_assignment(tree, check_name=False), load_rubric(tree)
    default = next((f for f in config.student_files if f.endswith(".py")), "")
    try:
        measured = measure(tree, load_mutants(folder, default), jobs=jobs,
                           unsandboxed=not sandbox_available())
    except MutantError as exc:
        return [f"{name}: {exc}"]
    log.info("%s: what each mutant costs (tests/mutants/%s):\n%s", name, name, table(rubric, measured))
    return [f"{name}: mutant {p}" for r in measured for p in problems(rubric, r)]
