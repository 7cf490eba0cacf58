"""Build the round-8 blind corpus for linear-attention-hybrid from base/.

Every case is a copy of base/ with exact string replacements applied to one student file
(g2c/linear_attention/attention.py, or the notebook's cell sources). Each anchor must occur exactly
once in base, and each replacement must change the file. corpus.yaml is written from CASES.

    python make_cases.py            # (re)build every case folder and corpus.yaml
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
ATTN = "g2c/linear_attention/attention.py"
NB = "linear_attention_hybrid.ipynb"

CODE_ITEMS = ["forward_matches", "step_matches", "normalizer", "update_order", "decay_both_forms",
              "decay_normalizer", "head_split", "batch_isolation", "causality", "long_sequences",
              "lm_decoding", "step_cost"]
EX_ITEMS = ["ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"]

# ----------------------------------------------------------------------------- anchors in base
SPLIT = "        return t.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)\n"
LOG_GAMMA = "        log_gamma = F.logsigmoid(self.gamma_logit).to(dtype)  # (H,): log γ_h\n"
LOG_W = "        log_w = log_gamma[:, None, None] * lag  # (H, T, T)\n"
MASK = '        log_w = log_w.masked_fill(lag < 0, float("-inf"))  # future keys: exp(-inf) = 0\n'
EXP = "        return torch.exp(log_w)\n"
FWD_SHAPE = "        B, T, D = x.shape\n"
FWD_Q = "        q = feature_map(self._split_heads(self.q_proj(x)))  # (B, H, T, d_h)\n"
FWD_K = "        k = feature_map(self._split_heads(self.k_proj(x)))\n"
FWD_V = "        v = self._split_heads(self.v_proj(x))\n"
WEIGHTS = "        weights = self._decay_weights(T, x.device, q.dtype)  # (H, T, T)\n"
SCORES = "        scores = (q @ k.transpose(-2, -1)) * weights  # (B, H, T, T): γ^(t-i) φ(q_t)·φ(k_i)\n"
NUM = "        num = scores @ v  # (B, H, T, d_h)\n"
DEN = "        den = scores.sum(dim=-1, keepdim=True)  # (B, H, T, 1): φ(q_t)·z_t\n"
Y = "        y = num / den\n"
MERGE = "        y = y.transpose(1, 2).reshape(B, T, D)  # merge heads\n"

ST_STATE = "        S, z = state\n"
ST_Q = "        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)\n"
ST_K = "        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)\n"
ST_V = "        v = self.v_proj(x_t).view(B, H, d_h)\n"
ST_GAMMA = "        gamma = self.decay.to(x_t.dtype)  # (H,)\n"
ST_S = "        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # + φ(k) vᵀ per head\n"
ST_Z = "        z = gamma.view(1, H, 1) * z + k\n"
ST_READ_COMMENT = "        # ... then read, so token t sees itself\n"
ST_NUM = "        num = (q.unsqueeze(-1) * S).sum(dim=-2)  # φ(q)ᵀ S: (B, H, d_h)\n"
ST_DEN = "        den = (q * z).sum(dim=-1, keepdim=True)  # φ(q)·z: (B, H, 1)\n"
ST_Y = "        y = (num / den).reshape(B, D)\n"

# the notebook's Exercise 5 answers (matched inside cell sources)
A_MHA = "mha_cache_one_layer: 16.4 GB\n"
A_GQA = "gqa8_cache_one_layer: 4.10 GB\n"
A_WIN = "window4096_cache_one_layer: 67.1 MB\n"
A_LIN = "linear_state_one_layer: 1.057 MB\n"
A_ALL = "all_mha_stack_4_layers: 65.5 GB\n"
A_HYB = "hybrid_lllf_stack_4_layers: 16.39 GB\n"
A_GROWS = "grows_with_t: b\n"
A_BLOCK = A_MHA + A_GQA + A_WIN + A_LIN + A_ALL + A_HYB + A_GROWS


def methods_tail() -> str:
    """The exact text of base's forward and step (the stubs replace it whole)."""
    text = (BASE / ATTN).read_text()
    return text[text.index("    def forward(self, x: torch.Tensor) -> torch.Tensor:"):]


STUB_RANDOM = '''    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.randn_like(x)

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        if state is None:
            state = self.init_state(x_t.shape[0], device=x_t.device, dtype=x_t.dtype)
        return torch.randn_like(x_t), (torch.randn_like(state[0]), torch.randn_like(state[1]))
'''
STUB_ZEROS = '''    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.zeros_like(x)

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        return torch.zeros_like(x_t), self.init_state(x_t.shape[0], device=x_t.device, dtype=x_t.dtype)
'''
STUB_IDENTITY = '''    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        if state is None:
            state = self.init_state(x_t.shape[0], device=x_t.device, dtype=x_t.dtype)
        return x_t, state
'''


def case(name, kind, about, should_lose, file, *edits):
    return {"name": name, "kind": kind, "about": about, "should_lose": list(should_lose), "file": file,
            "edits": list(edits)}


CASES = [
    # ======================================================================== alternatives (correct)
    case("alt_fwd_einsum_bthd_layout", "alternative",
         "forward keeps (B, T, H, d_h) throughout: einsum for scores and numerator, no transposes, heads merged by reshape",
         [], ATTN,
         (FWD_Q + FWD_K + FWD_V + WEIGHTS + SCORES + NUM + DEN + Y + MERGE,
          "        q = feature_map(self.q_proj(x)).view(B, T, self.num_heads, self.head_dim)  # (B, T, H, d_h)\n"
          "        k = feature_map(self.k_proj(x)).view(B, T, self.num_heads, self.head_dim)\n"
          "        v = self.v_proj(x).view(B, T, self.num_heads, self.head_dim)\n"
          "        weights = self._decay_weights(T, x.device, q.dtype)  # (H, T, T)\n"
          "        scores = torch.einsum(\"bthd,bshd->bhts\", q, k) * weights  # (B, H, T, T)\n"
          "        num = torch.einsum(\"bhts,bshd->bthd\", scores, v)  # (B, T, H, d_h)\n"
          "        den = scores.sum(dim=-1).permute(0, 2, 1).unsqueeze(-1)  # (B, T, H, 1)\n"
          "        y = (num / den).reshape(B, T, D)\n")),
    case("alt_fwd_sqrt_dh_scale", "alternative",
         "forward scales q·k by 1/sqrt(d_h) out of softmax habit; the constant cancels between numerator and normalizer",
         [], ATTN,
         (SCORES, "        scores = (q @ k.transpose(-2, -1)) / q.shape[-1] ** 0.5 * weights  # (B, H, T, T)\n")),
    case("alt_fwd_exponent_plus_one", "alternative",
         "forward weights are γ^(t-i+1): one extra factor γ_h per head, which cancels between numerator and normalizer",
         [], ATTN,
         (LOG_W, "        log_w = log_gamma[:, None, None] * (lag + 1)  # (H, T, T)\n")),
    case("alt_fwd_float64_internal", "alternative",
         "forward casts q, k, v to float64, computes the mixing there, and casts y back to x.dtype before out_proj",
         [], ATTN,
         (FWD_V, FWD_V + "        q, k, v = q.double(), k.double(), v.double()  # accumulate in float64\n"),
         (Y, "        y = (num / den).to(x.dtype)\n")),
    case("alt_fwd_pow_abs_tril", "alternative",
         "decay weights as tril(sigmoid(logit) ** |t-i|): every power ≤ 1, so nothing overflows and tril zeroes the future",
         [], ATTN,
         (LOG_GAMMA + LOG_W + MASK + EXP,
          "        gamma = torch.sigmoid(self.gamma_logit).to(dtype)  # (H,)\n"
          "        return torch.tril(gamma[:, None, None] ** lag.abs())  # γ^|t-i| below the diagonal, 0 above\n")),
    case("alt_fwd_ones_column", "alternative",
         "forward appends a column of ones to v, so one matmul gives numerator and normalizer together",
         [], ATTN,
         (NUM + DEN + Y,
          "        v1 = torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # (B, H, T, d_h + 1)\n"
          "        out = scores @ v1  # last column: the row sums φ(q_t)·z_t\n"
          "        y = out[..., :-1] / out[..., -1:]\n")),
    case("alt_fwd_loop_over_heads", "alternative",
         "forward loops over heads in Python, one (B, T, T) score matrix per head, then stacks them",
         [], ATTN,
         (SCORES + NUM + DEN + Y,
          "        heads = []\n"
          "        for h in range(self.num_heads):\n"
          "            s_h = (q[:, h] @ k[:, h].transpose(-2, -1)) * weights[h]  # (B, T, T)\n"
          "            heads.append((s_h @ v[:, h]) / s_h.sum(dim=-1, keepdim=True))\n"
          "        y = torch.stack(heads, dim=1)  # (B, H, T, d_h)\n")),
    case("alt_step_einsum", "alternative",
         "step written with einsum for the decay, the outer product and both reads",
         [], ATTN,
         (ST_S + ST_Z + ST_READ_COMMENT + ST_NUM + ST_DEN,
          "        S = torch.einsum(\"h,bhij->bhij\", gamma, S) + torch.einsum(\"bhi,bhj->bhij\", k, v)\n"
          "        z = torch.einsum(\"h,bhi->bhi\", gamma, z) + k\n"
          "        num = torch.einsum(\"bhi,bhij->bhj\", q, S)\n"
          "        den = torch.einsum(\"bhi,bhi->bh\", q, z).unsqueeze(-1)\n")),
    case("alt_step_inplace_on_fresh_tensor", "alternative",
         "step decays S into a new tensor, then adds φ(k)vᵀ in place on that new tensor (the caller's S is untouched)",
         [], ATTN,
         (ST_S, "        S = S * gamma.view(1, H, 1, 1)  # new tensor\n"
                "        S += k.unsqueeze(-1) * v.unsqueeze(-2)\n")),
    case("alt_step_clone_then_inplace", "alternative",
         "step clones S and z, then updates the clones with mul_ and add_",
         [], ATTN,
         (ST_S + ST_Z,
          "        S = S.clone().mul_(gamma.view(1, H, 1, 1)).add_(k.unsqueeze(-1) * v.unsqueeze(-2))\n"
          "        z = z.clone().mul_(gamma.view(1, H, 1)).add_(k)\n")),
    case("alt_step_baddbmm_flat", "alternative",
         "step flattens (B, H) and uses baddbmm for the rank-one write and bmm for the read",
         [], ATTN,
         (ST_S + ST_Z + ST_READ_COMMENT + ST_NUM,
          "        S_flat = torch.baddbmm((gamma.view(1, H, 1, 1) * S).reshape(B * H, d_h, d_h),\n"
          "                               k.reshape(B * H, d_h, 1), v.reshape(B * H, 1, d_h))\n"
          "        S = S_flat.view(B, H, d_h, d_h)\n"
          "        z = gamma.view(1, H, 1) * z + k\n"
          "        num = torch.bmm(q.reshape(B * H, 1, d_h), S_flat).view(B, H, d_h)\n")),
    case("alt_nb_binary_units", "alternative",
         "Exercise 5 answers in binary units (GiB / MiB), same amounts",
         [], NB,
         (A_BLOCK,
          "mha_cache_one_layer: 15.26 GiB\n"
          "gqa8_cache_one_layer: 3.815 GiB\n"
          "window4096_cache_one_layer: 64.0 MiB\n"
          "linear_state_one_layer: 1.008 MiB\n"
          "all_mha_stack_4_layers: 61.04 GiB\n"
          "hybrid_lllf_stack_4_layers: 15.26 GiB\n"
          "grows_with_t: b\n")),
    case("alt_nb_exact_bytes", "alternative",
         "Exercise 5 answers as exact byte counts with thousands separators",
         [], NB,
         (A_BLOCK,
          "mha_cache_one_layer: 16,384,000,000 B\n"
          "gqa8_cache_one_layer: 4,096,000,000 B\n"
          "window4096_cache_one_layer: 67,108,864 B\n"
          "linear_state_one_layer: 1,056,768 B\n"
          "all_mha_stack_4_layers: 65,536,000,000 B\n"
          "hybrid_lllf_stack_4_layers: 16,387,170,304 B\n"
          "grows_with_t: b\n")),
    case("alt_nb_approx_signs", "alternative",
         "Exercise 5 answers prefixed with ≈ or ~ (\"≈ 16.4 GB\", \"~4.10 GB\"), option written as \"(b)\"",
         [], NB,
         (A_BLOCK,
          "mha_cache_one_layer: ≈ 16.4 GB\n"
          "gqa8_cache_one_layer: ~4.10 GB\n"
          "window4096_cache_one_layer: ≈67.1 MB\n"
          "linear_state_one_layer: ~ 1.057 MB\n"
          "all_mha_stack_4_layers: ≈ 65.5 GB\n"
          "hybrid_lllf_stack_4_layers: ~16.39 GB\n"
          "grows_with_t: (b)\n")),

    # ======================================================================== forward bugs
    case("bug_fwd_mask_one_future", "bug",
         "forward masks lag < -1 instead of lag < 0 (as tril(diagonal=1)): each token also sees the next one",
         ["forward_matches", "causality"], ATTN,
         (MASK, '        log_w = log_w.masked_fill(lag < -1, float("-inf"))  # future keys: exp(-inf) = 0\n')),
    case("bug_fwd_split_reshape_no_transpose", "bug",
         "head split is reshape(B, H, T, d_h) straight from (B, T, D), no transpose: scrambles heads and positions",
         ["forward_matches", "head_split", "causality"], ATTN,
         (SPLIT, "        return t.reshape(B, self.num_heads, T, self.head_dim)\n")),
    case("bug_fwd_merge_reshape_no_transpose", "bug",
         "heads merged with y.reshape(B, T, D) from (B, H, T, d_h), no transpose: output rows mix heads and positions",
         ["forward_matches", "head_split", "causality"], ATTN,
         (MERGE, "        y = y.reshape(B, T, D)  # merge heads\n")),
    case("bug_fwd_normalizer_undecayed", "bug",
         "forward normalizer is the row sum of tril(q·k): causal, but without the γ^(t-i) weights",
         ["forward_matches", "decay_normalizer"], ATTN,
         (DEN, "        den = torch.tril(q @ k.transpose(-2, -1)).sum(dim=-1, keepdim=True)  # φ(q_t)·z_t\n")),
    case("bug_fwd_normalizer_eps", "bug",
         "forward divides by (φ(q)·z + 1e-6) 'for safety'; step divides exactly, so the forms differ by ~1e-8 relative",
         ["forward_matches", "normalizer"], ATTN,
         (Y, "        y = num / (den + 1e-6)\n")),
    case("bug_fwd_noncausal_normalizer", "bug",
         "forward normalizer is φ(q_t)·Σ_all φ(k_i) (the non-causal formula): future keys, no decay",
         ["forward_matches", "normalizer", "causality"], ATTN,
         (DEN, "        den = q @ k.sum(dim=-2, keepdim=True).transpose(-2, -1)  # φ(q_t)·z\n")),
    case("bug_fwd_decay_log1m", "bug",
         "forward uses logsigmoid(-gamma_logit) = log(1 - γ): the decay is 1 - γ_h",
         ["forward_matches", "decay_both_forms"], ATTN,
         (LOG_GAMMA, "        log_gamma = F.logsigmoid(-self.gamma_logit).to(dtype)  # (H,): log γ_h\n")),
    case("bug_fwd_decay_by_key_position", "bug",
         "forward weights are γ^i (key position) instead of γ^(t-i): the earliest keys weigh most instead of the latest",
         ["forward_matches", "decay_both_forms"], ATTN,
         (LOG_W, "        log_w = log_gamma[:, None, None] * pos.to(dtype).expand(T, T)  # (H, T, T)\n")),
    case("bug_fwd_first_head_decay", "bug",
         "forward takes gamma_logit[:1] (left over from a one-head test): every head decays with head 0's γ",
         ["forward_matches", "decay_both_forms"], ATTN,
         (LOG_GAMMA, "        log_gamma = F.logsigmoid(self.gamma_logit[:1]).to(dtype)  # (H,): log γ_h\n")),
    case("bug_fwd_feature_map_on_v", "bug",
         "forward applies feature_map to v as well as q and k",
         ["forward_matches"], ATTN,
         (FWD_V, "        v = feature_map(self._split_heads(self.v_proj(x)))\n")),
    case("bug_fwd_einsum_batch_typo", "bug",
         "scores via einsum('bhtd,chsd->bhts'): the key batch index is summed, so keys of all sequences mix",
         ["forward_matches", "batch_isolation"], ATTN,
         (SCORES, "        scores = torch.einsum(\"bhtd,chsd->bhts\", q, k) * weights  # (B, H, T, T)\n")),
    case("bug_fwd_squeeze_batch_one", "bug",
         "y = (num / den).squeeze(0): with B = 1 the head axis becomes dim 0 and the merge scrambles the output",
         ["forward_matches", "causality"], ATTN,
         (Y, "        y = (num / den).squeeze(0)\n")),
    case("bug_fwd_t1_fast_path_shape", "bug",
         "forward short-cuts T == 1 through step and returns (B, D) instead of (B, 1, D)",
         ["forward_matches"], ATTN,
         (FWD_SHAPE, FWD_SHAPE + "        if T == 1:  # one token: the recurrent form is cheaper\n"
                                 "            return self.step(x[:, 0])[0]\n")),
    case("bug_fwd_weights_float64", "bug",
         "decay weights always built in float64: fine on float64 input, but float32 models crash in out_proj (notebook)",
         ["ex2_comparison", "ex3_recall"], ATTN,
         (WEIGHTS, "        weights = self._decay_weights(T, x.device, torch.float64)  # (H, T, T), full precision\n")),
    case("bug_fwd_where_after_exp", "bug",
         "weights = where(i ≤ t, exp(log γ·(t-i)), 0): outputs right, but exp overflows above the diagonal at long T "
         "with quick decays and the γ gradient becomes 0·inf = NaN",
         ["forward_matches"], ATTN,
         (MASK + EXP, "        return torch.where(lag >= 0, torch.exp(log_w), torch.zeros((), dtype=dtype, device=device))\n")),

    # ======================================================================== step bugs
    case("bug_step_z_updated_after_read", "bug",
         "step updates S, reads, and only then updates z: the normalizer misses the current key (0/0 at t = 0)",
         ["step_matches", "update_order"], ATTN,
         (ST_Z + ST_READ_COMMENT + ST_NUM + ST_DEN, ST_READ_COMMENT + ST_NUM + ST_DEN + ST_Z)),
    case("bug_step_gamma_logit_no_sigmoid", "bug",
         "step decays with gamma_logit itself instead of sigmoid(gamma_logit)",
         ["step_matches", "decay_both_forms"], ATTN,
         (ST_GAMMA, "        gamma = self.gamma_logit.to(x_t.dtype)  # (H,)\n")),
    case("bug_step_read_S_times_q", "bug",
         "step reads S φ(q) (matrix times vector) instead of φ(q)ᵀ S: the state is read transposed",
         ["step_matches"], ATTN,
         (ST_NUM, "        num = (S @ q.unsqueeze(-1)).squeeze(-1)  # φ(q)ᵀ S: (B, H, d_h)\n")),
    case("bug_step_k_without_feature_map", "bug",
         "step forgets feature_map on k (q still gets it): S and z accumulate raw keys",
         ["step_matches"], ATTN,
         (ST_K, "        k = self.k_proj(x_t).view(B, H, d_h)\n")),
    case("bug_step_normalizer_from_numerator", "bug",
         "step 'row sum' normalizer: den = sum of the numerator's d_h entries instead of φ(q)·z",
         ["step_matches", "normalizer"], ATTN,
         (ST_DEN, "        den = num.sum(dim=-1, keepdim=True)  # φ(q)·z: (B, H, 1)\n")),
    case("bug_step_normalizer_raw_q", "bug",
         "step normalizer uses the projected q without feature_map: q_proj(x)·z",
         ["step_matches", "normalizer"], ATTN,
         (ST_DEN, "        den = (self.q_proj(x_t).view(B, H, d_h) * z).sum(dim=-1, keepdim=True)  # (B, H, 1)\n")),
    case("bug_step_S_not_decayed", "bug",
         "step decays z but not S",
         ["step_matches", "decay_both_forms"], ATTN,
         (ST_S, "        S = S + k.unsqueeze(-1) * v.unsqueeze(-2)  # + φ(k) vᵀ per head\n")),
    case("bug_step_z_not_decayed", "bug",
         "step decays S but not z",
         ["step_matches", "decay_normalizer"], ATTN,
         (ST_Z, "        z = z + k\n")),
    case("bug_step_einsum_batch_typo", "bug",
         "outer product via einsum('bhd,che->bhde'): values are summed over the batch before the write",
         ["step_matches", "batch_isolation"], ATTN,
         (ST_S, "        S = gamma.view(1, H, 1, 1) * S + torch.einsum(\"bhd,che->bhde\", k, v)  # + φ(k) vᵀ per head\n")),
    case("bug_step_z_inplace", "bug",
         "step updates z with z.mul_(γ).add_(φ(k)): the caller's z is overwritten (outputs and returned state right)",
         ["lm_decoding"], ATTN,
         (ST_Z, "        z = z.mul_(gamma.view(1, H, 1)).add_(k)\n")),
    case("bug_step_S_decay_inplace", "bug",
         "step decays S with S *= γ before the (out-of-place) write: the caller's S is scaled in place",
         ["lm_decoding"], ATTN,
         (ST_S, "        S *= gamma.view(1, H, 1, 1)\n"
                "        S = S + k.unsqueeze(-1) * v.unsqueeze(-2)  # + φ(k) vᵀ per head\n")),
    case("bug_step_returns_stale_z", "bug",
         "step renames the new normalizer z_new and reads with it, but returns the incoming z",
         ["step_matches", "lm_decoding"], ATTN,
         (ST_Z + ST_READ_COMMENT + ST_NUM + ST_DEN,
          "        z_new = gamma.view(1, H, 1) * z + k\n" + ST_READ_COMMENT + ST_NUM +
          "        den = (q * z_new).sum(dim=-1, keepdim=True)  # φ(q)·z: (B, H, 1)\n")),
    case("bug_step_split_strided_heads", "bug",
         "step splits heads as view(B, d_h, H).transpose(1, 2) (head h = channels h, h+H, ...), merges contiguously",
         ["step_matches", "head_split"], ATTN,
         (ST_Q + ST_K + ST_V,
          "        q = feature_map(self.q_proj(x_t)).view(B, d_h, H).transpose(1, 2)\n"
          "        k = feature_map(self.k_proj(x_t)).view(B, d_h, H).transpose(1, 2)\n"
          "        v = self.v_proj(x_t).view(B, d_h, H).transpose(1, 2)\n")),
    case("bug_step_merge_transpose", "bug",
         "step merges with (num / den).transpose(1, 2).reshape(B, D), copied from forward: channels interleave",
         ["step_matches", "head_split"], ATTN,
         (ST_Y, "        y = (num / den).transpose(1, 2).reshape(B, D)\n")),
    case("bug_step_den_squeeze_single_head", "bug",
         "den = (q*z).sum(-1).squeeze()[..., None]: with one head and B > 1 the division broadcasts to (B, B, d_h) and reshape raises",
         ["step_matches"], ATTN,
         (ST_DEN, "        den = (q * z).sum(dim=-1).squeeze()[..., None]  # φ(q)·z\n")),
    case("bug_step_decay_float32", "bug",
         "step uses self.decay.float(): γ rounded to float32 in float64 models (relative error ~1e-8, growing with t)",
         ["step_matches"], ATTN,
         (ST_GAMMA, "        gamma = self.decay.float()  # (H,)\n")),
    case("bug_step_cost_input_log", "bug",
         "step appends every x_t to a tensor on the module with torch.cat ('to inspect later'): O(t) copy per step",
         ["step_cost", "step_matches"], ATTN,
         (ST_STATE, ST_STATE +
          "        # keep the inputs seen so far, to inspect the memory later\n"
          "        if not z.any() or getattr(self, \"_seen\", None) is None or self._seen.shape[0] != B:\n"
          "            self._seen = x_t.new_zeros(B, 0, D)\n"
          "        self._seen = torch.cat([self._seen, x_t.detach().unsqueeze(1)], dim=1)  # (B, t+1, D)\n")),
    case("bug_step_cost_z_resum", "bug",
         "step keeps every φ(k_i) on the module and re-sums z = Σ γ^(t-i) φ(k_i) each step (reset when the incoming z is 0)",
         ["step_cost", "step_matches"], ATTN,
         (ST_Z,
          "        if not z.any() or getattr(self, \"_k_hist\", None) is None or self._k_hist.shape[0] != B:\n"
          "            self._k_hist = k.new_zeros(B, H, 0, d_h)  # a new sequence\n"
          "        self._k_hist = torch.cat([self._k_hist, k.unsqueeze(2)], dim=2)  # (B, H, t+1, d_h)\n"
          "        lags = torch.arange(self._k_hist.shape[2] - 1, -1, -1, device=k.device).to(k.dtype)  # t - i\n"
          "        z = ((gamma.view(1, H, 1) ** lags.view(1, 1, -1))[..., None] * self._k_hist).sum(dim=2)\n")),

    # ======================================================================== Exercise 5 answers
    case("bug_nb_mha_k_only", "bug", "Exercise 5: MHA cache counts K only (T·D·BYTES = 8.19 GB)",
         ["bill_mha"], NB, (A_MHA, "mha_cache_one_layer: 8.19 GB\n")),
    case("bug_nb_gqa_four_heads", "bug", "Exercise 5: GQA priced with H/8 = 4 KV heads (2.05 GB)",
         ["bill_gqa8"], NB, (A_GQA, "gqa8_cache_one_layer: 2.05 GB\n")),
    case("bug_nb_linear_without_z", "bug", "Exercise 5: linear state counts S only (1.049 MB, 0.8% low)",
         ["bill_linear"], NB, (A_LIN, "linear_state_one_layer: 1.049 MB\n")),
    case("bug_nb_all_mha_gib_label", "bug", "Exercise 5: the all-MHA stack's 65.5 (GB) written with the unit GiB",
         ["bill_all_mha_stack"], NB, (A_ALL, "all_mha_stack_4_layers: 65.5 GiB\n")),
    case("bug_nb_hybrid_three_full", "bug", "Exercise 5: [L, L, L, F] priced as three full layers and one linear (49.15 GB)",
         ["bill_hybrid_stack"], NB, (A_HYB, "hybrid_lllf_stack_4_layers: 49.15 GB\n")),
    case("bug_nb_grows_window", "bug", "Exercise 5: says the sliding-window cache grows with T too (option c)",
         ["bill_grows"], NB, (A_GROWS, "grows_with_t: c\n")),

    # ======================================================================== stubs
    case("stub_random", "stub", "forward and step return random tensors of the right shapes (random state too)",
         CODE_ITEMS + EX_ITEMS, ATTN, ("@TAIL", STUB_RANDOM)),
    case("stub_zeros", "stub", "forward and step return zeros (and a zero state)",
         CODE_ITEMS + EX_ITEMS, ATTN, ("@TAIL", STUB_ZEROS)),
    case("stub_identity", "stub", "forward returns x, step returns x_t and the state unchanged",
         CODE_ITEMS + EX_ITEMS, ATTN, ("@TAIL", STUB_IDENTITY)),
]


def apply(text: str, edits, name: str) -> str:
    for old, new in edits:
        if old == "@TAIL":
            old = methods_tail()
        n = text.count(old)
        assert n == 1, f"{name}: anchor occurs {n} times: {old[:80]!r}"
        changed = text.replace(old, new)
        assert changed != text, f"{name}: replacement changed nothing: {old[:80]!r}"
        text = changed
    return text


def apply_notebook(path: Path, edits, name: str) -> None:
    nb = json.loads(path.read_text())
    for old, new in edits:
        hits = [c for c in nb["cells"] if old in "".join(c["source"])]
        total = sum("".join(c["source"]).count(old) for c in nb["cells"])
        assert len(hits) == 1 and total == 1, f"{name}: notebook anchor occurs {total} times: {old[:60]!r}"
        cell = hits[0]
        text = "".join(cell["source"])
        changed = text.replace(old, new)
        assert changed != text, name
        lines = changed.split("\n")
        cell["source"] = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def main() -> None:
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    for c in CASES:
        dest = HERE / c["name"]
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(BASE, dest, ignore=ignore)
        if c["file"] == NB:
            apply_notebook(dest / NB, c["edits"], c["name"])
        else:
            target = dest / c["file"]
            target.write_text(apply(target.read_text(), c["edits"], c["name"]))
    corpus = [{"name": "base", "kind": "alternative", "about": "reference-quality submission written for round 8",
               "should_lose": []}]
    corpus += [{k: c[k] for k in ("name", "kind", "about", "should_lose")} for c in CASES]
    (HERE / "corpus.yaml").write_text(yaml.safe_dump(corpus, sort_keys=False, allow_unicode=True, width=110))
    kinds = {}
    for entry in corpus:
        kinds[entry["kind"]] = kinds.get(entry["kind"], 0) + 1
    print(f"{len(corpus)} entries: {kinds}")


if __name__ == "__main__":
    main()
