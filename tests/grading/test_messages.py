"""Shortened messages keep whole lines, whole tokens and the likely cause."""
from __future__ import annotations

from grader.grading.messages import excerpt


def test_a_short_message_is_unchanged():
    assert excerpt("ValueError: gamma must be in (0, 1]", 600) == ("ValueError: gamma must be in (0, 1]", False)


def test_one_long_line_is_cut_at_a_space_never_inside_a_number():
    text = "values differ: " + " ".join(f"{0.0477123 * i:.7f}" for i in range(200))
    short, cut = excerpt(text, 120)
    assert cut and short.endswith(" …") and len(short) <= 122
    last = short.removesuffix(" …").split()[-1]
    assert last in text.split()  # a whole token


def test_the_likely_cause_survives_a_long_middle():
    body = ["head line"] + [f"  middle {i} " + "y" * 40 for i in range(50)]
    text = "\n".join(body + ["likely cause:", "  - heads are mixed", "  - z is missing"])
    short, cut = excerpt(text, 400)
    assert cut and short.startswith("head line\n")
    assert "\n…\nlikely cause:\n  - heads are mixed\n  - z is missing" in short
    assert len(short) <= 400
