"""Linear attention and retention: one recurrence, three faces.

Layout: Q, K (..., L, m); V (..., L, d_v); out (..., L, d_v); S (..., m, d_v); z (..., m).
gamma: a float, or a tensor broadcastable to the leading dims (one decay per head).
No 1/sqrt(m) scale and no epsilon; every function works in the dtype of its inputs and is causal.
"""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


# ----------------------------------------------------------------------------- linear attention

def linear_attention_parallel(Q, K, V):
    """Causal linear attention, parallel face: one masked matmul, rows divided by their sums."""
    fq, fk = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    A = fq @ fk.transpose(-2, -1)
    A = A.masked_fill(~torch.ones(L, L, dtype=torch.bool, device=Q.device).tril(), 0)
    return (A @ V) / A.sum(-1, keepdim=True)


def linear_attention_recurrent(Q, K, V):
    """Causal linear attention, recurrent face: S += φ(k_t) v_tᵀ, z += φ(k_t), then read with φ(q_t)."""
    fq, fk = feature_map(Q), feature_map(K)
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    S = Q.new_zeros(*lead, Q.shape[-1], V.shape[-1])
    z = Q.new_zeros(*lead, Q.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        k, q = fk[..., t, :], fq[..., t, :]
        S = S + k[..., :, None] * V[..., t, None, :]
        z = z + k
        num = (q[..., None, :] @ S).squeeze(-2)
        ys.append(num / (q * z).sum(-1, keepdim=True))
    return torch.stack(ys, dim=-2)


class LinearAttentionState:
    """The decoding face: fold in one token at a time, constant work per token."""

    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        """Add token (k, v) to the state, then read it with φ(q)."""
        fq, fk = feature_map(q), feature_map(k)
        self.S = self.S.to(v.dtype) + fk[..., :, None] * v[..., None, :]
        self.z = self.z.to(k.dtype) + fk
        num = (fq[..., None, :] @ self.S).squeeze(-2)
        return num / (fq * self.z).sum(-1, keepdim=True)


# ----------------------------------------------------------------------------- retention

def as_gamma(gamma, like):
    """Validate gamma (every entry in [0, 1], NaN refused) and return it with shape gamma.shape + (1, 1)."""
    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if not bool(((g >= 0) & (g <= 1)).all()):
        raise ValueError(f"gamma must lie in [0, 1], got {gamma}")
    return g[..., None, None]


def decay_matrix(gamma, L):
    """D[n, m] = gamma**(n - m) for m <= n, else 0 (0**0 = 1)."""
    n = torch.arange(L, device=gamma.device)
    dist = n[:, None] - n[None, :]
    D = gamma ** dist.clamp(min=0).to(gamma.dtype)
    return D * (dist >= 0).to(gamma.dtype)


def retention_parallel(Q, K, V, gamma):
    """(Q Kᵀ ⊙ D) V."""
    g = as_gamma(gamma, Q)
    D = decay_matrix(g, Q.shape[-2])
    return ((Q @ K.transpose(-2, -1)) * D) @ V


def retention_recurrent(Q, K, V, gamma):
    """S_n = gamma S_{n-1} + k_nᵀ v_n, o_n = q_n S_n."""
    g = as_gamma(gamma, Q)
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    S = Q.new_zeros(*lead, Q.shape[-1], V.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :, None] * V[..., t, None, :]
        ys.append((Q[..., t, None, :] @ S).squeeze(-2))
    return torch.stack(ys, dim=-2)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    """Parallel inside each chunk, recurrent between chunks; any chunk_size >= 1."""
    if int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size}")
    chunk_size = int(chunk_size)
    g = as_gamma(gamma, Q)
    gv = g[..., 0, 0]
    L = Q.shape[-2]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    R = Q.new_zeros(*lead, Q.shape[-1], V.shape[-1])
    outs = []
    for c0 in range(0, L, chunk_size):
        q, k, v = Q[..., c0:c0 + chunk_size, :], K[..., c0:c0 + chunk_size, :], V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]
        D = decay_matrix(g, n)
        j = torch.arange(n, device=Q.device, dtype=Q.dtype)
        inner = ((q @ k.transpose(-2, -1)) * D) @ v
        cross = (gv[..., None] ** (j + 1))[..., :, None] * (q @ R)
        outs.append(inner + cross)
        w = gv[..., None] ** (n - 1 - j)
        R = (gv ** n)[..., None, None] * R + (k * w[..., :, None]).transpose(-2, -1) @ v
    out = torch.cat(outs, dim=-2)
    return (out, R) if return_state else out


def multiscale_decays(num_heads):
    """gamma_h = 1 - 2**(-5 - h), h = 0 .. num_heads-1."""
    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1 - 2.0 ** (-5 - h)


# ----------------------------------------------------------------------------- the one recurrence

def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    """S_t = A_t S_{t-1} + k_tᵀ v_t, y_t = q_t S_t, with A_t = 1 / gamma / gate[..., t]."""
    L = Q.shape[-2]
    if mode == "linear":
        A = [None] * L
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        g = as_gamma(gamma, Q)
        A = [g] * L
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        gt = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)
        if gt.shape[-1] != L:
            raise ValueError(f"gate has {gt.shape[-1]} entries for {L} tokens")
        A = [gt[..., t, None, None] for t in range(L)]
    else:
        raise ValueError(f"unknown mode {mode!r}")
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    S = Q.new_zeros(*lead, Q.shape[-1], V.shape[-1])
    ys = []
    for t in range(L):
        upd = K[..., t, :, None] * V[..., t, None, :]
        S = upd + (S if A[t] is None else A[t] * S)
        ys.append((Q[..., t, None, :] @ S).squeeze(-2))
    return torch.stack(ys, dim=-2)


# ----------------------------------------------------------------------------- optional extension

def gated_delta_rule(Q, K, V, alpha, beta):
    """OPTIONAL EXTENSION (not graded): decay, predict from the decayed state, write the error."""
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    S = Q.new_zeros(*lead, Q.shape[-1], V.shape[-1])
    alpha = torch.as_tensor(alpha, dtype=Q.dtype)
    beta = torch.as_tensor(beta, dtype=Q.dtype)
    ys = []
    for t in range(Q.shape[-2]):
        k = K[..., t, :]
        S = alpha[..., t, None, None] * S
        err = V[..., t, :] - (k[..., None, :] @ S).squeeze(-2)
        S = S + beta[..., t, None, None] * k[..., :, None] * err[..., None, :]
        ys.append((Q[..., t, None, :] @ S).squeeze(-2))
    return torch.stack(ys, dim=-2)
