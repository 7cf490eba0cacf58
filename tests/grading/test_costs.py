"""The cost rule (`grader.grading.costs`): verdicts from what the grader measured, the outputs first.

Pure tests: measurements are made up here, as the sandboxed runs of `probing` would report them, so that each
test pins one side of a bound (honest forms on a loaded machine pass, quadratic ones fail by a factor)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from grader.grading import costs
from grader.grading.checks import CheckSpec
from grader.grading.costs import LINEAR, STEPS, CostCase, Measurement, RunAnswer, judge_cost
from grader.results import CaseOutcome

MiB = 2**20
SPEC = CheckSpec("cost_form", "form_cost", "form carries a state", lambda: iter(()), cause="not recurrent")


def _case(grows=LINEAR, sequences=32, **kw) -> CostCase:
    return CostCase(label="form, 32 sequences", inputs={"form": "f"}, expect=lambda n: {"y": np.arange(float(n))},
                    lengths=(1024, 8192), grows=grows, sequences=sequences, **kw)


def _pair(cpu, mib):
    return Measurement(1024, int(mib[0] * MiB), cpu[0]), Measurement(8192, int(mib[1] * MiB), cpu[1])


MODEL = _pair((0.13, 0.50), (28, 83))  # the solution's recurrent form at 32 sequences, as measured here


@pytest.mark.parametrize("cpu, why", [((0.13, 0.50), "the model itself"),
                                      ((0.45, 3.6), "3.5 × slower, linear"),
                                      ((0.20, 0.75), "a loaded machine: 1.5 × every CPU time"),
                                      ((0.10, 0.30), "faster than the model")])
def test_linear_work_passes_however_slow_or_loaded(cpu, why):
    assert costs.work_verdict(_case(), _pair(cpu, (28, 83)), MODEL) is None, why


@pytest.mark.parametrize("cpu", [(0.18, 4.8), (0.23, 5.1), (0.15, 2.4)])
def test_work_that_grows_like_the_square_of_the_length_fails(cpu):
    """(what the prefix re-sum, the append-and-re-sum step and a blocked parallel form measured)"""
    student = _pair(cpu, (28, 83))
    verdict = costs.work_verdict(_case(), student, MODEL)
    assert verdict and ("grows faster than the length" in verdict or f"{costs.WORK_CAP:g} × that is allowed" in verdict)
    assert student[1].cpu_s > costs.growth_bound(student[0], MODEL)  # over the growth bound, cap or no cap


def test_a_chunkwise_form_batched_over_all_chunks_keeps_its_memory_point():
    """All full chunks at once at 32 sequences: a few (32, 128, 64, 64) tensors, linear in L."""
    assert costs.memory_verdict(_case(), _pair((0.1, 0.3), (28 + 48, 83 + 384)), MODEL) is None


@pytest.mark.parametrize("extra, words", [((3, 600), "memory grows like the square"),
                                          ((40, 5000), "more than a quarter of the L × L")])
def test_memory_that_grows_like_the_square_of_the_length_fails(extra, words):
    verdict = costs.memory_verdict(_case(), _pair((0.1, 0.5), (28 + extra[0], 83 + extra[1])), MODEL)
    assert verdict and words in verdict


def test_another_copy_of_the_outputs_at_many_sequences_is_not_quadratic():
    """128 sequences: the model grows by 229 MiB from 1024 to 8192 tokens (inputs and outputs); a form that
    stacks a list of outputs holds one more 32 MiB copy at 8192 and none at 1024 (measured in attacks1)."""
    model = _pair((0.17, 0.94), (55, 284))
    assert costs.memory_verdict(_case(sequences=128), _pair((0.15, 0.7), (55, 284 + 34)), model) is None


def test_one_sequence_holding_a_boolean_l_by_l_mask_fails():
    """64 MiB at L = 8192 (one byte per entry): under the quarter of the matrix, over 1/16 of it."""
    verdict = costs.memory_verdict(_case(sequences=1), _pair((0.1, 0.5), (28 + 1, 83 + 64)), MODEL)
    assert verdict and "more than 1/16 of an L × L" in verdict


def _one(short_mib, long_mib):
    """One sequence at the basics' lengths (2048 and 16384 tokens): the model, and a student holding this much more."""
    model = (Measurement(2048, 57 * MiB, 0.4), Measurement(16384, 67 * MiB, 0.9))
    return (Measurement(2048, int((57 + short_mib) * MiB), 0.4),
            Measurement(16384, int((67 + long_mib) * MiB), 0.9)), model


@pytest.mark.parametrize("pad", [0, 24, 200])
def test_a_buffer_held_at_both_lengths_does_not_lift_the_one_sequence_bound_past_a_mask(pad):
    """Blind attacks32: a bool mask (256 MiB at 16384 tokens, 4 at 2048) beside a buffer held at both lengths; the
    growth bound read from the short run let 16 × the buffer through."""
    student, model = _one(4 + pad, 256 + pad)
    verdict = costs.memory_verdict(_case(sequences=1), student, model)
    assert verdict and "more than 1/16 of an L × L" in verdict


@pytest.mark.parametrize("short, long", [(64, 64), (2, 3), (-1, -2), (0, 100)])
def test_one_sequence_holding_a_modules_own_buffer_or_little_more_passes(short, long):
    """A module-level 64 MiB buffer (blind attacks26's honest mask for up to 4096 tokens), allocator noise, less than
    the model: under 1/16 of the matrix (128 MiB at 16384) at the long length, whatever the short run held."""
    student, model = _one(short, long)
    assert costs.memory_verdict(_case(sequences=1), student, model) is None


def test_a_decoding_state_may_not_grow_with_the_steps():
    steps = _case(grows=STEPS)
    assert costs.memory_verdict(steps, _pair((0.1, 0.5), (30, 86)), MODEL) is None
    verdict = costs.memory_verdict(steps, _pair((0.1, 0.5), (30, 83 + 40)), MODEL)
    assert verdict and "after 8192 steps it held 40 MiB more than the model" in verdict


@pytest.mark.parametrize("mib", [(28 + 64, 83 + 64), (28 + 64, 83 + 40), (28 + 40, 83 + 8)])
def test_a_history_preallocated_or_padded_at_both_lengths_is_over_the_absolute_bound(mib):
    """The difference between the two lengths is small or negative; the excess itself is the history's size."""
    verdict = costs.memory_verdict(_case(grows=STEPS), _pair((0.1, 0.5), mib), MODEL)
    assert verdict and "more than the model" in verdict and "a fixed-size state needs no room" in verdict


MODEL_128 = _pair((0.15, 0.6), (60, 300))  # the recurrent form at 128 sequences: per-token overhead dominates
QUADRATIC_128 = (0.6, 24.0)  # the prefix re-sum at 128 sequences (4 × the work of 32), as measured here


@pytest.mark.parametrize("pad, why", [((0.0, 0.0), "no pad"), ((3.0, 3.0), "a constant pad at both lengths"),
                                      ((10.0, 0.0), "a pad at the short length only, read off L"),
                                      ((2.0, 0.0), "a smaller short pad")])
def test_padding_cannot_bring_quadratic_work_under_the_cap(pad, why):
    """Burning CPU only adds to a measurement: the long run's own quadratic work is over the cap."""
    cpu = (QUADRATIC_128[0] + pad[0], QUADRATIC_128[1] + pad[1])
    verdict = costs.work_verdict(_case(sequences=128), _pair(cpu, (60, 300)), MODEL_128)
    assert verdict, why
    if pad[0] <= pad[1]:
        assert f"{costs.WORK_CAP:g} × that is allowed" in verdict or "grows faster" in verdict


@pytest.mark.parametrize("cpu", [(0.6, 2.4), (0.45, 3.0), (0.3, 1.2)])
def test_honest_forms_up_to_several_times_slower_stay_under_the_cap(cpu):
    """A slower vectorised form (4 ×, 5 × the model at 128 sequences; honest forms of the blind rounds measured at
    most ~2.5 ×), a loaded machine (2 ×)."""
    assert costs.work_verdict(_case(sequences=128), _pair(cpu, (60, 300)), MODEL_128) is None


@pytest.mark.parametrize("cpu, model", [((0.42 + 1.5, 17.8 + 1.5), (0.19, 2.39)), ((0.42, 17.8), (0.19, 2.39)),
                                        ((0.5 + 1.2, 13.5 + 1.2), (0.18, 1.26))])
def test_quadratic_work_with_a_small_constant_and_a_constant_pad_is_over_the_cap(cpu, model):
    """A prefix re-read every 8 tokens, chunk summaries re-summed at every chunk (7-11 × the model at 16384), with a
    fixed warm-up burnt once per process: the pad lifts the growth bound 16-fold, never the cap (blind attacks5)."""
    m = (Measurement(2048, 60 * MiB, model[0]), Measurement(16384, 300 * MiB, model[1]))
    s = (Measurement(2048, 60 * MiB, cpu[0]), Measurement(16384, 300 * MiB, cpu[1]))
    verdict = costs.work_verdict(_case(sequences=128), s, m)
    assert verdict and f"{costs.WORK_CAP:g} × that is allowed" in verdict


def test_a_run_stopped_at_the_cap_fails_at_once(tmp_path):
    """The cap is the long run's CPU-time limit: quadratic work is stopped there, and not measured again."""
    runs = _Runs({("model", 1024): [(_right(1024), 0.13, 28)], ("model", 8192): [(_right(8192), 0.5, 83)],
                  ("student", 1024): [(_right(1024), 0.3, 28)], ("student", 8192): [(_right(8192), 60.0, 83)]})
    outcome = judge_cost(SPEC, _case(), runs, stamp=("capped", tmp_path))
    assert not outcome.passed and outcome.cause == SPEC.cause
    assert f"at L=8192 took more than {costs.work_cap(MODEL[1]):.1f} s of CPU time" in outcome.message
    assert runs.calls.count(("student", 8192)) == 1
    assert runs.limits[runs.calls.index(("student", 8192))] == pytest.approx(costs.WORK_CAP * 0.5 + costs.CAP_FLOOR_S)
    assert all(limit is None for (whose, _), limit in zip(runs.calls, runs.limits) if whose == "model")


def test_a_case_needs_two_lengths_in_order():
    with pytest.raises(ValueError, match="0 < short < long"):
        CostCase(label="x", inputs={}, expect=lambda n: {}, lengths=(8192, 1024))
    with pytest.raises(ValueError, match="no 'L' among its inputs"):
        CostCase(label="x", inputs={"L": 3}, expect=lambda n: {})
    for bad in ((0, 13), (14, 13), (13, 300), (13,)):  # the gated items' lengths: below the twin's
        with pytest.raises(ValueError, match="gate_twin_lengths"):
            CostCase(label="x", inputs={}, expect=lambda n: {}, gate_twin_lengths=bad)
    CostCase(label="x", inputs={}, expect=lambda n: {}, gate_twin_lengths=(13, 13))


def test_a_gate_twin_is_compared_at_the_gated_items_own_lengths_where_the_case_names_them():
    """Blind attacks26: a chunkwise right below the short twin's 24 tokens and a cheap wrong window from there on was
    wrong at every twin the excuse was read from and right where the gated items are judged (13 tokens)."""
    def draw(seed):
        return {"k": 1, "gamma0": 0.5}, (lambda n: {"y": np.full(n, 0.5)})
    base = dict(label="x", inputs={"k": 1}, expect=lambda n: {"y": np.zeros(n)}, length_key="n", elsewhere=draw)
    for lengths, want in (((13, 13), {13}), (None, set(range(24, 65))), ((5, 9), set(range(5, 10)))):
        case = CostCase(**base, gate_twin_lengths=lengths)
        got = {costs.gate_twin(case, 7, at).inputs["n"] for at in np.linspace(0, 0.999, 50)}
        assert got <= want and len(got) >= min(len(want), 5)
        assert all(costs.gate_twin(case, 7, 0.5).expect["y"] == 0.5)  # at the gated settings


def test_a_gate_twin_is_made_by_the_gated_items_own_draw_where_the_case_names_one():
    """Blind attacks27: a cheap, wrong path keyed on a setting the measured call has and the gated items' checks never
    use (its lead, m = d_v = 4) was wrong at every gate twin that kept that setting, and never where the gated items
    looked. A gate twin drawn as the gated items' cases are (``gate_twin_draw``) keeps none of the measured call's."""
    def elsewhere(seed):
        return {"k": 1, "gamma0": 0.5, "lead": "measured"}, (lambda n: {"y": np.full(n, 0.5)})

    def own(seed, among):
        return {"k": 1, "gamma0": 0.5, "lead": f"gated {seed} {among}"}, (lambda n: {"y": np.full(n, 2.0)})
    base = dict(label="x", inputs={"k": 1}, expect=lambda n: {"y": np.zeros(n)}, length_key="n", elsewhere=elsewhere,
                gate_twin_lengths=(13, 13))
    twin = costs.gate_twin(CostCase(**base, gate_twin_draw=own), 7, 0.5, "item")
    assert twin.inputs == {"k": 1, "gamma0": 0.5, "lead": "gated 7 item", "n": 13} and all(twin.expect["y"] == 2.0)
    assert costs.gate_twin(CostCase(**base), 7, 0.5).inputs["lead"] == "measured"  # without one: `elsewhere`'s

    def judged(got):  # (what a state twin's result is judged as: attacks29)
        return {"R": got["R0"]}
    with_state = costs.gate_twin(CostCase(**base, gate_twin_draw=lambda seed, among: (*own(seed, among), None, judged)),
                                 7, 0.5, "state item")
    assert with_state.outputs is judged and with_state.inputs["lead"] == "gated 7 state item"
    assert costs.gate_twin(dataclasses.replace(CostCase(**base, gate_twin_draw=own), elsewhere=None), 7, 0.5) is None


class _Runs:
    """A fake `costs.Runner`: answers from a table (whose, n) -> list of (outputs, cpu, MiB), in order."""

    def __init__(self, table):
        self.table, self.calls, self.limits = {k: list(v) for k, v in table.items()}, [], []

    def __call__(self, whose, inputs, cpu_limit_s):
        n = inputs["L"]
        self.calls.append((whose, n))
        self.limits.append(cpu_limit_s)
        queue = self.table[(whose, n)]
        y, cpu, mib = queue.pop(0) if len(queue) > 1 else queue[0]
        if cpu_limit_s is not None and cpu > cpu_limit_s:  # the sandbox stops the run at its CPU-time limit
            return RunAnswer(None, "", int(mib * MiB), cpu_limit_s, over_cpu=True)
        if y is None or isinstance(y, str):  # "raise": the student's code raised; None: no result
            return RunAnswer(None, "raised ValueError: no", 0, 0.0, raised=y == "raise")
        return RunAnswer({"y": y}, "", int(mib * MiB), cpu)


def _right(n):
    return np.arange(float(n))


def _honest():
    return {("model", 1024): [(_right(1024), 0.13, 28)], ("model", 8192): [(_right(8192), 0.5, 83)]}


def test_a_fast_wrong_form_earns_nothing(tmp_path):
    runs = _Runs({**_honest(), ("student", 1024): [(np.zeros(1024), 0.05, 20)],
                  ("student", 8192): [(np.zeros(8192), 0.05, 20)]})
    outcome = judge_cost(SPEC, _case(), runs, stamp=("wrong", tmp_path))
    assert not outcome.passed and "at L=1024" in outcome.message and "only for correct outputs" in outcome.message
    assert ("student", 8192) in runs.calls  # wrong outputs are measured all the same: the measurement decides the gate
    assert outcome.excused_by == ""  # no check named that compares the form at short lengths: it gates


def test_wrong_outputs_of_an_efficient_form_name_the_check_that_excuses_them_from_gating(tmp_path):
    """Wrong outputs, linear work: left to `compared_by` (where the form fails too, the bug is charged there)."""
    runs = _Runs({**_honest(), ("student", 1024): [(np.zeros(1024), 0.13, 28)],
                  ("student", 8192): [(np.zeros(8192), 0.5, 83)]})
    outcome = judge_cost(SPEC, _case(compared_by="form_equivalence"), runs, stamp=("excused", tmp_path))
    assert not outcome.passed and outcome.excused_by == "form_equivalence" and outcome.cause == ""
    assert "only for correct outputs" in outcome.message


@pytest.mark.parametrize("long_cpu, words", [(60.0, "took more than"), (3.9, "grows faster than the length")])
def test_wrong_outputs_of_a_slow_form_fail_the_gate(tmp_path, long_cpu, words):
    """A slow form made wrong where it is measured (blind attacks22: a decay near 1 taken as 1) is still slow: no
    excuse, and the message says both."""
    runs = _Runs({**_honest(), ("student", 1024): [(np.zeros(1024), 0.13, 28)],
                  ("student", 8192): [(np.zeros(8192), long_cpu, 83)]})
    outcome = judge_cost(SPEC, _case(compared_by="form_equivalence"), runs, stamp=(f"slow{long_cpu}", tmp_path))
    assert not outcome.passed and outcome.excused_by == "" and outcome.cause == SPEC.cause
    assert "only for correct outputs" in outcome.message and words in outcome.message


def test_a_raise_names_the_check_that_may_excuse_it(tmp_path):
    """Nothing about the cost of a run that raised was seen: excused where the form raises at the measured settings
    over a few dozen tokens too (probing clears ``excused_by`` where that short twin passed)."""
    runs = _Runs({**_honest(), ("student", 1024): [("raise", 0.0, 0)]})
    outcome = judge_cost(SPEC, _case(compared_by="form_equivalence"), runs, stamp=("raised", tmp_path))
    assert not outcome.passed and outcome.raised and outcome.excused_by == "form_equivalence"
    assert ("student", 8192) not in runs.calls


def test_the_model_is_measured_first_and_once_per_stamp(tmp_path):
    table = {**_honest(), ("student", 1024): [(_right(1024), 0.13, 28)],
             ("student", 8192): [(_right(8192), 0.5, 83)]}
    first, second = _Runs(table), _Runs(table)
    assert judge_cost(SPEC, _case(), first, stamp=("once", tmp_path)).passed
    assert first.calls[:2] == [("model", 1024), ("model", 1024)]  # (the least of MODEL_RUNS runs)
    assert judge_cost(SPEC, _case(), second, stamp=("once", tmp_path)).passed
    assert all(whose == "student" for whose, _ in second.calls)


def test_a_bound_failed_is_measured_again_and_the_least_run_decides(tmp_path):
    """A long run slowed by a neighbour once, then measured again at its own speed: it passes."""
    runs = _Runs({**_honest(), ("student", 1024): [(_right(1024), 0.13, 28)],
                  ("student", 8192): [(_right(8192), 3.0, 83), (_right(8192), 0.55, 83)]})
    assert judge_cost(SPEC, _case(), runs, stamp=("again", tmp_path)).passed
    assert runs.calls.count(("student", 8192)) == 2


def test_a_model_that_fails_its_own_case_judges_nobody(tmp_path):
    runs = _Runs({("model", 1024): [(None, 0, 0)], ("model", 8192): [(_right(8192), 0.5, 83)]})
    outcome = judge_cost(SPEC, _case(), runs, stamp=("broken", tmp_path))
    assert not outcome.passed and "error in the assignment, not yours" in outcome.message
    assert all(whose == "model" for whose, _ in runs.calls)


def test_a_history_kept_in_some_runs_only_is_kept(tmp_path):
    """A decoding case's long length is measured twice whatever the first run showed, and of several runs the
    most memory counts (CPU: the least): a history kept in a random half of the processes loses."""
    table = {**_honest(), ("student", 1024): [(_right(1024), 0.13, 28)],
             ("student", 8192): [(_right(8192), 0.5, 83), (_right(8192), 0.5, 83 + 64)]}
    steps = _case(grows=STEPS)
    runs = _Runs(table)
    outcome = judge_cost(SPEC, steps, runs, stamp=("coin", tmp_path))
    assert not outcome.passed and "held 64 MiB more than the model" in outcome.message
    assert runs.calls.count(("student", 8192)) >= costs.STEP_LONG_RUNS
    honest = _Runs({**_honest(), ("student", 1024): [(_right(1024), 0.13, 28)],
                    ("student", 8192): [(_right(8192), 0.9, 84), (_right(8192), 0.5, 83)]})
    assert judge_cost(SPEC, steps, honest, stamp=("coin-honest", tmp_path)).passed


def test_a_cost_run_gets_the_modules_and_nothing_else(tmp_path):
    """Files in a cost run's scratch are tmpfs pages the run holds: data files, notebooks and caches stay out."""
    from grader.grading.probing import _modules_only

    (tmp_path / "pkg").mkdir()
    names = ["linear_attention.py", "big.bin", "notes.ipynb", "pkg", "__pycache__", "weights.pt"]
    assert set(_modules_only(str(tmp_path), names)) == {"big.bin", "notes.ipynb", "__pycache__", "weights.pt"}


def test_quadratic_work_under_the_cap_is_measured_again_only_as_far_as_its_bound(tmp_path):
    """Efficient quadratic work (every pair of tokens as matrix-multiply tiles) is under the cap but over the
    growth bound; measured again, its long run is stopped at that bound instead of being waited for."""
    table = {**_honest(), ("student", 1024): [(_right(1024), 0.16, 28)], ("student", 8192): [(_right(8192), 3.5, 83)]}
    runs = _Runs(table)
    outcome = judge_cost(SPEC, _case(), runs, stamp=("tiled", tmp_path))
    assert not outcome.passed and "grows faster than the length" in outcome.message
    bound = costs.growth_bound(Measurement(1024, 0, 0.16), MODEL)
    assert bound == pytest.approx(0.5 + costs.GROWTH_MARGIN * 8 * 0.03 + 0.5)
    long_limits = [limit for call, limit in zip(runs.calls, runs.limits) if call == ("student", 8192)]
    assert long_limits[0] == pytest.approx(costs.work_cap(MODEL[1]))  # the first run: the cap
    assert len(long_limits) == costs.RUNS
    assert all(limit == pytest.approx(bound + costs.RECHECK_SLACK_S) for limit in long_limits[1:])


def test_a_memory_bound_failed_is_not_measured_again(tmp_path):
    """Memory is the most of the runs: another run cannot lower it."""
    runs = _Runs({**_honest(), ("student", 1024): [(_right(1024), 0.13, 28 + 3)],
                  ("student", 8192): [(_right(8192), 0.5, 83 + 600)]})
    outcome = judge_cost(SPEC, _case(), runs, stamp=("memory", tmp_path))
    assert not outcome.passed and "memory grows like the square" in outcome.message
    assert runs.calls.count(("student", 8192)) == 1


@pytest.mark.parametrize("mib, holds", [((23 + 1, 26 + 15), False), ((23 + 1, 26 + 12), False),
                                        ((23 + 0.5, 26 + 1.5), True), ((23 + 5, 26 + 7), True),
                                        ((23 + 1, 26 + 4.3), True), ((23 + 21, 26 + 21.5), False)])
def test_a_history_kept_in_a_small_dtype_grows_with_the_steps(mib, holds):
    """float16 and int8 histories of 128 sequences × 12 values over 8192 steps (blind attacks4: 14-17 MiB, under
    the absolute 32 MiB bound) grow from 1024 steps to 8192; an honest step's excess stays within 1 MiB of the
    model's (the hybrid's: ~3 MiB, allocator noise), and a constant extra (a float64 copy of the state, a cache) does
    not grow."""
    verdict = costs.memory_verdict(_case(grows=STEPS), _pair((0.1, 0.5), mib), _pair((0.27, 1.27), (23, 26)))
    assert (verdict is None) == holds, verdict
    if not holds:
        assert "its memory grows with the number of steps" in verdict or "a fixed-size state needs no room" in verdict


def test_a_drawn_case_is_made_from_the_graders_seed_and_an_undrawn_one_is_as_given():
    from grader.grading.costs import drawn

    def draw(seed):
        return {"form": "f", "seed": seed}, lambda n: {"y": np.full(n, float(seed))}
    case = _case(draw=draw)
    made = drawn(case, 7)
    assert made.inputs_at(4) == {"form": "f", "seed": 7, "L": 4} and made.expect(3)["y"].tolist() == [7.0] * 3
    assert made.draw is None and made.label == case.label and made.lengths == case.lengths
    assert drawn(_case(), 7).inputs == {"form": "f"}


@pytest.mark.parametrize("name", ["linear-attention-basics", "linear-attention-hybrid"])
def test_a_long_output_is_sent_as_the_graders_digest_of_it_a_block_at_a_time(name, monkeypatch):
    """The probes digest a cost run's outputs a few hundred tokens at a time (no full-size temporary after the
    call, under which a history freed when the calls end would hide: blind attacks24), and what they send is
    the grader's digest of the same outputs (`grader.checks.digest`), float32 outputs included."""
    import importlib.util
    import sys
    import types

    import torch

    from grader.checks import digest

    monkeypatch.setitem(sys.modules, "lrkit_harness", types.SimpleNamespace(call=None, steps=None))
    path = Path(__file__).resolve().parents[2] / "solutions" / name / "hidden" / "probes.py"
    spec = importlib.util.spec_from_file_location(f"probes_{name.replace('-', '_')}", path)
    probes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probes)
    for dtype in (torch.float64, torch.float32):
        y = torch.randn(3, 1000, 700, generator=torch.Generator().manual_seed(5), dtype=dtype)  # 1000: 4 blocks
        sent = probes._sent({"y0": y, "S0": torch.ones(2, 2)})
        want = digest(y.double().numpy(), time_axis=1)
        assert torch.equal(sent["S0"], torch.ones(2, 2))
        for part in ("sum", "sq", "tail", "every"):
            got = sent[f"y0_{part}"]
            assert got.dtype == torch.float64, part
            assert np.allclose(got.numpy(), want[f"y_{part}"], rtol=1e-12, atol=1e-9), part


@pytest.mark.parametrize("inputs, outputs", [("float64", "float32"), ("float32", "float64"), ("float64", "float64")])
def test_a_step_probe_hands_back_outputs_in_the_steps_own_dtype(monkeypatch, inputs, outputs):
    """The basics' step probe copies each output into one buffer typed as the inputs (a float64 step that answers in
    float32 frees no room for a float32 history of its outputs: blind attacks22), and hands the outputs back in the
    dtype the step returned them in, so the dtype items still see it."""
    import importlib.util
    import sys
    import types

    import torch

    def call(target, *args):
        return getattr(*target)(*args)

    def steps(target, n, args, take, **kw):
        for t in range(n):
            take(t, getattr(*target)(*args(t)[0]))

    monkeypatch.setitem(sys.modules, "lrkit_harness", types.SimpleNamespace(call=call, steps=steps))
    path = Path(__file__).resolve().parents[2] / "solutions" / "linear-attention-basics" / "hidden" / "probes.py"
    spec = importlib.util.spec_from_file_location("probes_step_dtype", path)
    probes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probes)

    class State:
        def __init__(self, m, d_v):
            pass

        def step(self, q, k, v):
            return v.to(getattr(torch, outputs))
    Q, K, V = (torch.randn(2, 5, 3, dtype=getattr(torch, inputs), generator=torch.Generator().manual_seed(i))
               for i in range(3))
    made, new_zeros = [], torch.Tensor.new_zeros

    def spy(self, *args, **kw):  # (zeroed as made: held whole from the first step on, blind attacks27)
        made.append(new_zeros(self, *args, **kw))
        return made[-1]
    monkeypatch.setattr(torch.Tensor, "new_zeros", spy)
    y = probes._by_steps(types.SimpleNamespace(LinearAttentionState=State), Q, K, V)
    assert [b.dtype for b in made] == [getattr(torch, inputs)]  # the one buffer, typed as the inputs
    assert y.dtype == getattr(torch, outputs) and y.shape == (2, 5, 3)
    assert torch.allclose(y.double(), V.double(), rtol=1e-6)


def test_a_retention_form_that_reshapes_its_gamma_in_place_raises_where_it_is_compared(monkeypatch):
    """Blind round 14: a per-head γ made (H, 1, 1) with `unsqueeze_` (no copy) breaks every later call with the same
    tensor, which no probe made (each call gets a fresh γ). The equivalence probe now says so, as the form's error;
    a γ left as it came (NaN included: the validation cases hand those over) passes."""
    import importlib.util
    import sys
    import types

    import torch

    monkeypatch.setitem(sys.modules, "lrkit_harness", types.SimpleNamespace(call=None, steps=None))
    path = Path(__file__).resolve().parents[2] / "solutions" / "linear-attention-basics" / "hidden" / "probes.py"
    spec = importlib.util.spec_from_file_location("probes_gamma_in_place", path)
    probes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probes)
    gamma = torch.tensor([0.5, 0.9, float("nan")], dtype=torch.float64)
    assert probes._untouched_gamma("parallel", lambda g: g.sum(), gamma).isnan()
    assert probes._untouched_gamma("parallel", lambda g: 1.0, 0.9) == 1.0
    with pytest.raises(ValueError, match=r"retention_recurrent changed the γ it was given in place \(shape \(3,\) -> "
                                         r"\(3, 1, 1\)\)"):
        probes._untouched_gamma("recurrent", lambda g: g.unsqueeze_(-1).unsqueeze_(-1), gamma.clone())
    with pytest.raises(ValueError, match="retention_chunkwise changed the γ"):
        probes._untouched_gamma("chunkwise", lambda g: g.clamp_(0, 0.6), torch.tensor([0.5, 0.9]))


class _Settings:
    """A fake `costs.Runner` for a case measured at two decays: answers from a table (whose, gamma, n) -> (outputs,
    cpu, MiB), "raise" where the student's code raises."""

    def __init__(self, table):
        self.table, self.calls = table, []

    def __call__(self, whose, inputs, cpu_limit_s):
        key = (whose, inputs["gamma"], inputs["L"])
        self.calls.append(key)
        y, cpu, mib = self.table[key]
        if cpu_limit_s is not None and cpu > cpu_limit_s:
            return RunAnswer(None, "", int(mib * MiB), cpu_limit_s, over_cpu=True)
        if isinstance(y, str):
            return RunAnswer(None, "raised NotImplementedError: near 1", 0, 0.0, raised=True)
        return RunAnswer({"y": y}, "", int(mib * MiB), cpu)


def _gated_case() -> CostCase:
    """Measured at γ = 0.999; its gated items are judged at 0.9 (``elsewhere``)."""
    def draw(seed, gamma=0.999):
        return {"form": "f", "gamma": gamma}, (lambda n: {"y": np.arange(float(n)) * gamma})
    return CostCase(label="form, 32 sequences", inputs={"form": "f", "gamma": 0.999}, draw=draw,
                    expect=lambda n: {"y": np.arange(float(n)) * 0.999}, sequences=32,
                    compared_by="form_equivalence", elsewhere=lambda seed: draw(seed, 0.9))


def _measured_at(gamma, student_long):
    """The model right and efficient at both decays; the student at 0.999 raising (excused), at 0.9 as given."""
    table = {("model", g, n): (np.arange(float(n)) * g, cpu, mib) for g in (0.999, 0.9)
             for n, cpu, mib in ((1024, 0.13, 28), (8192, 0.5, 83))}
    table[("student", 0.999, 1024)] = ("raise", 0.0, 0)
    table[("student", 0.9, 1024)] = (np.arange(1024.0) * 0.9, 0.13, 28)
    y = student_long[0]
    table[("student", 0.9, 8192)] = (np.arange(8192.0) * 0.9 if isinstance(y, str) and y == "right" else y,
                                     *student_long[1:])
    return _Settings(table)


WRONG_SHORT = CaseOutcome("form_equivalence", "gate twin", False, "wrong", digest="5e0c1a2b")
RIGHT_SHORT = CaseOutcome("form_equivalence", "gate twin", True)
RAISED_SHORT = CaseOutcome("form_equivalence", "gate twin", False, "raised", raised=True)
STOPPED_SHORT = CaseOutcome("form_equivalence", "gate twin", False, "stopped after 60 s")  # no result to be wrong


@pytest.mark.parametrize("student_long, gate_twins, stands", [
    (("right", 0.5, 83), [RIGHT_SHORT], True),      # efficient where the gated items are judged: an honest bug near 1
    ((np.zeros(8192), 0.5, 83), [WRONG_SHORT, WRONG_SHORT], True),  # wrong there at every length and width: a bug
    ((np.zeros(8192), 0.5, 83), [RIGHT_SHORT], False),  # wrong and cheap there past a few dozen tokens only
    ((np.zeros(8192), 0.5, 83), [WRONG_SHORT, RIGHT_SHORT], False),  # ... or at 128 sequences only (attacks24)
    ((np.zeros(8192), 0.5, 83), [RAISED_SHORT], False),  # ... or raising over a few dozen tokens: not the same bug
    ((np.zeros(8192), 0.5, 83), [], False),          # no gate twin compared: nothing says the bug is everywhere
    ((np.zeros(8192), 0.5, 83), [WRONG_SHORT, STOPPED_SHORT], False),  # a twin that hung or crashed: not wrong
    (("right", 60.0, 83), [WRONG_SHORT], False),     # slow there: a slow form that raises near 1 only (attacks23)
    (("right", 0.5, 83 + 8 * 8192**2 * 32 / 2**20), [RIGHT_SHORT], False),  # L × L matrices there
    (("raise", 0.0, 0), [RAISED_SHORT], False),      # raising past the short length there
])
def test_an_excused_cost_case_is_measured_again_where_its_gated_items_are_judged(tmp_path, student_long, gate_twins,
                                                                                   stands):
    case, runs = _gated_case(), _measured_at(0.9, student_long)
    excused = judge_cost(SPEC, costs.drawn(case, 1), runs, stamp=("near one", tmp_path))
    assert excused.excused_by == "form_equivalence" and excused.raised
    there = costs.at_gate(case, 1)
    assert there.inputs["gamma"] == 0.9 and there.label != case.label and there.elsewhere is None
    outcome = costs.judge_elsewhere(SPEC, excused, there, runs, ("near one", tmp_path), None, tuple(gate_twins))
    assert ("student", 0.9, 1024) in runs.calls
    if stands:
        assert outcome is excused
    else:
        assert not outcome.passed and outcome.excused_by == "" and outcome.cause == SPEC.cause
        assert "Measured again at the settings its gated items are judged at" in outcome.message
        assert "near 1" in outcome.message  # what it did where it was measured stays in the message


def test_a_cost_case_without_gated_settings_is_not_measured_again():
    assert costs.at_gate(_case(), 1) is None
