# control (honest, wrong algorithm): the recurrent forms compute the parallel form 128 query rows at a time,
# with torch function modes off: never a whole L × L matrix, but O(L²) work; their outputs are right
import torch as _torch

_BLOCK = 128


def _blocked(q, k, V, gamma=None):
    """Σ_{j<=i} w(i, j) (q_i·k_j) v_j, 128 rows i at a time (w = 1, or gamma**(i-j)); with the normalizer when
    gamma is None (linear attention)."""
    L, out = q.shape[-2], []
    with _torch._C.DisableTorchFunction():
        for i in range(0, L, _BLOCK):
            rows = _torch.arange(i, min(i + _BLOCK, L))[:, None]
            cols = _torch.arange(min(i + _BLOCK, L))[None, :]
            scores = q[..., i:i + _BLOCK, :] @ k[..., :min(i + _BLOCK, L), :].transpose(-2, -1)
            if gamma is None:
                scores = scores * (cols <= rows)
                out.append((scores @ V[..., :scores.shape[-1], :]) / scores.sum(-1, keepdim=True))
            else:
                weight = gamma ** (rows - cols).clamp(min=0).to(q.dtype) * (cols <= rows)
                out.append((scores * weight) @ V[..., :scores.shape[-1], :])
        return _torch.cat(out, dim=-2)


def _private_parallel_linear(Q, K, V):
    return _blocked(feature_map(Q), feature_map(K), V)  # noqa: F821


def _private_parallel_retention(Q, K, V, gamma):
    return _blocked(Q, K, V, as_gamma(gamma, Q))  # noqa: F821


def linear_attention_recurrent(Q, K, V):
    return _private_parallel_linear(Q, K, V)


def retention_recurrent(Q, K, V, gamma):
    return _private_parallel_retention(Q, K, V, gamma)
