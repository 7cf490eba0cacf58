"""Build the round-17 blind corpus from base/: one folder per case, plus corpus.yaml.

Every bug and alternative is a full copy of base/ (the student template folder, completed) with exact,
anchored replacements; a missing or ambiguous anchor stops the build (AssertionError):

- `fix(func, (old, new), ...)`: `func`'s body in base's linear_attention.py (found with `ast`, after the
  docstring) must occur once in the file, and each `old` must occur exactly once inside that body.
- `alt(func, new_body)`: replaces that whole body.
- `edit(old, new)`: an anchor that occurs exactly once in the whole module.
- `nbedit(cell_id, old, new)`: in the notebook cell with that id, `old` must occur exactly once in the
  cell's source; the notebook is rewritten the way nbformat writes it (indent 1, UTF-8).

Stubs start from the untouched template folder (`student_template/linear-attention-basics/`) and replace the
module and/or the notebook's cells.

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
IGNORE = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", ".pytest_cache")


# ----------------------------------------------------------------------------- edit helpers

def body(qualname, source=BASE_PY):
    """The exact text of a function's body after its docstring; it must occur once in the module."""
    tree = ast.parse(source)
    node = None
    for top in tree.body:
        if isinstance(top, ast.FunctionDef) and top.name == qualname:
            node = top
        elif isinstance(top, ast.ClassDef):
            for sub in top.body:
                if isinstance(sub, ast.FunctionDef) and f"{top.name}.{sub.name}" == qualname:
                    node = sub
    assert node is not None, f"no function {qualname}"
    first = node.body[1] if isinstance(node.body[0], ast.Expr) else node.body[0]
    lines = source.split("\n")
    text = "\n".join(lines[first.lineno - 1:node.end_lineno]) + "\n"
    assert source.count(text) == 1, f"body of {qualname} is not unique"
    return text


def fix(qualname, *pairs):
    b = new = body(qualname)
    for old, rep in pairs:
        assert b.count(old) == 1, f"{qualname}: anchor occurs {b.count(old)} times: {old!r}"
        assert new.count(old) == 1, f"{qualname}: anchor changed by an earlier pair: {old!r}"
        assert old != rep, f"{qualname}: edit changes nothing: {old!r}"
        new = new.replace(old, rep)
    return ("py", b, new)


def alt(qualname, new_body):
    return ("py", body(qualname), new_body)


def edit(old, new):
    return ("py", old, new)


def nbedit(cell_id, old, new):
    return ("nb", cell_id, old, new)


def apply_py(text, old, new, name):
    assert text.count(old) == 1, f"{name}: module anchor occurs {text.count(old)} times: {old[:100]!r}"
    assert old != new, f"{name}: edit changes nothing"
    return text.replace(old, new)


def apply_nb(nb, cell_id, old, new, name):
    cells = [c for c in nb["cells"] if c.get("id") == cell_id]
    assert len(cells) == 1, f"{name}: no single cell with id {cell_id}"
    src = "".join(cells[0]["source"])
    assert src.count(old) == 1, f"{name}: cell {cell_id} anchor occurs {src.count(old)} times: {old[:100]!r}"
    assert old != new, f"{name}: edit changes nothing"
    cells[0]["source"] = to_lines(src.replace(old, new))


def to_lines(text):
    lines = text.split("\n")
    return [ln + "\n" for ln in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def dump_nb(nb):
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


CASES = []


def case(name, kind, about, should_lose, edits=(), module=None, cells=None, source=BASE):
    """cells: {cell_id: new full source} for stubs whose notebook is rewritten."""
    CASES.append(dict(name=name, kind=kind, about=about, edits=list(edits), module=module, cells=cells,
                      source=source, should_lose=None if should_lose == "ALL" else list(should_lose)))


LP, LR, ST, ASG, DM = ("linear_attention_parallel", "linear_attention_recurrent", "LinearAttentionState.step",
                       "as_gamma", "decay_matrix")
RP, RR, RC, MS, UR = ("retention_parallel", "retention_recurrent", "retention_chunkwise", "multiscale_decays",
                      "unified_recurrence")

# ============================================================================= bugs: linear attention, parallel

case("bug_linpar_column_sum_normalizer", "bug",
     "linear_attention_parallel divides row i by the COLUMN sum of A (A.sum(dim=-2), reshaped to (..., L, 1)) "
     "instead of its row sum: row i is divided by Σ_{n>=i} φ(q_n)·φ(k_i) rather than φ(q_i)ᵀz_i, so the weights "
     "of a row no longer sum to 1 (constant values do not come back); a single token is still right.",
     ["normalizer", "linear_parallel"],
     [fix(LP, ("    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # row sum = φ(q_i)ᵀ z_i\n",
               "    return (A @ V) / A.sum(dim=-2).unsqueeze(-1)                 # sum of the scores = φ(q_i)ᵀ z_i\n"))])

case("bug_linpar_elu_without_plus_one", "bug",
     "linear_attention_parallel uses F.elu directly on Q and K ('elu is the feature map') instead of "
     "feature_map = elu + 1: scores can be negative, so the row sum can be near zero or negative and outputs "
     "blow up or flip sign, worst for very negative inputs; constant values and one token still come back.",
     ["feature_map", "linear_parallel"],
     [fix(LP, ("    phi_q, phi_k = feature_map(Q), feature_map(K)                # φ on queries and keys, never on V\n",
               "    phi_q, phi_k = F.elu(Q), F.elu(K)                            # the elu feature map\n"))])

# ============================================================================= bugs: linear attention, recurrent

case("bug_linrec_z_after_read", "bug",
     "linear_attention_recurrent updates S first but adds φ(k_t) to z only AFTER reading y_t: the denominator "
     "misses the current token, φ(q_t)ᵀz_{t-1}; token 0 divides by zero (inf/NaN), and later rows are too big "
     "(weights sum to more than 1).",
     ["update_before_read", "linear_recurrent"],
     [fix(LR, ("        z = z + k_t                                              # z ← z + φ(k_t)\n"
               "        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                # φ(q_t)ᵀ S, (..., d_v)\n"
               "        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z, (..., 1)\n"
               "        ys.append(num / den)\n",
               "        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                # φ(q_t)ᵀ S, (..., d_v)\n"
               "        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z, (..., 1)\n"
               "        ys.append(num / den)\n"
               "        z = z + k_t                                              # z ← z + φ(k_t)\n"))])

case("bug_linrec_total_normalizer", "bug",
     "linear_attention_recurrent computes the normalizer once before the loop from ALL keys, "
     "z = φ(K).sum(dim=-2), and never updates it: row i is divided by φ(q_i)·Σ_{j<L} φ(k_j), so the weights of "
     "early rows sum to less than 1 and later tokens change earlier outputs; the last row is right.",
     ["running_normalizer", "causal_mask", "linear_recurrent"],
     [fix(LR, ("    z = torch.zeros(m, dtype=V.dtype, device=V.device)          # broadcasts up to (..., m)\n",
               "    z = phi_k.sum(dim=-2)                                        # the normalizer: Σ φ(k_j)\n"),
          ("        z = z + k_t                                              # z ← z + φ(k_t)\n", ""))])

case("bug_linrec_recomputes_prefix", "bug",
     "linear_attention_recurrent loops over t but rebuilds the state from scratch at every step, "
     "S_t = φ(K[:t+1])ᵀ V[:t+1] and z_t = φ(K[:t+1]).sum(): outputs are exact, but step t costs O(t m d_v), "
     "so the 'recurrent' face does quadratic work in L (no state is carried).",
     ["recurrent_cost", "linear_recurrent"],
     [fix(LR, ("        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)            # S ← S + φ(k_t) v_tᵀ (update first)\n"
               "        z = z + k_t                                              # z ← z + φ(k_t)\n",
               "        S = phi_k[..., :t + 1, :].transpose(-2, -1) @ V[..., :t + 1, :]   # Σ_{j<=t} φ(k_j) v_jᵀ\n"
               "        z = phi_k[..., :t + 1, :].sum(dim=-2)                    # Σ_{j<=t} φ(k_j)\n"))])

case("bug_linrec_inplace_unbatched_state", "bug",
     "linear_attention_recurrent updates the state in place, S += φ(k_t) v_tᵀ and z += φ(k_t), on the "
     "(m, d_v) and (m,) zeros: right for an unbatched sequence (the notebook's), but with leading batch/head "
     "dims the in-place add cannot broadcast the state up and raises a RuntimeError (so the batched "
     "Exercise 1 cell stops too).",
     ["linear_recurrent", "ex1_runs"],
     [fix(LR, ("        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)            # S ← S + φ(k_t) v_tᵀ (update first)\n"
               "        z = z + k_t                                              # z ← z + φ(k_t)\n",
               "        S += k_t.unsqueeze(-1) * v_t.unsqueeze(-2)               # S ← S + φ(k_t) v_tᵀ, in place\n"
               "        z += k_t                                                 # z ← z + φ(k_t), in place\n"))])

# ============================================================================= bugs: the decoding state

case("bug_step_den_without_query", "bug",
     "LinearAttentionState.step divides by the plain sum of the normalizer state, z.sum(-1), instead of "
     "φ(q)ᵀz: the numerator is weighted by φ(q) but the denominator is not, so outputs are scaled by a factor "
     "that depends on q (one token no longer returns v, constant values do not come back).",
     ["normalizer", "state_step"],
     [fix(ST, ("        den = (phi_q * self.z).sum(dim=-1, keepdim=True)         # φ(q)ᵀ z, (..., 1)\n",
               "        den = self.z.sum(dim=-1, keepdim=True)                   # the normalizer z, (..., 1)\n"))])

case("bug_step_den_sums_dim0", "bug",
     "LinearAttentionState.step computes the denominator with .sum(dim=0, keepdim=True): for one unbatched "
     "token (q of shape (m,)) that is φ(q)ᵀz and everything is right (the notebook's decoding cell passes), "
     "but for a batch of heads (q of shape (B, m)) it sums over the batch instead of over m.",
     ["state_step"],
     [fix(ST, ("        den = (phi_q * self.z).sum(dim=-1, keepdim=True)         # φ(q)ᵀ z, (..., 1)\n",
               "        den = (phi_q * self.z).sum(dim=0, keepdim=True)          # φ(q)ᵀ z\n"))])

case("bug_step_keeps_kv_cache", "bug",
     "LinearAttentionState.step appends every (φ(k), v) to lists and recomputes S and z from the whole history "
     "at each call (a KV cache in disguise): outputs are exact, but the work and memory of step t grow with t "
     "instead of staying constant per token.",
     ["recurrent_cost", "state_step"],
     [fix(ST, ("        S = self.S.to(dtype=v.dtype, device=v.device)           # __init__'s zeros are float32\n"
               "        z = self.z.to(dtype=v.dtype, device=v.device)\n"
               "        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # update first: S + φ(k) vᵀ (new tensors)\n"
               "        self.z = z + phi_k\n",
               "        self.keys = getattr(self, \"keys\", []) + [phi_k]           # remember every token\n"
               "        self.values = getattr(self, \"values\", []) + [v]\n"
               "        Ks, Vs = torch.stack(self.keys, dim=-2), torch.stack(self.values, dim=-2)\n"
               "        self.S = Ks.transpose(-2, -1) @ Vs                       # Σ φ(k_j) v_jᵀ over the history\n"
               "        self.z = Ks.sum(dim=-2)\n"))])

# ============================================================================= bugs: gamma, decay matrix

case("bug_gamma_rejects_zero", "bug",
     "as_gamma checks 0 < γ <= 1 ('γ = 0 would wipe the state'), so γ = 0 raises ValueError although the "
     "docstring and the lesson allow it (0**0 = 1: each token sees only itself); 1.5, -0.1 and NaN are still "
     "rejected. The notebook's Exercise 2 calls retention_parallel with γ = 0 and stops there.",
     ["gamma_validation", "ex2_runs"],
     [fix(ASG, ("    ok = (g >= 0) & (g <= 1)                                     # False for NaN as well\n",
                "    ok = (g > 0) & (g <= 1)                                      # False for NaN as well\n"))])

case("bug_gamma_nan_slips_through", "bug",
     "as_gamma raises only if (g < 0).any() or (g > 1).any(): every comparison with NaN is False, so γ = NaN "
     "is accepted and every retention form returns NaN instead of raising ValueError; 1.5 and -0.1 raise.",
     ["gamma_validation"],
     [fix(ASG, ("    ok = (g >= 0) & (g <= 1)                                     # False for NaN as well\n"
                "    if not bool(ok.all()):\n",
                "    if bool((g < 0).any()) or bool((g > 1).any()):               # out of [0, 1]\n"))])

case("bug_decay_distance_transposed", "bug",
     "decay_matrix builds distance = m - n (idx[None, :] - idx[:, None]): D is UPPER triangular, "
     "D[n, m] = γ^(m-n) for m >= n, so retention_parallel and every chunk's intra term read future tokens "
     "(the diagonal is right, so γ = 0 still works).",
     ["causal_mask", "retention_parallel", "retention_chunkwise"],
     [fix(DM, ("    distance = idx[:, None] - idx[None, :]                       # (L, L): n - m\n",
               "    distance = idx[None, :] - idx[:, None]                       # (L, L): n - m\n"))])

case("bug_decay_mask_by_multiplying", "bug",
     "decay_matrix raises γ to the signed distance and masks by multiplying, γ^(n-m) · (n >= m): fine for "
     "0 < γ <= 1, but for γ = 0 the entries above the diagonal are 0**(negative) = inf and inf · 0 = NaN, so "
     "retention_parallel and the chunkwise intra term return NaN at γ = 0 (the edge the docstring allows).",
     ["gamma_validation", "retention_parallel", "retention_chunkwise"],
     [fix(DM, ("    powers = gamma ** distance.clamp(min=0).to(gamma.dtype)      # never a negative power; 0**0 = 1\n"
               "    return torch.where(distance >= 0, powers, torch.zeros((), dtype=gamma.dtype, device=gamma.device))\n",
               "    powers = gamma ** distance.to(gamma.dtype)                   # γ^(n-m)\n"
               "    return powers * (distance >= 0).to(gamma.dtype)              # keep m <= n\n"))])

# ============================================================================= bugs: retention, parallel and recurrent

case("bug_retpar_normalizes_rows", "bug",
     "retention_parallel divides each row of (Q Kᵀ ⊙ D) V by the row sum of (Q Kᵀ ⊙ D), carrying linear "
     "attention's normalizer over (pitfall 2): retention has no normalizer, so the parallel face is wrong "
     "everywhere (and unstable where the signed row sum is near zero).",
     ["retention_parallel"],
     [fix(RP, ("    return ((Q @ K.transpose(-2, -1)) * D) @ V\n",
               "    W = (Q @ K.transpose(-2, -1)) * D\n"
               "    return (W @ V) / W.sum(dim=-1, keepdim=True)                 # normalise each row\n"))])

case("bug_retpar_tril_forgets_decay", "bug",
     "retention_parallel validates γ but masks with torch.tril(Q Kᵀ) and never multiplies by D: right for "
     "γ = 1 only; for any γ < 1 the parallel face ignores the decay (γ = 0 does not reduce to the diagonal).",
     ["decay_every_form", "retention_parallel"],
     [fix(RP, ("    D = decay_matrix(g, Q.shape[-2])                             # (..., L, L)\n"
               "    return ((Q @ K.transpose(-2, -1)) * D) @ V\n",
               "    return torch.tril(Q @ K.transpose(-2, -1)) @ V               # causal scores, then the values\n"))])

case("bug_retrec_decay_after_write", "bug",
     "retention_recurrent decays after the write, S = γ (S + k_tᵀ v_t): every term carries one γ too many, "
     "o_n = Σ γ^(n-m+1) (q_n·k_m) v_m, so outputs are scaled by γ (γ = 1 right, γ = 0 gives zeros).",
     ["decay_every_form", "retention_recurrent"],
     [fix(RR, ("        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # γ S + k_tᵀ v_t\n",
               "        S = g * (S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2))  # write, then decay\n"))])

case("bug_retrec_reads_before_write", "bug",
     "retention_recurrent reads o_t = q_t S before folding token t in (the 'predict the next token' habit): "
     "o_t = Σ_{m<t} γ^(t-1-m) (q_t·k_m) v_m, so a token never sees itself, the first output is zero and γ = 0 "
     "gives all zeros.",
     ["retention_recurrent"],
     [fix(RR, ("        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # γ S + k_tᵀ v_t\n"
               "        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))             # q_t S\n",
               "        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))             # q_t S\n"
               "        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # γ S + k_tᵀ v_t\n"))])

case("bug_retrec_indexes_full_decay", "bug",
     "retention_recurrent precomputes D = decay_matrix(γ, L) once and, at step t, reads o_t = Σ_m "
     "D[t, m] (q_t·k_m) v_m from row t of it: outputs are exact, but the 'recurrent' face holds an L × L "
     "matrix and does O(t) work per token, no state is carried.",
     ["recurrent_cost", "retention_recurrent"],
     [fix(RR, ("    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)\n", 
               "    D = decay_matrix(g, L)                                       # (..., L, L): γ^(t-m), m <= t\n"),
          ("        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # γ S + k_tᵀ v_t\n"
           "        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))             # q_t S\n",
           "        w = D[..., t, :t + 1].unsqueeze(-1) * (Q[..., t:t + 1, :] * K[..., :t + 1, :]).sum(-1, keepdim=True)\n"
           "        ys.append((w * V[..., :t + 1, :]).sum(dim=-2))                   # Σ_m γ^(t-m) (q_t·k_m) v_m\n"))])

# ============================================================================= bugs: retention, chunkwise

case("bug_chunk_cross_gamma_pow_j", "bug",
     "retention_chunkwise scales the cross-chunk term by γ^j instead of γ^(j+1) (forgets that R was last "
     "written one step before the chunk starts): every token after the first chunk reads the carried state one "
     "decay step too strong; the returned state is right, chunk_size >= L is right.",
     ["chunk_boundaries", "retention_chunkwise"],
     [fix(RC, ("        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n",
               "        cross = g ** j * (q @ R)                                 # γ^j q_j R\n"))])

case("bug_chunk_carry_uses_chunk_size", "bug",
     "retention_chunkwise carries R with chunk_size in place of the chunk's real length n, "
     "R ← γ^B R + Σ_s γ^(B-1-s) k_sᵀ v_s: identical while chunks are full, so every output is right (the state "
     "after the last chunk is never read), but after a short last chunk the returned state is over-decayed.",
     ["partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v      # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s\n",
               "        R = g ** chunk_size * R + (k * g ** (chunk_size - 1 - j)).transpose(-2, -1) @ v  # γ^B R + Σ γ^(B-1-s) k_sᵀ v_s\n"))])

case("bug_chunk_intra_without_decay", "bug",
     "retention_chunkwise's intra-chunk term uses torch.tril(q kᵀ) @ v without the decay matrix D_n; the "
     "cross-chunk term and the carried state do decay, so outputs are right only for γ = 1 (and for chunk_size = 1).",
     ["decay_every_form", "chunk_boundaries", "retention_chunkwise"],
     [fix(RC, ("        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v\n",
               "        intra = torch.tril(q @ k.transpose(-2, -1)) @ v\n"))])

case("bug_chunk_raw_gamma_exponents", "bug",
     "retention_chunkwise validates γ with as_gamma but then raises the RAW gamma argument in the cross-chunk "
     "and carry exponents (gamma ** (j + 1), gamma ** n, ...): a float γ is right, but a per-head γ of shape (H,) "
     "broadcasts against the (n, 1) index as (n, H), so per-head decays come out wrong or raise.",
     ["retention_chunkwise"],
     [fix(RC, ("        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n",
               "        cross = gamma ** (j + 1) * (q @ R)                       # γ^(j+1) q_j R\n"),
          ("        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v      # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s\n",
           "        R = gamma ** n * R + (k * gamma ** (n - 1 - j)).transpose(-2, -1) @ v  # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s\n"))])

case("bug_chunk_index_float64", "bug",
     "retention_chunkwise builds the local index j with torch.arange(n, dtype=torch.float64) ('exponents "
     "in double precision'): float64 inputs are unaffected, but for float32 inputs γ^(j+1) and the carried R "
     "become float64, so a single chunk comes back as float64 and from the second chunk on q @ R raises a dtype "
     "error (the notebook's retention cells, not graded, stop there too).",
     ["keeps_dtype"],
     [fix(RC, ("        j = torch.arange(n, dtype=V.dtype, device=V.device).unsqueeze(-1)   # (n, 1): local index\n",
               "        j = torch.arange(n, dtype=torch.float64, device=V.device).unsqueeze(-1)   # (n, 1): local index\n"))])

# ============================================================================= bugs: multiscale, unified

case("bug_multiscale_heads_from_one", "bug",
     "multiscale_decays counts heads from 1, h = 1 .. num_heads: γ = (0.984375, 0.9921875, ...), every head's "
     "decay is one scale too slow.",
     ["multiscale"],
     [fix(MS, ("    h = torch.arange(num_heads, dtype=torch.get_default_dtype())\n",
               "    h = torch.arange(1, num_heads + 1, dtype=torch.get_default_dtype())\n"))])

case("bug_unified_previous_gate", "bug",
     "unified_recurrence scales the old state by the PREVIOUS step's gate, A[..., t - 1] (so t = 0 wraps to "
     "the last gate): identical for linear and retention (constant gates), wrong for any non-constant gate.",
     ["unified_modes"],
     [fix(UR, ("        a_t = A[..., t].unsqueeze(-1).unsqueeze(-1)                          # (..., 1, 1)\n",
               "        a_t = A[..., t - 1].unsqueeze(-1).unsqueeze(-1)                      # (..., 1, 1)\n"))])

case("bug_unified_unknown_mode_is_linear", "bug",
     "unified_recurrence falls back to A_t = 1 for any mode it does not know (else: ones) instead of raising "
     "ValueError: 'softmax' or a typo silently runs linear mode; the three real modes are right.",
     ["unified_modes"],
     [fix(UR, ("    elif mode == \"gated\":\n"
               "        if gate is None:\n"
               "            raise ValueError(\"mode 'gated' needs gate\")\n"
               "        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)\n"
               "        if A.ndim == 0 or A.shape[-1] != L:\n"
               "            raise ValueError(f\"gate must have shape (L,) or (..., L) with L = {L}, got {tuple(A.shape)}\")\n"
               "    else:\n"
               "        raise ValueError(f\"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'\")\n",
               "    elif mode == \"gated\":\n"
               "        if gate is None:\n"
               "            raise ValueError(\"mode 'gated' needs gate\")\n"
               "        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)\n"
               "        if A.ndim == 0 or A.shape[-1] != L:\n"
               "            raise ValueError(f\"gate must have shape (L,) or (..., L) with L = {L}, got {tuple(A.shape)}\")\n"
               "    else:\n"
               "        A = torch.ones(L, dtype=V.dtype, device=V.device)                # default: no gate\n"))])

# ============================================================================= bugs: the notebook

case("bug_nb_example_divides_by_count", "bug",
     "Example 1.1 answered by dividing the blended values by the number of keys (2) instead of the total score "
     "(4): example_1_1: [1.00, 6.00]. Code and everything else as base.",
     ["example_1_1"],
     [nbedit("markdown-008", "example_1_1: [0.50, 3.00]", "example_1_1: [1.00, 6.00]")])

case("bug_nb_your_turn_without_third_token", "bug",
     "'Your turn' read with q = (1, 1) from the example's state S_ex, z_ex, forgetting to add the third token "
     "(the cell prints S_ex instead of S3): (2, 8) / 3 = (0.67, 2.67) is computed and copied into the answers.",
     ["your_turn"],
     [nbedit("code-007", "S3 = S_ex + torch.outer(k3, v3)                                  # [[2, 4], [4, 6]]\n"
                         "z3 = z_ex + k3                                                   # (2, 2)\n",
                         "S3 = S_ex                                                        # the state so far\n"
                         "z3 = z_ex\n"),
      nbedit("markdown-008", "your_turn: [1.50, 2.50]", "your_turn: [0.67, 2.67]")])

case("bug_nb_cost_state_single_matmul", "bug",
     "The cost question counts the state's work as one d × d product only (2 d², forgetting the read qᵀS), "
     "so the ratio is 4 t d / 2 d² = 1562.5: cost_ratio_at_100k: 1560×.",
     ["cost_per_token"],
     [nbedit("code-029", "state_ops = 4 * d**2               # kvᵀ into S, then qᵀS\n",
                         "state_ops = 2 * d**2               # kvᵀ into S\n"),
      nbedit("code-029", "   # t / d = 781.25", "   # 2 t / d = 1562.5"),
      nbedit("markdown-030", "cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 1560×")])

case("bug_nb_ex1_single_token", "bug",
     "Exercise 1 is run on one token per head (Q1 of shape (3, 1, 6): 'a quick check'): the two faces agree "
     "trivially, and the locked check cell stops at its 'at least 2 tokens' assertion.",
     ["ex1_runs"],
     [nbedit("ex1-032", "Q1 = torch.randn(3, 16, 6, generator=g1)           # three heads, 16 tokens, m = 6\n"
                        "K1 = torch.randn(3, 16, 6, generator=g1)\n"
                        "V1 = torch.randn(3, 16, 4, generator=g1)           # d_v = 4\n",
                        "Q1 = torch.randn(3, 1, 6, generator=g1)            # three heads, one token, m = 6\n"
                        "K1 = torch.randn(3, 1, 6, generator=g1)\n"
                        "V1 = torch.randn(3, 1, 4, generator=g1)            # d_v = 4\n")])

case("bug_nb_ex2_only_self_summed_everything", "bug",
     "Exercise 2's only_self sums q_n ⊙ k_n over EVERY axis, (Q2 * K2).sum() * V2 (a forgotten dim=-1), so "
     "each v_n is scaled by Σ_n q_n·k_n instead of its own q_n·k_n: the exercise cell runs and prints False for "
     "the γ = 0 comparison, and the locked check fails ('only_self is not (q_n · k_n) v_n').",
     ["ex2_runs"],
     [nbedit("ex2-037", "only_self = (Q2 * K2).sum(dim=-1, keepdim=True) * V2       # (q_n·k_n) v_n",
                        "only_self = (Q2 * K2).sum() * V2                           # (q_n·k_n) v_n")])

case("bug_nb_ex3_gate_python_list", "bug",
     "Exercise 3's gate is a Python list, gate3 = [0.1, 0.1, 0.95, 0.1, 0.1, 0.95, 0.1, 0.1]: unified_recurrence "
     "accepts it (as_tensor) and the exercise cell runs and prints, but the locked check cell needs a tensor "
     "(gate3.shape) and raises AttributeError.",
     ["ex3_runs"],
     [nbedit("ex3-042", "gate3 = torch.full((8,), 0.1, dtype=torch.float64)\n"
                        "gate3[[2, 5]] = 0.95\n",
                        "gate3 = [0.1, 0.1, 0.95, 0.1, 0.1, 0.95, 0.1, 0.1]\n"),
      nbedit("ex3-042", "gamma=gate3.mean().item())", "gamma=sum(gate3) / len(gate3))"),
      nbedit("ex3-042", "print(\"mean gate:\", gate3.mean().item(),", "print(\"mean gate:\", sum(gate3) / len(gate3),"),
      nbedit("ex3-042", "{gate3[3:t + 1].prod().item():.6g}", "{torch.tensor(gate3[3:t + 1]).prod().item():.6g}")])

case("bug_nb_ex3_high_gate_keeps_own_write", "bug",
     "Exercise 3's written answer misreads the gate: 'the high gate at t = 2 keeps token 2's own write', with "
     "weights 0.95 at t = 3 and 0.90 at t = 4 (the right weights, printed by the cell, are 0.1 and 0.010); the "
     "rest of the answer is fine.",
     ["ex3_selectivity"],
     [nbedit("ex3-selectivity-045",
             "The high gate at t = 2 multiplies the old state S_1, so it preserves what tokens 0 and 1 wrote (kept at 0.95\n"
             "instead of 0.1); it does nothing for token 2's own write, which is weighted by the gates after it: 0.1 at\n"
             "t = 3 and 0.1 · 0.1 = 0.010 at t = 4 (then 0.0095 at t = 5, where the next high gate holds it).",
             "The high gate at t = 2 protects token 2's own write k_2 v_2ᵀ: it stays in the state with weight 0.95 at\n"
             "t = 3 and 0.95 · 0.95 = 0.90 at t = 4, while the tokens written at low-gate steps fade by 0.1 per step.")])

case("bug_nb_ex2_gamma0_is_linear", "bug",
     "Exercise 2's written answer confuses the two ends of the dial: 'with γ = 0 there is no decay, so retention "
     "becomes plain (unnormalized) causal linear attention over all previous tokens'. The code cells are right "
     "(the printed check shows only_self equals γ = 0).",
     ["ex2_gamma0"],
     [nbedit("ex2-gamma0-040",
             "With γ = 0 the decay matrix keeps only its diagonal (0⁰ = 1, every γ^(n-m) with n > m is 0), so D is the\n"
             "identity and o_n = (q_n·k_n) v_n: each token sees only itself. In the recurrence, S_n = 0·S_{n-1} + k_nᵀ v_n\n"
             "throws the whole past away at every step, so retention has no memory at all.",
             "With γ = 0 there is no decay left to apply, so D is the plain causal mask and retention becomes\n"
             "unnormalized causal linear attention: o_n = Σ_{m≤n} (q_n·k_m) v_m, every previous token with equal weight.")])

# ============================================================================= alternatives

case("alt_linpar_ones_column", "alternative",
     "linear_attention_parallel appends a column of ones to V and does ONE masked matmul, A @ [V | 1]: the "
     "first d_v columns are the numerator and the last one the row sum φ(q_i)ᵀz_i; the mask is built with "
     "torch.triu(..., diagonal=1) as a boolean 'future' mask and torch.where.",
     [],
     [alt(LP, '''    fq, fk = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    future = torch.triu(torch.ones(L, L, dtype=torch.bool, device=Q.device), diagonal=1)   # j > i
    A = torch.where(future, torch.zeros((), dtype=fq.dtype, device=fq.device), fq @ fk.mT)
    ones = torch.ones(*V.shape[:-1], 1, dtype=V.dtype, device=V.device)
    both = A @ torch.cat([V, ones], dim=-1)                              # (..., L, d_v + 1)
    return both[..., :-1] / both[..., -1:]
''')])

case("alt_linrec_augmented_state", "alternative",
     "linear_attention_recurrent carries ONE augmented state [S | z] of shape (m, d_v + 1): V gets a column of "
     "ones, so a single update φ(k_t) [v_t, 1]ᵀ and a single read φ(q_t)ᵀ[S | z] give numerator and denominator "
     "together; written with einsum.",
     [],
     [alt(LR, '''    fq, fk = feature_map(Q), feature_map(K)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    Vz = torch.cat([V, torch.ones(*V.shape[:-1], 1, dtype=V.dtype, device=V.device)], dim=-1)
    Sz = torch.zeros(m, d_v + 1, dtype=V.dtype, device=V.device)          # [S | z]
    out = []
    for t in range(L):
        Sz = Sz + torch.einsum("...m,...d->...md", fk[..., t, :], Vz[..., t, :])
        r = torch.einsum("...m,...md->...d", fq[..., t, :], Sz)          # [φ(q)ᵀS, φ(q)ᵀz]
        out.append(r[..., :d_v] / r[..., d_v:])
    if not out:
        return torch.zeros(*_lead(Q, K, V), 0, d_v, dtype=V.dtype, device=V.device)
    return torch.stack(out, dim=-2)
''')])

case("alt_step_outer_by_matmul", "alternative",
     "LinearAttentionState.step casts the stored state with .to(v), builds φ(k) vᵀ as a (m, 1) @ (1, d_v) "
     "matmul and reads φ(q)ᵀS as an elementwise product summed over the key axis.",
     [],
     [alt(ST, '''        fq, fk = feature_map(q), feature_map(k)
        self.S = self.S.to(v) + fk[..., :, None] @ v[..., None, :]      # (..., m, d_v)
        self.z = self.z.to(v) + fk
        num = (fq[..., :, None] * self.S).sum(dim=-2)
        den = (fq * self.z).sum(dim=-1)[..., None]
        return num / den
''')])

case("alt_gamma_isnan_any", "alternative",
     "as_gamma rejects NaN explicitly (torch.isnan(g).any()) and then checks the bounds with (g < 0).any() / "
     "(g > 1).any(); the two trailing dims come from g.view(*g.shape, 1, 1).",
     [],
     [alt(ASG, '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if torch.isnan(g).any() or (g < 0).any() or (g > 1).any():
        raise ValueError(f"gamma must lie in [0, 1] (and not be NaN), got {gamma!r}")
    return g.view(*g.shape, 1, 1)
''')])

case("alt_decay_cumprod", "alternative",
     "decay_matrix without any power: a matrix holding γ strictly below the diagonal and 1 elsewhere, "
     "multiplied down each column with torch.cumprod (D[n, m] = γ · γ ⋯ γ, n - m times) and then tril'ed; "
     "γ = 0 gives the identity and γ = 1 exact ones.",
     [],
     [alt(DM, '''    idx = torch.arange(L, device=gamma.device)
    below = idx[:, None] > idx[None, :]                                  # n > m
    one = torch.ones((), dtype=gamma.dtype, device=gamma.device)
    G = torch.where(below, gamma, one)                                   # (..., L, L)
    return torch.cumprod(G, dim=-2).tril()                               # Π_{r=m+1..n} γ = γ^(n-m)
''')])

case("alt_retpar_einsum", "alternative",
     "retention_parallel with two einsums, scores '...im,...jm->...ij' and output '...ij,...jd->...id' applied "
     "to scores ⊙ D.",
     [],
     [alt(RP, '''    g = as_gamma(gamma, Q)
    L = Q.shape[-2]
    scores = torch.einsum("...im,...jm->...ij", Q, K)
    return torch.einsum("...ij,...jd->...id", scores * decay_matrix(g, L), V)
''')])

case("alt_retrec_via_unified", "alternative",
     "retention_recurrent delegates to unified_recurrence(Q, K, V, 'retention', gamma=gamma), the one loop with "
     "A_t = γ (which validates γ with as_gamma and carries an (m, d_v) state).",
     [],
     [alt(RR, '''    return unified_recurrence(Q, K, V, "retention", gamma=gamma)
''')])

case("alt_chunk_sliced_local_decays", "alternative",
     "retention_chunkwise precomputes the decays of a full chunk once (D_B, γ^(j+1), γ^(B-1-s) and γ^B) and "
     "slices them for a short last chunk (D_B[:n, :n], γ^(j+1)[:n], and the last n entries of γ^(B-1-s), which "
     "are γ^(n-1-s)); the carry is written as an einsum.",
     [],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    B = max(1, min(chunk_size, L))
    jj = torch.arange(B, dtype=V.dtype, device=V.device)[:, None]       # (B, 1)
    D_full = decay_matrix(g, B)                                          # (..., B, B)
    cross_w = g ** (jj + 1)                                              # (..., B, 1): γ^(j+1)
    write_w = g ** (B - 1 - jj)                                          # (..., B, 1): γ^(B-1-s)
    R = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    pieces = []
    for c0 in range(0, L, B):
        q, k, v = Q[..., c0:c0 + B, :], K[..., c0:c0 + B, :], V[..., c0:c0 + B, :]
        n = q.shape[-2]
        D = D_full[..., :n, :n]
        pieces.append(((q @ k.mT) * D) @ v + cross_w[..., :n, :] * (q @ R))
        w = write_w[..., B - n:, :]                                      # γ^(n-1-s), s = 0..n-1
        R = g ** n * R + torch.einsum("...sm,...sd->...md", k * w, v)
    out = torch.cat(pieces, dim=-2) if pieces else torch.zeros(*_lead(Q, K, V, g[..., 0, 0]), 0, d_v,
                                                                  dtype=V.dtype, device=V.device)
    if return_state:
        return out, R.expand(*out.shape[:-2], m, d_v).clone()
    return out
''')])

case("alt_multiscale_half_powers", "alternative",
     "multiscale_decays as 1 - 0.5 ** (5 + h), with the half as a default-dtype tensor and h = arange(num_heads) "
     "(an integer exponent tensor).",
     [],
     [alt(MS, '''    half = torch.full((num_heads,), 0.5)                                 # default float dtype
    return 1 - half ** (5 + torch.arange(num_heads))
''')])

case("alt_unified_gate_function", "alternative",
     "unified_recurrence turns the mode into a small function gate_at(t) returning A_t shaped to broadcast "
     "against the state (None for linear mode: the old state is then kept as it is), and runs one einsum loop.",
     [],
     [alt(UR, '''    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    if mode == "linear":
        def gate_at(t):
            return None
    elif mode == "retention":
        if gamma is None:
            raise ValueError("retention needs gamma")
        g = as_gamma(gamma, V)                                           # (..., 1, 1)

        def gate_at(t):
            return g
    elif mode == "gated":
        if gate is None:
            raise ValueError("gated needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)
        if A.dim() == 0 or A.shape[-1] != L:
            raise ValueError("gate must have shape (L,) or (..., L)")

        def gate_at(t):
            return A[..., t, None, None]
    else:
        raise ValueError(f"unknown mode: {mode!r}")
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        a = gate_at(t)
        kv = torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :])
        S = (S if a is None else a * S) + kv
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    if not ys:
        extra = [gate_at(0)[..., 0, 0]] if mode != "linear" and L > 0 else []
        return torch.zeros(*_lead(Q, K, V, *extra), 0, d_v, dtype=V.dtype, device=V.device)
    return torch.stack(ys, dim=-2)
''')])

# ============================================================================= stubs

STUB_HEAD = '''"""Linear attention and retention: {what}."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1
'''

STUB_ZEROS = STUB_HEAD.replace("{what}", "zeros of the right shape everywhere") + '''

def _zeros(Q, V):
    return torch.zeros(*Q.shape[:-1], V.shape[-1], dtype=V.dtype)


def linear_attention_parallel(Q, K, V):
    return _zeros(Q, V)


def linear_attention_recurrent(Q, K, V):
    return _zeros(Q, V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return torch.zeros_like(v)


def as_gamma(gamma, like):
    return torch.zeros(1, 1, dtype=like.dtype)


def decay_matrix(gamma, L):
    return torch.zeros(L, L, dtype=gamma.dtype)


def retention_parallel(Q, K, V, gamma):
    return _zeros(Q, V)


def retention_recurrent(Q, K, V, gamma):
    return _zeros(Q, V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _zeros(Q, V)
    return (out, torch.zeros(K.shape[-1], V.shape[-1], dtype=V.dtype)) if return_state else out


def multiscale_decays(num_heads):
    return torch.zeros(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _zeros(Q, V)


def gated_delta_rule(Q, K, V, alpha, beta):
    return _zeros(Q, V)
'''

STUB_RANDOM = STUB_HEAD.replace("{what}", "random tensors of the right shape") + '''

def _rand(Q, V):
    return torch.randn(*Q.shape[:-1], V.shape[-1], dtype=V.dtype)


def linear_attention_parallel(Q, K, V):
    return _rand(Q, V)


def linear_attention_recurrent(Q, K, V):
    return _rand(Q, V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.randn(m, d_v)
        self.z = torch.rand(m)

    def step(self, q, k, v):
        return torch.randn_like(v)


def as_gamma(gamma, like):
    return torch.rand(1, 1, dtype=like.dtype)


def decay_matrix(gamma, L):
    return torch.rand(L, L, dtype=gamma.dtype).tril()


def retention_parallel(Q, K, V, gamma):
    return _rand(Q, V)


def retention_recurrent(Q, K, V, gamma):
    return _rand(Q, V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _rand(Q, V)
    return (out, torch.randn(*Q.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)) if return_state else out


def multiscale_decays(num_heads):
    return torch.rand(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _rand(Q, V)


def gated_delta_rule(Q, K, V, alpha, beta):
    return _rand(Q, V)
'''

NONSENSE_CELLS = {
    "markdown-008": "**Worked examples: your numbers** (vectors as `[a, b]`, two decimal places)\n\n```yaml\n"
                    "example_1_1: [0.00, 0.00]\nyour_turn: [0.00, 0.00]\n```",
    "markdown-030": "**Cost per token: your number** (a number followed by `×`, three significant figures)\n\n```yaml\n"
                    "cost_ratio_at_100k: 1×\n```",
    "ex1-032": "import torch\nQ1 = K1 = V1 = torch.zeros(4, 2)\ny_par1 = y_rec1 = torch.zeros(4, 2)\nprint(\"same\")",
    "ex2-037": "import torch\nQ2 = K2 = V2 = torch.ones(3, 2)\nby_hand = only_self = torch.ones(3, 2)\nprint(by_hand)",
    "ex3-042": "import torch\nQ3 = K3 = V3 = torch.ones(8, 2)\ngate3 = torch.ones(8)\ny_gated = torch.ones(8, 2)\nprint(gate3)",
    "ex1-why-035": "**Answer:**\n\nThey are the same code.",
    "ex2-gamma0-040": "**Answer:**\n\nNothing happens.",
    "ex3-selectivity-045": "**Answer:**\n\nGates are good.",
}

case("stub_template_untouched", "stub",
     "the untouched template folder: every stub raises NotImplementedError, exercise cells raise, the answers "
     "cells and written answers are empty.",
     "ALL", edits=[], module=None, source=TEMPLATE)

case("stub_zeros_template_notebook", "stub",
     "every function returns zeros of the right shape (as_gamma zeros, decay_matrix zeros, multiscale_decays "
     "zeros, a zero state); feature_map as provided; the template notebook left as given.",
     "ALL", module=STUB_ZEROS, source=TEMPLATE)

case("stub_random_placeholder_notebook", "stub",
     "every function returns random tensors of the right shape (torch.randn / torch.rand); the notebook has "
     "placeholder exercise cells (zeros and ones, no call to the module), answers [0.00, 0.00] twice and 1×, and "
     "three-word written answers.",
     "ALL", module=STUB_RANDOM, cells=NONSENSE_CELLS, source=TEMPLATE)


# ----------------------------------------------------------------------------- build

BASE_ABOUT = ("careful complete submission: every stub implemented from its docstring (running-state recurrent "
              "forms and step, chunkwise with a carried state and the real length of a short last chunk, "
              "per-head γ, the optional gated delta rule too); notebook exercises, answers and written answers "
              "filled in")


def build():
    rubric_ids = [item["id"] for item in yaml.safe_load((BASE / "rubric.yaml").read_text())["items"]]
    base_nb = (BASE / NB).read_text()
    template_py = (TEMPLATE / PY).read_text()
    entries = [dict(name="base", kind="alternative", about=BASE_ABOUT, should_lose=[])]
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    for c in CASES:
        dest = HERE / c["name"]
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(c["source"], dest, ignore=IGNORE)
        py = (dest / PY).read_text() if c["module"] is None else c["module"]
        nb = json.loads((dest / NB).read_text())
        for e in c["edits"]:
            if e[0] == "py":
                py = apply_py(py, e[1], e[2], c["name"])
            else:
                apply_nb(nb, e[1], e[2], e[3], c["name"])
        for cell_id, text in (c["cells"] or {}).items():
            cells = [x for x in nb["cells"] if x.get("id") == cell_id]
            assert len(cells) == 1, (c["name"], cell_id)
            cells[0]["source"] = to_lines(text)
        (dest / PY).write_text(py)
        (dest / NB).write_text(dump_nb(nb))
        ast.parse(py)
        json.loads((dest / NB).read_text())
        lose = rubric_ids if c["should_lose"] is None else c["should_lose"]
        assert set(lose) <= set(rubric_ids), (c["name"], set(lose) - set(rubric_ids))
        if c["kind"] == "alternative":
            assert not lose and c["source"] == BASE and c["module"] is None and not c["cells"], c["name"]
            assert (dest / NB).read_text() == base_nb, c["name"]
        else:
            assert lose, c["name"]
        if c["kind"] == "stub":
            assert c["source"] == TEMPLATE
            assert py != BASE_PY
        else:
            changed = py != BASE_PY or (dest / NB).read_text() != base_nb
            assert changed, c["name"]
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=list(lose)))
    assert (HERE / "stub_template_untouched" / PY).read_text() == template_py
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 17, linear-attention-basics: one entry per case folder.",
             "# should_lose: rubric.yaml item ids, judged from the rubric titles, the docstrings, the notebook and the",
             "# public tests only (never the grader or hidden checks). Stubs list every rubric item.",
             ""]
    for e in entries:
        lines.append(f"- name: {e['name']}")
        lines.append(f"  kind: {e['kind']}")
        lines.append(f"  about: {json.dumps(e['about'], ensure_ascii=False)}")
        lines.append(f"  should_lose: [{', '.join(e['should_lose'])}]")
    (HERE / "corpus.yaml").write_text("\n".join(lines) + "\n")
    loaded = yaml.safe_load((HERE / "corpus.yaml").read_text())
    assert [e["name"] for e in loaded] == [e["name"] for e in entries]
    assert all(set(e) == {"name", "kind", "about", "should_lose"} for e in loaded)


if __name__ == "__main__":
    es = build()
    kinds = {}
    for e in es:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(len(es), "entries:", kinds)
