"""Linear attention and retention (stub submission: placeholders of the right shape)."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (provided)."""
    return F.elu(x) + 1


def _fill(shape, ref):
    return torch.randn(shape, dtype=ref.dtype, device=ref.device)


def _out(Q, K, V):
    return (*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), Q.shape[-2], V.shape[-1])


def linear_attention_parallel(Q, K, V):
    return _fill(_out(Q, K, V), V)


def linear_attention_recurrent(Q, K, V):
    return _fill(_out(Q, K, V), V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return _fill(v.shape, v)


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype, device=like.device)[..., None, None]


def decay_matrix(gamma, L):
    return _fill((*gamma.shape[:-2], L, L), gamma)


def retention_parallel(Q, K, V, gamma):
    return _fill(_out(Q, K, V), V)


def retention_recurrent(Q, K, V, gamma):
    return _fill(_out(Q, K, V), V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _fill(_out(Q, K, V), V)
    if return_state:
        return out, torch.zeros(*_out(Q, K, V)[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)
    return out


def multiscale_decays(num_heads):
    return torch.rand(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _fill(_out(Q, K, V), V)


def gated_delta_rule(Q, K, V, alpha, beta):
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
