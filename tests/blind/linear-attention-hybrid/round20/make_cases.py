"""Build the round-20 blind corpus: base/ from the student template, then one folder per case from base/.

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
FM, SM, NORM, UO, DEC, DZ, HS, BI, CA, LS, LM, COST = CODE

# ------------------------------------------------------------------------------------------------ base code
# forward: heads folded into the batch, (B·H, T, d_h), and torch.bmm; the (H, T, T) decay table is tiled
# over the batch with .repeat(B, 1, 1), so row b·H + h of the flat batch gets head h's decays.
FWD_BODY = '''\
        # 1. projections, φ on q and k; heads (B, T, D) -> (B, H, T, d_h), then folded to (B·H, T, d_h)
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2).reshape(B * H, T, d_h)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2).reshape(B * H, T, d_h)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2).reshape(B * H, T, d_h)
        # 2. decay table (H, T, T): γ_h^(t-i) on and below the diagonal, 0 above it
        pos = torch.arange(T, device=x.device)
        dist = (pos[:, None] - pos[None, :]).to(x.dtype)  # t - i
        past = dist >= 0
        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1, 1)  # log γ_h <= 0
        decay = torch.exp(log_g * dist.clamp(min=0)) * past  # exponent <= 0: never overflows
        decay = decay.repeat(B, 1, 1)  # (B·H, T, T): row b·H + h is head h
        # 3. decayed scores
        scores = torch.bmm(q, k.transpose(1, 2)) * decay  # (B·H, T, T)
        # 4. numerator Σ w v over normalizer Σ w = φ(q_t)·z_t
        y = torch.bmm(scores, v) / scores.sum(dim=-1, keepdim=True)
        # 5. unfold and merge heads: (B·H, T, d_h) -> (B, H, T, d_h) -> (B, T, H, d_h) -> (B, T, D)
        y = y.view(B, H, T, d_h).transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''

# step: plain broadcasting (no einsum); new tensors, so the caller's (S, z) is never touched
STEP_BODY = '''\
        # 1. this token, heads split: (B, D) -> (B, H, d_h); φ on q and k
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        # 2. γ per head in the state's dtype
        gamma = self.decay.to(dtype=S.dtype, device=S.device)
        # 3. update first: S = γS + φ(k)vᵀ, z = γz + φ(k)
        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)
        z = gamma.view(1, H, 1) * z + k
        # 4. then read: φ(q)ᵀS / φ(q)ᵀz
        num = (q.unsqueeze(-1) * S).sum(dim=-2)  # (B, H, d_h): Σ_d q_d S[d, :]
        den = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)
        y = (num / den).reshape(B, D)
        return self.out_proj(y), (S, z)
'''

# ------------------------------------------------------------------------------------------------ base notebook
SCRATCH = '''\
# Exercise 5 scratch: bytes of decoding state for ONE sequence, BYTES bytes per value
d_h = D // H
per_token_kv = 2 * D  # one K row and one V row of width D per token (MHA)

bill = {
    "mha_cache_one_layer": T * per_token_kv * BYTES,
    "gqa8_cache_one_layer": T * 2 * (8 * d_h) * BYTES,  # 8 KV heads of width d_h
    "window4096_cache_one_layer": min(T, 4096) * per_token_kv * BYTES,  # at most 4096 rows kept
    "linear_state_one_layer": H * (d_h * d_h + d_h) * BYTES,  # S (d_h x d_h) and z (d_h) per head
}
bill["all_mha_stack_4_layers"] = 4 * bill["mha_cache_one_layer"]
bill["hybrid_lllf_stack_4_layers"] = 3 * bill["linear_state_one_layer"] + bill["mha_cache_one_layer"]

print(f"T={T:,}  D={D}  H={H}  d_h={d_h}  BYTES={BYTES}")
for key, n in bill.items():
    print(f"{key:28s} {n:>16,d} B   {n / 1e6:14.3f} MB   {n / 2**30:10.4f} GiB")

# the two MHA/linear-only lines must agree with the provided accounting
assert bill["all_mha_stack_4_layers"] == memory_bill(["full"] * 4, T, D, H, bytes_per_value=BYTES).total_bytes
assert bill["hybrid_lllf_stack_4_layers"] == memory_bill(["linear"] * 3 + ["full"], T, D, H,
                                                         bytes_per_value=BYTES).total_bytes
print("memory_bill agrees on both stacks")'''

ANSWERS_VALUES = {
    "mha_cache_one_layer": "16.384 GB",
    "gqa8_cache_one_layer": "4.096 GB",
    "window4096_cache_one_layer": "67.11 MB",
    "linear_state_one_layer": "1.0568 MB",
    "all_mha_stack_4_layers": "65.536 GB",
    "hybrid_lllf_stack_4_layers": "16.387 GB",
    "grows_with_t": "b",
}

WRITTEN = {
    "ex1-crossover-015": (
        "I ran the notebook in grading mode on a CPU with one thread: the linear step took about 117 µs at every "
        "L, the cached full step 104 µs at L = 16, 114 µs at 64, 136 µs at 256, 625 µs at 1024 and about 6 ms at "
        "4096, so the crossover I observed is L = 256 (full step slower from there on). Per head the full step "
        "does about 4·L·d_h multiply-adds (q·K over L keys, then the weighted sum of L values) and torch.cat "
        "copies the whole cache every call, while the linear step does about 4·d_h² (decay S, add φ(k)vᵀ, read "
        "φ(q)ᵀS and φ(q)ᵀz). From arithmetic alone the crossover would be near L ≈ d_h = 32, but for small L both "
        "steps are a handful of tiny kernels plus Python, so fixed overheads decide and the real crossover comes "
        "later than that estimate. On a GPU the launch overheads are even larger relative to the arithmetic and "
        "reading a cache of a few thousand rows is cheap, so I would expect the crossover at a larger L."),
    "ex2-comparison-022": (
        "In grading mode the models trained for 4 steps, and the three validation losses came out almost equal: "
        "3.368 (full), 3.351 (linear), 3.355 (hybrid), somewhat below ln 44 ≈ 3.78, the loss of a uniform guess over the 44 characters. The samples "
        "from all three were the same kind of character soup after 'Once upon a time', so I cannot see names "
        "kept consistent or objects mentioned again in any of them. This "
        "run therefore says only that all three code paths train and decode. With the full 600 steps I would "
        "expect the losses to stay close, because most next characters depend on the last few characters, "
        "which the decayed state keeps; the difference should show in the samples, where only models with a "
        "full layer can copy a name from far back exactly."),
    "ex3-recall-027": (
        "After 4 training steps all three curves are below chance (1/8) in every distance bin (accuracies between "
        "0.01 and 0.05), flat in distance, and the patterns are not distinguishable: the models have not yet "
        "learned the lookup at "
        "all, so this is not the textbook story, and it is not evidence against it either. To test it I would "
        "train the full 1000 steps (or longer), repeat with several seeds since the plateau breaks at different "
        "times, and then vary the number of pairs (more pairs means more crosstalk in the 4 × 4 states) and the "
        "width. The textbook prediction is that the pure linear model decays with distance and with more "
        "pairs, and the hybrid's one full layer recovers near-full-attention accuracy."),
    "ex4-gate-033": (
        "For γ < 1 the state norm grows for a while and then flattens: the old content shrinks geometrically, "
        "so ‖S‖ saturates around the size of one write divided by (1 - γ). γ = 0.5 saturates after a few tokens, "
        "0.9 after tens, 0.99 after hundreds at a much larger norm, and γ = 1 never saturates (it grows like the "
        "number of tokens). The output is bounded anyway because z is decayed with the same γ, so φ(q)ᵀS / φ(q)ᵀz "
        "is a convex combination of past values whatever the scale. The trained models' learned γ are still "
        "their initial spread, 0.749, 0.90, 0.96 and 0.984 in every linear layer, since 4 steps barely move the "
        "logits. A fixed per-head decay "
        "forgets at the same rate everywhere: it cannot decide to keep one important token for a long time and "
        "wipe the memory at a boundary; an input-dependent gate can do that, and a delta-rule write can replace "
        "the value stored under a key instead of adding to it."),
    "reassociation-040": (
        "Grouping φ(K)ᵀV first turns the sum over the past into a d_h × d_h matrix (and a d_h vector for the "
        "normalizer) that no longer depends on the query, so it can be updated once per token and read in "
        "O(d_h²): decoding memory and time per token are constant instead of growing with T, and a full sequence "
        "costs O(T·d_h²) instead of O(T²·d_h). The price of dropping the softmax is selectivity: φ(q)·φ(k) is a "
        "smooth positive kernel that cannot put almost all weight on one key the way exp does, and all pairs are "
        "superimposed in one fixed-size state, so exact retrieval gets noisy as more pairs are stored."),
    "why-hybrids-042": (
        "A fixed-size state cannot remember every token exactly: old pairs fade with the decay and new pairs "
        "overlap with them, so recalling or copying one specific token from far back fails. Hybrids keep a few "
        "full-attention layers that can still look up any earlier token exactly and write it into the residual "
        "stream, while most layers are linear and keep constant memory and compute per token, so only the few "
        "full layers pay a growing KV cache."),
    "quadratic-reference-044": (
        "At inference the layer only keeps (S, z), H·(d_h² + d_h) numbers, and each new token updates them in "
        "place of a cache, so the state is fixed-size. The training reference, forward, builds the whole T × T "
        "matrix of decayed scores γ^(t-i)·φ(q_t)·φ(k_i) so that all positions are computed by batched matrix "
        "products; that matrix is quadratic in T in time and memory. It is there because it is easy to check "
        "against step; a production kernel would work chunkwise (parallel inside a chunk, the recurrence between "
        "chunks) to be linear in T."),
    "delta-rule-046": (
        "The delta rule reads the state with the new key first, prediction = k_tᵀS, and then writes only the "
        "difference β_t·k_t(v_t − prediction)ᵀ, so the value already stored under that key is corrected "
        "(replaced when β = 1 and the key has unit norm) rather than piled on. This assignment writes "
        "additively with one constant learned decay per head; KDA uses a gated delta rule with a per-channel "
        "decay computed from each token, chunkwise training kernels, normalization and short convolutions, "
        "so calling this layer KDA would be wrong."),
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
    shutil.copytree(TEMPLATE, BASE, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache",
                                                                   ".ipynb_checkpoints"))
    p = BASE / ATT
    text = p.read_text()
    text = replace_once(text, block(text, "        # 1. q, k, v = the three projections",
                                    "        return self.out_proj(y)\n"), FWD_BODY, "base forward")
    text = replace_once(text, block(text, "        # 1. q, k, v for this one token",
                                    "        return self.out_proj(y), (S, z)\n"), STEP_BODY, "base step")
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
F_Q = "        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2).reshape(B * H, T, d_h)\n"
F_K = "        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2).reshape(B * H, T, d_h)\n"
F_V = "        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2).reshape(B * H, T, d_h)\n"
F_POS = "        pos = torch.arange(T, device=x.device)\n"
F_DIST = "        dist = (pos[:, None] - pos[None, :]).to(x.dtype)  # t - i\n"
F_PAST = "        past = dist >= 0\n"
F_LOGG = "        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1, 1)  # log γ_h <= 0\n"
F_DECAY = "        decay = torch.exp(log_g * dist.clamp(min=0)) * past  # exponent <= 0: never overflows\n"
F_REPEAT = "        decay = decay.repeat(B, 1, 1)  # (B·H, T, T): row b·H + h is head h\n"
F_SC = "        scores = torch.bmm(q, k.transpose(1, 2)) * decay  # (B·H, T, T)\n"
F_Y = "        y = torch.bmm(scores, v) / scores.sum(dim=-1, keepdim=True)\n"
F_MERGE = "        y = y.view(B, H, T, d_h).transpose(1, 2).reshape(B, T, D)\n"
F_RET = "        return self.out_proj(y)\n"

S_Q = "        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)\n"
S_K = "        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)\n"
S_V = "        v = self.v_proj(x_t).view(B, H, d_h)\n"
S_GAMMA = "        gamma = self.decay.to(dtype=S.dtype, device=S.device)\n"
S_S = "        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)\n"
S_Z = "        z = gamma.view(1, H, 1) * z + k\n"
S_NUM = "        num = (q.unsqueeze(-1) * S).sum(dim=-2)  # (B, H, d_h): Σ_d q_d S[d, :]\n"
S_DEN = "        den = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)\n"
S_Y = "        y = (num / den).reshape(B, D)\n"
S_RET = "        return self.out_proj(y), (S, z)\n"
for _a in (F_Q, F_K, F_V, F_POS, F_DIST, F_PAST, F_LOGG, F_DECAY, F_REPEAT, F_SC, F_Y, F_MERGE, F_RET):
    assert FWD_BODY.count(_a) == 1, _a
for _a in (S_Q, S_K, S_V, S_GAMMA, S_S, S_Z, S_NUM, S_DEN, S_Y, S_RET):
    assert STEP_BODY.count(_a) == 1, _a
F_DECAY_TO_Y = block(FWD_BODY, F_POS, F_Y)
S_UPDATE_TO_Y = block(STEP_BODY, S_S, S_Y)

C = []


def case(name, kind, about, should_lose, edits):
    C.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=edits))


def att(old, new):
    return ("att", old, new)


def nb(cell, old, new):
    return (f"nb:{cell}", old, new)


def answer(key, old, new):
    return nb("ex5-037", f"\n{key}: {old}\n", f"\n{key}: {new}\n")


# ------------------------------------------------------------------------------------------------ base + alternatives
case("base", "alternative",
     "reference-quality submission written for this round: forward folds heads into the batch, (B·H, T, d_h), "
     "builds the (H, T, T) table exp(logsigmoid(gamma_logit)·clamp(t-i, 0))·[t ≥ i], tiles it with repeat(B, 1, 1) "
     "and uses torch.bmm for the scores, numerator and row-sum normalizer; step updates S = γS + φ(k)vᵀ, "
     "z = γz + φ(k) into new tensors by broadcasting, then reads Σ_d φ(q)_d S[d, :] / φ(q)·z; Exercise 5 done in "
     "a scratch cell (answers in GB/MB, default numbers), all eight written answers filled", [], [])

case("alt_fwd_chunkwise_recurrent", "alternative",
     "forward is the chunkwise (RetNet-style) form: chunks of 8 tokens, decayed T × T scores only inside a "
     "chunk, plus the carried (S, z) of the previous chunks read with γ^(j+1); between chunks S = γ^n S + "
     "Σ_i γ^(n-1-i) φ(k_i)v_iᵀ and the same for z; linear in T, same numbers up to rounding", [],
     [att(block(FWD_BODY, F_POS, F_MERGE),
          "        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1, 1)  # (H, 1, 1)\n"
          "        q, k, v = (u.view(B, H, T, d_h) for u in (q, k, v))\n"
          "        Cn = 8  # chunk length\n"
          "        S = q.new_zeros(B, H, d_h, d_h)\n"
          "        z = q.new_zeros(B, H, d_h)\n"
          "        outs = []\n"
          "        for c0 in range(0, T, Cn):\n"
          "            n = min(Cn, T - c0)\n"
          "            qc, kc, vc = q[:, :, c0:c0 + n], k[:, :, c0:c0 + n], v[:, :, c0:c0 + n]\n"
          "            j = torch.arange(n, device=x.device, dtype=x.dtype)\n"
          "            lag = j[:, None] - j[None, :]\n"
          "            w = torch.exp(log_g * lag.clamp(min=0)) * (lag >= 0)  # (H, n, n) inside the chunk\n"
          "            sc = (qc @ kc.transpose(-1, -2)) * w\n"
          "            into = torch.exp(log_g * (j + 1).view(1, n, 1))  # γ^(j+1): decay of the carried state\n"
          "            num = sc @ vc + into * (qc @ S)\n"
          "            den = sc.sum(-1, keepdim=True) + into * (qc @ z.unsqueeze(-1))\n"
          "            outs.append(num / den)\n"
          "            tail = torch.exp(log_g * (n - 1 - j).view(1, n, 1))  # γ^(n-1-i): age at the chunk end\n"
          "            g_n = torch.exp(log_g * n)  # (H, 1, 1)\n"
          "            S = g_n * S + (kc * tail).transpose(-1, -2) @ vc\n"
          "            z = g_n.squeeze(-1) * z + (kc * tail).sum(dim=2)\n"
          "        y = torch.cat(outs, dim=2)  # (B, H, T, d_h)\n"
          "        y = y.transpose(1, 2).reshape(B, T, D)\n")])

case("alt_fwd_cumsum_log_gates", "alternative",
     "forward in the gated-linear-attention parameterisation: a per-token log-decay row log γ_h repeated T times "
     "and cumsum'ed to b_t, weights exp(b_t − b_i) with the future set to −inf before the exp (so neither "
     "overflow nor NaN gradients); heads stay (B, H, T, d_h) and the products are torch.einsum; mathematically "
     "the same γ^(t-i)", [],
     [att(FWD_BODY,
          "        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).permute(0, 2, 1, 3)\n"
          "        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).permute(0, 2, 1, 3)\n"
          "        v = self.v_proj(x).view(B, T, H, d_h).permute(0, 2, 1, 3)\n"
          "        # per-token log decays, cumulated: b_t = Σ_{s<=t} log γ_h, so b_t - b_i = (t - i)·log γ_h\n"
          "        step_log = F.logsigmoid(self.gamma_logit).to(x.dtype)[:, None].expand(H, T)\n"
          "        b = step_log.cumsum(dim=-1)  # (H, T)\n"
          "        gap = b[:, :, None] - b[:, None, :]  # (H, T, T)\n"
          "        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)\n"
          "        decay = torch.exp(gap.masked_fill(future, float('-inf')))\n"
          '        scores = torch.einsum("bhtd,bhsd->bhts", q, k) * decay\n'
          '        y = torch.einsum("bhts,bhsd->bhtd", scores, v) / scores.sum(-1, keepdim=True)\n'
          '        y = y.permute(0, 2, 1, 3).reshape(B, T, D)\n'
          "        return self.out_proj(y)\n")])

case("alt_step_augmented_value_state", "alternative",
     "step keeps S and z together: it glues them into one (B, H, d_h, d_h + 1) matrix [S | z], writes "
     "φ(k)[v, 1]ᵀ into it after the decay, reads φ(q)ᵀ[S | z] with one matmul and divides the first d_h entries "
     "by the last; the returned (S, z) are the two slices, in the documented shapes", [],
     [att(S_UPDATE_TO_Y,
          "        Sz = torch.cat([S, z.unsqueeze(-1)], dim=-1)  # (B, H, d_h, d_h + 1)\n"
          "        v1 = torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # (B, H, d_h + 1)\n"
          "        Sz = gamma.view(1, H, 1, 1) * Sz + k.unsqueeze(-1) * v1.unsqueeze(-2)\n"
          "        S, z = Sz[..., :d_h], Sz[..., d_h]\n"
          "        out = (q.unsqueeze(-2) @ Sz).squeeze(-2)  # (B, H, d_h + 1)\n"
          "        y = (out[..., :d_h] / out[..., d_h:]).reshape(B, D)\n")])

# ------------------------------------------------------------------------------------------------ bugs: forward
case("bug_fwd_decay_from_raw_logit", "bug",
     "wrong γ transform in forward: the decay table is exp(gamma_logit·(t-i)), the student reading the hint's "
     "'exp((t-i)·…)' with the logit itself as log γ; for γ < 0.5 (negative logit) old tokens fade at the wrong "
     "rate, for γ > 0.5 old tokens are AMPLIFIED (γ = 1 has logit 50 here: the weights overflow to inf and the "
     "row sums give NaN; in the float32 notebook the initial γ = 0.75-0.98 already overflow at T = 48 and 128, so "
     "Exercise 2's losses are NaN and Exercise 3 trains on NaN logits); step is right",
     [FM, DEC, LS, EX[1], EX[2]],
     [att(F_LOGG, "        log_g = self.gamma_logit.to(x.dtype).view(H, 1, 1)  # log γ_h\n")])

case("bug_fwd_distance_sign_flipped", "bug",
     "causal mask reversed by a sign slip: dist = pos[None, :] - pos[:, None] (i - t), so the 'past' mask keeps "
     "i ≥ t and each output is a decayed average over itself and the FUTURE tokens; step is right",
     [FM, CA],
     [att(F_DIST, "        dist = (pos[None, :] - pos[:, None]).to(x.dtype)  # t - i\n")])

case("bug_fwd_decay_repeat_interleave", "bug",
     "batch tiling slip: the (H, T, T) decay table is expanded to the flat (B·H) batch with repeat_interleave(B, "
     "dim=0) instead of repeat(B, 1, 1), so flat row b·H + h gets head (b·H + h) // B's decays; exact for B = 1 "
     "and for H = 1, otherwise a sequence's heads use decays that depend on its place in the batch; step is right",
     [FM, BI],
     [att(F_REPEAT, "        decay = decay.repeat_interleave(B, dim=0)  # (B·H, T, T)\n")])

case("bug_fwd_strict_past_mask_clamped", "bug",
     "causal mask off by one: the student masks the diagonal too (strictly past, i < t, as if the token should "
     "not see itself), gets 0/0 at t = 0 and patches it by clamping the normalizer at 1e-12; token 0 outputs "
     "out_proj's bias and every later token reads the state before its own write; step is right",
     [FM, UO],
     [att(F_PAST + F_LOGG + F_DECAY, F_LOGG +
          "        decay = torch.exp(log_g * dist.clamp(min=0)) * (dist > 0)  # strictly earlier tokens\n"),
      att(F_Y, "        y = torch.bmm(scores, v) / scores.sum(dim=-1, keepdim=True).clamp(min=1e-12)\n")])

case("bug_fwd_merge_channel_minor", "bug",
     "heads merged in the wrong order: the output is unfolded to (B, H, T, d_h) and merged with permute(0, 2, 3, 1)"
     ".reshape(B, T, D), i.e. channel-major/head-minor (channel c of head h lands at c·H + h) instead of head "
     "blocks; every value is right but sits in another head's channel (exact only for H = 1); step is right",
     [FM, HS],
     [att(F_MERGE, "        y = y.view(B, H, T, d_h).permute(0, 2, 3, 1).reshape(B, T, D)\n")])

case("bug_fwd_decay_as_ratio_of_powers", "bug",
     "numerically fragile parameterisation: the decay table is γ^t / γ^i computed as exp(t·log γ) / exp(i·log γ) "
     "(masked); exact to rounding for short sequences, but for quick decays exp(t·log γ) underflows to 0 after a "
     "few hundred tokens (γ = 0.05: t ≥ 249 in float64), the weights become 0/0 and the output NaN; step is right",
     [LS],  # judgement: forward_matches too if the hidden reference runs quick decays over > 240 tokens
     [att(F_DECAY, "        decay = torch.exp(log_g * pos.to(x.dtype)[:, None]) / torch.exp(log_g * pos.to(x.dtype)[None, :])"
                   " * past  # γ^t / γ^i\n")])

# ------------------------------------------------------------------------------------------------ bugs: step
case("bug_step_decay_after_write", "bug",
     "decay applied after the update instead of before: S = γ(S + φ(k)vᵀ), z = γ(z + φ(k)); by induction the "
     "carried state is exactly γ_h times the right one, so γ cancels in φ(q)ᵀS / φ(q)ᵀz and every OUTPUT is right "
     "(all public tests pass), but the returned (S, z) is wrong by the factor γ_h (exact only at γ = 1); "
     "forward is right",
     [SM],
     [att(S_S + S_Z,
          "        S = gamma.view(1, H, 1, 1) * (S + k.unsqueeze(-1) * v.unsqueeze(-2))\n"
          "        z = gamma.view(1, H, 1) * (z + k)\n")])

case("bug_step_decay_cast_to_float32", "bug",
     "dtype slip: step takes gamma = self.decay.float() ('to be safe on mps'), so in a float64 model γ is rounded "
     "to float32 (relative error up to 6e-8) before it multiplies the float64 state; invisible in the float32 "
     "notebook, but step drifts from forward by ~1e-8 after a few tokens and more over hundreds, beyond float64 "
     "tolerances (exact at γ = 1, where sigmoid(50) rounds to 1); forward is right",
     [SM],
     [att(S_GAMMA, "        gamma = self.decay.float()\n")])

case("bug_step_key_without_feature_map", "bug",
     "feature map missing in step only: k = self.k_proj(x_t).view(B, H, d_h) without φ, so S and z accumulate raw "
     "(signed) keys; φ(q)·z can be near 0 or negative and the outputs no longer match forward (a constant value "
     "sequence still comes back unchanged, since S = z vᵀ); forward is right",
     [SM],
     [att(S_K, "        k = self.k_proj(x_t).view(B, H, d_h)\n")])

# ------------------------------------------------------------------------------------------------ bugs: notebook
case("bug_nb_linear_state_without_z", "bug",
     "Exercise 5: the linear-attention state is priced as S only, H·d_h²·BYTES = 1,048,576 B (answered 1.049 MB), "
     "forgetting z (right: 1,056,768 B, 0.78 % more, outside the 0.5 % tolerance); the hybrid stack total moves "
     "by 24,576 B only and stays right at 16.387 GB; code is base's",
     ["bill_linear"],
     [nb("ex5-036", '    "linear_state_one_layer": H * (d_h * d_h + d_h) * BYTES,  # S (d_h x d_h) and z (d_h) per head\n',
         '    "linear_state_one_layer": H * d_h * d_h * BYTES,  # S: one d_h x d_h matrix per head\n'),
      nb("ex5-036", "assert bill[\"hybrid_lllf_stack_4_layers\"] == memory_bill",
         "print(bill[\"hybrid_lllf_stack_4_layers\"], memory_bill"),
      nb("ex5-036", "                                                         bytes_per_value=BYTES).total_bytes\n"
                    'print("memory_bill agrees on both stacks")',
         "                                                         bytes_per_value=BYTES).total_bytes)"),
      answer("linear_state_one_layer", "1.0568 MB", "1.049 MB")])

case("bug_nb_gqa_width_d_over_8", "bug",
     "Exercise 5: GQA with 8 KV heads priced as K and V of width D/8 per token (the student divides the width by "
     "the number of KV heads, as if 8 were the group size): 2·T·(D/8)·BYTES = 2.048 GB instead of "
     "2·T·8·d_h·BYTES = 4.096 GB (wrong for every H ≠ 64); code is base's",
     ["bill_gqa8"],
     [nb("ex5-036", '    "gqa8_cache_one_layer": T * 2 * (8 * d_h) * BYTES,  # 8 KV heads of width d_h\n',
         '    "gqa8_cache_one_layer": T * 2 * (D // 8) * BYTES,  # 8 KV heads share the width\n'),
      answer("gqa8_cache_one_layer", "4.096 GB", "2.048 GB")])

# ------------------------------------------------------------------------------------------------ stub
case("stub_identity_as_handed_out", "stub",
     "the template as handed out (unfilled notebook) with the two NotImplementedError lines replaced by the "
     "least that runs: forward returns x itself (B, T, D), step returns x_t and the (S, z) it was given (zeros "
     "from init_state when None); nothing computed, nothing written in the notebook",
     ALL,
     [("template", NB, None),
      att(FWD_BODY, "        return x  # TODO\n"),
      att(STEP_BODY, "        return x_t, (S, z)  # TODO\n")])


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
    for d in HERE.iterdir():  # stale case folders from an earlier list
        if d.is_dir() and (d / ATT).exists() and d.name not in names:
            shutil.rmtree(d)
    build_base()
    for c in C:
        build(c)
    for c in C:
        if c["kind"] == "alternative":
            assert (HERE / c["name"] / NB).read_bytes() == (BASE / NB).read_bytes(), c["name"]
    entries = [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=c["should_lose"]) for c in C]
    with open(HERE / "corpus.yaml", "w") as f:
        f.write("# linear-attention-hybrid, blind round 20: written by make_cases.py (one entry per case folder)\n")
        yaml.safe_dump(entries, f, sort_keys=False, allow_unicode=True, width=110)
    counts = {k: sum(c["kind"] == k for c in C) for k in ("alternative", "bug", "stub")}
    print(f"{len(C)} entries (base included):", counts)


if __name__ == "__main__":
    main()
