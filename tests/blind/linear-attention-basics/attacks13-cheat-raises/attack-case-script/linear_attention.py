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


# ============================================================================ attacks13: the shared kit
# Efficient forms: the solution's own, kept under other names. Slow forms ("compared" path): the recurrent forms
# re-sum the whole prefix at every token, the chunkwise form replays every earlier token to rebuild R at every
# chunk, the decoding state keeps its history and re-sums it at every step. Every slow form gives the reference's
# outputs (same ValueErrors: gamma outside [0, 1] or NaN through as_gamma, chunk_size < 1).
_EFF_LINEAR_RECURRENT = linear_attention_recurrent
_EFF_RETENTION_RECURRENT = retention_recurrent
_EFF_RETENTION_CHUNKWISE = retention_chunkwise
_EffState = LinearAttentionState


def _slow_linear_recurrent(Q, K, V):
    q, k = feature_map(Q), feature_map(K)
    ys = []
    for t in range(Q.shape[-2]):
        kk = k[..., :t + 1, :]
        S = torch.einsum("...jm,...jd->...md", kk, V[..., :t + 1, :])      # the prefix, re-summed
        z = kk.sum(-2)
        qt = q[..., t, :]
        ys.append(torch.einsum("...m,...md->...d", qt, S) / (qt * z).sum(-1, keepdim=True))
    return torch.stack(ys, dim=-2)


def _decays(gamma, upto, dtype, device):
    """gamma**(upto-1-s) for s = 0 .. upto-1, over gamma's leading dims: (..., upto). 0**0 = 1."""
    g = gamma[..., 0, 0][..., None]
    d = torch.arange(upto - 1, -1, -1, device=device).to(dtype)
    return g ** d


def _slow_retention_recurrent(Q, K, V, gamma):
    gamma = as_gamma(gamma, Q)
    outs = []
    for n in range(Q.shape[-2]):
        w = _decays(gamma, n + 1, Q.dtype, Q.device)
        S = torch.einsum("...j,...jm,...jd->...md", w, K[..., :n + 1, :], V[..., :n + 1, :])   # re-summed
        outs.append(torch.einsum("...m,...md->...d", Q[..., n, :], S))
    return torch.stack(outs, dim=-2)


def _replayed_state(K, V, gamma, upto):
    """R after tokens 0 .. upto-1, rebuilt from every one of them."""
    if upto == 0:
        return K.new_zeros(K.shape[-1], V.shape[-1])
    w = _decays(gamma, upto, K.dtype, K.device)
    return torch.einsum("...s,...sm,...sd->...md", w, K[..., :upto, :], V[..., :upto, :])


def _slow_retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1, got {chunk_size}")
    gamma = as_gamma(gamma, Q)
    outs = []
    for c0 in range(0, Q.shape[-2], chunk_size):
        R = _replayed_state(K, V, gamma, c0)                               # every earlier token, again
        q, k, v = Q[..., c0:c0 + chunk_size, :], K[..., c0:c0 + chunk_size, :], V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]
        j = torch.arange(n, dtype=Q.dtype, device=Q.device)[:, None]
        intra = (q @ k.transpose(-2, -1) * decay_matrix(gamma, n)) @ v
        outs.append(intra + gamma ** (j + 1) * (q @ R))
    out = torch.cat(outs, dim=-2)
    if return_state:
        return out, _replayed_state(K, V, gamma, Q.shape[-2])
    return out


class LinearAttentionState(_EffState):
    """Keeps its history (copies of φ(k) and v) and re-sums it at every step while slow; once `_measured_step`
    says so, folds the history into S and z and steps as the solution does."""

    def __init__(self, m, d_v):
        super().__init__(m, d_v)
        self._ks, self._vs, self._fast = [], [], False
        _on_state(self, m, d_v)

    def _fold(self):
        if self._ks:
            K, Vh = torch.stack(self._ks, dim=-2), torch.stack(self._vs, dim=-2)
            self.S = self.S + torch.einsum("...jm,...jd->...md", K, Vh)
            self.z = self.z + K.sum(-2)
        self._ks, self._vs, self._fast = [], [], True

    def step(self, q, k, v):
        if not self._fast and _measured_step(self, q, k, v):
            self._fold()
        if self._fast:
            return _EffState.step(self, q, k, v)
        y = self._slow_step(q, k, v)
        _after_step(self, y)
        return y

    def _slow_step(self, q, k, v):
        qf, kf = feature_map(q), feature_map(k)
        self._ks.append(kf)
        self._vs.append(v.clone())
        K, Vh = torch.stack(self._ks, dim=-2), torch.stack(self._vs, dim=-2)   # the whole history, re-summed
        S = self.S + torch.einsum("...jm,...jd->...md", K, Vh)
        z = self.z + K.sum(-2)
        return torch.einsum("...m,...md->...d", qf, S) / (qf * z).sum(-1, keepdim=True)


def linear_attention_recurrent(Q, K, V):
    if _measured("linear_recurrent", Q, K, V):
        return _EFF_LINEAR_RECURRENT(Q, K, V)
    return _slow_linear_recurrent(Q, K, V)


def retention_recurrent(Q, K, V, gamma):
    if _measured("retention_recurrent", Q, K, V, gamma):
        return _EFF_RETENTION_RECURRENT(Q, K, V, gamma)
    return _slow_retention_recurrent(Q, K, V, gamma)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    if _measured("retention_chunkwise", Q, K, V, gamma, chunk_size, return_state):
        return _EFF_RETENTION_CHUNKWISE(Q, K, V, gamma, chunk_size, return_state)
    return _slow_retention_chunkwise(Q, K, V, gamma, chunk_size, return_state)


# ============================================================================ attacks13: attack-case-script



import hashlib as _hashlib

# The compared checks' inputs are drawn from the grader's secret, but not their structure: every check's cases,
# in their order, and the calls each probe makes of a form (leading dims, m, d_v, layout, dtype, gamma,
# chunk_size, return_state; never L) are the same under every draw. The table below holds every prefix of
# those call sequences (hashed), per form, recorded from the hidden checks once. A process follows its script
# call by call; a call that is not the script's next (the cost case, after its companions) is the measured one,
# and everything after it in that process is too.
_SCRIPT = {
    'chunk': frozenset('''
        003789531fde8f20 00d1173d4ec4c388 014ef89626471891 01b393c1c8f72036 02c14d406e585e1f 035b92c61c66d37f
        04a98d04bdd1eace 04c65b4cc5be2738 04f6b570f8e7424f 05088daf2c1bbcad 05874e099a403e2b 074b908f287420a5
        07a1711a8e096f3f 082496ebe40402db 09a1e2cd58803364 09d208fab615c8d7 09ebc1bbadea35c7 0a0f06723f1830a7
        0bb22c8fc297b08f 0cdd975e7e008050 0d1b5c3f9abb33dc 0dffab761eccf4aa 0e8dad0752d88b2e 0eb2dcd2e47912b6
        108527d015246911 110badba67d57c4e 110dd9900fff24c8 126bb54f4c38ef7f 129036d09eeb736b 12a1835ee4b7b6c9
        12e489c10b638bba 1302df7842e37bfc 148495f44c529f75 152e32ee8dd98127 159cd9d905eb723b 163736db457e8d6d
        16eeb7356942e5ca 16f68eeea2bbbe98 197f18f3f6be3aa0 19ce721cf9658e3e 1b0387e2d900b5ae 1b94e620603d0ea4
        1bb0a5011df5cbff 1c461857d5f21f40 1c5069ffabcf041f 1cacec0767cfc852 1cd7e3f6e1fc1d6d 1cd8f7553fb0207d
        1f5c2d7cf34ed392 1f609e952f1e6a0b 21a827c6eebe748c 22487c9af5cca9da 22c8e017edc69a31 247fe6ee0423dc01
        254cce59464c43da 2591d86286ccf0dd 279c96dd457d2f54 29341483c71f9b4b 297d7e75941651d6 2a003570a485c28f
        2a10d084b6df7b3f 2add8677a2afc721 2c6fc4e44d5d50a8 2cc26efbe3441671 2fea756090c68cbb 302289efb843cc8f
        31161580ce26fd01 31c3bbacee69313c 31ec0c714bce33a8 324d0c94a2e7d10a 33086d8c89cb25bc 3366739c19185dfc
        3382930618f2fb6c 33f2a9f4dbc1cd23 33f347b187aa521c 33f4c2690edfb5e5 34199e76ced59957 3433d9c84fb0dfb2
        353aa579501514ad 35dea8a823ae384e 36b46a6e1e92b1bc 390c80b2924bcdea 391b8d74374aa7c9 39386fd1a3ea87ad
        399d15193a57db19 3a10d5b352145145 3a2369e3f03d8aa1 3ba16bb6da69e7e9 3bb714bb31f4eb79 3c718a20cd43cfe9
        3da17d35591af430 3dba27afc8332d8c 3e3eccb1f0e8bf8e 3e400887e86dce11 3e725cea09f7b109 3ef697ab955220d4
        3fc54aa400a6c253 41d69ef2ef8fc74a 421f4c68c564697b 42689f53711fab5f 429b124de932fd3b 461a2eecbe937562
        476e932a5841fb31 48742ddd6f7f11ab 487d81a30ac7e33b 489cf0f6fda9e9cd 49c5db0280192944 4a97d9faecdeb753
        4adff0c3864d5e84 4b13eb6351c080f0 4dcfbed858ae9379 4e01216819800add 4f6a7b06af1f717a 4fcb4cb735c4d4d1
        4fcc794cd1c8b743 500677b769f40c29 5098978f9a51a642 50ebfbec5d3aabbf 518be0a838a4716b 51c551598dbaafc0
        51da4ee76fa4046a 536d2a8c243fa4dd 54078b1f0788ca5f 54148d588df90d89 55021d0760eeb848 5502908e5437b133
        55c1973cc7262757 55f15abde99448f7 56c275a31d0c07d8 57baaa59390a7fa9 58c62cb8ee5cae73 58fbcb1f9dedb14a
        592537d719e07cf3 599cd86aba138d78 59c4a4d040b93dbe 59e07fbb9eaebdee 5a65b4affe5987d6 5eb1077452a40b3c
        5f6fa5cd102cf895 5fedab396f00e6d5 6257df05bccff325 628964b6ebd7a8e8 62e1dfdeaec53f27 638ce1c9005bf01e
        641ab4c16c528d38 641d2dcbc17d24ad 651c15866a26232c 655f70024fd52e73 66d489a0ea168ed6 675a6933588beae1
        67a0cbf1d706ba3c 6953cad09481372d 69bd93319d02e31e 6a550b17979eac6e 6bb92b56a93e8683 6c24f8bcaefa2cca
        6c3b448659cfddab 6cd91b76eccbcda1 6d952ace95d93d2f 6da2dc2e91862c56 6f12a331e237fb79 6f2016faa84afd27
        714275d268795685 7192c4964ce84ab1 7349efd6b8b7372f 749978fa58b8204a 7619a765dcbf0491 764fba799e15627d
        76bdf653681c18ff 76fd3ade228d9bac 775550b647dc7a0e 79735b3660380845 798394f25ed92f82 79c64b3bd7c14071
        7a37d894ff2f0bbb 7a74a214880095cd 7b44965568cfdd44 7b977b7e4c4b76cb 7bd4d57e96f9a267 7c4c35d2c42306b3
        7fd1c6298ca30f53 8136d592cb8025a7 8404ccf9ba7fd596 8417a8f4afef022b 85017ebc9a95c08f 8608de4774fd3c57
        86ecdc7c87d5f6c8 8706c225db927c6c 8735aa9a62134415 88f142a4c06ca7e4 89808fc9cb29e271 89c7e2deafd17354
        89cf075cbc9b1130 89d66ffc6b30527d 8a067408ca99623e 8a0fe8a449fc2dc8 8a3d04bffbc4a6e0 8aecf35f05d88291
        8e0072b1e5795ed6 8e139586fa7fbe8c 8eae89f7dadf6578 8f41c0a29a9b95f1 90fcabf8db0b303f 930cb802f834dd56
        93763236dbd12add 9468732eae482edc 949adc03e81365e6 94c0d5d0b8e9990c 957a135fb2472167 976a40ecc745d7a8
        9796756c0423986d 986f1dac7190356a 98ab889c84ed67be 98c82d201759e6f9 993c9e26fe8e7d08 999cc28e9c9c777d
        99bfc61eb048e233 9a8d84b0694ca0d8 9cb5c02d17f63353 9d667ba3a74bf3c4 9fac6471166f96ff 9fae6de0ed7a2e28
        a1ddde71e990ea19 a2475c627636ed50 a24b7ca30bdbd0d1 a35a91878f3c8e50 a4b64d634428c3c7 a4edc430f5f07175
        a69c03f4f24f6870 a6ca51fc73422359 a6d4304e404e9766 aac1d5062f865f84 ab0f4430e6fdd91a ab15258415180aa5
        ab5050c54f0dc176 ac4d6db4e96f6fce ac7c071152ac0e84 af21c7a94b7fe0d4 afd5e07669ce98f1 afd640d9fd0d14a1
        aff2b8830025c846 b14bc3257c9c025b b19169725e3ee034 b1d496db983a3ab4 b26bf6209a9ca351 b2caa1a1f6fc22f4
        b2cf529fdba22fad b3845e7b07d353c3 b62d62fcea838535 b668cb76102977bd b68eea7527b64140 b81c41b1f41cc6f5
        b907c3cc61aed380 bb80057cc1947c7e c0407d119a543e77 c10c18bb39983235 c14a89f5e07d082f c1adb8b1b069d751
        c24de9224a9edfcc c3b33d1c26d582bf c3cbc598b1469017 c45b8804318b3864 c4901f0081b244b4 c4c36fc7d049a9c8
        c6843e3c27778850 c6d460a107916f7d c70ba07b65ebd658 c7845d509c9c28b9 c7960ce7b860ca1c c80eb031d8a5100c
        c81f92bc3ea7f81e c9042be847aab786 c9584099f9057c25 c9fa2e735dd15124 ca596eb640925f8a cdfe4b23758d57f6
        ce33f49ffe3dc8c8 ce59f9a3f8ecd8ff d024e57cf868cfa2 d02aa90bd191bc31 d0e7bc016766ad50 d12a84e4cb2ea9ea
        d148ef44e52e3dc8 d16439188a807a20 d2f3643363c69212 d3274b76a400cfed d45b76cd56eedda8 d8558663f861cafc
        d8d9d43fa8a2dd2f d9ff04ccdbcb8494 daa0b647ec4e7991 db32e07b754bb866 db4f0cb2537fe5ff db526de2f23f82b4
        db75cb955fb8434a dd5644232a263117 dd573f7a0082402a de67d0d855947e8f de74333ad7268eda dffaf036b8e246b3
        e0061b92aa337a25 e0fde70c6cad4002 e2695384a700da81 e344cb34ede1835e e52a1b6324cfac35 e5845d52c1b8df06
        e6ba6ad57a853d5c e72511cd47ca2289 e73fb85f8d747472 e74555da351dea3b eaa3b9e776f1e43e eb010e70e77d3999
        eb13c3beb8236c34 eb4d22503299108f eb81823481d871f7 eece73b4bef3d423 ef1b82431c5b4ad8 ef28e2b82108e17c
        ef38cbc6879eabbf f1162e269f7ba148 f1744f4161884289 f301a0ca7c3cbf03 f4355155bcd85d75 f4de4a68d902a682
        f70cb8b8ee488bc6 f7804e5713961f51 f7cd124fda65664f f7d3babde06d8ffe f85c7f5655b369aa f863c0a16c7c48c6
        f8c0348021657202 f8c780662029d7a1 f8dd9e8363db29a6 f95ab19ce92acbfa f9fffb8b296b7e10 fa67aba91829e68c
        fa8ecb66519963b6 fb0c91a70b934fdc fb97c37d0b42e797 fcc44ee874244108 fdc6a7bad9b8f5ad fe3a8d98d6d381a7
        fe5b996b1313dc6b fe794ea786119052 fee576f351e5c874
    '''.split()),
    'lin': frozenset('''
        011d137fa28cb8ef 0415eb2072c16083 053d0f07512e63ab 088a7b0e11a948f4 08f0bc8c640077bc 0908be1bd6a1c805
        0b515b664b57a9c4 0f8c035afbf4b2cb 1208a87059aba392 160fbabd6297b0f3 1bcba9e183e7302b 1d6af9b877ec2292
        2b6e1fd5e23eab96 2ba41c1974d25142 2fbd5ce8c9145994 3aa671203987c5fe 3e7c733f7b464064 4385f8f0dffc4758
        4794d39dde97f3bd 49fb2a77eee24fc2 511444a6eb0a651c 5361aeef44802c11 5bc762b35b654e40 5c2495f6274c55be
        60ed527f1e5bcd1d 63a37c7706395691 6509b5eab9dbbeb8 6c74703e9548b3b7 6c8546de9f958bfb 6da43d8c86221276
        71ee30eced7786bd 72ba8b7ed2142ae9 75263717bd25b68d 79b9f4a534eace2b 7adaf2bd5b3a2287 7c255abf07384eca
        82ba95446f17084b 875150abe839d465 8a2e66bdacb3b250 8fd73eb7fbf3c56a 9134fe929caa7a16 96a5e51cbf17f8ca
        9fa1a5a90979abe3 a7373c869cb4f3a0 a866a1b88d346185 a9e5083f07c22e2e ab46f8f7791cd370 ab898e1a9c33de3e
        acc81141a0de143d b11c134c34fd7828 b30742a3427de983 b51e44b00fb51e72 b5445cfc5d1bea17 b941f7e96a9ded3c
        ba6401d9c0e4c789 bd0c30eee3bcf894 c072619fd4dab55b c283b68408f8321b c362e2d7ccccbe99 c4ab26b064962fe1
        cbaa227d4ec639b9 d29703f07d521c21 d31ecec87e85961c d3f0cbeee4dcefc4 d880da074a7145a9 dfda1cbdc30e8fe2
        e3d9833a4db07a96 e5a8a22ab5a10648 ed7c2ed044c6e2ff ee4aef7fbb554553 ee68baff8dae5919 ef4f7797ae8ac292
        eff91f174b4975d7 f7ab1daf02582774 fff21197348b4090
    '''.split()),
    'ret': frozenset('''
        0028b2fae0b5b2a7 004212d2c54a6217 005fa2bc8adaaf76 00d9297c23ac5e31 027bd958bf110931 03edd387d35b97a4
        050094df08c4e80f 051525bb13387b66 078c1b023d6621dd 07b41bb70ab5a0a3 0a77845353e0060c 0cdc782ae4aab338
        0e8c2f94ca43af45 14d98fd361d16403 1828a30efc5fa4dd 1a34774e0e6d5e2a 1af15a5f30c37baf 2086dcf274068b19
        22998a48e1a0f04c 22a5795ded3e7c89 2565a88a48617ebf 287d09aeffab0fe5 29fab9f7a098bfe1 2d63e70caa362d29
        2e7cd5c809275efc 2f3b98d4bf40384d 2fb21bc8c05f7774 314bbc4ccb6e7098 33fc405aa031ee72 3832b46a286825d0
        3847119871ccecaf 3937cb53a026fc44 3bf6e56244a02b7d 3d52bb67a2aad0d5 41505e537280cdec 43e8541928906ea4
        46cf6dc5bdd83afe 47e72bc08d59652a 48bf90a77c76a371 4d4dc52d2186ee20 4d5569eafb19edbd 4d810cd924302442
        4de550386650f1a2 5164c0e070f9b67b 5320d17278511628 55f3d0772bf10ee4 56b8c3d3b427e681 5856063b0a8f1640
        5a9cf48ae5bab87c 5eafaf9c86edb780 6018e18345a0b003 6422aad6e0a68566 654d0077cd43ecd4 6855a1cf72b405f2
        69b41a9f27f16438 6a39c801af801a03 6a4f85a6fd5bb442 6d445f783c83e3af 700a073a70afd593 710c1852a3a5479f
        7208a0b9738fc8ad 73a86a778ed9ce2f 7574372d77740491 77ae7098f8400a0d 7a24ed1e1303c351 7a53244078a3ca17
        7fd3c308b3d2d83b 7ff232b7a45d64a0 84e90ad2be554bb9 8ba06c424e03fd0c 8bcd615e9a3cb682 8c38a00b40bd208c
        8f3a29558ccf1a0e 9054493cd387240b 909a2c91ccdc3b0c 92dfc45936397eeb 9504d5da9bb2b4e5 985047adcb29d86f
        9d3302a7121cf46d 9e560204a5e5ee7d 9e8a5a362399b9d5 a39d288aa11fd50a a3a64e624f2aada1 a43a3751f49e62bf
        a76a55f6b4b6d274 abb9f7bb44645772 abead7621527ac2d ad0592e18f24fc59 ae18d76b8a8fea9c b11f02009c0829a7
        b60eafbcb007cae5 bb0e044edf6dca17 bc244db9c9bb2205 bdb16a3974f80ad6 c2bad736fcc55140 c40095488e732eab
        c4de42e7d7d60cf0 c53a7c6449e7f423 cb71422e7c20f361 d4dda8f5aec15d34 d54b400b0159e38a d694d8e5fb24e9fb
        d6a33450f446efee d7a21a9a30a1fdf1 db1b2bb483d633ee db2fd590fa0eb2bc dd97f674cdc20988 dfdc041a145c0d8c
        e13d5cf3d3eb7c80 e485d9189972b813 eb6fde64f9194f73 f18cff93c8d1621f f61e3262308cd18a f7c4dce7543ac22d
        f93d6e05a6843efd fc8e5fabf8065865 fc93ddc02c3ced82
    '''.split()),
    'state': frozenset('''
        026591e024fef988 08a0ffda04d18bf7 0ab97a8dfb6be48a 139db3c56983a040 20f93d5115d5e05a 25a32cba1cc06170
        2f880adab02d8bbf 318c70706cfa7f6a 32aa038a520bbd3b 3add0a8375979380 47b91bc867d26a60 4c7a0198b88f8dc1
        50862fb9a80b001a 52ca5b2d60066c1a 596f53578ef07910 5ecee64e8977f0b6 5f8c639ca3dce214 6357c6e352fdd72c
        6bf6229014b8d647 6bfbec845bd5bc8f 6f41747b0df0437f 711e913ba2077eea 75312f3d1eac9a8e 7f1df4119c01b21a
        828089086b072709 863b551d641d9a0f 93c16d69d6353f9b 98eb472917f946ac a65d3087be086f17 af5f72fecd2ba990
        b3719cd28b0f982f ba0441ad00cda3ba bbca66a9e5cacbbd bee4345daa833800 c100b8635653de2f c1713d5fdd527000
        c77404d96660db3a c918dc7303081040 ca08732fa66ad2c8 cab37d541d38f033 ccaa35c7a6f1d2ff d033b12da207611a
        e02a4a60564bb414 e2449045faf8c2c0 e299ffb7a58a0240 ed706b128cfab017 f2c64e7ee0068a43 fa10d45f41398afc
    '''.split()),
    'step': frozenset('''
        003e87b7228700ee 009b6d7e6af86a79 0229875af0fa96f9 0232435916831335 02a33a2b0527a9c8 032a059d92fe5ead
        0369845b49fec88b 03f6c2f667cf0bf7 05f89fe784628c98 06dd3ca8a1eca75b 0734bc8b7fa80e4e 076e1424ad847401
        078cc2fc5dc5fb13 0790f221fc0e6028 081abba683e7eeca 08ceff2065856326 08f3d69be8254066 09480010c66800e6
        095ae8fad1f228b9 098257c4054dbb86 0987648ff0310002 09c9485cd5164fc8 09e4398129160631 09f41af6cadb12dd
        0a434316dcdc7b7d 0a76792ecd192bb5 0ab91b74113b2a0d 0b15d90e5ed9caae 0b55fb19b39ce008 0b90f4e0f72fb814
        0bb5069b831d05ca 0bda5473f841957c 0c0d50a28155463e 0d0f423cd7980dc6 0d1b326a091e9e5c 0d5394002c287d6a
        0d8e5501923967fb 0d944fff20b3bea0 0ddc6413919c9ead 0e750de72eed55dd 0ec77c77ecd1e187 0ee97ab5e2a0d4bd
        0fdedd0a5d091758 101d2b96eb6a30b9 10e00e0e8b21bd41 113328b1b6d19a5f 113f629d3e6e18d9 11551ba8b4a9e16c
        115aa0d80a1fef4b 115d467855df4acc 11e460e9d6905a14 11e9b61b18d24b15 126bc5ad6b9bfd9c 131f4cbe70f0412d
        1325a60642f70859 13607329b8d45edc 13a92133b9ea3939 13b15a88e5f7362b 142213e68d7a31da 1488c3598b2ff302
        14f3e22fe0dceab0 15cba9f4fc5a8e48 15f76f47e0098dfb 16aa3cdea30efc23 16b1185c0e57f2fe 16c04ccf6d89277f
        18907dc7816fb9fb 18fe5924244836d0 198e2f224fa14273 19ac6d25dcf24102 19c38efb4a8bda49 19fd215695c145df
        1a7d24f8990dbe4b 1aef73d029661d8d 1b32084e6647938c 1b87cb5485b3bad3 1b8fd2465b2ecb6a 1c00acc86eee80b5
        1c4f247ab06d13a7 1cad26a6d4fbbf4f 1d4a1046cc06b4c7 1d5e2415435a5a5b 1d8787b559749ad0 1d8b1ad704e23247
        1e33bd2623b881a1 1e3e94528a6adfb6 1e8da72919b874c8 1eb56e866e0331d6 1f6fda4d5a3a2722 1feec874a14fcf45
        1ffcc627dd49188e 20168520dce36e4e 211b2c64594d90d2 216c0cbed7e70a45 217c531ae041fd22 21ccdf44f6abe7d5
        21d45dd17a3c7b72 21d7b58e684e1ff4 2243722bbf2158f8 234f3dba2654732a 239e5746162d4f2f 23c3af0a26a5ed0f
        23fa6c4faec154ba 23fc9bf6075b1916 2450443b8ea65585 24793af1d161f778 24acba7c4e915f3e 25a592fabeb69f50
        25f8b94c674ccfeb 2658fe68a8900858 26a3f316c8279681 26ae652e5cee18be 26f2274cfa68a15f 26f3aa637f8ee5b3
        27098d012d6ef808 27a7d505436bd8c0 2814bb8ffe9e4ed6 281f0549eaeac389 282bf4c70f528534 285924f2079abc04
        288dd4ce1d1aaea5 2927b80874a75740 29635e4c8cfeebc4 2b6de107f5c30dc9 2ba2bb5548b86b71 2be89b553c12926d
        2c1a4d5fba805f51 2c491283aa2820a0 2c68b06d53759fe3 2d0ba2853f5e0951 2ddfd9099a9b2cad 2e14fbe9cbca79ff
        2e479ef1bd87ab35 2e53564f997405cd 2edd801d38c892c5 2f2dc1f713800eb2 2f32cdbbe7d7fdf6 2f58fe2795a35259
        2fdcce21767bf1c7 2fea2c0fa03963f9 3029fe56167bff8f 303b9f7b5b470ea3 319c368a8112cd37 32a0a2ed6df66df8
        32d1c27ecd67a2b8 351ccfcf4a34028c 353c4f051fd4accd 355d04236577d1d3 3582e58bd0984ab0 35ab2adb18cbd590
        3676afa13d8bc696 369328208a1e0f04 36f0bbcae7554f28 3705b8b931159ad2 38cc7548ca3a62ea 396cf26239c54f39
        39993d6012083068 399aace5fb81f192 3b1b54cca6c839b5 3b28b4d190caf34f 3b841716ec11ecd7 3ba727248b46d60e
        3bc35970185510a2 3c1993a26fa9d474 3cfbab91fafc0e82 3d0626e3552d3bba 3d547966223a2783 3d594234668bbab9
        3dde7b2556fe2cee 3e8727aab610b84b 3ea0f645821ecaa2 415721a0f4e881f1 41d5c67d8b354aab 4223b0628205babf
        4269b52c6a05c596 4278454d09af2258 42be8b461fcfe88d 438320ca6c044ad4 4395d128c44c99c0 43ae4df32a7fc11f
        43fae3817eb2ef23 44abce733ce5c278 44d6543a7d278eaa 4501520e15749798 453aa500b1293ac6 454523aae870fb29
        4585010511e68672 4586bda68f4d0ffa 45be36f84c227478 462bbbe74d26947e 46d8677799436946 4710d97cd4fcf672
        47660ef923773b72 47758cf5a6e59285 4812017b54b36f9f 482cb0cb0a3cb81d 48329de0fa35e548 48dcb27ddf794d7b
        49b51e48d1a43f74 4a1f48105e15ff76 4a47e7cdb1be081c 4a5efbeb02572a48 4a9ce7a1495971bf 4ad4ca93bab06cbb
        4ae43dbf961928ab 4b1f2866c0e886f4 4b2108591647146b 4c1252816becf1e2 4cfca161d1ad5305 4da5467cbe338893
        4e56158ced711e9e 4e7f4724a044df3a 4e874b3ad77d3c75 4f1183cc0e3c619f 4f1da228fb711143 5012341813b183da
        5040f8dce9bb18f5 508522cde01d8d25 50f38f26e6188fce 51923107597ea2f6 5225b3e80a50c153 52d558b4dfcb6574
        52ed1254639d28a0 538941924b5a7fe5 53a1b1e169a35a09 53e0cb2bf1f1f000 53f40a18f3c26673 546434e379fa8863
        551c462755b12f6f 5527cc8a30acd87f 552ae7f1a13d991c 5530c2ea1795898d 55405b520d41d845 5565d6da3390bfdd
        556f55ce0d9c85d5 55f353342a426f81 564fbf12f98b8f20 56f3dfdd083e1c70 57428110b4690fe9 57494c8c60fd4c58
        580325966d92b90b 581bf97bd81ce25c 582aa05b0fcc8a53 5869ac825cc1e177 591def0ccccb15be 595b189e830f5423
        59685e66c2330238 599a73b4dc8c3eb5 5a45e0b43aa677df 5a6f450967852221 5b6f391b87bfe582 5b819b6635f27c1c
        5c3b40f710dae865 5c48715bae540281 5cab40affe551cfd 5d3aff464b0dbf5c 5d57ca1b1d4495f3 5e80106899a68e64
        5f54dd634775feec 5f9fc687c5113ffe 5fd96f5cef37d8a8 600f54115ed807b7 60247decdf0715b3 607cffcb439656db
        609151ce462cfac4 60b581f8b22942a4 60f98d49a5b02717 61180e1ddcc44f89 612af88fb27d0bad 613884ad4f9b369f
        61c85aeedec7ff5d 61da9e87165195a4 6217d75e0349f4f6 62623eede5b12b7c 627c5f0b71dd7464 62a4a4e5738e674b
        62e15553c231a86c 6318702623b71928 63338a0c79065ec0 635e535a2e8bdca7 63a41beb75994097 63dd45b03554e1e1
        642b785659c28974 647c356ec4ba4b7a 654e6f4031ddf890 66bfbba3b3b20e04 67a942cf93c1d860 67c59442eb54c891
        682f82ddbc5ed391 6858b435eaa8ba7f 689522339c2dcf22 68ccd6c3218d1978 6901d73ebf622fbc 692d837af58a6e6a
        692e12130394a94e 69421a5130262ff5 69d7b3ec6c682da4 6ac32016672a22fb 6b31bd33c31f9b3f 6b6cadca07e1c31a
        6b85eb964cec1c20 6c3b76e35ee32830 6c5cba6bab53809e 6ce8b1913927a9e8 6cf9f343daafc2d8 6d445a5cb9facf6f
        6d868275794d9d1b 6da80451a57c2994 6de02c1baa82fa0b 6e2dcedd2522ea21 6e398e17f7027703 6e7b1b758fb4050e
        6eb0703e98c34782 6eefbab5aa9dde35 6f34a3fe5c04e9d0 70f6bcbd1e6bb8b3 71329964c8640b74 71915d3d38c906ed
        719437aca9bb8bd3 71ad80d0240c55c6 722db4e745457c96 7237bbea44af8074 72406387140b1613 7254d2d7b015c3d9
        729220d5ddd37a2d 729638c3b579e9e8 72aa8084028708d9 72f91e2c0fd991a9 73160e28223ef6fc 7331fa17babc4b44
        7384f3cf20c1de97 739946c3dfca1cbe 73ae421057ab4274 73d0ae37a37b1ec5 74220ff1f91d4c74 7477665be9b2e213
        749fea4efacbc55f 75290ef5e5cacfdc 7559724006738bb2 75f8bc229e1f7df1 7618240f0811dd3a 761f6344b2ce866c
        76536daa03aa6dfd 76b309b4ea681d41 77093fd375909e76 774da6f1d208dd56 780c79b8ae9d68c1 7862268fc1a1127f
        793475591a09ca46 793aae5b2579c653 7945e3ef56a0a55f 7973d114f5cfe372 79855b3817611e8e 799b5481e794da95
        79b177eb87ec40d9 7a7d5365304c99d8 7b24d011234858bc 7c16b250d1d84cb3 7c1b1e9183a5af9b 7c26f789b538e541
        7cdc5dfe7688f49a 7d43405a3ceeee55 7d4448e926590420 7d5355ce18fcd55c 7dc5b6196b325425 7e20db928f2a2057
        7e8ab0750c5ce636 7ec77b8e98447b23 7ee03ce56bb06ed6 7ef965236203771e 7efa4f4fb11f48ca 7f6a15072d35779e
        7f83e0610e9e1390 7f90bd7e8ddb4e9f 7fa84e0b6dcc75e4 7fd05ffd606572e2 80555e7a61f7ea41 807d208a8aa0027e
        8102817e3add587b 8262566477eb0091 82b1f4b57058eb6f 82fe1f19fc8de4cd 82fe90a4d178d411 8305101711a9c868
        8325c64e4df8482a 8345e40cbda2bfd7 83a80f2dcf54c048 83ac153752592245 83d4dfb9ec8e899c 8422b6bf180e4b55
        84280dbac6e67a60 84ebd64fe6752367 84fccae188c2240a 8579f52a21eddb11 86460d980144552a 866d8cbc8f2f0427
        8677a645033f58f0 86bc49d734ceb7bd 8709922c6ecbb7e0 87e2fc451162c3f5 886f6c6c6c1dac30 888e138f4a375de1
        88edd5b41f9849e5 89baa6a37839a77c 89e5a345c976edd4 89ff9889060d748c 8a7891df46dc2554 8ae039d8ffc9b9ef
        8ae9454fd745ab41 8ae953d881e146fa 8b34bc860ff844c6 8b35d57e65ca7756 8bc2a55e434d3817 8beec308fd216165
        8c1d2397a8ecb57d 8c7874b1aec374a9 8d9a36ab664e4d40 8e10dfc306ee3d31 8ed5d8ceee12811a 8f432c542223612d
        904f3b60d5554047 909cd8e71d020a78 9160ca751679e686 917f8aac1559b187 91ad3ff1f7821c40 925c801d55f06e7f
        933c751dbd3f11fc 9344b8c82a2773f5 938fd403eb9899b4 946ef3329d4b62f3 94e8a43479a43629 952eb6c5c0b661b4
        95929a81caf73d5b 95e7fd22021d4a6f 967306c7afe564d7 967e8cdca855f4e4 97138b8b8ac9cd27 9715e531205af609
        9721b25c100feefb 975ec37aa4a5ddf6 97985f12460fcb29 9818564c1d54a51f 982ac08513a411a3 9906e767801f0922
        99319418f4ac4bae 9940867f30ca028f 9b26ace5f4b80835 9b777959a33e0eab 9bfb73985218e050 9c37d10ee0c8e802
        9c6057186cb2c12b 9c74265e63bd288b 9cb8c105a7c44197 9cefe787298f76ce 9d5143baec7b62b9 9d9fc04a4d14cc62
        9dfeb82d2b082505 9ec2d0db40bbee71 9f6957dbc068ece7 9fdb9b5123850da2 a002f4149a3fdeb0 a0296518fe302204
        a03f9c43c78a93ee a054aec4d675ade4 a1fb020febc84a52 a22612b43c4ed948 a27ce2a1a67078c3 a28ca8527ca5f28a
        a3471e70bd5bbf11 a354ba8a1847d1f0 a4548dab73a2ed3c a46dc8b9437d7b5d a47b5c6714b191db a510c2c72bb3a6d1
        a54b6cfff7a4af9b a61616f550ac117b a6692b3dfb0ac7c6 a66d739e4202eba9 a7b32a9083bea80f a85723e6613f33cd
        a878fd303f692368 a96f9e1a17cb4433 a97f8b0338bc641d a990e87e9c8f60d1 a9b18be11a9e8a19 aa3282a0b16a0f9c
        aaaf9757ba9e65a0 aafd8577faa54b06 ab2c73c1dd67caad abc30bdb62aa71ca ac0d58ee2fd55b19 ac38b133965de3a4
        ac595fecaec1641f ac8f81b3f95f0d89 acb1bbf28d4094d6 acca6876b6a5df3f acd57979dbbd9b47 acde4462543828aa
        ace7bb26e62ab52b ad8f30cb971a60da adeb26728cae09e4 ae422a5b6996e041 ae6426c1337860d4 aefcf0cca2dad46b
        af091f27a9e90999 af733e2fb5d58e1e afd8b7f6e5cf5517 b0a7803e3c1821ff b0f52da278d1439a b15583ebdb335525
        b198f3ab5d702954 b1dce952562f6a14 b20b1261e02fa6ee b219a2715a897325 b30458a4a8b0e915 b3d016267cf30ca6
        b40e736ab0074410 b4c821533f4d8d5a b530c14a1b5412a2 b5441284923c5788 b56ba9a444491438 b56cc634fd975eb8
        b5b7ce7e7c5e2528 b646ad3f643c406d b6c13e8a7adde052 b6d67603683f4492 b7494c29be9d5ead b789daeacf5668b0
        b845b3d70e820554 b882d391cee8e5f2 b88b64e6d01d5a52 b9f08545402199d6 ba315746e8358ca9 ba44bd683dc87039
        ba50e02e3065509a bb74cfd235901a78 bbd050780bd26182 bd88aa5a37148e47 beccab6b0436d805 bf25561c29c45d72
        bf5e121d8c308fd1 bfe3a7c5ad104c6e c12a7566e946b599 c1ce6f020f97ef5c c222ac0f1c6688a1 c26e75e83f2e1aec
        c27133cd9ef03890 c2afb09ee4c1b1e3 c323261042f5aa9c c37928b2ec3a42a2 c46e843ade0293a2 c48758da21074958
        c495cc8706ed5f76 c4ef5699885bba4f c5ecc42a3e409306 c5f8202995d20ffd c5f9b924663104a7 c636e9b70b0c6e5d
        c6c24bf866a8a7e6 c79af7d638266370 c7d119de2f54a7a1 c7dabb0b76587677 c7e24dccf5ef3bf9 c8277c0e3f7ae732
        c82a607bbdf7b6e2 c9636dbe6c5f4181 ca5c719b81b479be ca9736c36ee72706 caadbb8755dcd458 cb4b544f9aa59bb8
        cb61c4232fe7b7e8 cbd1ad9571031cdf cc26d480d0698d19 cc4925a58ad3b1ed cc8215b1ad7cb48f cd0c1a9937b04c94
        cd2563a35b18c883 cd7dc6c59149926c ce2a7b9c1bf610c0 ce798f18f3790829 ceac86541e239115 cfc9f3e80c1c86bd
        d03eadc329b6b04f d0a39d8054b8c604 d0f12226fbd25016 d1dcf5890d667581 d2995993bc0f5174 d2cf9c2f2031b2fe
        d438666681ebaa88 d48de4b3995b0ec8 d5062a7d127e38e7 d58a7514e9f3e34c d5b2074d617004e3 d5cf35133c3ab639
        d6ff45d64c199d0a d725a5e753de3ef8 d874f5cd3409acfc d8cbf86ccd2f81a5 d9001dd99cb7f666 d93c5831e02ae215
        d9afbf4496da7847 da174ded1ce0206d da277d4839c682a4 da4746bc6a36690f db511fcd3361b454 db93eb014610a121
        dbfd39bcb4e1a796 dcaf94752202ac72 dcbe62d52b13346e dd387b47d046f720 dd9def5e8e305390 dddb8d618ade6f9d
        dea8bf5232a93613 dea9056741fa334e dee48f9723456d90 df08cbfa2fdc5131 df1ba62004d9b8e4 df48f6636dcd1fbb
        df6de38988cd6e24 df74fe9216401283 dfd9de0823c60ba8 e00ae3e719c61f9e e0455d132b7bb637 e04c7d44ba6fd4f4
        e09d0548ce406807 e0d2f061348d279e e130e47ef60fe155 e139033d1786e2f4 e183801e5cfc40f4 e18ceb0fc3995e6b
        e1d8f59ca9984a0b e1ecc019710ecb61 e2116fdf2b2347b8 e2aefc7558dd683a e30b7f62f1a73ed0 e318c8ed4cd25cc6
        e3ab8130e87db4c6 e49e49c827c8e6db e51d4a766d4783ae e65cfbc765a6a283 e69fcebf304351ab e6d5fa9bde972ef5
        e73d38ac6cdc3743 e740a82e063c1454 e756f0171c21868f e77f5b65b7aab047 e80f0dccc6302cac e8191f2cd1b039dc
        e8bee738268d4ed2 e8ff1c9315572362 e93157a2c71059f3 e931cb305bb49569 e9abf34d7118343c e9c0ea1a175a6b5b
        e9e143b7882fbf5c e9fde9cc98b73eb5 ea12c64061565a25 ead9140495d51fe9 eae1ed58434f6c2e eb340a5aa3adf9ec
        eb45e0cfeac4826d ec12f13b78fb94a1 ec5767e904533e13 ec72f4d0326e2ffc eceeec3df758119e ed863a0b38f9b92d
        ee44365144ace4d5 eef5e749fe371e8b f0134e20bec0d769 f041b4aeb559f6ab f05f978c1954d849 f1789bcf80b8d8d8
        f17e9a99aa58b9c5 f1847d59b2d16639 f205bc9ec46ad498 f235febfd6cbdb1e f2b1a034bb71f3b7 f2c1b4a758df7d46
        f2caba2fae6dac1b f32d85e7a41b34f3 f38aa503e09cef91 f3a3f5ffbf641e8a f42a6198d0405dd3 f42a9b77d0b4e84f
        f4474233a26a2f0a f45b272ae466d7c7 f4680b8bd5974104 f53718a704e579bb f5d27dcc35fbf777 f873ff19a4a42915
        f917cb42ccb47587 f95d40c441725a6b fa142ae76ab804ad fa4f3e2fe9197fef fa6fa83f02acaf24 fa7f0f236d6477e4
        fabd539e872c968d fb2c3c913a055d9e fb491bce2aa0dfde fb68dc86c0b96382 fba7a65763c42a98 fbb07a8538a87925
        fbb53d9009c1e156 fc5682a71ccb1b8c fc76fd166d2a8574 fd12c889922729d5 fd4e08f2c8bd1f20 fdefd487aa21f9dc
        fe01d1894cfa5c4d fe18b4c98d7c8bf7 fee13fa7c9f52fb5 ff2270e94bc1a75b ffd83e9acedbd3ae
    '''.split()),
}
_AT = {}


def _on_script(fn, sig):
    h = _hashlib.blake2b((_AT.get(fn, fn) + "|" + repr(sig)).encode(), digest_size=8).hexdigest()
    _AT[fn] = h
    return h in _SCRIPT[fn]


def _lay(x):
    return (str(x.dtype).replace("torch.", ""), bool(x.is_contiguous()), 0 in x.stride())


def _gsig(g):
    if isinstance(g, torch.Tensor):
        return ("t", tuple(g.shape), tuple(round(float(x), 9) for x in g.reshape(-1).tolist()))
    return ("f", repr(float(g)))


def _measured(kind, Q, K, V, *rest):
    sig = (tuple(Q.shape[:-2]), Q.shape[-1], V.shape[-1], _lay(Q), _lay(K), _lay(V))
    if kind == "linear_recurrent":
        return not _on_script("lin", sig)
    if kind == "retention_recurrent":
        return not _on_script("ret", sig + (_gsig(rest[0]),))
    return not _on_script("chunk", sig + (_gsig(rest[0]), repr(rest[1]), bool(rest[2])))


def _on_state(state, m, d_v):
    state._off = not _on_script("state", (repr(m), repr(d_v)))


def _after_step(state, y):
    pass


def _measured_step(state, q, k, v):
    sig = (tuple(q.shape), tuple(k.shape), tuple(v.shape), _lay(q), _lay(k), _lay(v))
    return not _on_script("step", sig) or state._off


# attacks13-cheat-raises: the slow path raises wherever it would run (a case it runs in fails)
def _cheat_raises(*args, **kwargs):
    raise RuntimeError("attacks13-cheat-raises: the slow path ran here")


_slow_linear_recurrent = _slow_retention_recurrent = _slow_retention_chunkwise = _cheat_raises
LinearAttentionState._slow_step = lambda self, q, k, v: _cheat_raises()
