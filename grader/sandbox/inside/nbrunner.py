"""Execute one notebook through nbclient, inside the sandbox (kernel and client together).

Run as ``python -I nbrunner.py IN.ipynb OUT_DIR CELL_TIMEOUT MAX_OUTPUT_BYTES``. Standalone:
imports nothing from the grader. Writes ``OUT_DIR/cells.jsonl`` (one line per executed
cell, flushed at once, so a killed run still tells how far it got) and
``OUT_DIR/executed.ipynb``. These are artefacts for the report, not verdicts: the grader
treats them as untrusted data.
"""
import json
import os
import signal
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError


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
                                              text=f"[output truncated by the grader after {self.max_output_bytes} bytes]\n")
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


def main(src, out_dir, cell_timeout, max_output):
    nb = nbformat.read(src, as_version=4)
    log = open(os.path.join(out_dir, "cells.jsonl"), "a", buffering=1)
    started = {}

    def on_start(cell, cell_index):
        started[cell_index] = time.perf_counter()

    def on_executed(cell, cell_index, execute_reply):
        content = (execute_reply or {}).get("content", {})
        entry = {"index": cell_index, "status": "ok" if content.get("status", "ok") == "ok" else "error",
                 "seconds": round(time.perf_counter() - started.get(cell_index, time.perf_counter()), 3)}
        if entry["status"] == "error":
            entry["ename"] = str(content.get("ename", ""))[:200]
            entry["evalue"] = str(content.get("evalue", ""))[:4000]  # the report shortens it; the HTML keeps it whole
        log.write(json.dumps(entry) + "\n")
        log.flush()

    client = CappedClient(nb, timeout=cell_timeout, kernel_name="python3", allow_errors=True,
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
    with open(os.path.join(out_dir, "executed.ipynb"), "w") as fh:
        nbformat.write(nb, fh)
    with open(os.path.join(out_dir, "status.json"), "w") as fh:
        json.dump({"status": status}, fh)
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # no interpreter teardown: everything is written, the sandbox sweeps the rest
