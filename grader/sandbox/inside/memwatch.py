"""How much memory a case really takes, measured from outside the student's processes (used by `driver.py`).

The checks' own meters (a torch function mode, wrapped module functions) run inside the student's process,
where student code can step around them: a `torch._C.DisableTorchFunction()` block, a thread, a private copy
of a function. The driver's parent process instead samples the private memory (``/proc/PID/smaps_rollup``)
of the child and of every process below it, every 2 ms, while a case marked ``watch_memory`` runs. Building
an L x L matrix takes far longer than 2 ms, so no such matrix escapes the peak; a process that makes itself
undumpable (so that its memory cannot be read) gets -1, which the verdict treats as hidden.
Standalone: imports nothing from the grader.
"""
import os
import select
import time


def private_bytes(pid):
    """Private memory of ``pid`` and every process below it; None when one of them hides it (undumpable)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                total += sum(int(line.split()[1]) << 10 for line in fh if line.startswith("Private_"))
            for tid in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{tid}/children") as fh:
                    todo += [int(c) for c in fh.read().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue  # it ended meanwhile
        except (OSError, ValueError):
            return None
    return total


def watch_memory(pid, answers_r, deadline):
    """The peak private memory of the child's processes until its answer is ready, sampled every 2 ms
    from outside them: no mode, thread or private copy inside the child changes it. -1: hidden."""
    peak = 0
    while time.monotonic() < deadline:
        used = private_bytes(pid)
        if used is None:
            return -1
        peak = max(peak, used)
        if select.select([answers_r], [], [], 0.002)[0]:
            break
    return peak
