"""Warm starts: sandboxed runs forked from a template process instead of started cold.

A cold run starts bubblewrap, a fresh interpreter and (for a notebook) a kernel, each importing torch again: about
1 s of CPU before any student code runs. The template ("zygote", `sandbox/inside/zygote.py`) is one process per
grader that imports torch, numpy and the kernel machinery once and never runs student code. For each run it forks a
fresh process that builds the same sandbox bubblewrap would (mount, PID, network, IPC, UTS and cgroup namespaces;
the same binds, tmpfs writable places and /dev; the run's cgroup; rlimits; uid 65534 with no capabilities and
no_new_privs; the same seccomp filter), then runs the command's Python script in that process. The notebook runner
forks its kernel from itself, so the kernel starts warm too.

Only ``python -I SCRIPT …`` (and ``python -I -m MODULE …``) commands can start warm; any other command, a machine
without the official sandbox, ``LRKIT_WARM=0`` in the grader's environment, or a template that failed to start (or
its self-test) falls back to the cold path. Reports say which: the isolation tag is "zygote" instead of "bwrap". A
template that stops forking in the middle of a batch (it died, or did not answer in time) is replaced by a fresh
one; only `MAX_FAILURES` failures in a row turn warm starts off for the rest of the grader's life.

`grade --local` asks for this user's template kept between graders instead (`keep_between_runs`, `KeptZygote`,
`kept.py`): the student's loop imports torch once, not once per run. Official grading always starts its own.

What differs from a cold run, by design: every run of one template shares its address-space layout (ASLR is per
exec, not per fork), so the template is replaced after `MAX_FORKS` runs; pages the run shares with the template
(torch's code) are charged to the template's cgroup, not the run's: a run has that much (~0.2 GB) more headroom.
"""
from __future__ import annotations

import ast
import atexit
import contextlib
import json
import logging
import os
import select
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from functools import lru_cache
from pathlib import Path

from grader.sandbox import bwrap, kept, plan, seccomp
from grader.sandbox.bwrap import sandbox_available, sandbox_possible, sandbox_python
from grader.sandbox.records import SANDBOX_UID, Mount, RunLimits, SandboxError
from grader.sandbox.scratch import keep_cached, restore_cached

log = logging.getLogger(__name__)

ZYGOTE = Path(__file__).with_name("inside") / "zygote.py"
MAX_FORKS = 200  # then a fresh template (new address-space layout)
START_TIMEOUT_S = 300.0
SPAWN_TIMEOUT_S = 120.0
MAX_FAILURES = 3  # warm starts that failed in a row before this grader gives up on them
FONT_LIST = "fontlist-v*.json"


class WarmStartFailed(SandboxError):
    """The template could not fork this run (the run is then started cold)."""

    def __init__(self, message: str, zygote: Zygote | None = None) -> None:
        super().__init__(message)
        self.zygote = zygote


class WarmProcess:
    """The `subprocess.Popen` face of one forked run: pid (the run's PID 1 as the host sees it, a
    process-group leader: `killpg` ends the whole namespace, as killing bubblewrap does), poll,
    wait, returncode (from its monitor); `stdin` when the run was given one."""

    def __init__(self, sock: socket.socket, pid: int, stdin=None, on_exit=None):
        self.sock, self.pid, self.stdin, self.on_exit = sock, pid, stdin, on_exit
        self.returncode: int | None = None
        self.setup_error = ""

    def _settle(self, timeout: float | None) -> bool:
        if self.returncode is not None:
            return True
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            return False
        try:
            msg = self.sock.recv(1 << 16)
        except OSError:
            msg = b""
        if not msg:  # the monitor was killed (the cgroup sweep): as a SIGKILLed child reads
            self.returncode = -9
        else:
            reply = json.loads(msg)
            self.setup_error = reply.get("setup_error") or reply.get("error", "")
            status = reply.get("status")
            self.returncode = os.waitstatus_to_exitcode(status) if status is not None else 127
        self.sock.close()
        if self.on_exit is not None:
            self.on_exit()
        return True

    def poll(self) -> int | None:
        self._settle(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._settle(timeout):
            raise subprocess.TimeoutExpired("warm run", timeout)
        return self.returncode


class Zygote:
    """One template process and the socket that asks it for forks."""

    def __init__(self) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="lrkit-zygote-"))  # 0700: the template's own files
        (self.home / "root").mkdir(mode=0o755)  # every run mounts its new root here, in its own namespace
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        restore_cached("matplotlib", self.home / "matplotlib", FONT_LIST)  # built once per machine, not per template
        with open(self.home / "stderr", "wb") as err:  # a file: a full pipe must never stall the template
            self.proc = subprocess.Popen([sandbox_python(), "-I", str(ZYGOTE), str(theirs.fileno())],
                                         env=kept.environment(self.home), cwd="/", stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=err, pass_fds=[theirs.fileno()],
                                         start_new_session=True)
        theirs.close()
        self._connected(ours, tested=True)

    def _connected(self, control: socket.socket, tested: bool) -> None:
        self.control, self.lock, self.starting = control, threading.Lock(), threading.Lock()
        self.forks, self.ready = 0, False
        self.preloaded: set[str] = set()  # the assignment's preloads asked for (`ask_preload`)
        self.active, self.selftest_error = 0, None  # runs forked and not yet ended; why the self-test failed
        # forked before the template's imports: the test's set-up runs alongside them (none for a kept template
        # another grader launched and tested)
        self.tested = threading.Thread(target=self.selftest if tested else lambda: None, daemon=True)
        self.tested.start()

    def _await_ready(self, timeout: float) -> None:
        ready, _, _ = select.select([self.control], [], [], timeout)
        try:
            msg = self.control.recv(16) if ready else b""
        except OSError:  # (a template that died with a request unread resets the socket)
            msg = b""
        if msg != b"ready":
            err = (self.home / "stderr").read_bytes()[-4000:].decode(errors="replace") or "no answer"
            self.stop()
            raise SandboxError(f"the warm-start template did not start: {err.strip()[-800:]}")

    def spawn(self, spec: dict, fds: list[int], stdin=None) -> WarmProcess:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            with self.lock:
                socket.send_fds(self.control, [b"r"], [theirs.fileno()])
                self.forks += 1
                self.active += 1
            theirs.close()
            socket.send_fds(ours, [json.dumps({**spec, "root": str(self.home / "root")}).encode()], fds)
            ours.settimeout(SPAWN_TIMEOUT_S)  # a template that stopped answering must not hang the grader
            reply = json.loads(ours.recv(1 << 16) or b"{}")
            ours.settimeout(None)
        except (OSError, ValueError) as exc:
            ours.close()
            self._ended()
            raise WarmStartFailed(f"warm start failed: {exc}", self) from exc
        if "pid" not in reply:
            ours.close()
            self._ended()
            raise WarmStartFailed(f"warm start failed: {reply.get('error', 'no answer')}", self)
        _succeeded()
        return WarmProcess(ours, reply["pid"], stdin, self._ended)

    def ask_preload(self, names) -> None:
        """Have the template import ``names`` (those not asked for yet) before the next run it forks: the message
        and every fork request share the control socket, in order."""
        with self.lock:
            new = [n for n in dict.fromkeys(names) if n not in self.preloaded]
            if new:
                try:
                    self.control.send(b"i" + json.dumps(new).encode())
                except OSError as exc:  # a template that died: the next run replaces it (and asks again)
                    log.warning("the warm-start template could not be asked to preload %s: %s", new, exc)
                    return
                self.preloaded.update(new)

    def _ended(self) -> None:
        with self.lock:
            self.active -= 1

    def retire(self, grace_s: float = 3600.0) -> None:
        """No more forks; its runs in flight go on (their monitors outlive it); then clean up."""
        self.proc.kill()
        deadline = time.monotonic() + grace_s
        while self.active > 0 and time.monotonic() < deadline:
            time.sleep(1.0)
        self.stop()

    def selftest(self) -> None:
        """An empty run through the whole set-up (namespaces, mounts, uid, seccomp); sets `selftest_error`."""
        try:
            self._selftest()
        except (OSError, ValueError, SandboxError) as exc:
            self.selftest_error = exc

    def _selftest(self) -> None:
        r, w = os.pipe()
        spec = run_spec(["-c", "pass"], mounts=[], cwd="/", env=plan.environment({}), limits=RunLimits(tmp_mb=16,
                        max_disk_mb=16), procs=[], seeds={}, fds={"1": 0, "2": 0}, rlimits=[])
        try:
            proc = self.spawn(spec, [w])
        finally:
            os.close(w)
        try:
            code = proc.wait(timeout=60)
            output = os.read(r, 4000).decode(errors="replace")
        finally:
            os.close(r)
        if code != 0:
            raise SandboxError(f"warm self-test failed (exit {code}): {proc.setup_error or output}")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.control.close()
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            log.error("the warm-start template %d did not exit", self.proc.pid)
        shutil.rmtree(self.home, ignore_errors=True)


class KeptZygote(Zygote):
    """This user's template kept between graders (`kept`): asked for forks exactly as a grader's own is; this
    grader only closes its connection when done (the template serves others and exits when idle)."""

    def __init__(self) -> None:
        control, self.home, launched = kept.attach(ZYGOTE, MAX_FORKS)
        self.proc = None
        self._connected(control, tested=launched)  # the grader that launched it tests it

    def alive(self) -> bool:
        return not self.ready or not kept.gone(self.control)

    def retire(self, grace_s: float = 3600.0) -> None:
        self.stop()  # its runs in flight go on: their monitors are the template's

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.control.close()


_lock = threading.Lock()
_zygote: Zygote | None = None
_broken = False
_wanted: dict[str, None] = {}  # every preload asked for (`preload`): a template that replaces one is asked again
_failures = 0  # warm starts that failed since the last one that worked
_keep = False  # serve runs from this user's kept template (`keep_between_runs`)
_kept_broken = False  # ... which failed this grader once: its own from then on
last_failure = ""  # why the last warm start failed (for logs and tests)


def enabled() -> bool:
    return os.environ.get("LRKIT_WARM", "1") != "0" and not _broken and sandbox_available()


def prestart() -> None:
    """Start the template now (in the background) so that its imports overlap other work, the
    sandbox probe included: nothing runs in it before `enabled()` (the probe) and its self-test."""
    if os.environ.get("LRKIT_WARM", "1") != "0" and not _broken and sandbox_possible():
        try:
            _template(wait=False)
        except (OSError, SandboxError) as exc:
            log.warning("warm start unavailable: %s", exc)


def measured_as() -> str:
    """How this grader's runs start, as far as what is measured of them depends on it: warm, from a template that
    also holds these preloads (a run finds them imported: their memory is the template's, not the run's), or cold
    (a run imports torch itself). A cost verdict compares a student's runs with the model's (`grading.costs`): the
    model's measurements are kept, in the process and on disk, under this."""
    with _lock:
        wanted = sorted(set(_wanted) - set(held()))  # what every template imports anyway changes nothing measured
    return json.dumps(["warm", wanted] if enabled() else ["cold"])


@lru_cache(maxsize=1)
def held() -> tuple[str, ...]:
    """What every template imports before its first run (`inside/zygote.py`'s ``PRELOAD``, its one owner, read from
    its source: that file runs only inside the sandbox). An assignment's ``preload`` naming one of these (the
    hybrid's ``torch._dynamo``) leaves the template as it was; keyed by it, a basics model graded after a hybrid one
    in the same grader was measured again (~40 s of `tasks.py all`, and of every test process grading both)."""
    for node in ast.parse(ZYGOTE.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "PRELOAD" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    return ()


def preload(names) -> None:
    """The assignment's preloads (assignment.yaml ``preload``): modules its notebook would import at a first use
    (torch.optim's first optimizer imports torch._dynamo: ~0.6 s of CPU). The template imports them once, before
    the next run it forks, and every template that replaces it does too. Never waits for a template to start;
    nothing where runs start cold."""
    names = tuple(names)
    if not names or not enabled():
        return
    with _lock:
        _wanted.update(dict.fromkeys(names))
        zygote = _zygote
    if zygote is not None and zygote.ready:  # else `_template` asks it once it is ready, before its first run
        zygote.ask_preload(names)


def _template(wait: bool = True) -> Zygote:
    global _zygote
    with _lock:
        if _zygote is not None and (not _zygote.alive() or _zygote.forks >= MAX_FORKS):
            old, _zygote = _zygote, None
            threading.Thread(target=old.retire, daemon=True).start()
        if _zygote is None:
            atexit.unregister(shutdown)  # registered when a template starts, not at import; once
            atexit.register(shutdown)
            _zygote = _new_template()
        zygote = _zygote
    if wait:
        with zygote.starting:
            if not zygote.ready:
                try:
                    zygote.tested.join()  # a machine where the set-up fails gets cold starts, not failed runs
                    if zygote.selftest_error is not None:
                        try:  # a template that died at start: its own words (stderr) say why
                            if zygote.proc is not None:
                                zygote.proc.wait(timeout=1.0)
                            zygote._await_ready(0)
                        except subprocess.TimeoutExpired:
                            pass
                        raise zygote.selftest_error
                    zygote._await_ready(START_TIMEOUT_S)
                except (OSError, ValueError, SandboxError) as exc:
                    zygote.stop()
                    if isinstance(zygote, KeptZygote):  # (it exited as this grader came): one of our own
                        _kept_failed(exc, zygote)
                        return _template(wait)
                    raise
                zygote.ready = True
                keep_cached("matplotlib", zygote.home / "matplotlib", FONT_LIST)
                with _lock:
                    wanted = list(_wanted)
                zygote.ask_preload(wanted)
    return zygote


def keep_between_runs() -> None:
    """Serve this grader's runs from this user's kept template (`kept`; `grade --local`), not one of its own."""
    global _keep
    _keep = True


def _new_template() -> Zygote:
    """The kept template where this grader asked for it (`keep_between_runs`) and none has failed it; else its own.
    (Called with `_lock` held.)"""
    if _keep and kept.wanted() and not _kept_broken:
        try:
            return KeptZygote()
        except (OSError, SandboxError) as exc:
            _kept_unavailable(exc)
    return Zygote()


def _kept_unavailable(exc: Exception) -> None:
    """The kept template could not serve: this grader starts its own from now on."""
    global _kept_broken
    log.warning("the kept warm-start template is unavailable, this grader starts its own: %s", exc)
    _kept_broken = True


def _kept_failed(exc: Exception, zygote: Zygote) -> None:
    """`_kept_unavailable`, found once ``zygote`` was this grader's: it is let go of."""
    global _zygote
    with _lock:
        _kept_unavailable(exc)
        if _zygote is zygote:
            _zygote = None


def shutdown() -> None:
    global _zygote
    with _lock:
        old, _zygote = _zygote, None
    if old is not None:
        old.stop()


def eligible(argv: list[str]) -> bool:
    return len(argv) >= 3 and list(argv[:2]) == [sandbox_python(), "-I"] and (argv[2] in ("-c", "-m")
                                                                             or argv[2][:1] != "-")


def spawner(argv: list[str], *, mounts: list[Mount], cwd: str, env: dict[str, str], limits: RunLimits,
            procs_files: list[str], seeds: dict[str, int], keep_fds: dict[int, int]):
    """`spawn(stdin, out_fd)` for `_supervise`: forks this run from the template; None: start it cold."""
    if not (enabled() and eligible(argv)):
        return None
    try:
        zygote = _template()
    except (OSError, SandboxError) as exc:
        give_up(exc)
        return None
    rlimits = [list(r) for r in plan.rlimits(limits)]

    def spawn(stdin: bool, out_fd: int) -> WarmProcess:
        fds, spec_fds, writer = [out_fd], {"1": 0, "2": 0}, None
        if stdin:
            r, w = os.pipe()
            fds.append(r)
            spec_fds["0"] = len(fds) - 1
            writer = os.fdopen(w, "wb")
        for target, fd in keep_fds.items():
            fds.append(fd)
            spec_fds[str(target)] = len(fds) - 1
        spec_seeds = {}
        for target, fd in seeds.items():
            fds.append(fd)
            spec_seeds[target] = len(fds) - 1
        run_env = plan.environment({**env, "PWD": cwd} if seeds else env)  # cold, `sh` unpacks the seeds and sets PWD
        spec = run_spec(argv[2:], mounts=mounts, cwd=cwd, env=run_env, limits=limits, procs=procs_files,
                        seeds=spec_seeds, fds=spec_fds, rlimits=rlimits)
        try:
            return zygote.spawn(spec, fds, writer)
        finally:
            if stdin:
                os.close(fds[1])
    return spawn


def run_spec(argv: list[str], *, mounts: list[Mount], cwd: str, env: dict[str, str], limits: RunLimits,
             procs: list[str], seeds: dict[str, int], fds: dict[str, int], rlimits: list) -> dict:
    """What the template needs to build one run's sandbox (`inside/zygote.py` reads it): the plan's mounts
    (a seeded writable mount a tmpfs), environment, rlimits and seed filter, the uid, the seccomp filter, and
    which of the passed descriptors are the run's stdio, seeds and kept fds."""
    return {"argv": argv, "plan": bwrap.mount_plan(mounts, limits.tmp_mb, limits.max_disk_mb, bool(seeds)),
            "cwd": cwd, "env": env, "procs": procs, "rlimits": rlimits, "uid": SANDBOX_UID,
            "seccomp": (seccomp.filter_bytes(sockets=limits.sockets, nest=limits.nest).hex()
                        if seccomp.supported() else ""),
            "seeds": seeds,
            "seed_filter": plan.SEED_TAR_FILTER, "fds": fds}


def give_up(exc: Exception) -> None:
    """The template could not start (this machine cannot warm-start): cold starts from now on."""
    global _broken, last_failure
    _broken, last_failure = True, str(exc)
    log.warning("warm start disabled for this grader, runs start cold: %s", exc)


def spawn_failed(exc: Exception) -> None:
    """A run could not be forked: that run starts cold, the template is replaced by a fresh one,
    and `MAX_FAILURES` failures in a row turn warm starts off."""
    global _zygote, _failures, last_failure, _kept_broken
    with _lock:
        if getattr(exc, "zygote", None) is not None and exc.zygote is not _zygote:
            return  # a template already replaced (runs in flight when it failed): counted once
        _failures += 1
        last_failure = str(exc)
        if isinstance(getattr(exc, "zygote", None), KeptZygote):
            _kept_broken = True
        old, _zygote = _zygote, None
    if old is not None:
        threading.Thread(target=old.retire, daemon=True).start()
    if _failures >= MAX_FAILURES:
        give_up(exc)
    else:
        log.warning("warm start failed, this run starts cold and the template is restarted: %s", exc)


def _succeeded() -> None:
    global _failures
    _failures = 0


def isolation() -> tuple[str, ...]:
    return tuple("zygote" if layer == "bwrap" else layer for layer in bwrap.detect_isolation())

