"""Code and free-text similarity across a class, with copydetect (k-gram fingerprints as MOSS uses them).

    each submission's code -> copydetect's tokens (pygments: comments, formatting and strings away; every
    variable, function and class name the same letter) -> k-grams of `noise` characters, those of the
    template taken away -> every pair compared -> scores, the longest shared run, clusters of flagged pairs

A pair's score is the share of both texts' own k-gram coverage (what is left once the template's is taken
away) that the two share: 0 nothing in common, 1 everything. A text with less than `min_chars` of its own (an
untouched template, a blank answer) is not compared: sharing the template is never evidence. Free-text
answers are compared the same way, letter by letter (case and spacing ignored), with the notebook's
questions and placeholders taken away.

With `guarantee` equal to `noise` (the default, as copydetect's own) every k-gram is kept, so the scores do
not depend on Python's per-process string hashing; a larger `guarantee` winnows (fewer hashes, faster, the
scores vary a little between runs).
"""
from __future__ import annotations

import io
import logging
import re
import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from grader.config import IntegrityPolicy
from grader.integrity.sources import Sources

log = logging.getLogger(__name__)
FRAGMENT_CHARS = 4_000  # of the longest shared run, kept for the pages
CODE = "code"


@dataclass(frozen=True)
class Fragment:
    """The longest run a pair shares: its lines in each text (1-based, inclusive) and a's text of it."""

    a_lines: tuple[int, int]
    b_lines: tuple[int, int]
    text: str


@dataclass(frozen=True)
class Pair:
    """Two submissions compared on one thing (their code, or one free-text answer)."""

    a: str
    b: str
    what: str  # "code" or the free-text answer's id
    score: float  # 0..1: the share of both texts' own material that they share
    share_a: float  # the share of a's own material found in b
    share_b: float
    flagged: bool
    longest: Fragment | None = None
    spans_a: tuple[tuple[int, int], ...] = ()  # character spans of a's text shared with b (flagged pairs only)
    spans_b: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Cluster:
    """Three or more submissions joined by flagged code pairs."""

    members: tuple[str, ...]
    pairs: int  # flagged pairs among them
    top: float  # the highest score among them


@dataclass(frozen=True)
class Similarity:
    """What `compare_class` found."""

    code: tuple[Pair, ...]  # listed code pairs, most similar first
    answers: tuple[Pair, ...]  # listed answer pairs, most similar first
    clusters: tuple[Cluster, ...]
    compared: tuple[str, ...]  # submissions whose code was compared
    too_short: tuple[str, ...]  # submissions with too little code of their own (the template's taken away)
    pairs_compared: int
    seconds: float


def normalised_answer(text: str) -> str:
    """Free text as it is compared: lower case, one space between words."""
    return re.sub(r"\s+", " ", text).strip().lower()


class Fingerprints:
    """copydetect fingerprints of many texts with one set of settings and one boilerplate."""

    def __init__(self, policy: IntegrityPolicy, boilerplate: str, *, tokens: bool):
        from copydetect import CodeFingerprint  # here: it imports matplotlib, and importing us does no work

        self.policy, self.tokens, self.make = policy, tokens, CodeFingerprint
        self.window = policy.guarantee - policy.noise + 1
        base = self.make("template.py", policy.noise, 1, filter=tokens, fp=io.StringIO(boilerplate))
        self.boilerplate = np.array(sorted(base.hashes), dtype=np.int64)

    def of(self, text: str):
        """The fingerprint of ``text``, or None when it has less than `min_chars` of its own."""
        if len(text) < self.policy.min_chars:
            return None
        fp = self.make("submission.py", self.policy.noise, self.window, boilerplate=self.boilerplate,
                       filter=self.tokens, fp=io.StringIO(text))
        return fp if fp.token_coverage >= self.policy.min_chars else None


def _lines(text: str, start: int, end: int) -> tuple[int, int]:
    return text.count("\n", 0, start) + 1, text.count("\n", 0, max(start, end - 1)) + 1


def _spans(slices) -> tuple[tuple[int, int], ...]:
    return tuple((int(s), int(e)) for s, e in zip(slices[0], slices[1]))


def compare_two(a: str, b: str, what: str, fa, fb, flag: float, texts: tuple[str, str]) -> Pair | None:
    """One pair through copydetect's `compare_files`; None when they share nothing."""
    from copydetect import compare_files

    shared, (sim_a, sim_b), (slices_a, slices_b) = compare_files(fa, fb)
    if not shared:
        return None
    score = min(1.0, (sim_a * fa.token_coverage + sim_b * fb.token_coverage) / (fa.token_coverage
                                                                               + fb.token_coverage))
    score, sim_a, sim_b = round(float(score), 4), round(float(min(sim_a, 1.0)), 4), round(float(min(sim_b, 1.0)), 4)
    if score < flag:
        return Pair(a, b, what, score, sim_a, sim_b, False)
    la, lb = int(np.argmax(slices_a[1] - slices_a[0])), int(np.argmax(slices_b[1] - slices_b[0]))
    sa, ea, sb, eb = (int(slices_a[0][la]), int(slices_a[1][la]), int(slices_b[0][lb]), int(slices_b[1][lb]))
    longest = Fragment(_lines(texts[0], sa, ea), _lines(texts[1], sb, eb), texts[0][sa:ea][:FRAGMENT_CHARS])
    return Pair(a, b, what, score, sim_a, sim_b, True, longest, _spans(slices_a), _spans(slices_b))


def compare_all(names: Sequence[str], texts: Sequence[str], fps: Sequence, what: str, flag: float) -> list[Pair]:
    """Every pair of texts that both have a fingerprint, the pairs that share something, most similar first."""
    found = []
    kept = [i for i, fp in enumerate(fps) if fp is not None]
    for n, i in enumerate(kept):
        for j in kept[n + 1:]:
            pair = compare_two(names[i], names[j], what, fps[i], fps[j], flag, (texts[i], texts[j]))
            if pair is not None:
                found.append(pair)
    return sorted(found, key=lambda p: (-p.score, p.a, p.b))


def clusters_of(pairs: Sequence[Pair]) -> tuple[Cluster, ...]:
    """Connected groups of three or more submissions among the flagged pairs (largest first)."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    flagged = [p for p in pairs if p.flagged]
    for p in flagged:
        parent[root(p.a)] = root(p.b)
    groups: dict[str, list[str]] = {}
    for name in parent:
        groups.setdefault(root(name), []).append(name)
    out = []
    for members in groups.values():
        if len(members) >= 3:
            inside = [p for p in flagged if p.a in members and p.b in members]
            out.append(Cluster(tuple(sorted(members)), len(inside), max(p.score for p in inside)))
    return tuple(sorted(out, key=lambda c: (-len(c.members), -c.top, c.members)))


def _listed(pairs: list[Pair], listed: int) -> tuple[Pair, ...]:
    return tuple(p for n, p in enumerate(pairs) if p.flagged or n < listed)


def compare_class(subs: Sequence[Sources], template: Sources, prose: str, policy: IntegrityPolicy) -> Similarity:
    """Compare every submission with every other on its code and on each free-text answer."""
    started = time.perf_counter()
    names = [s.name for s in subs]
    code = Fingerprints(policy, template.code, tokens=True)
    code_fps = [code.of(s.code) for s in subs]
    code_pairs = compare_all(names, [s.code for s in subs], code_fps, CODE, policy.flag)
    answer_pairs: list[Pair] = []
    answer_ids = [a for a, _ in template.answers]  # the template's questions only: a student's tags are theirs
    if answer_ids:
        given = normalised_answer(prose + "\n" + "\n".join(t for _, t in template.answers))
        text = Fingerprints(policy, given, tokens=False)
        for answer_id in answer_ids:
            texts = [normalised_answer(s.answer(answer_id)) for s in subs]
            answer_pairs += compare_all(names, texts, [text.of(t) for t in texts], answer_id, policy.answers_flag)
    answer_pairs.sort(key=lambda p: (-p.score, p.what, p.a, p.b))
    kept = sum(fp is not None for fp in code_fps)
    seconds = round(time.perf_counter() - started, 2)
    log.info("similarity: %d submissions, %d compared on code (%d pairs) in %.1f s", len(subs), kept,
             kept * (kept - 1) // 2, seconds)
    return Similarity(_listed(code_pairs, policy.listed), _listed(answer_pairs, policy.listed),
                      clusters_of(code_pairs), tuple(n for n, fp in zip(names, code_fps) if fp is not None),
                      tuple(n for n, fp in zip(names, code_fps) if fp is None), kept * (kept - 1) // 2, seconds)
