"""Student text as HTML: escaped first, then a little Markdown and the math; never a tag of its own."""
from __future__ import annotations

import pytest

from grader.serve.text import MAX_SHOWN, rich


@pytest.mark.parametrize("hostile", [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "**<b onclick=alert(1)>x</b>**",
    "`<iframe src=javascript:alert(1)>`",
    "$\\text{<script>alert(1)</script>}$",
    "$\\href{javascript:alert(1)}{x}$",
    "[click](javascript:alert(1)) ![x](http://example.com/track.png)",
])
def test_markup_in_an_answer_stays_text(hostile):
    html = str(rich(hostile))
    for tag in ("<script", "<img", "<b ", "<iframe", "<a ", "href="):
        assert tag not in html, (tag, html)
    assert "&lt;" in html or "javascript:" in html  # shown, as text


def test_bidi_overrides_and_controls_are_shown_as_escapes():
    html = str(rich("abc\u202edef\u2066x\x1b[31mred"))
    assert "\u202e" not in html and "\u2066" not in html and "\x1b" not in html
    assert "\\u202e" in html and "\\u2066" in html and "\\x1b" in html


def test_a_little_markdown_and_the_math_are_rendered():
    html = str(rich("The **sum** over *j* is `S`.\n\n$\\varphi(q)^\\top S$ regroups."))
    assert "<strong>sum</strong>" in html and "<em>j</em>" in html and "<code>S</code>" in html
    assert html.count("<p>") == 2 and "<math" in html and "varphi" not in html


def test_a_huge_answer_is_cut_and_says_so():
    html = str(rich("x" * (MAX_SHOWN * 3)))
    assert html.count("x") < MAX_SHOWN + 100 and "cut at 20,000 characters" in html


def test_half_written_math_stays_as_its_source():
    html = str(rich("cost is $x^{$ and $5 for coffee"))
    assert "<math" not in html and "$x^{$" in html and "$5 for coffee" in html


def test_hard_wrapped_lines_read_as_one_and_list_lines_stay_lines():
    assert str(rich("one\ntwo\n- a\n- b\n2. c")) == "<p>one two<br>- a<br>- b<br>2. c</p>"
