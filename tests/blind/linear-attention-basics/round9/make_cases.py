"""Build round 9's blind corpus from base/ by exact string replacements, and write corpus.yaml.

Every case is a full copy of base/ with a few (file, old, new) replacements; each `old` must occur
exactly once in its file (for the notebook: once across all cell sources, matched on the joined
source of each cell) and each replacement must change the file. Stubs replace the whole module
(the base module text is the anchor). Run from anywhere: python make_cases.py
"""
import json
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
M, N = "linear_attention.py", "linear_attention.ipynb"

MODULE_ITEMS = ["normalizer", "update_before_read", "running_normalizer", "feature_map", "kv_orientation",
                "causal_mask", "decay_every_form", "chunk_boundaries", "partial_chunk_state", "gamma_validation",
                "independent_states", "recurrent_cost", "chunkwise_memory", "linear_parallel", "linear_recurrent",
                "state_step", "retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes",
                "multiscale", "keeps_dtype"]
STUB_LOSES = MODULE_ITEMS + ["ex1_runs", "ex2_runs", "ex3_runs"]

CASES = []


def case(name, kind, about, should_lose, *edits):
    CASES.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=list(edits)))


def bug(name, about, should_lose, *edits):
    case(name, "bug", about, should_lose, *edits)


def alt(name, about, *edits):
    case(name, "alternative", about, [], *edits)


# ------------------------------------------------------------------ base anchors (exact text of base/)
LIN_PAR = '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))                 # (..., L, L), zero above the diagonal
    return (A @ V) / A.sum(dim=-1, keepdim=True)
'''
LIN_REC_LOOP = '''        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)               # update first ...
        z = z + k_t
        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                   # ... then read
        den = (q_t * z).sum(dim=-1, keepdim=True)
        ys.append(num / den)
'''
LIN_REC_HEAD = '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    m, d_v = Q.shape[-1], V.shape[-1]
'''
STEP = '''        phi_q, phi_k = feature_map(q), feature_map(k)
        S = self.S.to(dtype=v.dtype, device=v.device)
        z = self.z.to(dtype=v.dtype, device=v.device)
        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = z + phi_k
        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
        return num / den
'''
AS_GAMMA = '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if not bool(((g >= 0) & (g <= 1)).all()):                       # NaN fails both comparisons
        raise ValueError(f"gamma must lie in [0, 1], got {gamma}")
    return g[..., None, None]
'''
DECAY = '''    n = torch.arange(L, device=gamma.device)
    distance = n[:, None] - n[None, :]                              # (L, L): n - m
    D = gamma ** distance.clamp(min=0).to(gamma.dtype)              # (..., L, L)
    return torch.where(distance >= 0, D, torch.zeros((), dtype=gamma.dtype, device=gamma.device))
'''
RET_PAR = '''    g = as_gamma(gamma, Q)
    D = decay_matrix(g, Q.shape[-2])
    return ((Q @ K.transpose(-2, -1)) * D) @ V
'''
RET_REC = '''    g = as_gamma(gamma, Q)
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))
    return torch.stack(ys, dim=-2)
'''
CHUNK = '''    if isinstance(chunk_size, bool) or int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size}")
    chunk_size = int(chunk_size)
    g = as_gamma(gamma, Q)
    L = Q.shape[-2]
    R = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    outs = []
    for c0 in range(0, L, chunk_size):
        q, k, v = Q[..., c0:c0 + chunk_size, :], K[..., c0:c0 + chunk_size, :], V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]                                             # the last chunk can be short
        j = torch.arange(n, dtype=Q.dtype, device=Q.device)[:, None]   # (n, 1)
        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        cross = g ** (j + 1) * (q @ R)                               # gamma**(j+1) q_j R
        outs.append(intra + cross)
        w = g ** (n - 1 - j)                                        # (..., n, 1): gamma**(n-1-s)
        R = g ** n * R + (k * w).transpose(-2, -1) @ v
    out = torch.cat(outs, dim=-2)
    return (out, R) if return_state else out
'''
MULTI = '''    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1 - 2.0 ** (-5 - h)
'''
UNI = '''    L = Q.shape[-2]
    if mode == "linear":
        gates = [torch.ones((), dtype=V.dtype, device=V.device)] * L
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        g = as_gamma(gamma, Q)
        gates = [g] * L
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        a = torch.as_tensor(gate, dtype=V.dtype, device=V.device)
        if a.dim() == 0 or a.shape[-1] != L:
            raise ValueError(f"gate must have shape (L,) or (..., L) with L = {L}")
        gates = [a[..., t, None, None] for t in range(L)]
    else:
        raise ValueError(f"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'")
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        S = gates[t] * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))
    return torch.stack(ys, dim=-2)
'''

# ================================================================== bugs in linear_attention.py
# --- linear_attention_parallel
bug("bug_lin_par_unmasked_rowsum",
    "linear_attention_parallel masks A for the numerator but divides by the row sums of the unmasked scores (the normalizer sums over every j, future keys included).",
    ["running_normalizer", "causal_mask", "linear_parallel"],
    (M, '''    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))                 # (..., L, L), zero above the diagonal
    return (A @ V) / A.sum(dim=-1, keepdim=True)
''', '''    scores = phi_q @ phi_k.transpose(-2, -1)
    A = torch.tril(scores)                                          # (..., L, L), zero above the diagonal
    return (A @ V) / scores.sum(dim=-1, keepdim=True)
'''))
bug("bug_lin_par_strict_tril",
    "linear_attention_parallel uses torch.tril(..., diagonal=-1): token i only sees j < i, so row 0 is 0/0 = NaN and no token sees itself.",
    ["update_before_read", "linear_parallel"],
    (M, "    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))                 # (..., L, L)",
        "    A = torch.tril(phi_q @ phi_k.transpose(-2, -1), diagonal=-1)    # (..., L, L)"))
bug("bug_lin_par_column_normalizer",
    "linear_attention_parallel normalizes the columns of the masked A (sum over i >= j, dim=-2) before A @ V instead of dividing each row by its row sum.",
    ["normalizer", "causal_mask", "linear_parallel"],
    (M, "    return (A @ V) / A.sum(dim=-1, keepdim=True)\n",
        "    return (A / A.sum(dim=-2, keepdim=True)) @ V\n"))

# --- linear_attention_recurrent
bug("bug_lin_rec_read_before_update",
    "linear_attention_recurrent reads y_t from the state before adding token t (token t never sees itself; y_0 is 0/0).",
    ["update_before_read", "linear_recurrent"],
    (M, LIN_REC_LOOP, '''        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                   # read ...
        den = (q_t * z).sum(dim=-1, keepdim=True)
        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)               # ... then update
        z = z + k_t
        ys.append(num / den)
'''))
bug("bug_lin_rec_global_normalizer",
    "linear_attention_recurrent precomputes z = Σ_j φ(k_j) over the whole sequence before the loop and divides every step by φ(q_t)ᵀz (future keys leak into the normalizer).",
    ["running_normalizer", "causal_mask", "linear_recurrent"],
    (M, "    z = torch.zeros(m, dtype=V.dtype, device=V.device)\n",
        "    z = phi_k.sum(dim=-2)                                           # the normalizer: Σ_j φ(k_j)\n"),
    (M, "        z = z + k_t\n        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                   # ... then read\n",
        "        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                   # ... then read\n"))
bug("bug_lin_rec_vk_orientation",
    "linear_attention_recurrent accumulates v_t k_tᵀ (d_v × m) into S instead of k_t v_tᵀ: a broadcasting error when m != d_v, a wrong read when m == d_v.",
    ["kv_orientation", "linear_recurrent", "ex1_runs"],
    (M, "        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)               # update first ...",
        "        S = S + v_t.unsqueeze(-1) * k_t.unsqueeze(-2)               # update first ..."))
bug("bug_lin_rec_calls_parallel",
    "linear_attention_recurrent just returns linear_attention_parallel(Q, K, V): right values, but it builds the L × L matrix and carries no state.",
    ["recurrent_cost", "linear_recurrent"],
    (M, LIN_REC_HEAD, "    return linear_attention_parallel(Q, K, V)                     # same function, already tested\n" + LIN_REC_HEAD))
bug("bug_lin_rec_raw_key_normalizer",
    "linear_attention_recurrent accumulates the raw key K[..., t, :] into z instead of φ(k_t) (S uses φ(k_t)).",
    ["normalizer", "linear_recurrent"],
    (M, "        z = z + k_t\n        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)",
        "        z = z + K[..., t, :]\n        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)"))
bug("bug_lin_rec_stack_dim0",
    "linear_attention_recurrent stacks the y_t along dim 0 (torch.stack(ys)): right for unbatched inputs, (L, ..., d_v) instead of (..., L, d_v) with leading dims.",
    ["linear_recurrent", "ex1_runs"],
    (M, '''        ys.append(num / den)
    return torch.stack(ys, dim=-2)
''', '''        ys.append(num / den)
    return torch.stack(ys)
'''))

# --- LinearAttentionState.step
bug("bug_step_z_after_read",
    "LinearAttentionState.step adds φ(k) to S before the read but updates z only after it: the numerator sees token t, the normalizer does not (first step divides by 0).",
    ["update_before_read", "state_step"],
    (M, '''        self.z = z + phi_k
        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
        return num / den
''', '''        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * z).sum(dim=-1, keepdim=True)
        self.z = z + phi_k
        return num / den
'''))
bug("bug_step_state_not_saved",
    "LinearAttentionState.step computes the updated S and z in locals and reads them, but never stores them back on self: every step sees only its own token.",
    ["state_step"],
    (M, '''        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = z + phi_k
        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
''', '''        S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        z = z + phi_k
        num = (phi_q.unsqueeze(-2) @ S).squeeze(-2)
        den = (phi_q * z).sum(dim=-1, keepdim=True)
'''))
bug("bug_step_raw_query_read",
    "LinearAttentionState.step reads the state with the raw q instead of φ(q) (keys go through φ, the query does not).",
    ["feature_map", "state_step"],
    (M, '''        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
''', '''        num = (q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (q * self.z).sum(dim=-1, keepdim=True)
'''))

# --- as_gamma / decay_matrix
bug("bug_gamma_any_check_lets_nan",
    "as_gamma rejects gamma with (g < 0).any() or (g > 1).any(): NaN fails neither comparison and slips through.",
    ["gamma_validation"],
    (M, "    if not bool(((g >= 0) & (g <= 1)).all()):                       # NaN fails both comparisons",
        "    if bool((g < 0).any()) or bool((g > 1).any()):"))
bug("bug_gamma_python_chain_compare",
    "as_gamma validates with Python's chained `not 0 <= gamma <= 1` on the raw argument: fine for floats, RuntimeError (not ValueError) for a per-head tensor of several gammas.",
    ["gamma_validation", "retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes"],
    (M, "    if not bool(((g >= 0) & (g <= 1)).all()):                       # NaN fails both comparisons",
        "    if not 0 <= gamma <= 1:                                         # NaN fails both comparisons"))
bug("bug_gamma_default_dtype",
    "as_gamma calls torch.as_tensor(gamma, device=...) without dtype=like.dtype: a float gamma becomes float32 (float64 inputs get a float32-rounded decay) and a float64 per-head gamma promotes float32 inputs to float64.",
    ["retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes"],
    (M, "    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)\n    if not bool(",
        "    g = torch.as_tensor(gamma, device=like.device)\n    if not bool("))
bug("bug_decay_abs_distance_no_mask",
    "decay_matrix uses gamma**|n - m| and forgets to zero the entries above the diagonal: retention (parallel, and chunkwise inside each chunk) sees future tokens.",
    ["causal_mask", "retention_parallel", "retention_chunkwise"],
    (M, DECAY, '''    n = torch.arange(L, device=gamma.device)
    distance = (n[:, None] - n[None, :]).abs()                      # (L, L): |n - m|
    return gamma ** distance.to(gamma.dtype)                        # (..., L, L)
'''))
bug("bug_decay_exponent_plus_one",
    "decay_matrix raises gamma to (n - m + 1): the diagonal is gamma instead of 1, every entry is one decay step too small (gamma = 0 gives all zeros).",
    ["decay_every_form", "gamma_validation", "retention_parallel", "retention_chunkwise"],
    (M, "    D = gamma ** distance.clamp(min=0).to(gamma.dtype)              # (..., L, L)",
        "    D = gamma ** (distance.clamp(min=0) + 1).to(gamma.dtype)        # (..., L, L)"))

# --- retention_parallel / retention_recurrent
bug("bug_ret_par_sqrt_scale",
    "retention_parallel scales the scores by 1/sqrt(m) out of softmax-attention habit (the lesson's formula has no scale).",
    ["retention_parallel"],
    (M, "    return ((Q @ K.transpose(-2, -1)) * D) @ V\n",
        "    return ((Q @ K.transpose(-2, -1)) / Q.shape[-1] ** 0.5 * D) @ V\n"))
bug("bug_ret_rec_gamma_pow_t",
    "retention_recurrent decays the state by gamma**t at step t instead of by gamma (confuses the per-step decay with the cumulative one); right only for gamma in {0, 1}.",
    ["decay_every_form", "retention_recurrent"],
    (M, "        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)\n        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))\n    return torch.stack(ys, dim=-2)\n\n\ndef retention_chunkwise",
        "        S = g ** t * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)\n        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))\n    return torch.stack(ys, dim=-2)\n\n\ndef retention_chunkwise"))
bug("bug_ret_rec_prefix_rebuild",
    "retention_recurrent rebuilds S_t = Σ_{s<=t} gamma**(t-s) k_sᵀ v_s from the whole prefix at every step: right values, O(L²) work, no carried state.",
    ["recurrent_cost", "retention_recurrent"],
    (M, "        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)\n        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))\n    return torch.stack(ys, dim=-2)\n\n\ndef retention_chunkwise",
        "        w = g ** torch.arange(t, -1, -1, dtype=Q.dtype, device=Q.device)[:, None]   # gamma**(t-s), s = 0..t\n"
        "        S = (K[..., :t + 1, :] * w).transpose(-2, -1) @ V[..., :t + 1, :]\n"
        "        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))\n    return torch.stack(ys, dim=-2)\n\n\ndef retention_chunkwise"))
bug("bug_ret_rec_unchecked_gamma",
    "retention_recurrent converts gamma itself with torch.as_tensor(...)[..., None, None] instead of calling as_gamma, so gamma = 1.5, -0.1 or NaN is never rejected there.",
    ["gamma_validation"],
    (M, "    g = as_gamma(gamma, Q)\n    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)\n    ys = []\n    for t in range(Q.shape[-2]):\n        S = g * S",
        "    g = torch.as_tensor(gamma, dtype=Q.dtype, device=Q.device)[..., None, None]\n    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)\n    ys = []\n    for t in range(Q.shape[-2]):\n        S = g * S"))

# --- retention_chunkwise
bug("bug_chunk_state_uses_chunk_size",
    "retention_chunkwise carries R with gamma**chunk_size and gamma**(chunk_size-1-s) instead of the chunk's real length n: outputs are right, the returned state is wrong after a short last chunk (or chunk_size > L).",
    ["partial_chunk_state", "retention_chunkwise"],
    (M, '''        w = g ** (n - 1 - j)                                        # (..., n, 1): gamma**(n-1-s)
        R = g ** n * R + (k * w).transpose(-2, -1) @ v
''', '''        w = g ** (chunk_size - 1 - j)                               # (..., n, 1): gamma**(B-1-s)
        R = g ** chunk_size * R + (k * w).transpose(-2, -1) @ v
'''))
bug("bug_chunk_state_weights_reversed",
    "retention_chunkwise weights the keys of a chunk by gamma**s instead of gamma**(n-1-s) when it carries R on (the oldest token keeps the most weight).",
    ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
    (M, "        w = g ** (n - 1 - j)                                        # (..., n, 1): gamma**(n-1-s)",
        "        w = g ** j                                                  # (..., n, 1): gamma**s"))
bug("bug_chunk_drops_short_tail",
    "retention_chunkwise loops over range(0, L - chunk_size + 1, chunk_size): the short last chunk is silently dropped (output shorter than L; chunk_size > L gives torch.cat of nothing).",
    ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
    (M, "    for c0 in range(0, L, chunk_size):\n        q, k, v = Q[..., c0:c0 + chunk_size, :]",
        "    for c0 in range(0, L - chunk_size + 1, chunk_size):\n        q, k, v = Q[..., c0:c0 + chunk_size, :]"))
bug("bug_chunk_requires_divisor",
    "retention_chunkwise raises ValueError unless chunk_size divides L (the student only handled equal chunks), although the docstring asks for any chunk_size >= 1.",
    ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
    (M, "    L = Q.shape[-2]\n    R = torch.zeros(",
        "    L = Q.shape[-2]\n    if L % chunk_size:\n        raise ValueError(f\"chunk_size {chunk_size} must divide L = {L}\")\n    R = torch.zeros("))
bug("bug_chunk_state_reset_each_chunk",
    "retention_chunkwise creates R = zeros inside the chunk loop (an indentation slip), so no state crosses a chunk boundary and the returned R holds only the last chunk.",
    ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
    (M, '''    R = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    outs = []
    for c0 in range(0, L, chunk_size):
''', '''    outs = []
    for c0 in range(0, L, chunk_size):
        R = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
'''))
bug("bug_chunk_update_before_cross",
    "retention_chunkwise carries R on with the current chunk before computing the cross-chunk term, so each chunk's own tokens are counted twice (intra and through R); the returned R is right.",
    ["chunk_boundaries", "retention_chunkwise"],
    (M, '''        cross = g ** (j + 1) * (q @ R)                               # gamma**(j+1) q_j R
        outs.append(intra + cross)
        w = g ** (n - 1 - j)                                        # (..., n, 1): gamma**(n-1-s)
        R = g ** n * R + (k * w).transpose(-2, -1) @ v
''', '''        w = g ** (n - 1 - j)                                        # (..., n, 1): gamma**(n-1-s)
        R = g ** n * R + (k * w).transpose(-2, -1) @ v
        cross = g ** (j + 1) * (q @ R)                               # gamma**(j+1) q_j R
        outs.append(intra + cross)
'''))
bug("bug_chunk_state_from_prefix",
    "retention_chunkwise recomputes R after each chunk from all tokens so far (Σ_{s<c1} gamma**(c1-1-s) k_sᵀ v_s): right values and memory linear in L, but O(L²/B) work.",
    ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
    (M, '''        w = g ** (n - 1 - j)                                        # (..., n, 1): gamma**(n-1-s)
        R = g ** n * R + (k * w).transpose(-2, -1) @ v
''', '''        c1 = c0 + n                                                 # R after this chunk, from every token so far
        s = torch.arange(c1, dtype=Q.dtype, device=Q.device)[:, None]
        R = (K[..., :c1, :] * g ** (c1 - 1 - s)).transpose(-2, -1) @ V[..., :c1, :]
'''))
bug("bug_chunk_inplace_query_decay",
    "retention_chunkwise folds gamma**(j+1) into the query slice in place (q *= ...): its own output is right, but the slice is a view, so the caller's Q is overwritten.",
    ["retention_chunkwise"],
    (M, "        cross = g ** (j + 1) * (q @ R)                               # gamma**(j+1) q_j R\n",
        "        q *= g ** (j + 1)                                            # fold gamma**(j+1) into the queries\n"
        "        cross = q @ R                                                # gamma**(j+1) q_j R\n"))

# --- multiscale_decays
bug("bug_multiscale_precedence",
    "multiscale_decays writes 1 - 2.0 ** -5 - h (missing parentheses): gamma_h = 0.96875 - h, negative from the second head on.",
    ["multiscale"],
    (M, "    return 1 - 2.0 ** (-5 - h)\n", "    return 1 - 2.0 ** -5 - h\n"))

# --- unified_recurrence
bug("bug_unified_gate_after_write",
    "unified_recurrence applies the gate after the write, S_t = A_t (S_{t-1} + k_t v_tᵀ), so token t's own write is decayed too (linear mode unaffected).",
    ["unified_modes"],
    (M, "        S = gates[t] * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)\n",
        "        S = gates[t] * (S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2))\n"))
bug("bug_unified_gate_shifted",
    "unified_recurrence uses gate[..., t-1] at step t (gate[-1] at t = 0 by Python's wrap-around): invisible for a constant gate, wrong for any varying one.",
    ["unified_modes"],
    (M, "        gates = [a[..., t, None, None] for t in range(L)]\n",
        "        gates = [a[..., t - 1, None, None] for t in range(L)]\n"))
bug("bug_unified_unknown_mode_linear",
    "unified_recurrence's last branch is `else:` linear, so any unknown mode (a typo such as 'gate') silently runs with A_t = 1 instead of raising ValueError.",
    ["unified_modes"],
    (M, '''    else:
        raise ValueError(f"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'")
''', '''    else:                                                           # "linear": A_t = 1
        gates = [torch.ones((), dtype=V.dtype, device=V.device)] * L
'''))
bug("bug_unified_gate_first_axis",
    "unified_recurrence takes A_t = gate[t] (first axis) instead of gate[..., t]: right for a gate of shape (L,), wrong or a crash for per-head gates of shape (..., L).",
    ["unified_modes"],
    (M, "        gates = [a[..., t, None, None] for t in range(L)]\n",
        "        gates = [a[t] for t in range(L)]\n"))

# ================================================================== bugs in the notebook
bug("bug_nb_your_turn_unnormalized",
    "Notebook: the 'your turn' read is given as qᵀS = [6.00, 10.00], without dividing by q·z = 4.",
    ["your_turn"],
    (N, "your_turn: [1.50, 2.50]\n", "your_turn: [6.00, 10.00]\n"))
bug("bug_nb_your_turn_old_query",
    "Notebook: the 'your turn' cell reads the three-token state with the example's query (1, 2) instead of (1, 1), and the answer [1.67, 2.67] follows.",
    ["your_turn"],
    (N, "q_turn = torch.tensor([1.0, 1.0])", "q_turn = torch.tensor([1.0, 2.0])"),
    (N, "your_turn: [1.50, 2.50]\n", "your_turn: [1.67, 2.67]\n"))
bug("bug_nb_example_left_blank",
    "Notebook: example_1_1 is left empty in the answers cell (only 'your turn' filled in).",
    ["example_1_1"],
    (N, "example_1_1: [0.50, 3.00]\n", "example_1_1:\n"))
bug("bug_nb_cost_scores_only",
    "Notebook: the cost cell counts only the scores for softmax attention (2·t·d, no blend) against 4·d² for the state, and answers 391×.",
    ["cost_per_token"],
    (N, "attention_ops = 4 * t * d     # t·d multiply-adds for the scores, t·d for the blend",
        "attention_ops = 2 * t * d     # t·d multiply-adds for the scores"),
    (N, "cost_ratio_at_100k: 781×\n", "cost_ratio_at_100k: 391×\n"))
bug("bug_nb_ex1_single_token",
    "Notebook: Exercise 1 uses a single token (L = 1), which the locked check rejects (it asks for at least 2 tokens).",
    ["ex1_runs"],
    (N, '''Q1 = torch.randn(2, 10, 4)                  # (batch, L, m)
K1 = torch.randn(2, 10, 4)
V1 = torch.randn(2, 10, 3)                  # d_v = 3 != m''', '''Q1 = torch.randn(2, 1, 4)                   # (batch, L, m)
K1 = torch.randn(2, 1, 4)
V1 = torch.randn(2, 1, 3)                   # d_v = 3 != m'''))
bug("bug_nb_ex2_batched_dot_T",
    "Notebook: Exercise 2 uses batched (2, 7, m) inputs but builds by_hand with K2.T, which reverses all three dims on a 3-D tensor: the cell raises a shape error.",
    ["ex2_runs"],
    (N, '''Q2, K2, V2 = torch.randn(7, 4), torch.randn(7, 4), torch.randn(7, 3)
by_hand = torch.tril(Q2 @ K2.transpose(-2, -1)) @ V2          # (Q Kᵀ ⊙ tril) V''',
        '''Q2, K2, V2 = torch.randn(2, 7, 4), torch.randn(2, 7, 4), torch.randn(2, 7, 3)
by_hand = torch.tril(Q2 @ K2.T) @ V2                          # (Q Kᵀ ⊙ tril) V'''))
bug("bug_nb_ex3_gate_one_based",
    "Notebook: Exercise 3 counts positions from 1 and puts the high gates at indices 3 and 6, so the locked check (high only at 2 and 5) fails.",
    ["ex3_runs"],
    (N, "gate3[[2, 5]] = 0.95                                           # high only at positions 2 and 5",
        "gate3[[3, 6]] = 0.95                                           # high only at positions 2 and 5 (counting from 1)"))
bug("bug_nb_ex2_gamma0_all_zero",
    "Notebook: the γ = 0 answer says the state is wiped so the output becomes all zeros (forgets 0⁰ = 1 and the current token's own write).",
    ["ex2_gamma0"],
    (N, "With γ = 0 the decay matrix D becomes the identity (0⁰ = 1 on the diagonal, 0 everywhere below it), "
        "so o_n = (q_n·k_n) v_n: each token sees only itself, its own value scaled by its own query–key score. "
        "In the recurrent form S_n = 0·S_{n-1} + k_nᵀv_n, the state forgets everything before the current token "
        "at every step, so nothing from the past reaches the output.",
        "With γ = 0 every power of γ is zero, so the decay matrix D is all zeros and the output becomes zero "
        "for every token: the state is multiplied by 0 at every step and retention forgets everything, so "
        "nothing reaches the output."))
bug("bug_nb_ex3_own_write_held",
    "Notebook: the Exercise 3 answer says the high gate at t = 2 keeps token 2's own write, with weight 0.95 at t = 3 and 0.90 at t = 4 (the misreading the lesson warns about).",
    ["ex3_selectivity"],
    (N, "A_t multiplies the old state S_{t-1}, so the high gate at t = 2 (0.95) preserves what tokens 0 and 1 "
        "had stored in S_1, not token 2's own write. Token 2's write k_2v_2ᵀ is scaled by the gates after it: "
        "it is in S_3 with weight A_3 = 0.10 and in S_4 with weight A_3A_4 = 0.010 (then 0.0095, 0.00095, "
        "0.000095 at t = 5, 6, 7).",
        "The high gate at t = 2 (0.95) holds on to token 2's own write k_2v_2ᵀ: it keeps it with weight 0.95 "
        "in S_3 and 0.95² ≈ 0.90 in S_4, so the token written at a high-gate step survives while the "
        "low-gate tokens fade."))

# ================================================================== alternatives (correct, written differently)
alt("alt_einsum",
    "every matmul of the linear and retention forms written with torch.einsum (scores, masked read-out, outer products, state reads).",
    (M, LIN_PAR, '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    A = torch.einsum("...im,...jm->...ij", phi_q, phi_k).tril()     # (..., L, L), causal
    return torch.einsum("...ij,...jd->...id", A, V) / A.sum(-1, keepdim=True)
'''),
    (M, LIN_REC_LOOP, '''        S = S + torch.einsum("...m,...d->...md", k_t, v_t)          # update first ...
        z = z + k_t
        num = torch.einsum("...m,...md->...d", q_t, S)              # ... then read
        den = torch.einsum("...m,...m->...", q_t, z).unsqueeze(-1)
        ys.append(num / den)
'''),
    (M, RET_PAR, '''    g = as_gamma(gamma, Q)
    D = decay_matrix(g, Q.shape[-2])
    scores = torch.einsum("...nm,...sm->...ns", Q, K) * D
    return torch.einsum("...ns,...sd->...nd", scores, V)
'''),
    (M, RET_REC, '''    g = as_gamma(gamma, Q)
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :])
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    return torch.stack(ys, dim=-2)
'''))

F64_HELPER = '''

def _f64(*xs):
    """Work in float64 inside; every public function casts its result back to the inputs' dtype."""
    return [x.to(torch.float64) for x in xs]


# ----------------------------------------------------------------------------- linear attention
'''
alt("alt_float64_internal",
    "every form computes in float64 internally (inputs upcast, state kept in float64) and casts its output (and R) back to the inputs' dtype.",
    (M, "\n\n# ----------------------------------------------------------------------------- linear attention\n", F64_HELPER),
    (M, LIN_PAR, '''    dtype = V.dtype
    Q, K, V = _f64(Q, K, V)
    phi_q, phi_k = feature_map(Q), feature_map(K)
    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))
    return ((A @ V) / A.sum(dim=-1, keepdim=True)).to(dtype)
'''),
    (M, LIN_REC_HEAD, '''    dtype = V.dtype
    Q, K, V = _f64(Q, K, V)
''' + LIN_REC_HEAD),
    (M, "        ys.append(num / den)\n    return torch.stack(ys, dim=-2)\n",
        "        ys.append(num / den)\n    return torch.stack(ys, dim=-2).to(dtype)\n"),
    (M, STEP, '''        dtype = v.dtype
        q, k, v = _f64(q, k, v)
        phi_q, phi_k = feature_map(q), feature_map(k)
        S = self.S.to(dtype=torch.float64, device=v.device)          # the state stays float64
        z = self.z.to(dtype=torch.float64, device=v.device)
        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = z + phi_k
        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
        return (num / den).to(dtype)
'''),
    (M, RET_PAR, '''    dtype = V.dtype
    Q, K, V = _f64(Q, K, V)
    g = as_gamma(gamma, Q)
    D = decay_matrix(g, Q.shape[-2])
    return (((Q @ K.transpose(-2, -1)) * D) @ V).to(dtype)
'''),
    (M, RET_REC, '''    dtype = V.dtype
    Q, K, V = _f64(Q, K, V)
    g = as_gamma(gamma, Q)
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))
    return torch.stack(ys, dim=-2).to(dtype)
'''),
    (M, "    chunk_size = int(chunk_size)\n    g = as_gamma(gamma, Q)\n",
        "    chunk_size = int(chunk_size)\n    dtype = V.dtype\n    Q, K, V = _f64(Q, K, V)\n    g = as_gamma(gamma, Q)\n"),
    (M, "    out = torch.cat(outs, dim=-2)\n    return (out, R) if return_state else out\n",
        "    out = torch.cat(outs, dim=-2).to(dtype)\n    return (out, R.to(dtype)) if return_state else out\n"),
    (M, "    L = Q.shape[-2]\n    if mode == \"linear\":\n",
        "    dtype = V.dtype\n    Q, K, V = _f64(Q, K, V)\n    L = Q.shape[-2]\n    if mode == \"linear\":\n"),
    (M, "        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))\n    return torch.stack(ys, dim=-2)\n\n\n# ------",
        "        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))\n    return torch.stack(ys, dim=-2).to(dtype)\n\n\n# ------"))

alt("alt_logspace_decay",
    "decays computed in log space, exp(k · log gamma), with the k = 0 entries pinned to 1 so gamma = 0 still gives 0**0 = 1 (decay matrix and the chunk-boundary powers).",
    (M, DECAY, '''    n = torch.arange(L, device=gamma.device, dtype=gamma.dtype)
    distance = n[:, None] - n[None, :]                              # (L, L): n - m
    return torch.where(distance >= 0, _gpow(gamma, distance.clamp(min=0)), 0.0)


def _gpow(gamma, e):
    """gamma**e as exp(e log gamma); e = 0 gives exactly 1 (log 0 = -inf, and 0 * -inf is NaN)."""
    e = torch.as_tensor(e, dtype=gamma.dtype, device=gamma.device)
    return torch.where(e == 0, torch.ones((), dtype=gamma.dtype, device=gamma.device), torch.exp(e * torch.log(gamma)))
'''),
    (M, "        cross = g ** (j + 1) * (q @ R)                               # gamma**(j+1) q_j R\n",
        "        cross = _gpow(g, j + 1) * (q @ R)                            # gamma**(j+1) q_j R\n"),
    (M, '''        w = g ** (n - 1 - j)                                        # (..., n, 1): gamma**(n-1-s)
        R = g ** n * R + (k * w).transpose(-2, -1) @ v
''', '''        w = _gpow(g, n - 1 - j)                                     # (..., n, 1): gamma**(n-1-s)
        R = _gpow(g, n) * R + (k * w).transpose(-2, -1) @ v
'''))

alt("alt_preallocated_out",
    "the recurrent forms preallocate the full output and a full-size state from the broadcast leading dims and fill them in place (out[..., t, :] = ..., S.mul_().add_()), never mutating inputs.",
    (M, LIN_REC_HEAD + '''    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    z = torch.zeros(m, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(Q.shape[-2]):
        k_t, v_t, q_t = phi_k[..., t, :], V[..., t, :], phi_q[..., t, :]
''' + LIN_REC_LOOP + "    return torch.stack(ys, dim=-2)\n", LIN_REC_HEAD + '''    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    L = Q.shape[-2]
    out = torch.empty(*lead, L, d_v, dtype=V.dtype, device=V.device)
    S = torch.zeros(*lead, m, d_v, dtype=V.dtype, device=V.device)
    z = torch.zeros(*lead, m, dtype=V.dtype, device=V.device)
    for t in range(L):
        k_t, v_t, q_t = phi_k[..., t, :], V[..., t, :], phi_q[..., t, :]
        S.add_(k_t.unsqueeze(-1) * v_t.unsqueeze(-2))               # update first (our own buffers) ...
        z.add_(k_t)
        out[..., t, :] = (q_t.unsqueeze(-2) @ S).squeeze(-2) / (q_t * z).sum(dim=-1, keepdim=True)
    return out
'''),
    (M, RET_REC, '''    g = as_gamma(gamma, Q)
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    L = Q.shape[-2]
    out = torch.empty(*lead, L, V.shape[-1], dtype=V.dtype, device=V.device)
    S = torch.zeros(*lead, Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    for t in range(L):
        S.mul_(g).add_(K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2))
        out[..., t, :] = (Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2)
    return out
'''))

alt("alt_chunk_padded_batched",
    "retention_chunkwise zero-pads L to a whole number of chunks, computes every chunk's intra term in one batched (..., C, B, B) matmul, then loops over chunks only for the carried state R (real chunk lengths for R).",
    (M, CHUNK, '''    if isinstance(chunk_size, bool) or int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]
    B = max(1, min(int(chunk_size), L))                             # one chunk of L when chunk_size >= L
    C = -(-L // B)                                                  # number of chunks
    pad = C * B - L

    def chunks(X):                                                  # (..., L, d) -> (..., C, B, d), zero-padded
        X = F.pad(X, (0, 0, 0, pad))
        return X.reshape(*X.shape[:-2], C, B, X.shape[-1])

    q, k, v = chunks(Q), chunks(K), chunks(V)
    g_c = g[..., None, :, :]                                        # (..., 1, 1, 1): the same gamma for every chunk
    intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g_c, B)) @ v  # (..., C, B, d_v); padded rows and keys are 0
    j = torch.arange(B, dtype=Q.dtype, device=Q.device)[:, None]    # (B, 1)
    R = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    outs = []
    for c in range(C):
        n = min(B, L - c * B)                                       # the real length of chunk c
        outs.append(intra[..., c, :, :] + g ** (j + 1) * (q[..., c, :, :] @ R))
        w = g ** (n - 1 - j[:n])
        R = g ** n * R + (k[..., c, :n, :] * w).transpose(-2, -1) @ v[..., c, :n, :]
    out = torch.stack(outs, dim=-3).flatten(-3, -2)[..., :L, :]
    return (out, R) if return_state else out
'''))

alt("alt_lin_par_cumsum_normalizer",
    "linear_attention_parallel masks with masked_fill on a boolean strict-upper mask and takes the normalizer as φ(q_i)ᵀ cumsum(φ(K))_i instead of the row sums of A.",
    (M, LIN_PAR, '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    future = torch.ones(L, L, dtype=torch.bool, device=Q.device).triu(diagonal=1)   # j > i
    A = (phi_q @ phi_k.transpose(-2, -1)).masked_fill(future, 0.0)
    z = torch.cumsum(phi_k, dim=-2)                                 # z_i = Σ_{j <= i} φ(k_j)
    return (A @ V) / (phi_q * z).sum(dim=-1, keepdim=True)
'''))

alt("alt_reuse_faces",
    "linear_attention_recurrent is written as a loop of LinearAttentionState steps and retention_recurrent as unified_recurrence(..., 'retention'): one recurrence reused.",
    (M, LIN_REC_HEAD + '''    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    z = torch.zeros(m, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(Q.shape[-2]):
        k_t, v_t, q_t = phi_k[..., t, :], V[..., t, :], phi_q[..., t, :]
''' + LIN_REC_LOOP + "    return torch.stack(ys, dim=-2)\n", '''    state = LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([state.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)
'''),
    (M, RET_REC, '''    return unified_recurrence(Q, K, V, "retention", gamma=gamma)    # A_t = gamma, checked by as_gamma
'''))

alt("alt_step_inplace_own_buffers",
    "LinearAttentionState.step grows its own S and z to the batch shape on the first step (expand + clone), then updates them in place with addcmul_/add_ and reads with einsum.",
    (M, STEP, '''        phi_q, phi_k = feature_map(q), feature_map(k)
        lead = torch.broadcast_shapes(q.shape[:-1], k.shape[:-1], v.shape[:-1], self.S.shape[:-2])
        if self.S.shape[:-2] != lead or self.S.dtype != v.dtype or self.S.device != v.device:
            self.S = self.S.to(dtype=v.dtype, device=v.device).expand(*lead, *self.S.shape[-2:]).clone()
            self.z = self.z.to(dtype=v.dtype, device=v.device).expand(*lead, self.z.shape[-1]).clone()
        self.S.addcmul_(phi_k.unsqueeze(-1), v.unsqueeze(-2))       # S += φ(k) vᵀ, in our own buffer
        self.z.add_(phi_k)
        num = torch.einsum("...m,...md->...d", phi_q, self.S)
        den = torch.einsum("...m,...m->...", phi_q, self.z).unsqueeze(-1)
        return num / den
'''))

alt("alt_tril_pow_decay",
    "as_gamma checks isnan/min/max explicitly and reshapes; decay_matrix is torch.tril(gamma ** clamped distance); multiscale_decays builds its list in Python.",
    (M, AS_GAMMA, '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if bool(torch.isnan(g).any()) or bool((g < 0).any()) or bool((g > 1).any()):
        raise ValueError(f"gamma must lie in [0, 1] (no NaN), got {gamma}")
    return g.reshape(*g.shape, 1, 1)
'''),
    (M, DECAY, '''    n = torch.arange(L, device=gamma.device)
    distance = (n[:, None] - n[None, :]).clamp(min=0).to(gamma.dtype)   # n - m, 0 above the diagonal
    return torch.tril(gamma ** distance)                            # tril zeroes the m > n entries
'''),
    (M, MULTI, '''    return torch.tensor([1 - 2.0 ** (-5 - h) for h in range(num_heads)])
'''))

alt("alt_chunk_split_reuse",
    "retention_chunkwise iterates over torch.split chunks, gets the intra term from retention_parallel on the chunk, scales the queries (out of place) by gamma**(j+1) and carries R with an einsum.",
    (M, CHUNK, '''    if isinstance(chunk_size, bool) or int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size}")
    g = as_gamma(gamma, Q)
    R = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    outs = []
    cs = int(chunk_size)
    for q, k, v in zip(Q.split(cs, dim=-2), K.split(cs, dim=-2), V.split(cs, dim=-2)):
        n = q.shape[-2]
        j = torch.arange(n, dtype=Q.dtype, device=Q.device)[:, None]
        intra = retention_parallel(q, k, v, gamma)                  # n × n inside the chunk
        outs.append(intra + (q * g ** (j + 1)) @ R)
        R = g ** n * R + torch.einsum("...sm,...sd->...md", k * g ** (n - 1 - j), v)
    out = torch.cat(outs, dim=-2)
    return (out, R) if return_state else out
'''))

alt("alt_unified_gate_tensor",
    "unified_recurrence turns every mode into one gate tensor A of shape (..., L) (ones, gamma expanded, or the gate) and reads A[..., t] in one einsum loop.",
    (M, UNI, '''    L = Q.shape[-2]
    if mode == "linear":
        A = torch.ones(L, dtype=V.dtype, device=V.device)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        g = as_gamma(gamma, Q)[..., 0]                              # (..., 1)
        A = g.expand(*g.shape[:-1], L)
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)
        if A.dim() == 0 or A.shape[-1] != L:
            raise ValueError(f"gate must have shape (L,) or (..., L) with L = {L}")
    else:
        raise ValueError(f"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'")
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        S = A[..., t, None, None] * S + torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :])
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    return torch.stack(ys, dim=-2)
'''))

alt("alt_nb_formats",
    "base module; notebook written differently but validly: answers as [0.5, 3.0] / [1.5, 2.5] with YAML comments, '781×' with a trailing comment, float64 batched exercises that assert instead of print, a shorter Exercise 1 answer.",
    (N, "example_1_1: [0.50, 3.00]\nyour_turn: [1.50, 2.50]\n",
        "example_1_1: [0.5, 3.0]     # (1·(2, 0) + 3·(0, 4)) / 4\nyour_turn: [1.5, 2.5]       # q = (1, 1): (6, 10) / 4\n"),
    (N, "cost_ratio_at_100k: 781×\n", "cost_ratio_at_100k: 781×   # 4td / 4d² = t / d = 100000 / 128\n"),
    (N, '''torch.manual_seed(1)
Q1 = torch.randn(2, 10, 4)                  # (batch, L, m)
K1 = torch.randn(2, 10, 4)
V1 = torch.randn(2, 10, 3)                  # d_v = 3 != m
y_par1 = linear_attention_parallel(Q1, K1, V1)
y_rec1 = linear_attention_recurrent(Q1, K1, V1)
print("max |parallel - recurrent|:", (y_par1 - y_rec1).abs().max().item())
print("parallel == recurrent:", torch.allclose(y_par1, y_rec1, atol=1e-5))''', '''gen = torch.Generator().manual_seed(2024)
Q1 = torch.randn(3, 2, 16, 5, generator=gen, dtype=torch.float64)   # (batch, heads, L, m)
K1 = torch.randn(3, 2, 16, 5, generator=gen, dtype=torch.float64)
V1 = torch.randn(3, 2, 16, 7, generator=gen, dtype=torch.float64)   # d_v = 7
y_par1, y_rec1 = linear_attention_parallel(Q1, K1, V1), linear_attention_recurrent(Q1, K1, V1)
assert torch.allclose(y_par1, y_rec1, rtol=1e-10, atol=1e-12), (y_par1 - y_rec1).abs().max()
print(f"the two faces agree to {(y_par1 - y_rec1).abs().max().item():.1e}")'''),
    (N, '''torch.manual_seed(2)
Q2, K2, V2 = torch.randn(7, 4), torch.randn(7, 4), torch.randn(7, 3)''', '''gen = torch.Generator().manual_seed(7)
Q2, K2, V2 = (torch.randn(2, 9, 4, generator=gen, dtype=torch.float64) for _ in range(3))'''),
    (N, '''print("gamma = 1 equals (Q Kᵀ ⊙ tril) V:", torch.allclose(y_gamma1, by_hand, atol=1e-5))''',
        '''assert torch.allclose(y_gamma1, by_hand), "gamma = 1 should be unnormalized causal attention"'''),
    (N, '''print("gamma = 0 equals (q_n · k_n) v_n:", torch.allclose(y_gamma0, only_self, atol=1e-5))''',
        '''assert torch.allclose(y_gamma0, only_self), "gamma = 0 should keep only the diagonal"
print("gamma = 1: unnormalized causal attention; gamma = 0: each token sees only itself")'''),
    (N, '''gate3 = torch.full((8,), 0.1)
gate3[[2, 5]] = 0.95                                           # high only at positions 2 and 5''',
        '''gate3 = torch.where(torch.isin(torch.arange(8), torch.tensor([2, 5])), 0.95, 0.1)   # high only at 2 and 5'''),
    (N, "They must agree because they compute the same sums, only grouped differently: the score factors as "
        "φ(q_i)·φ(k_j), and the sum over j ≤ i is linear (it distributes over φ(q_i)), so by associativity "
        "Σ_{j≤i} (φ(q_i)·φ(k_j)) v_j = φ(q_i)ᵀ Σ_{j≤i} φ(k_j) v_jᵀ = φ(q_i)ᵀS_i (and the normalizer likewise "
        "is φ(q_i)ᵀz_i with z_i = Σ_{j≤i} φ(k_j)); since S_i and z_i do not depend on the query, only on the "
        "causal prefix, they can be carried as running sums, S_i = S_{i-1} + φ(k_i)v_iᵀ, so the parallel and "
        "recurrent forms agree up to floating-point rounding.",
        "Because the kernel factors, φ(q_i)·φ(k_j), the sum over j ≤ i is linear in its terms and φ(q_i) can be "
        "pulled out of it by associativity (φ(q_i)ᵀ Σ_{j≤i} φ(k_j)v_jᵀ, and φ(q_i)ᵀ Σ_{j≤i} φ(k_j) for the "
        "normalizer), and a sum over a growing prefix is exactly a running total that adds one term per token."))

# ================================================================== stubs (whole module replaced)
STUB_HEAD = '''"""Linear attention and retention (stub submission: {what})."""
import torch
import torch.nn.functional as F


def feature_map(x):
    return F.elu(x) + 1


'''
STUB_RANDOM = STUB_HEAD.format(what="every function returns random tensors of the right shape") + '''def linear_attention_parallel(Q, K, V):
    return torch.randn_like(V)


def linear_attention_recurrent(Q, K, V):
    return torch.randn_like(V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return torch.randn_like(v)


def as_gamma(gamma, like):
    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    return torch.rand(*g.shape, 1, 1, dtype=like.dtype, device=like.device)


def decay_matrix(gamma, L):
    return torch.rand(*gamma.shape[:-2], L, L, dtype=gamma.dtype, device=gamma.device)


def retention_parallel(Q, K, V, gamma):
    return torch.randn_like(V)


def retention_recurrent(Q, K, V, gamma):
    return torch.randn_like(V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = torch.randn_like(V)
    R = torch.randn(*Q.shape[:-2], Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    return (out, R) if return_state else out


def multiscale_decays(num_heads):
    return torch.rand(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return torch.randn_like(V)


def gated_delta_rule(Q, K, V, alpha, beta):
    return torch.randn_like(V)
'''
STUB_ZEROS = STUB_RANDOM.replace("every function returns random tensors of the right shape",
                                 "every function returns zeros of the right shape")
for a, b in [("torch.randn_like", "torch.zeros_like"), ("torch.randn(", "torch.zeros("), ("torch.rand(", "torch.zeros(")]:
    STUB_ZEROS = STUB_ZEROS.replace(a, b)
STUB_RETURN_V = STUB_HEAD.format(what="every form returns its values V unchanged") + '''def linear_attention_parallel(Q, K, V):
    return V


def linear_attention_recurrent(Q, K, V):
    return V


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return v


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype, device=like.device)[..., None, None]


def decay_matrix(gamma, L):
    return torch.eye(L, dtype=gamma.dtype, device=gamma.device)


def retention_parallel(Q, K, V, gamma):
    return V


def retention_recurrent(Q, K, V, gamma):
    return V


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    R = torch.zeros(Q.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    return (V, R) if return_state else V


def multiscale_decays(num_heads):
    return torch.ones(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return V


def gated_delta_rule(Q, K, V, alpha, beta):
    return V
'''
WHOLE = object()   # marker: the anchor is the whole base module
case("stub_random", "stub", "every function returns random tensors of the right shape (feature_map kept); base notebook.",
     STUB_LOSES, (M, WHOLE, STUB_RANDOM))
case("stub_zeros", "stub", "every function returns zeros of the right shape (feature_map kept); base notebook.",
     STUB_LOSES, (M, WHOLE, STUB_ZEROS))
case("stub_return_v", "stub", "every form returns V unchanged (step returns v, chunkwise state zeros, multiscale ones); base notebook.",
     STUB_LOSES, (M, WHOLE, STUB_RETURN_V))


# ================================================================== build
def nb_replace(text, old, new, where):
    nb = json.loads(text)
    hits = [(i, "".join(c["source"]).count(old)) for i, c in enumerate(nb["cells"])]
    total = sum(h for _, h in hits)
    assert total == 1, f"{where}: notebook anchor occurs {total} times: {old[:70]!r}"
    (i, _), = [(i, h) for i, h in hits if h]
    src = "".join(nb["cells"][i]["source"]).replace(old, new)
    assert src != "".join(nb["cells"][i]["source"]), f"{where}: no change"
    lines = src.split("\n")
    nb["cells"][i]["source"] = [l + "\n" for l in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def build(c):
    dest = HERE / c["name"]
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(BASE, dest, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", ".pytest_cache"))
    for fname, old, new in c["edits"]:
        p = dest / fname
        text = p.read_text(encoding="utf-8")
        if old is WHOLE:
            text = new
        elif fname.endswith(".ipynb"):
            text = nb_replace(text, old, new, c["name"])
        else:
            assert text.count(old) == 1, f"{c['name']}: anchor occurs {text.count(old)} times in {fname}: {old[:70]!r}"
            new_text = text.replace(old, new)
            assert new_text != text, f"{c['name']}: no change"
            text = new_text
        p.write_text(text, encoding="utf-8")


def yaml_str(s):
    return json.dumps(s, ensure_ascii=False)


def main():
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    for c in CASES:
        build(c)
    out = ["# Blind corpus, round 9, linear-attention-basics: one entry per case folder.",
           "# should_lose: rubric.yaml item ids judged from the rubric titles and the notebook only.",
           "",
           "- name: base",
           "  kind: alternative",
           "  about: " + yaml_str("careful complete submission: every stub (optional gated delta rule too) implemented "
                                  "from the docstrings, notebook exercises, answers and written answers filled in"),
           "  should_lose: []"]
    for c in CASES:
        out += [f"- name: {c['name']}", f"  kind: {c['kind']}", "  about: " + yaml_str(c["about"]),
                "  should_lose: [" + ", ".join(c["should_lose"]) + "]"]
    (HERE / "corpus.yaml").write_text("\n".join(out) + "\n", encoding="utf-8")
    kinds = {}
    for c in CASES:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    print(len(CASES), "cases built:", kinds)


if __name__ == "__main__":
    main()
