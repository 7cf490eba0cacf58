"""Unpack a submission (a folder or a .zip) into a fresh directory, safely.

Nothing from the submission is trusted: entry names, declared sizes, file types.
Only the assignment's student files are kept; everything else is listed as ignored
with the reason, so the report can tell the student. Faults that make the whole
submission unusable raise `SubmissionError` with a message naming the entry.
"""
from __future__ import annotations

import logging
import os
import re
import stat
import sys
import zipfile
import zlib
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Callable, Iterator

from grader.bundle import folder_hash
from grader.errors import LrkitError
from grader.report.safe import shown

log = logging.getLogger(__name__)

_CHUNK = 1 << 16
# Folders and files that tools add by themselves; never kept, never counted against max_files.
MAX_SUBMISSION_BYTES = 50_000_000  # the one size limit of a submission: unpacked, a bare notebook, a Dask payload
JUNK_DIRS = {"__MACOSX", ".git", ".ipynb_checkpoints", "__pycache__", ".pytest_cache", ".venv", "venv",
              ".idea", ".vscode"}
_JUNK_FILES = {".DS_Store", "Thumbs.db", "desktop.ini"}
# Installed modules a submission file could shadow, besides the standard library.
_INSTALLED = {"torch", "numpy", "pytest", "_pytest", "pluggy", "nbclient", "nbformat", "jupyter_client",
              "jupyter_core", "ipykernel", "IPython", "traitlets", "zmq", "matplotlib", "yaml", "jinja2",
              "markupsafe", "grader", "safetensors", "scipy", "setuptools", "pip", "pkg_resources"}


class SubmissionError(LrkitError, ValueError):
    """The submission cannot be graded; the message is written for the student."""


@dataclass(frozen=True)
class Unpacked:
    """A submission on disk: the files kept, and those left out with the reason for each."""

    root: Path
    files: tuple[str, ...]
    ignored: tuple[str, ...]
    notes: tuple[str, ...] = ()  # one sentence per ignored path: "conftest.py was ignored: ..."


@dataclass(frozen=True)
class _Entry:
    path: str  # relative posix path, checked
    size: int  # declared size
    open: Callable[[], BinaryIO]
    packed: int = -1  # declared compressed size (zip entries)


# ----------------------------------------------------------------------------- names


def _clean_name(raw: str) -> str:
    """A safe relative posix path, or SubmissionError for absolute paths and '..' (zip slip)."""
    name = raw.replace("\\", "/")
    if "\0" in name:
        raise SubmissionError(f"{raw!r}: file names may not contain NUL characters")
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        raise SubmissionError(f"{raw}: absolute paths are not allowed in a submission; zip the folder's contents")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise SubmissionError(f"{raw}: '..' in a path would write outside the submission folder")
    if not parts:
        raise SubmissionError(f"{raw!r}: empty file name")
    return "/".join(parts)


def _is_junk(path: str) -> bool:
    parts = path.split("/")
    return bool(JUNK_DIRS.intersection(parts[:-1])) or parts[-1] in _JUNK_FILES or parts[-1].startswith("._")


def glob_regex(pattern: str) -> re.Pattern[str]:
    """Full-path glob: `*` and `?` stay within one folder, `**/` spans folders."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def _danger(path: str) -> str:
    """Why a file must not be kept whatever the allow-list says is missing, or ''."""
    name = PurePosixPath(path).name
    top = path.split("/")[0].removesuffix(".py")
    if name == "conftest.py":
        return "pytest would load it as a plugin"
    if name in ("sitecustomize.py", "usercustomize.py"):
        return "Python would run it at start-up"
    if name.endswith(".pth"):
        return "Python's site module would run it at start-up"
    if (path.endswith(".py") or "/" in path) and (top in _INSTALLED or top in sys.stdlib_module_names):
        return f"it would shadow the installed module '{top}'"
    return ""


def _select(paths: list[str], allowed: list[str] | None) -> tuple[list[str], list[tuple[str, str]]]:
    """Split paths into kept and (ignored, reason)."""
    patterns = [glob_regex(p.strip("/")) for p in allowed] if allowed is not None else None
    kept, ignored = [], []
    for path in sorted(paths):
        listed = patterns is not None and any(p.match(path) for p in patterns)
        if _is_junk(path):
            ignored.append((path, "it is an editor, OS or cache file"))
        elif not listed and _danger(path):
            ignored.append((path, _danger(path)))
        elif patterns is not None and not listed:
            ignored.append((path, "it is not one of the assignment's student files"))
        else:
            kept.append(path)
    return kept, ignored


def _strip_top_folder(entries: list[_Entry], allowed: list[str] | None) -> list[_Entry]:
    """Drop a single folder that holds everything (a zip of `assignment-name/...`)."""
    real = [e for e in entries if not _is_junk(e.path)]
    tops = {e.path.split("/")[0] for e in real}
    if len(tops) != 1 or any("/" not in e.path for e in real):
        return entries
    top = tops.pop() + "/"
    stripped = [_Entry(e.path[len(top):], e.size, e.open, e.packed) for e in entries if e.path.startswith(top)]
    if allowed is not None:
        before = len(_select([e.path for e in entries], allowed)[0])
        if len(_select([e.path for e in stripped], allowed)[0]) < before:
            return entries
    log.info("stripped the top folder %s", shown(top))
    return stripped


# ----------------------------------------------------------------------------- sources


def _open_zip(src: Path, stack: ExitStack) -> zipfile.ZipFile:
    try:
        return stack.enter_context(zipfile.ZipFile(src))
    except (zipfile.BadZipFile, OSError) as exc:
        raise SubmissionError(f"{src.name}: not a readable zip file ({exc})") from exc


def _zip_entries(src: Path, archive: zipfile.ZipFile, max_files: int) -> Iterator[_Entry]:
    infos = archive.infolist()
    if len(infos) > 10 * max_files:
        raise SubmissionError(f"{src.name}: {len(infos)} entries is far too many; submit only your own files")
    seen: set[str] = set()
    for info in infos:
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise SubmissionError(f"{info.filename}: symbolic links are not allowed; zip the file itself")
        if mode and stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise SubmissionError(f"{info.filename}: only regular files and folders are allowed")
        if info.flag_bits & 0x1:
            raise SubmissionError(f"{info.filename}: password-protected zips cannot be graded")
        path = _clean_name(info.filename)
        if info.is_dir():
            continue
        if path in seen:
            raise SubmissionError(f"{info.filename}: appears twice in the zip")
        seen.add(path)
        yield _Entry(path, info.file_size, lambda info=info: archive.open(info), info.compress_size)


def _folder_entries(src: Path) -> Iterator[_Entry]:
    for dirpath, dirnames, filenames in os.walk(src):
        rel_dir = Path(dirpath).relative_to(src).as_posix()
        for name in sorted(dirnames + filenames):
            full = Path(dirpath) / name
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            st = full.lstat()
            if stat.S_ISLNK(st.st_mode):
                raise SubmissionError(f"{rel}: symbolic links are not allowed; copy the file itself")
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                raise SubmissionError(f"{rel}: only regular files and folders are allowed (this is a device, "
                                      "pipe or socket)")
            if stat.S_ISREG(st.st_mode):
                yield _Entry(_clean_name(rel), st.st_size, lambda full=full: open(full, "rb"))
        dirnames[:] = [d for d in dirnames if d not in JUNK_DIRS]


# ----------------------------------------------------------------------------- unpacking


def unpack_submission(src: Path, dest: Path, *, allowed: list[str] | None, max_bytes: int = MAX_SUBMISSION_BYTES,
                      max_files: int = 2000) -> Unpacked:
    """Check `src` (folder or .zip) and copy the student files it holds into the new directory `dest`.

    Whatever `src` holds, this returns or raises `SubmissionError`: a fault in the archive
    (corrupt data, bad names, odd encodings) is the submission's, said in words."""
    src, dest = Path(src), Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise ValueError(f"destination {dest} is not empty")
    try:
        with ExitStack() as stack:
            return _unpack(src, dest, allowed, max_bytes, max_files, stack)
    except SubmissionError:
        raise
    except Exception as exc:  # zlib.error, UnicodeDecodeError, struct.error, RecursionError, ...
        raise SubmissionError(f"{shown(src.name)}: cannot be read ({type(exc).__name__}: {shown(str(exc))[:200]}); "
                              "make the zip again from your files and resubmit") from None


def _unpack(src: Path, dest: Path, allowed: list[str] | None, max_bytes: int, max_files: int,
            stack: ExitStack) -> Unpacked:
    if src.is_symlink():
        raise SubmissionError(f"{src.name}: symbolic links are not allowed; submit the file or folder itself")
    if src.is_dir():
        entries = list(_folder_entries(src))
    elif src.is_file() and zipfile.is_zipfile(src):
        entries = list(_zip_entries(src, _open_zip(src, stack), max_files))
    elif src.exists():
        raise SubmissionError(f"{src.name}: a submission must be a folder or a .zip file")
    else:
        raise SubmissionError(f"{src}: no such file or folder")
    counted = [e for e in entries if not _is_junk(e.path)]
    if len(counted) > max_files:
        raise SubmissionError(f"{src.name}: {len(counted)} files is more than the limit of {max_files}; "
                              "submit only your own files (no virtual environments or data sets)")
    declared = sum(e.size for e in entries)
    if declared > max_bytes:
        raise SubmissionError(f"{src.name}: {declared:,} bytes unpacked is more than the limit of {max_bytes:,}")
    entries = _strip_top_folder(entries, allowed)
    kept, ignored = _select([e.path for e in entries], allowed)
    by_path = {e.path: e for e in entries}
    dest.mkdir(parents=True, exist_ok=True)
    budget, unreadable = max_bytes, []
    for path in kept:
        try:
            budget -= _extract(by_path[path], dest, budget)
        except _Unreadable as exc:
            unreadable.append((path, str(exc)))
    kept = [path for path in kept if path not in dict(unreadable)]
    notes = tuple(f"{shown(path)} was ignored: {reason}." for path, reason in ignored)
    notes += tuple(f"{shown(path)} could not be read from the archive ({why}); it was left out."
                   for path, why in unreadable)
    ignored += unreadable
    for note in notes:
        log.debug(note)
    return Unpacked(root=dest, files=tuple(kept), ignored=tuple(p for p, _ in ignored), notes=notes)


def _extract(entry: _Entry, dest: Path, budget: int) -> int:
    """Copy one entry, counting real bytes (declared sizes can lie); returns the bytes written."""
    target = dest.joinpath(*entry.path.split("/"))
    if dest.resolve() not in target.resolve().parents:
        raise SubmissionError(f"{entry.path}: would be written outside the submission folder")
    if entry.packed > entry.size + entry.size // 64 + 1024:  # no compression makes data larger than that
        raise SubmissionError(f"{entry.path}: its declared size is wrong (the archive lies about what it holds)")
    target.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        with entry.open() as source, os.fdopen(fd, "wb") as out:
            while chunk := source.read(_CHUNK):
                written += len(chunk)
                if written > budget:
                    raise SubmissionError(f"{entry.path}: unpacks to more than the size limit "
                                          "(the archive's declared sizes are wrong)")
                out.write(chunk)
    except SubmissionError:
        target.unlink(missing_ok=True)
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError,
            ValueError) as exc:  # corrupt data, a bad CRC, an unknown compression, encryption
        target.unlink(missing_ok=True)
        raise _Unreadable(f"{type(exc).__name__}: {shown(str(exc))[:120]}") from None
    return written


class _Unreadable(Exception):
    """One entry's data cannot be read (the archive's directory was fine)."""


def content_hash(root: Path) -> str:
    """The kit's one tree hash (`grader.bundle.tree_hash`) of the files under ``root``."""
    return folder_hash(root)
