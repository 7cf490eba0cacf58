"""Each check's student process in namespaces of its own (`inside/apart.py`): none can tell how many came before.

Blind attacks7 switched on the process tree: a cost run's student process is always the first the driver forks
in its run, a check's process in the shared run is not (its PID counts the processes before it; its parent's
/proc stat counts the CPU time of the children it reaped; /tmp and the submission's copy hold what earlier
processes wrote; a System V semaphore counted them, until check runs could make none: `seccomp.NO_KERNEL_BUFFERS`,
so "earlier" reads -1 in every process now). Each test reads the same fingerprint from inside, in the real sandbox,
once per check, and compares."""
from __future__ import annotations

import dataclasses
import sys
import textwrap
import time
from pathlib import Path

import pytest

from grader.grading import probing
from grader.sandbox import Mount, RunLimits, channel, run, sandbox_available, sandbox_python, seccomp

pytestmark = pytest.mark.skipif(not sandbox_available(), reason="needs Linux, root and bubblewrap")

FINGERPRINT = '''
import ctypes, fcntl, gc, os, sys, time, warnings

libc = ctypes.CDLL(None, use_errno=True)


def _stack():  # the frames above the import, as warnings name them (no audit event)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        for level in range(2, 12):
            warnings.warn("where", stacklevel=level)
    return "|".join(f"{os.path.basename(w.filename)}:{w.lineno}" for w in seen)


PROBE = sys.modules["lrkit_probes"].look  # the probe the student's code can reach
REFS, CODE = sys.getrefcount(PROBE), bytes(PROBE.__code__._co_code_adaptive)
AT_IMPORT = {"modules": len(sys.modules), "gc": str(gc.get_count()), "collections": str(gc.get_stats()),
             "stack": _stack(), "stdout_flags": fcntl.fcntl(1, fcntl.F_GETFL), "blocks": sys.getallocatedblocks(),
             "address": id(object()), "rss": __import__("resource").getrusage(0).ru_maxrss}


def _pipes():  # its pipes: inheritable or not, dated within the last second (blind attacks14, attacks15), and
    import stat  # made less than two inode batches before a fresh pipe (their inode numbers; attacks15)
    import time
    found, inodes = [], []
    for fd in range(3, 64):
        try:
            st = os.fstat(fd)
        except OSError:
            continue
        if stat.S_ISFIFO(st.st_mode):
            found.append(f"{fd}:{os.get_inheritable(fd)}:{time.time() - st.st_ctime < 1.0}")
            inodes.append(st.st_ino)
    ahead = [fresh - max(inodes) for fresh in _fresh_pipe_inodes(1) if fresh > max(inodes)]
    return ",".join(found) + f",young:{bool(ahead) and min(ahead) < 2048}"


def _fresh_pipe_inodes(count):
    """The inode numbers of ``count`` fresh pipes made on each CPU (the host hands inode numbers out in batches
    of 1024 per CPU)."""
    cpus, out = os.sched_getaffinity(0), []
    try:
        for cpu in sorted(cpus):
            os.sched_setaffinity(0, {cpu})
            for _ in range(count):
                r, w = os.pipe()
                out.append(os.fstat(r).st_ino)
                os.close(r), os.close(w)
    finally:
        os.sched_setaffinity(0, cpus)
    return out


AT_IMPORT["pipes"] = _pipes()


def _namespaces():  # every namespace it can name made at once (their ids: one counter the host draws from), or
    import fcntl  # "n/a" where the kernel cannot say (before Linux 6.18: no NS_GET_ID; attacks16)
    import struct
    ids = []
    try:
        pidfd = os.pidfd_open(os.getpid())
        for kind in (1, 2, 3, 4, 5, 9, 10):  # PIDFD_GET_{CGROUP,IPC,MNT,NET,PID,USER,UTS}_NAMESPACE
            fd = fcntl.ioctl(pidfd, (0xFF << 8) | kind)
            buf = bytearray(8)
            fcntl.ioctl(fd, (2 << 30) | (8 << 16) | (0xB7 << 8) | 0x0D, buf)  # NS_GET_ID
            ids.append(struct.unpack("=Q", bytes(buf))[0])
            os.close(fd)
    except (OSError, AttributeError):
        return "n/a"
    if len({(i - 1) >> 12 for i in ids}) > 1:  # two CPUs' batches of ids: no order to read
        return "n/a"
    return f"together:{max(ids) - min(ids) < 8}"


AT_IMPORT["namespaces"] = _namespaces()


def _pipe_pages():  # the pipe buffer pages its user may still take before the per-user soft limit refuses a larger
    import fcntl  # pipe (pages every process of the user holds, the run's pipes among them: blind attacks16)
    import resource
    held, taken, sizes = [], 0, [1 << 20, 1 << 19, 1 << 18, 1 << 17]  # 256 pages a pipe, then 128, 64, 32
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        while sizes:
            r, w = os.pipe()
            held += [r, w]
            try:
                fcntl.fcntl(w, 1031, sizes[0])  # F_SETPIPE_SZ
                taken += sizes[0] // 4096 - 16  # (a pipe holds 16 pages to begin with)
            except OSError:
                sizes.pop(0)
        return taken
    finally:
        for fd in held:
            os.close(fd)


AT_IMPORT["pipe_pages"] = _pipe_pages()


def _generators():  # the global generators' state it was handed (one for every process of a run was a name for
    import hashlib  # the run: blind attacks18 keyed a mark on the host by it)
    import random

    import numpy as np
    state = np.random.get_state()
    return ",".join(hashlib.sha256(repr(s).encode()).hexdigest()[:12]
                    for s in ((state[1].tobytes(), state[2:]), random.getstate()))


AT_IMPORT["generators"] = _generators()


class Sem(ctypes.Structure):
    _fields_ = [("num", ctypes.c_ushort), ("op", ctypes.c_short), ("flags", ctypes.c_short)]


def look(action=0.0):
    """What a process can read of the run around it, then leave a trace for the next one."""
    out = {"pid": os.getpid(), "ppid": os.getppid(), "cwd": os.getcwd(), **AT_IMPORT}
    out["fds"] = ",".join(str(fd) for fd in range(64) if _open(fd))
    out["probe"] = f"{sys.getrefcount(PROBE) - REFS} {bytes(PROBE.__code__._co_code_adaptive) == CODE}"
    fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_APPEND)  # a mark on its stdout
    for name, path in (("proc", "/proc"), ("tmp", "/tmp"), ("folder", ".")):
        try:
            out[name] = ",".join(sorted(os.listdir(path)))
        except OSError as exc:
            out[name] = type(exc).__name__
    sem = libc.semget(4242, 1, 0o1600)
    out["earlier"] = libc.semctl(sem, 0, 12)  # GETVAL: how many processes came by before
    libc.semop(sem, ctypes.byref(Sem(0, 1, 0)), 1)
    out["unshare"] = libc.unshare(0x10000000 | 0x20000000 | 0x00020000 | 0x08000000)
    out["mount"] = libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, None)
    with open(f"/tmp/trace-{os.getpid()}", "w") as fh, open("trace", "w") as gh:
        fh.write("x"), gh.write("x")
    out["dated"] = ",".join(_run_dated())
    if action == 1.0:
        os._exit(3)
    if action == 3.0:
        time.sleep(1.5)
    if action == 4.0:  # the host makes inodes: five batches of pipes on every CPU
        _fresh_pipe_inodes(5000)
    if action == 2.0:
        time.sleep(60)
    return out


def _run_dated():
    """What this process can see that was made a while ago but not long ago: when its run started."""
    now, out = time.time(), []
    for top in ("/", "/dev", "/tmp", "."):
        for name in [""] + sorted(os.listdir(top)):
            path = os.path.join(top, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            dated = max(st.st_mtime, st.st_ctime)
            if 1.0 <= now - dated < 600:
                out.append(f"{path}@{dated:.3f}")
    return out


def _open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False
'''
PROBES = '''
from lrkit_harness import call


def look(action):
    import fingerprint
    return call(fingerprint.look, action)
'''


def _job(groups: list[tuple[str, float]], room: dict | None, timeout: float = 30) -> bytes:
    header = {"modules": ["fingerprint"], "submission": "/submission", "probes": PROBES, "import_timeout": 60,
              "max_result_bytes": 1 << 20, "max_restarts": 3, "room": room}
    parts = [channel.encode(header)]
    for n, (group, action) in enumerate(groups):
        parts.append(channel.encode({"id": f"case-{n}", "probe": "look", "scalars": {"action": action},
                                     "group": group, "timeout": timeout}, b""))
    parts.append(channel.encode({"end": True}))
    return b"".join(parts)


def _run(tmp_path, groups, room, timeout=30, warm="1", monkeypatch=None):
    if monkeypatch is not None:
        monkeypatch.setenv("LRKIT_WARM", warm)
    code = tmp_path / "code"
    code.mkdir(exist_ok=True)
    (code / "fingerprint.py").write_text(textwrap.dedent(FINGERPRINT))
    limits = RunLimits(wall_s=120, memory_mb=2048, **probing.CHECK_ROOM)
    result = probing._sandboxed(tmp_path, code, _job(groups, room, timeout), limits, unsandboxed=False,
                                cancel=None, modules_only=True)
    decoded, problem = channel.decode(result.channel)
    assert not problem, problem
    return [m.header for m in decoded]


# a fresh /tmp holds nothing but where the interpreter is bound again under it (a clone under /tmp: `plan.mounts`)
_TMP_AS_BEGUN = ",".join(sorted({Path(p).parts[2] for p in (sys.prefix, sys.base_prefix)
                                 if len(Path(p).parts) > 2 and Path(p).parts[1] == "tmp"}))


@pytest.mark.parametrize("warm", ["1", "0"])
def test_every_checks_process_reads_the_same_as_the_first(tmp_path, monkeypatch, warm):
    """Three checks (the first with two cases): each process is PID 1 of its own namespace with no parent to read,
    an empty /proc, a /tmp and a folder as the run began, no semaphore from before, and no way to do it again; and
    the same interpreter state (modules, collector, heap blocks, the frames above its import, its stdout's flags)
    as the first, forked from the same spawner."""
    messages = _run(tmp_path, [("a", 0.0), ("a", 0.0), ("b", 0.0), ("c", 0.0)], probing._room(False),
                    warm=warm, monkeypatch=monkeypatch)
    assert messages[0]["event"] == "import" and messages[0]["apart"] is True, messages[0]
    seen = [m["scalars"] for m in messages if m.get("event") == "case"]
    assert len(seen) == 4, messages
    first = seen[0]
    assert {k: first[k] for k in ("pid", "ppid", "cwd", "proc", "tmp", "earlier", "unshare", "mount")} == {
        "pid": 1, "ppid": 0, "cwd": "/submission", "proc": "", "tmp": _TMP_AS_BEGUN, "earlier": -1, "unshare": -1,
        "mount": -1}
    assert "fingerprint.py" in first["folder"] and "trace" not in first["folder"], first
    assert "trace" in seen[1]["folder"]  # the same process: its own traces
    # the probe it can reach is not the one running (a fresh copy per case): no reference more, no warm-up
    assert [s["probe"] for s in seen] == ["0 True"] * 4, seen
    # all of it the same (the spawner: `inside/spawner.py`), but the peak resident size (tens of KiB of the
    # spawner's pages touched since), the heap's block count (the harness thread's start races the import: a few
    # either way) and, cold, the collector's count of young objects (one)
    loose = ("rss", "blocks", "pipe_pages", "generators") if warm == "1" else (
        "rss", "blocks", "gc", "pipe_pages", "generators")
    alike = [{k: v for k, v in s.items() if k not in loose} for s in seen]
    assert alike[2] == alike[0] and alike[3] == alike[0], seen
    # ... and each process's own random state, drawn as a fresh interpreter's (not one for the run: attacks18)
    assert seen[1]["generators"] == first["generators"], seen  # (one process, two cases)
    for n in range(2):  # numpy's global RandomState, Python's `random`
        assert len({s["generators"].split(",")[n] for s in (first, seen[2], seen[3])}) == 3, seen
    pipes = first["pipes"].split(",")
    assert pipes[-1] == "young:True" and len(pipes) == 3, pipes
    assert all(p.endswith(":False:True") for p in pipes[:-1]), pipes
    assert max(abs(s["blocks"] - first["blocks"]) for s in seen) <= 16, [s["blocks"] for s in seen]


def _dated_since(scalars: dict, started: float) -> list[str]:
    """The paths a check's process saw dated since ``started`` (the host's clock before the run): what tells it when
    its run began. A host folder bound in read-only (/etc, /usr) is dated when the host last changed it (a package
    installed minutes before), the same for every run: no tell, and not counted."""
    seen = [entry.rpartition("@") for entry in scalars["dated"].split(",") if entry]
    return [path for path, _, dated in seen if float(dated) >= started - 1.0]


def test_without_a_room_each_process_sees_the_ones_before_it(tmp_path):
    """The control: the same run with the student processes in the run's own namespaces reads what came before,
    and how long ago the run started."""
    started = time.time()
    messages = _run(tmp_path, [("a", 3.0), ("b", 0.0), ("c", 0.0)], None)
    assert messages[0]["apart"] is False
    seen = [m["scalars"] for m in messages if m.get("event") == "case"]
    assert len({s["pid"] for s in seen}) == 3, seen
    assert [s["earlier"] for s in seen] == [-1, -1, -1], seen  # no semaphore in any check run (semget: EPERM)
    assert "trace" in seen[2]["folder"] and seen[2]["tmp"], seen
    assert _dated_since(seen[1], started), seen  # the root, /dev, /tmp: made when the run started


def test_no_process_can_read_when_its_run_started(tmp_path):
    """Blind attacks9 timed the run (/tmp's date against /dev's): a check's process that starts 1.5 s into its
    run sees nothing dated then (its root, /dev, /tmp and folder are its own, made when it started). Blind
    attacks15 counted the inodes the host made since its pipes were (a fresh pipe's number less theirs): a
    process that starts after 10000 pipes were made in its run has pipes as young as the first process's."""
    started = time.time()
    messages = _run(tmp_path, [("a", 3.0), ("b", 4.0), ("c", 0.0)], probing._room(False))
    seen = [m["scalars"] for m in messages if m.get("event") == "case"]
    assert messages[0]["apart"] is True and len(seen) == 3, messages
    assert _dated_since(seen[1], started) == [], seen[1]
    assert [s["pipes"].endswith("young:True") for s in seen] == [True] * 3, [s["pipes"] for s in seen]
    # and its namespaces made when it started, every one (the run's network, host name and cgroup namespaces, made
    # when the run began, numbered how many processes were set apart before it: blind attacks16)
    assert {s["namespaces"] for s in seen} <= {"together:True", "n/a"}, [s["namespaces"] for s in seen]
    # and as many pipe pages held by its user as the first process saw (a run that freed each process's pipes
    # when it ended told a late process from the first by what the per-user limit still allowed: attacks16)
    pages = [s["pipe_pages"] for s in seen]
    assert max(pages) - min(pages) <= 32, pages


def test_a_process_that_exits_or_hangs_costs_its_case_and_the_next_check_starts_alike(tmp_path):
    """The process in between ends as the student's process ended (the driver reports the exit code), a hang is
    stopped at the case's limit (its process dies with the one in between), and the next check's process reads
    as the first did."""
    messages = _run(tmp_path, [("a", 1.0), ("b", 2.0), ("c", 0.0)], probing._room(False), timeout=3)
    cases = {m["case"]: m for m in messages if m.get("event") == "case"}
    assert cases["case-0"]["stopped"] == "died" and cases["case-0"]["exit"] == 3, cases
    assert cases["case-1"]["stopped"] == "timeout", cases
    last = cases["case-2"]["scalars"]
    assert last["pid"] == 1 and last["earlier"] == -1 and last["tmp"] == _TMP_AS_BEGUN, last
    assert "trace" not in last["folder"], last


def test_the_check_runs_outer_filter_allows_only_the_drivers_namespaces(tmp_path):
    """``nest``: unshare of exactly `seccomp.NEST_FLAGS` and mount pass (mount still needs a namespace of one's
    own); any other namespace call stays refused; without ``nest`` unshare is refused too."""
    code = """
        import ctypes, errno
        libc = ctypes.CDLL(None, use_errno=True)
        def tried(ret):
            return 'ALLOWED' if ret >= 0 else errno.errorcode[ctypes.get_errno()]
        print('user only', tried(libc.syscall(272, 0x10000000)))
        print('clone newpid', tried(libc.syscall(56, 0x20000000 | 17, 0, 0, 0, 0)))
        print('setns', tried(libc.syscall(308, 0, 0)))
        print('nest', tried(libc.syscall(272, NEST)))
    """.replace("NEST", str(seccomp.NEST_FLAGS))
    limits = RunLimits(wall_s=20, memory_mb=512, max_procs=32, tmp_mb=16)
    (tmp_path / "main.py").write_text(textwrap.dedent(code))

    def run_py(limits):
        return run([sandbox_python(), "-I", "/submission/main.py"], mounts=[Mount(tmp_path, "/submission", True)],
                   cwd="/submission", env={}, limits=limits).output
    nested = run_py(dataclasses.replace(limits, nest=True))
    assert "user only EPERM" in nested and "clone newpid EPERM" in nested and "setns EPERM" in nested, nested
    assert "nest ALLOWED" in nested, nested
    plain = run_py(limits)
    assert "nest EPERM" in plain, plain


def test_the_root_and_dev_of_a_checks_process_are_read_only(tmp_path):
    """Its own root and /dev are tmpfs of its own, mounted read-only once made: it writes in /tmp and its folder."""
    code = tmp_path / "code"
    code.mkdir()
    (code / "writer.py").write_text(textwrap.dedent("""
        import os
        def tries():
            out = {}
            for path in ("/planted", "/dev/planted", "/tmp/planted", "planted"):
                try:
                    with open(path, "w") as fh:
                        fh.write("x")
                    out[path] = "written"
                except OSError as exc:
                    out[path] = type(exc).__name__
            return out
    """))
    probes = "from lrkit_harness import call\n\ndef look(action):\n    import writer\n    return call(writer.tries)\n"
    header = {"modules": ["writer"], "submission": "/submission", "probes": probes, "import_timeout": 60,
              "max_result_bytes": 1 << 20, "max_restarts": 3, "room": probing._room(False)}
    job = b"".join([channel.encode(header), channel.encode({"id": "c", "probe": "look", "scalars": {"action": 0.0},
                                                            "group": "a", "timeout": 30}, b""),
                    channel.encode({"end": True})])
    result = probing._sandboxed(tmp_path, code, job, RunLimits(wall_s=60, memory_mb=2048, **probing.CHECK_ROOM),
                                unsandboxed=False, cancel=None, modules_only=True)
    got = next(m.header for m in channel.decode(result.channel)[0] if m.header.get("event") == "case")["scalars"]
    assert got == {"/planted": "OSError", "/dev/planted": "OSError", "/tmp/planted": "written",
                   "planted": "written"}, got


RELAY = """
import os, stat, threading

def _cases_pipe():
    for fd in range(3, 64):
        try:
            mode, flags = os.fstat(fd).st_mode, os.get_blocking(fd) and __import__("fcntl").fcntl(fd, 3)
        except OSError:
            continue
        if stat.S_ISFIFO(mode) and flags & os.O_ACCMODE == os.O_RDONLY and fd != 0:
            return fd

FD = _cases_pipe()
REAL = os.dup(FD)
R, W = os.pipe()
os.dup2(R, FD)  # the driver now reads cases from a pipe of ours; a thread copies the real one across
def _relay():
    while True:
        data = os.read(REAL, 1 << 16)
        if not data:
            os.close(W)
            return
        os.write(W, data)
threading.Thread(target=_relay, daemon=True).start()

def tries():
    return {"relayed": 1.0}
"""


def test_a_case_pipe_swapped_for_a_relay_is_tampering(tmp_path):
    """Blind attacks10 read each case's probe name through a pipe of its own put where the driver reads cases, a
    thread copying the real one across: the case still arrives, and its answer is not trusted."""
    code = tmp_path / "code"
    code.mkdir()
    (code / "relay.py").write_text(RELAY)
    probes = "from lrkit_harness import call\n\ndef look(action):\n    import relay\n    return call(relay.tries)\n"
    header = {"modules": ["relay"], "submission": "/submission", "probes": probes, "import_timeout": 60,
              "max_result_bytes": 1 << 20, "max_restarts": 3, "room": probing._room(False)}
    job = b"".join([channel.encode(header), channel.encode({"id": "c", "probe": "look", "scalars": {"action": 0.0},
                                                            "group": "a", "timeout": 30}, b""),
                    channel.encode({"end": True})])
    result = probing._sandboxed(tmp_path, code, job, RunLimits(wall_s=60, memory_mb=2048, **probing.CHECK_ROOM),
                                unsandboxed=False, cancel=None, modules_only=True)
    case = next(m.header for m in channel.decode(result.channel)[0] if m.header.get("event") == "case")
    assert case["scalars"] == {"relayed": 1.0} and "the pipe the driver hands cases on" in case["tampered"], case
