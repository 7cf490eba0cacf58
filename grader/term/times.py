"""When a submission came in, from the best source there is, named in the record:

1. Gradescope's submission_metadata.json (`created_at`);
2. a times CSV (`submission,submitted_at` or `student,submitted_at`, ISO 8601; no offset: the course zone);
3. the last commit of a git repository (GitHub Classroom), read with git, hooks and fsmonitor off;
4. the file's own modification time, as a last resort, and marked as one (a copy or an unzip may change it)."""
from __future__ import annotations

import datetime as dt
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

from grader.term.course import parse_when
from grader.term.roster import RosterError, read_csv_rows

LAST_RESORT = "file mtime (last resort: a copy or an unzip may have changed it)"


@dataclass(frozen=True)
class SubmissionTime:
    when: dt.datetime | None
    source: str  # gradescope | times_csv | git | mtime | unknown, then words


def read_times(path: Path, zone: dt.tzinfo) -> dict[str, dt.datetime]:
    rows = read_csv_rows(path, what="a times CSV (submission,submitted_at)")
    header = [h.lower() for h in rows[0]] if rows else []
    if len(header) < 2 or header[0] not in ("submission", "student") or header[1] != "submitted_at":
        raise RosterError(f"{path}:1: a times file starts with 'submission,submitted_at' or 'student,submitted_at'")
    out = {}
    for n, row in enumerate(rows[1:], start=2):
        if len(row) < 2 or not row[0]:
            continue
        when = parse_when(row[1], zone)
        if when is None:
            raise RosterError(f"{path}:{n}: {row[1]!r} is not a date and time; write 2026-09-15T23:59:00-04:00")
        out[row[0]] = when
    return out


def git_time(folder: Path) -> dt.datetime | None:
    if not (folder / ".git").exists():
        return None
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent",
           "GIT_CEILING_DIRECTORIES": str(folder.parent)}
    try:
        done = subprocess.run(["git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
                               "-c", f"safe.directory={folder}", "-C", str(folder), "log", "-1", "--format=%cI"],
                              capture_output=True, text=True, timeout=10, env=env, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return parse_when(done.stdout.strip(), ZoneInfo("UTC")) if done.returncode == 0 else None


def submission_time(folder: str, students: tuple[str, ...], path: Path | None, *, gradescope: dict | None = None,
                    times: dict[str, dt.datetime] | None = None, zone: dt.tzinfo = dt.timezone.utc) -> SubmissionTime:
    meta = gradescope or {}
    created = parse_when(meta.get("created_at"), zone)  # text (JSON) or a datetime (the export's YAML)
    if created is not None:
        return SubmissionTime(created, "gradescope: submission metadata created_at")
    times = times or {}
    stem = path.name if path is not None else folder
    for key in (folder, stem, *students):
        if key in times:
            return SubmissionTime(times[key], f"times CSV ({key})")
    if path is not None and path.is_dir() and not path.is_symlink():
        when = git_time(path)
        if when is not None:
            return SubmissionTime(when, "git: last commit time")
    if path is not None and path.exists():
        stamp = path.lstat().st_mtime
        return SubmissionTime(dt.datetime.fromtimestamp(stamp, dt.timezone.utc), LAST_RESORT)
    return SubmissionTime(None, "unknown: no source gave a time")
