"""Renderings of a `Report`: JSON, Markdown, HTML, Gradescope results.json, terminal text,
a gradebook row; and `write_reports`, which writes the files atomically.

Every rendering reads the same `Report`; none adds facts of its own. Hidden items show
only their title, points and messages, which the scorer already keeps free of inputs
and expected values.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Mapping

import jinja2
from markupsafe import Markup

from grader.report import safe
from grader.report.mathml import math_html
from grader.results import ItemResult, Report, code_cell_numbers
from grader.variants import describe

TEMPLATES = Path(__file__).parent / "templates"
UNOFFICIAL = "UNOFFICIAL — not sandboxed"
LOCAL = "UNOFFICIAL — local run: public tests and answers only"
# what a person reads for an item's status ("manual" means a person has not graded it yet)
STATUS_LABELS = {"manual": "pending", "hidden": "official grader only"}
FILE_MODE = 0o644  # reports are read by TAs, web servers and LMS uploaders, not only their writer


def status_label(status: str) -> str:
    return STATUS_LABELS.get(status, status)


def banner(report: Report) -> str:
    """"" for an official report; otherwise why it is not one."""
    if report.official:
        return ""
    sandboxed = "bwrap" in report.isolation or "zygote" in report.isolation  # zygote: a warm start, same sandbox
    return LOCAL if sandboxed else UNOFFICIAL


def heading(report: Report) -> str:
    """"assignment — submission", once when they are the same (a local run in the assignment folder)."""
    if report.submission in ("", report.assignment):
        return report.assignment
    return f"{report.assignment} — {report.submission}"


def timing_label(key: str, value: float) -> tuple[str, str]:
    """("notebook peak", "485 MB") from ("notebook_peak_mb", 484.8); seconds for *_s."""
    if key.endswith("_mb"):
        return key.removesuffix("_mb").replace("_", " "), f"{value:.0f} MB"
    if key.endswith("_s"):
        return key.removesuffix("_s").replace("_", " "), f"{value:.2f} s"
    return key.replace("_", " "), f"{value:g}"


def fmt_points(x: float) -> str:
    """Points without noise: 3 → "3", 1.5 → "1.5", 2/3 → "0.67"."""
    return f"{round(float(x), 2):g}"


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~])")


def _md_cell(text: Any) -> str:
    """Make a string safe inside a Markdown table cell: no pipes, HTML, line breaks, emphasis,
    headings, and no links or images (brackets and parentheses are escaped)."""
    text = _MD_SPECIAL.sub(r"\\\1", safe.clean(str(text)))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return " ".join(line.strip() for line in text.split("\n") if line.strip())  # linear, unlike \s*\n\s*


def _environment(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["points"] = fmt_points
    env.filters["md"] = _md_cell
    env.filters["label"] = status_label
    if autoescape:
        env.filters["math"] = _rich
    return env


_CELL_LINK = re.compile(r"report\.html#cell-(\d{1,6})")


def _rich(text: Any) -> Markup:
    """Student-facing text as HTML: escaped, LaTeX as MathML, "report.html#cell-N" as a link to the cell."""
    return Markup(_CELL_LINK.sub(r'<a href="#cell-\1">report.html#cell-\1</a>', str(math_html(text))))


_HTML = _environment(autoescape=True)
_TEXT = _environment(autoescape=False)


def render_html_template(name: str, **context: Any) -> str:
    """Render one of the kit's autoescaped HTML templates (shared with `grader.summary`)."""
    return _HTML.get_template(name).render(**context)


def _context(report: Report) -> dict[str, Any]:
    visible = [i for i in report.items if not i.hidden]
    hidden = [i for i in report.items if i.hidden and i.status != "hidden"]
    elsewhere = [i for i in report.items if i.status == "hidden"]  # a local run: graded only officially
    numbers = code_cell_numbers(report.cells)
    return {
        "r": report,
        "title": heading(report),
        "banner": banner(report),
        "visible": visible,
        "hidden": hidden,
        "hidden_points": sum(i.points for i in hidden),
        "hidden_max": sum(i.max_points for i in hidden),
        "elsewhere": elsewhere,
        "elsewhere_max": sum(i.max_points for i in elsewhere),
        "numbers": numbers,
        "environment": sorted(report.environment.items()),
        "timings": [timing_label(k, float(v)) for k, v in sorted(report.timings.items())],
        "variant": variant_text(report),
    }


def variant_text(report: Report) -> str:
    """The student's own numbers, as every rendering shows them ("" for an assignment without variants)."""
    v = report.variant
    if not v or not isinstance(v.get("parameters"), dict):
        return ""
    who = f"student id {v['student']!r}, from {v.get('source', '')}" if v.get("student") else \
        "no student id was found, so the default numbers"
    return f"Graded with the numbers of this submission's variant ({who}): {describe(v['parameters'])}"


def render_json(report: Report) -> str:
    """report.json: the whole report, keys sorted, schema_version inside."""
    report = safe.sanitize(report)
    return json.dumps(report.to_dict(), sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def render_markdown(report: Report) -> str:
    return _TEXT.get_template("report.md.j2").render(**_context(safe.sanitize(report)))


def render_html(report: Report) -> str:
    return _HTML.get_template("report.html.j2").render(**_context(safe.sanitize(report)))


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _plain(text: str) -> str:
    """Student-influenced text without terminal control characters (ANSI escapes, bells)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def render_terminal(report: Report, html_path: Path | str | None = None) -> str:
    """Plain text for a terminal: score, one line per visible item, a line for hidden items."""
    report = safe.sanitize(report)
    lines = [f"{_plain(heading(report))}: {fmt_points(report.score)}/"
             f"{fmt_points(report.max_score)} ({report.status})"]
    if banner(report):
        lines.append(f"*** {banner(report)} ***")
    lines += [f"  {_plain(n)}" for n in report.notes]
    context = _context(report)
    if context["variant"]:
        lines.append(f"  {_plain(context['variant'])}")
    visible = context["visible"]
    width = max((len(fmt_points(i.max_points)) for i in visible), default=1)
    for item in visible:
        score = f"{fmt_points(item.points):>{width}}/{fmt_points(item.max_points):<{width}}"
        pending = "  (pending: graded by a person)" if item.status == "manual" else ""
        lines.append(f"  [ {score} ] {item.id} — {item.title}{pending}")
        lines += [f"        {_plain(line)}" for m in item.messages for line in m.splitlines()]
    hidden = context["hidden"]
    if hidden:
        counts = ", ".join(f"{sum(i.status == s for i in hidden)} {s}" for s in ("passed", "partial", "failed")
                           if any(i.status == s for i in hidden))
        lines.append(f"  {len(hidden)} hidden item{'s' * (len(hidden) != 1)} ({counts}): "
                     f"{fmt_points(context['hidden_points'])}/{fmt_points(context['hidden_max'])} points "
                     "(messages in the HTML report)")
        lines += [f"    [ {fmt_points(i.points)}/{fmt_points(i.max_points)} ] {_plain(i.title)}" for i in hidden]
    elsewhere = context["elsewhere"]
    if elsewhere:
        lines.append(f"  {len(elsewhere)} item{'s' * (len(elsewhere) != 1)} "
                     f"({fmt_points(context['elsewhere_max'])} points) "
                     f"{'are' if len(elsewhere) != 1 else 'is'} graded only by the official grader, "
                     "with tests that are not in your copy")
    if html_path is not None:
        lines.append(f"HTML report: {html_path}")
    return "\n".join(lines) + "\n"


def _item_passed(item: ItemResult) -> bool:
    return item.status == "passed" or (item.max_points > 0 and item.points >= item.max_points)


def render_gradescope(report: Report) -> dict[str, Any]:
    """Gradescope results.json as a dict; hidden items become visible once grades are published."""
    report = safe.sanitize(report)
    tests = [{
        "name": item.title,
        "score": float(item.points),
        "max_score": float(item.max_points),
        "status": "passed" if _item_passed(item) else "failed",
        "output": "\n".join(item.messages),
        "output_format": "text",
        "visibility": "after_published" if item.hidden else "visible",
    } for item in report.items if item.status != "manual"]
    header = [f"{report.assignment}: {fmt_points(report.score)}/{fmt_points(report.max_score)} ({report.status})"]
    if not report.official:
        header.append(banner(report))
    if variant_text(report):
        header.append(variant_text(report))
    pending = [i for i in report.items if i.status == "manual"]
    if pending:  # left out of tests[]: Gradescope would show them as failed
        header.append(f"Pending, graded by a person: {', '.join(i.title for i in pending)} "
                      f"({fmt_points(sum(i.max_points for i in pending))} points).")
    timings = report.timings
    return {
        "score": float(report.score),
        "execution_time": round(float(timings.get("total_s", sum(timings.values()))), 3),
        "output": "\n".join(header + list(report.notes)),
        "output_format": "text",
        "tests": tests,
    }


def gradebook_row(report: Report) -> dict[str, Any]:
    """One gradebook row: submission, status, score, max_score, then points per item id."""
    report = safe.sanitize(report)
    row: dict[str, Any] = {"submission": report.submission, "status": report.status,
                           "score": report.score, "max_score": report.max_score}
    row.update({item.id: item.points for item in report.items})
    return row


def write_atomic(files: Mapping[Path, str]) -> None:
    """Write every file through a temp file in its folder, then os.replace all of them.

    Callers render everything first, so a rendering error leaves the old files; a write
    error removes the temp files and also replaces nothing.
    """
    temps: list[tuple[str, Path]] = []
    try:
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            temps.append((tmp, path))
            os.fchmod(fd, FILE_MODE)
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
        for tmp, path in temps:
            os.replace(tmp, path)
    finally:
        for tmp, _ in temps:
            if os.path.exists(tmp):
                os.unlink(tmp)


def write_reports(report: Report, out_dir: Path, only: tuple[str, ...] | None = None) -> dict[str, Path]:
    """Write report.json, report.md, report.html and results.json (Gradescope) into ``out_dir`` (``only``: those
    of them, the others left as they are: a batch killed between two renames re-renders what is missing).

    Returns the paths keyed by file name (``"report.html"`` → ``out_dir/report.html``).
    """
    out_dir = Path(out_dir)
    report = safe.sanitize(report)
    rendered = {
        "report.json": render_json(report),
        "report.md": render_markdown(report),
        "report.html": render_html(report),
        "results.json": json.dumps(render_gradescope(report), indent=2, ensure_ascii=False, allow_nan=False) + "\n",
    }
    paths = {name: out_dir / name for name in rendered}
    write_atomic({paths[name]: text for name, text in rendered.items() if only is None or name in only})
    return paths


def load_report(path: Path | str) -> Report:
    """Read a report.json written by `write_reports`."""
    path = Path(path)
    try:
        return Report.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"{path}: not a readable report: {exc}") from None
