"""What a one-function edit can affect (grader/student/depends.py), and `grade --local` rerunning only that
(grader/student/cache.py): the reading is conservative, and a partial run gives what a whole run gives."""
from __future__ import annotations

import json

from grader.grading import public_tests
from grader.grading.execute import NotebookRun
from grader.results import CellOutcome, Figure
from grader.student import depends
from grader.student.cache import LocalCache, Plan

MODULE = '''"""A student module."""
import torch

SCALE = 2.0


def helper(x):
    return x * SCALE


def used_by_a(x):
    """Docstring."""
    return helper(x) + 1


def used_by_b(x):
    return x - 1


class Layer:
    def step(self, x):
        return used_by_b(x)
'''


def _sources(module: str = MODULE, **more: str) -> depends.Sources:
    return depends.read_sources({"mod.py": module, **more})


def _cells(*sources: str) -> list[str]:
    return [json.dumps([f"c{n}", []]) + "\0\0" + src for n, src in enumerate(sources)]


NOTEBOOK = _cells(
    "%matplotlib inline\nimport torch\nfrom mod import used_by_a, used_by_b, Layer",  # 0
    "torch.manual_seed(0)\nx = torch.randn(3)\na = used_by_a(x)",  # 1
    "b = used_by_b(x)",  # 2: needs x (1)
    "print(a.sum())",  # 3: needs a (1)
    "layer = Layer()\ny = layer.step(torch.ones(2))",  # 4: draws? no seed: after 1's seed
    "torch.manual_seed(1)\nz = torch.randn(2)\ndef f(v, w=2):\n    t = v * w\n    return t\nprint(f(z))",  # 5
)


def _stale(before: list[str], after: list[str]) -> set[int]:
    return {n for n, (k0, k1) in enumerate(zip(before, after)) if k0 != k1}


def test_a_comment_a_docstring_or_formatting_changes_nothing():
    keys, _ = depends.cell_keys(_sources(), NOTEBOOK, "v")
    edited = MODULE.replace('"""Docstring."""', '"""Another docstring."""').replace(
        "return x - 1", "return x - 1  # a comment").replace("def helper(x):", "def helper( x ):")
    assert depends.cell_keys(_sources(edited), NOTEBOOK, "v")[0] == keys


def test_an_edit_reaches_the_cells_that_use_the_function_and_what_they_made():
    keys, needs = depends.cell_keys(_sources(), NOTEBOOK, "v")
    # helper is used by used_by_a (cell 1), whose `a` cell 3 prints; the cells after 1 draw from its seed
    changed = depends.cell_keys(_sources(MODULE.replace("x * SCALE", "x * SCALE * 1")), NOTEBOOK, "v")[0]
    assert _stale(keys, changed) == {1, 2, 3, 4}  # 5 seeds again first and uses nothing of 1-4
    # used_by_b: cell 2 and the Layer's step (cell 4) through the method's call; cell 3 too, because any call
    # may draw random numbers and cell 2's call came between cell 1's seed and cell 3
    changed = depends.cell_keys(_sources(MODULE.replace("return x - 1", "return x - 2")), NOTEBOOK, "v")[0]
    assert _stale(keys, changed) == {2, 3, 4}
    assert depends.run_set({2}, needs) == {0, 1, 2}  # x comes from cell 1, the imports from cell 0
    # the module's top (a constant): every cell that uses the module
    changed = depends.cell_keys(_sources(MODULE.replace("SCALE = 2.0", "SCALE = 3.0")), NOTEBOOK, "v")[0]
    assert _stale(keys, changed) == set(range(6))


def test_a_cells_own_variables_and_its_functions_locals_are_not_reads():
    use = depends.cell_use("q = 1\nprint(q)\ndef g(k, v):\n    s = k + v\n    return s + q\n")
    assert not {"q", "k", "v", "s"} & use.reads and {"q", "g"} <= use.changes
    use = depends.cell_use("print(q)\nq = 1")  # read before it is bound: an earlier cell's
    assert "q" in use.reads


def test_what_cannot_be_followed_depends_on_everything():
    for source in ("eval('x')", "exec('y = 1')", "from mod import *", "getattr(m, name)",
                   "import importlib\nimportlib.reload(m)", "def f():\n    global x\n    x = 1", "x = (",
                   "import sys\nsys.modules['mod'].x = 1"):
        use = depends.cell_use(source)
        assert use.everything or depends.ALL in use.changes, source
    assert not depends.cell_use("import sys\nsys.path.insert(0, '.')").everything
    # a module that looks names up by a computed string reaches all of them; by an f-string's prefix, those
    dynamic = _sources(MODULE + "\ndef pick(name):\n    return globals()[name]\n")
    assert len(dynamic.closure({"pick"})) == len(dynamic.units)
    prefixed = _sources(MODULE + "\ndef pick(form):\n    return getattr(mod, f'used_by_{form}')\n")
    assert {"mod.py::used_by_a", "mod.py::used_by_b"} <= set(prefixed.closure({"pick"}))
    assert "mod.py::Layer" not in prefixed.closure({"pick"})


def test_seeds_and_settings_order_the_cells():
    cells = _cells("import torch\ntorch.set_default_dtype(torch.float64)", "torch.manual_seed(0)",
                   "a = torch.randn(2)", "b = torch.randn(2)", "torch.manual_seed(3)\nc = torch.randn(2)")
    _, needs = depends.cell_keys(_sources(), cells, "v")
    assert needs[3] == [0, 1, 2]  # b's numbers depend on what cell 2 drew after the seed
    assert needs[4] == [0]  # seeded first: only the setting


TESTS = '''import pytest
from mod import used_by_a, used_by_b, Layer


@pytest.fixture
def data():
    return used_by_b(3)


def _check(v):
    return used_by_a(v) > 0


def test_a():
    assert _check(1)


def test_b(data):
    assert data == 2


class TestLayer:
    def test_step(self):
        assert Layer().step(1) == 0
'''


def test_a_public_test_is_keyed_by_its_function_its_fixtures_and_helpers():
    def keys(module=MODULE, tests=TESTS):
        units = depends.test_units(_sources(module, **{"tests/test_m.py": tests}), {"tests/test_m.py": tests}, "v")
        return {u.node: u.key for u in units}, units
    before, units = keys()
    assert {u.node: u.names for u in units} == {"tests/test_m.py::test_a": ("test_a",),
                                                "tests/test_m.py::test_b": ("test_b",),
                                                "tests/test_m.py::TestLayer": ("test_step",)}
    after, _ = keys(MODULE.replace("x * SCALE", "x * SCALE * 1"))  # helper: through used_by_a and _check
    assert {n for n in before if before[n] != after[n]} == {"tests/test_m.py::test_a"}
    after, _ = keys(MODULE.replace("return x - 1", "return x - 2"))  # through the fixture and the class
    assert {n for n in before if before[n] != after[n]} == {"tests/test_m.py::test_b", "tests/test_m.py::TestLayer"}
    assert depends.test_units(_sources(), {"tests/test_m.py": "def test_(:"}, "v") is None


def _run(cells, figures=(), status="ok"):
    return NotebookRun(tuple(cells), tuple(figures), status, (), 1.0, ("zygote",))


def test_a_partial_notebook_run_reruns_the_stale_cells_and_keeps_the_others(tmp_path):
    cache = LocalCache(tmp_path)
    prepared = {"cells": [{"cell_type": "markdown", "id": "m", "source": "# title"},
                          *({"cell_type": "code", "id": f"c{n}", "metadata": {}, "source": f"x{n} = {n}"}
                            for n in range(3))]}
    first = Plan((1, 2, 3), ("k0", "k1", "k2"), ((), (0,), (1,)), None)
    full = _run([CellOutcome(i, f"c{i - 1}", "ok", seconds=0.1) for i in (1, 2, 3)],
                [Figure(2, "b2"), Figure(3, "b3")])
    assert cache.notebook("whole-1", lambda part=None: full, first, prepared) == full
    parts = []

    def rerun(part=None):
        parts.append(part)
        return _run([CellOutcome(1, "c0", "not_run"), CellOutcome(2, "c1", "ok"), CellOutcome(3, "c2", "error",
                     ename="E")], [Figure(2, "b2"), Figure(3, "new3")])
    edited = Plan((1, 2, 3), ("k0", "k1", "k2*"), ((), (), (1,)), None)
    result = cache.notebook("whole-2", rerun, edited, prepared)
    assert [c["source"] for c in parts[0]["cells"][1:]] == ["", "x1 = 1", "x2 = 2"]  # cell 0 is not needed
    assert [(c.index, c.status) for c in result.cells] == [(1, "ok"), (2, "ok"), (3, "error")]
    assert result.figures == (Figure(2, "b2"), Figure(3, "new3")) and "2 of 3 code cells ran again" in result.notes[0]
    # nothing a cell uses changed (the whole key did): all reused, nothing run
    again = cache.notebook("whole-3", lambda part=None: (_ for _ in ()).throw(AssertionError("ran")), edited, prepared)
    assert [c.status for c in again.cells] == ["ok", "ok", "error"] and "reused" in again.notes[0]


def test_a_partial_test_run_merges_the_counts(tmp_path):
    cache = LocalCache(tmp_path)
    units = (depends.TestUnit("t.py::test_a", ("test_a",), "ka"), depends.TestUnit("t.py::test_b", ("test_b",), "kb"))
    full = public_tests.TestCounts(3, 0, {"test_a": True, "test_b": True}, counts={"test_a": (2, 0), "test_b": (1, 0)})
    cache.tests("w1", lambda select=None: full, Plan((), (), (), units))
    asked = []

    def part(select=None):
        asked.append(select)
        return public_tests.TestCounts(0, 1, {"test_b": False}, counts={"test_b": (0, 1)})
    edited = (units[0], depends.TestUnit("t.py::test_b", ("test_b",), "kb*"))
    result = cache.tests("w2", part, Plan((), (), (), edited))
    assert asked == [("t.py::test_b",)]
    assert (result.passed, result.failed, result.outcomes) == (2, 1, {"test_a": True, "test_b": False})
    assert "1 of 2 public tests ran again" in result.notes[0]


def test_a_cell_that_imports_and_calls_a_function_itself_is_keyed_by_its_body():
    cells = _cells("import torch", "from mod import used_by_b as ub\nw = ub(1)", "from mod import Layer\nn = 1")
    keys, _ = depends.cell_keys(_sources(), cells, "v")
    changed = depends.cell_keys(_sources(MODULE.replace("return x - 1", "return x - 2")), cells, "v")[0]
    assert _stale(keys, changed) == {1}  # cell 2 imports Layer (which calls used_by_b) but runs nothing of it
    gone = depends.cell_keys(_sources(MODULE.replace("class Layer:", "class Layer2:")), cells, "v")[0]
    assert 2 in _stale(keys, gone)  # ... and an import of a name that is no longer there is stale


def test_a_damaged_or_hostile_cache_runs_the_stages_whole(tmp_path):
    """The cache is a file in the student's folder: whatever it holds, the stages run (whole) and nothing raises."""
    prepared = {"cells": [{"cell_type": "code", "id": "c0", "metadata": {}, "source": "x = 1"},
                          {"cell_type": "code", "id": "c1", "metadata": {}, "source": "y = x"}]}
    units = (depends.TestUnit("t.py::test_a", ("test_a",), "ka*"), depends.TestUnit("t.py::test_b", ("test_b",), "kb"))
    plan = Plan((0, 1), ("k0", "k1*"), ((), (0,)), units)
    full = _run([CellOutcome(0, "c0", "ok"), CellOutcome(1, "c1", "ok")])
    counts = public_tests.TestCounts(2, 0, {"test_a": True, "test_b": True},
                                     counts={"test_a": (1, 0), "test_b": (1, 0)})
    hostile = [
        {"key": "other", "value": {"status": "ok", "cell_keys": ["k0", "k1"], "cells": [1, 2], "figures": []}},
        {"key": "other", "value": {"status": "ok", "cell_keys": ["k0", "k1"], "cells": [{"index": "x"}, {}],
                                   "figures": "no", "units": {"ka": {"test_a": "many"}}, "counts": []}},
        {"key": "other", "value": {"status": "ok", "cell_keys": "k0", "cells": {}, "units": [],
                                   "counts": {"test_b": 5}}},
        {"key": "other", "value": {"units": {"kb": {"test_b": [-1, 0]}}, "counts": {"test_b": [-1, 0]}}},
        {"key": "other", "value": {"units": {"kb": {"test_b": [1, 0]}}, "counts": {"test_b": [1, 0], "zzz": [0, 1]}}},
        ["not", "a", "record"], "{", 7,
    ]
    for n, record in enumerate(hostile):
        folder = tmp_path / f"c{n}"
        cache = LocalCache(folder)
        cache.dir.mkdir(parents=True)
        for stage in ("notebook", "tests"):
            (cache.dir / f"{stage}.json").write_text(record if isinstance(record, str) else json.dumps(record))
        runs = []
        assert cache.notebook("whole", lambda part=None: runs.append(part) or full, plan, prepared) == full
        assert runs == [None], record  # the whole notebook, not a part
        ran = []
        assert cache.tests("whole", lambda select=None: ran.append(select) or counts, plan) == counts
        assert ran == [None], record


def test_a_module_that_keeps_state_between_calls_makes_every_cell_depend_on_everything():
    keeping = (MODULE + "\nCACHE = {}\n\n\ndef remember(k, v):\n    CACHE[k] = v\n\n\n"
               "def recall(k):\n    return CACHE.get(k)\n")
    sources = _sources(keeping)
    assert len(sources.closure({"recall"})) == len(sources.units)
    assert len(_sources().closure({"used_by_b"})) < len(_sources().units)  # the plain module: only what it uses
    local = _sources(MODULE + "\ndef fresh(x):\n    cache = {}\n    cache[x] = 1\n    return cache\n")
    assert len(local.closure({"fresh"})) < len(local.units)  # a dict of its own is not shared state


def test_state_kept_where_names_do_not_show_it_counts_as_everything():
    for extra in ("def memo(x, seen={}):\n    seen[x] = 1\n    return len(seen)\n",
                  "class Counter:\n    def tick(self):\n        type(self).count += 1\n",
                  "class Counter:\n    def tick(self):\n        self.__class__.count += 1\n",
                  "import functools\n\n\n@functools.lru_cache(maxsize=None)\ndef slow(n):\n    return n\n",
                  "def dump(x):\n    torch.save(x, 'x.pt')\n"):
        sources = _sources(MODULE + "\n\n" + extra)
        assert len(sources.closure({"used_by_b"})) == len(sources.units), extra
    # in a cell: a module patched or an environment variable set configures every later cell; a value an earlier
    # cell made, changed in place, may be another name's too
    assert depends.cell_use("import mod\nmod.helper = lambda x: x", frozenset({"mod"})).config
    assert depends.cell_use("os.environ['X'] = '1'", frozenset({"os"})).config
    assert depends.ALL in depends.cell_use("Q.add_(1)").changes
    assert depends.ALL in depends.cell_use("Q[0] = 1").changes
    own = depends.cell_use("ys = []\nfor t in range(3):\n    ys.append(t)")
    assert depends.ALL not in own.changes  # its own list


def test_magics_that_run_code_or_write_files_read_and_change_everything():
    for source in ("%run other.py", "%%writefile data.txt\n1,2", "!python make_data.py", "%load_ext autoreload\n"
                   "%autoreload 2", "%env X=1", "%%time\nx = f(1)"):
        assert depends.cell_use(source).everything, source
    assert not depends.cell_use("%matplotlib inline\nimport torch").everything  # a setting: config only
    assert depends.cell_use("%matplotlib inline\nimport torch").config
