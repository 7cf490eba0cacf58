"""The adversarial corpus (tests/adversarial/, see its README) against the real grader.

One session fixture builds and releases linear-attention-basics into a temporary copy of the
repository root, turns every case into a submission, adds the correct solution, and grades
them all as ONE batch (`grade_batch(..., jobs=2)`), with the assignment's own limits. Each
case is then a test of its report against its expect.yaml.
"""
from __future__ import annotations

import csv
import importlib.util
import json
import os
import re
import shutil
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import pytest
import yaml

from grader import sandbox
from grader.authoring.build import build
from grader.authoring.release import release_assignment
from grader.batch.manual import export_sheet
from grader.batch.run import grade_batch
from grader.report.render import load_report
from grader.sandbox import sweep_stale

ROOT = Path(__file__).resolve().parents[2]
NAME = "linear-attention-basics"
SOURCE = ROOT / "assignments" / NAME
CORPUS = ROOT / "tests" / "adversarial"
CORRECT = "correct_solution"
UNSANDBOXED = not sandbox.sandbox_available()
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expect.yaml").is_file()) if CORPUS.is_dir() else []
KNOWN_KEYS = {"description", "base", "submission", "status", "score", "max_score", "below_max", "message_contains",
              "message_excludes", "forbidden_host_paths", "no_process_matching", "entries", "rows", "max_message_chars",
              "lost", "control"}
MEMORY_CAP_MB = 512  # how much the grader's own RSS may grow while it grades this whole corpus (README: "Limits")

pytestmark = [
    pytest.mark.slow,  # one batch of the whole corpus, cost runs and all: about a quarter of an hour on 2 cores
    pytest.mark.skipif(not (SOURCE / "assignment.yaml").is_file(), reason=f"assignments/{NAME} is not written yet"),
    pytest.mark.skipif(UNSANDBOXED, reason="the corpus attacks the sandbox: needs Linux, root and bubblewrap"),
]


def _placed(text: str) -> str:
    """A case's text with the machine's paths put in: `@REPO@` (this checkout, wherever it lies) and
    `@HOME@` (the grader's home), so a case probes this machine's paths, not the ones of its author's."""
    return text.replace("@REPO@", str(ROOT)).replace("@HOME@", str(Path.home()))


def _expect(case: str) -> dict:
    return yaml.safe_load(_placed((CORPUS / case / "expect.yaml").read_text())) or {}


def _retag(notebook: Path, template_nb: dict) -> str:
    """Give a case notebook's `exercise:<id>` cells the ids of the template's cells with that tag
    (the grader takes tags from the template by cell id), so they stay graded cells."""
    nb = json.loads(notebook.read_text())
    by_tag = {}
    for cell in template_nb["cells"]:
        for tag in cell.get("metadata", {}).get("tags", []):
            if tag.startswith("exercise:"):
                by_tag.setdefault(tag, cell["id"])
    for cell in nb["cells"]:
        for tag in cell.get("metadata", {}).get("tags", []):
            if tag in by_tag:
                cell["id"] = by_tag.pop(tag)
    return json.dumps(nb, indent=1)


def _rows(case: str) -> list[str]:
    """The gradebook rows (report folders) a case must produce."""
    return list(_expect(case).get("rows", [case]))


def _place(stage: Path, entry: str, subs: Path) -> None:
    """Put the built submission into the batch folder as ``entry``: a folder, a .zip of it, or
    (``fifo:NAME``, ``link:NAME``) a named pipe or a symbolic link where a submission should be."""
    kind, _, name = entry.rpartition(":") if entry.startswith(("fifo:", "link:")) else ("", "", entry)
    target = subs / name
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "link":
        target.symlink_to(stage, target_is_directory=True)
    elif name.endswith(".zip"):
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
            for file in sorted(stage.rglob("*")):
                if file.is_file():
                    zf.write(file, file.relative_to(stage).as_posix())
    else:
        shutil.copytree(stage, target)


def _make_submission(case: str, root: Path, subs: Path) -> None:
    folder, expect = CORPUS / case, _expect(case)
    if "submission" in expect:
        src = folder / expect["submission"]
        shutil.copy(src, subs / f"{case}{''.join(src.suffixes)}")
        return
    stage = subs.parent / "stage" / case
    stage.mkdir(parents=True)
    _build(case, root, stage)
    hooks = _hooks(case)
    if hasattr(hooks, "place"):  # place(stage, subs): entries no plain folder or zip can be
        hooks.place(stage, subs)
        return
    for entry in expect.get("entries", [case]):
        _place(stage, entry, subs)


def _hooks(case: str):
    """The case's build.py as a module (build(dest), place(stage, subs)), or None."""
    path = CORPUS / case / "build.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"adversarial_build_{case}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(case: str, root: Path, dest: Path) -> None:
    """The submission folder of a case: its base, attack.py appended, its other files, then build.py."""
    folder, expect = CORPUS / case, _expect(case)
    solution, template = root / "solutions" / NAME, root / "student_template" / NAME
    if expect.get("base") == "solution":
        for name in ("linear_attention.py", "linear_attention.ipynb"):
            shutil.copy(solution / name, dest / name)
    elif expect.get("base") == "zeros":  # wrong code and the notebook as handed out
        shutil.copy(CORPUS / "_bases" / "zeros.py", dest / "linear_attention.py")
        shutil.copy(template / "linear_attention.ipynb", dest / "linear_attention.ipynb")
    else:
        raise AssertionError(f"{case}: expect.yaml needs base: solution|zeros or submission: FILE")
    if (folder / "attack.py").is_file():
        with (dest / "linear_attention.py").open("a") as fh:
            fh.write("\n\n" + _placed((folder / "attack.py").read_text()))
    template_nb = json.loads((template / "linear_attention.ipynb").read_text())
    for item in folder.iterdir():
        if item.name in ("expect.yaml", "attack.py", "build.py") or item.is_dir():
            continue
        if item.suffix == ".ipynb":
            (dest / item.name).write_text(_retag(item, template_nb))
        else:
            shutil.copy(item, dest / item.name)
    hooks = _hooks(case)
    if hasattr(hooks, "build"):  # build(dest): changes files no folder in git could hold
        hooks.build(dest)


def _live_processes(markers: list[str]) -> list[str]:
    """'pid: cmdline' of every live (non-zombie) process whose command line holds a marker."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z" and any(m in cmdline for m in markers):
            found.append(f"{entry.name}: {cmdline[:200]}")
    return found


class Graded:
    def __init__(self, reports, code, seconds, leftovers, max_auto, existing, **more):
        self.reports, self.code, self.seconds = reports, code, seconds
        self.leftovers, self.max_auto, self.existing = leftovers, max_auto, existing
        self.__dict__.update(more)


class PeakRss(threading.Thread):
    """The grader's own resident memory, sampled every 20 ms while it grades (its peak, in MB)."""

    def __init__(self):
        super().__init__(daemon=True)
        self.start_mb = self.peak = self.rss()
        self.stop = threading.Event()

    @staticmethod
    def rss() -> float:
        line = next(x for x in Path("/proc/self/status").read_text().splitlines() if x.startswith("VmRSS:"))
        return int(line.split()[1]) / 1024

    def run(self):
        while not self.stop.wait(0.02):
            self.peak = max(self.peak, self.rss())


def _sandbox_keys() -> str:
    """The kernel's key count line for the sandbox uid (/proc/key-users), '' when it has none."""
    lines = Path("/proc/key-users").read_text().splitlines() if Path("/proc/key-users").exists() else []
    mine = (line for line in lines if line.strip().startswith(f"{sandbox.SANDBOX_UID}:"))
    return next((line.split(":", 1)[1].split()[0] for line in mine), "")


def _stale_work_folders() -> list[Path]:
    """Work folders a killed grader would leave (its lock free), each holding a fake answer key."""
    tmp = Path(tempfile.gettempdir())
    made = []
    for name in ("lrkit-run-999999-adversarial", "lrkit-grade-adversarial-old"):
        folder = tmp / name
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "bundle" / "solution").mkdir(parents=True)
        (folder / "bundle" / "solution" / "answer_key.yaml").write_text("secret: 42\n")
        made.append(folder)
    (made[0] / ".lock").touch()
    old = time.time() - 2 * 86400
    os.utime(made[1], (old, old))
    return made


@pytest.fixture(scope="session")
def graded(tmp_path_factory) -> Graded:
    base = tmp_path_factory.mktemp("adversarial")
    root, subs, out = base / "root", base / "subs", base / "out"
    shutil.copytree(SOURCE, root / "assignments" / NAME, ignore=shutil.ignore_patterns("__pycache__"))
    assert build(root, [NAME]) == 0
    _, bundle = release_assignment(root, NAME, root / "dist")
    subs.mkdir()
    for case in CASES:
        _make_submission(case, root, subs)
    correct = subs / CORRECT
    correct.mkdir()
    for name in ("linear_attention.py", "linear_attention.ipynb"):
        shutil.copy(root / "solutions" / NAME / name, correct / name)
    forbidden = sorted({p for c in CASES for p in _expect(c).get("forbidden_host_paths", [])})
    for path in forbidden:  # a leftover from an earlier run must not fail (or pass) this one
        if os.path.lexists(path):
            os.unlink(path)
    stale = _stale_work_folders()
    sweep_stale()  # as the next run of a grader does
    keys_before = _sandbox_keys()
    rss = PeakRss()
    rss.start()
    started = time.perf_counter()
    keep = os.environ.get("LRKIT_KEEP_PASSES")
    os.environ["LRKIT_KEEP_PASSES"] = "0"  # every case measured as it is, none read from a pass kept for its code
    try:
        code = grade_batch(subs, bundle, out, jobs=2)
    finally:
        if keep is None:
            os.environ.pop("LRKIT_KEEP_PASSES", None)
        else:
            os.environ["LRKIT_KEEP_PASSES"] = keep
    seconds = time.perf_counter() - started
    rss.stop.set()
    rss.join()
    print(f"\nadversarial batch: {len(list(subs.iterdir()))} entries in {seconds:.0f} s; "
          f"grader RSS {rss.start_mb:.0f} MB before, peak {rss.peak:.0f} MB")
    markers = [str(base), "lrkit-adv"] + [_expect(c)["no_process_matching"] for c in CASES
                                         if _expect(c).get("no_process_matching")]
    leftovers = _live_processes(markers)
    reports = {p.name: load_report(p / "report.json") for p in out.iterdir() if (p / "report.json").is_file()}
    manual = {item.id for item in next(iter(reports.values())).items if item.kind == "manual"}
    max_auto = next(iter(reports.values())).max_score - sum(
        i.max_points for i in next(iter(reports.values())).items if i.id in manual)
    return Graded(reports, code, seconds, leftovers, max_auto, [p for p in forbidden if os.path.lexists(p)],
                  out=out, entries=sorted(subs.iterdir()), rss_growth_mb=rss.peak - rss.start_mb, stale=stale,
                  keys=(keys_before, _sandbox_keys()), sheet=base / "manual.csv")


def _student_text(report) -> str:
    """What a student reads: the notes and every item's messages."""
    return "\n".join([*report.notes, *(m for item in report.items for m in item.messages)])


def test_the_correct_solution_gets_every_automatic_point(graded):
    report = graded.reports[CORRECT]
    assert report.status == "graded"
    wrong = [(i.id, i.points, i.max_points, i.messages) for i in report.items
             if i.kind != "manual" and i.points != i.max_points]
    assert not wrong, wrong
    # the profile `tasks.py bench class` prints: of the checks' CPU, the student's cost runs (measured from outside)
    assert 0 < report.timings["checks_cost_cpu_s"] < report.timings["checks_cpu_s"], report.timings


def test_no_process_from_the_corpus_is_left(graded):
    assert not graded.leftovers, graded.leftovers


def test_every_entry_has_a_row_and_the_class_files_are_written(graded):
    """One report folder and one gradebook row per entry of the batch folder, whatever it is."""
    want = {row for case in CASES for row in _rows(case)} | {CORRECT}
    assert set(graded.reports) == want
    assert len(graded.entries) == len(want)
    assert (graded.out / "gradebook.csv").is_file() and (graded.out / "summary.html").is_file()
    with (graded.out / "gradebook.csv").open(newline="", encoding="utf-8") as fh:
        rows = [row["submission"] for row in csv.DictReader(fh)]
    assert sorted(rows) == sorted(want)


def test_no_output_holds_a_control_character(graded):
    """Do escape sequences, bells, bidi overrides and undecodable bytes stay out of every file written?"""
    bad = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
    for path in sorted(graded.out.rglob("*")):
        if path.is_file():
            text = path.read_bytes().decode("utf-8")  # strict: no lone surrogates or stray bytes
            assert not bad.search(text), f"{path}: {bad.search(text).group()!r}"


def test_student_text_is_inert_in_markdown_and_spreadsheets(graded):
    """No live Markdown link or image in any report.md; no formula in the hand-grading sheet."""
    live = re.compile(r"(?<!\\)!\[|(?<!\\)\]\(")
    for path in graded.out.glob("*/report.md"):
        assert not live.search(path.read_text()), path
    assert export_sheet(graded.out, graded.sheet) == 0
    with graded.sheet.open(newline="", encoding="utf-8") as fh:
        cells = [cell for row in csv.reader(fh) for cell in row]
    assert cells and not [c for c in cells if c.startswith(("=", "+", "-", "@", "\t", "\r"))]


def test_the_grader_memory_stays_under_its_cap(graded):
    """Whatever the corpus sends back, does the grader's own memory grow by less than its cap?"""
    assert graded.rss_growth_mb < MEMORY_CAP_MB, graded.rss_growth_mb


def test_nothing_outlives_the_run(graded):
    """Stale work folders are swept, this run leaves none, and the sandbox uid holds no new kernel key."""
    assert not any(path.exists() for path in graded.stale)
    root = next((p for p in Path(tempfile.gettempdir()).glob(f"lrkit-run-{os.getpid()}-*")), None)
    assert root is None or sorted(p.name for p in root.iterdir()) == [".lock"], list(root.iterdir())
    assert graded.keys[1] == graded.keys[0], graded.keys


@pytest.mark.parametrize("case", CASES)
def test_case(graded, case):
    expect = _expect(case)
    unknown = set(expect) - KNOWN_KEYS
    assert not unknown, f"{case}/expect.yaml: unknown keys {unknown}"
    for row in _rows(case):
        _check_row(graded, case, expect, graded.reports[row])


def _check_row(graded, case: str, expect: dict, report) -> None:
    text = _student_text(report)
    scored = [(i.id, i.points) for i in report.items if i.points]
    context = (f"{case}: status {report.status}, score {report.score}/{report.max_score}, points from {scored}\n"
               f"{text[:3000]}")
    statuses = expect.get("status")
    if statuses is not None:
        assert report.status in ([statuses] if isinstance(statuses, str) else statuses), context
    if "score" in expect:
        want = graded.max_auto if expect["score"] == "max" else float(expect["score"])
        assert report.score == want, context
    if "max_score" in expect:
        assert report.score <= float(expect["max_score"]), context
    if expect.get("below_max"):
        assert report.score < graded.max_auto, context
    automatic = {i.id: i for i in report.items if i.kind != "manual"}
    if "lost" in expect:  # exactly these automatic items short of full marks, every other one full
        assert sorted(i for i, item in automatic.items() if item.points < item.max_points) == \
            sorted(expect["lost"]), context
    if "control" in expect:  # the same points, item by item, as the honest control with the same forms
        control = {i.id: i.points for i in graded.reports[expect["control"]].items if i.kind != "manual"}
        moved = {i: (item.points, control[i]) for i, item in automatic.items() if item.points != control[i]}
        assert not moved, f"{context}\nitems (points, control's points) that differ: {moved}"
    for word in expect.get("message_contains", []):
        assert word.lower() in text.lower(), f"{word!r} not in the report of {context}"
    for word in expect.get("message_excludes", []):
        assert word.lower() not in text.lower(), f"{word!r} in the report of {context}"
    for path in expect.get("forbidden_host_paths", []):
        assert path not in graded.existing, f"{case}: {path} exists on the host after grading"
    marker = expect.get("no_process_matching")
    if marker:
        assert not [p for p in graded.leftovers if marker in p], graded.leftovers
    longest = max((len(m) for m in text.splitlines()), default=0)
    assert longest <= expect.get("max_message_chars", 20_000), f"{case}: a message line of {longest} characters"
