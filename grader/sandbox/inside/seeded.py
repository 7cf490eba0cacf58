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


class Stream:
    """The array `make` makes, drawn token by token (``token(t)``, t = 0, 1, 2, ... in order; ``tokens(n)``: the
    next n at once): the tokens `fill` draws, in the driver, which hands them to the student's process as its probe
    steps (`driver.hand_tokens`), so the whole array, and its seed, never lie in the process that steps. A decoding
    step is measured on its own memory: with the whole input beside it, a step could keep its history as the
    caller's buffer (read it back from there) or hand the caller's pages of tokens already stepped back to the
    kernel to make room for its own copy (blind attacks25). ``shape`` is the array's, (..., L, d)."""

    def __init__(self, seed, shape, scale=1.0):
        self.shape, self.scale, self.next = tuple(int(n) for n in shape), float(scale), 0
        if len(self.shape) < 2:
            raise ValueError("a stream is (..., L, d)")
        self._rng = np.random.default_rng(seed)

    def tokens(self, n):
        """The next ``n`` tokens, (n, ..., d) float64: the tokens ``n`` calls of `token` draw, drawn at once."""
        if self.next + n > self.shape[-2] or n < 0:
            raise ValueError(f"{n} tokens asked for where {self.shape[-2] - self.next} are left")
        self.next += n
        out = self._rng.standard_normal(size=(n, *self.shape[:-2], self.shape[-1]))
        if self.scale != 1.0:
            out *= self.scale
        return out

    def token(self, t):
        """Token t, (..., d), float64: a new array the caller owns; only the next token can be drawn."""
        if t != self.next or t >= self.shape[-2]:
            raise ValueError(f"token {t} asked for where token {self.next} is next (of {self.shape[-2]})")
        return self.tokens(1)[0]
