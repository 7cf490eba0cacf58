"""Can a gate see what it guards? Warnings `tasks.py check` prints before grading.

A gate (a check named in a rubric item's `requires` or `evidence`) decides whether a function "does its
job at all". Its cases must be able to show the job: a chunkwise form's cases must span at least two
chunks (or the state carried from chunk to chunk never shows), and a recurrent or step form's cases more
than one token (or nothing depends on an earlier token). Read from the cases' inputs, without running
anything: the sequence length of a case is the longest token axis of its token arrays (inputs named like
`x`, `q`, `k`, `v`, `Q0`, `tokens`: the second-to-last axis; a 1-D one is a single token's vector, as a
step's input is), or, with no input so named, of all its arrays (a 1-D array's only axis); its chunk size
the smallest integer input named `chunk...`.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

CHUNK = re.compile(r"^chunk(?:_?size)?_?\d*$", re.IGNORECASE)
TOKENS = re.compile(r"^(?:x|q|k|v|queries|keys|values|tokens?|inputs?)_?\d*(?:_\w+)?$", re.IGNORECASE)


def sequence_length(inputs: dict) -> int | None:
    """The longest token axis of a case's token arrays, else of all its arrays (None when it has no array)."""
    arrays = {k: np.asarray(v) for k, v in inputs.items() if isinstance(v, np.ndarray) and np.ndim(v) >= 1}
    tokens = {k: a for k, a in arrays.items() if TOKENS.match(str(k))}
    if tokens:  # a 1-D token array is one token's vector (a step's q, k or v)
        return max(a.shape[-2] if a.ndim >= 2 else 1 for a in tokens.values())
    lengths = [a.shape[-2] if a.ndim >= 2 else a.shape[0] for a in arrays.values()]
    return max(lengths) if lengths else None


def chunk_size(inputs: dict) -> int | None:
    """The smallest chunk size a case asks for (None when it names none)."""
    sizes = [int(v) for k, v in inputs.items() if CHUNK.match(str(k)) and isinstance(v, (int, np.integer))
             and not isinstance(v, bool) and int(v) > 0]
    return min(sizes) if sizes else None


def blind_spots(cases: list) -> list[str]:
    """What a gate's cases cannot show (empty when they can show it)."""
    lengths = [(sequence_length(c.inputs), chunk_size(c.inputs)) for c in cases]
    lengths = [(n, chunk) for n, chunk in lengths if n is not None]
    if not lengths:
        return []
    found = []
    chunked = [(n, chunk) for n, chunk in lengths if chunk]
    if chunked and all(n <= chunk for n, chunk in chunked):
        n, chunk = max(chunked)
        found.append(f"every case fits in one chunk (at most {n} tokens, chunk size {chunk}), so it cannot see the "
                     "state carried from one chunk to the next: give it a case at least two chunks long")
    if all(n <= 1 for n, _ in lengths):
        found.append("every case is one token long, so it cannot see an output depend on an earlier token (a "
                     "recurrent or step form's state): give it a case of several tokens")
    return found


def gate_warnings(root: Path, built) -> list[str]:
    """One warning per gate of ``built`` (a `build.BuiltAssignment` with its trees written under ``root``)
    whose cases cannot show what it guards."""
    from grader.authoring.check import Sources
    from grader.config import load_rubric
    from grader.grading.checks import Case, load_checks

    tree = root / "solutions" / built.name
    try:
        rubric, specs = load_rubric(tree), load_checks(tree / "hidden")
    except Exception:  # the author's rubric or checks do not load: check itself reports it, with its line
        return []
    gates = sorted({g for item in rubric.items for g in (*item.requires, *item.evidence)})
    s, warnings = Sources(root, built), []
    for gate in gates:
        spec = specs.get(gate)
        if spec is None:
            continue
        try:
            cases = [c for c in spec.cases() if isinstance(c, Case)]
        except Exception:  # a check that cannot make its cases is check's error, not a warning
            continue
        for spot in blind_spots(cases):
            where = s.check_def(gate) or f"{s.src}/hidden/verdicts.py"
            warnings.append(f"{where}: gate {gate!r}: {spot}")
    return warnings
