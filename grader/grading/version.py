"""The grader version a report was graded with: the package version plus a digest of the code
that decides verdicts (grading, sandbox, results, config, bundle).

It is part of the resume key (a grader upgrade regrades), and `grade merge` and the Dask engine
refuse to mix versions, so every row of one gradebook comes from the same grader.
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from grader import __version__

PACKAGE = Path(__file__).resolve().parent.parent
# what decides a verdict; authoring, rendering, the CLI and the benchmarks do not
_PARTS = ("grading", "batch", "sandbox", "__init__.py", "bundle.py", "checks.py", "config.py", "errors.py",
          "results.py")


@functools.lru_cache(maxsize=1)
def grader_version() -> str:
    """`<lrkit version>+<12 hex digits>`; the same source gives the same string on every machine."""
    digest = hashlib.sha256()
    for part in _PARTS:
        path = PACKAGE / part
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            if "__pycache__" in file.parts or not file.is_file():
                continue
            rel = file.relative_to(PACKAGE).as_posix()
            digest.update(rel.encode() + b"\0" + file.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return f"{__version__}+{digest.hexdigest()[:12]}"


def version_of(report_environment: dict[str, str]) -> str:
    """The grader version recorded in a report's environment ('' for reports from before it was recorded)."""
    return report_environment.get("grader", "")
