"""The example class for per-student numbers (examples/variants/): built, graded with the hybrid bundle and
compared; each report shows its own numbers, and a classmate's or the default numbers are found and listed in
the class summary and by `grade similarity` (examples/variants/expected.yaml)."""
from __future__ import annotations

import filecmp
import importlib.util
import json
import shutil
from pathlib import Path

import pytest
import yaml

from grader import cli, sandbox
from grader.config import load_assignment
from grader.report.render import load_report
from grader.variants import describe, parameters_for

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "variants"
ASSIGNMENT = "linear-attention-hybrid"
EXPECTED = yaml.safe_load((EXAMPLE / "expected.yaml").read_text(encoding="utf-8"))


def make_class():
    spec = importlib.util.spec_from_file_location("variants_make_class", EXAMPLE / "make_class.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_class_is_what_make_class_builds(tmp_path):
    """Is examples/variants/class what make_class.py writes now (the kit's own numbers, nothing edited)?"""
    made = make_class()
    made.write(tmp_path / "class", made.build())
    compared = filecmp.dircmp(tmp_path / "class", EXAMPLE / "class")
    assert sorted(compared.common_dirs) == sorted(EXPECTED["own"] + [*EXPECTED["copied"]] + EXPECTED["defaults"]
                                                  + EXPECTED["without_id"])
    for name in compared.common_dirs:
        for rel in ("linear_attention_hybrid.ipynb", "g2c/linear_attention/attention.py"):
            assert filecmp.cmp(tmp_path / "class" / name / rel, EXAMPLE / "class" / name / rel, shallow=False), \
                f"{name}/{rel}: run python examples/variants/make_class.py"


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """The class graded with the hybrid bundle (a bundle folder of the generated trees), then compared."""
    base = tmp_path_factory.mktemp("variant-class")
    bundle = base / "bundle"
    shutil.copytree(REPO / "solutions" / ASSIGNMENT, bundle / "solution")
    shutil.copytree(REPO / "student_template" / ASSIGNMENT, bundle / "template")
    subs = base / "class"
    made = make_class()
    made.write(subs, made.build())
    out = base / "out"
    unsandboxed = ["--allow-unsandboxed"] if not sandbox.sandbox_available() else []
    cli.main(["batch", str(subs), "--autograder", str(bundle), "--out", str(out), "--jobs", "2", *unsandboxed])
    assert cli.main(["similarity", str(out)]) == 0
    return out


def _items(out: Path, name: str) -> dict[str, str]:
    return {i.id: i.status for i in load_report(out / name / "report.json").items if i.id.startswith("bill_")}


@pytest.mark.slow
def test_each_report_shows_its_own_numbers(graded):
    config = load_assignment(REPO / "solutions" / ASSIGNMENT)
    for name in EXPECTED["own"] + [*EXPECTED["copied"]] + EXPECTED["defaults"] + EXPECTED["without_id"]:
        report = load_report(graded / name / "report.json")
        student = "" if name in EXPECTED["without_id"] else name
        numbers = parameters_for(config.variants, config.name, student)
        assert report.variant["parameters"] == numbers, name
        assert describe(numbers) in (graded / name / "report.html").read_text(encoding="utf-8"), name
    for name in EXPECTED["own"] + EXPECTED["without_id"]:
        assert set(_items(graded, name).values()) == {"passed"}, name


@pytest.mark.slow
def test_a_classmates_or_the_default_numbers_are_wrong_and_listed(graded):
    """Are dee's answers (ada's numbers) and cy's (the defaults) wrong, and listed with where they came from, in
    `grade similarity`'s report and in the class summary that `grade batch` wrote?"""
    listed = json.loads((graded / "_similarity" / "integrity.json").read_text(encoding="utf-8"))
    matches = {v["submission"]: v for v in listed["variant_matches"]}
    assert set(matches) == {*EXPECTED["copied"], *EXPECTED["defaults"]}
    summary = (graded / "summary.html").read_text(encoding="utf-8")
    similarity = (graded / "similarity.html").read_text(encoding="utf-8")
    for name, classmate in EXPECTED["copied"].items():
        assert matches[name]["of"] == [classmate]
        assert matches[name]["matches"] == f"the variant of {classmate} ({classmate})"
        assert set(EXPECTED["wrong_at_least"]) <= set(matches[name]["answers"])
        for page in (summary, similarity):
            assert f"matches the variant of {classmate} ({classmate})" in page
    for name in EXPECTED["defaults"]:
        assert matches[name]["matches"] == "the default numbers" and matches[name]["of"] == []
        assert set(EXPECTED["wrong_at_least"]) <= set(matches[name]["answers"])
    assert "matches the default numbers" in summary
    for name in [*EXPECTED["copied"], *EXPECTED["defaults"]]:
        items = _items(graded, name)
        assert items["bill_mha"] == items["bill_all_mha_stack"] == "failed", name
    assert listed["without_student_id"] == EXPECTED["without_id"]
    assert "no student id" in summary


@pytest.mark.slow
def test_rewriting_the_summary_without_the_bundle_says_what_it_lists(graded, tmp_path):
    """Written again with the bundle the batch recorded, the summary still lists classmates' variants; with it
    gone, a summary written again from the reports alone (as `grade manual import`
    and `grade merge` do) keeps the default-number listing and says classmates were not compared."""
    from grader.batch.manual import write_class_files

    out = shutil.copytree(graded, tmp_path / "out")
    assert "matches the variant of" in write_class_files(out)["summary.html"].read_text(encoding="utf-8")
    (out / "_batch.json").unlink()
    summary = write_class_files(out)["summary.html"].read_text(encoding="utf-8")
    assert "matches the variant of" not in summary and "were not compared" in summary
    assert "right for the default numbers" in summary
