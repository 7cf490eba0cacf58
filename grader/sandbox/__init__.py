"""Run one untrusted command with isolation and limits.

The official mode (Linux, root, bubblewrap): the command runs under `bwrap` with
fresh PID, network, IPC, UTS and cgroup namespaces, sees only /usr, /etc, the
grading venv, its base Python, a tmpfs /tmp and the mounts it is given, and runs
as uid 65534 with no capabilities (`setpriv`). A per-run cgroup (v1 hybrid or v2)
limits memory and processes and is swept after the run, so nothing outlives it.

The fallback (`unsandboxed=True`, or no bwrap/root): a plain subprocess in its own
session with rlimits, a wall clock and `killpg`. Reports from it must say so; the
`isolation` tag ("rlimit", "unsandboxed") is there for that.

Facts behind the choices: /work/shared/research/sandbox-facts.md.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import tarfile
import threading
from pathlib import Path

from grader.sandbox import plan, quiet, seccomp, warm
from grader.sandbox.bwrap import (
    bwrap_argv,
    check_mounts,
    detect_isolation,
    host_path,
    sandbox_available,
    sandbox_python,
)
from grader.sandbox.cgroup import Cgroup, cgroup_kind
from grader.sandbox.records import (
    SANDBOX_UID,
    Mount,
    RunLimits,
    RunResult,
    SandboxError,
)
from grader.sandbox.scratch import scratch_dir, sweep_stale
from grader.sandbox.supervise import Pipes, preexec, supervise

CHANNEL_ENV = "LRKIT_CHANNEL_FD"

__all__ = ["CHANNEL_ENV", "SANDBOX_UID", "inside_script", "Mount", "RunLimits", "RunResult", "SandboxError",
           "detect_isolation", "run", "sandbox_available", "sandbox_python", "scratch_dir", "sweep_stale"]


def run(argv: list[str], *, mounts: list[Mount], cwd: str, env: dict[str, str], limits: RunLimits,
        unsandboxed: bool = False, stdin: bytes | None = None,
        channel: bool = False, cancel: threading.Event | None = None, alone: bool = False) -> RunResult:
    """Run `argv` (in-sandbox paths) under `limits`; always returns, leaving no process behind.

    ``stdin``: bytes written to the command's standard input. ``channel``: give the command a
    pipe of its own to answer on (its fd number is in ``$LRKIT_CHANNEL_FD``); what it sends,
    at most ``limits.max_channel_bytes``, comes back as ``RunResult.channel``, and its growth
    is the progress that ``limits.idle_s`` watches. ``cancel``: an event that stops the run when set.
    ``alone``: a run measured for everyone after (the model's cost runs): it starts once no other run of this
    process runs, and none starts until it has ended (`quiet`); the wait is not the run's time."""
    with quiet.alone() if alone else quiet.shared():
        try:
            return _run(argv, mounts=mounts, cwd=cwd, env=env, limits=limits,
                        unsandboxed=unsandboxed, stdin=stdin, channel=channel, cancel=cancel)
        except warm.WarmStartFailed as exc:  # this run starts cold; the template is replaced (warm.spawn_failed)
            warm.spawn_failed(exc)
            return _run(argv, mounts=mounts, cwd=cwd, env=env, limits=limits,
                        unsandboxed=unsandboxed, stdin=stdin, channel=channel, cancel=cancel)


def _run(argv: list[str], *, mounts: list[Mount], cwd: str, env: dict[str, str], limits: RunLimits,
         unsandboxed: bool, stdin: bytes | None, channel: bool,
         cancel: threading.Event | None) -> RunResult:
    if not argv:
        raise SandboxError("argv is empty")
    check_mounts(mounts, cwd)
    with Pipes() as pipes:
        chan_r, chan_w = pipes.pipe() if channel else (None, None)
        extra_env = {CHANNEL_ENV: str(chan_w)} if channel else {}
        if unsandboxed or not sandbox_available():
            return _run_unsandboxed(argv, mounts=mounts, cwd=cwd, env={**env, **extra_env}, limits=limits,
                                    stdin=stdin, pipes=pipes, channel=(chan_r, chan_w),
                                    cancel=cancel)
        for m in mounts:
            if not m.writable and not os.stat(m.host).st_mode & 0o005:
                raise SandboxError(f"read-only mount {m.host} is not readable by the sandbox user; chmod o+rX it")
        seeds, feeds = {}, []
        for m in mounts:
            if m.writable:
                r, w = pipes.pipe()
                seeds[m.target] = r
                feeds.append((w, functools.partial(_tar_tree, Path(m.host))))
        seccomp_fd = None
        if seccomp.supported():
            seccomp_fd, w = pipes.pipe()
            os.write(w, seccomp.filter_bytes(sockets=limits.sockets, nest=limits.nest))  # far below a pipe's buffer
            pipes.close(w)
        group = _group(limits)
        full = bwrap_argv(mounts, cwd, plan.environment({**env, **extra_env}), limits.tmp_mb,
                          disk_mb=limits.max_disk_mb, seeds=seeds, seccomp_fd=seccomp_fd) + list(argv)
        child_fds = tuple(fd for fd in (*seeds.values(), seccomp_fd, chan_w) if fd is not None)
        spawn = warm.spawner(argv, mounts=mounts, cwd=cwd, env={**env, **extra_env}, limits=limits,
                             procs_files=group.procs_files() if group else [], seeds=seeds,
                             keep_fds={chan_w: chan_w} if channel else {})
        try:
            result = supervise(full, env={}, host_cwd=None, limits=limits,
                                preexec=preexec(limits, False, group.procs_files() if group else []), group=group,
                                pipes=pipes, pass_fds=child_fds, feeds=feeds, stdin=stdin, channel_fd=chan_r,
                                cancel=cancel, spawn=spawn)
        finally:
            if group is not None:
                group.remove()
    return dataclasses.replace(result, isolation=warm.isolation() if spawn else detect_isolation())


def _tar_tree(root: Path, fh) -> None:
    """Stream ``root`` as a tar archive (regular files and folders only; no owners) into ``fh``."""
    def anonymous(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        if not (info.isfile() or info.isdir()):
            return None
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    with tarfile.open(fileobj=fh, mode="w|", format=tarfile.PAX_FORMAT) as tar:
        for path in sorted(root.rglob("*")):
            tar.add(path, arcname=path.relative_to(root).as_posix(), recursive=False, filter=anonymous)


def _run_unsandboxed(argv: list[str], *, mounts: list[Mount], cwd: str, env: dict[str, str], limits: RunLimits,
                     stdin: bytes | None, pipes: Pipes,
                     channel: tuple[int | None, int | None], cancel: threading.Event | None) -> RunResult:
    with scratch_dir("tmp") as tmp:
        mapping = sorted([(m.target, str(m.host)) for m in mounts] + [("/tmp", str(tmp))],
                         key=lambda pair: -len(pair[0]))
        host_argv = [host_path(a, mapping) for a in argv]
        host_env = {k: host_path(v, mapping) for k, v in plan.environment(env).items()}
        host_env["TMPDIR"] = str(tmp)
        host_cwd = host_path(cwd, mapping)
        if not Path(host_cwd).is_dir():
            raise SandboxError(f"cwd {cwd} is not a mounted directory")
        nproc = os.geteuid() != 0
        chan_r, chan_w = channel
        group = _group(limits)  # (as root: the run's CPU share and the kernel's measure of it, as sandboxed)
        try:
            result = supervise(host_argv, env=host_env, host_cwd=host_cwd, limits=limits,
                                preexec=preexec(limits, nproc, group.procs_files() if group else []), group=group,
                                watch=[Path(m.host) for m in mounts if m.writable] + [Path(tmp)],
                                pipes=pipes, pass_fds=(chan_w,) if chan_w is not None else (), stdin=stdin,
                                channel_fd=chan_r, cancel=cancel)
        finally:
            if group is not None:
                group.remove()
    return dataclasses.replace(result, isolation=("rlimit", "unsandboxed"))


def _group(limits: RunLimits) -> Cgroup | None:
    """The run's own cgroup (memory, processes, its CPU share), where this machine has them."""
    if not cgroup_kind():
        return None
    return Cgroup.create(memory_mb=limits.memory_mb, max_procs=limits.max_procs, cpus=limits.cpus)


def inside_script(name: str) -> Path:
    """Host path of a script from `grader/sandbox/inside/` (copied into a run's harness)."""
    return Path(__file__).with_name("inside") / name
