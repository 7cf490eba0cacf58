"""`grade similarity OUT_DIR [--to DIR]`: the class of a batch output compared, pair by pair, and the groups
that share a wrong output; similarity.json and similarity.html (grader/integrity/pages.py) into DIR.

    batch output -> the class (grader/integrity/classlist.py) -> each submission's texts, unpacked again from
    the submissions folder (sources.py) -> code and answers compared (similarity.py) -> shared wrong outputs
    (shared_outputs.py) -> pages

The bundle gives the template (what every student got, taken away) and the thresholds (assignment.yaml
`integrity:`). Nothing is graded and no report is changed.
"""
from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

from grader.bundle import open_bundle
from grader.errors import UsageError
from grader.grading.pipeline import answer_key
from grader.integrity import pages
from grader.integrity.classlist import read_class
from grader.integrity.shared_outputs import COPYING, shared_outputs
from grader.integrity.similarity import CODE, compare_class, normalised_answer
from grader.integrity.sources import read_submission, read_template, without_template
from grader.integrity.variant_matches import variant_matches, without_id
from grader.sandbox import scratch_dir

log = logging.getLogger(__name__)


def _texts(subs, template) -> dict[tuple[str, str], str]:
    texts = {(s.name, CODE): s.code for s in subs}
    for s in subs:
        texts.update({(s.name, a): normalised_answer(s.answer(a)) for a, _ in template.answers})
    return texts


def run_similarity(out_dir: Path, to: Path | None = None, *, submissions: Path | None = None,
                   autograder: Path | None = None) -> tuple[dict[str, Path], list[str]]:
    """Compare the class of ``out_dir``; write the report into ``to`` (default ``out_dir``). Returns the files
    written and the lines to print."""
    to = to or out_dir
    for name in ("similarity.json", "similarity.html"):
        if (to / name).is_dir() or (to / name).is_symlink():
            raise UsageError(f"{to / name} is a folder or a link; give another --to DIR")
    klass = read_class(out_dir, submissions, autograder)
    with scratch_dir("similarity") as tmp:
        bundle = open_bundle(klass.autograder, tmp / "bundle")
        config, policy = bundle.config, bundle.config.integrity
        if klass.members and klass.members[0].report.assignment != config.name:
            raise UsageError(f"{out_dir} grades {klass.members[0].report.assignment!r} but {klass.autograder} is "
                             f"the bundle of {config.name!r}; give the bundle the batch used (--autograder)")
        template, prose = read_template(bundle.template, config)
        subs = [without_template(read_submission(m.path, m.folder, config, tmp / f"s{n}"), template)
                for n, m in enumerate(klass.members)]
        matches = variant_matches(klass.members, answer_key(bundle.solution, config), config)
    sim = compare_class(subs, template, prose, policy)
    groups = shared_outputs(klass.members, sim.code, policy)
    notes = [*klass.notes, *(f"{s.name}: {n}" for s in subs for n in s.notes)]
    files = pages.render(sim, groups, _texts(subs, template), assignment=config.name,
                         settings=dataclasses.asdict(policy), notes=notes,
                         variants=pages.Variants(matches, without_id(klass.members, config)))
    written = pages.write(to, files)
    flagged = sum(p.flagged for p in sim.code)
    lines = [f"compared {len(sim.compared)} of {len(klass.members)} submissions ({sim.pairs_compared} pairs, "
             f"{sim.seconds:.1f} s): {flagged} code pair(s) from {policy.flag}, {len(sim.clusters)} cluster(s) of "
             f"3+, {sum(p.flagged for p in sim.answers)} answer pair(s) from {policy.answers_flag}, "
             f"{len(groups)} shared wrong output(s) ({sum(g.reading == COPYING for g in groups)} read as copying), "
             f"{len(matches)} submission(s) with answers right for other numbers than their own",
             f"wrote {written['similarity.html']} and {written['similarity.json']} (staff only)"]
    return written, lines
