"""A warm-start template kept between graders: the student's loop (`grade --local`) pays torch's import once.

A grader's own template (`warm.Zygote`) starts with the grader and dies with it: every `grade --local` waits
2-3 s for a fresh one to import torch, numpy and the kernel machinery before its notebook's first cell can run,
often longer than the cells it reruns after a one-function edit. Where a grader asks for it (`warm.keep_between_runs`,
which `grade --local` does), the template is started once and kept: the first grader launches it detached
(`inside/zygote.py --keep`), listening on a socket in ``$TMPDIR/lrkit-warm-<uid>/`` (a folder of this user's own,
mode 0700, refused otherwise), and every later grader of the same user connects to it and is served exactly as a
grader's own template serves it (a run is still a fresh fork that builds its own sandbox; the template never runs
student code). It exits once no grader has been connected for ``LRKIT_KEEP_WARM_S`` seconds (900), and after
`warm.MAX_FORKS` runs it takes no new grader (a fresh address-space layout for the next).

The socket's name is a digest of what the template holds and cannot change once started: its own code
(`zygote.py`, `kernel.py`), the interpreter, the environment it starts with and the installed packages (the
site-packages folders' times), so an upgrade or an edit of the grader's sandbox code is served by a fresh template,
never a stale one. ``LRKIT_KEEP_WARM=0`` turns keeping off (each grader starts its own, as official grading always
does: a model's cost runs are measured from a template holding exactly its assignment's preloads).
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import select
import socket
import stat
import subprocess
import sysconfig
import tempfile
from pathlib import Path

from grader.sandbox import plan
from grader.sandbox.bwrap import sandbox_python
from grader.sandbox.records import SandboxError

log = logging.getLogger(__name__)

IDLE_S = 900.0  # a kept template exits after this long with no grader connected
_launched: list[subprocess.Popen] = []  # templates this process started: kept referenced (no ResourceWarning)


def wanted() -> bool:
    return os.environ.get("LRKIT_KEEP_WARM", "1") != "0"


def idle_s() -> float:
    try:
        return max(1.0, float(os.environ.get("LRKIT_KEEP_WARM_S", IDLE_S)))
    except ValueError:
        return IDLE_S


def folder() -> Path:
    """``$TMPDIR/lrkit-warm-<uid>`` (``LRKIT_WARM_DIR`` overrides): made 0700 if missing; one that is a link, not
    this user's or open to others is refused (SandboxError): a socket there could be anyone's."""
    path = Path(os.environ.get("LRKIT_WARM_DIR") or Path(tempfile.gettempdir()) / f"lrkit-warm-{os.getuid()}")
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=0o700)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise SandboxError(f"{path} is not a folder of this user's own with mode 0700: no kept warm template")
    return path


def key(zygote_script: Path) -> str:
    """What the template holds and cannot change once started (module docstring), as a digest."""
    digest = hashlib.sha256()
    for script in (zygote_script, zygote_script.with_name("kernel.py")):
        digest.update(script.read_bytes())
    digest.update(json.dumps([sandbox_python(), sorted(environment(Path("@")).items())]).encode())
    for name in ("purelib", "platlib"):
        with contextlib.suppress(OSError):
            digest.update(str(os.stat(sysconfig.get_paths()[name]).st_mtime_ns).encode())
    return digest.hexdigest()[:16]  # (a socket path has at most 107 bytes)


def environment(home: Path) -> dict[str, str]:
    """The template's environment: its own HOME and the config folders a run's libraries write to."""
    env = plan.environment({"HOME": str(home), **{name: str(home / sub) for name, sub in (
        ("MPLCONFIGDIR", "matplotlib"), ("IPYTHONDIR", "ipython"), ("JUPYTER_DATA_DIR", "jupyter"),
        ("JUPYTER_RUNTIME_DIR", "jrt"))}})
    env.pop("MPLBACKEND", None)  # each run sets its own backend
    return env


def connect(path: Path) -> socket.socket | None:
    """A connection to the template listening at ``path``; None where none listens (no file, or a stale one)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        sock.connect(str(path))
    except OSError:
        sock.close()
        return None
    return sock


def launch(path: Path, home: Path, zygote_script: Path, max_forks: int) -> None:
    """Start a template listening at ``path`` (a stale file there removed first), detached from this grader."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    (home / "root").mkdir(mode=0o755, parents=True, exist_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        listener.bind(str(path))
        listener.listen(64)
        with open(home / "stderr", "wb") as err:
            _launched.append(subprocess.Popen(
                [sandbox_python(), "-I", str(zygote_script), "--keep", str(listener.fileno()), str(path),
                 str(idle_s()), str(max_forks)], env=environment(home), cwd="/", stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=err, pass_fds=[listener.fileno()], start_new_session=True))
    finally:
        listener.close()


def attach(zygote_script: Path, max_forks: int) -> tuple[socket.socket, Path, bool]:
    """Connect to this user's kept template for ``zygote_script``, launching it first where none runs (one
    grader at a time decides, under a lock). Returns the connection, the template's home, and whether this grader
    launched it (and so runs its self-test)."""
    where = folder()
    name = key(zygote_script)
    path, home = where / f"{name}.sock", where / name
    with open(where / "launch.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        sock = connect(path)
        if sock is not None:
            return sock, home, False
        launch(path, home, zygote_script, max_forks)
        sock = connect(path)
    if sock is None:
        raise SandboxError(f"the kept warm-start template at {path} did not take a connection")
    return sock, home, True


def stop(where: Path | None = None) -> int:
    """Ask every kept template listening in ``where`` (this user's folder) to take no new grader and exit once the
    graders it serves are done; how many were asked."""
    asked = 0
    for path in sorted((where or folder()).glob("*.sock")):
        sock = connect(path)
        if sock is None:
            continue
        with sock:
            sock.settimeout(10.0)
            with contextlib.suppress(OSError):
                if sock.recv(16) == b"ready":
                    sock.send(b"q")
                    asked += 1
    return asked


def gone(sock: socket.socket) -> bool:
    """The template never writes after ``ready``: a readable connection is one it closed (it exited)."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)
