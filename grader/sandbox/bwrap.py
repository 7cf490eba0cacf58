"""Bubblewrap: the argv that isolates one command, and whether this machine can run it."""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path, PurePosixPath

from grader.sandbox import seccomp
from grader.sandbox.cgroup import _cgroup_kind
from grader.sandbox.records import SANDBOX_UID, Mount, SandboxError
from grader.sandbox.scratch import scratch_dir

log = logging.getLogger(__name__)


def sandbox_python() -> str:
    """The interpreter to put in argv: the venv python, bound at the same path inside."""
    return str(Path(sys.prefix) / "bin" / "python")


def sandbox_possible() -> bool:
    """The cheap half of `sandbox_available`: Linux, root, bwrap and setpriv installed (no probe)."""
    return sys.platform == "linux" and os.geteuid() == 0 and bool(shutil.which("bwrap") and shutil.which("setpriv"))


@lru_cache(maxsize=1)
def sandbox_available() -> bool:
    """True when bwrap can be run as root here (the official mode); probed once."""
    if not sandbox_possible():
        return False
    with scratch_dir("probe") as tmp:
        os.chown(tmp, SANDBOX_UID, SANDBOX_UID)
        argv = _bwrap_argv([Mount(Path(tmp), "/submission", writable=True)], "/submission", {}, 16)
        argv += [sandbox_python(), "-I", "-c", "import os; print(os.getuid())"]
        try:
            done = subprocess.run(argv, env={}, stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as exc:
            log.warning("bwrap probe failed: %s", exc)
            return False
    if done.returncode != 0 or done.stdout.strip() != str(SANDBOX_UID).encode():
        log.warning("bwrap probe failed (rc %s): %s", done.returncode, done.stderr.decode(errors="replace")[-500:])
        return False
    return True


def detect_isolation() -> tuple[str, ...]:
    """The isolation layers this machine gives to a sandboxed run."""
    if not sandbox_available():
        return ("rlimit", "unsandboxed")
    layers = ["bwrap", "uid", "netns", "pidns", "tmpfs"]
    if seccomp.supported():
        layers.append("seccomp")
    if _cgroup_kind():
        layers.append(_cgroup_kind())
    return (*layers, "rlimit")


def _sandbox_env(env: dict[str, str]) -> dict[str, str]:
    defaults = {
        "PATH": f"{Path(sys.prefix) / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "MPLBACKEND": "Agg",
        "PYTHONDONTWRITEBYTECODE": "1",
        "JUPYTER_RUNTIME_DIR": "/tmp/jrt",
        "JUPYTER_DATA_DIR": "/tmp/jupyter",
        "IPYTHONDIR": "/tmp/ipython",
        "MPLCONFIGDIR": "/tmp/matplotlib",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    return {**defaults, **env}


def _dirs_for(target: str, made: set[str]) -> list[str]:
    """`--perms 0755 --dir` for every missing ancestor of `target` (bwrap would make them 0700)."""
    out: list[str] = []
    for parent in reversed(PurePosixPath(target).parents):
        p = str(parent)
        if p == "/" or p in made or p in ("/usr", "/etc", "/tmp", "/proc", "/dev"):
            continue
        made.add(p)
        out += ["--perms", "0755", "--dir", p]
    return out


def mount_plan(mounts: list[Mount], tmp_mb: int, disk_mb: int, seeded: bool) -> list[dict]:
    """The mounts bubblewrap gets from `_bwrap_argv`, as data for a warm start (`inside/zygote.py`), in the same order."""
    out = [{"kind": "ro", "src": "/usr", "dst": "/usr"}]
    out += [{"kind": "symlink", "src": f"usr/{d}", "dst": f"/{d}"} for d in ("lib", "lib64", "bin", "sbin")]
    out += [{"kind": "ro", "src": "/etc", "dst": "/etc"},
            {"kind": "tmpfs", "dst": "/tmp", "mode": 0o1777, "size": tmp_mb * 1024 * 1024}]
    binds = [(sys.base_prefix, sys.base_prefix, False), (sys.prefix, sys.prefix, False)]
    for host, target, writable in binds + [(str(m.host), m.target, m.writable) for m in mounts]:
        if writable and seeded:
            out.append({"kind": "tmpfs", "dst": target, "mode": 0o777, "size": disk_mb * 1024 * 1024})
        else:
            out.append({"kind": "rw" if writable else "ro", "src": host, "dst": target})
    return out


def _bwrap_argv(mounts: list[Mount], cwd: str, env: dict[str, str], tmp_mb: int, *, disk_mb: int = 512,
                seeds: dict[str, int] | None = None, seccomp_fd: int | None = None) -> list[str]:
    """bwrap + setpriv argv for `mounts`; a writable mount becomes a tmpfs of `disk_mb` that the
    tar stream on fd `seeds[target]` is unpacked into (as the sandbox uid) before the command."""
    argv = ["bwrap", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup",
            "--die-with-parent", "--new-session",
            "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin", "--ro-bind", "/etc", "/etc"]
    # /tmp first: the interpreter and venv may live under /tmp (a CI clone), and a later
    # tmpfs would hide them.
    argv += ["--perms", "1777", "--size", str(tmp_mb * 1024 * 1024), "--tmpfs", "/tmp"]
    made: set[str] = {"/tmp"}
    binds = [(sys.base_prefix, sys.base_prefix, False), (sys.prefix, sys.prefix, False)]
    binds += [(str(m.host), m.target, m.writable) for m in mounts]
    for host, target, writable in binds:
        if any(str(PurePosixPath(target)).startswith(p) for p in ("/usr", "/etc", "/proc", "/dev")):
            raise SandboxError(f"mount target {target} would shadow a system directory")
        argv += _dirs_for(target, made)
        if writable and seeds is not None:
            # a size-limited filesystem: files unlinked while open still count, nothing reaches the host
            argv += ["--perms", "0777", "--size", str(disk_mb * 1024 * 1024), "--tmpfs", target]
        else:
            argv += ["--bind" if writable else "--ro-bind", host, target]
        made.add(target)
    argv += ["--proc", "/proc", "--dev", "/dev", "--chdir", cwd]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    argv += ["--", "setpriv", f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups",
             "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs"]
    if seeds:
        specs = ",".join(f"{fd}:{target}" for target, fd in seeds.items())
        argv += [sandbox_python(), "-I", "-S", "-c", _SEED, specs]
    return argv


# Runs as the sandbox uid before the command: unpack each tar stream into its tmpfs, close
# the pipe, then become the command (os.execv).
_SEED = """import os, sys, tarfile
for spec in sys.argv[1].split(","):
    fd, target = spec.split(":", 1)
    with os.fdopen(int(fd), "rb") as fh, tarfile.open(fileobj=fh, mode="r|") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(target, filter="data")
        else:
            tar.extractall(target)
os.execv(sys.argv[2], sys.argv[2:])
"""


def _check_mounts(mounts: list[Mount], cwd: str) -> None:
    targets = [m.target for m in mounts]
    for m in mounts:
        if not m.target.startswith("/") or ".." in PurePosixPath(m.target).parts:
            raise SandboxError(f"mount target must be an absolute path without '..': {m.target!r}")
        if not Path(m.host).exists():
            raise SandboxError(f"mount source does not exist: {m.host}")
    if len(set(targets)) != len(targets):
        raise SandboxError(f"two mounts share a target: {targets}")
    if not cwd.startswith("/"):
        raise SandboxError(f"cwd must be an absolute in-sandbox path: {cwd!r}")


def _host_path(value: str, mapping: list[tuple[str, str]]) -> str:
    """Rewrite an in-sandbox path (a mount target or under one) to its host path."""
    if any(value == p or value.startswith(p.rstrip("/") + "/") for p in (sys.prefix, sys.base_prefix)):
        return value  # the interpreter and venv are at the same path inside and out
    for target, host in mapping:
        if value == target or value.startswith(target.rstrip("/") + "/"):
            return host + value[len(target.rstrip("/")):]
    return value
