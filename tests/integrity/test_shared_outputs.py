"""Shared wrong outputs: who gives the same wrong numbers on one check, and whether that reads as a common
mistake (many students, sections) or as copying (a small group whose code is similar too)."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import yaml
from conftest import EXAMPLE

from grader.cli import main
from grader.config import IntegrityPolicy
from grader.integrity.classlist import Member
from grader.integrity.shared_outputs import COMMON, COPYING, SMALL, shared_outputs
from grader.integrity.similarity import Pair
from grader.report.render import load_report, write_reports
from grader.results import Report

EXPECTED = yaml.safe_load((EXAMPLE / "expected.yaml").read_text(encoding="utf-8"))["shared_wrong"]


def member(name: str, section: str = "", **prints: str) -> Member:
    report = Report("a", name, "graded", 0.0, 1.0, (), True, fingerprints=prints)
    return Member(name, Path(name), report, section)


def similar(a: str, b: str) -> Pair:
    return Pair(a, b, "code", 0.9, 0.9, 0.9, True)


def test_groups_read_by_size_sections_and_similar_code():
    members = [member("kai", "A", decay="d1"), member("lea", "A", decay="d1"),
               *(member(n, s, causal="c1") for n, s in (("c", "A"), ("e", "A"), ("g", "B"), ("i", "B"), ("j", "B"))),
               member("amara", "A", recurrent="r1"), member("hugo", "B", recurrent="r1"),
               member("solo", "A", decay="d2")]
    groups = shared_outputs(members, [similar("kai", "lea"), similar("c", "x")], IntegrityPolicy())
    found = [(g.check, g.members, g.reading) for g in groups]
    assert found == [("decay", ("kai", "lea"), COPYING), ("recurrent", ("amara", "hugo"), SMALL),
                     ("causal", ("c", "e", "g", "i", "j"), COMMON)]
    assert "2 sections" in groups[2].why and "every pair of them" in groups[0].why


def test_a_group_of_three_with_some_similar_pairs_says_which_share():
    members = [member(n, d="x") for n in ("a", "b", "c")]
    (group,) = shared_outputs(members, [similar("a", "b")], IntegrityPolicy())
    assert group.reading == COPYING and "1 of their 3 pairs" in group.why


def test_one_student_alone_with_a_wrong_output_is_no_group():
    assert shared_outputs([member("a", d="x"), member("b", d="y")], [], IntegrityPolicy()) == ()


def test_the_common_threshold_comes_from_the_policy():
    members = [member(n, d="x") for n in ("a", "b", "c")]
    (group,) = shared_outputs(members, [], dataclasses.replace(IntegrityPolicy(), common=3))
    assert group.reading == COMMON


def plant(out: Path, prints: dict[str, dict[str, str]]) -> None:
    for name, fingerprints in prints.items():
        report = load_report(out / name / "report.json")
        write_reports(dataclasses.replace(report, fingerprints=fingerprints), out / name)


def test_the_example_class_separates_the_planted_pair_from_the_common_mistake(example_out):
    """With the fingerprints grading gives the example class (planted here; the slow test grades it), the report
    lists the planted pair as copying, the mistake five make alone as common, the coincidence as a small group."""
    plant(example_out, {**{n: {"retention_parallel": "sym"} for n in EXPECTED["planted"]["members"]},
                        **{n: {"linear_parallel": "nomask"} for n in EXPECTED["common"]["members"]},
                        **{n: {"linear_recurrent": "late"} for n in EXPECTED["alone"]["members"]}})
    assert main(["similarity", str(example_out)]) == 0
    groups = json.loads((example_out / "_similarity" / "integrity.json").read_text(encoding="utf-8"))["shared_outputs"]
    readings = {tuple(g["members"]): (g["reading"], g["sections"]) for g in groups}
    assert readings == {tuple(EXPECTED["planted"]["members"]): ("copying?", ["A"]),
                        tuple(EXPECTED["common"]["members"]): ("common mistake", ["A", "B"]),
                        tuple(EXPECTED["alone"]["members"]): ("small group", ["A", "B"])}
    page = (example_out / "similarity.html").read_text(encoding="utf-8")
    assert "copying?: 2 students in section A whose code is also flagged as similar" in page
