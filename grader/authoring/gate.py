"""What `release` requires: the exact trees it ships passed `check`.

`check` records, per assignment, the fingerprint of the generated trees it graded (the tree hash of
what the autograder bundle will hold: `solutions/<name>/` and `student_template/<name>/`, with the
mutants it measured, `tests/mutants/<name>/`) in `.lrkit/checked.json`. `release` first runs the
build's static validation and makes sure the trees are in sync with `assignments/` and that every
mutant still applies (a stale `old:` text is refused: the mutant would measure nothing); then, for
each assignment whose current fingerprint has no passing check on record, it runs `check` itself,
and refuses if that fails. So `tasks.py all` checks once, a `release` after an edit re-checks by
itself, and nothing unchecked ships.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

from grader.bundle import bundle_entries, tree_hash
from grader.errors import ReleaseError

log = logging.getLogger(__name__)
RECORD = Path(".lrkit") / "checked.json"


def fingerprint(root: Path, name: str) -> str:
    """The tree hash of the two generated trees of ``name`` and of its mutants (`tests/mutants/<name>/`, which
    check measures: an edited mutant needs a new check) ("" when the trees are not built)."""
    solution, template = root / "solutions" / name, root / "student_template" / name
    if not (solution.is_dir() and template.is_dir()):
        return ""
    trees = tree_hash(bundle_entries(solution, template))
    mutants = root / "tests" / "mutants" / name
    records = sorted(p for p in mutants.glob("*.yaml") if p.is_file()) if mutants.is_dir() else []
    if not records:
        return trees
    digest = hashlib.sha256(trees.encode())
    for path in records:
        digest.update(b"\0" + path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _records(root: Path) -> dict[str, str]:
    try:
        data = json.loads((root / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def record_pass(root: Path, name: str, print_: str) -> None:
    """Remember that ``name`` passed check with trees of fingerprint ``print_``."""
    if not print_:
        return
    records = {**_records(root), name: print_}
    path = root / RECORD
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def has_passed(root: Path, name: str) -> bool:
    current = fingerprint(root, name)
    return bool(current) and _records(root).get(name) == current


def require_checked(root: Path, names: list[str]) -> None:
    """Raise `ReleaseError` unless every assignment's trees are valid, in sync, and checked."""
    from grader.authoring.build import build_all, stale_files
    from grader.authoring.check import check

    built = build_all(root, names)  # the static validation: raises BuildError, naming every mistake
    stale = stale_files(root, built)
    if stale:
        raise ReleaseError(f"refusing to release: the generated trees differ from assignments/ ({stale[0]}"
                           f"{', ...' if len(stale) > 1 else ''}); run 'python tasks.py build' first")
    from grader.authoring.mutants import stale_mutants

    for name in names:
        stale_ones = stale_mutants(root, name)
        if stale_ones:
            more = f" (and {len(stale_ones) - 1} more)" if len(stale_ones) > 1 else ""
            raise ReleaseError(f"refusing to release {name}: {stale_ones[0]}{more}; nothing was written")
    for name in names:
        if has_passed(root, name):
            log.info("%s: check passed on exactly these trees (%s)", name, fingerprint(root, name)[:12])
            continue
        log.info("%s: no passing check recorded for these trees: running check first", name)
        if check(root, [name]) != 0 or not has_passed(root, name):
            raise ReleaseError(f"refusing to release {name}: 'python tasks.py check {name}' fails (see above); "
                               "nothing was written")
