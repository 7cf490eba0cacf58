"""Student text as HTML a grader can read and nothing can run: escaped first, then a little Markdown
(paragraphs, list lines, `code`, **bold**, *italics*) and `$…$` math as MathML (grader.report.mathml,
the reports' own converter) laid over the escaped text. Controls and bidi overrides are shown as escapes
(grader.report.safe), so a right-to-left override cannot reorder what the grader reads."""
from __future__ import annotations

import re

from markupsafe import Markup

from grader.report import safe
from grader.report.mathml import math_html

MAX_SHOWN = 20_000
_MATH_ELEMENT = re.compile(r"(<math\b.*?</math>)", re.S)
_LIST_LINE = re.compile(r"\n(?=[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t])")  # a list item starts a new line
_SOFT = re.compile(r"\n")  # any other line break is a space, as in Markdown (hard-wrapped text reads as one)
_INLINE = [(re.compile(r"`([^`\n]{1,500})`"), r"<code>\1</code>"),
           (re.compile(r"\*\*([^*\n]{1,500})\*\*"), r"<strong>\1</strong>"),
           (re.compile(r"(?<![*\w])\*([^*\s][^*\n]{0,500}?)\*(?![*\w])"), r"<em>\1</em>")]


def _inline(escaped: str) -> str:
    """Markdown marks over text that is already escaped (so the captured groups hold no markup)."""
    for pattern, replacement in _INLINE:
        escaped = pattern.sub(replacement, escaped)
    return _SOFT.sub(" ", _LIST_LINE.sub("<br>", escaped))


def rich(text: str) -> Markup:
    """``text`` (any length, anything in it) as safe HTML paragraphs."""
    text = safe.clean(str(text))
    cut = len(text) > MAX_SHOWN
    text = text[:MAX_SHOWN]
    paragraphs = []
    for paragraph in re.split(r"\n[ \t]*\n", text.strip()):
        parts = _MATH_ELEMENT.split(str(math_html(paragraph)))
        html = "".join(part if n % 2 else _inline(part) for n, part in enumerate(parts))
        paragraphs.append(f"<p>{html}</p>")
    if cut:
        paragraphs.append(f"<p class='cut'>… (cut at {MAX_SHOWN:,} characters)</p>")
    return Markup("\n".join(paragraphs))
