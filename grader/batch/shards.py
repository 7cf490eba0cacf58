"""Shards: a stable, disjoint part of a class for each machine of a CI matrix or a job array.

    grade batch SUBS --shard 3/20 --out out/s03     grades the submissions whose name hashes to 3 of 20
    grade merge out/s* --out out/class              one gradebook; refuses gaps, duplicates, mixes

Membership is `sha256(name) mod N`, so a late submission lands in one shard and moves no one
else. Each shard writes `_shards/shard-<i>-of-<N>.json` into its output folder before grading:
what it was asked to grade, the whole class it saw, the bundle hash and the grader version.
`grade merge` reads those manifests to prove the union is complete (grader/batch/merge.py).
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from grader.errors import UsageError
from grader.report.render import write_atomic

MANIFEST_DIR = "_shards"
MANIFEST_SCHEMA = 1


@dataclass(frozen=True, order=True)
class Shard:
    index: int  # 1-based, like $CI_NODE_INDEX, ${{ matrix.shard }}, $SLURM_ARRAY_TASK_ID
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, name: str) -> bool:
        return shard_of(name, self.count) == self.index

    @property
    def manifest_name(self) -> str:
        width = len(str(self.count))
        return f"shard-{self.index:0{width}d}-of-{self.count}.json"


def parse_shard(text: str) -> Shard:
    """'3/20' -> Shard(3, 20); 1-based; a clear UsageError for anything else."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not match:
        raise UsageError(f"--shard {text!r}: expected I/N, e.g. --shard 3/20 (1-based: 1/20 .. 20/20)")
    index, count = int(match[1]), int(match[2])
    if count < 1 or not 1 <= index <= count:
        raise UsageError(f"--shard {text}: I must be between 1 and N (1-based; got {index} of {count}); "
                         "for a 0-based index such as Kubernetes' JOB_COMPLETION_INDEX pass $((index+1))")
    return Shard(index, count)


def shard_of(name: str, count: int) -> int:
    """The 1-based shard of the submission called ``name``; depends on the name and N only."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


@dataclass(frozen=True)
class Manifest:
    """What one shard was asked to grade, written before it grades anything."""

    shard: Shard
    assignment: str
    bundle_hash: str
    grader_version: str
    assigned: tuple[str, ...]  # the names of this shard
    seen: tuple[str, ...]  # every name in the class folder when the shard ran
    rubric: tuple[tuple[str, str, float], ...]  # (id, title, points): the gradebook's item columns
    folder: Path  # the shard's output folder (not stored; where the manifest was read)

    def to_json(self) -> str:
        data = {"schema": MANIFEST_SCHEMA, "shard": self.shard.index, "of": self.shard.count,
                "assignment": self.assignment, "bundle_hash": self.bundle_hash,
                "grader_version": self.grader_version, "assigned": list(self.assigned), "seen": list(self.seen),
                "rubric": [list(i) for i in self.rubric]}
        return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_manifest(out: Path, manifest: Manifest) -> Path:
    path = out / MANIFEST_DIR / manifest.shard.manifest_name
    write_atomic({path: manifest.to_json()})
    return path


def read_manifests(out: Path) -> list[Manifest]:
    """Every shard manifest in an output folder (a shared folder may hold all N)."""
    manifests = []
    for path in sorted((out / MANIFEST_DIR).glob("shard-*-of-*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("schema") != MANIFEST_SCHEMA:
                raise ValueError(f"schema {data.get('schema')!r} is not {MANIFEST_SCHEMA}")
            manifests.append(Manifest(
                Shard(int(data["shard"]), int(data["of"])), str(data["assignment"]),
                str(data["bundle_hash"]), str(data["grader_version"]), tuple(map(str, data["assigned"])),
                tuple(map(str, data["seen"])), tuple((str(i), str(t), float(p)) for i, t, p in data["rubric"]),
                out))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"{path}: not a readable shard manifest ({exc}); rerun that shard") from None
    return manifests
