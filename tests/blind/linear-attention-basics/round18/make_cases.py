"""Build the round-18 blind corpus from base/: one folder per case, plus corpus.yaml.

Every bug and alternative is a full copy of base/ (the student template folder, completed) with exact,
anchored replacements; a missing or ambiguous anchor stops the build (AssertionError):

- `fix(func, (old, new), ...)`: each `old` must occur exactly once inside `func`'s body in base's
  linear_attention.py (the body after the docstring, found with `ast`; it must itself occur once).
- `alt(func, new_body)`: replaces that whole body.
- `nbedit(cell_id, old, new)`: in the notebook cell with that id, `old` must occur exactly once; the notebook
  is written back the way nbformat writes it (indent 1, UTF-8, trailing newline).

Stubs start from the untouched template folder, or from base/ with the module replaced.

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


def nbedit(cell_id, old, new):
    return ("nb", cell_id, old, new)


def apply_py(text, old, new, name):
    assert text.count(old) == 1, f"{name}: module anchor occurs {text.count(old)} times: {old[:100]!r}"
    assert old != new, f"{name}: edit changes nothing"
    return text.replace(old, new)


def to_lines(text):
    lines = text.split("\n")
    return [ln + "\n" for ln in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def apply_nb(nb, cell_id, old, new, name):
    cells = [c for c in nb["cells"] if c.get("id") == cell_id]
    assert len(cells) == 1, f"{name}: no single cell with id {cell_id}"
    src = "".join(cells[0]["source"])
    assert src.count(old) == 1, f"{name}: cell {cell_id} anchor occurs {src.count(old)} times: {old[:100]!r}"
    assert old != new, f"{name}: edit changes nothing"
    cells[0]["source"] = to_lines(src.replace(old, new))


def dump_nb(nb):
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


CASES = []


def case(name, kind, about, should_lose, edits=(), module=None, source=BASE):
    CASES.append(dict(name=name, kind=kind, about=about, edits=list(edits), module=module, source=source,
                      should_lose=should_lose))


LP, LR, ST, ASG, DM = ("linear_attention_parallel", "linear_attention_recurrent", "LinearAttentionState.step",
                       "as_gamma", "decay_matrix")
RP, RR, RC, MS, UR, GD = ("retention_parallel", "retention_recurrent", "retention_chunkwise", "multiscale_decays",
                          "unified_recurrence", "gated_delta_rule")

RUBRIC_IDS = [item["id"] for item in yaml.safe_load((BASE / "rubric.yaml").read_text())["items"]]
NOTEBOOK_IDS = ["ex1_runs", "ex2_runs", "ex3_runs", "example_1_1", "your_turn", "ex1_why", "ex2_gamma0",
                "ex3_selectivity", "cost_per_token"]
CODE_IDS = [i for i in RUBRIC_IDS if i not in NOTEBOOK_IDS]

# ============================================================================= bugs: linear attention

case("bug_linrec_exp_feature_map", "bug",
     "linear_attention_recurrent uses torch.exp as φ ('any positive feature map will do') instead of the module's "
     "feature_map = elu + 1: outputs are positive-weighted averages (constant values and one token come back), "
     "but they are a different function from the parallel face and the step, which use elu + 1.",
     ["feature_map", "linear_recurrent"],
     [fix(LR, ("    phi_q, phi_k = feature_map(Q), feature_map(K)\n",
               "    phi_q, phi_k = torch.exp(Q), torch.exp(K)                    # a positive feature map\n"))])

case("bug_step_raw_key", "bug",
     "LinearAttentionState.step applies φ to the query only and folds the RAW key into S and z (φ(q)ᵀ(Σ k vᵀ) / "
     "φ(q)ᵀ(Σ k)): the normalizer can reach zero or change sign, so steps disagree with the two other faces "
     "(one token still returns v).",
     ["feature_map", "state_step"],
     [fix(ST, ("        phi_q, phi_k = feature_map(q), feature_map(k)\n",
               "        phi_q, phi_k = feature_map(q), k                         # the key goes in as it is\n"))])

case("bug_linpar_triu_mask", "bug",
     "linear_attention_parallel builds its mask with .triu() instead of .tril(): row i mixes tokens j >= i (the "
     "future) instead of j <= i; rows are still normalized, so constant values and one token come back.",
     ["causal_mask", "linear_parallel"],
     [fix(LP, ("    causal = torch.ones(L, L, dtype=torch.bool, device=Q.device).tril()\n",
               "    causal = torch.ones(L, L, dtype=torch.bool, device=Q.device).triu()\n"))])

case("bug_linpar_rowsum_before_mask", "bug",
     "linear_attention_parallel takes the row sums of A BEFORE masking it (den = A.sum(-1) of the full L × L "
     "scores) and divides the masked A @ V by them: row i is divided by φ(q_i)·Σ_{all j} φ(k_j), so early rows "
     "are shrunk and depend on later keys; the last row is right.",
     ["running_normalizer", "causal_mask", "linear_parallel"],
     [fix(LP, ("    A = phi_q @ phi_k.transpose(-2, -1)                          # (..., L, L): φ(q_i)·φ(k_j)\n",
               "    A = phi_q @ phi_k.transpose(-2, -1)                          # (..., L, L): φ(q_i)·φ(k_j)\n"
               "    den = A.sum(dim=-1, keepdim=True)                            # φ(q_i)ᵀ z\n"),
          ("    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # row sum = φ(q_i)ᵀ z_i\n",
           "    return (A @ V) / den\n"))])

case("bug_linpar_mask_float64", "bug",
     "linear_attention_parallel masks by multiplying with torch.ones(L, L, dtype=torch.float64).tril(): float64 "
     "inputs are exact, but float32 scores are promoted to float64 and A @ V then fails on the float32 values "
     "(RuntimeError: expected Double but found Float), so float32 inputs do not work in this face (the public "
     "worked-example test, whose tensors are float32, fails for the parallel face too).",
     ["keeps_dtype", "linear_parallel"],
     [fix(LP, ("    causal = torch.ones(L, L, dtype=torch.bool, device=Q.device).tril()\n"
               "    A = torch.where(causal, A, torch.zeros((), dtype=A.dtype, device=A.device))   # zero j > i\n",
               "    causal = torch.ones(L, L, dtype=torch.float64, device=Q.device).tril()\n"
               "    A = A * causal                                               # zero j > i\n"))])

case("bug_linrec_S_after_read", "bug",
     "linear_attention_recurrent adds φ(k_t) to z before the read but updates S only AFTER reading y_t: the "
     "numerator misses token t (φ(q_t)ᵀS_{t-1}), so token 0 reads zeros and constant values do not come back.",
     ["update_before_read", "linear_recurrent"],
     [fix(LR, ("        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)            # S ← S + φ(k_t) v_tᵀ (update first)\n", ""),
          ("        ys.append(num / den)\n",
           "        ys.append(num / den)\n"
           "        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)            # S ← S + φ(k_t) v_tᵀ\n"))])

case("bug_linrec_den_no_keepdim", "bug",
     "linear_attention_recurrent's denominator drops keepdim, (φ(q_t) * z).sum(dim=-1) of shape (...,): for one "
     "unbatched sequence (the notebook's) num (d_v,) / den () is right, but with leading batch/head dims "
     "(B, d_v) / (B,) broadcasts against the value axis (an error, or wrong numbers when B == d_v).",
     ["linear_recurrent"],
     [fix(LR, ("        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z, (..., 1)\n",
               "        den = (q_t * z).sum(dim=-1)                              # φ(q_t)ᵀ z\n"))])

case("bug_step_reads_before_update", "bug",
     "LinearAttentionState.step reads y = φ(q)ᵀS / φ(q)ᵀz from the state BEFORE folding (k, v) in (the "
     "'predict the next token' habit): the first token divides 0 by 0 (NaN) and every later read misses its own "
     "token.",
     ["update_before_read", "state_step"],
     [alt(ST, '''        phi_q, phi_k = feature_map(q), feature_map(k)
        S = self.S.to(dtype=v.dtype, device=v.device)            # __init__'s zeros are float32
        z = self.z.to(dtype=v.dtype, device=v.device)
        num = (phi_q.unsqueeze(-2) @ S).squeeze(-2)              # read the state ...
        den = (phi_q * z).sum(dim=-1, keepdim=True)
        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # ... then fold the token in
        self.z = z + phi_k
        return num / den
''')])

case("bug_step_torch_outer", "bug",
     "LinearAttentionState.step builds φ(k) vᵀ with torch.outer(phi_k, v): right for one unbatched token (the "
     "notebook's decoding cell passes), but torch.outer only takes 1-D tensors, so a batch of heads "
     "(q, k of shape (B, m)) raises.",
     ["state_step"],
     [fix(ST, ("        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # update first: S + φ(k) vᵀ (new tensors)\n",
               "        self.S = S + torch.outer(phi_k, v)                       # update first: S + φ(k) vᵀ\n"))])

# ============================================================================= bugs: gamma, decay matrix, retention

case("bug_gamma_only_upper_bound", "bug",
     "as_gamma only checks the upper bound, raising if (g > 1).any(): γ = 1.5 raises, but negative γ (-0.1) and "
     "NaN are accepted and every retention form runs with them.",
     ["gamma_validation"],
     [fix(ASG, ("    ok = (g >= 0) & (g <= 1)                                     # False for NaN as well\n"
                "    if not bool(ok.all()):\n",
                "    if bool((g > 1).any()):                                      # γ > 1 would diverge\n"))])

case("bug_decay_clamp_no_mask", "bug",
     "decay_matrix clamps the distance at 0 and returns gamma ** distance.clamp(min=0) without zeroing the "
     "entries above the diagonal: they are γ^0 = 1, so retention_parallel and the chunkwise intra-chunk term "
     "read every future token (within a chunk) at full weight.",
     ["causal_mask", "retention_parallel", "retention_chunkwise"],
     [fix(DM, ("    return torch.where(distance >= 0, powers, torch.zeros((), dtype=gamma.dtype, device=gamma.device))\n",
               "    return powers                                                # clamped, so no negative powers\n"))])

case("bug_retpar_L_from_dim0", "bug",
     "retention_parallel sizes the decay matrix with Q.shape[0] instead of Q.shape[-2]: right for one unbatched "
     "sequence (the notebook's exercises), but with leading dims D is (B × B) and the product with the L × L "
     "scores fails (or is wrong where the sizes happen to broadcast).",
     ["retention_parallel"],
     [fix(RP, ("    D = decay_matrix(g, Q.shape[-2])                             # (..., L, L)\n",
               "    D = decay_matrix(g, Q.shape[0])                              # (..., L, L)\n"))])

case("bug_retrec_outer_v_k", "bug",
     "retention_recurrent adds v_t k_tᵀ (V[..., t, :, None] * K[..., t, None, :]) to the (m, d_v) state: with "
     "m ≠ d_v the shapes do not broadcast and it raises; with m == d_v it runs and returns Σ γ^(n-m) (q_n·v_m) k_m, "
     "the wrong function.",
     ["kv_orientation", "retention_recurrent"],
     [fix(RR, ("        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # decay, then add k_tᵀ v_t\n",
               "        S = g * S + V[..., t, :].unsqueeze(-1) * K[..., t, :].unsqueeze(-2)   # decay, then add k_tᵀ v_t\n"))])

case("bug_retrec_skips_as_gamma", "bug",
     "retention_recurrent uses the raw gamma argument (g = gamma) instead of as_gamma(gamma, Q): a float γ in "
     "[0, 1] is right, but 1.5 / -0.1 / NaN are not rejected by this form, and a per-head γ of shape (H,) "
     "broadcasts against the value axis of S (error or wrong numbers).",
     ["gamma_validation", "retention_recurrent"],
     [fix(RR, ("    g = as_gamma(gamma, Q)                                       # (..., 1, 1)\n",
               "    g = gamma                                                    # the decay\n"))])

case("bug_chunk_R_not_decayed", "bug",
     "retention_chunkwise carries R ← R + Σ_s γ^(n-1-s) k_sᵀ v_s, forgetting to decay the old R by γ^n: every "
     "chunk from the third on reads earlier chunks too strongly, and the returned state is wrong whenever there "
     "are two or more chunks (chunk_size >= L is right).",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v   # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s\n",
               "        R = R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v     # R + Σ γ^(n-1-s) k_sᵀ v_s\n"))])

case("bug_chunk_cross_reads_updated_R", "bug",
     "retention_chunkwise updates the carried R with the current chunk BEFORE computing that chunk's cross term: "
     "each chunk reads its own tokens twice (once in the intra term, once through R, which already holds the "
     "chunk's LATER tokens too), so outputs are wrong for every chunk size and not causal inside a chunk; the "
     "returned state is right.",
     ["causal_mask", "chunk_boundaries", "retention_chunkwise"],
     [fix(RC, ("        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n"
               "        outs.append(intra + cross)\n"
               "        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v   # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s\n",
               "        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v   # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s\n"
               "        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n"
               "        outs.append(intra + cross)\n"))])

case("bug_chunk_range_drops_tail", "bug",
     "retention_chunkwise loops over range(L // chunk_size) chunks: when chunk_size does not divide L the last, "
     "short chunk is never processed (the output has fewer than L rows and the returned state misses the last "
     "tokens), and chunk_size > L returns an empty output.",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("    for c0 in range(0, L, chunk_size):\n",
               "    for c in range(L // chunk_size):                             # one pass per chunk\n"
               "        c0 = c * chunk_size\n"))])

case("bug_chunk_builds_full_decay", "bug",
     "retention_chunkwise builds decay_matrix(γ, L) once before the loop and slices each chunk's D_n out of it: "
     "outputs and state are exact, but the form holds an L × L matrix, so its memory and work grow "
     "quadratically in L (the point of the chunkwise form is lost).",
     ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("    outs = []\n",
               "    D_all = decay_matrix(g, L)                                   # decays for the whole sequence\n"
               "    outs = []\n"),
          ("        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v\n",
           "        intra = ((q @ k.transpose(-2, -1)) * D_all[..., c0:c0 + n, c0:c0 + n]) @ v\n"))])

case("bug_multiscale_int_arange", "bug",
     "multiscale_decays uses an integer torch.arange and the integer base 2: 2 ** (-5 - h) on int64 tensors "
     "truncates to 0, so every head gets γ = 1 and the result is an int64 tensor.",
     ["multiscale"],
     [fix(MS, ("    h = torch.arange(num_heads, dtype=torch.get_default_dtype())\n"
               "    return 1 - 2.0 ** (-5 - h)\n",
               "    h = torch.arange(num_heads)\n"
               "    return 1 - 2 ** (-5 - h)\n"))])

case("bug_unified_decay_after_write", "bug",
     "unified_recurrence applies the gate AFTER the write, S = A_t (S + k_tᵀ v_t): token t's own write is "
     "scaled by A_t too; linear mode (A_t = 1) is right, retention and gated modes carry one gate too many "
     "(γ = 0 / a zero gate gives zeros).",
     ["unified_modes"],
     [fix(UR, ("        S = a_t * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)\n",
               "        S = a_t * (S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2))\n"))])

case("bug_unified_gate_row_index", "bug",
     "unified_recurrence reads the gate as A[t] instead of A[..., t]: for an (L,) gate, linear mode and a float "
     "γ that is the same, but a (B, L) gate or a per-head γ picks row t of the leading axis (a wrong gate "
     "vector, or an IndexError once t >= B).",
     ["unified_modes"],
     [fix(UR, ("        a_t = A[..., t].unsqueeze(-1).unsqueeze(-1)              # (..., 1, 1): scales the OLD state\n",
               "        a_t = A[t]                                               # the gate at step t\n"))])

case("bug_delta_predict_then_decay", "bug",
     "the OPTIONAL gated_delta_rule predicts from the undecayed S_{t-1} and decays afterwards (the other order "
     "the docstring warns about): its public test fails, but the extension is explicitly not graded, so nothing "
     "should be lost; every graded function is as in base.",
     [],
     [fix(GD, ("        S = alpha[..., t, None, None] * S                        # decay first\n"
               "        pred = (k_t.unsqueeze(-2) @ S).squeeze(-2)               # what the decayed state returns for k_t\n",
               "        pred = (k_t.unsqueeze(-2) @ S).squeeze(-2)               # what the state returns for k_t\n"
               "        S = alpha[..., t, None, None] * S                        # then decay\n"))])

# ============================================================================= bugs: notebook

case("bug_nb_your_turn_z_not_updated", "bug",
     "'Your turn': the third key is added to S but not to z (z3 = z_ex), so q·z = 3 instead of 4 and the read "
     "is (6, 10) / 3: your_turn: [2.00, 3.33].",
     ["your_turn"],
     [nbedit("code-007", "z3 = z_ex + k3                                                  # (2, 2)\n",
             "z3 = z_ex                                                       # the keys' total\n"),
      nbedit("markdown-008", "your_turn: [1.50, 2.50]", "your_turn: [2.00, 3.33]")])

case("bug_nb_example_reads_S_q", "bug",
     "Example 1.1 answered by multiplying the grid from the other side, S q = (10, 8), divided by q·z = 4: "
     "example_1_1: [2.50, 2.00] (with q = (1, 1) the same slip is harmless, so your_turn is right).",
     ["example_1_1"],
     [nbedit("markdown-008", "example_1_1: [0.50, 3.00]", "example_1_1: [2.50, 2.00]")])

case("bug_nb_cost_inverted", "bug",
     "The cost cell divides the state's work by attention's (state_ops / attention_ops = d / t) and reports "
     "that: cost_ratio_at_100k: 0.00128×.",
     ["cost_per_token"],
     [nbedit("code-029", 'print("attention / state at t = 100,000:", attention_ops / state_ops)   # = t / d = 781.25',
             'print("ratio at t = 100,000:", state_ops / attention_ops)'),
      nbedit("markdown-030", "cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 0.00128×")])

case("bug_nb_ex1_lesson_inputs", "bug",
     "Exercise 1 makes Q1, K1, V1 but runs both faces on the lesson's Q, K, V (y_par1 = "
     "linear_attention_parallel(Q, K, V), same for y_rec1): the cell prints True, but the locked check finds that "
     "y_par1 is not the module's output on Q1, K1, V1 and stops.",
     ["ex1_runs"],
     [nbedit("ex1-032", "y_par1 = linear_attention_parallel(Q1, K1, V1)\ny_rec1 = linear_attention_recurrent(Q1, K1, V1)\n",
             "y_par1 = linear_attention_parallel(Q, K, V)\ny_rec1 = linear_attention_recurrent(Q, K, V)\n")])

case("bug_nb_ex2_by_hand_no_tril", "bug",
     "Exercise 2's by_hand forgets the causal mask, (Q2 K2ᵀ) V2: the cell prints False for the γ = 1 "
     "comparison and the locked check stops ('by_hand is not (Q2 K2ᵀ ⊙ tril) V2').",
     ["ex2_runs"],
     [nbedit("ex2-037", "by_hand = torch.tril(Q2 @ K2.T) @ V2                             # causal, unnormalized, no decay",
             "by_hand = (Q2 @ K2.T) @ V2                                       # unnormalized, no decay")])

case("bug_nb_ex3_gate_one_indexed", "bug",
     "Exercise 3 counts positions from 1: 'positions 2 and 5' become indices 1 and 4 (gate3[[1, 4]] = 0.95); the "
     "exercise cell runs, but the locked check stops ('gate3 is high only at positions 2 and 5').",
     ["ex3_runs"],
     [nbedit("ex3-042", "gate3[[2, 5]] = 0.95", "gate3[[1, 4]] = 0.95                                            # the 2nd and 5th positions")])

case("bug_nb_ex1_why_positivity", "bug",
     "Exercise 1's written answer gives the wrong reason: the faces agree 'because φ = elu + 1 is positive, so "
     "the normalizer never vanishes', never mentioning that the sum over j ≤ i factorizes through φ(q_i) and "
     "regroups (associativity) into a running prefix sum.",
     ["ex1_why"],
     [nbedit("ex1-why-035",
             "Because φ(q_i)·φ(k_j) factorizes, the numerator Σ_{j≤i} (φ(q_i)·φ(k_j)) v_j = φ(q_i)ᵀ Σ_{j≤i} φ(k_j) v_jᵀ\n"
             "(and likewise the denominator = φ(q_i)ᵀ Σ_{j≤i} φ(k_j)): by linearity/associativity of the sum, φ(q_i) can be\n"
             "pulled out of the sum over j, and what is left depends on i only through the upper limit j ≤ i, so it is a\n"
             "prefix (running) sum S_i, z_i that the recurrent form builds one token at a time. Both forms compute the same\n"
             "sums, only in a different order, so they agree up to floating-point rounding.",
             "They must agree because the feature map φ = elu + 1 is always positive: every score φ(q_i)·φ(k_j) is\n"
             "positive, so the normalizer never vanishes or flips sign and both forms divide by the same well-defined\n"
             "positive number. With a feature map that can go negative the two forms could disagree.")])

case("bug_nb_ex2_gamma0_zeros", "bug",
     "Exercise 2's written answer: 'with γ = 0 every decay weight γ^(n-m) is 0, so the state is wiped and the "
     "output is all zeros' (forgets 0⁰ = 1 on the diagonal; the printed check in the cell shows only_self).",
     ["ex2_gamma0"],
     [nbedit("ex2-gamma0-040",
             "With γ = 0 the decay matrix keeps only its diagonal (0⁰ = 1, while 0^(n−m) = 0 for every m < n), so each\n"
             "output is o_n = (q_n·k_n) v_n: every token sees only itself, its own value scaled by its own query-key score,\n"
             "with no memory of earlier tokens. In the recurrent form, S_n = 0·S_{n−1} + k_nᵀv_n wipes the state before each\n"
             "write. γ = 0 is the \"remember only now\" end of the dial (γ = 1 is \"remember everything\").",
             "With γ = 0 every decay weight γ^(n−m) is 0, so the decay matrix is all zeros: the state is wiped at every\n"
             "step and retention's output becomes all zeros, nothing is remembered at all. γ = 0 is the \"remember\n"
             "nothing\" end of the dial (γ = 1 is \"remember everything\").")])

case("bug_nb_ex3_differ_only_at_high", "bug",
     "Exercise 3's written answer says the gated and fixed-γ outputs differ ONLY at t = 2 and t = 5 ('where the "
     "gate is high'), though the cell prints every t >= 1 (the gate differs from the mean 0.3125 at every step); "
     "the weights 0.1 and 0.010 and the selectivity argument are right.",
     ["ex3_selectivity"],
     [nbedit("ex3-selectivity-045",
             "The gated and fixed-γ (γ = mean gate\n"
             "= 0.3125) outputs agree at t = 0 (the state starts empty, so A_0 has nothing to scale) and differ at every\n"
             "t ≥ 1, because from t = 1 on the state has been scaled by 0.1 or 0.95 instead of 0.3125.",
             "The gated and fixed-γ (γ = mean gate\n"
             "= 0.3125) outputs differ only at t = 2 and t = 5, the two positions where the gate is high; at the other\n"
             "positions both forget quickly, so they agree there.")])

# ============================================================================= correct alternatives

case("alt_linpar_normalize_then_matmul", "alternative",
     "linear_attention_parallel with einsum scores, masked_fill of a boolean 'future' mask (triu, diagonal=1), "
     "and the rows normalized BEFORE the product: W = A / A.sum(-1), y = W @ V.",
     [],
     [alt(LP, '''    fq, fk = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    future = torch.triu(torch.ones(L, L, dtype=torch.bool, device=Q.device), diagonal=1)
    A = torch.einsum("...im,...jm->...ij", fq, fk).masked_fill(future, 0.0)
    W = A / A.sum(dim=-1, keepdim=True)                              # each row sums to 1
    return W @ V
''')])

case("alt_linpar_cumsum_states", "alternative",
     "linear_attention_parallel as prefix sums: S_i = cumsum over tokens of φ(k_j) v_jᵀ (an (..., L, m, d_v) "
     "tensor) and z_i = cumsum of φ(k_j), read with φ(q_i); exact, but never builds the L × L score matrix the "
     "docstring mentions.",
     [],
     [alt(LP, '''    fq, fk = feature_map(Q), feature_map(K)
    S = torch.cumsum(fk.unsqueeze(-1) * V.unsqueeze(-2), dim=-3)    # (..., L, m, d_v): S_i = Σ_{j<=i} φ(k_j) v_jᵀ
    z = torch.cumsum(fk, dim=-2)                                    # (..., L, m):      z_i = Σ_{j<=i} φ(k_j)
    num = (fq.unsqueeze(-2) @ S).squeeze(-2)                        # φ(q_i)ᵀ S_i
    den = (fq * z).sum(dim=-1, keepdim=True)                        # φ(q_i)ᵀ z_i
    return num / den
''')])

case("alt_linrec_transposed_state", "alternative",
     "linear_attention_recurrent keeps its internal state transposed, Sᵀ = Σ v_j φ(k_j)ᵀ of shape (d_v, m), and "
     "reads it consistently as Sᵀ φ(q_t): the same numbers as φ(q_t)ᵀS; the state is local to the function "
     "(never returned or stored), so the layout is invisible.",
     [],
     [alt(LR, '''    fq, fk = feature_map(Q), feature_map(K)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    S_T = torch.zeros(d_v, m, dtype=V.dtype, device=V.device)      # Sᵀ = Σ v_j φ(k_j)ᵀ
    z = torch.zeros(m, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        S_T = S_T + V[..., t, :, None] * fk[..., t, None, :]        # add v_t φ(k_t)ᵀ
        z = z + fk[..., t, :]
        num = (S_T @ fq[..., t, :, None]).squeeze(-1)               # Sᵀ φ(q_t) = φ(q_t)ᵀ S
        ys.append(num / (fq[..., t, :] * z).sum(dim=-1, keepdim=True))
    if not ys:
        return V.new_zeros(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), 0, d_v)
    return torch.stack(ys, dim=-2)
''')])

case("alt_linrec_via_state_steps", "alternative",
     "linear_attention_recurrent reuses the decoding face: a fresh LinearAttentionState stepped through the tokens "
     "(constant work per token, the state carried), outputs stacked along dim -2.",
     [],
     [alt(LR, '''    state = LinearAttentionState(K.shape[-1], V.shape[-1])
    ys = [state.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])]
    if not ys:
        return V.new_zeros(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), 0, V.shape[-1])
    return torch.stack(ys, dim=-2)
''')])

case("alt_gamma_clamp_equal", "alternative",
     "as_gamma validates with torch.equal(g.clamp(0, 1), g) (NaN never equals itself, so NaN raises too) and "
     "adds the two trailing dims with g[..., None, None].",
     [],
     [alt(ASG, '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if not torch.equal(g.clamp(0.0, 1.0), g):                   # out of [0, 1], or NaN
        raise ValueError(f"gamma must be in [0, 1], got {gamma!r}")
    return g[..., None, None]
''')])

case("alt_decay_log_space", "alternative",
     "decay_matrix in log space: exp(distance · log γ) on the clamped distance, with the diagonal set to 1 "
     "explicitly (0 · log 0 would be NaN at γ = 0) and the upper triangle zeroed with torch.where; log 0 = -inf "
     "gives exp(-inf) = 0 below the diagonal at γ = 0.",
     [],
     [alt(DM, '''    L = int(L)
    idx = torch.arange(L, device=gamma.device)
    dist = (idx[:, None] - idx[None, :]).to(gamma.dtype)         # n - m
    E = torch.exp(dist.clamp(min=0) * torch.log(gamma))          # γ^(n-m) via logs
    E = torch.where(dist == 0, torch.ones_like(E), E)            # 0**0 = 1 (0 · -inf is NaN)
    return torch.where(dist >= 0, E, torch.zeros_like(E))        # zero the upper triangle
''')])

case("alt_decay_tril_signed_power", "alternative",
     "decay_matrix raises γ to the SIGNED distance and keeps the lower triangle with torch.tril: the entries "
     "above the diagonal (γ^negative, inf at γ = 0) are replaced by zeros, not multiplied, so no NaN appears "
     "and γ = 0 gives the identity.",
     [],
     [alt(DM, '''    idx = torch.arange(int(L), device=gamma.device)
    distance = (idx[:, None] - idx[None, :]).to(gamma.dtype)     # n - m, negative above the diagonal
    return torch.tril(gamma ** distance)                         # tril drops the upper triangle (inf included)
''')])

case("alt_retpar_flatten_bmm", "alternative",
     "retention_parallel flattens the broadcast leading dims into one batch axis (γ's head axis included), "
     "runs two torch.bmm calls on (B, L, m) tensors and reshapes back.",
     [],
     [alt(RP, '''    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    B = 1
    for s in lead:
        B *= s
    Qf = Q.expand(*lead, L, m).reshape(B, L, m)
    Kf = K.expand(*lead, L, m).reshape(B, L, m)
    Vf = V.expand(*lead, L, d_v).reshape(B, L, d_v)
    Df = decay_matrix(g, L).expand(*lead, L, L).reshape(B, L, L)
    out = torch.bmm(torch.bmm(Qf, Kf.transpose(1, 2)) * Df, Vf)
    return out.reshape(*lead, L, d_v)
''')])

case("alt_retrec_preallocated_output", "alternative",
     "retention_recurrent writes each o_t into a preallocated output (V.new_empty) instead of stacking a list; "
     "the state is pre-broadcast to the leading dims and updated with S.mul(g).add(einsum k_t v_tᵀ).",
     [],
     [alt(RR, '''    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    out = V.new_empty(*lead, L, d_v)
    S = V.new_zeros(*lead, m, d_v)
    for t in range(L):
        S = S.mul(g).add(torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :]))
        out[..., t, :] = torch.einsum("...m,...md->...d", Q[..., t, :], S)
    return out
''')])

case("alt_chunk_left_pad", "alternative",
     "retention_chunkwise left-pads Q, K, V with zero tokens so that every chunk is full (chunk length "
     "B = min(chunk_size, L)): zero keys and values add nothing to any output or to R, so one D_B, γ^(j+1) and "
     "γ^(B-1-s) serve every chunk; the padded rows are dropped at the end.",
     [],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    R = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    if L == 0:
        out = V.new_zeros(*lead, 0, d_v)
        return (out, R.expand(*lead, m, d_v).clone()) if return_state else out
    B = min(chunk_size, L)
    pad = (-L) % B
    Qp = torch.cat([Q.new_zeros(*Q.shape[:-2], pad, m), Q], dim=-2)
    Kp = torch.cat([K.new_zeros(*K.shape[:-2], pad, m), K], dim=-2)
    Vp = torch.cat([V.new_zeros(*V.shape[:-2], pad, d_v), V], dim=-2)
    j = torch.arange(B, dtype=V.dtype, device=V.device)[:, None]
    D, cross_w, write_w = decay_matrix(g, B), g ** (j + 1), g ** (B - 1 - j)
    outs = []
    for c0 in range(0, L + pad, B):
        q, k, v = Qp[..., c0:c0 + B, :], Kp[..., c0:c0 + B, :], Vp[..., c0:c0 + B, :]
        outs.append(((q @ k.transpose(-2, -1)) * D) @ v + cross_w * (q @ R))
        R = g ** B * R + (k * write_w).transpose(-2, -1) @ v
    out = torch.cat(outs, dim=-2)[..., pad:, :]
    if return_state:
        return out, R.expand(*lead, m, d_v).clone()
    return out
''')])

case("alt_chunk_carry_by_steps", "alternative",
     "retention_chunkwise computes the intra-chunk term and the cross term as base does, but carries R across "
     "the chunk with an inner recurrent loop, R ← γ R + k_sᵀ v_s for each token of the chunk (equal to "
     "γ^n R + Σ γ^(n-1-s) k_sᵀ v_s; still linear in L).",
     [],
     [fix(RC, ("        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v   # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s\n",
               "        for s in range(n):                                       # carry R through the chunk token by token\n"
               "            R = g * R + k[..., s, :].unsqueeze(-1) * v[..., s, :].unsqueeze(-2)\n"))])

case("alt_multiscale_exp2", "alternative",
     "multiscale_decays as 1 - torch.exp2(-5.0 - h) with h = arange(num_heads) in the default float dtype.",
     [],
     [alt(MS, '''    return 1 - torch.exp2(-5.0 - torch.arange(num_heads, dtype=torch.get_default_dtype()))
''')])

case("alt_unified_parallel_products", "alternative",
     "unified_recurrence builds the gate sequence A as base does (same checks), then computes the output in "
     "parallel form: M[t, s] = A_{s+1} ⋯ A_t from a cumprod down the columns of a matrix holding A_t below the "
     "diagonal and 1 elsewhere, masked causally, y = ((Q Kᵀ) ⊙ M) V (no loop; zero gates are fine).",
     [],
     [fix(UR, ("    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)\n"
               "    ys = []\n"
               "    for t in range(L):\n"
               "        a_t = A[..., t].unsqueeze(-1).unsqueeze(-1)              # (..., 1, 1): scales the OLD state\n"
               "        S = a_t * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)\n"
               "        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))\n"
               "    if not ys:\n"
               "        return V.new_zeros(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], A.shape[:-1]), 0, d_v)\n"
               "    return torch.stack(ys, dim=-2)\n",
               "    idx = torch.arange(L, device=V.device)\n"
               "    later = idx[:, None] > idx[None, :]                          # t > s\n"
               "    one = torch.ones((), dtype=V.dtype, device=V.device)\n"
               "    G = torch.where(later, A.unsqueeze(-1), one)                 # G[t, s] = A_t below the diagonal\n"
               "    M = torch.cumprod(G, dim=-2)                                 # M[t, s] = A_{s+1} ... A_t\n"
               "    M = torch.where(idx[:, None] >= idx[None, :], M, torch.zeros((), dtype=V.dtype, device=V.device))\n"
               "    return ((Q @ K.transpose(-2, -1)) * M) @ V\n"))])

# ============================================================================= stubs

STUB_HEAD = '''"""Linear attention and retention: {what}."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1
'''

STUB_BODY = '''

def _out(Q, K, V):
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    return FILL(*lead, Q.shape[-2], V.shape[-1], dtype=V.dtype)


def linear_attention_parallel(Q, K, V):
    return _out(Q, K, V)


def linear_attention_recurrent(Q, K, V):
    return _out(Q, K, V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return FILL(*v.shape, dtype=v.dtype)


def as_gamma(gamma, like):
    g = torch.as_tensor(gamma, dtype=like.dtype)
    return FILL(*g.shape, 1, 1, dtype=like.dtype)


def decay_matrix(gamma, L):
    return FILL(*gamma.shape[:-2], L, L, dtype=gamma.dtype)


def retention_parallel(Q, K, V, gamma):
    return _out(Q, K, V)


def retention_recurrent(Q, K, V, gamma):
    return _out(Q, K, V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _out(Q, K, V)
    if return_state:
        return out, FILL(*out.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)
    return out


def multiscale_decays(num_heads):
    return FILL(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _out(Q, K, V)


def gated_delta_rule(Q, K, V, alpha, beta):
    return _out(Q, K, V)
'''

STUB_ZEROS = STUB_HEAD.replace("{what}", "zeros of the right shape everywhere") + STUB_BODY.replace("FILL", "torch.zeros")
STUB_RANDOM = STUB_HEAD.replace("{what}", "random tensors of the right shape") + STUB_BODY.replace("FILL", "torch.randn")

case("stub_template_untouched", "stub",
     "the untouched template folder: every stub raises NotImplementedError, the exercise cells raise, the "
     "answers cells and written answers are empty.",
     RUBRIC_IDS, source=TEMPLATE)

case("stub_zeros_module_base_notebook", "stub",
     "linear_attention.py replaced by a stub whose every function returns zeros of the right shape (feature_map "
     "as provided); the notebook is base's (hand-worked answers, written answers and exercise cells done). "
     "Loses every code item and the three exercise items (their evidence forms do not work); the hand-worked "
     "answers and the written answers stand.",
     CODE_IDS + ["ex1_runs", "ex2_runs", "ex3_runs"], module=STUB_ZEROS)

case("stub_random_template_notebook", "stub",
     "every function returns torch.randn tensors of the right shape (multiscale_decays too); the template "
     "notebook left as given (exercises raise, answers empty).",
     RUBRIC_IDS, module=STUB_RANDOM, source=TEMPLATE)


# ----------------------------------------------------------------------------- build

BASE_ABOUT = ("careful complete submission: every function written from its docstring (running-state recurrent "
              "forms and step, chunkwise with a carried R and the real length of a short last chunk, per-head γ, "
              "γ validated with NaN rejected, the optional gated delta rule decay-first); notebook: your-turn cell, "
              "cost cell, the three exercises (float64, m ≠ d_v), answers and written answers")


def build():
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
        (dest / PY).write_text(py)
        if c["source"] == BASE or c["edits"]:
            (dest / NB).write_text(dump_nb(nb))
        ast.parse(py)
        lose = list(c["should_lose"])
        assert set(lose) <= set(RUBRIC_IDS), (c["name"], set(lose) - set(RUBRIC_IDS))
        if c["kind"] == "alternative":
            assert not lose and c["source"] == BASE and c["module"] is None, c["name"]
            assert (dest / NB).read_text() == base_nb, c["name"]
        if c["kind"] == "stub":
            assert lose
        if c["kind"] != "stub":
            assert py != BASE_PY or (dest / NB).read_text() != base_nb, c["name"]
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=lose))
    assert (HERE / "stub_template_untouched" / PY).read_text() == template_py
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 18, linear-attention-basics: one entry per case folder.",
             "# should_lose: rubric.yaml item ids, judged from the rubric titles, the docstrings, the notebook and the",
             "# public tests only (never the grader or hidden checks).",
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
