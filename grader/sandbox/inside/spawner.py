"""Where every student process of a check run is forked from: a process made before the driver read any case.

The driver's own state changes as it works: modules it imports the first time it unpacks a case's arrays, its
collector's counts, its heap, the line of its loop that forks the next process. A process forked from the driver
inherits all of it, so the k-th check's process could tell it is not the first one of its run, which a cost
run's always is (blind attacks9: a module the driver imported lazily, the driver's line read through
``warnings.warn(stacklevel=n)`` at the import). The spawner is forked once, right after the job's header, and
does nothing but fork on request, from the same frame, with the collector off: every student process of every
run starts from the same state.

A check run has no sockets (no file descriptor can be handed over later), so the pipes of every student process
the run may need are made before the spawner is forked (``size`` pairs). Each student process closes the pairs
that are not its own (another process's answer pipe is not writable from it) and finds its own on the same
descriptor numbers as every other. The driver never waits for a student process itself: it asks the spawner
(``poll``, ``wait``), and kills it by its PID.
"""
import ctypes
import gc
import os
import signal
import struct

FORK, POLL, WAIT = b"f", b"p", b"w"
RUNNING, UNKNOWN = -1, -2  # what POLL and WAIT answer for a process still running, or not the spawner's
PR_SET_PDEATHSIG = 1


class Spawner:
    def __init__(self, size, become, close=(), trial=None, tried=None):
        """Fork the spawner. ``become(cases_r, answers_w)`` runs in each new student process (never returns);
        ``close``: the driver's descriptors the spawner and every student process must not hold. ``trial()`` runs
        in the spawner's first fork, a throwaway process (its truth: that process exited 0), and ``tried(ok)`` in
        the spawner with the outcome, before any student process is forked; the driver reads it with `tried`."""
        self.pairs = [(os.pipe(), os.pipe()) for _ in range(size)]  # ((cases_r, cases_w), (answers_r, answers_w))
        ctl_r, self.ctl_w = os.pipe()
        self.rep_r, rep_w = os.pipe()
        self.used = 0
        self.pid = os.fork()
        if self.pid == 0:
            try:
                for fd in (self.ctl_w, self.rep_r, *close):
                    os.close(fd)
                for (_, cases_w), (answers_r, _) in self.pairs:
                    os.close(cases_w)
                    os.close(answers_r)
                ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
                _serve(ctl_r, rep_w, self.pairs, become, trial, tried)
            finally:
                os._exit(0)
        os.close(ctl_r)
        os.close(rep_w)
        for (cases_r, _), (_, answers_w) in self.pairs:
            os.close(cases_r)
            os.close(answers_w)

    def tried(self):
        """Whether the trial succeeded in the spawner's first fork (False without one); once, before `fork`."""
        reply = _read(self.rep_r, 5)
        if len(reply) != 5:
            raise RuntimeError("the spawner stopped answering")
        return struct.unpack(">i", reply[1:])[0] == 1

    def fork(self):
        """A new student process: (pid, cases_w, answers_r); None when every pair of pipes is used."""
        if self.used >= len(self.pairs):
            return None
        n, self.used = self.used, self.used + 1
        pid = self._ask(FORK, n)
        (_, cases_w), (answers_r, _) = self.pairs[n]
        return pid, cases_w, answers_r

    def poll(self, pid):
        """The process's wait status if it ended (it is reaped), else None."""
        status = self._ask(POLL, pid)
        return None if status == RUNNING else status

    def wait(self, pid):
        """The process's wait status, once it ended (kill it first)."""
        return self._ask(WAIT, pid)

    def _ask(self, op, n):
        os.write(self.ctl_w, op + struct.pack(">i", n))
        reply = _read(self.rep_r, 5)
        if len(reply) != 5:
            raise RuntimeError("the spawner stopped answering")
        return struct.unpack(">i", reply[1:])[0]


def _read(fd, n):
    data = b""
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def _serve(ctl, rep, pairs, become, trial, tried):
    """The spawner's loop: the same few steps for every request, each in a frame of its own (nothing one request
    made is alive when the next forks)."""
    gc.disable()
    ok = _fork_once(trial)
    if tried is not None:
        tried(ok)
    os.write(rep, b"t" + struct.pack(">i", int(ok)))
    target = (pairs[0][0][0], pairs[0][1][1])  # every student process's pipes land on the first pair's numbers
    while True:
        request = _read(ctl, 5)
        if len(request) != 5:
            return
        _answer(request, ctl, rep, pairs, target, become)


def _fork_once(trial):
    """A first fork, a throwaway process: what the fork handlers (Python's, torch's) set up the first time is set
    up before any student process is forked. It runs ``trial`` (the driver's: can a student process be set up
    apart?) and ends; whether it exited 0 is the trial's outcome. (One fork of this torch-sized process for both:
    each costs 20-50 ms, and a cost run is one of 15 runs a submission.)"""
    pid = os.fork()
    if pid == 0:
        try:
            os._exit(0 if trial is not None and trial() is True else 1)
        except BaseException:
            os._exit(1)
    status = os.waitpid(pid, 0)[1]
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def _answer(request, ctl, rep, pairs, target, become):
    op, n = request[:1], struct.unpack(">i", request[1:])[0]
    if op == FORK:
        answer = os.fork()
        if answer == 0:
            _become(ctl, rep, pairs, n, target, become)
        (cases_r, _), (_, answers_w) = pairs[n]
        os.close(cases_r)
        os.close(answers_w)
    else:
        try:
            pid, status = os.waitpid(n, os.WNOHANG if op == POLL else 0)
            answer = status if pid else RUNNING
        except ChildProcessError:
            answer = UNKNOWN
    os.write(rep, b"k" + struct.pack(">i", answer))


def _become(ctl, rep, pairs, n, target, become):
    """In the new student process: only its own pipes, on the numbers every student process has them on."""
    try:
        os.close(ctl)
        os.close(rep)
        for (cases_r, _), (_, answers_w) in pairs[n + 1:]:  # (the spawner closed the earlier ones)
            os.close(cases_r)
            os.close(answers_w)
        (cases_r, _), (_, answers_w) = pairs[n]
        if n:
            os.dup2(cases_r, target[0])
            os.dup2(answers_w, target[1])
            os.close(cases_r)
            os.close(answers_w)
        # its pipes dated now: every pair was made at the run's start, so the k-th process's pipes were as old as
        # the run at its import, and a cost run's first process's were not (blind attacks14 read that)
        for fd in target:  # and not inheritable, in every process alike (`dup2` makes the later pairs inheritable,
            os.utime(fd)  # where `os.pipe` made the first not: blind attacks15 told the first process by it)
            os.set_inheritable(fd, False)
        gc.enable()
        gc.collect(0)  # the same counts in every student process
        become(*target)
    finally:
        os._exit(0)
