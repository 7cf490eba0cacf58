"""Bubblewrap: the argv that isolates one command, and whether this machine can run it."""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path, PurePosixPath

from grader.sandbox import plan, seccomp
from grader.sandbox.cgroup import cgroup_kind
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
        argv = bwrap_argv([Mount(Path(tmp), "/submission", writable=True)], "/submission", {}, 16)
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
    if cgroup_kind():
        layers.append(cgroup_kind())
    return (*layers, "rlimit")


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
    """The plan's mounts as the warm template reads them (`inside/zygote.py`), in `bwrap_argv`'s order."""
    return [step.as_spec() for step in plan.mounts(mounts, tmp_mb, disk_mb, seeded)]


def bwrap_argv(mounts: list[Mount], cwd: str, env: dict[str, str], tmp_mb: int, *, disk_mb: int = 512,
               seeds: dict[str, int] | None = None, seccomp_fd: int | None = None) -> list[str]:
    """bwrap + setpriv argv for the plan of `mounts`; a writable mount becomes a tmpfs of `disk_mb` that the
    tar stream on fd `seeds[target]` is unpacked into (as the sandbox uid) before the command."""
    argv = ["bwrap", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup",
            "--die-with-parent", "--new-session"]
    made: set[str] = {"/tmp"}
    for step in plan.mounts(mounts, tmp_mb, disk_mb, seeds is not None):
        if step.kind == "symlink":
            argv += ["--symlink", step.src, step.dst]
            continue
        if step.dst not in ("/usr", "/etc", "/tmp"):
            argv += _dirs_for(step.dst, made)
            made.add(step.dst)
        if step.kind == "tmpfs":
            argv += ["--perms", f"{step.mode:04o}", "--size", str(step.size), "--tmpfs", step.dst]
        else:
            argv += ["--bind" if step.kind == "rw" else "--ro-bind", step.src, step.dst]
    # no pseudo-terminals (a pty's buffers are memory no cgroup is charged for): /dev/ptmx leads to /dev/null
    argv += ["--proc", "/proc", "--dev", "/dev", "--ro-bind", "/dev/null", "/dev/pts/ptmx", "--chdir", cwd]
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
            tar.extractall(target, filter={filter!r})
        else:
            tar.extractall(target)
os.execv(sys.argv[2], sys.argv[2:])
""".replace("{filter!r}", repr(plan.SEED_TAR_FILTER))


def check_mounts(mounts: list[Mount], cwd: str) -> None:
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


def host_path(value: str, mapping: list[tuple[str, str]]) -> str:
    """Rewrite an in-sandbox path (a mount target or under one) to its host path."""
    if any(value == p or value.startswith(p.rstrip("/") + "/") for p in (sys.prefix, sys.base_prefix)):
        return value  # the interpreter and venv are at the same path inside and out
    for target, host in mapping:
        if value == target or value.startswith(target.rstrip("/") + "/"):
            return host + value[len(target.rstrip("/")):]
    return value
