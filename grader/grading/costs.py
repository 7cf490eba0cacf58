"""Cost verdicts, computed in the grader from what the grader measured (docs/authoring.md, "What a cost
check may trust").

A `CostCase` names a probe and two lengths, a short one and a long one (1024 and 8192 tokens, say). Each
length runs alone in a sandboxed run of its own (a fresh process in a fresh cgroup, nothing else in it),
and the grader reads, after the run and from outside it, the run's memory peak as the kernel charged it
(anonymous memory, shmem, memfd and tmpfs pages, whichever process of the run held them) and its CPU time
(every process of the run, dead and re-parented ones included). The probe returns the form's outputs and
nothing else; they are compared with the float64 reference at the same length, so a cost counts only for
correct work. The model solution runs the same probe at the same lengths, measured the same way (once per
bundle and machine, the least of two runs, kept for the next graders: `model_costs`), and the verdict is about
the student's *excess* over it:

* work, a cap: at each length the run's CPU time stays under ``WORK_CAP`` × the model's at that length (plus
  `MIN_CPU_EXCESS_S`). This is the bound nothing can pad its way past: burning CPU only adds to a
  measurement, so work that grows like L² is over the cap at the long length whatever the short run did. The
  cases are sized so that quadratic work is several times the cap there and an honest loop (a slower Python
  loop, a loop over heads) several times under it. The cap is also the run's CPU-time limit: quadratic work
  is stopped at the cap, not waited for.
* work, growth: the excess CPU time may grow by at most ``GROWTH_MARGIN`` × the length ratio from the short
  run to the long one (linear work grows by the ratio, quadratic work by its square), beyond a floor
  (`MIN_CPU_EXCESS_S`, or the model's own long run) that noise and a slower honest loop stay under;
* memory of a form over the whole sequence (``grows="linear"``): the excess at the long length stays under a
  quarter of the L × L float64 matrices a parallel form builds (one per sequence), and grows like the work
  (beyond 1/16 of one such matrix, or the model's own growth between the lengths: another copy of the
  outputs is not quadratic); on one sequence (``sequences=1``, where an L × L matrix shared by every sequence is
  measured) the excess at the long length stays under 1/16 of one matrix, whatever the short run held (a buffer
  held at both lengths lifted a bound read from the short run past a bool mask: blind attacks32);
* memory of a decoding step (``grows="steps"``): at the long length it holds at most `STEP_MEMORY_BYTES` more
  than the model (an absolute bound: a history kept, preallocated or padded at both lengths, is over it), and
  its excess does not grow with the number of steps (by at most `STEP_GROWTH_BYTES`: a history kept small, in
  int8 or float16, under the absolute bound, still grows). Its long length is always measured twice.

Of several runs at one length, CPU time is the least of them (load only ever adds to it) and memory the most
(a history kept in some runs only is kept).

Cost runs may not open sockets (kernel socket buffers are memory a cgroup v1 host does not charge to the run).

A run that fails a work bound is measured again (at most `RUNS` times, the least of each kept) before the
verdict: load on the machine only ever adds to a measurement. The long run is measured again only as far as
its bound (its CPU-time limit is the bound it must meet), so quadratic work is not waited for twice; a memory
bound failed is not measured again (memory is the most of the runs: another run cannot lower it). Nothing
here imports student code, and nothing the verdict uses comes from the student's process but the outputs.
"""
from __future__ import annotations

import dataclasses
import logging
import threading
from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

from grader.grading.checks import Case, CheckSpec, Seeded, judge_case
from grader.results import CaseOutcome

log = logging.getLogger(__name__)

LINEAR, STEPS = "linear", "steps"
GROWTH_MARGIN = 2.0  # × the length ratio f: linear grows by f, quadratic by f²; 2f sits between with room
MIN_CPU_EXCESS_S = 0.3  # excess CPU time at the long length that is never judged (noise, a slower loop)
WORK_CAP = 6.0  # × the model's CPU time at the same length: no run may take more (see the module's docstring).
# Honest forms measured at most ~2.5 × the model (blind rounds 5-9); 16 × let quadratic work with a small constant
# (a prefix re-read every 8 tokens, chunk summaries re-summed: 7-11 ×) pad its way past the growth bound (attacks5)
CAP_FLOOR_S = 1.0  # ... plus this much (start-up noise on a loaded machine)
STEP_MEMORY_BYTES = 12 << 20  # a decoding run may hold at most this more than the model's, at either length:
# honest steps measured within 3 MiB (torch's lazy imports paged in by the warm start), plus the 8 MiB a check run
# may write (4 MiB in /tmp, 4 in its copy: tmpfs pages the run holds; `adversarial/disk_flood` fills them); a
# float16 history pre-touched at both lengths held 21 MiB (blind attacks5), an int8 one in the hybrid 16 MiB
STEP_GROWTH_BYTES = 6 << 20  # ... and its excess may grow by at most this from the short length to the long one:
# a fixed-size state does not grow with the steps (honest steps measured within ~3 MiB of the model's growth:
# allocator noise over thousands of steps); a history in a small dtype under the absolute bound (int8,
# float16: blind attacks4) grows by 11-28 MiB at the kits' sizes
STEP_LONG_RUNS = 2  # a decoding case's long length is always measured this often (memory: the most of them)
RUNS = 3  # measurements of a student's run at most (a work bound failed: measured again, the least kept)
RECHECK_SLACK_S = 0.1  # a long run measured again is stopped this far past the bound it must meet
MODEL_RUNS = 2  # measurements of the model solution's run (once per bundle and machine: `model_costs`)

ONLY_CORRECT = "(a cost counts only for correct outputs)"
# The float64 references of the cost cases are computed in the grader's own process, when first needed (the
# checks cache them): a long one (128 sequences of 16384 tokens) holds ~300 MB while it is made, and two made at
# once by a batch's two threads took the grader 708 MB over where it started (the adversarial batch's memory cap
# is 512 MB). One at a time: the second thread waits for the first, then finds it cached or makes its own.
_REFERENCES = threading.Lock()  # the one rule's words in a failing case's message


def charged_by_rule(messages: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Of the items a submission lost (item id -> its messages), the one cost item lost by the rule that a cost
    counts only for correct work: a bug that makes a form wrong costs that form's cost item by the rule, not by
    a cascade, and the fairness promise does not hold it against the bug (the mutant budget, the corpus
    tables). At most one: a bug that sinks several cost items is a cascade after all. An item that says the rule
    in its own words (a cost check of its own) comes before one that only quotes it as its gate's ("no credit: ...":
    the form's equivalence item, which the bug costs anyway; blind round 15 charged that one and counted the cost item
    beyond)."""
    said = sorted(i for i, texts in messages.items() if any(ONLY_CORRECT in t for t in texts))
    own = [i for i in said if any(ONLY_CORRECT in t and not t.startswith("no credit: ") for t in messages[i])]
    return tuple(own or said)[:1]

Scalar = bool | int | float | str


@dataclass(frozen=True, eq=False)
class CostCase:
    """A probe run at two lengths, each in a sandbox of its own, judged on its outputs and on what it cost.

    ``inputs``: the probe's inputs (plain scalars and lists: the probe makes its arrays from a seed, the
    reference the same ones), without the length; ``length_key`` names the probe parameter that gets it.
    ``expect(n)``: the float64 reference outputs at length n (computed in the grader, when needed).
    ``grows``: `LINEAR` (a form over the whole sequence) or `STEPS` (n decoding steps: memory constant).
    ``sequences``: how many sequences (batch × heads) a run holds, each of which would need its own
    L × L matrix in a parallel form."""

    label: str
    inputs: Mapping[str, Scalar | list]
    expect: Callable[[int], Mapping[str, np.ndarray]]
    lengths: tuple[int, int] = (1024, 8192)
    length_key: str = "L"
    grows: str = LINEAR
    sequences: int = 1
    atol: float = 1e-8
    rtol: float = 1e-6
    hint: str = ""
    compared_by: str = ""  # the check that compares this form with the reference at short lengths (see judge_cost)
    # seed -> (inputs, expect) made from that seed: the grader draws it from its secret (`drawn`), so the measured
    # inputs' values are not in the hidden source for a form to recognise (blind attacks7); None: as given
    # (or three: the arrays too, as ``arrays`` takes them)
    draw: Callable[[int], tuple] | None = None
    # the lengths its twin is compared at (`twin`): past every small int Python caches (256), so not even the
    # length's refcount tells the twin from the measured run; a length switch above them is the known-open one
    twin_lengths: tuple[int, int] = (260, 520)
    # ... and its short twin's (`twin(short=True)`): the measured call over a few dozen tokens, where a slow form and
    # an efficient one give the same outputs; a cost run that raised or was wrong is excused only where it fails too
    short_twin_lengths: tuple[int, int] = (24, 64)
    # n -> the array inputs at length n, named by seed (`Seeded`: the driver makes them in the sandbox), where the
    # probe is handed arrays as the comparing check's cases hand them (the length is then not an input); None: the
    # probe is handed the length and makes its arrays itself
    arrays: Callable[[int], Mapping[str, Seeded]] | None = None
    # what the probe's result is judged as (`Case.outputs`): `grader.checks.digested` where the probe returns a
    # comparing check's outputs, long ones digested after the call; None: as it is
    outputs: Callable[[Mapping], Mapping] | None = None
    # seed -> (inputs, expect[, arrays]) at the settings the items this check gates are judged at (the decay of
    # chunk_boundaries' cases, where the measured call's is 0.999): a run excused where measured (it raised, or was
    # wrong within the bounds) is measured again there (`at_gate`, `judge_elsewhere`), and the excuse stands only
    # where the form is efficient there (blind attacks23: a slow form raising, or cheap and wrong, at decays near 1
    # only kept the gated items); None: the excuse rests on the short twin alone
    elsewhere: Callable[[int], tuple] | None = None
    # seed, check -> (inputs, expect[, arrays[, outputs]]) of its gate twin in that check's process (`gate_twin`), as
    # one of that gated item's own cases makes its call, for that check's probe: their leading dims, widths, decay and
    # chunk size, every setting the reference does not need changed (blind attacks25 keyed a cheap, wrong path on the
    # measured chunk sizes, attacks27 on the measured lead and on m = d_v = 4, settings the gated items' checks never
    # use: the path was wrong at every gate twin and never where the gated items looked); ``outputs``: what its result
    # is judged as (the returned state beside the outputs' digest, say); None: `elsewhere`'s, the measured call's
    # settings but the decay, in the comparing check's process
    gate_twin_draw: Callable[[int, str], tuple] | None = None
    # ... and the checks whose student processes run them, one gate twin each: the items this check gates (the
    # basics' chunk_boundaries and partial_chunk_state), so a gate twin comes after the calls the gated item's own
    # process makes, not after the comparing check's measured-looking ones (blind attacks28: a flag set by the first
    # call that looked measured, a cheap wrong path taken by every call after it in the process, was wrong at every
    # gate twin in the comparing check's process and never in the gated items'), and asks for what that item judges
    # (attacks29: a form right on every call that asks for the state, cheap and wrong on the others, kept
    # partial_chunk_state when the one gate twin asked for outputs only); judged as the comparing check's cases all
    # the same; (): one gate twin, in the comparing check's process
    gate_twin_among: tuple[str, ...] = ()
    # ... and the lengths its gate twins are compared at: the gated items' own (the basics' chunk items are judged
    # over 13 tokens), where a form that is right below the short twin's few dozen tokens and cheap and wrong from
    # them on is right where the gated items look and wrong everywhere the excuse was read (blind attacks26); None:
    # `short_twin_lengths`
    gate_twin_lengths: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        short, long = self.lengths
        low, high = self.twin_lengths
        if not 0 < short < long or self.grows not in (LINEAR, STEPS) or self.length_key in self.inputs:
            raise ValueError(f"CostCase {self.label!r}: needs lengths (short, long) with 0 < short < long, grows "
                             f"'{LINEAR}' or '{STEPS}', and no {self.length_key!r} among its inputs")
        if not 0 < low <= high < short or not 0 < self.short_twin_lengths[0] <= self.short_twin_lengths[1] < low:
            raise ValueError(f"CostCase {self.label!r}: needs twin_lengths (low, high) with 0 < low <= high < "
                             f"{short} (its short length), and short_twin_lengths below them")
        gate = self.gate_twin_lengths
        if gate is not None and not (len(gate) == 2 and 0 < gate[0] <= gate[1] < low):
            raise ValueError(f"CostCase {self.label!r}: needs gate_twin_lengths (low, high) with 0 < low <= high < "
                             f"{low} (its twin's)")

    def inputs_at(self, n: int) -> dict:
        if self.arrays is not None:
            return {**self.inputs, **self.arrays(n)}
        return {**self.inputs, self.length_key: n}


def drawn(case: CostCase, seed: int) -> CostCase:
    """``case`` with the inputs and reference (and arrays, where it returns three) its ``draw`` makes from
    ``seed``; as it is without a draw."""
    if case.draw is None:
        return case
    made = case.draw(seed)
    arrays = made[2] if len(made) > 2 else case.arrays
    return dataclasses.replace(case, inputs=made[0], expect=made[1], arrays=arrays, draw=None)


def at_gate(case: CostCase, seed: int) -> CostCase | None:
    """``case`` at the settings of the items its check gates (``elsewhere``, drawn from ``seed``), or None."""
    if case.elsewhere is None:
        return None
    return drawn(dataclasses.replace(case, label=f"{case.label}, at the settings its gated items are judged at",
                                     draw=case.elsewhere, elsewhere=None), seed)


def gate_twin(case: CostCase, seed: int, at: float, among: str = "") -> Case | None:
    """The compared case that stands for ``case``'s call at the gated items' settings (`at_gate`) over a few dozen
    tokens (``gate_twin_lengths``: the gated items' own), made as the gated item ``among``'s own cases make theirs
    (``gate_twin_draw``), so no setting tells it from them; None without ``elsewhere``."""
    if case.elsewhere is None:
        return None
    made = case.gate_twin_draw(seed, among) if case.gate_twin_draw is not None else case.elsewhere(seed)
    there = dataclasses.replace(case, label=f"{case.label}, at the settings its gated items are judged at"
                                            + (f" ({among}'s)" if among else ""),
                                inputs=made[0], expect=made[1], arrays=made[2] if len(made) > 2 else case.arrays,
                                outputs=made[3] if len(made) > 3 else case.outputs, draw=None, elsewhere=None)
    if case.gate_twin_lengths is not None:
        there = dataclasses.replace(there, short_twin_lengths=case.gate_twin_lengths)
    return twin(there, seed, at, short=True)


def wrong_result(outcome: CaseOutcome) -> bool:
    """The case gave a result, judged wrong: not raised, not stopped (a timeout, a crash, a result that could not be
    read have no result to be wrong: they fail, but not "the same way" as wrong outputs)."""
    return not outcome.passed and not outcome.raised and bool(outcome.digest)


def judge_elsewhere(spec: CheckSpec, excused: CaseOutcome, there: CostCase, run: Runner, stamp: object,
                    kept=None, gate_twins: tuple[CaseOutcome, ...] = ()) -> CaseOutcome:
    """An excused cost case (``excused``: it raised, or was wrong within the bounds, where it was measured, and
    failed the same way over a few dozen tokens) after its measured call is measured again at ``there``'s settings
    (`at_gate`; ``gate_twins``: that call, and the check's other cost cases' (one sequence where this one has 128),
    over a few dozen tokens, compared among the comparing check's cases). The excuse says the form is efficient and
    has an honest bug; it stands where the form is efficient there: right and within the bounds, or wrong within
    them where it is wrong over a few dozen tokens at those settings too, narrow and wide (the same bug everywhere:
    an efficient form with a mistake inside its chunks), or not measured because the model
    solution's own run failed. A form that is over a bound there, raises or stops there, or is wrong and cheap there
    only from some length on, fails the gate as a slow form does: its failure where it was measured says nothing
    about its cost (blind attacks23: a slow chunkwise raising at decays near 1 only, or taking a decay near 1 as 1
    and its cheap path there, kept chunk_boundaries and partial_chunk_state; blind attacks24: a slow form that also
    took a cheap, wrong path for long or wide calls only: wrong over a few dozen tokens at 128 sequences too, right
    on one)."""
    got = judge_cost(spec, there, run, stamp, kept)
    model_failed = not got.passed and not got.cause and not got.raised and not got.excused_by
    wrong_everywhere = bool(gate_twins) and all(wrong_result(t) for t in gate_twins)
    if got.passed or model_failed or (got.excused_by and not got.raised and wrong_everywhere):
        return excused
    prefix = f"{spec.title} [{there.label}]: "
    found = got.message.split(" Hint: ", 1)[0]
    found = found[len(prefix):] if found.startswith(prefix) else found
    if got.excused_by and not got.raised:  # wrong and cheap there, right (or raising) over a few dozen tokens
        raised = any(t.raised for t in gate_twins)
        found = (f"{found.rstrip('.')}, where over a few dozen tokens at the same settings (or on fewer sequences) "
                 f"{'it raises' if raised else 'its outputs are right'}")
    said = added(excused.message, f"Measured again at the settings its gated items are judged at: "
                                  f"{found.rstrip('.')}; a form that is not measured as efficient anywhere it is right "
                                  "is judged as one that is not efficient.")
    return dataclasses.replace(excused, excused_by="", raised=False, cause=spec.cause, message=said)


def added(message: str, sentence: str) -> str:
    """A failed cost case's ``message`` with ``sentence`` after what it says and before its hint."""
    said, hint = (message.split(" Hint: ", 1) + [""])[:2]
    return f"{said.rstrip('.')}. {sentence}" + (f" Hint: {hint}" if hint else "")


def twin(case: CostCase, seed: int, at: float, short: bool = False) -> Case:
    """The compared case that stands where ``case`` is measured (`probing._plan`): the same probe, the same
    inputs and settings (drawn from ``seed``, the measured run's: `draws.measured`), at a length drawn in
    ``twin_lengths`` by ``at`` (in [0, 1)), judged on the same outputs against the reference. From inside, a call
    the cost run measures is then a call the comparing run compares, up to its length: no argument, setting,
    kept output or order of calls is the measured run's alone (blind attacks13).

    ``short``: the short twin, the same call at a length in ``short_twin_lengths``: where the measured call fails
    (wrong or raising), it says whether the form fails at those settings anyway (an honest bug, excused: `probing`)
    or only from some length on (a length switch, which fails the gate: blind attacks22)."""
    low, high = case.short_twin_lengths if short else case.twin_lengths
    n = low + int(at * (high - low + 1))
    drawn_case = drawn(case, seed)
    what = "steps" if case.grows == STEPS else "tokens"
    return Case(label=f"{case.label}: the measured call, compared over a few {'dozen' if short else 'hundred'} "
                      f"{what}", inputs=drawn_case.inputs_at(n), expect=drawn_case.expect(n), atol=case.atol,
                rtol=case.rtol, outputs=case.outputs)


@dataclass(frozen=True)
class Measurement:
    """One run at one length, as the grader saw it from outside: the kernel's memory peak and CPU time."""

    n: int
    peak_bytes: int
    cpu_s: float


@dataclass(frozen=True)
class RunAnswer:
    """What one sandboxed run of a cost case gave: the probe's plain-data result (or None and why not), and
    what the grader measured of the run (0 bytes: it could not be measured)."""

    got: Mapping | None
    why: str
    peak_bytes: int
    cpu_s: float
    raised: bool = False  # the student's code raised (got is None): nothing about the cost was seen
    over_cpu: bool = False  # stopped at the CPU-time limit it was given (the work cap)


# (whose code: "student" | "model", the probe's inputs, the run's CPU-time limit in s or None) -> answer
Runner = Callable[[str, Mapping, "float | None"], RunAnswer]


@dataclass
class _Calibration:
    """The model solution's measurements, per (bundle stamp, check, case label, length), made once."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    done: dict = field(default_factory=dict)
    locks: dict = field(default_factory=dict)


_MODEL = _Calibration()


def _mib(n: float) -> str:
    return f"{n / 2**20:.0f} MiB"


def _least(runs: list[Measurement]) -> Measurement:
    """The model's runs: the least of each (its own measurement is the baseline, load only adds)."""
    return Measurement(runs[0].n, min(r.peak_bytes for r in runs), min(r.cpu_s for r in runs))


def _judged(runs: list[Measurement]) -> Measurement:
    """A student's runs at one length: the least CPU time (load only adds to it) and the most memory (what a
    run held, it held: a history kept in a random half of the runs is kept)."""
    return Measurement(runs[0].n, max(r.peak_bytes for r in runs), min(r.cpu_s for r in runs))


def work_cap(model: Measurement) -> float:
    """The most CPU time a student's run may take at the model's length (the bound pads cannot beat)."""
    return WORK_CAP * model.cpu_s + CAP_FLOOR_S


def over_cap(case: CostCase, n: int, cpu_s: float, model: Measurement, stopped: bool = False) -> str:
    return (f"its work at {case.length_key}={n} took {'more than ' if stopped else ''}"
            f"{cpu_s:.1f} s of CPU time, where the model solution takes {model.cpu_s:.2f} s (at most "
            f"{WORK_CAP:g} × that is allowed): work that grows like the square of the length (re-reading the "
            f"history at every token) is far over it at this length, and so is a loop in Python over every sequence "
            f"(each batch entry and head, one at a time) where one operation on the whole batch does")


def growth_bound(s1: Measurement, model: tuple[Measurement, Measurement]) -> float:
    """The most CPU time the long run may take, given the short run: the model's, plus an excess that grows at
    most `GROWTH_MARGIN` × the length ratio from the short run's excess, beyond a floor."""
    m1, m2 = model
    f = m2.n / m1.n
    return m2.cpu_s + GROWTH_MARGIN * f * max(s1.cpu_s - m1.cpu_s, 0.0) + max(MIN_CPU_EXCESS_S, m2.cpu_s)


def work_verdict(case: CostCase, student: tuple[Measurement, Measurement],
                 model: tuple[Measurement, Measurement]) -> str | None:
    """None when the CPU time stays under the cap at both lengths and its excess over the model grows no
    faster than linear (with the margin)."""
    (s1, s2), (m1, m2) = student, model
    for s, m in ((s2, m2), (s1, m1)):
        if s.cpu_s > work_cap(m):
            return over_cap(case, s.n, s.cpu_s, m)
    if s2.cpu_s <= growth_bound(s1, model):
        return None
    f = s2.n / s1.n
    what = "its total work" if case.grows == STEPS else "its work"
    return (f"{what} grows faster than the length: {s1.cpu_s:.2f} s of CPU time at {case.length_key}={s1.n} and "
            f"{s2.cpu_s:.2f} s at {case.length_key}={s2.n} ({f:g} × longer), where the model solution takes "
            f"{m1.cpu_s:.2f} s and {m2.cpu_s:.2f} s; work that grows like the square of the length "
            f"(re-reading the history at every token) grows {f * f:g} ×")


def memory_verdict(case: CostCase, student: tuple[Measurement, Measurement],
                   model: tuple[Measurement, Measurement]) -> str | None:
    """None when the excess memory over the model stays within the case's bounds."""
    (s1, s2), (m1, m2) = student, model
    f, key = s2.n / s1.n, case.length_key
    short, long = s1.peak_bytes - m1.peak_bytes, s2.peak_bytes - m2.peak_bytes
    matrix = 8 * s2.n * s2.n  # one L × L float64 matrix at the long length
    if case.grows == STEPS:
        if max(long, short) > STEP_MEMORY_BYTES:
            n, most = (s2.n, long) if long >= short else (s1.n, short)
            return (f"after {n} steps it held {_mib(most)} more than the model solution (at most "
                    f"{_mib(STEP_MEMORY_BYTES)} more is allowed): a fixed-size state needs no room for the history "
                    f"(what the module holds from its import counts too: a large tensor made at module level, a "
                    f"package imported that the model solution does not import)")
        if long - max(short, 0) > STEP_GROWTH_BYTES:
            return (f"its memory grows with the number of steps: {_mib(max(short, 0))} more than the model "
                    f"solution after {s1.n} steps, {_mib(long)} more after {s2.n}: the state keeps the history")
        return None
    if long > case.sequences * matrix / 4:
        return (f"at {key}={s2.n} it held {_mib(long)} more than the model solution, more than a quarter of the "
                f"L × L float64 matrices of a parallel form ({_mib(case.sequences * matrix)})")
    if case.sequences == 1:  # an absolute bound, not one read from the short run, which a buffer held there lifts
        if long > max(matrix / 16, m2.peak_bytes - m1.peak_bytes):
            return (f"at {key}={s2.n} it held {_mib(long)} more than the model solution, more than 1/16 of an L × L "
                    f"float64 matrix ({_mib(matrix / 16)}): on one sequence an honest form holds little more than "
                    f"the model, at any length; an L × L mask or score matrix (even of bools) is over it")
        return None
    # honest forms hold more than the model in proportion to what it holds (another copy of the outputs, a
    # stacked list of them): the model's own growth between the lengths is allowed beside 1/16 of a matrix
    if long > max(matrix / 16, GROWTH_MARGIN * f * max(short, 0), m2.peak_bytes - m1.peak_bytes):
        return (f"its memory grows like the square of the length: {_mib(max(short, 0))} more than the model "
                f"solution at {key}={s1.n}, {_mib(long)} more at {key}={s2.n} ({f:g} × longer)")
    return None


def student_runs(case: CostCase) -> list[int]:
    """The lengths (0: short, 1: long) the student's code is run at, in order: the short length first; a decoding
    case's long length again, whatever the first run showed (see `_judged`). A run with wrong outputs is measured
    all the same (see `judge_cost`)."""
    return [0, 1] + ([1] * (STEP_LONG_RUNS - 1) if case.grows == STEPS else [])


def judge_cost(spec: CheckSpec, case: CostCase, run: Runner, stamp: object, kept=None) -> CaseOutcome:
    """Run ``case`` (the student's code and the model's, each length alone) and decide it. ``kept``: where the
    model's measurements of this bundle are kept between graders (`model_costs.Kept`), or None.

    Wrong outputs earn nothing (a cost counts only for correct work), but they do not stop the measurement: a form
    that computes something else is still measured at both lengths, and where what it cost is within the bounds it
    is an honest bug in an efficient form, charged to that form's items (``excused_by``: the items that require the
    cost check are judged on their own checks). Where it is over a bound it fails the gate as a slow form does: a
    slow form made wrong where it is measured (a decay near 1 taken as 1: blind attacks22) is still slow. A run
    that raised cannot be measured: it is excused only where the form raises (or is wrong) at the measured call's
    settings over a few dozen tokens too (`probing`'s short twin)."""
    prefix = f"{spec.title} [{case.label}]"
    model = _model(spec, case, run, stamp, kept)  # first: the grader's first runs pay what is used for the first time
    if isinstance(model, str):
        return CaseOutcome(spec.name, case.label, False, f"{prefix}: not measured: {model}.", cause="")
    student: list[list[Measurement]] = [[], []]
    caps = [work_cap(m) for m in model]
    wrong = ""  # the first run's wrong outputs: the case fails, and the measurement decides whether it is excused
    for i in student_runs(case):
        n = case.lengths[i]
        answer = run("student", case.inputs_at(n), caps[i])
        if answer.over_cpu:  # stopped at the cap: decided, whatever the outputs would have been
            why = over_cap(case, n, answer.cpu_s, model[i], stopped=True)
            return CaseOutcome(spec.name, case.label, False, _said(prefix, wrong, why, case), cause=spec.cause)
        problem = _answer_problem(spec, case, n, answer, kept)
        if problem and not _measurable(answer):
            # An error (or no answer): nothing about the cost was seen. The cost item earns nothing; items that
            # require this check lose too unless the form raises where the short twin compares the measured call
            # (`excused_by`; probing clears it where that twin passed: a length switch fails the gate).
            return CaseOutcome(spec.name, case.label, False, f"{prefix}: {problem}.{_hint(case)}",
                               cause="" if answer.raised else spec.cause, raised=answer.raised,
                               excused_by=case.compared_by if answer.raised else "")
        wrong = wrong or problem
        student[i].append(Measurement(n, answer.peak_bytes, answer.cpu_s))
    verdict = _verdict(case, student, model)
    for _ in range(RUNS - 1):  # a work bound failed: measured again, the least of the runs decides
        if not verdict or _memory_failed(case, student, model):  # (memory: the most of the runs; no rerun helps)
            break
        for i, (n, runs) in enumerate(zip(case.lengths, student)):
            # the long run again only as far as it could still pass: stopped at its bound, not at the cap (a
            # quadratic form is not waited for a second time; a run slowed by a neighbour once comes in under)
            limit = caps[0] if i == 0 else min(caps[1], growth_bound(_judged_pair(student)[0], model) + RECHECK_SLACK_S)
            answer = run("student", case.inputs_at(n), limit)
            if not answer.over_cpu and _measurable(answer) and (wrong or not _answer_problem(spec, case, n, answer,
                                                                                             kept)):
                runs.append(Measurement(n, answer.peak_bytes, answer.cpu_s))
        verdict = _verdict(case, student, model)
    if wrong and not verdict:  # an honest bug in an efficient form: its own items' (see the docstring)
        return CaseOutcome(spec.name, case.label, False, _said(prefix, wrong, "", case), cause="",
                           excused_by=case.compared_by)
    if verdict:
        return CaseOutcome(spec.name, case.label, False, _said(prefix, wrong, verdict, case), cause=spec.cause)
    return CaseOutcome(spec.name, case.label, True)


def _said(prefix: str, wrong: str, why: str, case: CostCase) -> str:
    """A failed cost case's message: its wrong outputs, what it cost over a bound, or both, then the hint."""
    return f"{prefix}: {'; and '.join(part for part in (wrong, why) if part)}.{_hint(case)}"


def _measurable(answer: RunAnswer) -> bool:
    """The run gave outputs (right or wrong) and the grader measured it."""
    return answer.got is not None and answer.peak_bytes > 0


def _verdict(case: CostCase, student: list[list[Measurement]], model: tuple[Measurement, Measurement]) -> str:
    least = _judged_pair(student)
    log.info("cost %s: student %s, model %s", case.label, least, model)
    return memory_verdict(case, least, model) or work_verdict(case, least, model) or ""


def _judged_pair(student: list[list[Measurement]]) -> tuple[Measurement, Measurement]:
    """The student's (short, long) measurements as the verdict reads them (see `_judged`)."""
    return _judged(student[0]), _judged(student[1])


def _memory_failed(case: CostCase, student: list[list[Measurement]], model: tuple[Measurement, Measurement]) -> bool:
    return memory_verdict(case, _judged_pair(student), model) is not None


def _hint(case: CostCase) -> str:
    return f" Hint: {case.hint}" if case.hint else ""


def _answer_problem(spec: CheckSpec, case: CostCase, n: int, answer: RunAnswer, kept=None) -> str:
    """Why a run's answer earns nothing (its outputs, or no answer), or ''."""
    at = f"at {case.length_key}={n}"
    if answer.got is None:  # raising is no correct work either (a form that raises at some shapes, the drawn ones)
        return f"{at}: {answer.why or 'no result'}" + (f" {ONLY_CORRECT}" if answer.raised else "")
    outputs = Case(label=case.label, inputs={}, expect=_reference(spec, case, n, kept), atol=case.atol,
                   rtol=case.rtol, outputs=case.outputs)
    outcome = judge_case(spec, outputs, answer.got)
    if not outcome.passed:
        return f"{at}: " + outcome.message.split(": ", 1)[-1].rstrip(".") + f" {ONLY_CORRECT}"
    if answer.peak_bytes <= 0:
        return f"{at}: the run could not be measured (no cgroup and no process accounting on this machine)"
    return ""


def _reference(spec: CheckSpec, case: CostCase, n: int, kept=None) -> Mapping[str, np.ndarray]:
    """The case's float64 reference at length n: kept on disk per bundle and inputs (`model_costs.Kept`: a grader
    process makes each once, ~4 s for a kit's cost cases), else made here, one at a time (a long one holds
    hundreds of MB while it is made)."""
    expect = kept.reference(spec.name, case, n) if kept is not None else None
    if expect is None:
        with _REFERENCES:
            expect = case.expect(n)
        if kept is not None:
            kept.keep_reference(spec.name, case, n, expect)
    return expect


def _model(spec: CheckSpec, case: CostCase, run: Runner, stamp: object, kept=None):
    """The model solution's (short, long) measurements, made once per bundle stamp (and kept on disk, per bundle
    and machine, for the next grader: `model_costs`); or why there are none."""
    key = (stamp, spec.name, case.label)
    with _MODEL.lock:
        if key in _MODEL.done:
            return _MODEL.done[key]
        lock = _MODEL.locks.setdefault(key, threading.Lock())
    with lock:  # one thread measures, the others wait for it (a failed measurement is not kept)
        if key in _MODEL.done:
            return _MODEL.done[key]
        measured = kept.load(spec.name, case) if kept is not None else None
        if measured is None:
            measured = _measure_model(spec, case, run, kept)
            if kept is not None and not isinstance(measured, str):
                kept.save(spec.name, case, measured)
        if not isinstance(measured, str):
            _MODEL.done[key] = measured
        return measured


def _measure_model(spec: CheckSpec, case: CostCase, run: Runner, kept=None):
    out = []
    for n in case.lengths:
        runs = []
        for _ in range(MODEL_RUNS):
            answer = run("model", case.inputs_at(n), None)
            problem = _answer_problem(spec, case, n, answer, kept)
            if problem:  # the instructor's solution fails its own case: nobody can be judged on it
                log.error("cost case %s [%s]: the model solution's run failed: %s", spec.name, case.label, problem)
                return f"the model solution's own run failed ({problem}): an error in the assignment, not yours"
            runs.append(Measurement(n, answer.peak_bytes, answer.cpu_s))
        out.append(_least(runs))
    return tuple(out)
