"""Shortening a long message for a student without losing its point.

An error from a notebook cell can run to many lines: the first says what went wrong, a
later "likely cause:" section says why. Cutting at a fixed character count used to stop
inside a number (`forward()     0` for 0.0477…) and drop the cause. `excerpt` keeps whole
lines from the start, always keeps the cause section, and never cuts inside a word; the
caller points to the full text (the HTML report keeps it).
"""
from __future__ import annotations

import re

ELLIPSIS = "…"
# lines that open the part of a message a student most needs
_CAUSE = re.compile(r"^\s*(likely cause|likely causes|probable cause|hint|did you|suggestion)\b", re.IGNORECASE)


def _cut_line(line: str, budget: int) -> str:
    """``line`` shortened to at most ``budget`` characters at a space (never inside a token)."""
    if len(line) <= budget:
        return line
    cut = line.rfind(" ", 0, max(budget - 1, 0))
    if cut <= 0:
        return ELLIPSIS
    return line[:cut].rstrip() + " " + ELLIPSIS


def excerpt(text: str, limit: int = 600) -> tuple[str, bool]:
    """(the message in at most about ``limit`` characters, whether anything was left out).

    Keeps the first lines whole, then the "likely cause" section (up to half the budget),
    with "…" where lines were left out. A message within the limit comes back unchanged.
    """
    text = str(text).strip("\n")
    if len(text) <= limit:
        return text, False
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if i > 0 and _CAUSE.match(line)), None)
    cause: list[str] = []
    if start is not None:
        budget = limit // 2
        for line in lines[start:]:
            if cause and not line.startswith((" ", "\t", "-", "•")):
                break
            if len(line) + 1 > budget:
                if not cause:
                    cause.append(_cut_line(line, budget))
                break
            cause.append(line)
            budget -= len(line) + 1
        lines = lines[:start]
    budget = limit - sum(len(c) + 1 for c in cause) - 2
    head: list[str] = []
    for line in lines:
        if len(line) + 1 > budget:
            if not head:
                head.append(_cut_line(line, budget))
            break
        head.append(line)
        budget -= len(line) + 1
    dropped = len(head) < len(lines) or (head and head[-1].endswith(ELLIPSIS))
    if dropped and not head[-1].endswith(ELLIPSIS):
        head.append(ELLIPSIS)
    return "\n".join(head + cause), True


# Why a run stopped: the one owner of these sentences (the notebook, the checks and the public tests
# each say it in these words; a report never explains the same limit two ways).

def disk_full(disk_mb: int, tmp_mb: int | None = None) -> str:
    tmp = f" (or the {tmp_mb} MB /tmp)" if tmp_mb else ""
    return f"your code filled the {disk_mb} MB disk{tmp}; write less, or nothing, to disk"


def over_memory(memory_mb: float) -> str:
    return f"your code used more than the {memory_mb:g} MB memory limit"


def too_much_output(limit_bytes: int, what: str = "results") -> str:
    return f"it sent back more than {limit_bytes // 2**20} MB of {what}"


def case_too_slow(case_timeout_s: float) -> str:
    return f"it did not finish within the {case_timeout_s:g} s time limit (an endless loop, a sleep, or far too slow?)"


def over_cpu_time(cpu_s: float) -> str:
    return (f"it used more than its {cpu_s:g} s of CPU time (every process it started counts) and was stopped "
            "(an endless loop, or far too slow?)")


def exited_early(code: object) -> str:
    return f"the process ended (exit code {code}) before this case finished; does your code call exit()?"


def run_stopped(result, *, subject: str, memory_mb: float, disk_mb: int, tmp_mb: int | None = None,
                channel_bytes: int = 0, time_limit: str = "") -> str:
    """Why ``subject`` ("the notebook", "the public tests") was stopped, from a `sandbox.RunResult`;
    "" when it was not. ``time_limit`` words the time limit that applies to it."""
    if result.disk_exceeded:
        why = disk_full(disk_mb, tmp_mb)
    elif result.memory_exceeded:
        why = over_memory(memory_mb)
    elif result.channel_overflow:
        why = too_much_output(channel_bytes, "figures and records")
    elif result.timed_out or result.idle_timed_out:
        why = f"it ran past {time_limit or 'its time limit'}"
    else:
        return ""
    return f"{subject} was stopped: {why}"


def grader_failed(exc: BaseException) -> str:
    """The grader itself failed on one submission (a "crashed" row): the student cannot fix it; staff can."""
    return f"the grader failed on this submission ({type(exc).__name__}: {str(exc)[:300]}); tell the course staff"
