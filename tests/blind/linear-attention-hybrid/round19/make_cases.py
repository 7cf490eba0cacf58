"""Build the round-19 blind corpus: base/ from the student template, then one folder per case from base/.

    python make_cases.py        # (re)builds base/, every case folder and corpus.yaml (rerun-stable)

Edits, applied in order to a fresh copy of base/:
  ("att", old, new)          exact replacement in attention.py: `old` must occur exactly once, `new` must differ;
  ("nb:<cell id>", old, new) the same inside one notebook cell's source (cell found by id, exactly once);
  ("template", path, None)   the file is replaced by the template's copy, byte for byte.
Notebooks are written with nbformat. Any anchor that is missing, ambiguous or changes nothing stops the build.
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
AUTO = CODE + EX + BILL  # everything but the hand-graded written answers
FM, SM, NORM, UO, DEC, DZ, HS, BI, CA, LS, LM, COST = CODE
EX1, EX2, EX3, EX4 = EX

# ------------------------------------------------------------------------------------------------ base code
FWD_BODY = '''\
        # 1. projections; φ on q and k only; heads (B, T, D) -> (B, T, H, d_h) -> (B, H, T, d_h)
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        # 2. decay weights (H, T, T): γ_h^(t-i) for i <= t, 0 for i > t
        t_idx = torch.arange(T, device=x.device)
        lag = t_idx.view(T, 1) - t_idx.view(1, T)  # (T, T), integer t - i
        causal = lag >= 0
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,), log γ_h < 0
        exponent = log_gamma.view(H, 1, 1) * lag.clamp(min=0).to(x.dtype)  # <= 0: exp never overflows
        weights = torch.exp(exponent).masked_fill(~causal, 0.0)
        # 3. decayed scores (B, H, T, T)
        scores = (q @ k.transpose(-2, -1)) * weights
        # 4. numerator over the values / normalizer φ(q_t)·z_t (the row sums)
        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)
        # 5. merge heads (B, H, T, d_h) -> (B, T, H, d_h) -> (B, T, D)
        y = y.transpose(1, 2).contiguous().view(B, T, D)
        return self.out_proj(y)
'''

STEP_BODY = '''\
        # 1. this token's q, k, v, split to (B, H, d_h); φ on q and k
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        # 2. γ per head, broadcast over S (B, H, d_h, d_h) and z (B, H, d_h)
        gamma = self.decay.to(dtype=S.dtype, device=S.device)
        g_S = gamma[None, :, None, None]
        g_z = gamma[None, :, None]
        # 3. update first (new tensors: the caller's state is left alone)
        S = g_S * S + torch.einsum("bhd,bhe->bhde", k, v)  # γS + φ(k)vᵀ
        z = g_z * z + k  # γz + φ(k)
        # 4. then read: φ(q)ᵀS / φ(q)ᵀz
        num = torch.einsum("bhd,bhde->bhe", q, S)  # (B, H, d_h)
        den = torch.einsum("bhd,bhd->bh", q, z).unsqueeze(-1)  # (B, H, 1)
        y = (num / den).reshape(B, D)
        return self.out_proj(y), (S, z)
'''

# ------------------------------------------------------------------------------------------------ base notebook
SCRATCH = '''\
# Exercise 5 scratch: one sequence, BYTES bytes a value, d_h = D // H
d_h = D // H
mha_bytes = 2 * T * D * BYTES  # K and V: T rows of D values each
gqa8_bytes = 2 * T * 8 * d_h * BYTES  # 8 KV heads of width d_h instead of H
window_bytes = 2 * min(T, 4096) * D * BYTES  # only the last 4096 tokens are kept
linear_bytes = (H * d_h * d_h + H * d_h) * BYTES  # S: H × d_h × d_h, z: H × d_h
all_mha_bytes = 4 * mha_bytes
hybrid_bytes = 3 * linear_bytes + mha_bytes
print(f"T={T:,}, D={D}, H={H}, d_h={d_h}, BYTES={BYTES}")
for name, n in [("MHA, one layer", mha_bytes), ("GQA-8, one layer", gqa8_bytes),
                ("window 4096, one layer", window_bytes), ("linear (S, z), one layer", linear_bytes),
                ("all-MHA stack, 4 layers", all_mha_bytes), ("[L, L, L, F] stack", hybrid_bytes)]:
    print(f"{name:26s} {n:>18,d} B  = {n / 1e9:12.6f} GB")
# cross-check the two stacks against the provided accounting
print("memory_bill, all MHA:  ", f"{memory_bill(['full'] * 4, T, D, H, bytes_per_value=BYTES).total_bytes:,d}")
print("memory_bill, [L,L,L,F]:", f"{memory_bill(['linear'] * 3 + ['full'], T, D, H, bytes_per_value=BYTES).total_bytes:,d}")'''

ANSWERS_VALUES = {
    "mha_cache_one_layer": "16384000000 B",
    "gqa8_cache_one_layer": "4096000000 B",
    "window4096_cache_one_layer": "67108864 B",
    "linear_state_one_layer": "1056768 B",
    "all_mha_stack_4_layers": "65536000000 B",
    "hybrid_lllf_stack_4_layers": "16387170304 B",
    "grows_with_t": "b",
}

WRITTEN = {
    "ex1-crossover-015": (
        "On this CPU (grading mode, one thread) the full step became slower than the linear step from L = 1024 on "
        "(292 µs against 168 µs); at L = 16 to 256 the cached full step was faster (111-137 µs). The cached step does about 4·L·d_h work per head (scores over L "
        "keys, then a weighted sum of L values) and also copies the whole cache with torch.cat, so its time grows "
        "with L; the linear step does about 4·d_h² per head (decay, rank-one write, read) whatever L is, so its time "
        "is flat. With d_h = 32 the arithmetic alone would cross near L ≈ d_h, but at small L both steps are "
        "dominated by fixed overheads (Python, a dozen small kernels), and the linear step has a few more of them, "
        "so the observed crossover sits later. On a GPU I would expect it later still: launch overhead dominates "
        "both steps until the cache is large enough for the memory traffic of reading it to matter."),
    "ex2-comparison-022": (
        "In grading mode the three validation losses were almost identical (all about 3.35 after 4 steps), which "
        "is what four steps can show: nothing. The samples are near-random characters for all three models, so "
        "they show no difference either in names kept consistent or objects mentioned again. With the full budget "
        "I would expect the losses to stay close (most next characters depend on the last few, which the decayed "
        "state holds), while the samples of the full and hybrid models keep a name consistent more often than the "
        "pure linear one: the average loss hides the rare lookups that copying needs."),
    "ex3-recall-027": (
        "In grading mode all three curves sat below chance (1/8), between 0.01 and 0.05, at every distance bin, with no trend "
        "with distance and no difference between the patterns: four training steps are far too few to learn the "
        "lookup, so this run neither confirms nor refutes the textbook story. To test it I would train the full "
        "budget (1000 steps or more), average over several seeds, and vary the number of pairs and the width: "
        "the story predicts the pure linear model's accuracy falling with distance and with more pairs, and the "
        "single full layer of the hybrid recovering most of the gap."),
    "ex4-gate-033": (
        "With a fixed γ < 1 the state norm rises and then levels off near a bound of about ‖φ(k)vᵀ‖/(1-γ): "
        "γ = 0.5 settles within a few tokens at a small norm, 0.9 and 0.99 level off later and higher, and "
        "γ = 1 keeps growing roughly linearly with the number of tokens. The output stays bounded anyway because "
        "it is divided by φ(q)·z, and z grows at the same rate as S: the output is a weighted average of values. "
        "The Exercise 2 models barely moved their decays in 4 steps, so the learned γ are close to the initial "
        "spread 0.75 … 0.98. A fixed per-head decay forgets at the same rate after every token: it cannot keep a "
        "name for a long time and then clear the memory at a sentence boundary, which an input-dependent gate can, "
        "and it cannot overwrite the value stored for a key, which a delta-rule write does."),
    "reassociation-040": (
        "Computing φ(K)ᵀV first gives a d_h × d_h matrix that does not depend on the query, so the running sum can "
        "be kept as a fixed-size state: decoding costs O(d_h²) per token and per head instead of O(T·d_h), and no "
        "KV cache grows. Removing the softmax costs sharpness: φ(q)·φ(k) cannot concentrate its weight on one key "
        "the way exp(q·k) can, and every stored pair is summed into the same numbers, so exact recall suffers."),
    "why-hybrids-042": (
        "The recurrent state is a fixed-size sum, so it cannot keep every token addressable: pairs written long ago "
        "fade with the decay and interfere with each other, and exact retrieval or copying fails. A few "
        "full-attention layers keep exact access to every token and put that information back into the residual "
        "stream, while the linear layers keep the memory and compute per token constant, so the cache bill grows "
        "only in the few full layers."),
    "quadratic-reference-044": (
        "The recurrent form only needs (S, z) of size H·(d_h² + d_h), updated once per token, so its inference "
        "state is fixed. The parallel reference computes all T outputs at once by writing out the T × T matrix of "
        "decayed scores γ^(t-i) φ(q_t)·φ(k_i), which is quadratic in T in time and memory; it is kept because it is "
        "simple to read and check. Efficient training would use chunked kernels, parallel inside a chunk and "
        "recurrent between chunks."),
    "delta-rule-046": (
        "A delta-rule write first reads what the state currently returns for the key, k_tᵀS, and writes only the "
        "error β·k_t(v_t − k_tᵀS)ᵀ, so with a unit key and β = 1 the old value for that key is replaced instead of "
        "added to. This assignment's layer uses a plain additive write and one fixed decay per head, while KDA uses "
        "a gated delta rule with a per-channel, input-dependent gate, chunkwise kernels and extra normalization and "
        "convolutions, so it is not a small KDA."),
}


# ------------------------------------------------------------------------------------------------ helpers
def replace_once(text, old, new, where):
    assert old and old != new, f"{where}: empty or no-op edit"
    n = text.count(old)
    assert n == 1, f"{where}: anchor found {n} times: {old[:80]!r}"
    return text.replace(old, new)


def block(body, first, last):
    i = body.index(first)
    j = body.index(last, i) + len(last)
    return body[i:j]


def build_base():
    if BASE.exists():
        shutil.rmtree(BASE)
    shutil.copytree(TEMPLATE, BASE, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", ".ipynb_checkpoints"))
    p = BASE / ATT
    text = p.read_text()
    text = replace_once(text, block(text, "        # 1. q, k, v = the three projections", "        return self.out_proj(y)\n"),
                        FWD_BODY, "base forward")
    text = replace_once(text, block(text, "        # 1. q, k, v for this one token", "        return self.out_proj(y), (S, z)\n"),
                        STEP_BODY, "base step")
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
    for cid, ans in WRITTEN.items():
        assert by_id[cid].source == "**Answer:**\n\n_Type your answer here._", cid
        by_id[cid].source = "**Answer:**\n\n" + ans
    nbformat.write(nb, BASE / NB)


# ------------------------------------------------------------------------------------------------ anchors
F_Q = "        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"
F_K = "        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"
F_V = "        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)\n"
F_QKV = F_Q + F_K + F_V
F_TIDX = "        t_idx = torch.arange(T, device=x.device)\n"
F_LAG = "        lag = t_idx.view(T, 1) - t_idx.view(1, T)  # (T, T), integer t - i\n"
F_CAUSAL = "        causal = lag >= 0\n"
F_LOGG = "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,), log γ_h < 0\n"
F_EXP = "        exponent = log_gamma.view(H, 1, 1) * lag.clamp(min=0).to(x.dtype)  # <= 0: exp never overflows\n"
F_W = "        weights = torch.exp(exponent).masked_fill(~causal, 0.0)\n"
F_SC = "        scores = (q @ k.transpose(-2, -1)) * weights\n"
F_Y = "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)\n"
F_MERGE = "        y = y.transpose(1, 2).contiguous().view(B, T, D)\n"
F_RET = "        return self.out_proj(y)\n"
F_DECAY_BLOCK = block(FWD_BODY, F_TIDX, F_W)
F_W_TO_Y = block(FWD_BODY, F_W, F_Y)
F_SC_TO_Y = block(FWD_BODY, F_SC, F_Y)

S_Q = "        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)\n"
S_K = "        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)\n"
S_V = "        v = self.v_proj(x_t).view(B, H, d_h)\n"
S_GAMMA = "        gamma = self.decay.to(dtype=S.dtype, device=S.device)\n"
S_S = '        S = g_S * S + torch.einsum("bhd,bhe->bhde", k, v)  # γS + φ(k)vᵀ\n'
S_Z = "        z = g_z * z + k  # γz + φ(k)\n"
S_NUM = '        num = torch.einsum("bhd,bhde->bhe", q, S)  # (B, H, d_h)\n'
S_DEN = '        den = torch.einsum("bhd,bhd->bh", q, z).unsqueeze(-1)  # (B, H, 1)\n'
S_Y = "        y = (num / den).reshape(B, D)\n"
S_RET = "        return self.out_proj(y), (S, z)\n"
S_UPDATE_READ = block(STEP_BODY, "        # 3. update first", S_DEN)
S_INIT = ("        if state is None:\n"
          "            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)\n")
for _a in (F_Q, F_K, F_V, F_TIDX, F_LAG, F_CAUSAL, F_LOGG, F_EXP, F_W, F_SC, F_Y, F_MERGE, F_RET):
    assert FWD_BODY.count(_a) == 1, _a
for _a in (S_Q, S_K, S_V, S_GAMMA, S_S, S_Z, S_NUM, S_DEN, S_Y, S_RET):
    assert STEP_BODY.count(_a) == 1, _a

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


# ------------------------------------------------------------------------------------------------ base + alternatives
case("base", "alternative",
     "reference-quality submission (round 18's base, rebuilt here): forward splits heads with view(B, T, H, d_h)"
     ".transpose(1, 2), weights = exp(logsigmoid(gamma_logit)·clamp(t-i, min=0)) masked_fill'ed to 0 above the "
     "diagonal, scores = (q @ kᵀ)·weights, y = scores @ v / row sums, merge by transpose + view; step builds new "
     "S = γS + φ(k)vᵀ and z = γz + φ(k), then reads φ(q)ᵀS / φ(q)ᵀz; Exercise 5 worked with the default numbers; "
     "all eight written answers filled", [], [])

case("alt_fwd_values_with_ones_column", "alternative",
     "forward appends a column of ones to v, so one matmul scores @ [v | 1] gives the numerator (first d_h "
     "columns) and the normalizer (last column, the decayed row sum) together; y = numerator / last column", [],
     [att(F_Y,
          "        v1 = torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # (B, H, T, d_h + 1)\n"
          "        both = scores @ v1  # numerator and normalizer in one product\n"
          "        y = both[..., :d_h] / both[..., d_h:]\n")])

case("alt_fwd_token_loop_recurrence", "alternative",
     "forward ignores the T × T weights and runs the recurrence itself over t (S = γS + φ(k_t)v_tᵀ, z = γz + φ(k_t), "
     "read φ(q_t)ᵀS / φ(q_t)ᵀz) for all batch rows and heads at once, stacking the T outputs into (B, H, T, d_h); "
     "linear in T, same numbers", [],
     [att(F_SC_TO_Y,
          "        gam = torch.exp(log_gamma)  # (H,)\n"
          "        S = q.new_zeros(B, H, d_h, d_h)\n"
          "        z = q.new_zeros(B, H, d_h)\n"
          "        outs = []\n"
          "        for t in range(T):  # the recurrence, token by token\n"
          "            S = gam[:, None, None] * S + k[:, :, t, :, None] * v[:, :, t, None, :]\n"
          "            z = gam[:, None] * z + k[:, :, t]\n"
          '            num = torch.einsum("bhd,bhde->bhe", q[:, :, t], S)\n'
          "            outs.append(num / (q[:, :, t] * z).sum(dim=-1, keepdim=True))\n"
          "        y = torch.stack(outs, dim=2)  # (B, H, T, d_h)\n")])

case("alt_step_unsqueeze_matmul", "alternative",
     "step writes the rank-one update as a batched matmul of a column by a row (φ(k)[..., :, None] @ v[..., None, :]) "
     "and reads with a row-vector matmul (φ(q)[..., None, :] @ S).squeeze(-2); the normalizer is (φ(q)·z) by an "
     "elementwise product and a sum over the last axis", [],
     [att(S_S, "        S = g_S * S + k.unsqueeze(-1) @ v.unsqueeze(-2)  # (B, H, d_h, 1) @ (B, H, 1, d_h)\n"),
      att(S_NUM, "        num = (q.unsqueeze(-2) @ S).squeeze(-2)  # (B, H, 1, d_h) -> (B, H, d_h)\n"),
      att(S_DEN, "        den = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)\n")])

# ------------------------------------------------------------------------------------------------ bugs: forward
case("bug_fwd_merge_time_major_reshape", "bug",
     "batch/time layout: forward merges heads as y.transpose(1, 2).reshape(T, B, D).transpose(0, 1), believing "
     "the merged tensor is time-major; the reshape reads the (B, T) rows in the wrong order, so outputs are "
     "shuffled across sequences and positions whenever B > 1 (exact for B = 1), which also lets a position read "
     "later tokens of the batch (the public B = 2 causality tests fail); step is right",
     [FM, BI, CA],
     [att(F_MERGE, "        y = y.transpose(1, 2).reshape(T, B, D).transpose(0, 1)  # (T, B, D) -> (B, T, D)\n")])

case("bug_fwd_qk_heads_channel_minor", "bug",
     "heads split from the wrong axis: forward splits q and k as view(B, T, d_h, H).permute(0, 3, 1, 2) (head "
     "index the fast axis, channels h, h+H, …), while v and the merge use the documented contiguous blocks; "
     "each head's scores mix channels of every head (exact only for H = 1); step is right",
     [FM, HS],
     [att(F_Q + F_K,
          "        q = feature_map(self.q_proj(x)).view(B, T, d_h, H).permute(0, 3, 1, 2)\n"
          "        k = feature_map(self.k_proj(x)).view(B, T, d_h, H).permute(0, 3, 1, 2)\n")])

case("bug_fwd_symmetric_decay_no_mask", "bug",
     "decay mask slip: forward builds the weights as γ^|t-i| from the absolute distance and believes the decay "
     "already handles the future, so nothing is masked: every output sees every later token (weighted as if it "
     "were in the past); step is right",
     [FM, CA],
     [att(F_EXP + F_W,
          "        exponent = log_gamma.view(H, 1, 1) * lag.abs().to(x.dtype)  # γ^|t-i|, <= 0\n"
          "        weights = torch.exp(exponent)  # far tokens are decayed away\n")])

case("bug_fwd_normalizer_undecayed", "bug",
     "normalizer slip: forward decays the numerator but computes the normalizer from the causal, undecayed "
     "scores, Σ_{i≤t} φ(q_t)·φ(k_i) (z without γ); exact only at γ = 1, so the public γ = 1 test still passes",
     [FM, DZ],
     [att(F_Y,
          "        den = (q @ k.transpose(-2, -1)).masked_fill(~causal, 0.0).sum(dim=-1, keepdim=True)  # φ(q_t)ᵀz_t\n"
          "        y = (scores @ v) / den\n")])

case("bug_fwd_feature_map_before_projection", "bug",
     "projection applied in the wrong place: forward applies φ to x and then projects, q = q_proj(φ(x)), "
     "k = k_proj(φ(x)), instead of φ(q_proj(x)), φ(k_proj(x)); q and k are no longer positive, so the scores "
     "and the normalizer can change sign; step is right",
     [FM, NORM],
     [att(F_Q + F_K,
          "        q = self.q_proj(feature_map(x)).view(B, T, H, d_h).transpose(1, 2)\n"
          "        k = self.k_proj(feature_map(x)).view(B, T, H, d_h).transpose(1, 2)\n")])

# ------------------------------------------------------------------------------------------------ bugs: step
case("bug_step_split_heads_before_batch", "bug",
     "batch layout: step splits q, k and v as view(H, B, d_h).transpose(0, 1), as if the flat (B·D) buffer were "
     "head-major; for B > 1 each row's heads are built from other sequences' channels (exact for B = 1); the "
     "merge reshape(B, D) is right; forward is right",
     [SM, BI],
     [att(S_Q + S_K + S_V,
          "        q = feature_map(self.q_proj(x_t)).view(H, B, d_h).transpose(0, 1)\n"
          "        k = feature_map(self.k_proj(x_t)).view(H, B, d_h).transpose(0, 1)\n"
          "        v = self.v_proj(x_t).view(H, B, d_h).transpose(0, 1)\n")])

case("bug_step_normalizer_key_not_query", "bug",
     "normalizer slip: step divides by φ(k_t)·z_t (the current key against the normalizer state) instead of "
     "φ(q_t)·z_t; the numerator φ(q)ᵀS is right; forward is right",
     [SM, NORM],
     [att(S_DEN, '        den = torch.einsum("bhd,bhd->bh", k, z).unsqueeze(-1)  # (B, H, 1)\n')])

case("bug_step_normalizer_summed_over_heads", "bug",
     "wrong reduction axis: step computes the normalizer as (φ(q) * z).sum(dim=1, keepdim=True), a sum over the "
     "heads axis of (B, H, d_h) instead of over d_h; the (B, 1, d_h) result broadcasts, so every head is divided "
     "channel by channel by numbers pooled over all heads (wrong also for H = 1); forward is right",
     [SM, NORM],
     [att(S_DEN, "        den = (q * z).sum(dim=1, keepdim=True)  # normalizer φ(q)·z\n")])

case("bug_step_returns_incoming_state", "bug",
     "state-update slip: step computes the updated memory into S_new, z_new and reads from it, but returns the "
     "(S, z) it was given; the first token is right, afterwards every token only sees itself (the history is "
     "never carried, so cached decoding forgets the prompt); forward is right",
     [SM, LM],
     [att(S_S + S_Z,
          '        S_new = g_S * S + torch.einsum("bhd,bhe->bhde", k, v)  # γS + φ(k)vᵀ\n'
          "        z_new = g_z * z + k  # γz + φ(k)\n"),
      att(S_NUM + S_DEN,
          '        num = torch.einsum("bhd,bhde->bhe", q, S_new)  # (B, H, d_h)\n'
          '        den = torch.einsum("bhd,bhd->bh", q, z_new).unsqueeze(-1)  # (B, H, 1)\n')])

case("bug_step_z_not_decayed", "bug",
     "state-update slip: step decays S but accumulates z without γ (z = z + φ(k)), so the normalizer keeps "
     "every old key at full weight; exact at γ = 1; forward is right",
     [SM, DZ],
     [att(S_Z, "        z = z + k  # running sum of φ(k)\n")])

case("bug_step_gamma_is_log_decay", "bug",
     "wrong γ transform: step copies forward's hint and takes gamma = F.logsigmoid(self.gamma_logit), i.e. log γ "
     "(negative, about -1.2 for γ = 0.3 and -0 for γ = 1) as the decay itself; S and z flip sign every token and "
     "the old memory is scaled by |log γ| instead of γ; forward is right",
     [SM, DEC],
     [att(S_GAMMA, "        gamma = F.logsigmoid(self.gamma_logit).to(dtype=S.dtype, device=S.device)  # per-head decay\n")])


# ------------------------------------------------------------------------------------------------ stubs
case("stub_zeros_right_shape", "stub",
     "forward returns zeros (B, T, D) and step returns zeros (B, D) with zero (S, z) of the documented shapes; "
     "the notebook is base's (Exercise 5 bill and written answers done), so the bill items are not lost",
     CODE + EX,
     [att(FWD_BODY, "        return x.new_zeros(B, T, D)  # not done yet\n"),
      att(STEP_BODY, "        return x_t.new_zeros(B, D), (torch.zeros_like(S), torch.zeros_like(z))  # not done yet\n")])


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
    entries = [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=c["should_lose"]) for c in C]
    with open(HERE / "corpus.yaml", "w") as f:
        f.write("# linear-attention-hybrid, blind round 19: written by make_cases.py (one entry per case folder)\n")
        yaml.safe_dump(entries, f, sort_keys=False, allow_unicode=True, width=110)
    counts = {k: sum(c["kind"] == k for c in C) for k in ("alternative", "bug", "stub")}
    print(f"{len(C)} entries (base included):", counts)


if __name__ == "__main__":
    main()
