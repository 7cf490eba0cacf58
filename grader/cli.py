"""The `grade` console script.

    grade --local [DIR]                                   a student, in their copy of the template
    grade pack [DIR]                                      a student: the zip to hand in
    grade submission PATH --autograder ZIP --out DIR      one submission, officially
    grade batch DIR --autograder ZIP --out DIR --jobs N   a whole class
    grade batch DIR … --shard I/N                         the part of the class in shard I of N (CI arrays)
    grade batch DIR … --engine dask [--scheduler ADDR]    each submission a task on a Dask cluster
    grade merge OUT_1 … OUT_N --out OUT                   one gradebook from the outputs of N shards
    grade manual export OUT_DIR sheet.csv                 free-text answers for human graders
    grade manual import OUT_DIR sheet.csv                 merge their points into the reports
"""
from __future__ import annotations

import argparse
import importlib
import logging
import sys
from pathlib import Path

from grader import sandbox
from grader.errors import LrkitError, UsageError


def _refuse_unsandboxed(allow: bool) -> bool:
    """Official commands need the sandbox; returns True to run unsandboxed (recorded in reports)."""
    if sandbox.sandbox_available():
        return False
    if not allow:
        raise UsageError("no sandbox here (needs Linux, root and bubblewrap: apt-get install bubblewrap). "
                         "Official grading refuses to run student code unsandboxed; pass --allow-unsandboxed "
                         "to grade anyway (the reports will say so).")
    return True


def cmd_local(args) -> int:
    from grader.report.render import render_terminal, write_reports
    from grader.student.local import grade_local

    folder = Path(args.local).resolve()
    sandbox.warm.keep_between_runs()  # the student's loop: torch imported once, by a template kept between runs
    sandbox.warm.prestart()

    def ask() -> str:  # first run of an assignment with per-student numbers: they depend on the id
        return input("Your student id (your numbers in the notebook depend on it; recorded in "
                     "lrkit-assignment.json): ")

    report = grade_local(folder, ask=ask if sys.stdin.isatty() else None)
    paths = write_reports(report, folder / "grade-report")
    print(render_terminal(report, paths.get("report.html")))
    return 0


def cmd_submission(args) -> int:
    if not Path(args.path).exists():  # a typo is a usage error: no report at 0, nothing written
        raise UsageError(f"{args.path}: no such file or folder (a submission is a folder, a .zip or a notebook)")
    sandbox.warm.prestart()  # first: the template's imports overlap the sandbox probe and the grader's own
    unsandboxed = _refuse_unsandboxed(args.allow_unsandboxed)
    if unsandboxed:
        sandbox.warm.shutdown()
    from grader.grading.pipeline import grade_submission
    from grader.grading.probing import lanes_for
    from grader.report.render import render_terminal, write_reports

    report = grade_submission(Path(args.path), Path(args.autograder), unsandboxed=unsandboxed, lanes=lanes_for(1))
    paths = write_reports(report, Path(args.out))
    print(render_terminal(report, paths.get("report.html")))
    return 0 if report.status == "graded" else 1


def cmd_batch(args) -> int:
    from grader.batch.run import grade_batch
    from grader.batch.shards import parse_shard

    shard = parse_shard(args.shard) if args.shard else None
    if args.engine == "dask":  # the workers are probed for the sandbox, not this machine
        from grader.batch.dask_engine import DaskEngine

        engine = DaskEngine(scheduler=args.scheduler, workers=args.workers, allow_unsandboxed=args.allow_unsandboxed,
                            allow_mixed=args.allow_mixed_isolation)
        return grade_batch(Path(args.dir), Path(args.autograder), Path(args.out), force=args.force, shard=shard,
                           engine=engine)
    if args.scheduler or args.workers or args.allow_mixed_isolation:
        raise UsageError("--scheduler, --workers and --allow-mixed-isolation go with --engine dask")
    unsandboxed = _refuse_unsandboxed(args.allow_unsandboxed)
    return grade_batch(Path(args.dir), Path(args.autograder), Path(args.out), jobs=args.jobs, force=args.force,
                       unsandboxed=unsandboxed, shard=shard)


def cmd_merge(args) -> int:
    from grader.batch.merge import merge_shards

    return merge_shards([Path(f) for f in args.outputs], Path(args.out))


def cmd_pack(args) -> int:
    from grader.student.pack import pack_submission

    path, files = pack_submission(Path(args.dir))
    print(f"wrote {path} with {', '.join(files)}\nhand in this one file")
    return 0


def cmd_manual(args) -> int:
    from grader.batch.manual import export_sheet, import_sheet

    if args.action == "export":
        return export_sheet(Path(args.out_dir), Path(args.sheet))
    return import_sheet(Path(args.out_dir), Path(args.sheet))


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="grade", description="Grade linear/recurrent attention assignments.")
    p.add_argument("--local", nargs="?", const=".", metavar="DIR",
                   help="grade your own work (public tests and answers only; unofficial)")
    p.add_argument("-v", "--verbose", action="store_true")
    sub = p.add_subparsers(dest="command")
    k = sub.add_parser("pack", help="zip your work to hand in (the files the grader takes, nothing else)")
    k.add_argument("dir", nargs="?", default=".")
    s = sub.add_parser("submission", help="grade one submission (folder, .zip or notebook)")
    s.add_argument("path")
    s.add_argument("--autograder", required=True, help="dist/<name>-autograder.zip")
    s.add_argument("--out", required=True)
    s.add_argument("--allow-unsandboxed", action="store_true")
    b = sub.add_parser("batch", help="grade every submission in a folder")
    b.add_argument("dir")
    b.add_argument("--autograder", required=True)
    b.add_argument("--out", required=True)
    b.add_argument("--jobs", type=int, default=None, help="submissions graded at once (default: the CPU count)")
    b.add_argument("--force", action="store_true", help="regrade submissions already graded")
    b.add_argument("--allow-unsandboxed", action="store_true")
    b.add_argument("--shard", metavar="I/N", help="grade only shard I of N (1-based; by a hash of each name)")
    b.add_argument("--engine", choices=["threads", "dask"], default="threads",
                   help="threads: --jobs here (default); dask: a Dask cluster (pip install 'lrkit[dask]')")
    b.add_argument("--scheduler", metavar="ADDR", help="with --engine dask: an existing cluster, tcp://host:8786")
    b.add_argument("--workers", type=int, metavar="K",
                   help="with --engine dask: start a LocalCluster of K processes (default: CPU count); with "
                        "--scheduler: wait for K workers")
    b.add_argument("--allow-mixed-isolation", action="store_true",
                   help="with --engine dask: let workers without a sandbox grade unsandboxed beside sandboxed ones")
    g = sub.add_parser("merge", help="one gradebook from the outputs of 'grade batch --shard I/N'")
    g.add_argument("outputs", nargs="+", metavar="OUT_I", help="the shards' output folders")
    g.add_argument("--out", required=True, help="where the merged class goes (may be a shared shard folder)")
    m = sub.add_parser("manual", help="export/import the sheet for hand-graded items")
    m.add_argument("action", choices=["export", "import"])
    m.add_argument("out_dir", help="the batch output folder")
    m.add_argument("sheet", help="the CSV sheet to write (export) or read (import)")
    for room in ROOMS:  # each room registers its own verbs: grader/<room>/verbs.py
        importlib.import_module(room).register(sub)
    return p


# Rooms that own CLI verbs. Each `verbs` module defines `register(sub)`, which adds its sub-parsers and sets
# `handler=` on each (argparse `set_defaults`); importing one does no work.
ROOMS = ("grader.term.verbs", "grader.serve.verbs", "grader.integrity.verbs")


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(levelname)s %(message)s")
    try:
        return _dispatch(args)
    except LrkitError as exc:  # one message, no traceback; -v shows it
        logging.getLogger("grader").debug("traceback", exc_info=True)
        print(f"grade: {exc}", file=sys.stderr)
        return exc.exit_code


def _dispatch(args) -> int:
    if args.local is not None:
        return cmd_local(args)
    handlers = {"pack": cmd_pack, "submission": cmd_submission, "batch": cmd_batch, "merge": cmd_merge,
                "manual": cmd_manual}
    if args.command not in handlers and getattr(args, "handler", None):
        return args.handler(args)
    if args.command not in handlers:
        parser().print_help()
        return 2
    return handlers[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
