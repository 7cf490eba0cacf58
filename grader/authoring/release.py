"""`tasks.py release`: the student zip and the autograder bundle, each with a sha256 manifest.

Zips are deterministic (sorted entries, fixed timestamps and permissions), so releasing
twice gives the same bytes and the bundle hash identifies exactly what graded a report.

    dist/<name>-student.zip      <name>/...           the student template, a README, the assignment's
                                                      identity, pinned requirements and the kit's wheel
                                                      (grader/authoring/student_zip.py)
    dist/<name>-autograder.zip   solution/...          the solution tree (hidden checks, key)
                                 template/...          the student template (for overlays)
                                 lrkit-assignment.json the identity (grader/bundle.py)
                                 MANIFEST.sha256
    dist/<name>-gradescope.zip   setup.sh, run_autograder, the bundle, the wheel (grader/authoring/gradescope.py)
"""
from __future__ import annotations

import logging
from pathlib import Path

from grader.authoring.gradescope import gradescope_entries
from grader.authoring.student_zip import pinned_requirements, student_entries
from grader.authoring.wheel import kit_metadata, wheel_bytes
from grader.bundle import IDENTITY, bundle_entries, release_identity, write_zip
from grader.config import load_assignment
from grader.errors import ReleaseError

log = logging.getLogger(__name__)

def release_assignment(root: Path, name: str, dist: Path) -> tuple[Path, Path]:
    template, solution = root / "student_template" / name, root / "solutions" / name
    for tree in (template, solution):
        if not tree.is_dir():
            raise ReleaseError(f"{tree} does not exist; run 'python tasks.py build' first")
    config = load_assignment(solution, check_name=False)
    identity, meta, wheel = release_identity(name, solution, template), kit_metadata(), wheel_bytes()
    student = student_entries(name, config, template, identity, wheel, meta.dependencies)
    entries = bundle_entries(solution, template) + [
        (IDENTITY, identity.to_bytes(config.title, (*config.student_files, IDENTITY)))]
    student_zip, bundle_zip = dist / f"{name}-student.zip", dist / f"{name}-autograder.zip"
    for entry_name, _ in student:
        if "/hidden/" in entry_name:
            raise ReleaseError(f"refusing to release: {entry_name} is a hidden file inside the student template")
    log.info("wrote %s (sha256 %s)", student_zip, write_zip(student_zip, student)[:12])
    log.info("wrote %s (sha256 %s)", bundle_zip, write_zip(bundle_zip, entries)[:12])
    gradescope, executable = gradescope_entries(name, bundle_zip.read_bytes(), wheel,
                                                pinned_requirements(meta.dependencies))
    gradescope_zip = dist / f"{name}-gradescope.zip"
    log.info("wrote %s (sha256 %s)", gradescope_zip, write_zip(gradescope_zip, gradescope, executable=executable)[:12])
    return student_zip, bundle_zip


def release(root: Path, names: list[str], dist: Path | None = None) -> int:
    """Refuses (ReleaseError) unless the trees pass the static validation and `check` (gate.py)."""
    from grader.authoring.gate import require_checked

    require_checked(root, names)
    dist = dist or root / "dist"
    for name in names:
        release_assignment(root, name, dist)
    return 0
