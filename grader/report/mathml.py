"""LaTeX in report text (`$…$`, `$$…$$`) as MathML, so math renders offline in any modern browser.

Everything that is not math is HTML-escaped; math goes through `latex2mathml` (pure Python,
no network, no JavaScript). A formula it cannot convert stays as escaped source. What counts
as math follows pandoc's rule, so prices and shell variables stay text: the opening `$` is
followed by a non-space, the closing `$` follows a non-space and is not followed by a digit.
"""
from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as ET

from markupsafe import Markup, escape

log = logging.getLogger(__name__)

_DISPLAY = r"\$\$(?P<display>[^$]+?)\$\$"
_INLINE = r"(?<![\\$])\$(?P<inline>[^\s$](?:[^$\n]*?[^\s\\$])?)\$(?!\d)"
_MATH = re.compile(f"{_DISPLAY}|{_INLINE}")
MAX_FORMULA = 2000  # longer "formulas" are left as text (and a converter is never fed megabytes)
NS = "http://www.w3.org/1998/Math/MathML"
# latex2mathml copies \text{...} and \href{...} through unescaped, so its output is parsed and
# only these elements and attributes are let through (anything else: the formula stays text)
_TAGS = {"math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup", "munder", "mover",
         "munderover", "mfrac", "msqrt", "mroot", "mstyle", "mtable", "mtr", "mtd", "mlabeledtr", "mpadded",
         "mphantom", "menclose", "mfenced", "merror", "mmultiscripts", "mprescripts", "none"}
_ATTRIBUTES = {"display", "mathvariant", "stretchy", "fence", "separator", "lspace", "rspace", "columnalign",
               "columnspacing", "rowspacing", "columnlines", "rowlines", "rowalign", "frame", "framespacing",
               "equalrows", "equalcolumns", "accent", "accentunder", "movablelimits", "width", "height", "depth",
               "linethickness", "minsize", "maxsize", "symmetric", "largeop", "form", "displaystyle",
               "scriptlevel", "notation", "align", "open", "close", "separators", "voffset", "mathcolor",
               "mathbackground", "bevelled"}
_VALUE = re.compile(r"[\w#.%+\- ]*")
ET.register_namespace("", NS)


def _safe(mathml: str) -> str | None:
    """The MathML re-serialised from its parse if every element and attribute is allowed, else None."""
    try:
        root = ET.fromstring(mathml)
    except ET.ParseError:
        return None
    for element in root.iter():
        namespace, _, tag = element.tag.rpartition("}")
        if namespace != "{" + NS or tag not in _TAGS:
            return None
        if any(name not in _ATTRIBUTES or not _VALUE.fullmatch(value) for name, value in element.attrib.items()):
            return None
    return ET.tostring(root, encoding="unicode", short_empty_elements=False)


def _convert(latex: str, display: bool) -> str | None:
    try:
        from latex2mathml.converter import convert
    except ImportError:  # the kit depends on it; a report is still readable without it
        return None
    try:
        return _safe(convert(latex, display="block" if display else "inline"))
    except Exception as exc:  # a student's half-written formula must never break a report
        log.debug("latex2mathml could not convert %r: %s", latex[:80], exc)
        return None


def math_html(text: object) -> Markup:
    """``text`` as safe HTML: escaped, with each `$…$` / `$$…$$` replaced by MathML."""
    text = str(text)
    out: list[str] = []
    last = 0
    for match in _MATH.finditer(text):
        latex = match.group("display") or match.group("inline")
        display = match.group("display") is not None
        mathml = _convert(latex.strip(), display) if len(latex) <= MAX_FORMULA else None
        out.append(str(escape(text[last:match.start()])))
        out.append(mathml if mathml is not None else str(escape(match.group(0))))
        last = match.end()
    out.append(str(escape(text[last:])))
    return Markup("".join(out))
