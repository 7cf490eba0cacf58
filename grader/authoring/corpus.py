"""Blind corpora: submissions written by someone who never read the checks, graded once, rated.

A corpus is a folder (``tests/blind/<assignment>/<round>/``) of complete submissions, one folder per
case, and a ``corpus.yaml`` saying what each case is:

    - name: normalizer_wrong_axis       # the case's folder
      kind: bug                          # bug | alternative | stub | answer
      about: the normalizer sums over the keys' feature axis instead of the positions
      should_lose: [linear_parallel, normalizer]   # the rubric items the bug is about (judged from the rubric)

`grade_corpus` grades every case through the official pipeline (the notebook run in the sandbox, the
hidden checks, the answers), exactly as a class is graded; `rate` compares what each case lost with
what it should lose and gives the figures the fairness promise is about: bugs that lose only their
items, misses, cascades (items and points beyond), stubs' points, alternatives' losses. The mutant
tables measure the checks on the bugs they were tuned on; a corpus measures them on bugs nobody fitted.

A bug's own form's cost item, lost by the rule that a cost counts only for correct work
(``costs.charged_by_rule``), is not counted beyond its items: the mutant budget reads the same rule.

An attack corpus pairs each trick with its honest control (the same algorithm, no trick):

    - {name: ctrl_chunkwise_parallel, kind: control, about: retention_chunkwise calls the parallel form}
    - {name: atk_parallel_in_memfd, kind: attack, control: ctrl_chunkwise_parallel, about: ... in a memfd}

and an attack is "ok" when it loses at least every item its control loses: the trick gained nothing.
"""
from __future__ import annotations

import logging
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from grader.config import ConfigError, RubricKind, load_rubric
from grader.grading.costs import charged_by_rule
from grader.report.render import load_report
from grader.results import Report

log = logging.getLogger(__name__)

KINDS = ("bug", "alternative", "stub", "answer", "control", "attack")
# the promise, as issue 22 states it: a single bug costs its own items, at most one beyond and never
# more than 15 % of the automatic points
ONE_BEYOND, BEYOND_SHARE = 1, 0.15


@dataclass(frozen=True)
class Case:
    name: str
    kind: str
    about: str
    should_lose: tuple[str, ...]
    control: str = ""  # an attack's honest control: the same algorithm without the trick (kind `control`)


@dataclass(frozen=True)
class Rated:
    case: Case
    lost: dict[str, float]  # automatic item id -> points lost
    earned: float  # points earned on code and exercise items (a stub keeps its notebook's answers)
    status: str  # the report's status (graded, crashed, ...)
    by_rule: tuple[str, ...] = ()  # the form's cost item, lost by the rule that a cost counts only for correct work
    control_lost: tuple[str, ...] = ()  # an attack's: what its honest control lost

    @property
    def gained(self) -> tuple[str, ...]:
        """An attack's gain: items its honest control lost and it kept (the trick fooled those checks)."""
        return tuple(sorted(set(self.control_lost) - set(self.lost)))

    @property
    def beyond(self) -> dict[str, float]:
        return {i: p for i, p in self.lost.items() if i not in self.case.should_lose and i not in self.by_rule}

    def verdict(self, automatic: float) -> str:
        """What this case says about the checks: ok, missed, cascade, within (one item beyond, small)."""
        kind = self.case.kind
        if kind == "alternative":
            return "ok" if not self.lost else "loses"
        if kind == "stub":
            return "ok" if self.earned == 0 else "earns"
        if kind == "answer":
            return "ok" if set(self.lost) == set(self.case.should_lose) else "disagrees"
        if kind == "control":
            return "control"
        if kind == "attack":
            return "fools" if self.gained else "ok"
        if not self.case.should_lose:  # a bug in a hand-graded answer (or an ungraded part): nothing to take
            return "by hand" if not self.lost else ("within" if self._small(automatic) else "cascade")
        if not set(self.lost) & set(self.case.should_lose):
            return "missed"
        if not self.beyond:
            return "ok"
        return "within" if self._small(automatic) else "cascade"

    def _small(self, automatic: float) -> bool:
        return len(self.beyond) <= ONE_BEYOND and sum(self.beyond.values()) <= BEYOND_SHARE * automatic


def load_corpus(folder: Path) -> list[Case]:
    """The cases of ``folder/corpus.yaml``, each with its submission folder present."""
    path = folder / "corpus.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(path, f"cannot read the corpus: {exc}") from None
    if not isinstance(data, list):
        raise ConfigError(path, "a corpus is a YAML list of cases (name, kind, about, should_lose)")
    cases = []
    for n, entry in enumerate(data):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise ConfigError(path, f"case {n + 1}: a mapping with a `name` (the case's folder)")
        name, kind = entry["name"], entry.get("kind")
        if kind not in KINDS:
            raise ConfigError(path, f"case {name!r}: kind {kind!r} is not one of {', '.join(KINDS)}")
        if not (folder / name).is_dir():
            raise ConfigError(path, f"case {name!r}: no folder {folder / name}")
        lose = entry.get("should_lose") or []
        if not isinstance(lose, list) or not all(isinstance(i, str) for i in lose):
            raise ConfigError(path, f"case {name!r}: should_lose is a list of rubric item ids")
        control = entry.get("control") or ""
        if kind == "attack" and not (isinstance(control, str) and control):
            raise ConfigError(path, f"case {name!r}: an attack names its honest control (control: <case name>)")
        cases.append(Case(name, kind, str(entry.get("about", "")), tuple(lose), str(control)))
    names = {c.name: c.kind for c in cases}
    for case in cases:
        if case.control and names.get(case.control) not in ("control", "alternative", "bug", "stub"):
            raise ConfigError(path, f"case {case.name!r}: its control {case.control!r} is not a case of this corpus")
    return cases


def grade_corpus(folder: Path, bundle_zip: Path, out: Path, *, jobs: int = 2, unsandboxed: bool = False) -> None:
    """Grade every case of ``folder`` into ``out/<case>/`` (one class batch; kept between runs)."""
    from grader.batch.run import grade_batch

    cases = load_corpus(folder)
    with tempfile.TemporaryDirectory(prefix="lrkit-corpus-") as tmp:
        staged = Path(tmp) / "class"
        staged.mkdir()
        for case in cases:
            shutil.copytree(folder / case.name, staged / case.name, ignore=shutil.ignore_patterns("__pycache__"))
        grade_batch(staged, bundle_zip, out, jobs=jobs, unsandboxed=unsandboxed)


def rate(folder: Path, out: Path, solution: Path) -> list[Rated]:
    """Each case of ``folder`` against its report in ``out``."""
    rubric = load_rubric(solution)
    automatic = {i.id for i in rubric.items if i.kind != RubricKind.MANUAL}
    code = {i.id for i in rubric.items if i.kind in (RubricKind.CHECKS, RubricKind.CELLS)}
    rated = []
    cases = load_corpus(folder)
    for case in cases:
        # what a bug should lose, automatically: a hand-graded answer's item is the TA's to take
        case = replace(case, should_lose=tuple(i for i in case.should_lose if i in automatic))
        report: Report = load_report(out / case.name / "report.json")
        items = [i for i in report.items if i.id in automatic]
        lost = {i.id: round(i.max_points - i.points, 6) for i in items if i.points < i.max_points}
        by_rule = charged_by_rule({i.id: i.messages for i in items if i.id in lost}) if case.kind == "bug" else ()
        rated.append(Rated(case, lost, sum(i.points for i in items if i.id in code), report.status, by_rule))
    lost_by = {r.case.name: tuple(sorted(r.lost)) for r in rated}
    return [replace(r, control_lost=lost_by[r.case.control]) if r.case.control else r for r in rated]


def automatic_points(solution: Path) -> float:
    return sum(i.points for i in load_rubric(solution).items if i.kind != RubricKind.MANUAL)


def table(rated: list[Rated], automatic: float) -> str:
    """One Markdown row per case: what it should lose, what it lost, what it lost beyond."""
    rows = ["| case | kind | should lose | lost | beyond (points) | verdict |", "|---|---|---|---|---|---|"]
    for r in rated:
        beyond = r.beyond
        lost = [f"{i} (by rule)" if i in r.by_rule else i for i in sorted(r.lost)]
        should = (f"what {r.case.control} loses: {', '.join(r.control_lost) or '-'}" if r.case.kind == "attack"
                  else ', '.join(r.case.should_lose) or '-')
        if r.case.kind == "attack":
            beyond = {i: 0.0 for i in r.gained}  # the column shows what the trick gained over its control
        rows.append(f"| {r.case.name} | {r.case.kind} | {should} | "
                    f"{', '.join(lost) or '-'} | "
                    f"{', '.join(sorted(beyond)) or '-'}{f' ({sum(beyond.values()):g})' if beyond else ''} | "
                    f"{r.verdict(automatic)} |")
    return "\n".join(rows)


def rates(rated: list[Rated], automatic: float) -> dict[str, str]:
    """The headline figures: bugs that lose only their items, within the promise, misses, cascades, stubs,
    alternatives."""
    by_hand = [r for r in rated if r.case.kind == "bug" and r.verdict(automatic) == "by hand"]
    bugs = [r for r in rated if r.case.kind == "bug" and r not in by_hand]
    verdicts = [r.verdict(automatic) for r in bugs]
    cascades = [r for r in bugs if r.verdict(automatic) == "cascade"]
    stubs = [r for r in rated if r.case.kind == "stub"]
    alts = [r for r in rated if r.case.kind == "alternative"]
    answers = [r for r in rated if r.case.kind == "answer"]
    attacks = [r for r in rated if r.case.kind == "attack"]
    n = max(1, len(bugs))
    return {
        "bugs": f"{len(bugs)}",
        "bugs only a hand-graded answer (or an ungraded part) is about, losing nothing automatic": f"{len(by_hand)}",
        "only their items": f"{verdicts.count('ok')} ({100 * verdicts.count('ok') / n:.0f} %)",
        "within the promise (<= 1 item beyond, <= 15 %)":
            f"{verdicts.count('ok') + verdicts.count('within')} "
            f"({100 * (verdicts.count('ok') + verdicts.count('within')) / n:.0f} %)",
        "missed": f"{verdicts.count('missed')}",
        "cascades": f"{len(cascades)} (items beyond: {sum(len(r.beyond) for r in cascades)}, "
                    f"points beyond: {sum(sum(r.beyond.values()) for r in cascades):g})",
        "stubs' points on code and exercise items": ", ".join(f"{r.earned:g}" for r in stubs) or "-",
        "alternatives losing points": f"{sum(1 for r in alts if r.lost)} of {len(alts)}",
        "answers judged as declared": f"{sum(1 for r in answers if r.verdict(automatic) == 'ok')} of {len(answers)}",
        "attacks gaining over their honest control": f"{sum(1 for r in attacks if r.gained)} of {len(attacks)}",
    }


def write_table(folder: Path, rated: list[Rated], automatic: float, heading: str) -> Path:
    """``folder/table.md``: the rates and the table (written whole, then renamed into place)."""
    lines = [f"# {heading}", "", *(f"- {k}: {v}" for k, v in rates(rated, automatic).items()), "",
             table(rated, automatic), ""]
    path = folder / "table.md"
    partial = path.with_suffix(".md.partial")
    partial.write_text("\n".join(lines), encoding="utf-8")
    partial.replace(path)
    return path


def corpus_report(root: Path, folder: Path, *, jobs: int = 2, force: bool = False) -> int:
    """`tasks.py corpus FOLDER`: grade a blind corpus (``tests/blind/<assignment>/<round>/``) with a bundle
    released from the committed trees, write ``FOLDER/table.md`` and log the rates."""
    from grader.authoring.release import release_assignment
    from grader.sandbox import sandbox_available

    folder = folder.resolve()
    name = folder.parent.name
    solution = root / "solutions" / name
    if not solution.is_dir():
        raise ConfigError(folder, f"a corpus lives in tests/blind/<assignment>/<round>/; no assignment {name!r}")
    out = root / "out" / "corpus" / name / folder.name
    if force and out.exists():
        shutil.rmtree(out)
    with tempfile.TemporaryDirectory(prefix="lrkit-corpus-dist-") as dist:
        _, bundle_zip = release_assignment(root, name, Path(dist))
        grade_corpus(folder, bundle_zip, out, jobs=jobs, unsandboxed=not sandbox_available())
    rated, automatic = rate(folder, out, solution), automatic_points(solution)
    path = write_table(folder, rated, automatic, f"{name}, blind corpus {folder.name}")
    for key, value in rates(rated, automatic).items():
        log.info("%s: %s", key, value)
    log.info("table: %s (reports in %s)", path, out)
    return 0
