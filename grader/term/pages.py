"""The term's renderings: a student's feedback (HTML + JSON + receipt) and the term summary (CSV + HTML).
Jinja2 template files (grader/term/templates/) with autoescape and strict undefined; student-influenced text
is made safe first (grader.report.safe), CSV cells a spreadsheet would run get a leading quote."""
from __future__ import annotations

import csv
import dataclasses
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from grader.report import safe
from grader.report.render import fmt_points
from grader.term.grades import Grade
from grader.term.release import StudentView

TEMPLATES = Path(__file__).parent / "templates"
FEEDBACK_FILES = ("feedback.html", "feedback.json", "receipt.json")


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["points"] = fmt_points
    return env


def _safe(value: Any) -> Any:
    """Every string in a (nested) value with terminal and bidi controls escaped."""
    if isinstance(value, str):
        return safe.clean(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_safe(v) for v in value)
    if isinstance(value, dict):
        return {_safe(k): _safe(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: _safe(getattr(value, f.name)) for f in dataclasses.fields(value)})
    return value


def feedback_files(view: StudentView, receipt: dict) -> dict[str, str]:
    """feedback.html, feedback.json (the same view as data) and receipt.json."""
    view, receipt = _safe(view), _safe(receipt)
    html = _environment().get_template("feedback.html.j2").render(v=view, receipt=sorted(receipt.items()))
    return {"feedback.html": html,
            "feedback.json": json.dumps(dataclasses.asdict(view), indent=1, sort_keys=True, ensure_ascii=False) + "\n",
            "receipt.json": json.dumps(receipt, indent=1, sort_keys=True, ensure_ascii=False) + "\n"}


@dataclass(frozen=True)
class SummaryRow:
    key: str
    name: str
    section: str
    grades: tuple[Grade, ...]
    total: float
    max_total: float


@dataclass(frozen=True)
class SummaryColumn:
    assignment: str
    title: str
    max_points: float


def summary_rows(students: list, grades: list[Grade], assignments: list[str]) -> list[SummaryRow]:
    by = {(g.student, g.assignment): g for g in grades}
    rows = []
    for s in students:
        mine = tuple(by[(s["key"], a)] for a in assignments if (s["key"], a) in by)
        if mine:
            rows.append(SummaryRow(s["key"], s["name"], s["section"], mine,
                                   sum(g.final or 0.0 for g in mine), sum(g.max_points for g in mine)))
    return rows


def summary_csv(rows: list[SummaryRow], columns: list[SummaryColumn]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    head = ["student", "name", "section"]
    for c in columns:
        head += [c.assignment, f"{c.assignment} state", f"{c.assignment} how"]
    writer.writerow(head + ["total", "max_total"])
    for r in rows:
        cells: list[Any] = [r.key, r.name, r.section]
        for g in r.grades:
            cells += ["" if g.final is None else fmt_points(g.final), g.state, g.explain]
        writer.writerow([safe.csv_cell(safe.clean(c, lines=False)) for c in cells]
                        + [fmt_points(r.total), fmt_points(r.max_total)])
    return buf.getvalue()


def summary_html(course: str, rows: list[SummaryRow], columns: list[SummaryColumn], section: str | None,
                 digest: str) -> str:
    return _environment().get_template("term-summary.html.j2").render(
        course=safe.clean(course), rows=_safe(rows), assignments=columns, section=section or "", digest=digest)
