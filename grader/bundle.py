"""The autograder bundle: its one format, written by the release and opened by the grader.

    <name>-autograder.zip   solution/...        the solution tree (hidden checks, answer key)
                            template/...        the student template (the overlay base)
                            lrkit-assignment.json   the assignment's identity (name, release hash)
                            MANIFEST.sha256     "<sha256>  <path>" per entry

The same `lrkit-assignment.json` ships in the student zip and comes back with every
submission (and in the notebook's metadata, `metadata.lrkit`), so a submission graded
with another assignment's bundle is recognised and named.

Zips are deterministic (sorted entries, fixed timestamps and permissions). `tree_hash`
is the kit's one content hash: the same files give the same hash whether they come as a
zip, a bundle folder or a submission folder, so a resumed batch skips what it graded.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterable

from grader.config import (
    AssignmentConfig,
    ConfigError,
    Rubric,
    load_assignment,
    load_rubric,
)
from grader.errors import BundleError

FIXED_TIME = (1980, 1, 1, 0, 0, 0)
MANIFEST = "MANIFEST.sha256"
IDENTITY = "lrkit-assignment.json"
_IDENTITY_MAX_BYTES = 64_000


@dataclass(frozen=True)
class Identity:
    """Which assignment, and which release of it: the release hash is the tree hash of the
    bundle's solution and template, so any change to what students get or what grades them
    gives a new one."""

    assignment: str
    release: str
    student: str = ""  # the student's id, once `grade --local` recorded it (per-student variants, course matching)

    @property
    def short(self) -> str:
        return self.release[:12]

    def to_bytes(self, title: str = "", hand_in: tuple[str, ...] = ()) -> bytes:
        data = {"assignment": self.assignment, "release": self.release, "title": title, "hand_in": list(hand_in)}
        if self.student:
            data["student"] = self.student
        return (json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def read_identity(data: bytes | str | dict) -> Identity | None:
    """An `Identity` from the bytes of an identity file (or notebook metadata); None if unusable.
    Submissions are hostile: size-capped, and only short strings are taken."""
    if isinstance(data, (bytes, str)):
        if len(data) > _IDENTITY_MAX_BYTES:
            return None
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            return None
    if not isinstance(data, dict):
        return None
    name, release = data.get("assignment"), data.get("release")
    if not (isinstance(name, str) and isinstance(release, str) and 0 < len(name) <= 200 and len(release) <= 200):
        return None
    student = data.get("student")
    printable = isinstance(student, str) and 0 < len(student) <= 100 and student.isprintable()
    return Identity(name, release, student.strip() if printable else "")


def tree_hash(files: Iterable[tuple[str, bytes]]) -> str:
    """sha256 over the sorted (relative path, bytes) pairs of a tree; the manifest is left out."""
    digest = hashlib.sha256()
    for rel, data in sorted((r, d) for r, d in files if r != MANIFEST):
        digest.update(rel.encode("utf-8", "surrogateescape") + b"\0" + str(len(data)).encode() + b"\0")
        digest.update(data)
    return digest.hexdigest()


def folder_files(root: Path) -> list[tuple[str, bytes]]:
    """Every regular file under ``root`` (no links followed, no __pycache__), as (relative path, bytes)."""
    root = Path(root)
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if "__pycache__" in rel.parts or path.is_symlink() or not path.is_file():
            continue
        out.append((rel.as_posix(), path.read_bytes()))
    return out


def folder_hash(root: Path) -> str:
    return tree_hash(folder_files(root))


def write_zip(path: Path, entries: list[tuple[str, bytes]], *, manifest: bool = True,
              executable: frozenset[str] = frozenset()) -> str:
    """Write a deterministic zip atomically (with a MANIFEST.sha256 unless told not to); return
    its sha256. Entries are 0644, those named in ``executable`` 0755."""
    if manifest:
        listing = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(entries))
        entries = entries + [(MANIFEST, listing.encode())]
    entries = sorted(entries)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data in entries:
                info = zipfile.ZipInfo(name, FIXED_TIME)
                info.external_attr = (0o100755 if name in executable else 0o644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return hashlib.sha256(path.read_bytes()).hexdigest()


def bundle_entries(solution: Path, template: Path) -> list[tuple[str, bytes]]:
    """What a bundle holds, from the two generated trees of one assignment."""
    return ([(f"solution/{rel}", data) for rel, data in folder_files(solution)]
            + [(f"template/{rel}", data) for rel, data in folder_files(template)])


def release_identity(name: str, solution: Path, template: Path) -> Identity:
    """The identity of releasing these two trees (the same trees give the same hash)."""
    return Identity(name, tree_hash(bundle_entries(solution, template)))


@dataclass(frozen=True)
class Bundle:
    solution: Path
    template: Path
    config: AssignmentConfig
    rubric: Rubric
    hash: str
    identity: Identity | None = None  # None for a bundle released before identities existed


def open_bundle(path: Path, into: Path) -> Bundle:
    """Open an autograder zip (or an unpacked bundle folder) and verify its manifest."""
    path = Path(path)
    if path.is_file():
        root = into
        _extract(path, into)
        _verify_manifest(root, path)
    elif path.is_dir():
        root = path
        if (root / MANIFEST).is_file():
            _verify_manifest(root, path)
    else:
        raise BundleError(f"{path} does not exist; build it with 'python tasks.py release' "
                          "(it is dist/<name>-autograder.zip)")
    solution, template = root / "solution", root / "template"
    if not (solution / "assignment.yaml").is_file() or not template.is_dir():
        raise BundleError(f"{path} is not an autograder bundle (no solution/assignment.yaml or template/); "
                          "use dist/<name>-autograder.zip from 'python tasks.py release'")
    try:
        config, rubric = load_assignment(solution, check_name=False), load_rubric(solution)
    except ConfigError as exc:
        raise BundleError(f"{path}: the bundle's own configuration is broken (an instructor error, not the "
                          f"student's): {exc}") from exc
    identity = read_identity((root / IDENTITY).read_bytes()) if (root / IDENTITY).is_file() else None
    return Bundle(solution, template, config, rubric, folder_hash(root), identity)


def _extract(path: Path, into: Path) -> None:
    try:
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                parts = PurePosixPath(info.filename).parts
                if info.filename.startswith("/") or ".." in parts:
                    raise BundleError(f"{path}: entry {info.filename!r} escapes the bundle")
            zf.extractall(into)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        if isinstance(exc, BundleError):
            raise
        raise BundleError(f"{path} is not a readable zip file ({exc}); use dist/<name>-autograder.zip "
                          "from 'python tasks.py release'") from exc
    except Exception as exc:  # zlib.error and friends from a damaged deflate stream
        raise BundleError(f"{path} is damaged ({type(exc).__name__}: {exc}); release it again") from exc


def _verify_manifest(root: Path, where: Path) -> None:
    manifest = root / MANIFEST
    if not manifest.is_file():
        raise BundleError(f"{where} has no {MANIFEST}; rebuild it with 'python tasks.py release'")
    for line in manifest.read_text(encoding="utf-8", errors="replace").splitlines():
        digest, _, name = line.partition("  ")
        file = root / name
        if not file.is_file() or hashlib.sha256(file.read_bytes()).hexdigest() != digest:
            raise BundleError(f"{where}: {name} does not match {MANIFEST} (damaged bundle?)")
