"""Build the round-14 blind corpus from base/: one folder per case, plus corpus.yaml.

Every case is a full copy of base/ (the student template folder, completed) with exact string replacements.
Each anchor must occur exactly once in the file it edits, and each edit must change the file.
`fix(func, (old, new), ...)` anchors on a whole base function body (found with `ast`) and replaces fragments
that each occur exactly once inside it. Alternatives (and one body-level bug) replace whole function bodies
with `alt`. Notebook anchors are single source lines (or line fragments), JSON-escaped the way the .ipynb
stores them. Stubs replace the whole module (base notebook kept); `stub_template` is the untouched template
module, read from student_template/.

    /work/main/.venv/bin/python make_cases.py        # rebuilds every case folder and corpus.yaml
"""
import ast
import json
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
TEMPLATE = HERE.parents[3] / "student_template" / "linear-attention-basics"
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
    text = "\n".join(lines[first.lineno - 1:node.end_lineno]) + "\n"
    assert BASE_PY.count(text) == 1, qualname
    return text


def alt(qualname, new_body):
    """Replace a whole base function body (after its docstring)."""
    return (PY, body(qualname), new_body)


def fix(qualname, *pairs):
    """Replace fragments inside one base function body; each `old` occurs exactly once in that body."""
    b = new = body(qualname)
    for old, rep in pairs:
        assert b.count(old) == 1, (qualname, old, b.count(old))
        assert new.count(old) == 1, (qualname, old)
        new = new.replace(old, rep)
    return (PY, b, new)


def nb(old, new):
    """An edit of one notebook source line (or line fragment), JSON-escaped as the .ipynb stores it."""
    esc = lambda s: json.dumps(s, ensure_ascii=False)[1:-1]   # noqa: E731
    return (NB, esc(old), esc(new))


CASES = []


def case(name, kind, about, should_lose, edits=(), module=None):
    CASES.append(dict(name=name, kind=kind, about=about, edits=list(edits), module=module,
                      should_lose=None if should_lose == "ALL" else list(should_lose)))


LP, LR, ST, INIT, ASG, DM = ("linear_attention_parallel", "linear_attention_recurrent", "LinearAttentionState.step",
                             "LinearAttentionState.__init__", "as_gamma", "decay_matrix")
RP, RR, RC, MS, UR = ("retention_parallel", "retention_recurrent", "retention_chunkwise", "multiscale_decays",
                      "unified_recurrence")

# ============================================================================= bugs: linear attention, parallel

case("bug_linpar_strict_tril", "bug",
     "linear_attention_parallel masks with torch.tril(..., diagonal=-1) (the strict past, 'j < i'): token i never "
     "scores itself, so row 0 is 0/0 = NaN and every later row misses its own value.",
     ["update_before_read", "linear_parallel"],
     [fix(LP, ("torch.tril(phi_q @ phi_k.transpose(-2, -1))", "torch.tril(phi_q @ phi_k.transpose(-2, -1), diagonal=-1)"))])

case("bug_linpar_count_normalizer", "bug",
     "linear_attention_parallel divides row i by the number of visible tokens (i + 1, a causal mean) instead of "
     "the row sum φ(q_i)ᵀz_i: the weights no longer sum to 1, so constant values do not come back unchanged.",
     ["normalizer", "linear_parallel"],
     [fix(LP, ("    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # row sum of A is φ(q_i)ᵀ z_i\n",
               "    count = torch.arange(1, A.shape[-1] + 1, dtype=A.dtype, device=A.device).unsqueeze(-1)\n"
               "    return (A @ V) / count                                       # average over the j <= i\n"))])

case("bug_linpar_scores_kq", "bug",
     "linear_attention_parallel builds the scores as φ(K) φ(Q)ᵀ (A[i, j] = φ(k_i)·φ(q_j)), the transpose of the "
     "lesson's φ(q_i)·φ(k_j), before masking: still causal and normalized, but a different function.",
     ["linear_parallel"],
     [fix(LP, ("phi_q @ phi_k.transpose(-2, -1)", "phi_k @ phi_q.transpose(-2, -1)"))])

# ============================================================================= bugs: linear attention, recurrent

case("bug_linrec_z_raw_keys", "bug",
     "linear_attention_recurrent accumulates the normalizer from the raw keys (z += k_t instead of φ(k_t)): the "
     "denominator φ(q_t)ᵀz can be zero or negative and the weights no longer sum to 1.",
     ["feature_map", "normalizer", "linear_recurrent"],
     [fix(LR, ("        z = z + k_t  ", "        z = z + K[..., t, :]  "))])

case("bug_linrec_z_updated_after_read", "bug",
     "linear_attention_recurrent updates S first but moves z on only AFTER the read: the denominator is "
     "φ(q_t)ᵀz_{t-1} (token 0 divides by 0 -> inf/NaN) while the numerator already holds token t.",
     ["update_before_read", "linear_recurrent"],
     [fix(LR, ("        z = z + k_t                                              # ... z + φ(k_t), first ...\n"
               "        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                # ... then read: φ(q_t)ᵀ S, (..., d_v)\n"
               "        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z, (..., 1)\n",
               "        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                # ... then read: φ(q_t)ᵀ S, (..., d_v)\n"
               "        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z, (..., 1)\n"
               "        z = z + k_t                                              # move the normalizer on\n"))])

case("bug_linrec_z_float64", "bug",
     "linear_attention_recurrent allocates the normalizer z in float64 ('sum the normalizer in double'): float64 "
     "inputs are unaffected, but for float32 inputs φ(q_t)ᵀz is float64 and the output comes back as float64.",
     ["keeps_dtype"],
     [fix(LR, ("    z = torch.zeros(m, dtype=V.dtype, device=V.device)",
               "    z = torch.zeros(m, dtype=torch.float64, device=V.device)"))])

case("bug_linrec_den_matmul", "bug",
     "linear_attention_recurrent computes the denominator as φ(q_t) @ z (a dot product for one unbatched "
     "sequence); with leading dims it is a batched matmul of (..., m) by (..., m) that raises or mis-shapes.",
     ["linear_recurrent"],
     [fix(LR, ("        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z, (..., 1)\n",
               "        den = (q_t @ z).unsqueeze(-1)                            # φ(q_t)ᵀ z\n"))])

# ============================================================================= bugs: the decoding state

case("bug_step_raw_query", "bug",
     "LinearAttentionState.step maps only the key (phi_q = q): the read φ(q)ᵀS / φ(q)ᵀz uses the raw query, "
     "whose dot product with z can be zero or negative.",
     ["feature_map", "state_step"],
     [fix(ST, ("        phi_q, phi_k = feature_map(q), feature_map(k)\n",
               "        phi_q, phi_k = q, feature_map(k)                          # the state holds φ(k)\n"))])

case("bug_step_class_level_buffers", "bug",
     "LinearAttentionState keeps S and z in a dict declared in the class body (`buffers = {}`), not per object: "
     "every state reads and writes the same buffers, and creating a new object resets the others (one object "
     "used alone is right).",
     ["independent_states"],
     [(PY, "    def __init__(self, m, d_v):\n",
       "    buffers = {}                                                 # the running S and z\n\n"
       "    def __init__(self, m, d_v):\n"),
      alt(INIT, '''        self.buffers["S"] = torch.zeros(m, d_v)                  # (m, d_v), becomes (..., m, d_v)
        self.buffers["z"] = torch.zeros(m)                       # (m,), becomes (..., m)
        self.S, self.z = self.buffers["S"], self.buffers["z"]
'''),
      alt(ST, '''        phi_q, phi_k = feature_map(q), feature_map(k)
        S = self.buffers["S"].to(dtype=v.dtype, device=v.device)
        z = self.buffers["z"].to(dtype=v.dtype, device=v.device)
        self.S = self.buffers["S"] = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = self.buffers["z"] = z + phi_k
        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)         # then read: φ(q)ᵀ S, (..., d_v)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)         # φ(q)ᵀ z, (..., 1)
        return num / den
''')])

# ============================================================================= bugs: gamma, decay matrix

case("bug_gamma_nan_passes", "bug",
     "as_gamma tests ~((g < 0) | (g > 1)): every comparison with NaN is False, so γ = NaN is accepted "
     "(out-of-range numbers still raise).",
     ["gamma_validation"],
     [fix(ASG, ("    ok = (g >= 0) & (g <= 1)                                     # False for NaN as well\n",
                "    ok = ~((g < 0) | (g > 1))                                    # nothing below 0 or above 1\n"))])

case("bug_gamma_any_not_all", "bug",
     "as_gamma raises only when NO entry is valid (ok.any() instead of ok.all()): a float out of range still "
     "raises, but a per-head tensor with one bad entry, e.g. [0.5, 1.5], is accepted.",
     ["gamma_validation"],
     [fix(ASG, ("    if not bool(ok.all()):\n", "    if not bool(ok.any()):\n"))])

case("bug_gamma_rejects_zero", "bug",
     "as_gamma checks 0 < γ <= 1 ('a decay must be positive'): the documented edge γ = 0 raises ValueError in "
     "every retention form, and so does Exercise 2's γ = 0 call.",
     ["gamma_validation", "retention_parallel", "retention_recurrent", "retention_chunkwise", "ex2_runs"],
     [fix(ASG, ("(g >= 0)", "(g > 0)"))])

case("bug_gamma_unsqueeze_inplace", "bug",
     "as_gamma adds the two trailing dims with in-place unsqueeze_ ('no copy'): torch.as_tensor returns the "
     "caller's tensor when dtype and device already match, so a per-head γ of shape (H,) is left as (H, 1, 1) "
     "and the next call with it broadcasts wrongly.",
     ["retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes"],
     [fix(ASG, ("    return g.reshape(*g.shape, 1, 1)                             # gamma.shape + (1, 1)\n",
                "    return g.unsqueeze_(-1).unsqueeze_(-1)                       # gamma.shape + (1, 1), no copy\n"))])

case("bug_decay_unclamped_power", "bug",
     "decay_matrix raises γ to the unclamped distance n - m before masking by multiplication: for γ = 0 the "
     "entries above the diagonal are 0**(-k) = inf and inf·0 = NaN (the same overflow for tiny γ or long float32 "
     "sequences); 0 < γ <= 1 on short inputs is unaffected.",
     ["gamma_validation", "retention_parallel", "retention_chunkwise"],
     [fix(DM, ("gamma ** distance.clamp(min=0).to(gamma.dtype)", "gamma ** distance.to(gamma.dtype)"))])

# ============================================================================= bugs: retention parallel / recurrent

case("bug_retpar_decay_transposed", "bug",
     "retention_parallel multiplies the scores by Dᵀ (decay_matrix(...).transpose(-2, -1)): the weights sit "
     "above the diagonal, so output n reads the tokens m >= n.",
     ["causal_mask", "retention_parallel"],
     [fix(RP, ("    return ((Q @ K.transpose(-2, -1)) * D) @ V\n",
               "    return ((Q @ K.transpose(-2, -1)) * D.transpose(-2, -1)) @ V\n"))])

case("bug_retpar_row_normalized", "bug",
     "retention_parallel divides each row by its sum of decayed scores, as linear attention does, although "
     "retention has no normalizer (the rows of QKᵀ ⊙ D can sum to ~0 or below).",
     ["retention_parallel"],
     [fix(RP, ("    return ((Q @ K.transpose(-2, -1)) * D) @ V\n",
               "    W = (Q @ K.transpose(-2, -1)) * D\n"
               "    return (W @ V) / W.sum(dim=-1, keepdim=True)                 # normalize each row\n"))])

case("bug_retpar_dot_T", "bug",
     "retention_parallel transposes the keys with K.T: right for one unbatched (L, m) input, but on a batched "
     "tensor .T reverses ALL dims, so the batched matmul raises or mixes batch and feature axes.",
     ["retention_parallel"],
     [fix(RP, ("(Q @ K.transpose(-2, -1))", "(Q @ K.T)"))])

case("bug_retrec_state_vk", "bug",
     "retention_recurrent adds v_t k_tᵀ (d_v × m) to the state but still reads q_t S: it raises when m != d_v "
     "and, when m == d_v, swaps the roles of keys and values (o_n = Σ γ^(n-m) (q_n·v_m) k_m).",
     ["kv_orientation", "retention_recurrent"],
     [fix(RR, ("K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)",
               "V[..., t, :].unsqueeze(-1) * K[..., t, :].unsqueeze(-2)"))])

case("bug_retrec_decay_after_write", "bug",
     "retention_recurrent decays the state after adding the token, S = γ(S + k_tᵀv_t): every weight is "
     "γ^(n-m+1), so token n's own term is scaled by γ (γ = 0 gives zeros; γ = 1 is unaffected).",
     ["decay_every_form", "retention_recurrent"],
     [fix(RR, ("        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)",
               "        S = g * (S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2))"))])

# ============================================================================= bugs: chunkwise

case("bug_chunk_cross_exponent_j", "bug",
     "retention_chunkwise scales the cross-chunk term by γ^j instead of γ^(j+1): the carried state R is one decay "
     "short (wrong whenever a chunk follows another; chunk_size >= L is unaffected).",
     ["chunk_boundaries", "retention_chunkwise"],
     [fix(RC, ("        cross = g ** (j + 1).unsqueeze(-1) * (q @ R) ", "        cross = g ** j.unsqueeze(-1) * (q @ R)       "))])

case("bug_chunk_state_weight_n_minus_s", "bug",
     "retention_chunkwise weights the chunk's writes by γ^(n-s) instead of γ^(n-1-s) when carrying R on: every "
     "carried write has one decay too many (later chunks and the returned state are wrong).",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("        w = g ** (n - 1 - j).unsqueeze(-1) ", "        w = g ** (n - j).unsqueeze(-1)     "))])

case("bug_chunk_carry_decay_chunk_size", "bug",
     "retention_chunkwise decays the carried state by γ^chunk_size instead of γ^n (the chunk's real length): "
     "outputs are right, but after a short last chunk the returned R is decayed too much.",
     ["partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("        R = g ** n * R + ", "        R = g ** chunk_size * R + "))])

case("bug_chunk_local_index_chunk_size", "bug",
     "retention_chunkwise builds the local index j from chunk_size instead of the slice's real length: a short "
     "last chunk (chunk_size not dividing L, or larger than L) makes the shapes disagree, and the form raises or "
     "returns extra rows.",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("        j = torch.arange(n, dtype=g.dtype, device=g.device)\n",
               "        j = torch.arange(chunk_size, dtype=g.dtype, device=g.device)\n"))])

case("bug_chunk_intra_no_decay", "bug",
     "retention_chunkwise masks the intra-chunk scores with torch.tril instead of D_n: inside a chunk every "
     "earlier token has weight 1 (chunk_size 1 is unaffected; any larger chunk is wrong).",
     ["decay_every_form", "chunk_boundaries", "retention_chunkwise"],
     [fix(RC, ("        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v ",
               "        intra = torch.tril(q @ k.transpose(-2, -1)) @ v              "))])

case("bug_chunk_state_tuple_swapped", "bug",
     "retention_chunkwise with return_state=True returns (R, out) instead of (out, R); without it the output is "
     "right.",
     ["partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("        return out, R\n", "        return R, out\n"))])

case("bug_chunk_full_decay_matrix", "bug",
     "cost misconception: retention_chunkwise builds decay_matrix(γ, L) once before the loop and slices its "
     "top-left n × n block for each chunk: right outputs and state, but an L × L matrix (quadratic memory).",
     ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("    outs = []\n", "    D_all = decay_matrix(g, L)                                   # built once, sliced per chunk\n"
                                  "    outs = []\n"),
          ("* decay_matrix(g, n)) @ v ", "* D_all[..., :n, :n]) @ v "))])

# ============================================================================= bugs: multiscale, unified

case("bug_multiscale_heads_from_one", "bug",
     "multiscale_decays numbers the heads 1 .. num_heads (torch.arange(1, num_heads + 1)): every γ_h is the "
     "next head's, starting at 0.984375 instead of 0.96875.",
     ["multiscale"],
     [fix(MS, ("torch.arange(num_heads, ", "torch.arange(1, num_heads + 1, "))])

case("bug_unified_gate_index_first_dim", "bug",
     "unified_recurrence reads the gate as gate[t]: right for a (L,) gate, but for a (..., L) gate it takes row "
     "t of the leading dim instead of step t (raises or mis-broadcasts).",
     ["unified_modes"],
     [fix(UR, ("        gates = [A[..., t, None, None] for t in range(L)]        # (..., 1, 1) each\n",
               "        gates = [A[t] for t in range(L)]                         # A_t\n"))])

case("bug_unified_unknown_mode_is_linear", "bug",
     "unified_recurrence falls back to A_t = 1 for any mode it does not recognise instead of raising ValueError "
     "(the three real modes are right).",
     ["unified_modes"],
     [fix(UR, ("    else:\n        raise ValueError(f\"unknown mode {mode!r}: expected 'linear', 'retention' or 'gated'\")\n",
               "    else:                                                        # anything else: no gate\n"
               "        gates = [1.0] * L\n"))])

# ============================================================================= bugs: notebook only

case("bug_nb_your_turn_old_query", "bug",
     "notebook: the 'your turn' cell reads the three-token state with the example's query (1, 2) instead of "
     "(1, 1), so the answer is [1.67, 2.67].",
     ["your_turn"],
     [nb("q3 = torch.tensor([1.0, 1.0])", "q3 = q_ex"),
      nb("your_turn: [1.50, 2.50]", "your_turn: [1.67, 2.67]")])

case("bug_nb_cost_update_only", "bug",
     "notebook: counts the state's cost as the update alone (2·d², forgetting the read qᵀS), giving 1560× "
     "instead of 781×.",
     ["cost_per_token"],
     [nb("state_ops = 4 * d * d              # add k vᵀ into S (d² multiply-adds), read qᵀS (d² more)",
         "state_ops = 2 * d * d              # add k vᵀ into S (d² multiply-adds)"),
      nb("cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 1560×")])

case("bug_nb_ex3_gates_one_based", "bug",
     "notebook: Exercise 3 puts the high gates at indices 3 and 6 (positions 2 and 5 counted from 1), so the "
     "locked check cell fails.",
     ["ex3_runs"],
     [nb("gate3[[2, 5]] = 0.95", "gate3[[3, 6]] = 0.95")])

# ============================================================================= alternatives

case("alt_einsum_masked_fill", "alternative",
     "both parallel forms score with torch.einsum and mask the future with masked_fill on a boolean "
     "triu(diagonal=1) mask (linear) or multiply by D inside one einsum chain (retention).",
     [],
     [alt(LP, '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    future = torch.ones(L, L, dtype=torch.bool, device=Q.device).triu(diagonal=1)   # j > i
    A = torch.einsum("...im,...jm->...ij", phi_q, phi_k).masked_fill(future, 0.0)
    return torch.einsum("...ij,...jd->...id", A, V) / A.sum(dim=-1, keepdim=True)
'''),
      alt(RP, '''    g = as_gamma(gamma, Q)
    scores = torch.einsum("...im,...jm->...ij", Q, K)
    return torch.einsum("...ij,...jd->...id", scores * decay_matrix(g, Q.shape[-2]), V)
''')])

case("alt_linrec_via_state_steps", "alternative",
     "linear_attention_recurrent is a loop of LinearAttentionState.step over the tokens (one state object per "
     "call), stacked along dim -2.",
     [],
     [alt(LR, '''    state = LinearAttentionState(K.shape[-1], V.shape[-1])
    ys = [state.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])]
    if not ys:
        return torch.zeros(_out_shape(Q, K, V), dtype=V.dtype, device=V.device)
    return torch.stack(ys, dim=-2)
''')])

case("alt_step_einsum_clamp_check", "alternative",
     "LinearAttentionState.step written with torch.einsum and Tensor.to(other); as_gamma validates with "
     "torch.equal(g.clamp(0, 1), g) (NaN is never equal) and adds the dims with g[..., None, None].",
     [],
     [alt(ST, '''        phi_q, phi_k = feature_map(q), feature_map(k)
        self.S = self.S.to(v) + torch.einsum("...m,...d->...md", phi_k, v)
        self.z = self.z.to(v) + phi_k
        num = torch.einsum("...m,...md->...d", phi_q, self.S)
        return num / torch.einsum("...m,...m->...", phi_q, self.z).unsqueeze(-1)
'''),
      alt(ASG, '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if not torch.equal(g.clamp(0, 1), g):                        # moved by the clamp, or NaN
        raise ValueError(f"gamma must lie in [0, 1], got {gamma!r}")
    return g[..., None, None]
''')])

case("alt_decay_row_recursion", "alternative",
     "decay_matrix builds D row by row with the recurrence D[n] = γ D[n-1] + e_n (no powers at all, so 0**0 "
     "never comes up).",
     [],
     [alt(DM, '''    eye = torch.eye(L, dtype=gamma.dtype, device=gamma.device)
    row = torch.zeros(*gamma.shape[:-2], L, dtype=gamma.dtype, device=gamma.device)
    rows = []
    for n in range(L):
        row = gamma[..., 0] * row + eye[n]                       # D[n, m] = γ D[n-1, m] + [m == n]
        rows.append(row)
    if not rows:
        return torch.zeros(*gamma.shape[:-2], 0, 0, dtype=gamma.dtype, device=gamma.device)
    return torch.stack(rows, dim=-2)
''')])

case("alt_retrec_unbind_split_update", "alternative",
     "retention_recurrent iterates over zip(Q.unbind(-2), K.unbind(-2), V.unbind(-2)), decays and writes in two "
     "statements and reads with einsum; multiscale_decays from a list comprehension.",
     [],
     [alt(RR, '''    g = as_gamma(gamma, Q)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    out = []
    for q_t, k_t, v_t in zip(Q.unbind(-2), K.unbind(-2), V.unbind(-2)):
        S = S * g                                                # forget first ...
        S = S + k_t[..., :, None] * v_t[..., None, :]            # ... then write k_tᵀ v_t
        out.append(torch.einsum("...m,...md->...d", q_t, S))
    if not out:
        return torch.zeros(_out_shape(Q, K, V), dtype=V.dtype, device=V.device)
    return torch.stack(out, dim=-2)
'''),
      alt(MS, '''    return torch.tensor([1 - 2.0 ** (-5 - h) for h in range(num_heads)], dtype=torch.get_default_dtype())
''')])

case("alt_chunk_short_first", "alternative",
     "retention_chunkwise puts the short chunk FIRST (chunk ends at L % B, then every B tokens up to L), a "
     "different but equally valid chunking: same outputs and same final state.",
     [],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    ends = list(range(L % chunk_size or chunk_size, L + 1, chunk_size))   # the remainder chunk comes first
    starts = [0] + ends[:-1]
    R = V.new_zeros(m, d_v)
    outs = []
    for s0, s1 in zip(starts, ends):
        q, k, v = Q[..., s0:s1, :], K[..., s0:s1, :], V[..., s0:s1, :]
        n = s1 - s0
        j = torch.arange(n, dtype=g.dtype, device=g.device).unsqueeze(-1)      # (n, 1)
        outs.append(((q @ k.mT) * decay_matrix(g, n)) @ v + g ** (j + 1) * (q @ R))
        R = g ** n * R + (k * g ** (n - 1 - j)).mT @ v
    out = torch.cat(outs, dim=-2) if outs else torch.zeros(_out_shape(Q, K, V), dtype=V.dtype, device=V.device)
    return (out, R) if return_state else out
''')])

case("alt_chunk_token_loop_state", "alternative",
     "retention_chunkwise keeps the intra-chunk parallel term, scales the queries by γ^(j+1) before reading R, "
     "and carries R on token by token inside the chunk (R = γR + k_sᵀv_s, n steps = γ^n R + Σ γ^(n-1-s) k_sᵀv_s).",
     [],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    R = V.new_zeros(m, d_v)
    outs = []
    for c0 in range(0, L, chunk_size):
        c1 = min(c0 + chunk_size, L)
        q, k, v = Q[..., c0:c1, :], K[..., c0:c1, :], V[..., c0:c1, :]
        n = c1 - c0
        j = torch.arange(n, dtype=g.dtype, device=g.device)
        q_decayed = q * g ** (j + 1).unsqueeze(-1)               # γ^(j+1) q_j
        outs.append(((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v + q_decayed @ R)
        for s in range(n):                                       # the recurrent form, one token at a time
            R = g * R + k[..., s, :, None] * v[..., s, None, :]
    out = torch.cat(outs, dim=-2) if outs else torch.zeros(_out_shape(Q, K, V), dtype=V.dtype, device=V.device)
    if return_state:
        return out, R
    return out
''')])

case("alt_chunk_exponents_from_D", "alternative",
     "retention_chunkwise reads every boundary exponent off the chunk's own decay matrix: γ^(j+1) = γ·D[j, 0], "
     "γ^(n-1-s) = D[n-1, s] and γ^n = γ·D[n-1, 0].",
     [],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    R = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    outs = []
    for c0 in range(0, L, chunk_size):
        q, k, v = Q[..., c0:c0 + chunk_size, :], K[..., c0:c0 + chunk_size, :], V[..., c0:c0 + chunk_size, :]
        D = decay_matrix(g, q.shape[-2])                         # D[:, 0] = γ^j, D[-1, :] = γ^(n-1-s)
        outs.append(((q @ k.mT) * D) @ v + g * D[..., :, :1] * (q @ R))
        R = g * D[..., -1:, :1] * R + (k * D[..., -1, :, None]).mT @ v
    out = torch.cat(outs, dim=-2) if outs else torch.zeros(_out_shape(Q, K, V), dtype=V.dtype, device=V.device)
    if return_state:
        return out, R
    return out
''')])

case("alt_unified_gate_tensor", "alternative",
     "unified_recurrence turns every mode into one gate tensor A of shape (..., L) first (ones, γ broadcast "
     "along L, or the given gate), then runs a single einsum loop over A[..., t].",
     [],
     [alt(UR, '''    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    if mode == "linear":
        A = torch.ones(L, dtype=V.dtype, device=V.device)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("retention mode needs gamma")
        A = as_gamma(gamma, V)[..., 0, 0, None] * torch.ones(L, dtype=V.dtype, device=V.device)   # (..., L)
    elif mode == "gated":
        if gate is None:
            raise ValueError("gated mode needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)
        if A.ndim == 0 or A.shape[-1] != L:
            raise ValueError(f"gate must be (L,) or (..., L), got {tuple(A.shape)}")
    else:
        raise ValueError(f"unknown mode {mode!r}")
    S = V.new_zeros(m, d_v)
    ys = []
    for t in range(L):
        S = A[..., t, None, None] * S + torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :])
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    if not ys:
        return torch.zeros(_out_shape(Q, K, V), dtype=V.dtype, device=V.device)
    return torch.stack(ys, dim=-2)
''')])

# ============================================================================= stubs (notebook kept as base's)

STUB = '''"""Linear attention and retention: placeholder submission ({what})."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (provided)."""
    return F.elu(x) + 1


def _placeholder(Q, V):
    shape = (*torch.broadcast_shapes(Q.shape[:-2], V.shape[:-2]), Q.shape[-2], V.shape[-1])
    return {fill}


def linear_attention_parallel(Q, K, V):
    return _placeholder(Q, V)


def linear_attention_recurrent(Q, K, V):
    return _placeholder(Q, V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return _placeholder(q.unsqueeze(-2), v.unsqueeze(-2)).squeeze(-2)


def as_gamma(gamma, like):
    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    return g.reshape(*g.shape, 1, 1)


def decay_matrix(gamma, L):
    return torch.ones(*gamma.shape[:-2], L, L, dtype=gamma.dtype).tril()


def retention_parallel(Q, K, V, gamma):
    return _placeholder(Q, V)


def retention_recurrent(Q, K, V, gamma):
    return _placeholder(Q, V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _placeholder(Q, V)
    if return_state:
        return out, torch.zeros(*out.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)
    return out


def multiscale_decays(num_heads):
    return {heads}


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _placeholder(Q, V)


def gated_delta_rule(Q, K, V, alpha, beta):
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
'''


def stub(what, fill, heads):
    return STUB.replace("{what}", what).replace("{fill}", fill).replace("{heads}", heads)


case("stub_zeros", "stub", "every function returns zeros of the right shape (feature_map kept as provided; as_gamma validates nothing).",
     "ALL", module=stub("zeros of the right shape", "torch.zeros(shape, dtype=V.dtype, device=V.device)",
                        "torch.zeros(num_heads)"))
case("stub_random", "stub", "every function returns random normal tensors of the right shape (feature_map kept; decays uniform random).",
     "ALL", module=stub("random tensors of the right shape", "torch.randn(shape, dtype=V.dtype, device=V.device)",
                        "torch.rand(num_heads)"))
case("stub_template", "stub",
     "the untouched template module: every stub still raises NotImplementedError (base notebook kept, so its "
     "exercise cells stop with NotImplementedError).",
     "ALL", module=(TEMPLATE / PY).read_text())

# Stubs lose every automatically graded code item and the three exercise-run items (the rubric's evidence
# rule: a random, zero or raising body earns nothing); they keep base's notebook answers and written answers.
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
        else:
            assert lose
            assert (dest / PY).read_text() != BASE_PY or (dest / NB).read_text() != (BASE / NB).read_text()
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=list(lose)))
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 14, linear-attention-basics: one entry per case folder.",
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
