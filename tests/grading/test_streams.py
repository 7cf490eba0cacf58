"""A decoding step's measured inputs are handed over token by token (`Seeded(stream=True)`, `inside/seeded.Stream`).

Blind attacks25 (hybrid) found the whole input sequence of the measured step beside the step, in the student's own
process: 128 MiB the step could keep as its history without holding a byte of it (read back from the probe's
buffer), or whose pages of tokens already stepped it could hand back to the kernel to make room for a history of its
own. Streamed, the tokens are drawn one at a time as the probe steps, the same values `seeded.make` makes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from grader import sandbox
from grader.config import load_assignment
from grader.grading import probing
from grader.grading.checks import Seeded
from grader.sandbox.inside import seeded

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("shape, scale", [((16, 300, 64), 1.0), ((8, 16, 260, 5), 1.5), ((600, 4), 0.7)])
def test_a_stream_draws_the_tokens_the_array_holds_in_order_only(shape, scale):
    stream = seeded.Stream(11, shape, scale)
    tokens = np.stack([stream.token(t) for t in range(shape[-2])], axis=-2)
    assert np.array_equal(tokens, seeded.make(11, shape, scale))
    again = seeded.Stream(11, shape, scale)
    again.token(0)
    with pytest.raises(ValueError, match="token 5 asked for where token 1 is next"):
        again.token(5)


@pytest.mark.parametrize("start, stop", [(0, 700), (700, 1400), (256, 513), (1399, 1400)])
def test_a_part_of_a_seeded_array_is_made_as_the_stream_hands_it_without_the_rest(start, stop):
    # the hybrid's measured step runs two layers over a stream's first half and second half (`probes._Part`);
    # the grader makes each half's reference from `Seeded.tokens`, never the whole array
    whole = Seeded(9, (3, 1400, 5), 1.5)
    assert np.array_equal(whole.tokens(start, stop), whole.array()[:, start:stop])
    stream = seeded.Stream(9, (3, 1400, 5), 1.5)
    handed = [stream.token(t) for t in range(stop)][start:]
    assert np.array_equal(np.stack(handed, axis=-2), whole.tokens(start, stop))


DRIVER = ROOT / "grader" / "sandbox" / "inside" / "driver.py"
HANDS = """
import importlib.util, json, os, sys
os.environ["LRKIT_CHANNEL_FD"] = "2"
spec = importlib.util.spec_from_file_location("lrkit_driver", sys.argv[1])
driver = importlib.util.module_from_spec(spec)
spec.loader.exec_module(driver)
case = {"id": "c", "probe": "p", "scalars": {"n": 1}, "arrays": [],
        "seeded": [{"key": "x0", "seed": 3, "shape": [2, 50, 4], "scale": 1.0, "stream": True},
                   {"key": "w0", "seed": 4, "shape": [3, 4], "scale": 2.0}]}
made, body = driver.with_seeded(case, b"")
header, _ = driver.for_child(made, body, "nonce")
print(json.dumps({"arrays": [a["key"] for a in made["arrays"]], "bytes": len(body), "streams": made["streams"],
                  "child": header["streams"]}))
"""


def test_the_driver_hands_the_child_a_streams_shape_not_its_seed_and_packs_only_the_arrays():
    out = subprocess.run([sys.executable, "-c", HANDS, str(DRIVER)], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["arrays"] == ["w0"] and got["bytes"] == 3 * 4 * 8
    assert got["streams"] == [{"key": "x0", "seed": 3, "shape": [2, 50, 4], "scale": 1.0}]
    assert got["child"] == [{"key": "x0", "shape": [2, 50, 4]}]  # not its seed: the driver draws each token


def _step_run(tree: Path, stream: bool) -> tuple[dict, float]:
    """The basics model's step over 128 sequences of 2048 tokens, one cost run as the checks start it: its digested
    outputs and its memory peak (MiB)."""
    config = load_assignment(tree)
    inputs = {"form": "step", "n": 1,
              **{f"{x}0": Seeded(i + 1, (128, 2048, 8), 1.0, stream) for i, x in enumerate("QKV")}}
    job = probing._job_bytes(tree, config, [("c1", "linear_runs", inputs, "g")], 60, False)
    limits = probing.cost_run_limits(config.limits)
    result = probing._measured_run(tree, tree, job, limits, unsandboxed=False, cancel=None, model=True)
    planned = probing.PlannedCase("c1", probing.CheckSpec("c", "linear_runs", "c", lambda: iter(())), None)
    got, why, _ = probing._alone_answer(planned, result, config.limits, limits, [])
    assert got is not None, why
    return got, result.peak_memory_bytes / 2**20


@pytest.mark.skipif(not sandbox.sandbox_available(), reason="needs Linux, root and bubblewrap")
def test_a_streamed_step_gives_the_same_outputs_without_the_whole_inputs_beside_it():
    tree = ROOT / "solutions" / "linear-attention-basics"
    whole, whole_mb = _step_run(tree, False)
    streamed, streamed_mb = _step_run(tree, True)
    assert whole.keys() == streamed.keys()
    assert all(np.array_equal(np.asarray(whole[k]), np.asarray(streamed[k])) for k in whole)
    inputs_mb = 3 * 128 * 2048 * 8 * 8 / 2**20  # 48 MiB of Q, K and V
    assert whole_mb - streamed_mb > 0.8 * inputs_mb, (whole_mb, streamed_mb)
