"""Shared wrong outputs: students whose code gives the same wrong numbers on a hidden check's fixed inputs.

Whatever two students renamed, a bug they share gives the same wrong outputs on the same probe inputs. The
grader records, for each official check a submission failed with a wrong result, a fingerprint of its outputs
on that check's cases, rounded so that float noise does not matter (`grader.grading.fingerprint`, in
report.json). Here the class's fingerprints are grouped by check; a group of two or more is listed with its
size and sections, and read by size and by co-occurrence with code similarity:

    common mistake   at least `common` students (usually across sections): the same wrong idea, reached alone
    copying?         a smaller group whose members' code is also flagged as similar (which pairs, said)
    small group      a smaller group without similar code: worth a look, it proves nothing
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from grader.config import IntegrityPolicy
from grader.integrity.classlist import Member
from grader.integrity.similarity import Pair

COMMON, COPYING, SMALL = "common mistake", "copying?", "small group"


@dataclass(frozen=True)
class SharedOutput:
    """Students whose outputs on one check are the same wrong ones."""

    check: str
    fingerprint: str
    members: tuple[str, ...]
    sections: tuple[str, ...]
    reading: str  # COMMON, COPYING or SMALL
    why: str


def _reading(members: tuple[str, ...], sections: tuple[str, ...], similar: set[frozenset[str]],
             policy: IntegrityPolicy) -> tuple[str, str]:
    n, pairs = len(members), len(members) * (len(members) - 1) // 2
    where = f" in {len(sections)} sections" if len(sections) > 1 else f" in section {sections[0]}" if sections else ""
    if n >= policy.common:
        return COMMON, f"{n} students{where}: a common mistake (from {policy.common}, integrity.common)"
    linked = sum(frozenset((a, b)) in similar for i, a in enumerate(members) for b in members[i + 1:])
    if linked:
        share = "every pair of them" if linked == pairs else f"{linked} of their {pairs} pairs"
        return COPYING, f"{n} students{where} whose code is also flagged as similar ({share})"
    return SMALL, f"{n} students{where} whose code is not flagged as similar"


def shared_outputs(members: Sequence[Member], code_pairs: Sequence[Pair], policy: IntegrityPolicy
                   ) -> tuple[SharedOutput, ...]:
    """Groups of two or more students with one wrong fingerprint on one check: copying first, then by size."""
    by_key: dict[tuple[str, str], list[Member]] = {}
    for m in members:
        for check, digest in sorted(m.report.fingerprints.items()):
            by_key.setdefault((check, digest), []).append(m)
    similar = {frozenset((p.a, p.b)) for p in code_pairs if p.flagged}
    order = {COPYING: 0, SMALL: 1, COMMON: 2}
    groups = []
    for (check, digest), found in by_key.items():
        if len(found) < 2:
            continue
        names = tuple(sorted(m.folder for m in found))
        sections = tuple(sorted({m.section for m in found if m.section}))
        reading, why = _reading(names, sections, similar, policy)
        groups.append(SharedOutput(check, digest, names, sections, reading, why))
    return tuple(sorted(groups, key=lambda g: (order[g.reading], -len(g.members), g.check, g.members)))
