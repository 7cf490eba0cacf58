"""Linear attention and retention: placeholder submission (random tensors of the right shape)."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (provided)."""
    return F.elu(x) + 1


def _placeholder(Q, V):
    shape = (*torch.broadcast_shapes(Q.shape[:-2], V.shape[:-2]), Q.shape[-2], V.shape[-1])
    return torch.randn(shape, dtype=V.dtype, device=V.device)


def linear_attention_parallel(Q, K, V):
    return _placeholder(Q, V)


def linear_attention_recurrent(Q, K, V):
    return _placeholder(Q, V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return _placeholder(q.unsqueeze(-2), v.unsqueeze(-2)).squeeze(-2)


def as_gamma(gamma, like):
    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    return g.reshape(*g.shape, 1, 1)


def decay_matrix(gamma, L):
    return torch.ones(*gamma.shape[:-2], L, L, dtype=gamma.dtype).tril()


def retention_parallel(Q, K, V, gamma):
    return _placeholder(Q, V)


def retention_recurrent(Q, K, V, gamma):
    return _placeholder(Q, V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _placeholder(Q, V)
    if return_state:
        return out, torch.zeros(*out.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)
    return out


def multiscale_decays(num_heads):
    return torch.rand(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _placeholder(Q, V)


def gated_delta_rule(Q, K, V, alpha, beta):
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
