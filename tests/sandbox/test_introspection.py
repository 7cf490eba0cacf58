"""The driver's introspection watch (`inside/driver.py` `Watch`): code that reads who called it is seen.

A form that walks the call stack for the checks' frames can be honest where it is measured and quadratic
everywhere else (blind attacks5, `atk_*_frame_detect`). The watch is an audit hook installed before the
student's import; each case reports what the student's code read while it ran. Torch's and the standard
library's own reads are not the student's. Run in a fresh interpreter: an audit hook stays for the life of a
process."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

DRIVER = Path(__file__).resolve().parents[2] / "grader" / "sandbox" / "inside" / "driver.py"

STUDENT = '''
import gc, inspect, signal, sys
import torch

def honest(x):
    try:
        raise ValueError("caught")
    except ValueError:
        pass
    shape = torch.broadcast_shapes(x.shape, (1,) * x.dim())
    return torch.cumsum(x.reshape(shape), 0).sum()

def by_frame(x):
    names = []
    frame = sys._getframe(1)
    while frame is not None:
        names.append(frame.f_code.co_name)
        frame = frame.f_back
    return x.sum()

def by_inspect(x):
    return x.sum() if any(f.function == "form_cost" for f in inspect.stack()) else x.sum()

def by_traceback(x):
    try:
        raise ValueError
    except ValueError as exc:
        exc.__traceback__.tb_frame.f_back
    return x.sum()

def by_gc(x):
    return x.sum() if len(gc.get_objects()) else x

compiled = {}
READER = "import sys\\ndef {}(x):\\n    sys._getframe(1)\\n    return x.sum()\\n"
exec(compile(READER.format("hidden"), "<frozen zipimport>", "exec"), compiled)
hidden = compiled["hidden"]
exec(compile(READER.format("posing"), "<probes>", "exec"), compiled)
posing = compiled["posing"]

def by_signal(x):
    signal.signal(signal.SIGALRM, lambda s, frame: None)
    return x.sum()

def by_libc(x):
    import ctypes
    ctypes.CDLL(None).getpid()  # libc: the sandbox's business, not the watch's
    return x.sum()

def by_ctypes(x):
    import ctypes
    ctypes.pythonapi.PyEval_GetFrame  # the caller's frame with no audited read (blind attacks6)
    return x.sum()

def by_fault_handler(x):
    import faulthandler  # its stack dumps name every function on the stack
    return x.sum()

def by_own_memory(x):
    import os
    os.symlink("/proc/self/mem", "/tmp/lrkit-introspection-mem")  # by where it leads, not by its name
    try:
        with open("/tmp/lrkit-introspection-mem", "rb"):  # the live frames as raw bytes (blind attacks7)
            pass
    finally:
        os.unlink("/tmp/lrkit-introspection-mem")
    return x.sum()

def by_address(x):
    import ctypes
    ctypes.c_char.from_address(id(x))  # memory at an address
    return x.sum()
'''

RUNNER = '''
import importlib.util, json, os, sys
os.environ["LRKIT_CHANNEL_FD"] = "2"
spec = importlib.util.spec_from_file_location("lrkit_driver", sys.argv[1])
driver = importlib.util.module_from_spec(spec)
spec.loader.exec_module(driver)
import torch
watch = driver.Watch()
watch.start()
sys.path.append(sys.argv[2])
import student
watch.take()
import types
probes = types.ModuleType("lrkit_probes")
sys.modules["lrkit_probes"] = probes
exec(compile("def form_cost(f, x):\\n    return f(x)\\n", "<probes>", "exec"), probes.__dict__)
probes = probes.__dict__
seen = {}
for name in ("honest", "by_frame", "by_inspect", "by_traceback", "by_gc", "hidden", "posing", "by_signal", "by_libc",
             "by_ctypes", "by_fault_handler", "by_own_memory", "by_address"):
    probes["form_cost"](getattr(student, name), torch.ones(3, 2))
    seen[name] = watch.take()
print(json.dumps(seen))
'''


def test_the_watch_sees_the_students_reads_of_the_stack_and_nothing_of_honest_code(tmp_path):
    (tmp_path / "student.py").write_text(textwrap.dedent(STUDENT))
    out = subprocess.run([sys.executable, "-c", RUNNER, str(DRIVER), str(tmp_path)], capture_output=True,
                         text=True, timeout=120, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["honest"] == []  # an exception caught, torch's own lazy imports: not the student's reads
    assert "sys._getframe" in seen["by_frame"]
    assert "sys._getframe" in seen["by_inspect"]  # through the standard library: still the student's
    assert "tb_frame" in seen["by_traceback"]
    assert "gc.get_objects" in seen["by_gc"]
    assert "sys._getframe" in seen["hidden"]  # code compiled under a borrowed name is not the interpreter's
    assert "sys._getframe" in seen["posing"]  # ... nor under the probes' name
    assert seen["by_signal"] == ["signal.signal(SIGALRM)"]  # a handler is handed the frame it interrupts
    # a ctypes lookup or the fault handler's import is kept for every later case (done once at the module's top,
    # it serves them all)
    assert seen["by_libc"] == ["signal.signal(SIGALRM)"]  # (the handler installed above is still there)
    assert seen["by_ctypes"][0] == "ctypes symbol PyEval_GetFrame"
    assert seen["by_fault_handler"][:2] == ["ctypes symbol PyEval_GetFrame", "import faulthandler"]
    # reads of the process's own memory, kept too (what the probe runs is in it, as raw bytes)
    assert "reading the process's own memory (/proc/self/mem)" in seen["by_own_memory"]
    assert "reading memory at an address (ctypes.cdata)" in seen["by_address"]


IMPORT_RUNNER = '''
import importlib.util, json, os, sys
os.environ["LRKIT_CHANNEL_FD"] = "2"
spec = importlib.util.spec_from_file_location("lrkit_driver", sys.argv[1])
driver = importlib.util.module_from_spec(spec)
spec.loader.exec_module(driver)
sys.path.append(sys.argv[2])
seen = {}
for name in ("plain_module", "keeps_a_frame", "replaces_defaults"):
    watch = driver.Watch()
    watch.start()
    watch.importing = True
    __import__(name)
    watch.importing = False
    seen[name] = watch.take()
    watch.busy = True  # (this watch is done: the next module gets its own)
print(json.dumps(seen))
'''


def test_a_frame_kept_from_the_import_is_kept_against_every_case_and_the_standard_librarys_own_reads_are_not(
        tmp_path):
    """At import the stack shows only the import, but a frame object kept from it reads the driver's state later
    with no event (blind attacks7): reads that hand the student a frame during the import count for the whole
    process. namedtuple, TypeVar and the Enum API read a frame for the module's name and hand out nothing, and a
    namedtuple's defaults (typing.NamedTuple's too) are set on a function of its own; the standard library's
    defaults replaced are counted."""
    (tmp_path / "plain_module.py").write_text(textwrap.dedent('''
        import enum
        import typing
        from collections import namedtuple
        Pair = namedtuple("Pair", "a b")
        Point = namedtuple("Point", "x y", defaults=[0])
        T = typing.TypeVar("T")
        Mode = enum.Enum("Mode", "A B")

        class State(typing.NamedTuple):  # its __new__'s defaults are set as the class is made (blind attacks24)
            S: int
            z: int = 0
        '''))
    (tmp_path / "keeps_a_frame.py").write_text("import inspect\n\n_KEPT = inspect.currentframe()\n")
    (tmp_path / "replaces_defaults.py").write_text(
        "import textwrap\n\ntextwrap.wrap.__defaults__ = (60,)\n")
    out = subprocess.run([sys.executable, "-c", IMPORT_RUNNER, str(DRIVER), str(tmp_path)], capture_output=True,
                         text=True, timeout=120, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["plain_module"] == []
    assert seen["keeps_a_frame"] == ["sys._getframe"]
    assert seen["replaces_defaults"] == ["replacing wrap.__defaults__"]  # the standard library's: counted
