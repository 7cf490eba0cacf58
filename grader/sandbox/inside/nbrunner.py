"""Execute one notebook through nbclient, inside the sandbox (kernel and client together).

Run as ``python -I nbrunner.py IN.ipynb CELL_TIMEOUT MAX_OUTPUT_BYTES``. Standalone:
imports nothing from the grader (`wire.py`, beside it, frames the messages). It sends one
message per executed cell (its status, timing, error and PNG figures), as soon as the cell
ends, so a killed run still tells how far it got, then a status message, on the channel
(``$LRKIT_CHANNEL_FD``): a pipe the grader owns, which the kernel does not inherit and, this
process being undumpable, cannot reopen through /proc. Nothing is written to files the grader
reads. The messages are artefacts for the report, not verdicts: the grader treats them as
untrusted data (the kernel decides what its cells report).
"""
import base64
import binascii
import ctypes
import importlib.util
import json
import os
import signal
import sys
import time
from queue import Empty

import nbformat
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from traitlets import default

CHANNEL = int(os.environ.pop("LRKIT_CHANNEL_FD"))
PR_SET_DUMPABLE = 4
MAX_FIGURES = 24
MAX_FIGURE_BYTES = 2_250_000  # one PNG, raw
SENT = {"figures": 0}


def _beside(name):
    """A module of this folder loaded by path, under a name no student module has (not on sys.path, and not
    in sys.modules either: a kernel forked from this process inherits both)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"lrkit_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


wire = _beside("wire")


class CappedClient(NotebookClient):
    """A client that keeps at most ``max_output_bytes`` of output per cell."""

    max_output_bytes = 200_000

    def output(self, outs, msg, display_id, cell_index):
        size = self._sizes.get(cell_index, 0) + len(json.dumps(msg.get("content", {})))
        self._sizes[cell_index] = size
        if size > self.max_output_bytes:
            if not self._truncated.get(cell_index):
                self._truncated[cell_index] = True
                return nbformat.v4.new_output("stream", name="stderr",
                                              text=f"[output truncated by the grader after "
                                                   f"{self.max_output_bytes} bytes]\n")
            return None
        return super().output(outs, msg, display_id, cell_index)

    async def _async_cleanup_kernel(self):
        """Kill the kernel's process group, never shut it down gracefully (that cost ~0.7 s):
        the outputs are collected by now, and the sandbox's sweep (PID namespace, cgroup)
        makes sure nothing survives the run anyway."""
        provisioner = getattr(self.km, "provisioner", None)
        pgid = getattr(provisioner, "pgid", None) or getattr(provisioner, "pid", None)
        if pgid:
            try:
                os.killpg(pgid, signal.SIGKILL)
            except OSError:
                pass


class ReadyClient(AsyncKernelClient):
    """jupyter_client's client, ready as soon as the kernel is: its own wait has two fixed 0.2 s
    pauses (for IOPub to say something, then for it to fall silent), most of a warm kernel's
    start. Ready here = a kernel_info request answered on the shell channel and its 'idle'
    status seen on IOPub; a SUB socket that joined too late misses that status: ask again."""

    async def _async_wait_for_ready(self, timeout=None):
        deadline = time.monotonic() + (60.0 if timeout is None else timeout)
        while time.monotonic() < deadline:
            msg_id, replied, idle = self.kernel_info(), False, False
            ask_again = min(time.monotonic() + 0.5, deadline)
            while not (replied and idle) and time.monotonic() < ask_again:
                for channel in (self.shell_channel, self.iopub_channel):
                    try:
                        msg = await channel.get_msg(timeout=0.005)
                    except Empty:
                        continue
                    if msg.get("parent_header", {}).get("msg_id") != msg_id:
                        continue  # an earlier request's: nothing to learn from it
                    if msg.get("msg_type") == "kernel_info_reply":
                        getattr(self, "_handle_kernel_info_reply", lambda _: None)(msg)  # (jupyter_client >= 7)
                        replied = True
                    idle = idle or msg.get("content", {}).get("execution_state") == "idle"
            if replied and idle:
                return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
        raise RuntimeError(f"Kernel didn't respond in {timeout} seconds")

    wait_for_ready = _async_wait_for_ready


class ReadyKernelManager(AsyncKernelManager):
    @default("client_factory")
    def _client_factory_default(self):
        return ReadyClient


def fork_kernel():
    """A warm start (`zygote.py` forked this process with the kernel machinery imported): fork
    the kernel from here, before anything of the run is in memory, instead of starting a new
    interpreter. The child becomes what ``python -m ipykernel_launcher -f FILE`` would be: its
    own session, no channel, '' on sys.path before site-packages (as IPython puts it), no
    bytecode written ($PYTHONDONTWRITEBYTECODE), and no debugger (ipykernel's optional debugpy
    support, which a graded run never uses). Returns a kernel manager for nbclient."""
    import ipykernel
    from ipykernel.kernelapp import IPKernelApp
    from jupyter_client.connect import write_connection_file

    class ForkedKernelManager(ReadyKernelManager):
        kernel_pid = 0

        @property
        def has_kernel(self):
            return True

        async def _async_is_alive(self):  # the client asks through this name, nbclient through is_alive
            try:
                return os.waitpid(self.kernel_pid, os.WNOHANG) == (0, 0)
            except ChildProcessError:
                return False

        is_alive = _async_is_alive

    runtime = os.environ.get("JUPYTER_RUNTIME_DIR", "/tmp")
    os.makedirs(runtime, exist_ok=True)
    path, _ = write_connection_file(os.path.join(runtime, f"kernel-{os.getpid()}.json"))
    argv = ["-f", path, "--HistoryManager.hist_file=:memory:"]
    pid = os.fork()
    if pid == 0:
        try:
            os.close(CHANNEL)
            os.setsid()
            os.environ["JPY_PARENT_PID"] = str(os.getppid())
            sys.argv = [os.path.join(os.path.dirname(os.path.dirname(ipykernel.__file__)), "ipykernel_launcher.py"),
                        *argv]
            site = [n for n, p in enumerate(sys.path) if os.path.basename(p) in ("site-packages", "dist-packages")]
            sys.path.insert(site[0] if site else len(sys.path), "")
            sys.dont_write_bytecode = True
            sys.modules["debugpy"] = None  # no debugger for a graded run: its ~100 modules stay unloaded
            app = IPKernelApp.instance()
            app.initialize(argv)
            del sys.modules["debugpy"]  # (the notebook may still import it)
            app.start()
        finally:
            os._exit(0)
    km = ForkedKernelManager(kernel_name="python3")
    km.load_connection_file(path)
    km.kernel_pid = pid
    return km


def send(header, body=b""):
    """One message on the channel (framed by `wire.py`)."""
    wire.send(CHANNEL, header, body)


def figures(cell):
    """The PNG images among a cell's outputs, as raw bytes (at most MAX_FIGURES in all)."""
    found = []
    for output in cell.get("outputs", []):
        png = output.get("data", {}).get("image/png") if isinstance(output.get("data"), dict) else None
        if isinstance(png, list):
            png = "".join(str(p) for p in png)
        if not isinstance(png, str) or len(png) > 4 * MAX_FIGURE_BYTES // 3 + 8:
            continue
        try:
            raw = base64.b64decode(png)
        except (binascii.Error, ValueError):
            continue
        if raw.startswith(b"\x89PNG") and len(raw) <= MAX_FIGURE_BYTES and SENT["figures"] < MAX_FIGURES:
            SENT["figures"] += 1
            found.append(raw)
    return found


def main(src, cell_timeout, max_output):
    km = fork_kernel() if globals().get("LRKIT_WARM") else None
    ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # no process of the sandbox uid may reach our pipes
    os.set_inheritable(CHANNEL, False)  # nor may the kernel inherit the channel
    nb = nbformat.read(src, as_version=4)
    started = {}

    def on_start(cell, cell_index):
        started[cell_index] = time.perf_counter()

    def on_executed(cell, cell_index, execute_reply):
        content = (execute_reply or {}).get("content", {})
        entry = {"event": "cell", "index": cell_index,
                 "status": "ok" if content.get("status", "ok") == "ok" else "error",
                 "seconds": round(time.perf_counter() - started.get(cell_index, time.perf_counter()), 3)}
        if entry["status"] == "error":
            entry["ename"] = str(content.get("ename", ""))[:200]
            entry["evalue"] = str(content.get("evalue", ""))[:4000]  # the report shortens it; the HTML keeps it whole
        images = figures(cell)
        entry["figures"] = [len(raw) for raw in images]
        send(entry, b"".join(images))

    client = CappedClient(nb, km=km, kernel_manager_class=ReadyKernelManager, timeout=cell_timeout,
                          kernel_name="python3", allow_errors=True,
                          record_timing=False, resources={"metadata": {"path": os.getcwd()}},
                          on_cell_start=on_start, on_cell_executed=on_executed)
    client.max_output_bytes = max_output
    client._sizes, client._truncated = {}, {}
    status = "ok"
    try:
        client.execute()
    except CellTimeoutError:
        status = "timeout"
    except DeadKernelError:
        status = "dead_kernel"
    except Exception as exc:  # the kernel failing to start, a broken notebook: say so, keep what ran
        status = f"error: {type(exc).__name__}: {str(exc)[:300]}"
    if km is not None:
        try:
            os.killpg(km.kernel_pid, signal.SIGKILL)
        except OSError:
            pass
    send({"event": "status", "status": status, "disk_full": wire.disk_full((".", "/tmp"))})
    return 0


if __name__ == "__main__":
    try:
        code = main(sys.argv[1], float(sys.argv[2]), int(sys.argv[3]))
    except Exception as exc:  # the grader sees no status message and says the notebook was stopped
        print(f"nbrunner failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # no interpreter teardown: everything is sent, the sandbox sweeps the rest
