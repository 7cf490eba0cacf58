"""A sandbox of its own for each student process of a check run (loaded by `driver.py` beside it).

The driver forks one student process per check (and a fresh one after a crash or a hang), all in one
sandboxed run. Without this step each later process could read what came before it in the run: its PID
counts the processes forked before it, its parent's ``/proc/<pid>/stat`` counts the CPU time of the
children it reaped, ``/tmp`` and the submission's copy hold what earlier processes wrote. A cost run's
student process is always the first of its run, so code could tell the run that measures a form from
the runs that compare it (blind attacks7: ``atk_pid_gap``, ``atk_reaped_children``) and be fast in one
and slow everywhere else.

`enter` makes every one of them alike: the process that will run the student's code is PID 1 of a PID
namespace of its own, in a user namespace (its uid mapped to itself), a mount namespace and an IPC namespace
(System V semaphores and shared memory outlive the process that made them) of its own,
with an empty read-only ``/proc`` (the sandbox's shows the run's other processes), a fresh ``/tmp``, a
fresh copy of the submission's folder, no capabilities, and the check run's ordinary seccomp filter, which
refuses every namespace and mount call from then on. The forked process in between waits for it and
ends as it ended (the driver reads that status: a signal, an exit code). If the student process's parent
dies, it is killed (``PR_SET_PDEATHSIG``), and everything it started dies with it (PID 1 of its namespace).

Where the kernel refuses (user namespaces turned off, an old kernel), `enter` returns False and the
process runs as before, in the run's own namespaces; the driver reports it with the import.
"""
import os
import platform
import re
import select
import signal
import sys
import traceback

import lrkit_kernel as kernel  # the Linux calls (`kernel.py`, loaded by the driver before this module)

CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNS, CLONE_NEWIPC = 0x10000000, 0x20000000, 0x00020000, 0x08000000
CLONE_NEWNET, CLONE_NEWUTS, CLONE_NEWCGROUP = 0x40000000, 0x04000000, 0x02000000
# every namespace the process can name is its own, made when it starts: a namespace's id comes from one counter the
# whole host draws from, so one the run made when it began (its network, host name and cgroup namespaces) less
# one of the process's own counted the processes set apart before it (blind attacks16); the time namespace is the
# host's (no run makes one)
NAMESPACES = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWCGROUP
NEW_ROOT = "/proc"  # where the new root is built: the one mount surely there that nothing of it needs
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
PLAIN = kernel.MS_NOSUID | kernel.MS_NODEV  # a mount's flags: no set-uid programs, no device files
MAX_FOLDER_BYTES = 64 << 20  # the submission's copy in a check run holds its modules (a few MiB at most)
SHM_KB = 256  # /dev/shm: a few POSIX semaphores (a page each), not a place to keep arrays


def enter(room, pipes=None):
    """Called in the driver's freshly forked child: True in the student process, in namespaces of its own and
    set up as the module says; False where the kernel refused (the caller goes on as it was). ``room``: the job's
    ``{"tmp_mb", "disk_mb", "folder", "seccomp"}`` (None when the run has no sandbox: nothing is done).
    ``pipes``: the process's (cases_r, answers_w); the student process gets pipes made now on the same numbers,
    and the process in between relays (`_relay_and_end_alike`)."""
    if not room or platform.machine() not in kernel.SYSCALLS:
        return False
    uid, gid = os.geteuid(), os.getegid()
    kernel.LIBC.prctl(kernel.PR_SET_DUMPABLE, 1, 0, 0, 0)  # its /proc/self files its own (the driver is undumpable)
    if kernel.LIBC.unshare(NAMESPACES) != 0:
        return False
    try:
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as fh:
                fh.write(text)
    except OSError:
        os._exit(70)  # a user namespace without its maps: nothing to fall back to in this process
    fresh = (os.pipe(), os.pipe()) if pipes else ()  # made now, at this process's start (see `_relay`)
    pid = os.fork()
    if pid:
        _relay_and_end_alike(pid, pipes, fresh)
    os.setsid()  # a session and process group of its own: kill(0, ...) reaches no process of the run's
    if pipes:
        (cases_r, cases_w), (answers_r, answers_w) = fresh
        os.dup2(cases_r, pipes[0], inheritable=False)
        os.dup2(answers_w, pipes[1], inheritable=False)
        for fd in (cases_r, cases_w, answers_r, answers_w):
            os.close(fd)
    try:
        kernel.check(kernel.LIBC.prctl(kernel.PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "parent-death signal")
        _set_up(room)
    except BaseException:
        traceback.print_exc()  # (the run's output, where the spawner tried it; a student process's is /dev/null)
        sys.stderr.flush()
        os._exit(71)
    return True


def _relay_and_end_alike(pid, pipes, fresh):
    """The process in between: closes what it holds but the pipes it relays, relays until the student process's
    answers end, waits for it and ends as it ended.

    Why a relay: the run's pipes were all made when the run started, and a pipe's inode number comes from one
    counter the whole host draws from, so a fresh pipe's number less the process's own pipes' told how long ago
    its run started, which a cost run's first process and a late check's did not share (blind attacks15). The
    student process's pipes are made here, at its own start, in every process alike. The bytes go through
    `splice` (no copy in this process), from one thread: a process that unshared its PID namespace cannot
    start a thread."""
    kept = sorted([*pipes, fresh[0][1], fresh[1][0]]) if pipes else []
    low = 3
    for fd in kept:
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 16)
    if pipes:
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # a reader gone is an error to read, not a death
        _relay([(pipes[0], fresh[0][1]), (fresh[1][0], pipes[1])])
    _end_alike(_wait(pid))


def _relay(channels):
    """Move bytes along each (from, to) pair of pipes until the last pair's source ends (the student process's
    answers: every writer of them is in its PID namespace, so they end when it does). A pair whose source
    ends, or whose destination's reader is gone, is closed: its reader sees the end too."""
    waiting = {n: select.POLLIN for n in range(len(channels))}  # on its source (POLLIN) or destination (POLLOUT)
    last = len(channels) - 1
    while last in waiting:
        poller = select.poll()
        for n, event in waiting.items():
            src, dst = channels[n]
            poller.register(src if event == select.POLLIN else dst, event)
        ready = {fd for fd, _ in poller.poll()}
        for n, event in list(waiting.items()):
            src, dst = channels[n]
            if (src if event == select.POLLIN else dst) not in ready:
                continue
            try:
                moved = os.splice(src, dst, 1 << 20, flags=os.SPLICE_F_NONBLOCK)
            except BlockingIOError:
                waiting[n] = select.POLLOUT  # the source has bytes (it polled ready): the destination is full
                continue
            except OSError:  # the destination's reader is gone
                moved = 0
            if moved:
                waiting[n] = select.POLLIN
            else:
                os.close(dst)
                del waiting[n]


def _wait(pid):
    while True:
        try:
            status = os.waitpid(pid, 0)[1]
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            os._exit(0)
    return status


def _end_alike(status):
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):  # SIGKILL, SIGSTOP: already their default
            pass
        os.kill(os.getpid(), sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _set_up(room):
    with open("/proc/self/oom_score_adj", "w") as fh:  # under memory pressure, this process goes first
        fh.write("1000")
    kept = _kept_mounts(room["folder"])
    kernel.mount(None, "/", None, kernel.MS_REC | kernel.MS_PRIVATE)
    _new_root(NEW_ROOT, kept, room)
    os.chdir(NEW_ROOT)
    os.mkdir(".old")
    kernel.pivot_root(".", ".old")
    os.chdir("/")
    kernel.check(kernel.LIBC.umount2(b"/.old", kernel.MNT_DETACH), "umount the old root")
    os.rmdir("/.old")
    kernel.mount("tmpfs", "/proc", "tmpfs", PLAIN | kernel.MS_RDONLY | kernel.MS_NOEXEC, "mode=555,size=4k")
    for place in ("/", "/dev"):  # nothing to write there but what /tmp and the folder hold
        flags = kernel.MS_REMOUNT | kernel.MS_RDONLY | (PLAIN if place == "/" else kernel.MS_NOSUID)
        kernel.mount(None, place, None, flags)
    os.chdir(room["folder"])
    kernel.clear_capabilities()  # (every one the new user namespace gave)
    kernel.install_seccomp(bytes.fromhex(room["seccomp"]))


def _kept_mounts(folder):
    """The run's mounts this process sees again in its own root: every one but the root, /proc, /dev, /tmp, the
    harness's folder and the submission's (what the run made when it started, dated then), outermost first."""
    skip = ("/proc", "/dev", "/harness", os.path.normpath(folder))  # and below them; /tmp itself only (the
    out = []                                                        # interpreter may be bound under it)
    with open("/proc/self/mountinfo", encoding="utf-8") as fh:
        for line in fh:
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[4])
            if point not in ("/", "/tmp") and not any(point == s or point.startswith(s + "/") for s in skip):
                out.append(point)
    return sorted(dict.fromkeys(out), key=lambda p: p.count("/"))


def _new_root(root, kept, room):
    """A root of this process's own (a tmpfs made now, like every folder in it): the run's mounts bound in again
    (the host's folders: /usr, /etc, the interpreter), the root's links, a fresh /tmp, a /dev of the device nodes,
    the submission's folder copied. No inode in it is dated when the run started: its age is not there to read
    (blind attacks9 timed the run by /tmp against /dev)."""
    kernel.mount("tmpfs", root, "tmpfs", PLAIN, "mode=0755,size=1m")
    for name in os.listdir("/"):
        if os.path.islink("/" + name):
            os.symlink(os.readlink("/" + name), os.path.join(root, name))
    os.makedirs(root + "/tmp")
    kernel.mount("tmpfs", root + "/tmp", "tmpfs", PLAIN, f"mode=1777,size={int(room['tmp_mb'])}m")
    for point in kept:
        os.makedirs(root + point, exist_ok=True)
        kernel.mount(point, root + point, None, kernel.MS_BIND | kernel.MS_REC)
    os.makedirs(root + "/proc")
    _new_dev(root + "/dev")
    _fresh_folder(room["folder"], root + room["folder"], int(room["disk_mb"]))


def _new_dev(dev):
    os.makedirs(dev)
    kernel.mount("tmpfs", dev, "tmpfs", kernel.MS_NOSUID, "mode=0755,size=64k")
    for name in DEVICES:
        if os.path.exists("/dev/" + name):
            open(os.path.join(dev, name), "w").close()
            kernel.mount("/dev/" + name, os.path.join(dev, name), None, kernel.MS_BIND)
    for name, target in (("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2"),
                         ("fd", "/proc/self/fd")):
        os.symlink(target, os.path.join(dev, name))
    # a small /dev/shm of its own, as a machine has one: the standard library's POSIX semaphores live there
    # (`multiprocessing`'s locks, and so `multiprocessing.pool.ThreadPool`: an honest form on one raised "Read-only
    # file system", blind attacks28); its pages are charged to the run as any memory is
    os.mkdir(os.path.join(dev, "shm"), 0o755)
    kernel.mount("tmpfs", os.path.join(dev, "shm"), "tmpfs", PLAIN, f"mode=1777,size={SHM_KB}k")


def _fresh_folder(folder, copy, disk_mb):
    """The submission's folder as the run received it, on a tmpfs of this process's own: what an earlier process
    of the run wrote there went to its own copy, so the run's copy is still the one the grader made."""
    files, dirs, total = {}, [], 0
    for top, subdirs, names in os.walk(folder):
        rel = os.path.relpath(top, folder)
        dirs += [(os.path.join(rel, d), os.stat(os.path.join(top, d)).st_mode & 0o7777) for d in subdirs]
        for name in names:
            path = os.path.join(top, name)
            st = os.lstat(path)
            if not os.path.isfile(path) or os.path.islink(path):
                continue
            total += st.st_size
            if total > MAX_FOLDER_BYTES:
                raise OSError("the submission's folder is too large to copy")
            with open(path, "rb") as fh:
                files[os.path.join(rel, name)] = (fh.read(), st.st_mode & 0o7777, st.st_mtime_ns)
    mode = os.stat(folder).st_mode & 0o7777
    os.makedirs(copy, exist_ok=True)
    kernel.mount("tmpfs", copy, "tmpfs", PLAIN, f"mode={mode:o},size={disk_mb}m")
    for rel, dir_mode in dirs:
        os.makedirs(os.path.join(copy, rel), exist_ok=True)
        os.chmod(os.path.join(copy, rel), dir_mode)
    for rel, (data, file_mode, mtime) in files.items():
        path = os.path.join(copy, rel)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, file_mode)
        with open(fd, "wb") as fh:
            fh.write(data)
        os.utime(path, ns=(mtime, mtime))
