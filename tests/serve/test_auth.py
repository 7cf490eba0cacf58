"""Who may use the pages: the token (401 without, 403 wrong), and a CSRF token on every write."""
from __future__ import annotations

import pytest
from conftest import TOKEN
from helpers import field, grade_form, signed_in

from grader.serve.app import create_app
from grader.serve.auth import cookie_name
from grader.serve.store import DB_FILE, Store


@pytest.fixture
def app(klass):
    app = create_app(klass.out, TOKEN, klass.solution)
    app.config["TESTING"] = True
    return app


@pytest.mark.parametrize("path", ["/", "/q/ex1_why/1", "/static/serve.js", "/name", "/no-such-page"])
def test_a_request_without_the_token_gets_401(app, path):
    response = app.test_client().get(path)
    assert response.status_code == 401
    assert "no access token" in response.get_data(as_text=True)


def test_a_wrong_token_gets_403_in_the_url_and_in_the_cookie(app):
    client = app.test_client()
    response = client.get("/?token=not-the-token")
    assert response.status_code == 403 and "wrong access token" in response.get_data(as_text=True)
    client.set_cookie(cookie_name(TOKEN, "token"), "not-the-token")
    assert client.get("/").status_code == 403


def test_the_token_url_sets_a_cookie_and_drops_the_token_from_the_address(app):
    client = app.test_client()
    response = client.get(f"/q/ex1_why?token={TOKEN}&show=ungraded")
    assert response.status_code == 302 and response.headers["Location"] == "/q/ex1_why?show=ungraded"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(cookie_name(TOKEN, "token") + "=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/").status_code == 302  # in: now asked for a name


def test_every_page_forbids_scripts_but_its_own(app):
    client = app.test_client()
    signed_in(client)
    response = client.get("/q/ex1_why/1")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "default-src 'none'" in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("csrf", [None, "", "forged"])
def test_a_write_without_this_browsers_csrf_token_is_refused(app, klass, csrf):
    client = app.test_client()
    signed_in(client)
    form = grade_form(client, "/q/ex1_why/1")
    form.pop("csrf")
    if csrf is not None:
        form["csrf"] = csrf
    response = client.post("/q/ex1_why/1/grade", data={**form, "toggle": "1"})
    assert response.status_code == 403 and "CSRF" in response.get_data(as_text=True)
    assert Store(klass.out / DB_FILE).grades("ex1_why") == {}
    assert "graded by hand" not in "".join((klass.out / n / "report.json").read_text() for n in klass.names)


def test_another_browsers_csrf_token_does_not_work_here(app, klass):
    first, second = app.test_client(), app.test_client()
    csrf_of_first = signed_in(first)
    signed_in(second, "Sam")
    form = grade_form(second, "/q/ex1_why/1")
    response = second.post("/q/ex1_why/1/grade", data={**form, "csrf": csrf_of_first, "toggle": "1"})
    assert response.status_code == 403


def test_a_name_is_asked_before_anything_else(app):
    client = app.test_client()
    client.get(f"/?token={TOKEN}")
    response = client.get("/q/ex1_why/1")
    assert response.status_code == 302 and response.headers["Location"].startswith("/name?next=/q/ex1_why/1")


def test_after_the_name_the_grader_goes_back_only_to_this_site(app):
    client = app.test_client()
    client.get(f"/?token={TOKEN}")
    csrf = field(client.get("/name").get_data(as_text=True), "csrf")
    response = client.post("/name", data={"csrf": csrf, "grader": "Tess", "next": "//evil.example/"})
    assert response.headers["Location"] == "/"
