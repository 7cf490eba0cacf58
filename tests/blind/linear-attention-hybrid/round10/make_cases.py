"""Build the round-10 blind corpus: one folder per case, copied from base/ with exact string replacements.

    python make_cases.py            # (re)builds cases/<name>/ and corpus.yaml

Every anchor must occur exactly once in base's file (for the notebook: in one cell's joined source), and
every replacement must change the file. Notebook edits name the cell by its id ("nb:ex5-037") and the
notebook is written back in base's JSON layout (indent 1, UTF-8, trailing newline).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
CASES = HERE  # (was HERE / "cases": the case folders moved beside corpus.yaml, where `tasks.py corpus` reads them)
ATT = "g2c/linear_attention/attention.py"
NB = "linear_attention_hybrid.ipynb"

CODE_ITEMS = ["forward_matches", "step_matches", "normalizer", "update_order", "decay_both_forms",
              "decay_normalizer", "head_split", "batch_isolation", "causality", "long_sequences",
              "lm_decoding", "step_cost"]
EXERCISES = ["ex1_benchmark", "ex2_comparison", "ex3_recall", "ex4_decay"]

# ------------------------------------------------------------------------------------------------ base bodies
FWD_BODY = '''        # 1. projections, feature map on q and k, split heads -> (B, H, T, d_h)
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        # 2. decay weights γ_h^(t-i) for i <= t, 0 above the diagonal: (H, T, T)
        pos = torch.arange(T, device=x.device)
        dist = pos[:, None] - pos[None, :]  # t - i
        causal = dist >= 0
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,)
        exponent = dist.clamp(min=0).to(x.dtype)  # never negative, so exp never overflows
        weights = torch.exp(log_gamma[:, None, None] * exponent)  # (H, T, T)
        weights = torch.where(causal, weights, torch.zeros_like(weights))
        # 3. decayed scores (B, H, T, T)
        scores = (q @ k.transpose(-2, -1)) * weights
        # 4. normalize by the decayed row sums, φ(q_t)ᵀ z_t
        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)
        # 5. merge heads
        y = y.transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''

STEP_BODY = '''        # 1. this token's q, k, v, split to (B, H, d_h)
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        # 2. per-head decay
        gamma = self.decay.to(x_t.dtype)
        g_S = gamma.view(1, H, 1, 1)
        g_z = gamma.view(1, H, 1)
        # 3. update first (new tensors: the caller's state is left untouched)
        S = g_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)
        z = g_z * z + k  # (B, H, d_h)
        # 4. then read
        num = torch.einsum("bhd,bhde->bhe", q, S)  # (B, H, d_h)
        den = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)
        y = (num / den).reshape(B, D)
        return self.out_proj(y), (S, z)
'''

STEP_QKV = '''        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
'''

WEIGHTS = '''        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,)
        exponent = dist.clamp(min=0).to(x.dtype)  # never negative, so exp never overflows
        weights = torch.exp(log_gamma[:, None, None] * exponent)  # (H, T, T)
        weights = torch.where(causal, weights, torch.zeros_like(weights))
'''

UPDATE = '''        S = g_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)
        z = g_z * z + k  # (B, H, d_h)
'''

# ------------------------------------------------------------------------------------------------ alternatives
ALT_FWD_EINSUM = '''        # (B, T, H, d_h) throughout: no transposes, einsum does the bookkeeping
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h)
        v = self.v_proj(x).view(B, T, H, d_h)
        t = torch.arange(T, device=x.device)
        gap = t[:, None] - t[None, :]  # t - s
        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype)
        w = torch.exp(torch.einsum("h,ts->hts", log_g, gap.clamp(min=0).to(x.dtype)))
        w = w * (gap >= 0).to(x.dtype)  # (H, T, T)
        A = torch.einsum("bthd,bshd->bhts", q, k) * w  # (B, H, T, T)
        num = torch.einsum("bhts,bshd->bthd", A, v)  # (B, T, H, d_h)
        den = torch.einsum("bhts->bth", A).unsqueeze(-1)  # (B, T, H, 1)
        y = (num / den).reshape(B, T, D)
        return self.out_proj(y)
'''

ALT_FWD_LOGCUMSUM = '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        # log-space decays from a cumulative sum: L[t] = (t+1)·log γ, so L[t] - L[i] = (t-i)·log γ
        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,)
        L = torch.cumsum(log_g[:, None].expand(H, T), dim=1)  # (H, T)
        expo = L[:, :, None] - L[:, None, :]  # (H, T, T)
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(diagonal=1)
        decay = torch.exp(expo.masked_fill(future, float("-inf")))  # exp(-inf) = 0 above the diagonal
        scores = (q @ k.transpose(-2, -1)) * decay
        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)
        y = y.transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''

ALT_FWD_SCAN = '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        # the recurrence itself, token by token (obviously equal to step; O(T) memory)
        g = self.decay.to(x.dtype)
        g_S, g_z = g.view(1, H, 1, 1), g.view(1, H, 1)
        S = x.new_zeros(B, H, d_h, d_h)
        z = x.new_zeros(B, H, d_h)
        outs = []
        for t in range(T):
            k_t, v_t, q_t = k[:, :, t], v[:, :, t], q[:, :, t]
            S = g_S * S + k_t[..., :, None] * v_t[..., None, :]
            z = g_z * z + k_t
            outs.append((q_t[..., None, :] @ S).squeeze(-2) / (q_t * z).sum(-1, keepdim=True))
        y = torch.stack(outs, dim=1).reshape(B, T, D)  # (B, T, H, d_h) -> (B, T, D)
        return self.out_proj(y)
'''

ALT_FWD_CHUNKED = '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        # chunkwise: decayed scores inside each chunk of C tokens, (S, z) carried from chunk to chunk
        log_g = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,)
        C = 8
        S = x.new_zeros(B, H, d_h, d_h)  # Σ_{i<s} γ^(s-1-i) φ(k_i) v_iᵀ
        z = x.new_zeros(B, H, d_h)
        outs = []
        for s in range(0, T, C):
            qc, kc, vc = q[:, :, s:s + C], k[:, :, s:s + C], v[:, :, s:s + C]
            n = qc.shape[2]
            j = torch.arange(n, device=x.device)
            gap = j[:, None] - j[None, :]
            w = torch.exp(log_g[:, None, None] * gap.clamp(min=0).to(x.dtype)) * (gap >= 0).to(x.dtype)
            a = (qc @ kc.transpose(-2, -1)) * w  # (B, H, n, n)
            into = torch.exp(log_g[:, None] * (j + 1).to(x.dtype)).unsqueeze(-1)  # (H, n, 1): γ^(j+1)
            num = a @ vc + into * (qc @ S)
            den = a.sum(-1, keepdim=True) + into * (qc @ z.unsqueeze(-1))
            outs.append(num / den)
            back = torch.exp(log_g[:, None] * (n - 1 - j).to(x.dtype)).unsqueeze(-1)  # (H, n, 1): γ^(n-1-j)
            carry = torch.exp(log_g * n)  # (H,): γ^n
            S = carry[:, None, None] * S + (kc * back).transpose(-2, -1) @ vc
            z = carry[:, None] * z + (kc * back).sum(2)
        y = torch.cat(outs, dim=2).transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''

ALT_FWD_FLOAT64 = '''        # everything in float64 internally, cast back to the input's dtype at the end
        xd = x.double()

        def proj(lin):
            return F.linear(xd, lin.weight.double(), lin.bias.double()).view(B, T, H, d_h).transpose(1, 2)

        q, k, v = feature_map(proj(self.q_proj)), feature_map(proj(self.k_proj)), proj(self.v_proj)
        pos = torch.arange(T, device=x.device, dtype=torch.float64)
        dist = pos[:, None] - pos[None, :]
        log_gamma = F.logsigmoid(self.gamma_logit.double())
        weights = torch.exp(log_gamma[:, None, None] * dist.clamp(min=0)) * (dist >= 0)
        scores = (q @ k.transpose(-2, -1)) * weights
        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)
        y = y.transpose(1, 2).reshape(B, T, D).to(x.dtype)
        return self.out_proj(y)
'''

ALT_FWD_HEADS_LOOP = '''        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        idx = torch.arange(T, device=x.device)
        dist = (idx[:, None] - idx[None, :]).to(x.dtype)
        causal = dist >= 0
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)
        y = x.new_empty(B, T, D)  # preallocated output, one head's slice at a time
        for h in range(H):
            w = torch.exp(log_gamma[h] * dist.clamp(min=0)).masked_fill(~causal, 0.0)  # (T, T)
            a = (q[:, h] @ k[:, h].transpose(-2, -1)) * w  # (B, T, T)
            y[:, :, h * d_h:(h + 1) * d_h] = (a @ v[:, h]) / a.sum(-1, keepdim=True)
        return self.out_proj(y)
'''

ALT_STEP_MATMUL = '''        # keep a length-1 token axis so that every product is a plain matmul
        q = feature_map(self.q_proj(x_t)).view(B, H, 1, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, 1, d_h)
        v = self.v_proj(x_t).view(B, H, 1, d_h)
        g = self.decay.to(x_t.dtype).view(1, H, 1, 1)
        S = g * S + k.transpose(-2, -1) @ v  # (B, H, d_h, 1) @ (B, H, 1, d_h)
        z = g.view(1, H, 1) * z + k.squeeze(2)
        num = q @ S  # (B, H, 1, d_h)
        den = q @ z.unsqueeze(-1)  # (B, H, 1, 1)
        y = (num / den).reshape(B, D)
        return self.out_proj(y), (S, z)
'''

ALT_STEP_FLOAT64 = '''        # float64 inside, the state and output handed back in the caller's dtype
        dt = x_t.dtype
        xd = x_t.double()
        q = feature_map(F.linear(xd, self.q_proj.weight.double(), self.q_proj.bias.double())).view(B, H, d_h)
        k = feature_map(F.linear(xd, self.k_proj.weight.double(), self.k_proj.bias.double())).view(B, H, d_h)
        v = F.linear(xd, self.v_proj.weight.double(), self.v_proj.bias.double()).view(B, H, d_h)
        gamma = torch.sigmoid(self.gamma_logit.double())
        S64 = gamma.view(1, H, 1, 1) * S.double() + k.unsqueeze(-1) * v.unsqueeze(-2)
        z64 = gamma.view(1, H, 1) * z.double() + k
        y = torch.einsum("bhd,bhde->bhe", q, S64) / torch.einsum("bhd,bhd->bh", q, z64).unsqueeze(-1)
        return self.out_proj(y.reshape(B, D).to(dt)), (S64.to(S.dtype), z64.to(z.dtype))
'''

ALT_STEP_ADDCMUL = '''        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        gamma = F.logsigmoid(self.gamma_logit).exp().to(x_t.dtype)  # = sigmoid, from log space
        S = torch.addcmul(S * gamma[None, :, None, None], k.unsqueeze(-1), v.unsqueeze(-2))
        z = torch.add(z * gamma[None, :, None], k)
        num = (q.unsqueeze(-1) * S).sum(dim=-2)  # Σ_d q_d S_de
        den = torch.einsum("bhd,bhd->bh", q, z).unsqueeze(-1)
        y = (num / den).reshape(B, D)
        return self.out_proj(y), (S, z)
'''

# ------------------------------------------------------------------------------------------------ cost bugs
STEP_COST_RESUM = '''        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        gamma = self.decay.to(x_t.dtype)
        # keep every (k, v) of this sequence and rebuild (S, z) from them each step, easy to check by hand
        last = getattr(self, "_last_state", None)
        if last is None or last[0] is not S:  # a new sequence, or a state from outside: start over on top of it
            self._start, self._ks, self._vs = (S, z), [], []
        self._ks.append(k)
        self._vs.append(v)
        K, V = torch.stack(self._ks, dim=2), torch.stack(self._vs, dim=2)  # (B, H, n, d_h)
        n = K.shape[2]
        w = gamma[None, :, None, None] ** torch.arange(n - 1, -1, -1, device=x_t.device, dtype=x_t.dtype)[:, None]
        S0, z0 = self._start
        g_n = gamma ** n
        S = g_n[None, :, None, None] * S0 + (K * w).transpose(-2, -1) @ V
        z = g_n[None, :, None] * z0 + (K * w).sum(dim=2)
        self._last_state = (S, z)
        num = torch.einsum("bhd,bhde->bhe", q, S)
        den = (q * z).sum(dim=-1, keepdim=True)
        y = (num / den).reshape(B, D)
        return self.out_proj(y), (S, z)
'''

STEP_COST_ATTEND = '''        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        gamma = self.decay.to(x_t.dtype)
        # the state for the caller ...
        S_new = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)
        z_new = gamma.view(1, H, 1) * z + k
        # ... but read like the KV cache: decayed attention over every cached key of this sequence
        last = getattr(self, "_last_state", None)
        if last is None or last[0] is not S:  # new sequence (or outside state): cache starts here
            self._start, self._ks, self._vs = (S, z), [], []
        self._ks.append(k)
        self._vs.append(v)
        K, V = torch.stack(self._ks, dim=2), torch.stack(self._vs, dim=2)  # (B, H, n, d_h)
        n = K.shape[2]
        w = gamma[None, :, None] ** torch.arange(n - 1, -1, -1, device=x_t.device, dtype=x_t.dtype)  # (1, H, n)
        a = torch.einsum("bhd,bhnd->bhn", q, K) * w
        S0, z0 = self._start
        g_n = (gamma ** n)[None, :, None]
        num = torch.einsum("bhn,bhne->bhe", a, V) + g_n * torch.einsum("bhd,bhde->bhe", q, S0)
        den = a.sum(-1, keepdim=True) + g_n * (q * z0).sum(-1, keepdim=True)
        y = (num / den).reshape(B, D)
        self._last_state = (S_new, z_new)
        return self.out_proj(y), (S_new, z_new)
'''

STEP_COST_TRACE = '''        y = (num / den).reshape(B, D)
        # keep what was decoded, for plotting in Exercise 4
        trace = getattr(self, "trace", None)
        if trace is None or trace.shape[0] != B or trace.dtype != y.dtype:
            self.trace = y.detach()[:, None]
        else:
            self.trace = torch.cat([trace, y.detach()[:, None]], dim=1)  # (B, t, D)
'''

# ------------------------------------------------------------------------------------------------ stubs
STUB_RANDN_FWD = '''        return torch.randn(B, T, D, dtype=x.dtype, device=x.device)
'''
STUB_RANDN_STEP = '''        return torch.randn(B, D, dtype=x_t.dtype, device=x_t.device), (S, z)
'''
STUB_ZERO_FWD = '''        return torch.zeros_like(x)
'''
STUB_ZERO_STEP = '''        return torch.zeros_like(x_t), (S, z)
'''
STUB_ID_FWD = '''        return x
'''
STUB_ID_STEP = '''        return x_t, (S, z)
'''

# ------------------------------------------------------------------------------------------------ notebook
SCRATCH = "nb:ex5-036"
ANSWERS = "nb:ex5-037"
ASSERTS = '''# cross-check the MHA and linear layers against the provided bill
assert memory_bill(["full"], T, D, H, bytes_per_value=BYTES).total_bytes == mha
assert memory_bill(["linear"], T, D, H, bytes_per_value=BYTES).total_bytes == linear
assert memory_bill(["full"] * 4, T, D, H, bytes_per_value=BYTES).total_bytes == all_mha
assert memory_bill(["linear", "linear", "linear", "full"], T, D, H, bytes_per_value=BYTES).total_bytes == hybrid

'''


def ans(key, old, new):
    return (ANSWERS, f"{key}: {old}\n", f"{key}: {new}\n")


def nb_answers(**new):
    base = dict(mha_cache_one_layer="16384000000 B", gqa8_cache_one_layer="4096000000 B",
                window4096_cache_one_layer="67108864 B", linear_state_one_layer="1056768 B",
                all_mha_stack_4_layers="65536000000 B", hybrid_lllf_stack_4_layers="16387170304 B",
                grows_with_t="b")
    return [ans(k, base[k], v) for k, v in new.items()]


def case(name, kind, about, should_lose, edits):
    return dict(name=name, kind=kind, about=about, should_lose=should_lose, edits=edits)


C = []
# ---------------------------------------------------------------- base and alternatives
C.append(case("base", "alternative", "reference-quality submission: both forms from the docstrings, all answers", [], []))
C.append(case("alt_fwd_einsum_bthd_layout", "alternative",
              "forward keeps (B, T, H, d_h) and does scores, products and row sums with einsum", [],
              [(ATT, FWD_BODY, ALT_FWD_EINSUM)]))
C.append(case("alt_fwd_logspace_cumsum_decay", "alternative",
              "forward builds (t-i)·log γ as differences of a cumulative sum of log γ, masks with -inf, then exp", [],
              [(ATT, FWD_BODY, ALT_FWD_LOGCUMSUM)]))
C.append(case("alt_fwd_recurrent_scan", "alternative",
              "forward runs the recurrence token by token in a Python loop (no T × T matrix)", [],
              [(ATT, FWD_BODY, ALT_FWD_SCAN)]))
C.append(case("alt_fwd_chunked", "alternative",
              "forward is chunkwise (C = 8): decayed scores inside a chunk, (S, z) carried across chunks", [],
              [(ATT, FWD_BODY, ALT_FWD_CHUNKED)]))
C.append(case("alt_fwd_float64_internals", "alternative",
              "forward computes projections and scores in float64 and casts back to x.dtype before out_proj", [],
              [(ATT, FWD_BODY, ALT_FWD_FLOAT64)]))
C.append(case("alt_fwd_decay_shifted_cancels", "alternative",
              "forward weights are γ^(t-i+1): a common factor γ per row, which cancels in the normalized ratio", [],
              [(ATT, "        weights = torch.exp(log_gamma[:, None, None] * exponent)  # (H, T, T)\n",
                "        weights = torch.exp(log_gamma[:, None, None] * (exponent + 1))  # γ^(t-i+1): decayed once more\n")]))
C.append(case("alt_fwd_heads_loop_prealloc", "alternative",
              "forward loops over heads and writes each head's slice into a preallocated (B, T, D) output", [],
              [(ATT, FWD_BODY, ALT_FWD_HEADS_LOOP)]))
C.append(case("alt_fwd_ones_column_normalizer", "alternative",
              "forward appends a ones column to v so that one product gives numerator and normalizer", [],
              [(ATT, "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)\n",
                "        out = scores @ torch.cat([v, torch.ones_like(v[..., :1])], dim=-1)  # last column = Σ scores\n"
                "        y = out[..., :-1] / out[..., -1:]\n")]))
C.append(case("alt_step_matmul_token_axis", "alternative",
              "step keeps a length-1 token axis and uses matmuls for the outer product and both reads", [],
              [(ATT, STEP_BODY, ALT_STEP_MATMUL)]))
C.append(case("alt_step_float64_internals", "alternative",
              "step works in float64 and returns the output and (S, z) in the caller's dtypes", [],
              [(ATT, STEP_BODY, ALT_STEP_FLOAT64)]))
C.append(case("alt_step_addcmul_logsigmoid", "alternative",
              "step uses exp(logsigmoid) for γ, addcmul for the write and a broadcast sum for the read", [],
              [(ATT, STEP_BODY, ALT_STEP_ADDCMUL)]))
C.append(case("alt_nb_si_units", "alternative",
              "Exercise 5 answers written in GB / MB / MiB to 3-4 significant figures (all within 0.1%)", [],
              nb_answers(mha_cache_one_layer="16.4 GB", gqa8_cache_one_layer="4.10 GB",
                         window4096_cache_one_layer="64.0 MiB", linear_state_one_layer="1.057 MB",
                         all_mha_stack_4_layers="65.5 GB", hybrid_lllf_stack_4_layers="16.39 GB")))
C.append(case("alt_nb_binary_units", "alternative",
              "Exercise 5 answers written in GiB / KiB and comma-grouped bytes (all within 0.1%)", [],
              nb_answers(mha_cache_one_layer="15.26 GiB", gqa8_cache_one_layer="3.815 GiB",
                         window4096_cache_one_layer="65536 KiB", linear_state_one_layer="1032 KiB",
                         all_mha_stack_4_layers="61.04 GiB", hybrid_lllf_stack_4_layers="16,387,170,304 B")))

# ---------------------------------------------------------------- forward bugs
FM, NORM, UO, DEC, DZ, HS, BI, CAUS, LONG = ("forward_matches", "normalizer", "update_order", "decay_both_forms",
                                              "decay_normalizer", "head_split", "batch_isolation", "causality",
                                              "long_sequences")
SM, LM, COST = "step_matches", "lm_decoding", "step_cost"
Y_LINE = "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)\n"
C.append(case("bug_fwd_no_normalizer", "bug", "forward returns the decayed scores times v, never divided by their row sums",
              [FM, NORM], [(ATT, Y_LINE, "        y = scores @ v\n")]))
C.append(case("bug_fwd_normalizer_undecayed", "bug",
              "forward divides by the causal but undecayed row sums Σ_{i≤t} φ(q_t)·φ(k_i): z does not decay with S",
              [FM, DZ], [(ATT, Y_LINE,
                          "        raw = (q @ k.transpose(-2, -1)).masked_fill(~causal, 0.0)  # φ(q_t)·φ(k_i), i ≤ t\n"
                          "        y = (scores @ v) / raw.sum(dim=-1, keepdim=True)\n")]))
C.append(case("bug_fwd_normalizer_column_sums", "bug",
              "forward's normalizer sums the score matrix over queries (dim -2) instead of keys: row t is divided by "
              "Σ_{r≥t} γ^(r-t) φ(q_r)·φ(k_t), which depends on later queries",
              [FM, NORM, CAUS], [(ATT, Y_LINE, "        y = (scores @ v) / scores.sum(dim=-2).unsqueeze(-1)\n")]))
C.append(case("bug_fwd_decay_exponent_off_by_one", "bug",
              "off by one in forward's exponent: γ^(t-i-1) clamped at 0, so the previous token is not decayed "
              "(weights 1, 1, γ, γ², ...)",
              [FM, DEC], [(ATT, "        exponent = dist.clamp(min=0).to(x.dtype)  # never negative, so exp never overflows\n",
                           "        exponent = (dist - 1).clamp(min=0).to(x.dtype)  # decay starts one token back\n")]))
C.append(case("bug_fwd_exponent_reversed_no_decay", "bug",
              "forward's exponent is (i - t).clamp(min=0), which is 0 on the whole causal part: forward never decays",
              [FM, DEC], [(ATT, "        exponent = dist.clamp(min=0).to(x.dtype)  # never negative, so exp never overflows\n",
                           "        exponent = (pos[None, :] - pos[:, None]).clamp(min=0).to(x.dtype)  # distance, never negative\n")]))
C.append(case("bug_fwd_strict_mask_with_eps", "bug",
              "forward's mask is strict (i < t, token t does not see itself) and the 0/0 at t = 0 is hidden by "
              "clamping the normalizer, so every row reads before its own write",
              [FM, UO], [(ATT, "        causal = dist >= 0\n", "        causal = dist > 0\n"),
                         (ATT, Y_LINE, "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True).clamp_min(1e-6)\n")]))
C.append(case("bug_fwd_abs_distance_no_mask", "bug",
              "forward uses γ^|t-i| for every pair and drops the mask, thinking the decay replaces it: future tokens leak",
              [FM, CAUS], [(ATT, "        exponent = dist.clamp(min=0).to(x.dtype)  # never negative, so exp never overflows\n",
                            "        exponent = dist.abs().to(x.dtype)  # γ^|t-i|: far tokens fade away\n"),
                           (ATT, "        weights = torch.where(causal, weights, torch.zeros_like(weights))\n", "")]))
C.append(case("bug_fwd_feature_map_on_v", "bug", "forward applies φ to v as well as to q and k", [FM],
              [(ATT, "        v = self.v_proj(x).view(B, T, H, d_h)", "        v = feature_map(self.v_proj(x)).view(B, T, H, d_h)")]))
C.append(case("bug_fwd_no_feature_map_on_q", "bug",
              "forward uses the raw query projection (no φ on q); step is correct", [FM],
              [(ATT, "        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n",
                "        q = self.q_proj(x).view(B, T, H, d_h).transpose(1, 2)\n")]))
C.append(case("bug_fwd_merge_heads_no_transpose", "bug",
              "forward merges heads with y.reshape(B, T, D) straight from (B, H, T, d_h): channels and tokens of "
              "different heads are interleaved, later tokens land in earlier rows",
              [FM, HS, CAUS], [(ATT, "        y = y.transpose(1, 2).reshape(B, T, D)\n", "        y = y.reshape(B, T, D)\n")]))
C.append(case("bug_fwd_split_heads_view_no_transpose", "bug",
              "forward splits heads with .view(B, H, T, d_h) directly (no transpose): tokens and heads are scrambled",
              [FM, HS, CAUS], [(ATT, "feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)",
                                "feature_map(self.q_proj(x)).view(B, H, T, d_h)"),
                               (ATT, "feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)",
                                "feature_map(self.k_proj(x)).view(B, H, T, d_h)"),
                               (ATT, "self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)", "self.v_proj(x).view(B, H, T, d_h)")]))
C.append(case("bug_fwd_einsum_drops_batch", "bug",
              "forward's scores come from einsum('bhtd,bhsd->hts'): the batch index is summed away, every sequence "
              "uses the batch-summed scores (exact at B = 1)",
              [FM, BI], [(ATT, "        scores = (q @ k.transpose(-2, -1)) * weights\n",
                          "        scores = torch.einsum(\"bhtd,bhsd->hts\", q, k) * weights\n")]))
C.append(case("bug_fwd_weights_under_no_grad", "bug",
              "forward builds the decay weights inside torch.no_grad(): outputs exact, gamma_logit gets no gradient "
              "(the decay never trains)",
              [FM], [(ATT, WEIGHTS, "        with torch.no_grad():  # the mask and decay are constants\n"
                      + "".join("    " + l + "\n" for l in WEIGHTS.splitlines()))]))
C.append(case("bug_fwd_pow_negative_exponents", "bug",
              "forward computes γ ** (t - i) over all pairs and zeroes i > t with torch.where: outputs exact, but "
              "γ^-(large) is inf above the diagonal and the gradient of gamma_logit turns NaN on long sequences",
              [LONG], [(ATT, WEIGHTS, "        gamma = self.decay.to(x.dtype)\n"
                        "        weights = gamma[:, None, None] ** dist.to(x.dtype)  # γ^(t-i)\n"
                        "        weights = torch.where(causal, weights, torch.zeros_like(weights))\n")]))
C.append(case("bug_fwd_decay_ratio_underflow", "bug",
              "forward computes γ^(t-i) as γ^t / γ^i: exact on short inputs, 0/0 = NaN once γ^t underflows "
              "(quick decay, hundreds of tokens)",
              [LONG], [(ATT, WEIGHTS, "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,)\n"
                        "        powers = torch.exp(log_gamma[:, None] * pos.to(x.dtype))  # (H, T): γ^t\n"
                        "        weights = powers[:, :, None] / powers[:, None, :]  # γ^t / γ^i = γ^(t-i)\n"
                        "        weights = torch.where(causal, weights, torch.zeros_like(weights))\n")]))
C.append(case("bug_fwd_weights_fp16_buffer", "bug",
              "forward stores the T × T decay weights in float16 'to save memory' (the notebook warns the T × T "
              "matrices are big): float64 and float32 inputs get decays rounded to ~1e-3",
              [FM], [(ATT, "        weights = torch.exp(log_gamma[:, None, None] * exponent)  # (H, T, T)\n",
                      "        weights = torch.exp(log_gamma[:, None, None] * exponent).half()  # (H, T, T) in fp16: T×T is big\n")]))
C.append(case("bug_fwd_sigmoid_for_logsigmoid", "bug",
              "forward uses sigmoid(gamma_logit) where logsigmoid belongs: weights exp(γ·(t-i)) grow with distance; "
              "in float32 at T = 128 they overflow, so Exercise 2's validation loss is NaN",
              [FM, DEC, "ex2_comparison"], [(ATT, "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)  # (H,)\n",
                           "        log_gamma = torch.sigmoid(self.gamma_logit).to(x.dtype)  # (H,)\n")]))

# ---------------------------------------------------------------- step bugs
C.append(case("bug_step_read_before_update", "bug",
              "step reads (S, z) before writing the current token: 0/0 = NaN at t = 0, then shifted by one",
              [SM, UO], [(ATT, '''        # 3. update first (new tensors: the caller's state is left untouched)
        S = g_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)
        z = g_z * z + k  # (B, H, d_h)
        # 4. then read
        num = torch.einsum("bhd,bhde->bhe", q, S)  # (B, H, d_h)
        den = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)
''', '''        # 3. read what the memory holds
        num = torch.einsum("bhd,bhde->bhe", q, S)  # (B, H, d_h)
        den = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)
        # 4. then write this token
        S = g_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)
        z = g_z * z + k  # (B, H, d_h)
''')]))
C.append(case("bug_step_z_not_decayed", "bug", "step decays S but not z", [SM, DZ],
              [(ATT, "        z = g_z * z + k  # (B, H, d_h)\n", "        z = z + k  # (B, H, d_h)\n")]))
C.append(case("bug_step_no_decay", "bug", "step decays neither S nor z (γ computed, never used)", [SM, DEC],
              [(ATT, UPDATE, "        S = S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)\n"
                             "        z = z + k  # (B, H, d_h)\n")]))
C.append(case("bug_step_gamma_logit_as_gamma", "bug", "step multiplies the state by gamma_logit instead of sigmoid(gamma_logit)",
              [SM, DEC], [(ATT, "        gamma = self.decay.to(x_t.dtype)\n", "        gamma = self.gamma_logit.to(x_t.dtype)\n")]))
C.append(case("bug_step_inplace_state_update", "bug",
              "step updates S and z in place (mul_/add_): outputs and returned state exact, the caller's state is mutated",
              [LM], [(ATT, UPDATE, "        S.mul_(g_S).add_(k.unsqueeze(-1) * v.unsqueeze(-2))  # in place: no copy per token\n"
                                   "        z.mul_(g_z).add_(k)\n")]))
C.append(case("bug_step_inplace_z_only", "bug",
              "step builds a new S but updates z in place (z *= γ; z += k): the caller's z is mutated (aliasing)",
              [LM], [(ATT, "        z = g_z * z + k  # (B, H, d_h)\n", "        z *= g_z\n        z += k  # (B, H, d_h)\n")]))
C.append(case("bug_step_squeeze_drops_batch_of_one", "bug",
              "step returns y.reshape(B, 1, D).squeeze(): for a batch of one the output is (D,) instead of (1, D) "
              "(the LM still works, its residual broadcasts it back)",
              [SM], [(ATT, "        y = (num / den).reshape(B, D)\n", "        y = (num / den).reshape(B, 1, D).squeeze()  # (B, D)\n")]))
C.append(case("bug_step_state_returned_fp16", "bug",
              "step hands (S, z) back in float16 to halve the decoding memory (Exercise 5's fp16 pricing): each "
              "token's output is computed before the cast, the carried history is rounded to ~1e-3",
              [SM], [(ATT, "        return self.out_proj(y), (S, z)\n",
                      "        return self.out_proj(y), (S.half(), z.half())  # fp16 state: half the decode memory\n")]))
C.append(case("bug_step_outer_product_transposed", "bug",
              "step writes v φ(k)ᵀ into S but reads it as φ(q)ᵀ S (layout of the write and the read disagree)",
              [SM], [(ATT, "        S = g_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)\n",
                      "        S = g_S * S + v.unsqueeze(-1) * k.unsqueeze(-2)  # (B, H, d_h, d_h)\n")]))
C.append(case("bug_step_normalizer_ignores_q", "bug", "step divides by Σ z instead of φ(q)·z", [SM, NORM],
              [(ATT, "        den = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)\n",
                "        den = z.sum(dim=-1, keepdim=True)  # (B, H, 1)\n")]))
C.append(case("bug_step_heads_view_dh_first", "bug",
              "step splits heads with .view(B, d_h, H).transpose(1, 2) (head index fastest) and merges with a plain "
              "reshape: channels of different heads mixed (exact at H = 1 or d_h = 1)",
              [SM, HS], [(ATT, STEP_QKV, STEP_QKV.replace(".view(B, H, d_h)", ".view(B, d_h, H).transpose(1, 2)"))]))
C.append(case("bug_step_batch_head_view_swap", "bug",
              "step splits with .view(H, B, d_h).transpose(0, 1): for B > 1 and H > 1, heads of one sequence get "
              "another sequence's channels (exact at B = 1 or H = 1)",
              [SM, BI, HS], [(ATT, STEP_QKV, STEP_QKV.replace(".view(B, H, d_h)", ".view(H, B, d_h).transpose(0, 1)"))]))
C.append(case("bug_step_returns_old_state", "bug",
              "step computes the new state as S_new, z_new and reads from it, but returns the incoming (S, z): "
              "every token starts from an empty memory",
              [SM, LM], [(ATT, UPDATE, "        S_new = g_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h)\n"
                                       "        z_new = g_z * z + k  # (B, H, d_h)\n"),
                         (ATT, '        num = torch.einsum("bhd,bhde->bhe", q, S)  # (B, H, d_h)\n',
                          '        num = torch.einsum("bhd,bhde->bhe", q, S_new)  # (B, H, d_h)\n'),
                         (ATT, "        den = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1)\n",
                          "        den = (q * z_new).sum(dim=-1, keepdim=True)  # (B, H, 1)\n")]))
C.append(case("bug_step_ignores_incoming_state", "bug",
              "step always starts from init_state and ignores the state it is given: no history is carried",
              [SM, LM], [(ATT, "        S, z = state\n", "        S, z = self.init_state(B, device=x_t.device, dtype=x_t.dtype)  # fresh memory\n")]))
C.append(case("bug_step_decay_multiplies_write", "bug",
              "step computes S = γ(S + φ(k)vᵀ), z = γ(z + φ(k)): outputs exact from an empty state (γ cancels), but "
              "the returned state is γ times too small and continuing from a given state is wrong",
              [SM], [(ATT, UPDATE, "        S = g_S * (S + k.unsqueeze(-1) * v.unsqueeze(-2))  # (B, H, d_h, d_h)\n"
                                   "        z = g_z * (z + k)  # (B, H, d_h)\n")]))
C.append(case("bug_step_z_extra_axis_crashes", "bug",
              "step adds k.unsqueeze(-1) to z: z broadcasts to the wrong shape and step raises on every input, so "
              "every exercise that decodes or benchmarks with step stops",
              [SM, LM, COST] + EXERCISES,
              [(ATT, "        z = g_z * z + k  # (B, H, d_h)\n", "        z = g_z * z + k.unsqueeze(-1)  # (B, H, d_h)\n")]))

# ---------------------------------------------------------------- cost bugs (exact, slow)
C.append(case("bug_step_cost_resums_history", "bug",
              "step keeps every (k, v) of the sequence on the module and rebuilds (S, z) from them each call: exact "
              "everywhere (a foreign state starts a new history on top of it), O(t) time and memory per token",
              [COST, SM], [(ATT, STEP_BODY, STEP_COST_RESUM)]))
C.append(case("bug_step_cost_attention_over_cache", "bug",
              "step returns the correct (S, z) but reads by decayed attention over a cache of every key and value of "
              "the sequence kept on the module: exact, O(t) per token",
              [COST, SM], [(ATT, STEP_BODY, STEP_COST_ATTEND)]))
C.append(case("bug_step_cost_cat_output_trace", "bug",
              "step is correct but appends every output to self.trace with torch.cat (for plotting): the copy grows "
              "with t, so per-token time and module memory grow",
              [COST, SM], [(ATT, "        y = (num / den).reshape(B, D)\n", STEP_COST_TRACE)]))

# ---------------------------------------------------------------- Exercise 5 bugs
C.append(case("bug_nb_mha_counts_k_only", "bug",
              "Exercise 5: the MHA cache counts K only (T·D·BYTES); the error propagates to both stacks",
              ["bill_mha", "bill_all_mha_stack", "bill_hybrid_stack"],
              [(SCRATCH, "mha = 2 * T * D * BYTES  # K and V: one row of D values per token each",
                "mha = T * D * BYTES  # one cached row of D values per token"), (SCRATCH, ASSERTS, "")]
              + nb_answers(mha_cache_one_layer="8192000000 B", all_mha_stack_4_layers="32768000000 B",
                           hybrid_lllf_stack_4_layers="8195170304 B")))
C.append(case("bug_nb_gqa_groups_of_8", "bug",
              "Exercise 5: GQA read as groups of 8 query heads per KV head (H/8 = 4 KV heads), half the right cache",
              ["bill_gqa8"],
              [(SCRATCH, "gqa8 = 2 * T * 8 * d_h * BYTES  # K and V for 8 KV heads of width d_h",
                "gqa8 = 2 * T * (H // 8) * d_h * BYTES  # 8 query heads share each KV head")]
              + nb_answers(gqa8_cache_one_layer="2048000000 B")))
C.append(case("bug_nb_window_forgets_bytes", "bug",
              "Exercise 5: the 4096-token window is counted in values, not bytes (BYTES left out)", ["bill_window"],
              [(SCRATCH, "window = 2 * min(T, 4096) * D * BYTES", "window = 2 * min(T, 4096) * D")]
              + nb_answers(window4096_cache_one_layer="33554432 B")))
C.append(case("bug_nb_linear_state_without_z", "bug",
              "Exercise 5: the linear state counts S only (0.78% short, outside the 0.5% allowed); the hybrid total "
              "built from it stays within 1%", ["bill_linear"],
              [(SCRATCH, "linear = (H * d_h * d_h + H * d_h) * BYTES  # S: H x d_h x d_h, z: H x d_h",
                "linear = H * d_h * d_h * BYTES  # S: H x d_h x d_h"), (SCRATCH, ASSERTS, "")]
              + nb_answers(linear_state_one_layer="1048576 B", hybrid_lllf_stack_4_layers="16387145728 B")))
C.append(case("bug_nb_linear_state_one_big_head", "bug",
              "Exercise 5: the linear state priced as one D × D matrix plus z (D² + D values, 32× too big); the hybrid "
              "total built from it is 0.6% high, within the 1% allowed", ["bill_linear"],
              [(SCRATCH, "linear = (H * d_h * d_h + H * d_h) * BYTES  # S: H x d_h x d_h, z: H x d_h",
                "linear = (D * D + D) * BYTES  # S: D x D, z: D"), (SCRATCH, ASSERTS, "")]
              + nb_answers(linear_state_one_layer="33562624 B", hybrid_lllf_stack_4_layers="16484687872 B")))
C.append(case("bug_nb_hybrid_pattern_reversed", "bug",
              "Exercise 5: [L, L, L, F] priced as three MHA layers and one linear layer", ["bill_hybrid_stack"],
              [(SCRATCH, "hybrid = 3 * linear + mha", "hybrid = 3 * mha + linear"), (SCRATCH, ASSERTS, "")]
              + nb_answers(hybrid_lllf_stack_4_layers="49153056768 B")))
C.append(case("bug_nb_grows_includes_window", "bug",
              "Exercise 5: says the sliding-window cache grows with T too (c instead of b)", ["bill_grows"],
              nb_answers(grows_with_t="c")))
C.append(case("bug_nb_mha_gib_labelled_gb", "bug",
              "Exercise 5: the MHA cache written as 15.26 GB, a GiB figure with a GB label (6.9% low)", ["bill_mha"],
              nb_answers(mha_cache_one_layer="15.26 GB")))

# ---------------------------------------------------------------- stubs
STUB_LOSE = CODE_ITEMS + EXERCISES
C.append(case("stub_randn", "stub", "forward and step return torch.randn of the right shape (step hands the state back)",
              STUB_LOSE, [(ATT, FWD_BODY, STUB_RANDN_FWD), (ATT, STEP_BODY, STUB_RANDN_STEP)]))
C.append(case("stub_zeros", "stub", "forward and step return zeros (step hands the state back)",
              STUB_LOSE, [(ATT, FWD_BODY, STUB_ZERO_FWD), (ATT, STEP_BODY, STUB_ZERO_STEP)]))
C.append(case("stub_identity", "stub", "forward returns x and step returns x_t with the state unchanged",
              STUB_LOSE, [(ATT, FWD_BODY, STUB_ID_FWD), (ATT, STEP_BODY, STUB_ID_STEP)]))


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


def build(c):
    dst = CASES / c["name"]
    if dst == BASE:  # (the case folders sit beside base/ now: base is its own case)
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
            lines = src.split("\n")
            cells[0]["source"] = [l + "\n" for l in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
        else:
            p = dst / target
            p.write_text(replace_once(p.read_text(), old, new, where))
    if nb is not None:
        write_nb(dst / NB, nb)


def main():
    names = [c["name"] for c in C]
    assert len(names) == len(set(names)), "duplicate case names"
    for c in C:
        assert c["kind"] in ("bug", "alternative", "stub")
        assert (c["kind"] == "alternative") == (not c["should_lose"]), c["name"]
        build(c)
    entries = [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=list(c["should_lose"])) for c in C]
    with open(HERE / "corpus.yaml", "w") as f:
        yaml.safe_dump(entries, f, sort_keys=False, allow_unicode=True, width=110)
    counts = {k: sum(c["kind"] == k for c in C) for k in ("bug", "alternative", "stub")}
    print(f"{len(C)} cases:", counts)


if __name__ == "__main__":
    main()
