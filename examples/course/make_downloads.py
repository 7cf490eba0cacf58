"""Write the example course's bulk downloads from examples/submissions (deterministic zips, as `grade pack`
writes them), named as Canvas and Moodle name the files of their "Download Submissions":

    canvas-download/<assignment>/<lastfirst>_[late_]<user id>_<submission id>_<original name>
    moodle-download/<assignment>/<Full Name>_<participant id>_assignsubmission_file_<original name>

plus one zip a student e-mailed (no LMS name: its lrkit-assignment.json says whose it is). Run it again
after the example submissions change:  .venv/bin/python examples/course/make_downloads.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ASSIGNMENT = "linear-attention-basics"
ORIGINAL = f"{ASSIGNMENT}-submission.zip"
# (example submission, Canvas name, Moodle name); Hopper's hand-in is after the course due date, so Canvas
# marks it late_ (Canvas does not know her accommodation); Turing's arrived by e-mail
STUDENTS = (
    ("solution", f"lovelaceada_101_55501_{ORIGINAL}", f"Ada Lovelace_7101_assignsubmission_file_{ORIGINAL}"),
    ("dropped_normalizer", f"hoppergrace_late_102_55502_{ORIGINAL}",
     f"Grace Hopper_7102_assignsubmission_file_{ORIGINAL}"),
    ("untouched_template", "turing-by-email.zip", "turing-by-email.zip"),
)
EMAILED = {"turing-by-email.zip": "s1003"}


def entries(example: str, name: str) -> list[tuple[str, bytes]]:
    """The files of one hand-in: the example's files, and an identity naming the student for an e-mailed one."""
    folder = ROOT / "examples" / "submissions" / ASSIGNMENT / example
    files = [(p.name, p.read_bytes()) for p in sorted(folder.iterdir()) if p.is_file()]
    if name in EMAILED:
        identity = {"assignment": ASSIGNMENT, "release": "", "student": EMAILED[name]}
        files.append(("lrkit-assignment.json", (json.dumps(identity, indent=1, sort_keys=True) + "\n").encode()))
    return files


def downloads() -> dict[Path, list[tuple[str, bytes]]]:
    out = {}
    for example, canvas, moodle in STUDENTS:
        out[HERE / "canvas-download" / ASSIGNMENT / canvas] = entries(example, canvas)
        out[HERE / "moodle-download" / ASSIGNMENT / moodle] = entries(example, moodle)
    return out


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from grader.bundle import write_zip

    for path, files in downloads().items():
        write_zip(path, files, manifest=False)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
