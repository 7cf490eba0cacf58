"""`tasks.py release`: the student zip and the autograder bundle, each with a sha256 manifest.

Zips are deterministic (sorted entries, fixed timestamps and permissions), so releasing
twice gives the same bytes and the bundle hash identifies exactly what graded a report.

    dist/<name>-student.zip      <name>/...           the student template
    dist/<name>-autograder.zip   solution/...          the solution tree (hidden checks, key)
                                 template/...          the student template (for overlays)
                                 MANIFEST.sha256
"""
from __future__ import annotations

import logging
from pathlib import Path

from grader.bundle import bundle_entries, folder_files, write_zip
from grader.errors import ReleaseError

log = logging.getLogger(__name__)

def release_assignment(root: Path, name: str, dist: Path) -> tuple[Path, Path]:
    template, solution = root / "student_template" / name, root / "solutions" / name
    for tree in (template, solution):
        if not tree.is_dir():
            raise ReleaseError(f"{tree} does not exist; run 'python tasks.py build' first")
    student_entries = [(f"{name}/{rel}", data) for rel, data in folder_files(template)]
    entries = bundle_entries(solution, template)
    student_zip, bundle_zip = dist / f"{name}-student.zip", dist / f"{name}-autograder.zip"
    for entry_name, _ in student_entries:
        if "/hidden/" in entry_name:
            raise ReleaseError(f"refusing to release: {entry_name} is a hidden file inside the student template")
    log.info("wrote %s (sha256 %s)", student_zip, write_zip(student_zip, student_entries)[:12])
    log.info("wrote %s (sha256 %s)", bundle_zip, write_zip(bundle_zip, entries)[:12])
    return student_zip, bundle_zip


def release(root: Path, names: list[str], dist: Path | None = None) -> int:
    dist = dist or root / "dist"
    for name in names:
        release_assignment(root, name, dist)
    return 0
