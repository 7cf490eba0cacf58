"""The adversarial corpus (tests/adversarial/, see its README) against the real grader.

One session fixture builds and releases linear-attention-basics into a temporary copy of the
repository root, turns every case into a submission, adds the correct solution, and grades
them all as ONE batch (`grade_batch(..., jobs=2)`), with the assignment's own limits. Each
case is then a test of its report against its expect.yaml.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
import yaml

from grader import sandbox
from grader.authoring.build import build
from grader.authoring.release import release_assignment
from grader.grading.batch import grade_batch
from grader.report.render import load_report

ROOT = Path(__file__).resolve().parents[2]
NAME = "linear-attention-basics"
SOURCE = ROOT / "assignments" / NAME
CORPUS = ROOT / "tests" / "adversarial"
CORRECT = "correct_solution"
UNSANDBOXED = not sandbox.sandbox_available()
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expect.yaml").is_file()) if CORPUS.is_dir() else []
KNOWN_KEYS = {"description", "base", "submission", "status", "score", "max_score", "below_max", "message_contains",
              "message_excludes", "forbidden_host_paths", "no_process_matching"}

pytestmark = [
    pytest.mark.skipif(not (SOURCE / "assignment.yaml").is_file(), reason=f"assignments/{NAME} is not written yet"),
    pytest.mark.skipif(UNSANDBOXED, reason="the corpus attacks the sandbox: needs Linux, root and bubblewrap"),
]


def _expect(case: str) -> dict:
    return yaml.safe_load((CORPUS / case / "expect.yaml").read_text()) or {}


def _retag(notebook: Path, template_nb: dict) -> str:
    """Give a case notebook's `exercise:<id>` cells the ids of the template's cells with that tag
    (the grader takes tags from the template by cell id), so they stay graded cells."""
    nb = json.loads(notebook.read_text())
    by_tag = {}
    for cell in template_nb["cells"]:
        for tag in cell.get("metadata", {}).get("tags", []):
            if tag.startswith("exercise:"):
                by_tag.setdefault(tag, cell["id"])
    for cell in nb["cells"]:
        for tag in cell.get("metadata", {}).get("tags", []):
            if tag in by_tag:
                cell["id"] = by_tag.pop(tag)
    return json.dumps(nb, indent=1)


def _make_submission(case: str, root: Path, subs: Path) -> None:
    folder, expect = CORPUS / case, _expect(case)
    if "submission" in expect:
        src = folder / expect["submission"]
        shutil.copy(src, subs / f"{case}{''.join(src.suffixes)}")
        return
    dest = subs / case
    dest.mkdir()
    solution, template = root / "solutions" / NAME, root / "student_template" / NAME
    if expect.get("base") == "solution":
        for name in ("linear_attention.py", "linear_attention.ipynb"):
            shutil.copy(solution / name, dest / name)
    elif expect.get("base") == "zeros":
        shutil.copy(CORPUS / "_bases" / "zeros.py", dest / "linear_attention.py")
    else:
        raise AssertionError(f"{case}: expect.yaml needs base: solution|zeros or submission: FILE")
    if (folder / "attack.py").is_file():
        with (dest / "linear_attention.py").open("a") as fh:
            fh.write("\n\n" + (folder / "attack.py").read_text())
    template_nb = json.loads((template / "linear_attention.ipynb").read_text())
    for item in folder.iterdir():
        if item.name in ("expect.yaml", "attack.py") or item.is_dir():
            continue
        if item.suffix == ".ipynb":
            (dest / item.name).write_text(_retag(item, template_nb))
        else:
            shutil.copy(item, dest / item.name)


def _live_processes(markers: list[str]) -> list[str]:
    """'pid: cmdline' of every live (non-zombie) process whose command line holds a marker."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z" and any(m in cmdline for m in markers):
            found.append(f"{entry.name}: {cmdline[:200]}")
    return found


class Graded:
    def __init__(self, reports, code, seconds, leftovers, max_auto, existing):
        self.reports, self.code, self.seconds = reports, code, seconds
        self.leftovers, self.max_auto, self.existing = leftovers, max_auto, existing


@pytest.fixture(scope="session")
def graded(tmp_path_factory) -> Graded:
    base = tmp_path_factory.mktemp("adversarial")
    root, subs, out = base / "root", base / "subs", base / "out"
    shutil.copytree(SOURCE, root / "assignments" / NAME, ignore=shutil.ignore_patterns("__pycache__"))
    assert build(root, [NAME]) == 0
    _, bundle = release_assignment(root, NAME, root / "dist")
    subs.mkdir()
    for case in CASES:
        _make_submission(case, root, subs)
    correct = subs / CORRECT
    correct.mkdir()
    for name in ("linear_attention.py", "linear_attention.ipynb"):
        shutil.copy(root / "solutions" / NAME / name, correct / name)
    forbidden = sorted({p for c in CASES for p in _expect(c).get("forbidden_host_paths", [])})
    for path in forbidden:  # a leftover from an earlier run must not fail (or pass) this one
        if os.path.lexists(path):
            os.unlink(path)
    started = time.perf_counter()
    code = grade_batch(subs, bundle, out, jobs=2)
    seconds = time.perf_counter() - started
    print(f"\nadversarial batch: {len(CASES) + 1} submissions in {seconds:.0f} s")
    markers = [str(base), "lrkit-adv"] + [_expect(c)["no_process_matching"] for c in CASES
                                         if _expect(c).get("no_process_matching")]
    leftovers = _live_processes(markers)
    reports = {p.name: load_report(p / "report.json") for p in out.iterdir() if (p / "report.json").is_file()}
    manual = {item.id for item in next(iter(reports.values())).items if item.kind == "manual"}
    max_auto = next(iter(reports.values())).max_score - sum(
        i.max_points for i in next(iter(reports.values())).items if i.id in manual)
    return Graded(reports, code, seconds, leftovers, max_auto, [p for p in forbidden if os.path.lexists(p)])


def _student_text(report) -> str:
    """What a student reads: the notes and every item's messages."""
    return "\n".join([*report.notes, *(m for item in report.items for m in item.messages)])


def test_the_correct_solution_gets_every_automatic_point(graded):
    report = graded.reports[CORRECT]
    assert report.status == "graded"
    wrong = [(i.id, i.points, i.max_points, i.messages) for i in report.items
             if i.kind != "manual" and i.points != i.max_points]
    assert not wrong, wrong


def test_no_process_from_the_corpus_is_left(graded):
    assert not graded.leftovers, graded.leftovers


def test_every_case_has_a_row(graded):
    assert set(graded.reports) == set(CASES) | {CORRECT}


@pytest.mark.parametrize("case", CASES)
def test_case(graded, case):
    expect = _expect(case)
    unknown = set(expect) - KNOWN_KEYS
    assert not unknown, f"{case}/expect.yaml: unknown keys {unknown}"
    report = graded.reports[case]
    text = _student_text(report)
    scored = [(i.id, i.points) for i in report.items if i.points]
    context = f"{case}: status {report.status}, score {report.score}/{report.max_score}, points from {scored}\n{text[:3000]}"
    statuses = expect.get("status")
    if statuses is not None:
        assert report.status in ([statuses] if isinstance(statuses, str) else statuses), context
    if "score" in expect:
        want = graded.max_auto if expect["score"] == "max" else float(expect["score"])
        assert report.score == want, context
    if "max_score" in expect:
        assert report.score <= float(expect["max_score"]), context
    if expect.get("below_max"):
        assert report.score < graded.max_auto, context
    for word in expect.get("message_contains", []):
        assert word.lower() in text.lower(), f"{word!r} not in the report of {context}"
    for word in expect.get("message_excludes", []):
        assert word.lower() not in text.lower(), f"{word!r} in the report of {context}"
    for path in expect.get("forbidden_host_paths", []):
        assert path not in graded.existing, f"{case}: {path} exists on the host after grading"
    marker = expect.get("no_process_matching")
    if marker:
        assert not [p for p in graded.leftovers if marker in p], graded.leftovers
