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
