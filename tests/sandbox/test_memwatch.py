"""The driver's memory watch (`inside/memwatch.py`): the peak private memory of a process and
everything below it, sampled from outside, whatever the process does inside (threads, a child)."""
from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path

import pytest

MEMWATCH = Path(__file__).resolve().parents[2] / "grader" / "sandbox" / "inside" / "memwatch.py"


@pytest.fixture(scope="module")
def memwatch():
    spec = importlib.util.spec_from_file_location("lrkit_memwatch_under_test", MEMWATCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _peak_of(memwatch, body: str) -> int:
    """Fork a child that runs ``body`` (with 64 MiB to fill), then answers on a pipe; its watched peak."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            exec(body, {"os": os, "time": time, "SIZE": 64 << 20})
            os.write(w, b"done")
        finally:
            os._exit(0)
    os.close(w)
    try:
        return memwatch.watch_memory(pid, r, time.monotonic() + 60)
    finally:
        os.waitpid(pid, 0)
        os.close(r)


@pytest.mark.parametrize("where", ["inline", "thread", "grandchild"])
def test_the_peak_counts_memory_wherever_the_child_puts_it(memwatch, where):
    fill = "block = bytearray(SIZE); block[::4096] = b'x' * (SIZE // 4096); time.sleep(0.2); del block"
    body = {"inline": fill,
            "thread": f"import threading\nt = threading.Thread(target=lambda: exec({fill!r}, globals()))\n"
                      "t.start(); t.join()",
            "grandchild": f"p = os.fork()\nif p == 0:\n    exec({fill!r}); os._exit(0)\nos.waitpid(p, 0)"}[where]
    assert _peak_of(memwatch, body) >= 64 << 20


def test_a_small_child_stays_small(memwatch):
    assert 0 < _peak_of(memwatch, "block = bytearray(1 << 20)") < 64 << 20


def test_a_process_that_is_gone_counts_nothing(memwatch):
    assert memwatch.private_bytes(2 ** 22 + 12345) == 0
