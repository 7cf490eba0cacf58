"""What the grader draws from its secret (`model_costs.secret`): in no file a student can read.

- `compared`: the seed a hidden check's inputs are made from, for the fixed seed its source names
  (`grader.checks.drawn`). The hidden source is no secret from someone who read it, and a form that knew the
  compared inputs' values could run its slow code on exactly those and other code where it is measured (blind
  attacks12: 416 first values of Q listed). The draw is the grader's secret and the submission's code
  (`for_submission`): the same for a regrade and for two students with the same code, another for any change,
  so what one submission learns of its inputs (a label, the size of an error it made on purpose) says nothing
  about the next one's. Every expected value is computed from the inputs, so a check means the same for any
  draw: the mutants and a blind round were measured over several (stop 41; `tests/test_mutants.py` keeps the
  alternatives whose outputs move with their inputs' conditioning).
- `measured`: the seed a cost case's inputs are made from (`costs.drawn`): the grader's alone, the same for the
  model solution and every student (their costs are compared), and no form can recognise it either.
- `place`: where a cost case's twin comes among the comparing check's cases (`probing._plan`), and so where the
  cost case comes in its runs (`probing._companions`): the grader's.
- `order`: the order of the cases of a check that compares a cost case's form, for this thread's submission.
- `twin`: a twin's length (`costs.twin`), for this thread's submission; its settings and inputs are the measured
  call's (`measured`).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Iterator

import numpy as np

from grader.grading import model_costs

SEED_BYTES = 8  # a numpy seed of 64 bits: default_rng takes any non-negative int
_THREAD = threading.local()  # this thread's secret (`under`) and submission (`for_submission`), where set


@contextlib.contextmanager
def _set(name: str, value: bytes) -> Iterator[None]:
    kept = getattr(_THREAD, name, None)
    setattr(_THREAD, name, value)
    try:
        yield
    finally:
        setattr(_THREAD, name, kept)


def under(secret: bytes) -> contextlib.AbstractContextManager[None]:
    """Draw from ``secret`` in this thread, not the grader's: `tasks.py check` makes the checks' cases under two
    throwaway secrets to find inputs that no draw changes (`authoring/fixed_inputs.py`)."""
    return _set("secret", secret)


def for_submission(code: bytes) -> contextlib.AbstractContextManager[None]:
    """Draw the compared inputs for the submission whose code digests to ``code`` (`code_digest`), in this
    thread: a batch's worker threads each grade their own."""
    return _set("code", code)


def code_digest(files: list[tuple[str, bytes]]) -> bytes:
    """The digest a submission's compared inputs are drawn for: its code files' names and contents."""
    whole = hashlib.sha256()
    for name, data in sorted(files):
        whole.update(hashlib.sha256(name.encode()).digest() + hashlib.sha256(data).digest())
    return whole.digest()


def _secret() -> bytes:
    return getattr(_THREAD, "secret", None) or model_costs.secret()


def _code() -> bytes:
    return getattr(_THREAD, "code", None) or b""


def _of(label: bytes) -> int:
    return int.from_bytes(hashlib.sha256(_secret() + b"\0" + label).digest()[:SEED_BYTES], "big")


def key() -> str:
    """A short name of what this thread's compared inputs are drawn from: what a plan of them is kept under."""
    return hashlib.sha256(_secret() + b"\0key\0" + _code()).hexdigest()[:16]


def compared(seed: int) -> int:
    """The seed a hidden check draws its inputs from where its source names ``seed`` (one per fixed seed: the
    checks' seeds stay apart as they are in the source), for this thread's submission."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"a check's seed is an int, not {type(seed).__name__}")
    return _of(b"compared\0" + _code() + b"\0" + str(seed).encode())


def measured() -> int:
    """The seed every cost case's inputs are made from (one for every case: cases of one form's reference share
    it; 32 bits, as the probes take it)."""
    return _of(b"seed") >> (8 * SEED_BYTES - 32)


def twin(label: str) -> float:
    """A fraction in [0, 1): where in its range the length of the twin of the cost case ``label`` is drawn
    (`costs.twin`), for this thread's submission."""
    return (_of(b"twin\0" + _code() + b"\0" + label.encode()) & 0xFFFFFFFF) / 2**32


def order(label: str, n: int) -> list[int]:
    """A permutation of range(n) for ``label``, for this thread's submission: the order the cases of a check that
    compares a cost case's form run in (`probing._plan`)."""
    return [int(i) for i in np.random.default_rng(_of(b"order\0" + _code() + b"\0" + label.encode())).permutation(n)]


def _fresh() -> bytes:
    return os.urandom(16)


def places(k: int, n: int) -> list[tuple[int, int]]:
    """Where each of k ordinary runs comes among n cost runs, in the order they run: (how many cost runs before it,
    which of the k it is), drawn afresh for every grading, not for the code: a grading of the same code again (a
    resubmission, a regrade) runs its processes in another order, so what a log kept on the host by an earlier
    grading recorded of which process was measured says nothing of this one (blind attacks20)."""
    rng = np.random.default_rng(int.from_bytes(_fresh(), "big"))
    return sorted(zip((int(x) for x in rng.integers(0, n + 1, size=k)), (int(i) for i in rng.permutation(k))))


def shuffled(n: int) -> list[int]:
    """A permutation of range(n) drawn afresh for every call (the kernel's random bytes): the order a grading
    measures its cost cases in (`probing._with_costs`). In the plan's order, a log kept on the host that counted
    the long calls made so far named the form the next cost run measures, and a form's comparing run that was not
    next knew it (blind attacks19, basics)."""
    return [int(i) for i in np.random.default_rng(int.from_bytes(_fresh(), "big")).permutation(n)]


def place(label: str, n: int) -> int:
    """A number in [0, n) for ``label`` (n > 0): where the case of that id comes in its run."""
    return _of(label.encode()) % n
