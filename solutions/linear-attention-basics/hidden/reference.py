"""An independent float64 reference in numpy, and the known-wrong variants that name a mistake.

Nothing here imports the solution. The correct forms are written as explicit sums over
positions (cumulative sums, double loops over n and m), not as the masked matmuls or
chunk loops students write, so a bug shared by the solution and a student cannot hide.

Layout as in the assignment: Q, K (..., L, m); V (..., L, d_v); leading dims any.
"""
import numpy as np


def qkv(seed, lead, L, m, d_v, shift=0.0, scale=1.0):
    """Random float64 Q, K, V of shape lead + (L, m) / lead + (L, d_v), from a fixed seed."""
    rng = np.random.default_rng(seed)
    Q = rng.standard_normal((*lead, L, m)) * scale + shift
    K = rng.standard_normal((*lead, L, m)) * scale + shift
    V = rng.standard_normal((*lead, L, d_v))
    return Q, K, V


def elu_plus_one(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def identity(x):
    return x


# ----------------------------------------------------------------------------- linear attention

def linear_attention(Q, K, V, phi=elu_plus_one, normalize=True, whole_sequence_z=False,
                     read_before_update=False, v_kT=False, causal=True):
    """y_i = φ(q_i)ᵀS_i / φ(q_i)ᵀz_i with S_i = Σ_{j<=i} φ(k_j) v_jᵀ, z_i = Σ_{j<=i} φ(k_j).

    The keyword switches build the wrong variants that suspects name.
    """
    q, k = phi(Q), phi(K)
    outer = k[..., :, :, None] * V[..., :, None, :]               # (..., L, m, d_v)
    if v_kT:
        outer = np.swapaxes(outer, -1, -2)                        # v kᵀ: needs m == d_v
    S = np.cumsum(outer, axis=-3)                                 # (..., L, m, d_v): S_i
    z = np.cumsum(k, axis=-2)                                     # (..., L, m): z_i
    if read_before_update:
        S, z = S - outer, z - k                                   # S_{i-1}, z_{i-1}
    if not causal:
        S = np.broadcast_to(S[..., -1:, :, :], S.shape)
        z = np.broadcast_to(z[..., -1:, :], z.shape)
    if whole_sequence_z:
        z = np.broadcast_to(z[..., -1:, :], z.shape)
    num = np.einsum("...lm,...lmd->...ld", q, S)
    if not normalize:
        return num
    with np.errstate(invalid="ignore", divide="ignore"):
        return num / np.einsum("...lm,...lm->...l", q, z)[..., None]


# ----------------------------------------------------------------------------- retention

def gamma_array(gamma, lead):
    """gamma (float or array over the leading dims) broadcast to the leading dims."""
    return np.broadcast_to(np.asarray(gamma, dtype=np.float64), lead)


def weighted_sum(Q, K, V, weight):
    """o_n = Σ_{m<=n} weight(n, m) (q_n·k_m) v_m, written as a double loop over n and m."""
    L = Q.shape[-2]
    out = np.zeros((*np.broadcast_shapes(Q.shape[:-2], V.shape[:-2]), L, V.shape[-1]))
    for n in range(L):
        for m_ in range(n + 1):
            score = np.sum(Q[..., n, :] * K[..., m_, :], axis=-1)          # (...)
            out[..., n, :] += (weight(n, m_) * score)[..., None] * V[..., m_, :]
    return out


def retention_by_steps(Q, K, V, gamma):
    """retention at lengths the double loop cannot reach (the cost checks': L = 16384): S_n = gamma S_{n-1} +
    k_nᵀ v_n, o_n = q_n S_n, in numpy, one token at a time (tests hold it equal to `retention`)."""
    g = gamma_array(gamma, Q.shape[:-2])[..., None, None]
    S = np.zeros((*np.broadcast_shapes(Q.shape[:-2], V.shape[:-2]), Q.shape[-1], V.shape[-1]))
    out = np.empty((*S.shape[:-2], Q.shape[-2], V.shape[-1]))
    for n in range(Q.shape[-2]):
        S = g * S + K[..., n, :, None] * V[..., n, None, :]
        out[..., n, :] = np.einsum("...m,...md->...d", Q[..., n, :], S)
    return out


def retention(Q, K, V, gamma):
    """o_n = Σ_{m<=n} gamma**(n-m) (q_n·k_m) v_m, with 0**0 = 1."""
    g = gamma_array(gamma, Q.shape[:-2])
    return weighted_sum(Q, K, V, lambda n, m_: np.power(g, n - m_))


def retention_state(K, V, gamma):
    """The state after the last token: R = Σ_m gamma**(L-1-m) k_mᵀ v_m, shape (..., m, d_v)."""
    L = K.shape[-2]
    g = gamma_array(gamma, K.shape[:-2])
    R = np.zeros((*K.shape[:-2], K.shape[-1], V.shape[-1]))
    for m_ in range(L):
        R += np.power(g, L - 1 - m_)[..., None, None] * K[..., m_, :, None] * V[..., m_, None, :]
    return R


def retention_v_kT(Q, K, V, gamma):
    """The recurrent form with S built from v kᵀ (m == d_v): o_n = q_n Σ gamma**(n-m) v_m k_mᵀ."""
    L = Q.shape[-2]
    g = gamma_array(gamma, Q.shape[:-2])
    out = np.zeros(V.shape)
    for n in range(L):
        for m_ in range(n + 1):
            w = np.power(g, n - m_)[..., None]
            out[..., n, :] += w * np.sum(Q[..., n, :] * V[..., m_, :], -1, keepdims=True) * K[..., m_, :]
    return out


def retention_chunk_variant(Q, K, V, gamma, B, cross_shift=1, carry_shift=1, last_chunk_uses_B=False):
    """A chunkwise loop with the exponents made adjustable, to name off-by-one mistakes.

    cross term gamma**(j + cross_shift) q_j R; carry R <- gamma**n R + Σ gamma**(n - carry_shift - s) k_sᵀ v_s.
    The correct form is cross_shift = carry_shift = 1 and n the chunk's real length.
    """
    with np.errstate(divide="ignore", invalid="ignore"):     # gamma = 0 with a negative exponent: inf/nan
        return _chunk_loop(Q, K, V, gamma, B, cross_shift, carry_shift, last_chunk_uses_B)


def _chunk_loop(Q, K, V, gamma, B, cross_shift, carry_shift, last_chunk_uses_B):
    lead, L = Q.shape[:-2], Q.shape[-2]
    g = gamma_array(gamma, lead)[..., None, None]
    R = np.zeros((*lead, Q.shape[-1], V.shape[-1]))
    outs = []
    for c0 in range(0, L, B):
        q, k, v = Q[..., c0:c0 + B, :], K[..., c0:c0 + B, :], V[..., c0:c0 + B, :]
        n = q.shape[-2]
        nn = B if last_chunk_uses_B else n
        j = np.arange(n)[:, None]
        d = j - j.T
        D = np.where(d >= 0, np.power(g, np.maximum(d, 0)), 0.0)
        intra = ((q @ np.swapaxes(k, -1, -2)) * D) @ v
        outs.append(intra + np.power(g, j + cross_shift) * (q @ R))
        R = np.power(g, nn) * R + np.swapaxes(k * np.power(g, nn - carry_shift - j), -1, -2) @ v
    return np.concatenate(outs, axis=-2), R


def multiscale_decays(num_heads):
    return 1.0 - 2.0 ** (-5.0 - np.arange(num_heads))


# ----------------------------------------------------------------------------- the one recurrence

def gated(Q, K, V, gate):
    """y_n = Σ_{m<=n} (Π_{r=m+1..n} a_r) (q_n·k_m) v_m with a = gate (..., L) or (L,)."""
    a = np.asarray(gate, dtype=np.float64)
    return weighted_sum(Q, K, V, lambda n, m_: np.prod(a[..., m_ + 1:n + 1], axis=-1))


def gated_wrong_order(Q, K, V, gate):
    """The gate applied after the update (S_t = A_t (S_{t-1} + k_tᵀ v_t)): token t is decayed too."""
    a = np.asarray(gate, dtype=np.float64)
    return weighted_sum(Q, K, V, lambda n, m_: np.prod(a[..., m_:n + 1], axis=-1))
