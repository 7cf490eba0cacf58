"""The model's cost runs go alone (`grader.sandbox.quiet`): measured once and kept for every student graded on the
machine, they must not share the cores with a run of a student's (its notebook, an ordinary run in the second lane,
another grading of a batch) that could make the model look slower (blind attacks34 basics, attacks35 hybrid)."""
from __future__ import annotations

import threading
import time
from pathlib import Path

from grader import sandbox
from grader.sandbox import quiet


def _spans(events: list, name: str) -> list[tuple[float, float]]:
    return [(a, b) for n, a, b in events if n == name]


def test_an_alone_run_waits_for_every_run_in_flight_and_none_starts_beside_it():
    events, lock = [], threading.Lock()

    def run(name: str, alone: bool, seconds: float, delay: float) -> None:
        time.sleep(delay)
        with quiet.alone() if alone else quiet.shared():
            start = time.monotonic()
            time.sleep(seconds)
            with lock:
                events.append((name, start, time.monotonic()))

    threads = [threading.Thread(target=run, args=args) for args in (
        ("student-1", False, 0.3, 0.0), ("student-2", False, 0.3, 0.05),  # in flight when the model asks
        ("model", True, 0.3, 0.1),
        ("student-3", False, 0.1, 0.15), ("student-4", False, 0.1, 0.2))]  # asked after the model: wait for it
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(events) == 5 and quiet.now() == (0, False, 0)
    (m_start, m_end), = _spans(events, "model")
    for name in ("student-1", "student-2", "student-3", "student-4"):
        (start, end), = _spans(events, name)
        assert end <= m_start or start >= m_end, (name, events)  # never beside the model's run
    assert all(_spans(events, n)[0][0] >= m_end for n in ("student-3", "student-4"))  # served after it
    assert all(_spans(events, n)[0][1] <= m_start for n in ("student-1", "student-2"))
    s3, s4 = _spans(events, "student-3")[0], _spans(events, "student-4")[0]
    assert s3[0] < s4[1] and s4[0] < s3[1]  # shared runs still go side by side


def test_a_runs_failure_frees_its_place():
    try:
        with quiet.alone():
            raise RuntimeError("the run failed")
    except RuntimeError:
        pass
    try:
        with quiet.shared():
            raise RuntimeError("the run failed")
    except RuntimeError:
        pass
    assert quiet.now() == (0, False, 0)
    with quiet.alone():  # nothing left holding a place
        assert quiet.now() == (0, True, 0)


def test_the_models_cost_runs_are_the_runs_that_go_alone(monkeypatch, tmp_path):
    """`probing._sandboxed(model=True)` (the model's cost runs) asks for a run alone; the student's runs do not."""
    from grader.grading import probing

    asked = []
    monkeypatch.setattr(sandbox, "run", lambda argv, **kw: asked.append(kw["alone"]))
    (tmp_path / "code").mkdir()
    (tmp_path / "code" / "m.py").write_text("x = 1\n")
    for model in (True, False):
        probing._sandboxed(tmp_path, Path(tmp_path / "code"), b"", sandbox.RunLimits(), unsandboxed=True,
                           cancel=None, model=model, modules_only=True)
    assert asked == [True, False]
