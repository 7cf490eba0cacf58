"""Linear attention and retention: every face hands back its values."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


def linear_attention_parallel(Q, K, V):
    return V.clone()


def linear_attention_recurrent(Q, K, V):
    return V.clone()


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return v.clone()


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype)[..., None, None]


def decay_matrix(gamma, L):
    return torch.ones(L, L, dtype=gamma.dtype)


def retention_parallel(Q, K, V, gamma):
    return V.clone()


def retention_recurrent(Q, K, V, gamma):
    return V.clone()


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    if return_state:
        return V.clone(), torch.zeros(K.shape[-1], V.shape[-1], dtype=V.dtype)
    return V.clone()


def multiscale_decays(num_heads):
    return torch.ones(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return V.clone()


def gated_delta_rule(Q, K, V, alpha, beta):
    return V.clone()
