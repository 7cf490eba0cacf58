"""The probes call the student's code through the harness (`grader/sandbox/inside/caller.py`): whatever the code
can see above itself is the same in every probe, at any depth of the probe's own helpers, one call or a run of
decoding steps. So a form cannot tell the run that measures it from the runs that compare it by who called it:
``warnings.warn(stacklevel=n)`` stamps the n-th caller's file and line with no audit event (blind attacks6), and
without the harness the same reading tells the probes apart (the control below)."""
from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

from grader import sandbox
from grader.grading.probing import run_checks

VERDICTS = '''
from grader.checks import Case, check


@check(probe="through_harness")
def same_everywhere():
    """Called through the harness: one view of the stack from every probe, depth and kind of call."""
    yield Case(label="harness", inputs={"k": 0}, expect={"same": 1.0, "grad": 0.0})


@check(probe="direct")
def control():
    """Called from the probe's own frames: the same reading tells the depths apart."""
    yield Case(label="direct", inputs={"k": 0}, expect={"same": 0.0})


@check(probe="arming")
def armed():
    """A library function replaced in a call and put back when the probe used it is seen after the call."""
    yield Case(label="torch.zeros armed", inputs={"k": 0}, expect={"n": 1.0})


@check(probe="traced")
def traced():
    """A trace function set on the harness's thread is tampering, as on the probes' own."""
    yield Case(label="settrace", inputs={"k": 0}, expect={"n": 1.0})
'''

PROBES = '''
import torch
from lrkit_harness import call, steps


def _deeper(fn):
    return _deeper_still(fn)


def _deeper_still(fn):
    return call(fn)


def through_harness(k):
    import mod
    seen = {call(mod.where), _deeper(mod.where), call((mod, "where"))}
    seen.update(steps(mod.where, 3, lambda t: ((), {})))
    _, state = steps(mod.chained, 2, lambda t: ((), {}), state=0, chained=True)
    seen.add(state)
    with torch.no_grad():  # the probe's grad mode is the call's, though torch keeps it per thread
        grad = call(torch.is_grad_enabled)
    return {"same": float(len(seen) == 1), "grad": float(grad)}


def direct(k):
    import mod
    return {"same": float(len({mod.where(), _direct_deeper(mod.where)}) == 1)}


def _direct_deeper(fn):
    return fn()


def arming(k):
    import mod
    call(mod.arm)
    torch.zeros(1)  # the student's wrapper sees this call, and puts torch.zeros back
    return {"n": 1.0}


def traced(k):
    import mod
    return {"n": float(call(mod.trace_me))}
'''

STUDENT = '''
import threading
import warnings


def where(skip=0):
    """Who called me (past ``skip`` frames of my own), read without any audited introspection: each caller's file
    and line, and the thread."""
    seen = []
    for level in range(2 + skip, 14 + skip):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            warnings.warn("where", stacklevel=level)
        seen.append((caught[0].filename, caught[0].lineno))
    return hash((tuple(seen), threading.current_thread().name)) % 1000003


def chained(state):
    return 0, where(1)


def arm():
    import torch
    real = torch.zeros

    def wrapper(*args, **kwargs):
        torch.zeros = real
        return real(*args, **kwargs)
    torch.zeros = wrapper


def trace_me():
    import sys
    sys.settrace(lambda *args: None)
    return 1
'''


def _tree(base: Path) -> Path:
    tree = base / "path"
    (tree / "hidden").mkdir(parents=True)
    (tree / "assignment.yaml").write_text(textwrap.dedent("""\
        name: path
        title: call path
        notebook: path.ipynb
        student_files: [mod.py]
        modules: [mod]
        public_tests: tests/test_mod.py
        baseline: {passed: 0, failed: 0}
        limits: {cell_timeout_s: 30, notebook_timeout_s: 60, checks_timeout_s: 60, case_timeout_s: 20,
                 memory_mb: 2048}
        """))
    (tree / "hidden" / "__init__.py").write_text("")
    (tree / "hidden" / "verdicts.py").write_text(VERDICTS)
    (tree / "hidden" / "probes.py").write_text(PROBES)
    return tree


def test_the_student_sees_one_call_path_from_every_probe(tmp_path):
    tree = _tree(tmp_path)
    student = tmp_path / "student"
    student.mkdir()
    (student / "mod.py").write_text(STUDENT)
    run = run_checks(tree, student, unsandboxed=not sandbox.sandbox_available())
    failed = {o.check: o.message for o in run.outcomes if not o.passed}
    assert set(failed) == {"traced", "armed"}, failed
    assert "not trusted" in failed["traced"] and "sys.settrace" in failed["traced"], failed
    assert "not trusted" in failed["armed"] and "torch.zeros" in failed["armed"], failed
    assert {o.check for o in run.outcomes} == {"same_everywhere", "control", "traced", "armed"}


def test_each_check_that_compares_a_cost_case_runs_alone_and_outcomes_come_back_in_plan_order():
    from types import SimpleNamespace

    from grader.grading import probing
    from grader.grading.checks import Case
    from grader.results import CaseOutcome

    def planned(check, n, compared_by=""):
        case = SimpleNamespace(compared_by=compared_by) if compared_by else Case(label=f"{check} {n}", inputs={})
        return probing.PlannedCase(f"{check}-{n:03d}", SimpleNamespace(name=check, title=check), case)
    ordinary = [planned(c, n) for c in ("a_other", "b_compared", "c_other") for n in range(2)]
    measured = [planned("cost_b", 0, compared_by="b_compared")]
    # the comparing check's process is its run's only one, as the measured process is in a cost run (blind
    # attacks18 read "a process of my run came before me" from a mark on the host), apart or not
    # (twice, each run judged: `COMPARING_RUNS`)
    for apart in (True, False):
        parts = probing._ordinary_runs(ordinary, measured, apart=apart)
        assert [[p.id for p in part] for part in parts] == [
            ["a_other-000", "a_other-001", "c_other-000", "c_other-001"]] + [
            ["b_compared-000", "b_compared-001"]] * probing.COMPARING_RUNS
    # a gate twin (the comparing check's case, run in a gated item's process: `CostCase.gate_twin_among`) runs in
    # that check's run, not in the comparing check's own
    gate = probing.PlannedCase("b_compared-g000", SimpleNamespace(name="b_compared", title="b"),
                               Case(label="gate", inputs={}), gate_twin_of="cost_b-000", runs_in="c_other")
    parts = probing._ordinary_runs(ordinary[:5] + [gate] + ordinary[5:], measured, apart=True)
    assert [[p.id for p in part] for part in parts] == [
        ["a_other-000", "a_other-001", "c_other-000", "b_compared-g000", "c_other-001"]] + [
        ["b_compared-000", "b_compared-001"]] * probing.COMPARING_RUNS
    many = [planned(f"c{n:03d}", 0) for n in range(probing.CHECKS_PER_RUN + 5)]  # more checks than one run holds
    assert sorted(len(part) for part in probing._ordinary_runs(many, [], apart=True)) == [5, probing.CHECKS_PER_RUN]
    assert [len(part) for part in probing._ordinary_runs(many, [], apart=False)] == [len(many)]
    runs = [probing.CheckRun(tuple(CaseOutcome(p.spec.name, p.case.label, True, p.id) for p in part), (f"note {i}",
                                                                                                        "shared"),
                             (), 1.0, cpu_s=0.5, peak_memory_mb=10.0 * (i + 1)) for i, part in enumerate(parts)]
    merged = probing._merged(parts, runs, ordinary)
    assert [o.message for o in merged.outcomes] == [p.id for p in ordinary]
    assert merged.notes == ("note 0", "shared", "note 1", "note 2") and merged.cpu_s == 1.5
    assert merged.peak_memory_mb == 30.0
    # a case of a comparing check fails if it failed in any of its runs, whichever came first
    for failing in (1, 2):
        outcomes = [run.outcomes for run in runs]
        outcomes[failing] = (CaseOutcome("b_compared", "b 0", False, "wrong"), *outcomes[failing][1:])
        merged = probing._merged(parts, [dataclasses.replace(run, outcomes=o) for run, o in zip(runs, outcomes)],
                                 ordinary)
        assert [o.passed for o in merged.outcomes] == [True, True, False, True, True, True], merged.outcomes


def test_where_the_kernel_refuses_namespaces_the_checks_run_without_and_say_so(tmp_path, monkeypatch):
    """A run whose driver could not set a check's process apart (user namespaces refused: here a filter that does
    not load, so the trial fails the same way) is judged as it ran, its isolation without `apart`, and the grader
    remembers it (`APART_REFUSED`): the checks comparing a cost case's form run alone in any case."""
    import pytest

    from grader.grading import probing
    if not sandbox.sandbox_available():
        pytest.skip("needs the grader's sandbox")
    room = probing._room(False)
    monkeypatch.setattr(probing, "_room", lambda unsandboxed: {**room, "seccomp": "00"})
    monkeypatch.setattr(probing, "APART_REFUSED", [])
    runs = []
    real = probing._sandboxed
    monkeypatch.setattr(probing, "_sandboxed", lambda *a, **k: runs.append(1) or real(*a, **k))
    tree = _tree(tmp_path)
    student = tmp_path / "student"
    student.mkdir()
    (student / "mod.py").write_text(STUDENT)
    first = run_checks(tree, student)
    assert probing.APART_REFUSED == [True] and len(runs) == 1, runs  # one run, judged as it is
    assert "apart" not in first.isolation and {o.check for o in first.outcomes if o.passed} >= {"same_everywhere"}
    run_checks(tree, student)
    assert len(runs) == 2


def test_a_run_that_compares_a_cost_form_has_no_limit_a_cost_run_lacks(monkeypatch):
    """Blind attacks22 slept 37 s at the twin's first step: the ordinary run stopped the case at 30 s, the cost run
    gave it 60, and the process that woke up ran the efficient step where it was measured only. A run of a check
    that compares a cost case's form now has every limit at least the cost run's, and the same time per case; the
    other checks' run keeps the ordinary limits."""
    from types import SimpleNamespace

    from grader.config import AssignmentLimits
    from grader.grading import probing
    from grader.grading.checks import Case

    def planned(check, n, compared_by=""):
        case = SimpleNamespace(compared_by=compared_by) if compared_by else Case(label=f"{check} {n}", inputs={})
        return probing.PlannedCase(f"{check}-{n:03d}", SimpleNamespace(name=check, title=check), case)
    ordinary = [planned(c, n) for c in ("a_other", "b_compared") for n in range(2)]
    measured = [planned("cost_b", 0, compared_by="b_compared")]
    limits = AssignmentLimits(checks_timeout_s=40, case_timeout_s=30)  # (a checks limit below a cost run's wall)
    seen = []
    monkeypatch.setattr(probing, "_job", lambda tree, part, config, unsandboxed, timeout=None: (part, timeout))
    monkeypatch.setattr(probing, "_sandboxed", lambda tree, sub, job, run_limits, **k: seen.append(
        (job[0][0].spec.name, job[1], run_limits)) or SimpleNamespace())
    monkeypatch.setattr(probing, "_judge", lambda *a: probing.CheckRun((), (), (), 0.0))
    runs = probing.OrdinaryRuns(Path("."), Path("."), ordinary, measured, SimpleNamespace(limits=limits), True, None)
    while runs.pending():
        runs.run_next()
    cost = probing.cost_run_limits(limits)
    assert [name for name, _, _ in seen] == ["a_other", "b_compared", "b_compared"]
    for name, timeout, run in seen:
        if name == "a_other":
            assert timeout is None and run.wall_s == 40 and run.idle_s == 45  # the ordinary limits
            continue
        assert timeout == probing.case_limit_s(limits) == 60
        assert run.wall_s >= cost.wall_s and run.cpu_time_s >= cost.cpu_time_s
        # no idle limit where a cost run has none: a restarted process's import is silent (blind attacks23)
        assert cost.idle_s is None and run.idle_s is None
        for field in ("memory_mb", "max_procs", "tmp_mb", "max_disk_mb", "max_channel_bytes", "max_file_mb",
                      "cpus", "max_output_bytes"):
            assert getattr(run, field) >= getattr(cost, field), field
        assert (run.sockets, run.nest) == (cost.sockets, cost.nest)
