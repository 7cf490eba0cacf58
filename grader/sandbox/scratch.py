"""Host work folders that never outlive the grader that made them.

Every process keeps its work folders (unpacked submissions, the opened bundle with the
answer key, sandbox seeds) under one root, ``$TMPDIR/lrkit-run-<pid>-<random>``, and holds
an exclusive `flock` on the root's ``.lock`` for as long as it lives. The kernel drops
that lock when the process dies, however it dies; so a root whose lock can be taken
belongs to a killed grader, and the next run removes it (`sweep_stale`). Folders of the
older naming (``lrkit-grade-*``, ``lrkit-checks-*``, ...) are removed once they are a day old.

One kind of folder does outlive the grader: `user_cache`, what the grader's own processes
build once per machine (the warm template's matplotlib font list). Nobody works in it: files
are copied out of it (`restore_cached`) and put back whole (`keep_cached`), so a grader killed
half-way leaves no lock and no half-written file behind. Runs never see it.
"""
from __future__ import annotations

import atexit
import fcntl
import logging
import os
import re
import shutil
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

log = logging.getLogger(__name__)

ROOT_PREFIX = "lrkit-run-"
LOCK = ".lock"
_LEGACY = re.compile(r"lrkit-(grade|checks|nb|hash|bundle|tmp|probe|local|pytest)-")
_LEGACY_AGE_S = 24 * 3600
_NEW_ROOT_GRACE_S = 60  # a root without its lock file yet is being made right now

_state: dict[str, object] = {}
_state_lock = threading.Lock()


def _root() -> Path:
    """This process's root (made, locked and registered for removal on first use)."""
    with _state_lock:
        if _state.get("pid") != os.getpid():  # first use, or a forked child: a root of its own
            sweep_stale()
            root = Path(tempfile.mkdtemp(prefix=f"{ROOT_PREFIX}{os.getpid()}-"))
            fd = os.open(root / LOCK, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            atexit.register(_remove_root, root, fd, os.getpid())
            _state.update(pid=os.getpid(), root=root, fd=fd)
        return _state["root"]  # type: ignore[return-value]


def _remove_root(root: Path, fd: int, pid: int) -> None:
    if os.getpid() != pid:
        return
    shutil.rmtree(root, ignore_errors=True)
    try:
        os.close(fd)
    except OSError:
        pass


@contextmanager
def scratch_dir(kind: str) -> Iterator[Path]:
    """A fresh private folder (mode 0700) for one piece of work; removed when the block ends."""
    path = Path(tempfile.mkdtemp(prefix=f"{kind}-", dir=_root()))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def sweep_stale(tmp: Path | None = None) -> list[Path]:
    """Remove the work folders of graders that are gone; returns what was removed."""
    tmp = Path(tmp or tempfile.gettempdir())
    removed = []
    try:
        entries = list(os.scandir(tmp))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if entry.name.startswith(ROOT_PREFIX):
            if entry.path == str(_state.get("root")):
                continue
            if _abandoned(Path(entry.path), age):
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(Path(entry.path))
        elif _LEGACY.match(entry.name) and age > _LEGACY_AGE_S:
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(Path(entry.path))
    for path in removed:
        log.info("removed the work folder of a grader that is gone: %s", path)
    return removed


def _abandoned(root: Path, age: float) -> bool:
    try:
        fd = os.open(root / LOCK, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return age > _NEW_ROOT_GRACE_S
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # its grader is alive
    finally:
        os.close(fd)  # (closing drops the lock again if we took it)
    return True


def user_cache(name: str) -> Path | None:
    """``$XDG_CACHE_HOME/lrkit/NAME`` (``~/.cache/lrkit/NAME``), made 0700; None where it cannot be
    made or is not this user's own (a folder someone else could write is no cache to trust)."""
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "lrkit" / name
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.lstat()
    except (OSError, RuntimeError):  # RuntimeError: no home directory to expand
        return None
    mine = st.st_uid == os.getuid() and not (st.st_mode & 0o022) and folder.is_dir() and not folder.is_symlink()
    return folder if mine else None


def restore_cached(name: str, dst: Path, pattern: str) -> None:
    """Copy the files of cache ``name`` matching ``pattern`` into ``dst`` (made if missing)."""
    dst.mkdir(parents=True, exist_ok=True)
    cache = user_cache(name)
    for path in sorted(cache.glob(pattern)) if cache else ():
        try:
            shutil.copyfile(path, dst / path.name, follow_symlinks=False)
        except OSError as exc:
            log.warning("cache file %s not used: %s", path, exc)


def keep_cached(name: str, src: Path, pattern: str) -> None:
    """Put the files of ``src`` matching ``pattern`` that cache ``name`` lacks into it, each whole."""
    cache = user_cache(name)
    for path in sorted(src.glob(pattern)) if cache else ():
        if (cache / path.name).exists() or not path.is_file():
            continue
        part = None
        try:
            with tempfile.NamedTemporaryFile(dir=cache, prefix=".part-", delete=False) as part:
                part.write(path.read_bytes())
            os.replace(part.name, cache / path.name)
        except OSError as exc:
            log.warning("could not keep %s in the cache: %s", path.name, exc)
            if part is not None:  # no half-written part left behind
                Path(part.name).unlink(missing_ok=True)
