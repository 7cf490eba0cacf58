"""Build the round-10 blind corpus from base/: one folder per case, plus corpus.yaml.

Every case is a full copy of base/ (the student template folder) with exact string replacements
applied. Each anchor must occur exactly once in the file it edits and the edit must change it.
Notebook anchors are single source lines: the script JSON-escapes them (as the .ipynb stores them).
Alternative bodies use the whole base function body (everything after the docstring) as the anchor.
Stubs replace the whole module text (the base file is the anchor).

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


def body(qualname, src=BASE_PY):
    """The exact text of a base function's body after its docstring (an anchor that occurs once)."""
    tree = ast.parse(src)
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
    lines = src.split("\n")
    return "\n".join(lines[first.lineno - 1:node.end_lineno]) + "\n"


def nbline(text):
    """A notebook source line as it is stored in the .ipynb text (JSON-escaped, no quotes)."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


CASES = []


def case(name, kind, about, should_lose, edits=(), module=None):
    CASES.append(dict(name=name, kind=kind, about=about, edits=list(edits), module=module,
                      should_lose=None if should_lose == "ALL" else list(should_lose)))


# ============================================================================= bugs: linear attention

case("bug_lin_par_unmasked_rowsum", "bug",
     "linear_attention_parallel divides by the row sums of the full score matrix, taken before the causal mask "
     "(the normalizer sums over every j, later tokens included).",
     ["running_normalizer", "causal_mask", "linear_parallel"],
     [(PY, """    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))              # (..., L, L), zero above the diagonal
    return (A @ V) / A.sum(dim=-1, keepdim=True)
""", """    scores = phi_q @ phi_k.transpose(-2, -1)                     # (..., L, L)
    A = torch.tril(scores)                                       # zero above the diagonal
    return (A @ V) / scores.sum(dim=-1, keepdim=True)
""")])

case("bug_lin_rec_eps_denominator", "bug",
     "linear_attention_recurrent divides by φ(q_t)ᵀz + 1e-6 (a 'safety' epsilon the lesson forbids), so rows are "
     "off wherever the normalizer is small.",
     ["normalizer", "linear_recurrent"],
     [(PY, "        ys.append(num / den)\n", "        ys.append(num / (den + 1e-6))                           # guard against 0\n")])

case("bug_lin_rec_state_dv_by_m", "bug",
     "linear_attention_recurrent allocates its state as zeros(d_v, m) instead of (m, d_v): right whenever m == d_v, "
     "a broadcasting error otherwise (d_k != d_v).",
     ["linear_recurrent", "ex1_runs"],
     [(PY, "    S = torch.zeros(m, d_v, dtype=dtype, device=Q.device)\n",
       "    S = torch.zeros(d_v, m, dtype=dtype, device=Q.device)\n")])

case("bug_step_first_token_shortcut", "bug",
     "LinearAttentionState.step returns v for the very first token (which only sees itself) without folding that "
     "token into S and z, so every later read misses token 0.",
     ["state_step"],
     [(PY, """        phi_q, phi_k = feature_map(q), feature_map(k)
        S = self.S.to(""", """        if not getattr(self, "started", False):                  # token 0 only sees itself: y = v
            self.started = True
            return v.clone()
        phi_q, phi_k = feature_map(q), feature_map(k)
        S = self.S.to(""")])

case("bug_step_outer_1d", "bug",
     "LinearAttentionState.step adds torch.outer(φ(k), v), which only takes 1-D vectors: right for a single "
     "unbatched stream, raises as soon as the token has leading (batch/head) dims.",
     ["state_step"],
     [(PY, "        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)         # new tensors: never written in place\n",
       "        self.S = S + torch.outer(phi_k, v)                       # + φ(k) vᵀ\n")])

case("bug_step_z_after_read", "bug",
     "LinearAttentionState.step updates S before the read but z after it, so the normalizer misses the current "
     "token (division by zero on the first token).",
     ["update_before_read", "state_step"],
     [(PY, """        self.z = z + phi_k
        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
        return num / den
""", """        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * z).sum(dim=-1, keepdim=True)
        self.z = z + phi_k
        return num / den
""")])

case("bug_step_history_recompute", "bug",
     "LinearAttentionState.step keeps every φ(k) and v seen so far and rebuilds S and z from that history at each "
     "step: right values, but memory and work per token grow with t.",
     ["recurrent_cost", "state_step"],
     [(PY, """        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)         # new tensors: never written in place
        self.z = z + phi_k
""", """        self.keys = getattr(self, "keys", []) + [phi_k]            # the tokens seen so far
        self.values = getattr(self, "values", []) + [v.to(S.dtype)]
        Kh, Vh = torch.stack(self.keys, dim=-2), torch.stack(self.values, dim=-2)   # (..., t+1, m), (..., t+1, d_v)
        self.S = Kh.transpose(-2, -1) @ Vh                         # Σ_j φ(k_j) v_jᵀ over j <= t
        self.z = Kh.sum(dim=-2)
""")])

case("bug_step_state_vk", "bug",
     "LinearAttentionState keeps its state transposed, S of shape (d_v, m) accumulating v φ(k)ᵀ and read as S φ(q): "
     "the outputs are right but the state is not the documented m × d_v matrix k vᵀ.",
     ["kv_orientation"],
     [(PY, "        self.S = torch.zeros(m, d_v)                             # (m, d_v), becomes (..., m, d_v)\n",
       "        self.S = torch.zeros(d_v, m)                             # (d_v, m), becomes (..., d_v, m)\n"),
      (PY, "        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)         # new tensors: never written in place\n",
       "        self.S = S + v.unsqueeze(-1) * phi_k.unsqueeze(-2)         # + v φ(k)ᵀ\n"),
      (PY, "        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)\n        den = (phi_q * self.z)",
       "        num = (self.S @ phi_q.unsqueeze(-1)).squeeze(-1)\n        den = (phi_q * self.z)")])

# ============================================================================= bugs: gamma, retention

case("bug_as_gamma_default_dtype", "bug",
     "as_gamma calls torch.as_tensor(gamma) without dtype=like.dtype, so a float γ becomes float32 even for float64 "
     "inputs and every retention decay γ^k carries float32 rounding (grows with k).",
     ["retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes"],
     [(PY, "    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)\n",
       "    g = torch.as_tensor(gamma, device=like.device)\n")])

case("bug_gamma_nan_passes", "bug",
     "as_gamma rejects γ < 0 or γ > 1 with `(g < 0) | (g > 1)`, which is False for NaN, so γ = NaN is accepted.",
     ["gamma_validation"],
     [(PY, "    if not bool(((g >= 0) & (g <= 1)).all()):                   # NaN fails both comparisons\n",
       "    if bool(((g < 0) | (g > 1)).any()):                          # outside [0, 1]\n")])

case("bug_ret_rec_float32_state", "bug",
     "retention_recurrent allocates its state with torch.zeros(*lead, m, d_v) (default float32) and updates it in "
     "place, so float64 inputs are accumulated in float32 (the output is float64 but only float32-accurate).",
     ["retention_recurrent"],
     [(PY, """    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=torch.result_type(Q, V), device=Q.device)
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))
""", """    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    S = torch.zeros(*lead, K.shape[-1], V.shape[-1])             # one state per head, updated in place
    ys = []
    for t in range(Q.shape[-2]):
        S.mul_(g).add_(K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2))
        ys.append((Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2))
""")])

case("bug_ret_rec_prefix_recompute", "bug",
     "retention_recurrent rebuilds S_t = Σ_{s<=t} γ^(t-s) k_sᵀ v_s from the whole prefix at every step: right "
     "values, O(L²) work and no carried state.",
     ["recurrent_cost", "retention_recurrent"],
     [(PY, """        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
""", """        w = g ** torch.arange(t, -1, -1, dtype=g.dtype, device=g.device)[:, None]   # γ^(t-s), s = 0..t
        S = (K[..., :t + 1, :] * w).transpose(-2, -1) @ V[..., :t + 1, :]
""")])

case("bug_ret_rec_per_head_squeeze", "bug",
     "retention_recurrent drops one trailing dim of γ (as_gamma(...)[..., 0], shape (..., 1)): a scalar γ works, but "
     "a per-head γ of shape (H,) lines up with the rows of S (m) instead of the heads.",
     ["retention_recurrent"],
     [(PY, """    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=torch.result_type(Q, V), device=Q.device)
""", """    g = as_gamma(gamma, Q)[..., 0]                               # (..., 1): scales every row of S
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=torch.result_type(Q, V), device=Q.device)
""")])

# ============================================================================= bugs: chunkwise

case("bug_chunk_cross_gamma_j", "bug",
     "retention_chunkwise scales the cross-chunk read by γ^j instead of γ^(j+1) (off by one at every chunk after the "
     "first; the returned state stays right).",
     ["chunk_boundaries", "retention_chunkwise"],
     [(PY, "        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n",
       "        cross = g ** j * (q @ R)                                 # γ^j q_j R\n")])

case("bug_chunk_state_decay_chunk_size", "bug",
     "retention_chunkwise decays the carried state by γ^chunk_size instead of γ^n, which differs only for a short "
     "last chunk: every output is right, the returned state is not.",
     ["partial_chunk_state", "retention_chunkwise"],
     [(PY, "        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v\n",
       "        R = g ** chunk_size * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v\n")])

case("bug_chunk_state_exponent_n_minus_s", "bug",
     "retention_chunkwise writes the chunk into R with γ^(n-s) instead of γ^(n-1-s) (one decay too many for every "
     "token of the chunk).",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [(PY, "        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v\n",
       "        R = g ** n * R + (k * g ** (n - j)).transpose(-2, -1) @ v\n")])

case("bug_chunk_prefix_state", "bug",
     "retention_chunkwise rebuilds R after each chunk from the whole prefix (Σ_{s<end} γ^(end-1-s) k_sᵀ v_s over "
     "K[:end]) instead of carrying it: right values, O(L²/B) work.",
     ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [(PY, "        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v\n",
       """        end = c0 + n                                             # the state after this chunk, from the prefix
        w = g ** (end - 1 - torch.arange(end, dtype=g.dtype, device=g.device))[:, None]
        R = (K[..., :end, :] * w).transpose(-2, -1) @ V[..., :end, :]
""")])

case("bug_chunk_inplace_key_scaling", "bug",
     "retention_chunkwise weights the chunk's keys in place (k *= γ^(n-1-s)) before the state update; k is a view "
     "of K, so the caller's K is overwritten (its own outputs and state are right).",
     ["retention_chunkwise"],
     [(PY, "        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v\n",
       """        k *= g ** (n - 1 - j)                                    # weight each key by γ^(n-1-s)
        R = g ** n * R + k.transpose(-2, -1) @ v
""")])

case("bug_chunk_big_chunk_shortcut", "bug",
     "retention_chunkwise returns retention_parallel(...) when chunk_size >= L, forgetting return_state: with one "
     "chunk and return_state=True it returns a tensor, not (out, R).",
     ["retention_chunkwise"],
     [(PY, "    chunk_size = int(chunk_size)\n", """    chunk_size = int(chunk_size)
    if chunk_size >= Q.shape[-2]:                                # one chunk holds everything: the parallel form
        return retention_parallel(Q, K, V, gamma)
""")])

case("bug_chunk_rejects_size_1", "bug",
     "retention_chunkwise validates chunk_size with `chunk_size <= 1` and raises ValueError for the legal "
     "chunk_size = 1.",
     ["chunk_boundaries", "retention_chunkwise"],
     [(PY, "int(chunk_size) != chunk_size or chunk_size < 1:\n", "int(chunk_size) != chunk_size or chunk_size <= 1:\n")])

case("bug_chunk_intra_abs_distance", "bug",
     "retention_chunkwise builds its intra-chunk decay as γ^|j-s| without the causal mask, so tokens see later "
     "tokens of their own chunk.",
     ["causal_mask", "chunk_boundaries", "retention_chunkwise"],
     [(PY, "        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v\n",
       """        local = torch.arange(n, device=g.device)
        D_n = g ** (local[:, None] - local[None, :]).abs().to(g.dtype)   # γ^|j-s| inside the chunk
        intra = ((q @ k.transpose(-2, -1)) * D_n) @ v
""")])

case("bug_chunk_exponents_float64", "bug",
     "retention_chunkwise builds its local index j as float64 whatever the inputs, so γ^j powers promote to float64 "
     "and float32 inputs end in a float64 @ float32 matmul that raises (float64 inputs are right).",
     ["keeps_dtype"],
     [(PY, "        j = torch.arange(n, dtype=g.dtype, device=g.device)[:, None]   # (n, 1) local index\n",
       "        j = torch.arange(n, dtype=torch.float64, device=g.device)[:, None]   # (n, 1) local index\n")])

# ============================================================================= bugs: unified, multiscale

case("bug_unified_gate_shifted", "bug",
     "unified_recurrence in gated mode applies gate[t-1] at step t (the previous step's gate), which is invisible "
     "for a constant gate.",
     ["unified_modes"],
     [(PY, "        gates = [gate[..., t][..., None, None] for t in range(L)]\n",
       "        gates = [gate[..., t - 1][..., None, None] for t in range(L)]   # the gate closing step t-1\n")])

case("bug_unified_retention_unchecked_gamma", "bug",
     "unified_recurrence in retention mode uses the raw gamma as A_t (no as_gamma): γ = 1.5 or NaN is not rejected "
     "and a per-head γ of shape (H,) broadcasts against the d_v columns of S.",
     ["unified_modes"],
     [(PY, "        gates = [as_gamma(gamma, Q)] * L                         # (..., 1, 1)\n",
       "        gates = [gamma] * L                                      # A_t = γ\n")])

case("bug_multiscale_linspace", "bug",
     "multiscale_decays spaces the exponents evenly from -5 to -9 (torch.linspace), which equals 1 - 2^(-5-h) only "
     "for exactly 5 heads.",
     ["multiscale"],
     [(PY, """    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1 - 2.0 ** (-5 - h)
""", """    exponents = torch.linspace(-5.0, -9.0, num_heads)           # from 1/32 down to 1/512
    return 1 - 2.0 ** exponents
""")])

# ============================================================================= bugs: notebook answers

case("bug_nb_your_turn_old_z", "bug",
     "notebook: the 'your turn' computation adds the third token to S but not to z, answering [2.00, 3.33] "
     "instead of [1.50, 2.50].",
     ["your_turn"],
     [(NB, nbline("z_turn = z_ex + torch.tensor([0.0, 1.0])\n"), nbline("z_turn = z_ex\n")),
      (NB, nbline("your_turn: [1.50, 2.50]\n"), nbline("your_turn: [2.00, 3.33]\n"))])

case("bug_nb_cost_ratio_scores_only", "bug",
     "notebook: counts only the scoring of the cached keys (2·t·d) for softmax attention, answering 391× "
     "instead of 781×.",
     ["cost_per_token"],
     [(NB, nbline("attention_ops = 4 * t * d     # score t cached keys and blend t cached values: 2·t·d multiply-adds\n"),
       nbline("attention_ops = 2 * t * d     # score t cached keys: t·d multiply-adds\n")),
      (NB, nbline("cost_ratio_at_100k: 781×\n"), nbline("cost_ratio_at_100k: 391×\n"))])

case("bug_nb_ex3_own_gate", "bug",
     "notebook: Exercise 3 counts token 2's own high gate in the weight of its write (0.095 at t = 3, 0.0095 at "
     "t = 4) and says the high gate protects that write.",
     ["ex3_selectivity"],
     [(NB, nbline("    print(f\"t = {t}: weight of token 2's write in S_t = {gate3[3:t + 1].prod().item():.4g}\")"),
       nbline("    print(f\"t = {t}: weight of token 2's write in S_t = {gate3[2:t + 1].prod().item():.4g}\")")),
      (NB, "The gate A_t multiplies the OLD state S_{t-1}, so the high gate at t = 2 preserves what tokens 0 and 1 had "
           "written (it keeps S_1 with weight 0.95); it does nothing for token 2's own write. That write is weighted "
           "by the gates after it: A_3 = 0.10 at t = 3 and A_3·A_4 = 0.010 at t = 4 (then 0.0095 at t = 5, where "
           "the high gate holds it, and 0.00095 at t = 6).",
       "The high gate at t = 2 protects token 2's own write: it is weighted by its own gate and the ones after it, "
       "A_2·A_3 = 0.95 × 0.1 ≈ 0.095 at t = 3 and A_2·A_3·A_4 ≈ 0.0095 at t = 4.")])

# ============================================================================= alternatives

ALT_LOGSPACE = [
    (PY, body("linear_attention_parallel"), """    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    causal = torch.ones(L, L, dtype=torch.bool, device=Q.device).tril()
    A = torch.einsum("...im,...jm->...ij", phi_q, phi_k).masked_fill(~causal, 0.0)
    return torch.einsum("...ij,...jd->...id", A, V) / A.sum(dim=-1, keepdim=True)
"""),
    (PY, body("decay_matrix"), """    n = torch.arange(L, device=gamma.device)
    distance = (n[:, None] - n[None, :]).to(gamma.dtype)         # (L, L): n - m
    # log space: γ^d = exp(d log γ). log 0 = -inf, and 0 * -inf is NaN, so the diagonal (d = 0) is set
    # to exp(0) = 1 explicitly (0**0 = 1) and the strict upper triangle to 0.
    exponent = torch.where(distance > 0, distance * torch.log(gamma), torch.zeros((), dtype=gamma.dtype))
    D = torch.exp(exponent)
    return torch.where(distance >= 0, D, torch.zeros((), dtype=D.dtype, device=D.device))
"""),
    (PY, body("retention_parallel"), """    g = as_gamma(gamma, Q)
    D = decay_matrix(g, Q.shape[-2])
    scores = torch.einsum("...nm,...sm->...ns", Q, K) * D
    return torch.einsum("...ns,...sd->...nd", scores, V)
"""),
]
case("alt_logspace_einsum", "alternative",
     "einsum-based parallel forms with a boolean masked_fill, and a log-space decay matrix exp(d·log γ) with the "
     "γ = 0 diagonal handled explicitly.", [], ALT_LOGSPACE)

ALT_PADDED = [(PY, body("retention_chunkwise"), """    if isinstance(chunk_size, bool) or int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size}")
    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    dtype = torch.result_type(Q, V)
    R = torch.zeros(*lead, m, d_v, dtype=dtype, device=Q.device)
    if L == 0:
        out = torch.zeros(*lead, 0, d_v, dtype=dtype, device=Q.device)
        return (out, R) if return_state else out
    B = min(int(chunk_size), L)                                  # a chunk longer than L is one chunk of L
    C = -(-L // B)                                               # number of chunks
    pad = C * B - L

    def blocks(X):
        # zero tokens go in FRONT: they write nothing into any state and their outputs are dropped, so every
        # chunk is full and all exponents are the full-chunk ones
        X = torch.nn.functional.pad(X.expand(*lead, *X.shape[-2:]), (0, 0, pad, 0))
        return X.reshape(*lead, C, B, X.shape[-1])               # (..., C, B, ·)

    q, k, v = blocks(Q), blocks(K), blocks(V)
    gc = g.unsqueeze(-3)                                         # (..., 1, 1, 1): the same γ for every chunk
    j = torch.arange(B, dtype=g.dtype, device=g.device)[:, None]
    intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, B).unsqueeze(-3)) @ v        # all chunks at once
    writes = (k * gc ** (B - 1 - j)).transpose(-2, -1) @ v      # (..., C, m, d_v): what each chunk adds to R
    decay = g ** B
    starts = []
    for c in range(C):                                           # only the small states are carried
        starts.append(R)
        R = decay * R + writes[..., c, :, :]
    cross = gc ** (j + 1) * (q @ torch.stack(starts, dim=-3))   # γ^(j+1) q_j R_(chunk start)
    out = (intra + cross).reshape(*lead, C * B, d_v)[..., pad:, :]
    return (out, R) if return_state else out
""")]
case("alt_chunk_padded_blocks", "alternative",
     "retention_chunkwise as padded batched blocks: zero tokens prepended so every chunk is full, all intra-chunk "
     "products in one batched matmul, then a short loop over the small chunk states.", [], ALT_PADDED)

ALT_F64 = [
    (PY, body("linear_attention_parallel"), """    dtype = torch.result_type(Q, V)                              # computed in float64, handed back in the input dtype
    Q, K, V = Q.double(), K.double(), V.double()
    phi_q, phi_k = feature_map(Q), feature_map(K)
    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))
    return ((A @ V) / A.sum(dim=-1, keepdim=True)).to(dtype)
"""),
    (PY, body("linear_attention_recurrent"), """    dtype = torch.result_type(Q, V)
    phi_q, phi_k, V = feature_map(Q.double()), feature_map(K.double()), V.double()
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=torch.float64, device=Q.device)
    z = torch.zeros(K.shape[-1], dtype=torch.float64, device=Q.device)
    ys = []
    for t in range(Q.shape[-2]):
        S = S + phi_k[..., t, :, None] * V[..., t, None, :]
        z = z + phi_k[..., t, :]
        ys.append((phi_q[..., t, :, None] * S).sum(-2) / (phi_q[..., t, :] * z).sum(-1, keepdim=True))
    return torch.stack(ys, dim=-2).to(dtype)
"""),
    (PY, body("LinearAttentionState.step"), """        dtype = torch.result_type(k, v)                          # the state is kept in float64
        phi_q, phi_k = feature_map(q.double()), feature_map(k.double())
        self.S = self.S.to(dtype=torch.float64, device=k.device) + phi_k[..., :, None] * v.double()[..., None, :]
        self.z = self.z.to(dtype=torch.float64, device=k.device) + phi_k
        y = (phi_q[..., :, None] * self.S).sum(-2) / (phi_q * self.z).sum(-1, keepdim=True)
        return y.to(dtype)
"""),
    (PY, body("retention_parallel"), """    dtype = torch.result_type(Q, V)
    Q, K, V = Q.double(), K.double(), V.double()
    D = decay_matrix(as_gamma(gamma, Q), Q.shape[-2])
    return (((Q @ K.transpose(-2, -1)) * D) @ V).to(dtype)
"""),
    (PY, body("retention_recurrent"), """    dtype = torch.result_type(Q, V)
    Q, K, V = Q.double(), K.double(), V.double()
    g = as_gamma(gamma, Q)
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=torch.float64, device=Q.device)
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :, None] * V[..., t, None, :]
        ys.append((Q[..., t, :, None] * S).sum(-2))
    return torch.stack(ys, dim=-2).to(dtype)
"""),
    (PY, body("retention_chunkwise"), """    if isinstance(chunk_size, bool) or int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size}")
    dtype = torch.result_type(Q, V)
    Q, K, V = Q.double(), K.double(), V.double()
    g = as_gamma(gamma, Q)
    R = torch.zeros(K.shape[-1], V.shape[-1], dtype=torch.float64, device=Q.device)
    outs = []
    for c0 in range(0, Q.shape[-2], int(chunk_size)):
        sl = slice(c0, c0 + int(chunk_size))
        q, k, v = Q[..., sl, :], K[..., sl, :], V[..., sl, :]
        n = q.shape[-2]
        j = torch.arange(n, dtype=torch.float64, device=Q.device)[:, None]
        outs.append(((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v + g ** (j + 1) * (q @ R))
        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v
    out = torch.cat(outs, dim=-2).to(dtype) if outs else torch.zeros(0, V.shape[-1], dtype=dtype)
    return (out, R.to(dtype)) if return_state else out
"""),
    (PY, body("multiscale_decays"), """    h = torch.arange(num_heads, dtype=torch.float64)
    return (1 - torch.exp2(-5 - h)).to(torch.get_default_dtype())
"""),
    (PY, body("unified_recurrence"), """    if mode not in ("linear", "retention", "gated"):
        raise ValueError(f"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'")
    if mode == "retention" and gamma is None or mode == "gated" and gate is None:
        raise ValueError(f"mode {mode!r} needs {'gamma' if mode == 'retention' else 'gate'}")
    dtype = torch.result_type(Q, V)
    Q, K, V = Q.double(), K.double(), V.double()
    L = Q.shape[-2]
    if mode == "linear":
        A = torch.ones(L, dtype=torch.float64)
    elif mode == "retention":
        A = as_gamma(gamma, Q)[..., 0, 0].unsqueeze(-1).expand(*as_gamma(gamma, Q).shape[:-2], L)
    else:
        A = torch.as_tensor(gate, dtype=torch.float64, device=Q.device)
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=torch.float64, device=Q.device)
    ys = []
    for t in range(L):
        S = A[..., t, None, None] * S + K[..., t, :, None] * V[..., t, None, :]
        ys.append((Q[..., t, :, None] * S).sum(-2))
    return torch.stack(ys, dim=-2).to(dtype)
"""),
]
case("alt_float64_internal", "alternative",
     "every form computes in float64 internally (states, decays, products) and casts the result back to the input "
     "dtype; unified_recurrence builds a gate tensor A of length L.", [], ALT_F64)

SCAN_HELPER = '''def _tick(S, A, q, k, v):
    """One tick of the one recurrence: S <- A S + k vᵀ (A None means 1), then read y = q S."""
    kv = k.unsqueeze(-1) * v.unsqueeze(-2)
    S = S + kv if A is None else A * S + kv
    return S, (q.unsqueeze(-2) @ S).squeeze(-2)


def _with_ones(V):
    """[v, 1]: with this extra value column, the last column of the state is the normalizer z."""
    return torch.cat([V, torch.ones_like(V[..., :1])], dim=-1)


# ----------------------------------------------------------------------------- linear attention
'''
ALT_SCAN = [
    (PY, "# ----------------------------------------------------------------------------- linear attention\n",
     SCAN_HELPER),
    (PY, body("linear_attention_recurrent"), """    # linear attention is the A_t = 1 recurrence run on φ(Q), φ(K) and the values [v, 1]
    y1 = unified_recurrence(feature_map(Q), feature_map(K), _with_ones(V), "linear")
    return y1[..., :-1] / y1[..., -1:]
"""),
    (PY, body("LinearAttentionState.step"), """        dtype = torch.result_type(k, v)
        S1 = torch.cat([self.S.to(dtype=dtype, device=k.device),
                        self.z.to(dtype=dtype, device=k.device).unsqueeze(-1)], dim=-1)   # [S | z], (..., m, d_v + 1)
        S1, y1 = _tick(S1, None, feature_map(q), feature_map(k), _with_ones(v))
        self.S, self.z = S1[..., :-1].contiguous(), S1[..., -1].contiguous()
        return y1[..., :-1] / y1[..., -1:]
"""),
    (PY, body("retention_recurrent"), """    return unified_recurrence(Q, K, V, "retention", gamma=gamma)
"""),
    (PY, """    for t in range(L):
        kv = K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
        S = S + kv if gates[t] is None else gates[t] * S + kv
        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))
""", """    for t in range(L):
        S, y = _tick(S, gates[t], Q[..., t, :], K[..., t, :], V[..., t, :])
        ys.append(y)
"""),
]
case("alt_one_tick", "alternative",
     "one private tick S <- A S + k vᵀ, y = q S drives unified_recurrence and the step; linear attention runs the "
     "A_t = 1 recurrence on values [v, 1] (last state column = z); retention_recurrent calls unified_recurrence.",
     [], ALT_SCAN)

POWERS_HELPER = '''def _gamma_powers(gamma, N):
    """γ^0 .. γ^(N-1), shape (..., N), by a running product done in float64 (so N roundings do not pile
    up in float32), then cast back to gamma's dtype. gamma: as_gamma's output (..., 1, 1)."""
    g64 = gamma[..., 0].to(torch.float64)                        # (..., 1)
    steps = torch.cumprod(g64.expand(*g64.shape[:-1], max(N - 1, 0)), dim=-1)
    return torch.cat([torch.ones_like(g64), steps], dim=-1)[..., :N].to(gamma.dtype)


def decay_matrix(gamma, L):'''
ALT_POWERS = [
    (PY, "def decay_matrix(gamma, L):", POWERS_HELPER),
    (PY, body("decay_matrix"), """    n = torch.arange(L, device=gamma.device)
    distance = n[:, None] - n[None, :]                           # (L, L): n - m
    D = _gamma_powers(gamma, L)[..., distance.clamp(min=0)]      # a table lookup: (..., L, L)
    return torch.where(distance >= 0, D, torch.zeros((), dtype=D.dtype, device=D.device))
"""),
    (PY, """        j = torch.arange(n, dtype=g.dtype, device=g.device)[:, None]   # (n, 1) local index
        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R
        outs.append(intra + cross)
        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v
""", """        P = _gamma_powers(g, n + 1)                              # (..., n + 1): γ^0 .. γ^n
        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        outs.append(intra + P[..., 1:, None] * (q @ R))          # γ^(j+1) q_j R
        R = P[..., n:, None] * R + (k * P[..., :n].flip(-1)[..., None]).transpose(-2, -1) @ v   # γ^n, γ^(n-1-s)
"""),
]
case("alt_powers_table", "alternative",
     "all decay powers come from one table γ^0..γ^(N-1) built by a float64 cumprod: the decay matrix is a table "
     "lookup and the chunk exponents are slices of it.", [], ALT_POWERS)

ALT_REUSE = [
    (PY, body("linear_attention_parallel"), """    phi_q, phi_k = feature_map(Q), feature_map(K)
    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))
    V1 = torch.cat([V, torch.ones_like(V[..., :1])], dim=-1)     # the ones column gives the row sums
    Y1 = A @ V1
    return Y1[..., :-1] / Y1[..., -1:]
"""),
    (PY, body("as_gamma"), """    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if torch.isnan(g).any() or (g < 0).any() or (g > 1).any():
        raise ValueError(f"gamma must lie in [0, 1] (no NaN), got {gamma}")
    return g.reshape(*g.shape, 1, 1)
"""),
    (PY, body("retention_chunkwise"), """    if isinstance(chunk_size, bool) or int(chunk_size) != chunk_size or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size}")
    g = as_gamma(gamma, Q)
    R = torch.zeros(K.shape[-1], V.shape[-1], dtype=torch.result_type(Q, V), device=Q.device)
    outs = []
    for q, k, v in zip(Q.split(int(chunk_size), dim=-2), K.split(int(chunk_size), dim=-2),
                       V.split(int(chunk_size), dim=-2)):
        n = q.shape[-2]
        j = torch.arange(1, n + 1, dtype=g.dtype, device=g.device).unsqueeze(-1)   # j + 1 = 1 .. n
        # inside the chunk it is just retention; across chunks, queries are pre-scaled by γ^(j+1)
        outs.append(retention_parallel(q, k, v, gamma) + (q * g ** j) @ R)
        R = g ** n * R + (k * g ** (n - j)).transpose(-2, -1) @ v
    out = torch.cat(outs, dim=-2) if outs else torch.zeros(0, V.shape[-1], dtype=V.dtype)
    return (out, R) if return_state else out
"""),
    (PY, body("multiscale_decays"), """    return 1 - torch.pow(2.0, -torch.arange(5, 5 + num_heads, dtype=torch.get_default_dtype()))
"""),
]
case("alt_split_and_reuse", "alternative",
     "linear attention's normalizer from a ones column of V; chunkwise over tensor.split chunks reusing "
     "retention_parallel inside each chunk and pre-scaling queries by γ^(j+1); isnan-based γ check.", [], ALT_REUSE)

# ============================================================================= stubs (whole module replaced)

STUB_HEAD = '''"""Linear attention and retention (placeholder implementation)."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1


def _lead(*xs):
    return torch.broadcast_shapes(*(x.shape[:-2] for x in xs))


def _out(Q, K, V):
    return (*_lead(Q, K, V), Q.shape[-2], V.shape[-1])

'''


def stub_module(make, make_vec, gamma_fn):
    return STUB_HEAD + f'''
def _make(shape, like):
    return {make}


def linear_attention_parallel(Q, K, V):
    return _make(_out(Q, K, V), V)


def linear_attention_recurrent(Q, K, V):
    return _make(_out(Q, K, V), V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return {make_vec}


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype, device=like.device)[..., None, None]


def decay_matrix(gamma, L):
    return torch.tril(torch.ones(*gamma.shape[:-2], L, L, dtype=gamma.dtype))


def retention_parallel(Q, K, V, gamma):
    return _make(_out(Q, K, V), V)


def retention_recurrent(Q, K, V, gamma):
    return _make(_out(Q, K, V), V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _make(_out(Q, K, V), V)
    if return_state:
        return out, _make((*_lead(Q, K, V), K.shape[-1], V.shape[-1]), V)
    return out


def multiscale_decays(num_heads):
    return {gamma_fn}


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _make(_out(Q, K, V), V)


def gated_delta_rule(Q, K, V, alpha, beta):
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
'''


case("stub_random", "stub", "every function returns random tensors of the right shape (feature_map kept as given).",
     "ALL", module=stub_module("torch.randn(shape, dtype=like.dtype)", "torch.randn_like(v)",
                               "torch.rand(num_heads)"))
case("stub_zeros", "stub", "every function returns zeros of the right shape (feature_map kept as given).",
     "ALL", module=stub_module("torch.zeros(shape, dtype=like.dtype)", "torch.zeros_like(v)",
                               "torch.zeros(num_heads)"))
case("stub_return_v", "stub",
     "every form returns V itself (the step returns v), decays are all ones, no checks (feature_map kept as given).",
     "ALL", module=stub_module("torch.broadcast_to(like, shape).clone()", "v.clone()", "torch.ones(num_heads)"))

# Stubs lose every code item and the three exercise-run items (rubric evidence rule); they keep the answers
# and the written answers, which come from the base notebook.
CODE_ITEMS = ["normalizer", "update_before_read", "running_normalizer", "feature_map", "kv_orientation", "causal_mask",
              "decay_every_form", "chunk_boundaries", "partial_chunk_state", "gamma_validation", "independent_states",
              "recurrent_cost", "chunkwise_memory", "linear_parallel", "linear_recurrent", "state_step",
              "retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes", "multiscale",
              "keeps_dtype", "ex1_runs", "ex2_runs", "ex3_runs"]


def build():
    rubric_ids = {item["id"] for item in yaml.safe_load((BASE / "rubric.yaml").read_text())["items"]}
    assert set(CODE_ITEMS) <= rubric_ids
    entries = [dict(name="base", kind="alternative",
                    about="careful complete submission: every stub (optional gated delta rule too) implemented from "
                          "the docstrings, notebook exercises, answers and written answers filled in",
                    should_lose=[])]
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names))
    for c in CASES:
        dest = HERE / c["name"]
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(BASE, dest, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
        if c["module"] is not None:
            (dest / PY).write_text(c["module"])
        for fname, old, new in c["edits"]:
            text = (dest / fname).read_text()
            assert text.count(old) == 1, (c["name"], fname, old[:80], text.count(old))
            assert old != new
            text = text.replace(old, new)
            (dest / fname).write_text(text)
        if fname_is_nb(c):
            json.loads((dest / NB).read_text())                  # still valid JSON
        lose = CODE_ITEMS if c["should_lose"] is None else c["should_lose"]
        assert set(lose) <= rubric_ids, (c["name"], set(lose) - rubric_ids)
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=list(lose)))
    write_corpus(entries)
    return entries


def fname_is_nb(c):
    return any(f == NB for f, _, _ in c["edits"])


def write_corpus(entries):
    lines = ["# Blind corpus, round 10, linear-attention-basics: one entry per case folder.",
             "# should_lose: rubric.yaml item ids judged from the rubric titles and the notebook only.", ""]
    for e in entries:
        lines.append(f"- name: {e['name']}")
        lines.append(f"  kind: {e['kind']}")
        lines.append(f"  about: {json.dumps(e['about'], ensure_ascii=False)}")
        lines.append(f"  should_lose: [{', '.join(e['should_lose'])}]")
    (HERE / "corpus.yaml").write_text("\n".join(lines) + "\n")
    assert yaml.safe_load((HERE / "corpus.yaml").read_text())[0]["name"] == "base"


if __name__ == "__main__":
    es = build()
    kinds = {}
    for e in es:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(len(es), "entries:", kinds)
