"""`tasks.py release`: the student zip and the autograder bundle, each with a sha256 manifest.

Zips are deterministic (sorted entries, fixed timestamps and permissions), so releasing
twice gives the same bytes and the bundle hash identifies exactly what graded a report.

    dist/<name>-student.zip      <name>/...           the student template
    dist/<name>-autograder.zip   solution/...          the solution tree (hidden checks, key)
                                 template/...          the student template (for overlays)
                                 MANIFEST.sha256
"""
from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import zipfile
from pathlib import Path

log = logging.getLogger(__name__)

FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def write_zip(path: Path, entries: list[tuple[str, bytes]]) -> str:
    """Write a deterministic zip atomically (with a MANIFEST.sha256); return its sha256."""
    manifest = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in entries)
    entries = sorted(entries + [("MANIFEST.sha256", manifest.encode())])
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data in entries:
                info = zipfile.ZipInfo(name, FIXED_TIME)
                info.external_attr = 0o644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return hashlib.sha256(path.read_bytes()).hexdigest()


def release_assignment(root: Path, name: str, dist: Path) -> tuple[Path, Path]:
    template, solution = root / "student_template" / name, root / "solutions" / name
    for tree in (template, solution):
        if not tree.is_dir():
            raise SystemExit(f"{tree} does not exist; run 'python tasks.py build' first")
    student_entries = [(f"{name}/{p.relative_to(template).as_posix()}", p.read_bytes()) for p in _files(template)]
    bundle_entries = [(f"solution/{p.relative_to(solution).as_posix()}", p.read_bytes()) for p in _files(solution)]
    bundle_entries += [(f"template/{p.relative_to(template).as_posix()}", p.read_bytes()) for p in _files(template)]
    student_zip, bundle_zip = dist / f"{name}-student.zip", dist / f"{name}-autograder.zip"
    for entry_name, _ in student_entries:
        if "/hidden/" in entry_name:
            raise SystemExit(f"refusing to release: {entry_name} is a hidden file inside the student template")
    log.info("wrote %s (sha256 %s)", student_zip, write_zip(student_zip, student_entries)[:12])
    log.info("wrote %s (sha256 %s)", bundle_zip, write_zip(bundle_zip, bundle_entries)[:12])
    return student_zip, bundle_zip


def release(root: Path, names: list[str], dist: Path | None = None) -> int:
    dist = dist or root / "dist"
    for name in names:
        release_assignment(root, name, dist)
    return 0
