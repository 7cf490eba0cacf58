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

import logging
import os
import resource
import secrets
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

log = logging.getLogger(__name__)

SANDBOX_UID = 65534  # nobody: a real uid, so root's 0700 home gives EACCES
_POLL_S = 0.05
_DISK_POLL_S = 0.5  # the longest gap between two walks of the writable mounts
_DISK_MAX_ENTRIES = 20_000  # a walk that meets more entries than this counts as over quota
_CGROUP_ROOT = Path("/sys/fs/cgroup")


class SandboxError(RuntimeError):
    """The sandbox was misused or could not be set up (never raised for what the command does)."""


@dataclass(frozen=True)
class Limits:
    """Per-command limits. Memory is a cgroup limit, never RLIMIT_AS (it breaks `import torch`)."""

    wall_s: float = 120.0
    idle_s: float | None = None  # kill if progress_file has not grown for this long
    memory_mb: int = 4096
    max_procs: int = 128  # cgroup pids.max; RLIMIT_NPROC only when unsandboxed and not root
    max_output_bytes: int = 1_000_000  # stdout+stderr kept; the rest is drained and dropped
    max_file_mb: int = 256  # RLIMIT_FSIZE (one file)
    max_disk_mb: int = 512  # all files under the writable mounts together (polled, see _disk_usage)
    tmp_mb: int = 256  # size of the tmpfs /tmp
    cpu_s: int | None = None  # RLIMIT_CPU


@dataclass(frozen=True)
class Mount:
    """A host path made visible at `target` inside the sandbox."""

    host: Path
    target: str
    writable: bool = False


@dataclass(frozen=True)
class RunResult:
    """What happened. `returncode` is None when the sandbox killed the command (timeout, idle, disk quota)."""

    returncode: int | None
    timed_out: bool
    idle_timed_out: bool
    memory_exceeded: bool
    output: str
    output_truncated: bool
    wall_s: float
    isolation: tuple[str, ...]
    disk_exceeded: bool = False  # killed: the writable mounts held more than max_disk_mb
    peak_memory_mb: float = 0.0  # the cgroup's peak memory use (0 when no cgroup)


def sandbox_python() -> str:
    """The interpreter to put in argv: the venv python, bound at the same path inside."""
    return str(Path(sys.prefix) / "bin" / "python")


# ----------------------------------------------------------------------------- detection


@lru_cache(maxsize=1)
def sandbox_available() -> bool:
    """True when bwrap can be run as root here (the official mode); probed once."""
    if sys.platform != "linux" or os.geteuid() != 0:
        return False
    if not (shutil.which("bwrap") and shutil.which("setpriv")):
        return False
    with tempfile.TemporaryDirectory(prefix="lrkit-probe-") as tmp:
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


@lru_cache(maxsize=1)
def _cgroup_kind() -> str:
    """'cgroup-v2', 'cgroup-v1' or '' for what per-run cgroups can limit here."""
    if os.geteuid() != 0 or not _CGROUP_ROOT.is_dir():
        return ""
    try:
        group = _Cgroup.create(memory_mb=64, max_procs=8)
    except OSError as exc:
        log.info("no usable cgroup: %s", exc)
        return ""
    group.remove()
    return group.kind


def detect_isolation() -> tuple[str, ...]:
    """The isolation layers this machine gives to a sandboxed run."""
    if not sandbox_available():
        return ("rlimit", "unsandboxed")
    layers = ["bwrap", "uid", "netns", "pidns"]
    if _cgroup_kind():
        layers.append(_cgroup_kind())
    return (*layers, "rlimit")


# ----------------------------------------------------------------------------- cgroups


def _own_cgroup(controller: str) -> str:
    """This process's path in a v1 hierarchy (`controller`) or in v2 (`controller=''`)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        if (controller and controller in names.split(",")) or (not controller and names == ""):
            return path.lstrip("/")
    raise OSError(f"no {controller or 'v2'} cgroup for this process")


class _Cgroup:
    """One per-run cgroup (a directory per v1 controller, or one v2 directory)."""

    def __init__(self, kind: str, dirs: list[Path]):
        self.kind = kind
        self.dirs = dirs

    @classmethod
    def create(cls, *, memory_mb: int, max_procs: int) -> "_Cgroup":
        name = f"lrkit-{os.getpid()}-{secrets.token_hex(4)}"
        memory = memory_mb * 1024 * 1024
        if (_CGROUP_ROOT / "cgroup.controllers").exists():  # pure v2
            path = _CGROUP_ROOT / _own_cgroup("") / name
            path.mkdir()
            group = cls("cgroup-v2", [path])
            try:
                (path / "memory.max").write_text(str(memory))
                if (path / "memory.swap.max").exists():
                    (path / "memory.swap.max").write_text("0")
                (path / "pids.max").write_text(str(max_procs))
            except OSError:
                group.remove()
                raise
            return group
        group = cls("cgroup-v1", [])
        try:
            for controller in ("memory", "pids"):
                path = _CGROUP_ROOT / controller / _own_cgroup(controller) / name
                path.mkdir()
                group.dirs.append(path)
            mem, pids = group.dirs
            (mem / "memory.limit_in_bytes").write_text(str(memory))
            if (mem / "memory.memsw.limit_in_bytes").exists():
                (mem / "memory.memsw.limit_in_bytes").write_text(str(memory))
            (pids / "pids.max").write_text(str(max_procs))
        except OSError:
            group.remove()
            raise
        return group

    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs]

    def memory_exceeded(self) -> bool:
        mem = self.dirs[0]
        try:
            if self.kind == "cgroup-v2":
                events = dict(line.split() for line in (mem / "memory.events").read_text().splitlines())
                return int(events.get("oom_kill", 0)) > 0 or int(events.get("max", 0)) > 0
            control = dict(line.split() for line in (mem / "memory.oom_control").read_text().splitlines())
            if "oom_kill" in control:
                return int(control["oom_kill"]) > 0
            return int((mem / "memory.failcnt").read_text()) > 0
        except (OSError, ValueError):
            return False

    def peak_memory_mb(self) -> float:
        name = "memory.peak" if self.kind == "cgroup-v2" else "memory.max_usage_in_bytes"
        try:
            return round(int((self.dirs[0] / name).read_text()) / 2**20, 1)
        except (OSError, ValueError):
            return 0.0

    def kill_all(self, timeout_s: float = 10.0) -> None:
        """SIGKILL every process in the group until it is empty (new forks included)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            pids = set()
            for d in self.dirs:
                try:
                    pids.update(int(p) for p in (d / "cgroup.procs").read_text().split())
                except OSError:
                    pass
            if not pids:
                return
            if self.kind == "cgroup-v2" and (self.dirs[0] / "cgroup.kill").exists():
                (self.dirs[0] / "cgroup.kill").write_text("1")
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.02)
        log.error("cgroup %s still has processes after %.0f s", self.dirs, timeout_s)

    def remove(self) -> None:
        self.kill_all()
        for d in self.dirs:
            for _ in range(100):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
            else:
                log.error("could not remove cgroup %s", d)


# ----------------------------------------------------------------------------- argv


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


def _bwrap_argv(mounts: list[Mount], cwd: str, env: dict[str, str], tmp_mb: int) -> list[str]:
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
        argv += ["--bind" if writable else "--ro-bind", host, target]
        made.add(target)
    argv += ["--proc", "/proc", "--dev", "/dev", "--chdir", cwd]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    argv += ["--", "setpriv", f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups",
             "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs"]
    return argv


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


def _chown_tree(root: Path) -> None:
    """Give a writable mount to the sandbox uid (it cannot write root-owned files)."""
    os.lchown(root, SANDBOX_UID, SANDBOX_UID)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            os.lchown(os.path.join(dirpath, name), SANDBOX_UID, SANDBOX_UID)


def _host_path(value: str, mapping: list[tuple[str, str]]) -> str:
    """Rewrite an in-sandbox path (a mount target or under one) to its host path."""
    if any(value == p or value.startswith(p.rstrip("/") + "/") for p in (sys.prefix, sys.base_prefix)):
        return value  # the interpreter and venv are at the same path inside and out
    for target, host in mapping:
        if value == target or value.startswith(target.rstrip("/") + "/"):
            return host + value[len(target.rstrip("/")):]
    return value


# ----------------------------------------------------------------------------- running


class _OutputReader(threading.Thread):
    """Drain one pipe into a bounded buffer; never blocks the writer, stops when told."""

    def __init__(self, fd: int, cap: int):
        super().__init__(daemon=True)
        self.fd, self.cap = fd, cap
        self.chunks: list[bytes] = []
        self.kept = 0
        self.truncated = False
        self.stop = threading.Event()

    def run(self) -> None:
        with selectors.DefaultSelector() as sel:
            sel.register(self.fd, selectors.EVENT_READ)
            while True:
                if not sel.select(timeout=0.1):
                    if self.stop.is_set():
                        return
                    continue
                data = os.read(self.fd, 1 << 16)
                if not data:
                    return
                room = self.cap - self.kept
                if len(data) > room:
                    self.truncated = True
                    data = data[:max(room, 0)]
                if data:
                    self.chunks.append(data)
                    self.kept += len(data)

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", errors="replace")


def _rlimits(limits: Limits, nproc: bool):
    def apply() -> None:
        fsize = limits.max_file_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
        if limits.cpu_s is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 5))
        if nproc:
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.max_procs, limits.max_procs))
    return apply


def _preexec(limits: Limits, nproc: bool, procs_files: list[str]):
    set_limits = _rlimits(limits, nproc)

    def apply() -> None:  # runs in the child between fork and exec: os calls only
        pid = str(os.getpid()).encode()
        for name in procs_files:
            fd = os.open(name, os.O_WRONLY)
            try:
                os.write(fd, pid)
            finally:
                os.close(fd)
        set_limits()
    return apply


def run(argv: list[str], *, mounts: list[Mount], cwd: str, env: dict[str, str], limits: Limits,
        progress_file: Path | None = None, unsandboxed: bool = False) -> RunResult:
    """Run `argv` (in-sandbox paths) under `limits`; always returns, leaving no process behind."""
    if not argv:
        raise SandboxError("argv is empty")
    _check_mounts(mounts, cwd)
    if unsandboxed or not sandbox_available():
        return _run_unsandboxed(argv, mounts=mounts, cwd=cwd, env=env, limits=limits, progress_file=progress_file)
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
                            watch=[Path(m.host) for m in mounts if m.writable])
    finally:
        if group is not None:
            group.remove()
    return RunResult(**{**result, "isolation": detect_isolation()})


def _run_unsandboxed(argv: list[str], *, mounts: list[Mount], cwd: str, env: dict[str, str], limits: Limits,
                     progress_file: Path | None) -> RunResult:
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
                            watch=[Path(m.host) for m in mounts if m.writable] + [Path(tmp)])
    return RunResult(**{**result, "isolation": ("rlimit", "unsandboxed")})


def _progress_size(path: Path | None) -> int:
    try:
        return path.stat().st_size if path is not None else 0
    except OSError:
        return -1


def _disk_usage(roots: list[Path], limit_bytes: int, max_entries: int = _DISK_MAX_ENTRIES) -> int | None:
    """Bytes held by the files under ``roots`` (no symlinks followed), or None once the walk
    meets more than ``max_entries`` entries: a tree that big is itself treated as over quota.
    Stops early once ``limit_bytes`` is passed. Races with the writer (files vanishing) are ignored."""
    total, seen = 0, 0
    stack = [str(r) for r in roots]
    while stack:
        try:
            it = os.scandir(stack.pop())
        except OSError:
            continue
        with it:
            for entry in it:
                seen += 1
                if seen > max_entries:
                    return None
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif entry.is_file(follow_symlinks=False):
                        st = entry.stat(follow_symlinks=False)
                        total += max(st.st_size, st.st_blocks * 512)
                except OSError:
                    continue
                if total > limit_bytes:
                    return total
    return total


def _supervise(argv: list[str], *, env: dict[str, str], host_cwd: str | None, limits: Limits, progress_file: Path | None,
               preexec, group: _Cgroup | None, watch: list[Path] | None = None) -> dict:
    start = time.monotonic()
    read_fd, write_fd = os.pipe()
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=write_fd, stderr=write_fd, env=env,
                                cwd=host_cwd, start_new_session=True, preexec_fn=preexec, close_fds=True)
    except OSError as exc:
        os.close(read_fd)
        os.close(write_fd)
        raise SandboxError(f"could not start {argv[0]}: {exc}") from exc
    os.close(write_fd)
    reader = _OutputReader(read_fd, limits.max_output_bytes)
    reader.start()
    timed_out = idle = disk = False
    last_size, last_growth = _progress_size(progress_file), start
    disk_limit = limits.max_disk_mb * 1024 * 1024
    next_disk_check = start + 0.1
    try:
        while proc.poll() is None:
            now = time.monotonic()
            if now - start > limits.wall_s:
                timed_out = True
                break
            if watch and now >= next_disk_check:
                used = _disk_usage(watch, disk_limit)
                if used is None or used > disk_limit:
                    disk = True
                    break
                # small trees are walked often (a fast disk fills 1 GB in half a second), big ones less
                walked = time.monotonic() - now
                next_disk_check = time.monotonic() + min(max(0.1, 20 * walked), _DISK_POLL_S)
            if limits.idle_s is not None and progress_file is not None:
                size = _progress_size(progress_file)
                if size > last_size:
                    last_size, last_growth = size, now
                elif now - last_growth > limits.idle_s:
                    idle = True
                    break
            time.sleep(_POLL_S)
    finally:
        _kill_tree(proc, group)
        reader.stop.set()
        reader.join(timeout=5)
        if reader.is_alive():
            log.error("output reader still busy after the process tree was killed")
        else:
            os.close(read_fd)
    wall = time.monotonic() - start
    killed = timed_out or idle or disk
    return dict(returncode=None if killed else proc.returncode, timed_out=timed_out, idle_timed_out=idle,
                memory_exceeded=group.memory_exceeded() if group else False, output=reader.text(),
                output_truncated=reader.truncated, wall_s=round(wall, 3), disk_exceeded=disk,
                peak_memory_mb=group.peak_memory_mb() if group else 0.0)


def _kill_tree(proc: subprocess.Popen, group: _Cgroup | None) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if group is not None:
        group.kill_all()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        log.error("process %d did not exit after SIGKILL", proc.pid)
