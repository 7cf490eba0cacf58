"""Run the official checks of one assignment against one submission.

The grader side of the trust boundary: it makes every case's inputs and streams them,
with the probes' source, to the fixed driver in a sandbox (stdin; nothing of it on disk
there). The driver answers on a pipe the grader owns; every answer is read as hostile
data (`grader.sandbox.channel`: sizes, dtypes and shapes checked before anything is
allocated) and judged here with `checks.judge_case`. Student code is never imported
here. A case that hangs, crashes or sends garbage costs that case; the driver starts a
fresh student process for the rest.

Cost cases (`costs.CostCase`) run differently: each length in a sandboxed run of its own, the
student's code and the model solution's, measured from outside by the run's cgroup
(`costs.judge_cost` decides them from those measurements and the outputs). Inside, such a run is
the comparing check's run: its cases in their order, up to a point drawn at random, then the cost
case (`_companions`).
"""
from __future__ import annotations

import dataclasses
import functools
import logging
import os
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from grader import sandbox
from grader.config import AssignmentConfig, load_assignment
from grader.grading import costs, draws, messages, model_costs
from grader.grading.checks import Case, CheckSpec, Seeded, judge_case, load_checks
from grader.results import CaseOutcome
from grader.sandbox import channel, seccomp

log = logging.getLogger(__name__)

DRIVER = sandbox.inside_script("driver.py")
# what the driver loads from its own folder (copied beside it, where present)
DRIVER_MODULES = ("wire.py", "caller.py", "kernel.py", "apart.py", "spawner.py", "seeded.py")
MAX_RESULT_BYTES = 32 * 1024 * 1024  # one case's answer
# Every check run's room: no sockets (kernel socket buffers are memory a cgroup v1 host does not charge to
# the run) and 4 MiB to write in /tmp and in the submission's copy (files written there are tmpfs pages the run
# holds); with `modules_only`, the copy holds the Python modules and nothing else.
CHECK_ROOM = {"sockets": False, "tmp_mb": 4, "max_disk_mb": 4,
              "nest": True}  # the driver gives each student process namespaces of its own (`inside/apart.py`)
MAX_CHANNEL_BYTES = 64 * 1024 * 1024  # everything the driver sends back: what the grader holds at most
MAX_ERROR_CHARS = 300  # of a student exception's message, in a report
MAX_RESTARTS = 3
# each check that compares a cost case's form runs this often, each run at a place of its own among the student's
# cost runs, and every run is judged (a case fails if it failed once): a process that reads what earlier runs left
# on the host (a log kept in the page cache: blind attacks19) knows it is measured only once every comparing run is
# behind it, which with n cost runs comes in 1 draw in C(n + 2, 2) (1 in 10 at the hybrid's 3, fewer in the basics)
COMPARING_RUNS = 2
CHECKS_PER_RUN = 150  # checks in one sandboxed run at most: a run holds every student process's pipes from its start
APART_REFUSED: list[bool] = []  # [True] once a run's driver said the kernel refused `inside/apart.py` (this process)
# (4 descriptors each, under the run's RLIMIT_NOFILE of 1024)


@dataclass(frozen=True)
class PlannedCase:
    id: str
    spec: CheckSpec
    case: Case | costs.CostCase
    twin_of: str = ""  # a cost case's twin (`costs.twin`): that cost case's id ...
    twin_probe: str = ""  # ... and its probe, which the twin runs (its check, the comparing one, judges it)
    short_twin_of: str = ""  # a cost case's short twin (`costs.twin(short=True)`): that cost case's id (it runs
    # ``twin_probe`` too, and is an ordinary compared case: a failure there is the form failing where compared)
    gate_twin_of: str = ""  # ... and the short twin of its call at the gated items' settings (`costs.at_gate`)
    runs_in: str = ""  # the check whose process runs it, where not its own (a gate twin: `CostCase.gate_twin_among`)

    @property
    def probe(self) -> str:
        return self.twin_probe or self.spec.probe

    @property
    def group(self) -> str:
        """The check whose student process runs it (one process a check): its own, or ``runs_in``."""
        return self.runs_in or self.spec.name

    @property
    def is_twin(self) -> bool:
        """A cost case's twin of any kind: its failure is not the form failing where it is compared."""
        return bool(self.twin_of or self.short_twin_of or self.gate_twin_of)


@dataclass(frozen=True)
class CheckRun:
    """Outcomes of every case, plus what the grader noticed on the way."""

    outcomes: tuple[CaseOutcome, ...]
    notes: tuple[str, ...]
    isolation: tuple[str, ...]
    seconds: float
    import_hung: bool = False  # importing the student's modules never finished
    peak_memory_mb: float = 0.0
    cpu_s: float = 0.0  # CPU time of the sandboxed process trees, restarts included
    apart_refused: bool = False  # the run was to set each check's process apart and the kernel refused
    cost_cpu_s: float = 0.0  # of ``cpu_s``: the student's cost runs (every length, every measurement again)


def plan(tree: Path) -> list[PlannedCase]:
    """Every case of every check, in a fixed order (check name, then generation order).
    Made once per bundle (keyed by the verdicts file and its mtime): a batch reuses it."""
    verdicts = (tree / "hidden" / "verdicts.py").resolve()
    stamp = verdicts.stat().st_mtime_ns if verdicts.is_file() else 0
    with _PLAN_LOCK:  # one thread makes the plan, the others reuse it
        return _plan(str(verdicts.parent.parent), stamp, draws.key())


_PLAN_LOCK = threading.Lock()


@functools.lru_cache(maxsize=8)
def _plan(tree: str, stamp: int, drawn: str) -> list[PlannedCase]:  # drawn: the inputs' draw (`draws.key`)
    tree = Path(tree)
    specs = load_checks(tree / "hidden")
    by_check = {name: [PlannedCase(f"{name}-{n:03d}", spec, case) for n, case in enumerate(spec.cases())]
                for name, spec in sorted(specs.items())}
    measured = [p for name in sorted(by_check) for p in by_check[name]
                if isinstance(p.case, costs.CostCase) and p.case.compared_by in by_check]
    # in an order drawn for this submission: no table of the compared calls' sequence, made from the hidden source
    # (or the labels of a report), foresees it; nor of the gated items' calls, among which a gate twin stands (a call
    # out of their sequence would be the twin: blind attacks30)
    shuffled = {p.case.compared_by for p in measured} | {name for p in measured for name in p.case.gate_twin_among}
    for name in sorted(shuffled & set(by_check)):
        cases = by_check[name]  # (blind attacks13's case script)
        by_check[name] = [cases[i] for i in draws.order(name, len(cases))]
    for p in measured:
        unknown = [name for name in p.case.gate_twin_among if name not in by_check]
        if unknown:
            raise ValueError(f"cost case {p.case.label!r} of {p.spec.name}: gate_twin_among names {unknown[0]!r}, "
                             "which is not one of the checks")
        _add_twin(p, by_check[p.case.compared_by], specs[p.case.compared_by],
                  {name: (specs[name], by_check[name]) for name in p.case.gate_twin_among})
    return [p for name in sorted(by_check) for p in by_check[name]]


def _add_twin(p: PlannedCase, cases: list[PlannedCase], compared: CheckSpec,
              gated: dict[str, tuple[CheckSpec, list[PlannedCase]]] | None = None) -> None:
    """The cost case ``p``'s twin (`costs.twin`) among the comparing check's ``cases``, at a place drawn from the
    grader's secret (`draws.place`: the same for the model's runs and every student's); the cost runs hand the
    cost case over where the twin stands (`_companions`), after the cases before it. Its gate twins stand one among
    the cases of each ``gated`` check (``CostCase.gate_twin_among``: {name: (its spec, its cases)}), each run in that
    check's process with that check's probe and judged as the comparing check's case; one among ``cases`` without."""
    at = draws.twin(p.id)  # its length, per submission; its settings and inputs the measured call's
    twin = PlannedCase(f"{compared.name}-{len(cases):03d}", compared, costs.twin(p.case, draws.measured(), at),
                       twin_of=p.id, twin_probe=p.spec.probe)
    cases.insert(draws.place(twin.id, len(cases) + 1), twin)
    short = PlannedCase(f"{compared.name}-{len(cases):03d}", compared,
                        costs.twin(p.case, draws.measured(), at, short=True), short_twin_of=p.id,
                        twin_probe=p.spec.probe)
    cases.insert(draws.place(short.id, len(cases) + 1), short)
    # the call measured again where the gated items are judged, over a few dozen tokens
    if not gated:
        there = costs.gate_twin(p.case, draws.measured(), at)
        if there is not None:
            gate = PlannedCase(f"{compared.name}-{len(cases):03d}", compared, there, gate_twin_of=p.id,
                               twin_probe=p.spec.probe)
            cases.insert(draws.place(gate.id, len(cases) + 1), gate)
        return
    for among, (spec, theirs) in gated.items():
        there = costs.gate_twin(p.case, draws.measured(), at, among)
        if there is None:
            return
        # (its id: not one of the comparing check's, nor another gate twin's)
        number = sum(1 for _, listed in gated.values() for q in listed if q.spec.name == compared.name)
        gate = PlannedCase(f"{compared.name}-g{number:03d}", compared, there, gate_twin_of=p.id, twin_probe=spec.probe,
                           runs_in=among)
        theirs.insert(draws.place(gate.id, len(theirs) + 1), gate)


def _job(tree: Path, planned: list[PlannedCase], config: AssignmentConfig, unsandboxed: bool,
         case_timeout: float | None = None) -> bytes:
    """What the driver reads on stdin: the job (with the probes' source), then one message per case; the checks
    in an order drawn for this submission (`draws.order`), each check's cases together and in their order, so
    the check that runs just before a comparing check, whose process may leave a mark on the host for the next
    (blind attacks16: names looked up and cached), is no table's."""
    names = list(dict.fromkeys(p.group for p in planned))
    order = [names[i] for i in draws.order("\0checks", len(names))]  # (no check is named so)
    by_check = {name: [p for p in planned if p.group == name] for name in order}
    return _job_bytes(tree, config, [(p.id, p.probe, p.case.inputs, p.group) for name in order
                                     for p in by_check[name]], case_timeout or config.limits.case_timeout_s,
                      unsandboxed)


def _room(unsandboxed: bool) -> dict | None:
    """What the driver sets each student process up with (`inside/apart.py`): namespaces of its own, a fresh /tmp
    and copy of the submission's folder of the run's sizes, and the filter it cannot undo; None unsandboxed."""
    if unsandboxed or not sandbox.sandbox_available():
        return None
    program = seccomp.filter_bytes(sockets=CHECK_ROOM["sockets"]) if seccomp.supported() else b""
    return {"tmp_mb": CHECK_ROOM["tmp_mb"], "disk_mb": CHECK_ROOM["max_disk_mb"], "folder": "/submission",
            "seccomp": program.hex()}


def _job_bytes(tree: Path, config: AssignmentConfig, cases: list[tuple[str, str, dict, str]], case_timeout: float,
               unsandboxed: bool, modules: tuple[str, ...] | None = None) -> bytes:
    """The job, then each case (id, probe, inputs, group): the driver answers each group of cases (one check's)
    in a fresh child, so what one check's cases leave behind in the student's process (a class attribute, a
    module-level cache, a seeded generator) cannot change another check's verdict; each child in namespaces of
    its own (``room``), so none can tell how many came before it."""
    limits = config.limits
    # the same header for every run of a bundle (what the student's process inherits from the driver): the count
    # of cases is an end message, each case's time limit travels with it and stays with the driver
    header = {"modules": list(config.modules if modules is None else modules), "submission": "/submission",
              "probes": (tree / "hidden" / "probes.py").read_text(encoding="utf-8"),
              "import_timeout": limits.case_timeout_s, "max_result_bytes": MAX_RESULT_BYTES,
              "max_restarts": MAX_RESTARTS, "room": _room(unsandboxed),
              # the student processes a run may need (`inside/spawner.py` makes their pipes first): one per check
              # and restart; the bundle's, not the run's (the header is the same for every run of a bundle)
              "children": min(len({p.spec.name for p in plan(tree)}), CHECKS_PER_RUN) + MAX_RESTARTS + 2}
    parts = [channel.encode(header)]
    for case_id, probe, inputs, group in cases:
        arrays, body = case_arrays(inputs)
        scalars = {k: v for k, v in inputs.items() if not isinstance(v, (np.ndarray, Seeded))}
        seeded = [{"key": k, "seed": v.seed, "shape": list(v.shape), "scale": v.scale,
                   **({"stream": True} if v.stream else {})} for k, v in inputs.items() if isinstance(v, Seeded)]
        parts.append(channel.encode({"id": case_id, "probe": probe, "scalars": scalars, "arrays": arrays,
                                     "group": group, "timeout": case_timeout, **({"seeded": seeded} if seeded else {})},
                                    body))
    parts.append(channel.encode({"end": True}))
    return b"".join(parts)


def case_arrays(inputs: dict) -> tuple[list[dict], bytes]:
    """A case's arrays as the driver hands them on to the student's process as they are (`driver.for_child`):
    each one's key, dtype, count, offset and shape, and their bytes one after another (C order, native). Arrays
    named by seed (`Seeded`) are not among them: the driver makes those (`driver.with_seeded`) and packs them after."""
    meta, parts, offset = [], [], 0
    for key, value in inputs.items():
        if not isinstance(value, np.ndarray):
            continue
        array = np.ascontiguousarray(value, dtype=value.dtype.newbyteorder("="))
        meta.append({"key": key, "dtype": array.dtype.str, "count": int(array.size), "offset": offset,
                     "shape": list(array.shape)})
        parts.append(array.tobytes())
        offset += array.nbytes
    return meta, b"".join(parts)


def _read_result(message: channel.Message) -> tuple[dict | None, str]:
    """A case's arrays and scalars as plain data, or (None, why not)."""
    try:
        got: dict = channel.arrays(message.header.get("arrays", []), message.body)
        for key, value in channel.scalars(message.header.get("scalars", {})).items():
            got.setdefault(key, value)
        return got, ""
    except channel.ChannelError as exc:
        return None, f"the result could not be read back as plain numbers ({exc})"


def _why_stopped(result: sandbox.RunResult, limits, disk_mb: int = sandbox.RunLimits.max_disk_mb) -> str:
    if result.channel_overflow:
        return messages.too_much_output(MAX_CHANNEL_BYTES) + " and was stopped"
    if result.disk_exceeded:
        return messages.disk_full(disk_mb)
    if result.memory_exceeded:
        return messages.over_memory(limits.memory_mb) + " and was stopped"
    if result.cpu_exceeded:
        return messages.over_cpu_time(limits.checks_timeout_s)
    if result.idle_timed_out:
        return messages.case_too_slow(limits.case_timeout_s)
    if result.timed_out:
        return f"the checks ran out of their {limits.checks_timeout_s:g} s time limit"
    return messages.exited_early(result.returncode)


def _error_text(error: object) -> str:
    if not isinstance(error, dict):
        return "raised an error"
    message = channel.text(error.get("message"), MAX_ERROR_CHARS) or "an error"
    where = channel.text(error.get("where"), 200)
    return f"raised {message}" + (f" at {where}" if where else "")


def _stopped_text(entry: dict, result: sandbox.RunResult, limits, timeout_s: float | None = None) -> str:
    """Why a case (or the import) has no answer, from the driver's account and the run's; ``timeout_s``: the case's
    time limit in that run (`case_limit_s`), the import's by default."""
    how = entry.get("stopped")
    if how == "timeout":
        return messages.case_too_slow(timeout_s or limits.case_timeout_s)
    if how == "too_large":
        return f"the result is larger than {MAX_RESULT_BYTES // 2**20} MB"
    if how == "died":
        if result.memory_exceeded and entry.get("signal") == 9:
            return messages.over_memory(limits.memory_mb) + " and was stopped"
        if "signal" in entry:
            return f"the process was killed by signal {channel.number(entry.get('signal')):g}"
        return messages.exited_early(f"{channel.number(entry.get('exit')):g}")
    if how == "garbled":
        return "its answer could not be read (something wrote into the driver's pipe)"
    if how == "forged":
        return "an answer arrived that the driver had not asked for yet (forged output; flagged for review)"
    return "it stopped for an unknown reason"


def run_checks(checks_tree: Path, submission: Path, *, unsandboxed: bool = False,
               config: AssignmentConfig | None = None, cancel=None, lanes: int = 1) -> CheckRun:
    """Judge every case of the hidden checks in ``checks_tree`` (the solution tree of a bundle) against the code
    in ``submission``: the ordinary cases in one sandboxed run, then each cost case length by length; the compared
    cases' inputs drawn for this submission's code (`draws.for_submission`). ``lanes`` 2: the ordinary runs go in
    a lane of their own beside the cost runs (`_with_costs`), for a grader with a core to spare (`lanes_for`);
    sandboxed only."""
    with draws.for_submission(_code_digest(submission)):
        return _run_checks(checks_tree, submission, unsandboxed=unsandboxed, config=config, cancel=cancel,
                           lanes=lanes)


def usable_cpus() -> int:
    """The CPUs this process may run on (a batch's default ``--jobs``, and what `lanes_for` shares out)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def lanes_for(gradings_at_once: int) -> int:
    """The lanes (`run_checks`) each of ``gradings_at_once`` gradings may use on this machine: 2 where the CPUs this
    process may run on give each grading two cores (one `grade submission`; a batch at ``--jobs 1`` on two
    cores), else 1: a batch that keeps every core busy with one grading each gains nothing from a second lane."""
    return 2 if usable_cpus() >= 2 * max(1, gradings_at_once) else 1


def _code_digest(submission: Path) -> bytes:
    """What the check runs see of ``submission``: every Python file under it and every folder (`_sandboxed` copies
    those: a folder without a Python file is there to see too, so code that behaves one way beside it and another
    without it is other code, with other inputs: blind attacks20)."""
    files = []
    for path in sorted(submission.rglob("*")):
        if "__pycache__" in path.parts or path.is_symlink():
            continue
        name = path.relative_to(submission).as_posix()
        if path.is_dir():
            files.append((name + "/", b""))
            continue
        if not (path.suffix == ".py" and path.is_file()):
            continue
        try:
            files.append((name, path.read_bytes()))
        except OSError:  # unreadable: the run reports it; the draw is for what could be read
            continue
    return draws.code_digest(files)


def _run_checks(checks_tree: Path, submission: Path, *, unsandboxed: bool, config: AssignmentConfig | None,
                cancel, lanes: int = 1) -> CheckRun:
    config = config or load_assignment(checks_tree)
    planned = plan(checks_tree)
    if not planned:
        return CheckRun((), (), (), 0.0)
    ordinary = [p for p in planned if isinstance(p.case, Case)]
    measured = [p for p in planned if isinstance(p.case, costs.CostCase)]

    runs = OrdinaryRuns(checks_tree, submission, ordinary, measured, config, unsandboxed, cancel)
    if not measured:
        while runs.pending():
            runs.run_next()
        return runs.judged()
    return _with_costs(runs, planned, measured, checks_tree, submission, config, unsandboxed, cancel, lanes)


class OrdinaryRuns:
    """The ordinary cases' sandboxed runs (`_ordinary_runs`), run one at a time (`run_next`: `_with_costs` puts
    each at its own drawn place among the cost runs), judged together (`judged`)."""

    def __init__(self, checks_tree: Path, submission: Path, ordinary: list[PlannedCase],
                 measured: list[PlannedCase], config: AssignmentConfig, unsandboxed: bool, cancel) -> None:
        self.tree, self.submission, self.ordinary = checks_tree, submission, ordinary
        self.config, self.unsandboxed, self.cancel = config, unsandboxed, cancel
        apart = _room(unsandboxed) is not None and not APART_REFUSED
        self.parts, self.runs = _ordinary_runs(ordinary, measured, apart), []
        limits = config.limits
        # the same room as a cost run (no sockets, the modules only, 4 MiB to write): a cost run looks like any
        # other check run from inside, so code cannot behave one way where it is measured and another where compared
        self.limits = sandbox.RunLimits(wall_s=limits.checks_timeout_s, idle_s=limits.case_timeout_s + 15,
                                        memory_mb=limits.memory_mb, max_channel_bytes=MAX_CHANNEL_BYTES,
                                        cpu_time_s=limits.checks_timeout_s, **CHECK_ROOM)
        self.comparing = {p.case.compared_by for p in measured if p.case.compared_by}  # (each alone in its runs)

    def pending(self) -> int:
        return len(self.parts) - len(self.runs)

    def import_failed(self) -> str:
        """Why importing the student's module failed (or hung) in a run so far; "" else."""
        return next((n for run in self.runs for n in run.notes if n.startswith("importing your module failed")), "")

    def run_next(self) -> None:
        part, failed = self.parts[len(self.runs)], self.import_failed()
        if failed:  # the same import in the next run: its cases are not checked either, and not waited for
            why = f"not checked, because {failed[:300]}."
            self.runs.append(CheckRun(tuple(CaseOutcome(p.spec.name, p.case.label, False, f"{p.spec.title}: {why}")
                                            for p in part), (), (), 0.0))
            return
        limits, timeout = self.limits, None
        if part[0].group in self.comparing:  # a cost case's form compared: no limit lower than a cost run's
            limits, timeout = comparing_run_limits(self.config.limits, self.limits), case_limit_s(self.config.limits)
        job = _job(self.tree, part, self.config, self.unsandboxed, timeout)
        result = _sandboxed(self.tree, self.submission, job, limits, unsandboxed=self.unsandboxed,
                            cancel=self.cancel, modules_only=True)
        self.runs.append(_judge(part, result, self.config.limits, limits, timeout))
        if self.runs[-1].apart_refused and not APART_REFUSED:  # (each comparing check alone in its run all the same)
            APART_REFUSED.append(True)
            log.warning("the kernel refused each check's process namespaces of its own: the other checks' processes "
                        "of a run can see one another (docs/authoring.md)")

    def judged(self) -> CheckRun:
        return _merged(self.parts, self.runs, self.ordinary)


def _ordinary_runs(ordinary: list[PlannedCase], measured: list[PlannedCase], apart: bool) -> list[list[PlannedCase]]:
    """The ordinary cases, by sandboxed run (in plan order; `_with_costs` draws their order and places).

    Each check that compares a cost case's form (``compared_by``: its cases hold the twin) runs in a run of its own,
    where its process is the run's first and only one, as the measured process is in that cost case's runs
    (`_companions`): nothing of the run came before either. Two processes of one run shared what the spawner
    handed them, and a mark a process leaves on the host (a page read, a name looked up, in a place named by what
    it shares) told the next one of the run that a process of its own run came before it (blind attacks18), which
    a cost run's process never saw. The other checks share one run (``apart``, a sandboxed grader: at most
    `CHECKS_PER_RUN` checks a run; the driver gives each check's process namespaces of its own, `inside/apart.py`,
    so nothing an earlier check's process did there, PIDs used, files written, is visible to it). Unsandboxed,
    a process of the shared run can read how many came before it (docs/authoring.md): no cost case's form is
    compared there. Each comparing check's run comes `COMPARING_RUNS` times (`_with_costs` places them)."""
    alone = sorted({p.case.compared_by for p in measured if p.case.compared_by})
    rest = [p for p in ordinary if p.group not in alone]
    names = list(dict.fromkeys(p.group for p in rest))
    size = CHECKS_PER_RUN if apart else max(len(names), 1)
    shared = [set(names[i:i + size]) for i in range(0, len(names), size)]
    parts = [[p for p in rest if p.group in run] for run in shared] + [
        [p for p in ordinary if p.group == name] for name in alone for _ in range(COMPARING_RUNS)]
    return [part for part in parts if part]


def _merged(parts: list[list[PlannedCase]], runs: list[CheckRun], ordinary: list[PlannedCase]) -> CheckRun:
    """Several runs' outcomes (run i judged ``parts[i]``) as one run's, in plan order: notes once each, times and
    CPU summed, the peak the largest."""
    if len(runs) <= 1:
        return runs[0] if runs else CheckRun((), (), (), 0.0)
    by_id: dict[str, CaseOutcome] = {}
    for part, run in zip(parts, runs):  # a case run more than once (`COMPARING_RUNS`): failed if it failed once
        for p, outcome in zip(part, run.outcomes):
            if p.id not in by_id or (by_id[p.id].passed and not outcome.passed):
                by_id[p.id] = outcome
    notes = tuple(dict.fromkeys(n for run in runs for n in run.notes))
    return CheckRun(tuple(by_id[p.id] for p in ordinary), notes, runs[0].isolation,
                    round(sum(r.seconds for r in runs), 3), any(r.import_hung for r in runs),
                    max(r.peak_memory_mb for r in runs), round(sum(r.cpu_s for r in runs), 3))


def _modules_only(folder: str, names: list[str]) -> list[str]:
    """`shutil.copytree`'s ignore for a cost run: Python modules and the folders that hold them, nothing else
    (a data file or a flood written by the author's run would be memory the run holds: tmpfs is charged)."""
    return [n for n in names if not (n.endswith(".py") or (Path(folder) / n).is_dir()) or n == "__pycache__"]


def _sandboxed(checks_tree: Path, code: Path, job: bytes, run_limits: sandbox.RunLimits, *, unsandboxed: bool,
               cancel, model: bool = False, modules_only: bool = False) -> sandbox.RunResult:
    """One run of the driver on ``job`` against the code in ``code`` (a copy of it; ``model``: the solution tree,
    without its hidden material, run with nothing else of this grader beside it: `sandbox.quiet`)."""
    with sandbox.scratch_dir("checks") as work:
        harness, scratch = work / "harness", work / "submission"
        harness.mkdir()
        for script in (DRIVER, *[DRIVER.with_name(n) for n in DRIVER_MODULES if DRIVER.with_name(n).is_file()]):
            shutil.copy(script, harness / script.name)
        for path in (harness, *harness.iterdir()):
            path.chmod(0o755 if path.is_dir() else 0o644)
        # the checks import modules only: the notebook stays out (in a cost run's charged scratch space it would
        # be memory the student's run holds at both lengths, a free pad against the growth bounds)
        skip = ("__pycache__", "*.ipynb", "hidden", "answer_key.yaml") if model else ("__pycache__", "*.ipynb")
        hide = shutil.ignore_patterns(*skip)

        def ignore(folder, names):
            return sorted(set(_modules_only(folder, names)) | set(hide(folder, names)))
        shutil.copytree(code, scratch, symlinks=False, ignore=ignore if modules_only else hide)
        return sandbox.run([sandbox.sandbox_python(), "-I", "/harness/driver.py"],
                           mounts=[sandbox.Mount(harness, "/harness"), sandbox.Mount(scratch, "/submission", True)],
                           cwd="/submission", env={"LRKIT_GRADING": "1"}, limits=run_limits,
                           unsandboxed=unsandboxed, stdin=job, channel=True, cancel=cancel, alone=model)


def _with_costs(ordinary: OrdinaryRuns, planned: list[PlannedCase], measured: list[PlannedCase],
                checks_tree: Path, submission: Path, config: AssignmentConfig, unsandboxed: bool,
                cancel, lanes: int = 1) -> CheckRun:
    """The ordinary cases' runs (``ordinary``) and the cost cases' runs, judged in plan order. Each ordinary run
    comes after as many of the student's cost runs as this grading's draw says (`draws.places`, afresh for each
    grading), each at a place of its own: what a run leaves on the host for the next (the page cache, the name cache:
    docs/authoring.md) then does not say whether the runs that compare a form came before the run that measures
    it, and a comparing check that runs `COMPARING_RUNS` times is all behind a cost run only by a long chance. The
    cost cases come in an order drawn afresh too (`draws.shuffled`): how many long calls came before says nothing
    of which form the next cost run measures.

    ``lanes`` 2: the ordinary runs go in a second lane (`_SecondLane`), beside the cost runs rather than between
    them: each still starts only once the cost runs its drawn place puts before it have ended, and overlaps the
    ones after it. A cost verdict is read from the run's own CPU time and memory (its cgroup), which a run beside it
    does not charge; a batch at ``--jobs 2`` already runs every cost run beside another grading's runs."""
    by_id: dict[str, CaseOutcome] = {}
    notes, stops, spent = [], [], [0.0, 0.0, 0.0]
    # (unsandboxed, every process of the grader's runs sees the others in /proc: runs side by side would tell a run
    # what runs beside it, so there they take turns)
    placed = _Placed(ordinary, sum(len(costs.student_runs(p.case)) for p in measured), 1 if unsandboxed else lanes)
    # ... and how this grader's runs start (`sandbox.warm.measured_as`): a student's runs are compared with the
    # model's measured alike, in this process and from the kept files
    runs_start = sandbox.warm.measured_as()
    stamp = (*_stamp(checks_tree), runs_start)

    def runner(p: PlannedCase) -> costs.Runner:  # the model's runs and the student's alike, after the companions
        return _alone_runner(p, checks_tree, submission, config, unsandboxed, cancel, notes, spent,
                             _companions(p, _compared(p, planned)), placed.before_student_run, stops)
    kept = model_costs.kept_for(checks_tree, unsandboxed, stamp, runs_start)
    # a cost case this very code passed before (this bundle, measured alike, on this machine: a resubmission that
    # changed only its notebook, a batch graded again) stands without its runs (`model_costs.Kept.passed_before`)
    code, reused = _code_digest(submission), 0
    if os.environ.get("LRKIT_KEEP_PASSES", "1") == "0":  # every cost case measured, whatever was measured before
        code = b""
    with placed:
        for p in [measured[i] for i in draws.shuffled(len(measured))]:  # (outcomes are kept by id, in plan order)
            stopped = ordinary.import_failed() or next(iter(stops), "")
            if stopped:
                by_id[p.id] = CaseOutcome(p.spec.name, p.case.label, False,
                                          f"{p.spec.title} [{p.case.label}]: not checked, because {stopped}.")
                continue
            case = costs.drawn(p.case, draws.measured())
            if kept is not None and code and kept.passed_before(p.spec.name, case, code):  # this code, bundle, machine
                by_id[p.id] = CaseOutcome(p.spec.name, case.label, True)
                reused += 1
                continue
            by_id[p.id] = costs.judge_cost(p.spec, case, runner(p), stamp, kept)
            if kept is not None and code and by_id[p.id].passed:
                kept.keep_pass(p.spec.name, case, code)
    run = placed.rest()
    by_id.update(zip((p.id for p in planned if isinstance(p.case, Case)), run.outcomes))
    by_id = _measured_where_gated(planned, measured, excuses_checked(planned, by_id), runner, stamp, kept, stops)
    if reused:
        notes.append(f"{reused} of the {len(measured)} cost cases were passed by this very code before (the same "
                     "Python files, bundle and machine): their verdicts stand without being measured again")
    return CheckRun(tuple(by_id[p.id] for p in planned), tuple(dict.fromkeys((*run.notes, *notes))), run.isolation,
                    round(run.seconds + spent[0], 3), run.import_hung, max(spent[2], run.peak_memory_mb),
                    round(run.cpu_s + spent[1], 3), cost_cpu_s=round(spent[1], 3))


class _Placed:
    """The ordinary runs at their drawn places among the student's ``cost_runs`` cost runs (`draws.places`):
    `before_student_run` before each of those, `rest` once the cost cases are done. With ``lanes`` 2 the ordinary
    runs go in a thread of their own (`_SecondLane`); used as a context manager around the cost runs, which the
    lane is told have all ended on the way out (or, where they raised, that it is to start no more runs)."""

    def __init__(self, ordinary: OrdinaryRuns, cost_runs: int, lanes: int) -> None:
        places = draws.places(len(ordinary.parts), cost_runs)
        ordinary.parts = [ordinary.parts[i] for _, i in places]
        self.ordinary, self.places, self.runs_so_far = ordinary, [place for place, _ in places], 0
        self.lane = _SecondLane(ordinary, self.places) if lanes > 1 and ordinary.pending() else None

    def before_student_run(self) -> None:
        if self.lane is not None:  # the runs so far have ended: the second lane's runs placed after them may start
            self.lane.ended(self.runs_so_far)
        else:
            while self.ordinary.pending() and self.places[len(self.ordinary.runs)] <= self.runs_so_far:
                self.ordinary.run_next()
        self.runs_so_far += 1

    def __enter__(self) -> _Placed:
        return self

    def __exit__(self, kind, error, trace) -> None:
        if self.lane is not None:
            self.lane.finish(abandon=error is not None)

    def rest(self) -> CheckRun:
        """The ordinary runs not run yet, run; all of them judged."""
        while self.ordinary.pending():
            self.ordinary.run_next()
        return self.ordinary.judged()


class _SecondLane:
    """The ordinary runs (``ordinary``, in their drawn order) in a thread of their own: run i starts once
    ``places[i]`` of the student's cost runs have ended (`ended`), or all of them have (`finish`, which waits for
    the lane and raises what it raised)."""

    def __init__(self, ordinary: OrdinaryRuns, places: list[int]) -> None:
        self.ordinary, self.places = ordinary, places
        self.cost_runs_ended, self.all_ended, self.abandoned, self.error = 0, False, False, None
        self.moved = threading.Condition()
        self.thread = threading.Thread(target=self._run, name="checks-second-lane", daemon=True)
        self.thread.start()

    def _may_start(self) -> bool:
        return self.all_ended or self.places[len(self.ordinary.runs)] <= self.cost_runs_ended

    def _run(self) -> None:
        try:
            while self.ordinary.pending():
                with self.moved:
                    self.moved.wait_for(self._may_start)
                    if self.abandoned:
                        return
                self.ordinary.run_next()
        except BaseException as exc:  # (raised again in the grading's own thread by `finish`)
            self.error = exc

    def ended(self, cost_runs: int) -> None:
        with self.moved:
            self.cost_runs_ended = max(self.cost_runs_ended, cost_runs)
            self.moved.notify_all()

    def finish(self, abandon: bool = False) -> None:
        with self.moved:
            self.all_ended, self.abandoned = True, abandon
            self.moved.notify_all()
        self.thread.join()
        if self.error is not None and not abandon:
            raise self.error


def _compared(p: PlannedCase, planned: list[PlannedCase]) -> list[PlannedCase]:
    """The cases of the check that compares cost case ``p``'s form, in plan order (its twins among them)."""
    return [q for q in planned if isinstance(q.case, Case) and q.group == p.case.compared_by]


def _measured_where_gated(planned: list[PlannedCase], measured: list[PlannedCase], by_id: dict[str, CaseOutcome],
                          runner: Callable[[PlannedCase], costs.Runner], stamp, kept,
                          stops: list[str]) -> dict[str, CaseOutcome]:
    """``by_id`` with each excuse that stands measured again where the gated items are judged (`costs.at_gate`,
    `costs.judge_elsewhere`), read against its check's gate twins: each of its cost cases' (one sequence and 128),
    so a form wrong on one only (a width switch) is not wrong everywhere."""
    out = dict(by_id)
    for p in measured:
        there = costs.at_gate(p.case, draws.measured()) if out[p.id].excused_by and not stops else None
        if there is None:
            continue
        mine = {q.id for q in measured if q.spec.name == p.spec.name}
        gate_twins = tuple(out[q.id] for q in planned if q.gate_twin_of in mine)
        out[p.id] = costs.judge_elsewhere(p.spec, out[p.id], there, runner(p), stamp, kept, gate_twins)
    return out


def excuses_checked(planned: list[PlannedCase], by_id: dict[str, CaseOutcome]) -> dict[str, CaseOutcome]:
    """``by_id`` with each excused cost case (``excused_by``: it raised or was wrong where it was measured) whose
    short twin did not fail the same way made a length switch: the same call over a few dozen tokens at the same
    settings was right (or wrong where the measured run raised, or the reverse), so the form does not fail at those
    settings as it failed where measured (an honest bug, charged to its own items) but from some length on, and it
    fails the gate as a slow form does (blind attacks22: a slow form, wrong or raising only past the lengths it is
    compared at, beside a bug elsewhere in its comparing check or wrong at the measured settings, kept the items that
    require it to be efficient)."""
    out, specs = dict(by_id), {p.id: p.spec for p in planned}
    for q in (q for q in planned if q.short_twin_of):
        cost, short = out[q.short_twin_of], out[q.id]
        same_way = short.raised if cost.raised else costs.wrong_result(short)  # (a stopped twin is neither)
        if not cost.excused_by or same_way:
            continue
        there = ("its outputs are right" if short.passed else "it raises instead" if short.raised else
                 "it is wrong instead" if costs.wrong_result(short) else "it gives no result instead")
        said = costs.added(cost.message, f"Over a few dozen tokens at the same settings {there}: a form that fails "
                                         "this way only from some length on is judged as one that is not efficient.")
        out[q.short_twin_of] = dataclasses.replace(cost, excused_by="", cause=specs[q.short_twin_of].cause,
                                                   message=said)
    return out


def _stamp(checks_tree: Path) -> tuple[str, int]:
    """What the model solution's measurements are kept under: the bundle's checks and their version."""
    verdicts = (checks_tree / "hidden" / "verdicts.py").resolve()
    return str(verdicts), verdicts.stat().st_mtime_ns if verdicts.is_file() else 0


def _companions(p: PlannedCase, compared: list[PlannedCase]) -> list[tuple]:
    """A cost run's cases before the cost case: the comparing check's cases (``compared``, in their order, its
    twins among them) that stand before the cost case's twin (`_add_twin`), for the model and every student alike (a
    case that crashes or hangs the student's process does so here too, and the driver starts the next process as
    the comparing run does: blind attacks15 told a cost run by a case it dropped); all in one process, as the
    comparing check's own run has them, and then the cost case where its twin stood.

    From inside, then, the run that measures a form is the run that compares it, up to the twin: the same calls
    before it, and at the twin's place the same probe with the same arguments, settings and keep-or-drop of the
    outputs (only the length differs: docs/authoring.md, "What no measurement closes"). Their answers are not
    judged again. The place is the model's and every student's: what the companions leave in the heap weighs the
    same in the model's runs and the student's, at both lengths. A cost case without a comparing check has none."""
    twin = next((i for i, q in enumerate(compared) if q.twin_of == p.id), None)
    ahead = {q.id for q in compared[:twin]} if twin is not None else set()
    group = p.spec.name  # one child for the run
    return [(q.id, q.probe, q.case.inputs, group) for q in compared if q.id in ahead]


def cost_run_limits(limits) -> sandbox.RunLimits:
    """A cost run's limits (`_alone_runner`; its CPU time capped lower per run by the form's work cap)."""
    return sandbox.RunLimits(wall_s=2 * limits.case_timeout_s + 30, memory_mb=limits.memory_mb,
                             max_channel_bytes=MAX_CHANNEL_BYTES, cpu_time_s=limits.case_timeout_s, **CHECK_ROOM)


def case_limit_s(limits) -> float:
    """A case's time limit in a cost run, and in every run of a check that compares a cost case's form."""
    return 2 * limits.case_timeout_s


def comparing_run_limits(limits, shared: sandbox.RunLimits) -> sandbox.RunLimits:
    """The limits of a run that compares a cost case's form: each at least the cost run's (`cost_run_limits`). A
    limit the cost run has and the comparing run has not is one a process can outlive to learn where it is: blind
    attacks22 slept 37 s at the twin's first step, killed at the ordinary 30 s where it was compared and awake in
    the cost run's 60 s, then ran the efficient step there only. Here a process that outlives a limit in a cost run
    outlives it where it is compared too, with the same time per case (`case_limit_s`), and no idle limit, as a cost
    run has none: a process restarted after a lost case imports without a word on the channel, and an import and a
    case in silence outlasted an idle limit of one case's time (blind attacks23). The driver's time limits per case
    and per import, and the run's wall and CPU limits, still bound it."""
    cost = cost_run_limits(limits)
    return dataclasses.replace(shared, wall_s=max(shared.wall_s, cost.wall_s), idle_s=cost.idle_s,
                               cpu_time_s=max(shared.cpu_time_s, cost.cpu_time_s))


def _alone_runner(p: PlannedCase, checks_tree: Path, submission: Path, config: AssignmentConfig,
                  unsandboxed: bool, cancel, notes: list[str], spent: list[float], before: list[tuple],
                  before_student_run: Callable[[], None], stops: list[str]) -> costs.Runner:
    """`costs.Runner` for one cost case: each call is one sandboxed run (the student's code, or the model
    solution's) of the probe after the comparing check's cases before its twin (``before``: `_companions`),
    measured by the run's own cgroup after it ended. ``before_student_run()`` is called before each of the
    student's runs; a student's run whose import failed adds why to ``stops``."""
    limits = config.limits
    run_limits = cost_run_limits(limits)

    def run(whose: str, inputs, cpu_limit_s: float | None) -> costs.RunAnswer:
        model = whose == "model"
        if not model:
            before_student_run()
        cases = before + [(p.id, p.spec.probe, dict(inputs), p.spec.name)]
        job = _job_bytes(checks_tree, config, cases, case_limit_s(limits), unsandboxed)
        capped = run_limits if cpu_limit_s is None else dataclasses.replace(
            run_limits, cpu_time_s=min(cpu_limit_s, run_limits.cpu_time_s))
        result = _measured_run(checks_tree, checks_tree if model else submission, job, capped,
                               unsandboxed=unsandboxed, cancel=cancel, model=model)
        if not model:
            spent[0] += result.wall_s
            spent[1] += result.cpu_s
            spent[2] = max(spent[2], result.peak_memory_mb)
        if result.cpu_exceeded and cpu_limit_s is not None:  # stopped at the cap (or the case's own limit)
            return costs.RunAnswer(None, "", result.peak_memory_bytes, capped.cpu_time_s, over_cpu=True)
        got, why, raised = _alone_answer(p, result, limits, capped, [] if model else notes)
        if not model and why.startswith("importing your module failed"):
            stops.append(why)
        return costs.RunAnswer(got, why, result.peak_memory_bytes, result.cpu_s, raised)
    return run


def _measured_run(checks_tree: Path, code: Path, job: bytes, limits: sandbox.RunLimits, *, unsandboxed: bool, cancel,
                  model: bool) -> sandbox.RunResult:
    """A cost run, started as this grader's runs start (`sandbox.warm.measured_as`, under which the model's runs
    were measured): one that fell back to a cold start (the template failed to fork it: torch imported in the run,
    hundreds of MiB and a second of CPU more) is run again, once, from the template that replaced it."""
    result = _sandboxed(checks_tree, code, job, limits, unsandboxed=unsandboxed, cancel=cancel, model=model,
                        modules_only=True)
    if not unsandboxed and sandbox.warm.enabled() and "zygote" not in result.isolation:
        log.warning("a cost run started cold where the model's were warm: measured again")
        result = _sandboxed(checks_tree, code, job, limits, unsandboxed=unsandboxed, cancel=cancel, model=model,
                            modules_only=True)
    return result


def _alone_answer(p: PlannedCase, result: sandbox.RunResult, limits, run_limits,
                  notes: list[str]) -> tuple[dict | None, str, bool]:
    """The one case's answer in a run of it alone, or (None, why there is none); and whether the student's
    code raised (not a stop, not a wrong result)."""
    if result.cpu_exceeded:
        return None, messages.over_cpu_time(run_limits.cpu_time_s), False
    decoded, problem = channel.decode(result.channel)
    first = decoded[0].header if decoded else {}
    if first.get("event") != "import":
        return None, f"importing your module failed: {_why_stopped(result, limits)}", False
    if first.get("ok") is not True:
        return None, _import_failure(first, result, limits), False
    if _tampered(first):  # at the import: what it replaced serves every case of the run, the measured one too
        return None, f"not trusted: {_tampered(first)} (flagged for review)", False
    for message in decoded:
        entry = message.header
        _tamper_notes(entry.get("tampered"), notes)
        if entry.get("event") != "case":
            continue
        if _tampered(entry):  # in any case of the measured run
            return None, f"not trusted: {_tampered(entry)} (flagged for review)", False
        if _introspected(entry):
            return None, f"not trusted: {_introspected(entry)} (flagged for review)", False
        if entry.get("case") != p.id:
            continue
        if "error" in entry:
            return None, _error_text(entry["error"]), True
        if "stopped" in entry:
            return None, _stopped_text(entry, result, limits, case_limit_s(limits)), False
        return (*_read_result(message), False)
    why = f"the driver's messages could not be read ({problem})" if problem else _why_stopped(result, limits)
    return None, why, False


def _judge(planned: list[PlannedCase], result: sandbox.RunResult, limits, run_limits,
           timeout_s: float | None = None) -> CheckRun:
    """Every case's verdict from what the driver sent (hostile data) and how the run ended."""
    decoded, problem = channel.decode(result.channel)  # not `messages`: that is the module of sentences
    verdict: dict[str, CaseOutcome] = {}
    notes: list[str] = []
    by_id = {p.id: p for p in planned}
    import_hung, stop_reason = False, ""
    first = decoded[0].header if decoded else {}
    if first.get("event") != "import":
        stop_reason = f"importing your module failed: {_why_stopped(result, limits)}"
        import_hung = result.timed_out or result.idle_timed_out
        notes.append(stop_reason)
    elif first.get("ok") is not True:
        stop_reason = _import_failure(first, result, limits)
        import_hung = first.get("stopped") == "timeout"
        notes.append(stop_reason)
    for message in decoded:
        entry = message.header
        _tamper_notes(entry.get("tampered"), notes)
        if entry.get("event") == "stopped" and not stop_reason:
            stop_reason = (_import_failure(entry, result, limits) if entry.get("why") == "import"
                           else f"the checks were stopped after {MAX_RESTARTS + 1} cases that hung, crashed or "
                                "answered garbage")
        case_id = entry.get("case")
        p = by_id.get(case_id) if entry.get("event") == "case" and isinstance(case_id, str) else None
        if p is None or p.id in verdict:
            continue
        if _introspected(entry):
            note = f"{_introspected(entry)} (flagged for review; a cost run that does so earns nothing)"
            if note not in notes:
                notes.append(note)
        if _tampered(entry):
            verdict[p.id] = CaseOutcome(p.spec.name, p.case.label, False, f"{p.spec.title} [{p.case.label}]: not "
                                        f"trusted: {_tampered(entry)} (flagged for review).", cause=_tampered(entry))
        elif "error" in entry:
            verdict[p.id] = judge_case(p.spec, p.case, None, _error_text(entry["error"]))
        elif "stopped" in entry:
            verdict[p.id] = judge_case(p.spec, p.case, None, _stopped_text(entry, result, limits, timeout_s))
        else:
            got, why = _read_result(message)
            verdict[p.id] = judge_case(p.spec, p.case, got, why)
        if entry.get("disk_full") is True and not verdict[p.id].passed:
            note = messages.disk_full(run_limits.max_disk_mb, run_limits.tmp_mb)
            if note not in notes:
                notes.append(note)
    if problem and not stop_reason:
        stop_reason = f"the driver's messages could not be read ({problem})"
        notes.append(stop_reason)
    reason = stop_reason or (_why_stopped(result, limits) if len(verdict) < len(planned) else "")
    for p in planned:
        if p.id not in verdict:
            verdict[p.id] = CaseOutcome(p.spec.name, p.case.label, False,
                                        f"{p.spec.title}: not checked, because {reason[:300]}.")
    isolation = result.isolation + (("apart",) if first.get("apart") is True else ())  # `inside/apart.py`
    # (the twins excuse nothing: failing at the measured call's own settings only is a switch, blind attacks23)
    outcomes = tuple(dataclasses.replace(verdict[p.id], twin=True) if p.is_twin else verdict[p.id] for p in planned)
    return CheckRun(outcomes, tuple(notes), isolation, result.wall_s,
                    import_hung, result.peak_memory_mb, round(result.cpu_s, 3), first.get("apart") is False)


def _import_failure(entry: dict, result: sandbox.RunResult, limits) -> str:
    if "error" in entry:
        return f"importing your module failed: {_error_text(entry['error'])}"
    return f"importing your module failed: {_stopped_text(entry, result, limits)}"


def _tampered(entry: dict) -> str:
    """Why a case's answer cannot be trusted: what the student's code replaced before it ran."""
    names = [channel.text(n, 60) for n in entry.get("tampered") or [] if isinstance(n, str)][:5]
    if entry.get("stopped") == "forged":
        names.append("an answer written ahead of its case")
    return ("your code replaced or hooked " + ", ".join(names) + ", which the checks rely on") if names else ""


def _introspected(entry: dict) -> str:
    """What the student's code read of the process while the case ran: the interpreter's frames (whoever called
    it), every object the collector holds, a signal handler (handed the frame it interrupts). A form that
    looks for who called it can be one thing where it is measured and another everywhere else."""
    names = [channel.text(n, 40) for n in entry.get("introspected") or [] if isinstance(n, str)][:5]
    if not names:
        return ""
    return ("your code read the interpreter's call stack or objects (" + ", ".join(names) + ") while the checks "
            "ran it: a graded function computes its outputs from its arguments, not from who called it")


def _tamper_notes(names: object, notes: list[str]) -> None:
    for name in names[:20] if isinstance(names, list) else []:
        note = (f"tampering detected: {channel.text(name, 60)} was replaced or hooked by your code "
                "(flagged for review)")
        if isinstance(name, str) and note not in notes:
            notes.append(note)
