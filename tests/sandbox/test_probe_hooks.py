"""What the student's code can leave on to see the checks' own operations, and what the driver reports: a torch mode
left on a thread (the probes' thread after the import, the caller's thread between two steps), and an import of the
student's module that runs the student's code on the probes' thread (blind attacks11)."""
from __future__ import annotations

import pytest

from grader.grading import probing
from grader.sandbox import RunLimits, channel, sandbox_available

pytestmark = pytest.mark.skipif(not sandbox_available(), reason="needs the grader's sandbox (bubblewrap, Linux)")

MODE = """
import torch
from torch.overrides import TorchFunctionMode

class Seer(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))

LEFT = []
if WHERE == "import":
    LEFT.append(Seer().__enter__())

def step(x):
    if WHERE == "step" and not LEFT:
        LEFT.append(Seer().__enter__())  # left on the caller's thread: it sees the probe's `take`
    if WHERE == "inside":
        with Seer():
            return x * 2.0
    if WHERE == "default_device":
        torch.set_default_device("cpu")
    return x * 2.0
"""

SPEC = """
import importlib.machinery
import sys

class Spec(importlib.machinery.ModuleSpec):
    @property
    def _initializing(self):  # the import system asks this on every import of a loaded module
        return False  # (student code, on the probes' thread, inside the probe)

    @_initializing.setter
    def _initializing(self, value):
        pass

sys.modules[__name__].__spec__.__class__ = Spec

def step(x):
    return x * 2.0
"""


PROBES = '''
import torch
from lrkit_harness import call, steps

def run(n):
    import hooked
    total = torch.zeros(3)

    def take(t, y):
        nonlocal total
        total = total + y
    steps((hooked, "step"), int(n), lambda t: ((torch.ones(3),), {}), take=take)
    return {"total": total}


def twice(n):
    import hooked
    call((hooked, "first"))
    call((hooked, "second"))
    return {"n": 1.0}
'''


def _case(tmp_path, source: str, unsandboxed: bool = False, probe: str = "run") -> dict:
    code = tmp_path / "code"
    code.mkdir()
    (code / "hooked.py").write_text(source)
    header = {"modules": ["hooked"], "submission": "/submission", "probes": PROBES, "import_timeout": 60,
              "max_result_bytes": 1 << 20, "max_restarts": 3, "room": probing._room(unsandboxed)}
    job = b"".join([channel.encode(header), channel.encode({"id": "c", "probe": probe, "scalars": {"n": 4},
                                                            "group": "a", "timeout": 30}, b""),
                    channel.encode({"end": True})])
    result = probing._sandboxed(tmp_path, code, job, RunLimits(wall_s=60, memory_mb=2048, **probing.CHECK_ROOM),
                                unsandboxed=unsandboxed, cancel=None, modules_only=True)
    return next(m.header for m in channel.decode(result.channel)[0] if m.header.get("event") == "case")


@pytest.mark.parametrize("where", ["import", "step"])
def test_a_torch_mode_left_on_is_tampering(tmp_path, where):
    case = _case(tmp_path, f"WHERE = {where!r}\n" + MODE)
    assert "error" not in case, case
    assert any("torch mode" in t for t in case["tampered"]), case


@pytest.mark.parametrize("where", ["inside", "default_device"])
def test_a_mode_inside_the_call_or_the_default_device_is_not(tmp_path, where):
    case = _case(tmp_path, f"WHERE = {where!r}\n" + MODE)
    assert "error" not in case and case["tampered"] == [], case


def test_an_import_spec_that_runs_code_is_tampering(tmp_path):
    case = _case(tmp_path, SPEC)
    assert any("hooked" in t and "import spec" in t for t in case["tampered"]), case


def test_a_plain_module_is_not(tmp_path):
    case = _case(tmp_path, "def step(x):\n    return x * 2.0\n")
    assert "error" not in case and case["tampered"] == [] and case["introspected"] == [], case


def test_a_collector_callback_is_tampering(tmp_path):
    """The collector runs its callbacks on the thread that allocates: the probes' thread, inside the probe."""
    source = "import gc\ngc.callbacks.append(lambda phase, info: None)\n\ndef step(x):\n    return x * 2.0\n"
    case = _case(tmp_path, source)
    assert any("gc.callbacks" in t for t in case["tampered"]), case


THREAD = """
import _thread, threading, time

def wait():
    while True:
        time.sleep(0.01)  # (a job thief waits on the harness's lock here: blind attacks27)

if HOW == "threading":
    threading.Thread(target=wait, daemon=True).start()
elif HOW == "_thread":
    _thread.start_new_thread(wait, ())
elif HOW == "frameless":  # C code alone: no Python frame while it waits (blind attacks28)
    LOCK = threading.Lock()
    LOCK.acquire()
    _thread.start_new_thread(LOCK.acquire, ())
elif HOW == "in_step":
    STARTED = []
elif HOW == "pthread":  # libc's thread on a C callable through ctypes: no frame, no `_thread` start (blind attacks29)
    import collections, ctypes, functools
    LOCK = threading.Lock()
    LOCK.acquire()
    CALLBACK = ctypes.CFUNCTYPE(None)(functools.partial(collections.deque, iter(LOCK.acquire, None), 0))
    TID = ctypes.c_ulong()
    ctypes.CDLL(None).pthread_create(ctypes.byref(TID), None, ctypes.cast(CALLBACK, ctypes.c_void_p), None)
    time.sleep(0.05)
elif HOW == "baseline":  # the count before the import, raised through the driver's globals (the census's)
    import lrkit_harness
    lrkit_harness.caller.census.__globals__["THREADS"] = 1000
    threading.Thread(target=wait, daemon=True).start()

def step(x):
    if HOW == "in_step" and not STARTED:
        STARTED.append(threading.Thread(target=wait, daemon=True))
        STARTED[0].start()
    if HOW == "joined":
        t = threading.Thread(target=lambda: None)
        t.start()
        t.join()  # a thread that is gone when the call returns runs beside no job
    return x * 2.0
"""


@pytest.mark.parametrize("how", ["threading", "_thread", "in_step", "frameless", "pthread"])
def test_a_thread_of_the_students_own_alive_beside_the_checks_is_tampering(tmp_path, how):
    """A thread the student's code starts and leaves running can wait on the harness's lock ahead of its thread and
    take every job handed over (blind attacks27's job thieves replayed a step's history from the probe's stream and
    its output buffer)."""
    case = _case(tmp_path, f"HOW = {how!r}\n" + THREAD)
    assert any("thread of its own" in t for t in case["tampered"]), case


def test_the_thread_count_before_the_import_cannot_be_raised(tmp_path):
    case = _case(tmp_path, "HOW = 'baseline'\n" + THREAD)
    assert "driver.THREADS" in case["tampered"], case


def test_a_thread_joined_inside_the_call_is_not(tmp_path):
    case = _case(tmp_path, "HOW = 'joined'\n" + THREAD)
    assert "error" not in case and case["tampered"] == [], case


POOL = """
import threading, time
from concurrent.futures import ThreadPoolExecutor

POOL = ThreadPoolExecutor(max_workers=2)  # made once at the import, reused by every call: its workers outlive them
LOCK = threading.Lock()
LOCK.acquire()

def half(x):
    return x * 2.0

if HOW == "mp_pool":  # multiprocessing's pool of threads: workers and three handler threads, all idle between calls
    from multiprocessing.pool import ThreadPool
    MP = ThreadPool(2)
elif HOW == "pool_site":  # a pool's own wait called with the harness's lock in the queue's getter's place
    import queue
    from multiprocessing.pool import Pool
    threading.Thread(target=Pool._handle_results, args=(queue.SimpleQueue(), LOCK.acquire, {}), daemon=True).start()

def step(x):
    if HOW == "pool":
        return POOL.submit(half, x).result()
    if HOW == "mp_pool":
        return MP.apply(half, (x,))
    if HOW == "pool_waiting":  # a work item left waiting beside the checks (in C: the pool's own frame above it)
        POOL.submit(LOCK.acquire)
    if HOW == "pool_sleeping":
        POOL.submit(time.sleep, 30)
    return x * 2.0

def first():
    if HOW == "passing":  # alive as the next call is handed over, gone before the case ends (blind attacks28)
        PASSING.append(threading.Thread(target=time.sleep, args=(0.5,)))
        PASSING[0].start()
    return 1.0

def second():
    if PASSING:
        PASSING[0].join()
    return 2.0

PASSING = []
"""


@pytest.mark.parametrize("how", ["pool", "mp_pool"])
def test_a_thread_pools_idle_workers_are_not_a_thread_of_its_own(tmp_path, how):
    """A module-level `ThreadPoolExecutor` (or `multiprocessing.pool.ThreadPool`) whose work items the call waits
    for: its threads outlive every call, idle on the pool's own queue or poll, and take nothing handed over (blind
    attacks27's and attacks28's alternatives lost 8, 10 and 9 items when every live thread counted)."""
    case = _case(tmp_path, f"HOW = {how!r}\n" + POOL)
    assert "error" not in case and case["tampered"] == [], case


@pytest.mark.parametrize("how", ["pool_waiting", "pool_sleeping", "pool_site"])
def test_a_pool_worker_left_running_beside_the_checks_is_a_thread_of_its_own(tmp_path, how):
    case = _case(tmp_path, f"HOW = {how!r}\n" + POOL)
    assert any("thread of its own" in t for t in case["tampered"]), case


def test_a_thread_alive_as_a_later_call_of_the_case_is_handed_over_is_seen_though_gone_at_its_end(tmp_path):
    """Counted as each job is handed over, not only at a case's end: blind attacks28's passing thief waited on the
    harness's lock between two calls of one case and was gone when the case ended."""
    case = _case(tmp_path, "HOW = 'passing'\n" + POOL, probe="twice")
    assert any("thread of its own" in t for t in case["tampered"]), case


COURIER = """
import gc
import lrkit_harness

SEEN = []

class Courier:
    # garbage that reads the harness's job when the collector finalizes it, and leaves the next one behind
    def __init__(self):
        self.me = self

    def __del__(self):
        if lrkit_harness.caller.job is not None:
            SEEN.append(True)
        Courier()

gc.set_threshold(1, 1 << 30, 1 << 30)  # a collection at nearly every allocation
Courier()

def first():
    return 1.0

def second():
    gc.set_threshold(700, 10, 10)
    if SEEN:
        raise RuntimeError("a finalizer saw the job")
    return 2.0
"""


def test_no_finalizer_of_the_students_runs_while_a_job_is_handed_over(tmp_path):
    """Blind attacks29's courier: with the collector run at nearly every allocation, a finalizer of its garbage ran
    on the probe's thread (or the harness's) while the job waited there, and read the steps job's stream; it needs no
    thread of its own. The collector is off from the job's making to the harness thread's taking it."""
    case = _case(tmp_path, COURIER, probe="twice")
    assert "error" not in case, case


HANDLER = """
import signal, threading, time
import lrkit_harness

SEEN = []

def handler(signum, frame):  # handed the frame it interrupted: the probe's, on the main thread
    while frame is not None:
        if frame.f_code.co_name == "_run":
            SEEN.append(True)
        frame = frame.f_back

signal.signal(signal.SIGUSR1, handler)
MAIN = threading.main_thread().ident
if HOW == "unblocked":
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGUSR1])

def first():
    signal.pthread_kill(MAIN, signal.SIGUSR1)  # the probe's thread waits for this call to end
    time.sleep(0.05)
    return 1.0

def second():
    if SEEN:
        raise RuntimeError("a signal handler saw the harness's frame")
    return 2.0
"""


def test_a_signal_handler_of_the_students_never_sees_the_probes_frames(tmp_path):
    """Blind attacks30: a handler installed at the import, a signal sent to the main thread from a step: the probe's
    thread, waiting for the step, ran the handler, which was handed the harness's frame (and the probe's stream)."""
    case = _case(tmp_path, "HOW = 'sent'\n" + HANDLER, probe="twice")
    assert "error" not in case, case


def test_a_signal_handler_installed_at_the_import_is_not_introspection(tmp_path):
    """It can run nowhere (every signal is blocked on every thread): an honest Ctrl-C handler for a training loop,
    installed as a package is imported (blind attacks31's alternative), made every cost run untrusted."""
    source = "import signal\n\nsignal.signal(signal.SIGINT, lambda *a: None)\n\ndef step(x):\n    return x * 2.0\n"
    case = _case(tmp_path, source)
    assert "error" not in case and case["introspected"] == [] and case["tampered"] == [], case


def test_a_signal_unblocked_is_tampering(tmp_path):
    case = _case(tmp_path, "HOW = 'unblocked'\n" + HANDLER, probe="twice")
    assert any("signal unblocked" in t for t in case["tampered"]), case


def test_a_trace_function_set_in_a_call_is_introspection_for_the_rest_of_the_process(tmp_path):
    """Blind attacks30: a trace function set as a step returned was handed the harness's next call's frame, read the
    probe's stream from it and took itself off before the call's end, where the harness looks."""
    source = ("import sys\n\ndef look(frame, event, arg):\n    sys.settrace(None)\n    return None\n\n"
              "def first():\n    sys.settrace(look)\n    return 1.0\n\ndef second():\n    return 2.0\n")
    case = _case(tmp_path, source, probe="twice")
    assert any("sys.settrace" in t for t in case["introspected"]), case


@pytest.mark.parametrize("reader", ["torch._jit_internal.createResolutionCallbackFromFrame(2)",
                                    "torch.fx.experimental.symbolic_shapes._find_user_code_frame()"])
def test_a_frame_read_through_torch_for_the_students_code_is_the_students(tmp_path, reader):
    """Blind attacks31: torch functions that hand their caller a frame (or a lookup over one) read it for the
    student's code; the watch took the read for torch's own, and the harness thread's frame held the probe's stream."""
    source = (f"import torch\nimport torch._jit_internal\nimport torch.fx.experimental.symbolic_shapes\n\n"
              f"def first():\n    {reader}\n    return 1.0\n\ndef second():\n    return 2.0\n")
    case = _case(tmp_path, source, probe="twice")
    assert any("through" in t for t in case["introspected"]), case


def test_torch_jit_trace_at_a_steps_first_call_is_not_introspection(tmp_path):
    """Blind attacks32's honest step, traced at its first use: `torch.jit.trace` names the tensors it records from its
    caller's locals (a read that hands back a name); the step lost its items for it."""
    source = ("import torch\n\nTRACED = []\n\ndef _update(a, b):\n    c = a * 2.0\n    d = c + b\n"
              "    return c, d\n\ndef first():\n"
              "    TRACED.append(torch.jit.trace(_update, (torch.ones(3), torch.ones(3)), check_trace=False))\n"
              "    return float(TRACED[0](torch.ones(3), torch.ones(3))[1].sum())\n\ndef second():\n    return 2.0\n")
    case = _case(tmp_path, source, probe="twice")
    assert "error" not in case and case["introspected"] == [] and case["tampered"] == [], case


def test_a_copy_of_torchs_name_reader_compiled_by_the_student_is_the_students(tmp_path):
    """The name readers are passed by their very code object: the same name compiled under torch's file name (code
    that hands the student a frame) counts."""
    source = ("import inspect, torch.jit._trace\n\n"
              "SRC = 'def _get_interpreter_name_for_var(var):\\n    return inspect.currentframe().f_back\\n'\n"
              "SPACE = {'inspect': inspect}\nexec(compile(SRC, torch.jit._trace.__file__, 'exec'), SPACE)\n\n"
              "def first():\n    SPACE['_get_interpreter_name_for_var'](None)\n    return 1.0\n\n"
              "def second():\n    return 2.0\n")
    case = _case(tmp_path, source, probe="twice")
    assert case.get("introspected"), case


def test_torchscript_at_the_import_is_not_introspection(tmp_path):
    source = ("import torch\n\n@torch.jit.script\ndef twice(x: torch.Tensor) -> torch.Tensor:\n    return x * 2.0\n\n"
              "def step(x):\n    return twice(x)\n")
    case = _case(tmp_path, source)
    assert "error" not in case and case["introspected"] == [] and case["tampered"] == [], case


def test_torch_dynamo_wrapping_manual_seed_is_not_tampering(tmp_path):
    """Importing torch._dynamo (the first torch.compile or dispatch mode does) wraps torch.manual_seed: torch's own
    change, made by honest code."""
    case = _case(tmp_path, "import torch._dynamo\n\ndef step(x):\n    return x * 2.0\n")
    assert "error" not in case and case["tampered"] == [], case


def test_an_unsandboxed_run_imports_the_submission(tmp_path):
    """Without the sandbox the run's folder is a host folder, not /submission: the driver imports from where the
    run starts (every check failed with "No module named ..." before)."""
    case = _case(tmp_path, "def step(x):\n    return x * 2.0\n", unsandboxed=True)
    assert "error" not in case and case["scalars"] == {} and case["arrays"][0]["key"] == "total", case


HARNESS_STATE = """
import itertools
import torch
import lrkit_harness
REAL = torch.zeros

def first():
    if WHAT == "flags":
        torch.zeros = lambda *a, **k: REAL(*a, **k)  # seen by the check after this call
    else:
        from torch.overrides import TorchFunctionMode

        class Seer(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                return func(*args, **(kwargs or {}))
        Seer().__enter__()  # left on the caller's thread

def second():
    if WHAT == "flags":
        torch.zeros = REAL
        lrkit_harness.caller.flagged.clear()  # ... and what the check found, cleared
    else:
        torch._C._pop_torch_function_stack()
        lrkit_harness.caller.modings = itertools.count()  # ... and the harness's record of it, reset
"""


@pytest.mark.parametrize("what", ["flags", "modes"])
def test_the_harness_record_cleared_or_reset_is_tampering(tmp_path, what):
    """What the harness records on the student's thread (a function replaced during a call, a mode left on) stays
    recorded: the code can only advance its counters, and a record cleared or replaced is tampering too."""
    case = _case(tmp_path, f"WHAT = {what!r}\n" + HARNESS_STATE, probe="twice")
    assert case["tampered"], case
    if what == "flags":
        assert any("flagged" in t for t in case["tampered"]), case
    else:
        assert any("modings" in t for t in case["tampered"]), case


MAIN_THREAD = """
import os, signal, threading

SEEN = []

def first():
    SEEN.append(threading.current_thread() is threading.main_thread())
    SEEN.append(threading.get_native_id() == os.getpid())  # the main thread's id is the process's
    signal.signal(signal.SIGUSR2, signal.getsignal(signal.SIGUSR2))  # raises ValueError off the main thread
    return 1.0

def second():
    if not all(SEEN) or len(SEEN) != 2:
        raise RuntimeError(f"not on the main thread: {SEEN}")
    return 2.0
"""


def test_the_students_code_is_called_on_the_main_thread_as_the_notebook_calls_it(tmp_path):
    """Blind attacks35: a step that re-summed its history on the main thread only (the notebook's, where the kernel
    runs every cell) and was efficient off it kept step_cost: every call of the checks was on the harness's thread."""
    case = _case(tmp_path, MAIN_THREAD, probe="twice")
    assert "error" not in case and case["tampered"] == [] and case["introspected"] == [], case
