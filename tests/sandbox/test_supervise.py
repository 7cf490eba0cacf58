"""The supervisor's own measure of a run that has no cgroup (`grader.sandbox.supervise`): the command is
reaped with wait4, whose resource use covers it and every child it waited for."""
from __future__ import annotations

import sys
import textwrap

from grader.sandbox.records import RunLimits
from grader.sandbox.supervise import supervise

MiB = 2**20


def test_a_run_without_a_cgroup_is_measured_by_wait4(tmp_path):
    """CPU time of the command and of the child it waited for; the largest resident set among them."""
    code = textwrap.dedent("""
        import os, time
        if os.fork() == 0:
            end = time.process_time() + 0.3
            while time.process_time() < end:
                pass
            block = bytearray(64 << 20); block[::4096] = b"x" * (len(block) // 4096)
            os._exit(0)
        os.wait()
    """)
    result = supervise([sys.executable, "-c", code], env={}, host_cwd=str(tmp_path), limits=RunLimits(wall_s=30),
                       preexec=None, group=None)
    assert result.returncode == 0, result.output
    assert result.cpu_s >= 0.25, result.cpu_s
    assert result.peak_memory_bytes >= 64 * MiB, result.peak_memory_bytes


def test_a_run_killed_at_its_wall_clock_is_still_reaped(tmp_path):
    result = supervise([sys.executable, "-c", "while True: pass"], env={}, host_cwd=str(tmp_path),
                       limits=RunLimits(wall_s=0.5), preexec=None, group=None)
    assert result.timed_out and result.returncode is None
    assert 0.3 <= result.cpu_s < 5, result.cpu_s
