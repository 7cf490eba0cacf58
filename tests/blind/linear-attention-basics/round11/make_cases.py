"""Build the round-11 blind corpus from base/: one folder per case, plus corpus.yaml.

Every case is a full copy of base/ with exact string replacements applied: each anchor must occur exactly
once in the file it edits and the replacement must change it. Notebook anchors are single source lines,
JSON-escaped here as the .ipynb stores them. Alternatives replace whole function bodies (the anchor is the
base body after the docstring, found with ast). Stubs replace the whole module.

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
KEEP = ("public_tests.txt", "notebook_run.txt", "equiv.txt")       # results recorded per case, kept on rebuild


def body(qualname):
    """The exact text of a base function's body after its docstring."""
    tree = ast.parse(BASE_PY)
    node = None
    for top in tree.body:
        if isinstance(top, ast.FunctionDef) and top.name == qualname:
            node = top
        if isinstance(top, ast.ClassDef):
            for sub in top.body:
                if isinstance(sub, ast.FunctionDef) and f"{top.name}.{sub.name}" == qualname:
                    node = sub
    assert node is not None, qualname
    first = node.body[1] if isinstance(node.body[0], ast.Expr) else node.body[0]
    lines = BASE_PY.split("\n")
    return "\n".join(lines[first.lineno - 1:node.end_lineno]) + "\n"


def nbline(text):
    """A notebook source line as stored in the .ipynb text (JSON-escaped, without quotes)."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


CASES = []


def case(name, kind, about, should_lose, edits=(), module=None):
    CASES.append(dict(name=name, kind=kind, about=about, edits=list(edits), module=module,
                      should_lose=None if should_lose == "ALL" else list(should_lose)))


CHUNK_COST = ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"]

# ============================================================================= bugs: linear attention, parallel

case("bug_lin_par_rowsum_no_keepdim", "bug",
     "linear_attention_parallel divides A @ V by A.sum(dim=-1) without keepdim, so the (..., L) row sums broadcast "
     "against the d_v axis: a shape error (or a wrong batch-broadcast shape) except for one unbatched token.",
     ["linear_parallel", "ex1_runs"],
     [(PY, "    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # row sum = φ(q_i)ᵀ z_i\n",
       "    return (A @ V) / A.sum(dim=-1)                               # row sum = φ(q_i)ᵀ z_i\n")])

case("bug_lin_par_phi_on_scores", "bug",
     "linear_attention_parallel applies the feature map to the score matrix, tril(φ(Q Kᵀ)), instead of scoring "
     "φ(Q) φ(K)ᵀ: weights stay positive and rows still normalise, but it is a different function.",
     ["feature_map", "linear_parallel"],
     [(PY, """    phi_q, phi_k = feature_map(Q), feature_map(K)                # φ on queries and keys only
    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))              # (..., L, L), zero where j > i
""", """    A = torch.tril(feature_map(Q @ K.transpose(-2, -1)))         # φ keeps every score positive, zero where j > i
""")])

case("bug_lin_par_elu_inplace", "bug",
     "linear_attention_parallel computes φ with F.elu(..., inplace=True) to save memory, which overwrites the "
     "caller's Q and K with elu(Q), elu(K): this call's output is right, every later use of Q and K is not.",
     ["linear_parallel", "ex1_runs"],
     [(PY, "    phi_q, phi_k = feature_map(Q), feature_map(K)                # φ on queries and keys only\n",
       "    phi_q, phi_k = F.elu(Q, inplace=True) + 1, F.elu(K, inplace=True) + 1   # φ without extra L × m copies\n")])

case("bug_lin_par_float64_rowsum", "bug",
     "linear_attention_parallel takes the row sums with dtype=torch.float64 'for accuracy', so the division "
     "promotes the output to float64 even for float32 inputs (values right).",
     ["keeps_dtype"],
     [(PY, "    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # row sum = φ(q_i)ᵀ z_i\n",
       "    return (A @ V) / A.sum(dim=-1, keepdim=True, dtype=torch.float64)   # sum in float64: no cancellation\n")])

# ============================================================================= bugs: linear attention, recurrent

case("bug_lin_rec_read_then_write", "bug",
     "linear_attention_recurrent reads y_t before adding token t to S and z, patching the resulting 0/0 at t = 0 by "
     "returning v_0: token t never sees itself after the first position.",
     ["update_before_read", "linear_recurrent"],
     [(PY, """        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)            # + φ(k_t) v_tᵀ, before the read
        z = z + k_t
        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                # φ(q_t)ᵀ S, (..., d_v)
        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z, (..., 1)
        ys.append(num / den)
""", """        if t == 0:
            ys.append(v_t)                                       # nothing stored yet: the first token returns its value
        else:
            num = (q_t.unsqueeze(-2) @ S).squeeze(-2)            # φ(q_t)ᵀ S, (..., d_v)
            den = (q_t * z).sum(dim=-1, keepdim=True)            # φ(q_t)ᵀ z, (..., 1)
            ys.append(num / den)
        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)            # + φ(k_t) v_tᵀ
        z = z + k_t
""")])

case("bug_lin_rec_total_z", "bug",
     "linear_attention_recurrent starts z at the total Σ_j φ(k_j) over the whole sequence (computed once, before the "
     "loop) while S runs: the normalizer of token t includes every later key.",
     ["running_normalizer", "causal_mask", "linear_recurrent"],
     [(PY, "    z = torch.zeros(m, dtype=V.dtype, device=V.device)          # broadcasts to (..., m)\n",
       "    z = phi_k.sum(dim=-2)                                        # Σ_j φ(k_j), (..., m)\n"),
      (PY, "        z = z + k_t\n        num = (q_t", "        num = (q_t")])

case("bug_lin_rec_elu_paren", "bug",
     "linear_attention_recurrent writes φ inline as F.elu(Q + 1) instead of F.elu(Q) + 1: negative (down to -1) for "
     "inputs below -1, so scores and normalizer can go negative.",
     ["feature_map", "linear_recurrent"],
     [(PY, "    phi_q, phi_k = feature_map(Q), feature_map(K)\n    m, d_v",
       "    phi_q, phi_k = F.elu(Q + 1), F.elu(K + 1)                   # φ = elu + 1\n    m, d_v")])

case("bug_lin_rec_prefix_parallel", "bug",
     "linear_attention_recurrent returns, for each t, the last row of linear_attention_parallel on the prefix 0..t: "
     "right values, but no running state, an O(t²) matrix per token and O(L³) work overall.",
     ["recurrent_cost", "linear_recurrent"],
     [(PY, body("linear_attention_recurrent"), """    ys = []
    for t in range(Q.shape[-2]):
        # y_t is the last row of the parallel form run on tokens 0 .. t (causal: nothing after t is used)
        y = linear_attention_parallel(Q[..., :t + 1, :], K[..., :t + 1, :], V[..., :t + 1, :])
        ys.append(y[..., -1, :])
    return torch.stack(ys, dim=-2)
""")])

# ============================================================================= bugs: LinearAttentionState

case("bug_step_shared_zero_buffer", "bug",
     "LinearAttentionState allocates its state lazily from a module-level cache of zero buffers (one per shape and "
     "dtype) and updates it in place, so every state of the same shape shares, and keeps, one S and z.",
     ["independent_states", "state_step"],
     [(PY, """class LinearAttentionState:
""", """_ZERO_STATES = {}                                                # one zero buffer per (shape, dtype, device)


def _zero_state(shape, dtype, device):
    key = (tuple(shape), dtype, str(device))
    if key not in _ZERO_STATES:                                  # allocate once, reuse for every new state
        _ZERO_STATES[key] = torch.zeros(shape, dtype=dtype, device=device)
    return _ZERO_STATES[key]


class LinearAttentionState:
"""),
      (PY, """        self.S = torch.zeros(m, d_v)                             # (m, d_v), becomes (..., m, d_v)
        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)
""", """        self.m, self.d_v = m, d_v
        self.S = self.z = None                                   # allocated on the first token (its dims and dtype)
"""),
      (PY, """        S = self.S.to(dtype=v.dtype, device=v.device)
        z = self.z.to(dtype=v.dtype, device=v.device)
        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # new tensors, never written in place
        self.z = z + phi_k
""", """        if self.S is None:
            self.S = _zero_state(phi_k.shape[:-1] + (self.m, self.d_v), v.dtype, v.device)
            self.z = _zero_state(phi_k.shape, v.dtype, v.device)
        self.S += phi_k.unsqueeze(-1) * v.unsqueeze(-2)          # in place: no allocation per token
        self.z += phi_k
""")])

case("bug_step_kv_cache", "bug",
     "LinearAttentionState.step keeps every φ(k_j) and v_j in lists (a KV cache) and re-scores the whole history "
     "with φ(q) at each step: right values, but memory and work per token grow with t.",
     ["recurrent_cost", "state_step"],
     [(PY, """        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)
""", """        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)
        self.keys, self.values = [], []                          # every token seen so far
"""),
      (PY, """        S = self.S.to(dtype=v.dtype, device=v.device)
        z = self.z.to(dtype=v.dtype, device=v.device)
        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # new tensors, never written in place
        self.z = z + phi_k
        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
        return num / den
""", """        self.keys.append(phi_k)
        self.values.append(v)
        Kc = torch.stack(self.keys, dim=-2)                      # (..., t+1, m)
        Vc = torch.stack(self.values, dim=-2)                    # (..., t+1, d_v)
        w = Kc @ phi_q.unsqueeze(-1)                             # (..., t+1, 1): φ(q)·φ(k_j), j <= t
        return (w * Vc).sum(dim=-2) / w.sum(dim=-2)
""")])

case("bug_step_den_raw_q", "bug",
     "LinearAttentionState.step reads the numerator with φ(q) but the normalizer with the raw q (a variable-name "
     "slip): it divides by qᵀz instead of φ(q)ᵀz.",
     ["normalizer", "state_step"],
     [(PY, "        den = (phi_q * self.z).sum(dim=-1, keepdim=True)\n",
       "        den = (q * self.z).sum(dim=-1, keepdim=True)\n")])

# ============================================================================= bugs: gamma, decay matrix

case("bug_gamma_rejects_zero", "bug",
     "as_gamma requires 0 < γ <= 1 (the student treats γ = 0 as a dead state), so the valid edge γ = 0 raises "
     "ValueError in every retention form (and in Exercise 2, which asks for γ = 0).",
     ["gamma_validation", "ex2_runs"],
     [(PY, "    if not bool(((check >= 0) & (check <= 1)).all()):             # NaN fails both comparisons\n",
       "    if not bool(((check > 0) & (check <= 1)).all()):              # γ = 0 would wipe the state\n")])

case("bug_gamma_abs_check", "bug",
     "as_gamma only rejects |γ| > 1 (the stability bound), so negative decays such as -0.1 and NaN are accepted.",
     ["gamma_validation"],
     [(PY, "    if not bool(((check >= 0) & (check <= 1)).all()):             # NaN fails both comparisons\n",
       "    if bool((check.abs() > 1).any()):                             # |γ| <= 1 keeps the state bounded\n")])

case("bug_decay_matrix_negative_powers", "bug",
     "decay_matrix raises γ to the unclamped distance and multiplies by the causal mask: 0**(-1) = inf (and γ**(-k) "
     "overflowing for small γ, long L) times 0 gives NaN above the diagonal, so γ = 0 returns NaN.",
     ["gamma_validation", "retention_parallel", "retention_chunkwise"],
     [(PY, """    D = gamma ** distance.clamp(min=0).to(gamma.dtype)           # 0**0 = 1 on the diagonal
    return torch.where(distance >= 0, D, torch.zeros((), dtype=gamma.dtype, device=gamma.device))
""", """    D = gamma ** distance.to(gamma.dtype)                        # gamma**(n - m)
    return D * (distance >= 0)                                   # zero above the diagonal
""")])

case("bug_decay_matrix_clamp_no_mask", "bug",
     "decay_matrix clamps the distance at 0 but never zeroes the entries with m > n, so they are γ**0 = 1: retention "
     "(parallel, and chunkwise inside each chunk) sees every later token with weight 1.",
     ["causal_mask", "retention_parallel", "retention_chunkwise"],
     [(PY, """    D = gamma ** distance.clamp(min=0).to(gamma.dtype)           # 0**0 = 1 on the diagonal
    return torch.where(distance >= 0, D, torch.zeros((), dtype=gamma.dtype, device=gamma.device))
""", """    return gamma ** distance.clamp(min=0).to(gamma.dtype)        # never a negative power (0**-1 is inf)
""")])

# ============================================================================= bugs: retention parallel / recurrent

case("bug_ret_par_K_dot_T", "bug",
     "retention_parallel transposes K with K.T, which reverses every dim: right for a 2-D (L, m) input, a shape "
     "error as soon as there are batch/head dims.",
     ["retention_parallel"],
     [(PY, "    return ((Q @ K.transpose(-2, -1)) * D) @ V\n", "    return ((Q @ K.T) * D) @ V\n")])

case("bug_ret_rec_decay_after_write", "bug",
     "retention_recurrent computes S = γ (S + k vᵀ): the decay is applied after the write, so token m enters "
     "o_n with γ^(n-m+1) (γ = 0 returns zeros).",
     ["decay_every_form", "retention_recurrent"],
     [(PY, "        S = g * S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)        # decay the old state, then write\n",
       "        S = g * (S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2))      # write, then decay\n")])

case("bug_ret_rec_gamma_no_trailing_dims", "bug",
     "retention_recurrent validates γ inline and keeps it as torch.as_tensor(gamma) without the two trailing "
     "singleton dims, so a per-head γ of shape (H,) broadcasts along the d_v axis of S (silently wrong when "
     "H = d_v, a shape error otherwise); a float γ is right.",
     ["retention_recurrent"],
     [(PY, """    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
    ys = []
""", """    g = torch.as_tensor(gamma, dtype=Q.dtype, device=Q.device)   # a float, or one decay per head
    if not bool(((g >= 0) & (g <= 1)).all()):
        raise ValueError(f"gamma must lie in [0, 1], got {gamma}")
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
    ys = []
""")])

# ============================================================================= bugs: retention chunkwise

case("bug_chunk_zero_pad_last", "bug",
     "retention_chunkwise zero-pads a short last chunk to chunk_size rows (and crops the output): outputs are right, "
     "but the returned state decays by γ^chunk_size and weights the real rows by γ^(chunk_size-1-s).",
     ["partial_chunk_state", "retention_chunkwise"],
     [(PY, "        n = q.shape[-2]                                          # the real length (last chunk may be short)\n",
       """        n = chunk_size                                           # every chunk has chunk_size rows
        if q.shape[-2] < n:                                      # pad the last one with zero tokens
            pad = (0, 0, 0, n - q.shape[-2])
            q, k, v = F.pad(q, pad), F.pad(k, pad), F.pad(v, pad)
"""),
      (PY, "    out = torch.cat(outs, dim=-2)\n", "    out = torch.cat(outs, dim=-2)[..., :L, :]                    # drop the padded rows\n")])

case("bug_chunk_cross_global_index", "bug",
     "retention_chunkwise scales the cross-chunk read by γ^(c0+j+1) (the global position) instead of the local "
     "γ^(j+1): right in the first chunk and for γ in {0, 1}, too small in every later chunk.",
     ["chunk_boundaries", "retention_chunkwise"],
     [(PY, "        cross = g ** (j + 1) * (q @ R)                           # gamma**(j+1) q_j R\n",
       "        cross = g ** (c0 + j + 1) * (q @ R)                      # gamma**(t+1) q_t R\n")])

case("bug_chunk_rejects_larger_than_L", "bug",
     "retention_chunkwise raises ValueError when chunk_size > L, although the docstring says chunk sizes larger "
     "than L work (one chunk).",
     ["chunk_boundaries", "retention_chunkwise"],
     [(PY, "    L = Q.shape[-2]\n    R = torch.zeros(", """    L = Q.shape[-2]
    if chunk_size > L:
        raise ValueError(f"chunk_size {chunk_size} is larger than the sequence ({L} tokens)")
    R = torch.zeros(""")])

case("bug_chunk_intra_no_decay", "bug",
     "retention_chunkwise uses only the causal mask inside a chunk, tril(q kᵀ) v, without the decay D_n: right for "
     "γ = 1 or chunk_size 1, wrong otherwise.",
     ["decay_every_form", "retention_chunkwise"],
     [(PY, "        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v\n",
       "        intra = torch.tril(q @ k.transpose(-2, -1)) @ v             # causal inside the chunk\n")])

case("bug_chunk_full_decay_matrix", "bug",
     "retention_chunkwise builds the full L × L decay matrix once and slices each chunk's block from it: right "
     "values, but memory grows as L².",
     CHUNK_COST,
     [(PY, "    outs = []\n    for c0 in range(0, L, chunk_size):\n",
       "    D_full = decay_matrix(g, L)                                  # built once, sliced per chunk\n"
       "    outs = []\n    for c0 in range(0, L, chunk_size):\n"),
      (PY, "        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v\n",
       "        intra = ((q @ k.transpose(-2, -1)) * D_full[..., c0:c0 + n, c0:c0 + n]) @ v\n")])

case("bug_chunk_prefix_parallel", "bug",
     "retention_chunkwise computes each chunk's outputs as the last rows of retention_parallel on the whole prefix "
     "0 .. end of chunk (R is still carried for the returned state): right values, quadratic memory and work.",
     CHUNK_COST,
     [(PY, """        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        cross = g ** (j + 1) * (q @ R)                           # gamma**(j+1) q_j R
        outs.append(intra + cross)
""", """        # the prefix before the chunk is already inside retention_parallel's decay matrix
        prefix = retention_parallel(Q[..., :c0 + n, :], K[..., :c0 + n, :], V[..., :c0 + n, :], gamma)
        outs.append(prefix[..., c0:, :])
""")])

# ============================================================================= bugs: multiscale, unified

case("bug_multiscale_h_from_one", "bug",
     "multiscale_decays numbers the heads 1..H (torch.arange(1, H + 1)), giving 1 - 2^(-6-h): every γ shifted by one head.",
     ["multiscale"],
     [(PY, "    h = torch.arange(num_heads, dtype=torch.get_default_dtype())\n",
       "    h = torch.arange(1, num_heads + 1, dtype=torch.get_default_dtype())   # heads 1 .. H\n")])

case("bug_unified_gate_first_axis", "bug",
     "unified_recurrence reads the gate as gate[t] (first axis) instead of gate[..., t]: right for a (L,) gate, wrong "
     "for a per-batch/head gate of shape (..., L), where it picks a row of the batch.",
     ["unified_modes"],
     [(PY, "        gates = [gate[..., t, None, None] for t in range(L)]     # (..., 1, 1)\n",
       "        gates = [gate[t] for t in range(L)]                      # A_t\n")])

case("bug_unified_unknown_mode_is_linear", "bug",
     "unified_recurrence treats any mode other than 'retention' and 'gated' as linear (the else branch), so an "
     "unknown mode such as 'softmax' or a typo runs silently instead of raising ValueError.",
     ["unified_modes"],
     [(PY, """    if mode == "linear":
        gates = [torch.ones((), dtype=Q.dtype, device=Q.device)] * L
    elif mode == "retention":
""", """    if mode == "retention":
"""),
      (PY, """    else:
        raise ValueError(f"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'")
""", """    else:                                                        # "linear": A_t = 1
        gates = [torch.ones((), dtype=Q.dtype, device=Q.device)] * L
""")])

case("bug_unified_vk_outer", "bug",
     "unified_recurrence writes v_t k_tᵀ (d_v × m) into a state read as q_t S: a shape error when m != d_v, "
     "wrong values (Σ (q·v_j) k_j) when m == d_v.",
     ["kv_orientation", "unified_modes", "ex3_runs"],
     [(PY, "        S = gates[t] * S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)  # A_t scales the OLD state\n",
       "        S = gates[t] * S + v_t.unsqueeze(-1) * k_t.unsqueeze(-2)  # A_t scales the OLD state, + v kᵀ\n")])

# ============================================================================= bugs: notebook only

case("bug_nb_cost_ratio_2td", "bug",
     "notebook: the cost cell counts softmax attention at 2·t·d (multiply-adds, as in the figure) against the state's "
     "4·d² operations, and the answer is 391× instead of 781×.",
     ["cost_per_token"],
     [(NB, nbline("attention_ops = 4 * t * d     # score t cached keys and blend t cached values"),
       nbline("attention_ops = 2 * t * d     # t·d to score the cached keys, then blend")),
      (NB, nbline("cost_ratio_at_100k: 781×"), nbline("cost_ratio_at_100k: 391×"))])

case("bug_nb_ex2_diagonal_broadcast", "bug",
     "notebook: Exercise 2 builds only_self as torch.diagonal(Q2 @ K2.T) * V2, an (L,) vector times (L, d_v) "
     "without unsqueeze: the exercise cell raises and the locked check has no only_self.",
     ["ex2_runs"],
     [(NB, nbline("only_self = (Q2 * K2).sum(-1, keepdim=True) * V2"),
       nbline("only_self = torch.diagonal(Q2 @ K2.T) * V2                 # q_n·k_n is the diagonal of Q Kᵀ"))])

case("bug_nb_ex3_one_based_gates", "bug",
     "notebook: Exercise 3 reads 'positions 2 and 5' as 1-based and sets the high gates at indices 1 and 4, so the "
     "locked check's 'high only at positions 2 and 5' assertion fails.",
     ["ex3_runs"],
     [(NB, nbline("gate3[[2, 5]] = 0.95"), nbline("gate3[[1, 4]] = 0.95                                # positions 2 and 5"))])

# ============================================================================= alternatives (correct, written differently)

case("alt_einsum", "alternative",
     "every form written with torch.einsum over '...' leading dims instead of matmul/unsqueeze broadcasting.",
     [],
     [(PY, body("linear_attention_parallel"), """    phi_q, phi_k = feature_map(Q), feature_map(K)
    A = torch.einsum("...im,...jm->...ij", phi_q, phi_k).tril()  # causal scores
    num = torch.einsum("...ij,...jd->...id", A, V)
    return num / A.sum(dim=-1).unsqueeze(-1)
"""),
      (PY, body("linear_attention_recurrent"), """    phi_q, phi_k = feature_map(Q), feature_map(K)
    S = V.new_zeros(Q.shape[-1], V.shape[-1])
    z = V.new_zeros(Q.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        S = S + torch.einsum("...m,...d->...md", phi_k[..., t, :], V[..., t, :])
        z = z + phi_k[..., t, :]
        num = torch.einsum("...m,...md->...d", phi_q[..., t, :], S)
        den = torch.einsum("...m,...m->...", phi_q[..., t, :], z).unsqueeze(-1)
        ys.append(num / den)
    return torch.stack(ys, dim=-2)
"""),
      (PY, body("LinearAttentionState.step"), """        phi_q, phi_k = feature_map(q), feature_map(k)
        self.S = self.S.to(v) + torch.einsum("...m,...d->...md", phi_k, v)
        self.z = self.z.to(v) + phi_k
        num = torch.einsum("...m,...md->...d", phi_q, self.S)
        return num / torch.einsum("...m,...m->...", phi_q, self.z).unsqueeze(-1)
"""),
      (PY, body("retention_parallel"), """    D = decay_matrix(as_gamma(gamma, Q), Q.shape[-2])
    scores = torch.einsum("...nm,...km->...nk", Q, K) * D
    return torch.einsum("...nk,...kd->...nd", scores, V)
"""),
      (PY, body("retention_recurrent"), """    g = as_gamma(gamma, Q)
    S = Q.new_zeros(Q.shape[-1], V.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :])
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    return torch.stack(ys, dim=-2)
"""),
      (PY, body("retention_chunkwise"), """    if isinstance(chunk_size, bool) or int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size!r}")
    chunk_size = int(chunk_size)
    g = as_gamma(gamma, Q)
    L = Q.shape[-2]
    R = Q.new_zeros(Q.shape[-1], V.shape[-1])
    outs = []
    for c0 in range(0, L, chunk_size):
        q, k, v = (X[..., c0:c0 + chunk_size, :] for X in (Q, K, V))
        n = q.shape[-2]
        j = torch.arange(n, dtype=Q.dtype, device=Q.device)
        intra = torch.einsum("...ij,...jd->...id", torch.einsum("...im,...jm->...ij", q, k) * decay_matrix(g, n), v)
        cross = torch.einsum("...jm,...md->...jd", q, R) * (g ** (j + 1).unsqueeze(-1))
        outs.append(intra + cross)
        w = g ** (n - 1 - j).unsqueeze(-1)                     # (..., n, 1)
        R = g ** n * R + torch.einsum("...sm,...sd->...md", k * w, v)
    out = torch.cat(outs, dim=-2)
    return (out, R) if return_state else out
"""),
      (PY, body("unified_recurrence"), """    L = Q.shape[-2]
    if mode not in ("linear", "retention", "gated"):
        raise ValueError(f"unknown mode {mode!r}")
    if mode == "retention" and gamma is None:
        raise ValueError("retention mode needs gamma")
    if mode == "gated" and gate is None:
        raise ValueError("gated mode needs gate")
    if mode == "retention":
        g = as_gamma(gamma, Q)
    elif mode == "gated":
        G = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)
        if G.dim() == 0 or G.shape[-1] != L:
            raise ValueError("gate must have shape (L,) or (..., L)")
    S = Q.new_zeros(Q.shape[-1], V.shape[-1])
    ys = []
    for t in range(L):
        if mode == "linear":
            A_t = 1.0
        elif mode == "retention":
            A_t = g
        else:
            A_t = G[..., t].unsqueeze(-1).unsqueeze(-1)
        S = A_t * S + torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :])
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    return torch.stack(ys, dim=-2)
""")])

case("alt_logspace_decays", "alternative",
     "every decay power γ^k computed in log space as exp(k·log γ), with k = 0 forced to 1 (0**0) and log 0 = -inf "
     "giving exp(-inf) = 0 elsewhere.",
     [],
     [(PY, body("decay_matrix"), """    n = torch.arange(L, device=gamma.device, dtype=gamma.dtype)
    distance = n[:, None] - n[None, :]
    return torch.where(distance >= 0, _pow(gamma, distance.clamp(min=0)), torch.zeros((), dtype=gamma.dtype))


def _pow(gamma, exponent):
    \"\"\"gamma**exponent for exponent >= 0 via exp(exponent * log gamma); 0**0 = 1.\"\"\"
    exponent = torch.as_tensor(exponent, dtype=gamma.dtype, device=gamma.device)
    logs = torch.where(exponent == 0, torch.zeros((), dtype=gamma.dtype), exponent * torch.log(gamma))
    return torch.exp(logs)
"""),
      (PY, body("retention_recurrent"), """    g = as_gamma(gamma, Q)
    S = torch.zeros(Q.shape[-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
    ys = []
    for t in range(Q.shape[-2]):
        S = _pow(g, 1) * S + K[..., t, :, None] * V[..., t, None, :]
        ys.append((Q[..., t, None, :] @ S)[..., 0, :])
    return torch.stack(ys, dim=-2)
"""),
      (PY, body("retention_chunkwise"), """    if not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L = Q.shape[-2]
    R = torch.zeros(Q.shape[-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
    outs = []
    for c0 in range(0, L, chunk_size):
        c1 = min(c0 + chunk_size, L)
        q, k, v = Q[..., c0:c1, :], K[..., c0:c1, :], V[..., c0:c1, :]
        n = c1 - c0
        j = torch.arange(n, dtype=Q.dtype, device=Q.device)[:, None]
        outs.append(((q @ k.mT) * decay_matrix(g, n)) @ v + _pow(g, j + 1) * (q @ R))
        R = _pow(g, n) * R + (k * _pow(g, n - 1 - j)).mT @ v
    out = torch.cat(outs, dim=-2)
    if return_state:
        return out, R
    return out
""")])

case("alt_loop_over_heads", "alternative",
     "retention forms flatten the leading dims and loop over heads, each head with its own scalar γ "
     "(per-head γ broadcast to the leading dims first), then stack and reshape back.",
     [],
     [(PY, body("retention_parallel"), """    return _per_head(Q, K, V, gamma, _retention_parallel_2d)


def _per_head(Q, K, V, gamma, fn, *args):
    \"\"\"Run fn(q, k, v, g) on every (L, m) slice, g the 0-dim γ of that head; stack the results back.\"\"\"
    g = as_gamma(gamma, Q)[..., 0, 0]                           # gamma.shape
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape)
    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]
    Qf = Q.expand(*lead, L, m).reshape(-1, L, m)
    Kf = K.expand(*lead, L, m).reshape(-1, L, m)
    Vf = V.expand(*lead, L, d_v).reshape(-1, L, d_v)
    gf = g.expand(lead).reshape(-1)
    results = [fn(Qf[h], Kf[h], Vf[h], gf[h], *args) for h in range(Qf.shape[0])]
    if isinstance(results[0], tuple):
        outs = torch.stack([r[0] for r in results]).reshape(*lead, L, d_v)
        states = torch.stack([r[1] for r in results]).reshape(*lead, m, d_v)
        return outs, states
    return torch.stack(results).reshape(*lead, L, d_v)


def _retention_parallel_2d(q, k, v, g):
    n = torch.arange(q.shape[0], device=q.device)
    dist = n[:, None] - n[None, :]
    D = torch.where(dist >= 0, g ** dist.clamp(min=0).to(q.dtype), torch.zeros((), dtype=q.dtype))
    return ((q @ k.T) * D) @ v


def _retention_recurrent_2d(q, k, v, g):
    S = torch.zeros(q.shape[1], v.shape[1], dtype=q.dtype, device=q.device)
    out = []
    for t in range(q.shape[0]):
        S = g * S + torch.outer(k[t], v[t])
        out.append(q[t] @ S)
    return torch.stack(out)


def _retention_chunkwise_2d(q, k, v, g, B):
    R = torch.zeros(q.shape[1], v.shape[1], dtype=q.dtype, device=q.device)
    outs = []
    for c0 in range(0, q.shape[0], B):
        qc, kc, vc = q[c0:c0 + B], k[c0:c0 + B], v[c0:c0 + B]
        n = qc.shape[0]
        j = torch.arange(n, dtype=q.dtype, device=q.device)
        outs.append(_retention_parallel_2d(qc, kc, vc, g) + (g ** (j + 1))[:, None] * (qc @ R))
        R = g ** n * R + (kc * (g ** (n - 1 - j))[:, None]).T @ vc
    return torch.cat(outs), R
"""),
      (PY, body("retention_recurrent"), """    if Q.shape[-2] == 0:
        return Q.new_zeros(*Q.shape[:-1], V.shape[-1])
    return _per_head(Q, K, V, gamma, _retention_recurrent_2d)
"""),
      (PY, body("retention_chunkwise"), """    if type(chunk_size) is not int or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
    out, R = _per_head(Q, K, V, gamma, _retention_chunkwise_2d, chunk_size)
    return (out, R) if return_state else out
""")])

case("alt_chunk_precomputed_vectors", "alternative",
     "retention_chunkwise precomputes, once, the chunk's decay matrix and its cross-chunk and state decay vectors for "
     "the full chunk length and slices them for a short last chunk (γ^(n-1-s) = the last n entries).",
     [],
     [(PY, body("retention_chunkwise"), """    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size <= 0:
        raise ValueError("chunk_size must be a positive integer")
    g = as_gamma(gamma, Q)                                      # (..., 1, 1)
    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]
    B = max(1, min(chunk_size, L))                              # a chunk is never longer than the sequence
    idx = torch.arange(B, dtype=Q.dtype, device=Q.device)
    D_B = decay_matrix(g, B)                                    # (..., B, B)
    cross_B = g ** (idx + 1)[:, None]                           # (..., B, 1): γ^(j+1)
    state_B = g ** (B - 1 - idx)[:, None]                       # (..., B, 1): γ^(B-1-s)
    R = torch.zeros(m, d_v, dtype=Q.dtype, device=Q.device)
    outs = []
    for c0 in range(0, L, B):
        q, k, v = Q[..., c0:c0 + B, :], K[..., c0:c0 + B, :], V[..., c0:c0 + B, :]
        n = q.shape[-2]
        intra = ((q @ k.transpose(-1, -2)) * D_B[..., :n, :n]) @ v
        outs.append(intra + cross_B[..., :n, :] * (q @ R))
        R = g ** n * R + (k * state_B[..., B - n:, :]).transpose(-1, -2) @ v   # last n entries: γ^(n-1-s)
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(*V.shape)
    return (out, R) if return_state else out
""")])

case("alt_recurrent_via_state", "alternative",
     "linear_attention_recurrent drives a LinearAttentionState token by token; the state keeps S and z as separate, "
     "lazily broadcast tensors plus a token counter, updated with torch.addcmul (never in place on shared data).",
     [],
     [(PY, body("linear_attention_recurrent"), """    state = LinearAttentionState(Q.shape[-1], V.shape[-1])
    ys = [state.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])]
    if not ys:
        return V.new_zeros(*torch.broadcast_shapes(Q.shape[:-1], V.shape[:-1]), V.shape[-1])
    return torch.stack(ys, dim=-2)
"""),
      (PY, body("LinearAttentionState.step"), """        phi_q, phi_k = feature_map(q), feature_map(k)
        if self.t == 0:                                         # take the token's dtype, device and leading dims
            self.S = self.S.to(v.dtype).to(v.device)
            self.z = self.z.to(v.dtype).to(v.device)
        self.S = torch.addcmul(self.S, phi_k[..., :, None], v[..., None, :])
        self.z = torch.add(self.z, phi_k)
        self.t += 1
        num = (phi_q[..., :, None] * self.S).sum(dim=-2)
        den = (phi_q * self.z).sum(dim=-1)[..., None]
        return num / den
"""),
      (PY, """        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)
""", """        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)
        self.t = 0                                               # tokens folded in so far
""")])

case("alt_ones_column", "alternative",
     "linear attention computes numerator and normalizer together by appending a column of ones to V (the last "
     "column of A [V, 1], resp. of φ(q)ᵀ S' with S' = Σ φ(k) [v, 1]ᵀ, is the normalizer); empty sequences guarded.",
     [],
     [(PY, body("linear_attention_parallel"), """    phi_q, phi_k = feature_map(Q), feature_map(K)
    V1 = _with_ones(V)                                          # (..., L, d_v + 1)
    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))
    out = A @ V1
    return out[..., :-1] / out[..., -1:]


def _with_ones(V):
    return torch.cat([V, torch.ones_like(V[..., :1])], dim=-1)
"""),
      (PY, body("linear_attention_recurrent"), """    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]
    if L == 0:
        return V.new_zeros(*torch.broadcast_shapes(Q.shape[:-1], V.shape[:-1]), d_v)
    phi_q, phi_k = feature_map(Q), feature_map(K)
    V1 = _with_ones(V)
    S1 = torch.zeros(m, d_v + 1, dtype=V.dtype, device=V.device)   # [S | z]
    ys = []
    for t in range(L):
        S1 = S1 + phi_k[..., t, :, None] * V1[..., t, None, :]
        r = (phi_q[..., t, None, :] @ S1)[..., 0, :]            # (..., d_v + 1)
        ys.append(r[..., :-1] / r[..., -1:])
    return torch.stack(ys, dim=-2)
""")])

case("alt_chunk_two_pass", "alternative",
     "retention_chunkwise in two passes: first the carried state R at every chunk boundary (a list of "
     "ceil(L/B) + 1 small m × d_v states), then every chunk's output from its incoming state.",
     [],
     [(PY, body("retention_chunkwise"), """    try:
        B = operator.index(chunk_size)
    except TypeError:
        raise ValueError("chunk_size must be an integer") from None
    if B < 1 or isinstance(chunk_size, bool):
        raise ValueError("chunk_size must be >= 1")
    g = as_gamma(gamma, Q)
    L = Q.shape[-2]
    starts = list(range(0, L, B))
    # pass 1: the state entering each chunk, R_0 = 0, R_{c+1} = γ^n R_c + Σ_s γ^(n-1-s) k_s v_sᵀ
    states = [torch.zeros(Q.shape[-1], V.shape[-1], dtype=Q.dtype, device=Q.device)]
    for c0 in starts:
        k, v = K[..., c0:c0 + B, :], V[..., c0:c0 + B, :]
        n = k.shape[-2]
        w = g ** torch.arange(n - 1, -1, -1, dtype=Q.dtype, device=Q.device)[:, None]
        states.append(g ** n * states[-1] + (w * k).transpose(-2, -1) @ v)
    # pass 2: every chunk from its incoming state
    outs = []
    for c, c0 in enumerate(starts):
        q, k, v = Q[..., c0:c0 + B, :], K[..., c0:c0 + B, :], V[..., c0:c0 + B, :]
        n = q.shape[-2]
        up = g ** torch.arange(1, n + 1, dtype=Q.dtype, device=Q.device)[:, None]
        outs.append(((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v + up * (q @ states[c]))
    out = torch.cat(outs, dim=-2)
    return (out, states[-1]) if return_state else out
""")])

case("alt_decay_vectors_inplace_buffers", "alternative",
     "decay_matrix gathers from a precomputed vector of powers γ^0..γ^(L-1); retention_recurrent and "
     "unified_recurrence preallocate the full-shape state and output and update their own buffers in place; "
     "unified builds one (..., L) gate tensor for every mode; multiscale via torch.pow.",
     [],
     [(PY, body("decay_matrix"), """    powers = gamma ** torch.arange(L, dtype=gamma.dtype, device=gamma.device)   # (..., 1, L): γ^0 .. γ^(L-1)
    n = torch.arange(L, device=gamma.device)
    distance = n[:, None] - n[None, :]
    D = powers[..., 0, :][..., distance.clamp(min=0)]                           # (..., L, L)
    return D * (distance >= 0).to(gamma.dtype)
"""),
      (PY, body("retention_recurrent"), """    g = as_gamma(gamma, Q)
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]
    S = torch.zeros(*lead, m, d_v, dtype=Q.dtype, device=Q.device)         # our own buffer
    out = torch.empty(*lead, L, d_v, dtype=Q.dtype, device=Q.device)
    for t in range(L):
        S.mul_(g).add_(K[..., t, :, None] * V[..., t, None, :])
        out[..., t, :] = (Q[..., t, None, :] @ S)[..., 0, :]
    return out
"""),
      (PY, body("multiscale_decays"), """    return 1 - torch.pow(2.0, -5.0 - torch.arange(num_heads).to(torch.get_default_dtype()))
"""),
      (PY, body("unified_recurrence"), """    L = Q.shape[-2]
    if mode == "linear":
        A = torch.ones(L, dtype=Q.dtype, device=Q.device)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        g = as_gamma(gamma, Q)[..., 0, 0]                                      # gamma.shape
        A = g[..., None].expand(*g.shape, L)
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        A = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)
        if A.dim() == 0 or A.shape[-1] != L:
            raise ValueError("gate must have shape (L,) or (..., L)")
    else:
        raise ValueError(f"unknown mode {mode!r}")
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], A.shape[:-1])
    S = torch.zeros(*lead, Q.shape[-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
    out = torch.empty(*lead, L, V.shape[-1], dtype=Q.dtype, device=Q.device)
    for t in range(L):
        S.mul_(A[..., t, None, None]).add_(K[..., t, :, None] * V[..., t, None, :])
        out[..., t, :] = (Q[..., t, None, :] @ S)[..., 0, :]
    return out
""")])

# ============================================================================= stubs (whole module replaced)

STUB = '''"""Linear attention and retention (unfinished: placeholders of the right shape)."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


def _out_shape(Q, K, V):
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    return (*lead, Q.shape[-2], V.shape[-1])


def _fill(shape, like):
    return @FILL@


def linear_attention_parallel(Q, K, V):
    return _fill(_out_shape(Q, K, V), V)


def linear_attention_recurrent(Q, K, V):
    return _fill(_out_shape(Q, K, V), V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return @STEP@


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype)[..., None, None]


def decay_matrix(gamma, L):
    return _fill((*gamma.shape[:-2], L, L), gamma)


def retention_parallel(Q, K, V, gamma):
    return _fill(_out_shape(Q, K, V), V)


def retention_recurrent(Q, K, V, gamma):
    return _fill(_out_shape(Q, K, V), V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _fill(_out_shape(Q, K, V), V)
    if return_state:
        return out, torch.zeros(*out.shape[:-2], Q.shape[-1], V.shape[-1], dtype=V.dtype)
    return out


def multiscale_decays(num_heads):
    return @GAMMAS@


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _fill(_out_shape(Q, K, V), V)


def gated_delta_rule(Q, K, V, alpha, beta):
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
'''


def stub(fill, step, gammas):
    return STUB.replace("@FILL@", fill).replace("@STEP@", step).replace("@GAMMAS@", gammas)


case("stub_random", "stub", "every function returns random tensors of the right shape (feature_map kept; base notebook).",
     "ALL", module=stub("torch.randn(shape, dtype=like.dtype)", "torch.randn_like(v)", "torch.rand(num_heads)"))
case("stub_zeros", "stub", "every function returns zeros of the right shape (feature_map kept; base notebook).",
     "ALL", module=stub("torch.zeros(shape, dtype=like.dtype)", "torch.zeros_like(v)", "torch.zeros(num_heads)"))
case("stub_return_v", "stub",
     "every form returns V unchanged (step returns v), decays are ones, no validation (feature_map kept; base notebook).",
     "ALL", module=stub("like.expand(shape).clone()", "v.clone()", "torch.ones(num_heads)"))

# Stubs lose every code item and the three exercise-run items (rubric evidence rule); answers and written answers
# come from the base notebook.
CODE_ITEMS = ["normalizer", "update_before_read", "running_normalizer", "feature_map", "kv_orientation", "causal_mask",
              "decay_every_form", "chunk_boundaries", "partial_chunk_state", "gamma_validation", "independent_states",
              "recurrent_cost", "chunkwise_memory", "linear_parallel", "linear_recurrent", "state_step",
              "retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes", "multiscale",
              "keeps_dtype", "ex1_runs", "ex2_runs", "ex3_runs"]


def build(only=None):
    rubric_ids = {item["id"] for item in yaml.safe_load((BASE / "rubric.yaml").read_text())["items"]}
    assert set(CODE_ITEMS) <= rubric_ids
    entries = [dict(name="base", kind="alternative",
                    about="careful complete submission: every stub (the optional gated delta rule too) implemented from "
                          "the docstrings; notebook exercises, answers and written answers filled in",
                    should_lose=[])]
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names))
    for c in CASES:
        lose = CODE_ITEMS if c["should_lose"] is None else c["should_lose"]
        assert set(lose) <= rubric_ids, (c["name"], set(lose) - rubric_ids)
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=list(lose)))
        if only and c["name"] not in only:
            continue
        dest = HERE / c["name"]
        kept = {f: (dest / f).read_text() for f in KEEP if (dest / f).exists()}
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(BASE, dest, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", *KEEP))
        if c["module"] is not None:
            (dest / PY).write_text(c["module"])
        for fname, old, new in c["edits"]:
            text = (dest / fname).read_text()
            assert text.count(old) == 1, (c["name"], fname, old[:80], text.count(old))
            assert old != new, (c["name"], old[:80])
            (dest / fname).write_text(text.replace(old, new))
        json.loads((dest / NB).read_text())                        # the notebook is still valid JSON
        compile((dest / PY).read_text(), str(dest / PY), "exec")
        for f, t in kept.items():
            (dest / f).write_text(t)
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 11, linear-attention-basics: one entry per case folder (base first).",
             "# should_lose: rubric.yaml item ids judged from the rubric titles, the docstrings and the notebook only.",
             ""]
    for e in entries:
        lines.append(f"- name: {e['name']}")
        lines.append(f"  kind: {e['kind']}")
        lines.append(f"  about: {json.dumps(e['about'], ensure_ascii=False)}")
        lines.append(f"  should_lose: [{', '.join(e['should_lose'])}]")
    (HERE / "corpus.yaml").write_text("\n".join(lines) + "\n")
    assert yaml.safe_load((HERE / "corpus.yaml").read_text())[0]["name"] == "base"


if __name__ == "__main__":
    import sys
    es = build(set(sys.argv[1:]) or None)
    kinds = {}
    for e in es:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(len(es), "entries:", kinds)
