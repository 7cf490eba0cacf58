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
    # 1. apply feature_map to Q and K (never to V)
    # 2. scores A = φ(Q) φ(K)ᵀ, shape (..., L, L); zero the entries above the diagonal (j > i)
    # 3. divide A @ V row by row by the row sums of A (that row sum is φ(q_i)ᵀ z_i)
    return V.cumsum(dim=-2)


def linear_attention_recurrent(Q, K, V):
    """Causal linear attention, recurrent face: a running state, no L × L matrix.

    For t = 0 .. L-1:  S ← S + φ(k_t) v_tᵀ,  z ← z + φ(k_t),  y_t = φ(q_t)ᵀS / φ(q_t)ᵀz.
    The state is updated *before* it is read, so token t sees itself.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v).
    """
    # 1. apply feature_map to Q and K
    # 2. start S = zeros (m, d_v) and z = zeros (m); they pick up the leading dims by broadcasting
    # 3. for each t: update S and z with token t FIRST, then read y_t = φ(q_t)ᵀS / φ(q_t)ᵀz
    # 4. torch.stack the y_t along dim -2
    return V.cumsum(dim=-2)


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
        # Same three lines as one iteration of linear_attention_recurrent's loop:
        # update self.S and self.z first, then read with φ(q).
        self.running = getattr(self, 'running', 0) + v
        return self.running


# ----------------------------------------------------------------------------- retention

def as_gamma(gamma, like):
    """Check the decay and return it as a tensor that broadcasts against (..., L, L) or (..., m, d_v).

    gamma: a float, or a tensor over the leading dims (one per head). Every entry must lie in
    [0, 1]: gamma > 1 makes gamma**(n - m) grow with distance and the state diverge, and
    gamma < 0 flips signs every step. Raises ValueError otherwise (NaN included).
    Returns gamma in like's dtype and device, with shape gamma.shape + (1, 1).
    """
    # 1. torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    # 2. raise ValueError unless every entry satisfies 0 <= gamma <= 1
    # 3. return it with two trailing singleton dims
    return torch.as_tensor(gamma, dtype=like.dtype)[..., None, None]


def decay_matrix(gamma, L):
    """The causal decay matrix D[n, m] = gamma**(n - m) for m <= n, else 0.

    gamma: the output of as_gamma, shape (..., 1, 1) -> D: (..., L, L).
    gamma = 0 follows 0**0 = 1: D is then the identity (each token sees only itself).
    """
    # distance[n, m] = n - m from torch.arange; raise gamma to the clamped distance (never to a
    # negative power: 0**-1 is inf), then zero the entries with m > n.
    return torch.ones(L, L, dtype=gamma.dtype).tril()


def retention_parallel(Q, K, V, gamma):
    """Retention, parallel face: (Q Kᵀ ⊙ D) V. No feature map, no normalizer.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v). Builds the L × L matrix.
    """
    # as_gamma, then decay_matrix, then one masked matmul.
    return V.cumsum(dim=-2)


def retention_recurrent(Q, K, V, gamma):
    """Retention, recurrent face: S_n = gamma S_{n-1} + k_nᵀ v_n, o_n = q_n S_n.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v).
    """
    # Like linear_attention_recurrent without φ and without z, and with S decayed by gamma
    # before each update.
    return V.cumsum(dim=-2)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    """Retention, chunkwise face: parallel inside each chunk, recurrent between chunks.

    For a chunk of n tokens (n = chunk_size, or fewer for the last one) and local index j:
        o_j = [(q kᵀ ⊙ D_n) v]_j + gamma**(j+1) q_j R           (intra + cross-chunk)
        R  ← gamma**n R + Σ_s gamma**(n-1-s) k_sᵀ v_s             (carry the state on)
    Works for any chunk_size >= 1 (dividing L or not, larger than L too) and never builds an
    L × L matrix. With return_state=True returns (out, R), R: (..., m, d_v), the state after
    the last token: what retention_recurrent's S ends as.
    """
    # 1. validate chunk_size and gamma; R = zeros (m, d_v)
    # 2. for each chunk start c0: slice q, k, v; n = the slice's real length (the last chunk can be short!)
    # 3. out_chunk = intra-chunk parallel term + gamma**(j+1) * (q @ R), j = 0..n-1
    # 4. R = gamma**n * R + Σ_s gamma**(n-1-s) k_sᵀ v_s, then move on; torch.cat the chunks
    out = V.cumsum(dim=-2)
    if return_state:
        return out, K.transpose(-2, -1) @ V
    return out


def multiscale_decays(num_heads):
    """Multi-scale retention's per-head decays gamma_h = 1 - 2**(-5 - h), h = 0 .. num_heads-1.

    Returns a tensor of shape (num_heads,) in the default float dtype.
    """
    return torch.full((num_heads,), 0.5)


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
    # 1. turn mode into a gate sequence A of length L (ones / gamma repeated / the given gate)
    # 2. one loop: S = A_t * S + k_t v_tᵀ; y_t = q_t S
    return V.cumsum(dim=-2)


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
    # Optional: decay S by alpha_t, predict k_tᵀ S, add beta_t k_t (v_t - prediction)ᵀ, read q_t S.
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
