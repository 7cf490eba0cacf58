"""Build the round-17 blind corpus: base/ from the student template, then one folder per case from base/.

    python make_cases.py        # (re)builds base/, every case folder and corpus.yaml (rerun-stable)

Edits, applied in order to a fresh copy of base/:
  ("att", old, new)          exact replacement in attention.py: `old` must occur exactly once, `new` must differ;
  ("nb:<cell id>", old, new) the same inside one notebook cell's source (cell found by id, exactly once);
  ("template", path, None)   the file is replaced by the template's copy, byte for byte.
Notebooks are written with nbformat (the template round-trips byte for byte). Any anchor that is missing,
ambiguous or changes nothing stops the build.
"""
from __future__ import annotations

import ast
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ inside the corpus
from pathlib import Path

import nbformat
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from base_code import FWD_BODY, STEP_BODY  # noqa: E402
from base_notebook import ANSWERS_VALUES, SCRATCH, WRITTEN  # noqa: E402

TEMPLATE = HERE.parents[3] / "student_template" / "linear-attention-hybrid"
BASE = HERE / "base"
ATT = "g2c/linear_attention/attention.py"
NB = "linear_attention_hybrid.ipynb"

CODE = ["forward_matches", "step_matches", "normalizer", "update_order", "decay_both_forms", "decay_normalizer",
        "head_split", "batch_isolation", "causality", "long_sequences", "lm_decoding", "step_cost"]
EX = ["ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"]
BILL = ["bill_mha", "bill_gqa8", "bill_window", "bill_linear", "bill_all_mha_stack", "bill_hybrid_stack",
        "bill_grows"]
WR = ["written_ex1", "written_ex2", "written_ex3", "written_ex4", "written_concepts"]
ALL = CODE + EX + BILL + WR
FM, SM, NORM, UO, DEC, DZ, HS, BI, CA, LS, LM, COST = CODE
EX1, EX2, EX3, EX4 = EX


# ------------------------------------------------------------------------------------------------ helpers
def replace_once(text, old, new, where):
    assert old and old != new, f"{where}: empty or no-op edit"
    n = text.count(old)
    assert n == 1, f"{where}: anchor found {n} times: {old[:80]!r}"
    return text.replace(old, new)


def block(body, first, last):
    """The slice of `body` from the line starting with `first` through the end of the line `last`."""
    i = body.index(first)
    j = body.index(last, i) + len(last)
    return body[i:j]


# ------------------------------------------------------------------------------------------------ base
def build_base():
    if BASE.exists():
        shutil.rmtree(BASE)
    shutil.copytree(TEMPLATE, BASE, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", ".ipynb_checkpoints"))
    p = BASE / ATT
    text = p.read_text()
    fwd_old = block(text, "        # 1. q, k, v = the three projections", "        return self.out_proj(y)\n")
    text = replace_once(text, fwd_old, FWD_BODY, "base forward")
    step_old = block(text, "        # 1. q, k, v for this one token", "        return self.out_proj(y), (S, z)\n")
    text = replace_once(text, step_old, STEP_BODY, "base step")
    ast.parse(text)
    p.write_text(text)
    nb = nbformat.read(BASE / NB, as_version=4)
    by_id = {c.get("id"): c for c in nb.cells}
    assert by_id["ex5-036"].source == '# YOUR CODE HERE\nraise NotImplementedError("ex5: not implemented yet")'
    by_id["ex5-036"].source = SCRATCH
    src = by_id["ex5-037"].source
    for key, value in ANSWERS_VALUES.items():
        src = replace_once(src, f"\n{key}:\n", f"\n{key}: {value}\n", f"answers {key}")
    by_id["ex5-037"].source = src
    assert len(WRITTEN) == 8
    for cid, ans in WRITTEN.items():
        assert by_id[cid].source == "**Answer:**\n\n_Type your answer here._", cid
        by_id[cid].source = "**Answer:**\n\n" + ans
    nbformat.write(nb, BASE / NB)


# ------------------------------------------------------------------------------------------------ base anchors
F_Q = "        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"
F_K = "        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"
F_V = "        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)\n"
F_LAG = "        lag = (pos[:, None] - pos[None, :]).to(x.dtype)  # t - i\n"
F_VIS = "        visible = lag >= 0  # i <= t: the token itself and its past\n"
F_LOGG = "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1, 1)  # log γ_h < 0\n"
F_DECAY = "        decay = torch.exp(log_gamma * lag.clamp(min=0))  # exponent <= 0: never overflows\n"
F_W = "        weights = torch.where(visible, decay, torch.zeros_like(decay))\n"
F_SCORES = '        scores = torch.einsum("bhtd,bhsd->bhts", q, k) * weights\n'
F_NUMER = "        numer = scores @ v  # (B, H, T, d_h)\n"
F_DENOM = "        denom = scores.sum(dim=-1, keepdim=True)  # (B, H, T, 1)\n"
F_Y = "        y = numer / denom\n"
F_MERGE = "        y = y.transpose(1, 2).reshape(B, T, D)\n"
F_RET = "        return self.out_proj(y)\n"
F_QKV = F_Q + F_K + F_V
F_READ = block(FWD_BODY, F_SCORES, F_Y)  # scores, the comment of step 4, numerator, normalizer, y
F_ND = F_NUMER + F_DENOM + F_Y
S_Q = "        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)\n"
S_K = "        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)\n"
S_V = "        v = self.v_proj(x_t).view(B, H, d_h)\n"
S_GAMMA = "        gamma = self.decay.to(dtype=S.dtype, device=S.device)\n"
S_GS = "        gamma_S = gamma.view(1, H, 1, 1)\n"
S_GZ = "        gamma_z = gamma.view(1, H, 1)\n"
S_S = "        S_new = gamma_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # γS + φ(k)vᵀ\n"
S_Z = "        z_new = gamma_z * z + k  # γz + φ(k)\n"
S_NUMER = '        numer = torch.einsum("bhd,bhde->bhe", q, S_new)  # (B, H, d_h)\n'
S_DENOM = "        denom = (q * z_new).sum(dim=-1, keepdim=True)  # (B, H, 1)\n"
S_Y = "        y = (numer / denom).reshape(B, D)\n"
S_RET = "        return self.out_proj(y), (S_new, z_new)\n"
S_UPDATE_READ = block(STEP_BODY, "        # 3. update first", S_Y)
S_UPDATE_TO_DENOM = block(STEP_BODY, "        # 3. update first", S_DENOM)
I_Z = "        z = torch.zeros(batch_size, H, d_h, device=device, dtype=dtype)\n"
for _a in (F_Q, F_K, F_V, F_LAG, F_VIS, F_LOGG, F_DECAY, F_W, F_SCORES, F_NUMER, F_DENOM, F_Y, F_MERGE, F_RET):
    assert FWD_BODY.count(_a) == 1, _a
for _a in (S_Q, S_K, S_V, S_GAMMA, S_GS, S_GZ, S_S, S_Z, S_NUMER, S_DENOM, S_Y, S_RET):
    assert STEP_BODY.count(_a) == 1, _a

EX1_APPEND = "        results.append((L, t_full, t_linear, kv_bytes))\n"
EX1_PRINT = (
    '        print(f"L={L:6d}  full step {t_full * 1e6:9.1f} µs   linear step {t_linear * 1e6:8.1f} µs   "\n'
    '              f"KV cache {kv_bytes / 2**20:9.2f} MiB")\n')

C = []


def case(name, kind, about, should_lose, edits):
    C.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=edits))


def att(old, new):
    return ("att", old, new)


def nb(cell, old, new):
    return (f"nb:{cell}", old, new)


def answer(key, old, new):
    return nb("ex5-037", f"\n{key}: {old}\n", f"\n{key}: {new}\n")


def written(cell, text):
    return nb(cell, WRITTEN[cell], text)


# ------------------------------------------------------------------------------------------------ alternatives
case("base", "alternative",
     "reference-quality submission: forward splits heads with view(B, T, H, d_h).transpose(1, 2), builds γ^(t-i) as "
     "exp(logsigmoid(gamma_logit)·clamped lag) and zeroes i > t with torch.where, einsum scores, row-sum "
     "normalizer; step casts γ to the state's dtype/device, writes new tensors S_new = γS + φ(k)vᵀ and "
     "z_new = γz + φ(k) by broadcasting, then reads φ(q)ᵀS_new / φ(q)·z_new; Exercise 5 worked with the default "
     "numbers (printed next to memory_bill); every written answer filled from a grading-mode run", [], [])

case("alt_fwd_pow_decay", "alternative",
     "forward raises γ to the power directly, (sigmoid(gamma_logit) ** clamped lag) · causal mask, instead of "
     "exp(lag · logsigmoid): the same weights (to rounding); exact zeros where γ^(t-i) underflows, like exp; "
     "the gradient of γ^0 is 0 · γ^-1 = 0, so nothing breaks on the diagonal", [],
     [att(F_LOGG + F_DECAY + F_W,
          "        gamma = self.decay.to(x.dtype).view(H, 1, 1)  # γ_h\n"
          "        weights = (gamma ** lag.clamp(min=0)) * visible  # γ^(t-i) below the diagonal, 0 above\n")])

case("alt_fwd_scaled_scores", "alternative",
     "forward scales the scores by 1/sqrt(d_h) out of softmax-attention habit: a positive constant common to "
     "numerator and normalizer, so it cancels in the ratio (outputs and gradients equal to rounding)", [],
     [att(F_SCORES, '        scores = torch.einsum("bhtd,bhsd->bhts", q, k) * weights / d_h ** 0.5  # scaled as usual\n')])

case("alt_fwd_head_loop", "alternative",
     "forward loops over the heads, each with its own (B, T, T) decayed scores (weights[h]) and its own "
     "normalizer, and stacks the heads back to (B, H, T, d_h) before the usual merge", [],
     [att(F_READ,
          "        outs = []\n"
          "        for h in range(H):  # one head at a time: (B, T, T) instead of (B, H, T, T)\n"
          "            s = (q[:, h] @ k[:, h].transpose(-2, -1)) * weights[h]\n"
          "            outs.append((s @ v[:, h]) / s.sum(dim=-1, keepdim=True))\n"
          "        y = torch.stack(outs, dim=1)  # (B, H, T, d_h)\n")])

case("alt_fwd_multi_operand_einsum", "alternative",
     "forward never materializes the scores tensor itself: numerator and normalizer are each one multi-operand "
     "einsum over (φ(q), φ(k), weights[, v]), contracted in whatever order torch picks", [],
     [att(F_READ,
          '        numer = torch.einsum("bhtd,bhsd,hts,bhse->bhte", q, k, weights, v)\n'
          '        denom = torch.einsum("bhtd,bhsd,hts->bht", q, k, weights).unsqueeze(-1)  # φ(q_t)·z_t\n'
          "        y = numer / denom\n")])

case("alt_fwd_segsum_log_decay", "alternative",
     "forward builds the log-decays as differences of a cumulative sum (Mamba-style segment sums): "
     "cum[t] - cum[i] = (t-i)·log γ, set to -inf above the diagonal before exp; the rounding of the cumsum "
     "(~1e-13 in the exponent over 300 tokens) is far inside float64 tolerances, no overflow, no NaN gradient", [],
     [att(F_LAG + F_VIS + F_LOGG + F_DECAY + F_W,
          "        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,)\n"
          "        cum = torch.cumsum(log_g[:, None].expand(H, T), dim=-1)  # (H, T): (t+1)·log γ\n"
          "        seg = cum[:, :, None] - cum[:, None, :]  # (H, T, T): (t-i)·log γ\n"
          "        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()\n"
          '        weights = torch.exp(seg.masked_fill(~causal, float("-inf")))  # exactly 0 above the diagonal\n')])

case("alt_fwd_augmented_value_column", "alternative",
     "forward appends a column of ones to v, so one product scores @ [v, 1] gives the numerator (first d_h "
     "columns) and the normalizer φ(q_t)·z_t (last column) together", [],
     [att(F_ND,
          "        v1 = torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # (B, H, T, d_h + 1)\n"
          "        out = scores @ v1  # numerator and normalizer in one product\n"
          "        y = out[..., :-1] / out[..., -1:]\n")])

case("alt_fwd_float64_internal", "alternative",
     "forward casts φ(q), φ(k), v, the lag and log γ to float64, does the whole decayed-score computation in "
     "double precision and casts y back to x's dtype before out_proj: identical in float64, slightly more "
     "accurate (and still float32 out) in the notebook's float32 models", [],
     [att(F_V, F_V + "        q, k, v = q.double(), k.double(), v.double()  # accumulate in float64\n"),
      att(F_LAG, "        lag = (pos[:, None] - pos[None, :]).double()  # t - i\n"),
      att(F_LOGG, "        log_gamma = F.logsigmoid(self.gamma_logit.double()).view(H, 1, 1)  # log γ_h < 0\n"),
      att(F_MERGE, "        y = y.transpose(1, 2).reshape(B, T, D).to(x.dtype)  # back to the model's dtype\n")])

case("alt_fwd_query_blocks", "alternative",
     "forward processes the queries in blocks of 16 rows, each block against the keys up to its last row only "
     "(weights[:, s0:s1, :s1]), and concatenates the blocks: the same rows of the same T × T computation, with "
     "less memory at once", [],
     [att(F_READ,
          "        blocks = []\n"
          "        for s0 in range(0, T, 16):  # 16 queries at a time, against the keys they can see\n"
          "            s1 = min(s0 + 16, T)\n"
          "            sc = (q[:, :, s0:s1] @ k[:, :, :s1].transpose(-2, -1)) * weights[:, s0:s1, :s1]\n"
          "            blocks.append((sc @ v[:, :, :s1]) / sc.sum(dim=-1, keepdim=True))\n"
          "        y = torch.cat(blocks, dim=2)  # (B, H, T, d_h)\n")])

case("alt_step_read_old_state_plus_current", "alternative",
     "step still returns the updated (S_new, z_new), but computes the read from the OLD state plus the token's "
     "own term: φ(q)ᵀS_new = γ·φ(q)ᵀS + (φ(q)·φ(k)) v and φ(q)·z_new = γ·φ(q)·z + φ(q)·φ(k); algebraically "
     "the update-then-read, so token t still sees itself (no 0/0 at t = 0)", [],
     [att(S_NUMER + S_DENOM,
          "        qk = (q * k).sum(dim=-1, keepdim=True)  # φ(q)·φ(k): the token's own weight\n"
          '        numer = gamma_z * torch.einsum("bhd,bhde->bhe", q, S) + qk * v  # = φ(q)ᵀ(γS + φ(k)vᵀ)\n'
          "        denom = gamma_z * (q * z).sum(dim=-1, keepdim=True) + qk  # = φ(q)·(γz + φ(k))\n")])

case("alt_step_augmented_state", "alternative",
     "step works on one augmented matrix per head, [S | z] of shape (B, H, d_h, d_h + 1) with z as the last "
     "column, updated by γ[S | z] + φ(k)[v, 1]ᵀ and read with one einsum; it returns S_new and z_new sliced back "
     "out of it (the documented (B, H, d_h, d_h) and (B, H, d_h) shapes)", [],
     [att(S_UPDATE_TO_DENOM,
          "        # 3.-4. z as an extra column of S: one update, one read\n"
          "        Sz = torch.cat([S, z.unsqueeze(-1)], dim=-1)  # (B, H, d_h, d_h + 1)\n"
          "        v1 = torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # (B, H, d_h + 1)\n"
          "        Sz = gamma_S * Sz + k.unsqueeze(-1) * v1.unsqueeze(-2)  # update first\n"
          "        S_new, z_new = Sz[..., :-1], Sz[..., -1]\n"
          '        r = torch.einsum("bhd,bhde->bhe", q, Sz)  # then read\n'
          "        numer, denom = r[..., :-1], r[..., -1:]\n")])

case("alt_step_exp_logsigmoid_gamma", "alternative",
     "step takes γ as exp(logsigmoid(gamma_logit)), the very log γ forward uses, instead of sigmoid(gamma_logit) "
     "(the two agree to a rounding unit)", [],
     [att(S_GAMMA, "        gamma = torch.exp(F.logsigmoid(self.gamma_logit)).to(dtype=S.dtype, device=S.device)\n")])

case("alt_step_head_loop", "alternative",
     "step loops over the heads: each head's S_h, z_h updated and read with 2-D einsums, then S and z stacked "
     "back along dim 1 and the heads' outputs concatenated along the channels (head h in channels "
     "h·d_h … (h+1)·d_h - 1)", [],
     [att(S_UPDATE_READ,
          "        # 3.-4. one head at a time: update, then read\n"
          "        S_heads, z_heads, y_heads = [], [], []\n"
          "        for h in range(H):\n"
          '            S_h = gamma[h] * S[:, h] + torch.einsum("bi,bj->bij", k[:, h], v[:, h])\n'
          "            z_h = gamma[h] * z[:, h] + k[:, h]\n"
          '            y_h = torch.einsum("bi,bij->bj", q[:, h], S_h) / (q[:, h] * z_h).sum(dim=-1, keepdim=True)\n'
          "            S_heads.append(S_h)\n"
          "            z_heads.append(z_h)\n"
          "            y_heads.append(y_h)\n"
          "        S_new, z_new = torch.stack(S_heads, dim=1), torch.stack(z_heads, dim=1)\n"
          "        y = torch.cat(y_heads, dim=-1)  # (B, D)\n")])

# ------------------------------------------------------------------------------------------------ bugs: forward
case("bug_fwd_heads_interleaved_split", "bug",
     "forward splits the heads with view(B, T, d_h, H).permute(0, 3, 1, 2): head h gets the channels "
     "h, H + h, 2H + h, … (interleaved) instead of the contiguous block h·d_h … (h+1)·d_h - 1, then merges the "
     "usual way; every head mixes channels of several heads (exact only with one head); step is right",
     [FM, HS],
     [att(F_QKV,
          "        q = feature_map(self.q_proj(x)).view(B, T, d_h, H).permute(0, 3, 1, 2)  # (B, H, T, d_h)\n"
          "        k = feature_map(self.k_proj(x)).view(B, T, d_h, H).permute(0, 3, 1, 2)\n"
          "        v = self.v_proj(x).view(B, T, d_h, H).permute(0, 3, 1, 2)\n")])

case("bug_fwd_normalizer_undecayed", "bug",
     "forward's normalizer is the row sum of the undecayed causal scores, φ(q_t)·Σ_{i≤t} φ(k_i), while the "
     "numerator is decayed: the normalizer does not fade with the memory (exact only at γ = 1, so the public "
     "γ = 1 reference test passes); step is right",
     [FM, DZ],
     [att(F_DENOM,
          '        denom = (torch.einsum("bhtd,bhsd->bhts", q, k) * visible).sum(dim=-1, keepdim=True)  # φ(q_t)·Σ φ(k_i)\n')])

case("bug_fwd_softmax_normalizer", "bug",
     "forward normalizes with a softmax over the (decayed) scores, masked with -inf above the diagonal, out of "
     "softmax-attention habit, instead of dividing by their row sums φ(q_t)·z_t: the weights become "
     "exp(γ^(t-i) φ(q_t)·φ(k_i)), not the layer's (still causal)",
     [FM, NORM],
     [att(F_ND,
          '        attn = torch.softmax(scores.masked_fill(~visible, float("-inf")), dim=-1)  # rows sum to 1\n'
          "        y = attn @ v\n")])

case("bug_fwd_mask_tril_diagonal_one", "bug",
     "forward builds the causal mask as torch.ones(T, T).tril(diagonal=1) believing diagonal=1 'keeps the "
     "diagonal': it also keeps i = t + 1, so every token sees the next one (with weight γ^0 = 1 from the clamped "
     "lag)",
     [FM, CA],
     [att(F_VIS, "        visible = torch.ones(T, T, dtype=torch.bool, device=x.device).tril(diagonal=1)  # keep the diagonal\n")])

case("bug_fwd_scores_einsum_drops_batch", "bug",
     "forward's score einsum is written 'bhtd,bhsd->hts' (b left out of the output): the scores of all "
     "sequences in the batch are summed and that (H, T, T) matrix is broadcast over the batch, so every "
     "sequence is weighted by the others' queries and keys (exact only at B = 1)",
     [FM, BI],
     [att(F_SCORES, '        scores = torch.einsum("bhtd,bhsd->hts", q, k) * weights\n')])

case("bug_fwd_returns_without_out_proj", "bug",
     "forward returns the merged heads y without out_proj (step applies it): invisible to the public "
     "equivalence tests, which set out_proj to the identity, but wrong for any real layer (the hybrid LM test "
     "fails), and out_proj gets no gradient from forward",
     [FM],
     [att(F_RET, "        return y  # (B, T, D)\n")])

case("bug_fwd_q_without_feature_map", "bug",
     "forward applies feature_map to k but not to q (raw projection): scores can be negative and the normalizer "
     "can cross zero; step is right",
     [FM],
     [att(F_Q, "        q = self.q_proj(x).view(B, T, H, d_h).transpose(1, 2)\n")])

case("bug_fwd_factored_decay_underflow", "bug",
     "forward factors the decay as γ^(t-i) = γ^t / γ^i from a (H, T) table of γ^t, then tril: exact for short "
     "sequences, but at γ = 0.05 γ^t falls into subnormals after ~237 tokens and to exactly 0 after ~249, so the "
     "late rows first lose precision and then become 0/0 = NaN (forward and its gradient); the slip shows only "
     "over hundreds of tokens (the public 300-token test catches it)",
     [LS],
     [att(F_DECAY + F_W,
          "        g_pow = torch.exp(log_gamma.view(H, 1) * pos.to(x.dtype))  # (H, T): γ^t\n"
          "        weights = (g_pow[:, :, None] / g_pow[:, None, :]).tril()  # γ^t / γ^i = γ^(t-i) for i <= t\n")])

case("bug_fwd_normalizer_detached", "bug",
     "forward detaches the normalizer 'for stability' (denom = scores.sum(-1).detach()): the outputs are exact, "
     "but no gradient flows through φ(q)·z, so the gradients of every parameter (and of x) are wrong",
     [FM],
     [att(F_DENOM, "        denom = scores.sum(dim=-1, keepdim=True).detach()  # stop-gradient for stability\n")])

case("bug_both_feature_map_on_v", "bug",
     "both forms apply feature_map to v as well as to q and k ('φ on all three'): forward and step agree with "
     "each other (the public equivalence tests pass) but neither is the layer: the values are elu(v) + 1 (the "
     "public γ = 1 reference test fails)",
     [FM, SM],
     [att(F_V, "        v = feature_map(self.v_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"),
      att(S_V, "        v = feature_map(self.v_proj(x_t)).view(B, H, d_h)\n")])

# ------------------------------------------------------------------------------------------------ bugs: step
case("bug_step_read_S_transposed", "bug",
     "step reads S φ(q) (S_new @ φ(q)) instead of φ(q)ᵀS: the output is Σ γ^(t-i) (φ(q)·v_i) φ(k_i) / φ(q)·z, "
     "keys and values swapped in the read; forward is right",
     [SM],
     [att(S_NUMER, "        numer = (S_new @ q.unsqueeze(-1)).squeeze(-1)  # (B, H, d_h)\n")])

case("bug_step_decay_as_forget_rate", "bug",
     "step reads self.decay as the fraction forgotten and keeps 1 - γ of the old state (S_new = (1-γ)S + φ(k)vᵀ, "
     "same for z): a head with γ = 0.95 keeps 5% per token, one with γ = 1 keeps nothing; forward is right",
     [SM, DEC],
     [att(S_GAMMA, "        gamma = (1 - self.decay).to(dtype=S.dtype, device=S.device)  # keep what is not forgotten\n")])

case("bug_init_state_z_ones", "bug",
     "init_state starts z at ones 'so that φ(q)·z is never 0': from state=None (the public tests, generate, the "
     "notebook) every step divides by φ(q)·(z_t + γ^t·1), so the outputs are no longer normalized averages and "
     "the returned z is off; forward is right (test_init_state_shapes fails too)",
     [SM, NORM],
     [att(I_Z, "        z = torch.ones(batch_size, H, d_h, device=device, dtype=dtype)  # never divide by 0\n")])

case("bug_step_reads_with_key", "bug",
     "step reads the state with φ(k) instead of φ(q) (copy-paste from the write): φ(k)ᵀS / φ(k)·z, so q_proj "
     "plays no part in decoding; forward is right",
     [SM],
     [att(S_NUMER + S_DENOM,
          '        numer = torch.einsum("bhd,bhde->bhe", k, S_new)  # (B, H, d_h)\n'
          "        denom = (k * z_new).sum(dim=-1, keepdim=True)  # (B, H, 1)\n")])

case("bug_step_gamma_repeat_not_interleave", "bug",
     "step spreads γ over the channels with gamma.repeat(d_h) instead of repeat_interleave: channel i of head h "
     "decays with γ of head (h·d_h + i) mod H, so heads get each other's decays (exact only with one head, or "
     "equal decays); forward is right",
     [SM, DEC],
     [att(S_GS + S_GZ,
          "        gamma_c = gamma.repeat(d_h).view(1, H, d_h)  # one γ per channel of each head\n"
          "        gamma_S = gamma_c.unsqueeze(-1)  # (1, H, d_h, 1): row i of S decays with channel i\n"
          "        gamma_z = gamma_c\n")])

case("bug_step_denominator_before_z_update", "bug",
     "step's normalizer uses the incoming z (φ(q)·z, read before z is updated) while the numerator uses S_new: "
     "token t's own key is missing from its normalizer, and the first token divides by 0 (inf/NaN); forward is "
     "right",
     [SM, UO],
     [att(S_DENOM, "        denom = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)\n")])

case("bug_step_z_accumulates_values", "bug",
     "step's normalizer state accumulates the values instead of the keys (z_new = γz + v, a typo): φ(q)·z is "
     "no longer the sum of the weights, can be negative or near zero, and the returned z is wrong; forward is "
     "right",
     [SM, NORM],
     [att(S_Z, "        z_new = gamma_z * z + v  # γz + φ(k)\n")])

case("bug_step_returns_old_state", "bug",
     "step computes S_new and z_new and reads from them, but returns the template's (S, z), the state it was "
     "given: the first token is right, after that the memory never grows (every token sees only itself) and "
     "cached decoding forgets its history",
     [SM, LM],
     [att(S_RET, "        return self.out_proj(y), (S, z)\n")])

case("bug_step_einsum_drops_head", "bug",
     "step's read einsum is written 'bhd,bhde->be' (h left out): the numerators of all heads are summed and that "
     "sum is divided by each head's own φ(q)·z, so every head's output mixes all heads (exact only with one "
     "head); forward is right",
     [SM, HS],
     [att(S_NUMER, '        numer = torch.einsum("bhd,bhde->be", q, S_new).unsqueeze(1)  # (B, 1, d_h)\n')])

# ------------------------------------------------------------------------------------------------ bugs: exercises
case("bug_nb_ex1_append_outside_loop", "bug",
     "Exercise 1: results.append(...) is dedented out of the `for L in lengths` loop, so only the last length is "
     "recorded: the plot has one point per curve and the locked check (one row per length) fails",
     [EX1],
     [nb("ex1-012", EX1_APPEND + EX1_PRINT, EX1_PRINT + "    results.append((L, t_full, t_linear, kv_bytes))\n")])

case("bug_nb_ex2_samples_past_max_len", "bug",
     "Exercise 2: the sample length is set to 200 new tokens 'for longer samples', dropping the cap at "
     "max_seq_len: generate raises ValueError (not the RuntimeError the cell catches) for the first model, so "
     "the cell stops after the plot and no samples are generated",
     [EX2],
     [nb("ex2-019", "    new_tokens = min(40 if GRADING else 200, model.max_seq_len - prompt.shape[1])  # learned positions end there\n",
         "    new_tokens = 200  # longer samples\n")])

case("bug_nb_ex3_accuracy_after_loop", "bug",
     "Exercise 3: the accuracy is moved out of the training loop into a dict comprehension that uses the loop's "
     "leftover `model` (the last one trained, the hybrid) for every name: the three curves are one model's "
     "curve three times; the cell, the figure and the locked check all run",
     [EX3],
     [nb("ex3-024",
         "    recall[name] = recall_accuracy_by_distance(model, task, bins, samples=32 if GRADING else 1024)\n"
         '    print(f"{name:12s} final loss {recall_losses[name][-1]:.3f} in {time.perf_counter() - start:.0f} s; "\n'
         '          "accuracy by distance " + ", ".join(f"{a:.2f}" for a in recall[name]))\n',
         '    print(f"{name:12s} final loss {recall_losses[name][-1]:.3f} in {time.perf_counter() - start:.0f} s")\n'
         "recall = {name: recall_accuracy_by_distance(model, task, bins, samples=32 if GRADING else 1024)\n"
         "          for name in recall_models}  # accuracy of every trained model\n")])

case("bug_nb_ex4_state_not_passed", "bug",
     "Exercise 4: the loop calls layer.step(x[:, t]) without the state, so every norm is that of a one-token "
     "state: the curves are flat noise instead of growth/saturation, and the locked check (S_norms[7] against the "
     "state after 8 tokens) fails",
     [EX4],
     [nb("ex4-030", "        _, state = layer.step(x[:, t], state)\n", "        _, state = layer.step(x[:, t])\n")])

# ------------------------------------------------------------------------------------------------ bugs: Exercise 5
case("bug_nb_gqa_group_size_as_kv_heads", "bug",
     "Exercise 5: GQA-8 priced with H / 8 = 4 KV heads (the group size) instead of 8 KV heads: "
     "2·T·4·d_h·BYTES = 2048000000 B, half the right 4096000000 B",
     ["bill_gqa8"],
     [nb("ex5-036", "gqa8_bytes = 2 * T * 8 * d_h * BYTES", "gqa8_bytes = 2 * T * (H // 8) * d_h * BYTES"),
      answer("gqa8_cache_one_layer", "4096000000 B", "2048000000 B")])

case("bug_nb_window_keys_only", "bug",
     "Exercise 5: the sliding-window cache priced with the keys only (4096·D·BYTES = 33554432 B), V forgotten",
     ["bill_window"],
     [nb("ex5-036", "window_bytes = 2 * min(T, 4096) * D * BYTES", "window_bytes = min(T, 4096) * D * BYTES"),
      answer("window4096_cache_one_layer", "67108864 B", "33554432 B")])

case("bug_nb_all_mha_gb_written_as_gib", "bug",
     "Exercise 5: the all-MHA stack is computed right (65.536 GB, printed in decimal GB) but answered as "
     "'65.5 GiB' = 70.3e9 B, 7.3% too much (the right GiB figure is 61.0 GiB)",
     ["bill_all_mha_stack"],
     [answer("all_mha_stack_4_layers", "65536000000 B", "65.5 GiB")])

case("bug_nb_hybrid_three_full_layers", "bug",
     "Exercise 5: [L, L, L, F] read as three full layers and one linear: 3·MHA + linear = 49153056768 B instead "
     "of 3·linear + MHA = 16387170304 B",
     ["bill_hybrid_stack"],
     [nb("ex5-036", "hybrid_bytes = 3 * linear_bytes + mha_bytes", "hybrid_bytes = 3 * mha_bytes + linear_bytes"),
      answer("hybrid_lllf_stack_4_layers", "16387170304 B", "49153056768 B")])

case("bug_nb_linear_values_not_bytes", "bug",
     "Exercise 5: the linear state counted in values, not bytes (BYTES left out): 528384 B, half of 1056768 B; "
     "the hybrid total it feeds (16385585152 B) is still within 1% of the right one",
     ["bill_linear"],
     [nb("ex5-036", "linear_bytes = (H * d_h * d_h + H * d_h) * BYTES", "linear_bytes = H * d_h * d_h + H * d_h"),
      answer("linear_state_one_layer", "1056768 B", "528384 B"),
      answer("hybrid_lllf_stack_4_layers", "16387170304 B", "16385585152 B")])

# ------------------------------------------------------------------------------------------------ bugs: written
case("bug_written_ex1_costs_swapped", "bug",
     "the Exercise 1 answer swaps the two costs: it says the cached full step does a fixed ≈ 4·d_h² of work and "
     "the linear step grows with L, and explains the crossover by the linear state getting bigger",
     ["written_ex1"],
     [written("ex1-crossover-015", (
         "The crossover came at L = 256. The cached full-attention step does a fixed amount of work, about 4·d_h² "
         "per head, because the KV cache already holds the keys, while the linear step has to update the whole state "
         "S, which gets bigger as more tokens are written into it, so its cost grows with L. Once the state is large "
         "enough the linear step becomes the slower one. On a GPU the crossover would be the same, since both do the "
         "same arithmetic."))])

case("bug_written_ex3_textbook_story", "bug",
     "the Exercise 3 answer tells the textbook story (linear recall falling with distance, the hybrid recovering "
     "it, numbers like 95%) that this run's curves, all near chance after 4 training steps, do not show: "
     "not read as data",
     ["written_ex3"],
     [written("ex3-recall-027", (
         "The pure linear model's accuracy falls steadily with distance, from about 0.9 for recent pairs to near "
         "chance for the oldest ones, because the decayed state forgets them. The full model stays at about 95% at "
         "every distance, and the hybrid recovers almost all of the gap with its single full layer (about 0.93 "
         "everywhere). This confirms the textbook story: one full layer in four is enough for exact recall."))])

case("bug_written_ex4_fixed_decay_is_enough", "bug",
     "the Exercise 4 answer claims the state norm is kept bounded by the normalizer dividing S (wrong: the "
     "normalizer bounds the output, not the state), that γ = 1 makes the state shrink, and that a fixed per-head "
     "decay can already do everything an input-dependent gate can",
     ["written_ex4"],
     [written("ex4-gate-033", (
         "Every fixed γ keeps the state norm bounded, because the normalizer divides S by φ(q)·z at every step; with "
         "γ = 1 the state even shrinks over time since nothing new is added once z is large. The trained models "
         "learned decays close to 0.5. A fixed per-head decay can already do everything an input-dependent gate "
         "can: with several heads at different γ the model can keep or forget any token it wants, so gates only "
         "add parameters."))])

case("bug_written_delta_rule_is_kda", "bug",
     "the delta_rule answer says the delta rule adds the new value on top of the old one and that this "
     "assignment's layer is a small KDA (the other concept answers are base's)",
     ["written_concepts"],
     [written("delta-rule-046", (
         "The delta rule writes the new value on top of what the state already returns for the key, so reading "
         "the key afterwards gives the sum of the old and new values, which keeps more information. This "
         "assignment's layer is a small version of KDA: it has a learned decay and a recurrent state like Kimi "
         "Linear, just with fewer heads."))])

# ------------------------------------------------------------------------------------------------ stubs
case("stub_template", "stub", "the untouched template: attention.py and the notebook exactly as handed out",
     ALL, [("template", ATT, None), ("template", NB, None)])
case("stub_zeros", "stub",
     "forward returns zeros_like(x) and step zeros_like(x_t) with the state it was given (right shapes, no "
     "attention, no memory); the notebook is the template's",
     ALL, [att(FWD_BODY, "        return torch.zeros_like(x)  # TODO\n"),
           att(STEP_BODY, "        return torch.zeros_like(x_t), state  # TODO\n"),
           ("template", NB, None)])
case("stub_identity", "stub",
     "forward returns its input x and step returns x_t with the state it was given (right shapes, identity "
     "layer); the notebook is the template's",
     ALL, [att(FWD_BODY, "        return x  # placeholder until the decayed scores work\n"),
           att(STEP_BODY, "        return x_t, (S, z)  # placeholder\n"),
           ("template", NB, None)])


# ------------------------------------------------------------------------------------------------ building
def build(c):
    dst = HERE / c["name"]
    if c["name"] == "base":
        return
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(BASE, dst, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    book = None
    for target, old, new in c["edits"]:
        where = f"{c['name']}:{target}"
        if target == "template":
            shutil.copyfile(TEMPLATE / old, dst / old)
        elif target.startswith("nb:"):
            book = book or nbformat.read(dst / NB, as_version=4)
            cells = [cell for cell in book.cells if cell.get("id") == target[3:]]
            assert len(cells) == 1, where
            cells[0].source = replace_once(cells[0].source, old, new, where)
        else:
            p = dst / ATT
            out = replace_once(p.read_text(), old, new, where)
            ast.parse(out)
            p.write_text(out)
    if book is not None:
        nbformat.write(book, dst / NB)


def main():
    names = [c["name"] for c in C]
    assert len(names) == len(set(names)) and names[0] == "base"
    for c in C:
        assert c["kind"] in ("bug", "alternative", "stub"), c["name"]
        assert (c["kind"] == "alternative") == (not c["should_lose"]), c["name"]
        assert all(i in ALL for i in c["should_lose"]), c["name"]
    build_base()
    for c in C:
        build(c)
    for c in C:
        if c["kind"] == "alternative":
            assert (HERE / c["name"] / NB).read_bytes() == (BASE / NB).read_bytes(), c["name"]
    assert (HERE / "stub_template" / ATT).read_bytes() == (TEMPLATE / ATT).read_bytes()
    assert (HERE / "stub_template" / NB).read_bytes() == (TEMPLATE / NB).read_bytes()
    entries = [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=c["should_lose"]) for c in C]
    with open(HERE / "corpus.yaml", "w") as f:
        f.write("# linear-attention-hybrid, blind round 17: written by make_cases.py (one entry per case folder)\n")
        yaml.safe_dump(entries, f, sort_keys=False, allow_unicode=True, width=110)
    counts = {k: sum(c["kind"] == k for c in C) for k in ("alternative", "bug", "stub")}
    print(f"{len(C)} entries (base included):", counts)


if __name__ == "__main__":
    main()
