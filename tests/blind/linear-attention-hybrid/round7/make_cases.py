"""Generate the round-7 blind cases: each folder is a copy of base/ with exactly one change.

Run from anywhere: python make_cases.py   (rewrites every case folder and corpus.yaml)
"""
import json
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
TEMPLATE = HERE.parents[3] / "student_template" / "linear-attention-hybrid"
ATT = "g2c/linear_attention/attention.py"
NB = "linear_attention_hybrid.ipynb"

# ---- anchors in base's attention.py (each must occur exactly once)
F_K = "        k = feature_map(self.k_proj(x))\n"
F_V = "        v = self.v_proj(x)\n"
F_SPLIT = "        q, k, v = (t.view(B, T, H, d_h).transpose(1, 2) for t in (q, k, v))\n"
F_SHAPE = "        B, T, D = x.shape\n"
F_DIST = "        dist = (pos[:, None] - pos[None, :]).to(x.dtype)  # (T, T): t - i\n"
F_CAUSAL = "        causal = pos[:, None] >= pos[None, :]  # (T, T): i <= t, the diagonal included\n"
F_LOGG = "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,) log γ_h, finite even for γ -> 1\n"
F_EXP = '        exponent = (log_gamma[:, None, None] * dist).masked_fill(~causal, float("-inf"))\n'
F_W = "        weights = torch.exp(exponent)  # (H, T, T)\n"
F_SC = "        scores = (q @ k.transpose(-2, -1)) * weights  # (B, H, T, T)\n"
F_Y = "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)  # (B, H, T, d_h)\n"
F_MERGE = "        y = y.transpose(1, 2).reshape(B, T, D)\n"

S_Q = "        q = feature_map(self.q_proj(x_t))\n"
S_STATE = "        S, z = state\n"
S_SPLIT = "        q, k, v = (t.view(B, H, d_h) for t in (q, k, v))\n"
S_G = "        gamma = self.decay.to(x_t.dtype)  # (H,)\n"
S_S = "        S = gamma[None, :, None, None] * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)\n"
S_Z = "        z = gamma[None, :, None] * z + k  # (B, H, d_h)\n"
S_UPD_COMMENT = "        # 3. update first (new tensors: the caller's state is left untouched)\n"
S_READ_COMMENT = "        # 4. then read\n"
S_NUM = '        num = torch.einsum("bhd,bhde->bhe", q, S)  # φ(q)ᵀ S: (B, H, d_h)\n'
S_DEN = "        den = (q * z).sum(dim=-1, keepdim=True)  # φ(q)ᵀ z: (B, H, 1)\n"
S_Y = "        y = (num / den).reshape(B, D)\n"
S_RET = "        return self.out_proj(y), (S, z)\n"

BILL_GQA = "gqa8_cache_one_layer: 4,096,000,000 B"
BILL_LIN = "linear_state_one_layer: 1,056,768 B"
BILL_GROWS = "grows_with_t: b"

CODE_ITEMS = ["forward_matches", "step_matches", "normalizer", "update_order", "decay_both_forms",
              "decay_normalizer", "head_split", "batch_isolation", "causality", "long_sequences",
              "lm_decoding", "step_cost"]
EX_ITEMS = ["ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"]

CASES = []


def case(name, kind, about, should_lose, edits=(), whole_file=None):
    CASES.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=list(edits),
                      whole_file=whole_file))


# ============================================================ bugs: forward
case("bug_fwd_no_normalizer", "bug", "forward returns scores @ v without dividing by the row sums (φ(q)·z)",
     ["forward_matches", "normalizer"], [(ATT, F_Y, "        y = scores @ v  # (B, H, T, d_h)\n")])
case("bug_fwd_normalizer_column_sums", "bug",
     "forward divides by column sums of the decayed scores (sum over queries, dim=-2) instead of row sums",
     ["forward_matches", "normalizer", "causality"],
     [(ATT, F_Y, "        y = (scores @ v) / scores.sum(dim=-2).unsqueeze(-1)  # (B, H, T, d_h)\n")])
case("bug_fwd_mask_excludes_diagonal", "bug",
     "forward's causal mask is strict (i < t), so token t does not see itself and row 0 is 0/0",
     ["forward_matches", "update_order", "ex2_comparison"],
     [(ATT, F_CAUSAL, "        causal = pos[:, None] > pos[None, :]  # (T, T): strictly earlier tokens\n")])
case("bug_fwd_decay_exponent_sign", "bug",
     "forward uses i - t instead of t - i in the exponent, so older tokens are amplified (overflows at long T)",
     ["forward_matches", "decay_both_forms", "long_sequences"],
     [(ATT, F_DIST, "        dist = (pos[None, :] - pos[:, None]).to(x.dtype)  # (T, T)\n")])
case("bug_fwd_pow_then_mask", "bug",
     "forward computes γ**(t-i) for all pairs then multiplies by the mask: γ^-(large) overflows to inf, inf*0 = NaN on long sequences with quick decays",
     ["long_sequences"],
     [(ATT, F_EXP + F_W,
       "        gamma = torch.sigmoid(self.gamma_logit).to(x.dtype)  # (H,)\n"
       "        weights = gamma[:, None, None] ** dist * causal  # (H, T, T)\n")])
case("bug_fwd_factorized_decay_overflow", "bug",
     "forward factorizes γ^(t-i) = γ^t · γ^-i; both factors under/overflow on long sequences (0 * inf = NaN)",
     ["long_sequences"],
     [(ATT, F_EXP + F_W,
       "        pos_f = pos.to(x.dtype)\n"
       "        decay_t = torch.exp(log_gamma[:, None] * pos_f)  # (H, T): γ^t\n"
       "        decay_i = torch.exp(-log_gamma[:, None] * pos_f)  # (H, T): γ^-i\n"
       "        weights = decay_t[:, :, None] * decay_i[:, None, :] * causal  # (H, T, T)\n")])
case("bug_fwd_merge_heads_without_transpose", "bug",
     "forward merges heads with y.reshape(B, T, D) straight from (B, H, T, d_h): channels and tokens mix (fine for H=1)",
     ["forward_matches", "head_split", "causality"],
     [(ATT, F_MERGE, "        y = y.reshape(B, T, D)\n")])
case("bug_fwd_feature_map_on_v", "bug", "forward applies φ to v as well as to q and k",
     ["forward_matches"], [(ATT, F_V, "        v = feature_map(self.v_proj(x))\n")])
case("bug_fwd_no_decay", "bug", "forward uses only the causal mask as weights: no γ^(t-i) decay at all (γ=1 tests pass)",
     ["forward_matches", "decay_both_forms"],
     [(ATT, F_W, "        weights = causal.to(x.dtype).expand(H, T, T)  # (H, T, T)\n")])
case("bug_fwd_normalizer_undecayed", "bug",
     "forward decays the numerator but divides by undecayed row sums of φ(q)·φ(k) (z not decayed in parallel form)",
     ["forward_matches", "decay_normalizer"],
     [(ATT, F_Y, "        y = (scores @ v) / ((q @ k.transpose(-2, -1)) * causal).sum(dim=-1, keepdim=True)  # (B, H, T, d_h)\n")])
case("bug_fwd_weights_float32", "bug",
     "forward computes the decay weights in float32 (exponent.float()), losing precision for float64 inputs",
     ["forward_matches"],
     [(ATT, F_W, "        weights = torch.exp(exponent.float())  # (H, T, T)\n")])
case("bug_fwd_symmetric_decay_no_mask", "bug",
     "forward uses γ^|t-i| with no causal mask (abs() to avoid overflow): future tokens leak in",
     ["forward_matches", "causality"],
     [(ATT, F_EXP, "        exponent = log_gamma[:, None, None] * dist.abs()  # |t - i| keeps the exponent <= 0\n")])
case("bug_fwd_view_input_noncontiguous", "bug",
     "forward flattens the input with x.view(B * T, D) before projecting: raises on non-contiguous inputs",
     ["forward_matches"],
     [(ATT, F_SHAPE, F_SHAPE + "        x = x.view(B * T, D)  # Linear on a 2-D matrix\n")])
case("bug_fwd_squeeze_output", "bug",
     "forward squeezes the merged output: (1, T, D) becomes (T, D) for a batch of one, (B, 1, D) becomes (B, D) for one token",
     ["forward_matches"],
     [(ATT, F_MERGE, "        y = y.transpose(1, 2).reshape(B, T, D).squeeze()\n")])
case("bug_fwd_detach_keys", "bug", "forward detaches φ(k): outputs right, no gradient reaches k_proj or x through the keys",
     ["forward_matches"], [(ATT, F_K, "        k = feature_map(self.k_proj(x)).detach()\n")])
case("bug_fwd_no_grad_decay", "bug",
     "forward builds the decay weights under torch.no_grad(): γ (gamma_logit) never receives a gradient",
     ["forward_matches"],
     [(ATT, F_LOGG + F_EXP + F_W,
       "        with torch.no_grad():  # the weights are just a mask\n"
       "            log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)\n"
       '            exponent = (log_gamma[:, None, None] * dist).masked_fill(~causal, float("-inf"))\n'
       "            weights = torch.exp(exponent)  # (H, T, T)\n")])
case("bug_fwd_inplace_mask_after_exp", "bug",
     "forward masks with weights.masked_fill_ after torch.exp: outputs right, backward raises (exp's output modified in place)",
     ["forward_matches", "causality", "ex2_comparison", "ex3_recall"],
     [(ATT, F_EXP + F_W,
       "        weights = torch.exp(log_gamma[:, None, None] * dist)  # (H, T, T)\n"
       "        weights.masked_fill_(~causal, 0.0)  # zero the future\n")])

# ============================================================ bugs: step
case("bug_step_read_before_update", "bug", "step reads y from the old (S, z) and only then adds token t (0/0 at t=0, one-token shift)",
     ["step_matches", "update_order"],
     [(ATT, S_UPD_COMMENT + S_S + S_Z + S_READ_COMMENT + S_NUM + S_DEN,
       S_READ_COMMENT + S_NUM + S_DEN + S_UPD_COMMENT + S_S + S_Z)])
case("bug_step_z_not_decayed", "bug", "step decays S but not z (z = z + φ(k))",
     ["step_matches", "decay_normalizer"], [(ATT, S_Z, "        z = z + k  # (B, H, d_h)\n")])
case("bug_step_no_decay", "bug", "step never applies γ: S = S + φ(k)vᵀ, z = z + φ(k)",
     ["step_matches", "decay_both_forms"],
     [(ATT, S_S + S_Z, "        S = S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)\n"
                       "        z = z + k  # (B, H, d_h)\n")])
case("bug_step_decay_after_write", "bug",
     "step decays after adding the new token (S = γ(S + φ(k)vᵀ)): outputs unchanged (ratio), returned state off by γ",
     ["step_matches"],
     [(ATT, S_S + S_Z, "        S = gamma[None, :, None, None] * (S + k.unsqueeze(-1) * v.unsqueeze(-2))  # (B, H, d_h, d_h)\n"
                       "        z = gamma[None, :, None] * (z + k)  # (B, H, d_h)\n")])
case("bug_step_one_gamma_for_all_heads", "bug", "step uses the mean γ over heads for every head (right only when H=1)",
     ["step_matches", "decay_both_forms"],
     [(ATT, S_G, "        gamma = self.decay.mean().to(x_t.dtype).expand(H)  # (H,)\n")])
case("bug_step_mutates_state", "bug", "step updates the caller's S and z in place (mul_/add_) instead of new tensors",
     ["lm_decoding"],
     [(ATT, S_S + S_Z, "        S = S.mul_(gamma[None, :, None, None]).add_(k.unsqueeze(-1) * v.unsqueeze(-2))\n"
                       "        z = z.mul_(gamma[None, :, None]).add_(k)\n")])
case("bug_step_returns_input_state", "bug", "step returns the state it was given, not the updated (S, z): decoding forgets history",
     ["step_matches", "lm_decoding", "step_cost"],
     [(ATT, S_RET, "        return self.out_proj(y), state\n")])
case("bug_step_ignores_incoming_state", "bug", "step unpacks the state and then overwrites it with a fresh init_state every call",
     ["step_matches", "lm_decoding", "step_cost"],
     [(ATT, S_STATE, S_STATE + "        S, z = self.init_state(B, device=x_t.device, dtype=x_t.dtype)\n")])
case("bug_step_state_order_swapped", "bug", "step returns (z, S) instead of (S, z): the next call unpacks them the wrong way round",
     ["step_matches", "lm_decoding", "step_cost", "ex2_comparison", "ex3_recall", "ex4_decay"],
     [(ATT, S_RET, "        return self.out_proj(y), (z, S)\n")])
case("bug_step_head_split_transposed", "bug", "step splits heads as view(B, d_h, H).transpose(1, 2): channels mixed across heads (fine for H=1)",
     ["step_matches", "head_split"],
     [(ATT, S_SPLIT, "        q, k, v = (t.view(B, d_h, H).transpose(1, 2) for t in (q, k, v))\n")])
case("bug_step_outer_sums_batch", "bug", "step's outer product einsum drops the batch index (bhd,bhe->hde): writes summed over the batch",
     ["step_matches", "batch_isolation"],
     [(ATT, S_S, '        S = gamma[None, :, None, None] * S + torch.einsum("bhd,bhe->hde", k, v)  # (B, H, d_h, d_h)\n')])
case("bug_step_q_without_feature_map", "bug", "step forgets φ on q (raw projection used in numerator and normalizer)",
     ["step_matches"], [(ATT, S_Q, "        q = self.q_proj(x_t)\n")])
case("bug_step_normalizer_without_q", "bug", "step divides by sum(z) instead of φ(q)·z",
     ["step_matches", "normalizer"], [(ATT, S_DEN, "        den = z.sum(dim=-1, keepdim=True)  # (B, H, 1)\n")])

# ============================================================ bugs: step cost
case("bug_step_cost_cat_history", "bug",
     "step also keeps every token seen so far in self._history via torch.cat (unused; a growing copy each call)",
     ["step_cost", "step_matches"],
     [(ATT, S_STATE, S_STATE +
       "        if not z.any() or not hasattr(self, \"_history\"):  # an empty memory: a new sequence starts\n"
       "            self._history = x_t.new_zeros(B, 0, D)\n"
       "        self._history = torch.cat([self._history, x_t[:, None]], dim=1)  # every token so far\n")])
case("bug_step_cost_resum_history", "bug",
     "step keeps all keys/values and rebuilds (S, z) each call as Σ γ^(t-i) φ(k_i) v_iᵀ over the whole history",
     ["step_cost", "step_matches"],
     [(ATT, S_S + S_Z,
       "        if not z.any() or not hasattr(self, \"_kv\"):  # an empty memory: a new sequence starts\n"
       "            self._kv = (k.new_zeros(B, H, 0, d_h), v.new_zeros(B, H, 0, d_h))\n"
       "        K = torch.cat([self._kv[0], k[:, :, None]], dim=2)  # (B, H, t, d_h)\n"
       "        V = torch.cat([self._kv[1], v[:, :, None]], dim=2)\n"
       "        self._kv = (K, V)\n"
       "        n = K.shape[2]\n"
       "        ages = torch.arange(n - 1, -1, -1, device=x_t.device, dtype=x_t.dtype)  # t - i\n"
       "        powers = (gamma[:, None] ** ages).expand(B, H, n)  # (B, H, t)\n"
       "        S = torch.einsum(\"bhi,bhid,bhie->bhde\", powers, K, V)  # exact, no drift\n"
       "        z = torch.einsum(\"bhi,bhid->bhd\", powers, K)\n")])
case("bug_step_cost_forward_over_history", "bug",
     "step keeps the tokens so far and returns forward(history)[:, -1] each call (state still updated)",
     ["step_cost", "step_matches"],
     [(ATT, S_NUM + S_DEN + S_Y + S_RET,
       "        if not state[1].any() or not hasattr(self, \"_seen\"):  # an empty memory: a new sequence starts\n"
       "            self._seen = x_t.new_zeros(B, 0, D)\n"
       "        self._seen = torch.cat([self._seen, x_t[:, None]], dim=1)  # (B, t, D)\n"
       "        return self.forward(self._seen)[:, -1], (S, z)  # the checked parallel form gives the read\n")])

# ============================================================ bugs: Exercise 5 answers
case("bug_nb_window_grows", "bug", "Exercise 5 says the sliding-window cache grows with T too (option c)",
     ["bill_grows"], [(NB, BILL_GROWS, "grows_with_t: c")])
case("bug_nb_linear_state_without_z", "bug", "Exercise 5 linear state counts S only (H·d_h² values), forgetting z",
     ["bill_linear"], [(NB, BILL_LIN, "linear_state_one_layer: 1,048,576 B")])
case("bug_nb_gqa_divided_by_8", "bug", "Exercise 5 GQA-8 cache taken as the MHA cache divided by 8 (not by H/8)",
     ["bill_gqa8"], [(NB, BILL_GQA, "gqa8_cache_one_layer: 2,048,000,000 B")])

# ============================================================ alternatives
case("alt_forward_scan_loop", "alternative", "forward runs the recurrence in a Python loop over t (vectorized over B, H) instead of the T × T matrix",
     [], [(ATT, F_DIST + F_CAUSAL + F_LOGG + F_EXP + F_W + "        # 3. decayed scores\n" + F_SC
           + "        # 4. normalize by the row sums: φ(q_t)ᵀ z_t\n" + F_Y,
           "        gamma = self.decay.to(x.dtype)  # (H,)\n"
           "        S = x.new_zeros(B, H, d_h, d_h)\n"
           "        z = x.new_zeros(B, H, d_h)\n"
           "        ys = []\n"
           "        for t in range(T):\n"
           "            S = gamma[:, None, None] * S + k[:, :, t, :, None] * v[:, :, t, None, :]\n"
           "            z = gamma[:, None] * z + k[:, :, t]\n"
           "            ys.append(torch.einsum(\"bhd,bhde->bhe\", q[:, :, t], S) / (q[:, :, t] * z).sum(-1, keepdim=True))\n"
           "        y = torch.stack(ys, dim=2)  # (B, H, T, d_h)\n")])
case("alt_einsum_everywhere", "alternative", "forward and step written with einsum for every product",
     [], [(ATT, F_SC + "        # 4. normalize by the row sums: φ(q_t)ᵀ z_t\n" + F_Y,
           "        scores = torch.einsum(\"bhtd,bhsd->bhts\", q, k) * weights\n"
           "        num = torch.einsum(\"bhts,bhsd->bhtd\", scores, v)\n"
           "        y = num / torch.einsum(\"bhts->bht\", scores)[..., None]\n"),
          (ATT, S_S, "        S = gamma[None, :, None, None] * S + torch.einsum(\"bhd,bhe->bhde\", k, v)\n"),
          (ATT, S_DEN, "        den = torch.einsum(\"bhd,bhd->bh\", q, z)[..., None]\n")])
case("alt_where_clamped_pow", "alternative", "forward builds weights as torch.where(mask, γ ** clamp(t-i, min=0), 0)",
     [], [(ATT, F_EXP + F_W,
           "        gamma = self.decay.to(x.dtype)[:, None, None]  # (H, 1, 1)\n"
           "        weights = torch.where(causal, gamma ** dist.clamp(min=0), torch.zeros((), dtype=x.dtype, device=x.device))\n")])
case("alt_normalize_then_matmul", "alternative", "forward normalizes the score rows first (attention weights), then multiplies by v",
     [], [(ATT, F_Y, "        attn = scores / scores.sum(dim=-1, keepdim=True)  # each row sums to 1\n"
                     "        y = attn @ v  # (B, H, T, d_h)\n")])
case("alt_step_matmul_views", "alternative", "step with explicit matmuls (k vᵀ as (d,1)@(1,d), reads as (1,d)@S) and view-shaped γ",
     [], [(ATT, S_S + S_Z + S_READ_COMMENT + S_NUM + S_DEN,
           "        g = gamma.view(1, H, 1, 1)\n"
           "        S = g * S + k.unsqueeze(-1) @ v.unsqueeze(-2)\n"
           "        z = g.squeeze(-1) * z + k\n"
           "        qr = q.unsqueeze(-2)  # (B, H, 1, d_h)\n"
           "        num = (qr @ S).squeeze(-2)\n"
           "        den = (qr @ z.unsqueeze(-1)).squeeze(-1)  # (B, H, 1)\n")])
case("alt_step_bmm_flat", "alternative", "step flattens batch and heads to (B·H) and uses baddbmm / bmm",
     [], [(ATT, S_S + S_Z + S_READ_COMMENT + S_NUM + S_DEN + S_Y,
           "        BH = B * H\n"
           "        g = gamma.repeat(B)  # (B·H,), batch-major like reshape\n"
           "        S = torch.baddbmm(S.reshape(BH, d_h, d_h) * g[:, None, None], k.reshape(BH, d_h, 1), v.reshape(BH, 1, d_h))\n"
           "        z = z.reshape(BH, d_h) * g[:, None] + k.reshape(BH, d_h)\n"
           "        qf = q.reshape(BH, 1, d_h)\n"
           "        y = torch.bmm(qf, S).squeeze(1) / torch.bmm(qf, z.unsqueeze(-1)).squeeze(1)  # (B·H, d_h)\n"
           "        y = y.reshape(B, D)\n"
           "        S, z = S.view(B, H, d_h, d_h), z.view(B, H, d_h)\n")])
case("alt_reshape_permute_heads", "alternative", "forward splits with reshape + permute and merges with permute().contiguous().view()",
     [], [(ATT, F_SPLIT, "        q, k, v = (t.reshape(B, T, H, d_h).permute(0, 2, 1, 3) for t in (q, k, v))\n"),
          (ATT, F_MERGE, "        y = y.permute(0, 2, 1, 3).contiguous().view(B, T, D)\n")])
case("alt_nb_binary_units", "alternative", "Exercise 5 answers given in GiB / MiB (binary units, 3-4 significant figures)",
     [], [(NB, "mha_cache_one_layer: 16,384,000,000 B\n" + BILL_GQA + "\nwindow4096_cache_one_layer: 67,108,864 B\n"
           + BILL_LIN + "\nall_mha_stack_4_layers: 65,536,000,000 B\nhybrid_lllf_stack_4_layers: 16,387,170,304 B",
           "mha_cache_one_layer: 15.26 GiB\ngqa8_cache_one_layer: 3.815 GiB\nwindow4096_cache_one_layer: 64.0 MiB\n"
           "linear_state_one_layer: 1.008 MiB\nall_mha_stack_4_layers: 61.04 GiB\nhybrid_lllf_stack_4_layers: 15.26 GiB")])

# ============================================================ stubs
case("stub_template_attention", "stub", "attention.py left as the template (forward and step raise NotImplementedError); notebook answers kept",
     CODE_ITEMS + EX_ITEMS, whole_file=(ATT, TEMPLATE / ATT))
case("stub_step_not_implemented", "stub", "forward done, step still raises NotImplementedError",
     ["step_matches", "lm_decoding", "step_cost"] + EX_ITEMS,
     [(ATT, S_Q, "        raise NotImplementedError(\"LinearAttention.step: update (S, z), then read\")\n" + S_Q)])
case("stub_value_passthrough", "stub", "forward returns out_proj(v_proj(x)) and step out_proj(v_proj(x_t)) with the state unchanged",
     CODE_ITEMS + EX_ITEMS,
     [(ATT, "        # 1. projections; φ on q and k only; split heads (B, T, D) -> (B, H, T, d_h)\n",
       "        return self.out_proj(self.v_proj(x))  # placeholder\n"
       "        # 1. projections; φ on q and k only; split heads (B, T, D) -> (B, H, T, d_h)\n"),
      (ATT, S_Q, "        return self.out_proj(self.v_proj(x_t)), (S, z)  # placeholder\n" + S_Q)])


def build():
    base_att = (BASE / ATT).read_text()
    for anchor in [v for k, v in globals().items() if k.startswith(("F_", "S_")) and isinstance(v, str)]:
        assert base_att.count(anchor) == 1, anchor
    names = set()
    for c in CASES:
        assert c["name"] not in names, c["name"]
        names.add(c["name"])
        dst = HERE / c["name"]
        if dst.exists():
            shutil.rmtree(dst)
        shutil.copytree(BASE, dst, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        if c["whole_file"]:
            rel, src = c["whole_file"]
            (dst / rel).write_text(Path(src).read_text())
            assert (dst / rel).read_text() != (BASE / rel).read_text()
        for rel, old, new in c["edits"]:
            text = (dst / rel).read_text()
            if rel == NB:  # the notebook is JSON: match the JSON-escaped text
                import json
                old_j, new_j = json.dumps(old)[1:-1], json.dumps(new)[1:-1]
                if text.count(old_j) != 1:  # the yaml block spans list items in the JSON
                    nb = json.loads(text)
                    hits = [cell for cell in nb["cells"] if old in "".join(cell["source"])]
                    assert len(hits) == 1, (c["name"], old)
                    s = "".join(hits[0]["source"])
                    assert s.count(old) == 1, (c["name"], old)
                    s = s.replace(old, new)
                    lines = s.split("\n")
                    hits[0]["source"] = [line + "\n" for line in lines[:-1]] + [lines[-1]]
                    (dst / rel).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
                    continue
                old, new = old_j, new_j
            assert text.count(old) == 1, (c["name"], old)
            (dst / rel).write_text(text.replace(old, new))
    lines = ["- name: base", "  kind: alternative", "  about: reference-quality submission", "  should_lose: []"]
    for c in CASES:
        lines += [f"- name: {c['name']}", f"  kind: {c['kind']}", f"  about: {json.dumps(c['about'], ensure_ascii=False)}"]
        if c["should_lose"]:
            lines.append("  should_lose:")
            lines += [f"  - {item}" for item in c["should_lose"]]
        else:
            lines.append("  should_lose: []")
    (HERE / "corpus.yaml").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    build()
    print(len(CASES), "cases")
