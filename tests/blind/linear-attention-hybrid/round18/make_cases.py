"""Build the round-18 blind corpus: base/ from the student template, then one folder per case from base/.

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
     "reference-quality submission: forward splits heads with view(B, T, H, d_h).transpose(1, 2), builds the "
     "(H, T, T) weights as exp(logsigmoid(gamma_logit)·clamp(t-i, min=0)) masked_fill'ed to 0 above the diagonal, "
     "scores = (q @ kᵀ)·weights, y = scores @ v / row sums, merge by transpose + view; step casts γ to the state's "
     "dtype/device, builds new S = γS + einsum outer(φ(k), v) and z = γz + φ(k), then reads φ(q)ᵀS / φ(q)ᵀz; "
     "Exercise 5 worked with the default numbers in the scratch cell (cross-checked against memory_bill); all "
     "eight written answers filled", [], [])

case("alt_fwd_abs_lag_times_tril", "alternative",
     "forward builds the decay from the absolute distance |t-i| (so the exponent is never positive) and zeroes the "
     "future by multiplying with a float lower-triangular matrix of ones (tril); same weights as base", [],
     [att(F_DECAY_BLOCK,
          "        t_idx = torch.arange(T, device=x.device, dtype=x.dtype)\n"
          "        dist = (t_idx[:, None] - t_idx[None, :]).abs()  # |t - i|: the exponent is never positive\n"
          "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)\n"
          "        tril = torch.ones(T, T, dtype=x.dtype, device=x.device).tril()  # 1 for i <= t\n"
          "        weights = torch.exp(log_gamma[:, None, None] * dist) * tril\n")])

case("alt_fwd_unflatten_permute_heads", "alternative",
     "forward splits heads with unflatten(-1, (H, d_h)).permute(0, 2, 1, 3) and merges them with "
     "permute(0, 2, 1, 3).flatten(2): the same channel-to-head assignment as view + transpose", [],
     [att(F_QKV,
          "        q = feature_map(self.q_proj(x)).unflatten(-1, (H, d_h)).permute(0, 2, 1, 3)\n"
          "        k = feature_map(self.k_proj(x)).unflatten(-1, (H, d_h)).permute(0, 2, 1, 3)\n"
          "        v = self.v_proj(x).unflatten(-1, (H, d_h)).permute(0, 2, 1, 3)\n"),
      att(F_MERGE, "        y = y.permute(0, 2, 1, 3).flatten(2)  # (B, T, H·d_h)\n")])

case("alt_fwd_no_transpose_einsum", "alternative",
     "forward keeps q, k, v as (B, T, H, d_h) (no transpose) and lets einsum index the heads: scores "
     "'bthd,bshd->bhts', numerator 'bhts,bshd->bthd', normalizer = row sums moved to (B, T, H, 1); the result is "
     "already (B, T, H, d_h), so the merge is a reshape", [],
     [att(F_QKV,
          "        q = feature_map(self.q_proj(x)).view(B, T, H, d_h)\n"
          "        k = feature_map(self.k_proj(x)).view(B, T, H, d_h)\n"
          "        v = self.v_proj(x).view(B, T, H, d_h)\n"),
      att(F_SC_TO_Y,
          '        scores = torch.einsum("bthd,bshd->bhts", q, k) * weights  # (B, H, T, T)\n'
          '        numer = torch.einsum("bhts,bshd->bthd", scores, v)  # (B, T, H, d_h)\n'
          "        y = numer / scores.sum(dim=-1).transpose(1, 2).unsqueeze(-1)\n"),
      att(F_MERGE, "        y = y.reshape(B, T, D)\n")])

case("alt_fwd_log_space_max_shift", "alternative",
     "forward works in log space like a softmax: log(φ(q)·φ(k)) + (t-i)·log γ, -inf above the diagonal, minus the "
     "(detached) row maximum, then exp; the per-row shift cancels between numerator and normalizer, φ(q)·φ(k) > 0 "
     "so the log is finite", [],
     [att(F_W_TO_Y,
          "        logits = torch.log(q @ k.transpose(-2, -1)) + exponent  # log φ(q)·φ(k) + (t-i)·log γ\n"
          '        logits = logits.masked_fill(~causal, float("-inf"))\n'
          "        logits = logits - logits.amax(dim=-1, keepdim=True).detach()  # a per-row shift cancels below\n"
          "        scores = torch.exp(logits)  # (B, H, T, T)\n"
          "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)\n")])

case("alt_fwd_power_table_gather", "alternative",
     "forward computes a table of powers γ_h^n for n = 0..T-1 once (exp(n·log γ)) and gathers it with the clamped "
     "lag as an index, then multiplies by the boolean causal mask", [],
     [att(F_EXP + F_W,
          "        n = torch.arange(T, device=x.device, dtype=x.dtype)\n"
          "        powers = torch.exp(log_gamma[:, None] * n)  # (H, T): γ_h^n\n"
          "        weights = powers[:, lag.clamp(min=0)] * causal  # (H, T, T), gathered by lag, 0 above\n")])

case("alt_fwd_batch_loop", "alternative",
     "forward loops over the sequences of the batch, computing each one's (H, T, T) decayed scores and normalizer, "
     "and stacks the results back to (B, H, T, d_h)", [],
     [att(F_SC_TO_Y,
          "        outs = []\n"
          "        for b in range(B):  # one sequence at a time\n"
          "            s = (q[b] @ k[b].transpose(-2, -1)) * weights  # (H, T, T)\n"
          "            outs.append((s @ v[b]) / s.sum(dim=-1, keepdim=True))\n"
          "        y = torch.stack(outs)  # (B, H, T, d_h)\n")])

case("alt_fwd_materialized_states", "alternative",
     "forward materializes the recurrent state at every position: S_t = Σ_i w_ti φ(k_i)v_iᵀ (B, H, T, d_h, d_h) and "
     "z_t = Σ_i w_ti φ(k_i) by einsum with the decay weights, then reads φ(q_t)ᵀS_t / φ(q_t)ᵀz_t; more memory "
     "(T·d_h² per head) but the same numbers", [],
     [att(F_SC_TO_Y,
          "        kv = k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, T, d_h, d_h): φ(k_i) v_iᵀ\n"
          '        S_all = torch.einsum("hts,bhsde->bhtde", weights, kv)  # S_t at every t\n'
          '        z_all = torch.einsum("hts,bhsd->bhtd", weights, k)  # z_t at every t\n'
          '        y = torch.einsum("bhtd,bhtde->bhte", q, S_all) / (q * z_all).sum(dim=-1, keepdim=True)\n')])

case("alt_step_bh_flattened_bmm", "alternative",
     "step flattens batch and heads into B·H and uses torch.bmm for the rank-one write (column × row) and for the "
     "read (row × matrix), viewing S back to (B, H, d_h, d_h) before returning", [],
     [att(block(STEP_BODY, S_S, S_DEN),
          "        BH = B * H\n"
          "        S = (g_S * S).reshape(BH, d_h, d_h) + torch.bmm(k.reshape(BH, d_h, 1), v.reshape(BH, 1, d_h))\n"
          "        z = g_z * z + k  # γz + φ(k)\n"
          "        # 4. then read: φ(q)ᵀS / φ(q)ᵀz\n"
          "        num = torch.bmm(q.reshape(BH, 1, d_h), S).view(B, H, d_h)\n"
          "        S = S.view(B, H, d_h, d_h)\n"
          "        den = (q * z).sum(dim=-1, keepdim=True)\n")])

case("alt_step_decayed_query_read", "alternative",
     "step reads from the OLD state with the read-before-write algebra done right: γ folded into the query, "
     "num = (γφ(q))ᵀS_old + (φ(q)·φ(k)) v, den = (γφ(q))·z_old + φ(q)·φ(k); then writes the new (S, z) as base", [],
     [att(S_UPDATE_READ,
          "        # 3. read the old memory, decayed, plus this token's own contribution\n"
          "        qk = (q * k).sum(dim=-1, keepdim=True)  # φ(q)·φ(k), (B, H, 1)\n"
          "        gq = g_z * q  # γ folded into the query\n"
          '        num = torch.einsum("bhd,bhde->bhe", gq, S) + qk * v\n'
          "        den = (gq * z).sum(dim=-1, keepdim=True) + qk\n"
          "        # 4. then the new memory, returned to the caller\n"
          '        S = g_S * S + torch.einsum("bhd,bhe->bhde", k, v)\n'
          "        z = g_z * z + k\n")])

case("alt_step_gamma_from_tanh_identity", "alternative",
     "step computes γ from gamma_logit by the identity sigmoid(x) = (1 + tanh(x/2)) / 2 instead of self.decay "
     "(equal to rounding, also at the γ = 1 logit of 50)", [],
     [att(S_GAMMA,
          "        gamma = (0.5 * (1 + torch.tanh(0.5 * self.gamma_logit))).to(dtype=S.dtype, device=S.device)\n")])

case("alt_step_float64_accumulate", "alternative",
     "step does the decay, write and read in float64 whatever the input dtype, and casts the output and the new "
     "(S, z) back to the state's dtype (identical in float64; more precise, not less, in float32)", [],
     [att(S_Q + S_K + S_V,
          "        dt = S.dtype\n"
          "        q = feature_map(self.q_proj(x_t)).view(B, H, d_h).double()\n"
          "        k = feature_map(self.k_proj(x_t)).view(B, H, d_h).double()\n"
          "        v = self.v_proj(x_t).view(B, H, d_h).double()\n"
          "        S, z = S.double(), z.double()  # accumulate in float64\n"),
      att(S_GAMMA, "        gamma = self.decay.to(dtype=torch.float64, device=S.device)\n"),
      att(S_Y + S_RET,
          "        y = (num / den).to(x_t.dtype).reshape(B, D)\n"
          "        return self.out_proj(y), (S.to(dt), z.to(dt))\n")])

case("alt_step_value_major_internal", "alternative",
     "step keeps S value-major inside (Sᵀ = γSᵀ + v φ(k)ᵀ, read as Sᵀφ(q) with a matrix-vector product) and "
     "transposes back to the documented (d_h key, d_h value) layout before returning", [],
     [att(S_S,
          "        St = g_S * S.transpose(-2, -1) + v.unsqueeze(-1) * k.unsqueeze(-2)  # value-major: (B, H, d_v, d_k)\n"),
      att(S_NUM,
          "        num = (St @ q.unsqueeze(-1)).squeeze(-1)  # Sᵀφ(q), (B, H, d_h)\n"
          "        S = St.transpose(-2, -1)  # back to the documented (d_k, d_v) layout\n")])

case("alt_step_clone_then_inplace", "alternative",
     "step clones the incoming S and z and then updates the clones in place (mul_ by γ, add_ the write): the "
     "caller's tensors are never touched", [],
     [att(S_S + S_Z,
          "        S = S.clone().mul_(g_S).add_(k.unsqueeze(-1) * v.unsqueeze(-2))  # γS + φ(k)vᵀ on a copy\n"
          "        z = z.clone().mul_(g_z).add_(k)\n")])

# ------------------------------------------------------------------------------------------------ bugs: forward
case("bug_fwd_decay_exponent_lag_minus_one", "bug",
     "off-by-one in the decay exponent: forward uses γ^max(t-i-1, 0), so the previous token is weighted like the "
     "current one (both 1) and every older token is one decay step too fresh; step is right, so the two forms "
     "differ whenever γ < 1 (identical at γ = 1)",
     [FM, DEC],
     [att(F_EXP, "        exponent = log_gamma.view(H, 1, 1) * (lag - 1).clamp(min=0).to(x.dtype)  # γ^(t-i-1)\n")])

case("bug_fwd_log_gamma_neg_softplus", "bug",
     "forward takes log γ as -softplus(gamma_logit) believing it is logsigmoid; that is logsigmoid(-gamma_logit) "
     "= log(1 - γ), so forward decays with 1 - γ (fast heads become slow and vice versa)",
     [FM, DEC],
     [att(F_LOGG, "        log_gamma = -F.softplus(self.gamma_logit).to(x.dtype)  # log sigmoid(x) (sign slip)\n")])

case("bug_fwd_heads_view_without_transpose", "bug",
     "forward splits heads with view(B, H, T, d_h) straight from (B, T, D) (no transpose) and merges with a plain "
     "reshape(B, T, D): each 'head' row is a chunk of d_h channels of the flat (T·D) buffer, so a head's 'sequence' "
     "runs across tokens and channels of several real heads (still causal: the flat order is monotone in time, and "
     "the batch stays separate)",
     [FM, HS],
     [att(F_QKV,
          "        q = feature_map(self.q_proj(x)).view(B, H, T, d_h)\n"
          "        k = feature_map(self.k_proj(x)).view(B, H, T, d_h)\n"
          "        v = self.v_proj(x).view(B, H, T, d_h)\n"),
      att(F_MERGE, "        y = y.reshape(B, T, D)\n")])

case("bug_fwd_normalizer_from_unmasked_scores", "bug",
     "forward masks the scores for the numerator but divides by the row sums of the decayed scores BEFORE the "
     "mask (the future keys, with weight γ^0 = 1 after the clamp, are in the normalizer): wrong normalizer, and "
     "future tokens change past outputs",
     [FM, NORM, CA],
     [att(F_W_TO_Y,
          "        raw = (q @ k.transpose(-2, -1)) * torch.exp(exponent)  # decayed scores\n"
          "        scores = raw.masked_fill(~causal, 0.0)  # causal part for the values\n"
          "        y = (scores @ v) / raw.sum(dim=-1, keepdim=True)\n")])

case("bug_fwd_decay_mean_over_heads", "bug",
     "forward uses one decay for all heads, the mean of the heads' log γ (geometric mean of γ_h), instead of each "
     "head's own γ_h; identical when all heads share one γ (e.g. all 1.0)",
     [FM, DEC],
     [att(F_LOGG, "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype).mean().expand(H)  # one shared decay\n")])

case("bug_fwd_batch_flattened_into_one_sequence", "bug",
     "forward reshapes the batch into one long sequence (1, B·T, D) 'to compute everything at once' and reshapes "
     "back at the end: sequence b attends (decayed) to every token of sequences 0..b-1; B = 1 is unaffected",
     [FM, BI],
     [att(F_QKV,
          "        B0, T0 = B, T\n"
          "        x = x.reshape(1, B * T, D)  # the whole batch as one stream\n"
          "        B, T = 1, B * T\n" + F_QKV),
      att(F_RET, "        return self.out_proj(y).view(B0, T0, D)\n")])

case("bug_fwd_mask_admits_next_token", "bug",
     "off-by-one in the causal mask: visible = (t - i >= -1), so each position also sees the next token (with "
     "weight 1 after the clamp); forward leaks one token of the future",
     [FM, CA],
     [att(F_CAUSAL, "        causal = lag >= -1\n")])

case("bug_fwd_decay_by_key_position", "bug",
     "forward decays by the key's absolute position, γ^i, instead of the distance γ^(t-i): older keys get MORE "
     "weight relative to recent ones; identical only at γ = 1",
     [FM, DEC],
     [att(F_EXP, "        exponent = log_gamma.view(H, 1, 1) * t_idx.to(x.dtype).view(1, 1, T)  # γ^i for key i\n")])

case("bug_fwd_lag_in_bfloat16", "bug",
     "forward stores the lag matrix in bfloat16 'to save memory': integers are exact only up to 256, so for "
     "sequences longer than 257 tokens the exponents t-i are rounded (e.g. 257 -> 256) and old tokens get the "
     "wrong decay; exact for short sequences",
     [LS],
     [att(F_EXP, "        exponent = log_gamma.view(H, 1, 1) * lag.clamp(min=0).to(torch.bfloat16)  # smaller (T, T)\n")])

case("bug_fwd_normalizer_mean_not_sum", "bug",
     "forward divides by the MEAN of each score row instead of its sum, so every output is scaled by T (the row "
     "length, masked zeros included); wrong at γ = 1 too",
     [FM, NORM],
     [att(F_Y, "        y = (scores @ v) / scores.mean(dim=-1, keepdim=True)\n")])

# ------------------------------------------------------------------------------------------------ bugs: step
case("bug_step_gamma_tanh_not_sigmoid", "bug",
     "step computes γ as tanh(gamma_logit) instead of sigmoid (self.decay): a different squashing, so step decays "
     "at the wrong rate (e.g. logit 1.1 -> 0.80 instead of 0.75); forward is right",
     [SM, DEC],
     [att(S_GAMMA, "        gamma = torch.tanh(self.gamma_logit).to(dtype=S.dtype, device=S.device)  # squash to (0, 1)\n")])

case("bug_step_heads_strided_split_and_merge", "bug",
     "step splits heads strided, view(B, d_h, H).transpose(1, 2) (channel c to head c mod H), and merges back the "
     "same way: consistent inside step but a different head partition than forward's contiguous one",
     [SM, HS],
     [att(S_Q + S_K + S_V,
          "        q = feature_map(self.q_proj(x_t)).view(B, d_h, H).transpose(1, 2)\n"
          "        k = feature_map(self.k_proj(x_t)).view(B, d_h, H).transpose(1, 2)\n"
          "        v = self.v_proj(x_t).view(B, d_h, H).transpose(1, 2)\n"),
      att(S_Y, "        y = (num / den).transpose(1, 2).reshape(B, D)\n")])

case("bug_step_read_einsum_batch_letter_typo", "bug",
     "step's read einsum is 'bhd,ahde->bhe': a different letter for S's batch index, so every sequence reads the "
     "SUM of all sequences' states in the numerator; B = 1 is unaffected",
     [SM, BI],
     [att(S_NUM, '        num = torch.einsum("bhd,ahde->bhe", q, S)  # (B, H, d_h)\n')])

case("bug_step_read_before_write_missing_decay", "bug",
     "step reads from the old state and adds the current token by hand, num = φ(q)ᵀS_old + (φ(q)·φ(k))v, "
     "den = φ(q)·z_old + φ(q)·φ(k), but forgets to decay the old terms by γ in the read; the returned (S, z) are "
     "right, the outputs are right only at γ = 1",
     [SM, DEC],
     [att(S_UPDATE_READ,
          "        # 3. read the old memory plus this token\n"
          "        qk = (q * k).sum(dim=-1, keepdim=True)\n"
          '        num = torch.einsum("bhd,bhde->bhe", q, S) + qk * v\n'
          "        den = (q * z).sum(dim=-1, keepdim=True) + qk\n"
          "        # 4. then update the memory for the next token\n"
          '        S = g_S * S + torch.einsum("bhd,bhe->bhde", k, v)\n'
          "        z = g_z * z + k\n")])

case("bug_step_read_before_update_eps_guard", "bug",
     "step reads φ(q)ᵀS / φ(q)ᵀz from the OLD state and only then updates; to avoid the 0/0 at t = 0 it adds "
     "1e-6 to the denominator: outputs are 0 at the first token and shifted by one token afterwards (token t "
     "never sees itself); the returned state is right",
     [SM, UO],
     [att(S_UPDATE_READ,
          "        # 3. read the memory so far\n"
          '        num = torch.einsum("bhd,bhde->bhe", q, S)\n'
          "        den = (q * z).sum(dim=-1, keepdim=True) + 1e-6  # avoid 0/0 on the first token\n"
          "        # 4. then write this token\n"
          '        S = g_S * S + torch.einsum("bhd,bhe->bhde", k, v)\n'
          "        z = g_z * z + k\n")])

case("bug_step_denominator_sums_z_without_query", "bug",
     "step's normalizer is z.sum(-1), the plain sum of z's entries, instead of φ(q)·z (the query left out of the "
     "denominator)",
     [SM, NORM],
     [att(S_DEN, "        den = z.sum(dim=-1, keepdim=True)  # normalizer\n")])

case("bug_step_z_decays_new_key", "bug",
     "step decays z AFTER adding the key, z = γ(z + φ(k)), while S is decayed before the write: the normalizer "
     "carries one extra factor γ on every term, so outputs are scaled by 1/γ and the returned z is wrong",
     [SM, DZ],
     [att(S_Z, "        z = g_z * (z + k)  # decayed normalizer\n")])

case("bug_step_memory_kept_on_module", "bug",
     "state not reset: step remembers its last (S, z) on the module and, when called with state=None, continues "
     "from it (if batch size and dtype match) instead of starting from the empty memory; a second sequence fed "
     "from None through the same layer starts with the first one's memory (Exercise 4's locked check, which "
     "restarts from None on the same layer, fails)",
     [SM, EX4],
     [att(S_INIT,
          "        if state is None:\n"
          "            last = getattr(self, \"_last_state\", None)  # keep going from the last memory\n"
          "            if last is not None and last[0].shape[0] == B and last[0].dtype == x_t.dtype:\n"
          "                state = last\n"
          "            else:\n"
          "                state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)\n"),
      att(S_RET,
          "        self._last_state = (S, z)\n"
          "        return self.out_proj(y), (S, z)\n")])

case("bug_step_z_accumulates_query", "bug",
     "step's normalizer accumulates φ(q) instead of φ(k): z = γz + φ(q) (copy-paste slip), so both the read and "
     "the returned z are wrong",
     [SM, NORM],
     [att(S_Z, "        z = g_z * z + q  # γz + φ(·)\n")])

case("bug_step_reads_from_kept_history", "bug",
     "step updates and returns (S, z) correctly but computes its output from a list of every (φ(k), v) seen so "
     "far, kept on the module (reset when the incoming z is all zero), with explicit γ^(t-i) weights: the outputs "
     "are right for one sequence, but each step costs O(t) and the history grows without bound",
     [SM, COST],
     [att(S_UPDATE_READ,
          "        # 3. update (returned for the caller)\n"
          "        fresh = not bool(z.any())  # empty memory: a new sequence\n"
          '        S = g_S * S + torch.einsum("bhd,bhe->bhde", k, v)\n'
          "        z = g_z * z + k\n"
          "        # 4. read from the exact history of keys and values, decayed\n"
          "        if fresh or not hasattr(self, \"_history\"):\n"
          "            self._history = []\n"
          "        self._history.append((k, v))\n"
          "        K = torch.stack([kv[0] for kv in self._history], dim=2)  # (B, H, n, d_h)\n"
          "        V = torch.stack([kv[1] for kv in self._history], dim=2)\n"
          "        n = K.shape[2]\n"
          "        w = gamma.view(1, H, 1) ** torch.arange(n - 1, -1, -1, device=K.device, dtype=K.dtype)  # γ^(t-i)\n"
          '        a = torch.einsum("bhd,bhnd->bhn", q, K) * w\n'
          '        num = torch.einsum("bhn,bhne->bhe", a, V)\n'
          "        den = a.sum(dim=-1, keepdim=True)\n")])

case("bug_step_decays_callers_state_in_place", "bug",
     "step decays the incoming S and z in place (S.mul_(γ), z.mul_(γ)) before adding the write out of place: the "
     "outputs and the returned state are right, but the caller's state tensors are changed by the call",
     [LM],
     [att(S_S + S_Z,
          "        S.mul_(g_S)  # decay the memory where it is\n"
          "        z.mul_(g_z)\n"
          '        S = S + torch.einsum("bhd,bhe->bhde", k, v)  # γS + φ(k)vᵀ\n'
          "        z = z + k  # γz + φ(k)\n")])

# ------------------------------------------------------------------------------------------------ bugs: notebook
case("bug_nb_mha_one_head_only", "bug",
     "Exercise 5: the MHA cache counted for one head, 2·T·d_h·BYTES = 512000000 B instead of 2·T·D·BYTES; the "
     "all-MHA stack (2048000000 B) and the hybrid stack (515170304 B) built from it are wrong too; GQA, window "
     "and linear are right",
     ["bill_mha", "bill_all_mha_stack", "bill_hybrid_stack"],
     [nb("ex5-036", "mha_bytes = 2 * T * D * BYTES  # K and V: T rows of D values each",
         "mha_bytes = 2 * T * d_h * BYTES  # K and V: T rows of d_h values each"),
      answer("mha_cache_one_layer", "16384000000 B", "512000000 B"),
      answer("all_mha_stack_4_layers", "65536000000 B", "2048000000 B"),
      answer("hybrid_lllf_stack_4_layers", "16387170304 B", "515170304 B")])

case("bug_nb_window_4k_as_4000", "bug",
     "Exercise 5: the 4096-token window taken as 4000 tokens ('4k'): 65536000 B instead of 67108864 B (2.3% low)",
     ["bill_window"],
     [nb("ex5-036", "window_bytes = 2 * min(T, 4096) * D * BYTES", "window_bytes = 2 * min(T, 4000) * D * BYTES"),
      answer("window4096_cache_one_layer", "67108864 B", "65536000 B")])

case("bug_nb_linear_state_one_head", "bug",
     "Exercise 5: the linear (S, z) state priced for one head, (d_h² + d_h)·BYTES = 33024 B, instead of H heads; "
     "the hybrid total (16384099072 B) is still within 1% of the right one",
     ["bill_linear"],
     [nb("ex5-036", "linear_bytes = (H * d_h * d_h + H * d_h) * BYTES", "linear_bytes = (d_h * d_h + d_h) * BYTES"),
      answer("linear_state_one_layer", "1056768 B", "33024 B"),
      answer("hybrid_lllf_stack_4_layers", "16387170304 B", "16384099072 B")])

case("bug_nb_linear_kib_written_as_kb", "bug",
     "Exercise 5 units: the linear state computed right (1056768 B) but written as '1032 kB', which is its size in "
     "KiB with the decimal unit: 1032000 B, 2.3% low",
     ["bill_linear"],
     [answer("linear_state_one_layer", "1056768 B", "1032 kB")])

case("bug_nb_grows_every_state", "bug",
     "Exercise 5: grows_with_t answered (a), every state including the linear (S, z), instead of (b)",
     ["bill_grows"],
     [answer("grows_with_t", "b", "a")])

case("bug_nb_patterns_hybrid_alternating", "bug",
     "hybrid layout: Exercise 2's PATTERNS defines the hybrid as alternating [linear, full, linear, full] instead "
     "of [linear, linear, linear, full]; the training runs, but the locked checks of Exercises 2 and 3 (which "
     "reuse PATTERNS) reject it",
     [EX2, EX3],
     [nb("ex2-018", '    "hybrid LLLF": ["linear", "linear", "linear", "full"],\n',
         '    "hybrid LLLF": ["linear", "full", "linear", "full"],\n')])

case("bug_nb_ex4_norm_over_all_heads", "bug",
     "Exercise 4: the state norm taken over all heads at once, state[0][0].norm() (one number per token) instead "
     "of one Frobenius norm per head, so S_norms is (T,) and the per-head plot and the locked check fail",
     [EX4],
     [nb("ex4-030", "S_norms.append(state[0][0].flatten(1).norm(dim=1))  # (H,) Frobenius norm of each head's S",
         "S_norms.append(state[0][0].norm())  # Frobenius norm of S")])

case("bug_written_reassociation_training_linear", "bug",
     "the reassociation answer claims reassociating makes the parallel training pass linear in T as written here "
     "and that dropping the softmax costs nothing (φ(q)·φ(k) is 'an equally sharp similarity'); the other concept "
     "answers are base's",
     ["written_concepts"],
     [written("reassociation-040", (
         "Reassociating to φ(Q)(φ(K)ᵀV) makes everything linear in T, training included: this assignment's forward "
         "is linear in the sequence length for that reason. Removing the softmax costs nothing in quality, because "
         "φ(q)·φ(k) with φ = elu + 1 is just as sharp a similarity as exp(q·k); it is only a cheaper way to compute "
         "the same attention weights."))])

# ------------------------------------------------------------------------------------------------ stubs
case("stub_as_handed_out", "stub", "the untouched template: attention.py and the notebook exactly as handed out",
     AUTO, [("template", ATT, None), ("template", NB, None)])
case("stub_all_zeros", "stub",
     "forward returns zeros of shape (B, T, D), step returns zeros (B, D) and a zero (S, z) of the documented "
     "shapes; the notebook is the template's",
     AUTO, [att(FWD_BODY, "        return x.new_zeros(B, T, D)  # TODO\n"),
            att(STEP_BODY, "        return x_t.new_zeros(B, D), (torch.zeros_like(S), torch.zeros_like(z))  # TODO\n"),
            ("template", NB, None)])
case("stub_randn_outputs", "stub",
     "forward returns torch.randn(B, T, D), step returns torch.randn(B, D) and the state it was given (right "
     "shapes and dtype, random numbers); the notebook is the template's",
     AUTO, [att(FWD_BODY, "        return torch.randn(B, T, D, dtype=x.dtype, device=x.device)  # placeholder\n"),
            att(STEP_BODY, "        return torch.randn(B, D, dtype=x_t.dtype, device=x_t.device), (S, z)  # placeholder\n"),
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
    assert (HERE / "stub_as_handed_out" / ATT).read_bytes() == (TEMPLATE / ATT).read_bytes()
    assert (HERE / "stub_as_handed_out" / NB).read_bytes() == (TEMPLATE / NB).read_bytes()
    entries = [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=c["should_lose"]) for c in C]
    with open(HERE / "corpus.yaml", "w") as f:
        f.write("# linear-attention-hybrid, blind round 18: written by make_cases.py (one entry per case folder)\n")
        yaml.safe_dump(entries, f, sort_keys=False, allow_unicode=True, width=110)
    counts = {k: sum(c["kind"] == k for c in C) for k in ("alternative", "bug", "stub")}
    print(f"{len(C)} entries (base included):", counts)


if __name__ == "__main__":
    main()
