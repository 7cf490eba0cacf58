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


# ----------------------------------------------------------------------------- linear attention

def linear_attention_parallel(Q, K, V):
    """Causal linear attention, parallel face: one masked matmul.

    A[i, j] = φ(q_i)·φ(k_j) for j <= i (0 above the diagonal), and
    y_i = Σ_j A[i, j] v_j / Σ_j A[i, j].

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v). Builds the L × L matrix A.
    """
    q, k = feature_map(Q), feature_map(K)                        # (..., L, m)
    L = q.shape[-2]
    A = q @ k.transpose(-2, -1)                                  # (..., L, L): A[i, j] = φ(q_i)·φ(k_j)
    future = torch.ones(L, L, dtype=torch.bool, device=q.device).triu(1)
    A = A.masked_fill(future, 0.0)                               # causal: keep j <= i
    return (A @ V) / A.sum(-1, keepdim=True)                     # (..., L, d_v) / (..., L, 1)


def linear_attention_recurrent(Q, K, V):
    """Causal linear attention, recurrent face: a running state, no L × L matrix.

    For t = 0 .. L-1:  S ← S + φ(k_t) v_tᵀ,  z ← z + φ(k_t),  y_t = φ(q_t)ᵀS / φ(q_t)ᵀz.
    The state is updated *before* it is read, so token t sees itself.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v).
    """
    q, k = feature_map(Q), feature_map(K)                        # (..., L, m)
    S = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in
    z = Q.new_zeros(Q.shape[-1])                                 # (m,)
    ys = []
    for t in range(Q.shape[-2]):
        S = S + k[..., t, :, None] * V[..., t, None, :]          # (..., m, d_v): += φ(k_t) v_tᵀ
        z = z + k[..., t, :]                                     # (..., m)
        num = torch.einsum("...m,...md->...d", q[..., t, :], S)  # (..., d_v): φ(q_t)ᵀ S
        den = (q[..., t, :] * z).sum(-1, keepdim=True)           # (..., 1):   φ(q_t)ᵀ z
        ys.append(num / den)
    return torch.stack(ys, dim=-2)                               # (..., L, d_v)


class LinearAttentionState:
    """The decoding face: fold in one token at a time, constant work per token.

    Holds S (m × d_v) and z (m). The leading dims of the first token are picked up by
    broadcasting, so one object can decode a whole batch of heads.
    """

    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)                             # (m, d_v), becomes (..., m, d_v)
        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)

    def step(self, q, k, v):
        """Add token (k, v) to the state, then read it with q.

        q, k: (..., m); v: (..., d_v) -> y: (..., d_v), equal to row t of
        linear_attention_recurrent when tokens 0 .. t have been stepped in.
        """
        q, k = feature_map(q), feature_map(k)                    # (..., m)
        self.S = self.S + k[..., :, None] * v[..., None, :]      # (..., m, d_v): += φ(k) vᵀ
        self.z = self.z + k                                      # (..., m)
        num = torch.einsum("...m,...md->...d", q, self.S)        # (..., d_v)
        return num / (q * self.z).sum(-1, keepdim=True)          # (..., d_v) / (..., 1)


# ----------------------------------------------------------------------------- retention

def as_gamma(gamma, like):
    """Check the decay and return it as a tensor that broadcasts against (..., L, L) or (..., m, d_v).

    gamma: a float, or a tensor over the leading dims (one per head). Every entry must lie in
    [0, 1]: gamma > 1 makes gamma**(n - m) grow with distance and the state diverge, and
    gamma < 0 flips signs every step. Raises ValueError otherwise (NaN included).
    Returns gamma in like's dtype and device, with shape gamma.shape + (1, 1).
    """
    gamma = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if not bool(((gamma >= 0) & (gamma <= 1)).all()):
        raise ValueError(f"gamma must lie in [0, 1], got {gamma.tolist()}")
    return gamma[..., None, None]                                # (..., 1, 1)


def decay_matrix(gamma, L):
    """The causal decay matrix D[n, m] = gamma**(n - m) for m <= n, else 0.

    gamma: the output of as_gamma, shape (..., 1, 1) -> D: (..., L, L).
    gamma = 0 follows 0**0 = 1: D is then the identity (each token sees only itself).
    """
    n = torch.arange(L, device=gamma.device)
    distance = n[:, None] - n[None, :]                           # (L, L): n - m
    D = gamma ** distance.clamp(min=0).to(gamma.dtype)           # (..., L, L); torch.pow(0, 0) = 1
    return D.masked_fill(distance < 0, 0.0)                      # causal: m <= n


def retention_parallel(Q, K, V, gamma):
    """Retention, parallel face: (Q Kᵀ ⊙ D) V. No feature map, no normalizer.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v). Builds the L × L matrix.
    """
    gamma = as_gamma(gamma, Q)                                   # (..., 1, 1)
    D = decay_matrix(gamma, Q.shape[-2])                         # (..., L, L)
    return (Q @ K.transpose(-2, -1) * D) @ V                     # (..., L, d_v)


def retention_recurrent(Q, K, V, gamma):
    """Retention, recurrent face: S_n = gamma S_{n-1} + k_nᵀ v_n, o_n = q_n S_n.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v).
    """
    gamma = as_gamma(gamma, Q)                                   # (..., 1, 1)
    S = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in
    outs = []
    for n in range(Q.shape[-2]):
        S = gamma * S + K[..., n, :, None] * V[..., n, None, :]  # (..., m, d_v): decay, then add k_nᵀ v_n
        outs.append(torch.einsum("...m,...md->...d", Q[..., n, :], S))   # (..., d_v)
    return torch.stack(outs, dim=-2)                             # (..., L, d_v)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    """Retention, chunkwise face: parallel inside each chunk, recurrent between chunks.

    For a chunk of n tokens (n = chunk_size, or fewer for the last one) and local index j:
        o_j = [(q kᵀ ⊙ D_n) v]_j + gamma**(j+1) q_j R           (intra + cross-chunk)
        R  ← gamma**n R + Σ_s gamma**(n-1-s) k_sᵀ v_s             (carry the state on)
    Works for any chunk_size >= 1 (dividing L or not, larger than L too) and never builds an
    L × L matrix. With return_state=True returns (out, R), R: (..., m, d_v), the state after
    the last token: what retention_recurrent's S ends as.
    """
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1, got {chunk_size}")
    gamma = as_gamma(gamma, Q)                                   # (..., 1, 1)
    R = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in
    outs = []
    for c0 in range(0, Q.shape[-2], chunk_size):
        q = Q[..., c0:c0 + chunk_size, :]                        # (..., n, m)
        k = K[..., c0:c0 + chunk_size, :]                        # (..., n, m)
        v = V[..., c0:c0 + chunk_size, :]                        # (..., n, d_v)
        n = q.shape[-2]                                          # chunk_size, or fewer at the end
        j = torch.arange(n, dtype=Q.dtype, device=Q.device)[:, None]          # (n, 1) local index
        intra = (q @ k.transpose(-2, -1) * decay_matrix(gamma, n)) @ v        # (..., n, d_v)
        cross = gamma ** (j + 1) * (q @ R)                       # (..., n, d_v): R seen from token j
        outs.append(intra + cross)
        R = gamma ** n * R + (k * gamma ** (n - 1 - j)).transpose(-2, -1) @ v  # (..., m, d_v)
    out = torch.cat(outs, dim=-2)                                # (..., L, d_v)
    return (out, R) if return_state else out


def multiscale_decays(num_heads):
    """Multi-scale retention's per-head decays gamma_h = 1 - 2**(-5 - h), h = 0 .. num_heads-1.

    Returns a tensor of shape (num_heads,) in the default float dtype.
    """
    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1 - 2.0 ** (-5 - h)                                   # (H,)


# ----------------------------------------------------------------------------- the one recurrence

def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    """The one recurrence behind the lesson's table: S_t = A_t S_{t-1} + k_tᵀ v_t, y_t = q_t S_t.

    mode "linear":    A_t = 1
    mode "retention": A_t = gamma (a float or a per-head tensor, checked like retention's)
    mode "gated":     A_t = gate[..., t]; gate has shape (L,) or (..., L)
    A_t multiplies the OLD state S_{t-1} as token t arrives, before token t writes: a high A_t
    keeps what tokens 0 .. t-1 stored, while token s's own write ends up weighted by the gates
    after it, A_{s+1} A_{s+2} ... A_t.
    No feature map and no normalizer: the bare recurrence. Q, K: (..., L, m);
    V: (..., L, d_v) -> (..., L, d_v). An unknown mode, or a missing gamma/gate, raises ValueError.
    """
    L = Q.shape[-2]
    if mode == "linear":
        A = Q.new_ones(L)                                        # (L,)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode='retention' needs gamma")
        A = as_gamma(gamma, Q)[..., 0] * Q.new_ones(L)           # (..., L): gamma at every step
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode='gated' needs gate")
        A = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)   # (..., L)
    else:
        raise ValueError(f"mode must be 'linear', 'retention' or 'gated', got {mode!r}")
    S = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in
    ys = []
    for t in range(L):
        S = A[..., t, None, None] * S + K[..., t, :, None] * V[..., t, None, :]   # (..., m, d_v)
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))            # (..., d_v)
    return torch.stack(ys, dim=-2)                               # (..., L, d_v)


# ----------------------------------------------------------------------------- optional extension

def gated_delta_rule(Q, K, V, alpha, beta):
    """OPTIONAL EXTENSION (not graded): the gated delta rule of Gated DeltaNet (Yang et al., 2024).

        S_t = alpha_t (I - beta_t k_t k_tᵀ) S_{t-1} + beta_t k_t v_tᵀ,   y_t = q_t S_t

    read as: decay the state, then predict what it holds for k_t and write back only the error,
        S' = alpha_t S_{t-1};  S_t = S' + beta_t k_t (v_t - k_tᵀ S')ᵀ.
    The prediction is made from the *decayed* state, as in Gated DeltaNet and
    flash-linear-attention. The rule is also often written predict-then-decay, with the
    prediction made from the undecayed S_{t-1}; the two agree only when alpha_t = 1. We decay
    first because then, for a
    unit-norm key and beta_t = 1, reading k_t back gives exactly v_t (the correction is
    computed against what the memory will really return); the other order leaves an error of
    (alpha_t - 1) k_tᵀ S_{t-1}.

    Q, K: (..., L, m), keys expected L2-normalised (the caller's job, as in Gated DeltaNet);
    V: (..., L, d_v); alpha, beta: (L,) or (..., L), in [0, 1] -> (..., L, d_v).
    """
    alpha = torch.as_tensor(alpha, dtype=Q.dtype, device=Q.device)   # (..., L)
    beta = torch.as_tensor(beta, dtype=Q.dtype, device=Q.device)     # (..., L)
    S = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in
    ys = []
    for t in range(Q.shape[-2]):
        k_t, v_t = K[..., t, :], V[..., t, :]                    # (..., m), (..., d_v)
        S = alpha[..., t, None, None] * S                        # 1. decay
        predicted = torch.einsum("...m,...md->...d", k_t, S)     # 2. what the state says for k_t
        error = v_t - predicted                                  # (..., d_v)
        S = S + beta[..., t, None, None] * k_t[..., :, None] * error[..., None, :]   # 3. correct
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    return torch.stack(ys, dim=-2)                               # (..., L, d_v)


# ----------------------------------------------------------------------------- the chunk loop in NumPy

import numpy as np


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    """Retention, chunkwise face, the chunk loop written in NumPy (the tensors' own memory, no copy in or out):
    the decay tables made once per chunk length (the full one and the short last one), R updated in place, the
    outputs written into one preallocated array. Returns out, or (out, R) with return_state=True."""
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1, got {chunk_size}")
    g = as_gamma(gamma, Q).cpu().numpy()                         # (..., 1, 1)
    q_, k_, v_ = Q.detach().cpu().numpy(), K.detach().cpu().numpy(), V.detach().cpu().numpy()
    L, m, d_v = q_.shape[-2], q_.shape[-1], v_.shape[-1]
    lead = np.broadcast_shapes(q_.shape[:-2], k_.shape[:-2], v_.shape[:-2], g.shape[:-2])
    out = np.empty((*lead, L, d_v), dtype=q_.dtype)
    R = np.zeros((*lead, m, d_v), dtype=q_.dtype)
    tables = {}

    def table(n):                                                # the decays of a chunk of n tokens
        if n not in tables:
            j = np.arange(n, dtype=q_.dtype)[:, None]            # (n, 1)
            dist = j - j.T
            D = np.where(dist >= 0, g ** np.maximum(dist, 0), 0).astype(q_.dtype)   # (..., n, n); 0**0 = 1
            tables[n] = (D, (g ** (j + 1)).astype(q_.dtype), (g ** (n - 1 - j)).astype(q_.dtype),
                         (g ** n).astype(q_.dtype))
        return tables[n]

    for c0 in range(0, L, chunk_size):
        q, k, v = q_[..., c0:c0 + chunk_size, :], k_[..., c0:c0 + chunk_size, :], v_[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]
        D, into, left, whole = table(n)
        out[..., c0:c0 + n, :] = (q @ np.swapaxes(k, -1, -2) * D) @ v + into * (q @ R)
        R *= whole
        R += np.swapaxes(k * left, -1, -2) @ v
    out_t = torch.from_numpy(out).to(Q.device)
    return (out_t, torch.from_numpy(R).to(Q.device)) if return_state else out_t
