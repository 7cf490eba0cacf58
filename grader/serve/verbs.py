"""The `grade` verbs this room owns (registered by grader/cli.py).

    grade serve OUT_DIR [--port N] [--host H] [--autograder ZIP] [--anonymous]
"""
from __future__ import annotations

import logging
import sys
from pathlib import Path


def register(sub) -> None:
    """Add this room's sub-parsers to `sub`; each sets `handler=` with `set_defaults`."""
    s = sub.add_parser("serve", help="grade the hand-graded items in the browser, question by question")
    s.add_argument("out_dir", metavar="OUT_DIR", help="the output folder of 'grade batch'")
    s.add_argument("--port", type=int, default=None,
                   help="the port (0: any free one; default: the first free one from 8750)")
    s.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    s.add_argument("--autograder", metavar="ZIP", default=None,
                   help="dist/<name>-autograder.zip: questions, model answers and rubric entries (default: "
                        "solutions/<name>/ of the kit's checkout)")
    s.add_argument("--anonymous", action="store_true", help="start with names hidden (each grader can switch)")
    s.set_defaults(handler=cmd_serve)


def cmd_serve(args) -> int:
    from grader.serve.server import serve

    if not args.verbose:  # one line per request is noise beside the URL
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    return serve(Path(args.out_dir), host=args.host, port=args.port,
                 autograder=Path(args.autograder) if args.autograder else None, anonymous=args.anonymous,
                 out=sys.stdout)
