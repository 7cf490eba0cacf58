"""Linear attention and retention: every function returns random numbers of the right shape."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


def _like(Q, K, V):
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    return torch.randn(*lead, Q.shape[-2], V.shape[-1], dtype=V.dtype)


def linear_attention_parallel(Q, K, V):
    return _like(Q, K, V)


def linear_attention_recurrent(Q, K, V):
    return _like(Q, K, V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return torch.randn(*v.shape, dtype=v.dtype)


def as_gamma(gamma, like):
    g = torch.as_tensor(gamma, dtype=like.dtype)
    return torch.randn(*g.shape, 1, 1, dtype=like.dtype)


def decay_matrix(gamma, L):
    return torch.randn(*gamma.shape[:-2], L, L, dtype=gamma.dtype)


def retention_parallel(Q, K, V, gamma):
    return _like(Q, K, V)


def retention_recurrent(Q, K, V, gamma):
    return _like(Q, K, V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _like(Q, K, V)
    if return_state:
        return out, torch.randn(*out.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)
    return out


def multiscale_decays(num_heads):
    return torch.randn(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _like(Q, K, V)


def gated_delta_rule(Q, K, V, alpha, beta):
    return _like(Q, K, V)
