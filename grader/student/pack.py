"""`grade pack`: the student's side of intake. Zips exactly what the grader takes — the
assignment's student files and its identity file — so a hand-in is never the wrong thing."""
from __future__ import annotations

from pathlib import Path

from grader.bundle import IDENTITY, write_zip
from grader.config import load_assignment
from grader.errors import UsageError
from grader.grading.unpack import glob_regex


def hand_in_files(folder: Path) -> tuple[list[str], list[str]]:
    """(files to hand in, student_files entries with nothing to hand in) for an assignment folder."""
    config = load_assignment(folder, check_name=False)
    found, missing = [], []
    for pattern in config.student_files:
        rx = glob_regex(pattern.strip("/"))
        matches = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                         if p.is_file() and not p.is_symlink() and rx.match(p.relative_to(folder).as_posix())
                         and "__pycache__" not in p.parts and ".ipynb_checkpoints" not in p.parts)
        found += [m for m in matches if m not in found]
        if not matches:
            missing.append(pattern)
    if (folder / IDENTITY).is_file():
        found.append(IDENTITY)
    return found, missing


def pack_submission(folder: Path, out: Path | None = None) -> tuple[Path, list[str]]:
    """Write ``<assignment>-submission.zip`` in ``folder`` (or ``out``); returns (path, files in it)."""
    folder = Path(folder).resolve()
    if not (folder / "assignment.yaml").is_file():
        raise UsageError(f"{folder} has no assignment.yaml; run 'grade pack' inside your assignment folder")
    config = load_assignment(folder, check_name=False)
    files, missing = hand_in_files(folder)
    if missing:
        raise UsageError(f"nothing to hand in for {', '.join(missing)}: the assignment grades "
                         f"{', '.join(config.student_files)}; restore the missing file(s) from the zip you were given")
    path = Path(out) if out else folder / f"{config.name}-submission.zip"
    write_zip(path, [(rel, (folder / rel).read_bytes()) for rel in files], manifest=False)
    return path, files
