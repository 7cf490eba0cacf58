"""Runs that go alone: nothing else of this grader runs while one does.

The model solution's cost runs are measured once per bundle and machine and kept (`grading.model_costs`): every
student graded there for hours is judged against them. A run beside them, the student's own notebook or an
ordinary check run in the grading's second lane, or another student's grading in a batch, could load the cores and
the memory bus they share and make the model look slower: looser bounds for everyone after (blind hybrid attacks35
named it). So such a run waits until every run of this process has ended, and no run starts until it has (`alone`);
every other run holds a place that only an alone run waits for (`shared`). An alone run that is waiting is served
before any run that asks after it, so a busy batch does not keep it waiting for ever.

This process only: shards and Dask workers on one machine are other processes (each measures the model
alone of its own runs; docs/authoring.md).
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

_moved = threading.Condition()
_running = 0  # shared runs now
_alone = False  # an alone run now
_waiting_alone = 0  # alone runs waiting for the others to end


@contextlib.contextmanager
def shared() -> Iterator[None]:
    """Around any run: waits while an alone run runs or waits."""
    global _running
    with _moved:
        _moved.wait_for(lambda: not _alone and not _waiting_alone)
        _running += 1
    try:
        yield
    finally:
        with _moved:
            _running -= 1
            _moved.notify_all()


@contextlib.contextmanager
def alone() -> Iterator[None]:
    """Around a run measured for everyone after: waits until no other run of this process runs."""
    global _alone, _waiting_alone
    with _moved:
        _waiting_alone += 1
        try:
            _moved.wait_for(lambda: not _alone and not _running)
        finally:
            _waiting_alone -= 1
        _alone = True
    try:
        yield
    finally:
        with _moved:
            _alone = False
            _moved.notify_all()


def now() -> tuple[int, bool, int]:
    """(shared runs, an alone run, alone runs waiting): for tests."""
    with _moved:
        return _running, _alone, _waiting_alone
