"""The pages (GET): the grader's name, the questions with their progress, one answer's grading view."""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Flask, abort, redirect, render_template, request, session, url_for

from grader.serve.cohort import Question
from grader.serve.context import (
    MAX_NAME,
    anonymous,
    folder_at,
    grader,
    grading,
    local_path,
    one_line,
    question_or_404,
)
from grader.serve.guide import GuideItem
from grader.serve.views import Filters, Refused, answer_view, progress

OPEN_WITHOUT_A_NAME = ("name", "static")


def register(app: Flask) -> None:
    app.before_request(_named)
    app.add_url_rule("/name", "name", name, methods=["GET", "POST"])
    app.add_url_rule("/", "index", index)
    app.add_url_rule("/q/<item>", "question", question)
    app.add_url_rule("/q/<item>/<int:position>", "answer", answer)


def _named():
    """Every grade records who gave it: ask for a name first."""
    if request.endpoint not in OPEN_WITHOUT_A_NAME and not grader():
        return redirect(url_for("name", next=request.full_path.rstrip("?")))
    return None


def name():
    if request.method == "POST":
        given = one_line(request.form.get("grader", ""), MAX_NAME)
        if not given:
            abort(400, "type your name: every grade records who gave it")
        session["grader"] = given
        return redirect(local_path(request.form.get("next", "/")))
    return render_template("name.html.j2", next=local_path(request.args.get("next", "/")))


def index():
    g = grading()
    rows = [progress(q, g.cohort.folders(q), g.store.grades(q.id)) for q in g.cohort.questions]
    first = next((answer_url(r.question.id, r.first_ungraded, Filters()) for r in rows if r.first_ungraded), "")
    return render_template("index.html.j2", rows=rows, cohort=g.cohort, anonymous=anonymous(),
                           out_dir=str(g.publisher.out_dir), first_ungraded=first)


def question(item: str):
    q = question_or_404(item)
    first = progress(q, grading().cohort.folders(q), grading().store.grades(q.id)).first_ungraded
    return redirect(answer_url(q.id, first or 1, Filters.read(request.args)))


def answer(item: str, position: int):
    q = question_or_404(item)
    return render_answer(q, position, Filters.read(request.args))


def answer_url(item: str, position: int, filters: Filters) -> str:
    query = filters.query()
    return url_for("answer", item=item, position=position) + (f"?{urlencode(query)}" if query else "")


def next_ungraded_url(q: Question, after: int | None, filters: Filters) -> str:
    """The next ungraded answer: in this question, else in the next question that has one, else the list."""
    if after is not None:
        return answer_url(q.id, after, filters)
    g = grading()
    questions = list(g.cohort.questions)
    for other in questions[questions.index(q) + 1:] + questions[:questions.index(q)]:
        first = progress(other, g.cohort.folders(other), g.store.grades(other.id)).first_ungraded
        if first is not None:
            return answer_url(other.id, first, Filters())
    return url_for("index")


def render_answer(q: Question, position: int, filters: Filters, refused: Refused | None = None, code: int = 200):
    g = grading()
    folder = folder_at(q, position)
    view = answer_view(g.cohort, q, position, grades=g.store.grades(q.id), entries=g.store.entries(q.id),
                       history=g.store.history(folder, q.id), guide=g.guide.get(q.id, GuideItem()), filters=filters,
                       anonymous=anonymous(), refused=refused)
    links = {"previous": view.previous and answer_url(q.id, view.previous, filters),
             "next": view.next and answer_url(q.id, view.next, filters),
             "next_ungraded": next_ungraded_url(q, view.next_ungraded, filters), "index": url_for("index")}
    sections = sorted(set(g.cohort.sections.values()))
    return render_template("answer.html.j2", v=view, filters=filters, query=urlencode(filters.query()),
                           links=links, sections=sections, anonymous=anonymous(),
                           fields=_fields(view), here=answer_url(q.id, position, filters), parts=_parts(view)), code


def _fields(view) -> dict:
    """What the grade form holds: the refused draft (so nothing typed is lost), else the grade as saved."""
    shown = view.refused.draft if view.refused else view.grade
    return {"version": view.grade.version if view.grade else 0, "entries": tuple(shown.entries) if shown else (),
            "adjust": shown.adjust if shown else 0.0, "comment": shown.comment if shown else ""}


def _parts(view) -> list[tuple[str, str, str]]:
    """(question, model answer, the student's text) per answer the item grades; texts that cannot be paired
    with a question (a report without the solution's parts) come with no question."""
    texts, parts = view.answer.texts, view.guide.parts
    if parts and len(parts) == len(texts):
        return [(p.question, p.model_answer, t) for p, t in zip(parts, texts)]
    paired = [(p.question, p.model_answer, "") for p in parts]
    return paired + [("", "", t) for t in texts] if texts else paired or [("", "", "")]
