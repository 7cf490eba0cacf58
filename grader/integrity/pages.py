"""What `grade similarity` writes: similarity.json (the code pairs, most similar first), similarity.html (the
overview) and, in `_similarity/`, one side-by-side page per flagged pair and integrity.json (everything).

Every text shown comes from students (code, answers, names): it goes through `grader.report.safe` (control
characters, bidi overrides) and Jinja2's autoescaping, never as markup. All files are rendered first and then
replaced together (`write_atomic`), so a failure leaves the previous report whole.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import jinja2

from grader.integrity.shared_outputs import SharedOutput
from grader.integrity.similarity import CODE, Pair, Similarity
from grader.report.render import write_atomic
from grader.report.safe import clean, shown
from grader.results import VariantMatch

TEMPLATES = Path(__file__).resolve().parent / "templates"
PAGES = "_similarity"  # beside similarity.html: a name no submission folder can have (they start alphanumeric)
SHOWN_UNFLAGGED = 30  # pairs below the threshold listed on the page (all listed ones are in the JSON)


@dataclass(frozen=True)
class Variants:
    """Per-student numbers, class-wide: answers right for other numbers, and submissions without a student id."""

    matches: tuple[VariantMatch, ...] = ()
    without_id: tuple[str, ...] = ()


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def page_name(pair: Pair, rank: int) -> str:
    return f"{PAGES}/{'code' if pair.what == CODE else 'answer'}-{rank:04d}.html"


def pages_of(sim: Similarity) -> dict[tuple[str, str, str], str]:
    """(a, b, what) -> the side-by-side page of each flagged pair, numbered by rank."""
    out = {}
    for pairs in (sim.code, sim.answers):
        flagged = [p for p in pairs if p.flagged]
        out.update({(p.a, p.b, p.what): page_name(p, n) for n, p in enumerate(flagged, start=1)})
    return out


def pair_json(pair: Pair, page: str | None) -> dict[str, Any]:
    row: dict[str, Any] = {"a": pair.a, "b": pair.b, "score": pair.score, "share_a": pair.share_a,
                           "share_b": pair.share_b, "flagged": pair.flagged}
    if pair.what != CODE:
        row["answer"] = pair.what
    if pair.longest is not None:
        row["longest"] = {"a_lines": list(pair.longest.a_lines), "b_lines": list(pair.longest.b_lines),
                          "lines": pair.longest.a_lines[1] - pair.longest.a_lines[0] + 1}
    if page:
        row["page"] = page
    return row


def segments(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, shared) runs at ``spans`` (sorted, possibly overlapping)."""
    out, at = [], 0
    for start, end in sorted(spans):
        start, end = max(start, at), min(end, len(text))
        if end <= start:
            continue
        if start > at:
            out.append((text[at:start], False))
        if out and out[-1][1] and start == at:  # overlapping or touching spans: one highlight
            out[-1] = (out[-1][0] + text[start:end], True)
        else:
            out.append((text[start:end], True))
        at = end
    if at < len(text):
        out.append((text[at:], False))
    return [(clean(piece), shared) for piece, shared in out]


def _side(pair: Pair, texts: dict[str, str]) -> dict[str, Any]:
    return {"a": shown(pair.a), "b": shown(pair.b), "what": shown(pair.what), "score": pair.score,
            "share_a": pair.share_a, "share_b": pair.share_b,
            "longest": pair.longest, "left": segments(texts[pair.a], pair.spans_a),
            "right": segments(texts[pair.b], pair.spans_b)}


def _shown_pair(pair: Pair, page: str | None) -> dict[str, Any]:
    return {**pair_json(pair, page), "a": shown(pair.a), "b": shown(pair.b), "what": shown(pair.what)}


def render(sim: Similarity, groups: Sequence[SharedOutput], texts: dict[tuple[str, str], str], *,
           assignment: str, settings: dict[str, Any], notes: Sequence[str],
           variants: Variants = Variants()) -> dict[str, str]:
    """Every file of the report, by path relative to the report folder. ``texts``: (submission, what) -> the text
    compared (code as handed in, an answer normalised)."""
    env = _environment()
    pages = pages_of(sim)
    code = [pair_json(p, pages.get((p.a, p.b, p.what))) for p in sim.code]
    answers = [pair_json(p, pages.get((p.a, p.b, p.what))) for p in sim.answers]
    everything = {"assignment": assignment, "settings": settings, "compared": list(sim.compared),
                  "too_short": list(sim.too_short), "pairs_compared": sim.pairs_compared, "seconds": sim.seconds,
                  "code": code, "answers": answers, "clusters": [dataclasses.asdict(c) for c in sim.clusters],
                  "shared_outputs": [dataclasses.asdict(g) for g in groups], "notes": list(notes),
                  "variant_matches": [dataclasses.asdict(v) for v in variants.matches],
                  "without_student_id": list(variants.without_id)}
    files = {"similarity.json": json.dumps(code, indent=1, ensure_ascii=False) + "\n",
             f"{PAGES}/integrity.json": json.dumps(everything, indent=1, ensure_ascii=False) + "\n"}
    for pairs in (sim.code, sim.answers):
        for p in pairs:
            if p.flagged:
                side_texts = {p.a: texts[(p.a, p.what)], p.b: texts[(p.b, p.what)]}
                files[pages[(p.a, p.b, p.what)]] = env.get_template("pair.html.j2").render(
                    **_side(p, side_texts), assignment=assignment, back="../similarity.html")
    files["similarity.html"] = env.get_template("similarity.html.j2").render(
        assignment=assignment, settings=settings, sim=sim, notes=[clean(n) for n in notes],
        code=[_shown_pair(p, pages.get((p.a, p.b, p.what))) for p in sim.code if p.flagged],
        unflagged=[_shown_pair(p, None) for p in sim.code if not p.flagged][:SHOWN_UNFLAGGED],
        answers=[_shown_pair(p, pages.get((p.a, p.b, p.what))) for p in sim.answers if p.flagged],
        clusters=[{"members": [shown(m) for m in c.members], "pairs": c.pairs, "top": c.top} for c in sim.clusters],
        groups=[{**dataclasses.asdict(g), "members": [shown(m) for m in g.members]} for g in groups],
        too_short=[shown(n) for n in sim.too_short],
        variant_matches=[{**dataclasses.asdict(v), "submission": shown(v.submission), "student": shown(v.student),
                          "matches": shown(v.matches)} for v in variants.matches],
        without_id=[shown(n) for n in variants.without_id])
    return files


def write(to: Path, files: dict[str, str]) -> dict[str, Path]:
    """Write the rendered files into ``to`` together; pages of an earlier run that are not in this one go."""
    paths = {rel: to / rel for rel in files}
    write_atomic({paths[rel]: text for rel, text in files.items()})
    for old in sorted((to / PAGES).glob("*-[0-9][0-9][0-9][0-9].html")):
        if f"{PAGES}/{old.name}" not in files and not old.is_symlink():
            old.unlink()
    return paths
