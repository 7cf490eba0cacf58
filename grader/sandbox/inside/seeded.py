"""Input arrays made from a seed, written once for both sides.

A cost case's inputs are large (128 sequences of 16384 tokens: 192 MiB of float64 for Q, K and V), so the grader
does not send them: it names each array's seed, shape and scale, the driver makes it in the sandbox (`driver.py`,
`with_seeded`) and hands it to the student's process as it hands any case's arrays, and the grader makes the same
one for the reference (`grader.checks.Seeded`). numpy only; inside, loaded by path as `wire.py` is.
"""
import numpy as np

BLOCK = 256  # tokens drawn at once


def fill(out, seed, scale=1.0):
    """Fill the float64 array ``out`` with numpy's default_rng(seed) standard normals, times ``scale``, token by
    token: the second-to-last axis (a sequence's tokens: (..., L, d)) outermost, so the first n tokens of an array
    are the same whatever its length. A cost case's twin (a few hundred tokens) then starts with the very tokens the
    measured call (thousands) starts with: in C order, every sequence but the first began at a place in the stream
    that moved with the length, and a submission that had seen a measured call's first token (another submission's,
    on the same machine) knew one at its first step (blind attacks21)."""
    rng = np.random.default_rng(seed)
    if out.ndim < 2:
        rng.standard_normal(out=out)
    else:
        tokens = np.moveaxis(out, -2, 0)  # (L, ..., d): a view of ``out``
        for start in range(0, tokens.shape[0], BLOCK):
            block = tokens[start:start + BLOCK]
            block[...] = rng.standard_normal(size=block.shape)
    if scale != 1.0:
        out *= scale
    return out


def make(seed, shape, scale=1.0):
    """A new float64 array of ``shape``, filled as `fill` fills."""
    return fill(np.empty(tuple(shape), dtype=np.float64), seed, scale)
