"""Property-based fuzzing of everything that reads what a submission or a sandbox produced.

Whatever the input, each reader answers with a result or with its one clean rejection (a
typed error whose message is for a person), never another exception, and within a time and
memory bound: the unpacker, the notebook reader, the answers parser and the readers of the
result channel (check answers and notebook cell records).
"""
from __future__ import annotations

import functools
import io
import json
import struct
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.grading.answers import (
    AnswerFormatError,
    ChoiceEntry,
    NumberEntry,
    QuantityEntry,
    VectorEntry,
    check_answer,
    parse_answers,
)
from grader.grading.execute import NotebookError, _read_channel, execution_hooks, prepare_notebook, read_notebook
from grader.grading.probing import _judge, plan
from grader.grading.unpack import SubmissionError, unpack_submission
from grader.sandbox import RunLimits, RunResult, channel

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])
MEMORY_BOUND = 64 * 2**20  # bytes any one example may allocate at its peak
ALLOWED = ["linear_attention.py", "linear_attention.ipynb"]
TEMPLATE = {"cells": [{"cell_type": "code", "id": "a", "metadata": {"tags": ["exercise:ex1"]}, "source": "x = 1"},
                      {"cell_type": "markdown", "id": "q", "metadata": {"tags": ["question"]}, "source": "Why?"}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def bounded(fn, *args, **kwargs):
    """Run fn under tracemalloc; fail if its peak allocation passes MEMORY_BOUND."""
    tracemalloc.start()
    try:
        return fn(*args, **kwargs)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < MEMORY_BOUND, f"{fn.__name__} allocated {peak / 2**20:.0f} MB"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)
names = st.text(st.characters(codec="utf-8", exclude_characters="\0"), min_size=1, max_size=30) | st.sampled_from(
    ["linear_attention.py", "linear_attention.ipynb", "../evil.py", "/abs.py", "a/../../b", "conftest.py", "x/"])


@st.composite
def zips(draw) -> bytes:
    """A zip of random entries, then (often) some of its bytes overwritten or cut off."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]))) as zf:
        for name in draw(st.lists(names, max_size=5, unique=True)):
            zf.writestr(name, draw(st.binary(max_size=2000)))
    data = bytearray(buf.getvalue())
    for _ in range(draw(st.integers(0, 6))):
        if data:
            at = draw(st.integers(0, len(data) - 1))
            data[at:at + 4] = draw(st.binary(min_size=1, max_size=4))
    if draw(st.booleans()) and data:
        data = data[:draw(st.integers(0, len(data)))]
    return bytes(data)


@FUZZ
@given(data=zips() | st.binary(max_size=3000))
def test_the_unpacker_returns_or_rejects_cleanly(tmp_path_factory, data):
    work = tmp_path_factory.mktemp("fuzz-zip")
    (work / "s.zip").write_bytes(data)
    try:
        unpacked = bounded(unpack_submission, work / "s.zip", work / "out", allowed=ALLOWED, max_bytes=1_000_000)
    except SubmissionError as exc:
        assert str(exc)
        return
    root = (work / "out").resolve()
    assert all(root in (root / f).resolve().parents for f in unpacked.files)
    assert all(n.isprintable() for n in unpacked.notes)


notebooks = st.one_of(
    st.text(max_size=500),
    json_values.map(json.dumps),
    st.builds(lambda cells, meta: json.dumps({"cells": cells, "metadata": meta}),
              st.lists(json_values | st.fixed_dictionaries(
                  {"cell_type": st.sampled_from(["code", "markdown", "raw", "other"]),
                   "id": json_values, "metadata": json_values,
                   "source": st.text(max_size=50) | st.lists(json_values, max_size=3) | json_values}), max_size=6),
              json_values),
    st.integers(1, 30000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 3000).map(lambda n: '{"cells": [' + '{"a": ' * n + "1" + "}" * n + "]}"))


@FUZZ
@given(text=notebooks)
def test_the_notebook_reader_returns_or_rejects_cleanly(text):
    try:
        nb = bounded(read_notebook, text, "linear_attention.ipynb")
    except NotebookError as exc:
        assert "linear_attention.ipynb" in str(exc)
        return
    prepared, notes = prepare_notebook(nb, TEMPLATE)
    assert all(isinstance(c["source"], str) for c in prepared["cells"])
    execution_hooks(prepared)


yamlish = st.text(st.sampled_from(list("abc_:&*!|>-#[]{},'\"\n 0123456789.eE+x^/%~") + ["\t", "\u00e9", "\x1b"]),
                  max_size=300)
KEYS = [QuantityEntry("q", 1.6384e10), NumberEntry("n", 781.0), VectorEntry("v", (0.5, 3.0)), ChoiceEntry("c", "b")]


@FUZZ
@given(text=yamlish | st.text(max_size=300) | st.integers(1, 5000).map(lambda n: "a: " + "[" * n + "]" * n))
def test_the_answers_parser_returns_or_rejects_cleanly(text):
    try:
        answers = bounded(parse_answers, text, "cell 3")
    except AnswerFormatError as exc:
        assert str(exc).startswith("cell 3")
        return
    assert all(isinstance(k, str) and isinstance(v, str) and len(v) <= 2000 for k, v in answers.items())


@FUZZ
@given(raw=yamlish | st.text(max_size=200) | st.sampled_from(
    ["1x10^400", "1/0", "1e" + "9" * 4401, "9" * 5000, "1e999999 GB", "nan", "inf GB", "[1e400, 2]", "-0 B"]))
def test_every_answer_is_judged_without_raising(raw):
    for entry in KEYS:
        outcome = bounded(check_answer, entry, raw)
        assert outcome.status in ("correct", "wrong", "blank", "unreadable", "unchecked", "missing")


@st.composite
def channel_bytes(draw) -> bytes:
    """Messages as the inside scripts write them, with hostile headers and bodies, then mutated."""
    parts = []
    for _ in range(draw(st.integers(0, 5))):
        header = draw(st.dictionaries(st.sampled_from(["event", "case", "arrays", "scalars", "error", "stopped",
                                                       "index", "status", "seconds", "figures", "tampered",
                                                       "disk_full", "ok", "signal", "exit", "why"]),
                                      json_values | st.sampled_from(["import", "case", "cell", "status", "done",
                                                                     "stopped", "ok", "error"]),
                                      max_size=6))
        if draw(st.booleans()):
            header["arrays"] = [{"key": draw(st.text(max_size=5)), "dtype": draw(st.sampled_from(
                ["<f8", "|b1", "<i4", "|O", "<c16", ">f8", "x"])), "shape": draw(st.lists(
                    st.integers(-2, 10**6), max_size=4))}]
        parts.append(channel.encode(header, draw(st.binary(max_size=200))))
    data = bytearray(b"".join(parts))
    for _ in range(draw(st.integers(0, 3))):
        if data:
            at = draw(st.integers(0, len(data) - 1))
            data[at:at + 8] = draw(st.sampled_from([struct.pack(">II", 2**31, 2**31), b"NaN", b"[[[[", b"\xff"]))
    return bytes(data)


@functools.lru_cache(maxsize=1)
def planned() -> tuple:
    """Every case of the basics assignment's hidden checks (the checks a reply is judged against)."""
    return tuple(plan(Path(__file__).resolve().parents[2] / "solutions" / "linear-attention-basics"))


@pytest.fixture(scope="module", autouse=True)
def _plan_first():
    planned()  # planning takes seconds; not part of any example's time


@FUZZ
@given(data=channel_bytes() | st.binary(max_size=500))
def test_the_result_readers_return_or_reject_cleanly(data):
    messages, problem = bounded(channel.decode, data)
    assert isinstance(problem, str)
    for message in messages:
        try:
            got = channel.arrays(message.header.get("arrays", []), message.body)
            assert all(isinstance(a, np.ndarray) and a.dtype.kind in "biuf" for a in got.values())
            channel.scalars(message.header.get("scalars", {}))
        except channel.ChannelError as exc:
            assert str(exc)
    result = RunResult(returncode=0, timed_out=False, idle_timed_out=False, memory_exceeded=False, output="",
                       output_truncated=False, wall_s=1.0, isolation=(), channel=data)
    limits = type("Limits", (), {"case_timeout_s": 20.0, "memory_mb": 4096, "checks_timeout_s": 180.0})()
    run = bounded(_judge, list(planned()), result, limits, RunLimits())
    assert len(run.outcomes) == len(planned())
    cells, figures, status, _, why = _read_channel(data, TEMPLATE)
    assert set(cells) <= {0} and isinstance(status, str) and isinstance(why, str)


LINEAR_TIME = {  # hostile text read in the grader's own process, and what it does to a backtracking regex
    "channel header, unterminated string": "from grader.sandbox import channel; import struct; "
    "h = ('\"' + 'a' * 200_000).encode(); channel.decode(struct.pack('>II', len(h), 0) + h)",
    "channel header, escaped quotes": "from grader.sandbox import channel; import struct; "
    "h = ('\"\\\\\"' * 60_000).encode(); channel.decode(struct.pack('>II', len(h), 0) + h)",
    "notebook source, a million blank lines": "from grader.grading.execute import execution_hooks; "
    "execution_hooks({'cells': [{'cell_type': 'code', 'source': '\\n' * 1_000_000 + 'x'}]})",
    "report text, a million spaces": "from grader.report.render import _md_cell; _md_cell(' ' * 1_000_000 + 'x')",
}


@pytest.mark.parametrize("what", sorted(LINEAR_TIME))
def test_hostile_text_is_read_in_one_pass_not_backtracked_forever(what):
    """Text a submission controls, read by the grader's own process: a regex with nested or
    adjacent quantifiers backtracks on it for hours (one submission stalls the batch). Each read
    runs in a subprocess that must finish within 60 s (linear code takes well under one)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", LINEAR_TIME[what]], capture_output=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
