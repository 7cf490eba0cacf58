"""What the grader draws from its secret (`model_costs.secret`): the same in every run of one grader, for the
model solution and for every student it grades, and in no file a student can read.

- `compared`: the seed a hidden check's inputs are made from, for the fixed seed its source names
  (`grader.checks.rng`, `grader.checks.drawn`). The hidden source is no secret from someone who read it, and a
  form that knew the compared inputs' values could run its slow code on exactly those and other code where it
  is measured (blind attacks12: 416 first values of Q listed). Every expected value is computed from the inputs,
  so a check means the same for any draw; the mutant tables are measured over several draws
  (`tests/test_draws.py`).
- `measured`: the seed a cost case's inputs are made from (`costs.drawn`): no form can recognise them either.
- `place`: where a cost case comes among the comparing check's cases in its run (`probing._cut`).
"""
from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Iterator

from grader.grading import model_costs

SEED_BYTES = 8  # a numpy seed of 64 bits: default_rng takes any non-negative int
_THREAD = threading.local()  # a secret this thread draws from instead (`under`)


@contextlib.contextmanager
def under(secret: bytes) -> Iterator[None]:
    """Draw from ``secret`` in this thread, not the grader's: `tasks.py check` makes the checks' cases under two
    throwaway secrets to find inputs that no draw changes (`authoring/fixed_inputs.py`)."""
    kept = getattr(_THREAD, "secret", None)
    _THREAD.secret = secret
    try:
        yield
    finally:
        _THREAD.secret = kept


def _secret() -> bytes:
    return getattr(_THREAD, "secret", None) or model_costs.secret()


def _of(label: bytes) -> int:
    return int.from_bytes(hashlib.sha256(_secret() + b"\0" + label).digest()[:SEED_BYTES], "big")


def compared(seed: int) -> int:
    """The seed a hidden check draws its inputs from where its source names ``seed`` (one per fixed seed: the
    checks' seeds stay apart as they are in the source)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"a check's seed is an int, not {type(seed).__name__}")
    return _of(b"compared\0" + str(seed).encode())


def measured() -> int:
    """The seed every cost case's inputs are made from (one for every case: cases of one form's reference share
    it; 32 bits, as the probes take it)."""
    return _of(b"seed") >> (8 * SEED_BYTES - 32)


def place(label: str, n: int) -> int:
    """A number in [0, n) for ``label`` (n > 0): where the case of that id comes in its run."""
    return int.from_bytes(hashlib.sha256(_secret() + b"\0" + label.encode()).digest()[:8], "big") % n
