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
    ("bug", [], {}, 40, "by hand"),                     # about a hand-graded answer only: nothing automatic
    ("bug", [], {"b": 2}, 38, "within"),                # ... yet it cost an automatic item
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
    by_hand = rates(cases + [rated("bug", [], {})], AUTOMATIC)
    assert by_hand["bugs"] == "3" and by_hand["bugs only a hand-graded answer (or an ungraded part) is about, losing "
                                             "nothing automatic"] == "1"
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


def test_a_bugs_own_cost_item_lost_by_the_rule_is_not_beyond():
    """The one rule (a cost counts only for correct work) charges the form's cost item: not a cascade."""
    case = Rated(Case("c", "bug", "", ("a",)), {"a": 2, "cost": 2, "b": 2}, 34, "graded", by_rule=("cost",))
    assert case.beyond == {"b": 2} and case.verdict(AUTOMATIC) == "within"
    assert "a, b, cost (by rule)" in table([case], AUTOMATIC)


def test_an_attack_is_judged_against_its_honest_control(tmp_path):
    for name in ("ctrl", "atk", "atk2"):
        (tmp_path / name).mkdir()
    (tmp_path / "corpus.yaml").write_text(
        "- {name: ctrl, kind: control, about: honest parallel chunkwise}\n"
        "- {name: atk, kind: attack, control: ctrl, about: the same in shared memory}\n"
        "- {name: atk2, kind: attack, control: ctrl, about: a length switch}\n", encoding="utf-8")
    cases = {c.name: c for c in load_corpus(tmp_path)}
    assert cases["atk"].control == "ctrl"
    fooled = Rated(cases["atk"], {"x": 2}, 0, "graded", control_lost=("cost", "x"))
    held = Rated(cases["atk2"], {"x": 2, "cost": 2, "y": 1}, 0, "graded", control_lost=("cost", "x"))
    assert fooled.gained == ("cost",) and fooled.verdict(AUTOMATIC) == "fools"
    assert held.gained == () and held.verdict(AUTOMATIC) == "ok"
    assert rates([fooled, held], AUTOMATIC)["attacks gaining over their honest control"] == "1 of 2"


@pytest.mark.parametrize("text, words", [
    ("- {name: atk, kind: attack}", "names its honest control"),
    ("- {name: atk, kind: attack, control: nobody}", "its control 'nobody' is not a case"),
])
def test_an_attack_without_a_control_is_refused(tmp_path, text, words):
    (tmp_path / "atk").mkdir()
    (tmp_path / "corpus.yaml").write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=words):
        load_corpus(tmp_path)
