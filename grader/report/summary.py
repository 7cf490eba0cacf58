"""Class summary for a batch: gradebook.csv and summary.html with two embedded figures.

Figures are drawn with matplotlib's Agg canvas (no pyplot, no global state) at a fixed
size, and saved without the Software tag, so the same reports give the same PNG bytes.
"""
from __future__ import annotations

import base64
import csv
import io
import logging
import statistics
from html import escape
from pathlib import Path
from typing import Any, Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from grader.report.render import (
    fmt_points,
    gradebook_row,
    render_html_template,
    write_atomic,
)
from grader.report.safe import shown
from grader.results import Report, VariantMatch
from grader.variants import describe

log = logging.getLogger(__name__)
STATUSES = ("graded", "incomplete", "timeout", "crashed", "invalid", "bundle_error")
# a score for these says nothing about the student's work (not their submission, or the grader
# failed), so they are counted, linked and listed, but left out of the mean, histogram and rates
NOT_IN_STATISTICS = ("invalid", "crashed", "bundle_error")
FIGSIZE = (6.4, 3.6)
DPI = 100
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def write_class_summary(reports: list[Report], out_dir: Path, *,
                        rubric_items: list[tuple[str, str, float]] | None = None,
                        folders: dict[str, str] | None = None,
                        variant_matches: Sequence[VariantMatch] | None = None) -> dict[str, Path]:
    """Write gradebook.csv and summary.html into ``out_dir``; returns their paths keyed by file name.

    ``rubric_items`` ((id, title, points) in rubric order) fixes the item columns, so a
    batch in which every submission crashed still has them; without it the columns are
    the item ids in order of first appearance. ``folders`` maps a submission to its report
    folder under ``out_dir`` (default: the submission's name), for the links. ``variant_matches``
    (per-student numbers: answers right for the default numbers or a classmate's, grader/batch/variants.py)
    are listed; None when they could not be worked out (no bundle): the page then says that only what the
    reports hold (the default numbers) is shown.
    """
    out_dir = Path(out_dir)
    reports = sorted(reports, key=lambda r: r.submission)
    items = list(rubric_items) if rubric_items is not None else _items_seen(reports)
    gradebook = _gradebook_csv(reports, [i[0] for i in items])
    links = {r.submission: f"{(folders or {}).get(r.submission, r.submission)}/report.html" for r in reports}
    try:
        html = render_html_template("summary.html.j2", **_summary_context(reports, items), links=links,
                                    **_matches_context(variant_matches))
    except Exception as exc:  # the gradebook is the record: it is written even when the page cannot be drawn
        log.exception("the class summary page could not be drawn")
        html = ("<!doctype html><meta charset='utf-8'><title>Class summary</title><p>The class summary could not be "
                f"drawn ({escape(type(exc).__name__)}: {escape(str(exc)[:300])}); gradebook.csv has every row.</p>\n")
    paths = {"gradebook.csv": out_dir / "gradebook.csv", "summary.html": out_dir / "summary.html"}
    write_atomic({paths["gradebook.csv"]: gradebook, paths["summary.html"]: html})
    return paths


def _items_seen(reports: Sequence[Report]) -> list[tuple[str, str, float]]:
    seen: dict[str, tuple[str, str, float]] = {}
    for report in reports:
        for item in report.items:
            seen.setdefault(item.id, (item.id, item.title, item.max_points))
    return list(seen.values())


def _csv_text(value: Any) -> str:
    """A cell value; strings that a spreadsheet would run as a formula get a leading quote."""
    if isinstance(value, float | int) and not isinstance(value, bool):
        return fmt_points(value)
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _gradebook_csv(reports: Sequence[Report], item_ids: list[str]) -> str:
    columns = ["submission", "status", "score", "max_score", *item_ids]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    for report in reports:
        row = gradebook_row(report)
        writer.writerow([_csv_text(row[c]) if c in row else "" for c in columns])
    return buf.getvalue()


def _pending(reports: Sequence[Report], item_id: str) -> bool:
    """True when a person has graded this (manual) item in none of ``reports`` yet."""
    found = [i.status for r in reports for i in r.items if i.id == item_id]
    return bool(found) and all(status == "manual" for status in found)


def _full_marks(report: Report, item_id: str) -> bool:
    return any(i.id == item_id and i.max_points > 0 and i.points >= i.max_points for i in report.items)


def _summary_context(reports: Sequence[Report], items: list[tuple[str, str, float]]) -> dict[str, Any]:
    counted = [r for r in reports if r.status not in NOT_IN_STATISTICS]
    scores = [r.score for r in counted]
    max_score = max((r.max_score for r in reports), default=sum(p for _, _, p in items))
    rates = [(item_id, title, points, sum(_full_marks(r, item_id) for r in counted) / len(counted) if counted else 0.0)
             for item_id, title, points in items if not _pending(counted, item_id)]
    pending = [(item_id, title, points) for item_id, title, points in items if _pending(counted, item_id)]
    counts = {s: sum(r.status == s for r in reports) for s in STATUSES}
    counts.update({r.status: counts.get(r.status, 0) + 1 for r in reports if r.status not in STATUSES})
    return {
        "n": len(reports),
        "n_counted": len(counted),
        "left_out": {s: counts[s] for s in NOT_IN_STATISTICS if counts.get(s)},
        "counts": counts,
        "mean": statistics.fmean(scores) if scores else None,
        "median": statistics.median(scores) if scores else None,
        "max_score": max_score,
        "rates": rates,
        "pending": pending,
        "reports": reports,
        "histogram_png": _png(_histogram(scores, max_score)) if counted else "",
        "pass_rate_png": _png(_pass_rates(rates)) if counted and rates else "",
        "variants": _variant_cells(reports),
    }


def _matches_context(matches: Sequence[VariantMatch] | None) -> dict[str, Any]:
    """The "Answers right for other numbers" section; names and ids are student text, shown on one line."""
    listed = [{"submission": shown(v.submission), "student": shown(v.student), "answers": ", ".join(v.answers),
               "matches": shown(v.matches)} for v in matches or ()]
    return {"variant_matches": listed, "classmates_compared": matches is not None}


def _variant_cells(reports: Sequence[Report]) -> dict[str, str]:
    """Each submission's cell of the "Own numbers" column; a student id claimed by several submissions (one
    student's numbers used twice: a copied notebook, or someone else's id) is said in each of them."""
    if not any(r.variant for r in reports):
        return {}
    claims: dict[str, list[str]] = {}
    for r in reports:
        student = r.variant.get("student") if isinstance(r.variant, dict) else None
        if isinstance(student, str) and student:
            claims.setdefault(student, []).append(r.submission)
    return {r.submission: variant_cell(r, claims) for r in reports}


def variant_cell(report: Report, claims: dict[str, list[str]] | None = None) -> str:
    """A submission's own numbers in the class summary, and what its report says about them (per-student
    variants, assignment.yaml `variants:`): no student id, answers right for the default numbers, an id
    that other submissions (``claims``: student id -> submissions) give too."""
    v = report.variant if isinstance(report.variant, dict) else {}
    numbers = v.get("parameters")
    if not isinstance(numbers, dict) or not all(isinstance(x, (int, float)) for x in numbers.values()):
        return ""
    text = describe({str(k): x for k, x in numbers.items()})
    if not v.get("student"):
        text += "; no student id (graded with the default numbers)"
    defaults = v.get("default_matches")
    if isinstance(defaults, list) and defaults:
        text += f"; right for the default numbers: {', '.join(str(a) for a in defaults)}"
    student = v.get("student")
    others = [s for s in (claims or {}).get(student, []) if s != report.submission] if isinstance(student, str) else []
    if others:
        text += f"; the same student id as {', '.join(sorted(others))} (flagged for review)"
    return text


def _histogram(scores: list[float], max_score: float) -> Figure:
    fig = Figure(figsize=FIGSIZE, dpi=DPI)
    ax = fig.add_subplot()
    top = max(max_score, max(scores), 1.0)
    bins = min(20, max(1, int(round(top))))
    ax.hist(scores, bins=bins, range=(0, top), color="#4c72b0", edgecolor="white")
    ax.set_xlabel(f"score (out of {fmt_points(max_score)})")
    ax.set_ylabel("submissions")
    ax.set_title(f"Score distribution, {len(scores)} submissions")
    ax.yaxis.get_major_locator().set_params(integer=True)
    fig.tight_layout()
    return fig


def _pass_rates(rates: list[tuple[str, str, float, float]]) -> Figure:
    fig = Figure(figsize=(FIGSIZE[0], max(FIGSIZE[1], 0.35 * len(rates) + 1.2)), dpi=DPI)
    ax = fig.add_subplot()
    ids = [r[0] for r in rates][::-1]
    values = [100 * r[3] for r in rates][::-1]
    ax.barh(ids, values, color="#55a868")
    ax.set_xlim(0, 100)
    ax.set_xlabel("submissions with full marks (%)")
    ax.set_title("Per-item pass rate")
    fig.tight_layout()
    return fig


def _png(fig: Figure) -> str:
    """Base64 PNG of ``fig``; no Software tag and no timestamp, so bytes are stable."""
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return base64.b64encode(buf.getvalue()).decode("ascii")
