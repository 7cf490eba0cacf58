"""What the grader draws from its secret (`grader.grading.draws`): the compared checks' inputs too.

The hidden source names fixed seeds; a form that read it could list the compared inputs' values and run other code
where it is measured (blind attacks12). Every seed a check makes inputs from goes through `grader.checks.drawn`,
so the inputs change with the grader's secret, and `tasks.py check` refuses a compared check whose inputs do not.
"""
from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from grader.authoring.fixed_inputs import draw_problems
from grader.checks import Case, CostCase, check, drawn
from grader.grading import draws, model_costs
from grader.grading.checks import load_checks

ROOT = Path(__file__).resolve().parents[2]
ASSIGNMENTS = ["linear-attention-basics", "linear-attention-hybrid"]


def test_a_seed_is_drawn_the_same_within_one_secret_and_apart_across_secrets():
    with draws.under(b"\x05" * 32):
        first = [drawn(s) for s in range(50)]
        assert [drawn(s) for s in range(50)] == first  # the model's runs and every student's alike
        measured = draws.measured()
    assert len(set(first)) == 50 and all(0 <= d < 2**64 for d in first)
    with draws.under(b"\x06" * 32):
        assert not set(first) & {drawn(s) for s in range(50)}
        assert draws.measured() != measured
    with pytest.raises(TypeError, match="an int"):
        drawn(1.5)


def test_a_draw_under_a_throwaway_secret_stays_in_its_thread():
    seen = []
    with draws.under(b"\x05" * 32):
        inside = drawn(3)
        worker = threading.Thread(target=lambda: seen.append(drawn(3)))
        worker.start()
        worker.join()
    assert seen == [drawn(3)] and seen[0] != inside  # the other thread drew from the grader's own secret
    assert model_costs.secret() not in (b"\x05" * 32,)


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_no_compared_input_is_the_same_under_two_secrets(name):
    """The first value of every compared case's first array (what attacks12 listed) differs between two graders,
    and no compared check has a case whose inputs no draw changes."""
    specs = load_checks(ROOT / "solutions" / name / "hidden")
    assert draw_problems(specs, f"assignments/{name}") == []
    compared = {c.compared_by for spec in specs.values() for c in spec.cases() if isinstance(c, CostCase)}
    assert compared

    def firsts(secret):
        with draws.under(secret):
            return [float(next(v for v in c.inputs.values() if isinstance(v, np.ndarray)).reshape(-1)[0])
                    for n in sorted(compared) for c in specs[n].cases() if isinstance(c, Case)]
    a, b = firsts(b"\x01" * 32), firsts(b"\x02" * 32)
    assert len(a) == len(b) > 10
    assert not set(a) & set(b)


def _specs_with(seed_of, label=lambda n, Q: f"case {n}"):
    @check(probe="form_a")
    def form_equivalence():
        for n in range(3):
            Q = np.random.default_rng(seed_of(n)).standard_normal(4)
            yield Case(label=label(n, Q), inputs={"Q": Q}, expect={"y": np.zeros(4)})

    @check(probe="form_cost")
    def form_cost():
        yield CostCase(label="form, 4 sequences", inputs={"form": "a"}, expect=lambda n: {"y": np.zeros(n)},
                       compared_by="form_equivalence")
    return {f.__lrkit_check__.name: f.__lrkit_check__ for f in (form_equivalence, form_cost)}


def test_check_refuses_a_compared_check_on_fixed_seeds_and_names_it():
    problems = draw_problems(_specs_with(lambda n: n), "assignments/mine")
    assert len(problems) == 1
    assert problems[0].startswith("assignments/mine/hidden: check 'form_equivalence' compares a measured form")
    assert "3 of its cases" in problems[0] and "'case 0'" in problems[0] and "grader.checks.drawn" in problems[0]
    assert draw_problems(_specs_with(drawn), "assignments/mine") == []


def test_check_refuses_a_label_that_shows_a_drawn_value():
    """A label reaches the student's report: one that prints a drawn input hands the draw to a second submission."""
    problems = draw_problems(_specs_with(drawn, label=lambda n, Q: f"case {n}, q0={Q[0]:.3f}"), "assignments/mine")
    assert len(problems) == 1
    assert "check 'form_equivalence' has case labels that change with the draw ('case 0, q0=" in problems[0]
    assert "never by a drawn value" in problems[0]


def test_the_compared_inputs_are_drawn_for_the_submissions_code(tmp_path):
    """Another submission's code draws other compared inputs (what one learns of its inputs from its report says
    nothing of the next one's); the same code, a regrade or a classmate's copy, draws the same ones; the cost
    cases' draw and their place in a run are the grader's alone (the model's runs are compared with them)."""
    from grader.grading import probing

    (tmp_path / "pkg").mkdir()
    (tmp_path / "linear_attention.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "helper.py").write_text("y = 2\n")
    (tmp_path / "notes.ipynb").write_text("{}")
    first = probing._code_digest(tmp_path)
    (tmp_path / "notes.ipynb").write_text('{"cells": []}')
    assert probing._code_digest(tmp_path) == first  # the notebook is not what the checks run
    (tmp_path / "pkg" / "helper.py").write_text("y = 3\n")
    second = probing._code_digest(tmp_path)
    assert second != first
    # a folder reaches the check runs whatever it holds (a module may behave one way beside it and another without:
    # blind attacks20's scout), so it is part of the code too; a data file in it is not
    (tmp_path / "_scout").mkdir()
    (tmp_path / "_scout" / "notes.txt").write_text("a")
    scouted = probing._code_digest(tmp_path)
    (tmp_path / "_scout" / "notes.txt").write_text("b")
    assert scouted != second and probing._code_digest(tmp_path) == scouted
    with draws.under(b"\x07" * 32):
        with draws.for_submission(first):
            a, a_measured, a_place, a_key = drawn(11), draws.measured(), draws.place("c-001", 9), draws.key()
        with draws.for_submission(second):
            b, b_measured, b_place, b_key = drawn(11), draws.measured(), draws.place("c-001", 9), draws.key()
        with draws.for_submission(first):
            assert drawn(11) == a and draws.key() == a_key
    assert a != b and a_key != b_key
    assert (a_measured, a_place) == (b_measured, b_place)


def _same(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) if isinstance(a[k], np.ndarray) else a[k] == b[k]
                                        for k in a)


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_every_cost_case_has_a_twin_the_comparing_check_judges_with_the_same_call(name):
    """Where a cost case is measured, its comparing check has a case of its own (`costs.twin`): the same probe and
    the measured call's own inputs and settings, at a length in ``twin_lengths`` (drawn per submission); its place
    in that check is the grader's, so the cost run's companions are the cases before it (blind attacks13 told the
    measured call by its arguments, kept outputs, order of calls and settings)."""
    from grader.grading import costs, probing
    tree = ROOT / "solutions" / name
    with draws.under(b"\x07" * 32), draws.for_submission(b"one"):
        planned = probing.plan(tree)
        seed = draws.measured()
    with draws.under(b"\x07" * 32), draws.for_submission(b"other"):
        other_plan = probing.plan(tree)
        other = [p.id for p in other_plan]
    costs_ = [p for p in planned if isinstance(p.case, CostCase)]
    twins = {p.twin_of: p for p in planned if p.twin_of}
    assert costs_ and set(twins) == {p.id for p in costs_}
    for p in costs_:
        twin, measured = twins[p.id], costs.drawn(p.case, seed)
        low, high = p.case.twin_lengths
        assert twin.spec.name == p.case.compared_by and twin.probe == p.spec.probe and isinstance(twin.case, Case)
        assert high < p.case.lengths[0]
        assert any(_same(twin.case.inputs, measured.inputs_at(n)) for n in range(low, high + 1)), twin.case.inputs
        compared = [q for q in planned if q.group == twin.spec.name]  # (a gate twin runs in a gated item's process)
        assert [q.id for q in compared].index(twin.id) == [q.id for q in other_plan if q.group == twin.spec.name
                                                           ].index(twin.id)  # the grader's place, not the code's
        before = probing._companions(p, compared)
        assert [c[0] for c in before] == [q.id for q in compared[:compared.index(twin)]]
        # ... and its short twin: the same call over a few dozen tokens, an ordinary compared case of that check
        short = [q for q in planned if q.short_twin_of == p.id]
        low, high = p.case.short_twin_lengths
        assert len(short) == 1 and short[0].spec.name == p.case.compared_by and short[0].probe == p.spec.probe
        assert high < p.case.twin_lengths[0] and short[0] in compared
        assert any(_same(short[0].case.inputs, measured.inputs_at(n)) for n in range(low, high + 1))
        assert all(c[1] == twin.spec.probe for c in before if c[0] != twin.id)
    places = {[q.id for q in planned if q.spec.name == t.spec.name].index(t.id) for t in twins.values()}
    assert len(places) > 1 or len(twins) == 1
    gated = {name for p in costs_ for name in p.case.gate_twin_among}
    for named in {t.spec.name for t in twins.values()} | gated:  # the comparing cases' order is drawn per submission,
        mine = [q.id for q in planned if q.spec.name == named]  # and the gated items' (a gate twin stands among them:
        theirs = [q for q in other if q.startswith(named + "-")]  # a call out of their sequence, blind attacks30)
        assert mine != theirs and sorted(mine) == sorted(theirs)
    assert gated == ({"chunk_boundaries", "partial_chunk_state"} if name == "linear-attention-basics" else set())


class _Runs:
    """An `OrdinaryRuns` stand-in: k runs, each noted in ``events`` as it runs (``failing``: the import fails in
    the first)."""

    def __init__(self, k: int, events: list, failing: bool = False) -> None:
        self.parts, self.runs, self.events, self.failing = [[f"part {i}"] for i in range(k)], [], events, failing

    def pending(self) -> int:
        return len(self.parts) - len(self.runs)

    def import_failed(self) -> str:
        return "importing your module failed: SyntaxError (line 3)" if self.failing and self.runs else ""

    def run_next(self) -> None:
        self.runs.append(1)
        self.events.append(("ordinary", self.parts[len(self.runs) - 1][0]))

    def judged(self):
        from grader.grading import probing
        from grader.results import CaseOutcome
        return probing.CheckRun((CaseOutcome("compared", "c", True, ""),), (), (), 1.0)


def _judge_model_then_two_student_runs(spec, case, run, stamp, kept):
    """A `costs.judge_cost` stand-in: the model's run, two of the student's, a pass."""
    from grader.results import CaseOutcome
    run("model", {}, None)
    run("student", {}, None), run("student", {}, None)
    return CaseOutcome(spec.name, case.label, True, "")


def _three_cost_cases_and_a_compared_one():
    """(three planned cost cases of one form, one planned ordinary case)."""
    from types import SimpleNamespace

    from grader.grading import costs, probing
    spec = SimpleNamespace(name="cost_form", probe="runs", title="Cost")
    case = SimpleNamespace(grows=costs.LINEAR, compared_by="", label="L")
    measured = [probing.PlannedCase(f"cost_form-{n:03d}", spec, case) for n in range(3)]
    return measured, probing.PlannedCase("compared-000", SimpleNamespace(name="compared"), Case("c", {}))


def test_each_ordinary_run_comes_at_a_place_of_its_own_among_the_cost_runs_drawn_per_grading(monkeypatch,
                                                                                              tmp_path):
    """Blind attacks14 carried state from run to run through the host's page cache ("a long call of this form was
    made before", or a count of processes): the run that compares a form came first, always. Blind attacks19 kept
    a log there, and the ordinary runs came as one block; blind attacks20 replayed a regrade's order (drawn for the
    code). Now each of the student's ordinary runs (a comparing check's run twice: `COMPARING_RUNS`) comes after as
    many of its cost runs as the grading's draw says for that run (afresh each time), anywhere from none to all;
    the cost runs' companions are the model's, whatever the ordinary runs found."""
    from types import SimpleNamespace

    from grader.grading import costs, probing

    events = []
    monkeypatch.setattr(probing, "_stamp", lambda tree: ("t", 0))
    monkeypatch.setattr(model_costs, "kept_for", lambda *a: None)

    def runner(p, tree, submission, config, unsandboxed, cancel, notes, spent, before, before_student_run, stops):
        def run(whose, inputs, cap):
            if whose == "student":
                before_student_run()
            events.append((whose, p.id, tuple(c[0] for c in before)))
            return None
        return run

    monkeypatch.setattr(probing, "_alone_runner", runner)
    monkeypatch.setattr(costs, "judge_cost", _judge_model_then_two_student_runs)
    monkeypatch.setattr(costs, "drawn", lambda case, seed: case)
    measured, compared = _three_cost_cases_and_a_compared_one()
    places, orders, together, measured_in = {f"part {i}": set() for i in range(3)}, set(), 0, set()
    drawn_for = {}  # (the same code, graded twice: the places are drawn afresh, not for the code: attacks20)
    for grading in range(2):
        events.clear()
        with draws.for_submission(b"\5" * 32):
            probing._with_costs(_Runs(3, events), [compared, *measured], measured, tmp_path, tmp_path,
                                SimpleNamespace(limits=None), True, None)
        drawn_for[grading] = tuple(e[:2] for e in events)
    assert drawn_for[0] != drawn_for[1], drawn_for
    fresh = iter(range(10**6))
    monkeypatch.setattr(draws, "_fresh", lambda: next(fresh).to_bytes(16, "big"))
    for code in range(60):
        events.clear()
        with draws.for_submission(bytes([code]) * 32):
            run = probing._with_costs(_Runs(3, events), [compared, *measured], measured, tmp_path, tmp_path,
                                      SimpleNamespace(limits=None), True, None)
        assert [o.passed for o in run.outcomes] == [True] * 4
        ran = [e for e in events if e[0] == "ordinary"]
        assert sorted(e[1] for e in ran) == ["part 0", "part 1", "part 2"]
        at = {e[1]: sum(f[0] == "student" for f in events[:events.index(e)]) for e in ran}
        for part, n in at.items():
            places[part].add(n)
        orders.add(tuple(e[1] for e in ran))
        measured_in.add(tuple(dict.fromkeys(e[1] for e in events if e[0] == "student")))
        together += len(set(at.values())) == 1
        assert all(e[2] == () for e in events if e[0] != "ordinary")  # the same companions, model or student
    assert all(seen == set(range(7)) for seen in places.values()), places  # each anywhere among the 6 cost runs
    assert len(orders) == 6 and together < 10  # every order of the three, and rarely all at one place
    # ... and the cost cases measured in every order too (a count of long calls names no next form: attacks19)
    assert len(measured_in) == 6, measured_in
    # a cost run whose import failed (the ordinary runs may not have come yet): the later cost cases are not run
    monkeypatch.setattr(probing, "_alone_runner", lambda p, *a: (
        lambda whose, inputs, cap: a[-1].append("importing your module failed: SyntaxError (line 3)")))
    events.clear()
    run = probing._with_costs(_Runs(2, events), [compared, *measured], measured, tmp_path, tmp_path,
                              SimpleNamespace(limits=None), True, None)
    assert run.outcomes[0].passed and sorted(o.passed for o in run.outcomes[1:]) == [False, False, True]
    assert sum("not checked, because importing your module failed: SyntaxError" in o.message
               for o in run.outcomes) == 2, run.outcomes  # (the first measured, in the drawn order, ran)
    assert [e[0] for e in events] == ["ordinary", "ordinary"]  # the ordinary checks run all the same
    # an ordinary run whose import failed: no cost case is run after it
    events.clear()
    monkeypatch.setattr(probing, "_alone_runner", runner)
    for at in (0, 3):  # before the first cost run (that case ends, two are not run); after the second case's first
        events.clear()
        monkeypatch.setattr(draws, "places", lambda k, n: [(at, 0)])
        run = probing._with_costs(_Runs(1, events, failing=True), [compared, *measured], measured, tmp_path,
                                  tmp_path, SimpleNamespace(limits=None), True, None)
        first = next(i for i, e in enumerate(events) if e[0] == "ordinary")
        going = events[first - 1][1] if first else ""  # (the cost case whose student run it came before ends)
        assert {e[1] for e in events[first + 1:] if e[0] == "student"} <= {going}, events
        stopped = [o for o in run.outcomes[1:] if "not checked, because importing" in o.message]
        assert len(stopped) == 3 - len({e[1] for e in events if e[0] == "student"}) == (2 if at == 0 else 1)


class _TimedRuns(_Runs):
    """`_Runs` whose runs take ``seconds`` each and note when they started and ended (``raising``: the run of
    that index raises)."""

    def __init__(self, k: int, events: list, seconds: float, raising: int = -1) -> None:
        super().__init__(k, events)
        self.seconds, self.raising = seconds, raising

    def run_next(self) -> None:
        import time
        i = len(self.runs)
        if i == self.raising:
            raise RuntimeError("a grader fault in the second lane")
        start = time.monotonic()
        time.sleep(self.seconds)
        self.runs.append(1)
        self.events.append(("ordinary", self.parts[i][0], start, time.monotonic()))


def test_with_two_lanes_each_ordinary_run_starts_after_its_drawn_cost_runs_ended_and_overlaps_the_later_ones(
        monkeypatch, tmp_path):
    """`run_checks(lanes=2)` (one `grade submission` on two cores): the ordinary runs go in a thread of their own
    beside the cost runs. Each starts only once the student's cost runs its drawn place puts before it have ended
    (as in one lane), the cost runs after it go on meanwhile, the outcomes are one lane's, and a fault in the
    lane is raised in the grading's thread (the cost runs not waited for)."""
    import time
    from types import SimpleNamespace

    from grader.grading import costs, probing

    events = []
    monkeypatch.setattr(probing, "_stamp", lambda tree: ("t", 0))
    monkeypatch.setattr(model_costs, "kept_for", lambda *a: None)
    monkeypatch.setattr(costs, "drawn", lambda case, seed: case)

    def runner(p, tree, submission, config, unsandboxed, cancel, notes, spent, before, before_student_run, stops):
        def run(whose, inputs, cap):
            if whose == "student":
                before_student_run()
            start = time.monotonic()
            time.sleep(0.05)
            events.append((whose, p.id, start, time.monotonic()))
        return run

    monkeypatch.setattr(probing, "_alone_runner", runner)
    monkeypatch.setattr(costs, "judge_cost", _judge_model_then_two_student_runs)
    measured, compared = _three_cost_cases_and_a_compared_one()
    overlapped = 0
    for order in ([(0, 0), (2, 1), (6, 2)], [(1, 0), (1, 1), (4, 2)], [(3, 0), (5, 1), (5, 2)]):
        monkeypatch.setattr(draws, "places", lambda k, n, order=order: list(order))
        events.clear()
        run = probing._with_costs(_TimedRuns(3, events, 0.12), [compared, *measured], measured, tmp_path,
                                  tmp_path, SimpleNamespace(limits=None), False, None, lanes=2)
        assert [o.passed for o in run.outcomes] == [True] * 4
        students = sorted((e for e in events if e[0] == "student"), key=lambda e: e[2])
        ordinary = {e[1]: e for e in events if e[0] == "ordinary"}
        assert sorted(ordinary) == ["part 0", "part 1", "part 2"] and len(students) == 6
        for (place, i) in order:  # after the cost runs placed before it ended, never earlier
            start = ordinary[f"part {i}"][2]
            assert all(s[3] <= start for s in students[:place]), (order, i, start, students)
            later = [s for s in students[place:] if s[2] < ordinary[f"part {i}"][3]]
            overlapped += bool(later)
    assert overlapped >= 3  # and the cost runs after a run's place went on beside it (not after it, as in one lane)
    # unsandboxed (a run's processes would see the other lane's in /proc): one lane, whatever was asked
    events.clear()
    probing._with_costs(_TimedRuns(3, events, 0.05), [compared, *measured], measured, tmp_path, tmp_path,
                        SimpleNamespace(limits=None), True, None, lanes=2)
    spans = sorted((e[2], e[3]) for e in events)
    assert len(spans) == 12 and all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans
    # a fault in the second lane: raised here, after the cost runs (which do not wait for it)
    monkeypatch.setattr(draws, "places", lambda k, n: [(0, 0), (0, 1), (0, 2)])
    with pytest.raises(RuntimeError, match="second lane"):
        probing._with_costs(_TimedRuns(3, events, 0.01, raising=1), [compared, *measured], measured, tmp_path,
                            tmp_path, SimpleNamespace(limits=None), False, None, lanes=2)


def test_the_ordinary_runs_checks_come_in_an_order_drawn_per_submission():
    """Blind attacks16 left a mark on the host (names looked up, and so cached) in the process of the check that
    ran just before the comparing one, always the same one (checks ran in name order): the checks now run in an
    order drawn per submission, each check's cases together and in their own order."""
    from grader.config import load_assignment
    from grader.grading import probing
    from grader.sandbox import channel

    tree = ROOT / "solutions" / "linear-attention-basics"
    config = load_assignment(tree)
    orders = []
    for code in (b"\x01" * 32, b"\x02" * 32):
        with draws.for_submission(code):
            planned = [p for p in probing.plan(tree) if isinstance(p.case, Case)]
            decoded, problem = channel.decode(probing._job(tree, planned, config, unsandboxed=True))
        assert not problem, problem
        ids = [m.header["id"] for m in decoded if "id" in m.header]
        assert sorted(ids) == sorted(p.id for p in planned)
        groups = [m.header["group"] for m in decoded if "id" in m.header]
        assert len(list(dict.fromkeys(groups))) == len(set(groups))  # each check's cases together ...
        for name in set(groups):  # ... and in the plan's order
            assert [i for i, g in zip(ids, groups) if g == name] == [p.id for p in planned if p.group == name]
        gate = [p for p in planned if p.gate_twin_of]  # each gate twin in its gated item's process
        assert sorted(groups[ids.index(p.id)] for p in gate) == ["chunk_boundaries"] * 2 + ["partial_chunk_state"] * 2
        assert len({p.id for p in gate}) == 4
        orders.append(list(dict.fromkeys(groups)))
    assert orders[0] != orders[1] and sorted(orders[0]) == sorted(orders[1])


@pytest.mark.parametrize("name", ["linear-attention-basics", "linear-attention-hybrid"])
def test_a_twins_inputs_are_the_first_tokens_of_its_measured_calls(name):
    """Blind attacks21 told the measured call from its twin at the first step: seeded arrays were filled in C order,
    so every sequence but the first began at a place in the stream that moved with the length, and the measured
    inputs (the grader's, the same for every submission on a machine) could be recognised from a token seen in
    another submission's cost run. Filled token by token, a twin's arrays are the first tokens of the measured
    call's, and every other input is the same."""
    from grader.checks import Seeded
    from grader.grading import costs, probing
    from grader.sandbox.inside import seeded

    planned = probing.plan(ROOT / "solutions" / name)
    by_id = {p.id: p for p in planned}
    twins = [p for p in planned if p.twin_of]
    assert twins
    for twin in twins:
        case = costs.drawn(by_id[twin.twin_of].case, draws.measured())
        long = case.inputs_at(case.lengths[1])
        arrays = {k: v for k, v in twin.case.inputs.items() if isinstance(v, Seeded)}
        assert arrays and {k: v for k, v in twin.case.inputs.items() if k not in arrays} == {
            k: v for k, v in long.items() if not isinstance(v, Seeded)}
        for key, small in arrays.items():
            big = long[key]
            assert (small.seed, small.scale, small.shape[:-2], small.shape[-1]) == (
                big.seed, big.scale, big.shape[:-2], big.shape[-1])
            n = small.shape[-2]  # (the measured length's array is hundreds of MiB: a longer one shows the rule)
            longer = seeded.make(big.seed, (*big.shape[:-2], n + 300, big.shape[-1]), big.scale)
            assert np.array_equal(seeded.make(small.seed, small.shape, small.scale), longer[..., :n, :])


@pytest.mark.parametrize("name", ["linear-attention-basics", "linear-attention-hybrid"])
def test_every_measured_call_has_a_decay_that_remembers_past_the_twin_and_the_measured_lengths(name):
    """Blind attacks21: at a drawn decay of 0.9 or less, a form that re-sums only its last 256 tokens (a window:
    bounded work per token) was right within the tolerance at every length and kept the cost items. Under any
    secret, each measured call has no decay (linear attention) or one under which a token 600 back still weighs
    a quarter (wrong at the twin) and one 10 000 back more than 1e-9 (a window right at the long length re-sums
    most of the sequence)."""
    from grader.grading import costs, probing

    for secret in (b"\x01" * 32, b"\x02" * 32, b"\x03" * 32, b"\x04" * 32):
        with draws.under(secret):
            cases = [p.case for p in probing.plan(ROOT / "solutions" / name) if isinstance(p.case, CostCase)]
            assert cases
            for case in cases:
                inputs = costs.drawn(case, draws.measured()).inputs
                if "gamma_logit" in inputs:
                    gammas = 1 / (1 + np.exp(-np.asarray(inputs["gamma_logit"], dtype=np.float64)))
                elif "gamma0" in inputs:
                    gammas = np.atleast_1d(np.asarray(inputs["gamma0"], dtype=np.float64))
                else:
                    assert inputs.get("form") in ("recurrent", "step"), case.label  # linear attention: γ = 1
                    continue
                assert gammas.max() ** 600 > 0.25 and gammas.max() ** 10_000 > 1e-9, (case.label, gammas)


def test_the_basics_chunkwise_cost_cases_are_measured_again_at_a_drawn_decay_their_gated_items_use():
    """`costs.at_gate`: an excused chunkwise cost run is measured again at a decay of chunk_boundaries' and
    partial_chunk_state's grids, drawn from the grader's secret (not only 0.9: blind attacks24's decay band), and the
    same call over a few dozen tokens stands among the comparing check's cases (its gate twin: a form wrong and cheap
    there only from some length on is not excused), at a chunk size of the gated grids (blind attacks25: a cheap
    wrong path keyed on the measured chunk sizes, 8-15, was wrong at every gate twin), at the gated grids' length
    (blind attacks26: a form right below the short twin's few dozen tokens and cheap and wrong from there on was wrong
    at every twin the excuse was read from, and right where the gated items were judged, over 13 tokens), and at their
    leading dims and widths (blind attacks27: keyed on the measured lead, or on m = d_v = 4)."""
    from grader.grading import costs, probing
    tree = ROOT / "solutions" / "linear-attention-basics"
    seen, chunks, leads = set(), set(), set()
    for secret in range(12):
        with draws.under(bytes([secret]) * 32), draws.for_submission(b"one"):
            planned, seed = probing.plan(tree), draws.measured()
        gated = [p for p in planned if isinstance(p.case, CostCase) and p.case.elsewhere is not None]
        assert {p.spec.name for p in gated} == {"cost_chunkwise"} and len(gated) == 2
        for p in gated:
            there, measured = costs.at_gate(p.case, seed), costs.drawn(p.case, seed)
            assert there.inputs["gamma0"] in (0.3, 0.5, 0.9) and measured.inputs["gamma0"] == 0.999
            assert {k: v for k, v in there.inputs.items() if k != "gamma0"} == {
                k: v for k, v in measured.inputs.items() if k != "gamma0"}
            assert repr(there.arrays(64)) == repr(measured.arrays(64))  # the same inputs, the same chunk size
            seen.add(there.inputs["gamma0"])
            # one gate twin per gated item, run in that item's own process, after its calls, with its probe (blind
            # attacks28: a flag set by the comparing check's measured-looking calls made every later call of that
            # process cheap and wrong; attacks29: right on every call that asked for the state)
            gate = {q.group: q for q in planned if q.gate_twin_of == p.id}
            assert set(gate) == {"chunk_boundaries", "partial_chunk_state"}
            assert all(q.spec.name == "retention_chunkwise" and q not in probing._compared(p, planned)
                       for q in gate.values())
            assert gate["chunk_boundaries"].probe == p.spec.probe
            assert gate["partial_chunk_state"].probe == "chunk_states"
            low, high = p.case.gate_twin_lengths
            assert low == high == 13 and p.case.short_twin_lengths[0] > high  # chunk_boundaries' own L (L_CHUNK)
            for among, q in gate.items():
                got = dict(q.case.inputs)
                chunk, gamma = got.pop("chunk0"), got.pop("gamma0")
                assert there.inputs["chunk0"] in range(8, 16)  # the measured size; the gated grids' below
                assert (chunk, gamma) in {"chunk_boundaries": [(c, g) for c in (3, 4, 5) for g in (0.3, 0.5, 0.9)],
                                          "partial_chunk_state": [(c, g) for c in (2, 3, 4, 5) for g in (0.5, 0.9)]
                                          }[among]
                assert got.get("form") == ("chunkwise" if among == "chunk_boundaries" else None)
                # ... and their leading dims and widths (blind attacks27 keyed a cheap wrong path on the measured
                # lead and on m = d_v = 4): one of the gated item's own cases, but for its values
                Q, V = got["Q0"].shape, got["V0"].shape
                assert Q[:-2] in [(), (2,), (2, 3)] and Q[-2:] == (13, 4) and V == (*Q[:-2], 13, 3)
                leads.add(Q[:-2])
                chunks.add(chunk)
                seen.add(gamma)
                if among == "partial_chunk_state":  # the returned state judged beside the outputs
                    assert q.case.expect["R"].shape == (*Q[:-2], 4, 3) and "y_sum" in q.case.expect
            short = [q for q in planned if q.short_twin_of == p.id]
            assert len(short) == 1 and short[0].case.inputs["Q0"].shape[-2] >= p.case.short_twin_lengths[0]
            reference = there.expect(low)
            assert not np.allclose(reference["y0"] if "y0" in reference else next(iter(reference.values())),
                                   next(iter(measured.expect(low).values())))  # made at the drawn decay
    assert seen == {0.3, 0.5, 0.9} and chunks == {2, 3, 4, 5} and leads == {(), (2,), (2, 3)}
