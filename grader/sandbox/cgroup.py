"""Per-run cgroups (v1 hybrid or v2): memory and process limits, peak memory, the final sweep."""
from __future__ import annotations

import logging
import os
import secrets
import signal
import time
from functools import lru_cache
from pathlib import Path

log = logging.getLogger(__name__)

_CGROUP_ROOT = Path("/sys/fs/cgroup")
CPU_PERIOD_US = 100_000


def _own_cgroup(controller: str) -> str:
    """This process's path in a v1 hierarchy (`controller`) or in v2 (`controller=''`)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        if (controller and controller in names.split(",")) or (not controller and names == ""):
            return path.lstrip("/")
    raise OSError(f"no {controller or 'v2'} cgroup for this process")


class Cgroup:
    """One per-run cgroup (a directory per v1 controller, or one v2 directory)."""

    def __init__(self, kind: str, dirs: list[Path]):
        self.kind = kind
        self.dirs = dirs

    @classmethod
    def create(cls, *, memory_mb: int, max_procs: int, cpus: float = 1.0) -> Cgroup:
        """A fresh group: memory (swap included) and process limits, and a CPU share of ``cpus`` CPUs at most
        (a quota per period) with the default weight, so that no run takes more than its share of the machine
        however many processes it starts, and its CPU time is accounted (dead processes included)."""
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
                if (path / "cpu.max").exists():  # (only where the cpu controller is delegated here)
                    (path / "cpu.max").write_text(f"{int(cpus * CPU_PERIOD_US)} {CPU_PERIOD_US}")
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
            group._add_cpu(name, cpus)
            (mem / "memory.limit_in_bytes").write_text(str(memory))
            if (mem / "memory.memsw.limit_in_bytes").exists():
                (mem / "memory.memsw.limit_in_bytes").write_text(str(memory))
            (pids / "pids.max").write_text(str(max_procs))
        except OSError:
            group.remove()
            raise
        return group

    def _add_cpu(self, name: str, cpus: float) -> None:
        """v1: the cpu group (quota and weight) and the cpuacct group (CPU time), each where it is mounted; one
        directory when the two share a hierarchy ("cpu,cpuacct"). Optional: skipped where not there."""
        for controller in ("cpu", "cpuacct"):
            try:
                path = _CGROUP_ROOT / controller / _own_cgroup(controller) / name
                if any(d.resolve() == path.resolve() for d in self.dirs if d.exists()):
                    continue
                path.mkdir()
            except OSError:
                continue
            self.dirs.append(path)
            try:
                if (path / "cpu.cfs_quota_us").exists():
                    (path / "cpu.cfs_period_us").write_text(str(CPU_PERIOD_US))
                    (path / "cpu.cfs_quota_us").write_text(str(int(cpus * CPU_PERIOD_US)))
                    (path / "cpu.shares").write_text("1024")
            except OSError as exc:
                log.info("no CPU share for %s: %s", path, exc)

    def _file(self, name: str) -> Path | None:
        """The group's control file ``name``, in whichever of its directories has it."""
        return next((d / name for d in self.dirs if (d / name).exists()), None)

    def cpu_s(self) -> float:
        """CPU time (user+sys) used by every process that ran in the group, dead ones included."""
        try:
            if self.kind == "cgroup-v2":
                stat = dict(line.split() for line in (self.dirs[0] / "cpu.stat").read_text().splitlines())
                return round(int(stat["usage_usec"]) / 1e6, 3)
            usage = self._file("cpuacct.usage")
            return round(int(usage.read_text()) / 1e9, 3) if usage else 0.0
        except (OSError, ValueError, KeyError):
            return 0.0

    def accounts_cpu(self) -> bool:
        """Whether the kernel counts the group's CPU time (v2's cpu.stat; v1's cpuacct, which may not be mounted)."""
        if self.kind == "cgroup-v2":
            return (self.dirs[0] / "cpu.stat").exists()
        return self._file("cpuacct.usage") is not None

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

    def peak_bytes(self) -> int:
        """The most memory the kernel charged to the group at once: anonymous pages, page cache, shmem, memfd
        and tmpfs pages, page tables; whichever of its processes touched them, dead ones included."""
        name = "memory.peak" if self.kind == "cgroup-v2" else "memory.max_usage_in_bytes"
        try:
            return int((self.dirs[0] / name).read_text())
        except (OSError, ValueError):
            return 0

    def peak_memory_mb(self) -> float:
        return round(self.peak_bytes() / 2**20, 1)

    def kill_all(self, timeout_s: float = 10.0) -> None:
        """SIGKILL every process in the group until it is empty (new forks included)."""
        deadline, pause = time.monotonic() + timeout_s, 0.002
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
            time.sleep(pause)  # a killed process leaves the group within milliseconds: look again soon
            pause = min(2 * pause, 0.05)
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


def _sweep_stale() -> None:
    """Remove the per-run cgroups of graders that are gone (killed before their `remove`)."""
    parents = [_CGROUP_ROOT / _own_cgroup("")] if (_CGROUP_ROOT / "cgroup.controllers").exists() else \
        [_CGROUP_ROOT / c / _own_cgroup(c) for c in ("memory", "pids", "cpu", "cpuacct") if (_CGROUP_ROOT / c).is_dir()]
    for parent in parents:
        for path in parent.glob("lrkit-*-*"):
            try:
                os.kill(int(path.name.split("-")[1]), 0)
                continue  # its grader is alive
            except ProcessLookupError:
                pass
            except (ValueError, PermissionError):
                continue
            group = Cgroup("cgroup-v2" if len(parents) == 1 else "cgroup-v1", [path])
            group.remove()
            log.info("removed the cgroup of a grader that is gone: %s", path)


@lru_cache(maxsize=1)
def cgroup_kind() -> str:
    """'cgroup-v2', 'cgroup-v1' or '' for what per-run cgroups can limit here."""
    if os.geteuid() != 0 or not _CGROUP_ROOT.is_dir():
        return ""
    try:
        _sweep_stale()
    except OSError as exc:
        log.info("could not sweep stale cgroups: %s", exc)
    try:
        group = Cgroup.create(memory_mb=64, max_procs=8)
    except OSError as exc:
        log.info("no usable cgroup: %s", exc)
        return ""
    counts_cpu = group.accounts_cpu()
    group.remove()
    if not counts_cpu:  # (a run's CPU time would read 0 s: no cost verdict, no CPU limit could hold)
        log.warning("per-run cgroups here do not count CPU time (no cpuacct hierarchy): runs are limited by rlimits "
                    "and measured by process accounting instead; mount cpuacct for the official sandbox")
        return ""
    return group.kind
