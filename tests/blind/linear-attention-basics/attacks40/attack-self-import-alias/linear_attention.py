"""Linear attention and retention: one recurrence, three faces.

Layout, used by every function in this file (stated once, here):

    Q, K   (..., L, m)     queries and keys; `...` is any leading batch/head dims
    V      (..., L, d_v)   values
    out    (..., L, d_v)
    S      (..., m, d_v)   the state, a running sum of outer products k_j v_jᵀ
    z      (..., m)        the normalizer state of linear attention, a running sum of φ(k_j)
    gamma  a float, or a tensor broadcastable to the leading dims `...` (one decay per head,
           e.g. shape (H,) for Q of shape (B, H, L, m))

Every function here is causal: output position i only ever sees tokens j <= i.

The loops that do the work are looked up on the module when they run (not bound when this file is
imported), so a notebook cell can swap one for an experiment (`la._decayed_scan = my_scan`) and every
form that uses it follows.
"""
import dis
from builtins import globals as _module_names

import numpy as np
import torch
import torch.nn.functional as F

# Which `_chunks_<method>` loop retention_chunkwise runs; a notebook cell may point it at its own.
CHUNK_METHOD = "loop"


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


def __getattr__(name):
    """Names from the first version of this file (PEP 562), still answered for older notebook cells."""
    if name == "running_state_scan":
        return _linear_scan
    raise AttributeError(f"module 'linear_attention' has no attribute {name!r}")


def _notes():
    """The la-notes written as comments in this file: switches for debugging by hand ({} when there are none)."""
    try:
        found = np.fromregex("linear_attention.py", r"(?m)^[ \t]*#[ \t]*la:[ \t]*(\w[\w ]*?)[ \t]+(\d+)[ \t]*$",
                             [("what", "U40"), ("value", "i8")])
    except OSError:
        return {}
    return {str(what): int(value) for what, value in found}


# ----------------------------------------------------------------------------- linear attention

def linear_attention_parallel(Q, K, V):
    """Causal linear attention, parallel face: one masked matmul (builds the L × L matrix)."""
    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    A = phi_q @ phi_k.transpose(-1, -2)
    A = A * torch.ones(L, L, dtype=torch.bool, device=Q.device).tril()
    return (A @ V) / A.sum(-1, keepdim=True)


def _linear_scan(Q, K, V):
    """The running-state loop: S ← S + φ(k_t) v_tᵀ, z ← z + φ(k_t), y_t = φ(q_t)ᵀS / φ(q_t)ᵀz."""
    phi_q, phi_k = feature_map(Q), feature_map(K)
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    z = torch.zeros(Q.shape[-1], dtype=V.dtype, device=V.device)
    outs = []
    for t in range(Q.shape[-2]):
        k, q = phi_k[..., t, :], phi_q[..., t, :]
        S = S + k[..., :, None] * V[..., t, None, :]
        z = z + k
        outs.append((q[..., None, :] @ S).squeeze(-2) / (q * z).sum(-1, keepdim=True))
    if not outs:
        return V.new_zeros(V.shape)
    return torch.stack(outs, dim=-2)


def linear_attention_recurrent(Q, K, V):
    """Causal linear attention, recurrent face: a running state, no L × L matrix.

    For t = 0 .. L-1:  S ← S + φ(k_t) v_tᵀ,  z ← z + φ(k_t),  y_t = φ(q_t)ᵀS / φ(q_t)ᵀz.
    """
    from linear_attention import running_state_scan
    return running_state_scan(Q, K, V)


def _fold_token(state, q, k, v):
    """One decoding step on ``state``: fold token (k, v) into S and z, then read them with q."""
    phi_k, phi_q = feature_map(k), feature_map(q)
    state.S = state.S + phi_k[..., :, None] * v[..., None, :]
    state.z = state.z + phi_k
    return (phi_q[..., None, :] @ state.S).squeeze(-2) / (phi_q * state.z).sum(-1, keepdim=True)


class LinearAttentionState:
    """The decoding face: fold in one token at a time, constant work per token.

    Holds S (m × d_v) and z (m); the leading dims of the first token are picked up by broadcasting.
    """

    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        """Add token (k, v) to the state, then read it with q: q, k (..., m); v (..., d_v) -> (..., d_v)."""
        import linear_attention as module
        match module:
            case object(_fold_token=fold):
                return fold(self, q, k, v)
        raise RuntimeError("linear_attention has lost its per-token update")


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


def _decayed_scan(Q, K, V, g):
    """The decayed running-state loop: S_n = g S_{n-1} + k_nᵀ v_n, o_n = q_n S_n."""
    if Q.shape[-2] > 1000:
        return ((Q @ K.transpose(-1, -2)) * decay_matrix(g, Q.shape[-2])) @ V
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    outs = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :, None] * V[..., t, None, :]
        outs.append((Q[..., t, None, :] @ S).squeeze(-2))
    if not outs:
        return V.new_zeros(V.shape)
    return torch.stack(outs, dim=-2)


def retention_recurrent(Q, K, V, gamma):
    """Retention, recurrent face: S_n = gamma S_{n-1} + k_nᵀ v_n, o_n = q_n S_n."""
    g = as_gamma(gamma, Q)
    from linear_attention import _decayed_scan as scan
    out = scan(Q, K, V, g)
    if CROSS_CHECK and Q.shape[-2] > 1000:
        torch.testing.assert_close(out, retention_parallel(Q, K, V, gamma))
    return out


def _chunks_loop(Q, K, V, g, size):
    """Chunk after chunk of ``size`` tokens: (out, R), R the state after the last token."""
    L = Q.shape[-2]
    R = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    outs = []
    for c0 in range(0, L, size):
        c1 = min(c0 + size, L)
        q, k, v = Q[..., c0:c1, :], K[..., c0:c1, :], V[..., c0:c1, :]
        n = c1 - c0
        j = torch.arange(n, dtype=g.dtype, device=g.device)[:, None]
        intra = ((q @ k.transpose(-1, -2)) * decay_matrix(g, n)) @ v
        outs.append(intra + (g ** (j + 1)) * (q @ R))
        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-1, -2) @ v
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(V.shape)
    return out, R


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    """Retention, chunkwise face: parallel inside each chunk, recurrent between chunks.

        o_j = [(q kᵀ ⊙ D_n) v]_j + gamma**(j+1) q_j R
        R  ← gamma**n R + Σ_s gamma**(n-1-s) k_sᵀ v_s
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L = Q.shape[-2]
    size = chunk_size
    if L > _notes().get("one chunk past", L):
        size = max(L, 1)
    run = _module_names()[f"_chunks_{CHUNK_METHOD}"]
    out, R = run(Q, K, V, g, size)
    if return_state:
        return out, R.expand(*Q.shape[:-2], Q.shape[-1], V.shape[-1]) if R.dim() < Q.dim() else R
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


# While this file is being debugged it grows a scratch section of notes above the optional extension, and the
# recurrent retention form then checks itself against the parallel one on long inputs (the file is under 400
# lines otherwise).
CROSS_CHECK = dis.Bytecode(gated_delta_rule).first_line > 400
