"""Build the round-13 blind corpus: one folder per case beside base/, made from base/ by edits.

    python make_cases.py            # (re)builds every case folder and corpus.yaml

Edits, applied in order to a fresh copy of base/:
  (target, old, new)              exact anchored replacement: `old` must occur exactly once in the file (for the
                                  notebook: in one cell's joined source, target "nb:<cell id>") and the result
                                  must differ from the input;
  (ATT, "def:<name>", new)        whole-method replacement: method `<name>` of class LinearAttention is located
                                  with ast (decorators to end_lineno) and replaced by `new` (a full `def`);
  (ATT or NB, "template", None)   the file is replaced by the student template's copy, byte for byte.
The notebook is written back in the template's JSON layout (indent 1, UTF-8, trailing newline).
"""
from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
TEMPLATE = HERE.parents[3] / "student_template" / "linear-attention-hybrid"
ATT = "g2c/linear_attention/attention.py"
NB = "linear_attention_hybrid.ipynb"

CODE_ITEMS = ["forward_matches", "step_matches", "normalizer", "update_order", "decay_both_forms",
              "decay_normalizer", "head_split", "batch_isolation", "causality", "long_sequences",
              "lm_decoding", "step_cost"]
EXERCISES = ["ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"]
BILL = ["bill_mha", "bill_gqa8", "bill_window", "bill_linear", "bill_all_mha_stack", "bill_hybrid_stack",
        "bill_grows"]
WRITTEN = ["written_ex1", "written_ex2", "written_ex3", "written_ex4", "written_concepts"]
ALL_ITEMS = CODE_ITEMS + EXERCISES + BILL + WRITTEN
FM, SM, NORM, UO, DEC, DZ, HS, BI, CA, LS, LM, COST = CODE_ITEMS
BILL_NUMBERS = BILL[:6]

# ------------------------------------------------------------------------------------------------ base anchors
# forward (each line occurs once in base's attention.py)
F_Q = "        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"
F_K = "        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"
F_V = "        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)\n"
F_LOGG = "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,), log γ_h ≤ 0\n"
F_EXPO = ("        exponent = log_gamma[:, None, None] * lag.clamp(min=0).to(x.dtype)  "
          "# (H, T, T), ≤ 0: no overflow\n")
F_WEIGHTS = "        weights = torch.exp(exponent).masked_fill(~visible, 0.0)  # (H, T, T)\n"
F_Y = "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)  # (B, H, T, d_h)\n"
F_MERGE = "        y = y.transpose(1, 2).reshape(B, T, D)\n"
# step
S_K = "        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)\n"
S_GAMMA = "        gamma = self.decay.to(x_t.dtype)\n"
S_S = "        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # γ·S + φ(k) vᵀ\n"
S_Z = "        z = gamma.view(1, H, 1) * z + k  # γ·z + φ(k)\n"
S_READ_COMMENT = "        # 4. then read, so token t sees itself: φ(q)ᵀ S / φ(q)ᵀ z\n"
S_NUMER = "        numer = (q.unsqueeze(-2) @ S).squeeze(-2)  # (B, H, d_h)\n"
S_DENOM = "        denom = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)\n"
S_Y = "        y = (numer / denom).reshape(B, D)\n"

FWD_HEAD = '''    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Parallel reference: x (B, T, D) -> (B, T, D), all positions at once."""
        B, T, D = x.shape
        H, d_h = self.num_heads, self.head_dim
'''
STEP_HEAD = '''    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """Recurrent form: one token x_t (B, D) and the memory (S, z) -> (y_t (B, D), new (S, z))."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
        S, z = state
'''

# ------------------------------------------------------------------------------------------------ alternatives
ALT_FWD_CHUNKWISE = FWD_HEAD + '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)  # (B, H, T, d_h)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,)
        C = 8  # chunk length: parallel inside a chunk, recurrent from chunk to chunk
        S = x.new_zeros(B, H, d_h, d_h)  # the state after the previous chunk
        z = x.new_zeros(B, H, d_h)
        outs = []
        for s in range(0, T, C):
            qc, kc, vc = q[:, :, s:s + C], k[:, :, s:s + C], v[:, :, s:s + C]
            n = qc.shape[2]
            j = torch.arange(n, device=x.device, dtype=x.dtype)
            lag = j[:, None] - j[None, :]
            w = torch.exp(log_gamma[:, None, None] * lag.clamp(min=0)).tril()  # (H, n, n): γ^(j-i), i ≤ j
            inner = (qc @ kc.transpose(-2, -1)) * w  # (B, H, n, n)
            carry = torch.exp(log_gamma[:, None] * (j + 1))[None, :, :, None]  # (1, H, n, 1): γ^(j+1)
            numer = inner @ vc + carry * (qc @ S)
            denom = inner.sum(dim=-1, keepdim=True) + carry * (qc @ z.unsqueeze(-1))
            outs.append(numer / denom)
            # the state after this chunk: γ^n S + Σ_i γ^(n-1-i) φ(k_i) v_iᵀ (and the same for z)
            kw = kc * torch.exp(log_gamma[:, None] * (n - 1 - j))[None, :, :, None]
            g_n = torch.exp(log_gamma * n)
            S = g_n.view(1, H, 1, 1) * S + kw.transpose(-2, -1) @ vc
            z = g_n.view(1, H, 1) * z + kw.sum(dim=2)
        y = torch.cat(outs, dim=2).transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''

ALT_FWD_BMM = FWD_HEAD + '''        # heads folded into the batch: row b·H + h of every (B·H, T, ·) tensor is head h of sequence b
        def fold(t):
            return t.view(B, T, H, d_h).permute(0, 2, 1, 3).reshape(B * H, T, d_h)

        q = fold(feature_map(self.q_proj(x)))
        k = fold(feature_map(self.k_proj(x)))
        v = fold(self.v_proj(x))
        pos = torch.arange(T, device=x.device, dtype=x.dtype)
        lag = (pos[:, None] - pos[None, :]).clamp(min=0)
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)
        w = torch.exp(log_gamma.view(H, 1, 1) * lag).tril()  # (H, T, T), zero above the diagonal
        a = torch.bmm(q, k.transpose(1, 2)) * w.repeat(B, 1, 1)  # (B·H, T, T): row b·H + h gets head h's decay
        y = torch.bmm(a, v) / a.sum(dim=-1, keepdim=True)  # (B·H, T, d_h)
        y = y.view(B, H, T, d_h).permute(0, 2, 1, 3).reshape(B, T, D)
        return self.out_proj(y)
'''

ALT_FWD_DOUBLING = FWD_HEAD + '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)  # (B, H, T, d_h)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,)
        # decayed prefix sums by doubling (Hillis-Steele): after the pass with shift s, position t holds
        # Σ γ^(t-i) φ(k_i) v_iᵀ over the last 2s tokens; log2(T) passes give the whole prefix
        S = k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, T, d_h, d_h): each token's own write
        Z = k  # (B, H, T, d_h)
        shift = 1
        while shift < T:
            g = torch.exp(log_gamma * shift)  # γ^shift, (H,)
            S = torch.cat([S[:, :, :shift], S[:, :, shift:] + g.view(1, H, 1, 1, 1) * S[:, :, :-shift]], dim=2)
            Z = torch.cat([Z[:, :, :shift], Z[:, :, shift:] + g.view(1, H, 1, 1) * Z[:, :, :-shift]], dim=2)
            shift *= 2
        numer = (q.unsqueeze(-2) @ S).squeeze(-2)  # φ(q_t)ᵀ S_t, (B, H, T, d_h)
        y = numer / (q * Z).sum(dim=-1, keepdim=True)
        y = y.transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''

ALT_STEP_AUGMENTED = STEP_HEAD + '''        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        gamma = self.decay.to(x_t.dtype).view(1, H, 1, 1)
        # z rides along as one more column of S: [S | z] is updated by [v | 1] in one outer product
        Sz = torch.cat([S, z.unsqueeze(-1)], dim=-1)  # (B, H, d_h, d_h + 1), a new tensor
        v1 = torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # (B, H, d_h + 1)
        Sz = gamma * Sz + k.unsqueeze(-1) * v1.unsqueeze(-2)
        out = (q.unsqueeze(-2) @ Sz).squeeze(-2)  # (B, H, d_h + 1): [φ(q)ᵀS, φ(q)ᵀz]
        y = (out[..., :d_h] / out[..., d_h:]).reshape(B, D)
        return self.out_proj(y), (Sz[..., :d_h].contiguous(), Sz[..., d_h].contiguous())
'''

ALT_STEP_READ_OLD_PLUS_CURRENT = STEP_HEAD + '''        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        g = self.decay.to(x_t.dtype).view(1, H, 1)
        # φ(q)ᵀ(γS + φ(k)vᵀ) = γ·φ(q)ᵀS + (φ(q)·φ(k)) v: the read includes token t without forming the new S first
        qk = (q * k).sum(dim=-1, keepdim=True)  # (B, H, 1)
        numer = g * torch.einsum("bhi,bhij->bhj", q, S) + qk * v
        denom = g * (q * z).sum(dim=-1, keepdim=True) + qk
        y = (numer / denom).reshape(B, D)
        S = g.unsqueeze(-1) * S + torch.einsum("bhi,bhj->bhij", k, v)  # the new state, out of place
        z = g * z + k
        return self.out_proj(y), (S, z)
'''

ALT_STEP_LOGSPACE_ADDCMUL = STEP_HEAD + '''        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        gamma = torch.exp(F.logsigmoid(self.gamma_logit)).to(x_t.dtype)  # γ = sigmoid(logit), via log space
        S = torch.addcmul(gamma.view(1, H, 1, 1) * S, k.unsqueeze(-1), v.unsqueeze(-2))  # γS + φ(k)vᵀ
        z = torch.addcmul(k, gamma.view(1, H, 1), z)  # φ(k) + γz
        y = torch.einsum("bhi,bhij->bhj", q, S) / torch.einsum("bhi,bhi->bh", q, z)[..., None]
        return self.out_proj(y.reshape(B, D)), (S, z)
'''

# ------------------------------------------------------------------------------------------------ bugs (whole methods)
BUG_STEP_FORWARD_OVER_HISTORY = STEP_HEAD + '''        # keep the tokens seen so far, so that the output comes from the (already tested) parallel form
        hist = getattr(self, "_history", None)
        if hist is None or not z.any() or hist.shape[0] != B or hist.dtype != x_t.dtype:
            hist = x_t.new_zeros(B, 0, D)  # a fresh memory starts a fresh history
        hist = torch.cat([hist, x_t.unsqueeze(1)], dim=1)  # (B, t + 1, D)
        self._history = hist
        # the recurrent update, so that the returned (S, z) is right
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        gamma = self.decay.to(x_t.dtype)
        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)
        z = gamma.view(1, H, 1) * z + k
        y_t = self.forward(hist)[:, -1]  # (B, D), out_proj included
        return y_t, (S, z)
'''

# ------------------------------------------------------------------------------------------------ stubs
STUB_FWD_IDENTITY = FWD_HEAD + "        return x\n"
STUB_STEP_IDENTITY = STEP_HEAD + "        return x_t, (S, z)\n"
STUB_FWD_VALUES = FWD_HEAD + "        return self.out_proj(self.v_proj(x))\n"
STUB_STEP_VALUES = STEP_HEAD + "        return self.out_proj(self.v_proj(x_t)), (S, z)\n"

# ------------------------------------------------------------------------------------------------ notebook pieces
SCRATCH = "nb:ex5-036"
ANS = "nb:ex5-037"
N_MHA = "mha_bytes = 2 * T * D * BYTES                     # MHA: K and V, each H heads × d_h = D values per token\n"
N_GQA = "gqa8_bytes = 2 * T * 8 * d_h * BYTES              # GQA: K and V for 8 shared KV heads of width d_h per token\n"
N_WIN = "window_bytes = 2 * min(T, 4096) * D * BYTES       # MHA that keeps only the last 4096 tokens' K and V\n"
N_LIN = "linear_bytes = (H * d_h * d_h + H * d_h) * BYTES  # (S, z): H matrices d_h × d_h and H vectors d_h, any T\n"
N_HYB = "hybrid_bytes = 3 * linear_bytes + mha_bytes       # [L, L, L, F], MHA in the full layer\n"
N_ASSERT_MHA = "assert memory_bill([\"full\"], T, D, H, bytes_per_value=BYTES).total_bytes == mha_bytes\n"
N_ASSERT_LIN = "assert memory_bill([\"linear\"], T, D, H, bytes_per_value=BYTES).total_bytes == linear_bytes\n"
N_ASSERT_ALL = "assert memory_bill([\"full\"] * 4, T, D, H, bytes_per_value=BYTES).total_bytes == all_mha_bytes\n"
N_ASSERT_HYB = ("assert memory_bill([\"linear\"] * 3 + [\"full\"], T, D, H, bytes_per_value=BYTES).total_bytes "
                "== hybrid_bytes\n")
N_ASSERTS = "# cross-check the rows that memory_bill covers (MHA, linear, both stacks)\n" + N_ASSERT_MHA + \
    N_ASSERT_LIN + N_ASSERT_ALL + N_ASSERT_HYB + "\n"
N_PRINT = '    print(f"{name:<26} {n:>18,d} B  = {n / 1e9:12.6f} GB")\n'
BASE_ANSWERS = {
    "mha_cache_one_layer": "16384000000 B",
    "gqa8_cache_one_layer": "4096000000 B",
    "window4096_cache_one_layer": "67108864 B",
    "linear_state_one_layer": "1056768 B",
    "all_mha_stack_4_layers": "65536000000 B",
    "hybrid_lllf_stack_4_layers": "16387170304 B",
    "grows_with_t": "b",
}


def answers(**new):
    return [(ANS, f"\n{key}: {BASE_ANSWERS[key]}\n", f"\n{key}: {val}\n") for key, val in new.items()]


# ------------------------------------------------------------------------------------------------ cases
C = []


def case(name, kind, about, should_lose, edits):
    C.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=edits))


case("base", "alternative", "reference-quality submission: forward and step written from the docstrings, Exercise 5 "
     "worked with the default numbers, every written answer filled", [], [])

# ---------------------------------------------------------------- alternatives
case("alt_fwd_chunkwise", "alternative",
     "forward is the chunkwise form (chunks of 8 tokens: decayed scores inside a chunk, a carried (S, z) decayed "
     "by γ^(j+1) between chunks), with no T × T matrix", [],
     [(ATT, "def:forward", ALT_FWD_CHUNKWISE)])
case("alt_fwd_decay_by_pow", "alternative",
     "forward builds the decay as sigmoid(gamma_logit) ** (t-i) with torch.pow and zeroes the future by "
     "multiplying with the boolean mask, instead of exp((t-i)·logsigmoid)", [],
     [(ATT, F_LOGG + F_EXPO + F_WEIGHTS,
       "        gamma = self.decay.to(x.dtype)  # (H,)\n"
       "        weights = gamma[:, None, None] ** lag.clamp(min=0).to(x.dtype) * visible  # γ^(t-i), 0 above\n")])
case("alt_fwd_logspace_cumsum_decay", "alternative",
     "forward forms log γ^(t-i) as a difference of cumulative sums of log γ (the gated-linear-attention way), "
     "masks the future with -inf and takes exp", [],
     [(ATT, F_EXPO + F_WEIGHTS,
       "        cum = torch.cumsum(log_gamma[:, None].expand(H, T), dim=1)  # (H, T): Σ_{j≤t} log γ\n"
       "        exponent = (cum[:, :, None] - cum[:, None, :]).masked_fill(~visible, float(\"-inf\"))  # log γ^(t-i)\n"
       "        weights = torch.exp(exponent)  # (H, T, T), exp(-inf) = 0 above the diagonal\n")])
case("alt_fwd_bmm_heads_folded", "alternative",
     "forward folds heads into the batch (B·H, T, d_h), uses torch.bmm and repeats the (H, T, T) decay B times",
     [], [(ATT, "def:forward", ALT_FWD_BMM)])
case("alt_fwd_doubling_prefix_scan", "alternative",
     "forward computes every S_t and z_t with a log2(T)-pass doubling scan (S_t += γ^s S_(t-s)) and reads "
     "φ(q_t)ᵀS_t / φ(q_t)ᵀz_t, with no T × T matrix", [],
     [(ATT, "def:forward", ALT_FWD_DOUBLING)])
case("alt_fwd_normalizer_from_decayed_key_sums", "alternative",
     "forward computes the normalizer as φ(q_t)·z_t with z_t = Σ γ^(t-i) φ(k_i) = weights @ φ(k), instead of the "
     "row sums of the scores", [],
     [(ATT, F_Y,
       "        z = weights @ k  # (B, H, T, d_h): z_t = Σ_{i≤t} γ^(t-i) φ(k_i)\n"
       "        y = (scores @ v) / (q * z).sum(dim=-1, keepdim=True)  # (B, H, T, d_h)\n")])
case("alt_step_state_augmented_with_z", "alternative",
     "step keeps z as an extra column of S during the update ([S | z] += φ(k)[v | 1]ᵀ), reads both with one "
     "product and returns the two parts as contiguous tensors", [],
     [(ATT, "def:step", ALT_STEP_AUGMENTED)])
case("alt_step_read_old_state_plus_current", "alternative",
     "step reads γ·φ(q)ᵀS_old + (φ(q)·φ(k))v over γ·φ(q)ᵀz_old + φ(q)·φ(k) (algebraically the read of the updated "
     "state, token t included) and then forms the new (S, z) out of place", [],
     [(ATT, "def:step", ALT_STEP_READ_OLD_PLUS_CURRENT)])
case("alt_step_logspace_gamma_addcmul", "alternative",
     "step takes γ = exp(logsigmoid(gamma_logit)), updates with torch.addcmul and reads with einsum", [],
     [(ATT, "def:step", ALT_STEP_LOGSPACE_ADDCMUL)])
case("alt_nb_answers_decimal_prefixes", "alternative",
     "Exercise 5 answers in decimal units to four significant figures (16.38 GB, 4.096 GB, 67.11 MB, 1.057 MB, "
     "65.54 GB, 16.39 GB)", [],
     answers(mha_cache_one_layer="16.38 GB", gqa8_cache_one_layer="4.096 GB",
             window4096_cache_one_layer="67.11 MB", linear_state_one_layer="1.057 MB",
             all_mha_stack_4_layers="65.54 GB", hybrid_lllf_stack_4_layers="16.39 GB"))
case("alt_nb_answers_mixed_formats", "alternative",
     "Exercise 5 answers in mixed but exact formats: comma-grouped bytes, GiB and exact KiB "
     "(16,384,000,000 B, 3.815 GiB, 65536 KiB, 1032 KiB, 61.04 GiB, 16.39 GB)", [],
     answers(mha_cache_one_layer="16,384,000,000 B", gqa8_cache_one_layer="3.815 GiB",
             window4096_cache_one_layer="65536 KiB", linear_state_one_layer="1032 KiB",
             all_mha_stack_4_layers="61.04 GiB", hybrid_lllf_stack_4_layers="16.39 GB"))

# ---------------------------------------------------------------- forward bugs
case("bug_fwd_decay_heads_shifted", "bug",
     "forward gathers head h's log γ from gamma_logit[h - 1] (1-based head numbering): every head decays with its "
     "neighbour's γ, head 0 with the last head's (exact only when all γ are equal)",
     [FM, DEC],
     [(ATT, F_LOGG,
       "        log_gamma = torch.stack([F.logsigmoid(self.gamma_logit[h - 1]) for h in range(H)]).to(x.dtype)  "
       "# (H,) log γ per head\n")])
case("bug_fwd_lag_minus_one", "bug",
     "forward uses γ^(t-i-1) clamped at 0 ('the current write is not decayed yet'): token t and t-1 both get "
     "weight 1, so the weights are not the step's γ^(t-i) (exact only at γ = 1)",
     [FM, DEC],
     [(ATT, F_EXPO,
       "        exponent = log_gamma[:, None, None] * (lag - 1).clamp(min=0).to(x.dtype)  "
       "# (H, T, T): the newest write is undecayed\n")])
case("bug_fwd_symmetric_decay_no_mask", "bug",
     "forward weights key i by γ^|t-i| and forgets the causal mask: future keys leak in with the same decay as "
     "past ones",
     [FM, CA],
     [(ATT, F_WEIGHTS,
       "        weights = torch.exp(log_gamma[:, None, None] * lag.abs().to(x.dtype))  # (H, T, T): γ^|t-i|\n")])
case("bug_fwd_denominator_undecayed", "bug",
     "forward divides the decayed numerator by the row sums of the masked but undecayed φ(q)·φ(k): the normalizer "
     "does not decay with S (exact only at γ = 1)",
     [FM, DZ],
     [(ATT, F_Y,
       "        y = (scores @ v) / ((q @ k.transpose(-2, -1)) * visible).sum(dim=-1, keepdim=True)  "
       "# normalizer over the visible keys\n")])
case("bug_fwd_normalizer_plus_eps", "bug",
     "forward divides by φ(q)·z + 1e-6 'to be safe': a small but systematic bias (relative 1e-6/φ(q)·z) that "
     "step does not have, far above float64 tolerances",
     [FM, NORM],
     [(ATT, F_Y, "        y = (scores @ v) / (scores.sum(dim=-1, keepdim=True) + 1e-6)  # eps: never divide by 0\n")])
case("bug_fwd_split_heads_strided", "bug",
     "forward splits heads with view(B, T, d_h, H).permute(0, 3, 1, 2): head h takes every H-th channel, while "
     "the merge and step use contiguous heads (exact only at H = 1)",
     [FM, HS],
     [(ATT, F_Q + F_K + F_V,
       "        q = feature_map(self.q_proj(x)).view(B, T, d_h, H).permute(0, 3, 1, 2)\n"
       "        k = feature_map(self.k_proj(x)).view(B, T, d_h, H).permute(0, 3, 1, 2)\n"
       "        v = self.v_proj(x).view(B, T, d_h, H).permute(0, 3, 1, 2)\n")])
case("bug_fwd_merge_reshape_without_transpose", "bug",
     "forward merges heads with y.reshape(B, T, D) straight from (B, H, T, d_h): output row t holds head 0 of "
     "tokens tH..tH+H-1, so heads, tokens and the future mix (exact only at H = 1)",
     [FM, HS, CA],
     [(ATT, F_MERGE, "        y = y.reshape(B, T, D)\n")])
case("bug_fwd_feature_map_on_v", "bug",
     "forward applies φ = elu + 1 to v as well as to q and k (step does not): every output is built from "
     "φ(v) instead of v",
     [FM],
     [(ATT, F_V, "        v = feature_map(self.v_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n")])
case("bug_fwd_decay_built_under_no_grad", "bug",
     "forward builds the decay weights inside torch.no_grad() ('it is only a mask'): outputs are exact but "
     "gamma_logit gets no gradient, so the decay is never learned",
     [FM, LS],
     [(ATT, F_LOGG + F_EXPO + F_WEIGHTS,
       "        with torch.no_grad():  # the decay matrix is a constant mask\n"
       "            log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,), log γ_h ≤ 0\n"
       "            exponent = log_gamma[:, None, None] * lag.clamp(min=0).to(x.dtype)  # (H, T, T)\n"
       "            weights = torch.exp(exponent).masked_fill(~visible, 0.0)  # (H, T, T)\n")])
case("bug_fwd_softmax_normalization", "bug",
     "forward normalizes the decayed scores with a causal softmax instead of dividing by their row sums: "
     "exp(φ(q)·φ(k)γ^(t-i)) weights, not the linear-attention ratio",
     [FM, NORM],
     [(ATT, F_Y,
       "        y = torch.softmax(scores.masked_fill(~visible, float(\"-inf\")), dim=-1) @ v  # normalized weights\n")])

# ---------------------------------------------------------------- step bugs
case("bug_step_ignores_decay", "bug",
     "step computes γ but accumulates S += φ(k)vᵀ and z += φ(k) without it: the recurrent form never forgets "
     "(exact only at γ = 1)",
     [SM, DEC],
     [(ATT, S_S + S_Z,
       "        S = S + k.unsqueeze(-1) * v.unsqueeze(-2)  # add φ(k) vᵀ\n"
       "        z = z + k  # add φ(k)\n")])
case("bug_step_uses_initial_decays", "bug",
     "step decays with initial_decays(H) (the values gamma_logit starts from) instead of sigmoid(gamma_logit): "
     "exact at initialization, wrong as soon as the decays are set or trained",
     [SM, DEC],
     [(ATT, S_GAMMA, "        gamma = initial_decays(H).to(device=x_t.device, dtype=x_t.dtype)  # the per-head decays\n")])
case("bug_step_z_updated_after_read", "bug",
     "step updates S before the read but z after it: the normalizer misses φ(q_t)·φ(k_t) (0 at t = 0, so the "
     "first output is inf/NaN)",
     [SM, UO],
     [(ATT, S_Z + S_READ_COMMENT + S_NUMER + S_DENOM,
       S_READ_COMMENT + S_NUMER + S_DENOM + S_Z)])
case("bug_step_state_updated_in_place", "bug",
     "step updates the caller's S and z in place (mul_ / add_) and returns them: outputs and the returned "
     "state are right, but the state passed in is overwritten",
     [LM],
     [(ATT, S_S + S_Z,
       "        S.mul_(gamma.view(1, H, 1, 1)).add_(k.unsqueeze(-1) * v.unsqueeze(-2))  # update the memory in place\n"
       "        z.mul_(gamma.view(1, H, 1)).add_(k)\n")])
case("bug_step_write_summed_over_batch", "bug",
     "step writes einsum('bhi,bhj->hij', φ(k), v): the outer products of all sequences are summed and added to "
     "every sequence's S (exact only at B = 1)",
     [SM, BI],
     [(ATT, S_S,
       "        S = gamma.view(1, H, 1, 1) * S + torch.einsum(\"bhi,bhj->hij\", k, v)  # γ·S + φ(k) vᵀ\n")])
case("bug_step_merge_heads_transposed", "bug",
     "step merges the heads with (numer / denom).transpose(1, 2).reshape(B, D): output channels are interleaved "
     "(d_h, H) instead of (H, d_h) (exact only at H = 1)",
     [SM, HS],
     [(ATT, S_Y, "        y = (numer / denom).transpose(1, 2).reshape(B, D)\n")])
case("bug_step_normalizer_raw_key", "bug",
     "step writes φ(k) into S but accumulates the raw projection k (before φ) into z: the normalizer is not "
     "φ(q)·Σγφ(k) and can reach zero or turn negative",
     [SM, NORM],
     [(ATT, S_K, "        k_raw = self.k_proj(x_t).view(B, H, d_h)\n        k = feature_map(k_raw)\n"),
      (ATT, S_Z, "        z = gamma.view(1, H, 1) * z + k_raw  # γ·z + the key\n")])
case("bug_step_returns_stale_z", "bug",
     "step stores the new normalizer in z_new and reads with it, but returns (S, z) with the incoming z: the "
     "next token divides by a normalizer one write behind",
     [SM, LM],
     [(ATT, S_Z, "        z_new = gamma.view(1, H, 1) * z + k  # γ·z + φ(k)\n"),
      (ATT, S_DENOM, "        denom = (q * z_new).sum(dim=-1, keepdim=True)  # (B, H, 1)\n")])
case("bug_step_forward_over_history", "bug",
     "step keeps every token it has seen on the module (self._history) and returns forward(history)[:, -1]; the "
     "returned (S, z) is right, but each step costs O(t²) and ignores the state it is given",
     [SM, COST],
     [(ATT, "def:step", BUG_STEP_FORWARD_OVER_HISTORY)])
case("bug_step_gamma_float32", "bug",
     "step casts γ to float32 ('the decay does not need double'): under float64 every step multiplies the state "
     "by a γ rounded to 24 bits, and the error compounds over the sequence",
     [SM, LS],
     [(ATT, S_GAMMA, "        gamma = self.decay.float()  # (H,) float32 is plenty for a decay\n")])
case("bug_step_z_decayed_after_write", "bug",
     "step decays z after adding φ(k), z = γ(z + φ(k)), while S is decayed before: z is γ times the right "
     "normalizer and every output comes out divided by γ_h",
     [SM, DZ],
     [(ATT, S_Z, "        z = gamma.view(1, H, 1) * (z + k)  # add φ(k), then decay the normalizer\n")])

# ---------------------------------------------------------------- notebook bugs: Exercise 5
case("bug_nb_values_not_bytes", "bug",
     "Exercise 5: every amount counted in values and labelled bytes (BYTES = 2 never multiplied in), so all six "
     "numbers are half the bill; the failing asserts were deleted",
     BILL_NUMBERS,
     [(SCRATCH, N_MHA + N_GQA + N_WIN + N_LIN,
       "mha_bytes = 2 * T * D                     # MHA: K and V, each H heads × d_h = D values per token\n"
       "gqa8_bytes = 2 * T * 8 * d_h              # GQA: K and V for 8 shared KV heads of width d_h per token\n"
       "window_bytes = 2 * min(T, 4096) * D       # MHA that keeps only the last 4096 tokens' K and V\n"
       "linear_bytes = H * d_h * d_h + H * d_h    # (S, z): H matrices d_h × d_h and H vectors d_h, any T\n"),
      (SCRATCH, N_ASSERTS, "")]
     + answers(mha_cache_one_layer="8192000000 B", gqa8_cache_one_layer="2048000000 B",
               window4096_cache_one_layer="33554432 B", linear_state_one_layer="528384 B",
               all_mha_stack_4_layers="32768000000 B", hybrid_lllf_stack_4_layers="8193585152 B"))
case("bug_nb_gqa_heads_full_width", "bug",
     "Exercise 5: GQA priced as 8 KV heads of width D instead of d_h (2·T·8·D·BYTES): 32 times the right GQA-8 "
     "cache, larger than MHA",
     ["bill_gqa8"],
     [(SCRATCH, N_GQA, "gqa8_bytes = 2 * T * 8 * D * BYTES                # GQA: K and V for 8 KV heads\n")]
     + answers(gqa8_cache_one_layer="131072000000 B"))
case("bug_nb_window_keys_only", "bug",
     "Exercise 5: the 4096-token window priced with K only (the factor 2 for V dropped): half the right window cache",
     ["bill_window"],
     [(SCRATCH, N_WIN, "window_bytes = min(T, 4096) * D * BYTES          # the last 4096 keys\n")]
     + answers(window4096_cache_one_layer="33554432 B"))
case("bug_nb_linear_state_one_big_matrix", "bug",
     "Exercise 5: the (S, z) state priced as one D × D matrix plus D (heads ignored): 32 times too big; the hybrid "
     "total it feeds is only 0.6% high, inside the 1% tolerance; the failing asserts were deleted",
     ["bill_linear"],
     [(SCRATCH, N_LIN, "linear_bytes = (D * D + D) * BYTES                # S: D × D, z: D\n"),
      (SCRATCH, N_ASSERT_LIN, ""), (SCRATCH, N_ASSERT_HYB, "")]
     + answers(linear_state_one_layer="33562624 B", hybrid_lllf_stack_4_layers="16484687872 B"))
case("bug_nb_hybrid_full_layer_as_gqa", "bug",
     "Exercise 5: the full layer of the [L, L, L, F] stack priced with the GQA-8 cache although the exercise says "
     "MHA: 4.10 GB instead of 16.39 GB; the failing assert was deleted",
     ["bill_hybrid_stack"],
     [(SCRATCH, N_HYB, "hybrid_bytes = 3 * linear_bytes + gqa8_bytes      # [L, L, L, F] with a GQA full layer\n"),
      (SCRATCH, N_ASSERT_HYB, "")]
     + answers(hybrid_lllf_stack_4_layers="4099170304 B"))
case("bug_nb_decimal_values_labelled_binary", "bug",
     "Exercise 5: amounts divided by 10^9 / 10^6 but labelled GiB / MiB (16.38 GiB for 15.26 GiB): 5 to 7.4% high, "
     "outside the tolerance for all six numbers",
     BILL_NUMBERS,
     [(SCRATCH, N_PRINT, '    print(f"{name:<26} {n:>18,d} B  = {n / 1e9:12.6f} GiB")\n')]
     + answers(mha_cache_one_layer="16.38 GiB", gqa8_cache_one_layer="4.096 GiB",
               window4096_cache_one_layer="67.11 MiB", linear_state_one_layer="1.057 MiB",
               all_mha_stack_4_layers="65.54 GiB", hybrid_lllf_stack_4_layers="16.39 GiB"))
case("bug_nb_two_significant_figures", "bug",
     "Exercise 5: answers rounded to two significant figures (16 GB, 4.1 GB, 67 MB, 1.1 MB, 66 GB, 16 GB): MHA, "
     "the linear state and the hybrid fall outside 1% / 0.5%; GQA, window and all-MHA stay inside",
     ["bill_mha", "bill_linear", "bill_hybrid_stack"],
     answers(mha_cache_one_layer="16 GB", gqa8_cache_one_layer="4.1 GB", window4096_cache_one_layer="67 MB",
             linear_state_one_layer="1.1 MB", all_mha_stack_4_layers="66 GB", hybrid_lllf_stack_4_layers="16 GB"))
case("bug_nb_grows_every_state", "bug",
     "Exercise 5: answers (a), that every state listed grows with T, the fixed (S, z) and the window included",
     ["bill_grows"],
     answers(grows_with_t="a"))

# ---------------------------------------------------------------- notebook bugs: exercises and written answers
case("bug_nb_ex4_S_norms_from_z", "bug",
     "Exercise 4: the S-norm curve is taken from state[1] (z) instead of state[0] (S), so the 'S' panel shows z and "
     "the locked check (S_norms[7] against your step's S) fails",
     ["ex4_decay"],
     [("nb:ex4-030", "        S_norms.append(state[0][0].flatten(1).norm(dim=1))",
       "        S_norms.append(state[1][0].flatten(1).norm(dim=1))")])
case("bug_nb_hybrid_pattern_all_linear", "bug",
     "Exercise 2: the 'hybrid LLLF' pattern typed as four linear layers, so Exercises 2 and 3 compare full, linear "
     "and linear again: no hybrid is trained (the cells still run)",
     ["ex2_comparison", "ex3_recall"],
     [("nb:ex2-018", '    "hybrid LLLF": ["linear", "linear", "linear", "full"],\n',
       '    "hybrid LLLF": ["linear", "linear", "linear", "linear"],\n')])
case("bug_written_ex3_left_blank", "bug",
     "the Exercise 3 answer is left as the template's placeholder (every other answer is filled)",
     ["written_ex3"],
     [("nb:ex3-recall-027", None, "**Answer:**\n\n_Type your answer here._")])
case("bug_written_delta_rule_wrong", "bug",
     "the delta_rule answer describes the delta rule as writing the difference of consecutive values v_t − v_(t−1) "
     "and claims the layer is a small KDA because it has a decay per head",
     ["written_concepts"],
     [("nb:delta-rule-046", None, "**Answer:**\n\nThe delta rule writes the change of the value instead of the "
       "value itself: S_t = γS_{t−1} + k_t (v_t − v_{t−1})ᵀ, so the state stores differences between consecutive "
       "tokens, which is more compact. This assignment's layer already is a small KDA: like Kimi Delta Attention it "
       "has a learned decay for every head and a fixed-size state, it only lacks the fused kernels, so it does not "
       "claim the speed of KDA.")])

# ---------------------------------------------------------------- stubs (notebook as the template gives it)
case("stub_template_as_given", "stub",
     "the template exactly as handed out: forward and step raise NotImplementedError, the notebook is untouched "
     "(Exercise 5 scratch raises, no answers)",
     ALL_ITEMS, [(ATT, "template", None), (NB, "template", None)])
case("stub_identity", "stub",
     "forward returns x and step returns x_t with the state it was given; the notebook is the template's",
     ALL_ITEMS, [(ATT, "def:forward", STUB_FWD_IDENTITY), (ATT, "def:step", STUB_STEP_IDENTITY),
                 (NB, "template", None)])
case("stub_value_passthrough", "stub",
     "forward returns out_proj(v_proj(x)) and step out_proj(v_proj(x_t)) with the state unchanged (no attention, "
     "no memory); the notebook is the template's",
     ALL_ITEMS, [(ATT, "def:forward", STUB_FWD_VALUES), (ATT, "def:step", STUB_STEP_VALUES),
                 (NB, "template", None)])


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
        if old == "template":
            assert target in (ATT, NB) and nb is None, where
            shutil.copyfile(TEMPLATE / target, dst / target)
        elif target.startswith("nb:"):
            nb = nb or read_nb(dst / NB)
            cells = [cell for cell in nb["cells"] if cell.get("id") == target[3:]]
            assert len(cells) == 1, where
            src = "".join(cells[0]["source"])
            if old is None:  # the whole cell's source
                assert src != new, f"{where}: replacement changed nothing"
                src = new
            else:
                src = replace_once(src, old, new, where)
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
        assert c["kind"] in ("bug", "alternative", "stub"), c["name"]
        assert (c["kind"] == "alternative") == (not c["should_lose"]), c["name"]
        assert all(i in ALL_ITEMS for i in c["should_lose"]), c["name"]
        build(c)
    for part in (ATT, NB):  # the as-given stub is the template, byte for byte
        assert (HERE / "stub_template_as_given" / part).read_bytes() == (TEMPLATE / part).read_bytes(), part
    entries = [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=c["should_lose"]) for c in C]
    with open(HERE / "corpus.yaml", "w") as f:
        f.write("# linear-attention-hybrid, blind round 13: written by make_cases.py (one entry per case folder)\n")
        yaml.safe_dump(entries, f, sort_keys=False, allow_unicode=True, width=110)
    counts = {k: sum(c["kind"] == k for c in C[1:]) for k in ("bug", "alternative", "stub")}
    print(f"{len(C) - 1} cases besides base:", counts)


if __name__ == "__main__":
    main()
