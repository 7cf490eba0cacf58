"""Linear attention and retention (stub submission: every form returns its values V unchanged)."""
import torch
import torch.nn.functional as F


def feature_map(x):
    return F.elu(x) + 1


def linear_attention_parallel(Q, K, V):
    return V


def linear_attention_recurrent(Q, K, V):
    return V


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return v


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype, device=like.device)[..., None, None]


def decay_matrix(gamma, L):
    return torch.eye(L, dtype=gamma.dtype, device=gamma.device)


def retention_parallel(Q, K, V, gamma):
    return V


def retention_recurrent(Q, K, V, gamma):
    return V


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    R = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    return (V, R) if return_state else V


def multiscale_decays(num_heads):
    return torch.ones(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return V


def gated_delta_rule(Q, K, V, alpha, beta):
    return V
