"""End to end on the toy assignment: build -> release -> grade (one, a class, resumed, by hand, locally).

Everything heavy is done once per session: the toy root is built and released into a temporary
folder, and one batch grades three submissions (the solution, the untouched template, a wrong
answer). The tests then read those reports; only what must be timed or killed grades again.
"""
from __future__ import annotations

import csv
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from grader import cli, sandbox
from grader.authoring.build import build
from grader.authoring.release import release_assignment
from grader.batch.run import grade_batch
from grader.errors import UsageError
from grader.report.render import load_report

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "fixtures" / "toy-root"
GRADE = Path(sys.prefix) / "bin" / "grade"
REPORT_FILES = ("report.json", "report.md", "report.html", "results.json")
WHOLE_SUM = "this is exactly what you get when the sum runs over the whole sequence"
UNSANDBOXED = not sandbox.sandbox_available()  # graded with --allow-unsandboxed where there is no bwrap


class Toy:
    def __init__(self, base: Path):
        self.base = base
        self.root = base / "root"
        self.bundle = self.root / "dist" / "toy-autograder.zip"
        self.student_zip = self.root / "dist" / "toy-student.zip"
        self.template = self.root / "student_template" / "toy"
        self.solution = self.root / "solutions" / "toy"
        self.subs = base / "subs"
        self.out = base / "out"


def _student_copy(src: Path, dest: Path) -> Path:
    dest.mkdir(parents=True)
    for name in ("toy.py", "toy.ipynb"):
        shutil.copy(src / name, dest / name)
    return dest


def _wrong_module(template: Path) -> str:
    """The template's toy.py with the classic mistake: the sum runs over the whole sequence."""
    text = (template / "toy.py").read_text()
    stub = next(line for line in text.splitlines() if "NotImplementedError" in line)
    indent = stub[: len(stub) - len(stub.lstrip())]
    return text.replace(stub, f"{indent}return x.sum(dim=-1, keepdim=True).expand_as(x).clone()")


def _mtimes(out: Path) -> dict[str, int]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in sorted(out.glob("*/report.json"))}


@pytest.fixture(scope="session")
def toy(tmp_path_factory) -> Toy:
    t = Toy(tmp_path_factory.mktemp("toy-e2e"))
    shutil.copytree(TOY, t.root)
    assert build(t.root) == 0
    release_assignment(t.root, "toy", t.root / "dist")  # the zips alone: release() runs check first (tests/authoring)
    _student_copy(t.solution, t.subs / "alice_solution")
    _student_copy(t.template, t.subs / "bob_template")
    wrong = _student_copy(t.solution, t.subs / "carol_wrong")
    (wrong / "toy.py").write_text(_wrong_module(t.template))
    return t


@pytest.fixture(scope="session")
def batch(toy):
    """`grade batch` over the three submissions with --jobs 2 (the CLI, in process)."""
    argv = ["batch", str(toy.subs), "--autograder", str(toy.bundle), "--out", str(toy.out), "--jobs", "2"]
    code = cli.main(argv + (["--allow-unsandboxed"] if UNSANDBOXED else []))
    return code, {p.name: load_report(p / "report.json") for p in sorted(toy.out.iterdir()) if p.is_dir()}


def _item(report, item_id):
    return next(i for i in report.items if i.id == item_id)


def _text(report) -> str:
    return "\n".join([*report.notes, *(m for i in report.items for m in i.messages)])


# ----------------------------------------------------------------------------- one submission


def test_solution_gets_every_point_but_the_manual_one(batch):
    code, reports = batch
    report = reports["alice_solution"]
    assert report.status == "graded" and report.official == (not UNSANDBOXED)
    for item in report.items:
        if item.kind == "manual":
            assert item.status == "manual" and item.points == 0, item
        else:
            assert item.points == item.max_points, item
    assert report.score == report.max_score - 1


def test_untouched_template_names_the_stub_and_where_it_is(batch, toy):
    report = batch[1]["bob_template"]
    cumsum = _item(report, "cumsum")
    assert cumsum.points == 0 and cumsum.hidden and cumsum.messages
    stub_line = next(n for n, line in enumerate((toy.template / "toy.py").read_text().splitlines(), 1)
                     if "NotImplementedError" in line)
    for message in cumsum.messages:
        assert "NotImplementedError" in message and f"toy.py:{stub_line}" in message, message
    assert report.score == 0


def test_wrong_answer_is_named_without_the_expected_numbers(batch):
    report = batch[1]["carol_wrong"]
    cumsum = _item(report, "cumsum")
    assert cumsum.points == 0 and cumsum.status == "failed"
    # the one-element case is right by accident; the others name the mistake
    assert any(WHOLE_SUM in m for m in cumsum.messages), cumsum.messages
    rng = np.random.default_rng(0)  # the inputs of verdicts.cumsum_matches, made the same way
    expected = [np.cumsum(rng.standard_normal(shape), axis=-1) for shape in [(1,), (5,), (2, 7)]]
    shown = "\n".join(cumsum.messages)
    for value in np.concatenate([e.ravel() for e in expected]):
        for text in (f"{value:.3f}", f"{value:.4f}", repr(float(value))[:8]):
            assert text not in shown, f"expected value {value} shows in the report: {shown}"
    assert _item(report, "notebook_runs").points == 1  # the cell runs; only the value is wrong
    assert report.score == report.max_score - 1 - 2


def test_report_files_exist_and_html_hides_the_check_source(batch, toy):
    verdicts = (toy.solution / "hidden" / "verdicts.py").read_text()
    secret_lines = [line.strip() for line in verdicts.splitlines() if len(line.strip()) > 20]
    secret_lines += ["np.cumsum", "default_rng", "@check", "suspects="]
    for name in ("alice_solution", "bob_template", "carol_wrong"):
        folder = toy.out / name
        for file in REPORT_FILES:
            assert (folder / file).is_file(), folder / file
        html = (folder / "report.html").read_text()
        assert "Causal running sum" in html  # the hidden item is listed by its title
        for line in secret_lines:
            assert line not in html, f"{name}/report.html shows hidden check source: {line!r}"
        results = json.loads((folder / "results.json").read_text())
        assert results["score"] == batch[1][name].score


# ----------------------------------------------------------------------------- a class


def test_batch_writes_a_gradebook_row_per_submission_and_a_summary(batch, toy):
    code, reports = batch
    assert code == 0
    with (toy.out / "gradebook.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert sorted(r["submission"] for r in rows) == ["alice_solution", "bob_template", "carol_wrong"]
    assert all(r["status"] == "graded" for r in rows)
    assert {r["submission"]: float(r["score"]) for r in rows} == {n: r.score for n, r in reports.items()}
    assert (toy.out / "summary.html").is_file()


def test_rerun_skips_everything(batch, toy, caplog):
    before = _mtimes(toy.out)
    assert len(before) == 3
    with caplog.at_level(logging.INFO, logger="grader.batch.run"):
        assert grade_batch(toy.subs, toy.bundle, toy.out, jobs=2, unsandboxed=UNSANDBOXED) == 0
    assert "3 submission(s): 0 to grade, 3 already graded" in caplog.text
    assert _mtimes(toy.out) == before


def test_zip_of_only_the_changed_files_grades_like_the_folder_and_force_regrades_it(batch, toy, caplog):
    subs, out = toy.base / "zip-subs", toy.base / "zip-out"
    subs.mkdir()
    with zipfile.ZipFile(subs / "alice.zip", "w") as zf:
        for name in ("toy.py", "toy.ipynb"):
            zf.write(toy.subs / "alice_solution" / name, name)
    folder = batch[1]["alice_solution"]
    shutil.copytree(toy.out / "alice_solution", out / "alice")
    kept = _mtimes(out)
    # the zip holds the same content as the folder: its report counts as already graded...
    assert grade_batch(subs, toy.bundle, out, unsandboxed=UNSANDBOXED) == 0
    assert _mtimes(out) == kept
    # ...and --force grades it again, to the same points
    with caplog.at_level(logging.INFO, logger="grader.batch.run"):
        assert grade_batch(subs, toy.bundle, out, force=True, unsandboxed=UNSANDBOXED) == 0
    assert "1 submission(s): 1 to grade, 0 already graded" in caplog.text
    assert _mtimes(out) != kept
    zipped = load_report(out / "alice" / "report.json")
    assert zipped.submission == "alice" and zipped.status == folder.status
    assert zipped.submission_hash == folder.submission_hash
    assert [(i.id, i.points, i.status) for i in zipped.items] == [(i.id, i.points, i.status) for i in folder.items]
    assert zipped.score == folder.score == zipped.max_score - 1


def _leftover_cgroups(pid: int) -> None:
    """Remove the (empty) per-run cgroups a SIGKILLed grader could not sweep."""
    for controller in ("memory", "pids", ""):
        try:
            parent = Path("/sys/fs/cgroup") / (controller or "") / sandbox.cgroup._own_cgroup(controller)
        except OSError:
            continue
        for group in parent.glob(f"lrkit-{pid}-*"):
            for _ in range(100):
                try:
                    group.rmdir()
                    break
                except OSError:
                    time.sleep(0.05)


def test_batch_killed_midway_resumes_without_regrading(batch, toy):
    subs, out = toy.base / "kill-subs", toy.base / "kill-out"
    _student_copy(toy.subs / "alice_solution", subs / "dave")
    _student_copy(toy.subs / "carol_wrong", subs / "erin")
    argv = [str(GRADE), "batch", str(subs), "--autograder", str(toy.bundle), "--out", str(out), "--jobs", "1"]
    proc = subprocess.Popen(argv + (["--allow-unsandboxed"] if UNSANDBOXED else []),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not list(out.glob("*/report.json")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    _leftover_cgroups(proc.pid)
    done = _mtimes(out)
    assert len(done) == 1, f"the batch should have been killed after its first report: {done}"
    assert not (out / "gradebook.csv").exists()

    assert grade_batch(subs, toy.bundle, out, jobs=2, unsandboxed=UNSANDBOXED) == 0
    after = _mtimes(out)
    assert len(after) == 2
    for name, mtime in done.items():
        assert after[name] == mtime, f"{name} was regraded"
    for name in ("dave", "erin"):
        assert all((out / name / f).is_file() for f in REPORT_FILES)
    with (out / "gradebook.csv").open() as fh:
        assert sorted(r["submission"] for r in csv.DictReader(fh)) == ["dave", "erin"]


def test_missing_renderings_are_rewritten_without_regrading(batch, toy):
    out = toy.base / "render-out"
    shutil.copytree(toy.out, out)
    (out / "bob_template" / "results.json").unlink()  # as if killed between two renames
    before = {name: (out / name / "report.json").read_bytes() for name in batch[1]}
    assert grade_batch(toy.subs, toy.bundle, out, unsandboxed=UNSANDBOXED) == 0
    assert {name: (out / name / "report.json").read_bytes() for name in batch[1]} == before  # not regraded
    assert json.loads((out / "bob_template" / "results.json").read_text())["score"] == 0


# ----------------------------------------------------------------------------- by hand


def test_manual_export_import_round_trip(batch, toy, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(toy.out, out)
    sheet = tmp_path / "sheet.csv"
    assert cli.main(["manual", "export", str(out), str(sheet)]) == 0
    with sheet.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {(r["submission"], r["item"]) for r in rows} == {(n, "why") for n in batch[1]}
    alice = next(r for r in rows if r["submission"] == "alice_solution")
    assert "earlier inputs" in alice["answer"] and alice["points"] == ""
    alice["points"] = "1"
    with sheet.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert cli.main(["manual", "import", str(out), str(sheet)]) == 0
    report = load_report(out / "alice_solution" / "report.json")
    assert _item(report, "why").points == 1 and _item(report, "why").status == "passed"
    assert report.score == batch[1]["alice_solution"].score + 1 == report.max_score
    assert json.loads((out / "alice_solution" / "results.json").read_text())["score"] == report.score
    untouched = load_report(out / "carol_wrong" / "report.json")
    assert untouched.score == batch[1]["carol_wrong"].score


# ----------------------------------------------------------------------------- refusals, local, release


def test_official_grading_refuses_without_a_sandbox(monkeypatch):
    monkeypatch.setattr(sandbox, "sandbox_available", lambda: False)
    with pytest.raises(UsageError, match="--allow-unsandboxed") as exc:
        cli._refuse_unsandboxed(False)
    assert "--allow-unsandboxed" in str(exc.value) and "bubblewrap" in str(exc.value)
    assert cli._refuse_unsandboxed(True) is True


def test_grade_local_is_unofficial_and_lists_the_hidden_item(toy, tmp_path):
    folder = tmp_path / "toy"
    shutil.copytree(toy.template, folder)
    (folder / "toy.py").write_text((toy.solution / "toy.py").read_text())
    assert cli.main(["--local", str(folder)]) == 0
    html = (folder / "grade-report" / "report.html").read_text()
    report = load_report(folder / "grade-report" / "report.json")
    assert not report.official and "unofficial" in html.lower()
    assert any("unofficial" in n.lower() or "local run" in n.lower() for n in report.notes)
    hidden = [i for i in report.items if i.hidden]
    assert [(i.id, i.status, i.max_points) for i in hidden] == [("your_turn", "hidden", 1)]
    assert "Worked example" in html and "hidden" in html
    cumsum = _item(report, "cumsum")  # scored locally by its public test
    assert cumsum.points == cumsum.max_points and not cumsum.hidden


def test_grade_local_after_one_function_edit_reruns_only_what_uses_it(toy, tmp_path):
    """An edit to a function no cell uses reuses the notebook and reruns only its test; a bug in the function the
    notebook uses gives, from the cache, the report a run from nothing gives."""
    folder = tmp_path / "toy"
    shutil.copytree(toy.template, folder)
    (folder / "toy.py").write_text((toy.solution / "toy.py").read_text())
    assert cli.main(["--local", str(folder)]) == 0
    first = load_report(folder / "grade-report" / "report.json")
    module = (folder / "toy.py").read_text()
    (folder / "toy.py").write_text(module.replace("return 2 * x", "return x + x"))
    assert cli.main(["--local", str(folder)]) == 0
    edited = load_report(folder / "grade-report" / "report.json")
    assert any("no code cell can use what changed" in n for n in edited.notes), edited.notes
    assert any("1 of 2 public tests ran again" in n for n in edited.notes), edited.notes
    assert [(i.id, i.points) for i in edited.items] == [(i.id, i.points) for i in first.items]
    (folder / "toy.py").write_text(module.replace("return torch.cumsum(x, dim=-1)", "return x"))
    cli.main(["--local", str(folder)])
    cached = load_report(folder / "grade-report" / "report.json")
    shutil.rmtree(folder / ".lrkit-cache")
    cli.main(["--local", str(folder)])
    fresh = load_report(folder / "grade-report" / "report.json")
    assert _item(cached, "cumsum").points < _item(first, "cumsum").points
    assert [(i.id, i.points, i.messages) for i in cached.items] == [(i.id, i.points, i.messages) for i in fresh.items]
    assert [(c.index, c.status) for c in cached.cells] == [(c.index, c.status) for c in fresh.cells]


def test_student_zip_holds_no_hidden_material(toy):
    with zipfile.ZipFile(toy.student_zip) as zf:
        names = zf.namelist()
        text = "\n".join(zf.read(n).decode("utf-8", errors="replace") for n in names)
    assert not [n for n in names if "/hidden/" in n or n.endswith(("verdicts.py", "probes.py"))], names
    for line in (toy.solution / "hidden" / "verdicts.py").read_text().splitlines():
        if len(line.strip()) > 20:
            assert line.strip() not in text
    assert "distractors" not in text and "[1.5, 2.5]" not in text and "3.3333" not in text
    assert "torch.cumsum" not in text  # the solution body
    with zipfile.ZipFile(toy.bundle) as zf:  # while the bundle has all of it
        assert "solution/hidden/verdicts.py" in zf.namelist()
        assert "distractors" in zf.read("solution/answer_key.yaml").decode()
