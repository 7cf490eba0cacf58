"""Where the probes call the student's code: one thread, whose stack is the same at every call.

A form that can tell the run that measures it from the runs that compare it can be honest in the one and
anything in the others. Reads of the call stack are watched (the driver's `Watch`), but some roads to it raise
no audit event: ``warnings.warn(stacklevel=n)`` stamps the n-th caller's file and line on a warning (blind
attacks6). So the probes never call the student's code from their own frames: they hand each call to the
student's thread (`call`, or `steps` for a run of decoding steps), and whatever the student's code looks at above
itself is the same few frames at every call, in every run, every probe and every case.

In a check process (`install(main=True)`, the driver's) the student's thread is the process's main thread, as in the
notebook, where every call of the student's code runs on the kernel's main thread, and the probes run on a thread
of their own (`serve_probes`): a form that asked "am I on the main thread?" (``threading.main_thread()``, the
thread id against the process id, ``signal.signal`` allowed) told every call the checks make from every call the
student's own notebook makes (blind attacks35: a step that re-summed its history on the main thread only kept
step_cost). Elsewhere (the authoring preflight) the probes keep the main thread and the student's calls get a
thread of their own.

The probes import it as ``lrkit_harness`` (the driver registers it before their source runs; the authoring
preflight does too). Standalone: the standard library, and torch where the probes use it (the caller's grad mode,
which torch keeps per thread, is carried over to each call)."""
import gc
import itertools
import signal
import sys
import threading

NAME = "lrkit_harness"
COLLECTING, STOP_COLLECTING, COLLECT = gc.isenabled, gc.disable, gc.enable  # (bound before any student code ran)
SIGMASK, SIG_BLOCK = signal.pthread_sigmask, signal.SIG_BLOCK
# The signals every thread of the process blocks (`install(block=True)`, before the harness thread starts: every
# thread started later inherits it), or none. A Python signal handler runs on the main thread, the probes' own, at
# whatever it was doing when a signal reached any thread of the process, and is handed that frame: the probe's, with
# its stream of tokens (blind attacks30 sent its own thread a signal from a step). Blocked everywhere, a signal stays
# pending; a thread of the harness that finds its mask changed says so (`unmasked`).
BLOCKED = frozenset()


def _plain(value):
    """A tensor subclass the student's code returned, as a plain tensor over the same memory (so the probe's own
    operations on it run none of the student's code), tuples of them too; anything else as it is."""
    torch = sys.modules.get("torch")
    if torch is None:
        return value
    if type(value) is tuple:
        return tuple(_plain(v) for v in value)
    if isinstance(value, torch.Tensor) and type(value) is not torch.Tensor:
        with torch._C.DisableTorchFunction():
            return torch.Tensor.as_subclass(value, torch.Tensor)
    return value


STOP = object()  # the job that ends `Caller.serve` (the probes' loop is done)


class Caller:
    """Runs the student's code for the probes, one job at a time, while the probe waits: on a thread of its own, or
    (``main``) on the main thread, the probes on the thread it starts (`serve_probes`)."""

    def __init__(self, main=False):
        self.go, self.done = threading.Lock(), threading.Lock()
        self.go.acquire()
        self.done.acquire()
        self.job = self.result = None
        # ``main``: the probes' thread, started now (so the threads counted before the student's import are the
        # threads of every case), waits on ``begin`` until `serve_probes` hands it the driver's loop of cases
        self.begin, self.loop, self.failed = threading.Lock(), None, None
        self.begin.acquire()
        # what the student's code did on this thread, as counters it can only advance (`next`), never reset: a
        # trace or profile function set, a torch mode left on (`modes_on`)
        self.traces, self.modings = itertools.count(), itertools.count()
        self.flaggings = itertools.count()  # advanced whenever `check` named something (``flagged`` can be cleared)
        self.modes = _mode_stacks()  # (bound before the student's import)
        self.check = None  # the driver's integrity check, run after every job: names of what was replaced
        # the driver's count of the threads beside this one and the probe's (True: one of the student's is alive), run
        # as each job is handed over: a thread waiting on ``go`` then can take the job ahead of this thread (blind
        # attacks27's job thieves; attacks28's lived between two calls of one case, gone before its end); advanced
        # once one is seen (`beside`)
        self.census, self.besides = None, itertools.count()
        self.unmaskings = itertools.count()  # advanced when a thread of the harness found its signal mask changed
        self.flagged = set()
        self.thread = (threading.Thread(target=self._probes, name="lrkit-probes", daemon=True) if main else
                       threading.Thread(target=self.serve, name="lrkit-student", daemon=True))
        self.thread.start()

    def serve_probes(self, loop):
        """Run ``loop()`` (the driver's: every case of the process) on the probes' thread while this thread, the
        main one, serves its calls of the student's code; return when it ends (raising what it raised)."""
        self.loop = loop
        self.begin.release()
        self.serve()
        if self.failed is not None:
            raise self.failed

    def _probes(self):
        self.begin.acquire()
        loop, self.loop = self.loop, None
        try:
            loop()
        except BaseException as exc:  # the main thread's to raise, once it stops serving
            self.failed = exc
        self.job = STOP
        self.go.release()

    def call(self, fn, *args, **kwargs):
        """``fn(*args, **kwargs)``, on the student's thread; ``fn`` may be ``(object, "attribute")``, looked up
        there too (a lookup can run the student's code: a property, ``__getattr__``)."""
        outputs, _ = self._run(fn, 1, lambda t: (args, kwargs), False, None, None)
        return outputs[0]

    def steps(self, fn, n, args, state=None, chained=False, take=None):
        """``fn(*args(t)[0], **args(t)[1])`` for t = 0 .. n-1 on the student's thread, as a decoder runs (``fn``
        as in `call`, looked up at each call): the list of the n outputs. ``chained``: each call also gets the
        state the last one returned (``state`` for the first) and returns ``(output, state)``; then
        ``(outputs, last state)``. ``take(t, output)``, if
        given, gets each output as it comes instead (nothing is kept: a decoder's run never holds its outputs
        whole). ``args`` and ``take`` are the probe's and run on the student's thread between calls."""
        outputs, state = self._run(fn, n, args, chained, state, take)
        return (outputs, state) if chained else outputs

    @property
    def traced(self):
        """The student's code set a trace or profile function on this thread, at any call so far."""
        return _advanced(self.traces)

    @property
    def unmasked(self):
        """A thread of the harness's found signals unblocked that `install` blocked, at any call so far."""
        return _advanced(self.unmaskings)

    @property
    def beside(self):
        """A thread of the student's was alive as a job was handed over, at any call so far (`census`)."""
        return _advanced(self.besides)

    @property
    def flags_cleared(self):
        """``check`` named something, and ``flagged`` (a set the student's code can reach) is empty now."""
        return _advanced(self.flaggings) and not self.flagged

    @property
    def moded(self):
        """... or left a torch mode on it after a call returned."""
        return _advanced(self.modings)

    def modes_on(self):
        """Is a torch mode (`TorchFunctionMode`, `TorchDispatchMode`) left on the calling thread? It sees every torch
        operation made there, the probe's own too: between two steps, the probe's callbacks (``args``, ``take``) on
        this thread; after the import, the probe's frames on the driver's (blind attacks11). A mode used inside the
        student's function and left when it returns sees only the student's own operations."""
        if self.modes is None:
            return False
        functions, function_at, dispatches, device = self.modes
        return dispatches() > 0 or any(type(function_at(i)) is not device for i in range(functions()))

    def _run(self, fn, n, args, chained, state, take):
        torch = sys.modules.get("torch")  # (an assignment without torch has no grad mode to carry over)
        # no collection while the job waits for this thread: a collection runs the finalizers of the student's
        # garbage (``__del__``, weakref callbacks) on whichever thread allocates, and one that read ``job`` there took
        # the steps job's stream of tokens with no thread of its own (blind attacks29's courier); the harness thread
        # turns it back on once the job is out of reach (`serve`)
        collecting = COLLECTING()
        STOP_COLLECTING()
        self.job = (fn, n, args, chained, state, take, torch.is_grad_enabled() if torch is not None else None,
                    collecting)
        if self.census is not None and not self.beside and self.census():
            next(self.besides)
        if BLOCKED and frozenset(SIGMASK(SIG_BLOCK, ())) != BLOCKED:
            next(self.unmaskings)
        self.go.release()
        self.done.acquire()
        outputs, state, error = self.result
        self.result = None
        if self.check is not None:  # after every call of the student's code: a library function replaced while
            found = self.check()  # the probe ran and put back before the case's end is seen here
            if found:
                next(self.flaggings)
                self.flagged.update(found)
        if error is not None:
            raise error
        return outputs, state

    def serve(self):
        while True:
            self.go.acquire()
            if self.job is STOP:  # the probes' loop ended (`serve_probes`)
                self.job = None
                return
            fn, n, args, chained, state, take, grad, collecting = self.job
            self.job = None
            if collecting:
                COLLECT()
            outputs, error, out = [], None, None
            try:
                if grad is not None:
                    sys.modules["torch"]._C._set_grad_enabled(grad)
                for t in range(n):
                    positional, named = args(t)
                    out = (getattr(*fn) if type(fn) is tuple else fn)(*positional, *((state,) if chained else ()),
                                                                       **named)
                    if chained:
                        out, state = out
                    if self.modes_on():
                        next(self.modings)
                    if take is None:
                        outputs.append(_plain(out))
                    else:
                        take(t, _plain(out))
            except BaseException as exc:  # SystemExit and KeyboardInterrupt too: the probe's, to raise
                error = exc
            if sys.gettrace() is not None or sys.getprofile() is not None:
                next(self.traces)
            if BLOCKED and frozenset(SIGMASK(SIG_BLOCK, ())) != BLOCKED:
                next(self.unmaskings)
            if self.modes_on():
                next(self.modings)
            self.result = (outputs, state, error)
            del fn, args, state, outputs, error, out, take
            self.done.release()


def _advanced(counter):
    """Has ``counter`` (an `itertools.count` from 0) been advanced? Read without advancing it."""
    return repr(counter) != "count(0)"


def _mode_stacks():
    """torch's own readers of a thread's mode stacks, and the one mode torch itself leaves on (the default device's:
    `torch.set_default_device`); None without torch."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    from torch.utils._device import DeviceContext
    C = torch._C
    return C._len_torch_function_stack, C._get_function_stack_at, C._len_torch_dispatch_stack, DeviceContext


def install(block=False, main=False):
    """The caller, registered as the module the probes import (``from lrkit_harness import call, steps``);
    ``block``: every signal that can be blocked blocked first, on this thread and so on every thread started after
    (`BLOCKED`); ``main``: the student's calls on this thread (the main one), the probes on the thread it starts
    (`Caller.serve_probes`)."""
    import types
    global BLOCKED
    if block:
        SIGMASK(SIG_BLOCK, signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP})
        BLOCKED = frozenset(SIGMASK(SIG_BLOCK, ()))
    caller = Caller(main=main)
    module = types.ModuleType(NAME)
    module.call, module.steps, module.caller = caller.call, caller.steps, caller
    sys.modules[NAME] = module
    return caller
