"""What a student unzips: the template, a README, the assignment's identity, and the checker.

    <name>/README.md                what to edit, how to test, how to hand in (generated)
    <name>/lrkit-assignment.json    name + release hash; handed back with the work
    <name>/requirements.txt         the packages the grader uses, pinned to the versions it was released with
    <name>/wheels/lrkit-*.whl       the checker itself (`grade --local`, `grade pack`), installable offline
    <name>/...                      the student template; its notebook carries the identity in metadata.lrkit

Everything here is a pure function of the generated trees, the kit's sources and the
installed versions, so releasing twice gives the same bytes.
"""
from __future__ import annotations

import importlib.metadata
import json
import re
import sys
from pathlib import Path

from grader.bundle import IDENTITY, Identity, folder_files
from grader.config import AssignmentConfig
from grader.errors import ReleaseError

README = "README.md"
REQUIREMENTS = "requirements.txt"


def pinned_requirements(dependencies: tuple[str, ...]) -> str:
    """requirements.txt: each dependency at the version installed here (the one the kit was released
    and tested with); a dependency not installed keeps its range."""
    lines = ["# The packages the grader uses, at the versions this assignment was released with.",
             "# pip install -r requirements.txt    (then: pip install --no-index --find-links wheels lrkit)"]
    for dep in dependencies:
        name = re.match(r"[A-Za-z0-9_.\-]+", dep).group(0)
        try:
            version = importlib.metadata.version(name).split("+", 1)[0]  # 2.13.0+cpu -> 2.13.0 (matches both)
            lines.append(f"{name}=={version}")
        except importlib.metadata.PackageNotFoundError:
            lines.append(dep)
    return "\n".join(lines) + "\n"


def notebook_with_identity(data: bytes, identity: Identity) -> bytes:
    """The notebook with `metadata.lrkit` set; written as the build writes notebooks (sorted, indent 1).
    Jupyter keeps notebook metadata on save, so the identity comes back even without the file."""
    notebook = json.loads(data)
    notebook.setdefault("metadata", {})["lrkit"] = {"assignment": identity.assignment, "release": identity.release}
    return (json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def _stub_count(template: Path, config: AssignmentConfig) -> int:
    count = 0
    for rel in config.student_files:
        path = template / rel
        if path.is_file() and path.suffix == ".py":
            count += path.read_text(encoding="utf-8").count("raise NotImplementedError")
    return count


README_TEXT = """# {title}

Assignment `{name}`, release `{short}`. Work in this folder.

## What to edit

{edit}
Only these files are graded; changes anywhere else (tests, rubric, other files) are ignored.
{precision}
## Set up, once

Python {python} (the grader's version; the pinned packages may need it). In this folder:

```bash
python3 -m venv .venv
source .venv/bin/activate            # Windows: .venv\\Scripts\\activate
pip install -r requirements.txt      # torch, numpy, ... at the grader's versions (internet or a course mirror)
pip install --no-index --find-links wheels lrkit    # the checker, from this folder, offline
```

On Linux, adding `--extra-index-url https://download.pytorch.org/whl/cpu` to the requirements
line gets torch's CPU build: a much smaller download, and all this assignment needs.

If your machine already has those packages (a lab image), the last line alone is enough and needs no
network. To open the notebook: `pip install notebook` and `jupyter notebook {notebook}`, or VS Code.

## Test

```bash
python -m pytest tests/              # the public tests; add -k NAME for some of them
grade --local                        # your notebook, the public tests and the answers you can check
```

`grade --local` prints a report and writes `grade-report/report.html`. Items graded with hidden tests
show as "official grader only": the official grader runs them on your hand-in. It runs again only what
your edit can affect. Where it runs sandboxed (Linux as root with bubblewrap, e.g. a course container),
it keeps one process with torch imported for 15 minutes after your last run, so that the next run
starts at once (`LRKIT_KEEP_WARM=0` turns that off).

## Hand in

```bash
grade pack                           # writes {name}-submission.zip
```

Hand in that one zip. It holds exactly: {hand_in_list}.
Zipping by hand instead: put those files at the top of the zip, e.g.
`zip {name}-submission.zip {hand_in_words}`{folders}.
`{identity}` tells the grader which assignment and release the work is for: a submission for
another assignment is refused, and a missing file is reported as missing (the grader never fills
it in from the template).

The checker inside `wheels/` ({wheel}) is the grader the course uses, without the hidden tests.
"""


def readme(config: AssignmentConfig, identity: Identity, template: Path, wheel: str) -> str:
    """The student's README: edit, set up, test, hand in; every file named, every command runnable."""
    modules = [f for f in config.student_files if f.endswith(".py")]
    stubs = _stub_count(template, config)
    hand_in = [*config.student_files, IDENTITY]
    nested = sorted({f.split("/", 1)[0] + "/" for f in config.student_files if "/" in f})
    folders = f" (keeping the folders, {', '.join(f'`{n}`' for n in nested)}, as they are)" if nested else ""
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    precision = (f"Numeric answers: write a number and a unit where there is one (`2.5 GB`, `512 KiB`) with at "
                 f"least {config.answers.sigfigs} significant figures; the grader compares your answer with the "
                 "key rounded to the precision you wrote.\n" if config.answers.sigfigs else
                 "Numeric answers: write a number and a unit where there is one (`2.5 GB`, `512 KiB`); the "
                 "question says how precise to be.\n")
    edit = "".join(f"- `{m}`: complete the code" + (f" (every `raise NotImplementedError`, {stubs} in all)"
                                                    if stubs and len(modules) == 1 else "") + ".\n" for m in modules)
    edit += f"- `{config.notebook}`: the exercises, the `answers` cell (YAML) and the written answers.\n"
    return README_TEXT.format(title=config.title, name=config.name, short=identity.short, edit=edit,
                              precision=precision, python=python, notebook=config.notebook,
                              hand_in_list=", ".join(f"`{f}`" for f in hand_in), hand_in_words=" ".join(hand_in),
                              folders=folders, identity=IDENTITY, wheel=wheel)


def student_entries(name: str, config: AssignmentConfig, template: Path, identity: Identity,
                    wheel: tuple[str, bytes], dependencies: tuple[str, ...]) -> list[tuple[str, bytes]]:
    """Every entry of ``<name>-student.zip``."""
    entries = []
    for rel, data in folder_files(template):
        if rel in (README, REQUIREMENTS, IDENTITY) or rel.startswith("wheels/"):
            raise ReleaseError(f"student_template/{name}/{rel}: the release writes this file itself; "
                               "rename it in assignments/")
        if rel == config.notebook:
            data = notebook_with_identity(data, identity)
        entries.append((f"{name}/{rel}", data))
    wheel_name, wheel_data = wheel
    entries += [
        (f"{name}/{README}", readme(config, identity, template, wheel_name).encode("utf-8")),
        (f"{name}/{IDENTITY}", identity.to_bytes(config.title, (*config.student_files, IDENTITY))),
        (f"{name}/{REQUIREMENTS}", pinned_requirements(dependencies).encode("utf-8")),
        (f"{name}/wheels/{wheel_name}", wheel_data),
    ]
    return entries
