"""Generate the round-6 blind corpus for linear-attention-hybrid from base/.

Every case is a full copy of base/ with exactly one (logical) change to
g2c/linear_attention/attention.py, made by string replacement on base's source. Each replacement
is asserted to match the expected number of times, so a replacement that silently did not apply
fails the script. Run from this folder:  python make_cases.py
"""
from __future__ import annotations

import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
TARGET = "g2c/linear_attention/attention.py"
SRC = (BASE / TARGET).read_text()

ALL_CODE = ["forward_matches", "step_matches", "normalizer", "update_order", "decay_both_forms",
            "decay_normalizer", "head_split", "batch_isolation", "causality", "long_sequences",
            "lm_decoding", "step_cost"]
ALL_EX = ["ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"]

# ------------------------------------------------------------------ exact lines of base's source
F_SPLIT = "            return t.reshape(B, T, H, d_h).transpose(1, 2)\n"
F_Q = "        q = split(feature_map(self.q_proj(x)))\n"
F_K = "        k = split(feature_map(self.k_proj(x)))\n"
F_V = "        v = split(self.v_proj(x))\n"
F_CAUSAL = "        causal = diff >= 0\n"
F_LOGG = "        log_gamma = F.logsigmoid(self.gamma_logit).to(q.dtype)  # (H,)\n"
F_W = ("        weights = torch.exp(log_gamma[:, None, None] * diff.clamp(min=0).to(q.dtype)) * causal"
       "  # (H, T, T)\n")
F_SCORES = "        scores = (q @ k.transpose(-2, -1)) * weights\n"
F_Y = "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)\n"
F_MERGE = "        y = y.transpose(1, 2).reshape(B, T, D)\n"

S_HEAD = "        B, D = x_t.shape\n"
S_STATE = "        S, z = state\n"
S_SPLIT = "            return t.reshape(B, H, d_h)\n"
S_Q = "        q = split(feature_map(self.q_proj(x_t)))\n"
S_K = "        k = split(feature_map(self.k_proj(x_t)))\n"
S_G = "        gamma = self.decay.to(S.dtype)\n"
S_S = "        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)\n"
S_Z = "        z = gamma.view(1, H, 1) * z + k\n"
S_READ_COMMENT = "        # 4. Then read: y = (φ(q)ᵀ S) / (φ(q)ᵀ z), shape (B, H, d_h) -> reshape to (B, D).\n"
S_NUM = "        num = (q.unsqueeze(-2) @ S).squeeze(-2)  # (B, H, d_h)\n"
S_DEN = "        den = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)\n"
S_Y = "        y = (num / den).reshape(B, D)\n"
S_RET = "        return self.out_proj(y), (S, z)\n"

# whole method bodies (for the stubs)
_f0 = SRC.index("        B, T, D = x.shape\n")
_f1 = SRC.index("        return self.out_proj(y)\n") + len("        return self.out_proj(y)\n")
F_BODY = SRC[_f0:_f1]
_s0 = SRC.index(S_HEAD)
_s1 = SRC.index(S_RET) + len(S_RET)
S_BODY = SRC[_s0:_s1]
# forward steps 2-4 (for the chunked alternative)
_c0 = SRC.index("        # 2. The decay weights, shape (H, T, T)")
_c1 = SRC.index("        # 5. Merge heads back")
F_STEPS_2_4 = SRC[_c0:_c1]

CASES: list[dict] = [
    dict(name="base", kind="alternative", about="reference-quality submission (matmul forward with "
         "exp((t-i)·logsigmoid) weights, matmul step)", should_lose=[], edits=[]),

    # ============================================================== bugs: update order / mask
    dict(name="bug_mask_strict", kind="bug",
         about="forward's mask keeps only i < t, so token t does not attend to itself (row 0 is 0/0 = NaN)",
         should_lose=["update_order", "forward_matches", "ex2_comparison"],
         edits=[(F_CAUSAL, "        causal = diff > 0\n")]),
    dict(name="bug_mask_wrong_triangle", kind="bug",
         about="forward's mask keeps i >= t (upper triangle): every token attends to the future, not the past "
               "(and, with the clamped exponent, every kept weight is 1: γ is never used)",
         should_lose=["causality", "forward_matches", "decay_both_forms"],
         edits=[(F_CAUSAL, "        causal = diff <= 0\n")]),
    dict(name="bug_step_read_before_update", kind="bug",
         about="step reads y from the old (S, z) and only then writes φ(k)vᵀ and φ(k) (0/0 at the first token)",
         should_lose=["update_order", "step_matches"],
         edits=[(S_S + S_Z + S_READ_COMMENT + S_NUM + S_DEN,
                 S_READ_COMMENT + S_NUM + S_DEN + S_S + S_Z)]),

    # ============================================================== bugs: decay
    dict(name="bug_step_z_not_decayed", kind="bug",
         about="step decays S but not z: z = z + φ(k)",
         should_lose=["decay_normalizer", "step_matches"],
         edits=[(S_Z, "        z = z + k\n")]),
    dict(name="bug_forward_z_not_decayed", kind="bug",
         about="forward's normalizer uses the undecayed masked scores (row sums of φ(q)·φ(k) without γ^(t-i))",
         should_lose=["decay_normalizer", "forward_matches"],
         edits=[(F_Y, "        y = (scores @ v) / ((q @ k.transpose(-2, -1)) * causal).sum(dim=-1, keepdim=True)\n")]),
    dict(name="bug_forward_no_decay", kind="bug",
         about="forward's exponent is built as (i - t).clamp(min=0), which is 0 on the causal side: every weight is 1",
         should_lose=["decay_both_forms", "forward_matches"],
         edits=[(F_W, "        weights = torch.exp(log_gamma[:, None, None] * (pos[None, :] - pos[:, None]).clamp(min=0)"
                      ".to(q.dtype)) * causal  # (H, T, T)\n")]),
    dict(name="bug_step_no_decay", kind="bug",
         about="step never applies γ: S = S + φ(k)vᵀ, z = z + φ(k)",
         should_lose=["decay_both_forms", "step_matches"],
         edits=[(S_S, "        S = S + k.unsqueeze(-1) * v.unsqueeze(-2)\n"), (S_Z, "        z = z + k\n")]),
    dict(name="bug_forward_one_minus_gamma", kind="bug",
         about="forward uses logsigmoid(-gamma_logit) = log(1 - γ) as the log-decay, i.e. (1-γ)^(t-i)",
         should_lose=["decay_both_forms", "forward_matches"],
         edits=[(F_LOGG, "        log_gamma = F.logsigmoid(-self.gamma_logit).to(q.dtype)  # (H,)\n")]),
    dict(name="bug_decay_exponent_key_pos", kind="bug",
         about="forward's decay exponent is the key position i instead of t - i (γ^i: older keys weigh more)",
         should_lose=["decay_both_forms", "forward_matches"],
         edits=[(F_W, "        weights = torch.exp(log_gamma[:, None, None] * pos[None, :].to(q.dtype)) * causal"
                      "  # (H, T, T)\n")]),
    dict(name="bug_step_sigmoid_missing", kind="bug",
         about="step decays with the raw gamma_logit instead of sigmoid(gamma_logit)",
         should_lose=["decay_both_forms", "step_matches"],
         edits=[(S_G, "        gamma = self.gamma_logit.to(S.dtype)\n")]),
    dict(name="bug_forward_sigmoid_doubled", kind="bug",
         about="forward takes logsigmoid of self.decay (already a sigmoid), so it uses sigmoid(sigmoid(logit))",
         should_lose=["decay_both_forms", "forward_matches"],
         edits=[(F_LOGG, "        log_gamma = F.logsigmoid(self.decay).to(q.dtype)  # (H,)\n")]),
    dict(name="bug_forward_decay_heads_reshape", kind="bug",
         about="forward builds the decay as (T, T, H) and .reshape()s it to (H, T, T) instead of permuting: "
               "per-head decays land on the wrong head/positions (exact only for H = 1)",
         should_lose=["decay_both_forms", "forward_matches"],
         edits=[(F_W, "        weights = torch.exp(diff.clamp(min=0).to(q.dtype)[..., None] * log_gamma).reshape(H, T, T)"
                      " * causal  # (H, T, T)\n")]),
    dict(name="bug_step_decay_after_write", kind="bug",
         about="step decays after the write, S = γ(S + φ(k)vᵀ), z = γ(z + φ(k)): outputs unchanged "
               "(γ cancels) but the returned state is γ times too small",
         should_lose=["step_matches"],
         edits=[(S_S, "        S = gamma.view(1, H, 1, 1) * (S + k.unsqueeze(-1) * v.unsqueeze(-2))\n"),
                (S_Z, "        z = gamma.view(1, H, 1) * (z + k)\n")]),

    # ============================================================== bugs: heads
    dict(name="bug_forward_split_no_transpose", kind="bug",
         about="forward splits heads with reshape(B, H, T, d_h) and no transpose (mixes tokens and heads)",
         should_lose=["head_split", "forward_matches", "causality"],
         edits=[(F_SPLIT, "            return t.reshape(B, H, T, d_h)\n")]),
    dict(name="bug_forward_merge_no_transpose", kind="bug",
         about="forward merges heads with y.reshape(B, T, D) straight from (B, H, T, d_h), no transpose",
         should_lose=["head_split", "forward_matches", "causality"],
         edits=[(F_MERGE, "        y = y.reshape(B, T, D)\n")]),
    dict(name="bug_step_split_interleaved", kind="bug",
         about="step splits heads as view(B, d_h, H).transpose(1, 2): head h gets channels h, h+H, ... "
               "(wrong head order), merge stays head-major",
         should_lose=["head_split", "step_matches"],
         edits=[(S_SPLIT, "            return t.reshape(B, d_h, H).transpose(1, 2)\n")]),
    dict(name="bug_step_merge_transposed", kind="bug",
         about="step merges heads as (B, H, d_h).transpose(1, 2).reshape(B, D): output channels interleaved",
         should_lose=["head_split", "step_matches"],
         edits=[(S_Y, "        y = (num / den).transpose(1, 2).reshape(B, D)\n")]),

    # ============================================================== bugs: normalizer / feature map
    dict(name="bug_forward_normalizer_wrong_axis", kind="bug",
         about="forward divides by column sums of the scores (sum over queries, dim=-2) instead of row sums",
         should_lose=["normalizer", "forward_matches", "causality"],
         edits=[(F_Y, "        y = (scores @ v) / scores.sum(dim=-2).unsqueeze(-1)\n")]),
    dict(name="bug_forward_no_normalizer", kind="bug",
         about="forward returns scores @ v without dividing by the row sums",
         should_lose=["normalizer", "forward_matches"],
         edits=[(F_Y, "        y = scores @ v\n")]),
    dict(name="bug_step_no_normalizer", kind="bug",
         about="step returns φ(q)ᵀS without dividing by φ(q)ᵀz",
         should_lose=["normalizer", "step_matches"],
         edits=[(S_Y, "        y = num.reshape(B, D)\n")]),
    dict(name="bug_step_z_uses_v", kind="bug",
         about="step accumulates v instead of φ(k) into z: z = γz + v",
         should_lose=["normalizer", "step_matches"],
         edits=[(S_Z, "        z = gamma.view(1, H, 1) * z + v\n")]),
    dict(name="bug_forward_eps_precedence", kind="bug",
         about="forward writes a / b + 1e-6 meaning a / (b + 1e-6): every output is shifted by 1e-6",
         should_lose=["forward_matches", "normalizer"],
         edits=[(F_Y, "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True) + 1e-6  # eps against 0/0\n")]),
    dict(name="bug_step_elu_no_plus_one", kind="bug",
         about="step uses F.elu(q), F.elu(k) as the feature map (no +1), forward uses feature_map",
         should_lose=["step_matches"],
         edits=[(S_Q, "        q = split(F.elu(self.q_proj(x_t)))\n"),
                (S_K, "        k = split(F.elu(self.k_proj(x_t)))\n")]),
    dict(name="bug_forward_feature_map_on_v", kind="bug",
         about="forward applies feature_map to v as well as to q and k",
         should_lose=["forward_matches"],
         edits=[(F_V, "        v = split(feature_map(self.v_proj(x)))\n")]),
    dict(name="bug_forward_qk_swapped", kind="bug",
         about="forward computes k @ qᵀ instead of q @ kᵀ (score[t, i] = φ(k_t)·φ(q_i))",
         should_lose=["forward_matches"],
         edits=[(F_SCORES, "        scores = (k @ q.transpose(-2, -1)) * weights\n")]),

    # ============================================================== bugs: state handling
    dict(name="bug_step_mutates_state", kind="bug",
         about="step updates the caller's S and z in place (mul_/add_) and returns the same tensors",
         should_lose=["lm_decoding"],
         edits=[(S_S, "        S = S.mul_(gamma.view(1, H, 1, 1)).add_(k.unsqueeze(-1) * v.unsqueeze(-2))\n"),
                (S_Z, "        z = z.mul_(gamma.view(1, H, 1)).add_(k)\n")]),
    dict(name="bug_step_ignores_state", kind="bug",
         about="step always starts from init_state, ignoring the (S, z) it is given (so y_t = out_proj(v_proj(x_t)))",
         should_lose=["step_matches", "lm_decoding", "step_cost", "ex1_benchmark", "ex2_comparison", "ex4_decay"],
         edits=[(S_STATE, "        S, z = self.init_state(B, device=x_t.device, dtype=x_t.dtype)\n")]),
    dict(name="bug_step_returns_old_state", kind="bug",
         about="step computes the new (S, z) but returns the state it was given (so y_t = out_proj(v_proj(x_t)))",
         should_lose=["step_matches", "lm_decoding", "step_cost", "ex1_benchmark", "ex2_comparison", "ex4_decay"],
         edits=[(S_RET, "        return self.out_proj(y), state\n")]),
    dict(name="bug_step_state_transposed", kind="bug",
         about="step stores S as v φ(k)ᵀ (d_v × d_k, the transpose) and reads S @ φ(q): outputs right, "
               "returned state in the wrong layout",
         should_lose=["step_matches"],
         edits=[(S_S, "        S = gamma.view(1, H, 1, 1) * S + v.unsqueeze(-1) * k.unsqueeze(-2)\n"),
                (S_NUM, "        num = (S @ q.unsqueeze(-1)).squeeze(-1)  # (B, H, d_h)\n")]),

    # ============================================================== bugs: batch
    dict(name="bug_step_einsum_sums_batch", kind="bug",
         about="step's outer product is einsum('bhd,bhe->hde'): φ(k)vᵀ summed over the batch into every sequence",
         should_lose=["batch_isolation", "step_matches"],
         edits=[(S_S, "        S = gamma.view(1, H, 1, 1) * S + torch.einsum(\"bhd,bhe->hde\", k, v)\n")]),
    dict(name="bug_forward_einsum_sums_batch", kind="bug",
         about="forward's scores are einsum('bhtd,bhsd->hts'): one score matrix summed over the batch",
         should_lose=["batch_isolation", "forward_matches"],
         edits=[(F_SCORES, "        scores = torch.einsum(\"bhtd,bhsd->hts\", q, k) * weights\n")]),

    # ============================================================== bugs: input classes
    dict(name="bug_step_squeeze_batch_one", kind="bug",
         about="step starts with x_t = x_t.squeeze() 'to accept (B, 1, D)': crashes for batch size 1",
         should_lose=["step_matches", "step_cost", "ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"],
         edits=[(S_HEAD, "        x_t = x_t.squeeze()  # also accept (B, 1, D)\n" + S_HEAD)]),
    dict(name="bug_forward_squeeze_normalizer", kind="bug",
         about="forward divides by scores.sum(-1).squeeze().unsqueeze(-1): wrong broadcast, crashes for a "
               "single token or a single head when B > 1",
         should_lose=["forward_matches"],
         edits=[(F_Y, "        y = (scores @ v) / scores.sum(dim=-1).squeeze().unsqueeze(-1)\n")]),
    dict(name="bug_forward_view_noncontiguous", kind="bug",
         about="forward flattens x with x.view(B * T, D) before the projections: crashes on non-contiguous x",
         should_lose=["forward_matches"],
         edits=[(F_Q, "        q = split(feature_map(self.q_proj(x.view(B * T, D))))\n"),
                (F_K, "        k = split(feature_map(self.k_proj(x.view(B * T, D))))\n"),
                (F_V, "        v = split(self.v_proj(x.view(B * T, D)))\n")]),
    dict(name="bug_forward_mask_cache_256", kind="bug",
         about="forward slices a fixed 256 × 256 causal mask: fails for T > 256",
         should_lose=["long_sequences"],
         edits=[(F_CAUSAL, "        causal = torch.ones(256, 256, dtype=torch.bool, device=x.device).tril()[:T, :T]"
                           "  # enough for our sequences\n")]),
    dict(name="bug_forward_pow_overflow", kind="bug",
         about="forward computes γ ** (t - i) over the full T × T grid then masks: the upper triangle overflows "
               "to inf for long T and inf·0 = NaN",
         should_lose=["long_sequences"],
         edits=[(F_W, "        weights = torch.sigmoid(self.gamma_logit).to(q.dtype)[:, None, None] ** diff.to(q.dtype)"
                      " * causal  # (H, T, T)\n")]),

    # ============================================================== bugs: dtype
    dict(name="bug_forward_weights_fp16", kind="bug",
         about="forward casts the decay weights to float16 'to save memory' (≈1e-3 relative error)",
         should_lose=["forward_matches"],
         edits=[(F_W, "        weights = (torch.exp(log_gamma[:, None, None] * diff.clamp(min=0).to(q.dtype)) * causal)"
                      ".half()  # (H, T, T)\n")]),
    dict(name="bug_step_state_fp16", kind="bug",
         about="step returns (S, z) cast to float16 'to halve the state' (precision lost every step)",
         should_lose=["step_matches"],
         edits=[(S_RET, "        return self.out_proj(y), (S.half(), z.half())  # fp16 state: half the memory\n")]),

    # ============================================================== bugs: cost
    dict(name="bug_step_history_list", kind="bug",
         about="step appends every x_t to a Python list carried in the state (S, z, history): memory grows with T",
         should_lose=["step_cost", "step_matches"],
         edits=[(S_STATE, "        S, z = state[0], state[1]\n"
                          "        history = list(state[2]) if len(state) > 2 else []  # every token seen so far\n"),
                (S_RET, "        history.append(x_t.detach())\n        return self.out_proj(y), (S, z, history)\n")]),
    dict(name="bug_step_resum_history", kind="bug",
         about="step keeps all past φ(k), v in the state and re-sums Σ γ^(t-i) φ(k_i)v_iᵀ every call (O(t) per step)",
         should_lose=["step_cost", "step_matches"],
         edits=[(S_STATE, "        S, z = state[0], state[1]\n"),
                (S_S + S_Z,
                 "        if len(state) > 2:  # (S, z, K, V): every past key and value\n"
                 "            K = torch.cat([state[2], k[:, :, None]], dim=2)\n"
                 "            V = torch.cat([state[3], v[:, :, None]], dim=2)\n"
                 "        else:\n"
                 "            K, V = k[:, :, None], v[:, :, None]\n"
                 "        ages = torch.arange(K.shape[2] - 1, -1, -1, device=x_t.device).to(K.dtype)  # t - i\n"
                 "        w = torch.exp(F.logsigmoid(self.gamma_logit).to(K.dtype)[:, None] * ages)  # (H, t)\n"
                 "        S = torch.einsum(\"hn,bhnd,bhne->bhde\", w, K, V)  # re-sum every past φ(k)vᵀ\n"
                 "        z = torch.einsum(\"hn,bhnd->bhd\", w, K)\n"),
                (S_RET, "        return self.out_proj(y), (S, z, K, V)\n")]),
    dict(name="bug_step_forward_over_history", kind="bug",
         about="step keeps every input x in the state and returns forward(history)[:, -1] each call (O(t²) per step)",
         should_lose=["step_cost", "step_matches"],
         edits=[(S_STATE, "        S, z = state[0], state[1]\n"
                          "        X = torch.cat([state[2], x_t[:, None]], dim=1) if len(state) > 2 else x_t[:, None]\n"),
                (S_RET, "        return self.forward(X)[:, -1], (S, z, X)  # exact: reuse the parallel form\n")]),

    # ============================================================== bugs: misc
    dict(name="bug_step_no_out_proj", kind="bug",
         about="step returns y without out_proj (forward applies it)",
         should_lose=["step_matches"],
         edits=[(S_RET, "        return y, (S, z)\n")]),

    # ============================================================== alternatives
    dict(name="alt_loop_over_heads", kind="alternative",
         about="forward loops over heads, one (B, T, T) score matrix per head, then stacks",
         should_lose=[],
         edits=[(F_SCORES + "        # 4. y = (scores @ v) / (row sums of scores) — the normalizer φ(q_t)ᵀ z_t.\n" + F_Y,
                 "        # 4. per head: y_h = (scores_h @ v_h) / row sums, the normalizer φ(q_t)ᵀ z_t.\n"
                 "        ys = []\n"
                 "        for h in range(H):\n"
                 "            scores_h = (q[:, h] @ k[:, h].transpose(-2, -1)) * weights[h]  # (B, T, T)\n"
                 "            ys.append((scores_h @ v[:, h]) / scores_h.sum(dim=-1, keepdim=True))\n"
                 "        y = torch.stack(ys, dim=1)  # (B, H, T, d_h)\n")]),
    dict(name="alt_einsum", kind="alternative",
         about="both forms written with torch.einsum instead of matmul/broadcasting",
         should_lose=[],
         edits=[(F_SCORES, "        scores = torch.einsum(\"bhtd,bhsd->bhts\", q, k) * weights\n"),
                (F_Y, "        y = torch.einsum(\"bhts,bhsd->bhtd\", scores, v) / torch.einsum(\"bhts->bht\", scores)[..., None]\n"),
                (S_S, "        S = torch.einsum(\"h,bhde->bhde\", gamma, S) + torch.einsum(\"bhd,bhe->bhde\", k, v)\n"),
                (S_Z, "        z = torch.einsum(\"h,bhd->bhd\", gamma, z) + k\n"),
                (S_NUM, "        num = torch.einsum(\"bhd,bhde->bhe\", q, S)  # (B, H, d_h)\n"),
                (S_DEN, "        den = torch.einsum(\"bhd,bhd->bh\", q, z)[..., None]  # (B, H, 1)\n")]),
    dict(name="alt_pow_decay", kind="alternative",
         about="forward's weights are sigmoid(logit) ** (t-i).clamp(min=0) (non-negative exponents only), then masked",
         should_lose=[],
         edits=[(F_W, "        weights = torch.sigmoid(self.gamma_logit).to(q.dtype)[:, None, None] ** "
                      "diff.clamp(min=0).to(q.dtype) * causal  # (H, T, T)\n")]),
    dict(name="alt_logspace_masked_fill", kind="alternative",
         about="forward builds log-weights (t-i)·log γ, masks them with -inf via masked_fill, then exp",
         should_lose=[],
         edits=[(F_W, "        weights = torch.exp((log_gamma[:, None, None] * diff.to(q.dtype)).masked_fill(~causal, "
                      "float(\"-inf\")))  # (H, T, T)\n")]),
    dict(name="alt_float64_internals", kind="alternative",
         about="both forms compute scores/reads in float64 and cast the result back to the input dtype",
         should_lose=[],
         edits=[(F_V, F_V + "        q, k, v = q.double(), k.double(), v.double()  # float64 internals\n"),
                (F_MERGE, "        y = y.transpose(1, 2).reshape(B, T, D).to(x.dtype)\n"),
                (S_NUM, "        num = (q.double().unsqueeze(-2) @ S.double()).squeeze(-2)  # (B, H, d_h), float64\n"),
                (S_DEN, "        den = (q.double() * z.double()).sum(dim=-1, keepdim=True)  # (B, H, 1)\n"),
                (S_Y, "        y = (num / den).reshape(B, D).to(x_t.dtype)\n")]),
    dict(name="alt_chunked_forward", kind="alternative",
         about="forward is chunkwise (16-token chunks: decayed scores inside a chunk, a carried (S, z) between chunks)",
         should_lose=[],
         edits=[(F_STEPS_2_4,
                 "        # 2-4, chunkwise: exact decayed scores inside chunks of C tokens, (S, z) carried between them\n"
                 "        C = 16\n"
                 "        log_gamma = F.logsigmoid(self.gamma_logit).to(q.dtype)  # (H,)\n"
                 "        S = q.new_zeros(B, H, d_h, d_h)\n"
                 "        z = q.new_zeros(B, H, d_h)\n"
                 "        ys = []\n"
                 "        for start in range(0, T, C):\n"
                 "            qc, kc, vc = q[:, :, start:start + C], k[:, :, start:start + C], v[:, :, start:start + C]\n"
                 "            n = qc.shape[2]\n"
                 "            pos = torch.arange(n, device=x.device)\n"
                 "            diff = pos[:, None] - pos[None, :]\n"
                 "            intra = torch.exp(log_gamma[:, None, None] * diff.clamp(min=0).to(q.dtype)) * (diff >= 0)\n"
                 "            scores = (qc @ kc.transpose(-2, -1)) * intra  # (B, H, n, n)\n"
                 "            carry = torch.exp(log_gamma[:, None] * (pos + 1).to(q.dtype))  # (H, n): γ^(j+1)\n"
                 "            num = scores @ vc + carry[None, :, :, None] * (qc @ S)\n"
                 "            den = scores.sum(dim=-1) + carry[None] * (qc * z[:, :, None]).sum(dim=-1)  # (B, H, n)\n"
                 "            ys.append(num / den[..., None])\n"
                 "            tail = torch.exp(log_gamma[:, None] * (n - 1 - pos).to(q.dtype))[None, :, :, None]  # γ^(n-1-j)\n"
                 "            whole = torch.exp(log_gamma * n)  # (H,): γ^n\n"
                 "            S = whole[None, :, None, None] * S + (kc * tail).transpose(-2, -1) @ vc\n"
                 "            z = whole[None, :, None] * z + (kc * tail).sum(dim=2)\n"
                 "        y = torch.cat(ys, dim=2)  # (B, H, T, d_h)\n")]),
    dict(name="alt_namedtuple_state", kind="alternative",
         about="step returns its state as a NamedTuple LinearState(S, z) (still a 2-tuple (S, z))",
         should_lose=[],
         edits=[("State = tuple[torch.Tensor, torch.Tensor]  # (S, z): (B, H, d_h, d_h), (B, H, d_h)\n",
                 "State = tuple[torch.Tensor, torch.Tensor]  # (S, z): (B, H, d_h, d_h), (B, H, d_h)\n\n\n"
                 "class LinearState(NamedTuple):\n"
                 "    \"\"\"The (S, z) memory as a named 2-tuple: unpacks and indexes like (S, z).\"\"\"\n\n"
                 "    S: torch.Tensor  # (B, H, d_h, d_h)\n"
                 "    z: torch.Tensor  # (B, H, d_h)\n"),
                ("from __future__ import annotations\n\n",
                 "from __future__ import annotations\n\nfrom typing import NamedTuple\n\n"),
                (S_RET, "        return self.out_proj(y), LinearState(S, z)\n")]),
    dict(name="alt_clone_inplace_step", kind="alternative",
         about="step clones the given state and updates the clone in place (mul_/addcmul_), leaving the input untouched",
         should_lose=[],
         edits=[(S_S, "        S = S.clone().mul_(gamma.view(1, H, 1, 1)).addcmul_(k.unsqueeze(-1), v.unsqueeze(-2))\n"),
                (S_Z, "        z = z.clone().mul_(gamma.view(1, H, 1)).add_(k)\n")]),

    # ============================================================== stubs
    dict(name="stub_randn", kind="stub",
         about="forward and step return torch.randn of the right shape (step returns the empty state)",
         should_lose=ALL_CODE + ALL_EX,
         edits=[(F_BODY, "        return torch.randn(x.shape, dtype=x.dtype, device=x.device)\n"),
                (S_BODY, "        B, D = x_t.shape\n"
                         "        if state is None:\n"
                         "            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)\n"
                         "        return torch.randn(B, D, dtype=x_t.dtype, device=x_t.device), state\n")]),
    dict(name="stub_zeros", kind="stub",
         about="forward and step return zeros of the right shape (step returns the empty state)",
         should_lose=ALL_CODE + ALL_EX,
         edits=[(F_BODY, "        return torch.zeros_like(x)\n"),
                (S_BODY, "        B, D = x_t.shape\n"
                         "        if state is None:\n"
                         "            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)\n"
                         "        return torch.zeros_like(x_t), state\n")]),
    dict(name="stub_identity", kind="stub",
         about="forward returns x unchanged; step returns x_t and the state unchanged",
         should_lose=ALL_CODE + ALL_EX,
         edits=[(F_BODY, "        return x\n"),
                (S_BODY, "        if state is None:\n"
                         "            state = self.init_state(x_t.shape[0], device=x_t.device, dtype=x_t.dtype)\n"
                         "        return x_t, state\n")]),
    dict(name="stub_out_proj_v_proj", kind="stub",
         about="forward returns out_proj(v_proj(x)); step returns out_proj(v_proj(x_t)) and the empty state",
         should_lose=ALL_CODE + ALL_EX,
         edits=[(F_BODY, "        return self.out_proj(self.v_proj(x))\n"),
                (S_BODY, "        if state is None:\n"
                         "            state = self.init_state(x_t.shape[0], device=x_t.device, dtype=x_t.dtype)\n"
                         "        return self.out_proj(self.v_proj(x_t)), state\n")]),
]


def apply(src: str, edits) -> str:
    for old, new in edits:
        n = src.count(old)
        if n != 1:
            raise SystemExit(f"replacement matched {n} times (expected 1): {old[:80]!r}")
        src = src.replace(old, new)
    return src


def main() -> None:
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    for case in CASES:
        if case["name"] == "base":
            continue
        new_src = apply(SRC, case["edits"])
        assert new_src != SRC, case["name"]
        dest = HERE / case["name"]
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(BASE, dest, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        (dest / TARGET).write_text(new_src)
    entries = []
    for case in CASES:
        ids = {"forward_matches", "step_matches", "normalizer", "update_order", "decay_both_forms",
               "decay_normalizer", "head_split", "batch_isolation", "causality", "long_sequences",
               "lm_decoding", "step_cost", "ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"}
        assert set(case["should_lose"]) <= ids, case["name"]
        if case["kind"] == "bug":
            assert case["should_lose"], case["name"]
        entries.append({"name": case["name"], "kind": case["kind"], "about": case["about"],
                        "should_lose": list(case["should_lose"])})
    with open(HERE / "corpus.yaml", "w") as fh:
        yaml.safe_dump(entries, fh, sort_keys=False, allow_unicode=True, width=200)
    counts = {}
    for c in CASES:
        counts[c["kind"]] = counts.get(c["kind"], 0) + 1
    print(counts)


if __name__ == "__main__":
    main()
