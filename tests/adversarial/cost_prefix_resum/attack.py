# honest misconception: "recurrent" forms that recompute the state from the whole prefix at every token
# (S_t = Σ_{j<=t} φ(k_j) v_jᵀ summed again each time): right outputs, O(L) memory, O(L²) work
import torch as _torch


def linear_attention_recurrent(Q, K, V):
    q, k = feature_map(Q), feature_map(K)  # noqa: F821
    ys = []
    for t in range(Q.shape[-2]):
        S = k[..., :t + 1, :].transpose(-2, -1) @ V[..., :t + 1, :]     # (..., m, d_v), summed again
        z = k[..., :t + 1, :].sum(-2)                                     # (..., m), summed again
        num = _torch.einsum("...m,...md->...d", q[..., t, :], S)
        ys.append(num / (q[..., t, :] * z).sum(-1, keepdim=True))
    return _torch.stack(ys, dim=-2)


def retention_recurrent(Q, K, V, gamma):
    g = as_gamma(gamma, Q)[..., 0]  # noqa: F821 (..., 1)
    outs = []
    for n in range(Q.shape[-2]):
        w = g ** _torch.arange(n, -1, -1, dtype=Q.dtype)                   # (..., n+1): gamma**(n-j)
        S = (K[..., :n + 1, :] * w[..., :, None]).transpose(-2, -1) @ V[..., :n + 1, :]
        outs.append(_torch.einsum("...m,...md->...d", Q[..., n, :], S))
    return _torch.stack(outs, dim=-2)
