"""Answers right for someone else's numbers (grader/integrity/variant_matches.py): the defaults, a classmate's."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader import cli, sandbox
from grader.authoring.build import build
from grader.authoring.release import release_assignment
from grader.bundle import IDENTITY, Identity
from grader.config import load_assignment
from grader.grading.answers.formulas import variant_key
from grader.grading.pipeline import answer_key
from grader.integrity.classlist import Member
from grader.integrity.variant_matches import DEFAULT, variant_matches, without_id
from grader.report.render import load_report
from grader.results import Report
from grader.variants import parameters_for

REPO = Path(__file__).resolve().parents[2]
HYBRID = REPO / "assignments" / "linear-attention-hybrid"
BASICS = REPO / "assignments" / "linear-attention-basics"
TOY = REPO / "tests" / "fixtures" / "toy-root"


@pytest.fixture(scope="module")
def config():
    return load_assignment(HYBRID)


@pytest.fixture(scope="module")
def key(config):
    return answer_key(HYBRID, config)


def bytes_for(key, config, student: str, answer: str) -> str:
    """The right answer for ``student``'s numbers, as a student writes it."""
    return f"{variant_key(key, parameters_for(config.variants, config.name, student))[answer].value:.0f} B"


def member(folder: str, student: str, wrong: dict[str, str] | None = None) -> Member:
    variant = {"student": student, "source": "lrkit-assignment.json", "parameters": {}, "wrong": wrong or {},
               "default_matches": []}
    return Member(folder, Path(folder), Report("linear-attention-hybrid", folder, "graded", 0, 1, (), True,
                                               variant=variant))


def test_an_answer_right_for_a_classmates_numbers_is_listed_with_the_classmate(config, key):
    """Is bob's answer, worked out with ada's numbers, listed as matching ada's variant?"""
    mha = "mha_cache_one_layer"
    members = [member("ada_sub", "ada"),
               member("bob_sub", "bob", {mha: bytes_for(key, config, "ada", mha),
                                         "linear_state_one_layer": "12 B"}),
               member("cy_sub", "cy", {mha: "16.384 GB"})]
    found = variant_matches(members, key, config)
    assert [(v.submission, v.answers, v.of) for v in found] == [("bob_sub", (mha,), ("ada_sub",)),
                                                                  ("cy_sub", (mha,), ())]
    assert found[0].matches == "the variant of ada_sub (ada)" and found[1].matches == DEFAULT


def test_the_numbers_come_from_the_id_not_from_what_the_report_claims(config, key):
    """A report claiming ada's parameters for bob changes nothing: the rule works bob's out from his id."""
    mha = "mha_cache_one_layer"
    forged = member("bob_sub", "bob", {mha: bytes_for(key, config, "ada", mha)})
    forged.report.variant["parameters"] = parameters_for(config.variants, config.name, "ada")
    (found,) = variant_matches([member("ada_sub", "ada"), forged], key, config)
    assert (found.submission, found.of) == ("bob_sub", ("ada_sub",))


def test_submissions_without_a_student_id_are_listed(config):
    assert without_id([member("ada_sub", "ada"), member("anon", "")], config) == ("anon",)


def test_an_assignment_without_variants_lists_nothing():
    basics = load_assignment(BASICS)
    assert variant_matches([member("a", "ada", {"x": "1"})], {}, basics) == () == without_id([], basics)


# ------------------------------------------------------------------ end to end: a toy class with its own numbers

def variant_toy(root: Path) -> Path:
    """The toy assignment with one numeric question whose answer depends on a per-student N."""
    toy = root / "assignments" / "toy"
    with (toy / "assignment.yaml").open("a", encoding="utf-8") as f:
        f.write("variants:\n  N: {default: 4, choices: [2, 3, 4, 5, 6, 7, 8, 9]}\n")
    key = (toy / "answer_key.yaml").read_text(encoding="utf-8")
    (toy / "answer_key.yaml").write_text(key.replace(
        "# END HIDDEN", "bill:\n  type: quantity\n  formula: 8 * N * N\n  value: 128\n# END HIDDEN"), encoding="utf-8")
    rubric = (toy / "rubric.yaml").read_text(encoding="utf-8")
    (toy / "rubric.yaml").write_text(rubric.replace("total: 5", "  - id: bill\n    title: The bill\n    points: 1\n"
                                                                 "    answers: [bill]\ntotal: 6"), encoding="utf-8")
    nb = json.loads((toy / "toy.ipynb").read_text(encoding="utf-8"))
    nb["cells"][-1]["source"].insert(-1, "bill: 128 B  # SOLUTION\n")
    (toy / "toy.ipynb").write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return root


def hand_in(solution: Path, where: Path, student: str, bill: str) -> None:
    where.mkdir(parents=True)
    shutil.copy(solution / "toy.py", where / "toy.py")
    nb = (solution / "toy.ipynb").read_text(encoding="utf-8")
    (where / "toy.ipynb").write_text(nb.replace("bill: 128 B", f"bill: {bill}"), encoding="utf-8")
    (where / IDENTITY).write_bytes(Identity("toy", "", student).to_bytes("Toy"))


def test_a_class_with_its_own_numbers_end_to_end(tmp_path):
    """Build, release and grade a class: each student is graded with their own N and sees it; an answer worked
    out with a classmate's numbers or the defaults is wrong, and `grade similarity` lists where it came from."""
    root = variant_toy(shutil.copytree(TOY, tmp_path / "root"))
    assert build(root) == 0
    release_assignment(root, "toy", root / "dist")
    config = load_assignment(root / "solutions" / "toy")
    ns = {s: parameters_for(config.variants, "toy", s)["N"] for s in (f"s{n}" for n in range(40))}
    ada = next(s for s, n in ns.items() if n != 4)
    bob = next(s for s, n in ns.items() if n not in (4, ns[ada]))
    cy = next(s for s, n in ns.items() if n not in (4, ns[ada], ns[bob]))
    subs = tmp_path / "subs"
    hand_in(root / "solutions" / "toy", subs / "ada", ada, f"{8 * ns[ada] ** 2} B")
    hand_in(root / "solutions" / "toy", subs / "bob", bob, f"{8 * ns[ada] ** 2} B")  # ada's numbers
    hand_in(root / "solutions" / "toy", subs / "cy", cy, "128 B")  # the defaults
    out = tmp_path / "out"
    unsandboxed = ["--allow-unsandboxed"] if not sandbox.sandbox_available() else []
    cli.main(["batch", str(subs), "--autograder", str(root / "dist" / "toy-autograder.zip"), "--out", str(out),
              *unsandboxed])
    reports = {name: load_report(out / name / "report.json") for name in ("ada", "bob", "cy")}
    bill = {name: next(i for i in r.items if i.id == "bill") for name, r in reports.items()}
    assert [bill[n].status for n in ("ada", "bob", "cy")] == ["passed", "failed", "failed"]
    assert "default numbers" in " ".join(bill["cy"].messages)
    assert all(str(8 * ns[s] ** 2) not in " ".join(bill[n].messages) for n, s in (("bob", bob), ("cy", cy)))
    assert reports["bob"].variant["parameters"] == {"N": ns[bob]}
    assert f"N = {ns[ada]}" in (out / "ada" / "report.html").read_text(encoding="utf-8")
    assert cli.main(["similarity", str(out)]) == 0
    listed = json.loads((out / "_similarity" / "integrity.json").read_text(encoding="utf-8"))["variant_matches"]
    assert [(v["submission"], v["of"], v["answers"]) for v in listed] == [("bob", ["ada"], ["bill"]),
                                                                           ("cy", [], ["bill"])]
    assert f"matches the variant of ada ({ada})" in (out / "similarity.html").read_text(encoding="utf-8")
