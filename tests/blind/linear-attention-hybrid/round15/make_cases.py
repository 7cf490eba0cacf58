"""Build the round-15 blind corpus: one folder per case beside base/, made from base/ by edits.

    python make_cases.py            # (re)builds every case folder and corpus.yaml

Edits, applied in order to a fresh copy of base/:
  ("att:<scope>", old, new)   exact replacement in attention.py. <scope> is "LinearAttention.forward",
                              "LinearAttention.step" or "LinearAttention.__init__" (the method's source, found
                              with ast, from its `def` to its last line) or "module" (the whole file): `old` must
                              occur exactly once in that scope AND exactly once in the module, and the result
                              must differ;
  ("nb:<cell id>", old, new)  the same inside one notebook cell's joined source (the cell found by its id,
                              exactly once);
  ("template", <path>, None)  the file is replaced by the student template's copy, byte for byte.
The notebook is written back with nbformat (nbformat.write, as the template is laid out). Any anchor that is
missing, ambiguous or changes nothing stops the build with an AssertionError. Rerunning rebuilds identically.
"""
from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import nbformat
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fill_base_notebook import WRITTEN as BASE_WRITTEN  # noqa: E402  (base's answers: the anchors)

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
TEMPLATE = HERE.parents[3] / "student_template" / "linear-attention-hybrid"
ATT = "g2c/linear_attention/attention.py"
NB = "linear_attention_hybrid.ipynb"
FWD, STEP, INIT, MOD = ("att:LinearAttention.forward", "att:LinearAttention.step", "att:LinearAttention.__init__",
                        "att:module")

CODE_ITEMS = ["forward_matches", "step_matches", "normalizer", "update_order", "decay_both_forms",
              "decay_normalizer", "head_split", "batch_isolation", "causality", "long_sequences",
              "lm_decoding", "step_cost"]
EXERCISES = ["ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"]
BILL = ["bill_mha", "bill_gqa8", "bill_window", "bill_linear", "bill_all_mha_stack", "bill_hybrid_stack",
        "bill_grows"]
WRITTEN = ["written_ex1", "written_ex2", "written_ex3", "written_ex4", "written_concepts"]
ALL_ITEMS = CODE_ITEMS + EXERCISES + BILL + WRITTEN
FM, SM, NORM, UO, DEC, DZ, HS, BI, CA, LS, LM, COST = CODE_ITEMS

# ------------------------------------------------------------------------------------------------ base anchors
# forward
F_Q = "        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"
F_K = "        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"
F_V = "        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)\n"
F_LAG = "        lag = (pos.view(T, 1) - pos.view(1, T)).to(x.dtype)  # t - i\n"
F_VIS = "        visible = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()  # i ≤ t\n"
F_LOGG = "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1, 1)  # log γ_h ≤ 0\n"
F_W = "        weights = torch.exp(log_gamma * lag.clamp(min=0))  # exponent ≤ 0: never overflows\n"
F_MASK = "        weights = weights.masked_fill(~visible, 0.0)\n"
F_SCORES = '        scores = torch.einsum("bhtd,bhsd->bhts", q, k) * weights\n'
F_NUMER = "        numer = scores @ v  # (B, H, T, d_h)\n"
F_DENOM = "        denom = scores.sum(dim=-1, keepdim=True)  # (B, H, T, 1)\n"
F_Y = "        y = numer / denom\n"
F_MERGE = "        y = y.transpose(1, 2).reshape(B, T, D)\n"
F_BODY = '''        # 1. projections, φ on q and k only; heads split (B, T, D) -> (B, T, H, d_h) -> (B, H, T, d_h)
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        # 2. decay weights (H, T, T): γ_h^(t-i) where i ≤ t, 0 where i > t
        pos = torch.arange(T, device=x.device)
        lag = (pos.view(T, 1) - pos.view(1, T)).to(x.dtype)  # t - i
        visible = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()  # i ≤ t
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1, 1)  # log γ_h ≤ 0
        weights = torch.exp(log_gamma * lag.clamp(min=0))  # exponent ≤ 0: never overflows
        weights = weights.masked_fill(~visible, 0.0)
        # 3. decayed scores (B, H, T, T)
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) * weights
        # 4. numerator over the normalizer φ(q_t)ᵀ z_t, which is the row sum of the decayed scores
        numer = scores @ v  # (B, H, T, d_h)
        denom = scores.sum(dim=-1, keepdim=True)  # (B, H, T, 1)
        y = numer / denom
        # 5. merge heads: (B, H, T, d_h) -> (B, T, H, d_h) -> (B, T, D)
        y = y.transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''
# step
S_K = "        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)\n"
S_V = "        v = self.v_proj(x_t).view(B, H, d_h)\n"
S_GAMMA = "        gamma = self.decay.to(x_t.dtype)\n"
S_S = '        S = gamma.view(1, H, 1, 1) * S + torch.einsum("bhi,bhj->bhij", k, v)  # γS + φ(k)vᵀ\n'
S_Z = "        z = gamma.view(1, H, 1) * z + k  # γz + φ(k)\n"
S_NUMER = '        numer = torch.einsum("bhi,bhij->bhj", q, S)  # (B, H, d_h)\n'
S_DENOM = '        denom = torch.einsum("bhi,bhi->bh", q, z).unsqueeze(-1)  # (B, H, 1)\n'
S_Y = "        y = (numer / denom).reshape(B, D)\n"
S_RET = "        return self.out_proj(y), (S, z)\n"
S_BODY = '''        # 1. this token's q, k, v split to (B, H, d_h); φ on q and k
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        # 2. γ per head, broadcast over S (B, H, d_h, d_h) and z (B, H, d_h)
        gamma = self.decay.to(x_t.dtype)
        # 3. update first, out of place (the caller's state is left as it was)
        S = gamma.view(1, H, 1, 1) * S + torch.einsum("bhi,bhj->bhij", k, v)  # γS + φ(k)vᵀ
        z = gamma.view(1, H, 1) * z + k  # γz + φ(k)
        # 4. then read: φ(q)ᵀS / φ(q)ᵀz
        numer = torch.einsum("bhi,bhij->bhj", q, S)  # (B, H, d_h)
        denom = torch.einsum("bhi,bhi->bh", q, z).unsqueeze(-1)  # (B, H, 1)
        y = (numer / denom).reshape(B, D)
        return self.out_proj(y), (S, z)
'''
I_GAMMA = "        self.gamma_logit = nn.Parameter(torch.log(gamma) - torch.log1p(-gamma))  # (H,)\n"

# notebook cells and lines
EX1, EX2, EX3, EX4 = "nb:ex1-012", "nb:ex2-018", "nb:ex3-024", "nb:ex4-030"
SCRATCH, ANSWERS = "nb:ex5-036", "nb:ex5-037"
N_MHA = "mha_bytes = 2 * T * D * BYTES                      # K and V: one row of D values each, per token\n"
N_GQA = "gqa8_bytes = 2 * T * 8 * d_h * BYTES               # K and V for 8 KV heads of width d_h, per token\n"
N_WIN = "window_bytes = 2 * min(T, 4096) * D * BYTES        # MHA, but only the last 4096 tokens are kept\n"
N_LIN = "linear_bytes = (H * d_h * d_h + H * d_h) * BYTES   # S: H matrices d_h x d_h, z: H vectors d_h (any T)\n"
N_HYB = "hybrid_bytes = 3 * linear_bytes + mha_bytes        # [L, L, L, F] with MHA in the full layer\n"
A_MHA = 'assert mha_bytes == memory_bill(["full"], T, D, H, bytes_per_value=BYTES).total_bytes\n'
A_LIN = 'assert linear_bytes == memory_bill(["linear"], T, D, H, bytes_per_value=BYTES).total_bytes\n'
A_ALL = 'assert all_mha_bytes == memory_bill(["full"] * 4, T, D, H, bytes_per_value=BYTES).total_bytes\n'
A_HYB = ('assert hybrid_bytes == memory_bill(["linear"] * 3 + ["full"], T, D, H, '
         'bytes_per_value=BYTES).total_bytes\n')
BASE_ANSWERS = dict(mha_cache_one_layer="16384000000 B", gqa8_cache_one_layer="4096000000 B",
                    window4096_cache_one_layer="67108864 B", linear_state_one_layer="1056768 B",
                    all_mha_stack_4_layers="65536000000 B", hybrid_lllf_stack_4_layers="16387170304 B",
                    grows_with_t="b")


def answers(**new):
    """Edits of the answers block: one anchored line per key."""
    return [(ANSWERS, f"\n{key}: {BASE_ANSWERS[key]}\n", f"\n{key}: {value}\n") for key, value in new.items()]


def written(cell_id, text):
    """Replace a written answer: the anchor is base's whole answer text (fill_base_notebook.WRITTEN)."""
    return [(f"nb:{cell_id}", BASE_WRITTEN[cell_id], text)]


C = []


def case(name, kind, about, should_lose, edits):
    C.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=edits))


# ------------------------------------------------------------------------------------------------ alternatives
case("base", "alternative",
     "reference-quality submission: forward builds γ^(t-i) as exp(logsigmoid(gamma_logit)·clamped lag), masks with "
     "masked_fill on a tril boolean, einsum scores, row-sum normalizer; step updates (S, z) out of place with an "
     "einsum outer product and reads with einsum; Exercise 5 worked with the default numbers and cross-checked "
     "against memory_bill; every written answer filled from a grading-mode run", [], [])

case("alt_fwd_pow_decay_where", "alternative",
     "forward takes γ^(t-i) as self.decay ** lag (torch.pow on the clamped lag) and zeroes the future with "
     "torch.where instead of exp(logsigmoid·lag) and masked_fill: the same weights (underflow to 0 is harmless, "
     "no inf, no NaN gradient)", [],
     [(FWD, F_LOGG + F_W + F_MASK,
       "        gamma = self.decay.to(x.dtype).view(H, 1, 1)  # γ_h\n"
       "        zero = torch.zeros((), dtype=x.dtype, device=x.device)\n"
       "        weights = torch.where(visible, gamma ** lag.clamp(min=0), zero)  # γ_h^(t-i), 0 in the future\n")])

ALT_FWD_CHUNKWISE = '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype).view(1, H, 1, 1)  # log γ_h
        # chunkwise form: decayed T x T scores inside each chunk, the recurrent (S, z) from chunk to chunk
        C = 16
        S = x.new_zeros(B, H, d_h, d_h)
        z = x.new_zeros(B, H, d_h)
        outs = []
        for start in range(0, T, C):
            qc, kc, vc = q[:, :, start:start + C], k[:, :, start:start + C], v[:, :, start:start + C]
            n = qc.shape[2]
            j = torch.arange(n, device=x.device, dtype=x.dtype)
            lag = j.view(n, 1) - j.view(1, n)  # t - i inside the chunk
            inside = torch.exp(log_gamma * lag.clamp(min=0)) * (lag >= 0).to(x.dtype)  # (1, H, n, n)
            scores = (qc @ kc.transpose(-2, -1)) * inside
            from_past = torch.exp(log_gamma * (j + 1).view(n, 1))  # γ^(j+1): the carried state seen from row j
            numer = scores @ vc + from_past * (qc @ S)
            denom = scores.sum(dim=-1, keepdim=True) + from_past * (qc @ z.unsqueeze(-1))
            outs.append(numer / denom)
            to_end = torch.exp(log_gamma * (n - 1 - j).view(n, 1))  # γ^(n-1-i): key i seen from the chunk's end
            S = torch.exp(log_gamma * n) * S + (kc * to_end).transpose(-2, -1) @ vc
            z = torch.exp(log_gamma.view(1, H, 1) * n) * z + (kc * to_end).sum(dim=2)
        y = torch.cat(outs, dim=2).transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''
case("alt_fwd_chunkwise", "alternative",
     "forward is the chunkwise form (chunks of 16 tokens): decayed scores inside each chunk plus γ^(j+1)·φ(q)ᵀ(S, z) "
     "from the state carried across chunks, the state advanced by γ^n and the chunk's keys weighted by γ^(n-1-i): "
     "same outputs and gradients as the T × T form, never builds the full matrix", [],
     [(FWD, F_BODY, ALT_FWD_CHUNKWISE)])

ALT_FWD_ROW_LOOP = '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype).view(1, H, 1)
        rows = []
        for t in range(T):  # one query position at a time, over its visible prefix 0..t
            lag = torch.arange(t, -1, -1, device=x.device).to(x.dtype)  # t - i for i = 0..t
            w = torch.exp(log_gamma * lag)  # (1, H, t + 1)
            s = torch.einsum("bhd,bhid->bhi", q[:, :, t], k[:, :, : t + 1]) * w  # (B, H, t + 1)
            rows.append(torch.einsum("bhi,bhid->bhd", s, v[:, :, : t + 1]) / s.sum(dim=-1, keepdim=True))
        y = torch.stack(rows, dim=2)  # (B, H, T, d_h)
        y = y.transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''
case("alt_fwd_query_row_loop", "alternative",
     "forward loops over query positions t, each time weighting the visible prefix 0..t by exp(log γ·(t-i)) and "
     "normalizing by that row's sum (no mask needed, nothing from the future is ever touched); same values, "
     "slower", [],
     [(FWD, F_BODY, ALT_FWD_ROW_LOOP)])

ALT_FWD_BMM = '''        # heads folded into the batch: (B, T, D) -> (B, H, T, d_h) -> (B·H, T, d_h)
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).permute(0, 2, 1, 3).reshape(B * H, T, d_h)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).permute(0, 2, 1, 3).reshape(B * H, T, d_h)
        v = self.v_proj(x).view(B, T, H, d_h).permute(0, 2, 1, 3).reshape(B * H, T, d_h)
        pos = torch.arange(T, device=x.device)
        lag = (pos.view(T, 1) - pos.view(1, T)).to(x.dtype)
        causal = (lag >= 0).to(x.dtype)
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)
        weights = torch.exp(log_gamma.view(H, 1, 1) * lag.clamp(min=0)) * causal  # (H, T, T)
        weights = weights.repeat(B, 1, 1)  # (B·H, T, T): row b·H + h uses head h
        scores = torch.bmm(q, k.transpose(1, 2)) * weights
        y = torch.bmm(scores, v) / scores.sum(dim=-1, keepdim=True)
        y = y.view(B, H, T, d_h).permute(0, 2, 1, 3).reshape(B, T, D)
        return self.out_proj(y)
'''
case("alt_fwd_bmm_flat_heads", "alternative",
     "forward folds the heads into the batch (B·H, T, d_h), repeats the (H, T, T) decay weights B times to match, "
     "uses torch.bmm for both products and masks by multiplying with a float causal matrix", [],
     [(FWD, F_BODY, ALT_FWD_BMM)])

case("alt_fwd_normalize_rows_first", "alternative",
     "forward divides the decayed scores by their row sums first (a row-stochastic attention matrix) and then "
     "multiplies by v: (A / ΣA) @ v instead of (A @ v) / ΣA, the same numbers", [],
     [(FWD, F_NUMER + F_DENOM + F_Y,
       "        attn = scores / scores.sum(dim=-1, keepdim=True)  # each row sums to 1\n"
       "        y = attn @ v  # (B, H, T, d_h)\n")])

case("alt_fwd_ones_column_normalizer", "alternative",
     "forward appends a column of ones to v so one product gives both the numerator and the normalizer "
     "(the last column is Σ_i γ^(t-i) φ(q_t)·φ(k_i)), then splits and divides", [],
     [(FWD, F_NUMER + F_DENOM + F_Y,
       "        v1 = torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # (B, H, T, d_h + 1)\n"
       "        both = scores @ v1  # numerator in the first d_h columns, normalizer in the last\n"
       "        y = both[..., :-1] / both[..., -1:]\n")])

case("alt_fwd_scaled_scores", "alternative",
     "forward keeps the softmax habit and scales the scores by 1/√d_h: a constant factor in every row, so it "
     "cancels between the numerator and the normalizer and the outputs and gradients are unchanged", [],
     [(FWD, F_SCORES,
       '        scores = torch.einsum("bhtd,bhsd->bhts", q, k) / d_h ** 0.5 * weights  # 1/√d_h cancels below\n')])

case("alt_fwd_decay_built_in_float64", "alternative",
     "dtype-careful forward: the decay weights are always built in float64 (gamma_logit and the lag cast up) and "
     "cast to x's dtype only after masking; identical in float64, at least as accurate in float32", [],
     [(FWD, F_LOGG + F_W + F_MASK,
       "        log_gamma = F.logsigmoid(self.gamma_logit.double()).view(H, 1, 1)  # float64 whatever x is\n"
       "        weights = torch.exp(log_gamma * lag.double().clamp(min=0))\n"
       "        weights = weights.masked_fill(~visible, 0.0).to(x.dtype)\n")])

case("alt_step_transposed_state_inside", "alternative",
     "step works on Sᵀ internally (Sᵀ = γSᵀ + vφ(k)ᵀ, read as Sᵀφ(q)) and transposes back before returning, so "
     "the returned S has the documented (B, H, d_h, d_h) layout S[i, j] = Σ γ^(t-i) φ(k)_i v_j", [],
     [(STEP, S_S,
       '        St = gamma.view(1, H, 1, 1) * S.transpose(-2, -1) + torch.einsum("bhj,bhi->bhji", v, k)  # Sᵀ\n'),
      (STEP, S_NUMER,
       "        numer = (St @ q.unsqueeze(-1)).squeeze(-1)  # Sᵀφ(q) = φ(q)ᵀS\n"
       "        S = St.transpose(-2, -1)  # back to the documented layout\n")])

case("alt_step_addcmul_matmul", "alternative",
     "step writes the rank-one update with torch.addcmul(γS, φ(k)[..., None], v[..., None, :]) and reads with a "
     "batched matmul (φ(q)[..., None, :] @ S)", [],
     [(STEP, S_S,
       "        S = torch.addcmul(gamma.view(1, H, 1, 1) * S, k.unsqueeze(-1), v.unsqueeze(-2))  # γS + φ(k)vᵀ\n"),
      (STEP, S_NUMER, "        numer = (q.unsqueeze(-2) @ S).squeeze(-2)  # (B, H, d_h)\n")])

case("alt_step_augmented_read", "alternative",
     "step reads numerator and normalizer in one product: z is appended to S as an extra column, "
     "φ(q)ᵀ[S | z] is split into φ(q)ᵀS and φ(q)ᵀz", [],
     [(STEP, S_NUMER + S_DENOM + S_Y,
       "        Sz = torch.cat([S, z.unsqueeze(-1)], dim=-1)  # (B, H, d_h, d_h + 1)\n"
       '        read = torch.einsum("bhi,bhij->bhj", q, Sz)  # φ(q)ᵀS and φ(q)ᵀz together\n'
       "        y = (read[..., :-1] / read[..., -1:]).reshape(B, D)\n")])

case("alt_step_decay_via_softplus", "alternative",
     "step computes γ as exp(-softplus(-gamma_logit)), which is sigmoid(gamma_logit) written in log space, instead "
     "of self.decay", [],
     [(STEP, S_GAMMA,
       "        gamma = torch.exp(-F.softplus(-self.gamma_logit)).to(x_t.dtype)  # = sigmoid(gamma_logit)\n")])

# ------------------------------------------------------------------------------------------------ code bugs
case("bug_fwd_decay_sign_flipped", "bug",
     "forward exponentiates -log γ·(t-i): weights γ^-(t-i) that grow with distance instead of decaying (exact "
     "only at γ = 1; overflows to inf/NaN for long sequences with a quick decay); step is right",
     [FM, DEC],
     [(FWD, F_W, "        weights = torch.exp(-log_gamma * lag.clamp(min=0))  # γ^(t-i)\n")])
case("bug_fwd_mask_excludes_diagonal", "bug",
     "forward keeps only i < t (tril(diagonal=-1)): token t does not see itself, token 0 sees nothing and divides "
     "0 by 0 (NaN), every output is shifted by one token",
     [FM, UO],
     [(FWD, F_VIS,
       "        visible = torch.ones(T, T, dtype=torch.bool, device=x.device).tril(diagonal=-1)  # i < t\n")])
case("bug_fwd_normalizer_undecayed", "bug",
     "forward decays the numerator but divides by the undecayed masked scores, φ(q_t)·Σ_{i≤t} φ(k_i): z does not "
     "decay with S in the parallel form (exact only at γ = 1); step is right",
     [FM, DZ],
     [(FWD, F_DENOM,
       '        denom = (torch.einsum("bhtd,bhsd->bhts", q, k) * visible).sum(dim=-1, keepdim=True)  # φ(q)ᵀz\n')])
case("bug_fwd_normalizer_sum_of_z", "bug",
     "forward divides by the sum of the decayed keys' entries, Σ_i γ^(t-i) Σ_c φ(k_i)_c = 1ᵀz_t, instead of "
     "φ(q_t)ᵀz_t (the query left out of the normalizer)",
     [FM, NORM],
     [(FWD, F_DENOM,
       "        denom = (weights * k.sum(dim=-1).unsqueeze(-2)).sum(dim=-1, keepdim=True)  # z_t summed\n")])
case("bug_fwd_merge_heads_strided", "bug",
     "forward merges the heads with permute(0, 2, 3, 1) to (B, T, d_h, H) before flattening: the output channels "
     "of different heads are interleaved (exact only with one head)",
     [FM, HS],
     [(FWD, F_MERGE, "        y = y.permute(0, 2, 3, 1).reshape(B, T, D)  # (B, T, d_h, H) -> (B, T, D)\n")])
case("bug_fwd_abs_lag_no_causal_mask", "bug",
     "forward takes |t - i| 'so the exponent can never be positive', then masks with lag >= 0, which is now "
     "always true: every token attends to the whole sequence with symmetric decay γ^|t-i| (future leaks)",
     [FM, CA],
     [(FWD, F_LAG, "        lag = (pos.view(T, 1) - pos.view(1, T)).abs().to(x.dtype)  # |t - i|, never negative\n"),
      (FWD, F_VIS, "        visible = lag >= 0  # i ≤ t\n")])
case("bug_fwd_lag_capped_at_64", "bug",
     "forward clamps the lag to [0, 64] 'to keep exp finite': every token more than 64 back gets weight γ^64 "
     "instead of γ^(t-i); exact on short sequences (and at γ = 1), wrong over hundreds of tokens",
     [LS],
     [(FWD, F_W, "        weights = torch.exp(log_gamma * lag.clamp(0, 64))  # lag capped so exp stays finite\n")])
case("bug_fwd_decay_detached", "bug",
     "forward builds the decay from gamma_logit.detach() (to 'avoid NaN gradients'): outputs exact, but no "
     "gradient reaches gamma_logit, so the decays can never be learned",
     [FM],
     [(FWD, F_LOGG,
       "        log_gamma = F.logsigmoid(self.gamma_logit.detach()).to(x.dtype).view(H, 1, 1)  # log γ_h ≤ 0\n")])
case("bug_both_feature_map_on_v", "bug",
     "feature_map applied to v as well as q and k, in both forward and step: the two forms agree with each other "
     "but not with linear attention (values are φ(v) = elu(v)+1, never negative)",
     [FM, SM],
     [(FWD, F_V, "        v = feature_map(self.v_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"),
      (STEP, S_V, "        v = feature_map(self.v_proj(x_t)).view(B, H, d_h)\n")])
case("bug_init_gamma_logit_buffer", "bug",
     "__init__ registers gamma_logit as a buffer instead of an nn.Parameter ('the decays are a design choice'): "
     "both forms compute the right outputs, but the decay is not learned (no gradient, not in parameters(); "
     "the construction and parameter-count public tests fail)",
     [FM],
     [(INIT, I_GAMMA,
       '        self.register_buffer("gamma_logit", torch.log(gamma) - torch.log1p(-gamma))  # (H,), fixed\n')])
case("bug_step_outer_product_sums_batch", "bug",
     "step's outer-product einsum is written 'bhi,bhj->hij', dropping b: each sequence's S receives the sum of "
     "φ(k)vᵀ over the whole batch (exact only at B = 1)",
     [SM, BI],
     [(STEP, S_S, '        S = gamma.view(1, H, 1, 1) * S + torch.einsum("bhi,bhj->hij", k, v)  # γS + φ(k)vᵀ\n')])
case("bug_step_uses_log_gamma", "bug",
     "step multiplies the state by F.logsigmoid(gamma_logit) (copied from forward's hint) instead of γ: a "
     "negative 'decay' log γ that flips the sign of the memory each token (and is ~0 at γ = 1, so the state "
     "forgets everything)",
     [SM, DEC],
     [(STEP, S_GAMMA, "        gamma = F.logsigmoid(self.gamma_logit).to(x_t.dtype)\n")])
case("bug_step_outer_product_transposed", "bug",
     "step writes v φ(k)ᵀ into S (einsum arguments swapped) and reads with φ(q)ᵀS, so it returns (φ(q)·v) φ(k) / "
     "φ(q)·z: wrong outputs and a transposed state",
     [SM],
     [(STEP, S_S, '        S = gamma.view(1, H, 1, 1) * S + torch.einsum("bhi,bhj->bhij", v, k)  # γS + φ(k)vᵀ\n')])
case("bug_step_updates_state_in_place", "bug",
     "step updates S and z in place (mul_ / add_) on the tensors it was given and returns them: outputs and final "
     "state are right, but the caller's state is overwritten, so a state cannot be reused or branched",
     [LM],
     [(STEP, S_S + S_Z,
       '        S.mul_(gamma.view(1, H, 1, 1)).add_(torch.einsum("bhi,bhj->bhij", k, v))  # in place: no copies\n'
       "        z.mul_(gamma.view(1, H, 1)).add_(k)\n")])
case("bug_step_returns_old_z", "bug",
     "step returns (S, state[1]): the new S but the z it was given, so the next token's normalizer starts from "
     "the empty z (only φ(k_t) in it) and cached decoding divides by the wrong total",
     [SM, LM],
     [(STEP, S_RET, "        return self.out_proj(y), (S, state[1])\n")])
case("bug_step_no_normalizer", "bug",
     "step returns φ(q)ᵀS without dividing by φ(q)ᵀz (the denominator is computed and never used): outputs "
     "grow with the number of tokens",
     [SM, NORM],
     [(STEP, S_Y, "        y = numer.reshape(B, D)\n")])
case("bug_step_key_split_strided", "bug",
     "step splits the key as view(B, d_h, H).transpose(1, 2): head h's key takes every H-th channel while q and v "
     "use contiguous slices, so the heads' keys mix channels (exact only with one head)",
     [SM, HS],
     [(STEP, S_K, "        k = feature_map(self.k_proj(x_t)).view(B, d_h, H).transpose(1, 2)\n")])

# ------------------------------------------------------------------------------------------------ notebook: exercises
case("bug_nb_ex1_results_outside_loop", "bug",
     "Exercise 1: results.append is dedented out of the length loop, so only the last length (4096) is recorded: "
     "the plot has one point per curve and the locked check (one row per length) fails",
     ["ex1_benchmark"],
     [(EX1, "        results.append((L, t_full, t_linear, kv_bytes))\n", ""),
      (EX1, "state_bytes = memory_bill(",
       "    results.append((L, t_full, t_linear, kv_bytes))\nstate_bytes = memory_bill(")])
case("bug_nb_ex2_final_loss_only", "bug",
     "Exercise 2: keeps only the final training loss of each model (train_lm(...)[-1]) instead of the curve: "
     "the plotting/samples cell raises on smooth(float) and the locked check (one loss per step) fails",
     ["ex2_comparison"],
     [(EX2, "        curves[name] = train_lm(model, train_ids, steps, batch_size, seq_len, seed=seed)\n",
       "        curves[name] = train_lm(model, train_ids, steps, batch_size, seq_len, seed=seed)[-1]  # final loss\n")])
case("bug_nb_ex3_accuracy_of_full_model", "bug",
     "Exercise 3: recall_accuracy_by_distance is called on recall_models['full'] for every pattern (copy-paste), "
     "so the three curves are all the full model's; the cell and the locked check run",
     ["ex3_recall"],
     [(EX3, "    recall[name] = recall_accuracy_by_distance(model, task, bins,",
       '    recall[name] = recall_accuracy_by_distance(recall_models["full"], task, bins,')])
case("bug_nb_ex4_decays_set_as_logits", "bug",
     "Exercise 4: the fixed decays are copied straight into gamma_logit (copy_(g)), so the heads run at "
     "γ = sigmoid(0.5 … 1.0) ≈ 0.62 … 0.73, not 0.5, 0.9, 0.99, 1.0 as the legend says; the locked check "
     "(which reuses the same layer) passes",
     ["ex4_decay"],
     [(EX4, "    layer.gamma_logit.copy_(torch.log(g) - torch.log1p(-g))\n", "    layer.gamma_logit.copy_(g)\n")])

# ------------------------------------------------------------------------------------------------ notebook: Exercise 5
case("bug_nb_mha_K_only", "bug",
     "Exercise 5: the MHA cache priced with one row of D values per token (T·D·BYTES, V forgotten): 8.19 GB "
     "instead of 16.4 GB, and the all-MHA and hybrid totals built on it are wrong too; the three failing asserts "
     "deleted",
     ["bill_mha", "bill_all_mha_stack", "bill_hybrid_stack"],
     [(SCRATCH, N_MHA, "mha_bytes = T * D * BYTES                          # one row of D values per token\n"),
      (SCRATCH, A_MHA, ""), (SCRATCH, A_ALL, ""), (SCRATCH, A_HYB, "")]
     + answers(mha_cache_one_layer="8192000000 B", all_mha_stack_4_layers="32768000000 B",
               hybrid_lllf_stack_4_layers="8195170304 B"))
case("bug_nb_gqa_kv_heads_full_width", "bug",
     "Exercise 5: GQA priced as 8 KV heads of the full width D each (2·T·8·D·BYTES = 131 GB, more than MHA) "
     "instead of 8 heads of d_h",
     ["bill_gqa8"],
     [(SCRATCH, N_GQA, "gqa8_bytes = 2 * T * 8 * D * BYTES                 # K and V for 8 KV heads, per token\n")]
     + answers(gqa8_cache_one_layer="131072000000 B"))
case("bug_nb_window_one_head", "bug",
     "Exercise 5: the sliding-window cache priced for one head of width d_h (2·4096·d_h·BYTES = 2.10 MB) instead "
     "of all H heads (67.1 MB)",
     ["bill_window"],
     [(SCRATCH, N_WIN, "window_bytes = 2 * min(T, 4096) * d_h * BYTES      # the last 4096 tokens are kept\n")]
     + answers(window4096_cache_one_layer="2097152 B"))
case("bug_nb_linear_state_D_squared", "bug",
     "Exercise 5: the linear state priced as one D × D matrix plus a D vector ((D² + D)·BYTES = 33.6 MB) instead of "
     "H matrices d_h × d_h; the hybrid total it feeds is 0.6% high, still inside 1%; the two failing asserts "
     "deleted",
     ["bill_linear"],
     [(SCRATCH, N_LIN, "linear_bytes = (D * D + D) * BYTES                 # S: D x D, z: D (any T)\n"),
      (SCRATCH, A_LIN, ""), (SCRATCH, A_HYB, "")]
     + answers(linear_state_one_layer="33562624 B", hybrid_lllf_stack_4_layers="16484687872 B"))
case("bug_nb_hybrid_counts_swapped", "bug",
     "Exercise 5: the [L, L, L, F] stack priced as three MHA layers and one linear layer (3·MHA + linear = "
     "49.2 GB) instead of three linear and one MHA; the failing assert deleted",
     ["bill_hybrid_stack"],
     [(SCRATCH, N_HYB, "hybrid_bytes = 3 * mha_bytes + linear_bytes        # [L, L, L, F]\n"), (SCRATCH, A_HYB, "")]
     + answers(hybrid_lllf_stack_4_layers="49153056768 B"))
case("bug_nb_all_mha_answer_one_layer", "bug",
     "Exercise 5: the all-MHA stack answer copied from the one-layer line (16384000000 B) instead of four layers; "
     "the scratch cell is right",
     ["bill_all_mha_stack"],
     answers(all_mha_stack_4_layers="16384000000 B"))
case("bug_nb_grows_none", "bug",
     "Exercise 5: grows_with_t answered (d), none of them",
     ["bill_grows"],
     answers(grows_with_t="d"))

# ------------------------------------------------------------------------------------------------ written answers
case("bug_written_ex1_full_step_constant", "bug",
     "the Exercise 1 answer claims the cached full step costs the same at every L (one matmul reads the whole "
     "cache) and that the linear step is the one that grows, which contradicts the d_h² vs L·d_h work and the "
     "benchmark; it also expects the same crossover on a GPU",
     ["written_ex1"],
     written("ex1-crossover-015",
             "In my run the crossover was at L = 1024. The cached full step is one matrix product over the whole "
             "cache, so its cost does not depend on L; what grows is the linear step, because S accumulates one "
             "outer product per token and gets more expensive to update as the history gets longer. The "
             "crossover is where S has become bigger than the cache. A GPU does the same arithmetic, so the "
             "crossover would be at the same L there."))
case("bug_written_ex3_noise_as_result", "bug",
     "the Exercise 3 answer reads a ranking into the 4-step, below-chance curves (full 'best', linear 'worst') "
     "and concludes the textbook story is confirmed, with nothing to change",
     ["written_ex3"],
     written("ex3-recall-027",
             "The full model recalls best (0.05 at the shortest distance), the linear model is the worst and "
             "its accuracy falls with distance, and the hybrid sits in between, so the single full layer "
             "recovers part of the gap. This confirms the textbook story, so I would not change the setup."))
case("bug_written_why_hybrids_wrong", "bug",
     "the why_hybrids answer says hybrids exist because linear layers train slowly and the full layers speed up "
     "training, and that the recurrent state grows with the sequence (the other concept answers are base's)",
     ["written_concepts"],
     written("why-hybrids-042",
             "Linear layers are slow to train because their state grows with the sequence, so a few full-attention "
             "layers are added to make training faster and more stable. The full layers also need less memory "
             "at inference than the growing (S, z) states, which is why the hybrid is cheaper than a pure linear "
             "stack."))
case("bug_written_delta_rule_wrong", "bug",
     "the delta_rule answer describes the delta rule as subtracting the previous state each step (a "
     "difference of states) and says this assignment implements a small KDA because its decay is learned "
     "(the other concept answers are base's)",
     ["written_concepts"],
     written("delta-rule-046",
             "The delta rule stores the difference between the new state and the old one, S_t − S_{t-1}, so "
             "the memory only keeps what changed. Our layer is a small version of KDA: the learned per-head "
             "decay plays the role of KDA's gate, and the additive write is the β = 1 case of the delta rule."))

# ------------------------------------------------------------------------------------------------ stubs
STUB_RANDOM_FWD = '''        return torch.randn_like(x)  # TODO
'''
STUB_RANDOM_STEP = '''        return torch.randn_like(x_t), (S, z)  # TODO
'''
STUB_CONST_FWD = '''        return torch.full_like(x, 0.5)  # placeholder until the layer works
'''
STUB_CONST_STEP = '''        return torch.full_like(x_t, 0.5), (S, z)  # placeholder until the layer works
'''
case("stub_template", "stub", "the untouched template: attention.py and the notebook exactly as handed out",
     ALL_ITEMS, [("template", ATT, None), ("template", NB, None)])
case("stub_random_outputs", "stub",
     "forward returns randn_like(x) and step randn_like(x_t) with the state it was given (right shapes, no "
     "attention, no memory); the notebook is the template's",
     ALL_ITEMS, [(FWD, F_BODY, STUB_RANDOM_FWD), (STEP, S_BODY, STUB_RANDOM_STEP), ("template", NB, None)])
case("stub_constant_outputs", "stub",
     "forward and step return a constant 0.5 everywhere (step passes the state through untouched); the notebook "
     "is the template's",
     ALL_ITEMS, [(FWD, F_BODY, STUB_CONST_FWD), (STEP, S_BODY, STUB_CONST_STEP), ("template", NB, None)])


# ------------------------------------------------------------------------------------------------ building
def scope_span(text, scope, where):
    """(start, end) character offsets of a method of LinearAttention (ast), or of the whole module."""
    if scope == "module":
        return 0, len(text)
    cls_name, meth = scope.split(".")
    tree = ast.parse(text)
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls_name]
    assert len(classes) == 1, where
    fns = [n for n in classes[0].body if isinstance(n, ast.FunctionDef) and n.name == meth]
    assert len(fns) == 1, f"{where}: method {meth} found {len(fns)} times"
    lines = text.splitlines(keepends=True)
    start = sum(len(ln) for ln in lines[:fns[0].lineno - 1])
    end = sum(len(ln) for ln in lines[:fns[0].end_lineno])
    return start, end


def replace_in(text, old, new, where, span=None):
    assert old and old != new, f"{where}: empty or no-op edit"
    assert text.count(old) == 1, f"{where}: anchor occurs {text.count(old)} times in the file: {old[:70]!r}"
    start, end = span or (0, len(text))
    seg = text[start:end]
    assert seg.count(old) == 1, f"{where}: anchor not inside its scope: {old[:70]!r}"
    return text[:start] + seg.replace(old, new) + text[end:]


def build(c):
    dst = HERE / c["name"]
    if dst == BASE:
        return
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(BASE, dst, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    nb = None
    for target, old, new in c["edits"]:
        where = f"{c['name']}:{target}"
        if target == "template":
            assert old in (ATT, NB) and not (old == NB and nb is not None), where
            shutil.copyfile(TEMPLATE / old, dst / old)
        elif target.startswith("nb:"):
            nb = nb or nbformat.read(dst / NB, as_version=4)
            cells = [cell for cell in nb.cells if cell.get("id") == target[3:]]
            assert len(cells) == 1, f"{where}: cell found {len(cells)} times"
            cells[0].source = replace_in(cells[0].source, old, new, where)
        else:
            assert target.startswith("att:"), where
            p = dst / ATT
            text = p.read_text()
            out = replace_in(text, old, new, where, scope_span(text, target[4:], where))
            ast.parse(out)
            p.write_text(out)
    if nb is not None:
        nbformat.write(nb, dst / NB)


def main():
    names = [c["name"] for c in C]
    assert len(names) == len(set(names)), "duplicate case names"
    assert names[0] == "base"
    for c in C:
        assert c["kind"] in ("bug", "alternative", "stub"), c["name"]
        assert (c["kind"] == "alternative") == (not c["should_lose"]), c["name"]
        assert all(i in ALL_ITEMS for i in c["should_lose"]), c["name"]
        assert c["kind"] != "stub" or c["should_lose"] == ALL_ITEMS, c["name"]
        assert c["name"] == "base" or c["edits"], c["name"]
        build(c)
    for c in C:  # alternatives keep base's notebook, byte for byte
        if c["kind"] == "alternative":
            assert (HERE / c["name"] / NB).read_bytes() == (BASE / NB).read_bytes(), c["name"]
    assert (HERE / "stub_template" / ATT).read_bytes() == (TEMPLATE / ATT).read_bytes()
    entries = [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=c["should_lose"]) for c in C]
    with open(HERE / "corpus.yaml", "w") as f:
        f.write("# linear-attention-hybrid, blind round 15: written by make_cases.py (one entry per case folder)\n")
        yaml.safe_dump(entries, f, sort_keys=False, allow_unicode=True, width=110)
    counts = {k: sum(c["kind"] == k for c in C[1:]) for k in ("alternative", "bug", "stub")}
    print(f"{len(C) - 1} cases besides base:", counts)


if __name__ == "__main__":
    main()
