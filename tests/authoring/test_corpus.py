"""Blind corpora: are cases read strictly, and is each graded case given the verdict the promise implies?"""
from __future__ import annotations

import pytest

from grader.authoring.corpus import Case, Rated, load_corpus, rates, table
from grader.config import ConfigError

AUTOMATIC = 40.0


def rated(kind: str, should: list[str], lost: dict[str, float], earned: float = 0.0) -> Rated:
    return Rated(Case("c", kind, "", tuple(should)), lost, earned, "graded")


@pytest.mark.parametrize("kind, should, lost, earned, verdict", [
    ("bug", ["a"], {"a": 2}, 38, "ok"),
    ("bug", ["a", "b"], {"a": 2}, 38, "ok"),            # lost part of what it may lose
    ("bug", ["a"], {}, 40, "missed"),
    ("bug", ["a"], {"b": 2}, 38, "missed"),             # lost something, but nothing about the bug
    ("bug", ["a"], {"a": 2, "b": 2}, 36, "within"),      # one item beyond, 5 % of the points
    ("bug", ["a"], {"a": 2, "b": 8}, 30, "cascade"),     # one item beyond, but 20 % of the points
    ("bug", ["a"], {"a": 1, "b": 1, "c": 1}, 37, "cascade"),
    ("alternative", [], {}, 40, "ok"),
    ("alternative", [], {"a": 1}, 39, "loses"),
    ("stub", [], {"a": 40}, 0, "ok"),
    ("stub", [], {"a": 39}, 1, "earns"),
    ("answer", ["q"], {"q": 1}, 39, "ok"),
    ("answer", [], {"q": 1}, 39, "disagrees"),
])
def test_each_case_gets_the_verdict_the_promise_implies(kind, should, lost, earned, verdict):
    assert rated(kind, should, lost, earned).verdict(AUTOMATIC) == verdict


def test_rates_count_cascades_and_their_points_beyond():
    cases = [rated("bug", ["a"], {"a": 2}), rated("bug", ["a"], {"a": 2, "b": 8, "c": 3}),
             rated("bug", ["a"], {}), rated("stub", [], {}, 7), rated("alternative", [], {"x": 1})]
    figures = rates(cases, AUTOMATIC)
    assert figures["bugs"] == "3" and figures["missed"] == "1"
    assert figures["cascades"] == "1 (items beyond: 2, points beyond: 11)"
    assert figures["stubs' points on code and exercise items"] == "7"
    assert figures["alternatives losing points"] == "1 of 1"
    assert "| c | bug | a | a, b, c | b, c (11) | cascade |" in table(cases, AUTOMATIC)


def test_a_case_without_its_folder_is_named(tmp_path):
    (tmp_path / "corpus.yaml").write_text("- {name: gone, kind: bug, should_lose: [a]}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="case 'gone': no folder"):
        load_corpus(tmp_path)


@pytest.mark.parametrize("text, words", [
    ("{name: x}", "a YAML list of cases"),
    ("- {name: x, kind: typo}", "kind 'typo' is not one of"),
    ("- {kind: bug}", "case 1: a mapping with a `name`"),
    ("- {name: x, kind: bug, should_lose: a}", "should_lose is a list"),
])
def test_a_malformed_corpus_says_what_is_wrong(tmp_path, text, words):
    (tmp_path / "x").mkdir()
    (tmp_path / "corpus.yaml").write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=words.replace("(", r"\(").replace("`", "`")):
        load_corpus(tmp_path)
