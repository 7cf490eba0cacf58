"""Supervise one process tree: bounded output, wall clock, idle and disk watch, the final kill."""
from __future__ import annotations

import logging
import os
import resource
import select
import selectors
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox import plan
from grader.sandbox.cgroup import Cgroup
from grader.sandbox.records import RunLimits, RunResult, SandboxError

log = logging.getLogger(__name__)

_POLL_S = 0.05
_DISK_POLL_S = 0.5  # the longest gap between two walks of the writable mounts
_DISK_MAX_ENTRIES = 20_000  # a walk that meets more entries than this counts as over quota


class _OutputReader(threading.Thread):
    """Drain one pipe into a bounded buffer; never blocks the writer, stops when told."""

    def __init__(self, fd: int, cap: int):
        super().__init__(daemon=True)
        self.fd, self.cap = fd, cap
        self.chunks: list[bytes] = []
        self.kept = 0
        self.received = 0  # every byte read, kept or not (the channel's progress)
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
                self.received += len(data)
                room = self.cap - self.kept
                if len(data) > room:
                    self.truncated = True
                    data = data[:max(room, 0)]
                if data:
                    self.chunks.append(data)
                    self.kept += len(data)

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", errors="replace")

    def data(self) -> bytes:
        return b"".join(self.chunks)


class Pipes:
    """The pipes of one run; each end closed once, by whoever is done with it first."""

    def __init__(self) -> None:
        self.open: set[int] = set()
        self.lock = threading.Lock()

    def pipe(self) -> tuple[int, int]:
        r, w = os.pipe()
        self.open.update((r, w))
        return r, w

    def release(self, fd: int) -> int:
        """Hand ``fd`` over to something that closes it itself (e.g. a file object)."""
        with self.lock:
            self.open.discard(fd)
        return fd

    def close(self, *fds: int | None) -> None:
        for fd in fds:
            with self.lock:
                if fd not in self.open:
                    continue
                self.open.discard(fd)
            os.close(fd)

    def __enter__(self) -> Pipes:
        return self

    def __exit__(self, *exc) -> None:
        self.close(*list(self.open))


def _feed(fd: int, write) -> threading.Thread:
    """Run ``write(file)`` into the pipe ``fd`` in a thread; a child that stops reading only ends it."""
    def run() -> None:
        try:
            with os.fdopen(fd, "wb") as fh:
                write(fh)
        except (BrokenPipeError, OSError, ValueError) as exc:
            log.debug("feeding the sandbox stopped: %s", exc)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def rlimits_setter(limits: RunLimits, nproc: bool):
    """A function that applies the plan's rlimits to the calling process (a preexec_fn)."""
    planned = [(getattr(resource, name), soft, hard) for name, soft, hard in plan.rlimits(limits, nproc)]

    def apply() -> None:
        for which, soft, hard in planned:
            resource.setrlimit(which, (soft, hard))
    return apply


def preexec(limits: RunLimits, nproc: bool, procs_files: list[str]):
    set_limits = rlimits_setter(limits, nproc)

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


def disk_usage(roots: list[Path], limit_bytes: int, max_entries: int = _DISK_MAX_ENTRIES) -> int | None:
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


@dataclass
class _Stop:
    """Why the watch loop stopped a run (all False: it ended by itself)."""

    timed_out: bool = False
    idle: bool = False
    disk: bool = False
    overflow: bool = False
    cancelled: bool = False
    cpu: bool = False  # past limits.cpu_time_s

    def killed(self) -> bool:
        return self.timed_out or self.idle or self.disk or self.overflow or self.cancelled or self.cpu


class _Reaper:
    """How a started command ended, read from outside it: a warm run's monitor says (its cgroup measures it);
    a Popen is reaped with wait4, whose resource use covers the process and every child it waited for (CPU
    time, the largest resident set): the measure of a run that has no cgroup."""

    def __init__(self, proc) -> None:
        self.proc, self.usage = proc, None
        self.popen = isinstance(proc, subprocess.Popen)
        try:
            self.pidfd = os.pidfd_open(proc.pid) if self.popen else None
        except OSError:  # (no pidfd: polled instead)
            self.pidfd = None

    def poll(self) -> int | None:
        if not self.popen or self.proc.returncode is not None:
            return self.proc.poll()
        try:
            pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
        except ChildProcessError:
            return self.proc.poll()
        if pid:
            self.proc.returncode, self.usage = os.waitstatus_to_exitcode(status), usage
        return self.proc.returncode

    def wait(self, timeout: float) -> int | None:
        """The exit code once it ended, or None after ``timeout`` (returns as soon as it ends)."""
        if not self.popen:
            try:
                return self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                return None
        if self.poll() is None:
            if self.pidfd is not None:
                select.select([self.pidfd], [], [], timeout)
            else:
                time.sleep(min(timeout, 0.01))
        return self.poll()

    def close(self) -> None:
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None

    def cpu_s(self) -> float:
        return round(self.usage.ru_utime + self.usage.ru_stime, 3) if self.usage else 0.0

    def peak_bytes(self) -> int:
        return self.usage.ru_maxrss * 1024 if self.usage else 0


def supervise(argv: list[str], *, env: dict[str, str], host_cwd: str | None, limits: RunLimits,
              preexec, group: Cgroup | None, watch: list[Path] | None = None, pipes: Pipes | None = None,
              pass_fds: tuple[int, ...] = (), feeds: list[tuple[int, object]] = (), stdin: bytes | None = None,
              channel_fd: int | None = None, cancel: threading.Event | None = None, spawn=None) -> RunResult:
    """Run argv to the end or to a limit. ``pass_fds`` are the child's ends of ``pipes`` (closed
    here once it started); ``feeds`` pairs our write end of a pipe with a writer; ``stdin`` is
    written to the command's stdin; ``channel_fd`` is our read end of the command's channel.
    ``spawn(wants_stdin, out_fd)``, when given, starts the command instead of `subprocess.Popen`
    (a warm start, `warm.spawner`) and returns an object with Popen's pid/poll/wait/stdin.
    The result's ``isolation`` is left for the caller to say."""
    pipes = pipes or Pipes()
    start = time.monotonic()
    read_fd, write_fd = pipes.pipe()
    proc = _start(argv, env=env, host_cwd=host_cwd, preexec=preexec, pipes=pipes, fds=(read_fd, write_fd),
                  pass_fds=pass_fds, stdin=stdin, spawn=spawn)
    for fd, writer in feeds:
        _feed(pipes.release(fd), writer)
    if stdin is not None:
        _feed(os.dup(proc.stdin.fileno()), lambda fh: fh.write(stdin))
        proc.stdin.close()
    reader = _OutputReader(read_fd, limits.max_output_bytes)
    reader.start()
    channel = _OutputReader(channel_fd, limits.max_channel_bytes) if channel_fd is not None else None
    if channel is not None:
        channel.start()
    reaper = _Reaper(proc)
    try:
        stop = _watch(reaper, limits, start, channel, watch, cancel, group)
    finally:
        _kill_tree(reaper, group)
        for r, fd in ((reader, read_fd), (channel, channel_fd)):
            if r is not None:
                _stop_reader(r, fd, pipes)
    stop.overflow = stop.overflow or bool(channel and channel.truncated)
    peak = group.peak_bytes() if group else reaper.peak_bytes()
    return RunResult(returncode=None if stop.killed() else proc.returncode, timed_out=stop.timed_out,
                     idle_timed_out=stop.idle, memory_exceeded=group.memory_exceeded() if group else False,
                     output=reader.text(), output_truncated=reader.truncated,
                     wall_s=round(time.monotonic() - start, 3), isolation=(), disk_exceeded=stop.disk,
                     peak_memory_mb=round(peak / 2**20, 1), peak_memory_bytes=peak,
                     channel=channel.data() if channel else b"", channel_overflow=stop.overflow,
                     cancelled=stop.cancelled, cpu_s=group.cpu_s() if group else reaper.cpu_s(),
                     cpu_exceeded=stop.cpu)


def _start(argv: list[str], *, env: dict[str, str], host_cwd: str | None, preexec, pipes: Pipes,
           fds: tuple[int, int], pass_fds: tuple[int, ...], stdin: bytes | None, spawn):
    """The started command (warm through ``spawn``, or a Popen); our pipe ends of it are closed on failure."""
    read_fd, write_fd = fds
    try:
        if spawn is not None:
            proc = spawn(stdin is not None, write_fd)
        else:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
                                    stdout=write_fd, stderr=write_fd, env=env, cwd=host_cwd, start_new_session=True,
                                    preexec_fn=preexec, close_fds=True, pass_fds=pass_fds)
    except SandboxError:  # (a warm start that failed: the caller starts the run cold)
        pipes.close(read_fd, write_fd, *pass_fds)
        raise
    except OSError as exc:
        pipes.close(read_fd, write_fd, *pass_fds)
        raise SandboxError(f"could not start {argv[0]}: {exc}") from exc
    pipes.close(write_fd, *pass_fds)
    return proc


def _watch(proc: _Reaper, limits: RunLimits, start: float, channel: _OutputReader | None,
           watch: list[Path] | None, cancel: threading.Event | None, group: Cgroup | None = None) -> _Stop:
    """Wait for ``proc`` to end, or stop at the first limit it passes: wall clock, CPU time (the group's,
    every process of the run), cancel, channel size, disk (the ``watch`` folders, unsandboxed), or no channel
    growth for ``limits.idle_s``."""
    stop = _Stop()
    last_size, last_growth = _progress(channel), start
    disk_limit = limits.max_disk_mb * 1024 * 1024
    next_disk_check = start + 0.1
    while proc.poll() is None:
        now = time.monotonic()
        stop.timed_out = now - start > limits.wall_s
        stop.cpu = not stop.timed_out and limits.cpu_time_s is not None and group is not None \
            and group.cpu_s() > limits.cpu_time_s
        stop.cancelled = not stop.killed() and cancel is not None and cancel.is_set()
        stop.overflow = not stop.killed() and channel is not None and channel.truncated
        if stop.killed():  # (one reason each, in this order)
            break
        if watch and now >= next_disk_check:
            used = disk_usage(watch, disk_limit)
            if used is None or used > disk_limit:
                stop.disk = True
                break
            # small trees are walked often (a fast disk fills 1 GB in half a second), big ones less
            walked = time.monotonic() - now
            next_disk_check = time.monotonic() + min(max(0.1, 20 * walked), _DISK_POLL_S)
        if limits.idle_s is not None and channel is not None:
            size = _progress(channel)
            if size > last_size:
                last_size, last_growth = size, now
            elif now - last_growth > limits.idle_s:
                stop.idle = True
                break
        proc.wait(_POLL_S)  # (returns as soon as the process ends: no poll interval added to every run)
    return stop


def _stop_reader(reader: _OutputReader, fd: int, pipes: Pipes) -> None:
    reader.stop.set()
    reader.join(timeout=5)
    if reader.is_alive():
        log.error("a sandbox reader is still busy after the process tree was killed")
        pipes.release(fd)
    else:
        pipes.close(fd)


def _progress(channel: _OutputReader | None) -> int:
    return channel.received if channel is not None else 0


def _kill_tree(proc: _Reaper, group: Cgroup | None) -> None:
    try:
        os.killpg(proc.proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if group is not None:
        group.kill_all()
    deadline = time.monotonic() + 10
    while proc.wait(max(0.0, deadline - time.monotonic())) is None:
        if time.monotonic() >= deadline:
            log.error("process %d did not exit after SIGKILL", proc.proc.pid)
            break
    proc.close()
