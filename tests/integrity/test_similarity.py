"""Does the similarity of a class find copying and only copying? The example class (examples/integrity/class,
expected.yaml) has copied pairs, a cluster of three, students working alone and two who only share the template."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml
from conftest import ASSIGNMENT, CLASS, EXAMPLE, REPO

from grader.config import load_assignment
from grader.integrity.similarity import Fingerprints, Pair, clusters_of, compare_class, compare_two
from grader.integrity.sources import read_template, read_tree, without_template

CONFIG = load_assignment(REPO / "solutions" / ASSIGNMENT)
EXPECTED = yaml.safe_load((EXAMPLE / "expected.yaml").read_text(encoding="utf-8"))
FILES = ["linear_attention.py", "linear_attention.ipynb"]


@pytest.fixture(scope="module")
def template():
    return read_template(REPO / "student_template" / ASSIGNMENT, CONFIG)


def class_sources(template_sources, folder: Path = CLASS):
    return [without_template(read_tree(d, FILES, CONFIG, d.name), template_sources) for d in sorted(folder.iterdir())]


@pytest.fixture(scope="module")
def result(template):
    return compare_class(class_sources(template[0]), *template, CONFIG.integrity)


def pairs(listed) -> list[frozenset]:
    return [frozenset((p.a, p.b)) for p in listed]


def test_the_copied_pairs_rank_first_and_are_the_only_ones_flagged(result):
    copied = {frozenset(p) for p in EXPECTED["copied"]}
    assert set(pairs(result.code[:len(copied)])) == copied
    assert {frozenset((p.a, p.b)) for p in result.code if p.flagged} == copied
    assert all(p.score >= 0.95 for p in result.code[:len(copied)])
    assert result.code[len(copied)].score < CONFIG.integrity.flag


def test_scores_are_shares_between_0_and_1_most_similar_first(result):
    scores = [p.score for p in result.code]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    assert all(0 <= p.share_a <= 1 and 0 <= p.share_b <= 1 for p in result.code + result.answers)


def test_students_who_only_share_the_template_are_not_compared(result):
    only = set(EXPECTED["template_only"])
    assert set(result.too_short) == only
    assert not only & {n for p in result.code + result.answers for n in (p.a, p.b)}


def test_a_cluster_of_three_is_found(result):
    assert [c.members for c in result.clusters] == [tuple(EXPECTED["cluster"])]
    assert result.clusters[0].pairs == 3


def test_copied_answers_are_flagged_and_no_others(result):
    flagged = {(p.what, frozenset((p.a, p.b))) for p in result.answers if p.flagged}
    expected = {(q, frozenset(p)) for q, listed in EXPECTED["copied_answers"].items() for p in listed}
    assert flagged == expected


def test_the_longest_shared_run_of_a_copied_pair_is_most_of_the_code(result):
    top = result.code[0]
    first, last = top.longest.a_lines
    assert last - first > 60 and top.longest.text.strip()
    assert top.spans_a and top.spans_b


def test_the_same_class_gives_the_same_scores_every_time(template, result):
    again = compare_class(class_sources(template[0]), *template, CONFIG.integrity)
    assert [(p.a, p.b, p.score) for p in again.code] == [(p.a, p.b, p.score) for p in result.code]


def test_template_code_retyped_in_another_layout_is_not_evidence(template, tmp_path):
    """Two students who re-indent the template's code and rename nothing share only what they were given."""
    for name in ("x", "y"):
        (tmp_path / name).mkdir()
        text = (REPO / "student_template" / ASSIGNMENT / FILES[0]).read_text(encoding="utf-8")
        (tmp_path / name / FILES[0]).write_text(text.replace("    ", "  " if name == "x" else "\t"), encoding="utf-8")
    subs = [without_template(read_tree(tmp_path / n, FILES[:1], CONFIG, n), template[0]) for n in ("x", "y")]
    found = compare_class(subs, *template, CONFIG.integrity)
    assert found.too_short == ("x", "y") and not found.code


def test_a_threshold_from_the_assignment_moves_the_flag(template, result):
    """integrity.flag decides what is flagged: lower, students working alone come in too (after the copies)."""
    loose = compare_class(class_sources(template[0]), *template, dataclasses.replace(CONFIG.integrity, flag=0.45))
    flagged = [frozenset((p.a, p.b)) for p in loose.code if p.flagged]
    assert len(flagged) > len(EXPECTED["copied"])
    assert set(flagged[:len(EXPECTED["copied"])]) == {frozenset(p) for p in EXPECTED["copied"]}
    assert len(loose.code) == len(result.code) and [p.score for p in loose.code] == [p.score for p in result.code]


def test_winnowing_when_asked_still_ranks_the_copies_first(template):
    winnowed = dataclasses.replace(CONFIG.integrity, guarantee=CONFIG.integrity.noise + 8)
    found = compare_class(class_sources(template[0]), *template, winnowed)
    assert set(pairs(found.code[:4])) == {frozenset(p) for p in EXPECTED["copied"]}


def test_clusters_join_flagged_pairs_only():
    def pair(a, b, flagged=True):
        return Pair(a, b, "code", 0.9 if flagged else 0.1, 0.9, 0.9, flagged)

    found = clusters_of([pair("a", "b"), pair("b", "c"), pair("c", "d", False), pair("e", "f")])
    assert [(c.members, c.pairs) for c in found] == [(("a", "b", "c"), 2)]


def test_two_texts_that_share_nothing_are_no_pair(template):
    fp = Fingerprints(CONFIG.integrity, "", tokens=False)
    a, b = "the quick brown fox jumps over the lazy dog " * 3, "colourless green ideas sleep furiously now " * 3
    assert compare_two("a", "b", "q", fp.of(a), fp.of(b), 0.6, (a, b)) is None
    assert fp.of("too short") is None
