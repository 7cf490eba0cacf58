"""Driving the app through Flask's test client as a browser would: the token URL, the name, the forms."""
from __future__ import annotations

import re

from conftest import TOKEN


def field(html: str, name: str, form_id: str | None = None) -> str:
    """The value of the first input ``name`` (in the form with id ``form_id``, if given)."""
    if form_id is not None:
        html = html[html.index(f'id="{form_id}"'):]
    match = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert match, f"no field {name!r} on the page"
    return match.group(1)


def signed_in(client, name: str = "Tess"):
    """``client`` after opening the printed URL and typing a name; returns its CSRF token."""
    assert client.get(f"/?token={TOKEN}").status_code == 302
    page = client.get("/name").get_data(as_text=True)
    csrf = field(page, "csrf")
    assert client.post("/name", data={"csrf": csrf, "grader": name, "next": "/"}).status_code == 302
    return csrf


def grade_form(client, url: str) -> dict[str, str]:
    """The hidden fields of the grade form on the answer page at ``url``."""
    page = client.get(url)
    assert page.status_code == 200, page.get_data(as_text=True)[:500]
    html = page.get_data(as_text=True)
    return {name: field(html, name, "grade-form") for name in ("csrf", "answer", "version", "entries")}
