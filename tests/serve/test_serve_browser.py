"""`grade serve` in a real browser (the system's headless Chromium through Playwright): a class graded by
keyboard alone, two graders racing on one answer, a hostile answer shown as text, a wrong token refused.

Screenshots go to `$LRKIT_ARTIFACTS/serve/` (default `artifacts/serve/`, which git ignores) for CI to keep;
docs/img/grade-serve.png in the README is one of them.
"""
from __future__ import annotations

import csv
import shutil

import pytest
from conftest import ARTIFACTS, TOKEN, Running
from playwright.sync_api import Page, sync_playwright

from grader.report.render import load_report
from grader.serve.app import create_app

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
VIEWPORT = {"width": 1300, "height": 900}


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


@pytest.fixture
def served(klass):
    app = create_app(klass.out, TOKEN, klass.solution)
    running = Running(app)
    yield running, app
    running.stop()


def shot(page: Page, name: str) -> None:
    """The whole page (a viewport as tall as the page: Chromium's own full-page capture can hang headless)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    height = page.evaluate("document.documentElement.scrollHeight")
    page.set_viewport_size({"width": VIEWPORT["width"], "height": min(max(height, 200), 4000)})
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.set_viewport_size(VIEWPORT)


def sign_in(browser, running: Running, name: str) -> Page:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.goto(running.url)
    page.wait_for_selector("#grader:focus")  # the name field has the focus
    page.keyboard.type(name)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == running.base + "/"
    return page


def key(page: Page, name: str) -> None:
    """Press ``name`` and wait for the page it leads to."""
    with page.expect_navigation():
        page.keyboard.press(name)


def position_of(app, item: str, folder: str) -> int:
    cohort = app.extensions["lrkit"].cohort
    return cohort.folders(cohort.question(item)).index(folder) + 1


def test_a_class_is_graded_by_keyboard_alone(browser, served, klass):
    running, _ = served
    page = sign_in(browser, running, "Tess")
    key(page, "1")  # the first question, at its first ungraded answer
    seen = []
    while page.url != running.base + "/":
        item = page.url.split("/q/", 1)[1].split("/")[0]
        seen.append(item)
        key(page, "1")  # ex1_why: +2 correct; concepts: +2 the first concept
        if item == "concepts":
            key(page, "2")  # +2 the second
        if len(seen) == 3:
            shot(page, "grading-view")
        key(page, "n")  # the next ungraded answer, then the next question's, then the list
        assert len(seen) <= 2 * len(klass.names), "'n' should reach the list once everything is graded"
    assert seen == ["ex1_why"] * 5 + ["concepts"] * 5
    assert page.inner_text("#questions").count("5 / 5 graded") == 2
    shot(page, "all-graded")
    for name in klass.names:
        report = load_report(klass.out / name / "report.json")
        assert {i.id: i.points for i in report.items} == {"ex1_runs": 1, "ex1_why": 2, "concepts": 4}, name
    rows = list(csv.DictReader((klass.out / "gradebook.csv").open()))
    assert {(r["submission"], r["score"]) for r in rows} == {(n, "7") for n in klass.names}
    assert "pending" not in (klass.out / "summary.html").read_text().lower()


def test_two_graders_racing_on_one_answer_lose_nothing(browser, served, klass):
    running, app = served
    ann, ben = sign_in(browser, running, "Ann"), sign_in(browser, running, "Ben")
    url = f"{running.base}/q/ex1_why/{position_of(app, 'ex1_why', 'bob')}"
    ann.goto(url)
    ben.goto(url)  # both see bob's answer ungraded
    key(ann, "1")
    assert ann.inner_text("#points") == "2"
    key(ben, "2")  # on the version Ben saw: refused, and shown
    refused = ben.inner_text("#refused")
    assert "Not saved" in refused and "Ann graded this answer meanwhile" in refused and "2 points" in refused
    assert ben.locator("button.entry.applied").count() == 1  # Ben's choice is still in his form
    shot(ben, "stale-write-refused")
    key(ben, "s")  # saved on top of Ann's, knowingly
    assert ben.inner_text("#points") == "1"
    history = app.extensions["lrkit"].store.history("bob", "ex1_why")
    assert [(h.grader, h.points, h.version) for h in history] == [("Ann", 2, 1), ("Ben", 1, 2)]
    ben.locator("#history summary").click()
    assert "Ann" in ben.inner_text("#history") and "Ben" in ben.inner_text("#history")
    item = next(i for i in load_report(klass.out / "bob" / "report.json").items if i.id == "ex1_why")
    assert item.points == 1 and "comment: Names the property but gives no reason (+1)" in item.messages


def test_a_hostile_answer_is_shown_as_inert_text(browser, served):
    running, app = served
    page = sign_in(browser, running, "Tess")
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{running.base}/q/ex1_why/{position_of(app, 'ex1_why', 'mallory')}")
    text = page.inner_text("#answer-1")
    assert "<script>window.__pwned = 1</script>" in text and '<img src=x onerror="window.__pwned = 2">' in text
    assert page.evaluate("window.__pwned") is None and not errors
    assert page.locator("#student script, #student img:not([src^='data:image/png'])").count() == 0
    assert "\\u202eexe.elif\\u202c" in text and "\u202e" not in page.content()  # the override, as an escape
    assert "cut at 20,000 characters" in text
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert page.locator("#answer-1 strong").inner_text() == "bold" and page.locator("#answer-1 math").count() == 1
    assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")  # the figure
    shot(page, "hostile-answer")


def test_a_wrong_or_missing_token_is_refused(browser, served):
    running, _ = served
    page = browser.new_context(viewport=VIEWPORT).new_page()
    wrong = page.goto(f"{running.base}/?token=not-{TOKEN}")
    assert wrong.status == 403 and "wrong access token" in page.inner_text("#error")
    missing = page.goto(f"{running.base}/q/ex1_why/1")
    assert missing.status == 401 and "no access token" in page.inner_text("#error")
    shot(page, "wrong-token")
