"""What the pages show: filters (ungraded, section, points), next / previous / next ungraded, progress,
anonymous mode, the answer's context (its exercise, figure, automatic items, model answer)."""
from __future__ import annotations

import re

import pytest
from conftest import TOKEN
from helpers import grade_form, signed_in

from grader.serve.app import create_app
from grader.serve.views import next_ungraded


@pytest.fixture
def app(klass):
    (klass.out / "sections.csv").write_text("submission,section\nalice,A\nbob,B\ncarol,A\n", encoding="utf-8")
    return create_app(klass.out, TOKEN, klass.solution)


@pytest.fixture
def client(app):
    client = app.test_client()
    signed_in(client)
    return client


def _folders(app, item="ex1_why"):
    cohort = app.extensions["lrkit"].cohort
    return cohort.folders(cohort.question(item))


def _grade(client, app, folder: str, toggle: str, item: str = "ex1_why"):
    url = f"/q/{item}/{_folders(app, item).index(folder) + 1}"
    assert client.post(f"{url}/grade", data={**grade_form(client, url), "toggle": toggle}).status_code == 302


def _page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_next_ungraded_goes_forward_then_wraps_round():
    folders = ["a", "b", "c", "d"]
    assert next_ungraded(folders, {"b": 1}, 1) == 3
    assert next_ungraded(folders, {"a": 1}, 4) == 2
    assert next_ungraded(folders, {"a": 1, "b": 1, "c": 1}, 4) is None


def test_every_grader_sees_one_fixed_order(app, klass):
    again = create_app(klass.out, TOKEN, klass.solution)
    assert _folders(app) == _folders(again) and sorted(_folders(app)) == sorted(klass.names)
    keys = app.extensions["lrkit"].cohort.keys
    assert _folders(app) == sorted(keys, key=keys.get)


def test_the_ungraded_filter_keeps_only_ungraded_answers(client, app):
    folders = _folders(app)
    _grade(client, app, folders[1], "1")  # the second answer is graded: next from the first skips it
    page = _page(client, "/q/ex1_why/1?show=ungraded")
    assert "4 shown by the filter" in page
    assert re.search(r'href="/q/ex1_why/(\d+)\?show=ungraded" id="next"', page).group(1) == "3"


def test_the_score_and_section_filters(client, app):
    _grade(client, app, "alice", "1")  # 2 points
    _grade(client, app, "bob", "2")  # 1 point
    page = _page(client, "/q/ex1_why/1?score=2")
    assert "1 shown by the filter" in page and '<option value="2" selected>2 points</option>' in page
    assert "2 shown by the filter" in _page(client, "/q/ex1_why/1?section=A")  # alice and carol
    assert "1 shown by the filter" in _page(client, "/q/ex1_why/1?section=B")


def test_progress_per_question_on_the_list(client, app):
    _grade(client, app, "alice", "1")
    page = _page(client, "/")
    assert "1 / 5 graded" in page and "0 / 5 graded" in page


def test_after_the_last_ungraded_answer_next_ungraded_leads_to_the_next_question(client, app):
    for folder in _folders(app)[:-1]:
        _grade(client, app, folder, "1")
    last = len(_folders(app))
    url = f"/q/ex1_why/{last}"
    response = client.post(f"{url}/grade", data={**grade_form(client, url), "toggle": "1", "go": "next_ungraded"})
    assert response.headers["Location"] == "/q/concepts/1"


def test_anonymous_mode_hides_every_name_even_in_the_page_source(client, app, klass):
    csrf = grade_form(client, "/q/ex1_why/1")["csrf"]
    assert client.post("/anonymous", data={"csrf": csrf, "on": "1", "back": "/"}).status_code == 302
    for position in range(1, 6):
        page = _page(client, f"/q/ex1_why/{position}")
        assert f"answer {position}" in page
        named = [n for n in klass.names if re.search(rf"\b{n}\b", page)]
        assert not named, (position, named)


def test_an_answer_is_shown_with_its_exercise_and_the_model_answer(client, app):
    page = _page(client, f"/q/ex1_why/{_folders(app).index('dave') + 1}")
    assert "Associativity" in page and "<strong>both</strong>" in page  # the answer, rendered
    assert "Exercise 1 runs" in page and "1 / 1" in page  # the automatic item of ex1
    assert 'src="data:image/png;base64,' in page and "In [1]: ok" in page  # the figure and cell of ex1
    assert "Because matrix products are associative" in page  # the model answer
    assert "Full marks need the reassociation named." in page and "42 tokens" in page  # notes, hidden cell
    assert "Correct and complete" in page and 'data-key="1"' in page  # the rubric entries, with keys


def test_each_of_several_answers_comes_under_its_question(client, app):
    page = _page(client, f"/q/concepts/{_folders(app, 'concepts').index('bob') + 1}")
    first, second = page.index("What is a state?"), page.index("What does decay do?")
    assert first < page.index("bob&#39;s state") < second < page.index("bob&#39;s decay")


def test_a_new_entry_added_while_grading_gets_the_next_key(client, app):
    csrf = grade_form(client, "/q/ex1_why/1")["csrf"]
    response = client.post("/q/ex1_why/entries", data={"csrf": csrf, "points": "0.5", "comment": "Cites the figure",
                                                      "back": "/q/ex1_why/1"})
    assert response.status_code == 302 and response.headers["Location"] == "/q/ex1_why/1"
    assert 'data-key="4"' in _page(client, "/q/ex1_why/1") and "Cites the figure" in _page(client, "/q/ex1_why/1")


@pytest.mark.parametrize("url, says", [("/q/no_such_item/1", "no hand-graded item 'no_such_item'"),
                                       ("/q/ex1_why/99", "ex1_why has answers 1 to 5")])
def test_a_wrong_address_is_a_page_saying_what_exists(client, url, says):
    response = client.get(url)
    assert response.status_code == 404 and says in response.get_data(as_text=True).replace("&#39;", "'")


def test_a_bad_number_in_a_form_is_refused_with_why(client):
    form = grade_form(client, "/q/ex1_why/1")
    response = client.post("/q/ex1_why/1/grade", data={**form, "adjust": "lots"})
    assert response.status_code == 400 and "the free points must be a number" in response.get_data(as_text=True)
    response = client.post("/q/ex1_why/1/grade", data={**form, "adjust": "nan"})
    assert response.status_code == 400


def test_a_form_for_another_answer_is_refused(client):
    form = grade_form(client, "/q/ex1_why/1")
    response = client.post("/q/ex1_why/2/grade", data={**form, "toggle": "1"})
    assert response.status_code == 409 and "nothing was saved" in response.get_data(as_text=True)


def test_without_a_solution_tree_a_class_is_still_graded(klass):
    """No model answers or entries, the exercise guessed from the item's id; a blank answer says so."""
    app = create_app(klass.out, TOKEN, None)
    client = app.test_client()
    signed_in(client)
    page = _page(client, f"/q/ex1_why/{_folders(app).index('carol') + 1}")
    assert "(no answer)" in page and "answer ex1_why is blank" in page and "Model answer" not in page
    assert "Exercise 1 runs" in page and "No rubric entries yet" in page
    form = grade_form(client, f"/q/ex1_why/{_folders(app).index('carol') + 1}")
    response = client.post(f"/q/ex1_why/{_folders(app).index('carol') + 1}/grade", data={**form, "adjust": "0.5"})
    assert response.status_code == 302
    assert app.extensions["lrkit"].store.grades("ex1_why")["carol"].points == 0.5
