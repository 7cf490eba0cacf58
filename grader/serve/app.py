"""The Flask application of `grade serve`: pages (grader/serve/pages.py) and writes (writes.py) over one
class, guarded by grader/serve/auth.py. Templates are Jinja2 files, autoescaped whatever their suffix,
with undefined names an error."""
from __future__ import annotations

import secrets
from pathlib import Path

import jinja2
from flask import Flask, render_template
from werkzeug.exceptions import HTTPException

from grader.config import load_assignment
from grader.errors import UsageError
from grader.report import safe
from grader.serve import auth, pages, writes
from grader.serve.cohort import load_cohort, read_reports
from grader.serve.context import Grading, grader
from grader.serve.guide import load_guide
from grader.serve.publish import Publisher
from grader.serve.store import DB_FILE, Store
from grader.serve.text import rich
from grader.serve.views import points_shown

HERE = Path(__file__).parent


class _App(Flask):
    jinja_options = {**Flask.jinja_options, "undefined": jinja2.StrictUndefined}

    def select_jinja_autoescape(self, filename: str) -> bool:
        return True  # every template, whatever its suffix


def create_app(out_dir: Path, token: str, solution: Path | None = None, *, anonymous: bool = False) -> Flask:
    """The app for the class in ``out_dir`` (the output of `grade batch`); ``solution`` is the assignment's
    solution tree (questions, model answers, rubric entries), None to grade without it."""
    reports = read_reports(out_dir)
    assignment = next(iter(reports.values())).assignment
    if solution is not None and load_assignment(solution, check_name=False).name != assignment:
        raise UsageError(f"{solution} is the solution of {load_assignment(solution, check_name=False).name!r}, "
                         f"but {out_dir} holds {assignment!r}: give that assignment's autograder zip")
    guide = load_guide(solution)
    store = Store(out_dir / DB_FILE)
    cohort = load_cohort(out_dir, reports, guide, store.salt())
    store.seed_entries({q.id: guide[q.id] for q in cohort.questions if q.id in guide})
    app = _App("grader.serve", template_folder=str(HERE / "templates"), static_folder=str(HERE / "static"))
    app.secret_key = secrets.token_bytes(32)
    app.config.update(MAX_CONTENT_LENGTH=64 * 1024, SESSION_COOKIE_SAMESITE="Strict", SESSION_COOKIE_HTTPONLY=True)
    app.extensions["lrkit"] = Grading(cohort, guide, store, Publisher(out_dir), anonymous)
    app.jinja_env.filters.update(rich=rich, points=points_shown, shown=safe.shown)
    app.jinja_env.globals.update(csrf=auth.csrf_token)
    app.context_processor(lambda: {"grader": grader()})
    auth.install(app, token)  # first: nothing below runs for a request without the token
    pages.register(app)
    writes.register(app)
    app.register_error_handler(HTTPException, _error_page)
    return app


def _error_page(error: HTTPException):
    return render_template("error.html.j2", code=error.code, name=error.name, message=error.description), error.code
