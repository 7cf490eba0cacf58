"""Linear attention and retention (stub submission: every function returns random tensors of the right shape)."""
import torch
import torch.nn.functional as F


def feature_map(x):
    return F.elu(x) + 1


def linear_attention_parallel(Q, K, V):
    return torch.randn_like(V)


def linear_attention_recurrent(Q, K, V):
    return torch.randn_like(V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return torch.randn_like(v)


def as_gamma(gamma, like):
    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    return torch.rand(*g.shape, 1, 1, dtype=like.dtype, device=like.device)


def decay_matrix(gamma, L):
    return torch.rand(*gamma.shape[:-2], L, L, dtype=gamma.dtype, device=gamma.device)


def retention_parallel(Q, K, V, gamma):
    return torch.randn_like(V)


def retention_recurrent(Q, K, V, gamma):
    return torch.randn_like(V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = torch.randn_like(V)
    R = torch.randn(*Q.shape[:-2], Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    return (out, R) if return_state else out


def multiscale_decays(num_heads):
    return torch.rand(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return torch.randn_like(V)


def gated_delta_rule(Q, K, V, alpha, beta):
    return torch.randn_like(V)
