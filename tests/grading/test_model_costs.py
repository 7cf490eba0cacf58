"""The model solution's cost measurements kept between graders (`grader.grading.model_costs`).

A second grader of the same bundle on the same machine reads the model's measurements instead of making them
again; a changed bundle, another way of measuring, an old or damaged file measures again."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from grader import sandbox
from grader.grading import model_costs, probing
from grader.grading.costs import CostCase, Measurement, judge_cost
from tests.grading.test_costs import SPEC, _case, _honest, _right, _Runs

ROOT = Path(__file__).resolve().parents[2]
STUDENT = {("student", 1024): [(_right(1024), 0.13, 28)], ("student", 8192): [(_right(8192), 0.5, 83)]}


def _kept(tmp_path, bundle="b1", unsandboxed=False, runs_start='["warm", []]'):
    folder = tmp_path / "kept"
    folder.mkdir(exist_ok=True)
    return model_costs.Kept(folder, bundle, unsandboxed, runs_start)


def test_a_second_grader_reads_the_models_measurements_instead_of_making_them(tmp_path):
    kept = _kept(tmp_path)
    first, second = _Runs({**_honest(), **STUDENT}), _Runs({**_honest(), **STUDENT})
    assert judge_cost(SPEC, _case(), first, stamp=("grader 1", tmp_path), kept=kept).passed
    assert ("model", 1024) in first.calls
    assert judge_cost(SPEC, _case(), second, stamp=("grader 2", tmp_path), kept=kept).passed  # another process
    assert all(whose == "student" for whose, _ in second.calls)
    assert kept.load(SPEC.name, _case()) == (Measurement(1024, 28 * 2**20, 0.13), Measurement(8192, 83 * 2**20, 0.5))


def test_another_bundle_another_mode_or_another_case_measures_again(tmp_path):
    judge_cost(SPEC, _case(), _Runs({**_honest(), **STUDENT}), stamp=("g", tmp_path), kept=_kept(tmp_path))
    assert _kept(tmp_path, bundle="b2").load(SPEC.name, _case()) is None
    assert _kept(tmp_path, unsandboxed=True).load(SPEC.name, _case()) is None
    # runs forked from a template holding another assignment's preloads, or started cold, are measured otherwise
    assert _kept(tmp_path, runs_start='["warm", ["torch._dynamo"]]').load(SPEC.name, _case()) is None
    assert _kept(tmp_path, runs_start='["cold"]').load(SPEC.name, _case()) is None
    assert _kept(tmp_path).load(SPEC.name, _case()) is not None
    other = CostCase(label="form, 32 sequences", inputs={"form": "g"}, expect=lambda n: {"y": np.arange(float(n))})
    assert _kept(tmp_path).load(SPEC.name, other) is None


def test_an_old_damaged_or_hostile_file_is_not_read(tmp_path):
    kept = _kept(tmp_path)
    case = _case()
    measured = (Measurement(1024, 1, 0.1), Measurement(8192, 2, 0.4))
    kept.save(SPEC.name, case, measured)
    path = next(kept.folder.glob("*.json"))
    assert kept.load(SPEC.name, case) == measured
    data = json.loads(path.read_text())
    for bad in ({**data, "saved": time.time() - model_costs.KEPT_S - 5}, {**data, "saved": time.time() + 3600},
                {**data, "runs": [[1024, 1, "NaN"], [8192, 2, 0.4]]}, {**data, "runs": [[1024, 1, 0.1]]},
                {**data, "runs": [[4096, 1, 0.1], [8192, 2, 0.4]]}, {**data, "runs": [[1024, -1, 0.1], [8192, 2, 0.4]]},
                {"saved": "soon"}, []):
        path.write_text(json.dumps(bad))
        assert kept.load(SPEC.name, case) is None, bad
    path.write_bytes(b"\xff{not json")
    assert kept.load(SPEC.name, case) is None
    assert not [p for p in os.listdir(kept.folder) if p.startswith(".tmp-")]  # nothing half-written left behind


def test_the_bundle_digest_follows_the_checks_and_the_model_not_the_rest(tmp_path):
    (tmp_path / "hidden").mkdir()
    (tmp_path / "hidden" / "verdicts.py").write_text("CASES = 1\n")
    (tmp_path / "linear_attention.py").write_text("def f(): pass\n")
    (tmp_path / "notes.ipynb").write_text("{}")
    before = model_costs.bundle_digest(tmp_path)
    (tmp_path / "notes.ipynb").write_text('{"cells": []}')
    assert model_costs.bundle_digest(tmp_path) == before
    (tmp_path / "linear_attention.py").write_text("def f(): return 1\n")
    assert model_costs.bundle_digest(tmp_path) != before


def test_the_graders_secret_is_made_once_kept_private_and_places_one_twin_for_model_and_student(tmp_path,
                                                                                                  monkeypatch):
    from types import SimpleNamespace

    from grader.grading import draws, probing
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(model_costs, "_SECRET", [])
    first = model_costs.secret()
    path = tmp_path / "cache" / "lrkit" / "model-costs" / "secret"
    assert len(first) == model_costs.SECRET_BYTES and path.read_bytes() == first
    assert path.stat().st_mode & 0o777 == 0o600
    monkeypatch.setattr(model_costs, "_SECRET", [])  # another grader process reads the same one
    assert model_costs.secret() == first
    cost = SimpleNamespace(id="cost_form-000", spec=SimpleNamespace(name="cost_form"))

    def planned(n, twin_of=""):
        return probing.PlannedCase(f"compared-{n:03d}", SimpleNamespace(name="compared", probe="runs"),
                                   SimpleNamespace(inputs={"n": n}), twin_of=twin_of,
                                   twin_probe="form_cost" if twin_of else "")
    compared = [planned(n) for n in range(12)]
    compared.insert(draws.place("compared-012", 13), planned(12, twin_of="cost_form-000"))
    where = next(i for i, q in enumerate(compared) if q.twin_of)
    model = probing._companions(cost, compared)
    assert [c[0] for c in model] == [q.id for q in compared[:where]]  # up to the twin, its place the secret's
    assert all(c[1] == ("form_cost" if c[0] == "compared-012" else "runs") for c in model)
    places = {draws.place(f"compared-{n:03d}", 13) for n in range(40)}
    assert places <= set(range(13)) and len(places) > 3  # spread over the run
    assert probing._companions(SimpleNamespace(id="cost_other-000", spec=cost.spec), compared) == []
    path.unlink()  # a hostile one: a link to a file another user chose, or the wrong size, is not read
    (tmp_path / "elsewhere").write_bytes(b"x" * model_costs.SECRET_BYTES)
    path.symlink_to(tmp_path / "elsewhere")
    monkeypatch.setattr(model_costs, "_SECRET", [])
    assert model_costs.secret() != b"x" * model_costs.SECRET_BYTES


def test_a_second_grader_reads_the_cost_references_and_a_damaged_file_is_made_again(tmp_path):
    """The float64 references are kept beside the measurements (per bundle, case and inputs): a second grader of
    the same bundle does not make them again; another seed, bundle or length is another file; a damaged file, or a
    reference that is not float arrays, is made again and not kept."""
    made = []

    def expect(n):
        made.append(n)
        return {"y": _right(n)}
    case = CostCase(label="form, 4 sequences", inputs={"form": "f", "seed": 7}, expect=expect)
    kept = _kept(tmp_path)
    first, second = _Runs({**_honest(), **STUDENT}), _Runs({**_honest(), **STUDENT})
    judge_cost(SPEC, case, first, stamp=("grader 1", tmp_path), kept=kept)
    assert sorted(set(made)) == [1024, 8192]
    made.clear()
    judge_cost(SPEC, case, second, stamp=("grader 2", tmp_path), kept=kept)  # another process: read, not made
    assert made == []
    assert np.array_equal(kept.reference(SPEC.name, case, 1024)["y"], _right(1024))
    kept.keep_reference(SPEC.name, case, 4, {"y": np.arange(4.0), "z": np.ones((2, 2))})
    got = kept.reference(SPEC.name, case, 4)
    assert set(got) == {"y", "z"} and np.array_equal(got["y"], np.arange(4.0)) and got["z"].shape == (2, 2)
    reseeded = CostCase(label=case.label, inputs={"form": "f", "seed": 8}, expect=expect)
    assert kept.reference(SPEC.name, reseeded, 1024) is None and kept.reference(SPEC.name, case, 4096) is None
    assert _kept(tmp_path, bundle="b2").reference(SPEC.name, case, 1024) is None
    for path in kept.folder.glob("reference-*.npz"):
        path.write_bytes(b"PK\x03\x04 not a zip")
    assert kept.reference(SPEC.name, case, 1024) is None
    kept.keep_reference(SPEC.name, reseeded, 1024, {"y": np.arange(3)})  # integers: not a float64 reference
    assert kept.reference(SPEC.name, reseeded, 1024) is None
    assert not [p for p in os.listdir(kept.folder) if p.startswith(".tmp-")]


def test_a_pass_is_kept_for_its_code_and_nothing_else(tmp_path):
    """A cost case this very code passed (this bundle, measured alike, on this machine) stands at the next grading
    without its runs: a resubmission that changed only its notebook, a batch graded again. Other code, another
    bundle or way of measuring, an old or damaged record: measured again. Only passes are kept."""
    kept, case = _kept(tmp_path), _case()
    assert not kept.passed_before(SPEC.name, case, b"code-1")
    kept.keep_pass(SPEC.name, case, b"code-1")
    assert kept.passed_before(SPEC.name, case, b"code-1")
    assert not kept.passed_before(SPEC.name, case, b"code-2")
    assert not _kept(tmp_path, bundle="b2").passed_before(SPEC.name, case, b"code-1")
    assert not _kept(tmp_path, runs_start='["cold"]').passed_before(SPEC.name, case, b"code-1")
    assert not kept.passed_before("other_check", case, b"code-1")
    path = next(kept.folder.glob("pass-*"))
    for bad in ({"saved": time.time() - model_costs.KEPT_S - 5, "passed": True}, {"saved": time.time(), "passed": 1},
                {"saved": "now", "passed": True}, [], "x"):
        path.write_text(json.dumps(bad))
        assert not kept.passed_before(SPEC.name, case, b"code-1"), bad
    path.write_text("{not json")
    assert not kept.passed_before(SPEC.name, case, b"code-1")


def test_a_pass_kept_by_one_version_of_the_verdict_code_is_not_a_pass_of_another(tmp_path, monkeypatch):
    """A fix to how runs are measured or become verdicts (a bound, a twin, an excuse, a meter: `grader/grading/`,
    `grader/sandbox/`) measures again what the code before it passed (blind attacks25: kept passes outlived a fix
    for 12 h)."""
    kept, case = _kept(tmp_path), _case()
    kept.keep_pass(SPEC.name, case, b"code-1")
    assert kept.passed_before(SPEC.name, case, b"code-1")
    monkeypatch.setattr(model_costs, "verdict_code", lambda: "another version of grader/grading/")
    assert not kept.passed_before(SPEC.name, case, b"code-1")


def test_the_verdict_code_digest_follows_the_files_that_judge(tmp_path, monkeypatch):
    package = tmp_path / "grader"
    (package / "grading" / "answers").mkdir(parents=True)
    (package / "grading" / "costs.py").write_text("WORK_CAP = 6.0\n")
    (package / "grading" / "answers" / "numbers.py").write_text("x = 1\n")
    (package / "checks.py").write_text("")
    (package / "sandbox").mkdir()
    (package / "sandbox" / "cgroup.py").write_text("")
    monkeypatch.setattr(model_costs, "__file__", str(package / "grading" / "model_costs.py"))
    digests = []
    for change in (None, ("grading/costs.py", "WORK_CAP = 4.0\n"), ("grading/answers/numbers.py", "x = 2\n"),
                   ("checks.py", "# judged\n"), ("sandbox/cgroup.py", "# a meter\n"), ("notes.txt", "not code")):
        if change:
            (package / change[0]).write_text(change[1])
        model_costs.verdict_code.cache_clear()
        digests.append(model_costs.verdict_code())
    model_costs.verdict_code.cache_clear()
    assert len(set(digests[:5])) == 5 and digests[5] == digests[4]


@pytest.mark.skipif(not sandbox.sandbox_available(), reason="needs Linux, root and bubblewrap")
def test_a_cost_case_passed_by_this_very_code_stands_at_its_next_grading(tmp_path, monkeypatch):
    """Graded again (the same Python files: a resubmission that changed only its notebook, a batch graded again),
    the step's cost case passed before stands without its runs, and says so; one byte more in the module, and it
    is measured again."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("LRKIT_KEEP_PASSES", raising=False)
    tree = ROOT / "solutions" / "linear-attention-basics"
    full = probing.plan
    monkeypatch.setattr(probing, "plan", lambda t: [p for p in full(t) if p.spec.name in ("cost_step", "state_step")])
    sub = tmp_path / "sub"
    sub.mkdir()
    module = (tree / "linear_attention.py").read_text()
    (sub / "linear_attention.py").write_text(module)
    runs = [probing.run_checks(tree, sub), probing.run_checks(tree, sub)]
    (sub / "linear_attention.py").write_text(module + "\n# one more line\n")
    runs.append(probing.run_checks(tree, sub))
    said = "passed by this very code before"
    for n, run in enumerate(runs):
        costs_ = [o for o in run.outcomes if o.check == "cost_step"]
        assert costs_ and all(o.passed for o in costs_), [o.message for o in costs_]
        assert all(o.passed for o in run.outcomes if o.check == "state_step")
        assert (run.cost_cpu_s == 0) == (n == 1) and any(said in note for note in run.notes) == (n == 1), (n, run)
    monkeypatch.setenv("LRKIT_KEEP_PASSES", "0")  # every cost case measured, whatever was kept
    assert probing.run_checks(tree, sub).cost_cpu_s > 0
