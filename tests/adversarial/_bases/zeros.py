"""A wrong-but-well-formed linear_attention.py: every function returns the right shape and dtype,
the wrong values, and never raises. Attacks are appended to it; `_wrap` is their hook."""
import torch


def _wrap(t):
    return t


def feature_map(x):
    return _wrap(torch.zeros_like(x))


def linear_attention_parallel(Q, K, V):
    return _wrap(torch.zeros_like(V))


def linear_attention_recurrent(Q, K, V):
    return _wrap(torch.zeros_like(V))


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v, dtype=torch.float64)
        self.z = torch.zeros(m, dtype=torch.float64)

    def step(self, q, k, v):
        return _wrap(torch.zeros_like(v))


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype)


def decay_matrix(gamma, L):
    return _wrap(torch.zeros(L, L, dtype=torch.float64))


def retention_parallel(Q, K, V, gamma):
    return _wrap(torch.zeros_like(V))


def retention_recurrent(Q, K, V, gamma):
    return _wrap(torch.zeros_like(V))


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    y = _wrap(torch.zeros_like(V))
    if return_state:
        return y, _wrap(torch.zeros(*Q.shape[:-2], Q.shape[-1], V.shape[-1], dtype=V.dtype))
    return y


def multiscale_decays(num_heads):
    return _wrap(torch.zeros(num_heads, dtype=torch.float64))


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _wrap(torch.zeros_like(V))


def gated_delta_rule(Q, K, V, alpha, beta):
    return _wrap(torch.zeros_like(V))


def retention_recurrent(Q, K, V, gamma):
    return _wrap(torch.zeros_like(V))


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _wrap(torch.zeros_like(V))
    if return_state:
        return out, _wrap(torch.zeros(*Q.shape[:-2], Q.shape[-1], V.shape[-1], dtype=V.dtype))
    return out


def multiscale_decays(num_heads):
    return _wrap(torch.zeros(num_heads))


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _wrap(torch.zeros_like(V))


def gated_delta_rule(Q, K, V, alpha, beta):
    return _wrap(torch.zeros_like(V))
