"""Input arrays made from a seed, written once for both sides.

A cost case's inputs are large (128 sequences of 16384 tokens: 192 MiB of float64 for Q, K and V), so the grader
does not send them: it names each array's seed, shape and scale, the driver makes it in the sandbox (`driver.py`,
`with_seeded`) and hands it to the student's process as it hands any case's arrays, and the grader makes the same
one for the reference (`grader.checks.Seeded`). numpy only; inside, loaded by path as `wire.py` is.
"""
import numpy as np


def fill(out, seed, scale=1.0):
    """Fill the float64 array ``out`` with numpy's default_rng(seed) standard normals, times ``scale``."""
    np.random.default_rng(seed).standard_normal(out=out)
    if scale != 1.0:
        out *= scale
    return out


def make(seed, shape, scale=1.0):
    """A new float64 array of ``shape``, filled as `fill` fills."""
    return fill(np.empty(tuple(shape), dtype=np.float64), seed, scale)
