"""Build the round-11 blind corpus: one folder per case beside base/, made from base/ by edits.

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

# ------------------------------------------------------------------------------------------------ alternatives
ALT_FWD_FLAT_BH = FWD_DOC + '''
        def fold(t: torch.Tensor) -> torch.Tensor:  # (B, T, D) -> (B·H, T, d_h), batch-major then head
            return t.view(B, T, H, d_h).permute(0, 2, 1, 3).reshape(B * H, T, d_h)

        q = fold(feature_map(self.q_proj(x)))
        k = fold(feature_map(self.k_proj(x)))
        v = fold(self.v_proj(x))
        t = torch.arange(T, device=x.device, dtype=x.dtype)
        gap = t[:, None] - t[None, :]  # (T, T): t - i
        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype).repeat(B)  # (B·H,): index b·H + h -> head h
        w = torch.exp(log_g[:, None, None] * gap.clamp(min=0)) * (gap >= 0).to(x.dtype)  # (B·H, T, T)
        a = torch.bmm(q, k.transpose(1, 2)) * w
        y = torch.bmm(a, v) / a.sum(dim=-1, keepdim=True)  # (B·H, T, d_h)
        y = y.view(B, H, T, d_h).permute(0, 2, 1, 3).reshape(B, T, D)
        return self.out_proj(y)
'''

ALT_FWD_CHUNKED = FWD_DOC + '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        # chunkwise: exact decayed scores inside a chunk of C tokens, the (S, z) memory between chunks
        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype).view(1, H, 1)
        C = 16
        S = x.new_zeros(B, H, d_h, d_h)  # memory up to the token before the chunk
        z = x.new_zeros(B, H, d_h)
        pieces = []
        for s0 in range(0, T, C):
            qc, kc, vc = q[:, :, s0:s0 + C], k[:, :, s0:s0 + C], v[:, :, s0:s0 + C]
            n = qc.size(2)
            j = torch.arange(n, device=x.device, dtype=x.dtype)
            gap = j[:, None] - j[None, :]
            intra = torch.exp(log_g[..., None] * gap.clamp(min=0)) * (gap >= 0).to(x.dtype)  # (1, H, n, n)
            a = torch.einsum("bhid,bhjd->bhij", qc, kc) * intra
            lead = torch.exp(log_g * (j + 1))  # (1, H, n): γ^(j+1) from the memory to chunk token j
            num = torch.einsum("bhij,bhjd->bhid", a, vc) + lead[..., None] * torch.einsum("bhid,bhde->bhie", qc, S)
            den = a.sum(dim=-1) + lead * torch.einsum("bhid,bhd->bhi", qc, z)
            pieces.append(num / den[..., None])
            tail = torch.exp(log_g * (n - 1 - j))[0]  # (H, n): γ^(n-1-j) to the chunk's last token
            carry = torch.exp(log_g * n)  # (1, H, 1): γ^n
            S = carry[..., None] * S + torch.einsum("bhjd,hj,bhje->bhde", kc, tail, vc)
            z = carry * z + torch.einsum("bhjd,hj->bhd", kc, tail)
        y = torch.cat(pieces, dim=2).transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''

ALT_FWD_SOFTMAX_LOG = FWD_DOC + '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        # φ > 0, so every score φ(q)·φ(k) is positive: the normalized decayed average is a softmax over
        # log(score) + (t-i)·log γ, with -inf for the future (all in log space, nothing can overflow)
        pos = torch.arange(T, device=x.device)
        lag = (pos[:, None] - pos[None, :]).to(x.dtype)
        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype)
        log_w = (log_g[:, None, None] * lag).masked_fill(lag < 0, float("-inf"))  # (H, T, T)
        logits = torch.log(q @ k.transpose(-2, -1)) + log_w  # (B, H, T, T)
        y = torch.softmax(logits, dim=-1) @ v
        y = y.transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''

ALT_FWD_POW_TRIL = FWD_DOC + '''        q = feature_map(self.q_proj(x)).unflatten(-1, (H, d_h)).transpose(1, 2)
        k = feature_map(self.k_proj(x)).unflatten(-1, (H, d_h)).transpose(1, 2)
        v = self.v_proj(x).unflatten(-1, (H, d_h)).transpose(1, 2)
        gamma = self.decay.to(x.dtype)  # (H,)
        pos = torch.arange(T, device=x.device)
        lag = (pos[:, None] - pos[None, :]).clamp(min=0).to(x.dtype)  # exponents >= 0: γ^n in [0, 1]
        lower = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        weights = torch.where(lower, gamma[:, None, None] ** lag, torch.zeros((), dtype=x.dtype, device=x.device))
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) * weights
        y = torch.einsum("bhts,bhsd->bhtd", scores, v) / scores.sum(-1, keepdim=True)
        return self.out_proj(y.transpose(1, 2).flatten(2))
'''

ALT_FWD_HEAD_MAJOR = FWD_DOC + '''        # head-major layout (H, B, T, d_h): the decay broadcasts over the batch as (H, 1, T, T)
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).permute(2, 0, 1, 3)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).permute(2, 0, 1, 3)
        v = self.v_proj(x).view(B, T, H, d_h).permute(2, 0, 1, 3)
        r = torch.arange(T, device=x.device)
        dist = (r.unsqueeze(1) - r.unsqueeze(0)).to(x.dtype)
        lg = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1, 1, 1)
        w = torch.exp(lg * dist.clamp(min=0.0)).masked_fill(dist < 0, 0.0)  # (H, 1, T, T)
        a = (q @ k.transpose(-1, -2)) * w  # (H, B, T, T)
        ones = torch.ones(T, 1, dtype=x.dtype, device=x.device)
        y = (a @ v) / (a @ ones)  # row sums as a product with a ones column
        y = y.permute(1, 2, 0, 3).reshape(B, T, D)
        return self.out_proj(y)
'''

ALT_STEP_FLOAT64 = STEP_DOC + '''        dt = x_t.dtype
        S, z = (s.to(torch.float64) for s in state)  # float64 internals, the state handed back in x_t's dtype
        xd = x_t.to(torch.float64)

        def proj(lin: nn.Linear) -> torch.Tensor:
            return F.linear(xd, lin.weight.to(torch.float64), lin.bias.to(torch.float64)).view(B, H, d_h)

        q, k, v = feature_map(proj(self.q_proj)), feature_map(proj(self.k_proj)), proj(self.v_proj)
        g = torch.sigmoid(self.gamma_logit.to(torch.float64))
        S = g.view(1, H, 1, 1) * S + torch.einsum("bhi,bhj->bhij", k, v)
        z = g.view(1, H, 1) * z + k
        y = torch.einsum("bhi,bhij->bhj", q, S) / torch.einsum("bhi,bhi->bh", q, z).unsqueeze(-1)
        return self.out_proj(y.reshape(B, D).to(dt)), (S.to(dt), z.to(dt))
'''

ALT_STEP_AUGMENTED = STEP_DOC + '''        S, z = state
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        # one augmented memory M = [S | z] of shape (B, H, d_h, d_h + 1): writing [v, 1] updates both at once
        M = torch.cat([S, z.unsqueeze(-1)], dim=-1)
        v1 = torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # (B, H, d_h + 1)
        M = self.decay.to(x_t.dtype).view(1, H, 1, 1) * M + k.unsqueeze(-1) * v1.unsqueeze(-2)
        r = (q.unsqueeze(-2) @ M).squeeze(-2)  # (B, H, d_h + 1): [φ(q)ᵀS, φ(q)ᵀz]
        y = (r[..., :d_h] / r[..., d_h:]).reshape(B, D)
        return self.out_proj(y), (M[..., :d_h], M[..., d_h])
'''

ALT_STEP_ADDCMUL = STEP_DOC + '''        S, z = state
        q = feature_map(self.q_proj(x_t)).unflatten(-1, (H, d_h))
        k = feature_map(self.k_proj(x_t)).unflatten(-1, (H, d_h))
        v = self.v_proj(x_t).unflatten(-1, (H, d_h))
        g = self.decay.to(x_t.dtype)[None, :, None]  # (1, H, 1)
        S = torch.addcmul(g[..., None] * S, k[..., :, None], v[..., None, :])  # γS + φ(k)vᵀ, a new tensor
        z = torch.addcmul(k, g, z)  # φ(k) + γz
        y = torch.einsum("bhi,bhij->bhj", q, S) / torch.einsum("bhi,bhi->bh", q, z)[..., None]
        return self.out_proj(y.flatten(1)), (S, z)
'''

# ------------------------------------------------------------------------------------------------ whole-method bugs
BUG_FWD_BH_SWAP = FWD_DOC + '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2).reshape(B * H, T, d_h)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2).reshape(B * H, T, d_h)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2).reshape(B * H, T, d_h)
        idx = torch.arange(T, device=x.device)
        lag = idx.view(T, 1) - idx.view(1, T)
        log_gamma = F.logsigmoid(self.gamma_logit).to(dtype=x.dtype)
        expo = log_gamma.repeat(B).view(B * H, 1, 1) * lag.clamp(min=0).to(dtype=x.dtype)
        weights = torch.exp(expo).masked_fill(lag < 0, 0.0)  # (B·H, T, T)
        scores = torch.bmm(q, k.transpose(1, 2)) * weights
        y = torch.bmm(scores, v) / scores.sum(dim=-1, keepdim=True)  # (B·H, T, d_h)
        y = y.view(H, B, T, d_h).permute(1, 2, 0, 3).reshape(B, T, D)  # unfold the heads again
        return self.out_proj(y)
'''

BUG_STEP_MODULE_MEMORY = STEP_DOC + '''        S, z = state
        # the layer remembers its own (S, z) between calls; a fresh (all-zero) state starts a new sequence
        if not S.any() or getattr(self, "_memory", None) is None:
            self._memory = (S, z)
        S, z = self._memory
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        gamma = self.decay.to(dtype=x_t.dtype)
        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)
        z = gamma.view(1, H, 1) * z + k
        self._memory = (S, z)
        numer = torch.matmul(q.unsqueeze(-2), S).squeeze(-2)
        denom = (q * z).sum(dim=-1, keepdim=True)
        y = (numer / denom).reshape(B, D)
        return self.out_proj(y), (S, z)
'''

BUG_STEP_COST_FORWARD = STEP_DOC + '''        S, z = state
        # keep the tokens of this sequence and read y_t from the parallel reference, so that step agrees with
        # forward by construction; (S, z) is still updated and returned for the caller
        if not S.any() or getattr(self, "_tokens", None) is None:
            self._tokens = []
        self._tokens.append(x_t)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        gamma = self.decay.to(dtype=x_t.dtype)
        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)
        z = gamma.view(1, H, 1) * z + k
        y = self.forward(torch.stack(self._tokens, dim=1))[:, -1]  # (B, D), out_proj included
        return y, (S, z)
'''

# ------------------------------------------------------------------------------------------------ stubs
STUB_FWD_RANDN = FWD_DOC + "        return torch.randn_like(x)\n"
STUB_STEP_RANDN = STEP_DOC + "        return torch.randn_like(x_t), state\n"
STUB_FWD_ZERO = FWD_DOC + "        return torch.zeros_like(x)\n"
STUB_STEP_ZERO = STEP_DOC + "        return torch.zeros_like(x_t), state\n"
STUB_FWD_ID = FWD_DOC + "        return x\n"
STUB_STEP_ID = STEP_DOC + "        return x_t, state\n"

# ------------------------------------------------------------------------------------------------ notebook pieces
SCRATCH = "nb:ex5-036"
ANS = "nb:ex5-037"
ASSERTS = '''# cross-check the MHA / linear rows and both stacks against the provided memory_bill
assert memory_bill(["full"], T, D, H, bytes_per_value=BYTES).total_bytes == mha
assert memory_bill(["linear"], T, D, H, bytes_per_value=BYTES).total_bytes == linear
assert memory_bill(["full"] * 4, T, D, H, bytes_per_value=BYTES).total_bytes == all_mha
assert memory_bill(["linear", "linear", "linear", "full"], T, D, H, bytes_per_value=BYTES).total_bytes == hybrid

'''
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
C.append(case("alt_fwd_flat_bh_bmm", "alternative",
              "forward folds heads into the batch, (B·H, T, d_h), and uses bmm with the decay repeated per sequence",
              [], [(ATT, "def:forward", ALT_FWD_FLAT_BH)]))
C.append(case("alt_fwd_chunked_16", "alternative",
              "forward is chunkwise (C = 16, einsum): decayed scores inside a chunk, (S, z) carried between chunks",
              [], [(ATT, "def:forward", ALT_FWD_CHUNKED)]))
C.append(case("alt_fwd_softmax_of_log_scores", "alternative",
              "forward works in log space: softmax over log(φ(q)·φ(k)) + (t-i)·log γ with -inf above the diagonal",
              [], [(ATT, "def:forward", ALT_FWD_SOFTMAX_LOG)]))
C.append(case("alt_fwd_pow_clamped_tril", "alternative",
              "forward builds γ^(t-i) with pow on clamped (non-negative) exponents, zeroes the future with torch.where, "
              "einsum throughout",
              [], [(ATT, "def:forward", ALT_FWD_POW_TRIL)]))
C.append(case("alt_fwd_head_major_layout", "alternative",
              "forward uses an (H, B, T, d_h) head-major layout and takes the row sums as a product with a ones column",
              [], [(ATT, "def:forward", ALT_FWD_HEAD_MAJOR)]))
C.append(case("alt_step_float64_internals", "alternative",
              "step computes in float64 (projections, state, read) and hands y and (S, z) back in x_t's dtype",
              [], [(ATT, "def:step", ALT_STEP_FLOAT64)]))
C.append(case("alt_step_augmented_memory", "alternative",
              "step keeps one augmented memory [S | z] (d_h × (d_h+1)) written with [v, 1] and splits it on return",
              [], [(ATT, "def:step", ALT_STEP_AUGMENTED)]))
C.append(case("alt_step_addcmul_einsum", "alternative",
              "step updates with out-of-place torch.addcmul and reads with einsum, heads split by unflatten",
              [], [(ATT, "def:step", ALT_STEP_ADDCMUL)]))

# ---------------------------------------------------------------- forward bugs
C.append(case("bug_fwd_merge_without_transpose", "bug",
              "forward merges heads with y.reshape(B, T, D) straight from (B, H, T, d_h): rows mix heads and tokens, "
              "later tokens leak into earlier rows (exact only at H = 1)",
              [FM, HS, CA],
              [(ATT, "        y = y.transpose(1, 2).contiguous().view(B, T, D)\n", "        y = y.reshape(B, T, D)\n")]))
C.append(case("bug_fwd_bh_fold_unfold_swapped", "bug",
              "forward folds heads into the batch as b·H + h but unfolds with view(H, B, ...): sequences and heads "
              "swap places when B > 1 and H > 1 (exact when B = 1 or H = 1)",
              [FM, BI, HS], [(ATT, "def:forward", BUG_FWD_BH_SWAP)]))
C.append(case("bug_fwd_decay_by_key_position", "bug",
              "forward weights key i by γ^i (its absolute position) instead of γ^(t-i): old tokens weigh most, "
              "and at long T with a quick decay the weights underflow",
              [FM, DEC, LS],
              [(ATT, "        expo = log_gamma.view(H, 1, 1) * lag.clamp(min=0).to(dtype=x.dtype)  # (H, T, T), <= 0\n",
                "        expo = log_gamma.view(H, 1, 1) * idx.view(1, 1, T).to(dtype=x.dtype)  # (H, 1, T): the key's age\n"
                "        expo = expo.expand(H, T, T)\n")]))
C.append(case("bug_fwd_pow_then_mask_overflows", "bug",
              "forward computes γ ** (t-i) over the whole T × T grid (negative exponents above the diagonal) and then "
              "multiplies by the mask: exact for short T, but γ^-(i-t) overflows to inf and inf·0 = NaN at T = 300, "
              "γ = 0.05",
              [LS],
              [(ATT, '''        log_gamma = F.logsigmoid(self.gamma_logit).to(dtype=x.dtype)  # (H,), <= 0
        expo = log_gamma.view(H, 1, 1) * lag.clamp(min=0).to(dtype=x.dtype)  # (H, T, T), <= 0
        weights = torch.exp(expo).masked_fill(~keep, 0.0)  # (H, T, T)
''', '''        gamma = self.decay.to(dtype=x.dtype)  # (H,)
        weights = gamma.view(H, 1, 1) ** lag.to(dtype=x.dtype)  # (H, T, T): γ^(t-i)
        weights = weights * keep.to(dtype=x.dtype)  # zero out the future
''')]))
C.append(case("bug_fwd_abs_lag_no_mask", "bug",
              "forward uses γ^|t-i| and drops the mask, reasoning that the decay already fades distant tokens: "
              "future tokens are mixed in (not causal)",
              [FM, CA],
              [(ATT, '''        expo = log_gamma.view(H, 1, 1) * lag.clamp(min=0).to(dtype=x.dtype)  # (H, T, T), <= 0
        weights = torch.exp(expo).masked_fill(~keep, 0.0)  # (H, T, T)
''', '''        expo = -log_gamma.view(H, 1, 1).abs() * lag.abs().to(dtype=x.dtype)  # (H, T, T), <= 0
        weights = torch.exp(expo)  # (H, T, T): γ^|t-i| fades distant tokens on both sides
''')]))
C.append(case("bug_fwd_denominator_unmasked", "bug",
              "forward masks the scores only in the numerator; the row sums still include the future keys "
              "(weight 1 after the clamp), so the normalizer is too big and depends on later tokens",
              [FM, NORM, CA],
              [(ATT, "        weights = torch.exp(expo).masked_fill(~keep, 0.0)  # (H, T, T)\n",
                "        weights = torch.exp(expo)  # (H, T, T)\n"),
               (ATT, "        numer = torch.matmul(scores, v)  # (B, H, T, d_h)\n",
                "        numer = torch.matmul(scores.masked_fill(~keep, 0.0), v)  # (B, H, T, d_h): only the past\n")]))
C.append(case("bug_fwd_feature_map_on_v", "bug",
              "forward applies φ to v as well as to q and k (step does not): outputs are averages of φ(v)",
              [FM],
              [(ATT, "        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)\n",
                "        v = feature_map(self.v_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n")]))
C.append(case("bug_fwd_decay_detached", "bug",
              "forward takes logsigmoid(gamma_logit.detach()): outputs exact, but the decays get no gradient and never "
              "train",
              [FM],
              [(ATT, "        log_gamma = F.logsigmoid(self.gamma_logit).to(dtype=x.dtype)  # (H,), <= 0\n",
                "        log_gamma = F.logsigmoid(self.gamma_logit.detach()).to(dtype=x.dtype)  # (H,), a constant here\n")]))
C.append(case("bug_fwd_inplace_mask_breaks_backward", "bug",
              "forward zeroes the future with an in-place masked_fill_ on exp's output: outputs exact, but every "
              "backward raises (exp saved its result), so gradients and the training exercises fail",
              [FM, CA, LS, "ex2_comparison", "ex3_recall"],
              [(ATT, "        weights = torch.exp(expo).masked_fill(~keep, 0.0)  # (H, T, T)\n",
                "        weights = torch.exp(expo)  # (H, T, T)\n"
                "        weights.masked_fill_(~keep, 0.0)  # in place: no second T × T buffer\n")]))
C.append(case("bug_fwd_log_gamma_bfloat16", "bug",
              "forward keeps log γ in bfloat16 ('a per-head constant, as in mixed-precision training'): each head's "
              "decay is off by ~0.4% of log γ, which compounds with t-i (exact only at γ = 1)",
              [FM, DEC, LS],
              [(ATT, "        log_gamma = F.logsigmoid(self.gamma_logit).to(dtype=x.dtype)  # (H,), <= 0\n",
                "        log_gamma = F.logsigmoid(self.gamma_logit).to(dtype=torch.bfloat16)  # (H,), a small constant\n")]))
C.append(case("bug_fwd_normalizer_undecayed", "bug",
              "forward divides by the undecayed masked row sums of φ(q)·φ(k): the numerator decays, the normalizer "
              "does not (exact only at γ = 1)",
              [FM, DZ],
              [(ATT, "        denom = scores.sum(dim=-1, keepdim=True)  # (B, H, T, 1)\n",
                "        denom = torch.matmul(q, k.transpose(-2, -1)).masked_fill(~keep, 0.0).sum(dim=-1, keepdim=True)\n")]))
C.append(case("bug_fwd_normalizer_column_sums", "bug",
              "forward normalizes by column sums (sum over queries, dim=-2) instead of row sums: wrong scale, and "
              "output t depends on later queries",
              [FM, NORM, CA],
              [(ATT, "        denom = scores.sum(dim=-1, keepdim=True)  # (B, H, T, 1)\n",
                "        denom = scores.sum(dim=-2).unsqueeze(-1)  # (B, H, T, 1)\n")]))
C.append(case("bug_fwd_first_head_decay_for_all", "bug",
              "forward uses log_gamma[0] for every head: all heads share head 0's decay (exact at H = 1)",
              [FM, DEC],
              [(ATT, "        expo = log_gamma.view(H, 1, 1) * lag.clamp(min=0).to(dtype=x.dtype)  # (H, T, T), <= 0\n",
                "        expo = log_gamma[0] * lag.clamp(min=0).to(dtype=x.dtype)  # (T, T), <= 0\n")]))

# ---------------------------------------------------------------- step bugs
C.append(case("bug_step_writes_into_state_buffers", "bug",
              "step writes the new S and z into the incoming tensors with S[...] = ..., z[...] = ...: outputs and the "
              "returned state are right, the caller's state is overwritten",
              [LM],
              [(ATT, '''        #    Out of place: the caller's (S, z) is left as it was.
        S = gamma_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)
        z = gamma_z * z + k  # (B, H, d_h)
''', '''        #    Written into the state's own buffers: no new (B, H, d_h, d_h) tensor per token.
        S[...] = gamma_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)
        z[...] = gamma_z * z + k  # (B, H, d_h)
''')]))
C.append(case("bug_step_write_summed_over_batch", "bug",
              "step builds the outer product with einsum('bhi,bhj->hij'): every sequence's S receives the sum of all "
              "sequences' writes (exact at B = 1)",
              [SM, BI],
              [(ATT, "        S = gamma_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)\n",
                "        S = gamma_S * S + torch.einsum(\"bhi,bhj->hij\", k, v)  # (B, H, d_h, d_h)\n")]))
C.append(case("bug_step_read_transposed", "bug",
              "step reads S φ(q) (matmul(S, q)) instead of φ(q)ᵀ S: the write and the read disagree on S's orientation",
              [SM],
              [(ATT, "        numer = torch.matmul(q.unsqueeze(-2), S).squeeze(-2)  # (B, H, d_h)\n",
                "        numer = torch.matmul(S, q.unsqueeze(-1)).squeeze(-1)  # (B, H, d_h)\n")]))
C.append(case("bug_step_normalizer_reads_old_z", "bug",
              "step reads the numerator from the updated S but the normalizer from the z it was given (z_new is only "
              "returned): 1/0 at t = 0, then the normalizer lags one token",
              [SM, UO],
              [(ATT, "        z = gamma_z * z + k  # (B, H, d_h)\n", "        z_new = gamma_z * z + k  # (B, H, d_h)\n"),
               (ATT, "        return self.out_proj(y), (S, z)\n", "        return self.out_proj(y), (S, z_new)\n")]))
C.append(case("bug_step_z_accumulates_v", "bug",
              "step accumulates v instead of φ(k) in z (copy-paste from the S line): the normalizer is φ(q)·Σγv",
              [SM, NORM],
              [(ATT, "        z = gamma_z * z + k  # (B, H, d_h)\n", "        z = gamma_z * z + v  # (B, H, d_h)\n")]))
C.append(case("bug_step_decay_one_minus", "bug",
              "step treats self.decay as the forgetting rate and multiplies the state by 1 - γ",
              [SM, DEC],
              [(ATT, "        gamma = self.decay.to(dtype=x_t.dtype)\n",
                "        gamma = (1 - self.decay).to(dtype=x_t.dtype)  # decay = the share forgotten per token\n")]))
C.append(case("bug_step_merge_transposed", "bug",
              "step merges heads with transpose(1, 2).reshape(B, D) copied from forward: (B, H, d_h) becomes "
              "(B, d_h, H) and channels of different heads interleave (exact at H = 1)",
              [SM, HS],
              [(ATT, "        y = (numer / denom).reshape(B, D)\n",
                "        y = (numer / denom).transpose(1, 2).reshape(B, D)  # merge heads as in forward\n")]))
C.append(case("bug_step_normalizer_summed_over_heads", "bug",
              "step sums φ(q)·z over the heads as well and divides every head by that total (exact at H = 1)",
              [SM, HS],
              [(ATT, "        denom = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)\n",
                "        denom = (q * z).sum(dim=(-2, -1)).view(B, 1, 1)  # (B, 1, 1)\n")]))
C.append(case("bug_step_memory_kept_on_module", "bug",
              "step keeps its own (S, z) on the module and uses the incoming state only when it is all zeros: "
              "sequential decoding is exact, a state handed in from elsewhere is ignored",
              [LM], [(ATT, "def:step", BUG_STEP_MODULE_MEMORY)]))
C.append(case("bug_step_cost_forward_over_history", "bug",
              "step stores every token of the sequence on the module and reads y_t from forward() over all of them: "
              "exact in sequential decoding, but O(t²) work and O(t) memory per token, and a state handed in after "
              "another sequence has run is not what the output is read from",
              [COST, SM, LM], [(ATT, "def:step", BUG_STEP_COST_FORWARD)]))
C.append(case("bug_step_cost_keeps_state_snapshots", "bug",
              "step is correct but appends every (S, z) it produces to self.history 'for plotting': memory grows by "
              "one d_h × d_h state per head per token",
              [COST, SM],
              [(ATT, "        return self.out_proj(y), (S, z)\n",
                "        if not hasattr(self, \"history\"):\n"
                "            self.history = []\n"
                "        self.history.append((S.detach(), z.detach()))  # every state, to plot norms later\n"
                "        return self.out_proj(y), (S, z)\n")]))

# ---------------------------------------------------------------- notebook bugs
C.append(case("bug_nb_gqa_heads_of_width_D_over_8", "bug",
              "Exercise 5: GQA-8 priced with KV heads of width D/8 instead of d_h, which gives back the full MHA cache",
              ["bill_gqa8"],
              [(SCRATCH, "gqa8 = 2 * T * 8 * d_h * BYTES                # K and V for 8 KV heads of width d_h",
                "gqa8 = 2 * T * 8 * (D // 8) * BYTES           # K and V for 8 KV heads, D split over them")]
              + nb_answers(gqa8_cache_one_layer="16384000000 B")))
C.append(case("bug_nb_linear_state_fp32", "bug",
              "Exercise 5: the (S, z) state priced at 4 bytes a value ('kept in fp32 for stability') instead of BYTES: "
              "2× too big; the hybrid total stays within 1%",
              ["bill_linear"],
              [(SCRATCH, "linear = (H * d_h * d_h + H * d_h) * BYTES    # S: H x d_h x d_h, z: H x d_h; independent of T",
                "linear = (H * d_h * d_h + H * d_h) * 4        # S and z accumulate: kept in fp32"),
               (SCRATCH, ASSERTS, "")]
              + nb_answers(linear_state_one_layer="2113536 B", hybrid_lllf_stack_4_layers="16390340608 B")))
C.append(case("bug_nb_mha_every_head_width_D", "bug",
              "Exercise 5: each of the H heads caches K and V of width D (2·T·H·D values): MHA and both stacks H× "
              "too big in the MHA part",
              ["bill_mha", "bill_all_mha_stack", "bill_hybrid_stack"],
              [(SCRATCH, "mha = 2 * T * D * BYTES                       # K and V: D values per token each, all H heads",
                "mha = 2 * T * H * D * BYTES                   # K and V per head, D values per token"),
               (SCRATCH, ASSERTS, "")]
              + nb_answers(mha_cache_one_layer="524288000000 B", all_mha_stack_4_layers="2097152000000 B",
                           hybrid_lllf_stack_4_layers="524291170304 B")))
C.append(case("bug_nb_grows_all_states", "bug",
              "Exercise 5: answers (a), that every state grows with T, (S, z) included", ["bill_grows"],
              nb_answers(grows_with_t="a")))
C.append(case("bug_nb_hybrid_full_layer_as_gqa", "bug",
              "Exercise 5: the [L, L, L, F] stack priced with a GQA-8 cache in its full layer instead of MHA",
              ["bill_hybrid_stack"],
              [(SCRATCH, "hybrid = 3 * linear + mha                     # [L, L, L, F]: three (S, z) states and one MHA cache",
                "hybrid = 3 * linear + gqa8                    # [L, L, L, F]: the full layer would use GQA"),
               (SCRATCH, ASSERTS, "")]
              + nb_answers(hybrid_lllf_stack_4_layers="4099170304 B")))
C.append(case("bug_nb_ex3_plot_removed", "bug",
              "Exercise 3: the student deleted the plotting half of the recall cell 'to save time': accuracies are "
              "computed and printed, no figure",
              ["ex3_recall"],
              [("nb:ex3-024", '''fig, ax = plt.subplots(1, 2, figsize=(11, 3.5))
centers = [(lo + hi) / 2 for lo, hi in zip(bins[:-1], bins[1:])]
for name, acc in recall.items():
    ax[0].plot(centers, acc, "o-", label=name)
    ax[1].plot(smooth(recall_losses[name]), label=name)
ax[0].axhline(1 / task.num_values, color="gray", ls=":", label="chance")
ax[0].set(xlabel="retrieval distance (tokens)", ylabel="accuracy", ylim=(0, 1.05), title="recall by distance")
ax[0].legend()
ax[1].axhline(math.log(task.num_values), color="gray", ls=":", label="chance: ln(values per key)")
ax[1].set(xlabel="step", ylabel="recall loss (smoothed)", title="training")
ax[1].legend()
plt.tight_layout()
plt.show()''', "# (plot removed: the printed accuracies above are enough)")]))

# ---------------------------------------------------------------- stubs
STUB_LOSE = CODE_ITEMS + EXERCISES
C.append(case("stub_randn", "stub", "forward and step return torch.randn of the right shape (step hands the state back)",
              STUB_LOSE, [(ATT, "def:forward", STUB_FWD_RANDN), (ATT, "def:step", STUB_STEP_RANDN)]))
C.append(case("stub_zeros", "stub", "forward and step return zeros of the right shape (step hands the state back)",
              STUB_LOSE, [(ATT, "def:forward", STUB_FWD_ZERO), (ATT, "def:step", STUB_STEP_ZERO)]))
C.append(case("stub_identity", "stub", "forward returns x and step returns x_t with the state unchanged",
              STUB_LOSE, [(ATT, "def:forward", STUB_FWD_ID), (ATT, "def:step", STUB_STEP_ID)]))


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
    entries = [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=list(c["should_lose"])) for c in C]
    with open(HERE / "corpus.yaml", "w") as f:
        yaml.safe_dump(entries, f, sort_keys=False, allow_unicode=True, width=110)
    counts = {k: sum(c["kind"] == k for c in C[1:]) for k in ("bug", "alternative", "stub")}
    print(f"{len(C) - 1} cases besides base:", counts)


if __name__ == "__main__":
    main()
