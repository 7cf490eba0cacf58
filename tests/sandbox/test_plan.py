"""One plan, two renderings: the bubblewrap argv (a cold start) and the warm template's spec describe
the same sandbox — mounts in the same order, the same environment, rlimits and seed filter."""
from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from grader.sandbox import bwrap, plan, warm
from grader.sandbox.records import Mount, RunLimits, SandboxError
from grader.sandbox.supervise import rlimits_setter


def _steps_of_argv(argv: list[str]) -> list[dict]:
    """The mounts an argv asks bubblewrap for, in the warm spec's form (folders it only creates left out)."""
    steps, i, perms, size = [], 0, 0, 0
    while i < len(argv):
        flag = argv[i]
        if flag == "--proc":  # /proc, /dev and what is bound in them are set up apart (test_warm compares them)
            break
        if flag == "--perms":
            perms, i = int(argv[i + 1], 8), i + 2
            continue
        if flag == "--size":
            size, i = int(argv[i + 1]), i + 2
            continue
        if flag in ("--ro-bind", "--bind", "--symlink"):
            kind = {"--ro-bind": "ro", "--bind": "rw", "--symlink": "symlink"}[flag]
            steps.append({"kind": kind, "src": argv[i + 1], "dst": argv[i + 2]})
            i += 3
        elif flag == "--tmpfs":
            steps.append({"kind": "tmpfs", "dst": argv[i + 1], "mode": perms, "size": size})
            i += 2
        else:
            i += 1
        if flag in ("--dir", "--tmpfs", "--ro-bind", "--bind"):
            perms = size = 0
    return steps


@pytest.mark.parametrize("seeded", [False, True])
def test_the_argv_and_the_warm_spec_mount_the_same_things_in_the_same_order(tmp_path, seeded):
    (tmp_path / "sub").mkdir()
    (tmp_path / "harness").mkdir()
    mounts = [Mount(tmp_path / "harness", "/harness"), Mount(tmp_path / "sub", "/submission", writable=True)]
    seeds = {"/submission": 9} if seeded else None
    argv = bwrap.bwrap_argv(mounts, "/submission", {}, 64, disk_mb=128, seeds=seeds)
    spec = warm.run_spec(["-c", "pass"], mounts=mounts, cwd="/submission", env={}, limits=RunLimits(tmp_mb=64,
                         max_disk_mb=128), procs=[], seeds=seeds or {}, fds={}, rlimits=[])
    assert _steps_of_argv(argv) == spec["plan"]
    kinds = [s["kind"] for s in spec["plan"] if s["dst"] == "/submission"]
    assert kinds == (["tmpfs"] if seeded else ["rw"])


def test_both_paths_take_environment_rlimits_and_seed_filter_from_the_plan():
    limits = RunLimits(cpu_s=7, max_file_mb=3)
    spec = warm.run_spec(["-c", "pass"], mounts=[], cwd="/", env=plan.environment({"X": "1"}), limits=limits,
                         procs=[], seeds={}, fds={}, rlimits=[list(r) for r in plan.rlimits(limits)])
    assert spec["env"]["X"] == "1" and spec["env"]["HOME"] == "/tmp"
    assert spec["seed_filter"] == plan.SEED_TAR_FILTER and f"filter={plan.SEED_TAR_FILTER!r}" in bwrap._SEED
    assert ["RLIMIT_CPU", 7, 12] in spec["rlimits"] and ["RLIMIT_FSIZE", 3 << 20, 3 << 20] in spec["rlimits"]
    argv = bwrap.bwrap_argv([], "/", plan.environment({"X": "1"}), 16)
    pairs = {argv[i + 1]: argv[i + 2] for i, a in enumerate(argv) if a == "--setenv"}
    assert pairs == spec["env"]


def test_the_cold_path_applies_exactly_the_plans_rlimits():
    """The cold path's preexec sets what `plan.rlimits` lists (read back in a child it was applied in)."""
    limits = RunLimits(cpu_s=40, max_file_mb=5)
    code = ("import resource\nfor n in ('RLIMIT_FSIZE','RLIMIT_CORE','RLIMIT_NOFILE','RLIMIT_CPU'):\n"
            "    print(n, *resource.getrlimit(getattr(resource, n)))\n")
    out = subprocess.run([sys.executable, "-c", code], preexec_fn=rlimits_setter(limits, False),
                         capture_output=True, text=True, check=True).stdout
    got = {line.split()[0]: (int(line.split()[1]), int(line.split()[2])) for line in out.splitlines()}
    assert got == {name: (soft, hard) for name, soft, hard in plan.rlimits(limits)}
    assert resource.getrlimit(resource.RLIMIT_FSIZE) != (5 << 20, 5 << 20)  # the grader's own limits untouched


def test_a_mount_over_a_system_folder_is_refused_by_the_plan(tmp_path):
    with pytest.raises(SandboxError, match="would shadow a system directory"):
        plan.mounts([Mount(Path(tmp_path), "/usr/local/x")], 16, 16, False)
