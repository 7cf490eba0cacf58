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

import os
import tempfile
from pathlib import Path

from grader.sandbox.bwrap import (
    _bwrap_argv,
    _check_mounts,
    _chown_tree,
    _host_path,
    _sandbox_env,
    detect_isolation,
    sandbox_available,
    sandbox_python,
)
from grader.sandbox.cgroup import _Cgroup, _cgroup_kind
from grader.sandbox.records import (
    SANDBOX_UID,
    Mount,
    RunLimits,
    RunResult,
    SandboxError,
)
from grader.sandbox.supervise import _disk_usage, _preexec, _rlimits, _supervise

__all__ = ["SANDBOX_UID", "inside_script", "Mount", "RunLimits", "RunResult", "SandboxError", "detect_isolation", "run",
           "sandbox_available", "sandbox_python", "_disk_usage"]


def run(argv: list[str], *, mounts: list[Mount], cwd: str, env: dict[str, str], limits: RunLimits,
        progress_file: Path | None = None, unsandboxed: bool = False, cancel=None) -> RunResult:
    """Run `argv` (in-sandbox paths) under `limits`; always returns, leaving no process behind.
    Setting the `threading.Event` `cancel` kills the run early (the result says `cancelled`)."""
    if not argv:
        raise SandboxError("argv is empty")
    _check_mounts(mounts, cwd)
    if unsandboxed or not sandbox_available():
        return _run_unsandboxed(argv, mounts=mounts, cwd=cwd, env=env, limits=limits, progress_file=progress_file,
                                cancel=cancel)
    for m in mounts:
        if m.writable:
            _chown_tree(Path(m.host))
        elif not os.stat(m.host).st_mode & 0o005:
            raise SandboxError(f"read-only mount {m.host} is not readable by the sandbox user; chmod o+rX it")
    group = _Cgroup.create(memory_mb=limits.memory_mb, max_procs=limits.max_procs) if _cgroup_kind() else None
    full = _bwrap_argv(mounts, cwd, _sandbox_env(env), limits.tmp_mb) + list(argv)
    try:
        result = _supervise(full, env={}, host_cwd=None, limits=limits, progress_file=progress_file,
                            preexec=_preexec(limits, False, group.procs_files() if group else []), group=group,
                            watch=[Path(m.host) for m in mounts if m.writable], cancel=cancel)
    finally:
        if group is not None:
            group.remove()
    return RunResult(**{**result, "isolation": detect_isolation()})


def _run_unsandboxed(argv: list[str], *, mounts: list[Mount], cwd: str, env: dict[str, str], limits: RunLimits,
                     progress_file: Path | None, cancel=None) -> RunResult:
    with tempfile.TemporaryDirectory(prefix="lrkit-tmp-") as tmp:
        mapping = sorted([(m.target, str(m.host)) for m in mounts] + [("/tmp", tmp)],
                         key=lambda pair: -len(pair[0]))
        host_argv = [_host_path(a, mapping) for a in argv]
        host_env = {k: _host_path(v, mapping) for k, v in _sandbox_env(env).items()}
        host_env["TMPDIR"] = tmp
        host_cwd = _host_path(cwd, mapping)
        if not Path(host_cwd).is_dir():
            raise SandboxError(f"cwd {cwd} is not a mounted directory")
        nproc = os.geteuid() != 0
        result = _supervise(host_argv, env=host_env, host_cwd=host_cwd, limits=limits, progress_file=progress_file,
                            preexec=_rlimits(limits, nproc), group=None,
                            watch=[Path(m.host) for m in mounts if m.writable] + [Path(tmp)], cancel=cancel)
    return RunResult(**{**result, "isolation": ("rlimit", "unsandboxed")})


def inside_script(name: str) -> Path:
    """Host path of a script from `grader/sandbox/inside/` (copied into a run's harness)."""
    return Path(__file__).with_name("inside") / name
