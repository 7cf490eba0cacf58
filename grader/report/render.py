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

from grader.results import ItemResult, Report

TEMPLATES = Path(__file__).parent / "templates"
UNOFFICIAL = "UNOFFICIAL — not sandboxed"


def fmt_points(x: float) -> str:
    """Points without noise: 3 → "3", 1.5 → "1.5", 2/3 → "0.67"."""
    return f"{round(float(x), 2):g}"


def _md_cell(text: Any) -> str:
    """Make a string safe inside a Markdown table cell (no pipes, HTML or line breaks)."""
    text = str(text).replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"\s*\n\s*", " ", text).strip()


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
    return env


_HTML = _environment(autoescape=True)
_TEXT = _environment(autoescape=False)


def render_html_template(name: str, **context: Any) -> str:
    """Render one of the kit's autoescaped HTML templates (shared with `grader.summary`)."""
    return _HTML.get_template(name).render(**context)


def _context(report: Report) -> dict[str, Any]:
    visible = [i for i in report.items if not i.hidden]
    hidden = [i for i in report.items if i.hidden]
    return {
        "r": report,
        "banner": "" if report.official else UNOFFICIAL,
        "visible": visible,
        "hidden": hidden,
        "hidden_points": sum(i.points for i in hidden),
        "hidden_max": sum(i.max_points for i in hidden),
        "environment": sorted(report.environment.items()),
        "timings": sorted(report.timings.items()),
    }


def render_json(report: Report) -> str:
    """report.json: the whole report, keys sorted, schema_version inside."""
    return json.dumps(report.to_dict(), sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def render_markdown(report: Report) -> str:
    return _TEXT.get_template("report.md.j2").render(**_context(report))


def render_html(report: Report) -> str:
    return _HTML.get_template("report.html.j2").render(**_context(report))


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _plain(text: str) -> str:
    """Student-influenced text without terminal control characters (ANSI escapes, bells)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def render_terminal(report: Report, html_path: Path | str | None = None) -> str:
    """Plain text for a terminal: score, one line per visible item, a line for hidden items."""
    lines = [f"{report.assignment} — {_plain(report.submission)}: {fmt_points(report.score)}/"
             f"{fmt_points(report.max_score)} ({report.status})"]
    if not report.official:
        lines.append(f"*** {UNOFFICIAL} ***")
    lines += [f"  {_plain(n)}" for n in report.notes]
    visible = [i for i in report.items if not i.hidden]
    width = max((len(fmt_points(i.max_points)) for i in visible), default=1)
    for item in visible:
        score = f"{fmt_points(item.points):>{width}}/{fmt_points(item.max_points):<{width}}"
        lines.append(f"  [ {score} ] {item.id} — {item.title}")
        lines += [f"        {_plain(line)}" for m in item.messages for line in m.splitlines()]
    hidden = [i for i in report.items if i.hidden]
    if hidden:
        got, of = fmt_points(sum(i.points for i in hidden)), fmt_points(sum(i.max_points for i in hidden))
        lines.append(f"  {len(hidden)} hidden item{'s' * (len(hidden) != 1)}: {got}/{of} points "
                     "(titles and messages in the HTML report)")
    if html_path is not None:
        lines.append(f"HTML report: {html_path}")
    return "\n".join(lines) + "\n"


def _item_passed(item: ItemResult) -> bool:
    return item.status == "passed" or (item.max_points > 0 and item.points >= item.max_points)


def render_gradescope(report: Report) -> dict[str, Any]:
    """Gradescope results.json as a dict; hidden items become visible once grades are published."""
    tests = [{
        "name": item.title,
        "score": float(item.points),
        "max_score": float(item.max_points),
        "status": "passed" if _item_passed(item) else "failed",
        "output": "\n".join(item.messages),
        "output_format": "text",
        "visibility": "after_published" if item.hidden else "visible",
    } for item in report.items]
    header = [f"{report.assignment}: {fmt_points(report.score)}/{fmt_points(report.max_score)} ({report.status})"]
    if not report.official:
        header.append(UNOFFICIAL)
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
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
        for tmp, path in temps:
            os.replace(tmp, path)
    finally:
        for tmp, _ in temps:
            if os.path.exists(tmp):
                os.unlink(tmp)


def write_reports(report: Report, out_dir: Path) -> dict[str, Path]:
    """Write report.json, report.md, report.html and results.json (Gradescope) into ``out_dir``.

    Returns the paths keyed by file name (``"report.html"`` → ``out_dir/report.html``).
    """
    out_dir = Path(out_dir)
    rendered = {
        "report.json": render_json(report),
        "report.md": render_markdown(report),
        "report.html": render_html(report),
        "results.json": json.dumps(render_gradescope(report), indent=2, ensure_ascii=False, allow_nan=False) + "\n",
    }
    paths = {name: out_dir / name for name in rendered}
    write_atomic({paths[name]: text for name, text in rendered.items()})
    return paths


def load_report(path: Path | str) -> Report:
    """Read a report.json written by `write_reports`."""
    path = Path(path)
    try:
        return Report.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"{path}: not a readable report: {exc}") from None
