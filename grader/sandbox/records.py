"""The sandbox's typed records: limits, mounts, what a run did."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.errors import LrkitError

SANDBOX_UID = 65534  # nobody: a real uid, so root's 0700 home gives EACCES


class SandboxError(LrkitError, RuntimeError):
    """The sandbox was misused or could not be set up (never raised for what the command does)."""


@dataclass(frozen=True)
class RunLimits:
    """Per-command limits. Memory is a cgroup limit, never RLIMIT_AS (it breaks `import torch`)."""

    wall_s: float = 120.0
    idle_s: float | None = None  # kill if the channel has not grown for this long
    memory_mb: int = 4096
    max_procs: int = 128  # cgroup pids.max; RLIMIT_NPROC only when unsandboxed and not root
    max_output_bytes: int = 1_000_000  # stdout+stderr kept; the rest is drained and dropped
    max_file_mb: int = 256  # RLIMIT_FSIZE (one file)
    max_disk_mb: int = 512  # sandboxed: the size of each writable mount's tmpfs; unsandboxed: a polled quota
    tmp_mb: int = 256  # size of the tmpfs /tmp
    max_channel_bytes: int = 64 * 1024 * 1024  # what the command may send back on its channel, at most
    cpu_s: int | None = None  # RLIMIT_CPU (each process)
    cpus: float = 1.0  # the run's CPU share: at most this many CPUs (cgroup cpu.max / cfs quota), equal weight
    cpu_time_s: float | None = None  # the whole run's CPU time (every process, cgroup-measured): killed past it
    sockets: bool = True  # False: socket() and socketpair() fail with EPERM (seccomp; a cost run's rule)
    nest: bool = False  # True: the driver may give each student process namespaces of its own (`inside/apart.py`)


@dataclass(frozen=True)
class Mount:
    """A host path made visible at `target` inside the sandbox.

    Read-only mounts are bind mounts. A writable mount is, in the sandbox, a private copy:
    a tmpfs of `RunLimits.max_disk_mb` at `target` that the host folder is copied into
    before the command starts; nothing written there reaches the host. (Unsandboxed, it
    is the host folder itself, under a polled quota.)"""

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
    disk_exceeded: bool = False  # killed: the writable mounts held more than max_disk_mb (unsandboxed)
    peak_memory_mb: float = 0.0  # the cgroup's peak memory use (0 when no cgroup)
    channel: bytes = b""  # what the command wrote to its channel (fd $LRKIT_CHANNEL_FD), capped
    channel_overflow: bool = False  # killed: it tried to send more than max_channel_bytes
    cancelled: bool = False  # killed because the caller's `cancel` event was set
    cpu_s: float = 0.0  # CPU time (user+sys) of the whole run: the cgroup's, else wait4's (reaped processes)
    cpu_exceeded: bool = False  # killed: the run used more than limits.cpu_time_s of CPU time
    peak_memory_bytes: int = 0  # the kernel's charge at its peak (cgroup; unsandboxed: the largest process's RSS)
