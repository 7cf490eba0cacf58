"""Prepare a submitted notebook, execute it in the sandbox, read back what happened.

Preparation happens here, in the grader: outputs, execution counts and metadata from the
submission are dropped (they never award anything); cell tags come from the template, by
cell id; read-only cells (question, locked) are restored from the template when changed
or deleted. What comes back from the sandbox is treated as untrusted data.
"""
from __future__ import annotations

import base64
import json
import logging
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from grader import sandbox
from grader.config import AssignmentLimits
from grader.grading import messages
from grader.grading.notebook import READ_ONLY_TAGS, cell_source, exercise_of
from grader.results import CellOutcome, Figure
from grader.sandbox import channel

log = logging.getLogger(__name__)

RUNNER = sandbox.inside_script("nbrunner.py")
WIRE = sandbox.inside_script("wire.py")  # the framing nbrunner loads from its own folder
MAX_NOTEBOOK_BYTES = 20_000_000
MAX_NOTEBOOK_DEPTH = 64  # nbformat needs 6; deeper is not a notebook Jupyter wrote
MAX_FIGURES = 24
MAX_FIGURE_BYTES = 2_250_000  # one PNG, raw (3 MB as base64)
MAX_CHANNEL_BYTES = MAX_FIGURES * MAX_FIGURE_BYTES + 8 * 2**20  # what the runner may send; the grader holds no more
# Grading mode for long cells; figures drawn inline (the sandbox's default backend is Agg).
NOTEBOOK_ENV = {"LRKIT_GRADING": "1", "MPLBACKEND": "module://matplotlib_inline.backend_inline"}


class NotebookError(Exception):
    """The submitted notebook cannot be read; the message says what to do."""


@dataclass(frozen=True)
class NotebookRun:
    cells: tuple[CellOutcome, ...]
    figures: tuple[Figure, ...]
    status: str
    notes: tuple[str, ...]
    seconds: float
    isolation: tuple[str, ...]
    peak_memory_mb: float = 0.0
    cpu_s: float = 0.0  # CPU time of the sandboxed process tree


_source = cell_source  # what a cell's tags and source mean is read in grading.notebook


def read_notebook(text: str, where: str) -> dict:
    """The submitted notebook, checked as hostile JSON: size, nesting, and every cell's shape."""
    if len(text) > MAX_NOTEBOOK_BYTES:
        raise NotebookError(f"{where} is larger than {MAX_NOTEBOOK_BYTES // 1_000_000} MB; "
                            "clear its outputs and resubmit")
    resave = "open it in Jupyter, save it again and resubmit"
    try:
        channel.check_depth(text, MAX_NOTEBOOK_DEPTH)
        nb = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"{where} is not valid notebook JSON (line {exc.lineno}: {exc.msg}); {resave}") from None
    except (channel.ChannelError, RecursionError, ValueError) as exc:
        raise NotebookError(f"{where} is not a notebook Jupyter wrote ({exc}); {resave}") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise NotebookError(f"{where} is not a Jupyter notebook (no list of cells)")
    for n, cell in enumerate(nb["cells"]):
        if not isinstance(cell, dict):
            raise NotebookError(f"{where}: cell {n} is not a cell (a {type(cell).__name__}); {resave}")
        src = cell.get("source", "")
        if not (isinstance(src, str) or isinstance(src, list) and all(isinstance(part, str) for part in src)):
            raise NotebookError(f"{where}: cell {n} has a source that is not text; {resave}")
    return nb


def prepare_notebook(submitted: dict, template: dict) -> tuple[dict, list[str]]:
    """Clean a submitted notebook against its template. Returns (notebook, notes)."""
    notes: list[str] = []
    tpl_cells = {c.get("id"): c for c in template["cells"]}
    clean, seen = [], set()
    for n, cell in enumerate(submitted["cells"]):
        if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            continue
        cid = cell.get("id")
        cid = cid if isinstance(cid, str) and 0 < len(cid) <= 64 else f"student-{n}"
        if cid in seen:
            cid = f"{cid}-dup{n}"
        seen.add(cid)
        tpl = tpl_cells.get(cid)
        tags = list(tpl.get("metadata", {}).get("tags", [])) if tpl else []
        source = _source(cell)
        if tpl and READ_ONLY_TAGS & set(tags) and source != _source(tpl):
            notes.append(f"read-only cell {cid} was edited; the original was restored")
            source = _source(tpl)
        clean.append({"cell_type": cell["cell_type"], "id": cid, "metadata": {"tags": tags}, "source": source,
                      **({"outputs": [], "execution_count": None} if cell["cell_type"] == "code" else {})})
    ids = [c["id"] for c in clean]
    for pos, tpl in enumerate(template["cells"]):
        tags = set(tpl.get("metadata", {}).get("tags", []))
        if tpl.get("id") not in ids and tags & READ_ONLY_TAGS:
            before = template["cells"][pos - 1].get("id") if pos else None
            at = ids.index(before) + 1 if before in ids else len(clean)
            restored = {**tpl, "source": _source(tpl)}  # one shape for every prepared cell: source as text
            clean.insert(at, {**restored, "outputs": [], "execution_count": None} if tpl["cell_type"] == "code"
                         else restored)
            ids.insert(at, tpl.get("id"))
            notes.append(f"read-only cell {tpl.get('id')} was deleted; it was restored from the template")
    nb = {"cells": clean, "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                      "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    return nb, notes


HOOK_PATTERNS = re.compile(
    r"input_transformers|ast_transformers|events\.register|register_magic|set_custom_exc|"
    r"run_cell\s*=|run_ast_nodes|sys\.settrace|sys\.setprofile|InteractiveShell|"
    r"^[ \t]*%(?:load_ext|run|alias)\b", re.MULTILINE)  # (no `\n\s*`: quadratic on a run of blank lines)


def execution_hooks(prepared: dict) -> list[str]:
    """Cells whose code reaches into IPython's execution machinery (which could make later
    cells "run" without running). Read in the grader, from the source; evidence, not proof."""
    found, number = [], 0
    for cell in prepared["cells"]:
        if cell["cell_type"] == "code":
            number += 1  # Jupyter's In [n] after Run All
            m = HOOK_PATTERNS.search(cell["source"])
            if m:
                found.append(f"In [{number}] uses '{m.group(0).strip()}'")
    return found


def skipped_run(prepared: dict, reason: str) -> NotebookRun:
    """The notebook was not executed (e.g. importing the student's module already hangs)."""
    cells = []
    for index, cell in enumerate(prepared["cells"]):
        if cell["cell_type"] == "code":
            exercise = exercise_of(cell)
            cells.append(CellOutcome(index, cell["id"], "not_run", exercise))
    return NotebookRun(tuple(cells), (), "skipped", (reason,), 0.0, ())


def _cell_entry(header: dict, body: memoryview, index_ok) -> tuple[dict | None, list[Figure]]:
    """One cell message from the runner, checked; (None, []) when it is malformed."""
    index, seconds = header.get("index"), header.get("seconds", 0.0)
    if type(index) is not int or not index_ok(index) or header.get("status") not in ("ok", "error") or \
            type(seconds) not in (int, float) or not 0 <= seconds < 1e7:
        return None, []
    figures, offset = [], 0
    sizes = header.get("figures", [])
    for size in sizes if isinstance(sizes, list) else []:
        if type(size) is not int or not 0 < size <= MAX_FIGURE_BYTES or offset + size > len(body):
            break
        raw = bytes(body[offset:offset + size])
        offset += size
        if raw.startswith(b"\x89PNG"):
            figures.append(Figure(index, base64.b64encode(raw).decode("ascii")))
    return header, figures


def _read_channel(data: bytes, prepared: dict) -> tuple[dict[int, dict], list[Figure], str, bool, str]:
    """(cell entries by index, figures, status, disk full, problem) from the runner's messages."""
    messages, problem = channel.decode(data)
    code = {i for i, c in enumerate(prepared["cells"]) if c["cell_type"] == "code"}
    logged: dict[int, dict] = {}
    figures: list[Figure] = []
    status, disk_full = "killed", False
    for message in messages:
        header = message.header
        if header.get("event") == "cell":
            entry, found = _cell_entry(header, message.body, code.__contains__)
            if entry is None:
                problem = problem or "a malformed record of a cell"
                continue
            logged.setdefault(entry["index"], entry)
            figures += found[:max(0, MAX_FIGURES - len(figures))]
        elif header.get("event") == "status":
            status = channel.text(header.get("status"), 300) or "killed"
            disk_full = header.get("disk_full") is True
    return logged, figures, status, disk_full, problem


def _stop_notes(result: sandbox.RunResult, status: str, disk_full: bool, problem: str, limits: AssignmentLimits,
                run_limits: sandbox.RunLimits) -> tuple[str, list[str]]:
    """The run's status after the sandbox's account of it, and the notes that say why it stopped."""
    notes = []
    stopped = messages.run_stopped(result, subject="the notebook", memory_mb=limits.memory_mb,
                                   disk_mb=run_limits.max_disk_mb, tmp_mb=run_limits.tmp_mb,
                                   channel_bytes=MAX_CHANNEL_BYTES)
    if result.disk_exceeded or result.memory_exceeded or result.channel_overflow:
        status = "disk" if result.disk_exceeded else "memory" if result.memory_exceeded else "killed"
        notes.append(stopped)
    elif result.timed_out or result.idle_timed_out or status == "timeout":
        status = "timeout"
        notes.append(f"the notebook did not finish: a cell ran longer than {limits.cell_timeout_s:g} s "
                     f"or the whole notebook longer than {limits.notebook_timeout_s:g} s")
    elif status not in ("ok",):
        notes.append(f"the notebook stopped early ({status})")
    if disk_full:
        notes.append(messages.disk_full(run_limits.max_disk_mb, run_limits.tmp_mb))
    if problem:
        notes.append(f"part of the notebook's record could not be read ({problem}); those cells count as not run")
    return status, notes


def _cell_outcomes(prepared: dict, logged: dict, status: str, disk_message: str) -> list[CellOutcome]:
    """One outcome per code cell: what its record says, or how the stopped run left it."""
    cells, stopped = [], False
    for index, cell in enumerate(prepared["cells"]):
        if cell["cell_type"] != "code":
            continue
        exercise = exercise_of(cell)
        entry = logged.get(index)
        if entry is None:
            if not stopped and status == "disk":  # the cell that was running when the run was stopped
                cells.append(CellOutcome(index, cell["id"], "error", exercise, "DiskLimitExceeded", disk_message))
                stopped = True
                continue
            state = "timeout" if not stopped and status in ("timeout", "memory", "killed") else "not_run"
            stopped = True
            cells.append(CellOutcome(index, cell["id"], state, exercise))
            continue
        cells.append(CellOutcome(index, cell["id"], entry["status"], exercise,
                                 channel.text(entry.get("ename"), 200), channel.text(entry.get("evalue"), 4000),
                                 round(float(entry["seconds"]), 3)))
    return cells


def execute_notebook(tree: Path, notebook: str, prepared: dict, limits: AssignmentLimits, *,
                     unsandboxed: bool = False, cancel=None) -> NotebookRun:
    """Run ``prepared`` (a clean notebook dict) with ``tree`` as the working directory.
    ``cancel`` (a `threading.Event`) stops the run early when set."""
    with sandbox.scratch_dir("nb") as work:
        scratch, harness = work / "submission", work / "harness"
        shutil.copytree(tree, scratch, symlinks=False, ignore=shutil.ignore_patterns("__pycache__", "hidden"))
        harness.mkdir()
        shutil.copy(RUNNER, harness / "nbrunner.py")
        shutil.copy(WIRE, harness / "wire.py")
        (harness / "input.ipynb").write_text(json.dumps(prepared))
        for p in (harness, *harness.iterdir()):
            p.chmod(0o755 if p.is_dir() else 0o644)
        run_limits = sandbox.RunLimits(wall_s=limits.notebook_timeout_s, memory_mb=limits.memory_mb,
                                       idle_s=limits.cell_timeout_s + 30, max_channel_bytes=MAX_CHANNEL_BYTES)
        result = sandbox.run(
            [sandbox.sandbox_python(), "-I", "/harness/nbrunner.py", "/harness/input.ipynb",
             str(limits.cell_timeout_s), "200000"],
            mounts=[sandbox.Mount(harness, "/harness"), sandbox.Mount(scratch, "/submission", writable=True)],
            cwd="/submission", env=NOTEBOOK_ENV, limits=run_limits, unsandboxed=unsandboxed, channel=True,
            cancel=cancel)
    logged, figures, status, disk_full, problem = _read_channel(result.channel, prepared)
    status, notes = _stop_notes(result, status, disk_full, problem, limits, run_limits)
    cells = _cell_outcomes(prepared, logged, status, messages.disk_full(run_limits.max_disk_mb, run_limits.tmp_mb))
    per_cell: dict[int, int] = {}
    for f in figures:
        per_cell[f.cell_index] = per_cell.get(f.cell_index, 0) + 1
    cells = [CellOutcome(**{**c.__dict__, "figures": per_cell.get(c.index, 0)}) for c in cells]
    return NotebookRun(tuple(cells), tuple(figures), status, tuple(notes), result.wall_s, result.isolation,
                       result.peak_memory_mb, result.cpu_s)
