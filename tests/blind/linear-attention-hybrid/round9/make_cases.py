"""Build the round-9 blind corpus for linear-attention-hybrid from base/.

Every case is a copy of base/ with exact string replacements applied to one file (the student code
`g2c/linear_attention/attention.py`, or the notebook). Each anchor must occur exactly once in base and
each replacement must apply. Notebook replacements are made on the joined source of one cell (the
anchor must occur exactly once over all cells), and the notebook is written back in the same JSON
layout as base. Writes corpus.yaml next to this file.

    python make_cases.py        # rebuilds every case folder (base/ itself is never touched)
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
ATT = "g2c/linear_attention/attention.py"
NB = "linear_attention_hybrid.ipynb"

# ------------------------------------------------------------------ anchors in base (forward)
F_SHAPE = "        B, T, D = x.shape\n"
F_SPLIT = "            return t.view(B, T, H, d_h).transpose(1, 2)\n"
F_Q = "        q = heads(feature_map(self.q_proj(x)))\n"
F_K = "        k = heads(feature_map(self.k_proj(x)))\n"
F_V = "        v = heads(self.v_proj(x))\n"
F_DIST = "        dist = (pos[:, None] - pos[None, :]).to(x.dtype)  # t - i\n"
F_CAUSAL = "        causal = dist >= 0\n"
F_LOGG = "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1, 1)\n"
F_DECAY = "        decay = torch.exp(log_gamma * dist.clamp(min=0))  # exponent ≤ 0 everywhere: no overflow\n"
F_WEIGHTS = "        weights = torch.where(causal, decay, torch.zeros_like(decay))\n"
F_SCORES = "        scores = (q @ k.transpose(-2, -1)) * weights\n"
F_NORM_C = "        # 4. divide by the row sums, Σ_i γ^(t-i) φ(q_t)·φ(k_i) = φ(q_t)ᵀ z_t\n"
F_NORM = "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)\n"
F_MERGE = "        y = y.transpose(1, 2).reshape(B, T, D)\n"
F_BODY_START = "        # 1. projections; the feature map on q and k only; heads (B, T, D) -> (B, H, T, d_h)\n"
F_STEPS_2_5 = (
    "        # 2. decay weights (H, T, T): γ_h^(t-i) for i ≤ t, 0 for i > t\n"
    "        pos = torch.arange(T, device=x.device)\n" + F_DIST + F_CAUSAL + F_LOGG + F_DECAY + F_WEIGHTS
    + "        # 3. decayed scores (B, H, T, T)\n" + F_SCORES + F_NORM_C + F_NORM
    + "        # 5. merge heads (B, H, T, d_h) -> (B, T, H, d_h) -> (B, T, D)\n" + F_MERGE
)
F_BODY = (
    F_BODY_START
    + "        def heads(t: torch.Tensor) -> torch.Tensor:\n" + F_SPLIT + "\n" + F_Q + F_K + F_V + F_STEPS_2_5
    + "        return self.out_proj(y)\n"
)

# ------------------------------------------------------------------ anchors in base (step)
S_NONE = ("        if state is None:\n"
          "            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)\n")
S_Q = "        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)\n"
S_V = "        v = self.v_proj(x_t).view(B, H, d_h)\n"
S_GAMMA = "        gamma = self.decay.to(S.dtype)\n"
S_UPD_C = "        # 3. update first, into new tensors (the caller's state is left as it was)\n"
S_S = "        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)\n"
S_Z = "        z = gamma.view(1, H, 1) * z + k\n"
S_READ_C = "        # 4. then read: y = φ(q)ᵀ S / φ(q)ᵀ z\n"
S_NUM = '        num = torch.einsum("bhd,bhde->bhe", q, S)\n'
S_DEN = "        den = (q * z).sum(dim=-1, keepdim=True)\n"
S_Y = "        y = (num / den).reshape(B, D)\n"
S_RET = "        return self.out_proj(y), (S, z)\n"
S_BODY_START = "        # 1. this token's q, k, v, each (B, H, d_h); the feature map on q and k\n"

CODE_ITEMS = ["forward_matches", "step_matches", "normalizer", "update_order", "decay_both_forms",
              "decay_normalizer", "head_split", "batch_isolation", "causality", "long_sequences",
              "lm_decoding", "step_cost"]
EX_ITEMS = ["ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"]


def A(old: str, new: str) -> tuple[str, str, str]:
    return (ATT, old, new)


def N(old: str, new: str) -> tuple[str, str, str]:
    return (NB, old, new)


CASES: list[dict] = []


def case(name, kind, about, should_lose, *edits):
    CASES.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=list(edits)))


# =================================================================== bugs: forward
case("bug_fwd_no_normalizer", "bug",
     "forward returns the decayed scores times v, never divided by the row sums φ(q_t)ᵀz_t",
     ["forward_matches", "normalizer"],
     A(F_NORM, "        y = scores @ v  # φ(q_t)ᵀ S_t\n"))
case("bug_fwd_softmax_over_scores", "bug",
     "softmax habit: forward normalizes the decayed scores with a masked softmax instead of dividing by their sum",
     ["forward_matches", "normalizer"],
     A(F_NORM, '        y = torch.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1) @ v\n'))
case("bug_fwd_normalizer_sums_all_keys", "bug",
     "forward's normalizer is φ(q_t)·Σ_i φ(k_i) over ALL T keys (no mask, no decay): a future token changes the output",
     ["forward_matches", "normalizer", "causality"],
     A(F_NORM, "        z = k.sum(dim=2, keepdim=True)  # (B, H, 1, d_h): Σ_i φ(k_i)\n"
               "        y = (scores @ v) / (q @ z.transpose(-2, -1))\n"))
case("bug_fwd_normalizer_undecayed", "bug",
     "forward divides by the causal but undecayed row sums Σ_{i≤t} φ(q_t)·φ(k_i): z does not decay with S",
     ["forward_matches", "decay_normalizer"],
     A(F_NORM, "        y = (scores @ v) / ((q @ k.transpose(-2, -1)) * causal).sum(dim=-1, keepdim=True)\n"))
case("bug_fwd_strict_mask_with_eps", "bug",
     "forward's mask is strict (i < t: token t does not see itself) and the resulting 0/0 at t = 0 is hidden "
     "by clamping the normalizer, so row 0 is 0 and every row is read before its own write",
     ["forward_matches", "update_order"],
     A(F_CAUSAL, "        causal = dist > 0\n"),
     A(F_NORM, "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True).clamp_min(1e-6)  # avoid 0/0 at t = 0\n"))
case("bug_fwd_mask_sees_next_token", "bug",
     "forward's mask is off by one (i ≤ t + 1): every position also sees the next token (weight γ^0 = 1)",
     ["forward_matches", "causality"],
     A(F_CAUSAL, "        causal = dist >= -1\n"))
case("bug_fwd_mask_upper_triangle", "bug",
     "triu/tril mix-up: forward keeps i ≥ t (the future and itself) instead of i ≤ t",
     ["forward_matches", "causality"],
     A(F_CAUSAL, "        causal = dist <= 0\n"))
case("bug_fwd_decay_exponent_t_only", "bug",
     "forward's decay weight is γ^t (query position only) instead of γ^(t-i); a per-row constant cancels in "
     "the normalization, so forward has no decay at all (and γ^t underflows to 0/0 late in long sequences "
     "with a quick decay)",
     ["forward_matches", "decay_both_forms"],
     A(F_DECAY, "        decay = torch.exp(log_gamma * pos.to(x.dtype)[:, None])  # γ^t\n"))
case("bug_fwd_decay_exponent_sign", "bug",
     "forward uses γ^-(t-i) (sign of the exponent flipped): old tokens are amplified instead of faded "
     "(inf/inf = NaN on long sequences with a quick decay)",
     ["forward_matches", "decay_both_forms"],
     A(F_DECAY, "        decay = torch.exp(-log_gamma * dist.clamp(min=0))\n"))
case("bug_fwd_gamma_logit_as_log_gamma", "bug",
     "forward forgets the sigmoid: it uses gamma_logit itself as log γ, so heads with γ > 0.5 grow as "
     "e^{logit·(t-i)} and the rest decay at the wrong rate",
     ["forward_matches", "decay_both_forms", "ex2_comparison"],
     A(F_LOGG, "        log_gamma = self.gamma_logit.to(x.dtype).view(H, 1, 1)\n"))
case("bug_fwd_weights_bfloat16", "bug",
     "forward casts the T × T decay weights to bfloat16 'to save memory' (section 6): every decay weight is "
     "rounded to 8 bits of mantissa, errors of about 1e-3 relative in the output",
     ["forward_matches"],
     A(F_WEIGHTS, "        weights = torch.where(causal, decay, torch.zeros_like(decay)).to(torch.bfloat16)  "
                  "# T × T is big: keep it in 16 bits\n"))
case("bug_fwd_no_feature_map_on_k", "bug",
     "forward applies φ to q only; k is the raw projection (so scores can be negative)",
     ["forward_matches"],
     A(F_K, "        k = heads(self.k_proj(x))\n"))
case("bug_fwd_q_elu_without_plus_one", "bug",
     "forward's q feature map is elu(x) without the + 1 (negative features, normalizer can approach 0)",
     ["forward_matches"],
     A(F_Q, "        q = heads(F.elu(self.q_proj(x)))\n"))
case("bug_fwd_merge_heads_permute", "bug",
     "forward merges heads with permute(0, 2, 3, 1): the output channels come out interleaved (d_h, H) "
     "instead of (H, d_h); exact when H = 1 or d_h = 1",
     ["forward_matches", "head_split"],
     A(F_MERGE, "        y = y.permute(0, 2, 3, 1).reshape(B, T, D)\n"))
case("bug_fwd_split_heads_view_no_transpose", "bug",
     "forward splits heads with view(B, H, T, d_h) straight from (B, T, D): tokens and channels are "
     "scrambled across heads (so also across time); exact when H = 1",
     ["forward_matches", "head_split", "causality"],
     A(F_SPLIT, "            return t.view(B, H, T, d_h)\n"))
case("bug_fwd_scores_einsum_sums_batch", "bug",
     "forward's score einsum drops the batch index ('bhtd,bhsd->hts'): the scores are summed over the batch "
     "and shared by every sequence; exact for a batch of one",
     ["forward_matches", "batch_isolation"],
     A(F_SCORES, '        scores = torch.einsum("bhtd,bhsd->hts", q, k) * weights\n'))
case("bug_fwd_unclamped_exp_where_grad_nan", "bug",
     "forward computes exp(log γ·(t-i)) for every pair and masks with torch.where afterwards: above the diagonal "
     "the exponent is positive and overflows to inf on long sequences with a quick decay (e.g. 300 tokens, "
     "γ = 0.05); the outputs stay exact, but the gradient of gamma_logit is 0·inf = NaN",
     ["long_sequences"],
     A(F_DECAY, "        decay = torch.exp(log_gamma * dist)  # the future is masked by torch.where below\n"))
case("bug_fwd_exp_all_pairs_times_mask", "bug",
     "forward computes exp(log γ·(t-i)) for every pair and multiplies by the 0/1 mask: inf·0 = NaN outputs on "
     "long sequences with a quick decay (exact on short ones)",
     ["long_sequences"],
     A(F_DECAY, "        decay = torch.exp(log_gamma * dist)\n"),
     A(F_WEIGHTS, "        weights = decay * causal\n"))
case("bug_fwd_decay_detached", "bug",
     "forward builds the decay from gamma_logit.data: outputs exact, but no gradient reaches gamma_logit "
     "(the decay is never learned by training)",
     ["forward_matches"],
     A(F_LOGG, "        log_gamma = F.logsigmoid(self.gamma_logit.data).to(x.dtype).view(H, 1, 1)\n"))
case("bug_fwd_softmax_of_log_scores_grad_nan", "bug",
     "forward normalizes with softmax(log(scores)): the outputs are exact (log 0 = -inf above the diagonal), "
     "but the backward pass gives 0/0 = NaN there, so every gradient is NaN for T ≥ 2 (training diverges)",
     ["forward_matches", "ex2_comparison"],
     A(F_NORM, "        y = torch.softmax(scores.log(), dim=-1) @ v  # softmax(log s) = s / Σ s\n"))
case("bug_fwd_flatten_input_with_view", "bug",
     "forward flattens the input with x.view(B * T, D): raises on a non-contiguous input (a transposed or "
     "sliced tensor); exact otherwise",
     ["forward_matches"],
     A(F_SHAPE, F_SHAPE + "        x = x.view(B * T, D)  # nn.Linear on a 2-D batch of rows\n"))

# =================================================================== bugs: step
case("bug_step_read_before_update", "bug",
     "step reads (S, z) before adding this token: y_t misses token t, 0/0 = NaN at the first token",
     ["step_matches", "update_order"],
     A(S_UPD_C + S_S + S_Z + S_READ_C + S_NUM + S_DEN,
       S_READ_C + S_NUM + S_DEN + S_UPD_C + S_S + S_Z))
case("bug_step_z_updated_after_read", "bug",
     "step updates S, reads, and only then updates z: the normalizer misses token t (0 at the first token)",
     ["step_matches", "update_order"],
     A(S_S + S_Z + S_READ_C + S_NUM + S_DEN,
       S_S + S_READ_C + S_NUM + S_DEN + S_Z))
case("bug_step_z_not_decayed", "bug",
     "step decays S but not z: z = z + φ(k)",
     ["step_matches", "decay_normalizer"],
     A(S_Z, "        z = z + k\n"))
case("bug_step_S_not_decayed", "bug",
     "step decays z but not S: S = S + φ(k)vᵀ",
     ["step_matches", "decay_both_forms"],
     A(S_S, "        S = S + k.unsqueeze(-1) * v.unsqueeze(-2)\n"))
case("bug_step_no_decay", "bug",
     "step forgets the decay entirely (S and z both undecayed): step is plain linear attention, γ ignored",
     ["step_matches", "decay_both_forms"],
     A(S_S, "        S = S + k.unsqueeze(-1) * v.unsqueeze(-2)\n"),
     A(S_Z, "        z = z + k\n"))
case("bug_step_decay_after_write", "bug",
     "step decays after writing: S = γ(S + φ(k)vᵀ), z = γ(z + φ(k)); the outputs are unchanged (γ cancels), "
     "the returned state is γ times too small",
     ["step_matches"],
     A(S_S, "        S = gamma.view(1, H, 1, 1) * (S + k.unsqueeze(-1) * v.unsqueeze(-2))\n"),
     A(S_Z, "        z = gamma.view(1, H, 1) * (z + k)\n"))
case("bug_step_gamma_logit_as_gamma", "bug",
     "step forgets the sigmoid: γ = gamma_logit (negative for γ < 0.5, > 1 for γ > 0.73)",
     ["step_matches", "decay_both_forms"],
     A(S_GAMMA, "        gamma = self.gamma_logit.to(S.dtype)\n"))
case("bug_step_inplace_state_update", "bug",
     "step updates the caller's S and z in place (S *= γ; S += ...): outputs and returned state right, "
     "but the state passed in is overwritten",
     ["lm_decoding"],
     A(S_S + S_Z,
       "        S *= gamma.view(1, H, 1, 1)\n"
       "        S += k.unsqueeze(-1) * v.unsqueeze(-2)\n"
       "        z *= gamma.view(1, H, 1)\n"
       "        z += k\n"))
case("bug_step_state_stored_transposed", "bug",
     "step stores S as v φ(k)ᵀ and reads it consistently: outputs right, but the returned S is the transpose "
     "of the documented φ(k)vᵀ (d_h × d_h per head)",
     ["step_matches"],
     A(S_S, "        S = gamma.view(1, H, 1, 1) * S + v.unsqueeze(-1) * k.unsqueeze(-2)  # v_t φ(k_t)ᵀ\n"),
     A(S_NUM, '        num = torch.einsum("bhd,bhed->bhe", q, S)\n'))
case("bug_step_no_normalizer", "bug",
     "step returns φ(q)ᵀS without dividing by φ(q)ᵀz",
     ["step_matches", "normalizer"],
     A(S_Y, "        y = num.reshape(B, D)\n"))
case("bug_step_normalizer_ignores_q", "bug",
     "step divides by Σ z (the sum of z's entries) instead of φ(q)·z",
     ["step_matches", "normalizer"],
     A(S_DEN, "        den = z.sum(dim=-1, keepdim=True)\n"))
case("bug_step_no_feature_map_on_q", "bug",
     "step uses the raw q projection, without φ, in the read",
     ["step_matches"],
     A(S_Q, "        q = self.q_proj(x_t).view(B, H, d_h)\n"))
case("bug_step_feature_map_on_v", "bug",
     "step applies φ to v as well as to q and k",
     ["step_matches"],
     A(S_V, "        v = feature_map(self.v_proj(x_t)).view(B, H, d_h)\n"))
case("bug_step_z_accumulates_raw_k", "bug",
     "step adds the raw k projection (not φ(k)) to z, while S uses φ(k): the normalizer is not φ(q)·z",
     ["step_matches", "normalizer"],
     A(S_Z, "        z = gamma.view(1, H, 1) * z + self.k_proj(x_t).view(B, H, d_h)\n"))
case("bug_step_merge_heads_transposed", "bug",
     "step copies forward's transpose(1, 2) into its merge: (B, H, d_h) -> (B, d_h, H) -> (B, D) interleaves "
     "the heads' channels; exact when H = 1 or d_h = 1",
     ["step_matches", "head_split"],
     A(S_Y, "        y = (num / den).transpose(1, 2).reshape(B, D)\n"))
case("bug_step_outer_product_sums_batch", "bug",
     "step's outer-product einsum drops the batch index ('bhd,bhe->hde'): every sequence's S gets the sum of "
     "all sequences' writes; exact for a batch of one",
     ["step_matches", "batch_isolation"],
     A(S_S, '        S = gamma.view(1, H, 1, 1) * S + torch.einsum("bhd,bhe->hde", k, v)\n'))
case("bug_step_squeeze_breaks_one_head", "bug",
     "step reads with (q.unsqueeze(-2) @ S).squeeze(): wrong shape (raises) with one head and a batch > 1, or "
     "with head dim 1; exact otherwise (incl. B = H = 1)",
     ["step_matches"],
     A(S_NUM, "        num = (q.unsqueeze(-2) @ S).squeeze()\n"))
case("bug_step_first_token_not_stored", "bug",
     "step shortcuts state=None by returning out_proj(v) and an EMPTY state: the first token's output is right "
     "but token 0 is never written into (S, z)",
     ["step_matches"],
     A(S_NONE, "        if state is None:  # first token: nothing to attend to but itself, so y = v\n"
               "            return self.out_proj(self.v_proj(x_t)), self.init_state(B, device=x_t.device, "
               "dtype=x_t.dtype)\n"))
case("bug_step_ema_write", "bug",
     "EMA habit: step writes (1-γ)·φ(k)vᵀ and (1-γ)·φ(k); outputs cancel for γ < 1, but the returned state is "
     "scaled by (1-γ) and a head with γ = 1 never writes anything (0/0 = NaN)",
     ["step_matches"],
     A(S_S, "        S = gamma.view(1, H, 1, 1) * S + (1 - gamma).view(1, H, 1, 1) * k.unsqueeze(-1) * v.unsqueeze(-2)\n"),
     A(S_Z, "        z = gamma.view(1, H, 1) * z + (1 - gamma).view(1, H, 1) * k\n"))
case("bug_step_cost_resums_history", "bug",
     "step keeps every φ(k_i), v_i on the module and rebuilds (S, z) = Σ γ^(t-i) ... from them each call "
     "(history reset when the incoming z is 0): exact, but O(t) work and memory per token",
     ["step_cost", "step_matches"],
     A(S_S + S_Z,
       "        # keep every φ(k_i), v_i and rebuild (S, z) from them (an empty state starts a new history)\n"
       "        if not z.any():\n"
       "            self._hist_k, self._hist_v = [], []\n"
       "        self._hist_k.append(k)\n"
       "        self._hist_v.append(v)\n"
       "        K, V = torch.stack(self._hist_k, dim=2), torch.stack(self._hist_v, dim=2)  # (B, H, t, d_h)\n"
       "        n = K.shape[2]\n"
       "        w = gamma.view(H, 1) ** torch.arange(n - 1, -1, -1, device=K.device, dtype=K.dtype)  # γ^(t-i)\n"
       '        S = torch.einsum("hi,bhid,bhie->bhde", w, K, V)\n'
       '        z = torch.einsum("hi,bhid->bhd", w, K)\n'))
case("bug_step_cost_forward_over_history", "bug",
     "step keeps every input token on the module and returns forward(history)[:, -1] (its (S, z) update is "
     "right; history reset when the incoming z is 0): exact, but each step is a T × T forward",
     ["step_cost", "step_matches"],
     A(S_Y + S_RET,
       "        # the output from the parallel form over everything seen so far (forward is already tested)\n"
       "        if not state[1].any():\n"
       "            self._history = []\n"
       "        self._history.append(x_t)\n"
       "        return self.forward(torch.stack(self._history, dim=1))[:, -1], (S, z)\n"))
case("bug_step_cost_attention_over_cache", "bug",
     "step updates (S, z) correctly but reads through a cache of all past φ(k_i), v_i kept on the module "
     "(decayed attention over the history, reset when the incoming z is 0): exact, but O(t) per token",
     ["step_cost", "step_matches"],
     A(S_NUM + S_DEN,
       "        if not state[1].any():\n"
       "            self._keys, self._values = [], []\n"
       "        self._keys.append(k)\n"
       "        self._values.append(v)\n"
       "        K, V = torch.stack(self._keys, dim=2), torch.stack(self._values, dim=2)  # (B, H, t, d_h)\n"
       "        n = K.shape[2]\n"
       "        w = gamma.view(1, H, 1) ** torch.arange(n - 1, -1, -1, device=K.device, dtype=K.dtype)\n"
       '        a = torch.einsum("bhd,bhid->bhi", q, K) * w  # γ^(t-i) φ(q)·φ(k_i)\n'
       '        num = torch.einsum("bhi,bhie->bhe", a, V)\n'
       "        den = a.sum(dim=-1, keepdim=True)\n"))

# =================================================================== bugs: Exercise 5 answers
case("bug_nb_mha_counts_k_only", "bug",
     "Exercise 5: MHA cache counts K only (T·D·BYTES = 8.19 GB instead of 16.4 GB); the other answers are right",
     ["bill_mha"],
     N("mha_cache_one_layer: 16,384,000,000 B\n", "mha_cache_one_layer: 8,192,000,000 B\n"))
case("bug_nb_gqa_divides_by_8", "bug",
     "Exercise 5: GQA-8 taken as 1/8 of MHA (2.05 GB) instead of 8 of 32 heads (4.10 GB)",
     ["bill_gqa8"],
     N("gqa8_cache_one_layer: 4,096,000,000 B\n", "gqa8_cache_one_layer: 2,048,000,000 B\n"))
case("bug_nb_window_mib_written_as_mb", "bug",
     "Exercise 5: the window cache is 2^26 B = 64 MiB, written as '64 MB' (4.6% low)",
     ["bill_window"],
     N("window4096_cache_one_layer: 67,108,864 B\n", "window4096_cache_one_layer: 64 MB\n"))
case("bug_nb_linear_state_without_z", "bug",
     "Exercise 5: the linear state counts S only (H·d_h²·BYTES = 1,048,576 B), 0.78% low: outside 0.5%",
     ["bill_linear"],
     N("linear_state_one_layer: 1,056,768 B\n", "linear_state_one_layer: 1,048,576 B\n"))
case("bug_nb_all_mha_gib_labelled_gb", "bug",
     "Exercise 5: the all-MHA stack worked out in GiB (61.04) but written with the unit GB (6.9% low)",
     ["bill_all_mha_stack"],
     N("all_mha_stack_4_layers: 65,536,000,000 B\n", "all_mha_stack_4_layers: 61.04 GB\n"))
case("bug_nb_hybrid_full_layer_as_gqa", "bug",
     "Exercise 5: the [L, L, L, F] total prices the full layer as GQA-8 (3·linear + 4.096e9 B) instead of MHA",
     ["bill_hybrid_stack"],
     N("hybrid_lllf_stack_4_layers: 16,387,170,304 B\n", "hybrid_lllf_stack_4_layers: 4,099,170,304 B\n"))
case("bug_nb_grows_includes_window", "bug",
     "Exercise 5: grows_with_t answered (c): the sliding-window cache is counted as growing with T",
     ["bill_grows"],
     N("grows_with_t: b\n", "grows_with_t: c\n"))

# =================================================================== stubs
FWD_TAIL = F_BODY
STEP_TAIL = (S_BODY_START + S_Q + "        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)\n" + S_V
             + "        # 2. γ per head, broadcast over S (B, H, d_h, d_h) and z (B, H, d_h)\n" + S_GAMMA
             + S_UPD_C + S_S + S_Z + S_READ_C + S_NUM + S_DEN + S_Y + S_RET)
ALL_CODE = CODE_ITEMS + EX_ITEMS
case("stub_random_outputs", "stub",
     "forward and step return fresh torch.randn of the right shape (step returns the state unchanged)",
     ALL_CODE,
     A(FWD_TAIL, "        return torch.randn(B, T, D, dtype=x.dtype, device=x.device)\n"),
     A(STEP_TAIL, "        return torch.randn(B, D, dtype=x_t.dtype, device=x_t.device), (S, z)\n"))
case("stub_constant_zero", "stub",
     "forward and step return zeros of the right shape (step returns the state unchanged)",
     ALL_CODE,
     A(FWD_TAIL, "        return x.new_zeros(B, T, D)\n"),
     A(STEP_TAIL, "        return x_t.new_zeros(B, D), (S, z)\n"))
case("stub_value_passthrough", "stub",
     "no attention: forward returns out_proj(v_proj(x)), step returns out_proj(v_proj(x_t)) and the state unchanged",
     ALL_CODE,
     A(FWD_TAIL, "        return self.out_proj(self.v_proj(x))\n"),
     A(STEP_TAIL, "        return self.out_proj(self.v_proj(x_t)), (S, z)\n"))

# =================================================================== correct alternatives
case("alt_fwd_recurrent_loop", "alternative",
     "forward runs the recurrence over t in a Python loop (whole batch and all heads at once)", [],
     A(F_STEPS_2_5,
       "        # 2-5. the recurrence itself, one position at a time\n"
       "        gamma = self.decay.to(x.dtype).view(1, H, 1, 1)\n"
       "        S = x.new_zeros(B, H, d_h, d_h)\n"
       "        z = x.new_zeros(B, H, d_h)\n"
       "        ys = []\n"
       "        for t in range(T):\n"
       "            S = gamma * S + k[:, :, t, :, None] * v[:, :, t, None, :]\n"
       "            z = gamma[..., 0] * z + k[:, :, t]\n"
       "            num = (q[:, :, t, None, :] @ S).squeeze(-2)\n"
       "            ys.append(num / (q[:, :, t] * z).sum(dim=-1, keepdim=True))\n"
       "        y = torch.stack(ys, dim=2)  # (B, H, T, d_h)\n"
       "        y = y.transpose(1, 2).reshape(B, T, D)\n"))
case("alt_fwd_chunked", "alternative",
     "forward is chunkwise (chunks of 8): the T × T form inside a chunk, the (S, z) recurrence between chunks, "
     "all exponents ≤ 0", [],
     A(F_STEPS_2_5,
       "        # 2-5. chunkwise: decayed scores inside chunks of C tokens, the (S, z) recurrence between chunks\n"
       "        C = 8\n"
       "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1)\n"
       "        S = x.new_zeros(B, H, d_h, d_h)\n"
       "        z = x.new_zeros(B, H, d_h, 1)\n"
       "        ys = []\n"
       "        for s in range(0, T, C):\n"
       "            qc, kc, vc = q[:, :, s:s + C], k[:, :, s:s + C], v[:, :, s:s + C]\n"
       "            n = qc.shape[2]\n"
       "            j = torch.arange(n, device=x.device, dtype=x.dtype)\n"
       "            rel = j[:, None] - j[None, :]  # local t - i\n"
       '            w = torch.exp((log_gamma[..., None] * rel).masked_fill(rel < 0, float("-inf")))  # (H, n, n)\n'
       "            carry = torch.exp(log_gamma * (j + 1))[..., None]  # γ^(j+1): what is left of earlier chunks\n"
       "            a = (qc @ kc.transpose(-2, -1)) * w\n"
       "            num = a @ vc + carry * (qc @ S)\n"
       "            den = a.sum(dim=-1, keepdim=True) + carry * (qc @ z)\n"
       "            ys.append(num / den)\n"
       "            tail = torch.exp(log_gamma * (n - 1 - j))[..., None]  # γ^(n-1-i) to the chunk's last token\n"
       "            S = torch.exp(log_gamma * n)[..., None] * S + (kc * tail).transpose(-2, -1) @ vc\n"
       "            z = torch.exp(log_gamma * n)[..., None] * z + (kc * tail).sum(dim=2)[..., None]\n"
       "        y = torch.cat(ys, dim=2)  # (B, H, T, d_h)\n"
       "        y = y.transpose(1, 2).reshape(B, T, D)\n"))
case("alt_fwd_float64_internals", "alternative",
     "forward casts q, k, v, the distances and log γ to float64 and the result back to x.dtype", [],
     A(F_V, F_V + "        q, k, v = q.double(), k.double(), v.double()  # everything inside in float64\n"),
     A(F_DIST, "        dist = (pos[:, None] - pos[None, :]).double()  # t - i\n"),
     A(F_LOGG, "        log_gamma = F.logsigmoid(self.gamma_logit.double()).view(H, 1, 1)\n"),
     A(F_MERGE, "        y = y.transpose(1, 2).reshape(B, T, D).to(x.dtype)\n"))
case("alt_fwd_einsum_bthd_layout", "alternative",
     "forward keeps (B, T, H, d_h) and does the head bookkeeping with einsum; mask multiplied after a clamped exp",
     [],
     A(F_BODY,
       "        # 1. projections kept as (B, T, H, d_h); einsum does the head bookkeeping\n"
       "        q = feature_map(self.q_proj(x)).view(B, T, H, d_h)\n"
       "        k = feature_map(self.k_proj(x)).view(B, T, H, d_h)\n"
       "        v = self.v_proj(x).view(B, T, H, d_h)\n"
       "        # 2. γ_h^(t-i) below and on the diagonal, 0 above\n"
       "        t_idx = torch.arange(T, device=x.device)\n"
       "        rel = (t_idx[:, None] - t_idx[None, :]).to(x.dtype)\n"
       "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)\n"
       '        weights = torch.exp(torch.einsum("h,ts->hts", log_gamma, rel.clamp(min=0))) * (rel >= 0)\n'
       "        # 3-5. scores, normalized read, heads merged by the layout\n"
       '        scores = torch.einsum("bthd,bshd->bhts", q, k) * weights\n'
       '        num = torch.einsum("bhts,bshd->bthd", scores, v)\n'
       "        den = scores.sum(dim=-1).transpose(1, 2).unsqueeze(-1)  # (B, T, H, 1)\n"
       "        y = (num / den).reshape(B, T, D)\n"
       "        return self.out_proj(y)\n"))
case("alt_fwd_sqrt_dh_scaling", "alternative",
     "softmax habit that is harmless here: scores scaled by 1/√d_h, which cancels in the normalization", [],
     A(F_SCORES, "        scores = (q @ k.transpose(-2, -1)) / d_h ** 0.5 * weights  # the usual 1/√d_h: cancels below\n"))
case("alt_fwd_pow_clamped_exponent", "alternative",
     "forward's decay is sigmoid(gamma_logit) ** (t-i).clamp(min=0), masked with torch.where", [],
     A(F_DECAY, "        decay = self.decay.to(x.dtype).view(H, 1, 1) ** dist.clamp(min=0)\n"))
case("alt_fwd_logspace_softmax", "alternative",
     "forward in log space: softmax over log φ(q)·φ(k) + (t-i) log γ, masked to -inf before the softmax", [],
     A(F_SCORES + F_NORM_C + F_NORM,
       "        # 3-4. in log space: log φ(q_t)·φ(k_i) + (t-i) log γ, masked to -inf; the softmax normalizes\n"
       "        logits = torch.log(q @ k.transpose(-2, -1)) + log_gamma * dist\n"
       '        logits = logits.masked_fill(~causal, float("-inf"))\n'
       "        y = torch.softmax(logits, dim=-1) @ v\n"))
case("alt_fwd_ones_column_normalizer", "alternative",
     "forward appends a column of ones to v, so one product gives both the numerator and φ(q)ᵀz", [],
     A(F_NORM,
       "        out = scores @ torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # [φ(q)ᵀS | φ(q)ᵀz]\n"
       "        y = out[..., :-1] / out[..., -1:]\n"))
case("alt_fwd_masked_fill_before_exp", "alternative",
     "forward masks the exponent with -inf before exp (exp(-inf) = 0 above the diagonal)", [],
     A(F_DECAY + F_WEIGHTS,
       '        weights = torch.exp((log_gamma * dist).masked_fill(~causal, float("-inf")))\n'))
case("alt_step_matmul_products", "alternative",
     "step writes with k.unsqueeze(-1) @ v.unsqueeze(-2) and reads with batched matmuls", [],
     A(S_S, "        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) @ v.unsqueeze(-2)\n"),
     A(S_NUM, "        num = (q.unsqueeze(-2) @ S).squeeze(-2)\n"),
     A(S_DEN, "        den = (q.unsqueeze(-2) @ z.unsqueeze(-1)).squeeze(-1)  # (B, H, 1)\n"))
case("alt_step_first_token_shortcut", "alternative",
     "step with state=None returns out_proj(v) and the state (φ(k)vᵀ, φ(k)) directly (exact: one token reads back v)",
     [],
     A(S_NONE,
       "        if state is None:  # empty memory: S = φ(k)vᵀ, z = φ(k), and the read returns v exactly\n"
       "            k = feature_map(self.k_proj(x_t)).view(B, H, d_h)\n"
       "            v = self.v_proj(x_t).view(B, H, d_h)\n"
       "            return self.out_proj(v.reshape(B, D)), (k.unsqueeze(-1) * v.unsqueeze(-2), k)\n"))
case("alt_step_float64_internals", "alternative",
     "step computes in float64 and returns the output and state in the incoming dtypes", [],
     A(S_V, S_V + "        dtype = S.dtype\n"
                  "        q, k, v, S, z = (t.double() for t in (q, k, v, S, z))\n"),
     A(S_Y, "        y = (num / den).reshape(B, D).to(x_t.dtype)\n"),
     A(S_RET, "        return self.out_proj(y), (S.to(dtype), z.to(dtype))\n"))
case("alt_nb_binary_units", "alternative",
     "Exercise 5 answers in binary units (GiB, MiB) to 4 significant figures", [],
     N("mha_cache_one_layer: 16,384,000,000 B\n"
       "gqa8_cache_one_layer: 4,096,000,000 B\n"
       "window4096_cache_one_layer: 67,108,864 B\n"
       "linear_state_one_layer: 1,056,768 B\n"
       "all_mha_stack_4_layers: 65,536,000,000 B\n"
       "hybrid_lllf_stack_4_layers: 16,387,170,304 B\n"
       "grows_with_t: b\n",
       "mha_cache_one_layer: 15.26 GiB\n"
       "gqa8_cache_one_layer: 3.815 GiB\n"
       "window4096_cache_one_layer: 64.00 MiB\n"
       "linear_state_one_layer: 1.008 MiB\n"
       "all_mha_stack_4_layers: 61.04 GiB\n"
       "hybrid_lllf_stack_4_layers: 15.26 GiB\n"
       "grows_with_t: b\n"))
case("alt_nb_mixed_notations", "alternative",
     "Exercise 5 answers in mixed notations: '≈ 16.4 GB', '4.096e9 bytes', '6.71e7 B', '(b)'", [],
     N("mha_cache_one_layer: 16,384,000,000 B\n"
       "gqa8_cache_one_layer: 4,096,000,000 B\n"
       "window4096_cache_one_layer: 67,108,864 B\n"
       "linear_state_one_layer: 1,056,768 B\n"
       "all_mha_stack_4_layers: 65,536,000,000 B\n"
       "hybrid_lllf_stack_4_layers: 16,387,170,304 B\n"
       "grows_with_t: b\n",
       "mha_cache_one_layer: ≈ 16.4 GB\n"
       "gqa8_cache_one_layer: 4.096e9 bytes\n"
       "window4096_cache_one_layer: 6.71e7 B\n"
       "linear_state_one_layer: ≈ 1.057 MB\n"
       "all_mha_stack_4_layers: 6.554e10 bytes\n"
       "hybrid_lllf_stack_4_layers: ≈ 16.39 GB\n"
       "grows_with_t: (b)\n"))


# ------------------------------------------------------------------ machinery
def split_lines(text: str) -> list[str]:
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def apply_text(text: str, old: str, new: str, where: str) -> str:
    n = text.count(old)
    assert n == 1, f"{where}: anchor occurs {n} times: {old[:80]!r}"
    out = text.replace(old, new)
    assert out != text and out.count(new) >= 1, f"{where}: replacement did not apply: {old[:80]!r}"
    return out


def apply_nb(path: Path, old: str, new: str, where: str) -> None:
    nb = json.loads(path.read_text())
    sources = ["".join(c["source"]) for c in nb["cells"]]
    hits = [i for i, s in enumerate(sources) if old in s]
    total = sum(s.count(old) for s in sources)
    assert total == 1, f"{where}: notebook anchor occurs {total} times: {old[:80]!r}"
    i = hits[0]
    nb["cells"][i]["source"] = split_lines(apply_text(sources[i], old, new, where))
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def main() -> None:
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)) and "base" not in names
    rubric_ids = {item["id"] for item in yaml.safe_load((BASE / "rubric.yaml").read_text())["items"]}
    # every anchor must occur exactly once in base
    base_att = (BASE / ATT).read_text()
    for c in CASES:
        for f, old, _ in c["edits"]:
            if f == ATT:
                assert base_att.count(old) == 1, (c["name"], old[:80])
        assert set(c["should_lose"]) <= rubric_ids, (c["name"], set(c["should_lose"]) - rubric_ids)
        assert c["kind"] in ("bug", "alternative", "stub")
        assert (c["kind"] == "alternative") == (not c["should_lose"]), c["name"]
    for c in CASES:
        dest = HERE / c["name"]
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(BASE, dest, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        for f, old, new in c["edits"]:
            p = dest / f
            if f == NB:
                apply_nb(p, old, new, c["name"])
            else:
                p.write_text(apply_text(p.read_text(), old, new, c["name"]))
    corpus = [dict(name="base", kind="alternative", about="reference-quality submission (both forms, all answers)",
                   should_lose=[])]
    corpus += [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=c["should_lose"]) for c in CASES]
    (HERE / "corpus.yaml").write_text(yaml.safe_dump(corpus, sort_keys=False, allow_unicode=True, width=110))
    kinds = {k: sum(c["kind"] == k for c in corpus) for k in ("bug", "alternative", "stub")}
    print(f"{len(corpus)} cases written: {kinds}")


if __name__ == "__main__":
    main()
