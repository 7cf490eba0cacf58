"""Batch folder names and the result channel's reader, on the inputs that broke them before."""
from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from grader.batch.naming import assign, safe_name
from grader.sandbox import channel


@pytest.mark.parametrize("raw, safe", [
    ("alice", "alice"),
    ("=ctl\x1b]0;pwned\x07\x1b[31m\nname", "ctl__0_pwned___31m_name"),
    ("-rf", "rf"),
    ("..", "s_"),
    ("Zoë Ünal", "Zoë_Ünal"),
    ("caf\udce9", "caf"),
])
def test_a_folder_name_is_safe_everywhere(raw, safe):
    assert safe_name(raw) == safe


def test_long_names_stay_unique():
    a, b = safe_name("x" * 200 + "a"), safe_name("x" * 200 + "b")
    assert a != b and len(a) <= 80 and len(b) <= 80


def test_collisions_and_class_files_get_their_own_folder_whatever_the_listing_order():
    """Do `alice/` and `alice.zip` (and a case-only difference) get distinct, stable folders, and can no
    submission take a class file's name?"""
    entries = [Path(p) for p in ("subs/alice.zip", "subs/alice", "subs/ALICE", "subs/gradebook.csv.zip",
                                 "subs/summary.html")]
    names, notes = assign(entries)
    again, _ = assign(list(reversed(entries)))
    assert dict(names) == dict(again)
    assert dict(names) == {Path("subs/ALICE"): "ALICE", Path("subs/alice"): "alice~2",
                           Path("subs/alice.zip"): "alice~3",
                           Path("subs/gradebook.csv.zip"): "gradebook.csv~2",
                           Path("subs/summary.html"): "summary.html~2"}
    assert "class file" in notes["gradebook.csv~2"] and "another submission" in notes["alice~3"]


def _message(header: bytes, body: bytes = b"", body_len: int | None = None) -> bytes:
    return struct.pack(">II", len(header), len(body) if body_len is None else body_len) + header + body


@pytest.mark.parametrize("data, why", [
    (_message(b'{"scalars": {"x": ' + b"[" * 5000 + b"]" * 5000 + b"}}"), "nested deeper"),
    (_message(b'{"scalars": {"y0": NaN}}'), "NaN"),
    (_message(b'{"x": 1e999}'), "too large"),
    (_message(b'{"y0": ' + b"9" * 5000 + b"}"), "digits"),
    (_message(b"{}", b"", body_len=2**32 - 1), "cut off"),
    (struct.pack(">II", 2**31, 0), "header of"),
    (_message(b"\xff\xfe"), "UTF-8"),
])
def test_the_channel_reader_stops_at_a_bomb_and_says_why(data, why):
    good = channel.encode({"event": "import", "ok": True})
    messages, problem = channel.decode(good + data)
    assert [m.header for m in messages] == [{"event": "import", "ok": True}]
    assert why in problem


@pytest.mark.parametrize("spec, body, why", [
    ([{"key": "y", "dtype": "<f8", "shape": [10**5, 10**5, 10**5]}], b"\0" * 64, "impossible shape"),
    ([{"key": "y", "dtype": "<f8", "shape": [64, 64]}], b"\0" * 64, "more bytes"),
    ([{"key": "y", "dtype": "|O", "shape": [3]}], b"\0" * 24, "real numbers"),
    ([{"key": "y", "dtype": "<f8", "shape": [-1]}], b"\0" * 8, "impossible shape"),
    ([{"key": "y", "dtype": "<f8", "shape": [1]}], b"\0" * 16, "left over"),
    ([{"key": "y", "dtype": "<f8", "shape": [1], "extra": 1}], b"\0" * 8, "exactly"),
])
def test_arrays_are_checked_against_the_bytes_before_anything_is_allocated(spec, body, why):
    with pytest.raises(channel.ChannelError, match=why):
        channel.arrays(spec, body)


def test_arrays_come_back_as_sent():
    y = np.arange(6, dtype=np.float64).reshape(2, 3)
    flags = np.array([True, False])
    spec = [{"key": "y", "dtype": y.dtype.str, "shape": [2, 3]}, {"key": "f", "dtype": "|b1", "shape": [2]}]
    got = channel.arrays(spec, y.tobytes() + flags.tobytes())
    assert np.array_equal(got["y"], y) and np.array_equal(got["f"], flags) and got["y"].flags.writeable
