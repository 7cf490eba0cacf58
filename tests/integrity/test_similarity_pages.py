"""The report's pages show student text as text: a hostile name, code or answer is escaped, never markup."""
from __future__ import annotations

import json

import pytest

from grader.config import IntegrityPolicy
from grader.integrity import pages
from grader.integrity.similarity import Fragment, Pair, Similarity

HOSTILE = "</pre><script>window.pwned = 1</script><img src=x onerror=alert(1)>\u202egnp.exe\x1b[31m"


def similarity(a: str = "ann", b: str = HOSTILE) -> tuple[Similarity, dict]:
    code_a, code_b = f"x = '{HOSTILE}'\nshared = 1\n", f"shared = 1\ny = '{HOSTILE}'\n"
    pair = Pair(a, b, "code", 0.9, 0.8, 1.0, True, Fragment((1, 2), (1, 1), code_a), ((0, len(code_a)),),
                ((0, 11),))
    low = Pair(a, "carl", "code", 0.2, 0.2, 0.2, False)
    sim = Similarity((pair, low), (), (), (a, b, "carl"), (), 3, 0.1)
    return sim, {(a, "code"): code_a, (b, "code"): code_b}


def rendered(sim, texts) -> dict[str, str]:
    import dataclasses

    return pages.render(sim, (), texts, assignment="a<b>", settings=dataclasses.asdict(IntegrityPolicy()),
                        notes=[HOSTILE])


def test_hostile_names_code_and_notes_are_escaped_everywhere():
    files = rendered(*similarity())
    for name, text in files.items():
        if name.endswith(".html"):
            assert "<script>" not in text and "<img" not in text and "\u202e" not in text and "\x1b" not in text
    assert "&lt;script&gt;" in files["_similarity/code-0001.html"]


def test_the_json_keeps_the_names_as_given_and_lists_pairs_most_similar_first():
    files = rendered(*similarity())
    pairs = json.loads(files["similarity.json"])
    assert [(p["a"], p["b"], p["score"]) for p in pairs] == [("ann", HOSTILE, 0.9), ("ann", "carl", 0.2)]
    assert pairs[0]["page"] == "_similarity/code-0001.html" and "page" not in pairs[1]
    assert pairs[0]["longest"] == {"a_lines": [1, 2], "b_lines": [1, 1], "lines": 2}


def test_segments_cut_the_text_at_the_shared_spans():
    assert pages.segments("abcdef", [(1, 3), (2, 4)]) == [("a", False), ("bcd", True), ("ef", False)]
    assert pages.segments("ab", [(5, 9)]) == [("ab", False)]


def test_pages_of_an_earlier_run_that_are_not_in_this_one_go(tmp_path):
    stale = tmp_path / "_similarity" / "code-0007.html"
    stale.parent.mkdir()
    stale.write_text("old")
    keep = tmp_path / "_similarity" / "notes.txt"
    keep.write_text("a person's")
    pages.write(tmp_path, rendered(*similarity()))
    assert not stale.exists() and keep.exists() and (tmp_path / "_similarity" / "code-0001.html").is_file()


@pytest.mark.parametrize("page", ["similarity.html", "_similarity/code-0001.html"])
def test_chromium_runs_no_student_script(tmp_path, page):
    from playwright.sync_api import sync_playwright

    pages.write(tmp_path, rendered(*similarity()))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            view = browser.new_page()
            view.goto((tmp_path / page).as_uri())
            assert view.evaluate("window.pwned") is None
            assert view.locator("img").count() == 0
            if page != "similarity.html":
                assert view.locator("pre.left mark").count() == 1
                assert "<script>" in view.locator("pre.left").inner_text()
            else:
                assert view.locator("table.pairs tbody tr").count() == 1
        finally:
            browser.close()
