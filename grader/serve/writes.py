"""The writes (POST, each with the page's CSRF token): a grade, a new rubric entry, an entry's new points or
comment, anonymous mode. A grade names the version it was made on; a stale one is refused (409) and shown
beside the grade that won. After every saved grade the class's gradebook and summary are written again."""
from __future__ import annotations

from flask import Flask, abort, redirect, request, session, url_for

from grader.errors import LrkitError
from grader.serve.context import (
    MAX_COMMENT,
    folder_at,
    grader,
    grading,
    local_path,
    number,
    one_line,
    question_or_404,
    whole,
)
from grader.serve.pages import answer_url, next_ungraded_url, render_answer
from grader.serve.store import Draft, Entry, StaleWrite
from grader.serve.views import Filters, Refused, next_ungraded


def register(app: Flask) -> None:
    app.add_url_rule("/q/<item>/<int:position>/grade", "grade", grade, methods=["POST"])
    app.add_url_rule("/q/<item>/entries", "add_entry", add_entry, methods=["POST"])
    app.add_url_rule("/q/<item>/entries/<int:entry>", "change_entry", change_entry, methods=["POST"])
    app.add_url_rule("/anonymous", "anonymous", set_anonymous, methods=["POST"])


def _draft() -> Draft:
    form = request.form
    expected = whole(form.get("version", ""), "the form's version")
    entries = {whole(n, "an entry's number") for n in form.get("entries", "").split()}
    if form.get("toggle"):
        entries ^= {whole(form["toggle"], "the entry")}
    adjust = number(form.get("adjust", "").strip() or "0", "the free points")
    return Draft(expected, tuple(sorted(entries)), adjust, form.get("comment", "").strip()[:MAX_COMMENT])


def grade(item: str, position: int):
    q, filters, g = question_or_404(item), Filters.read(request.args), grading()
    folder = folder_at(q, position)
    if request.form.get("answer") != g.cohort.keys[folder]:
        abort(409, "this page showed another answer than the one at this place now: nothing was saved; reload")
    draft = _draft()
    try:
        g.store.save(folder, q.id, draft, grader(), q.max_points, g.publisher)
    except StaleWrite as stale:
        return render_answer(q, position, filters, Refused(draft, stale.current), 409)
    except LrkitError as error:  # a report that cannot be read or written: the grade was not saved
        abort(500, str(error))
    g.publisher.class_files()
    if request.form.get("go") == "next_ungraded":
        after = next_ungraded(g.cohort.folders(q), g.store.grades(q.id), position)
        return redirect(next_ungraded_url(q, after, filters))
    return redirect(answer_url(q.id, position, filters))


def add_entry(item: str):
    q = question_or_404(item)
    comment = one_line(request.form.get("comment", ""), MAX_COMMENT)
    if not comment:
        abort(400, "a rubric entry needs a comment (what the student reads)")
    grading().store.add_entry(q.id, number(request.form.get("points", ""), "the entry's points"), comment, grader())
    return redirect(local_path(request.form.get("back", ""), url_for("question", item=q.id)))


def change_entry(item: str, entry: int):
    q, g, n = question_or_404(item), grading(), entry
    current = g.store.entries(q.id).get(n)
    if current is None:
        abort(404, f"{q.id} has no rubric entry {n}")
    comment = one_line(request.form.get("comment", current.comment), MAX_COMMENT) or current.comment
    version = whole(request.form.get("version", ""), "the form's version")
    edited = Entry(q.id, n, number(request.form.get("points", ""), "the entry's points"), comment, version)
    try:
        g.store.change_entry(edited, grader(), q.max_points, g.publisher)
    except StaleWrite as stale:
        abort(409, f"{stale}: reload the page to see the entry as it is now")
    except LrkitError as error:
        abort(500, str(error))
    g.publisher.class_files()
    return redirect(local_path(request.form.get("back", ""), url_for("question", item=q.id)))


def set_anonymous():
    session["anonymous"] = request.form.get("on") == "1"
    return redirect(local_path(request.form.get("back", "/")))
