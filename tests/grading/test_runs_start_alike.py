"""The model's cost measurements and a student's are made alike (`sandbox.warm.measured_as`).

A cost verdict compares what a student's runs cost with what the model solution's cost, and the model's are kept
(in the process and on disk, `model_costs`). A run forked from the warm template finds the template's imports
made: their memory is the template's, not the run's. So what the template holds is part of how a run is measured.
Blind round 11 found it the hard way: the hybrid asked the template for torch._dynamo (`preload`), a pytest process
grading both kits measured the basics model from that template, and every basics student graded later by a grader
of their own held 18 MiB more than the model at every step length and lost the step's two cost items, the
solution too. Now every template holds torch._dynamo, and the kept measurements are keyed by how runs start: by what
an assignment asks the template for beyond what every template holds (asked for anyway, torch._dynamo changed the
key and nothing measured: `tasks.py all` measured the basics model twice, once before the hybrid's preload and
once after)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from grader import sandbox
from grader.config import load_assignment
from grader.grading import probing
from grader.grading.checks import Seeded
from grader.sandbox import warm

ROOT = Path(__file__).resolve().parents[2]
TREE = ROOT / "solutions" / "linear-attention-basics"


def _step_run_peak_mb() -> float:
    """The basics model's step over 128 sequences of 256 tokens, one cost run as the checks start it."""
    config = load_assignment(TREE)
    inputs = {"form": "step", "n": 1, **{f"{x}0": Seeded(i + 1, (128, 256, 4)) for i, x in enumerate("QKV")}}
    job = probing._job_bytes(TREE, config, [("c1", "linear_runs", inputs, "g")], 60, False)
    result = probing._measured_run(TREE, TREE, job, probing.cost_run_limits(config.limits), unsandboxed=False,
                                   cancel=None, model=True)
    assert result.returncode == 0 and "zygote" in result.isolation, (result.output[-500:], warm.last_failure)
    return result.peak_memory_bytes / 2**20


@pytest.mark.skipif(not sandbox.sandbox_available(), reason="needs Linux, root and bubblewrap")
def test_a_preload_every_template_holds_moves_no_memory_and_no_key_another_moves_the_key(monkeypatch):
    monkeypatch.setenv("LRKIT_WARM", "1")
    monkeypatch.setattr(warm, "_broken", False)
    monkeypatch.setattr(warm, "_wanted", {})
    warm.shutdown()
    try:
        before, key_before = _step_run_peak_mb(), warm.measured_as()
        warm.preload(["torch._dynamo"])  # what the hybrid's assignment.yaml asks for
        after, key_after = _step_run_peak_mb(), warm.measured_as()
    finally:
        warm.shutdown()
    assert abs(after - before) < 3, (before, after)  # was 60.9 MiB before the preload and 44.5 after it
    assert key_before == key_after == '["warm", []]' and "torch._dynamo" in warm.held()
    warm.preload(["email.mime.text"])  # a module no template imports: runs would find it made, so measured apart
    assert warm.measured_as() == '["warm", ["email.mime.text"]]' and "email.mime.text" not in warm.held()
    monkeypatch.setenv("LRKIT_WARM", "0")
    assert warm.measured_as() == '["cold"]'


def test_a_cost_run_that_fell_back_to_a_cold_start_is_measured_again(monkeypatch):
    warm_result = sandbox.RunResult(0, False, False, False, "", False, 1.0, ("zygote",), cpu_s=0.2)
    cold_result = dataclasses.replace(warm_result, isolation=("bwrap",), cpu_s=1.4)
    given = [cold_result, warm_result]
    monkeypatch.setattr(probing, "_sandboxed", lambda *a, **k: given.pop(0))
    monkeypatch.setattr(warm, "enabled", lambda: True)
    got = probing._measured_run(TREE, TREE, b"", probing.cost_run_limits(load_assignment(TREE).limits),
                                unsandboxed=False, cancel=None, model=False)
    assert got is warm_result and not given
    monkeypatch.setattr(warm, "enabled", lambda: False)  # a grader whose runs all start cold: no second run
    given[:] = [cold_result, warm_result]
    assert probing._measured_run(TREE, TREE, b"", probing.cost_run_limits(load_assignment(TREE).limits),
                                 unsandboxed=False, cancel=None, model=False) is cold_result
