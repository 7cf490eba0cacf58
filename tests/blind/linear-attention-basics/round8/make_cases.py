"""Build the round-8 blind corpus: copy base/ once per case and apply exact string replacements.

Every anchor must occur exactly once in its file and the replacement must change the file.
Notebook anchors are written as plain cell text (one source line) and JSON-escaped here.
Run: /work/main/.venv/bin/python make_cases.py
"""
import json
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
PY = "linear_attention.py"
NB = "linear_attention.ipynb"

CASES = []  # (name, kind, about, should_lose, [(file, old, new), ...])


def case(name, kind, about, should_lose, *edits):
    CASES.append((name, kind, about, list(should_lose), list(edits)))


def py(old, new):
    return (PY, old, new)


def nb(old, new):
    return (NB, json.dumps(old, ensure_ascii=False)[1:-1], json.dumps(new, ensure_ascii=False)[1:-1])


# ============================================================================ bugs: linear attention
case("bug_lin_par_no_normalizer", "bug",
     "linear_attention_parallel returns the masked A @ V without dividing by the row sums of A.",
     ["normalizer", "linear_parallel"],
     py("    return (A @ V) / A.sum(dim=-1, keepdim=True)", "    return A @ V"))

case("bug_lin_par_triu_mask", "bug",
     "linear_attention_parallel keeps the upper triangle (triu) instead of the lower one: row i attends to j >= i.",
     ["causal_mask", "running_normalizer", "linear_parallel"],
     py("    causal = torch.ones(L, L, dtype=torch.bool, device=A.device).tril()",
        "    causal = torch.ones(L, L, dtype=torch.bool, device=A.device).triu()"))

case("bug_lin_par_phi_on_values", "bug",
     "linear_attention_parallel also applies φ to V (blends φ(v_j) instead of v_j).",
     ["linear_parallel"],
     py("    return (A @ V) / A.sum(dim=-1, keepdim=True)", "    return (A @ feature_map(V)) / A.sum(dim=-1, keepdim=True)"))

case("bug_lin_par_inplace_elu", "bug",
     "linear_attention_parallel computes φ with in-place F.elu_(...).add_(1), overwriting the caller's Q and K "
     "(its own output is right, but the inputs are destroyed; Exercise 1's check then recomputes on changed inputs).",
     ["linear_parallel", "ex1_runs"],
     py("""    phi_q, phi_k = feature_map(Q), feature_map(K)
    A = phi_q @ phi_k.transpose(-2, -1)""", """    phi_q, phi_k = F.elu_(Q).add_(1), F.elu_(K).add_(1)      # in place, saves memory
    A = phi_q @ phi_k.transpose(-2, -1)"""))

case("bug_lin_rec_z_sums_queries", "bug",
     "linear_attention_recurrent accumulates φ(q_t) into the normalizer z instead of φ(k_t).",
     ["normalizer", "linear_recurrent"],
     py("        z = z + k_t                                                   # (..., m)",
        "        z = z + q_t                                                   # (..., m)"))

case("bug_lin_rec_raw_queries", "bug",
     "linear_attention_recurrent applies φ to K only and reads the state with the raw q_t.",
     ["feature_map", "linear_recurrent"],
     py("""    phi_q, phi_k = feature_map(Q), feature_map(K)
    m, d_v""", """    phi_q, phi_k = Q, feature_map(K)
    m, d_v"""))

case("bug_lin_rec_prefix_resum", "bug",
     "linear_attention_recurrent recomputes S and z from the whole prefix (φ(K)[:t+1]ᵀ V[:t+1]) at every step: "
     "right values, O(L²) work and no carried state.",
     ["recurrent_cost", "linear_recurrent"],
     py("""        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)                 # (..., m, d_v)
        z = z + k_t                                                   # (..., m)""",
        """        S = phi_k[..., :t + 1, :].transpose(-2, -1) @ V[..., :t + 1, :]   # prefix, recomputed
        z = phi_k[..., :t + 1, :].sum(dim=-2)"""))

case("bug_lin_rec_float64_state", "bug",
     "linear_attention_recurrent starts S and z in float64 whatever the inputs: float32 inputs come back float64.",
     ["keeps_dtype", "ex1_runs"],
     py("    dtype = torch.promote_types(phi_q.dtype, V.dtype)\n    S = torch.zeros(m, d_v",
        "    dtype = torch.float64\n    S = torch.zeros(m, d_v"))

# ============================================================================ bugs: the decoding state
case("bug_step_read_before_update", "bug",
     "LinearAttentionState.step reads φ(q)ᵀS / φ(q)ᵀz before adding the token (the first step is 0/0).",
     ["update_before_read", "state_step"],
     py("""        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = z + phi_k
        num = (phi_q.unsqueeze(-1) * self.S).sum(dim=-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
        return num / den""", """        num = (phi_q.unsqueeze(-1) * S).sum(dim=-2)
        den = (phi_q * z).sum(dim=-1, keepdim=True)
        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = z + phi_k
        return num / den"""))

case("bug_step_relu_features", "bug",
     "LinearAttentionState.step uses relu as its feature map (zero scores and a 0/0 normalizer for negative inputs).",
     ["feature_map", "state_step"],
     py("        phi_q, phi_k = feature_map(q), feature_map(k)", "        phi_q, phi_k = F.relu(q), F.relu(k)"))

case("bug_step_class_level_state", "bug",
     "LinearAttentionState keeps S and z on the class (LinearAttentionState.S), so two decoders share one state; "
     "a single decoder is right.",
     ["independent_states"],
     py("        self.S = torch.zeros(m, d_v)                             # (m, d_v), becomes (..., m, d_v)",
        "        LinearAttentionState.S = torch.zeros(m, d_v)             # (m, d_v), becomes (..., m, d_v)"),
     py("        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)",
        "        LinearAttentionState.z = torch.zeros(m)                  # (m,), becomes (..., m)"),
     py("        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)\n        self.z = z + phi_k",
        "        LinearAttentionState.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)\n"
        "        LinearAttentionState.z = z + phi_k"))

case("bug_step_keeps_history", "bug",
     "LinearAttentionState.step appends every (φ(k), v) to lists and re-sums the whole history at each step: "
     "right values, work and memory grow with t.",
     ["recurrent_cost", "state_step"],
     py("""        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = z + phi_k""", """        if not hasattr(self, "history"):
            self.history = []
        self.history.append((phi_k, v))
        self.S = S * 0 + sum(pk.unsqueeze(-1) * vv.unsqueeze(-2) for pk, vv in self.history)
        self.z = z * 0 + sum(pk for pk, _ in self.history)"""))

case("bug_step_inplace_unbroadcast", "bug",
     "LinearAttentionState.step updates S and z in place (+=) on the (m, d_v) start tensors: fine for one head, "
     "raises for batched tokens (an in-place add cannot broadcast up).",
     ["state_step"],
     py("""        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = z + phi_k""", """        S += phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        z += phi_k
        self.S, self.z = S, z"""))

case("bug_step_squeeze_output", "bug",
     "LinearAttentionState.step returns (num / den).squeeze(): wrong shape when a leading dim or d_v is 1.",
     ["state_step"],
     py("        den = (phi_q * self.z).sum(dim=-1, keepdim=True)\n        return num / den",
        "        den = (phi_q * self.z).sum(dim=-1, keepdim=True)\n        return (num / den).squeeze()"))

# ============================================================================ bugs: gamma, decay
case("bug_gamma_only_floats_checked", "bug",
     "as_gamma validates gamma only when it is a Python float: out-of-range (or NaN) tensors of per-head decays pass.",
     ["gamma_validation"],
     py("    if not bool(((g >= 0) & (g <= 1)).all()):                          # NaN fails both comparisons",
        "    if isinstance(gamma, float) and not 0.0 <= gamma <= 1.0:"))

case("bug_gamma_zero_rejected", "bug",
     "as_gamma demands gamma > 0, so the documented edge gamma = 0 raises ValueError in every retention form "
     "(and in Exercise 2's gamma = 0 run).",
     ["gamma_validation", "retention_parallel", "retention_recurrent", "retention_chunkwise", "ex2_runs"],
     py("    if not bool(((g >= 0) & (g <= 1)).all()):", "    if not bool(((g > 0) & (g <= 1)).all()):"))

case("bug_decay_mask_by_multiply", "bug",
     "decay_matrix raises gamma to the unclamped distance and zeroes the upper triangle by multiplying with the mask: "
     "for gamma = 0 that is inf * 0 = NaN above the diagonal (parallel and chunkwise forms).",
     ["gamma_validation", "retention_parallel", "retention_chunkwise"],
     py("""    D = gamma ** distance.clamp(min=0).to(gamma.dtype)                 # 0**0 = 1 on the diagonal
    return torch.where(distance >= 0, D, torch.zeros((), dtype=gamma.dtype, device=gamma.device))""",
        """    D = gamma ** distance.to(gamma.dtype)
    return D * (distance >= 0).to(gamma.dtype)"""))

case("bug_ret_par_scores_transposed", "bug",
     "retention_parallel computes the scores as K Qᵀ (entry [n, m] = k_n·q_m) instead of Q Kᵀ.",
     ["retention_parallel"],
     py("    return ((Q @ K.transpose(-2, -1)) * D) @ V", "    return ((K @ Q.transpose(-2, -1)) * D) @ V"))

case("bug_ret_par_transpose_1_2", "bug",
     "retention_parallel transposes K with transpose(1, 2), right only for 3-D (B, L, m) inputs: "
     "raises on unbatched and on (B, H, L, m) inputs.",
     ["retention_parallel", "ex2_runs"],
     py("    return ((Q @ K.transpose(-2, -1)) * D) @ V", "    return ((Q @ K.transpose(1, 2)) * D) @ V"))

case("bug_ret_par_float64_decay", "bug",
     "decay_matrix casts the distances to float64, so D (and retention_parallel / chunkwise outputs) "
     "come back float64 for float32 inputs.",
     ["keeps_dtype", "ex2_runs"],
     py("    D = gamma ** distance.clamp(min=0).to(gamma.dtype)", "    D = gamma ** distance.clamp(min=0).double()"))

case("bug_ret_rec_no_decay", "bug",
     "retention_recurrent validates gamma but never decays the state (S = S + k vᵀ).",
     ["decay_every_form", "retention_recurrent"],
     py("        S = g * S + K[..., n, :].unsqueeze(-1) * V[..., n, :].unsqueeze(-2)",
        "        S = S + K[..., n, :].unsqueeze(-1) * V[..., n, :].unsqueeze(-2)"))

case("bug_ret_rec_decay_after_write", "bug",
     "retention_recurrent decays after the write, S = gamma (S + k vᵀ): every weight is gamma^(n-m+1).",
     ["decay_every_form", "retention_recurrent"],
     py("        S = g * S + K[..., n, :].unsqueeze(-1) * V[..., n, :].unsqueeze(-2)",
        "        S = g * (S + K[..., n, :].unsqueeze(-1) * V[..., n, :].unsqueeze(-2))"))

case("bug_ret_rec_vk_state", "bug",
     "retention_recurrent writes v kᵀ (d_v × m) into the state and still reads q S "
     "(a shape error when m ≠ d_v, wrong values when m = d_v).",
     ["kv_orientation", "retention_recurrent"],
     py("        S = g * S + K[..., n, :].unsqueeze(-1) * V[..., n, :].unsqueeze(-2)\n"
        "        outs.append((Q[..., n, :].unsqueeze(-2) @ S).squeeze(-2))",
        "        S = g * S + V[..., n, :].unsqueeze(-1) * K[..., n, :].unsqueeze(-2)\n"
        "        outs.append((Q[..., n, :].unsqueeze(-2) @ S).squeeze(-2))"))

case("bug_ret_rec_keeps_history", "bug",
     "retention_recurrent keeps every k_s, v_s and rebuilds S_n = Σ gamma^(n-s) k_s v_sᵀ from the history at each "
     "step: right values, O(L²) work.",
     ["recurrent_cost", "retention_recurrent"],
     py("""    for n in range(Q.shape[-2]):
        S = g * S + K[..., n, :].unsqueeze(-1) * V[..., n, :].unsqueeze(-2)""",
        """    for n in range(Q.shape[-2]):
        w = g ** torch.arange(n, -1, -1, dtype=Q.dtype, device=Q.device)[:, None]   # gamma**(n-s), s = 0..n
        S = S * 0 + (K[..., :n + 1, :] * w).transpose(-2, -1) @ V[..., :n + 1, :]"""))

case("bug_ret_rec_float64_state", "bug",
     "retention_recurrent starts S in float64, so float32 inputs come back float64.",
     ["keeps_dtype"],
     py("""    g = as_gamma(gamma, Q)
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
    outs = []""", """    g = as_gamma(gamma, Q)
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=torch.float64, device=Q.device)
    outs = []"""))

# ============================================================================ bugs: chunkwise
case("bug_chunk_cross_exponent_j", "bug",
     "retention_chunkwise scales the cross-chunk read by gamma**j instead of gamma**(j+1).",
     ["chunk_boundaries", "retention_chunkwise"],
     py("        cross = (g ** (j + 1)[:, None]) * (q @ R)", "        cross = (g ** j[:, None]) * (q @ R)"))

case("bug_chunk_state_weight_n_minus_s", "bug",
     "retention_chunkwise weights the keys folded into R by gamma**(n-s) instead of gamma**(n-1-s).",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     py("        w = g ** (n - 1 - j)[:, None]", "        w = g ** (n - j)[:, None]"))

case("bug_chunk_carry_full_chunk_size", "bug",
     "retention_chunkwise decays the carried R by gamma**chunk_size even for a short last chunk: the outputs are "
     "right, the returned state is not.",
     ["partial_chunk_state", "retention_chunkwise"],
     py("        R = (g ** n) * R + (k * w).transpose(-2, -1) @ v",
        "        R = (g ** chunk_size) * R + (k * w).transpose(-2, -1) @ v"))

case("bug_chunk_slices_full_decay", "bug",
     "retention_chunkwise builds the L × L decay matrix once and slices each chunk's D from it: right values, "
     "O(L²) memory.",
     ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     py("""    chunks = []
    for c0 in range(0, L, chunk_size):""", """    chunks = []
    D_full = decay_matrix(g, L)                                         # computed once, reused per chunk
    for c0 in range(0, L, chunk_size):"""),
     py("        D = decay_matrix(g, n)                                          # (..., n, n)",
        "        D = D_full[..., :n, :n]                                         # (..., n, n)"))

# ============================================================================ bugs: unified, multiscale
case("bug_unified_gate_previous_token", "bug",
     "unified_recurrence's gated mode uses gate[..., t-1] as A_t (shifted by one, wrapping at t = 0); "
     "identical for a constant gate.",
     ["unified_modes"],
     py("        gates = [gate[..., t][..., None, None] for t in range(L)]",
        "        gates = [gate[..., t - 1][..., None, None] for t in range(L)]"))

case("bug_unified_unknown_mode_linear", "bug",
     "unified_recurrence falls back to the linear mode for an unknown mode string instead of raising ValueError.",
     ["unified_modes"],
     py("""        raise ValueError(f"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'")""",
        """        gates = [None] * L                                              # default: linear attention"""))

case("bug_unified_float_gamma", "bug",
     "unified_recurrence's retention mode calls float(gamma), so a per-head gamma tensor raises.",
     ["unified_modes"],
     py("        g = as_gamma(gamma, Q)\n        gates = [g] * L", "        g = as_gamma(float(gamma), Q)\n        gates = [g] * L"))

case("bug_unified_gate_squeeze", "bug",
     "unified_recurrence squeezes the gate, so a one-token gate of shape (1,) becomes 0-d and the gated mode raises "
     "for L = 1.",
     ["unified_modes"],
     py("        gate = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)",
        "        gate = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device).squeeze()"))

case("bug_multiscale_from_one", "bug",
     "multiscale_decays numbers the heads from 1 (gamma_h = 1 - 2^(-6-h)).",
     ["multiscale"],
     py("    h = torch.arange(num_heads, dtype=torch.get_default_dtype())",
        "    h = torch.arange(1, num_heads + 1, dtype=torch.get_default_dtype())"))

# ============================================================================ bugs: notebook answers
case("bug_nb_your_turn_unnormalized", "bug",
     "Worked example, third token: the read qᵀS = (6, 10) without the division by q·z = 4.",
     ["your_turn"],
     nb("your_turn: [1.50, 2.50]", "your_turn: [6.00, 10.00]"))

case("bug_nb_your_turn_old_query", "bug",
     "Worked example, third token: read with the example's query (1, 2) instead of (1, 1): [1.67, 2.67].",
     ["your_turn"],
     nb("your_turn: [1.50, 2.50]", "your_turn: [1.67, 2.67]"))

case("bug_nb_cost_inverted", "bug",
     "Cost per token: the state-over-attention ratio d/t = 0.00128 instead of t/d = 781.",
     ["cost_per_token"],
     nb("cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 0.00128×"))

case("bug_nb_ex2_gamma0_zero", "bug",
     "Exercise 2 written answer claims gamma = 0 makes the whole output zero (forgets that 0^0 = 1 keeps the diagonal).",
     ["ex2_gamma0"],
     nb("With γ = 0 the decay matrix D keeps only its diagonal (γ^0 = 0^0 = 1, every γ^(n-m) with n > m is 0), so each "
        "output is o_n = (q_n·k_n) v_n: every token sees only itself, its own value scaled by its own query-key score, "
        "and nothing of the past. In the recurrent form, S_n = 0·S_{n-1} + k_nᵀv_n wipes the state at every step, so "
        "the memory holds only the current token.",
        "With γ = 0 every entry of the decay matrix D is 0^(n-m) = 0, so D is all zeros and the output is zero: the "
        "model forgets everything, including the current token."))

case("bug_nb_ex3_gate_keeps_own_write", "bug",
     "Exercise 3 written answer says the high gate at t = 2 keeps token 2's own write (weights 0.95 and 0.90 at t = 3, 4).",
     ["ex3_selectivity"],
     nb("A_t multiplies the *old* state, so the high gate at t = 2 (0.95) preserves what tokens 0 and 1 wrote (S_1 "
        "survives almost intact into S_2); it does nothing for token 2's own write, which is scaled by the gates after "
        "it: weight A_3 = 0.1 in S_3 and A_3·A_4 = 0.01 in S_4 (the high gate at t = 5 then keeps it at 0.0095 in S_5).",
        "The high gate at t = 2 (0.95) protects token 2's own write k_2 v_2ᵀ: it is still in the state with weight 0.95 "
        "at t = 3 and 0.95² ≈ 0.90 at t = 4, while the tokens with a low gate fade almost at once."))

# ============================================================================ correct alternatives
case("alt_lin_par_einsum_tril", "alternative",
     "linear_attention_parallel with einsum and torch.tril on the score matrix.",
     [],
     py("""    phi_q, phi_k = feature_map(Q), feature_map(K)
    A = phi_q @ phi_k.transpose(-2, -1)                                  # (..., L, L)
    L = A.shape[-1]
    causal = torch.ones(L, L, dtype=torch.bool, device=A.device).tril()
    A = A.masked_fill(~causal, 0.0)
    return (A @ V) / A.sum(dim=-1, keepdim=True)""",
        """    A = torch.tril(torch.einsum("...im,...jm->...ij", feature_map(Q), feature_map(K)))
    numer = torch.einsum("...ij,...jd->...id", A, V)
    return numer / A.sum(-1)[..., None]"""))

case("alt_lin_rec_preallocated", "alternative",
     "linear_attention_recurrent writes into a preallocated output with index assignment and einsum reads.",
     [],
     py("""    ys = []
    for t in range(Q.shape[-2]):
        k_t, v_t, q_t = phi_k[..., t, :], V[..., t, :], phi_q[..., t, :]
        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)                 # (..., m, d_v)
        z = z + k_t                                                   # (..., m)
        num = (q_t.unsqueeze(-1) * S).sum(dim=-2)                     # (..., d_v)
        den = (q_t * z).sum(dim=-1, keepdim=True)                     # (..., 1)
        ys.append(num / den)
    return torch.stack(ys, dim=-2)""", """    lead = torch.broadcast_shapes(phi_q.shape[:-2], phi_k.shape[:-2], V.shape[:-2])
    out = torch.empty(*lead, Q.shape[-2], d_v, dtype=dtype, device=V.device)
    for t in range(Q.shape[-2]):
        S = S + torch.einsum("...m,...d->...md", phi_k[..., t, :], V[..., t, :])
        z = z + phi_k[..., t, :]
        q = phi_q[..., t, :]
        out[..., t, :] = torch.einsum("...m,...md->...d", q, S) / torch.einsum("...m,...m->...", q, z)[..., None]
    return out"""))

case("alt_step_lazy_state", "alternative",
     "LinearAttentionState keeps m, d_v and creates S, z lazily on the first step in the token's dtype.",
     [],
     py("""        phi_q, phi_k = feature_map(q), feature_map(k)
        dtype = torch.promote_types(phi_q.dtype, v.dtype)
        S = self.S.to(dtype=dtype, device=v.device)
        z = self.z.to(dtype=dtype, device=v.device)
        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = z + phi_k
        num = (phi_q.unsqueeze(-1) * self.S).sum(dim=-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
        return num / den""", """        fq, fk = feature_map(q), feature_map(k)
        if not getattr(self, "_started", False):
            self.S = self.S.to(v.dtype)
            self.z = self.z.to(v.dtype)
            self._started = True
        self.S = self.S + torch.einsum("...m,...d->...md", fk, v)
        self.z = self.z + fk
        y = torch.einsum("...m,...md->...d", fq, self.S)
        return y / torch.einsum("...m,...m->...", fq, self.z).unsqueeze(-1)"""))

case("alt_as_gamma_explicit_nan", "alternative",
     "as_gamma checks NaN explicitly with torch.isnan and the range with min/max; returns view(*shape, 1, 1).",
     [],
     py("""    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if not bool(((g >= 0) & (g <= 1)).all()):                          # NaN fails both comparisons
        raise ValueError(f"gamma must lie in [0, 1], got {gamma}")
    return g[..., None, None]""", """    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if torch.isnan(g).any():
        raise ValueError("gamma is NaN")
    if g.numel() and (g.min() < 0 or g.max() > 1):
        raise ValueError(f"gamma must be in [0, 1], got {gamma}")
    return g.reshape(*g.shape, 1, 1)"""))

case("alt_decay_tril_pow", "alternative",
     "decay_matrix as torch.tril(torch.pow(gamma, clamped distance)).",
     [],
     py("""    idx = torch.arange(L, device=gamma.device)
    distance = idx[:, None] - idx[None, :]                             # (L, L): n - m
    D = gamma ** distance.clamp(min=0).to(gamma.dtype)                 # 0**0 = 1 on the diagonal
    return torch.where(distance >= 0, D, torch.zeros((), dtype=gamma.dtype, device=gamma.device))""",
        """    pos = torch.arange(L, dtype=gamma.dtype, device=gamma.device)
    return torch.tril(torch.pow(gamma, (pos[:, None] - pos[None, :]).clamp_min(0)))"""))

case("alt_ret_rec_einsum", "alternative",
     "retention_recurrent with einsum and a preallocated output (zeros_like-based).",
     [],
     py("""    outs = []
    for n in range(Q.shape[-2]):
        S = g * S + K[..., n, :].unsqueeze(-1) * V[..., n, :].unsqueeze(-2)
        outs.append((Q[..., n, :].unsqueeze(-2) @ S).squeeze(-2))
    return torch.stack(outs, dim=-2)""", """    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    out = Q.new_zeros(*lead, Q.shape[-2], V.shape[-1])
    for n in range(Q.shape[-2]):
        S = g * S + torch.einsum("...m,...d->...md", K[..., n, :], V[..., n, :])
        out[..., n, :] = torch.einsum("...m,...md->...d", Q[..., n, :], S)
    return out"""))

case("alt_chunk_reuses_parallel", "alternative",
     "retention_chunkwise computes each chunk's intra term by calling retention_parallel on the chunk and folds R "
     "with an explicit loop over the chunk's tokens.",
     [],
     py("""        D = decay_matrix(g, n)                                          # (..., n, n)
        j = torch.arange(n, dtype=Q.dtype, device=Q.device)
        inner = ((q @ k.transpose(-2, -1)) * D) @ v
        cross = (g ** (j + 1)[:, None]) * (q @ R)                       # gamma**(j+1) q_j R
        chunks.append(inner + cross)
        w = g ** (n - 1 - j)[:, None]                                   # (..., n, 1): gamma**(n-1-s)
        R = (g ** n) * R + (k * w).transpose(-2, -1) @ v""", """        inner = retention_parallel(q, k, v, gamma)
        cross = torch.stack([(g ** (jj + 1)).squeeze(-1) * (q[..., jj:jj + 1, :] @ R).squeeze(-2)
                             for jj in range(n)], dim=-2)
        chunks.append(inner + cross)
        new = 0
        for s in range(n):
            new = g * new + k[..., s, :].unsqueeze(-1) * v[..., s, :].unsqueeze(-2)
        R = (g ** n) * R + new"""))

case("alt_unified_gate_tensor", "alternative",
     "unified_recurrence turns every mode into one gate tensor A of shape (..., L) and loops once; "
     "mode matching via a dict of builders.",
     [],
     py("""    L = Q.shape[-2]
    if mode == "linear":
        gates = [None] * L""", """    L = Q.shape[-2]
    if mode not in ("linear", "retention", "gated"):
        raise ValueError(f"unknown mode {mode!r}")
    if mode == "linear":
        gates = [torch.ones((), dtype=Q.dtype, device=Q.device)] * L"""),
     py("        S = kv + (S if gates[t] is None else gates[t] * S)",
        "        S = gates[t] * S + kv"))

case("alt_multiscale_list", "alternative",
     "multiscale_decays built from a Python list comprehension.",
     [],
     py("""    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1 - 2.0 ** (-5 - h)""", """    return torch.tensor([1.0 - 2.0 ** (-5 - h) for h in range(num_heads)], dtype=torch.get_default_dtype())"""))

case("alt_nb_answer_formats", "alternative",
     "Answers written in other accepted formats: [0.5, 3], [1.5, 2.5] and 781.25× (within the tolerances).",
     [],
     nb("example_1_1: [0.50, 3.00]", "example_1_1: [0.5, 3]"),
     nb("your_turn: [1.50, 2.50]", "your_turn: [1.5, 2.5]"),
     nb("cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 781.25×"))

case("alt_nb_terse_written_answers", "alternative",
     "Shorter, differently worded but correct written answers.",
     [],
     nb("They must agree because without the softmax the score φ(q_i)·φ(k_j) factors into a part that depends only on "
        "i and a part that depends only on j, and matrix multiplication is associative (the sum over j is linear): "
        "Σ_{j≤i} (φ(q_i)·φ(k_j)) v_j = φ(q_i)ᵀ (Σ_{j≤i} φ(k_j) v_jᵀ), and the same for the normalizer, so the query "
        "can be pulled out of the sum and the bracketed prefix sums S_i and z_i can be carried forward one token at a "
        "time — the parallel form computes (QKᵀ)V with the causal mask, the recurrent form Q(KᵀV) as a running prefix "
        "sum; they are the same numbers summed in a different order (equal up to rounding).",
        "Because the kernel factorizes, φ(q_i) does not depend on j and can be taken out of the sum (linearity / "
        "associativity: (φ(Q)φ(K)ᵀ)V = φ(Q)(φ(K)ᵀV)), so Σ_{j≤i} φ(k_j)v_jᵀ and Σ_{j≤i} φ(k_j) are prefix sums that "
        "can be updated token by token."),
     nb("With γ = 0 the decay matrix D keeps only its diagonal (γ^0 = 0^0 = 1, every γ^(n-m) with n > m is 0), so each "
        "output is o_n = (q_n·k_n) v_n: every token sees only itself, its own value scaled by its own query-key score, "
        "and nothing of the past. In the recurrent form, S_n = 0·S_{n-1} + k_nᵀv_n wipes the state at every step, so "
        "the memory holds only the current token.",
        "D becomes the identity (0^0 = 1 on the diagonal, 0 below it), so o_n = (q_n·k_n) v_n — each position only "
        "attends to itself; the recurrent state is reset to k_nᵀv_n every step, no memory at all."))

case("alt_exercises_float64_batched", "alternative",
     "Exercise cells redone in float64 with batched inputs and other seeds; checks printed, not asserted.",
     [],
     nb("Q1 = torch.randn(2, 10, 6, generator=g1)", "Q1 = torch.randn(3, 2, 12, 5, generator=g1, dtype=torch.float64)"),
     nb("K1 = torch.randn(2, 10, 6, generator=g1)", "K1 = torch.randn(3, 2, 12, 5, generator=g1, dtype=torch.float64)"),
     nb("V1 = torch.randn(2, 10, 4, generator=g1)", "V1 = torch.randn(3, 2, 12, 7, generator=g1, dtype=torch.float64)"),
     nb("Q2 = torch.randn(8, 5, generator=g2)", "Q2 = torch.randn(2, 9, 4, generator=g2, dtype=torch.float64)"),
     nb("K2 = torch.randn(8, 5, generator=g2)", "K2 = torch.randn(2, 9, 4, generator=g2, dtype=torch.float64)"),
     nb("V2 = torch.randn(8, 3, generator=g2)", "V2 = torch.randn(2, 9, 6, generator=g2, dtype=torch.float64)"),
     nb("gate3[[2, 5]] = 0.95", "gate3[[2, 5]] = 0.9"))

# ============================================================================ stubs (keep base's notebook)
BASE_PY = (BASE / PY).read_text()
HEAD = BASE_PY.split("# ----------------------------------------------------------------------------- linear attention")[0]


def stub_module(body_expr, gamma_expr):
    return HEAD + f'''
def linear_attention_parallel(Q, K, V):
    return {body_expr}


def linear_attention_recurrent(Q, K, V):
    return {body_expr}


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        V = v
        return {body_expr}


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype)[..., None, None]


def decay_matrix(gamma, L):
    return torch.ones(L, L)


def retention_parallel(Q, K, V, gamma):
    return {body_expr}


def retention_recurrent(Q, K, V, gamma):
    return {body_expr}


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = {body_expr}
    if return_state:
        return out, torch.zeros(*V.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)
    return out


def multiscale_decays(num_heads):
    return {gamma_expr}


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return {body_expr}


def gated_delta_rule(Q, K, V, alpha, beta):
    return {body_expr}
'''


ALL_CODE = ["normalizer", "update_before_read", "running_normalizer", "feature_map", "kv_orientation", "causal_mask",
            "decay_every_form", "chunk_boundaries", "partial_chunk_state", "gamma_validation", "independent_states",
            "recurrent_cost", "chunkwise_memory", "linear_parallel", "linear_recurrent", "state_step",
            "retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes", "multiscale",
            "keeps_dtype", "ex1_runs", "ex2_runs", "ex3_runs"]
for name, about, body, gexpr in [
        ("stub_random", "every function returns torch.randn_like(V); multiscale_decays returns torch.rand",
         "torch.randn_like(V)", "torch.rand(num_heads)"),
        ("stub_zeros", "every function returns torch.zeros_like(V); multiscale_decays returns zeros",
         "torch.zeros_like(V)", "torch.zeros(num_heads)"),
        ("stub_return_v", "every function returns V (a clone); multiscale_decays returns ones",
         "V.clone()", "torch.ones(num_heads)")]:
    case(name, "stub", about + " (base notebook kept)", ALL_CODE, (PY, BASE_PY, stub_module(body, gexpr)))


# ============================================================================ build
def build():
    for d in HERE.iterdir():
        if d.is_dir() and d.name.split("_")[0] in ("bug", "alt", "stub"):
            shutil.rmtree(d)
    entries = [dict(name="base", kind="alternative",
                    about="careful complete submission: every stub (optional gated delta rule too) implemented from "
                          "the docstrings, notebook exercises, answers and written answers filled in",
                    should_lose=[])]
    names = set()
    for name, kind, about, lose, edits in CASES:
        assert name not in names, name
        names.add(name)
        dst = HERE / name
        shutil.copytree(BASE, dst, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        for fname, old, new in edits:
            p = dst / fname
            text = p.read_text()
            assert text.count(old) == 1, (name, fname, old[:80], text.count(old))
            new_text = text.replace(old, new)
            assert new_text != text, (name, old[:80])
            p.write_text(new_text)
        if any(f == NB for f, _, _ in edits):
            json.loads((dst / NB).read_text())
        entries.append(dict(name=name, kind=kind, about=about, should_lose=lose))
    with open(HERE / "corpus.yaml", "w") as f:
        f.write("# Blind corpus, round 8, linear-attention-basics: one entry per case folder.\n"
                "# should_lose: rubric.yaml item ids judged from the rubric titles and the notebook only.\n\n")
        for e in entries:
            f.write(f"- name: {e['name']}\n  kind: {e['kind']}\n  about: {json.dumps(e['about'], ensure_ascii=False)}\n"
                    f"  should_lose: [{', '.join(e['should_lose'])}]\n")
    counts = {}
    for e in entries:
        counts[e["kind"]] = counts.get(e["kind"], 0) + 1
    print(counts)


if __name__ == "__main__":
    build()
