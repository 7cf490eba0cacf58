"""Build the round-13 blind corpus from base/: one folder per case, plus corpus.yaml.

Every case is a full copy of base/ (the student template folder, completed) with exact string replacements.
Each anchor must occur exactly once in the file it edits, and each edit must change the file.
`fix(func, old, new)` anchors on a whole base function body (found with `ast`) and replaces one fragment that
occurs exactly once inside it. Alternatives (and two body-level bugs) replace whole function bodies.
Notebook anchors are single source lines, JSON-escaped by the script the way the .ipynb stores them.
Stubs replace the whole module (base notebook kept).

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
    text = "\n".join(lines[first.lineno - 1:node.end_lineno]) + "\n"
    assert BASE_PY.count(text) == 1, qualname
    return text


def alt(qualname, new_body):
    return (PY, body(qualname), new_body)


def fix(qualname, old, new):
    """Replace one fragment (occurring once) inside one base function body."""
    b = body(qualname)
    assert b.count(old) == 1, (qualname, old, b.count(old))
    return (PY, b, b.replace(old, new))


def nb(old, new):
    """An edit of one notebook source line (or line fragment), JSON-escaped as the .ipynb stores it."""
    esc = lambda s: json.dumps(s, ensure_ascii=False)[1:-1]   # noqa: E731
    return (NB, esc(old), esc(new))


CASES = []


def case(name, kind, about, should_lose, edits=(), module=None):
    CASES.append(dict(name=name, kind=kind, about=about, edits=list(edits), module=module,
                      should_lose=None if should_lose == "ALL" else list(should_lose)))


LP, LR, ST, ASG, DM = ("linear_attention_parallel", "linear_attention_recurrent", "LinearAttentionState.step",
                       "as_gamma", "decay_matrix")
RP, RR, RC, MS, UR = ("retention_parallel", "retention_recurrent", "retention_chunkwise", "multiscale_decays",
                      "unified_recurrence")

# ============================================================================= bugs: linear attention

case("bug_linpar_len_from_dim0", "bug",
     "linear_attention_parallel builds its causal mask from L = Q.shape[0] (right for an unbatched (L, m) input); "
     "with leading dims the mask is (B, B) and the form raises.",
     ["linear_parallel"],
     [fix(LP, "    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))              # (..., L, L), zero where j > i\n",
          "    L = Q.shape[0]                                               # sequence length\n"
          "    mask = torch.tril(torch.ones(L, L, dtype=torch.bool, device=Q.device))\n"
          "    A = (phi_q @ phi_k.transpose(-2, -1)).masked_fill(~mask, 0)  # zero where j > i\n")])

case("bug_linpar_column_sums", "bug",
     "linear_attention_parallel divides row i by the COLUMN sum Σ_i' A[i', i] (sum over dim -2, transposed) "
     "instead of the row sum φ(q_i)ᵀz_i: the weights no longer sum to 1 and later queries change earlier rows.",
     ["normalizer", "running_normalizer", "causal_mask", "linear_parallel"],
     [fix(LP, "A.sum(dim=-1, keepdim=True)", "A.sum(dim=-2, keepdim=True).transpose(-2, -1)")])

case("bug_linrec_inplace_elu", "bug",
     "linear_attention_recurrent applies φ in place (F.elu(Q, inplace=True).add_(1)) to save two copies: its "
     "output is right, but the caller's Q and K are overwritten with φ(Q), φ(K).",
     ["linear_recurrent", "ex1_runs"],
     [fix(LR, "    phi_q, phi_k = feature_map(Q), feature_map(K)                 # new tensors: Q and K stay untouched\n",
          "    phi_q = F.elu(Q, inplace=True).add_(1)                       # φ in place: no copies of Q and K\n"
          "    phi_k = F.elu(K, inplace=True).add_(1)\n")])

case("bug_linrec_stack_dim0", "bug",
     "linear_attention_recurrent stacks the y_t along dim 0: right for one unbatched sequence, but batched inputs "
     "come back as (L, ..., d_v) instead of (..., L, d_v).",
     ["linear_recurrent"],
     [fix(LR, "    return torch.stack(ys, dim=-2)                               # (..., L, d_v)\n",
          "    return torch.stack(ys)                                       # (L, d_v)\n")])

case("bug_linrec_state_dv_by_m", "bug",
     "linear_attention_recurrent allocates S as zeros(d_v, m): harmless when m == d_v (broadcasting hides it), "
     "raises when m != d_v.",
     ["linear_recurrent", "ex1_runs"],
     [fix(LR, "    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)      # (m, d_v), broadcasts to (..., m, d_v)\n",
          "    S = torch.zeros(d_v, m, dtype=V.dtype, device=V.device)      # the state, broadcasts to (..., m, d_v)\n")])

# ============================================================================= bugs: the decoding state

case("bug_step_read_then_write", "bug",
     "LinearAttentionState.step reads φ(q)ᵀS / φ(q)ᵀz from the OLD state and only then adds token (k, v): "
     "token t never sees itself (the first step is 0/0 = NaN).",
     ["update_before_read", "state_step"],
     [alt(ST, '''        phi_q, phi_k = feature_map(q), feature_map(k)
        S = self.S.to(dtype=v.dtype, device=v.device)            # the fresh state is default-dtype zeros
        z = self.z.to(dtype=v.dtype, device=v.device)
        num = (phi_q.unsqueeze(-2) @ S).squeeze(-2)              # φ(q)ᵀ S, (..., d_v)
        den = (phi_q * z).sum(dim=-1, keepdim=True)              # φ(q)ᵀ z, (..., 1)
        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # then fold the token in
        self.z = z + phi_k
        return num / den
''')])

case("bug_step_einsum_sums_batch", "bug",
     "LinearAttentionState.step writes the outer product as einsum('...i,...j->ij', φ(k), v): unbatched it is "
     "φ(k)vᵀ, with leading dims it sums over them, so every batch element/head shares one S.",
     ["state_step"],
     [fix(ST, "        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # new tensors, never written in place\n",
          "        self.S = S + torch.einsum(\"...i,...j->ij\", phi_k, v)     # φ(k) vᵀ\n")])

case("bug_step_mutable_default_history", "bug",
     "LinearAttentionState keeps every (φ(k), v) in a `history=[]` default argument and rebuilds S and z from it at "
     "each step: the list is shared by every state object, and each step's work and memory grow with t.",
     ["independent_states", "state_step", "recurrent_cost"],
     [(PY, "    def __init__(self, m, d_v):\n", "    def __init__(self, m, d_v, history=[]):\n"),
      (PY, "        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)\n",
       "        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)\n"
       "        self.history = history                                   # every (φ(k), v) seen so far\n"),
      alt(ST, '''        phi_q = feature_map(q)
        self.history.append((feature_map(k), v))
        ks = torch.stack([h[0] for h in self.history], dim=-2)      # (..., t+1, m)
        vs = torch.stack([h[1] for h in self.history], dim=-2)      # (..., t+1, d_v)
        self.S = ks.transpose(-2, -1) @ vs                       # Σ φ(k_j) v_jᵀ
        self.z = ks.sum(dim=-2)                                  # Σ φ(k_j)
        num = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
        return num / den
''')])

# ============================================================================= bugs: gamma, decay matrix

case("bug_gamma_rejects_one", "bug",
     "as_gamma accepts only 0 <= γ < 1 ('γ = 1 never forgets'), so the documented edge γ = 1 raises ValueError "
     "in every retention form (and the notebook's γ = 1 check).",
     ["gamma_validation", "retention_parallel", "retention_recurrent", "retention_chunkwise", "ex2_runs"],
     [fix(ASG, "(g <= 1)", "(g < 1)")])

case("bug_gamma_one_trailing_dim", "bug",
     "as_gamma returns gamma.unsqueeze(-1) (one trailing dim): a float still broadcasts, but a per-head tensor (H,) "
     "becomes (H, 1) and lines up with the wrong axes (raises or mis-broadcasts).",
     ["retention_parallel", "retention_recurrent", "retention_chunkwise", "unified_modes"],
     [fix(ASG, "    return g.reshape(*g.shape, 1, 1)                             # gamma.shape + (1, 1)\n",
          "    return g.unsqueeze(-1)                                       # one decay per row\n")])

case("bug_gamma_assert", "bug",
     "as_gamma validates with `assert`, so γ outside [0, 1] (or NaN) raises AssertionError, not ValueError.",
     ["gamma_validation"],
     [fix(ASG, "    if not bool(ok.all()):\n        raise ValueError(f\"gamma must lie in [0, 1] (no NaN), got {gamma!r}\")\n",
          "    assert bool(ok.all()), f\"gamma must lie in [0, 1] (no NaN), got {gamma!r}\"\n")])

case("bug_decay_weights_from_end", "bug",
     "decay_matrix uses D[n, m] = γ^(L-1-m) (each key decayed by its distance to the END of the sequence, the "
     "final-state weights) instead of γ^(n-m): parallel and chunkwise retention decay wrongly.",
     ["decay_every_form", "retention_parallel", "retention_chunkwise"],
     [fix(DM, "    D = gamma ** distance.clamp(min=0).to(gamma.dtype)           # never a negative power\n",
          "    D = gamma ** (L - 1 - n[None, :]).to(gamma.dtype)            # key m decays until the end\n")])

case("bug_decay_abs_distance", "bug",
     "decay_matrix returns γ^|n-m| (abs to avoid negative powers) and forgets to zero the entries above the "
     "diagonal: retention_parallel and the chunkwise intra term see future tokens.",
     ["causal_mask", "retention_parallel", "retention_chunkwise"],
     [fix(DM, "    D = gamma ** distance.clamp(min=0).to(gamma.dtype)           # never a negative power\n"
              "    return torch.where(distance >= 0, D, torch.zeros((), dtype=gamma.dtype, device=gamma.device))\n",
          "    return gamma ** distance.abs().to(gamma.dtype)               # |n - m|: never a negative power\n")])

# ============================================================================= bugs: retention parallel / recurrent

case("bug_retpar_sqrt_scale", "bug",
     "retention_parallel divides the scores by sqrt(m) 'as in attention' although the docstring says no scale.",
     ["retention_parallel"],
     [fix(RP, "    return ((Q @ K.transpose(-2, -1)) * D) @ V\n",
          "    return ((Q @ K.transpose(-2, -1)) / Q.shape[-1] ** 0.5 * D) @ V   # scaled scores\n")])

case("bug_retpar_one_token_shortcut", "bug",
     "retention_parallel returns V unchanged for a single token ('one token only sees itself', true for linear "
     "attention) instead of (q·k) v: only L = 1 inputs are wrong.",
     ["retention_parallel"],
     [fix(RP, "    g = as_gamma(gamma, Q)                                       # (..., 1, 1)\n",
          "    g = as_gamma(gamma, Q)                                       # (..., 1, 1)\n"
          "    if Q.shape[-2] == 1:\n"
          "        return V.clone()                                         # one token only sees itself\n")])

case("bug_retrec_gamma_float32", "bug",
     "retention_recurrent casts γ to float32 ('a decay needs no double precision'): float64 inputs keep their "
     "dtype but γ is rounded, so outputs drift ~1e-8 relative per step from the float64 result.",
     ["retention_recurrent"],
     [fix(RR, "    g = as_gamma(gamma, Q)                                       # (..., 1, 1)\n",
          "    g = as_gamma(gamma, Q).float()                               # a decay factor needs no double\n")])

case("bug_retrec_resum_history", "bug",
     "cost misconception: retention_recurrent rebuilds S_t = Σ_{s<=t} γ^(t-s) k_sᵀ v_s from the whole prefix at "
     "every step (right values, O(L²) work).",
     ["recurrent_cost", "retention_recurrent"],
     [fix(RR, "        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # γ S + k_tᵀ v_t\n",
          "        w = g ** torch.arange(t, -1, -1, dtype=g.dtype, device=g.device).unsqueeze(-1)   # γ^(t-s)\n"
          "        S = (K[..., :t + 1, :] * w).transpose(-2, -1) @ V[..., :t + 1, :]\n")])

# ============================================================================= bugs: chunkwise

case("bug_chunk_R_update_before_cross", "bug",
     "retention_chunkwise carries R on to the end of the chunk BEFORE reading the cross-chunk term, so each chunk "
     "reads a state that already holds its own (and later) tokens: wrong and non-causal inside a chunk.",
     ["chunk_boundaries", "causal_mask", "retention_chunkwise"],
     [fix(RC, "        cross = g ** (j + 1).unsqueeze(-1) * (q @ R)             # γ^(j+1) q_j R, (..., n, d_v)\n"
              "        outs.append(intra + cross)\n"
              "        w = g ** (n - 1 - j).unsqueeze(-1)                       # γ^(n-1-s), (..., n, 1)\n"
              "        R = g ** n * R + (k * w).transpose(-2, -1) @ v\n",
          "        w = g ** (n - 1 - j).unsqueeze(-1)                       # γ^(n-1-s), (..., n, 1)\n"
          "        R = g ** n * R + (k * w).transpose(-2, -1) @ v\n"
          "        cross = g ** (j + 1).unsqueeze(-1) * (q @ R)             # γ^(j+1) q_j R, (..., n, d_v)\n"
          "        outs.append(intra + cross)\n")])

case("bug_chunk_floor_div_chunks", "bug",
     "retention_chunkwise loops over the L // chunk_size whole chunks only: when chunk_size does not divide L the "
     "tail tokens are dropped (short output, wrong state); chunk_size > L gives zeros.",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, "    for c0 in range(0, L, chunk_size):\n",
          "    for c0 in range(0, L // chunk_size * chunk_size, chunk_size):   # the whole chunks\n")])

case("bug_chunk_skips_final_state_update", "bug",
     "retention_chunkwise skips the state update after the last chunk ('no chunk reads it'), so outputs are right "
     "but the returned R is the state before the last chunk.",
     ["partial_chunk_state", "retention_chunkwise"],
     [fix(RC, "        R = g ** n * R + (k * w).transpose(-2, -1) @ v\n",
          "        if c0 + chunk_size < L:                                  # a later chunk will read R\n"
          "            R = g ** n * R + (k * w).transpose(-2, -1) @ v\n")])

case("bug_chunk_rejects_large_chunk", "bug",
     "retention_chunkwise raises ValueError when chunk_size > L, although the docstring says larger chunks work.",
     ["chunk_boundaries", "retention_chunkwise"],
     [fix(RC, "    g = as_gamma(gamma, Q)                                       # (..., 1, 1)\n",
          "    if chunk_size > Q.shape[-2]:\n"
          "        raise ValueError(f\"chunk_size {chunk_size} is larger than the sequence\")\n"
          "    g = as_gamma(gamma, Q)                                       # (..., 1, 1)\n")])

case("bug_chunk_rebuild_R_from_prefix", "bug",
     "cost misconception: retention_chunkwise recomputes the carried state R = Σ_{s<c0} γ^(c0-1-s) k_sᵀ v_s from the "
     "whole prefix at every chunk: right outputs and state, but O(L²/B) work.",
     ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    L = Q.shape[-2]

    def state_before(c0):                                        # Σ_{s<c0} γ^(c0-1-s) k_sᵀ v_s
        e = torch.arange(c0 - 1, -1, -1, dtype=g.dtype, device=g.device).unsqueeze(-1)
        return (K[..., :c0, :] * g ** e).transpose(-2, -1) @ V[..., :c0, :]

    outs = []
    for c0 in range(0, L, chunk_size):
        q, k, v = Q[..., c0:c0 + chunk_size, :], K[..., c0:c0 + chunk_size, :], V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]
        j = torch.arange(n, dtype=g.dtype, device=g.device)
        R = state_before(c0)
        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        outs.append(intra + g ** (j + 1).unsqueeze(-1) * (q @ R))
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(V.shape)
    if return_state:
        return out, state_before(L)
    return out
''')])

case("bug_chunk_float64_exponents", "bug",
     "retention_chunkwise builds its local index j in float64 ('exact exponents'): float64 inputs are fine, but "
     "for float32 inputs the weights γ^(n-1-s) promote k to float64 and the state update's matmul raises.",
     ["keeps_dtype"],
     [fix(RC, "        j = torch.arange(n, dtype=g.dtype, device=g.device)\n",
          "        j = torch.arange(n, dtype=torch.float64, device=g.device)  # exact exponents\n")])

case("bug_chunk_scales_k_view_inplace", "bug",
     "retention_chunkwise weights the chunk's keys in place (k *= γ^(n-1-s)) before the state update: the output "
     "is right, but k is a view of K, so the caller's K is overwritten.",
     ["retention_chunkwise"],
     [fix(RC, "        R = g ** n * R + (k * w).transpose(-2, -1) @ v\n",
          "        k *= w                                                   # k is not needed any more\n"
          "        R = g ** n * R + k.transpose(-2, -1) @ v\n")])

case("bug_chunk_range_stop_minus_one", "bug",
     "retention_chunkwise loops `range(0, L - 1, chunk_size)`: whenever the last chunk would hold one single token "
     "((L-1) % chunk_size == 0, e.g. chunk_size 1 or 4 for L = 9) that token is dropped.",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, "    for c0 in range(0, L, chunk_size):\n", "    for c0 in range(0, L - 1, chunk_size):\n")])

# ============================================================================= bugs: multiscale, unified

case("bug_multiscale_int_power", "bug",
     "multiscale_decays uses an integer arange and the int base 2: 2 ** (-5 - h) is integer division-like 0, so "
     "every γ_h comes back as the integer 1.",
     ["multiscale"],
     [fix(MS, "    h = torch.arange(num_heads, dtype=torch.get_default_dtype())\n    return 1 - 2.0 ** (-5 - h)\n",
          "    h = torch.arange(num_heads)\n    return 1 - 2 ** (-5 - h)\n")])

case("bug_unified_gate_previous_index", "bug",
     "unified_recurrence reads 'A_t multiplies S_{t-1}' as gate[..., t-1]: the gates are shifted by one step "
     "(invisible for a constant gate, wrong for any varying one).",
     ["unified_modes"],
     [fix(UR, "        gates = [A[..., t, None, None] for t in range(L)]        # (..., 1, 1) each\n",
          "        gates = [A[..., t - 1, None, None] for t in range(L)]    # A_t scales S_{t-1}\n")])

case("bug_unified_gamma_defaults_one", "bug",
     "unified_recurrence in retention mode treats a missing gamma as 1.0 (plain linear attention) instead of "
     "raising ValueError.",
     ["unified_modes"],
     [fix(UR, "            raise ValueError(\"mode 'retention' needs gamma\")\n",
          "            gamma = 1.0                                          # no decay given: never forget\n")])

# ============================================================================= bugs: notebook only

case("bug_nb_your_turn_stale_z", "bug",
     "notebook: the 'your turn' cell adds the third token to S but not to z, so the answer is [2.00, 3.33].",
     ["your_turn"],
     [nb("z3 = z_ex + k3                                                  # (2, 2)",
         "z3 = z_ex                                                       # the keys' total"),
      nb("your_turn: [1.50, 2.50]", "your_turn: [2.00, 3.33]")])

case("bug_nb_cost_ratio_one_pass", "bug",
     "notebook: counts softmax attention's cost as scoring only (2·t·d), giving 391× instead of 781×.",
     ["cost_per_token"],
     [nb("attention_ops = 4 * t * d      # score t cached keys, blend t cached values",
         "attention_ops = 2 * t * d      # score the t cached keys"),
      nb("cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 391×")])

case("bug_nb_ex2_strict_tril", "bug",
     "notebook: Exercise 2 builds by_hand with torch.tril(..., diagonal=-1) (the strict past), so the locked check "
     "cell fails.",
     ["ex2_runs"],
     [nb("by_hand = torch.tril(Q2 @ K2.transpose(-2, -1)) @ V2",
         "by_hand = torch.tril(Q2 @ K2.transpose(-2, -1), diagonal=-1) @ V2")])

# ============================================================================= alternatives

case("alt_einsum_forms", "alternative",
     "every score, read and outer product written with torch.einsum over '...' (parallel and recurrent forms of "
     "both models and the decoding step).",
     [],
     [alt(LP, '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    A = torch.einsum("...im,...jm->...ij", phi_q, phi_k).tril()
    return torch.einsum("...ij,...jd->...id", A, V) / A.sum(-1, keepdim=True)
'''),
      alt(LR, '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    z = V.new_zeros(K.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        S = S + torch.einsum("...m,...d->...md", phi_k[..., t, :], V[..., t, :])
        z = z + phi_k[..., t, :]
        num = torch.einsum("...m,...md->...d", phi_q[..., t, :], S)
        ys.append(num / torch.einsum("...m,...m->...", phi_q[..., t, :], z).unsqueeze(-1))
    return torch.stack(ys, dim=-2) if ys else V.new_zeros(V.shape)
'''),
      alt(ST, '''        phi_q, phi_k = feature_map(q), feature_map(k)
        self.S = self.S.to(v.dtype) + torch.einsum("...m,...d->...md", phi_k, v)
        self.z = self.z.to(v.dtype) + phi_k
        num = torch.einsum("...m,...md->...d", phi_q, self.S)
        return num / torch.einsum("...m,...m->...", phi_q, self.z).unsqueeze(-1)
'''),
      alt(RP, '''    g = as_gamma(gamma, Q)
    W = torch.einsum("...im,...jm->...ij", Q, K) * decay_matrix(g, Q.shape[-2])
    return torch.einsum("...ij,...jd->...id", W, V)
'''),
      alt(RR, '''    g = as_gamma(gamma, Q)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :])
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    return torch.stack(ys, dim=-2) if ys else V.new_zeros(V.shape)
''')])

case("alt_chunk_front_pad_batched", "alternative",
     "retention_chunkwise left-pads the sequence with zero tokens to a multiple of the chunk size (a different but "
     "equally valid chunking), computes every chunk's intra term and state contribution batched over chunks, and "
     "loops only over chunks to carry R.",
     [],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    B = max(1, min(chunk_size, L))                               # any chunking gives the same function
    p = (-L) % B                                                 # zero tokens in front: they add nothing
    pad = lambda X: torch.cat([X.new_zeros(*X.shape[:-2], p, X.shape[-1]), X], dim=-2)   # noqa: E731
    Qp, Kp, Vp = pad(Q), pad(K), pad(V)
    C = (L + p) // B
    q = Qp.reshape(*Qp.shape[:-2], C, B, m)
    k = Kp.reshape(*Kp.shape[:-2], C, B, m)
    v = Vp.reshape(*Vp.shape[:-2], C, B, d_v)
    gc = g.unsqueeze(-3)                                         # (..., 1, 1, 1): broadcasts over chunks
    j = torch.arange(B, dtype=g.dtype, device=g.device).unsqueeze(-1)
    intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, B).unsqueeze(-3)) @ v     # (..., C, B, d_v)
    contrib = (k * (gc ** (B - 1 - j))).transpose(-2, -1) @ v    # (..., C, m, d_v)
    R = V.new_zeros(m, d_v)
    before = []
    for c in range(C):
        before.append(R)
        R = g ** B * R + contrib[..., c, :, :]
    lead = torch.broadcast_shapes(intra.shape[:-3], *(r.shape[:-2] for r in before))
    Rb = torch.stack([r.expand(*lead, m, d_v) for r in before], dim=-3)           # (..., C, m, d_v)
    out = intra + gc ** (j + 1) * (q @ Rb)
    out = out.reshape(*out.shape[:-3], C * B, d_v)[..., p:, :]
    if return_state:
        return out, R
    return out
''')])

case("alt_decay_gather_powers", "alternative",
     "decay_matrix computes the L powers γ^0 .. γ^(L-1) once and gathers them by distance (masked with "
     "torch.where); linear attention masks with a multiplicative lower-triangular ones matrix.",
     [],
     [alt(DM, '''    idx = torch.arange(L, device=gamma.device)
    distance = idx[:, None] - idx[None, :]
    powers = gamma ** idx.to(gamma.dtype)                        # (..., 1, L): γ^0 .. γ^(L-1)
    D = powers[..., 0, distance.clamp(min=0)]                    # (..., L, L)
    return torch.where(distance >= 0, D, torch.zeros_like(D))
'''),
      alt(LP, '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    causal = torch.ones(L, L, dtype=Q.dtype, device=Q.device).tril()
    A = (phi_q @ phi_k.mT) * causal
    return (A @ V) / A.sum(-1, keepdim=True)
''')])

case("alt_unified_dict_dispatch", "alternative",
     "unified_recurrence picks a gate builder from a dict of lambdas (unknown key or missing argument -> "
     "ValueError) and retention_recurrent is simply unified_recurrence in retention mode.",
     [],
     [alt(RR, '''    return unified_recurrence(Q, K, V, "retention", gamma=gamma)
'''),
      alt(UR, '''    L = Q.shape[-2]

    def gated(t):
        return A[..., t].unsqueeze(-1).unsqueeze(-1)

    builders = {"linear": lambda: (lambda t: 1.0), "retention": lambda: (lambda t: g), "gated": lambda: gated}
    if mode not in builders:
        raise ValueError(f"unknown mode {mode!r}")
    if mode == "retention":
        if gamma is None:
            raise ValueError("retention needs gamma")
        g = as_gamma(gamma, V)
    if mode == "gated":
        if gate is None:
            raise ValueError("gated needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)
        if A.ndim == 0 or A.shape[-1] != L:
            raise ValueError("gate must be (L,) or (..., L)")
    gate_at = builders[mode]()
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(L):
        S = gate_at(t) * S + K[..., t, :, None] * V[..., t, None, :]
        ys.append((Q[..., t, :, None] * S).sum(-2))
    return torch.stack(ys, dim=-2) if ys else V.new_zeros(V.shape)
''')])

case("alt_normalizer_cumsum", "alternative",
     "linear_attention_parallel divides by φ(q_i)·cumsum(φ(K))_i (the running z built with cumsum); as_gamma "
     "checks with torch.isnan/logical ops and adds the two dims by indexing with None.",
     [],
     [alt(LP, '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    num = torch.tril(phi_q @ phi_k.transpose(-2, -1)) @ V
    z = torch.cumsum(phi_k, dim=-2)                              # z_i = Σ_{j<=i} φ(k_j), (..., L, m)
    return num / (phi_q * z).sum(-1, keepdim=True)
'''),
      alt(ASG, '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if torch.isnan(g).any() or torch.logical_or(g < 0, g > 1).any():
        raise ValueError("gamma must be in [0, 1]")
    return g[..., None, None]
''')])

case("alt_step_addcmul", "alternative",
     "LinearAttentionState.step folds the token in with torch.addcmul and reads with broadcast-and-sum; the "
     "normalizer read is torch.linalg.vecdot.",
     [],
     [alt(ST, '''        phi_q, phi_k = feature_map(q), feature_map(k)
        self.S = torch.addcmul(self.S.to(v.dtype), phi_k.unsqueeze(-1), v.unsqueeze(-2))
        self.z = torch.add(self.z.to(v.dtype), phi_k)
        num = (phi_q.unsqueeze(-1) * self.S).sum(dim=-2)
        return num / torch.linalg.vecdot(phi_q, self.z).unsqueeze(-1)
''')])

case("alt_retrec_decay_after_read", "alternative",
     "retention_recurrent adds the token, reads, and only then decays the state for the next step (same "
     "recurrence, shifted); multiscale_decays via torch.exp2.",
     [],
     [alt(RR, '''    g = as_gamma(gamma, Q)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        S = S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))
        S = g * S                                                # decayed, ready for token t + 1
    return torch.stack(ys, dim=-2) if ys else V.new_zeros(V.shape)
'''),
      alt(MS, '''    return 1 - torch.exp2(-5 - torch.arange(num_heads, dtype=torch.get_default_dtype()))
''')])

case("alt_linrec_augmented_state", "alternative",
     "linear_attention_recurrent keeps one state [S | z] of shape (m, d_v + 1) by appending a column of ones to "
     "V; the last entry of φ(q)ᵀ[S | z] is the normalizer.",
     [],
     [alt(LR, '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    V1 = torch.cat([V, torch.ones_like(V[..., :1])], dim=-1)              # (..., L, d_v + 1)
    S1 = V.new_zeros(K.shape[-1], V.shape[-1] + 1)
    ys = []
    for t in range(Q.shape[-2]):
        S1 = S1 + phi_k[..., t, :, None] * V1[..., t, None, :]
        r = (phi_q[..., t, None, :] @ S1)[..., 0, :]                       # (..., d_v + 1)
        ys.append(r[..., :-1] / r[..., -1:])
    return torch.stack(ys, dim=-2) if ys else V.new_zeros(V.shape)
''')])

# ============================================================================= stubs (notebook kept as base's)

STUB = '''"""Linear attention and retention (stub submission: placeholders of the right shape)."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (provided)."""
    return F.elu(x) + 1


def _fill(shape, ref):
    return {make}


def _out(Q, K, V):
    return (*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), Q.shape[-2], V.shape[-1])


def linear_attention_parallel(Q, K, V):
    return _fill(_out(Q, K, V), V)


def linear_attention_recurrent(Q, K, V):
    return _fill(_out(Q, K, V), V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return _fill(v.shape, v)


def as_gamma(gamma, like):
    return torch.as_tensor(gamma, dtype=like.dtype, device=like.device)[..., None, None]


def decay_matrix(gamma, L):
    return _fill((*gamma.shape[:-2], L, L), gamma)


def retention_parallel(Q, K, V, gamma):
    return _fill(_out(Q, K, V), V)


def retention_recurrent(Q, K, V, gamma):
    return _fill(_out(Q, K, V), V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _fill(_out(Q, K, V), V)
    if return_state:
        return out, torch.zeros(*_out(Q, K, V)[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)
    return out


def multiscale_decays(num_heads):
    return {heads}


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _fill(_out(Q, K, V), V)


def gated_delta_rule(Q, K, V, alpha, beta):
    raise NotImplementedError("gated_delta_rule: optional extension, not graded")
'''


def stub(make, heads):
    return STUB.replace("{make}", make).replace("{heads}", heads)


case("stub_random", "stub", "every function returns random tensors of the right shape (feature_map kept as provided).",
     "ALL", module=stub("torch.randn(shape, dtype=ref.dtype, device=ref.device)", "torch.rand(num_heads)"))
case("stub_zeros", "stub", "every function returns zeros of the right shape (feature_map kept as provided).",
     "ALL", module=stub("torch.zeros(shape, dtype=ref.dtype, device=ref.device)", "torch.zeros(num_heads)"))
case("stub_return_v", "stub",
     "every form returns V (the step returns v; decays are ones), nothing validated (feature_map kept).",
     "ALL", module=stub("ref.expand(shape).clone() if tuple(ref.shape[-2:]) == tuple(shape)[-2:] "
                        "else torch.ones(shape, dtype=ref.dtype, device=ref.device)", "torch.ones(num_heads)"))

# Stubs lose every automatically graded code item and the three exercise-run items (the rubric's evidence
# rule: a random, zero or `return V` body earns nothing); they keep base's notebook answers and written answers.
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
            assert (dest / PY).read_text() != BASE_PY or (dest / NB).read_text() != (BASE / NB).read_text()
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=list(lose)))
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 13, linear-attention-basics: one entry per case folder.",
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
