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
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


# ----------------------------------------------------------------------------- linear attention

def linear_attention_parallel(Q, K, V):
    """Causal linear attention, parallel face: one masked matmul (builds the L × L matrix)."""
    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    A = (phi_q @ phi_k.transpose(-1, -2)).tril()
    return (A @ V) / A.sum(-1, keepdim=True)


def linear_attention_recurrent(Q, K, V):
    """Causal linear attention, recurrent face: a running state, no L × L matrix.

    For t = 0 .. L-1:  S ← S + φ(k_t) v_tᵀ,  z ← z + φ(k_t),  y_t = φ(q_t)ᵀS / φ(q_t)ᵀz.
    """
    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    z = torch.zeros(Q.shape[-1], dtype=V.dtype, device=V.device)
    out = V.new_zeros(torch.broadcast_shapes(Q.shape[:-1], V.shape[:-1]) + V.shape[-1:])
    for t in range(L):
        k, q = phi_k[..., t, :], phi_q[..., t, :]
        S = S + k[..., :, None] * V[..., t, None, :]
        z = z + k
        out[..., t, :] = (q[..., None, :] @ S).squeeze(-2) / (q * z).sum(-1, keepdim=True)
    return out


class LinearAttentionState:
    """The decoding face: fold in one token at a time, constant work per token.

    Holds S (m × d_v) and z (m); the leading dims of the first token are picked up by broadcasting.
    """

    def __init__(self, m, d_v):
        self.m, self.d_v = m, d_v
        self.S = None
        self.z = None

    def step(self, q, k, v):
        """Add token (k, v) to the state, then read it with q: q, k (..., m); v (..., d_v) -> (..., d_v)."""
        phi_k, phi_q = feature_map(k), feature_map(q)
        if self.S is None:
            self.S = torch.zeros(self.m, self.d_v, dtype=v.dtype, device=v.device)
            self.z = torch.zeros(self.m, dtype=v.dtype, device=v.device)
        self.S = self.S + phi_k[..., :, None] * v[..., None, :]
        self.z = self.z + phi_k
        return (phi_q[..., None, :] @ self.S).squeeze(-2) / (phi_q * self.z).sum(-1, keepdim=True)


# ----------------------------------------------------------------------------- retention

def as_gamma(gamma, like):
    """Check the decay (every entry in [0, 1], NaN refused) and return it in like's dtype and device,
    with shape gamma.shape + (1, 1)."""
    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if not bool(((g >= 0) & (g <= 1)).all()):
        raise ValueError(f"gamma must lie in [0, 1], got {gamma}")
    return g[..., None, None]


def decay_matrix(gamma, L):
    """D[n, m] = gamma**(n - m) for m <= n, else 0; gamma: as_gamma's output -> (..., L, L)."""
    pos = torch.arange(L, device=gamma.device)
    distance = (pos[:, None] - pos[None, :]).to(gamma.dtype)
    D = gamma ** distance.clamp(min=0)
    return D * (distance >= 0)


def retention_parallel(Q, K, V, gamma):
    """Retention, parallel face: (Q Kᵀ ⊙ D) V."""
    g = as_gamma(gamma, Q)
    return ((Q @ K.transpose(-1, -2)) * decay_matrix(g, Q.shape[-2])) @ V


def retention_recurrent(Q, K, V, gamma):
    """Retention, recurrent face: S_n = gamma S_{n-1} + k_nᵀ v_n, o_n = q_n S_n."""
    g = as_gamma(gamma, Q)
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    outs = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :, None] * V[..., t, None, :]
        outs.append((Q[..., t, None, :] @ S).squeeze(-2))
    if not outs:
        return V.new_zeros(V.shape)
    return torch.stack(outs, dim=-2)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    """Retention, chunkwise face: parallel inside each chunk, recurrent between chunks.

        o_j = [(q kᵀ ⊙ D_n) v]_j + gamma**(j+1) q_j R
        R  ← gamma**n R + Σ_s gamma**(n-1-s) k_sᵀ v_s
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L = Q.shape[-2]
    R = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    outs = []
    for c0 in range(0, L, chunk_size):
        c1 = min(c0 + chunk_size, L)
        q, k, v = Q[..., c0:c1, :], K[..., c0:c1, :], V[..., c0:c1, :]
        n = c1 - c0
        j = torch.arange(n, dtype=g.dtype, device=g.device)[:, None]
        intra = ((q @ k.transpose(-1, -2)) * decay_matrix(g, n)) @ v
        outs.append(intra + (g ** (j + 1)) * (q @ R))
        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-1, -2) @ v
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(V.shape)
    if return_state:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
        return out, R.expand(*lead, Q.shape[-1], V.shape[-1])
    return out


def multiscale_decays(num_heads):
    """gamma_h = 1 - 2**(-5 - h), h = 0 .. num_heads-1, in the default float dtype."""
    return 1 - 2.0 ** (-5 - torch.arange(num_heads, dtype=torch.get_default_dtype()))


# ----------------------------------------------------------------------------- the one recurrence

def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    """S_t = A_t S_{t-1} + k_tᵀ v_t, y_t = q_t S_t, with A_t = 1 ("linear"), gamma ("retention") or
    gate[..., t] ("gated")."""
    L = Q.shape[-2]
    if mode == "linear":
        gates = [None] * L
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        gates = [as_gamma(gamma, Q)] * L
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        gate = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)
        gates = [gate[..., t, None, None] for t in range(L)]
    else:
        raise ValueError(f"unknown mode {mode!r}")
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    outs = []
    for t in range(L):
        update = K[..., t, :, None] * V[..., t, None, :]
        S = S + update if gates[t] is None else gates[t] * S + update
        outs.append((Q[..., t, None, :] @ S).squeeze(-2))
    return torch.stack(outs, dim=-2) if outs else V.new_zeros(V.shape)


# ----------------------------------------------------------------------------- optional extension

def gated_delta_rule(Q, K, V, alpha, beta):
    """OPTIONAL EXTENSION: S' = alpha_t S_{t-1}; S_t = S' + beta_t k_t (v_t - k_tᵀ S')ᵀ; y_t = q_t S_t."""
    alpha = torch.as_tensor(alpha, dtype=Q.dtype, device=Q.device)
    beta = torch.as_tensor(beta, dtype=Q.dtype, device=Q.device)
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    outs = []
    for t in range(Q.shape[-2]):
        k, v = K[..., t, :], V[..., t, :]
        S = alpha[..., t, None, None] * S
        error = v - (k[..., None, :] @ S).squeeze(-2)
        S = S + beta[..., t, None, None] * k[..., :, None] * error[..., None, :]
        outs.append((Q[..., t, None, :] @ S).squeeze(-2))
    return torch.stack(outs, dim=-2) if outs else V.new_zeros(V.shape)
