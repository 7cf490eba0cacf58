"""The `grade` verbs this room owns (registered by grader/cli.py):

    grade similarity OUT_DIR [--to DIR] [--submissions DIR] [--autograder ZIP]
        after `grade batch`: code and free-text similarity (the template taken away) and shared wrong outputs,
        as similarity.json (pairs, most similar first) and similarity.html, into DIR (default OUT_DIR)
"""
from __future__ import annotations

from pathlib import Path


def cmd_similarity(args) -> int:
    from grader.integrity.command import run_similarity  # here, not at import: every `grade` builds this parser

    _, lines = run_similarity(Path(args.out_dir), Path(args.to) if args.to else None,
                              submissions=Path(args.submissions) if args.submissions else None,
                              autograder=Path(args.autograder) if args.autograder else None)
    print("\n".join(lines))
    return 0


def register(sub) -> None:
    """Add this room's sub-parsers to `sub`; each sets `handler=` with `set_defaults`."""
    s = sub.add_parser("similarity", help="after a batch: code similarity and shared wrong outputs (staff only)")
    s.add_argument("out_dir", help="the --out folder of 'grade batch'")
    s.add_argument("--to", metavar="DIR", help="where similarity.json and similarity.html go (default: OUT_DIR)")
    s.add_argument("--submissions", metavar="DIR",
                   help="the submissions folder the batch graded (default: as the batch recorded it)")
    s.add_argument("--autograder", metavar="ZIP", help="the bundle the batch used (default: as recorded)")
    s.set_defaults(handler=cmd_similarity)
