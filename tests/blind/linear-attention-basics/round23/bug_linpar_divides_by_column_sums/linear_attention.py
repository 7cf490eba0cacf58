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
    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    keep = torch.ones(L, L, dtype=torch.bool, device=Q.device).tril()    # keep[i, j] = (j <= i)
    A = torch.where(keep, phi_q @ phi_k.transpose(-2, -1), 0.0)          # (..., L, L)
    den = A.sum(dim=-2)[..., :, None]                                     # φ(q_i)ᵀ z_i, (..., L, 1)
    return (A @ V) / den


def linear_attention_recurrent(Q, K, V):
    """Causal linear attention, recurrent face: a running state, no L × L matrix.

    For t = 0 .. L-1:  S ← S + φ(k_t) v_tᵀ,  z ← z + φ(k_t),  y_t = φ(q_t)ᵀS / φ(q_t)ᵀz.
    The state is updated *before* it is read, so token t sees itself.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v).
    """
    phi_q, phi_k = feature_map(Q), feature_map(K)
    S = V.new_zeros(K.shape[-1], V.shape[-1])                 # broadcasting adds the leading dims
    z = V.new_zeros(K.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        q_t, k_t, v_t = phi_q[..., t, :], phi_k[..., t, :], V[..., t, :]
        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)          # write token t first: S += φ(k_t) v_tᵀ
        z = z + k_t
        num = torch.einsum("...m,...md->...d", q_t, S)         # then read: φ(q_t)ᵀ S
        den = torch.einsum("...m,...m->...", q_t, z).unsqueeze(-1)
        ys.append(num / den)
    if not ys:
        return V.clone()
    return torch.stack(ys, dim=-2)


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
        phi_q, phi_k = feature_map(q), feature_map(k)
        # fresh tensors every step (never an in-place add): the state follows v's dtype and device
        # and picks up the leading dims of the first token by broadcasting
        self.S = self.S.to(v) + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = self.z.to(v) + phi_k
        num = torch.einsum("...m,...md->...d", phi_q, self.S)
        den = torch.einsum("...m,...m->...", phi_q, self.z).unsqueeze(-1)
        return num / den


# ----------------------------------------------------------------------------- retention

def as_gamma(gamma, like):
    """Check the decay and return it as a tensor that broadcasts against (..., L, L) or (..., m, d_v).

    gamma: a float, or a tensor over the leading dims (one per head). Every entry must lie in
    [0, 1]: gamma > 1 makes gamma**(n - m) grow with distance and the state diverge, and
    gamma < 0 flips signs every step. Raises ValueError otherwise (NaN included).
    Returns gamma in like's dtype and device, with shape gamma.shape + (1, 1).
    """
    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if bool(torch.isnan(g).any()) or bool((g < 0).any()) or bool((g > 1).any()):
        raise ValueError(f"gamma must lie in [0, 1], got {gamma!r}")
    return g.reshape(*g.shape, 1, 1)


def decay_matrix(gamma, L):
    """The causal decay matrix D[n, m] = gamma**(n - m) for m <= n, else 0.

    gamma: the output of as_gamma, shape (..., 1, 1) -> D: (..., L, L).
    gamma = 0 follows 0**0 = 1: D is then the identity (each token sees only itself).
    """
    idx = torch.arange(L, device=gamma.device)
    dist = idx.unsqueeze(-1) - idx.unsqueeze(0)                   # (L, L): n - m
    powers = gamma ** dist.clamp(min=0).to(gamma.dtype)           # (..., L, L); 0**0 = 1 on the diagonal
    return torch.where(dist >= 0, powers, 0.0)                    # m > n: 0


def retention_parallel(Q, K, V, gamma):
    """Retention, parallel face: (Q Kᵀ ⊙ D) V. No feature map, no normalizer.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v). Builds the L × L matrix.
    """
    D = decay_matrix(as_gamma(gamma, Q), Q.shape[-2])
    return (Q @ K.transpose(-2, -1) * D) @ V


def retention_recurrent(Q, K, V, gamma):
    """Retention, recurrent face: S_n = gamma S_{n-1} + k_nᵀ v_n, o_n = q_n S_n.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v).
    """
    g = as_gamma(gamma, Q)                                      # (..., 1, 1)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # S_n = γ S_{n-1} + k_nᵀ v_n
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))          # o_n = q_n S_n
    if not ys:
        return V.clone()
    return torch.stack(ys, dim=-2)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    """Retention, chunkwise face: parallel inside each chunk, recurrent between chunks.

    For a chunk of n tokens (n = chunk_size, or fewer for the last one) and local index j:
        o_j = [(q kᵀ ⊙ D_n) v]_j + gamma**(j+1) q_j R           (intra + cross-chunk)
        R  ← gamma**n R + Σ_s gamma**(n-1-s) k_sᵀ v_s             (carry the state on)
    Works for any chunk_size >= 1 (dividing L or not, larger than L too) and never builds an
    L × L matrix. With return_state=True returns (out, R), R: (..., m, d_v), the state after
    the last token: what retention_recurrent's S ends as.
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
    g = as_gamma(gamma, Q)                                      # (..., 1, 1)
    L = Q.shape[-2]
    R = V.new_zeros(K.shape[-1], V.shape[-1])
    chunks = []
    for c0 in range(0, L, chunk_size):
        q, k, v = Q[..., c0:c0 + chunk_size, :], K[..., c0:c0 + chunk_size, :], V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]                                          # the last chunk may be shorter
        j = torch.arange(n, device=V.device, dtype=V.dtype).unsqueeze(-1)   # local index, (n, 1)
        D = decay_matrix(g, n)
        intra = (q @ k.transpose(-2, -1) * D) @ v
        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R
        chunks.append(intra + cross)
        R = g ** n * R + (g ** (n - 1 - j) * k).transpose(-2, -1) @ v   # γ^n R + Σ_s γ^(n-1-s) k_sᵀ v_s
    out = torch.cat(chunks, dim=-2) if chunks else V.clone()
    return (out, R) if return_state else out


def multiscale_decays(num_heads):
    """Multi-scale retention's per-head decays gamma_h = 1 - 2**(-5 - h), h = 0 .. num_heads-1.

    Returns a tensor of shape (num_heads,) in the default float dtype.
    """
    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1.0 - torch.pow(2.0, -5.0 - h)


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
        A = V.new_ones(L, 1, 1)                                  # (L, 1, 1)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        g = as_gamma(gamma, V)                                   # (..., 1, 1)
        A = g.unsqueeze(-3).expand(*g.shape[:-2], L, 1, 1)       # (..., L, 1, 1)
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)[..., None, None]   # (..., L, 1, 1)
    else:
        raise ValueError(f"unknown mode {mode!r}: expected 'linear', 'retention' or 'gated'")
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(L):
        S = A[..., t, :, :] * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # A_t scales the OLD S
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    if not ys:
        return V.clone()
    return torch.stack(ys, dim=-2)


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
    alpha = torch.as_tensor(alpha, dtype=V.dtype, device=V.device)
    beta = torch.as_tensor(beta, dtype=V.dtype, device=V.device)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        k_t, v_t = K[..., t, :], V[..., t, :]
        S = alpha[..., t, None, None] * S                        # decay first ...
        pred = torch.einsum("...m,...md->...d", k_t, S)          # ... then predict from the decayed state
        S = S + beta[..., t, None, None] * k_t.unsqueeze(-1) * (v_t - pred).unsqueeze(-2)
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    if not ys:
        return V.clone()
    return torch.stack(ys, dim=-2)
