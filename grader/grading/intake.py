"""Intake: what a submission is, whose it is, and what of it can be graded.

    a folder, a .zip, or a bare notebook (.ipynb: a notebook-only submission)
    -> unpack (only the assignment's files, plus its identity file)
    -> identity: another assignment's submission is `invalid`, naming both
    -> files: none of the assignment's files is `invalid`; some missing is `incomplete`
    -> the tree to grade: the template with the student's files on top, and the files the
       student did not hand in *removed* (never silently replaced by the template's stubs)

Every refusal is a `SubmissionError` whose message is written for the student.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from grader.bundle import IDENTITY, Bundle, Identity, read_identity
from grader.config import AssignmentConfig
from grader.grading.unpack import MAX_SUBMISSION_BYTES, SubmissionError, Unpacked, glob_regex, unpack_submission

NOTEBOOK_MAX_BYTES = MAX_SUBMISSION_BYTES


@dataclass(frozen=True)
class Intake:
    """A submission taken in: its files, what it lacks, whose it says it is, and notes for the report."""

    unpacked: Unpacked
    present: tuple[str, ...]  # student_files entries the submission provides
    missing: tuple[str, ...]  # student_files entries it does not
    identity: Identity | None
    notes: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return not self.missing


def submission_kind(path: Path) -> str:
    """"folder", "zip", "notebook", or "" for anything that cannot be a submission."""
    if path.is_symlink():
        return ""
    if path.is_dir():
        return "folder"
    if path.is_file() and path.suffix.lower() == ".zip":
        return "zip"
    if path.is_file() and path.suffix.lower() == ".ipynb":
        return "notebook"
    return ""


def submission_name(path: Path) -> str:
    """alice.zip -> alice, dave.ipynb -> dave, bob/ -> bob."""
    name = path.name
    for suffix in (".zip", ".ipynb"):
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def unpack_any(submission: Path, dest: Path, config: AssignmentConfig) -> Unpacked:
    """Unpack a folder, a .zip or a bare notebook (placed as the assignment's notebook)."""
    allowed = [*config.student_files, IDENTITY]
    if submission.exists() and not submission.is_symlink() and submission_kind(submission) == "notebook":
        if submission.stat().st_size > NOTEBOOK_MAX_BYTES:
            raise SubmissionError(f"{submission.name}: larger than {NOTEBOOK_MAX_BYTES:,} bytes")
        staging = dest.parent / f"{dest.name}-notebook"
        staging.mkdir(parents=True)
        shutil.copyfile(submission, staging / config.notebook, follow_symlinks=False)
        return unpack_submission(staging, dest, allowed=allowed)
    if submission.exists() and not submission_kind(submission):
        raise SubmissionError(f"{submission.name}: not a submission; hand in a folder, a .zip file or the "
                              f"notebook ({config.notebook}) — see the README of the assignment")
    return unpack_submission(submission, dest, allowed=allowed)


def _identity(unpacked: Unpacked, config: AssignmentConfig) -> Identity | None:
    """The identity file if handed in, else the notebook's `metadata.lrkit` (kept by Jupyter)."""
    file = unpacked.root / IDENTITY
    if IDENTITY in unpacked.files and file.is_file():
        found = read_identity(file.read_bytes())
        if found is not None:
            return found
    notebook = unpacked.root / config.notebook
    if config.notebook in unpacked.files and notebook.is_file():
        try:
            meta = json.loads(notebook.read_bytes()).get("metadata", {})
        except (ValueError, RecursionError, AttributeError):
            return None
        return read_identity(meta.get("lrkit")) if isinstance(meta, dict) else None
    return None


def check_identity(found: Identity | None, bundle: Bundle) -> list[str]:
    """Refuse another assignment's submission; note a different release of this one."""
    config = bundle.config
    if found is None:
        return []
    ours = bundle.identity
    if found.assignment != config.name:
        theirs = f" (release {found.short})" if found.release else ""
        mine = f" (release {ours.short})" if ours else ""
        raise SubmissionError(
            f"this submission is for the assignment '{found.assignment}'{theirs}, but it was graded with the "
            f"autograder bundle of '{config.name}'{mine}: grade it with {found.assignment}-autograder.zip")
    if ours is not None and found.release and found.release != ours.release:
        return [f"handed in from release {found.short} of {config.name}; graded with release {ours.short} "
                "(the assignment was released again since)"]
    return []


def take_in(submission: Path, work: Path, bundle: Bundle) -> Intake:
    """Unpack ``submission`` into ``work``/unpacked and decide what of it can be graded."""
    config = bundle.config
    unpacked = unpack_any(Path(submission), work / "unpacked", config)
    identity = _identity(unpacked, config)
    notes = check_identity(identity, bundle)
    kept = [f for f in unpacked.files if f != IDENTITY]
    present = tuple(p for p in config.student_files if any(glob_regex(p.strip("/")).match(f) for f in kept))
    missing = tuple(p for p in config.student_files if p not in present)
    if not present:
        found = ", ".join(unpacked.ignored[:6]) + (", ..." if len(unpacked.ignored) > 6 else "")
        raise SubmissionError(
            f"none of the files this assignment grades is in the submission ({', '.join(config.student_files)})"
            + (f"; it holds {found}" if found else "; it is empty")
            + f". Is it a submission for {config.name}?")
    if missing:
        notes.append(f"incomplete: {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing from the "
                     "submission; it was graded on what is there (the template's copy is not used)")
    return Intake(unpacked, present, missing, identity, tuple(notes))


def assemble(intake: Intake, template: Path, config: AssignmentConfig, work: Path) -> tuple[Path, list[str]]:
    """The template tree, the student's files on top, the missing ones removed; (tree, notes)."""
    unpacked = intake.unpacked
    tree = work / "tree"
    shutil.copytree(template, tree)
    for pattern in intake.missing:
        rx = glob_regex(pattern.strip("/"))
        for path in sorted(tree.rglob("*")):
            if path.is_file() and rx.match(path.relative_to(tree).as_posix()):
                path.unlink()
    for rel in unpacked.files:
        if rel == IDENTITY:
            continue
        target = tree / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(unpacked.root / rel, target)
    # files the template ships anyway (tests, rubric) are not worth a note; extra files are
    notes = [n for n in unpacked.notes if not (template / n.split(" was ignored", 1)[0]).exists()]
    return tree, [*intake.notes, *notes]
