"""Build the round-12 blind corpus from base/: one folder per case, plus corpus.yaml.

Every case is a full copy of base/ (the student template folder, completed) with exact string replacements.
Each anchor must occur exactly once in the file it edits, and each edit must change the file.
Notebook anchors are single source lines, JSON-escaped by the script the way the .ipynb stores them.
Alternatives replace whole function bodies (the base body after the docstring, found with `ast`).
Stubs replace the whole module (the base module text is the anchor).

    /work/main/.venv/bin/python make_cases.py        # rebuilds every case folder and corpus.yaml
"""
import ast
import json
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
PY, NB = "linear_attention.py", "linear_attention.ipynb"
BASE_PY = (BASE / PY).read_text()


def body(qualname):
    """The exact text of a base function's body after its docstring (an anchor that occurs once)."""
    tree = ast.parse(BASE_PY)
    node = None
    for top in tree.body:
        if isinstance(top, ast.FunctionDef) and top.name == qualname:
            node = top
        elif isinstance(top, ast.ClassDef):
            for sub in top.body:
                if isinstance(sub, ast.FunctionDef) and f"{top.name}.{sub.name}" == qualname:
                    node = sub
    assert node is not None, qualname
    first = node.body[1] if isinstance(node.body[0], ast.Expr) else node.body[0]
    lines = BASE_PY.split("\n")
    return "\n".join(lines[first.lineno - 1:node.end_lineno]) + "\n"


def alt(qualname, new_body):
    return (PY, body(qualname), new_body)


def nb(old, new):
    """An edit of one notebook source line (or line fragment), JSON-escaped as the .ipynb stores it."""
    esc = lambda s: json.dumps(s, ensure_ascii=False)[1:-1]   # noqa: E731
    return (NB, esc(old), esc(new))


CASES = []


def case(name, kind, about, should_lose, edits=(), module=None):
    CASES.append(dict(name=name, kind=kind, about=about, edits=list(edits), module=module,
                      should_lose=None if should_lose == "ALL" else list(should_lose)))


# ============================================================================= bugs: linear attention, parallel

case("bug_linpar_total_normalizer", "bug",
     "linear_attention_parallel masks the numerator but divides by φ(q_i)ᵀz with z = Σ_j φ(k_j) over the whole "
     "sequence (the normalizer is not the running sum over j <= i, so later keys change earlier rows).",
     ["running_normalizer", "causal_mask", "linear_parallel"],
     [(PY, "    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # row sum = φ(q_i)ᵀ z_i\n",
       "    z = phi_k.sum(dim=-2, keepdim=True)                          # z = Σ_j φ(k_j), (..., 1, m)\n"
       "    return (A @ V) / (phi_q * z).sum(dim=-1, keepdim=True)       # φ(q_i)ᵀ z\n")])

case("bug_linpar_phi_on_values", "bug",
     "linear_attention_parallel applies the feature map to V as well as to Q and K, so it averages φ(v_j) "
     "instead of v_j (constant values do not come back unchanged).",
     ["feature_map", "linear_parallel"],
     [(PY, "    phi_q, phi_k = feature_map(Q), feature_map(K)\n    A = torch.tril(",
       "    phi_q, phi_k, phi_v = feature_map(Q), feature_map(K), feature_map(V)\n    A = torch.tril("),
      (PY, "    return (A @ V) / A.sum(dim=-1, keepdim=True)", "    return (A @ phi_v) / A.sum(dim=-1, keepdim=True)")])

case("bug_linpar_strict_lower_mask", "bug",
     "linear_attention_parallel masks with torch.tril(..., diagonal=-1), keeping only j < i: token i never sees "
     "itself (row 0 is 0/0 = NaN, every other row misses its own value).",
     ["update_before_read", "linear_parallel"],
     [(PY, "    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))              # (..., L, L), zero where j > i\n",
       "    A = torch.tril(phi_q @ phi_k.transpose(-2, -1), diagonal=-1)  # (..., L, L), only the past: j < i\n")])

# ============================================================================= bugs: linear attention, recurrent

case("bug_linrec_z_adds_phi_q", "bug",
     "linear_attention_recurrent accumulates the normalizer from the queries (z ← z + φ(q_t), a k/q typo), so it "
     "divides by φ(q_t)ᵀΣφ(q_j) and the weights of a row no longer sum to 1.",
     ["normalizer", "linear_recurrent"],
     [(PY, "        z = z + k_t                                              # + φ(k_t), (..., m)\n",
       "        z = z + q_t                                              # + φ(k_t), (..., m)\n")])

case("bug_linrec_read_unbatched", "bug",
     "linear_attention_recurrent reads with `q_t @ S`, right for one unbatched sequence but with leading dims "
     "torch.matmul treats q_t (B, m) as a matrix and returns a (B, B, d_v) block: wrong shape and values when batched.",
     ["linear_recurrent"],
     [(PY, "        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                # φ(q_t)ᵀ S, (..., d_v)\n",
       "        num = q_t @ S                                            # φ(q_t)ᵀ S, (d_v,)\n")])

case("bug_linrec_prefix_sums", "bug",
     "cost misconception: linear_attention_recurrent rebuilds S and z at every step from the whole prefix "
     "(φ(K[:t+1])ᵀ V[:t+1]), right values but O(L²) work instead of one update per token.",
     ["recurrent_cost", "linear_recurrent"],
     [(PY, "        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)            # + φ(k_t) v_tᵀ, (..., m, d_v)\n"
           "        z = z + k_t                                              # + φ(k_t), (..., m)\n",
       "        S = phi_k[..., :t + 1, :].transpose(-2, -1) @ V[..., :t + 1, :]   # Σ_{j<=t} φ(k_j) v_jᵀ\n"
       "        z = phi_k[..., :t + 1, :].sum(dim=-2)                              # Σ_{j<=t} φ(k_j)\n")])

case("bug_linrec_float64_normalizer", "bug",
     "linear_attention_recurrent allocates z in float64 'because it only grows', so float32 inputs come back as "
     "float64 (the division promotes); float64 results are unaffected.",
     ["keeps_dtype", "ex1_runs"],
     [(PY, "    z = torch.zeros(m, dtype=V.dtype, device=V.device)\n",
       "    z = torch.zeros(m, dtype=torch.float64, device=V.device)     # the normalizer only grows: keep it in double\n")])

# ============================================================================= bugs: the decoding state

case("bug_step_shared_zero_buffers", "bug",
     "LinearAttentionState allocates its empty S and z once per (m, d_v) in a module-level cache and step "
     "accumulates in place: for default-dtype unbatched tokens every new object starts from the last one's state.",
     ["independent_states", "state_step"],
     [(PY, "class LinearAttentionState:\n",
       "_ZERO_STATES = {}                                                # (m, d_v) -> the empty (S, z), allocated once\n\n\n"
       "class LinearAttentionState:\n"),
      (PY, "        self.S = torch.zeros(m, d_v)                             # (m, d_v), becomes (..., m, d_v)\n"
           "        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)\n",
       "        if (m, d_v) not in _ZERO_STATES:\n"
       "            _ZERO_STATES[(m, d_v)] = (torch.zeros(m, d_v), torch.zeros(m))\n"
       "        self.S, self.z = _ZERO_STATES[(m, d_v)]                  # (m, d_v), becomes (..., m, d_v)\n"),
      (PY, "        S = self.S.to(dtype=v.dtype, device=v.device)            # the fresh state is default-dtype zeros\n"
           "        z = self.z.to(dtype=v.dtype, device=v.device)\n"
           "        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # new tensors, never written in place\n"
           "        self.z = z + phi_k\n",
       "        lead = torch.broadcast_shapes(phi_k.shape[:-1], v.shape[:-1])\n"
       "        if self.S.shape[:-2] != lead or self.S.dtype != v.dtype:   # pick up the leading dims and dtype once\n"
       "            self.S = self.S.to(v.dtype).expand(*lead, *self.S.shape[-2:]).clone()\n"
       "            self.z = self.z.to(v.dtype).expand(*lead, *self.z.shape[-1:]).clone()\n"
       "        self.S += phi_k.unsqueeze(-1) * v.unsqueeze(-2)          # accumulate in place: no new allocation\n"
       "        self.z += phi_k\n")])

case("bug_step_history_resum", "bug",
     "cost misconception: LinearAttentionState keeps every (φ(k), v) seen and re-sums S and z from that history at "
     "each step: right outputs, but memory and work per token grow with t.",
     ["recurrent_cost", "state_step"],
     [(PY, "        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)\n",
       "        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)\n"
       "        self.history = []                                        # every (φ(k), v) so far\n"),
      (PY, "        S = self.S.to(dtype=v.dtype, device=v.device)            # the fresh state is default-dtype zeros\n"
           "        z = self.z.to(dtype=v.dtype, device=v.device)\n"
           "        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # new tensors, never written in place\n"
           "        self.z = z + phi_k\n",
       "        self.history.append((phi_k, v))\n"
       "        self.S = sum(kk.unsqueeze(-1) * vv.unsqueeze(-2) for kk, vv in self.history)   # Σ φ(k_j) v_jᵀ\n"
       "        self.z = sum(kk for kk, _ in self.history)                                   # Σ φ(k_j)\n")])

case("bug_step_raw_query", "bug",
     "LinearAttentionState.step applies φ to k only and reads with the raw query, y = qᵀS / qᵀz, so scores can be "
     "negative and the normalizer can vanish or flip sign.",
     ["feature_map", "state_step"],
     [(PY, "        phi_q, phi_k = feature_map(q), feature_map(k)\n        S = self.S.to(",
       "        phi_q, phi_k = q, feature_map(k)                         # φ on what goes into the state\n        S = self.S.to(")])

# ============================================================================= bugs: gamma

case("bug_gamma_rejects_zero", "bug",
     "as_gamma accepts 0 < γ <= 1 (it treats γ = 0 as degenerate), so γ = 0, an allowed edge, raises ValueError in "
     "every retention form (Exercise 2's γ = 0 call included).",
     ["gamma_validation", "ex2_runs"],
     [(PY, "    if not bool(((g >= 0) & (g <= 1)).all()):                    # NaN fails both comparisons\n",
       "    if not bool(((g > 0) & (g <= 1)).all()):                     # a decay of 0 would wipe the state\n")])

case("bug_gamma_python_chain", "bug",
     "as_gamma validates with the Python chain `0 <= gamma <= 1`: fine for floats and NaN, but a per-head tensor of "
     "decays raises RuntimeError (ambiguous truth value) instead of being checked entrywise.",
     ["gamma_validation", "retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes"],
     [(PY, "    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)\n"
           "    if not bool(((g >= 0) & (g <= 1)).all()):                    # NaN fails both comparisons\n"
           "        raise ValueError(f\"gamma must lie in [0, 1], got {gamma}\")\n",
       "    if not 0 <= gamma <= 1:                                      # NaN fails the comparison too\n"
       "        raise ValueError(f\"gamma must lie in [0, 1], got {gamma}\")\n"
       "    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)\n")])

case("bug_gamma_minmax_nan", "bug",
     "as_gamma raises when g.min() < 0 or g.max() > 1; with a NaN those are NaN and both comparisons are False, "
     "so γ = NaN (alone or inside a per-head tensor) is accepted.",
     ["gamma_validation"],
     [(PY, "    if not bool(((g >= 0) & (g <= 1)).all()):                    # NaN fails both comparisons\n",
       "    if g.min() < 0 or g.max() > 1:                               # every entry in [0, 1]\n")])

# ============================================================================= bugs: decay matrix, retention

case("bug_decay_mask_multiply", "bug",
     "decay_matrix raises γ to the unclamped distance and zeroes the upper triangle by multiplying with the mask: "
     "for γ = 0 that is 0**-1 · 0 = inf · 0 = NaN, so γ = 0 (and tiny γ on long inputs) gives NaN outputs.",
     ["gamma_validation", "retention_parallel", "retention_chunkwise"],
     [(PY, "    D = gamma ** distance.clamp(min=0).to(gamma.dtype)           # 0**0 = 1 on the diagonal\n"
           "    return torch.where(distance >= 0, D, torch.zeros((), dtype=gamma.dtype, device=gamma.device))\n",
       "    D = gamma ** distance.to(gamma.dtype)                        # γ^(n-m)\n"
       "    return D * (distance >= 0)                                   # zero the entries with m > n\n")])

case("bug_decay_transposed_distance", "bug",
     "decay_matrix computes the distance as m - n (row and column swapped), so D is upper triangular: retention "
     "reads the future, decayed, instead of the past.",
     ["causal_mask", "retention_parallel", "retention_chunkwise"],
     [(PY, "    distance = n[:, None] - n[None, :]                           # (L, L): n - m\n",
       "    distance = n[None, :] - n[:, None]                           # (L, L): n - m\n")])

case("bug_retpar_row_normalized", "bug",
     "retention_parallel divides each row by its sum as linear attention does (pitfall 2: retention has no "
     "normalizer).",
     ["retention_parallel"],
     [(PY, "    return ((Q @ K.transpose(-2, -1)) * D) @ V\n",
       "    A = (Q @ K.transpose(-2, -1)) * D\n"
       "    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # normalise each row, as in linear attention\n")])

case("bug_retrec_decays_current_token", "bug",
     "retention_recurrent decays after adding the token, S = γ(S + k_tᵀv_t): every weight is γ^(n-m+1), one decay "
     "too many (γ = 0 returns zeros).",
     ["decay_every_form", "retention_recurrent"],
     [(PY, "        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # γ S + k_tᵀ v_t\n",
       "        S = g * (S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2))   # decay, then move on\n")])

case("bug_retrec_adds_v_kT", "bug",
     "retention_recurrent starts S as (m, d_v) but adds v_t k_tᵀ (d_v × m): a broadcasting error whenever m != d_v "
     "and silently wrong values when m == d_v.",
     ["kv_orientation", "retention_recurrent"],
     [(PY, "        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # γ S + k_tᵀ v_t\n",
       "        S = g * S + V[..., t, :].unsqueeze(-1) * K[..., t, :].unsqueeze(-2)   # γ S + k_tᵀ v_t\n")])

# ============================================================================= bugs: chunkwise

CHUNK_INTRA = "        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v\n"
CHUNK_CROSS = "        cross = g ** (j + 1).unsqueeze(-1) * (q @ R)             # γ^(j+1) q_j R, (..., n, d_v)\n"
CHUNK_W = "        w = g ** (n - 1 - j).unsqueeze(-1)                       # γ^(n-1-s), (..., n, 1)\n"
CHUNK_LOOP = "    for c0 in range(0, L, chunk_size):\n"
CHUNK_COST = ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"]

case("bug_chunk_cross_global_index", "bug",
     "retention_chunkwise scales the cross-chunk term by γ^(c0+j+1), the token's global position, instead of its "
     "chunk-local γ^(j+1): right for the first chunk (R = 0) and for chunk_size >= L, wrong after every boundary.",
     ["chunk_boundaries", "retention_chunkwise"],
     [(PY, CHUNK_CROSS,
       "        cross = g ** (c0 + j + 1).unsqueeze(-1) * (q @ R)        # γ^(j+1) q_j R, (..., n, d_v)\n")])

case("bug_chunk_n_is_chunk_size", "bug",
     "retention_chunkwise sets n = chunk_size instead of the slice's real length, so a short last chunk (chunk_size "
     "not dividing L, or larger than L) raises a shape error; dividing chunk sizes work.",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [(PY, "        n = q.shape[-2]                                          # the last chunk can be short\n",
       "        n = chunk_size                                           # tokens per chunk\n")])

case("bug_chunk_precomputed_state_weights", "bug",
     "retention_chunkwise precomputes the state weights γ^(B-1-s) once for the full chunk size B and slices them for "
     "a short last chunk, so the returned state after a short last chunk weights its tokens by γ^(B-1-s), "
     "not γ^(n-1-s) (outputs unaffected).",
     ["partial_chunk_state", "retention_chunkwise"],
     [(PY, CHUNK_LOOP,
       "    j_full = torch.arange(chunk_size, dtype=g.dtype, device=g.device)\n"
       "    w_full = g ** (chunk_size - 1 - j_full).unsqueeze(-1)       # γ^(B-1-s), (..., B, 1), computed once\n"
       + CHUNK_LOOP),
      (PY, CHUNK_W, "        w = w_full[..., :n, :]                                   # γ^(n-1-s), (..., n, 1)\n")])

case("bug_chunk_intra_undecayed", "bug",
     "retention_chunkwise's intra-chunk term uses the plain causal mask torch.tril(q kᵀ) without the decay D_n: "
     "right only for chunk_size = 1 or γ = 1.",
     ["decay_every_form", "retention_chunkwise"],
     [(PY, CHUNK_INTRA, "        intra = torch.tril(q @ k.transpose(-2, -1)) @ v            # causal part inside the chunk\n")])

case("bug_chunk_full_decay_matrix", "bug",
     "cost misconception: retention_chunkwise builds decay_matrix(γ, L) for the whole sequence once and slices its "
     "diagonal blocks, so it holds an L × L matrix (right outputs, quadratic memory).",
     CHUNK_COST,
     [(PY, CHUNK_LOOP, "    D_full = decay_matrix(g, L)                                  # (..., L, L), sliced per chunk\n"
       + CHUNK_LOOP),
      (PY, CHUNK_INTRA,
       "        intra = ((q @ k.transpose(-2, -1)) * D_full[..., c0:c0 + n, c0:c0 + n]) @ v\n")])

case("bug_chunk_parallel_on_prefix", "bug",
     "cost misconception: retention_chunkwise computes each chunk's outputs by running retention_parallel on the "
     "whole prefix Q[:c0+n] and keeping its last n rows (right outputs, quadratic work and memory); R is still carried.",
     CHUNK_COST,
     [(PY, CHUNK_INTRA + CHUNK_CROSS + "        outs.append(intra + cross)\n",
       "        prefix = retention_parallel(Q[..., :c0 + n, :], K[..., :c0 + n, :], V[..., :c0 + n, :], gamma)\n"
       "        outs.append(prefix[..., c0:, :])                         # this chunk's rows, read off the prefix\n")])

# ============================================================================= bugs: multiscale, unified

case("bug_multiscale_heads_from_one", "bug",
     "multiscale_decays numbers the heads 1 .. H, so γ_h = 1 - 2^(-6-h): every head's decay is one scale too slow.",
     ["multiscale"],
     [(PY, "    h = torch.arange(num_heads, dtype=torch.get_default_dtype())\n",
       "    h = torch.arange(1, num_heads + 1, dtype=torch.get_default_dtype())   # heads 1 .. H\n")])

case("bug_unified_gate_scales_write", "bug",
     "unified_recurrence applies the gate after the write, S = A_t (S + k_t v_tᵀ), so token t's own write is "
     "already scaled by A_t (linear mode unaffected, retention and gated off by one gate).",
     ["unified_modes"],
     [(PY, "        S = A[t] * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)\n",
       "        S = A[t] * (S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2))\n")])

case("bug_unified_unknown_mode_is_linear", "bug",
     "unified_recurrence checks 'retention' and 'gated' and treats every other mode as linear (A_t = 1), so an "
     "unknown mode such as 'softmax' or a typo runs silently instead of raising ValueError.",
     ["unified_modes"],
     [(PY, "    if mode == \"linear\":\n        A = [torch.ones((1, 1), dtype=V.dtype, device=V.device)] * L\n"
           "    elif mode == \"retention\":\n",
       "    if mode == \"retention\":\n"),
      (PY, "    else:\n        raise ValueError(f\"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'\")\n",
       "    else:                                                        # \"linear\": A_t = 1\n"
       "        A = [torch.ones((1, 1), dtype=V.dtype, device=V.device)] * L\n")])

case("bug_unified_gate_row_index", "bug",
     "unified_recurrence reads the gate as gate[t] instead of gate[..., t]: right for a gate of shape (L,), but a "
     "per-sequence gate (..., L) picks row t (wrong values, or an error).",
     ["unified_modes"],
     [(PY, "        A = [gate[..., t, None, None] for t in range(L)]         # (..., 1, 1) each\n",
       "        A = [gate[t] for t in range(L)]                          # A_t, one per position\n")])

# ============================================================================= bugs: notebook only

case("bug_nb_your_turn_old_query", "bug",
     "notebook: the 'your turn' read reuses Example 1.1's query (1, 2) instead of (1, 1), answering [1.67, 2.67].",
     ["your_turn"],
     [nb("q_3 = torch.tensor([1.0, 1.0])", "q_3 = q_ex"),
      nb("your_turn: [1.50, 2.50]", "your_turn: [1.67, 2.67]")])

case("bug_nb_cost_ratio_kv_memory", "bug",
     "notebook: the cost-per-token ratio divides the KV cache size 2td by the state size d² + d (memory, not work) "
     "and answers 1550×.",
     ["cost_per_token"],
     [nb("attention_ops = 4 * t * d     # t·d multiply-adds for the scores, t·d for the blend",
         "attention_ops = 2 * t * d     # the KV cache: t keys and t values of width d"),
      nb("state_ops = 4 * d**2          # d² for k vᵀ into S, d² for qᵀS", "state_ops = d**2 + d           # S and z"),
      nb("cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 1550×")])

case("bug_nb_ex3_one_based_positions", "bug",
     "notebook: Exercise 3 counts positions from 1 and sets the high gate at indices 3 and 6, so the locked check "
     "(high only at positions 2 and 5) fails.",
     ["ex3_runs"],
     [nb("gate3[[2, 5]] = 0.95", "gate3[[3, 6]] = 0.95                       # positions 2 and 5, counting from 1")])

# ============================================================================= alternatives

case("alt_einsum", "alternative",
     "every form written with torch.einsum (leading dims as '...') and a boolean mask with masked_fill.",
     [],
     [alt("linear_attention_parallel", '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    future = torch.ones(L, L, dtype=torch.bool, device=Q.device).triu(1)      # j > i
    A = torch.einsum("...im,...jm->...ij", phi_q, phi_k).masked_fill(future, 0.0)
    return torch.einsum("...ij,...jd->...id", A, V) / A.sum(dim=-1, keepdim=True)
'''),
      alt("linear_attention_recurrent", '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    z = V.new_zeros(K.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        S = S + torch.einsum("...m,...d->...md", phi_k[..., t, :], V[..., t, :])
        z = z + phi_k[..., t, :]
        num = torch.einsum("...m,...md->...d", phi_q[..., t, :], S)
        den = torch.einsum("...m,...m->...", phi_q[..., t, :], z)
        ys.append(num / den.unsqueeze(-1))
    return torch.stack(ys, dim=-2)
'''),
      alt("LinearAttentionState.step", '''        phi_q, phi_k = feature_map(q), feature_map(k)
        self.S = self.S.to(v) + torch.einsum("...m,...d->...md", phi_k, v)
        self.z = self.z.to(v) + phi_k
        return torch.einsum("...m,...md->...d", phi_q, self.S) / torch.einsum("...m,...m->...", phi_q, self.z)[..., None]
'''),
      alt("retention_parallel", '''    D = decay_matrix(as_gamma(gamma, Q), Q.shape[-2])
    return torch.einsum("...nk,...kd->...nd", torch.einsum("...nm,...km->...nk", Q, K) * D, V)
'''),
      alt("retention_recurrent", '''    g = as_gamma(gamma, Q)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :])
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    return torch.stack(ys, dim=-2)
''')])

case("alt_cumprod_chunk_decays", "alternative",
     "retention_chunkwise gets γ^(j+1), γ^(n-1-s) and γ^n from one cumprod of the decay per chunk (exact at γ = 0: "
     "the cumprod is all zeros and the last state weight is γ^0 = 1).",
     [],
     [alt("retention_chunkwise", '''    if isinstance(chunk_size, bool) or int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    chunk_size = int(chunk_size)
    g = as_gamma(gamma, Q)                                               # (..., 1, 1)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    R = V.new_zeros(m, d_v)
    outs = []
    for c0 in range(0, L, chunk_size):
        q, k, v = (X[..., c0:c0 + chunk_size, :] for X in (Q, K, V))
        n = q.shape[-2]
        up = torch.cumprod(g.expand(*g.shape[:-2], n, 1), dim=-2)        # γ^1 .. γ^n, (..., n, 1)
        down = torch.cat([torch.ones_like(up[..., :1, :]), up[..., :-1, :]], dim=-2).flip(-2)  # γ^(n-1) .. γ^0
        outs.append(((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v + up * (q @ R))
        R = up[..., -1:, :] * R + (k * down).transpose(-2, -1) @ v
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(V.shape)
    return (out, R) if return_state else out
''')])

case("alt_logspace_decays", "alternative",
     "decay_matrix and the chunkwise exponents computed as exp(e · log γ), with e = 0 mapped to 1 explicitly so "
     "γ = 0 gives 0**0 = 1 and log 0 = -inf never meets a zero exponent.",
     [],
     [(PY, "def decay_matrix(gamma, L):\n",
       "def _gpow(g, e):\n"
       "    \"\"\"γ**e for e >= 0 in log space; exact 1 at e = 0 (even for γ = 0, where log γ = -inf).\"\"\"\n"
       "    e = torch.as_tensor(e, dtype=g.dtype, device=g.device)\n"
       "    return torch.where(e == 0, torch.ones((), dtype=g.dtype, device=g.device), torch.exp(e * torch.log(g)))\n\n\n"
       "def decay_matrix(gamma, L):\n"),
      alt("decay_matrix", '''    n = torch.arange(L, dtype=gamma.dtype, device=gamma.device)
    distance = n[:, None] - n[None, :]                                   # (L, L), n - m
    D = _gpow(gamma, distance.clamp(min=0))
    return torch.where(distance >= 0, D, torch.zeros((), dtype=gamma.dtype, device=gamma.device))
'''),
      (PY, CHUNK_CROSS, "        cross = _gpow(g, (j + 1).unsqueeze(-1)) * (q @ R)\n"),
      (PY, CHUNK_W, "        w = _gpow(g, (n - 1 - j).unsqueeze(-1))\n"),
      (PY, "        R = g ** n * R + (k * w).transpose(-2, -1) @ v\n",
       "        R = _gpow(g, float(n)) * R + (k * w).transpose(-2, -1) @ v\n")])

case("alt_augmented_values", "alternative",
     "linear attention with the normalizer folded into the values: V' = [V, 1], numerator and φ(q)ᵀz come out of "
     "one product; the recurrent face reuses unified_recurrence's linear mode on φ(Q), φ(K), V'.",
     [],
     [alt("linear_attention_parallel", '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    V1 = torch.cat([V, torch.ones_like(V[..., :1])], dim=-1)              # (..., L, d_v + 1)
    out = torch.tril(phi_q @ phi_k.transpose(-2, -1)) @ V1
    return out[..., :-1] / out[..., -1:]
'''),
      alt("linear_attention_recurrent", '''    V1 = torch.cat([V, torch.ones_like(V[..., :1])], dim=-1)              # last column sums z
    out = unified_recurrence(feature_map(Q), feature_map(K), V1, "linear")
    return out[..., :-1] / out[..., -1:]
''')])

case("alt_chunk_while_reuse_parallel", "alternative",
     "retention_chunkwise as a while loop whose intra-chunk term calls retention_parallel on the chunk only, with "
     "one vector of powers γ^0 .. γ^n per chunk.",
     [],
     [alt("retention_chunkwise", '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L = Q.shape[-2]
    R = torch.zeros(K.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    pieces, start = [], 0
    while start < L:
        stop = min(start + chunk_size, L)
        n = stop - start
        q, k, v = Q[..., start:stop, :], K[..., start:stop, :], V[..., start:stop, :]
        powers = g ** torch.arange(n + 1, dtype=g.dtype, device=g.device)   # (..., 1, n + 1): γ^0 .. γ^n
        to_query = powers[..., 0, 1:].unsqueeze(-1)                          # γ^(j+1), (..., n, 1)
        to_state = powers[..., 0, :n].flip(-1).unsqueeze(-1)                 # γ^(n-1-s), (..., n, 1)
        pieces.append(retention_parallel(q, k, v, gamma) + to_query * (q @ R))
        R = powers[..., n:] * R + (to_state * k).transpose(-2, -1) @ v
        start = stop
    out = torch.cat(pieces, dim=-2) if pieces else V.clone()
    if return_state:
        return out, R
    return out
''')])

case("alt_explicit_broadcast", "alternative",
     "no matmul anywhere: scores, reads and outer products written as explicit broadcasting and sums over the "
     "right axis.",
     [],
     [alt("linear_attention_parallel", '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    i = torch.arange(L, device=Q.device)
    A = (phi_q.unsqueeze(-2) * phi_k.unsqueeze(-3)).sum(-1)               # (..., L, L): A[i, j]
    A = torch.where(i[None, :] <= i[:, None], A, torch.zeros((), dtype=A.dtype))
    num = (A.unsqueeze(-1) * V.unsqueeze(-3)).sum(-2)                     # Σ_j A[i, j] v_j
    return num / A.sum(-1).unsqueeze(-1)
'''),
      alt("linear_attention_recurrent", '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    z = torch.zeros(K.shape[-1], dtype=V.dtype, device=V.device)
    ys = []
    for t in range(Q.shape[-2]):
        S = S + phi_k[..., t, :, None] * V[..., t, None, :]
        z = z + phi_k[..., t, :]
        ys.append((phi_q[..., t, :, None] * S).sum(-2) / (phi_q[..., t, :] * z).sum(-1, keepdim=True))
    return torch.stack(ys, dim=-2)
'''),
      alt("retention_parallel", '''    g = as_gamma(gamma, Q)
    scores = (Q.unsqueeze(-2) * K.unsqueeze(-3)).sum(-1)                 # (..., L, L)
    W = scores * decay_matrix(g, Q.shape[-2])
    return (W.unsqueeze(-1) * V.unsqueeze(-3)).sum(-2)
'''),
      alt("retention_recurrent", '''    g = as_gamma(gamma, Q)
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :, None] * V[..., t, None, :]
        ys.append((Q[..., t, :, None] * S).sum(-2))
    return torch.stack(ys, dim=-2)
''')])

case("alt_retention_via_unified", "alternative",
     "unified_recurrence turns every mode into one gate tensor (..., L) read as A[..., t]; retention_recurrent "
     "is unified_recurrence in retention mode; as_gamma checks NaN explicitly; multiscale via torch.pow.",
     [],
     [alt("as_gamma", '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    bad = torch.isnan(g) | (g < 0) | (g > 1)
    if bool(bad.any()):
        raise ValueError(f"every gamma must lie in [0, 1] (no NaN), got {gamma}")
    return g.reshape(*g.shape, 1, 1)
'''),
      alt("retention_recurrent", '''    return unified_recurrence(Q, K, V, "retention", gamma=gamma)
'''),
      alt("multiscale_decays", '''    exponent = -(5.0 + torch.arange(num_heads, dtype=torch.get_default_dtype()))
    return 1.0 - torch.pow(2.0, exponent)
'''),
      alt("unified_recurrence", '''    L = Q.shape[-2]
    if mode not in ("linear", "retention", "gated"):
        raise ValueError(f"mode must be 'linear', 'retention' or 'gated', got {mode!r}")
    if mode == "linear":
        A = torch.ones(L, dtype=V.dtype, device=V.device)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("retention mode needs gamma")
        g = as_gamma(gamma, V)[..., 0, 0]                                # gamma's own shape
        A = g.unsqueeze(-1).expand(*g.shape, L)                          # (..., L)
    else:
        if gate is None:
            raise ValueError("gated mode needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)
        if A.dim() == 0 or A.shape[-1] != L:
            raise ValueError("gate must have shape (L,) or (..., L)")
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        S = A[..., t, None, None] * S + K[..., t, :, None] * V[..., t, None, :]
        ys.append((Q[..., t, None, :] @ S)[..., 0, :])
    return torch.stack(ys, dim=-2)
''')])

case("alt_heads_listcomp_decay", "alternative",
     "decay_matrix builds one L × L matrix per decay with a list comprehension over the (few) γ entries and stacks "
     "them; the linear parallel mask is a boolean triu + masked_fill.",
     [],
     [alt("decay_matrix", '''    n = torch.arange(L, device=gamma.device)
    distance = (n[:, None] - n[None, :]).to(gamma.dtype)                  # (L, L)
    lower = distance >= 0
    zero = torch.zeros((), dtype=gamma.dtype, device=gamma.device)
    mats = [torch.where(lower, g_h ** distance.clamp(min=0), zero) for g_h in gamma.reshape(-1)]
    return torch.stack(mats).reshape(*gamma.shape[:-2], L, L)
'''),
      alt("linear_attention_parallel", '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    A = (phi_q @ phi_k.transpose(-2, -1)).masked_fill(torch.ones(L, L, dtype=torch.bool).triu(1), 0)
    return (A @ V) / A.sum(-1, keepdim=True)
''')])

# ============================================================================= stubs (notebook kept as base's)

STUB = '''"""Linear attention and retention (stub submission: placeholders of the right shape)."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (provided)."""
    return F.elu(x) + 1


def _like(shape, ref):
    return {make}


def _out(Q, K, V):
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    return (*lead, Q.shape[-2], V.shape[-1])


def linear_attention_parallel(Q, K, V):
    return _like(_out(Q, K, V), V)


def linear_attention_recurrent(Q, K, V):
    return _like(_out(Q, K, V), V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return _like(v.shape, v)


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype, device=like.device)[..., None, None]


def decay_matrix(gamma, L):
    return _like((*gamma.shape[:-2], L, L), gamma)


def retention_parallel(Q, K, V, gamma):
    return _like(_out(Q, K, V), V)


def retention_recurrent(Q, K, V, gamma):
    return _like(_out(Q, K, V), V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _like(_out(Q, K, V), V)
    if return_state:
        return out, _like((*_out(Q, K, V)[:-2], K.shape[-1], V.shape[-1]), V)
    return out


def multiscale_decays(num_heads):
    return {heads}


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _like(_out(Q, K, V), V)


def gated_delta_rule(Q, K, V, alpha, beta):
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
'''


def stub(make, heads):
    return STUB.replace("{make}", make).replace("{heads}", heads)


case("stub_random", "stub", "every function returns random tensors of the right shape (feature_map kept as provided).",
     "ALL", module=stub("torch.randn(shape, dtype=ref.dtype, device=ref.device)",
                        "torch.rand(num_heads)"))
case("stub_zeros", "stub", "every function returns zeros of the right shape (feature_map kept as provided).",
     "ALL", module=stub("torch.zeros(shape, dtype=ref.dtype, device=ref.device)", "torch.zeros(num_heads)"))
case("stub_return_v", "stub",
     "every form returns V unchanged (the step returns v; decays are ones), nothing validated (feature_map kept).",
     "ALL", module=stub("torch.broadcast_to(ref, shape).clone() if tuple(ref.shape[-2:]) == tuple(shape)[-2:] "
                        "else torch.ones(shape, dtype=ref.dtype, device=ref.device)", "torch.ones(num_heads)"))

# Stubs lose every code item and the three exercise-run items (the rubric's evidence rule: an identity, zero,
# random or `return V` body earns nothing); they keep the notebook answers and the written answers (base's).
CODE_ITEMS = ["normalizer", "update_before_read", "running_normalizer", "feature_map", "kv_orientation",
              "causal_mask", "decay_every_form", "chunk_boundaries", "partial_chunk_state", "gamma_validation",
              "independent_states", "recurrent_cost", "chunkwise_memory", "linear_parallel", "linear_recurrent",
              "state_step", "retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes",
              "multiscale", "keeps_dtype", "ex1_runs", "ex2_runs", "ex3_runs"]


def build():
    rubric_ids = {item["id"] for item in yaml.safe_load((BASE / "rubric.yaml").read_text())["items"]}
    assert set(CODE_ITEMS) <= rubric_ids
    entries = [dict(name="base", kind="alternative",
                    about="careful complete submission: every stub (optional gated delta rule too) implemented from "
                          "the docstrings; notebook exercises, answers and written answers filled in",
                    should_lose=[])]
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names))
    for c in CASES:
        dest = HERE / c["name"]
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(BASE, dest, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", ".pytest_cache"))
        if c["module"] is not None:
            (dest / PY).write_text(c["module"])
        for fname, old, new in c["edits"]:
            text = (dest / fname).read_text()
            assert text.count(old) == 1, (c["name"], fname, old[:80], text.count(old))
            assert old != new, (c["name"], old[:80])
            (dest / fname).write_text(text.replace(old, new))
        json.loads((dest / NB).read_text())                          # the notebook is still valid JSON
        ast.parse((dest / PY).read_text())
        lose = CODE_ITEMS if c["should_lose"] is None else c["should_lose"]
        assert set(lose) <= rubric_ids, (c["name"], set(lose) - rubric_ids)
        if c["kind"] == "alternative":
            assert not lose
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=list(lose)))
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 12, linear-attention-basics: one entry per case folder.",
             "# should_lose: rubric.yaml item ids judged from the rubric titles, the docstrings and the notebook only.",
             ""]
    for e in entries:
        lines.append(f"- name: {e['name']}")
        lines.append(f"  kind: {e['kind']}")
        lines.append(f"  about: {json.dumps(e['about'], ensure_ascii=False)}")
        lines.append(f"  should_lose: [{', '.join(e['should_lose'])}]")
    (HERE / "corpus.yaml").write_text("\n".join(lines) + "\n")
    loaded = yaml.safe_load((HERE / "corpus.yaml").read_text())
    assert loaded[0]["name"] == "base" and len(loaded) == len(entries)


if __name__ == "__main__":
    es = build()
    kinds = {}
    for e in es:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(len(es), "entries:", kinds)
