"""The fixed driver that runs probes on student code, inside the sandbox (``python -I driver.py``).

Standalone (imports nothing from the grader); decides no score. Two processes, so student code
can neither forge nor booby-trap what the grader reads. The **parent** never runs student code:
it reads the job from stdin (the probes' source, then one case at a time; never on disk), makes
itself undumpable (no process of the sandbox uid can open its pipes through /proc or read its
memory; seccomp also blocks ptrace) and forks the **child**, which closes the channel and stdin,
imports the student's modules (appended to the END of sys.path), runs the probe on each case it
is handed (the probes call the student's code on the harness's own thread: `caller.py`) and
answers with plain data (raw arrays with dtype and shape, JSON scalars, or the error). The parent
waits under the case's time limit and forwards the answer to the grader's pipe
(``$LRKIT_CHANNEL_FD``) tagged with the case it asked for; a hang, a death or garbage costs that
case, and the next case gets a fresh child. Messages: framed by `wire.py` (``>II`` lengths, JSON
header, body).
"""
import _thread
import _tracemalloc
import ast
import builtins
import contextlib
import ctypes
import gc
import importlib
import importlib.machinery
import importlib.util
import itertools
import json
import json.scanner
import math
import operator
import os
import re
import select
import signal
import struct
import sys
import time
import traceback
import types

import numpy as np
import torch


def _beside(name):
    """A module of this folder loaded by path, under a name no student module has (not on sys.path)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"lrkit_{name}", path)
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


wire = _beside("wire")
student_thread = _beside("caller")  # where the probes call the student's code (`caller.py`)
_beside("kernel")  # the Linux calls `apart.py` makes (`kernel.py`)
apart = _beside("apart")  # each student process in namespaces of its own (`apart.py`)
spawn = _beside("spawner")  # where every student process is forked from (`spawner.py`)
seeded = _beside("seeded")  # the arrays a case names by seed, made here (`seeded.py`)
BALLAST = []  # pipes held in place of the freed ones until the run ends (`Child.stop`)
APART = []  # [True] when this run's student processes are set up apart (tried once, before the first)
CALLER = None  # the child's Caller, made before the probes' source runs
GUARD = []  # the child's Guard, made before the student's import
WATCHES = []  # the child's Watch

CHANNEL = int(os.environ.pop("LRKIT_CHANNEL_FD"))
WATCHED = {
    "torch.allclose": lambda: torch.allclose,
    "torch.equal": lambda: torch.equal,
    "torch.testing.assert_close": lambda: torch.testing.assert_close,
    "torch.Tensor.__eq__": lambda: torch.Tensor.__eq__,
    "numpy.allclose": lambda: np.allclose,
    "numpy.testing.assert_allclose": lambda: np.testing.assert_allclose,
    "numpy.ndarray.tobytes": lambda: np.ndarray.tobytes,
    "builtins.__import__": lambda: builtins.__import__,
    "json.dumps": lambda: json.dumps,
}
for _owner, _names in ((os, "write"), (struct, "pack"), (np, "load array ascontiguousarray"),  # what the child
                       (torch, "from_numpy stack"), (torch.Tensor, "numpy detach")):     # reads and answers with
    WATCHED.update({f"{_owner.__name__}.{n}": (lambda o=_owner, n=n: getattr(o, n)) for n in _names.split()})
_SPEC = importlib.machinery.ModuleSpec
DYNAMO_WRAPPER = torch._disable_dynamo(len).__code__  # torch's own wrapper's code (`torch_own`)
GC_CALLBACKS = gc.callbacks  # the collector's own list (the module's name for it can be rebound)
GENERATOR = torch.default_generator  # (bound before the student's import: the one the probes' draws use)
PROBES = {}  # "module", its "marks" and its "functions", as loaded before any student code ran
THREADS = 0  # the child's own threads before the student's import (`python_threads`): an int, rebound once before
# the guard copies the driver's globals, so a change is a rebinding the guard sees (a list's item was not)
MAX_MESSAGE = 400
MAX_HEADER = 256 * 1024
PR_SET_DUMPABLE = 4
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_ARENA_MAX = -1, -3, -8  # mallopt parameters (glibc)


IS_TRACING = _tracemalloc.is_tracing  # bound before any student code runs


class Gone(Exception):  # the other end closed, or stopped answering in time
    pass


send = wire.send  # looked up by name at each call


def read_exact(fd, n, deadline=None):
    chunks, left = [], n
    while left:
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                raise Gone("timeout")
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise Gone("closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def receive(fd, max_body, deadline=None, streams=None):
    """One message: (header, body). A body over ``max_body`` is not read: (header, None). ``streams``: a streamed
    case's `Streams`, whose tokens the child asks for as it steps (`_Feed`) before it answers."""
    head_len, body_len = wire.lengths(read_exact(fd, wire.PREFIX_BYTES, deadline))
    while head_len == 0 and streams:  # an ask for the next tokens (a message has a header: "{}" at least)
        hand_tokens(streams, body_len, deadline)
        head_len, body_len = wire.lengths(read_exact(fd, wire.PREFIX_BYTES, deadline))
    if head_len > MAX_HEADER:
        raise ValueError("a message header over the size limit")
    try:
        header = json.loads(read_exact(fd, head_len, deadline), parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ValueError("a message header nested too deep") from None
    if not isinstance(header, dict):
        raise ValueError("a message header that is not a mapping")
    if body_len > max_body:
        return header, None
    return header, read_exact(fd, body_len, deadline)


class Streams(list):
    """A streamed case's `seeded.Stream`s (its ``streams``), drawn here, the pipe to the child (``fd``) and the
    float64 numbers of one token of every stream (``width``, as `_Feed` counts them)."""

    def __init__(self, entries, fd):
        super().__init__(seeded.Stream(e["seed"], e["shape"], e["scale"]) for e in entries)
        self.fd, self.width = fd, sum(math.prod(s.shape[:-2]) * s.shape[-1] for s in self)


def hand_tokens(streams, t, deadline):
    """The next tokens of every stream from token ``t`` (`feed_tokens`), token by token, as the child asked
    (`_Feed`): asked in order, each once; not one token more is drawn. A token asked again or ahead is not the
    probe's: the case stops (ValueError)."""
    if not all(s.next == t < s.shape[-2] for s in streams):
        raise ValueError("tokens asked out of order")
    n = feed_tokens(streams.width, streams[0].shape[-2] - t)
    block = np.concatenate([s.tokens(n).reshape(n, -1) for s in streams], axis=1)  # (token, every stream's)
    data = memoryview(block).cast("B")
    os.set_blocking(streams.fd, False)  # (a child that asks and does not read costs its case, not the run)
    try:
        while data:
            wait = max(deadline - time.monotonic(), 0.0) if deadline is not None else None
            if not select.select([], [streams.fd], [], wait)[1]:
                raise Gone("timeout")
            with contextlib.suppress(BlockingIOError):
                data = data[os.write(streams.fd, data):]
    finally:
        os.set_blocking(streams.fd, True)


def _no_constant(name):
    raise ValueError(f"{name} in a message header")


# What the child reads a case with, bound before the student's import and all of it C: a function the student's
# code replaced after its import (json.loads, zipfile's, os.read, a builtin) would see every case's probe and
# inputs as the child parses them (blind attacks8 read the probe's name through a wrapped json.loads and the input
# names through zipfile). The parent hands the child plain JSON and raw array bytes (`for_child`).
_SCAN = json.scanner.c_make_scanner(json.JSONDecoder()) if json.scanner.c_make_scanner else None
_READ, _READV, _UNPACK = os.read, os.readv, struct.Struct(wire.PREFIX).unpack_from
_FROMBUFFER, _DTYPE, _COPY = np.frombuffer, np.dtype, np.array
_DECODE, _JOIN, _BUFFER, _VIEW = bytes.decode, b"".join, bytearray, memoryview
_WRITE, _PACK, _PROD, _INT = os.write, struct.Struct(wire.PREFIX).pack, math.prod, int


def child_read(fd, n):
    chunks, left = [], n
    while left:
        chunk = _READ(fd, left if left < 1 << 20 else 1 << 20)
        if not chunk:
            raise Gone("closed")
        chunks.append(chunk)
        left -= chunk.__len__()
    return _JOIN(chunks)


def child_read_into(fd, view):
    """Fill ``view`` (a memoryview of bytes) from ``fd``, a MiB at a time, into the buffer itself."""
    done, n = 0, view.nbytes
    while done < n:
        got = _READV(fd, [view[done:done + (n - done if n - done < 1 << 20 else 1 << 20)]])
        if not got:
            raise Gone("closed")
        done += got


def child_receive(fd, answers_w):
    """One case as the child reads it (`for_child`'s message): (probe, keyword arguments, nonce).

    The body is read into one buffer the size of the case's arrays, and each array is a view of it (a copy only
    where its offset is not aligned to its item size): the child holds the inputs once before the student's code
    runs, not twice (the chunks read and their join, then a copy of each array). A cost run's memory peak is
    then the measured call's, not the reading's: a step that held its history only while it ran, under a peak
    the probe's own work set before or after the call, kept the step's memory items (blind attacks24). A probe
    hands its code a copy of each array (`_t`), as before."""
    head_len, body_len = _UNPACK(child_read(fd, wire.PREFIX_BYTES))
    header = _SCAN(_DECODE(child_read(fd, head_len), "utf-8"), 0)[0]
    body = _BUFFER(body_len)
    child_read_into(fd, _VIEW(body))
    kwargs = header["scalars"]
    streams = header.get("streams") or ()
    if streams:  # handed over token by token by the parent, as the probe steps (`Paced`), never whole
        feed = _Feed(fd, answers_w, [entry["shape"] for entry in streams])
        for i, entry in enumerate(streams):
            kwargs[entry["key"]] = _Paced(feed, i, entry["shape"])
    for entry in header["arrays"]:
        dtype = _DTYPE(entry["dtype"])
        array = _FROMBUFFER(body, dtype, entry["count"], entry["offset"])
        if entry["offset"] % dtype.itemsize:
            array = _COPY(array)
        kwargs[entry["key"]] = array.reshape(entry["shape"])
    return header["probe"], kwargs, header["nonce"]


FEED_BYTES = 1 << 16  # tokens handed over at once, at most: a pipe's capacity (a round trip per token doubled a
# step's CPU time; more than a pipe holds is written and read in parts, each a wake-up of both ends)


def feed_tokens(width, left):
    """How many tokens of ``width`` float64 numbers (every stream's) are handed over at once, ``left`` to go."""
    return max(1, min(FEED_BYTES // (8 * width), left))


class _Feed:
    """A streamed case's tokens as the child gets them: a pipe's worth of tokens of every stream at a time, asked of
    the parent (an empty header whose body length is the first token's number, on the answers' pipe) when the
    probe first asks for one of them, and read from the cases' pipe into a buffer of their own. The tokens are
    drawn in the parent (`Streams`, `hand_tokens`) from a seed the child never sees: what the student's process
    knows of its inputs is the tokens it was handed and kept, charged to its memory as any history is. Drawn in
    the child, the generator's state was there to copy and replay the history from (blind attacks27-32 reached it
    through threads, signals, trace functions, torch's frame readers, and raw reads of the process's memory, which
    no audit event reports)."""

    def __init__(self, cases_r, answers_w, shapes):
        self.cases_r, self.answers_w = cases_r, answers_w
        self.shapes = [tuple(_INT(n) for n in shape[:-2]) + (_INT(shape[-1]),) for shape in shapes]
        sizes = [_PROD(shape) for shape in self.shapes]
        self.width, self.length = sum(sizes), min(_INT(shape[-2]) for shape in shapes)
        self.slices = [slice(sum(sizes[:i]), sum(sizes[:i + 1])) for i in range(len(shapes))]
        self.t, self.first, self.rows, self.left = -1, 0, None, 0

    def token(self, i, t):
        if self.left == 0 and t == self.t + 1 < self.length:  # every stream's token t - 1 was taken: token t
            if self.rows is None or t - self.first >= self.rows.shape[0]:  # the next tokens, from the parent
                n = feed_tokens(self.width, self.length - t)
                _WRITE(self.answers_w, _PACK(0, t))
                block = _BUFFER(8 * n * self.width)
                child_read_into(self.cases_r, _VIEW(block))
                self.first, self.rows = t, _FROMBUFFER(block, _DTYPE("float64")).reshape(n, self.width)
            self.t, self.left = t, (1 << self.slices.__len__()) - 1
        if t != self.t or not self.left >> i & 1:
            raise ValueError(f"token {t} asked for where token {self.t + 1} is next (of {self.length})")
        self.left &= ~(1 << i)
        return self.rows[t - self.first, self.slices[i]].reshape(self.shapes[i])


class _Paced:
    """One stream of a case (``shape``: the whole array's, (..., L, d)), token by token: ``token(t)``, t = 0, 1,
    2, ... in order, a (..., d) float64 array (a view of the tokens handed over with it); every stream's token t
    before any stream's token t + 1."""

    def __init__(self, feed, index, shape):
        self.feed, self.index, self.shape = feed, index, tuple(_INT(n) for n in shape)

    def token(self, t):
        return self.feed.token(self.index, t)


def for_child(case, inputs, nonce):
    """A case as the child gets it: its probe, its scalars and arrays (raw bytes as the grader packed them, read
    with `child_receive`), the nonce; not its id, its check or its time limit, which would tell a cost run from the
    run that compares it."""
    scalars, arrays, streams = case.get("scalars", {}), case.get("arrays", []), case.get("streams", [])
    return {"probe": case.get("probe"), "scalars": scalars if isinstance(scalars, dict) else {},
            "arrays": arrays if isinstance(arrays, list) else [], "nonce": nonce,
            "streams": [{"key": entry["key"], "shape": entry["shape"]}  # (not its seed: the parent draws it)
                        for entry in (streams if isinstance(streams, list) else [])]}, inputs


MAX_SEEDED_BYTES = 1 << 30  # of one case's seeded arrays (the grader's job is trusted; a bound all the same)


def with_seeded(case, inputs):
    """The case with the arrays it names by seed (``seeded``: key, seed, shape, scale) made here and packed after
    its other arrays, as the grader packs them: the child reads them as any case's (`child_receive`), and the
    grader sends a seed, not 192 MiB."""
    specs = case.get("seeded")
    if not isinstance(specs, list) or not specs:
        return case, inputs
    streams = [{"key": str(spec["key"]), "seed": int(spec["seed"]), "shape": [int(n) for n in spec["shape"]],
                "scale": float(spec.get("scale", 1.0))} for spec in specs if spec.get("stream")]
    if any(len(stream["shape"]) < 2 or min(stream["shape"]) < 0 for stream in streams):
        raise ValueError("a stream is (..., L, d)")
    if streams:  # drawn here, token by token, as the child asks (`run_case`, `_Feed`)
        case = {**case, "streams": streams}
        specs = [spec for spec in specs if not spec.get("stream")]
        if not specs:
            return case, inputs
    shapes = [[int(n) for n in spec["shape"]] for spec in specs]
    sizes = [8 * math.prod(shape) for shape in shapes]
    if sum(sizes) > MAX_SEEDED_BYTES or any(n < 0 for shape in shapes for n in shape):
        raise ValueError("seeded arrays too large")
    body = bytearray(len(inputs) + sum(sizes))
    body[:len(inputs)] = inputs
    arrays, offset = list(case.get("arrays") or []), len(inputs)
    for spec, shape, size in zip(specs, shapes, sizes):
        view = np.frombuffer(body, dtype=np.float64, count=size // 8, offset=offset).reshape(shape)
        seeded.fill(view, int(spec["seed"]), float(spec.get("scale", 1.0)))
        del view
        arrays.append({"key": str(spec["key"]), "dtype": "<f8", "count": size // 8, "offset": offset,
                       "shape": shape})
        offset += size
    return {**case, "arrays": arrays}, body


def _finite(text):  # no inf from "1e999" either
    return float(text) if math.isfinite(float(text)) else _no_constant("a number too large")


WATCHED.update({f"lrkit_harness.{n}": (lambda n=n: getattr(student_thread.Caller, n).__code__)
                for n in ("call", "steps", "_run", "serve", "serve_probes", "_probes")})


def snapshot():
    return {name: id(get()) for name, get in WATCHED.items()}


# Every function of the modules and classes the driver, the probes and the harness call while a case runs, as it
# was before the student's import: a function replaced there (torch.zeros, numpy.random.default_rng, a builtin)
# sees which probe runs (blind attacks8), and one replaced, used and put back within a case is caught by the check
# after every call of the student's code (`caller.Caller.check`).
GUARDED_MODULES = ("builtins", "json", "json.encoder", "struct", "os", "math", "threading", "numpy", "numpy.random",
                   "torch", "torch._C", "torch.nn.functional")


class Guard:
    def __init__(self):
        self.copies = [(name, vars(sys.modules[name]), dict(vars(sys.modules[name])))
                       for name in GUARDED_MODULES if name in sys.modules]
        self.copies += [(f"{c.__module__}.{c.__qualname__}", c.__dict__, dict(c.__dict__))
                        for c in (torch.Tensor, torch.nn.Module)]
        self.copies += self.own()

    @staticmethod
    def own():
        """The driver's own objects, as reachable from the harness (``caller.check`` is a bound method of this
        class: its globals are the driver's): its globals, the table of probe functions a case is run from, the
        harness's and the wire's modules and classes. One wrapped probe sees which probe runs (blind attacks9)."""
        tables = [("driver", globals()), ("driver.PROBES", PROBES), ("driver.PROBES.functions", PROBES["functions"]),
                  ("driver.WATCHED", WATCHED), ("lrkit_harness", vars(student_thread)), ("lrkit_wire", vars(wire)),
                  ("lrkit_apart", vars(apart)), ("lrkit_seeded", vars(seeded))]
        # (what hands a step its tokens: a `token` replaced at import saw every token as the probe took it)
        tables += [(f"driver.{c.__name__}", c.__dict__) for c in (Guard, Watch, Child, type(CALLER), _Feed, _Paced)]
        return [(name, live, dict(live)) for name, live in tables]

    def harness(self):
        """The harness's own attributes, once its check is this guard's (the rest changes with every call)."""
        fixed = ("go", "done", "begin", "check", "flagged", "thread", "modes", "traces", "modings", "flaggings",
                 "census", "besides", "unmaskings")
        self.copies.append(("lrkit_harness.Caller()", vars(CALLER), {k: vars(CALLER)[k] for k in fixed}))

    def changed(self, _all=all, _map=map, _is=operator.is_, _repeat=itertools.repeat):  # (bound here, not looked up)
        """What differs (by identity: no __eq__ of anyone's runs here) from before the import; names added since
        (lazy imports) are not changes."""
        out = []
        for name, live, copy in self.copies:
            # (the whole table compared in C first: ~5 000 names after every call of the student's code)
            if _all(_map(_is, _map(live.get, copy, _repeat(Guard)), copy.values())):
                continue
            for key, value in copy.items():
                if live.get(key, Guard) is not value and not torch_own(live.get(key), value):
                    out.append(f"{name}.{key}")
        for watch in WATCHES:  # (after every call of the student's code too: tracemalloc seen between calls)
            watch.traced()
        return out


def torch_own(now, before):
    """Is ``now`` torch's own wrapper of ``before`` (`torch._disable_dynamo`'s, with its code and ``before`` in its
    closure)? Importing ``torch._dynamo`` (the first `torch.compile`, a dispatch mode's first use) wraps
    ``torch.manual_seed`` so: honest code, not a replacement (blind attacks11)."""
    if type(now) is not types.FunctionType or now.__code__ is not DYNAMO_WRAPPER or not now.__closure__:
        return False
    cells = dict(zip(now.__code__.co_freevars, now.__closure__))
    return "fn" in cells and cells["fn"].cell_contents is before


def probe_marks(probes):
    """What the checks' probes are, by identity: every global of the probes module (its functions, its
    helpers, what it imported) and each function's code and defaults. The student's module can reach
    the probes module (it is imported first); nothing it does there may go unnoticed."""
    marks = {}
    for name, value in list(vars(probes).items()):
        if name.startswith("__"):
            continue
        marks[name] = (id(value), id(getattr(value, "__code__", None)), id(getattr(value, "__defaults__", None)),
                       id(getattr(value, "__kwdefaults__", None)))
    return marks


def imports_replaced(names):
    """The student's modules (and their packages) whose import the probes' own ``import`` would run the student's
    code for, on the driver's thread, inside the probe: a module object that is not a plain module, a spec that is
    not importlib's, or a spec's ``_initializing`` that is not a bool (the import system reads it on every import
    of a loaded module: blind attacks11 ran code there and read the probe's frames)."""
    out = []
    for name in names:
        parts = name.split(".")
        for n in range(1, len(parts) + 1):
            package = ".".join(parts[:n])
            module = sys.modules.get(package)
            spec = module.__dict__.get("__spec__") if type(module) is types.ModuleType else _SPEC
            if spec is None:
                continue
            if type(spec) is not _SPEC or type(spec.__dict__.get("_initializing", False)) is not bool:
                out.append(f"{package}'s module object or import spec"[-60:])  # (a report shows 60 characters)
    return list(dict.fromkeys(out))


def collector_callbacks():
    """Callbacks added to the collector's list that are not the standard library's or an installed package's: the
    collector runs them on whichever thread allocates, the probes' included (blind attacks11 pushed a torch mode
    there from one)."""
    kept, watch = PROBES.get("gc", ()), WATCHES[0] if WATCHES else None
    out = []
    for callback in list(GC_CALLBACKS):
        if any(callback is k for k in kept):
            continue
        code = callback.__code__ if type(callback) is types.FunctionType else None
        path = code.co_filename if code is not None else ""
        if watch is None or not path.startswith((watch.stdlib, *watch.packages)):
            out.append("gc.callbacks (a callback run on the checks' thread)")
            break
    return out


def python_threads(idle=None, _frames=sys._current_frames, _states=sys._current_exceptions,
                   _started=_thread._count):  # (bound before any student code ran)
    """The threads of this process that can act, as a count: the most of the interpreter's own lists, of the threads
    running Python code (`threading`'s misses `_thread`'s, and a nested PID namespace has no /proc/self) and of every
    thread state (`sys._current_exceptions`), and of those `_thread` started and that are alive, the main thread
    beside them. A thread on C code alone, waiting in a lock's acquire, has no Python frame to list (blind attacks28's
    frameless job thief), and one made by libc's ``pthread_create`` through ctypes, calling a C callable, none either
    and no `_thread` start (attacks29); each has a thread state, made when it first took the interpreter. ``idle``:
    less a standard thread pool's idle threads (`idle_pool_workers`), where there are more than ``idle`` (the count
    before the student's import)."""
    frames = _frames()
    count = max(len(frames), len(_states()), _started() + 1)
    return count - idle_pool_workers(frames) if idle is not None and count > idle else count


def _wait_sites():
    """Where a standard thread pool's thread waits, idle, for the next thing to do: {code: (lines, what it waits on)}.
    What it waits on: ``("queue", local)``, the standard library's C queue in that local, read with its own
    ``get`` (``("queue", local, getter)``: through that local, the queue's bound ``get``), or ``("poll",)``, a
    selector's poll of file descriptors (`multiprocessing.pool.ThreadPool`'s worker handler waits so, in
    `multiprocessing.connection.wait`). A site whose line is not found in this Python's source is left out."""
    import concurrent.futures.thread
    import inspect
    import multiprocessing.pool
    import selectors
    sites = [(concurrent.futures.thread._worker, "work_queue.get(block=True)", ("queue", "work_queue")),
             (multiprocessing.pool.worker, "task = get()", ("queue", "inqueue", "get")),
             (multiprocessing.pool.Pool._handle_tasks, "in iter(taskqueue.get, None):", ("queue", "taskqueue")),
             (multiprocessing.pool.Pool._handle_results, "task = get()", ("queue", "outqueue", "get"))]
    if hasattr(selectors, "PollSelector"):
        sites.append((selectors.PollSelector.select, "self._selector.poll(", ("poll",)))
    out = {}
    for function, text, what in sites:
        code = function.__code__
        try:
            lines, start = inspect.getsourcelines(code)
        except (OSError, TypeError):
            continue
        found = frozenset(start + i for i, line in enumerate(lines) if text in line)
        if found:
            out[code] = (found, what)
    return out


WAIT_SITES = _wait_sites()  # (before any student code ran)
SIMPLE_QUEUE = __import__("queue").SimpleQueue
GET = type(SIMPLE_QUEUE().get)  # (the type of a C method bound to its queue)
POLL_SELECTOR = getattr(__import__("selectors"), "PollSelector", None)
POLL = type(select.poll()) if hasattr(select, "poll") else None


def idle_pool_workers(frames, _type=type, _vars=vars):
    """How many of the threads in ``frames`` (`sys._current_frames`) are a standard thread pool's idle threads: the
    innermost frame is one of the standard library's own waits (`WAIT_SITES`: a `concurrent.futures` pool's worker,
    a `multiprocessing.pool.ThreadPool`'s workers and handlers), on the standard library's own C queue, with
    nothing queued, or in a selector's poll of file descriptors. Such a thread runs nothing until code of the run puts
    an item there or writes to a descriptor, and then runs in frames where the count sees it: an honest form's
    module-level pool (blind attacks27's and attacks28's alternatives lost 8 and 10 items when every live thread
    counted; attacks28 (basics) a `ThreadPool`'s, 9) is not a thread beside the checks, a job thief is (it waits on
    the harness's lock in a frame of its own, or with none). What is waited on is read from the frame's own locals,
    by exact type, so a pool's wait called with a lock in the queue's place is not idle."""
    idle = 0
    for frame in frames.values():
        site = WAIT_SITES.get(frame.f_code)
        if site is None or frame.f_lineno not in site[0]:
            continue
        what, names = site[1], frame.f_locals
        if what[0] == "poll":
            selector = names.get("self")
            if _type(selector) is not POLL_SELECTOR or _type(_vars(selector).get("_selector")) is not POLL:
                continue
        else:
            queue = names.get(what[1])
            if _type(queue) is not SIMPLE_QUEUE or not queue.empty():
                continue
            if len(what) > 2:
                getter = names.get(what[2])
                if _type(getter) is not GET or getter.__self__ is not queue or getter.__name__ != "get":
                    continue
        idle += 1
    return idle


def foreign_threads(_sleep=time.sleep):
    """Is a thread of the student's alive beside the harness's and the driver's (`python_threads` over the count
    before the student's import)? Asked as each job is handed over (`caller.Caller.census`) and at each case's end.
    A pool worker that has just finished its item and not yet come back to its queue is counted again after a
    moment (honest forms wait for their pool's results, and the worker's last lines run after the result is set)."""
    if not THREADS:
        return False
    for pause in (0.0, 0.001, 0.005, 0.02):
        if pause:
            _sleep(pause)
        if python_threads(THREADS) <= THREADS:
            return False
    return True


def unmasked():
    """Has this thread (the probes') a signal unblocked that `caller.install` blocked?"""
    return bool(student_thread.BLOCKED - frozenset(student_thread.SIGMASK(student_thread.SIG_BLOCK, ())))


def harness_marks():
    """What the student's code did on the harness's thread or to the harness itself (`caller.Caller`), or beside it:
    a thread of its own, alive while the checks call it, can wait on the harness's lock ahead of its thread and take
    each job (the probe, its stream of tokens, its output buffer) as it is handed over (blind attacks27's job
    thieves replayed a step's history from it)."""
    if CALLER is None:
        return []
    found = {"sys.settrace (on the thread the probes call it from)": CALLER.traced,
             # (the caller's thread's modes, and this thread's)
             "a torch mode left on (it sees the checks' own operations)": CALLER.moded or CALLER.modes_on(),
             "lrkit_harness.Caller (a method shadowed)": bool(set(vars(CALLER)) & set(type(CALLER).__dict__)),
             "lrkit_harness.Caller.flagged (cleared)": CALLER.flags_cleared,
             "a signal unblocked (a handler is handed the frame it interrupts, the checks' own)":
                 CALLER.unmasked or unmasked(),
             "a thread of its own (the checks call your code on one thread: start none that outlives your "
             "call, but a thread pool's idle workers)": CALLER.beside or foreign_threads()}
    return [name for name, seen in found.items() if seen]


def tampered(before):
    now = snapshot()
    changed = [name for name in WATCHED if now[name] != before[name]]
    changed += imports_replaced(PROBES.get("imports", ())) + collector_callbacks()
    probes = sys.modules.get("lrkit_probes")
    marks = probe_marks(probes) if probes is not None and probes is PROBES["module"] else None
    if marks is None:
        changed.append("the checks' probes module")
    elif marks != PROBES["marks"]:
        changed += [f"lrkit_probes.{n}" for n in sorted(set(marks) | set(PROBES["marks"]))
                    if marks.get(n) != PROBES["marks"].get(n)][:3]
    if sys.gettrace() is not None:
        changed.append("sys.settrace")
    changed += harness_marks()
    if GUARD:
        changed += [name for name in dict.fromkeys(GUARD[0].changed() + sorted(CALLER.flagged)) if name not in changed]
    if sys.getprofile() is not None:
        changed.append("sys.setprofile")
    return changed


# What code reads to tell who called it (a frame, a traceback's frame, every object the collector holds): a form
# that looks for the checks' frames can be honest where it is measured and something else everywhere else (blind
# attacks5). The interpreter's audit events say when it happens; the watch counts the ones whose nearest caller
# outside the standard library is the student's code (torch's and numpy's own uses are theirs).
INTROSPECTION = frozenset({"sys._getframe", "sys._current_frames", "sys._current_exceptions", "gc.get_objects",
                           "gc.get_referrers", "gc.get_referents"})
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_code"})
READS_FRAMES = INTROSPECTION | {"object.__getattr__"}  # (the events that read a frame, or hand one out)
# ... and what reads them by other roads, kept for the rest of the process wherever it happened (an import at the
# module's top serves every later case): the interpreter's own C API looked up through ctypes (PyEval_GetFrame,
# PyThreadState_Get: no linear attention needs one; libc's symbols are the sandbox's business, not this watch's),
# the fault handler's stack dumps (blind attacks6)
STICKY_IMPORTS = frozenset({"faulthandler", "_testcapi", "_testinternalcapi"})
C_API_PREFIXES = ("Py", "_Py")
# ... and reads of the process's own memory (the live frames of the probe, the case it runs, as raw bytes: blind
# attacks7 read them through /proc/self/mem): the file, and ctypes' reads at an address
# While the student's modules are imported, a read of the stack shows only the import itself (the same in every run),
# but a frame object kept from it reads the driver's state later with no event at all (its f_locals, its globals:
# the watch itself; blind attacks7): so reads that hand the student a frame are kept for the whole process. The
# standard library's own uses at import (namedtuple, TypeVar, the Enum API: a module's name) hand out nothing.
HANDS_OUT_FRAMES = frozenset({"currentframe", "stack", "getouterframes", "getinnerframes", "trace", "walk_stack",
                              "walk_tb", "extract_stack", "getframeinfo"})
REPLACED_CODE = frozenset({"__code__", "__defaults__", "__kwdefaults__"})
PROCESS_MEMORY = re.compile(r"^/proc/(self|thread-self|\d+)/(task/\d+/)?(mem|pagemap|maps|smaps)$")
MEMORY_EVENTS = frozenset({"ctypes.cdata", "ctypes.string_at", "ctypes.wstring_at"})
# ... and a trace or profile function set, on any thread, for the rest of the process: it is handed the frame of every
# call made there, the harness's own next call after a step included (blind attacks30 read the probe's stream of
# tokens from the harness thread's frame and took the function off before the call's end, where `Caller` looks)
TRACERS = frozenset({"sys.settrace", "sys.setprofile"})
SIGNALS = tuple(s for s in signal.Signals if s not in (signal.SIGKILL, signal.SIGSTOP))
# ... but not an installed package's read that hands back nothing but a name (a variable's, a class's, a line's), its
# code the package's own (the very code object, looked up before the student's import): `torch.jit.trace` names
# the tensors it records from its caller's locals at every traced call (blind attacks32's honest step, traced at its
# first use, lost the step's items for it). (module, function[, the function it makes]): a read through any other
# package code, and any read of the student's own, counts.
NAMES_ONLY = (("torch.jit._trace", "_create_interpreter_name_lookup_fn", "_get_interpreter_name_for_var"),
              ("torch._jit_internal", "get_class_name_lineno", ""), ("torch._library.utils", "get_source", ""))


class Watch:
    """The introspection events the student's code raised since the last `take`, and the signal handlers (a
    handler is handed the frame it interrupted, with no audit event) as they were before its import.

    An event is the student's when the nearest frame that raised it, past the standard library's own frames, is
    not torch's, numpy's (an installed package), the driver's or the probes'. Code of any other origin (the
    submission, a file it wrote, a string it compiled) is the student's."""

    def __init__(self):
        import sysconfig
        paths = sysconfig.get_paths()
        self.packages = tuple({os.path.join(os.path.realpath(paths[k]), "") for k in ("purelib", "platlib")})
        self.stdlib = os.path.join(os.path.realpath(paths["stdlib"]), "")
        self.ours = (os.path.join(os.path.dirname(os.path.abspath(__file__)), ""),)
        self.seen, self.sticky, self.busy, self.handlers, self.names_only = [], [], False, {}, {}
        self.importing = False  # the student's modules are being imported (`child` sets it)
        self.submission = ""  # the submission's folder (`child` sets it): what is the student's own

    def start(self):
        self.handlers = self.signal_handlers()
        self.names_only = names_only_code()
        sys.addaudithook(self.hook)  # for the life of the process: an audit hook cannot be removed

    @staticmethod
    def signal_handlers():
        return {s: id(signal.getsignal(s)) for s in SIGNALS}

    def hook(self, event, args):
        if self.busy:
            return
        if event == "open":
            path = args[0] if args else None
            self.busy = True
            try:  # by where it leads (a link in /tmp to /proc/self/mem is the same file)
                path = os.path.realpath(os.fsdecode(path)) if isinstance(path, (str, bytes)) else ""
            except (OSError, ValueError):
                path = ""
            finally:
                self.busy = False
            found = PROCESS_MEMORY.match(path)
            if not found or found.group(1) != str(os.getpid()):  # its own (another's is the sandbox's business)
                return
        if event == "object.__setattr__" and not self.foreign(args):
            return
        sticky = event in ("ctypes.dlsym", "open", "sys.addaudithook", "object.__setattr__") or event in TRACERS or \
            event in MEMORY_EVENTS or (event == "import" and bool(args) and args[0] in STICKY_IMPORTS)
        if event == "open":
            name = "reading the process's own memory (/proc/self/mem)"
        elif event == "sys.addaudithook":
            name = "an audit hook of its own (it sees what the checks do)"
        elif event in TRACERS:
            name = f"{event} (a trace or profile function is handed every frame)"
        elif event == "object.__setattr__":
            name = f"replacing {getattr(args[0], '__qualname__', '?')}.{args[1]}"
        elif event in MEMORY_EVENTS:
            name = f"reading memory at an address ({event})"
        elif event == "ctypes.dlsym":
            symbol = args[1] if len(args) > 1 else ""
            name = f"ctypes symbol {symbol}" if isinstance(symbol, str) and symbol.startswith(C_API_PREFIXES) else ""
        elif event == "import":
            name = f"import {args[0]}"
        elif event == "object.__getattr__":
            name = args[1] if len(args) > 1 and args[1] in FRAME_ATTRIBUTES else ""
        else:
            name = event if event in INTROSPECTION else ""
        if not name or (event == "import" and not sticky):
            return
        self.busy = True
        try:
            frame = sys._getframe(1)
            if self.importing and not sticky:
                if self.passes_through(frame) and frame.f_code.co_name not in HANDS_OUT_FRAMES:
                    return  # the standard library's own read, for itself
                sticky = True
            handed = not self.passes_through(frame)  # a package's own read, or one a standard hand-out made for it
            while frame is not None and self.passes_through(frame):
                handed, frame = handed or frame.f_code.co_name in HANDS_OUT_FRAMES, frame.f_back
            student = self.through_package(frame) if handed and not self.importing and event in READS_FRAMES else None
            if student is not None:
                frame, sticky, name = student, True, f"{name} (through {frame.f_code.co_name[:40]})"
            kept = self.sticky if sticky else self.seen
            if frame is not None and not self.trusted(frame) and len(kept) < 8 and name[:60] not in kept:
                kept.append(name[:60])
        except BaseException:
            pass
        finally:
            self.busy = False

    def foreign(self, args):
        """Is the code of a function that is not the submission's (the driver's, the harness's, torch's, the
        standard library's) replaced? It then sees every call the checks make of it (blind attacks8). (Of setting
        attributes, the interpreter audits only a function's code and defaults and a class's special names, which
        namedtuple and its kind set as they make a class: those are not counted.)

        Whose function it is goes by where its code was compiled: a file of the submission is the student's, and
        so are the defaults of a function compiled from a string (a namedtuple's ``__new__``, whose defaults
        `typing.NamedTuple` sets as it makes the class: blind attacks24's honest state class lost the step's
        items for it); its code is not (it may be a namedtuple's of the checks'). Not by ``__module__``, which
        anyone may set without an audit event."""
        if len(args) < 2 or not isinstance(args[0], types.FunctionType) or args[1] not in REPLACED_CODE:
            return False
        self.busy = True  # (reading a function's __code__ is audited itself)
        try:
            filename = args[0].__code__.co_filename
        finally:
            self.busy = False
        if filename == "<string>" and args[1] != "__code__":
            return False
        return not (self.submission and isinstance(filename, str) and filename.startswith(self.submission))

    def through_package(self, frame):
        """The student's frame whose call an installed package's frame read was made for, or None. torch hands its
        caller's frames back (`torch._jit_internal.createResolutionCallbackFromFrame`, `_find_user_code_frame`,
        through `inspect.currentframe`), and such a read made for the student's code during a call is the student's
        (blind attacks31 took the harness thread's frame, and the probe's stream in it, so); it is kept, as a frame
        handed out can be. Not a read that hands nothing out (a namedtuple's module name), nor one made by a module
        being imported (torch's lazy imports), nor at the student's import (torch's reads for a decorator)."""
        if frame is None or not self.package(frame) or self.names_only.get(id(frame.f_code)) is frame.f_code:
            return None
        while frame is not None and (self.passes_through(frame) or self.package(frame)):
            if frame.f_code.co_name == "<module>":
                return None
            frame = frame.f_back
        return frame if frame is not None and not self.trusted(frame) else None

    def package(self, frame):
        """An installed package's frame (torch's, numpy's): not the standard library's."""
        return frame.f_code.co_filename.startswith(self.packages)

    def passes_through(self, frame):
        """The standard library's frames: they read frames for whoever called them (inspect, traceback). A frozen
        module's frame is one when it runs in that module (a name is only a string to compile with)."""
        filename = frame.f_code.co_filename
        if filename.startswith("<frozen "):
            module = sys.modules.get(filename[len("<frozen "):-1])
            return module is not None and frame.f_globals is getattr(module, "__dict__", None)
        return filename.startswith(self.stdlib) and not filename.startswith(self.packages)

    def trusted(self, frame):
        """Torch's, numpy's (installed packages), the driver's, or the checks' probes (in their own module)."""
        filename = frame.f_code.co_filename
        if filename == "<probes>":
            probes = sys.modules.get("lrkit_probes")
            return probes is not None and frame.f_globals is getattr(probes, "__dict__", None)
        return filename.startswith(self.packages + self.ours)

    def traced(self):
        """tracemalloc (no audit event) names the line that made each block still alive: a probe's, the driver's.
        Seen tracing at any check (after the import, after every call of the student's code, after every case),
        it counts for the rest of the process; started and stopped within one call, it saw no block made
        before that call."""
        name = "tracemalloc (the lines that made the process's memory)"
        if IS_TRACING() and name not in self.sticky:
            self.sticky.append(name)

    def take(self):
        """What was seen since the last call, and any signal handler the student's code installed."""
        self.traced()
        seen, self.seen = self.seen, []
        now = self.signal_handlers()
        changed = [f"signal.signal({s.name})" for s in SIGNALS if now.get(s) != self.handlers.get(s)]
        return self.sticky + seen + changed[:3]


def names_only_code():
    """`NAMES_ONLY`'s code objects, by id (the objects themselves: equal code compiled elsewhere is not theirs)."""
    found = {}
    for module_name, name, inner in NAMES_ONLY:
        code = getattr(getattr(sys.modules.get(module_name), name, None), "__code__", None)
        if inner and code is not None:
            code = next((c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == inner), None)
        if isinstance(code, types.CodeType):
            found[id(code)] = code
    return found


def describe(exc, submission):
    where = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.startswith(submission):
            where = f"{os.path.relpath(frame.filename, submission)}:{frame.lineno} in {frame.name}"
    try:
        text = f"{type(exc).__name__}: {exc}"
    except BaseException:  # a __str__ that raises
        text = type(exc).__name__
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE] + "..."
    return {"type": type(exc).__name__[:80], "message": text, "where": where[:200]}


def plain(value):
    """A probe result as an ndarray or a JSON scalar, or TypeError."""
    if isinstance(value, torch.Tensor):
        with torch._C.DisableTorchFunction():
            value = torch.Tensor.numpy(torch.Tensor.cpu(torch.Tensor.detach(value)).resolve_conj().resolve_neg())
        return np.array(value, copy=True)
    if type(value) is float and not math.isfinite(value):
        return np.array(value, dtype=np.float64)  # NaN and inf travel as arrays, never in JSON
    if type(value) in (bool, int, float, str):
        return value
    if isinstance(value, (np.ndarray, np.generic)):
        return np.array(value, copy=True)
    if isinstance(value, (list, tuple)) and all(type(v) in (bool, int, float) for v in value):
        return np.array(value, dtype=np.float64)
    raise TypeError(f"a {type(value).__name__}")


def encode(result, max_bytes):
    """(header, body) for a probe's result dict, or raise TypeError/ValueError."""
    arrays, scalars, parts, size = [], {}, [], 0
    for key, value in result.items():
        try:
            converted = plain(value)
        except TypeError as exc:
            raise TypeError(f"'{key}' is {exc}; expected a tensor or a number") from None
        if not isinstance(converted, np.ndarray):
            scalars[str(key)] = converted
            continue
        if converted.dtype.kind not in "biuf":
            raise TypeError(f"'{key}' is an array of dtype {converted.dtype}; expected real numbers")
        arr = np.ascontiguousarray(converted, dtype=converted.dtype.newbyteorder("="))
        size += arr.nbytes
        if size > max_bytes:
            raise ValueError(f"the result is larger than {max_bytes // 2**20} MB")
        arrays.append({"key": str(key), "dtype": arr.dtype.str, "shape": list(arr.shape)})
        parts.append(arr.tobytes())
    return {"arrays": arrays, "scalars": scalars}, b"".join(parts)


def flat(source):
    """The probes' code, every line of it numbered 1: an allocation's traceback (tracemalloc: no audit event)
    names the probe line that made a block, and blind attacks9 told the cost probe by its lines."""
    tree = ast.parse(source, "<probes>")
    for node in ast.walk(tree):
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = 1
            node.col_offset = node.end_col_offset = 0
    return compile(tree, "<probes>", "exec")


def fresh_code(code):
    """A new code object of ``code`` and of every function it defines (nested ones too)."""
    consts = tuple(fresh_code(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_consts=consts)


def fresh_probe(name):
    """The probe, for this case alone: the probes' namespace as it was before the student's import (the modules
    it imported, its constants), with every function of the probes' code made anew (new code objects, nested ones
    too). The probes the student's code can reach (``lrkit_probes``) never run: their reference counts, their
    code's warm-up counters and quickened instructions (no audit event reads any of them) do not move while a case
    runs, and no helper of the probes is warmed by one probe and not another (blind attacks10 told the cost probe
    by each)."""
    space = {}
    for key, value in PROBES["functions"].items():
        if isinstance(value, types.FunctionType) and value.__code__.co_filename == "<probes>":
            value = types.FunctionType(fresh_code(value.__code__), space, value.__name__, value.__defaults__,
                                       value.__closure__)
            value.__kwdefaults__ = PROBES["functions"][key].__kwdefaults__
        space[key] = value
    return space[name]


def seed(value):
    """Every case starts from the same random state. The CPU generator only (the runs have no GPU):
    `torch.manual_seed` also queues a seed for every accelerator torch knows, each queued with the text of the
    caller's stack (`traceback.format_stack`, read from the source files): 1-2 ms a case."""
    GENERATOR.manual_seed(value)
    if torch.cuda.is_initialized():
        torch.cuda.manual_seed_all(value)


def child(job, cases_r, answers_w):
    """Import the student's modules, then answer every case handed over, until the pipe closes."""
    submission = job["submission"]
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as fh:
        fh.write("1000")  # under memory pressure, this process goes first
    global CALLER, THREADS
    # before the probes' source runs (it imports lrkit_harness); the student's calls on this thread, the main one,
    # as the notebook makes them, and the probes on a thread it starts now (`Caller.serve_probes`)
    CALLER = student_thread.install(block=True, main=True)
    probes = types.ModuleType("lrkit_probes")
    sys.modules["lrkit_probes"] = probes
    exec(job.pop("probes"), probes.__dict__)  # (compiled once, in `main`)
    PROBES.update(module=probes, marks=probe_marks(probes), functions=dict(vars(probes)), gc=tuple(GC_CALLBACKS),
                  pipe=os.fstat(cases_r)[1:3])
    before = snapshot()
    THREADS = python_threads()  # (no thread starts between here and the import)
    GUARD.append(Guard())
    CALLER.check, CALLER.census = GUARD[0].changed, foreign_threads
    GUARD[0].harness()
    watch = Watch()
    WATCHES.append(watch)
    watch.start()
    sys.path.append(submission)
    sys.modules["__main__"] = types.ModuleType("__main__")  # the driver's globals (the watch's class) out of reach
    watch.importing, watch.submission = True, os.path.join(os.path.realpath(submission), "")
    for name in job["modules"]:
        try:
            importlib.import_module(name)
        except BaseException as exc:  # SystemExit and KeyboardInterrupt too: report, do not die
            send(answers_w, {"event": "import", "error": describe(exc, submission)})
            return
    watch.importing = False
    PROBES["imports"] = tuple(job["modules"])
    send(answers_w, {"event": "import", "ok": True, "tampered": tampered(before)})
    watch.take()  # what the import did is not a case's: a case is judged on what its own run read
    # a handler the import installed runs nowhere: every signal is blocked on every thread (`caller.install`), so
    # the handlers a case is compared with are those after the import (an honest package's Ctrl-C handler for its
    # training loop made every cost run untrusted: blind attacks31); one installed later still counts
    watch.handlers = watch.signal_handlers()

    def cases():
        while answer_next(job, cases_r, answers_w, before, watch):
            pass
    CALLER.serve_probes(cases)


def answer_next(job, cases_r, answers_w, before, watch):
    """Receive one case, run its probe, answer; False when the pipe closed. The case lives in this frame only: a
    frame of the child's the student's code kept from its import (`child`'s, its callers') shows none of it."""
    pipe = os.fstat(cases_r)[1:3]  # the pipe the driver hands cases on, not one the student's code put there
    try:
        probe, kwargs, nonce = child_receive(cases_r, answers_w)
    except Gone:
        return False
    seed(0)
    header, body = {}, b""
    try:
        result = fresh_probe(probe)(**kwargs)
        if not isinstance(result, dict):
            raise TypeError(f"probe {probe} returned {type(result).__name__}, not a dict")
        header, body = encode(result, job["max_result_bytes"])
    except BaseException as exc:
        header, body = {"error": describe(exc, job["submission"])}, b""
    header["tampered"] = tampered(before)
    if not pipe == os.fstat(cases_r)[1:3] == PROBES["pipe"]:  # a relay reads the probe's name (blind attacks10)
        header["tampered"].append("the pipe the driver hands cases on")
    header["introspected"] = watch.take()
    if APART[0]:  # its /tmp and folder are its own (`apart.py`): only this process sees whether they filled up
        header["disk_full"] = wire.disk_full((job["submission"], "/tmp"))
    header["nonce"] = nonce  # an answer written before this case was sent cannot know it
    send(answers_w, header, body)
    return True


def fresh_generators():
    """This process's own random state, drawn from the kernel as a fresh interpreter's is. The global generators a
    student process inherits from the spawner (numpy's RandomState, seeded when the run started: `zygote.warm_fixups`
    or numpy's import; `random`'s) held one state for every process of a run and another for the next run: a name
    for the run, which with a mark left on the host (a page read, a name looked up) told a check's process that
    an earlier process of its own run came before it (blind attacks18)."""
    for name in ("numpy.random", "random"):
        module = sys.modules.get(name)
        if module is not None:
            module.seed()


def become_student(job, cases_r, answers_w):
    """In a new student process (forked by the spawner): no stdin, its own stdout and stderr, dumpable again,
    apart where the run can (`apart.py`); then import the student's modules and answer cases (`child`)."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    # its own stdout and stderr (nobody reads a check run's output): the run's pipe is one open file description
    # for every process of the run, and a flag or size set on it by an earlier check's process is a mark the next
    # one reads (blind attacks9)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
    ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
    if APART[0]:
        apart.enter(job["room"], (cases_r, answers_w))  # from here on: the student process, PID 1 of its own namespace
    fresh_generators()
    try:
        child(job, cases_r, answers_w)
    finally:
        sys.stdout.flush(), sys.stderr.flush()


class Child:
    def __init__(self, spawner):
        forked = spawner.fork()
        if forked is None:
            raise Gone("no pipes left for another student process")
        self.pid, self.cases_w, self.answers_r = forked
        self.spawner = spawner

    def stop(self, grace=0.0):
        """Kill the child (once; after ``grace`` seconds for it to end by itself) and say how it ended."""
        if getattr(self, "status", None) is None:
            deadline = time.monotonic() + grace
            while True:
                status = self.spawner.poll(self.pid)
                if status is not None or time.monotonic() >= deadline:
                    break
                time.sleep(0.002)
            if status is None:
                try:
                    os.kill(self.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                status = self.spawner.wait(self.pid)
            self.status = status if status >= 0 else signal.SIGKILL
            for fd in (self.cases_w, self.answers_r):
                os.close(fd)
            # two pipes in place of the two this process's end freed: the pipes a user holds are counted (the
            # per-user limit on pipe buffers refuses a larger pipe past it), and a run that freed one pair per
            # process before told a late check's process from a cost run's first (blind attacks16)
            BALLAST.extend(os.pipe() for _ in range(2))
        return self.status

    def ended(self):
        """After the pipe closed: how the child ended (it is reaped). Apart (`apart.py`), the pipe closes when the
        student process ends, a moment before the process in between ends alike: it is given that moment."""
        status = self.stop(grace=1.0)
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) != signal.SIGKILL:
            return {"signal": os.WTERMSIG(status)}
        if os.WIFEXITED(status):
            return {"exit": os.WEXITSTATUS(status)}
        return {"signal": signal.SIGKILL}


def start_child(spawner, timeout):
    """A fresh child with the student's modules imported: (child, import message)."""
    try:
        kid = Child(spawner)
    except Gone:
        return None, {"event": "import", "stopped": "died", "exit": 0}
    try:
        message, _ = receive(kid.answers_r, 0, time.monotonic() + timeout)
    except Gone as exc:
        if str(exc) == "timeout":
            kid.stop()
            return None, {"event": "import", "stopped": "timeout"}
        return None, {"event": "import", "stopped": "died", **kid.ended()}
    except Exception:  # garbage on the child's pipe: whatever it is, it is not an answer
        kid.stop()
        return None, {"event": "import", "stopped": "garbled"}
    if message.get("ok") is not True:
        kid.stop()
        kid = None
    return kid, {**message, "event": "import"}


def run_case(kid, case, inputs, job):
    """Hand one case to the child (its probe and inputs only: not its id, its check or its time limit, which
    would tell a cost run from the run that compares it); the message for the grader and the body."""
    started = time.monotonic()
    entry = {"event": "case", "case": case["id"]}
    nonce = os.urandom(8).hex()
    timeout = case.get("timeout")
    timeout = float(timeout) if isinstance(timeout, (int, float)) and 0 < timeout < 86400 else 60.0
    try:
        streams = Streams(case.get("streams") or (), kid.cases_w)
        send(kid.cases_w, *for_child(case, inputs, nonce))
        answer, body = receive(kid.answers_r, job["max_result_bytes"], started + timeout, streams)
    except Gone as exc:
        entry.update({"stopped": "timeout"} if str(exc) == "timeout" else {"stopped": "died", **kid.ended()})
        return entry, b"", True
    except BrokenPipeError:
        return {**entry, "stopped": "died", **kid.ended()}, b"", True
    except Exception:  # garbage on the child's pipe: whatever it is, it is not an answer
        return {**entry, "stopped": "garbled"}, b"", True
    entry["seconds"] = round(time.monotonic() - started, 4)
    if body is None:
        return {**entry, "stopped": "too_large"}, b"", True
    if answer.get("nonce") != nonce:  # not the answer to this case: written ahead, or forged
        return {**entry, "stopped": "forged"}, b"", True
    for key in ("error", "arrays", "scalars", "tampered", "introspected", "disk_full"):
        if key in answer:
            entry[key] = answer[key]
    try:
        json.dumps(entry, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return {"event": "case", "case": case["id"], "stopped": "garbled"}, b"", True
    return entry, body, False


def fixed_malloc():
    """glibc's malloc with fixed thresholds: large blocks always mapped on their own and returned when freed. Its
    default moves the thresholds with what the process freed before (the files unpacked, a warm start's history),
    and a cost run's memory peak, read from outside, would move with them.

    128 KiB, glibc's starting value, though a decoding state of exactly 128 KiB (the hybrid's: B=16 × 4 heads ×
    16 × 16 float64), freed and allocated again at every token, is then a fresh mapping each time (page faults and
    zeroing: its step case takes 6.8 s of CPU where 3.0 s would do). At 1 MiB such states come from the heap, and
    the small tensors a run keeps between them (every 64th output) pin it: the heap grows with the number of steps
    by an amount that depends on the order of each implementation's temporaries, and a correct alternative (an
    epsilon added to the normalizer: one temporary more per step) measured 7 MiB more growth than the model and
    lost its step items (the hybrid's mutant table). A fair peak is worth more than the seconds."""
    libc = ctypes.CDLL(None)
    if hasattr(libc, "mallopt"):
        libc.mallopt(M_MMAP_THRESHOLD, 128 * 1024)
        libc.mallopt(M_TRIM_THRESHOLD, 128 * 1024)
        libc.mallopt(M_ARENA_MAX, 1)  # the thread the probes call the student's code on uses the same heap


def main():
    ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    fixed_malloc()  # (before the job is read and the child forked: both inherit it)
    stdin = sys.stdin.buffer.fileno()
    job, _ = receive(stdin, 0)
    job["probes"] = flat(job["probes"])  # once for the run: every student process execs the same code
    if not os.path.isdir(job["submission"]):  # unsandboxed: the run's folder is where it started, not /submission
        job["submission"] = os.getcwd()
    size = job.get("children") if isinstance(job.get("children"), int) and 0 < job.get("children") < 200 else 64
    # whether student processes can be set up apart is tried in the spawner's first fork (`apart.enter` there):
    # the spawner and every process it forks learn it there, the driver from the spawner
    spawner = spawn.Spawner(size, lambda cases_r, answers_w: become_student(job, cases_r, answers_w), (CHANNEL,),
                            trial=lambda: apart.enter(job.get("room")), tried=APART.append)
    APART.append(spawner.tried())
    kid, restarts, stale, group = None, 0, False, None
    while True:
        case, inputs = receive(stdin, 1 << 30)
        if case.get("end") is True:  # the job's cases are not counted in its header (the header is every run's)
            break
        fresh = case.get("group") != group  # each check's cases in a child of their own
        group = case.get("group")
        if kid is None or stale or fresh:  # every student process forked once its first case is in hand, the
            first = kid is None  # run's first too (blind attacks16 timed the first call after the import)
            if kid is not None:
                kid.stop()
            kid, message = start_child(spawner, job["import_timeout"])
            if first:
                send(CHANNEL, {**message, "apart": APART[0]})
            if kid is None:  # the first's import failed: reported above; a later one's: the run stops here
                if first:
                    break
                send(CHANNEL, {**message, "event": "stopped", "why": "import"})
                return
        try:
            case, inputs = with_seeded(case, inputs)
        except (KeyError, TypeError, ValueError, OverflowError, MemoryError) as exc:
            send(CHANNEL, {"event": "case", "case": case.get("id"), "stopped": "garbled",
                           "why": f"its seeded inputs could not be made ({type(exc).__name__})"})
            continue
        entry, body, stale = run_case(kid, case, inputs, job)
        del inputs
        entry["disk_full"] = entry.get("disk_full") is True or wire.disk_full(("/submission", "/tmp"))
        send(CHANNEL, entry, body)
        restarts += stale
        if restarts > job["max_restarts"]:
            send(CHANNEL, {"event": "stopped", "why": "restarts"})
            return
    if kid:
        kid.stop()
    send(CHANNEL, {"event": "done"})


if __name__ == "__main__":
    try:
        main()
    except Exception as exc:  # the grader learns it from the channel; the output shows the rest
        print(f"driver failed: {type(exc).__name__}: {exc}", file=sys.stderr)
    sys.stdout.flush(), sys.stderr.flush()
    os._exit(0)  # after the last message: skip the interpreter's teardown (~0.4 s after torch)
