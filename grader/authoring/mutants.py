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
whole function, then only items requiring that check, or ``shared: [fn_a, fn_b]`` says it sits in a
helper those functions share, then the budget is per function and every item lost must be one of
theirs); a stub loses every code and exercise item; a substitution loses exactly its declared items;
an alternative loses nothing. A failure that a gate explains (a `requires`/`evidence` check that
failed, taking every item behind it) says which gate. ``scaffold: true`` marks the example that
`tasks.py new` wrote (`check` says to replace it); `stale_mutants` is what `release` refuses.
"""
from __future__ import annotations

import logging
import re
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from grader.config import Rubric, RubricKind, load_assignment, load_rubric
from grader.errors import LrkitError
from grader.grading.costs import charged_by_rule
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
    shared: tuple[str, ...] = ()  # functions sharing the helper the bug is in
    scaffold: bool = False  # the example `tasks.py new` wrote
    path: str = ""  # the record, as shown: tests/mutants/<assignment>/<name>.yaml


@dataclass(frozen=True)
class Measured:
    mutant: Mutant
    lost: dict[str, float]          # item id -> points lost
    seconds: float
    notes: tuple[str, ...] = ()
    messages: dict[str, tuple[str, ...]] = field(default_factory=dict)
    gates_failed: dict[str, str] = field(default_factory=dict)  # gate check -> its first failing message


KEYS = {"kind", "about", "loses", "file", "replace", "breaks", "shared", "scaffold"}


def _record_problem(data) -> tuple[str, str] | None:
    """(the key at fault, what is wrong with it) for a mutant record that is not one, else None."""
    if not isinstance(data, dict):
        return "", f"a mutant is a mapping (kind, about, loses, replace), not a {type(data).__name__}"
    unknown = sorted(str(k) for k in set(data) - KEYS)
    if unknown:
        return unknown[0], (f"unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})")
    if data.get("kind") not in KINDS:
        return "kind", (f"kind {data.get('kind')!r} is not one of {', '.join(KINDS)} (docs/authoring.md, "
                        "'Mutants': what each kind promises)")
    if not isinstance(data.get("replace"), list) or not data["replace"]:
        return "replace", "needs replace: [{old: <text of the solution>, new: <the mutant's text>}, ...]"
    return None


def _line_of(path: Path, key: str) -> int:
    """The line of ``key:`` at the top level of a YAML file (1 when not found)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return 1
    return next((n for n, line in enumerate(lines, 1) if key and line.startswith(f"{key}:")), 1)


def load_mutants(folder: Path, default_file: str, root: Path | None = None) -> list[Mutant]:
    mutants = []
    for path in sorted(Path(folder).glob("*.yaml")):
        where = path.relative_to(root).as_posix() if root and path.is_relative_to(root) else str(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise MutantError(f"{where}: not valid YAML ({exc})") from None
        problem = _record_problem(data)
        if problem:
            raise MutantError(f"{where}:{_line_of(path, problem[0])}: {problem[1]}")
        if not all(isinstance(r, dict) and {"old", "new"} <= set(r) for r in data["replace"]):
            raise MutantError(f"{where}: every entry of replace needs 'old' and 'new'")
        pairs = tuple((str(r["old"]), str(r["new"])) for r in data["replace"])
        shared = data.get("shared") or ()
        mutants.append(Mutant(path.stem, data["kind"], str(data.get("about", "")), tuple(data.get("loses") or ()),
                              str(data.get("file", default_file)), pairs, str(data.get("breaks", "")),
                              tuple(str(f) for f in (shared if isinstance(shared, (list, tuple)) else [shared])),
                              data.get("scaffold") is True, where))
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
        line = _old_line(mutant, old)
        where = (mutant.path or f"mutant {mutant.name}") + (f":{line}" if line else "")
        example = " (the example 'tasks.py new' wrote: delete it, or write one against your own code)" \
            if mutant.scaffold else ""
        raise MutantError(f"{where}: stale mutant {mutant.name}: the solution's {mutant.file} contains its 'old' "
                          f"text {len(found)} times, not once (has the solution changed?): "
                          f"{old.strip().splitlines()[0][:80]!r}{example}")
    (core, prefix), = found.items()
    at = core - len(prefix)
    return text[:at] + _indent(new, prefix) + text[at + len(_indent(old, prefix)):]


def _old_line(mutant: Mutant, old: str) -> int | None:
    """The line of the `old:` entry holding ``old`` in the mutant's record (None if it cannot be read)."""
    try:
        node = yaml.compose(Path(mutant.path).read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, yaml.YAMLError):
        return None
    for key, value in node.value if isinstance(node, yaml.MappingNode) else []:
        if key.value != "replace" or not isinstance(value, yaml.SequenceNode):
            continue
        for entry in value.value:
            for k, v in entry.value if isinstance(entry, yaml.MappingNode) else []:
                if k.value == "old" and str(v.value) == old:
                    return k.start_mark.line + 1
    return None


def stale_mutants(root: Path, name: str) -> list[str]:
    """Why each mutant of ``name`` no longer applies to `solutions/<name>/` (empty: all apply)."""
    folder, tree = root / "tests" / "mutants" / name, root / "solutions" / name
    if not folder.is_dir() or not tree.is_dir():
        return []
    config = load_assignment(tree, check_name=False)
    default = next((f for f in config.student_files if f.endswith(".py")), "")
    try:
        mutants = load_mutants(folder, default, root)
    except MutantError as exc:
        return [f"{exc}; fix the mutant's record"]
    problems = []
    for m in mutants:
        target = tree / m.file
        if m.file not in config.student_files or not target.is_file():
            problems.append(f"{m.path}: {m.file} is not one of the student files {list(config.student_files)}")
            continue
        text = target.read_text(encoding="utf-8")
        try:
            for old, new in m.replace:
                text = _replace_once(text, old, new, m)
        except MutantError as exc:
            problems.append(f"{exc}; update the mutant's 'old' text to today's solution, or delete the mutant")
    return problems


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
    gates = {g for i in rubric.items for g in (*i.requires, *i.evidence)}
    failed: dict[str, str] = {}
    for case in run.outcomes:
        if case.check in gates and not case.passed:
            failed.setdefault(case.check, case.message)
    return Measured(mutant, lost, round(time.perf_counter() - started, 1), run.notes, messages, failed)


def measure(tree: Path, mutants: list[Mutant], *, jobs: int = 2, unsandboxed: bool = False) -> list[Measured]:
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda m: measure_one(tree, m, unsandboxed=unsandboxed), mutants))


def requiring(rubric: Rubric, check: str) -> set[str]:
    return {i.id for i in rubric.items if check in i.requires or check in i.evidence}


def problems(rubric: Rubric, measured: Measured, texts: dict[str, str] | None = None) -> list[str]:
    """What is wrong with one measured mutant, measured against the promise of its kind. ``texts``: each
    item's words (id, title, checks, their titles and causes), to tell a `shared` function's items."""
    m, lost = measured.mutant, set(measured.lost)
    name = f"{m.kind} {m.name}"
    if m.kind == "stub":
        kept = [i for i in graded_items(rubric) if i not in lost]
        return [f"{name} still earns {', '.join(kept)}"] if kept else []
    if m.kind == "alternative":
        return [f"{name} (a correct implementation) loses {', '.join(sorted(lost))}{_gates(rubric, measured)}"] \
            if lost else []
    out = []
    if lost != set(m.loses):
        extra, missing = sorted(lost - set(m.loses)), sorted(set(m.loses) - lost)
        out.append(f"{name} loses {sorted(lost)}, declared {sorted(m.loses)}"
                   + (f"; not declared: {extra}" if extra else "") + (f"; kept: {missing}" if missing else ""))
    if m.kind == "bug":
        out += _bug_budget(rubric, measured, texts or {})
    if out and not (m.kind == "bug" and not lost):
        out[-1] += _gates(rubric, measured)
    return out


def _bug_budget(rubric: Rubric, measured: Measured, texts: dict[str, str]) -> list[str]:
    """The fairness rule for one bug: at most 2 automatic items and a quarter of the automatic points, per
    function it touches (`shared`), or only the items requiring the check it `breaks`."""
    m, lost = measured.mutant, set(measured.lost)
    name, auto = f"{m.kind} {m.name}", automatic_points(rubric)
    out = []
    if not lost:
        return [f"{name} loses nothing: the checks do not see it"]
    # A cost counts only for correct work (grader/grading/costs.py): a bug that makes a form wrong also
    # costs that form's cost item, by the rule and not by a cascade; one such item is not held against it.
    lost = lost - set(charged_by_rule({i: measured.messages.get(i, ()) for i in lost}))
    points = sum(p for i, p in measured.lost.items() if i in lost)
    if m.breaks:
        outside = sorted(lost - requiring(rubric, m.breaks))
        if outside:
            out.append(f"{name} breaks {m.breaks} but also loses {outside}, which do not test that function")
        return out
    functions = max(1, len(m.shared))
    if m.shared:
        foreign = sorted(i for i in lost if not any(_mentions(texts.get(i, i), f) for f in m.shared))
        if foreign:
            out.append(f"{name} is declared shared by {', '.join(m.shared)} but also loses {foreign}, whose id, title "
                       "and checks name none of them")
    if len(lost) > 2 * functions or points > functions * auto / 4:
        per = f" per function it touches ({functions}: {', '.join(m.shared)})" if m.shared else ""
        out.append(f"{name} costs {len(lost)} items and {points:g} points; a single bug may cost at most "
                   f"{2 * functions} automatic items and {functions * auto / 4:g} points (a quarter of {auto:g}"
                   f"{per}); a bug in a helper several functions use can say so with 'shared: [fn_a, fn_b]'"
                   if not m.shared else
                   f"{name} costs {len(lost)} items and {points:g} points; shared by {functions} function(s) it may "
                   f"cost at most {2 * functions} automatic items and {functions * auto / 4:g} points")
    return out


def _mentions(text: str, function: str) -> bool:
    short = function.rsplit(".", 1)[-1]
    return bool(re.search(rf"(?<![A-Za-z0-9]){re.escape(short)}(?![A-Za-z0-9])", text)) or short in text


def _gates(rubric: Rubric, measured: Measured) -> str:
    """Which failed gates take which lost items (" " + sentence, or "")."""
    said = []
    for gate, message in sorted(measured.gates_failed.items()):
        behind = sorted(i for i in requiring(rubric, gate) if i in measured.lost)
        if behind:
            said.append(f"gate {gate} failed ({message.split(': ', 1)[-1][:160].rstrip('.')}), which takes "
                        f"{', '.join(behind)}")
    return ("; " + "; ".join(said)) if said else ""


def item_texts(rubric: Rubric, specs: dict) -> dict[str, str]:
    """Each item's words: id, title, its checks and gates, and their titles and causes."""
    texts = {}
    for item in rubric.items:
        names = (*item.checks, *item.requires, *item.evidence)
        words = [item.id, item.title, *names]
        for n in names:
            if n in specs:
                words += [specs[n].title, specs[n].cause]
        texts[item.id] = " ".join(words)
    return texts


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
    stale = stale_mutants(root, name)
    if stale:
        return stale
    from grader.grading.checks import load_checks

    try:
        measured = measure(tree, load_mutants(folder, default, root), jobs=jobs,
                           unsandboxed=not sandbox_available())
    except MutantError as exc:
        return [str(exc)]
    log.info("%s: what each mutant costs (tests/mutants/%s):\n%s", name, name, table(rubric, measured))
    log_rates(name, rubric, measured)
    texts = item_texts(rubric, load_checks(tree / "hidden"))
    return [f"{r.mutant.path}: mutant {p}" for r in measured for p in problems(rubric, r, texts)]


def log_rates(name: str, rubric: Rubric, measured: list[Measured]) -> None:
    """The fairness figures of the mutant table, as a blind corpus states them (grader/authoring/corpus.py)."""
    from grader.authoring.corpus import Case, Rated, rates

    code = set(graded_items(rubric))
    rated = [Rated(Case(r.mutant.name, r.mutant.kind if r.mutant.kind in ("bug", "stub", "alternative") else "bug",
                        r.mutant.about, r.mutant.loses), r.lost,
                   sum(i.points for i in rubric.items if i.id in code and i.id not in r.lost), "graded")
             for r in measured if r.mutant.kind != "substitution"]
    figures = rates(rated, automatic_points(rubric))
    log.info("%s: mutant rates: %s", name, "; ".join(f"{k}: {v}" for k, v in figures.items() if "answers" not in k))
