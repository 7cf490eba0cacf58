"""Scaling out on one machine (issue 14): shards and a merge, a Dask LocalCluster, workers that die.

One toy class (the solution, the untouched template, a wrong answer, and a folder holding a symbolic
link, which is `invalid` and cannot travel to a Dask worker) is graded once with `--jobs 2`;
that gradebook is the reference. Two shards plus `grade merge`, and a 2-process LocalCluster, must
reproduce it byte for byte. The toy's time limits are raised in this copy so that a loaded machine
cannot turn a run into a timeout: the subject here is where grading runs, not how fast.
"""
from __future__ import annotations

import csv
import dataclasses
import functools
import json
import os
import re
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from grader import cli, sandbox
from grader.authoring.build import build
from grader.authoring.release import release_assignment
from grader.batch import run as batch
from grader.batch.engines import isolation_decision, materialise, pack_submission
from grader.batch.merge import MergeError, merge_shards
from grader.batch.shards import MANIFEST_DIR, Shard, parse_shard, shard_of
from grader.bundle import folder_files, open_bundle
from grader.errors import UsageError
from grader.report.render import load_report, render_json

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "fixtures" / "toy-root"
UNSANDBOXED = not sandbox.sandbox_available()
ALLOW = ["--allow-unsandboxed"] if UNSANDBOXED else []
CLASS_FILES = ("gradebook.csv", "summary.html")
NAMES = ("alice_solution", "bob_template", "carol_wrong")
SLOW_LIMITS = ("limits: {cell_timeout_s: 240, notebook_timeout_s: 480, checks_timeout_s: 480, case_timeout_s: 240, "
               "memory_mb: 2048}")


@dataclasses.dataclass
class Class:
    base: Path
    bundle: Path
    subs: Path
    ref: Path  # the single-machine output (--jobs 2)


def _copy(src: Path, dest: Path) -> Path:
    dest.mkdir(parents=True)
    for name in ("toy.py", "toy.ipynb"):
        shutil.copy(src / name, dest / name)
    return dest


@pytest.fixture(scope="module")
def klass(tmp_path_factory) -> Class:
    base = tmp_path_factory.mktemp("scale")
    root = base / "root"
    shutil.copytree(TOY, root)
    config = root / "assignments" / "toy" / "assignment.yaml"
    lines = [SLOW_LIMITS if line.startswith("limits:") else line for line in config.read_text().splitlines()]
    config.write_text("\n".join(lines) + "\n")
    assert build(root) == 0
    release_assignment(root, "toy", root / "dist")  # the zips alone: release() runs check first
    solution, template = root / "solutions" / "toy", root / "student_template" / "toy"
    subs = base / "subs"
    _copy(solution, subs / "alice_solution")
    _copy(template, subs / "bob_template")
    wrong = _copy(solution, subs / "carol_wrong")
    text = (template / "toy.py").read_text()
    stub = next(line for line in text.splitlines() if "NotImplementedError" in line)
    indent = stub[: len(stub) - len(stub.lstrip())]
    summed = f"{indent}return x.sum(dim=-1, keepdim=True).expand_as(x).clone()"
    (wrong / "toy.py").write_text(text.replace(stub, summed))
    os.symlink(solution / "toy.py", _copy(solution, subs / "erin_link") / "linked.py")
    k = Class(base, root / "dist" / "toy-autograder.zip", subs, base / "ref")
    argv = ["batch", str(subs), "--autograder", str(k.bundle), "--out", str(k.ref), "--jobs", "2", *ALLOW]
    assert cli.main(argv) == 1
    statuses = {n: r["status"] for n, r in _rows(k.ref).items()}
    assert statuses == {**dict.fromkeys(NAMES, "graded"), "erin_link": "invalid"}
    return k


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "gradebook.csv").open() as fh:
        return {r["submission"]: r for r in csv.DictReader(fh)}


def _same_class_files(a: Path, b: Path) -> None:
    for name in CLASS_FILES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), f"{name} differs between {a} and {b}"


# ----------------------------------------------------------------------------- shards


def test_shards_are_disjoint_complete_and_stable():
    names = [f"student{n:04d}" for n in range(400)] + ["o'brien", "zoë", "a b", "x.zip"]
    for count in (1, 2, 3, 7, 20):
        parts = {i: {n for n in names if Shard(i, count).holds(n)} for i in range(1, count + 1)}
        assert set().union(*parts.values()) == set(names)  # complete
        assert sum(map(len, parts.values())) == len(names)  # disjoint
        if count > 1:
            assert all(parts.values()), "every shard gets some of 400 names"
        # a late submission lands in one shard and moves no one else
        late = {n: shard_of(n, count) for n in names}
        assert {n: shard_of(n, count) for n in names + ["late_submission"]} == {**late, "late_submission":
                                                                                 shard_of("late_submission", count)}
    assert shard_of("alice", 20) == shard_of("alice", 20)  # not Python's salted hash()


def test_shard_arguments_are_checked():
    assert parse_shard("3/20") == Shard(3, 20) and str(parse_shard(" 1 / 4 ")) == "1/4"
    for bad in ("0/4", "5/4", "3", "a/b", "1/0", "-1/3"):
        with pytest.raises(UsageError, match="shard"):
            parse_shard(bad)


@pytest.fixture(scope="module")
def shards(klass) -> list[Path]:
    """`grade batch --shard i/2` for i = 1, 2, each into its own folder (as CI jobs would)."""
    outs = []
    for i in (1, 2):
        out = klass.base / f"shard{i}"
        code = cli.main(["batch", str(klass.subs), "--autograder", str(klass.bundle), "--out", str(out), "--jobs", "2",
                         "--shard", f"{i}/2", *ALLOW])
        assert code == (1 if i == 2 else 0)  # erin_link, invalid, is in shard 2
        outs.append(out)
    return outs


def test_shards_grade_their_part_and_merge_to_the_single_machine_gradebook(klass, shards, tmp_path):
    graded = [sorted(p.parent.name for p in out.glob("*/report.json")) for out in shards]
    assert graded == [["alice_solution", "bob_template"], ["carol_wrong", "erin_link"]]
    for out in shards:
        assert not (out / "gradebook.csv").exists()  # only the merge writes one
        manifest = json.loads(next((out / MANIFEST_DIR).glob("*.json")).read_text())
        assert manifest["seen"] == [*NAMES, "erin_link"]
    merged = tmp_path / "merged"
    assert cli.main(["merge", *map(str, shards), "--out", str(merged)]) == 1  # 1: a row is not 'graded'
    _same_class_files(merged, klass.ref)
    for name in (*NAMES, "erin_link"):
        assert (merged / name / "report.html").is_file()
    # a shared folder (all shards wrote to one place, e.g. on a cluster's filesystem) merges in place
    shared = tmp_path / "shared"
    for out in shards:
        shutil.copytree(out, shared, dirs_exist_ok=True)
    assert merge_shards([shared], shared) == 1
    _same_class_files(shared, klass.ref)


def _mutable(shards: list[Path], tmp_path: Path) -> list[Path]:
    copies = [tmp_path / out.name for out in shards]
    for out, copy in zip(shards, copies):
        shutil.copytree(out, copy)
    return copies


def _edit_manifest(out: Path, **changes) -> None:
    path = next((out / MANIFEST_DIR).glob("*.json"))
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))


def _refused(folders: list[Path], tmp_path: Path, *words: str) -> None:
    with pytest.raises(MergeError, match=re.escape(words[0])) as exc:
        merge_shards(folders, tmp_path / "merged")
    for word in words:
        assert word in str(exc.value), str(exc.value)
    assert not (tmp_path / "merged").exists(), "a refused merge writes nothing"


def test_merge_refuses_gaps(shards, tmp_path):
    one, two = _mutable(shards, tmp_path)
    _refused([one], tmp_path, "gap", "shard(s) 2/2")  # a shard missing
    shutil.rmtree(two / "carol_wrong")  # a shard that did not finish
    _refused([one, two], tmp_path, "gap", "carol_wrong", "rerun")
    one, two = _mutable(shards, tmp_path / "late")
    _edit_manifest(one, seen=[*NAMES, "erin_link", "dave_late"])  # seen by shard 1 only
    _refused([one, two], tmp_path, "gap", "dave_late", f"shard(s) {shard_of('dave_late', 2)}/2")


def test_merge_refuses_duplicates_and_mixes(shards, tmp_path):
    one, two = _mutable(shards, tmp_path)
    _refused([one, two, one], tmp_path, "given twice")
    again = tmp_path / "again"
    shutil.copytree(one, again)
    _refused([one, two, again], tmp_path, "shard 1/2 appears twice")
    _edit_manifest(two, bundle_hash="0" * 64)
    _refused([one, two], tmp_path, "different bundles")
    one, two = _mutable(shards, tmp_path / "v")
    _edit_manifest(two, grader_version="0.0.1+000000000000")
    _refused([one, two], tmp_path, "different grader versions")
    one, two = _mutable(shards, tmp_path / "n")
    _edit_manifest(two, of=3, shard=3)
    _refused([one, two], tmp_path, "different shard counts")
    one, two = _mutable(shards, tmp_path / "r")
    report = json.loads((two / "carol_wrong" / "report.json").read_text())
    report["environment"]["grader"] = "0.0.1+000000000000"  # a report left by another grader
    (two / "carol_wrong" / "report.json").write_text(json.dumps(report))
    _refused([one, two], tmp_path, "carol_wrong", "rerun shard 2/2")


# ----------------------------------------------------------------------------- resume key


def test_resume_key_holds_the_grader_version(klass, tmp_path):
    out = tmp_path / "alice_solution"
    shutil.copytree(klass.ref / "alice_solution", out)
    path = klass.subs / "alice_solution"
    bundle = open_bundle(klass.bundle, tmp_path / "bundle")
    assert batch._already_graded(out, path, bundle) is not None
    report = load_report(out / "report.json")
    older = dataclasses.replace(report, environment={**report.environment, "grader": "0.0.9+000000000000"})
    (out / "report.json").write_text(render_json(older))
    assert batch._already_graded(out, path, bundle) is None  # an upgraded grader regrades


# ----------------------------------------------------------------------------- engines


def test_submissions_travel_as_bytes(tmp_path):
    sub = tmp_path / "sub"
    (sub / "pkg").mkdir(parents=True)
    (sub / "toy.py").write_text("x = 1\n")
    (sub / "pkg" / "data.txt").write_bytes(b"\x00\xff")
    (sub / ".venv" / "lib").mkdir(parents=True)  # a tool folder: not walked, as unpacking does not walk it
    (sub / ".venv" / "lib" / "big.bin").write_bytes(b"0" * 1000)
    (tmp_path / "there").mkdir()
    there = materialise(pack_submission(sub), tmp_path / "there", "sub")
    assert folder_files(there) == [(r, d) for r, d in folder_files(sub) if not r.startswith(".venv")]
    (tmp_path / "alice.zip").write_bytes(b"PK not really")
    (tmp_path / "z").mkdir()
    unpacked = materialise(pack_submission(tmp_path / "alice.zip"), tmp_path / "z", "alice.zip")
    assert unpacked.read_bytes() == b"PK not really"
    os.symlink("/etc/passwd", sub / "link")
    assert pack_submission(sub) is None  # unpacking rejects links: graded (as invalid) where it is


def test_workers_are_probed_before_a_batch_mixes_isolation():
    yes, no = {"sandbox": True}, {"sandbox": False}
    assert isolation_decision({"a": yes, "b": yes}, allow_unsandboxed=False, allow_mixed=False) == "sandboxed"
    assert isolation_decision({"a": no, "b": no}, allow_unsandboxed=True, allow_mixed=False) == "unsandboxed"
    with pytest.raises(UsageError, match="--allow-unsandboxed"):
        isolation_decision({"a": no}, allow_unsandboxed=False, allow_mixed=False)
    for allow in (False, True):
        with pytest.raises(UsageError, match="1 of 2 workers have no sandbox"):
            isolation_decision({"a": yes, "b": no}, allow_unsandboxed=allow, allow_mixed=False)
    assert isolation_decision({"a": yes, "b": no}, allow_unsandboxed=True, allow_mixed=True) == "mixed"


# The Dask engine is the optional extra lrkit[dask]; scripts/setup.sh installs it, so these tests run.


def test_a_two_worker_local_cluster_grades_like_jobs_2(klass, tmp_path):
    out = tmp_path / "dask"
    code = cli.main(["batch", str(klass.subs), "--autograder", str(klass.bundle), "--out", str(out),
                     "--engine", "dask", "--workers", "2", *ALLOW])
    assert code == 1  # erin_link is invalid, there as here
    _same_class_files(out, klass.ref)
    invalid = [load_report(o / "erin_link" / "report.json") for o in (out, klass.ref)]
    assert invalid[0].notes == invalid[1].notes and "link" in invalid[0].notes[0]
    for name in (*NAMES, "erin_link"):
        assert all((out / name / f).is_file() for f in batch.REPORT_FILES)


def _killing_task(marks: str, entry_name, name, *args):
    """Kills its own worker process: every time for `poison`, the first time for `dave_once`."""
    from grader.batch.dask_engine import grade_task

    mark = Path(marks) / name
    if name == "poison" or (name == "dave_once" and not mark.exists()):
        mark.touch()
        os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(60)
    return grade_task(entry_name, name, *args)


@pytest.fixture(scope="module")
def cluster():
    import cloudpickle
    import distributed

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the test's task travels to the workers
    # a cluster the engine finds, as with --scheduler: default settings (the engine sets what it needs)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as c:
        yield c


def test_a_killed_worker_loses_no_row_and_a_poison_submission_becomes_crashed(klass, cluster, tmp_path):
    from grader.batch.dask_engine import DaskEngine

    subs, out, marks = tmp_path / "subs", tmp_path / "out", tmp_path / "marks"
    marks.mkdir()
    shutil.copytree(klass.subs / "alice_solution", subs / "dave_once")
    shutil.copytree(klass.subs / "bob_template", subs / "poison")
    engine = DaskEngine(scheduler=cluster.scheduler_address, allow_unsandboxed=UNSANDBOXED,
                        task=functools.partial(_killing_task, str(marks)))
    assert batch.grade_batch(subs, klass.bundle, out, engine=engine) == 1  # one crashed row
    rows, ref = _rows(out), _rows(klass.ref)
    assert sorted(rows) == ["dave_once", "poison"]
    assert {**rows["dave_once"], "submission": "alice_solution"} == ref["alice_solution"]  # killed once, retried
    assert rows["poison"]["status"] == "crashed" and rows["poison"]["score"] == "0"
    assert "died twice" in load_report(out / "poison" / "report.json").notes[0]
    # the crashed row is not a result: a rerun tries it again (and the graded one is kept)
    before = (out / "dave_once" / "report.json").stat().st_mtime_ns
    assert batch._already_graded(out / "poison", subs / "poison", open_bundle(klass.bundle, tmp_path / "b")) is None
    assert (out / "dave_once" / "report.json").stat().st_mtime_ns == before


def _hanging_task(entry_name, name, *args):
    time.sleep(3600)  # a grader bug that never returns (student code has the sandbox's limits)


def test_a_task_past_its_deadline_stops_its_worker_then_becomes_crashed(klass, cluster, tmp_path):
    from grader.batch.dask_engine import DaskEngine

    subs, out = tmp_path / "subs", tmp_path / "out"
    shutil.copytree(klass.subs / "bob_template", subs / "stuck")
    engine = DaskEngine(scheduler=cluster.scheduler_address, allow_unsandboxed=UNSANDBOXED, task=_hanging_task,
                        task_timeout_s=3)
    assert batch.grade_batch(subs, klass.bundle, out, engine=engine) == 1
    assert _rows(out)["stuck"]["status"] == "crashed"
    assert "longer than 3 s" in load_report(out / "stuck" / "report.json").notes[0]


def test_workers_of_another_grader_version_are_refused(klass, cluster, tmp_path, monkeypatch):
    from grader.batch import dask_engine

    monkeypatch.setattr(dask_engine, "grader_version", lambda: "0.0.1+driver")
    engine = dask_engine.DaskEngine(scheduler=cluster.scheduler_address, allow_unsandboxed=UNSANDBOXED)
    with pytest.raises(UsageError, match="another grader"):
        batch.grade_batch(klass.subs, klass.bundle, tmp_path / "out", engine=engine)
    assert not list((tmp_path / "out").glob("*/report.json"))
