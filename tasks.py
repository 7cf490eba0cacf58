"""Instructor tasks. Each is a thin wrapper over a function in `grader`.

    python tasks.py new NAME [--title T]        scaffold assignments/NAME/ (a minimal assignment that works), build it
    python tasks.py build [--check] [NAME...]   generate student_template/ and solutions/ (+ validation, leak scan)
    python tasks.py check [NAME...]             build, then grade the solution and the template through the
                                                real pipeline, then every mutant in tests/mutants/
                                                (table: mutant -> items, points lost)
    python tasks.py release [NAME...]           dist/<name>-student.zip, dist/<name>-autograder.zip and
                                                dist/<name>-gradescope.zip (the Gradescope autograder upload);
                                                checked trees only, no stale mutant
    python tasks.py examples [--jobs N]         batch-grade examples/submissions/<name>/ -> out/<name>/
    python tasks.py corpus FOLDER [--jobs N]    grade a blind corpus (tests/blind/<name>/<round>/), write its table.md
    python tasks.py all [--mutants]             build, check, release, examples (the README's main job); the
                                                mutant table only with --mutants (`check` prints it, and the
                                                test suite measures every mutant: tests/test_mutants.py)
    python tasks.py bench basics|grade|scale|loop|class    benchmarks (not timed tests)
"""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def names_or_all(names: list[str]) -> list[str]:
    from grader.authoring.build import assignment_folders

    return [p.name for p in assignment_folders(ROOT, names or None)]


def task_new(args) -> int:
    from grader.authoring.scaffold import new_assignment

    new_assignment(ROOT, args.name, args.title)
    return 0


def task_build(args) -> int:
    from grader.authoring.build import build

    return build(ROOT, args.names or None, check=args.check)


def task_check(args) -> int:
    from grader.authoring.check import check

    return check(ROOT, args.names or None, mutants=not args.no_mutants)


def task_release(args) -> int:
    from grader.authoring.release import release

    return release(ROOT, names_or_all(args.names))


def task_examples(args) -> int:
    from grader.authoring.examples import grade_examples

    return grade_examples(ROOT, names_or_all(args.names), jobs=args.jobs, force=args.force)


def task_corpus(args) -> int:
    from grader.authoring.corpus import corpus_report

    return corpus_report(ROOT, Path(args.folder), jobs=args.jobs, force=args.force)


def task_all(args) -> int:
    """The README's main job. The mutant table (every mutant graded through the checks: most of `check`'s time)
    is `check`'s and the test suite's (tests/test_mutants.py); here only with ``--mutants``."""
    args.no_mutants = not args.mutants
    for step in (task_build, task_check, task_release, task_examples):
        rc = step(args)
        if rc:
            logging.error("%s failed (exit %d)", step.__name__.removeprefix("task_"), rc)
            return rc
    return 0


def task_bench(args) -> int:
    """`bench grade` measures the grader, `bench scale` the batch engines; `bench NAME` runs the benchmarks
    an assignment keeps in `assignments/NAME/_bench/` (NAME may be a unique suffix, e.g. `basics`)."""
    if args.what == "grade":
        from benchmarks.grade import main

        return main(args.rest)
    if args.what == "scale":
        from benchmarks.scale import main

        return main(args.rest)
    if args.what == "loop":
        from benchmarks.loop import main

        return main(args.rest)
    if args.what == "class":
        from benchmarks.klass import main

        return main(args.rest)
    import runpy

    folders = [p for p in sorted((ROOT / "assignments").iterdir())
               if p.name == args.what or p.name.endswith("-" + args.what)]
    scripts = sorted(folders[0].glob("_bench/*.py")) if len(folders) == 1 else []
    if not scripts:
        known = sorted(p.parent.parent.name for p in (ROOT / "assignments").glob("*/_bench/*.py"))
        logging.error("no benchmark for %r; known: grade, scale, loop, class, %s", args.what,
                      ", ".join(known) or "(none)")
        return 2
    rc = 0
    for script in scripts:
        rc = rc or runpy.run_path(str(script))["main"](args.rest)
    return rc


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tasks.py", description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="task", required=True)
    for name, fn in (("build", task_build), ("check", task_check), ("release", task_release),
                     ("examples", task_examples), ("all", task_all)):
        s = sub.add_parser(name)
        s.add_argument("names", nargs="*", help="assignment names (default: all)")
        s.set_defaults(fn=fn, check=False, jobs=2, force=False, no_mutants=False, mutants=False)
        if name == "check":
            s.add_argument("--no-mutants", action="store_true",
                           help="skip grading tests/mutants/ (the table: mutant -> items lost -> points lost)")
        if name == "all":
            s.add_argument("--mutants", action="store_true",
                           help="grade tests/mutants/ too, as `check` does (the test suite measures them as well)")
        if name == "build":
            s.add_argument("--check", action="store_true", help="fail if the committed trees are stale")
        if name in ("examples", "all"):
            s.add_argument("--jobs", type=int, default=2)
            s.add_argument("--force", action="store_true")
    n = sub.add_parser("new", help="scaffold a minimal working assignment (written whole, or not at all)")
    n.add_argument("name", help="lower-case letters, digits and dashes, e.g. kv-cache")
    n.add_argument("--title", default="", help="the assignment's title (default: from the name)")
    n.set_defaults(fn=task_new)
    c = sub.add_parser("corpus", help="grade a blind corpus and write its table (bugs, alternatives, stubs)")
    c.add_argument("folder", help="tests/blind/<assignment>/<round>/ with corpus.yaml")
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--force", action="store_true", help="regrade every case (default: reuse graded reports)")
    c.set_defaults(fn=task_corpus)
    b = sub.add_parser("bench")
    b.add_argument("what", help="grade, or an assignment with benchmarks (e.g. basics)")
    b.add_argument("rest", nargs=argparse.REMAINDER)
    b.set_defaults(fn=task_bench)
    p.add_argument("--debug", action="store_true", help="show tracebacks for kit errors")
    p.add_argument("--root", help="the kit folder holding assignments/ (default: this file's folder)")
    args = p.parse_args(argv)
    if args.root:
        global ROOT
        ROOT = Path(args.root).resolve()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    if args.debug:  # tracebacks: raised below, and logged where a task collects errors (build)
        logging.getLogger("grader").setLevel(logging.DEBUG)
    from grader.errors import LrkitError

    try:
        return args.fn(args)
    except LrkitError as exc:  # an instructor's mistake: one message naming the file, no traceback
        if args.debug:
            raise
        logging.error("%s", exc)
        return exc.exit_code


if __name__ == "__main__":
    sys.exit(main())
