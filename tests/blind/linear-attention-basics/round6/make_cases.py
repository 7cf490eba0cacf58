"""Build the round-6 blind corpus for linear-attention-basics from base/.

Every case is a fresh copy of base/ with a few exact string replacements applied to
linear_attention.py or linear_attention.ipynb. Each replacement's anchor must occur exactly once in
the file and the file must change. Notebook anchors are written as cell text (one source line or a
piece of one) and JSON-escaped before they are looked up in the .ipynb file.

    python make_cases.py          # (re)writes every case folder and corpus.yaml

Written blind: from the student template (notebook, docstrings, public tests, rubric.yaml) only.
"""
import json
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent
BASE = ROOT / "base"
PY = "linear_attention.py"
NB = "linear_attention.ipynb"

# every rubric item, for the stubs (which keep base's notebook answers and written answers)
ALL_ITEMS = ["normalizer", "update_before_read", "running_normalizer", "feature_map", "kv_orientation",
             "causal_mask", "decay_every_form", "chunk_boundaries", "partial_chunk_state", "gamma_validation",
             "independent_states", "recurrent_cost", "chunkwise_memory", "linear_parallel", "linear_recurrent",
             "state_step", "retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes",
             "multiscale", "keeps_dtype", "ex1_runs", "ex2_runs", "ex3_runs", "example_1_1", "your_turn",
             "ex1_why", "ex2_gamma0", "ex3_selectivity", "cost_per_token"]
NOTEBOOK_ANSWERS = ["example_1_1", "your_turn", "ex1_why", "ex2_gamma0", "ex3_selectivity", "cost_per_token"]
STUB_LOSES = [i for i in ALL_ITEMS if i not in NOTEBOOK_ANSWERS]

# ----------------------------------------------------------------------------- anchors shared by several cases

LIN_REC_LOOP = """\
    S = Q.new_zeros(m, d_v)
    z = Q.new_zeros(m)
    outputs = []
    for t in range(L):
        k_t, q_t = phi_k[..., t, :], phi_q[..., t, :]
        S = S + k_t.unsqueeze(-1) * V[..., t, :].unsqueeze(-2)     # add token t first ...
        z = z + k_t
        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                  # ... then read
        den = (q_t * z).sum(dim=-1, keepdim=True)
        outputs.append(num / den)
"""
STEP_UPDATE = """\
        self.S = self.S.to(v.device) + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = self.z.to(v.device) + phi_k
"""
RET_REC_HEAD = """\
    g = as_gamma(gamma, Q)                                         # (..., 1, 1)
    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]
    S = Q.new_zeros(m, d_v)
    outputs = []
    for n in range(L):
"""
RET_REC_UPDATE = "        S = g * S + K[..., n, :].unsqueeze(-1) * V[..., n, :].unsqueeze(-2)\n"
CHUNK_BODY = """\
        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        cross = g ** (j + 1) * (q @ R)                             # gamma**(j+1) q_j R
        pieces.append(intra + cross)
        w = g ** (n - 1 - j)                                       # gamma**(n-1-s), (..., n, 1)
        R = g ** n * R + (k * w).transpose(-2, -1) @ v
"""
EX1_WHY = (r"They must agree because the numerator and the normalizer are plain sums over $j \le i$ that are "
           r"linear in each term: with the factored score $\varphi(q_i)\cdot\varphi(k_j)$, "
           r"$\sum_{j\le i}(\varphi(q_i)\cdot\varphi(k_j))\,v_j = \varphi(q_i)^\top\sum_{j\le i}\varphi(k_j)v_j^\top$ "
           r"(distributivity / associativity of the matrix product lets $\varphi(q_i)$ come out of the sum), and a "
           r"causal sum over $j \le i$ is a prefix sum, so $S_i = S_{i-1} + \varphi(k_i)v_i^\top$ and "
           r"$z_i = z_{i-1} + \varphi(k_i)$ — the two faces add exactly the same terms, only in a different order "
           r"(equal up to rounding).")
EX2_GAMMA0 = (r"the decay matrix becomes the identity: the diagonal is $0^0 = 1$ and every entry below it is "
              r"$0^{n-m} = 0$. So $o_n = (q_n \cdot k_n)\, v_n$ — each token sees only itself, its own value scaled "
              r"by its own query–key score. In the recurrent view $S_n = 0 \cdot S_{n-1} + k_n^\top v_n$: the state "
              r"forgets everything before the current token at every step.")


def py(old, new):
    return (PY, old, new)


def nb(old, new):
    assert "\n" not in old and "\n" not in new, "notebook anchors stay inside one source line"
    return (NB, old, new)


CASES = []


def case(name, kind, about, should_lose, *edits):
    assert kind in ("bug", "alternative", "stub")
    assert kind != "bug" or edits
    unknown = set(should_lose) - set(ALL_ITEMS)
    assert not unknown, (name, unknown)
    CASES.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=list(edits)))


# base/ itself, listed first
case("base", "alternative",
     "reference-quality submission: every stub implemented from the docstrings (optional gated delta rule too), "
     "notebook exercises, answers and written answers filled in", [])

# ============================================================================= bugs: linear attention, parallel

case("bug_linpar_elu_without_plus_one", "bug",
     "linear_attention_parallel writes φ inline as F.elu(Q), F.elu(K) and forgets the + 1, so scores can be "
     "negative and a row sum can come near zero (the recurrent form and step still use feature_map).",
     ["feature_map", "linear_parallel"],
     py("    phi_q, phi_k = feature_map(Q), feature_map(K)\n    L = Q.shape[-2]\n",
        "    phi_q, phi_k = F.elu(Q), F.elu(K)\n    L = Q.shape[-2]\n"))

case("bug_linpar_normalizes_columns", "bug",
     "linear_attention_parallel normalizes the masked score matrix over the wrong axis (A / A.sum(dim=-2)), "
     "so row i is divided column by column by sums over later queries: the weights of a row no longer sum "
     "to 1 and later tokens change earlier outputs.",
     ["normalizer", "causal_mask", "linear_parallel"],
     py("    return (scores @ V) / scores.sum(dim=-1, keepdim=True)",
        "    scores = scores / scores.sum(dim=-2, keepdim=True)                # normalise the weights\n"
        "    return scores @ V"))

case("bug_linpar_rowsum_without_keepdim", "bug",
     "linear_attention_parallel divides by scores.sum(dim=-1) without keepdim: the (..., L) row sums broadcast "
     "against the trailing (L, d_v) axes, so it raises when they do not line up (L != d_v, most batched inputs) "
     "and silently divides the wrong entries when they do (L == d_v).",
     ["linear_parallel", "ex1_runs"],
     py("    return (scores @ V) / scores.sum(dim=-1, keepdim=True)",
        "    return (scores @ V) / scores.sum(dim=-1)"))

case("bug_linpar_mask_hides_diagonal", "bug",
     "linear_attention_parallel builds the future mask with .triu() (diagonal=0) instead of .triu(1), so the "
     "diagonal is zeroed too: token i never sees itself and row 0 is 0/0.",
     ["update_before_read", "linear_parallel"],
     py("device=Q.device).triu(1)", "device=Q.device).triu()"))

case("bug_linpar_einsum_without_batch", "bug",
     "linear_attention_parallel computes the scores with torch.einsum('im,jm->ij', ...) without an ellipsis: "
     "right for 2-D inputs, raises for any input with leading batch/head dims.",
     ["linear_parallel"],
     py("    scores = phi_q @ phi_k.transpose(-2, -1)                       # (..., L, L)",
        "    scores = torch.einsum(\"im,jm->ij\", phi_q, phi_k)                # (L, L)"))

# ============================================================================= bugs: linear attention, recurrent

case("bug_linrec_reads_before_update", "bug",
     "linear_attention_recurrent reads y_t = φ(q_t)ᵀS / φ(q_t)ᵀz before adding token t to S and z: token t "
     "does not see itself and row 0 is 0/0.",
     ["update_before_read", "linear_recurrent"],
     py("""\
        S = S + k_t.unsqueeze(-1) * V[..., t, :].unsqueeze(-2)     # add token t first ...
        z = z + k_t
        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)                  # ... then read
        den = (q_t * z).sum(dim=-1, keepdim=True)
        outputs.append(num / den)
""", """\
        num = (q_t.unsqueeze(-2) @ S).squeeze(-2)
        den = (q_t * z).sum(dim=-1, keepdim=True)
        outputs.append(num / den)
        S = S + k_t.unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
        z = z + k_t
"""))

case("bug_linrec_resums_prefix", "bug",
     "linear_attention_recurrent rebuilds S = φ(K[:t+1])ᵀ V[:t+1] and z = Σ φ(K[:t+1]) from scratch at every "
     "token: outputs are right but the work is O(L²), not a carried state.",
     ["recurrent_cost", "linear_recurrent"],
     py("""\
        S = S + k_t.unsqueeze(-1) * V[..., t, :].unsqueeze(-2)     # add token t first ...
        z = z + k_t
""", """\
        S = phi_k[..., :t + 1, :].transpose(-2, -1) @ V[..., :t + 1, :]   # tokens 0..t
        z = phi_k[..., :t + 1, :].sum(dim=-2)
"""))

case("bug_linrec_eps_in_denominator", "bug",
     "linear_attention_recurrent divides by φ(q_t)ᵀz + 1e-6 (a habit epsilon the docstring rules out): "
     "outputs are slightly shrunk, visibly so when φ(q) is small (very negative queries).",
     ["linear_recurrent"],
     py("        outputs.append(num / den)\n", "        outputs.append(num / (den + 1e-6))\n"))

case("bug_linrec_loops_over_first_dim", "bug",
     "linear_attention_recurrent loops for t in range(len(Q)) (the first dim) instead of range(L): right for "
     "2-D inputs, wrong length (or an index error) for inputs with leading batch/head dims.",
     ["linear_recurrent"],
     py("    for t in range(L):\n        k_t, q_t = phi_k", "    for t in range(len(Q)):\n        k_t, q_t = phi_k"))

case("bug_linrec_relu_features", "bug",
     "linear_attention_recurrent uses φ = relu instead of elu + 1 (the other forms use feature_map): different "
     "outputs, and 0/0 once a query or all keys so far are non-positive.",
     ["feature_map", "linear_recurrent"],
     py("    phi_q, phi_k = feature_map(Q), feature_map(K)\n    L, m, d_v",
        "    phi_q, phi_k = F.relu(Q), F.relu(K)\n    L, m, d_v"))

case("bug_linrec_state_hardcoded_float64", "bug",
     "linear_attention_recurrent creates S and z with dtype=torch.float64: float64 inputs are right, but float32 "
     "inputs raise (a float32 query times the float64 state), Exercise 1's float32 call included.",
     ["keeps_dtype", "ex1_runs"],
     py("    S = Q.new_zeros(m, d_v)\n    z = Q.new_zeros(m)\n",
        "    S = torch.zeros(m, d_v, dtype=torch.float64)\n    z = torch.zeros(m, dtype=torch.float64)\n"))

# ============================================================================= bugs: LinearAttentionState.step

case("bug_step_inplace_update", "bug",
     "LinearAttentionState.step updates the state in place (self.S += ..., self.z += ...): the (m, d_v) float32 "
     "zeros cannot grow leading dims (batched tokens raise) and stay float32, so a float64 query then raises on "
     "the read; only unbatched float32 decoding works.",
     ["state_step"],
     py(STEP_UPDATE, "        self.S += phi_k.unsqueeze(-1) * v.unsqueeze(-2)\n        self.z += phi_k\n"))

case("bug_step_casts_tokens_to_state_dtype", "bug",
     "LinearAttentionState.step first casts q, k, v to the state's dtype (float32, from __init__): float64 "
     "tokens are decoded in float32 and come back float32 (float32 tokens are unaffected).",
     ["state_step"],
     py("        phi_q, phi_k = feature_map(q), feature_map(k)\n        self.S",
        "        q, k, v = (x.to(self.S.dtype) for x in (q, k, v))         # match the state's dtype\n"
        "        phi_q, phi_k = feature_map(q), feature_map(k)\n        self.S"))

case("bug_step_keeps_history", "bug",
     "LinearAttentionState.step appends every φ(k), v to lists and recomputes S and z from the whole history "
     "at each step: right outputs, but memory and work per step grow with t.",
     ["recurrent_cost", "state_step"],
     py(STEP_UPDATE, """\
        self.keys = getattr(self, "keys", []) + [phi_k]
        self.values = getattr(self, "values", []) + [v]
        keys, values = torch.stack(self.keys, dim=-2), torch.stack(self.values, dim=-2)
        self.S = keys.transpose(-2, -1) @ values                  # recomputed from all tokens so far
        self.z = keys.sum(dim=-2)
"""))

case("bug_step_elu_in_place_on_inputs", "bug",
     "LinearAttentionState.step computes φ with F.elu_(q).add(1) / F.elu_(k).add(1) 'to save a copy': its own "
     "outputs are right, but the caller's q and k (often views into Q, K) are overwritten with elu(q), elu(k), "
     "and stepping the same token tensors twice gives wrong results.",
     ["state_step"],
     py("        phi_q, phi_k = feature_map(q), feature_map(k)\n        self.S",
        "        phi_q, phi_k = F.elu_(q).add(1), F.elu_(k).add(1)         # in place: no extra copies\n"
        "        self.S"))

# ============================================================================= bugs: gamma, decay matrix

case("bug_gamma_nan_slips_through", "bug",
     "as_gamma raises only when some entry is < 0 or > 1; NaN compares False both ways and is accepted.",
     ["gamma_validation"],
     py("    inside = (g >= 0) & (g <= 1)                                   # False for NaN\n"
        "    if not bool(inside.all()):\n",
        "    if bool((g < 0).any()) or bool((g > 1).any()):\n"))

case("bug_gamma_rejects_one", "bug",
     "as_gamma checks 0 <= gamma < 1 ('a decay must forget'): the documented edge gamma = 1 raises ValueError "
     "in every retention form (and Exercise 2's gamma=1.0 call raises).",
     ["gamma_validation", "retention_parallel", "retention_recurrent", "retention_chunkwise", "ex2_runs"],
     py("    inside = (g >= 0) & (g <= 1)                                   # False for NaN",
        "    inside = (g >= 0) & (g < 1)                                    # a decay must forget"))

case("bug_gamma_hardcoded_float64", "bug",
     "as_gamma converts gamma with dtype=torch.float64 instead of like's dtype: float64 inputs are fine, float32 "
     "inputs make every retention form (and unified retention mode) raise on a float32/float64 matmul.",
     ["keeps_dtype", "ex2_runs", "ex3_runs"],
     py("    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)",
        "    g = torch.as_tensor(gamma, dtype=torch.float64, device=like.device)"))

case("bug_decay_power_times_mask", "bug",
     "decay_matrix computes gamma ** (n - m) * (n >= m) without clamping the distance: for gamma = 0 the "
     "entries above the diagonal are 0**-1 * 0 = inf * 0 = NaN, so retention_parallel and retention_chunkwise "
     "return NaN rows at gamma = 0 (and NaN for long L with small gamma, once gamma**-(L-1) overflows).",
     ["gamma_validation", "retention_parallel", "retention_chunkwise"],
     py("""\
    powers = gamma ** distance.clamp(min=0).to(gamma.dtype)        # never a negative power
    return torch.where(distance >= 0, powers, torch.zeros_like(powers))
""", """\
    return gamma ** distance.to(gamma.dtype) * (distance >= 0)     # zero above the diagonal
"""))

case("bug_decay_exponent_sign", "bug",
     "decay_matrix raises gamma to (m - n).clamp(min=0) instead of (n - m): every causal entry gets gamma**0 = 1, "
     "so the parallel form and the chunkwise intra-chunk term have no decay at all (recurrent is right).",
     ["decay_every_form", "retention_parallel", "retention_chunkwise"],
     py("    powers = gamma ** distance.clamp(min=0).to(gamma.dtype)        # never a negative power",
        "    powers = gamma ** (-distance).clamp(min=0).to(gamma.dtype)     # never a negative power"))

# ============================================================================= bugs: retention, parallel and recurrent

case("bug_retpar_divides_by_rowsum", "bug",
     "retention_parallel divides (Q Kᵀ ⊙ D) V by the row sums of Q Kᵀ ⊙ D, carrying linear attention's "
     "normalizer over to retention (which has none).",
     ["retention_parallel"],
     py("    return ((Q @ K.transpose(-2, -1)) * D) @ V",
        "    scores = (Q @ K.transpose(-2, -1)) * D\n    return (scores @ V) / scores.sum(dim=-1, keepdim=True)"))

case("bug_retrec_applies_feature_map", "bug",
     "retention_recurrent, copied from linear_attention_recurrent, still applies feature_map to Q and K.",
     ["retention_recurrent"],
     py(RET_REC_HEAD, RET_REC_HEAD.replace("    L, m, d_v", "    Q, K = feature_map(Q), feature_map(K)\n    L, m, d_v")))

case("bug_retrec_decays_after_write", "bug",
     "retention_recurrent writes S = gamma * (S + k vᵀ): the current token's own write is decayed too, so every "
     "output is gamma times too small (all zeros at gamma = 0).",
     ["retention_recurrent"],
     py(RET_REC_UPDATE,
        "        S = g * (S + K[..., n, :].unsqueeze(-1) * V[..., n, :].unsqueeze(-2))\n"))

case("bug_retrec_resums_prefix", "bug",
     "retention_recurrent recomputes S_n = Σ_{m<=n} gamma**(n-m) k_mᵀ v_m from all tokens at every step: "
     "right outputs, O(L²) work.",
     ["recurrent_cost", "retention_recurrent"],
     py(RET_REC_UPDATE, """\
        w = g ** torch.arange(n, -1, -1, dtype=Q.dtype, device=Q.device).unsqueeze(-1)   # gamma**(n-m), m = 0..n
        S = (K[..., :n + 1, :] * w).transpose(-2, -1) @ V[..., :n + 1, :]
"""))

case("bug_retrec_bmm_view", "bug",
     "retention_recurrent forms k vᵀ with torch.bmm on .view(-1, m, 1) / .view(-1, 1, d_v) of the token slices: "
     "right for contiguous inputs, raises for non-contiguous ones (e.g. Q, K, V made by a transpose).",
     ["retention_recurrent"],
     py(RET_REC_UPDATE, """\
        k_n = K[..., n, :].view(-1, m, 1)
        v_n = V[..., n, :].view(-1, 1, d_v)
        S = g * S + torch.bmm(k_n, v_n).view(*K.shape[:-2], m, d_v)
"""))

case("bug_retrec_squeezes_gamma", "bug",
     "retention_recurrent squeezes as_gamma's output 'to get a number': a scalar gamma works, but a per-head "
     "gamma of shape (H,) then broadcasts against the d_v axis of S (wrong when H == d_v, raises otherwise).",
     ["retention_recurrent"],
     py("    g = as_gamma(gamma, Q)                                         # (..., 1, 1)\n"
        "    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]\n    S = Q.new_zeros(m, d_v)\n    outputs = []\n"
        "    for n in range(L):",
        "    g = as_gamma(gamma, Q).squeeze()                               # the decay as a number\n"
        "    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]\n    S = Q.new_zeros(m, d_v)\n    outputs = []\n"
        "    for n in range(L):"))

case("bug_retrec_state_m_by_m", "bug",
     "retention_recurrent starts the state as zeros(m, m) instead of zeros(m, d_v): raises whenever d_v != m "
     "(and d_v != 1); right when d_v == m.",
     ["retention_recurrent"],
     py("    S = Q.new_zeros(m, d_v)\n    outputs = []\n    for n in range(L):",
        "    S = Q.new_zeros(m, m)\n    outputs = []\n    for n in range(L):"))

# ============================================================================= bugs: retention, chunkwise

case("bug_chunk_state_uses_chunk_size", "bug",
     "retention_chunkwise carries R with chunk_size in place of the real chunk length n (gamma**B R + Σ "
     "gamma**(B-1-s) ...): outputs are right, the returned state is wrong after a short last chunk.",
     ["partial_chunk_state", "retention_chunkwise"],
     py("        w = g ** (n - 1 - j)                                       # gamma**(n-1-s), (..., n, 1)\n"
        "        R = g ** n * R + (k * w).transpose(-2, -1) @ v\n",
        "        w = g ** (chunk_size - 1 - j)                              # gamma**(B-1-s), (..., n, 1)\n"
        "        R = g ** chunk_size * R + (k * w).transpose(-2, -1) @ v\n"))

case("bug_chunk_cross_decay_off_by_one", "bug",
     "retention_chunkwise scales the cross-chunk term by gamma**j instead of gamma**(j+1).",
     ["chunk_boundaries", "retention_chunkwise"],
     py("        cross = g ** (j + 1) * (q @ R)                             # gamma**(j+1) q_j R",
        "        cross = g ** j * (q @ R)                                   # gamma**j q_j R"))

case("bug_chunk_updates_state_before_reading", "bug",
     "retention_chunkwise folds the current chunk into R before computing the chunk's cross term, so every "
     "token reads its own chunk twice, including its chunk's later tokens (non-causal inside a chunk); the "
     "returned state is right.",
     ["causal_mask", "chunk_boundaries", "retention_chunkwise"],
     py(CHUNK_BODY, """\
        w = g ** (n - 1 - j)                                       # gamma**(n-1-s), (..., n, 1)
        R = g ** n * R + (k * w).transpose(-2, -1) @ v
        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        cross = g ** (j + 1) * (q @ R)                             # gamma**(j+1) q_j R
        pieces.append(intra + cross)
"""))

case("bug_chunk_drops_short_tail", "bug",
     "retention_chunkwise loops over range(0, L - chunk_size + 1, chunk_size): when chunk_size does not divide "
     "L the short last chunk is dropped (output too short, state missing it), and chunk_size > L raises.",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     py("    for c0 in range(0, L, chunk_size):", "    for c0 in range(0, L - chunk_size + 1, chunk_size):"))

case("bug_chunk_intra_without_decay", "bug",
     "retention_chunkwise's intra-chunk term uses a plain causal mask, torch.tril(q kᵀ) v, instead of q kᵀ ⊙ D_n: "
     "no decay inside a chunk (right only for chunk_size 1).",
     ["decay_every_form", "retention_chunkwise"],
     py("        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v",
        "        intra = torch.tril(q @ k.transpose(-2, -1)) @ v"))

case("bug_chunk_slices_full_decay_matrix", "bug",
     "retention_chunkwise builds decay_matrix(gamma, L) once and slices each chunk's block out of it: outputs "
     "and state are right, but it holds an L × L matrix (memory quadratic in L).",
     ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     py("    R = Q.new_zeros(m, d_v)\n    pieces = []\n",
        "    R = Q.new_zeros(m, d_v)\n    D_full = decay_matrix(g, L)                                    # (..., L, L)\n"
        "    pieces = []\n"),
     py("* decay_matrix(g, n)) @ v", "* D_full[..., c0:c0 + n, c0:c0 + n]) @ v"))

# ============================================================================= bugs: multi-scale decays

case("bug_multiscale_precedence", "bug",
     "multiscale_decays returns 1 - 2.0 ** -5 - h (operator precedence): 0.96875 - h, negative from head 1 on.",
     ["multiscale"],
     py("    return 1 - 2.0 ** (-5 - h)", "    return 1 - 2.0 ** -5 - h"))

case("bug_multiscale_heads_from_one", "bug",
     "multiscale_decays numbers the heads from 1 (torch.arange(1, num_heads + 1)): every gamma is one head "
     "too long-range (first head 0.984375 instead of 0.96875).",
     ["multiscale"],
     py("    h = torch.arange(num_heads, dtype=torch.get_default_dtype())",
        "    h = torch.arange(1, num_heads + 1, dtype=torch.get_default_dtype())"))

# ============================================================================= bugs: unified recurrence and gates

case("bug_unified_gate_after_write", "bug",
     "unified_recurrence computes S = A_t (S + k_t v_tᵀ): the gate also scales token t's own write (the "
     "notebook's warned-about misreading), so linear mode is right but retention and gated modes are not.",
     ["unified_modes"],
     py("        S = a_t * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)",
        "        S = a_t * (S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2))"))

case("bug_unified_gate_squeezed", "bug",
     "unified_recurrence squeezes the gate ('drop stray size-1 dims'): for a one-token input the gate of shape "
     "(1,) becomes a scalar and gated mode raises ValueError (longer inputs are fine).",
     ["unified_modes"],
     py("        A = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)\n",
        "        A = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device).squeeze()   # drop stray size-1 dims\n"))

case("bug_unified_unknown_mode_is_linear", "bug",
     "unified_recurrence's final else branch treats any other mode as linear (A_t = 1) instead of raising "
     "ValueError, so a typo such as 'retnetion' silently runs linear attention.",
     ["unified_modes"],
     py("    else:\n        raise ValueError(f\"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'\")\n",
        "    else:                                                          # 'linear'\n        A = Q.new_ones(L)\n"))

case("bug_unified_gate_indexed_on_first_dim", "bug",
     "unified_recurrence reads the gate as A[t] instead of A[..., t]: right for a (L,) gate and a scalar gamma, "
     "wrong for a per-batch gate (B, L) or a per-head gamma (H,).",
     ["unified_modes"],
     py("        a_t = A[..., t, None, None]                                # scales the OLD state",
        "        a_t = A[t]                                                 # scales the OLD state"))

case("bug_delta_predicts_before_decay", "bug",
     "gated_delta_rule (optional, not graded) predicts from the undecayed S_{t-1} and decays afterwards "
     "(the other order the docstring mentions): it fails the optional public test, but no graded item covers it.",
     [],
     py("""\
        S = alpha[..., t, None, None] * S                          # decay first
        predicted = (k_t.unsqueeze(-2) @ S).squeeze(-2)            # what the memory returns for k_t
        error = beta[..., t, None] * (v_t - predicted)
        S = S + k_t.unsqueeze(-1) * error.unsqueeze(-2)
""", """\
        predicted = (k_t.unsqueeze(-2) @ S).squeeze(-2)            # what the memory returns for k_t
        error = beta[..., t, None] * (v_t - predicted)
        S = alpha[..., t, None, None] * S + k_t.unsqueeze(-1) * error.unsqueeze(-2)
"""))

# ============================================================================= bugs: the notebook

case("bug_nb_example_not_divided", "bug",
     "Answers cell: example_1_1 is given as qᵀS = [2, 12], forgetting to divide by q·z = 4.",
     ["example_1_1"],
     nb("example_1_1: [0.50, 3.00]", "example_1_1: [2.00, 12.00]"))

case("bug_nb_your_turn_forgot_key_total", "bug",
     "Answers cell: your_turn adds the third token to S but not to z (z stays (2, 1)): (6, 10)/3 = [2.00, 3.33] "
     "instead of [1.50, 2.50].",
     ["your_turn"],
     nb("your_turn: [1.50, 2.50]", "your_turn: [2.00, 3.33]"))

case("bug_nb_cost_whole_prefix", "bug",
     "Answers cell: cost_ratio_at_100k is 391× (the ratio of the total work over all tokens up to t, t/(2d)) "
     "instead of the per-token ratio t/d ≈ 781×.",
     ["cost_per_token"],
     nb("cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 391×"))

case("bug_nb_ex1_why_positivity", "bug",
     "Exercise 1 written answer attributes the agreement to φ being positive (the normalizer never vanishes) "
     "instead of linearity/associativity of the sum over j (a prefix sum that can be carried).",
     ["ex1_why"],
     nb(EX1_WHY, r"They agree because $\varphi = \text{elu} + 1$ is always positive, so the normalizer "
                 r"$\varphi(q_i)^\top z_i$ never becomes zero or negative and both forms divide by the same safe "
                 r"positive number, which keeps them numerically identical."))

case("bug_nb_gamma0_says_output_vanishes", "bug",
     "Exercise 2 written answer says gamma = 0 zeroes the whole decay matrix, diagonal included, so the output "
     "is zero (it forgets 0**0 = 1: each token should still see itself).",
     ["ex2_gamma0"],
     nb(EX2_GAMMA0, r"every power $\gamma^{n-m}$ is zero, the diagonal included, so the decay matrix is all "
                    r"zeros and the output is zero at every position: with $\gamma = 0$ retention forgets "
                    r"everything, the current token included."))

case("bug_nb_ex3_gate_protects_own_write", "bug",
     "Exercise 3 written answer says the high gate at t = 2 protects token 2's own write (weights 0.95 at t = 3 "
     "and 0.095 at t = 4) instead of what tokens 0..1 stored (its write has weight 0.1, then 0.01); the rest of "
     "the answer is right.",
     ["ex3_selectivity"],
     nb("so it preserves what tokens 0 and 1 stored (scaled by 0.95) as token 2 arrives; it does nothing for "
        "token 2's own write. That write is weighted by the gates that come after it: $A_3 = 0.1$ at $t = 3$ "
        "and $A_3 A_4 = 0.01$ at $t = 4$ (then $0.0095$ at $t = 5$, because the high gate at 5 keeps it).",
        r"so it protects token 2's own write: that write is still in the state with weight 0.95 at $t = 3$ "
        r"and $0.95 \cdot 0.1 = 0.095$ at $t = 4$."))

case("bug_nb_ex2_diag_broadcast", "bug",
     "Exercise 2 cell builds only_self = torch.diag(Q2 @ K2.T) * V2: the (L,) diagonal broadcasts against the "
     "d_v axis, which raises for L=6, d_v=3, so the exercise stops before its check.",
     ["ex2_runs"],
     nb("only_self = (Q2 * K2).sum(-1, keepdim=True) * V2                # (q_n · k_n) v_n",
        "only_self = torch.diag(Q2 @ K2.T) * V2                         # (q_n · k_n) v_n"))

case("bug_nb_ex3_gate_one_based", "bug",
     "Exercise 3 cell sets the high gates at indices [1, 4] ('positions 2 and 5' counted from 1): the locked "
     "check (high only at positions 2 and 5) fails.",
     ["ex3_runs"],
     nb("gate3[[2, 5]] = 0.95", "gate3[[1, 4]] = 0.95                                     # positions 2 and 5"))

# ============================================================================= correct alternatives

case("alt_linpar_cumsum_normalizer", "alternative",
     "linear_attention_parallel takes the normalizer as φ(q_i)ᵀ z_i with z = cumsum of φ(K) over the sequence "
     "instead of the masked row sums (the same number).",
     [],
     py("    return (scores @ V) / scores.sum(dim=-1, keepdim=True)",
        "    z = phi_k.cumsum(dim=-2)                                       # z_i = Σ_{j<=i} φ(k_j)\n"
        "    return (scores @ V) / (phi_q * z).sum(dim=-1, keepdim=True)"))

case("alt_linrec_transposed_state", "alternative",
     "linear_attention_recurrent keeps its private loop state transposed, (d_v, m), adding v φ(k)ᵀ and reading "
     "S φ(q): same outputs (the public state of LinearAttentionState keeps the documented (m, d_v)).",
     [],
     py(LIN_REC_LOOP, """\
    S = Q.new_zeros(d_v, m)                                        # kept transposed: (d_v, m)
    z = Q.new_zeros(m)
    outputs = []
    for t in range(L):
        k_t, q_t = phi_k[..., t, :], phi_q[..., t, :]
        S = S + V[..., t, :].unsqueeze(-1) * k_t.unsqueeze(-2)     # add token t first ...
        z = z + k_t
        num = (S @ q_t.unsqueeze(-1)).squeeze(-1)                  # ... then read
        den = (q_t * z).sum(dim=-1, keepdim=True)
        outputs.append(num / den)
"""))

case("alt_linrec_through_state_object", "alternative",
     "linear_attention_recurrent is written as a loop of LinearAttentionState.step calls (the decoding face "
     "drives the recurrent face).",
     [],
     py("    phi_q, phi_k = feature_map(Q), feature_map(K)\n    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]\n"
        + LIN_REC_LOOP + "    return torch.stack(outputs, dim=-2)\n",
        "    state = LinearAttentionState(Q.shape[-1], V.shape[-1])\n"
        "    return torch.stack([state.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])],\n"
        "                       dim=-2)\n"))

case("alt_step_einsum", "alternative",
     "LinearAttentionState.step written with torch.einsum (ellipsis broadcasting) instead of unsqueeze and @.",
     [],
     py(STEP_UPDATE + """\
        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
""", """\
        self.S = self.S.to(v.device) + torch.einsum("...m,...d->...md", phi_k, v)
        self.z = self.z.to(v.device) + phi_k
        num = torch.einsum("...m,...md->...d", phi_q, self.S)
        den = torch.einsum("...m,...m->...", phi_q, self.z).unsqueeze(-1)
"""))

case("alt_decay_log_space", "alternative",
     "decay_matrix computes the powers in log space, exp(xlogy(n - m, gamma)) (xlogy gives 0 * log 0 = 0, so "
     "gamma = 0 still yields the identity).",
     [],
     py("    powers = gamma ** distance.clamp(min=0).to(gamma.dtype)        # never a negative power",
        "    powers = torch.exp(torch.xlogy(distance.clamp(min=0).to(gamma.dtype), gamma))   # exp((n-m) log gamma)"))

case("alt_retpar_einsum", "alternative",
     "retention_parallel written with two torch.einsum calls instead of @.",
     [],
     py("    return ((Q @ K.transpose(-2, -1)) * D) @ V",
        "    scores = torch.einsum(\"...im,...jm->...ij\", Q, K)\n"
        "    return torch.einsum(\"...ij,...jd->...id\", scores * D, V)"))

case("alt_retrec_float64_accumulator", "alternative",
     "retention_recurrent accumulates the state in float64 whatever the input dtype and casts the stacked "
     "outputs back to Q's dtype (float32 in, float32 out).",
     [],
     py(RET_REC_HEAD + RET_REC_UPDATE + """\
        outputs.append((Q[..., n, :].unsqueeze(-2) @ S).squeeze(-2))
    return torch.stack(outputs, dim=-2)
""", """\
    g = as_gamma(gamma, Q).double()                                # (..., 1, 1), float64
    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]
    Qd, Kd, Vd = Q.double(), K.double(), V.double()
    S = torch.zeros(m, d_v, dtype=torch.float64, device=Q.device)
    outputs = []
    for n in range(L):
        S = g * S + Kd[..., n, :].unsqueeze(-1) * Vd[..., n, :].unsqueeze(-2)
        outputs.append((Qd[..., n, :].unsqueeze(-2) @ S).squeeze(-2))
    return torch.stack(outputs, dim=-2).to(Q.dtype)
"""))

case("alt_chunk_padded_batch", "alternative",
     "retention_chunkwise zero-pads the sequence to a multiple of the chunk size, computes every intra-chunk "
     "term in one batched (..., C, B, B) product, then carries R in a loop using each chunk's real length; "
     "memory O(L·B).",
     [],
     py("""\
    chunk_size = int(chunk_size)
    g = as_gamma(gamma, Q)                                         # (..., 1, 1)
    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]
    R = Q.new_zeros(m, d_v)
    pieces = []
    for c0 in range(0, L, chunk_size):
        q = Q[..., c0:c0 + chunk_size, :]
        k = K[..., c0:c0 + chunk_size, :]
        v = V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]                                            # the last chunk may be short
        j = torch.arange(n, dtype=Q.dtype, device=Q.device).unsqueeze(-1)   # (n, 1)
""" + CHUNK_BODY + "    out = torch.cat(pieces, dim=-2)\n", """\
    g = as_gamma(gamma, Q)                                         # (..., 1, 1)
    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]
    B = max(1, min(int(chunk_size), L))                            # a chunk longer than L is just L
    C = -(-L // B)                                                 # number of chunks
    pad = C * B - L

    def chunked(X):                                                # (..., L, d) -> (..., C, B, d)
        X = F.pad(X, (0, 0, 0, pad))
        return X.reshape(*X.shape[:-2], C, B, X.shape[-1])

    q, k, v = chunked(Q), chunked(K), chunked(V)
    intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g.unsqueeze(-3), B)) @ v   # (..., C, B, d_v)
    j = torch.arange(B, dtype=Q.dtype, device=Q.device).unsqueeze(-1)            # (B, 1)
    R = Q.new_zeros(m, d_v)
    pieces = []
    for c in range(C):
        n = min(B, L - c * B)                                      # real length of chunk c
        qc, kc, vc = q[..., c, :n, :], k[..., c, :n, :], v[..., c, :n, :]
        pieces.append(intra[..., c, :n, :] + g ** (j[:n] + 1) * (qc @ R))
        R = g ** n * R + (kc * g ** (n - 1 - j[:n])).transpose(-2, -1) @ vc
    out = torch.cat(pieces, dim=-2)
"""))

case("alt_multiscale_half_powers", "alternative",
     "multiscale_decays written as 1 - 0.5 ** arange(5, 5 + num_heads).",
     [],
     py("    h = torch.arange(num_heads, dtype=torch.get_default_dtype())\n    return 1 - 2.0 ** (-5 - h)",
        "    exponents = torch.arange(5, 5 + num_heads, dtype=torch.get_default_dtype())\n"
        "    return 1 - 0.5 ** exponents"))

case("alt_unified_delegates_to_retention", "alternative",
     "unified_recurrence hands linear mode to retention_recurrent(Q, K, V, 1.0) and retention mode to "
     "retention_recurrent(Q, K, V, gamma) (the same recurrence with a constant gate); only gated mode runs its "
     "own loop.",
     [],
     py("""\
    if mode == "linear":
        A = Q.new_ones(L)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        g = as_gamma(gamma, Q)[..., 0, 0]                          # gamma's own shape
        A = g.unsqueeze(-1).expand(*g.shape, L)
""", """\
    if mode == "linear":
        return retention_recurrent(Q, K, V, 1.0)                   # A_t = 1
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        return retention_recurrent(Q, K, V, gamma)                 # A_t = gamma at every step
"""))

case("alt_nb_plain_decimals", "alternative",
     "Answers cell: the worked-example vectors written with plain decimals, [0.5, 3] and [1.5, 2.5].",
     [],
     nb("example_1_1: [0.50, 3.00]", "example_1_1: [0.5, 3]"),
     nb("your_turn: [1.50, 2.50]", "your_turn: [1.5, 2.5]"))

case("alt_nb_cost_exact", "alternative",
     "Answers cell: the cost ratio written exactly, 781.25× (within the accepted 1%).",
     [],
     nb("cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 781.25×"))

case("alt_nb_ex1_why_unicode", "alternative",
     "Exercise 1 written answer in plain-text/unicode notation and other words (same reasoning: the factored "
     "score makes the sum linear, φ(q_i) comes out, the causal sum is a prefix sum).",
     [],
     nb(EX1_WHY, "Because the score factors, Σ_{j≤i} (φ(q_i)·φ(k_j)) v_j = φ(q_i)ᵀ (Σ_{j≤i} φ(k_j) v_jᵀ): "
                 "the sum is linear, so by associativity φ(q_i) can be pulled out of it, and what is left is "
                 "a prefix sum that grows by one term per token, S_i = S_{i−1} + φ(k_i) v_iᵀ (z_i likewise); "
                 "both faces add up exactly the same terms, just grouped in a different order."))

case("alt_nb_gamma0_recurrence_view", "alternative",
     "Exercise 2 written answer argued from the recurrence in unicode notation (S_n = 0·S_{n−1} + k_nᵀv_n, "
     "0⁰ = 1) instead of from the decay matrix.",
     [],
     nb(EX2_GAMMA0, "the recurrence becomes S_n = 0·S_{n−1} + k_nᵀ v_n = k_nᵀ v_n, so o_n = q_n S_n = "
                    "(q_n·k_n) v_n: only the current token survives, weighted by its own score (in the parallel "
                    "form D = I, since 0⁰ = 1 on the diagonal and 0 below it)."))

# ============================================================================= stubs (base notebook, stubbed module)

STUB_FUNCS = ["linear_attention_parallel", "linear_attention_recurrent", "step", "as_gamma", "decay_matrix",
              "retention_parallel", "retention_recurrent", "retention_chunkwise", "multiscale_decays",
              "unified_recurrence", "gated_delta_rule"]


def stub_bodies(flavour):
    make = {"randn": "torch.randn_like", "zeros": "torch.zeros_like", "return_v": ""}[flavour]
    seq = f"    return {make}(V)\n" if make else "    return V\n"
    heads = {"randn": "torch.rand(num_heads)", "zeros": "torch.zeros(num_heads)",
             "return_v": "torch.ones(num_heads)"}[flavour]
    chunk = ("    out = " + (f"{make}(V)" if make else "V") + "\n"
             "    R = " + ("torch.randn" if flavour == "randn" else "torch.zeros")
             + "(*Q.shape[:-2], Q.shape[-1], V.shape[-1], dtype=Q.dtype)\n"
             "    return (out, R) if return_state else out\n")
    nie = '    raise NotImplementedError("{}")\n'
    return {
        "linear_attention_parallel": seq, "linear_attention_recurrent": seq,
        "step": "    " + (f"    return {make}(v)\n" if make else "    return v\n"),
        "as_gamma": nie.format("as_gamma"), "decay_matrix": nie.format("decay_matrix"),
        "retention_parallel": seq, "retention_recurrent": seq, "retention_chunkwise": chunk,
        "multiscale_decays": f"    return {heads}\n", "unified_recurrence": seq,
        "gated_delta_rule": nie.format("gated_delta_rule: optional extension, not graded"),
    }


def body_in_base(src, func):
    """The exact body text of `func` in base (from after its docstring up to the blank line that ends it)."""
    m = re.search(rf"\n( *)def {func}\(.*?\n\1    \"\"\"(?:.|\n)*?\"\"\"\n((?:.|\n)*?)\n(?=\n|\Z)", src)
    assert m, func
    return m.group(2) + "\n"


def stub_edits(flavour):
    src = (BASE / PY).read_text()
    new = stub_bodies(flavour)
    return [py(body_in_base(src, f), new[f]) for f in STUB_FUNCS]


case("stub_randn", "stub", "every function returns random numbers of the right shape (torch.randn_like(V); "
     "random R; random head decays); as_gamma and decay_matrix left unimplemented; base notebook",
     STUB_LOSES, *stub_edits("randn"))
case("stub_zeros", "stub", "every function returns zeros of the right shape; as_gamma and decay_matrix left "
     "unimplemented; base notebook", STUB_LOSES, *stub_edits("zeros"))
case("stub_return_v", "stub", "every sequence function returns V (step returns v, multiscale_decays ones); "
     "as_gamma and decay_matrix left unimplemented; base notebook", STUB_LOSES, *stub_edits("return_v"))


# ============================================================================= build

def apply(folder, edits):
    for fname, old, new in edits:
        path = folder / fname
        text = path.read_text()
        if fname == NB:
            old = json.dumps(old, ensure_ascii=False)[1:-1]
            new = json.dumps(new, ensure_ascii=False)[1:-1]
        count = text.count(old)
        assert count == 1, f"{folder.name}: anchor found {count} times in {fname}: {old[:80]!r}"
        changed = text.replace(old, new)
        assert changed != text, f"{folder.name}: replacement changed nothing"
        path.write_text(changed)
        if fname == NB:
            json.loads(changed)                                    # still valid JSON


def ignore(_dir, names):
    return [n for n in names if n in ("__pycache__", ".pytest_cache")]


def main():
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    for c in CASES:
        if c["name"] == "base":
            continue
        dest = ROOT / c["name"]
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(BASE, dest, ignore=ignore)
        apply(dest, c["edits"])
    lines = ["# Blind corpus, round 6, linear-attention-basics: one entry per case folder (base is base/).",
             "# should_lose: rubric.yaml item ids, judged from the rubric titles and the notebook only.", ""]
    for c in CASES:
        lines += [f"- name: {c['name']}", f"  kind: {c['kind']}",
                  f"  about: {json.dumps(c['about'], ensure_ascii=False)}",
                  f"  should_lose: [{', '.join(c['should_lose'])}]"]
    (ROOT / "corpus.yaml").write_text("\n".join(lines) + "\n")
    kinds = {}
    for c in CASES:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    print(f"{len(CASES)} entries:", kinds)


if __name__ == "__main__":
    main()
