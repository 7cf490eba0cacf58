"""What a run's cgroup measures and limits, read from outside the run (`grader.sandbox.cgroup`, through
`sandbox.run`): the memory peak as the kernel charges it wherever the run keeps its pages, the CPU time of
every process it ever had, its CPU share, and its CPU-time limit. The cost checks believe nothing else."""
from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from grader.sandbox import Mount, RunLimits, cgroup, run, sandbox_available, sandbox_python

needs_cgroup = pytest.mark.skipif(not (sandbox_available() and cgroup.cgroup_kind()),
                                  reason="needs the official sandbox with per-run cgroups (Linux, root)")
LIMITS = RunLimits(wall_s=30, memory_mb=1024, max_procs=32, max_output_bytes=100_000, tmp_mb=64)
MiB = 2**20


def run_py(scratch: Path, code: str, limits: RunLimits, unsandboxed: bool = False):
    (scratch / "main.py").write_text(textwrap.dedent(code))
    return run([sandbox_python(), "-I", "/submission/main.py"], mounts=[Mount(scratch, "/submission", True)],
               cwd="/submission", env={}, limits=limits, unsandboxed=unsandboxed)


FILL = "block[::4096] = b'x' * (len(block) // 4096)"  # touch every page
HOLDERS = {
    "ordinary": f"block = bytearray(256 << 20); {FILL}",
    "twice_mapped_memfd": "import mmap\nfd = os.memfd_create('x'); os.ftruncate(fd, 256 << 20)\n"
                          "a, block = mmap.mmap(fd, 256 << 20), mmap.mmap(fd, 256 << 20)\n"
                          f"a[::4096] = b'y' * ((256 << 20) // 4096); {FILL}",
    "tmpfs_file": "with open('/tmp/f', 'wb') as fh:\n    fh.write(b'x' * (48 << 20))\nblock = bytearray(200 << 20)\n"
                  f"{FILL}",
    "reparented_grandchild": "import time\nif os.fork() == 0:\n    if os.fork() == 0:\n"
                             "        time.sleep(0.2); block = bytearray(256 << 20); "
                             f"{FILL}; time.sleep(1)\n    os._exit(0)\ntime.sleep(2)",
}


@needs_cgroup
@pytest.mark.parametrize("where", sorted(HOLDERS))
def test_the_peak_counts_memory_wherever_the_run_keeps_it(tmp_path, where):
    """Shared pages, a memfd mapped twice, a tmpfs file, a grandchild re-parented away: the kernel's charge."""
    result = run_py(tmp_path, "import os\n" + HOLDERS[where], limits=LIMITS)
    assert result.returncode == 0, result.output
    assert result.peak_memory_bytes >= 240 * MiB, (where, result.peak_memory_bytes / MiB)


@needs_cgroup
def test_cpu_time_counts_every_process_of_the_run(tmp_path):
    """A grandchild re-parented to the run's PID 1, spinning after its parent is gone, still counts."""
    code = """
        import os, time
        if os.fork() == 0:
            if os.fork() == 0:
                end = time.process_time() + 1.0
                while time.process_time() < end:
                    pass
            os._exit(0)
        time.sleep(1.6)
    """
    result = run_py(tmp_path, code, limits=LIMITS)
    assert result.returncode == 0, result.output
    assert result.cpu_s >= 0.9, result.cpu_s


@needs_cgroup
def test_a_run_gets_its_cpu_share_however_many_processes_it_starts(tmp_path):
    """Eight spinning processes for 2 s of wall clock: at most one CPU's worth (cpus=1), not the machine."""
    code = """
        import os, time
        for _ in range(7):
            if os.fork() == 0:
                break
        end = time.monotonic() + 2.0
        while time.monotonic() < end:
            pass
    """
    result = run_py(tmp_path, code, limits=LIMITS)
    assert result.returncode == 0, result.output
    assert result.cpu_s < 1.35 * result.wall_s, (result.cpu_s, result.wall_s, os.cpu_count())


@needs_cgroup
def test_the_cpu_time_limit_counts_the_whole_run(tmp_path):
    """Four processes of 0.5 s each stay under a 3 s limit alone; spinning on, together they pass it."""
    code = """
        import os
        for _ in range(3):
            if os.fork() == 0:
                break
        while True:
            pass
    """
    limits = RunLimits(wall_s=30, memory_mb=512, max_procs=32, tmp_mb=16, cpu_time_s=1.5)
    result = run_py(tmp_path, code, limits=limits)
    assert result.cpu_exceeded and result.returncode is None
    assert 1.5 <= result.cpu_s < 10, result.cpu_s
    assert result.wall_s < 20, result.wall_s


def test_a_cgroup_that_does_not_count_cpu_time_is_not_used(tmp_path, monkeypatch, caplog):
    """A v1 host without the cpuacct hierarchy: a run's CPU time would read 0 s, so no cost verdict or CPU-time limit
    could hold; per-run cgroups are then not used (a warning says so) rather than trusted."""
    v1_dirs = [tmp_path / "memory", tmp_path / "pids"]
    for d in v1_dirs:
        d.mkdir()
    assert not cgroup.Cgroup("cgroup-v1", v1_dirs).accounts_cpu()
    (tmp_path / "cpuacct").mkdir()
    (tmp_path / "cpuacct" / "cpuacct.usage").write_text("0\n")
    assert cgroup.Cgroup("cgroup-v1", [*v1_dirs, tmp_path / "cpuacct"]).accounts_cpu()

    monkeypatch.setattr(cgroup.os, "geteuid", lambda: 0)
    monkeypatch.setattr(cgroup, "_CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(cgroup, "_sweep_stale", lambda: None)
    monkeypatch.setattr(cgroup.Cgroup, "remove", lambda self: None)
    made = {}
    monkeypatch.setattr(cgroup.Cgroup, "create", classmethod(lambda cls, **kw: made["group"]))
    try:
        made["group"] = cgroup.Cgroup("cgroup-v1", v1_dirs)
        cgroup.cgroup_kind.cache_clear()
        assert cgroup.cgroup_kind() == ""
        assert "do not count CPU time" in caplog.text
        made["group"] = cgroup.Cgroup("cgroup-v1", [*v1_dirs, tmp_path / "cpuacct"])
        cgroup.cgroup_kind.cache_clear()
        assert cgroup.cgroup_kind() == "cgroup-v1"
    finally:
        cgroup.cgroup_kind.cache_clear()
