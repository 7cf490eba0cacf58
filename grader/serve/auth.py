"""Who may use the pages: the access token printed with the URL (kept in a cookie after the first visit,
as Jupyter does), a CSRF token in every form, and headers that keep a page from running anything but its
own script.

Without the token a request gets 401, with a wrong one 403; a POST without this browser's CSRF token
gets 403. The cookies are named after the token, so two servers on one machine (cookies ignore the port)
never read each other's.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import urlencode

from flask import Flask, Response, abort, redirect, request, session

CSRF_FIELD = "csrf"
POLICY = ("default-src 'none'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; "
          "base-uri 'none'; frame-ancestors 'none'")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def cookie_name(token: str, what: str) -> str:
    return f"lrkit_{what}_{hashlib.sha256(token.encode()).hexdigest()[:12]}"


def csrf_token() -> str:
    """This browser's CSRF token (made on first use, kept in the signed session)."""
    if CSRF_FIELD not in session:
        session[CSRF_FIELD] = secrets.token_urlsafe(24)
    return session[CSRF_FIELD]


def install(app: Flask, token: str) -> None:
    """Guard every request of ``app`` with ``token`` and every POST with the session's CSRF token."""
    cookie = cookie_name(token, "token")
    app.config["SESSION_COOKIE_NAME"] = cookie_name(token, "session")

    def same(given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(given.encode(), token.encode())

    @app.before_request
    def _guard() -> Response | None:
        given = request.args.get("token")
        if given is not None:
            if not same(given):
                abort(403, "wrong access token: open the URL 'grade serve' printed")
            rest = {k: v for k, v in request.args.items() if k != "token"}
            response = redirect(request.path + (f"?{urlencode(rest)}" if rest else ""))
            response.set_cookie(cookie, token, httponly=True, samesite="Strict")
            return response
        if request.cookies.get(cookie) is None:
            abort(401, "no access token: open the URL 'grade serve' printed (it ends in ?token=...)")
        if not same(request.cookies.get(cookie)):
            abort(403, "wrong access token: open the URL 'grade serve' printed")
        if request.method == "POST":
            expected = session.get(CSRF_FIELD)
            if not expected or not hmac.compare_digest(str(request.form.get(CSRF_FIELD, "")), expected):
                abort(403, "this form is stale or not from this page (CSRF): reload the page and try again")
        return None

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response
