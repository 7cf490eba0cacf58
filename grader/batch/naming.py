"""The folder (and gradebook row) each entry of a batch gets: safe, unique, and the same every run.

A name comes from the entry's file name (``alice.zip`` -> ``alice``) with everything but
letters, digits and ``. _ - +`` replaced by ``_`` (no control characters, separators, spaces
or quotes), starting with a letter or a digit, at most 80 characters. Names are compared
case-insensitively (a Mac or Windows disk would merge ``Alice`` and ``alice``). Two entries
that end with the same name (``alice/`` and ``alice.zip``), or a name that is one of the
class files (``gradebook.csv``, ``summary.html``), are told apart by ``~2``, ``~3``, ... in a
fixed order (by name, then the entry's raw bytes), never by the order a folder lists them;
each renamed entry's report says so.
"""
from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from pathlib import Path

from grader.grading.intake import submission_name

CLASS_FILES = frozenset({"gradebook.csv", "summary.html", "similarity.json", "similarity.html"})
MAX_NAME = 80
_UNSAFE = re.compile(r"[^\w.+-]")


def safe_name(raw: str) -> str:
    """A folder name anyone can type and no shell, terminal or spreadsheet misreads."""
    name = unicodedata.normalize("NFC", raw.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
    name = "".join(ch if ch.isprintable() and not ch.isspace() else "_" for ch in name)
    name = _UNSAFE.sub("_", name).strip("._-+")
    if not name or not name[0].isalnum():
        name = "s_" + name
    if len(name) > MAX_NAME:  # keep it unique: the cut part becomes a short hash
        digest = hashlib.sha256(raw.encode("utf-8", "surrogateescape")).hexdigest()[:8]
        name = f"{name[:MAX_NAME - 9]}~{digest}"
    return name


def assign(paths: list[Path], reserved: frozenset[str] = CLASS_FILES) -> tuple[list[tuple[Path, str]], dict[str, str]]:
    """[(entry, its folder name)] in the entries' order, and a note per name that is not the
    entry's own (renamed to stay safe or unique)."""
    wanted = {path: safe_name(submission_name(path)) for path in paths}
    taken = {name.casefold() for name in reserved}
    names: dict[Path, str] = {}
    notes: dict[str, str] = {}
    for path in sorted(paths, key=lambda p: (wanted[p].casefold(), wanted[p], os.fsencode(p.name))):
        base = name = wanted[path]
        n = 1
        while name.casefold() in taken:
            n += 1
            name = f"{base}~{n}"
        taken.add(name.casefold())
        names[path] = name
        shown = ascii(path.name)[1:-1]
        if name != base:
            others = "a class file" if base.casefold() in {r.casefold() for r in reserved} else \
                "another submission in the batch"
            notes[name] = (f"this is the submission '{shown}'; its report is in '{name}' because {others} "
                           f"is also named '{base}'")
        elif name != submission_name(path):
            notes[name] = f"this is the submission '{shown}'; its report is in '{name}' (a name safe everywhere)"
    return [(path, names[path]) for path in paths], notes
