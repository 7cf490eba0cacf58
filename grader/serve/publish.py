"""Grades from the store into the reports through the same code as `grade manual import`
(`grader.batch.manual.merge_grades`), then the class gradebook and summary from those reports
(`grader.batch.manual.write_class_files`)."""
from __future__ import annotations

import threading
from pathlib import Path

from grader.batch.manual import HandGrade, write_class_files, write_if_changed
from grader.errors import LrkitError
from grader.report.render import load_report
from grader.results import Report
from grader.serve.store import DB_FILE, Entry, Grade


def hand_grade(grade: Grade, entries: dict[tuple[str, int], Entry]) -> HandGrade:
    """A stored grade as the student reads it: its points, each applied entry's comment, the free comment."""
    applied = [entries[(grade.item, n)] for n in grade.entries if (grade.item, n) in entries]
    comments = tuple(f"{e.comment} ({e.points:+g})" for e in applied) + ((grade.comment,) if grade.comment else ())
    return HandGrade(grade.points, comments)


class Publisher:
    """Writes one submission's report from its new grades (the store calls it inside its transaction), and
    the class files after. Reports already read are kept while their file is unchanged, so the gradebook
    after each grade costs a stat per submission, not a parse."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self._seen: dict[Path, tuple[tuple[int, int], Report]] = {}
        self._lock = threading.Lock()

    def __call__(self, folder: str, grades: dict[str, Grade], entries: dict[tuple[str, int], Entry]) -> None:
        path = self.out_dir / folder
        try:
            report = load_report(path / "report.json")
        except (OSError, ValueError) as exc:
            raise LrkitError(f"the report of {folder} cannot be read ({exc}); nothing was saved") from None
        given = {item: hand_grade(g, entries) for item, g in grades.items()}
        try:
            write_if_changed(path, report, given, str(self.out_dir / DB_FILE))
        except OSError as exc:
            raise LrkitError(f"the reports of {folder} cannot be written ({exc}); nothing was saved") from None

    def class_files(self) -> dict[str, Path]:
        """gradebook.csv and summary.html again, from the reports as they are now."""
        with self._lock:
            found = []
            for file in sorted(self.out_dir.glob("*/report.json")):
                stat = file.stat()
                mark = (stat.st_mtime_ns, stat.st_size)
                if self._seen.get(file, ((-1, -1), None))[0] != mark:
                    self._seen[file] = (mark, load_report(file))
                found.append((file.parent, self._seen[file][1]))
            return write_class_files(self.out_dir, found)
