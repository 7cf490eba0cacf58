"""The channel's framing (`inside/wire.py`): one owner for the inside scripts and the grader.

What the inside scripts send is what `channel.decode` reads; a message larger than a pipe's buffer
arrives whole; the disk counts as full below 1 MB left; and no other file writes the ``>II`` prefix
or decides when the disk is full.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import threading
from pathlib import Path

import pytest

from grader.sandbox import channel
from grader.sandbox.inside import wire

INSIDE = Path(__file__).resolve().parents[2] / "grader" / "sandbox" / "inside"


def _read_all(fd: int, into: list[bytes]) -> None:
    while chunk := os.read(fd, 1 << 16):
        into.append(chunk)


def test_what_is_encoded_is_what_the_channel_reads():
    data = wire.encode({"event": "cell", "index": 3}, b"\x89PNG") + wire.encode({"event": "status"})
    assert wire.lengths(data) == (len(b'{"event": "cell", "index": 3}'), 4)
    messages, stopped = channel.decode(data)
    assert stopped == ""
    assert [m.header for m in messages] == [{"event": "cell", "index": 3}, {"event": "status"}]
    assert [bytes(m.body) for m in messages] == [b"\x89PNG", b""]


def test_a_header_with_nan_is_refused_before_it_is_sent():
    with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
        wire.encode({"seconds": float("nan")})


def test_a_message_larger_than_the_pipe_arrives_whole():
    r, w = os.pipe()
    got: list[bytes] = []
    reader = threading.Thread(target=_read_all, args=(r, got))
    reader.start()
    body = bytes(range(256)) * 4096  # 1 MiB: many times a pipe's buffer
    try:
        wire.send(w, {"event": "cell"}, body)
    finally:
        os.close(w)
        reader.join(timeout=30)
        os.close(r)
    messages, stopped = channel.decode(b"".join(got))
    assert stopped == "" and len(messages) == 1 and bytes(messages[0].body) == body


def test_the_disk_is_full_below_one_megabyte_left(tmp_path, monkeypatch):
    assert wire.disk_full([tmp_path / "missing", tmp_path]) is False  # a missing folder is skipped
    real = os.statvfs(tmp_path)
    nearly = os.statvfs_result((real.f_bsize, 4096, real.f_blocks, 10, 255) + tuple(real)[5:])
    monkeypatch.setattr(os, "statvfs", lambda path: nearly if Path(path) == tmp_path else real)
    assert wire.disk_full([tmp_path / "missing", tmp_path]) is True
    assert wire.disk_full([tmp_path / "missing"]) is False


def test_the_notebook_runner_frames_its_messages_with_wire_loaded_beside_it():
    r, w = os.pipe()
    os.environ["LRKIT_CHANNEL_FD"] = str(w)  # read (and removed) by the runner at import
    try:
        spec = importlib.util.spec_from_file_location("lrkit_nbrunner_wire_test", INSIDE / "nbrunner.py")
        runner = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(runner)
        runner.send({"event": "status", "status": "ok"}, b"tail")
    finally:
        os.environ.pop("LRKIT_CHANNEL_FD", None)
        os.close(w)
    with os.fdopen(r, "rb") as pipe:
        messages, stopped = channel.decode(pipe.read())
    assert stopped == "" and [(m.header, bytes(m.body)) for m in messages] == [({"event": "status", "status": "ok"},
                                                                                   b"tail")]
    assert Path(runner.wire.__file__) == INSIDE / "wire.py"
    assert "wire" not in sys.modules and "lrkit_wire" not in sys.modules  # never shadows a student's `wire`


@pytest.mark.parametrize("script", ["driver.py", "nbrunner.py"])
def test_no_inside_script_writes_its_own_framing(script):
    text = (INSIDE / script).read_text(encoding="utf-8")
    assert '">II"' not in text and "struct.unpack" not in text and "def disk_full" not in text
    assert 'wire = _beside("wire")' in text


def _driver(monkeypatch):
    monkeypatch.setenv("LRKIT_CHANNEL_FD", "-1")  # the run's channel, which the driver takes at its import
    spec = importlib.util.spec_from_file_location("lrkit_driver_under_test", INSIDE / "driver.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_child_reads_a_cases_arrays_once_into_one_buffer(monkeypatch):
    """A case's arrays as the child gets them: the values sent, at an aligned offset or not, and held once while
    they are read (the chunks, their join and a copy of each made the reading, not the measured call, a cost
    run's memory peak: blind attacks24)."""
    import tracemalloc

    import numpy as np

    driver = _driver(monkeypatch)
    big = np.arange(4 << 20, dtype=np.float64)  # 32 MiB
    odd = np.arange(3, dtype=np.int8)
    small = np.linspace(0, 1, 7)
    parts, arrays, offset = [], [], 0
    for key, a in (("big", big), ("odd", odd), ("x", small)):  # "x" 3 bytes after: an unaligned offset
        arrays.append({"key": key, "dtype": a.dtype.str, "count": int(a.size), "offset": offset,
                       "shape": list(a.shape)})
        parts.append(a.tobytes())
        offset += a.nbytes
    case = {"probe": "p", "scalars": {"n": 1}, "arrays": arrays}
    message = memoryview(wire.encode(*driver.for_child(case, b"".join(parts), "nonce")))  # made before the count

    def send(w):
        done = 0
        while done < len(message):
            done += os.write(w, message[done:done + (1 << 16)])
        os.close(w)
    r, w = os.pipe()
    sender = threading.Thread(target=send, args=(w,))
    tracemalloc.start()
    sender.start()
    try:
        tracemalloc.reset_peak()
        probe, kwargs, nonce = driver.child_receive(r, -1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        sender.join(timeout=30)
        os.close(r)
    assert (probe, nonce, kwargs["n"]) == ("p", "nonce", 1)
    for key, a in (("odd", odd), ("x", small), ("big", big)):
        assert kwargs[key].dtype == a.dtype and np.array_equal(kwargs[key], a), key
    assert kwargs["big"].flags.writeable and kwargs["x"].flags.writeable
    assert peak < 1.25 * offset, f"reading a {offset >> 20} MiB case peaked at {peak >> 20} MiB"


def test_a_streamed_cases_tokens_come_from_the_driver_as_the_child_asks_in_order_only(monkeypatch):
    """The child gets a stream's shape, not its seed, and asks the driver for the tokens as the probe steps
    (`_Feed`, `hand_tokens`): the tokens `seeded.make` makes, token t of every stream before t + 1; a token asked
    for again or out of order is refused on both sides (blind attacks32 replayed the history from a generator copied
    out of the student's own process)."""
    import numpy as np

    from grader.sandbox.inside import seeded

    driver = _driver(monkeypatch)
    specs = [{"key": "Q0", "seed": 5, "shape": [3, 300, 4], "scale": 1.0, "stream": True},
             {"key": "V0", "seed": 6, "shape": [3, 300, 2], "scale": 0.5, "stream": True}]
    case, inputs = driver.with_seeded({"id": "c", "probe": "p", "scalars": {}, "arrays": [], "seeded": specs}, b"")
    header, body = driver.for_child(case, inputs, "nonce")
    assert header["streams"] == [{"key": "Q0", "shape": [3, 300, 4]}, {"key": "V0", "shape": [3, 300, 2]}]
    cases_r, cases_w = os.pipe()
    answers_r, answers_w = os.pipe()
    streams = driver.Streams(case["streams"], cases_w)
    asks = []

    def serve():
        while True:
            prefix = os.read(answers_r, 8)
            if len(prefix) < 8:
                return
            head_len, first = wire.lengths(prefix)
            asks.append(first)
            driver.hand_tokens(streams, first, None)
    os.write(cases_w, wire.encode(header, body))
    server = threading.Thread(target=serve)
    server.start()
    try:
        _, kwargs, _ = driver.child_receive(cases_r, answers_w)
        Q, V = kwargs["Q0"], kwargs["V0"]
        assert Q.shape == (3, 300, 4) and not hasattr(Q, "seed")
        got_q, got_v = [], []
        for t in range(300):
            got_q.append(Q.token(t))
            got_v.append(V.token(t))
        with pytest.raises(ValueError, match="token 5 asked for"):
            Q.token(5)
    finally:
        os.close(answers_w)
        server.join(timeout=30)
        for fd in (cases_r, cases_w, answers_r):
            os.close(fd)
    assert np.array_equal(np.stack(got_q, axis=-2), seeded.make(5, (3, 300, 4)))
    assert np.array_equal(np.stack(got_v, axis=-2), seeded.make(6, (3, 300, 2), 0.5))
    assert asks[0] == 0 and asks == sorted(asks) and len(asks) < 300 / 8  # a pipe's worth at a time
    again = driver.Streams(case["streams"], cases_w)
    with pytest.raises(ValueError, match="out of order"):
        driver.hand_tokens(again, 3, None)
