"""The grade store: versions refuse stale writes, every change is kept, entries re-score, a failed
publish saves nothing."""
from __future__ import annotations

import threading

import pytest

from grader.errors import LrkitError
from grader.serve.guide import EntryDraft, GuideItem
from grader.serve.store import Draft, Entry, StaleWrite, Store, points_of


class Published(list):
    """A publish callback that records what it was asked to write."""

    def __call__(self, folder, grades, entries):
        self.append((folder, {item: g.points for item, g in grades.items()}))


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "grades.sqlite")
    store.seed_entries({"why": GuideItem(entries=(EntryDraft(2, "correct"), EntryDraft(1, "half"),
                                                  EntryDraft(-1, "no numbers")))})
    return store


def test_a_write_on_an_old_version_is_refused_and_names_who_won(store):
    publish = Published()
    store.save("alice", "why", Draft(0, (1,)), "Tess", 2, publish)
    with pytest.raises(StaleWrite, match="changed meanwhile by Tess") as refused:
        store.save("alice", "why", Draft(0, (2,)), "Sam", 2, publish)
    assert refused.value.current.points == 2 and refused.value.current.grader == "Tess"
    assert store.grade("alice", "why").points == 2 and publish == [("alice", {"why": 2})]
    store.save("alice", "why", Draft(1, (2,)), "Sam", 2, publish)  # on the version it saw: saved
    assert store.grade("alice", "why").points == 1 and store.grade("alice", "why").version == 2


def test_every_change_is_kept_with_who_and_when(store):
    publish = Published()
    store.save("alice", "why", Draft(0, (1,), comment="good"), "Tess", 2, publish)
    store.save("alice", "why", Draft(1, (1, 3)), "Sam", 2, publish)
    history = store.history("alice", "why")
    assert [(h.version, h.points, h.entries, h.grader, h.why) for h in history] == [
        (1, 2, (1,), "Tess", "graded"), (2, 1, (1, 3), "Sam", "graded")]
    assert history[0].comment == "good" and all(h.at.endswith("+00:00") for h in history)


def test_points_are_the_entries_plus_the_free_points_within_the_item():
    table = {1: Entry("why", 1, 2, "correct", 1), 2: Entry("why", 2, -1, "no numbers", 1)}
    assert points_of((1,), 0.5, table, 2) == 2  # capped at the item's points
    assert points_of((2,), 0, table, 2) == 0  # never below 0
    assert points_of((1, 2), 0.5, table, 2) == 1.5


def test_changing_an_entry_rescores_every_answer_graded_with_it(store):
    publish = Published()
    store.save("alice", "why", Draft(0, (2,)), "Tess", 2, publish)
    store.save("bob", "why", Draft(0, (2,), adjust=0.5), "Tess", 2, publish)
    store.save("carol", "why", Draft(0, (1,)), "Tess", 2, publish)
    publish.clear()
    entry = store.entries("why")[2]
    assert store.change_entry(Entry("why", 2, 1.5, "most of it", entry.version), "Sam", 2, publish) == 2
    assert {f: store.grade(f, "why").points for f in ("alice", "bob", "carol")} == {"alice": 1.5, "bob": 2,
                                                                                    "carol": 2}
    assert sorted(publish) == [("alice", {"why": 1.5}), ("bob", {"why": 2})]
    assert store.history("alice", "why")[-1].why == "entry 2 changed"
    assert store.entries("why")[2].comment == "most of it" and store.entries("why")[2].version == entry.version + 1
    with pytest.raises(StaleWrite, match="rubric entry 2 was changed meanwhile"):
        store.change_entry(Entry("why", 2, 0, "none", entry.version), "Tess", 2, publish)


def test_a_grade_whose_report_cannot_be_written_is_not_saved(store):
    def broken(folder, grades, entries):
        raise LrkitError("the disk is full")

    with pytest.raises(LrkitError, match="disk is full"):
        store.save("alice", "why", Draft(0, (1,)), "Tess", 2, broken)
    assert store.grade("alice", "why") is None and store.history("alice", "why") == ()


def test_an_entry_the_page_showed_that_is_gone_refuses_the_write(store):
    with pytest.raises(StaleWrite, match="nothing was saved"):
        store.save("alice", "why", Draft(0, (9,)), "Tess", 2, Published())


def test_the_guide_seeds_entries_once_and_later_edits_stay(store):
    store.add_entry("why", 0.5, "a new idea", "Tess")
    store.seed_entries({"why": GuideItem(entries=(EntryDraft(5, "from a changed guide"),))})
    assert [e.comment for e in store.entries("why").values()] == ["correct", "half", "no numbers", "a new idea"]


def test_the_answer_order_key_is_made_once_per_class(tmp_path):
    assert Store(tmp_path / "a.sqlite").salt() == Store(tmp_path / "a.sqlite").salt()
    assert Store(tmp_path / "a.sqlite").salt() != Store(tmp_path / "b.sqlite").salt()


def test_two_graders_saving_at_once_on_one_version_one_wins(store):
    """Threads (as the server runs requests) on separate connections: exactly one write lands."""
    results, barrier = [], threading.Barrier(8)

    def grade(n):
        barrier.wait()
        try:
            store.save("alice", "why", Draft(0, (1 + n % 3,)), f"grader {n}", 2, Published())
            results.append("saved")
        except StaleWrite:
            results.append("refused")

    threads = [threading.Thread(target=grade, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["refused"] * 7 + ["saved"]
    assert len(store.history("alice", "why")) == 1


def test_a_file_that_is_not_a_database_is_a_usage_error(tmp_path):
    path = tmp_path / "handgrading.sqlite"
    path.write_text("not sqlite at all, " * 100)
    with pytest.raises(LrkitError, match="cannot be the hand-grading database"):
        Store(path)
