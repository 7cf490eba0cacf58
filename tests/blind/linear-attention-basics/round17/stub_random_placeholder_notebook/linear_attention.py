"""Linear attention and retention: random tensors of the right shape."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


def _rand(Q, V):
    return torch.randn(*Q.shape[:-1], V.shape[-1], dtype=V.dtype)


def linear_attention_parallel(Q, K, V):
    return _rand(Q, V)


def linear_attention_recurrent(Q, K, V):
    return _rand(Q, V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.randn(m, d_v)
        self.z = torch.rand(m)

    def step(self, q, k, v):
        return torch.randn_like(v)


def as_gamma(gamma, like):
    return torch.rand(1, 1, dtype=like.dtype)


def decay_matrix(gamma, L):
    return torch.rand(L, L, dtype=gamma.dtype).tril()


def retention_parallel(Q, K, V, gamma):
    return _rand(Q, V)


def retention_recurrent(Q, K, V, gamma):
    return _rand(Q, V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _rand(Q, V)
    return (out, torch.randn(*Q.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)) if return_state else out


def multiscale_decays(num_heads):
    return torch.rand(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _rand(Q, V)


def gated_delta_rule(Q, K, V, alpha, beta):
    return _rand(Q, V)
