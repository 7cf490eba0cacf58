"""The warm-start template ("zygote"): imports torch, numpy and the kernel machinery once, never runs student code,
and forks one fresh process per sandboxed run.

Run as ``python -I zygote.py CONTROL_FD`` by `grader/sandbox/warm.py`, as root, with a clean environment; or, kept
between graders for `grade --local` (`grader/sandbox/kept.py`), as ``zygote.py --keep LISTEN_FD PATH IDLE_S
MAX_FORKS``: every grader that connects to the socket is served the same way (`keep`). Standalone: imports nothing
from the grader.

For every run the grader sends a new socket over the control socket; the zygote forks at once and goes back to
waiting, so it never reads a run's specification itself. The forked process (the monitor, still on the host side)
reads the spec and the file descriptors of the run from that socket, joins the run's cgroup, and makes fresh
mount, PID, network, IPC, UTS and cgroup namespaces. Its child is PID 1 of the new PID namespace (like
bubblewrap's init): it builds a new root on a tmpfs with the same binds bubblewrap would make, pivots into it,
mounts /proc and /dev, brings up loopback, and forks the run itself, which takes a new session, its stdio and
descriptors, rlimits, drops to the sandbox uid (no groups, no capabilities, empty bounding set, no_new_privs),
installs the seccomp filter, unpacks its writable places and only then runs the Python script of the command.
"""
import ctypes
import fcntl
import gc
import importlib.util
import json
import os
import platform
import resource
import runpy
import select
import signal
import socket
import struct
import sys
import tarfile
import time

# the Linux calls, shared with apart.py: loaded by path (with -I this folder is not on sys.path)
_KERNEL = importlib.util.spec_from_file_location("lrkit_kernel", os.path.join(os.path.dirname(__file__), "kernel.py"))
sys.modules["lrkit_kernel"] = importlib.util.module_from_spec(_KERNEL)
_KERNEL.loader.exec_module(sys.modules["lrkit_kernel"])
from lrkit_kernel import (  # noqa: E402
    LIBC,
    MNT_DETACH,
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    MS_REMOUNT,
    PR_CAP_AMBIENT,
    PR_CAP_AMBIENT_CLEAR_ALL,
    PR_CAPBSET_DROP,
    PR_SET_CHILD_SUBREAPER,
    PR_SET_DUMPABLE,
    PR_SET_NO_NEW_PRIVS,
    PR_SET_PDEATHSIG,
    SYSCALLS,
    install_seccomp,
    mount,
    pivot_root,
    prctl,
)
from lrkit_kernel import check as _check  # noqa: E402

# CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET
CLONE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x20000000 | 0x40000000
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
# Then what a kernel's start imports (sys.modules at a fresh kernel's first cell); never the inline backend:
# imported with no shell, it skips the hooks that send figures, and every kernel forked from here shows none.
PRELOAD = ("numpy", "numpy.random", "torch", "zmq", "jupyter_client", "jupyter_client.asynchronous",
           "jupyter_client.connect", "jupyter_client.manager", "nbformat", "nbclient", "nbclient.exceptions",
           "ipykernel.kernelapp", "ipykernel.ipkernel", "IPython.core.interactiveshell", "matplotlib",
           "matplotlib.pyplot", "tarfile", "runpy", "IPython.core.completerlib", "IPython.core.debugger",
           "IPython.core.logger", "IPython.core.oinspect", "IPython.extensions.storemagic", "IPython.utils.wildcard",
           "psutil", "sqlite3", "tornado.gen", "tornado.locks", "tornado.platform.asyncio", "tornado.queues",
           # ... and torch._dynamo, for every assignment: a check run imports (part of) it at a first use, 15-20 MiB
           # and ~0.03 s of the run's own when the template lacks it, none when it has it. Asked for by one
           # assignment only (`preload`), a template serving two held it for the second's runs and not the first's:
           # the model's memory was measured 20 MiB under every student's, who all lost the step's cost items
           # (blind round 11); `warm.measured_as` keys the model's measurements by what the template holds
           "torch._dynamo")


def preload(names, skip_failures=False):
    """Import what runs need, once. Nothing here may start a thread or touch student data. ``skip_failures``: a
    name that does not import is said on stderr and skipped (an assignment's own names: `more_preload`)."""
    gc.disable()  # no collections while torch's objects pile up (0.2-0.6 s of the start): they all stay anyway
    for name in names:
        try:
            if importlib.util.find_spec(name.split(".")[0]):  # an optional package this machine lacks: runs do without
                importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - an instructor's name: the runs do without it
            if not skip_failures:
                raise
            print(f"preload {name!r} failed: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
    gc.freeze()  # children then leave these pages shared instead of copying them on every GC pass
    gc.enable()


def more_preload(payload):
    """The assignment's own preloads (assignment.yaml ``preload``), asked for by the grader once the template is
    ready and before the runs they serve: every run forked after it finds them imported. A name that does not
    import is skipped (said on stderr): the run then imports it itself, as a cold run would."""
    try:
        names = [n for n in json.loads(payload) if isinstance(n, str)]
    except ValueError:
        return
    preload(names, skip_failures=True)


def warm_kernels():
    """Run torch's common CPU kernels once, on tiny tensors (one thread, no autograd): their code is paged in
    here, in pages every run shares, so that no run's memory peak or CPU time (the cost checks measure both
    from outside) pays for loading it the first time."""
    torch = sys.modules.get("torch")
    if torch is None:
        return
    functional = torch.nn.functional
    with torch.no_grad():
        for dtype in (torch.float32, torch.float64):
            a = torch.linspace(-1.0, 1.0, 64, dtype=dtype).reshape(8, 8)
            b = torch.einsum("ij,jk->ik", a, a.T) + a @ a + torch.cumsum(a, 0) * torch.tril(a).sum(-1, keepdim=True)
            b = torch.cat([functional.elu(b), torch.exp(-b.abs()), torch.pow(torch.tensor(0.9, dtype=dtype), a)])
            b = torch.stack([b, b.masked_fill(b > 0, 0.0)], dim=-2) / (1.0 + b.abs()[..., None, :])
            functional.linear(a, a, a[0]).sigmoid().sum() + functional.logsigmoid(a).mean() + b.sum()
    # its first call imports sympy (~500 modules, 35 MB, 0.3-0.7 s): an honest step that calls it would hold that
    # much more than the model's in its cost run (blind attacks5, `alt_inplace_broadcast_shapes`)
    torch.broadcast_shapes((2, 1), (1, 3))


def serve(control, runs=-1):
    """Fork one monitor per run socket received (``runs`` of them; -1: until the grader closes the socket); a
    message ``i`` + a JSON list of module names (no socket) imports those first (`more_preload`)."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # monitors are reaped by the kernel
    while runs != 0:
        served = serve_one(control, [control])
        if served is None or served < 0:
            return
        runs -= served


def serve_one(control, ours):
    """One message of ``control``: a run forked (1), modules imported (0), asked to stop taking graders (-1: a
    kept template's, `keep`), or the grader gone (None). The monitor closes ``ours``, every socket of the
    template's own."""
    try:
        msg, fds, _, _ = socket.recv_fds(control, 1 << 16, 4)
    except OSError:
        return None
    if not fds and msg[:1] == b"i":
        more_preload(msg[1:])
        return 0
    if not fds and msg == b"q":
        return -1
    if not fds:
        return None
    pid = os.fork()
    if pid == 0:
        for sock in ours:
            sock.close()
        for fd in fds[1:]:
            os.close(fd)
        monitor(socket.socket(fileno=fds[0]))
    for fd in fds:
        os.close(fd)
    return 1


def keep(listener, path, idle_s, max_forks):
    """The template kept between graders (`grade --local`, `warm.KeptZygote`): every grader of this user that
    connects to ``listener`` is told ``ready`` and served as `serve` serves its own one, all at once. It stops
    taking new graders after ``max_forks`` runs (a fresh layout for the next one) and exits once none is connected
    and then none has come for ``idle_s`` seconds, removing ``path`` if it is still its own."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    own = os.stat(path).st_ino
    graders, forks, last = [], 0, time.monotonic()
    while listener is not None or graders:
        wait = None if graders else last + idle_s - time.monotonic()
        if wait is not None and wait <= 0:
            break
        ready, _, _ = select.select([s for s in [listener, *graders] if s is not None], [], [], wait)
        for sock in ready:
            if sock is listener:
                conn, _ = listener.accept()
                _, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
                if uid != os.getuid():  # (the folder is the user's own, 0700: this is a second lock)
                    conn.close()
                    continue
                conn.sendall(b"ready")
                graders.append(conn)
                continue
            served = serve_one(sock, [s for s in [listener, *graders] if s is not None])
            if served is None or served < 0:  # the grader is done; or asks this template to stop (`kept.stop`)
                sock.close()
                graders.remove(sock)
                last = time.monotonic() - (idle_s if served else 0)
            forks += max(served or 0, 0)
            if served == -1 and listener is not None:
                listener = _unlisten(listener, path, own)
        if listener is not None and forks >= max_forks:
            listener = _unlisten(listener, path, own)
    if listener is not None:
        _unlisten(listener, path, own)


def _unlisten(listener, path, own):
    """Stop taking graders: the socket closed, its path removed unless another template's by now."""
    listener.close()
    try:
        if os.stat(path).st_ino == own:
            os.unlink(path)
    except OSError:
        pass
    return None


def monitor(sock):
    """Host side of one run: cgroup, namespaces, then wait for its PID 1 and report how it ended."""
    code = 0
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # (no death signal: a retired template's runs go on;
        msg, fds, _, _ = socket.recv_fds(sock, 1 << 20, 64)  # a grader that dies closes `sock`, see below)
        spec = json.loads(msg)
        for procs in spec["procs"]:
            with open(procs, "w") as fh:
                fh.write(str(os.getpid()))
        os.setsid()
        _check(LIBC.unshare(CLONE_FLAGS), "unshare")
        err_r, err_w = os.pipe()
        child = os.fork()
        if child == 0:
            sock.close()
            os.close(err_r)
            init(spec, fds, err_w)
        os.close(err_w)
        for fd in fds:
            os.close(fd)
        sock.sendall(json.dumps({"pid": child}).encode())  # killing the run's PID 1 ends its namespace at once
        pidfd = os.pidfd_open(child)
        while True:
            ready, _, _ = select.select([sock, pidfd], [], [])
            if pidfd in ready:
                _, status = os.waitpid(child, 0)
                setup_error = os.read(err_r, 4096).decode(errors="replace")
                sock.sendall(json.dumps({"status": status, "setup_error": setup_error}).encode())
                break
            if not sock.recv(64):  # the grader closed the run: kill its PID 1, the namespace dies with it
                os.kill(child, signal.SIGKILL)
    except BaseException as exc:  # noqa: BLE001 - report, never fall back into the zygote's loop
        code = 1
        try:
            sock.sendall(json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode())
        except OSError:
            pass
    os._exit(code)


def init(spec, fds, err_w):
    """PID 1 of the run's namespaces: build the root, fork the run, reap, exit with its status."""
    try:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        os.setsid()  # bubblewrap's --new-session: the run is in a session of its own, not its leader
        build_root(spec)
        loopback_up()
        child = os.fork()
    except BaseException as exc:  # noqa: BLE001
        os.write(err_w, f"{type(exc).__name__}: {exc}".encode()[:4000])
        os._exit(127)
    if child == 0:
        run(spec, fds, err_w)
    os.close(err_w)
    for fd in fds:
        os.close(fd)
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            os._exit(0)
        if pid == child:
            os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


def _mkdirs(path):
    os.makedirs(path, mode=0o755, exist_ok=True)


def build_root(spec):
    """Mount namespace: a tmpfs root holding exactly the plan's binds, then pivot_root into it."""
    root = spec["root"]
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")
    for entry in spec["plan"]:
        kind, dst = entry["kind"], root + entry["dst"]
        if kind == "symlink":
            os.symlink(entry["src"], dst)
            continue
        _mkdirs(dst)
        if kind == "tmpfs":
            mount("tmpfs", dst, "tmpfs", MS_NOSUID | MS_NODEV, f"mode={entry['mode']:o},size={entry['size']}")
            os.chmod(dst, entry["mode"])
        else:
            mount(entry["src"], dst, None, MS_BIND | MS_REC)
            flags = MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV | (MS_RDONLY if kind == "ro" else 0)
            mount(None, dst, None, flags)
    dev = root + "/dev"
    _mkdirs(dev)
    mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")
    for name in DEVICES:
        open(f"{dev}/{name}", "w").close()
        mount(f"/dev/{name}", f"{dev}/{name}", None, MS_BIND)
        mount(None, f"{dev}/{name}", None, MS_BIND | MS_REMOUNT | MS_NOSUID)
    for name, target in (("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2"),
                         ("fd", "/proc/self/fd"), ("core", "/proc/kcore"), ("ptmx", "pts/ptmx")):
        os.symlink(target, f"{dev}/{name}")
    for name in ("shm", "pts"):
        _mkdirs(f"{dev}/{name}")
    mount("devpts", f"{dev}/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620")
    # no pseudo-terminals (a pty's buffers are memory no cgroup is charged for): ptmx leads to /dev/null, as
    # bwrap's cold runs do it
    mount(f"{dev}/null", f"{dev}/pts/ptmx", None, MS_BIND)
    mount(None, f"{dev}/pts/ptmx", None, MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV | MS_RDONLY)
    for name in ("/proc", "/.oldroot"):
        _mkdirs(root + name)
    pivot_root(root, root + "/.oldroot")
    os.chdir("/")
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for sub in ("sys", "sysrq-trigger", "irq", "bus"):
        path = "/proc/" + sub
        if os.path.exists(path):
            mount(path, path, None, MS_BIND | MS_REC)
            mount(None, path, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)
    _check(LIBC.umount2(b"/.oldroot", MNT_DETACH), "umount /.oldroot")
    os.rmdir("/.oldroot")


def loopback_up():
    """As bubblewrap does: the new network namespace has a loopback device, and it is up."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        flags = 0x1 | 0x8 | 0x40  # IFF_UP | IFF_LOOPBACK | IFF_RUNNING
        fcntl.ioctl(s, 0x8914, struct.pack("16sH22x", b"lo", flags))  # SIOCSIFFLAGS


def drop_privileges(uid):
    """Like `setpriv --reuid --regid --clear-groups --bounding-set=-all --inh-caps=-all --no-new-privs`."""
    with open("/proc/sys/kernel/cap_last_cap") as fh:
        caps = range(int(fh.read()) + 1)
    for cap in caps:
        prctl(PR_CAPBSET_DROP, cap)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable: all empty
    _check(LIBC.syscall(SYSCALLS[platform.machine()]["capset"], header, data), "capset")
    _check(LIBC.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "ambient caps")
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    prctl(PR_SET_DUMPABLE, 1)  # as after an exec; changing uid cleared it


def place_fds(wanted):
    """Put each passed descriptor at its number in the run (stdio included); close every other one."""
    base = max([*wanted, *wanted.values()]) + 1  # copies out of the way of every target first
    high = {target: fcntl.fcntl(fd, fcntl.F_DUPFD, base) for target, fd in wanted.items()}
    for target, fd in high.items():
        os.dup2(fd, target)
        os.close(fd)
    start = 3
    for fd in sorted(high) + [1 << 16]:
        if fd >= start:
            os.closerange(start, fd)
            start = fd + 1


def warm_fixups(env):
    """What a fresh interpreter would have decided from this run's environment."""
    if "numpy.random" in sys.modules:
        sys.modules["numpy.random"].seed()  # the zygote's global RandomState must not be shared
    mpl = sys.modules.get("matplotlib")
    if mpl is not None:
        for name in ("get_configdir", "get_cachedir"):  # memoised in the zygote: recompute from $MPLCONFIGDIR
            fn = getattr(mpl, name)
            setattr(mpl, name, mpl._logged_cached(f"{name}=%s")(getattr(fn, "__wrapped__", fn)))
        if env.get("MPLBACKEND"):
            mpl.rcParams["backend"] = env["MPLBACKEND"]


def run(spec, fds, err_w):
    """The run itself: limits, uid, seccomp, writable places, descriptors, the script."""
    try:
        for name, soft, hard in spec["rlimits"]:
            if name != "RLIMIT_NOFILE":  # after the descriptors are in place (their numbers may be high)
                resource.setrlimit(getattr(resource, name), (soft, hard))
        drop_privileges(spec["uid"])
        install_seccomp(bytes.fromhex(spec["seccomp"]))
        for dst, index in spec["seeds"].items():  # as the sandbox uid, like `tar -x` under bubblewrap
            with os.fdopen(os.dup(fds[index]), "rb") as stream, tarfile.open(fileobj=stream, mode="r|") as tar:
                tar.extractall(dst, filter=spec["seed_filter"])  # the plan's, as the cold path (bwrap._SEED)
        os.chdir(spec["cwd"])
        os.environ.clear()
        os.environ.update(spec["env"])
        warm_fixups(spec["env"])
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        wanted = {int(target): fds[index] for target, index in spec["fds"].items()}
        if 0 not in wanted:
            wanted[0] = os.open("/dev/null", os.O_RDWR)
    except BaseException as exc:  # noqa: BLE001
        os.write(err_w, f"{type(exc).__name__}: {exc}".encode()[:4000])
        os._exit(127)
    place_fds(wanted)  # closes err_w and everything else not wanted
    for name, soft, hard in spec["rlimits"]:
        if name == "RLIMIT_NOFILE":
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    os._exit(execute(spec["argv"]))


def execute(argv):
    """Run ``python -I SCRIPT|-m MODULE|-c CODE ARGS`` in this process; its exit code."""
    code = 0
    try:
        if argv[0] == "-c":
            sys.argv = ["-c", *argv[2:]]
            exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
        elif argv[0] == "-m":
            sys.argv = [argv[1], *argv[2:]]
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(argv)
            runpy.run_path(argv[0], init_globals={"LRKIT_WARM": True}, run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, (int, type(None))):
            print(exc.code, file=sys.stderr)
    except BaseException:  # noqa: BLE001 - as the interpreter would: traceback, exit code 1
        import traceback

        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    return code


def main(control_fd):
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the zygote dies with the grader that started it
    prctl(PR_SET_CHILD_SUBREAPER, 1)  # a run's PID 1 orphaned by its monitor is ours to reap at once
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # room to move descriptors; each run sets its own
    control = socket.socket(fileno=control_fd)
    serve(control, runs=1)  # the grader's self-test, forked before the imports: its set-up runs alongside them
    preload(PRELOAD)
    warm_kernels()
    control.sendall(b"ready")
    serve(control)
    return 0


def main_kept(listen_fd, path, idle_s, max_forks):
    """``zygote.py --keep LISTEN_FD PATH IDLE_S MAX_FORKS``: a template that outlives the grader that started
    it (no death signal), for the graders that connect to its socket (`keep`)."""
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    listener = socket.socket(fileno=listen_fd)
    preload(PRELOAD)
    warm_kernels()
    keep(listener, path, idle_s, max_forks)
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--keep":
        sys.exit(main_kept(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), int(sys.argv[5])))
    sys.exit(main(int(sys.argv[1])))
