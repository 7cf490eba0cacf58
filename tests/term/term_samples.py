"""Synthetic batch outputs for the term's tests: reports written by the kit's own writers (report.json,
gradebook.csv), so a term test grades nothing. (A module of its own, named so no other test folder has one.)"""
from __future__ import annotations

from pathlib import Path

from grader.report.render import write_reports
from grader.report.summary import write_class_summary
from grader.results import ItemResult, Report

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "course"
BASICS, HYBRID = "linear-attention-basics", "linear-attention-hybrid"
DOWNLOAD = EXAMPLE / "canvas-download" / BASICS
# the batch folder names of the example Canvas download (grader.batch.naming of its zips)
ADA = "lovelaceada_101_55501_linear-attention-basics-submission"
GRACE = "hoppergrace_late_102_55502_linear-attention-basics-submission"
ALAN = "turing-by-email"
HIDDEN_MESSAGE = "case 3 differs from the reference"  # a hidden check's words: never shown before release


def report(folder: str, points: dict[str, float] | None = None, *, assignment: str = BASICS, bundle: str = "b1",
           content: str = "", status: str = "graded", notes: tuple[str, ...] = ()) -> Report:
    """A report over three items: `checks` (hidden, 6 points), `tests` (visible, 3), `your_turn` (visible, 1)."""
    got = {"checks": 6.0, "tests": 3.0, "your_turn": 1.0, **(points or {})}
    items = (ItemResult("checks", "Hidden checks", got["checks"], 6.0, "passed" if got["checks"] == 6 else "failed",
                        "checks", hidden=True, messages=(f"case 3 wrong: {HIDDEN_MESSAGE}",)),
             ItemResult("tests", "Public tests", got["tests"], 3.0, "passed", "tests", messages=("all 3 passed",)),
             ItemResult("your_turn", "Your turn", got["your_turn"], 1.0, "passed", "answers"))
    return Report(assignment, folder, status, sum(got.values()), 10.0, items, True, notes=notes,
                  environment={"grader": "0.1.0+test"}, submission_hash=content or f"sha-{folder}",
                  bundle_hash=bundle)


def write_output(out: Path, reports: list[Report]) -> Path:
    """A batch output folder as `grade batch` writes it: one folder per report, then gradebook.csv."""
    for r in reports:
        write_reports(r, out / r.submission)
    write_class_summary(reports, out)
    return out


def class_reports(**changes) -> list[Report]:
    """The example class: Ada full marks, Grace 7/10 (hidden checks 3 of 6), Alan (e-mailed) 4/10."""
    return [report(ADA, **changes), report(GRACE, {"checks": 3.0}, **changes),
            report(ALAN, {"checks": 0.0, "tests": 3.0, "your_turn": 1.0}, **changes)]


