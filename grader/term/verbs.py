"""The `grade` verbs this room owns (registered by grader/cli.py):

    grade ingest OUT_DIR                       a batch output into the term's ledger (students, times, attempts)
    grade export canvas|moodle|csv OUT_DIR… --to FILE [--roster FILE] [--section S]
                                               the gradebook the LMS imports, penalties applied
    grade publish OUT_DIR [--student ID]       release feedback and grades; receipts
    grade regrade-diff OUT_DIR                 what a regrade changed; lower published grades are held
    grade term summary --to DIR                each student across the term (CSV + HTML)
    grade term override|accept …               a person's points for an item; accept a held lower regrade

Each takes --course FILE (default: ./course.yaml; without one, the ledger is OUT_DIR/_term/term.sqlite and
nothing is late). Commands that read OUT_DIR take what the class handed in: --submissions DIR, --times CSV,
--gradescope FILE, --mapping CSV (each defaults to the assignment's entry in course.yaml)."""
from __future__ import annotations

import getpass
from pathlib import Path

from grader.errors import UsageError

FORMATS = ("canvas", "moodle", "csv")  # grader/term/lms.py writes each (a test checks they agree)
INPUT_FLAGS = ("submissions", "times", "gradescope", "mapping")


def _who() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no passwd entry (a container): say so rather than guess
        return "unknown"


def _flags(args) -> dict:
    return {k: getattr(args, k, None) for k in INPUT_FLAGS}


def _run(lines: list[str]) -> int:
    print("\n".join(lines))
    return 0


def _with_term(args, out_dir: Path | None, body) -> int:
    from grader.term.session import open_term  # here, not at import: every `grade` command builds this parser

    term = open_term(args.course, out_dir, getattr(args, "roster", None))
    try:
        return _run(body(term))
    finally:
        term.conn.close()


def cmd_ingest(args) -> int:
    from grader.term import commands

    out = Path(args.out_dir)
    return _with_term(args, out, lambda t: commands.ingest_lines(commands.ingest_output(t, out, _flags(args))))


def cmd_export(args) -> int:
    from grader.term import commands

    outs = [Path(o) for o in args.out_dirs]
    return _with_term(args, outs[0], lambda t: commands.export(t, args.format, outs, Path(args.to), args.section,
                                                                _flags(args)))


def cmd_publish(args) -> int:
    from grader.term import commands

    out = Path(args.out_dir)
    return _with_term(args, out, lambda t: commands.publish(t, out, args.student, args.by or _who(), _flags(args)))


def cmd_regrade_diff(args) -> int:
    from grader.term import commands

    out = Path(args.out_dir)
    return _with_term(args, out, lambda t: commands.regrade_diff(t, out, _flags(args)))


def cmd_term(args) -> int:
    from grader.term import commands
    from grader.term.ingest import accept

    out = Path(args.out) if args.out else None
    if args.action == "summary":
        return _with_term(args, out, lambda t: commands.summary(t, Path(args.to), args.section))
    if not (args.assignment and args.student):
        raise UsageError(f"grade term {args.action} needs --assignment NAME --student ID")
    if args.action == "override":
        if args.points is None or not args.item or not args.reason:
            raise UsageError("grade term override needs --item ID --points P --reason TEXT")
        return _with_term(args, out, lambda t: commands.override(t, args.assignment, args.student, args.item,
                                                                  args.points, args.reason, args.by or _who()))
    def body(t):
        attempt = accept(t.conn, args.assignment, commands.resolve_student(t, args.student))
        return [f"attempt {attempt} is now {args.student}'s grade of {args.assignment}; publish to release it"]
    return _with_term(args, out, body)


def _common(p, *, inputs: bool = True) -> None:
    p.add_argument("--course", metavar="FILE", help="course.yaml (default: ./course.yaml if there is one)")
    p.add_argument("--roster", metavar="FILE", help="the LMS's gradebook export, or id,name,email,section "
                   "(default: course.yaml's roster:, else the one already in the ledger)")
    if inputs:
        p.add_argument("--submissions", metavar="DIR", help="the folder 'grade batch' graded (the bulk download)")
        p.add_argument("--times", metavar="CSV", help="submission,submitted_at (or student,submitted_at)")
        p.add_argument("--gradescope", metavar="FILE", help="Gradescope's submission_metadata.yml/.json")
        p.add_argument("--mapping", metavar="CSV", help="submission,student for names no rule matches")


def register(sub) -> None:
    """Add this room's sub-parsers to `sub`; each sets `handler=` with `set_defaults`."""
    i = sub.add_parser("ingest", help="a batch output into the term's ledger")
    i.add_argument("out_dir", metavar="OUT_DIR")
    _common(i)
    i.set_defaults(handler=cmd_ingest)
    e = sub.add_parser("export", help="the gradebook an LMS imports (Canvas, Moodle) or a plain CSV")
    e.add_argument("format", choices=FORMATS)
    e.add_argument("out_dirs", nargs="+", metavar="OUT_DIR", help="batch outputs: one column each")
    e.add_argument("--to", required=True, metavar="FILE")
    e.add_argument("--section", metavar="S", help="only the students of this section")
    _common(e)
    e.set_defaults(handler=cmd_export)
    p = sub.add_parser("publish", help="release feedback and grades (all, or --student)")
    p.add_argument("out_dir", metavar="OUT_DIR")
    p.add_argument("--student", metavar="ID", help="one student: id, SIS id, login or email")
    p.add_argument("--by", metavar="NAME", help="who releases (default: the login name)")
    _common(p)
    p.set_defaults(handler=cmd_publish)
    r = sub.add_parser("regrade-diff", help="what a regrade changed (items, by how much); held lower grades")
    r.add_argument("out_dir", metavar="OUT_DIR")
    _common(r)
    r.set_defaults(handler=cmd_regrade_diff)
    t = sub.add_parser("term", help="the term: summary, overrides, accepting a held regrade")
    t.add_argument("action", choices=["summary", "override", "accept"])
    t.add_argument("--to", metavar="DIR", default=".", help="summary: where term-summary.csv/.html go")
    t.add_argument("--section", metavar="S")
    t.add_argument("--assignment", metavar="NAME")
    t.add_argument("--student", metavar="ID")
    t.add_argument("--item", metavar="ID")
    t.add_argument("--points", type=float)
    t.add_argument("--reason")
    t.add_argument("--by", metavar="NAME")
    t.add_argument("--out", metavar="OUT_DIR", help="without a course.yaml: the batch output whose ledger to use")
    _common(t, inputs=False)
    t.set_defaults(handler=cmd_term)
