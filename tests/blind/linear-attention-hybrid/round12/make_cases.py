"""Build the round-12 blind corpus: one folder per case beside base/, made from base/ by edits.

    python make_cases.py            # (re)builds every case folder and corpus.yaml

Two kinds of edit:
  (target, old, new)          exact anchored replacement: `old` must occur exactly once in the file (for the
                              notebook: in one cell's joined source, "nb:<cell id>") and the result must differ;
  (target, "def:<name>", new) whole-method replacement: the method `<name>` of class LinearAttention is located
                              with ast (decorators to end_lineno) and replaced by `new` (a full `def`).
The notebook is written back in base's JSON layout (indent 1, UTF-8, trailing newline).
"""
from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
TEMPLATE_ATT = HERE.parents[3] / "student_template" / "linear-attention-hybrid" / "g2c" / "linear_attention" / "attention.py"
ATT = "g2c/linear_attention/attention.py"
NB = "linear_attention_hybrid.ipynb"

CODE_ITEMS = ["forward_matches", "step_matches", "normalizer", "update_order", "decay_both_forms",
              "decay_normalizer", "head_split", "batch_isolation", "causality", "long_sequences",
              "lm_decoding", "step_cost"]
EXERCISES = ["ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"]
FM, SM, NORM, UO, DEC, DZ, HS, BI, CA, LS, LM, COST = CODE_ITEMS

FWD_DOC = '''    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Parallel reference: x (B, T, D) -> (B, T, D), all positions at once."""
        B, T, D = x.shape
        H, d_h = self.num_heads, self.head_dim
'''
STEP_DOC = '''    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """Recurrent form: one token x_t (B, D) and the memory (S, z) -> (y_t (B, D), new (S, z))."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
'''

# base lines used as anchors (each occurs once in base's attention.py)
L_SPLIT_FWD = "            return t.view(B, T, H, d_h).transpose(1, 2)\n"
L_SPLIT_STEP = "            return t.view(B, H, d_h)\n"
L_QKV_FWD = '''        q = split(feature_map(self.q_proj(x)))
        k = split(feature_map(self.k_proj(x)))
        v = split(self.v_proj(x))
'''
L_QKV_STEP = '''        q = split(feature_map(self.q_proj(x_t)))
        k = split(feature_map(self.k_proj(x_t)))
        v = split(self.v_proj(x_t))
'''
L_DIST = "        dist = pos.view(T, 1) - pos.view(1, T)  # (T, T): t - i\n"
L_CAUSAL = "        causal = dist >= 0  # key i is visible from query t (i = t included)\n"
L_LOGDECAY = "        log_decay = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1, 1)  # (H, 1, 1), log γ_h ≤ 0\n"
L_DECAY = ("        decay = torch.exp(log_decay * dist.clamp(min=0).to(x.dtype))  # (H, T, T): γ^(t-i), exponents ≥ 0\n"
           "        decay = decay * causal.to(x.dtype)  # 0 above the diagonal\n")
L_DECAY1 = "        decay = torch.exp(log_decay * dist.clamp(min=0).to(x.dtype))  # (H, T, T): γ^(t-i), exponents ≥ 0\n"
L_SCORES = "        scores = torch.matmul(q, k.transpose(-2, -1)) * decay  # (B, H, T, T)\n"
L_NUMER = "        numer = torch.matmul(scores, v)  # (B, H, T, d_h)\n"
L_DENOM = "        denom = scores.sum(dim=-1, keepdim=True)  # (B, H, T, 1)\n"
L_RATIO = L_NUMER + L_DENOM + "        y = numer / denom\n"
L_MERGE = "        y = y.transpose(1, 2).reshape(B, T, D)\n"
L_GAMMA = "        gamma = self.decay.to(x_t.dtype)  # (H,)\n"
L_S = '        S = gamma_S * S + torch.einsum("bhi,bhj->bhij", k, v)  # γ·S + φ(k) vᵀ\n'
L_Z = "        z = gamma_z * z + k  # γ·z + φ(k)\n"
L_UPDATE_READ = '''        # update first (out of place, the caller's state is left as it was) ...
''' + L_S + L_Z + '''        # ... then read, so that token t sees itself
        numer = torch.einsum("bhi,bhij->bhj", q, S)  # φ(q)ᵀ S, (B, H, d_h)
        denom = torch.einsum("bhi,bhi->bh", q, z).unsqueeze(-1)  # φ(q)ᵀ z, (B, H, 1)
'''
L_DENOM_STEP = '        denom = torch.einsum("bhi,bhi->bh", q, z).unsqueeze(-1)  # φ(q)ᵀ z, (B, H, 1)\n'
L_RETURN_STEP = "        return self.out_proj(y), (S, z)\n"

# ------------------------------------------------------------------------------------------------ alternatives
ALT_FWD_SCAN = FWD_DOC + '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h)
        v = self.v_proj(x).view(B, T, H, d_h)
        gamma = self.decay.to(x.dtype)
        g_S, g_z = gamma.view(1, H, 1, 1), gamma.view(1, H, 1)
        S = x.new_zeros(B, H, d_h, d_h)
        z = x.new_zeros(B, H, d_h)
        ys = []
        for t in range(T):  # the recurrence unrolled over time: the same numbers as the T × T form
            S = g_S * S + k[:, t].unsqueeze(-1) * v[:, t].unsqueeze(-2)
            z = g_z * z + k[:, t]
            qt = q[:, t]  # (B, H, d_h)
            ys.append(torch.einsum("bhi,bhij->bhj", qt, S) / (qt * z).sum(dim=-1, keepdim=True))
        y = torch.stack(ys, dim=1).reshape(B, T, D)  # (B, T, H, d_h) -> (B, T, D)
        return self.out_proj(y)
'''

ALT_FWD_BTHD = FWD_DOC + '''        # heads stay in dim 2, (B, T, H, d_h): einsum does the bookkeeping, no transposes
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h)
        v = self.v_proj(x).view(B, T, H, d_h)
        t = torch.arange(T, device=x.device, dtype=x.dtype)
        lag = (t[:, None] - t[None, :]).clamp(min=0)  # (T, T)
        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,)
        w = torch.exp(torch.einsum("h,ts->hts", log_g, lag)).tril()  # (H, T, T): tril zeroes i > t
        a = torch.einsum("bthd,bshd->bhts", q, k) * w  # (B, H, T, T)
        norm = a.sum(dim=-1).transpose(1, 2).unsqueeze(-1)  # (B, T, H, 1)
        y = torch.einsum("bhts,bshd->bthd", a, v) / norm
        return self.out_proj(y.reshape(B, T, D))
'''

ALT_STEP_BMM = STEP_DOC + '''        S, z = state
        # heads folded into the batch, row b·H + h, so that bmm / baddbmm do the per-head products
        q = feature_map(self.q_proj(x_t)).reshape(B * H, 1, d_h)
        k = feature_map(self.k_proj(x_t)).reshape(B * H, d_h, 1)
        v = self.v_proj(x_t).reshape(B * H, 1, d_h)
        g = self.decay.to(x_t.dtype).repeat(B).view(B * H, 1, 1)  # row b·H + h -> γ_h
        S = torch.baddbmm(g * S.reshape(B * H, d_h, d_h), k, v)  # γ·S + φ(k) vᵀ, a new tensor
        z = g.view(B * H, 1) * z.reshape(B * H, d_h) + k.view(B * H, d_h)
        numer = torch.bmm(q, S).view(B, H, d_h)
        denom = torch.bmm(q, z.unsqueeze(-1)).view(B, H, 1)
        y = (numer / denom).reshape(B, D)
        return self.out_proj(y), (S.view(B, H, d_h, d_h), z.view(B, H, d_h))
'''

ALT_STEP_HEAD_LOOP = STEP_DOC + '''        S, z = state
        gamma = self.decay.to(x_t.dtype)
        q = feature_map(self.q_proj(x_t))
        k = feature_map(self.k_proj(x_t))
        v = self.v_proj(x_t)
        new_S, new_z, outs = [], [], []
        for h in range(H):  # one head at a time: channels h·d_h ... (h+1)·d_h - 1
            sl = slice(h * d_h, (h + 1) * d_h)
            qh, kh, vh = q[:, sl], k[:, sl], v[:, sl]  # (B, d_h)
            Sh = gamma[h] * S[:, h] + kh.unsqueeze(2) * vh.unsqueeze(1)  # (B, d_h, d_h)
            zh = gamma[h] * z[:, h] + kh  # (B, d_h)
            outs.append(torch.bmm(qh.unsqueeze(1), Sh).squeeze(1) / (qh * zh).sum(dim=-1, keepdim=True))
            new_S.append(Sh)
            new_z.append(zh)
        y = torch.cat(outs, dim=-1)  # (B, D)
        return self.out_proj(y), (torch.stack(new_S, dim=1), torch.stack(new_z, dim=1))
'''

# ------------------------------------------------------------------------------------------------ stubs
STUB_FWD_ZERO = FWD_DOC + "        return x.new_zeros(B, T, D)\n"
STUB_STEP_ZERO = STEP_DOC + "        return x_t.new_zeros(B, D), self.init_state(B, device=x_t.device, dtype=x_t.dtype)\n"
STUB_FWD_RAND = FWD_DOC + "        return torch.randn(B, T, D, dtype=x.dtype, device=x.device)\n"
STUB_STEP_RAND = STEP_DOC + '''        S, z = state
        return torch.randn_like(x_t), (torch.randn_like(S), torch.randn_like(z))
'''


def template_method(name: str) -> str:
    text = TEMPLATE_ATT.read_text()
    cls = [n for n in ast.parse(text).body if isinstance(n, ast.ClassDef) and n.name == "LinearAttention"][0]
    fn = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name][0]
    lines = text.splitlines(keepends=True)
    return "".join(lines[fn.lineno - 1:fn.end_lineno])


# ------------------------------------------------------------------------------------------------ notebook pieces
SCRATCH = "nb:ex5-036"
ANS = "nb:ex5-037"
ASSERTS = '''# the MHA and linear rows and both stacks, checked against the provided memory_bill
assert memory_bill(["full"], T, D, H, bytes_per_value=BYTES).total_bytes == mha
assert memory_bill(["linear"], T, D, H, bytes_per_value=BYTES).total_bytes == linear
assert memory_bill(["full"] * 4, T, D, H, bytes_per_value=BYTES).total_bytes == all_mha
assert memory_bill(["linear"] * 3 + ["full"], T, D, H, bytes_per_value=BYTES).total_bytes == hybrid

'''
SHOW = '    print(f"{name:<28} {n:>18,d} B   {n / 1e9:12.4f} GB")\n'
BASE_ANSWERS = {
    "mha_cache_one_layer": "16384000000 B",
    "gqa8_cache_one_layer": "4096000000 B",
    "window4096_cache_one_layer": "67108864 B",
    "linear_state_one_layer": "1056768 B",
    "all_mha_stack_4_layers": "65536000000 B",
    "hybrid_lllf_stack_4_layers": "16387170304 B",
    "grows_with_t": "b",
}


def nb_answers(**new):
    return [(ANS, f"{key}: {BASE_ANSWERS[key]}\n", f"{key}: {val}\n") for key, val in new.items()]


# ------------------------------------------------------------------------------------------------ cases
C = []


def case(name, kind, about, should_lose, edits):
    return dict(name=name, kind=kind, about=about, should_lose=should_lose, edits=edits)


C.append(case("base", "alternative", "reference-quality submission: both forms from the docstrings, all answers", [], []))

# ---------------------------------------------------------------- alternatives
C.append(case("alt_fwd_scores_scaled_by_sqrt_dh", "alternative",
              "forward scales φ(q)·φ(k) by 1/sqrt(d_h) as in softmax attention: a constant factor that cancels "
              "between the numerator and the normalizer",
              [], [(ATT, L_SCORES,
                    "        scores = torch.matmul(q, k.transpose(-2, -1)) * d_h ** -0.5 * decay  # scaled as in softmax attention\n")]))
C.append(case("alt_fwd_decay_from_lag_plus_one", "alternative",
              "forward weights key i by γ^(t-i+1) (one γ more on every key of a row, the 'decay before the write'): "
              "the extra γ is the same for the whole row and cancels in the ratio",
              [], [(ATT, L_DECAY1,
                    "        decay = torch.exp(log_decay * (dist.clamp(min=0) + 1).to(x.dtype))  # (H, T, T): γ^(t-i+1)\n")]))
C.append(case("alt_fwd_recurrent_scan", "alternative",
              "forward runs the (S, z) recurrence in a Python loop over the T tokens (no T × T matrix) and stacks the "
              "outputs; gradients flow through the loop",
              [], [(ATT, "def:forward", ALT_FWD_SCAN)]))
C.append(case("alt_fwd_einsum_bthd_layout", "alternative",
              "forward keeps heads in (B, T, H, d_h) and does every product with einsum; the future is zeroed with "
              "tril on the (H, T, T) decay",
              [], [(ATT, "def:forward", ALT_FWD_BTHD)]))
C.append(case("alt_fwd_normalizer_as_ones_column", "alternative",
              "forward appends a ones column to v, so one matmul gives both φ(q)ᵀS and φ(q)ᵀz, and splits the result",
              [], [(ATT, L_RATIO,
                    "        v1 = torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # [v, 1]: the last column sums the scores\n"
                    "        out = torch.matmul(scores, v1)  # (B, H, T, d_h + 1)\n"
                    "        y = out[..., :d_h] / out[..., d_h:]\n")]))
C.append(case("alt_fwd_exponent_masked_to_minus_inf", "alternative",
              "forward masks the exponent (t-i)·log γ with -inf above the diagonal and takes exp, instead of clamping "
              "and multiplying by the mask",
              [], [(ATT, L_DECAY,
                    '        expo = (log_decay * dist.to(x.dtype)).masked_fill(~causal, float("-inf"))  # (H, T, T)\n'
                    "        decay = torch.exp(expo)  # γ^(t-i) on and below the diagonal, exp(-inf) = 0 above\n")]))
C.append(case("alt_both_fused_qkv_projection", "alternative",
              "forward and step compute q, k, v with one F.linear over the concatenated q/k/v weights and split it",
              [], [(ATT, L_QKV_FWD,
                    "        w = torch.cat([self.q_proj.weight, self.k_proj.weight, self.v_proj.weight])  # (3D, D)\n"
                    "        b = torch.cat([self.q_proj.bias, self.k_proj.bias, self.v_proj.bias])\n"
                    "        q, k, v = F.linear(x, w, b).split(D, dim=-1)\n"
                    "        q, k, v = split(feature_map(q)), split(feature_map(k)), split(v)\n"),
                   (ATT, L_QKV_STEP,
                    "        w = torch.cat([self.q_proj.weight, self.k_proj.weight, self.v_proj.weight])  # (3D, D)\n"
                    "        b = torch.cat([self.q_proj.bias, self.k_proj.bias, self.v_proj.bias])\n"
                    "        q, k, v = F.linear(x_t, w, b).split(D, dim=-1)\n"
                    "        q, k, v = split(feature_map(q)), split(feature_map(k)), split(v)\n")]))
C.append(case("alt_step_bmm_heads_in_batch", "alternative",
              "step folds heads into the batch (B·H rows), updates S with an out-of-place baddbmm and reads with bmm",
              [], [(ATT, "def:step", ALT_STEP_BMM)]))
C.append(case("alt_step_loop_over_heads", "alternative",
              "step handles one head at a time in a Python loop over channel slices and stacks the new (S, z)",
              [], [(ATT, "def:step", ALT_STEP_HEAD_LOOP)]))
C.append(case("alt_nb_answers_in_binary_units", "alternative",
              "Exercise 5: the scratch prints GiB and the answers are given in GiB / MiB, correctly converted "
              "(15.26 GiB, 3.815 GiB, 64 MiB, 1.008 MiB, 61.04 GiB, 15.26 GiB)",
              [], [(SCRATCH, SHOW, '    print(f"{name:<28} {n:>18,d} B   {n / 2**30:12.4f} GiB")\n')]
              + nb_answers(mha_cache_one_layer="15.26 GiB", gqa8_cache_one_layer="3.815 GiB",
                           window4096_cache_one_layer="64 MiB", linear_state_one_layer="1.008 MiB",
                           all_mha_stack_4_layers="61.04 GiB", hybrid_lllf_stack_4_layers="15.26 GiB")))

# ---------------------------------------------------------------- forward bugs
C.append(case("bug_fwd_mask_excludes_diagonal", "bug",
              "forward keeps only keys strictly before t (dist > 0): token t never sees itself, token 0 divides 0 by 0, "
              "and the NaN makes the Exercise 2 losses non-finite",
              [FM, UO, "ex2_comparison"],
              [(ATT, L_CAUSAL, "        causal = dist > 0  # keys strictly before t are visible\n")]))
C.append(case("bug_fwd_mask_one_future_token", "bug",
              "forward builds the mask with tril(diagonal=1), thinking the offset includes the diagonal: every query "
              "also sees the next token (weight γ^0 after the clamp)",
              [FM, CA],
              [(ATT, L_CAUSAL,
                "        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril(diagonal=1)  # i <= t\n")]))
C.append(case("bug_fwd_lag_sign_flipped", "bug",
              "forward computes the lag as i - t instead of t - i, so the clamp and the mask keep the future and "
              "drop the past: anti-causal attention decayed by γ^(i-t)",
              [FM, CA],
              [(ATT, L_DIST, "        dist = pos.view(1, T) - pos.view(T, 1)  # (T, T): distance from t to i\n")]))
C.append(case("bug_fwd_decay_exp_minus_gamma", "bug",
              "forward weights key i by exp(-γ·(t-i)) (γ used as a rate) instead of γ^(t-i) = exp((t-i)·log γ)",
              [FM, DEC],
              [(ATT, L_LOGDECAY,
                "        log_decay = -self.decay.to(x.dtype).view(H, 1, 1)  # (H, 1, 1): exp(-γ·(t-i)) fades with distance\n")]))
C.append(case("bug_fwd_split_view_without_transpose", "bug",
              "forward splits heads with view(B, H, T, d_h) straight from (B, T, D): each 'head' gets slices of "
              "several tokens' channels, so heads and tokens mix (exact only at H = 1)",
              [FM, HS, CA],
              [(ATT, L_SPLIT_FWD, "            return t.view(B, H, T, d_h)  # heads first\n")]))
C.append(case("bug_fwd_merge_channels_interleaved", "bug",
              "forward merges heads with permute(0, 2, 3, 1), i.e. (B, T, d_h, H): the output channels of different "
              "heads are interleaved (exact only at H = 1)",
              [FM, HS],
              [(ATT, L_MERGE, "        y = y.permute(0, 2, 3, 1).reshape(B, T, D)  # (B, T, d_h, H) -> (B, T, D)\n")]))
C.append(case("bug_fwd_merge_time_major", "bug",
              "forward merges heads through a time-major (T, B, H, d_h) layout before reshape(B, T, D): rows of "
              "different sequences and tokens swap (exact only at B = 1)",
              [FM, BI, CA],
              [(ATT, L_MERGE, "        y = y.permute(2, 0, 1, 3).reshape(B, T, D)  # (T, B, H, d_h) -> (B, T, D)\n")]))
C.append(case("bug_fwd_normalizer_sums_decay_weights", "bug",
              "forward divides by the row sums of the decay matrix Σγ^(t-i) instead of the row sums of the scores "
              "φ(q_t)·φ(k_i)γ^(t-i)",
              [FM, NORM],
              [(ATT, L_DENOM, "        denom = decay.sum(dim=-1, keepdim=True)  # (H, T, 1): total weight of the row\n")]))
C.append(case("bug_fwd_numerator_undecayed", "bug",
              "forward multiplies v by the masked but undecayed φ(q)·φ(k) while the normalizer uses the decayed scores "
              "(exact only at γ = 1)",
              [FM, DEC],
              [(ATT, L_NUMER,
                "        numer = torch.matmul(torch.matmul(q, k.transpose(-2, -1)) * causal, v)  # (B, H, T, d_h)\n")]))
C.append(case("bug_fwd_feature_map_on_q_only", "bug",
              "forward applies φ to q but not to k (step applies it to both): scores can be negative and the forms "
              "disagree",
              [FM],
              [(ATT, "        k = split(feature_map(self.k_proj(x)))\n", "        k = split(self.k_proj(x))\n")]))
C.append(case("bug_fwd_where_unclamped_exponent", "bug",
              "forward uses torch.where(causal, exp((t-i)·log γ), 0) without the clamp: outputs exact, but above the "
              "diagonal exp overflows to inf for quick decays over hundreds of tokens and the where's backward gives "
              "NaN gradients to gamma_logit",
              [LS],
              [(ATT, L_DECAY,
                "        decay = torch.where(causal, torch.exp(log_decay * dist.to(x.dtype)), 0.0)  # (H, T, T): γ^(t-i), 0 above\n")]))
C.append(case("bug_fwd_decay_matrix_float32", "bug",
              "forward casts the T × T decay matrix to float32 'to halve its memory': in float64 every γ^(t-i) "
              "carries a float32 rounding error (~1e-7 relative; exact only at γ = 1)",
              [FM, DEC],
              [(ATT, L_DECAY1,
                "        decay = torch.exp(log_decay * dist.clamp(min=0).to(x.dtype)).float()  # (H, T, T) in fp32: half the memory\n")]))

# ---------------------------------------------------------------- step bugs
C.append(case("bug_step_read_before_update", "bug",
              "step reads φ(q)ᵀS / φ(q)ᵀz from the incoming state and only then writes token t: 0/0 at t = 0 and "
              "every output one token late",
              [SM, UO],
              [(ATT, L_UPDATE_READ, '''        # read from the memory so far ...
        numer = torch.einsum("bhi,bhij->bhj", q, S)  # φ(q)ᵀ S, (B, H, d_h)
        denom = torch.einsum("bhi,bhi->bh", q, z).unsqueeze(-1)  # φ(q)ᵀ z, (B, H, 1)
        # ... then write this token
''' + L_S + L_Z)]))
C.append(case("bug_step_gamma_logit_as_decay", "bug",
              "step multiplies the state by gamma_logit itself instead of sigmoid(gamma_logit): wrong decays, and for "
              "γ near 1 (logit > 1) the state grows geometrically and overflows over hundreds of tokens",
              [SM, DEC, LS],
              [(ATT, L_GAMMA, "        gamma = self.gamma_logit.to(x_t.dtype)  # (H,) the learned decay\n")]))
C.append(case("bug_step_z_not_decayed", "bug",
              "step decays S but accumulates z without γ: the normalizer counts every key at full weight "
              "(exact only at γ = 1)",
              [SM, DZ],
              [(ATT, L_Z, "        z = z + k  # running sum of φ(k)\n")]))
C.append(case("bug_step_decays_after_write", "bug",
              "step applies γ after adding the new token, S = γ(S + φ(k)vᵀ), z = γ(z + φ(k)): outputs are exact "
              "(the factor cancels) but the returned (S, z) is γ times the reference state",
              [SM],
              [(ATT, L_S + L_Z,
                '        S = gamma_S * (S + torch.einsum("bhi,bhj->bhij", k, v))  # write, then decay everything\n'
                "        z = gamma_z * (z + k)\n")]))
C.append(case("bug_step_write_transposed", "bug",
              "step writes v φ(k)ᵀ (einsum with k and v swapped) but reads φ(q)ᵀ S: the write and the read disagree "
              "on S's orientation",
              [SM],
              [(ATT, L_S, '        S = gamma_S * S + torch.einsum("bhi,bhj->bhij", v, k)  # γ·S + v φ(k)ᵀ\n')]))
C.append(case("bug_step_split_heads_strided", "bug",
              "step splits heads with view(B, d_h, H).transpose(1, 2): head h gets every H-th channel, while the "
              "merge reshape(B, D) and forward use contiguous heads (exact only at H = 1)",
              [SM, HS],
              [(ATT, L_SPLIT_STEP, "            return t.view(B, d_h, H).transpose(1, 2)\n")]))
C.append(case("bug_step_normalizer_summed_over_batch", "bug",
              "step computes φ(q)ᵀz with einsum('bhi,bhi->h'): the normalizer of every sequence is the sum over the "
              "batch (exact only at B = 1)",
              [SM, BI],
              [(ATT, L_DENOM_STEP, '        denom = torch.einsum("bhi,bhi->h", q, z).view(1, H, 1)  # φ(q)ᵀ z per head\n')]))
C.append(case("bug_step_returns_incoming_state", "bug",
              "step computes the new (S, z) and reads from it, but returns the state it was given: every call starts "
              "from the empty memory, so decoding sees only the current token",
              [SM, LM],
              [(ATT, L_RETURN_STEP, "        return self.out_proj(y), state\n")]))
C.append(case("bug_step_state_returned_fp32", "bug",
              "step returns (S, z) cast to float32 ('keep the memory in fp32'): under float64 the carried state "
              "loses precision at every token and comes back in the wrong dtype",
              [SM],
              [(ATT, L_RETURN_STEP, "        return self.out_proj(y), (S.float(), z.float())  # the memory is kept in fp32\n")]))
C.append(case("bug_step_feature_map_missing_on_q", "bug",
              "step forgets φ on the query (forward has it): reads with the raw projection q instead of φ(q)",
              [SM],
              [(ATT, "        q = split(feature_map(self.q_proj(x_t)))\n", "        q = split(self.q_proj(x_t))\n")]))

# ---------------------------------------------------------------- notebook bugs
C.append(case("bug_nb_mha_keys_only", "bug",
              "Exercise 5: the MHA cache priced with K only (T·D values, V forgotten): MHA and both stacks' MHA part "
              "halved; the failing asserts were deleted",
              ["bill_mha", "bill_all_mha_stack", "bill_hybrid_stack"],
              [(SCRATCH, "mha = 2 * T * D * BYTES                      # K and V rows of D values (H heads of d_h) for every token",
                "mha = T * D * BYTES                          # one cached row of D values per token"),
               (SCRATCH, ASSERTS, "")]
              + nb_answers(mha_cache_one_layer="8192000000 B", all_mha_stack_4_layers="32768000000 B",
                           hybrid_lllf_stack_4_layers="8195170304 B")))
C.append(case("bug_nb_gqa_kv_heads_as_H_over_8", "bug",
              "Exercise 5: 'GQA with 8 KV heads' read as groups of 8 query heads, so H/8 = 4 KV heads: half the "
              "right GQA-8 cache",
              ["bill_gqa8"],
              [(SCRATCH, "gqa8 = 2 * T * 8 * d_h * BYTES               # K and V for 8 shared KV heads of width d_h",
                "gqa8 = 2 * T * (H // 8) * d_h * BYTES        # 8 query heads share each KV head")]
              + nb_answers(gqa8_cache_one_layer="2048000000 B")))
C.append(case("bug_nb_window_one_head", "bug",
              "Exercise 5: the 4096-token window priced for one head of width d_h instead of all H heads (D values)",
              ["bill_window"],
              [(SCRATCH, "window = 2 * min(T, 4096) * D * BYTES        # MHA that keeps only the last 4096 tokens",
                "window = 2 * min(T, 4096) * d_h * BYTES      # K and V for the last 4096 tokens")]
              + nb_answers(window4096_cache_one_layer="2097152 B")))
C.append(case("bug_nb_linear_state_without_z", "bug",
              "Exercise 5: the linear state priced as S only (H·d_h² values), z forgotten: 0.78% low, outside the "
              "0.5% tolerance; the hybrid total stays within 1%",
              ["bill_linear"],
              [(SCRATCH, "linear = (H * d_h * d_h + H * d_h) * BYTES   # S: H matrices d_h x d_h, z: H vectors of d_h",
                "linear = H * d_h * d_h * BYTES               # S: H matrices d_h x d_h"),
               (SCRATCH, ASSERTS, "")]
              + nb_answers(linear_state_one_layer="1048576 B", hybrid_lllf_stack_4_layers="16387145728 B")))
C.append(case("bug_nb_gib_labelled_gb", "bug",
              "Exercise 5: the scratch divides by 2**30 but prints 'GB', and the big answers are copied from that "
              "column (15.26 GB for 16.38 GB): MHA, GQA-8 and both stacks ~7% low",
              ["bill_mha", "bill_gqa8", "bill_all_mha_stack", "bill_hybrid_stack"],
              [(SCRATCH, SHOW, '    print(f"{name:<28} {n:>18,d} B   {n / 2**30:12.4f} GB")\n')]
              + nb_answers(mha_cache_one_layer="15.26 GB", gqa8_cache_one_layer="3.815 GB",
                           all_mha_stack_4_layers="61.04 GB", hybrid_lllf_stack_4_layers="15.26 GB")))
C.append(case("bug_nb_grows_includes_window", "bug",
              "Exercise 5: answers (c), counting the sliding-window cache as growing with T", ["bill_grows"],
              nb_answers(grows_with_t="c")))
C.append(case("bug_nb_ex2_figure_saved_not_shown", "bug",
              "Exercise 2: the loss plot is written to a PNG and closed (fig.savefig, plt.close) instead of shown: "
              "no figure in the notebook",
              ["ex2_comparison"],
              [("nb:ex2-019", "ax.legend()\nplt.show()\n",
                'ax.legend()\nfig.savefig("ex2_losses.png", dpi=120)\nplt.close(fig)  # keep the notebook light\n')]))
C.append(case("bug_nb_hybrid_pattern_list_plus_str", "bug",
              "Exercise 2: the hybrid pattern rewritten as [\"linear\"] * 3 + \"full\" (a str, not a list): the "
              "PATTERNS cell raises TypeError, so Exercises 2 and 3 have no models",
              ["ex2_comparison", "ex3_recall"],
              [("nb:ex2-018", '    "hybrid LLLF": ["linear", "linear", "linear", "full"],\n',
                '    "hybrid LLLF": ["linear"] * 3 + "full",\n')]))

# ---------------------------------------------------------------- stubs
STUB_LOSE = CODE_ITEMS + EXERCISES
C.append(case("stub_zeros_shaped", "stub",
              "forward returns zeros (B, T, D); step returns zeros (B, D) and an empty state of the right shapes",
              STUB_LOSE, [(ATT, "def:forward", STUB_FWD_ZERO), (ATT, "def:step", STUB_STEP_ZERO)]))
C.append(case("stub_random_tensors", "stub",
              "forward returns torch.randn (B, T, D); step returns random y_t and a random (S, z) of the right shapes",
              STUB_LOSE, [(ATT, "def:forward", STUB_FWD_RAND), (ATT, "def:step", STUB_STEP_RAND)]))
C.append(case("stub_template_untouched", "stub",
              "attention.py exactly as the template hands it out (forward and step raise NotImplementedError); the "
              "notebook is base's",
              STUB_LOSE, [(ATT, "def:forward", template_method("forward")), (ATT, "def:step", template_method("step"))]))


# ------------------------------------------------------------------------------------------------ building
def read_nb(path):
    return json.loads(path.read_text())


def write_nb(path, nb):
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def replace_once(text, old, new, where):
    n = text.count(old)
    assert n == 1, f"{where}: anchor occurs {n} times: {old[:80]!r}"
    out = text.replace(old, new)
    assert out != text, f"{where}: replacement changed nothing"
    return out


def replace_method(text, name, new, where):
    tree = ast.parse(text)
    cls = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "LinearAttention"]
    assert len(cls) == 1, where
    fns = [n for n in cls[0].body if isinstance(n, ast.FunctionDef) and n.name == name]
    assert len(fns) == 1, f"{where}: method {name} found {len(fns)} times"
    fn = fns[0]
    start = min([fn.lineno] + [d.lineno for d in fn.decorator_list]) - 1
    lines = text.splitlines(keepends=True)
    out = "".join(lines[:start]) + new + "".join(lines[fn.end_lineno:])
    assert out != text, f"{where}: replacement changed nothing"
    ast.parse(out)
    return out


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
        if target.startswith("nb:"):
            nb = nb or read_nb(dst / NB)
            cells = [cell for cell in nb["cells"] if cell.get("id") == target[3:]]
            assert len(cells) == 1, where
            src = replace_once("".join(cells[0]["source"]), old, new, where)
            cells[0]["source"] = src.splitlines(keepends=True)
        else:
            p = dst / target
            text = p.read_text()
            if old.startswith("def:"):
                p.write_text(replace_method(text, old[4:], new, where))
            else:
                p.write_text(replace_once(text, old, new, where))
    if nb is not None:
        write_nb(dst / NB, nb)


def main():
    names = [c["name"] for c in C]
    assert len(names) == len(set(names)), "duplicate case names"
    assert names[0] == "base"
    for c in C:
        assert c["kind"] in ("bug", "alternative", "stub")
        assert (c["kind"] == "alternative") == (not c["should_lose"]), c["name"]
        assert all(i in CODE_ITEMS + EXERCISES or i.startswith("bill_") for i in c["should_lose"]), c["name"]
        build(c)
    # the template stub must be the template's attention.py, byte for byte
    assert (HERE / "stub_template_untouched" / ATT).read_text() == TEMPLATE_ATT.read_text()
    entries = [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=list(c["should_lose"])) for c in C]
    with open(HERE / "corpus.yaml", "w") as f:
        yaml.safe_dump(entries, f, sort_keys=False, allow_unicode=True, width=110)
    counts = {k: sum(c["kind"] == k for c in C[1:]) for k in ("bug", "alternative", "stub")}
    print(f"{len(C) - 1} cases besides base:", counts)


if __name__ == "__main__":
    main()
