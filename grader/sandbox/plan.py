"""The one plan of a sandboxed run: its mounts, its environment and its resource limits.

Both ways a run starts read it: `bwrap.bwrap_argv` renders it as bubblewrap's argv (a cold start),
and `warm.spawner` hands the same records to the template (`inside/zygote.py`, a warm start), which
builds the same mounts itself. A rule changed here changes both; `tests/sandbox/test_plan.py`
checks that the argv and the warm spec describe the same sandbox.
"""
from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath

from grader.sandbox.records import Mount, RunLimits, SandboxError

SYSTEM_DIRS = ("/usr", "/etc", "/proc", "/dev")
# the tar filter that unpacks a seeded folder, cold (bwrap's seed script) and warm (the template)
SEED_TAR_FILTER = "data"


@dataclass(frozen=True)
class MountStep:
    """One mount, in order: ``kind`` is ro, rw (binds), tmpfs (``mode``, ``size`` in bytes) or symlink."""

    kind: str
    dst: str
    src: str = ""
    mode: int = 0
    size: int = 0

    def as_spec(self) -> dict:
        """The template's form (`inside/zygote.py` reads these keys)."""
        return {k: v for k, v in asdict(self).items() if v or k in ("kind", "dst")}


def mounts(extra: list[Mount], tmp_mb: int, disk_mb: int, seeded: bool) -> list[MountStep]:
    """/usr and /etc read-only, /tmp a tmpfs (first: the interpreter may live under /tmp in a CI clone, and a
    later tmpfs would hide it), the interpreter and venv read-only at their own paths, then ``extra``: a
    writable one becomes a tmpfs of ``disk_mb`` when ``seeded`` (its files arrive as a tar), else a bind."""
    steps = [MountStep("ro", "/usr", "/usr")]
    steps += [MountStep("symlink", f"/{d}", f"usr/{d}") for d in ("lib", "lib64", "bin", "sbin")]
    steps += [MountStep("ro", "/etc", "/etc"), MountStep("tmpfs", "/tmp", mode=0o1777, size=tmp_mb << 20)]
    binds = [(sys.base_prefix, sys.base_prefix, False), (sys.prefix, sys.prefix, False)]
    for host, target, writable in binds + [(str(m.host), m.target, m.writable) for m in extra]:
        if any(str(PurePosixPath(target)).startswith(p) for p in SYSTEM_DIRS):
            raise SandboxError(f"mount target {target} would shadow a system directory")
        if writable and seeded:  # a size-limited filesystem: unlinked open files still count, nothing reaches the host
            steps.append(MountStep("tmpfs", target, mode=0o777, size=disk_mb << 20))
        else:
            steps.append(MountStep("rw" if writable else "ro", target, host))
    return steps


def environment(env: dict[str, str]) -> dict[str, str]:
    """The run's environment: these defaults, then ``env`` over them."""
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
        # torch.compile returns the function as it is (eager): compiling takes ~15 s of CPU and a cache the runs'
        # 4 MiB /tmp cannot hold, and its first use replaces torch.nn.Module.__init__, which the checks' guard takes
        # for tampering (blind attacks26 and attacks27: a correct step under @torch.compile lost 17 items)
        "TORCHDYNAMO_DISABLE": "1",
    }
    return {**defaults, **env}


def rlimits(limits: RunLimits, nproc: bool = False) -> list[tuple[str, int, int]]:
    """(resource name, soft, hard) for every rlimit a run gets (RLIMIT_NPROC only where ``nproc``: without a
    PID namespace it would count the grader's own processes)."""
    fsize = limits.max_file_mb << 20
    out = [("RLIMIT_FSIZE", fsize, fsize), ("RLIMIT_CORE", 0, 0), ("RLIMIT_NOFILE", 1024, 1024)]
    if limits.cpu_s is not None:
        out.append(("RLIMIT_CPU", limits.cpu_s, limits.cpu_s + 5))
    if nproc:
        out.append(("RLIMIT_NPROC", limits.max_procs, limits.max_procs))
    return out
