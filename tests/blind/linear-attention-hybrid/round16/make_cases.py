"""Build the round-16 blind corpus: base/ from the student template, then one folder per case from base/.

    python make_cases.py        # (re)builds base/, every case folder and corpus.yaml (rerun-stable)

Edits, applied in order to a fresh copy of base/:
  ("att", old, new)          exact replacement in attention.py: `old` must occur exactly once, `new` must differ;
  ("nb:<cell id>", old, new) the same inside one notebook cell's source (cell found by id, exactly once);
  ("template", path, None)   the file is replaced by the template's copy, byte for byte.
Notebooks are written with nbformat (the template round-trips byte for byte). Any anchor that is missing,
ambiguous or changes nothing stops the build.
"""
from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import nbformat
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from base_code import FWD_BODY, STEP_BODY  # noqa: E402
from base_notebook import ANSWERS_FILLED, SCRATCH, WRITTEN  # noqa: E402

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
EX1, EX2, EX3, EX4 = EX


# ------------------------------------------------------------------------------------------------ base
def replace_once(text, old, new, where):
    assert old and old != new, f"{where}: empty or no-op edit"
    n = text.count(old)
    assert n == 1, f"{where}: anchor found {n} times: {old[:80]!r}"
    return text.replace(old, new)


def template_method_block(text, first_comment, last_line):
    i = text.index(first_comment)
    j = text.index(last_line, i) + len(last_line)
    return text[i:j]


def build_base():
    if BASE.exists():
        shutil.rmtree(BASE)
    shutil.copytree(TEMPLATE, BASE, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", ".ipynb_checkpoints"))
    p = BASE / ATT
    text = p.read_text()
    fwd_old = template_method_block(text, "        # 1. q, k, v = the three projections", "        return self.out_proj(y)\n")
    text = replace_once(text, fwd_old, FWD_BODY, "base forward")
    step_old = template_method_block(text, "        # 1. q, k, v for this one token", "        return self.out_proj(y), (S, z)\n")
    text = replace_once(text, step_old, STEP_BODY, "base step")
    ast.parse(text)
    p.write_text(text)
    nb = nbformat.read(BASE / NB, as_version=4)
    by_id = {c.get("id"): c for c in nb.cells}
    by_id["ex5-036"].source = SCRATCH
    by_id["ex5-037"].source = ANSWERS_FILLED
    for cid, ans in WRITTEN.items():
        assert by_id[cid].source == "**Answer:**\n\n_Type your answer here._", cid
        by_id[cid].source = "**Answer:**\n\n" + ans
    nbformat.write(nb, BASE / NB)


# ------------------------------------------------------------------------------------------------ base anchors
F_Q = "        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"
F_K = "        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)\n"
F_V = "        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)\n"
F_CAUSAL = "        causal = lag >= 0\n"
F_LOGG = "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)[:, None, None]  # (H, 1, 1), log γ_h < 0\n"
F_W = "        weights = torch.exp(log_gamma * lag.clamp(min=0))  # exponent ≤ 0, so no overflow\n"
F_MASK = "        weights = weights.masked_fill(~causal, 0.0)\n"
F_SCORES = "        scores = (q @ k.transpose(-2, -1)) * weights\n"
F_Y = "        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)\n"
F_MERGE = "        y = y.transpose(1, 2).reshape(B, T, D)\n"
F_AFTER_SPLIT = FWD_BODY[FWD_BODY.index("        # decay weights"):]
S_K = "        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)\n"
S_GAMMA = "        gamma = self.decay.to(dtype=S.dtype, device=S.device)  # (H,)\n"
S_S = '        S = gamma.view(1, H, 1, 1) * S + torch.einsum("bhi,bhj->bhij", k, v)  # γS + φ(k)vᵀ\n'
S_Z = "        z = gamma.view(1, H, 1) * z + k  # γz + φ(k)\n"
S_NUMER = '        numer = torch.einsum("bhi,bhij->bhj", q, S)  # (B, H, d_h)\n'
S_DENOM = '        denom = torch.einsum("bhi,bhi->bh", q, z).unsqueeze(-1)  # (B, H, 1)\n'
S_Y = "        y = (numer / denom).reshape(B, D)\n"
S_RET = "        return self.out_proj(y), (S, z)\n"
S_FIRST = "        # one token, heads split to (B, H, d_h); φ on q and k only\n"
S_UPDATE_COMMENT = "        # update first (new tensors: the caller's state is not modified) ...\n"
S_READ_COMMENT = "        # ... then read: φ(q)ᵀS / φ(q)ᵀz\n"
I_GAMMA = "        self.gamma_logit = nn.Parameter(torch.log(gamma) - torch.log1p(-gamma))  # (H,)\n"
M_STATE = "State = tuple[torch.Tensor, torch.Tensor]  # (S, z): (B, H, d_h, d_h), (B, H, d_h)\n"

C = []


def case(name, kind, about, should_lose, edits):
    C.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=edits))


def att(old, new):
    return ("att", old, new)


def nb(cell, old, new):
    return (f"nb:{cell}", old, new)


def answer(key, old, new):
    return nb("ex5-037", f"\n{key}: {old}\n", f"\n{key}: {new}\n")


def written(cell, text):
    return nb(cell, WRITTEN[cell], text)


# ------------------------------------------------------------------------------------------------ alternatives
case("base", "alternative",
     "reference-quality submission: forward builds γ^(t-i) as exp(logsigmoid(gamma_logit)·clamped lag), masks with "
     "masked_fill on lag >= 0, q @ kᵀ scores, row-sum normalizer; step casts γ to the state's dtype/device, updates "
     "(S, z) out of place with an einsum outer product, then reads with einsum; Exercise 5 worked with the default "
     "numbers (cross-checked against memory_bill by printing); every written answer filled", [], [])

case("alt_fwd_scan_loop", "alternative",
     "forward runs the recurrence itself: a Python loop over t carrying (S, z) per head with broadcast outer "
     "products, stacking the outputs (differentiable; never builds a T × T matrix; slow but exact)", [],
     [att(F_AFTER_SPLIT,
          "        gamma = self.decay.to(x.dtype).view(1, H, 1, 1)\n"
          "        S = x.new_zeros(B, H, d_h, d_h)\n"
          "        z = x.new_zeros(B, H, d_h)\n"
          "        ys = []\n"
          "        for t in range(T):  # the recurrence, token by token, inside forward\n"
          "            S = gamma * S + k[:, :, t, :, None] * v[:, :, t, None, :]\n"
          "            z = gamma[..., 0] * z + k[:, :, t]\n"
          "            ys.append((q[:, :, t, None, :] @ S).squeeze(-2) / (q[:, :, t] * z).sum(-1, keepdim=True))\n"
          "        y = torch.stack(ys, dim=2).transpose(1, 2).reshape(B, T, D)\n"
          "        return self.out_proj(y)\n")])

case("alt_fwd_chunked_c8", "alternative",
     "chunkwise forward with chunks of 8: inside a chunk the decayed scores (tril of γ^(t-i)), plus γ^j·φ(q)ᵀ(S, z) "
     "from the state carried in from earlier chunks (z kept as a (d_h, 1) column); the state advanced by γ^n and "
     "the chunk's keys weighted by γ^(n-i)", [],
     [att(F_AFTER_SPLIT,
          "        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype).view(1, H, 1, 1)\n"
          "        chunk = 8\n"
          "        S = x.new_zeros(B, H, d_h, d_h)\n"
          "        z = x.new_zeros(B, H, d_h, 1)\n"
          "        outs = []\n"
          "        for s0 in range(0, T, chunk):\n"
          "            qc, kc, vc = q[:, :, s0:s0 + chunk], k[:, :, s0:s0 + chunk], v[:, :, s0:s0 + chunk]\n"
          "            n = qc.shape[2]\n"
          "            pos = torch.arange(1, n + 1, device=x.device).to(x.dtype)  # 1..n inside the chunk\n"
          "            lag = pos[:, None] - pos[None, :]\n"
          "            intra = torch.exp(log_gamma * lag.clamp(min=0)).tril()  # (1, H, n, n)\n"
          "            A = (qc @ kc.transpose(-2, -1)) * intra\n"
          "            carry = torch.exp(log_gamma * pos[:, None])  # γ^j: the carried state seen from row j\n"
          "            numer = A @ vc + carry * (qc @ S)\n"
          "            denom = A.sum(dim=-1, keepdim=True) + carry * (qc @ z)\n"
          "            outs.append(numer / denom)\n"
          "            tail = torch.exp(log_gamma * (n - pos)[:, None])  # γ^(n-i): key i seen from the chunk's end\n"
          "            S = torch.exp(log_gamma * n) * S + (kc * tail).transpose(-2, -1) @ vc\n"
          "            z = torch.exp(log_gamma * n) * z + (kc * tail).sum(dim=2).unsqueeze(-1)\n"
          "        y = torch.cat(outs, dim=2).transpose(1, 2).reshape(B, T, D)\n"
          "        return self.out_proj(y)\n")])

case("alt_fwd_log_of_sigmoid", "alternative",
     "forward takes log γ as torch.log(self.decay) instead of F.logsigmoid(gamma_logit): the same numbers for any "
     "logit a layer can have (γ = 1 gives log 1 = 0 exactly)", [],
     [att(F_LOGG, "        log_gamma = torch.log(self.decay).to(x.dtype)[:, None, None]  # log γ_h\n")])

case("alt_fwd_extra_gamma_factor", "alternative",
     "forward weights the visible scores by γ^(t-i+1) ('the decay hits every write, the newest too'): one factor γ "
     "common to a whole row, so it cancels between numerator and normalizer; outputs and gradients unchanged", [],
     [att(F_W, "        weights = torch.exp(log_gamma * (lag.clamp(min=0) + 1))  # γ^(t-i+1)\n")])

case("alt_fwd_neg_inf_exponent", "alternative",
     "forward masks the exponent, not the weights: log γ·(t-i) is set to -inf above the diagonal and exp gives "
     "exactly 0 there (no clamp needed, no inf, zero gradient through the masked entries)", [],
     [att(F_W + F_MASK,
          '        exponent = (log_gamma * lag).masked_fill(~causal, float("-inf"))  # -inf in the future\n'
          "        weights = torch.exp(exponent)  # γ^(t-i), exactly 0 where i > t\n")])

case("alt_fwd_explicit_z", "alternative",
     "forward computes the normalizer as written in the recurrence: z_t = Σ_i γ^(t-i) φ(k_i) for every t by an "
     "einsum with the decay weights, then φ(q_t)·z_t, instead of the row sums of the scores", [],
     [att(F_Y,
          "        numer = scores @ v\n"
          '        z = torch.einsum("hts,bhsd->bhtd", weights, k)  # z_t = Σ_i γ^(t-i) φ(k_i)\n'
          "        y = numer / (q * z).sum(dim=-1, keepdim=True)  # φ(q_t)·z_t\n")])

case("alt_fwd_tril_on_weights", "alternative",
     "forward zeroes the future with torch.tril on the (H, T, T) weights (no boolean mask) and writes the scores "
     "with einsum", [],
     [att(F_CAUSAL, ""),
      att(F_W + F_MASK, "        weights = torch.tril(torch.exp(log_gamma * lag.clamp(min=0)))  # 0 where i > t\n"),
      att(F_SCORES, '        scores = torch.einsum("bhtd,bhsd->bhts", q, k) * weights\n')])

case("alt_step_broadcast_outer", "alternative",
     "step writes the outer product by broadcasting (φ(k)[..., None] * v[..., None, :]), reads with a batched "
     "matmul φ(q)[..., None, :] @ S and takes the normalizer as (φ(q) * z).sum(-1)", [],
     [att(S_S, "        S = gamma.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)\n"),
      att(S_NUMER, "        numer = (q.unsqueeze(-2) @ S).squeeze(-2)\n"),
      att(S_DENOM, "        denom = (q * z).sum(dim=-1, keepdim=True)\n")])

case("alt_step_list_state", "alternative",
     "step returns the new state as a list [S, z] instead of a tuple (the model, generate, state_nbytes and the "
     "notebook's state[0] / state[1] all accept it)", [],
     [att(S_RET, "        return self.out_proj(y), [S, z]\n")])

case("alt_step_namedtuple_state", "alternative",
     "step returns a namedtuple LinearState(S, z) defined in the module (a tuple subclass: unpacking, indexing and "
     "state_nbytes work as before)", [],
     [att(M_STATE, M_STATE + 'LinearState = namedtuple("LinearState", ["S", "z"])  # what step returns\n'),
      att("from __future__ import annotations\n", "from __future__ import annotations\n\nfrom collections import namedtuple\n"),
      att(S_RET, "        return self.out_proj(y), LinearState(S, z)\n")])

case("alt_step_baddbmm", "alternative",
     "step folds the heads into the batch (B·H) and writes with torch.baddbmm (γS + φ(k)vᵀ in one call), z with "
     "torch.addcmul, reads the numerator with torch.bmm", [],
     [att(S_S,
          "        S = torch.baddbmm((gamma.view(1, H, 1, 1) * S).reshape(B * H, d_h, d_h), k.reshape(B * H, d_h, 1),\n"
          "                          v.reshape(B * H, 1, d_h)).view(B, H, d_h, d_h)\n"),
      att(S_Z, "        z = torch.addcmul(k, gamma.view(1, H, 1), z)  # φ(k) + γz\n"),
      att(S_NUMER, "        numer = torch.bmm(q.reshape(B * H, 1, d_h), S.reshape(B * H, d_h, d_h)).view(B, H, d_h)\n")])

case("alt_step_right_aligned_gamma", "alternative",
     "step broadcasts γ by right alignment, gamma[:, None, None] against S (B, H, d_h, d_h) and gamma[:, None] "
     "against z (B, H, d_h), instead of view(1, H, 1, 1) / view(1, H, 1)", [],
     [att(S_S, '        S = gamma[:, None, None] * S + torch.einsum("bhi,bhj->bhij", k, v)\n'),
      att(S_Z, "        z = gamma[:, None] * z + k\n")])

# ------------------------------------------------------------------------------------------------ bugs: forward
case("bug_fwd_no_decay", "bug",
     "forward leaves the decay for later: the weights are a plain causal mask of ones (γ = 1 in every head) while "
     "step decays; exact only at γ = 1",
     [FM, DEC],
     [att(F_W, "        weights = torch.ones(H, T, T, dtype=x.dtype, device=x.device)  # TODO decay: mask only for now\n")])

case("bug_fwd_mask_sign_flipped", "bug",
     "forward's mask is written lag <= 0 (i ≥ t): every token sees itself and the whole future (with weight 1, the "
     "clamped lag), nothing of the past",
     [FM, CA],
     [att(F_CAUSAL, "        causal = lag <= 0\n")])

case("bug_fwd_normalizer_column_sums", "bug",
     "forward divides by the column sums of the decayed scores (sum over dim=-2, the query axis) instead of the "
     "row sums: the wrong normalizer, and it brings in scores of later queries (future leaks into the past)",
     [FM, NORM, CA],
     [att(F_Y, "        y = (scores @ v) / scores.sum(dim=-2).unsqueeze(-1)\n")])

case("bug_fwd_merge_without_transpose", "bug",
     "forward merges the heads with y.reshape(B, T, D) straight from (B, H, T, d_h), without the transpose: "
     "channels of different heads and tokens are mixed (later tokens land in earlier rows); exact with one head",
     [FM, HS, CA],
     [att(F_MERGE, "        y = y.reshape(B, T, D)\n")])

case("bug_fwd_unclamped_float_mask", "bug",
     "forward exponentiates log γ·(t-i) without clamping and zeroes the future by multiplying with a 0/1 float "
     "mask: above the diagonal exp overflows to inf over long sequences with a quick decay, and inf·0 = NaN; exact "
     "on short sequences",
     [LS],
     [att(F_W + F_MASK, "        weights = torch.exp(log_gamma * lag) * causal.to(x.dtype)  # mask zeroes the future\n")])

case("bug_fwd_unclamped_masked_fill", "bug",
     "forward exponentiates log γ·(t-i) without clamping but masks with masked_fill: outputs are exact, yet over "
     "long sequences with a quick decay exp overflows above the diagonal and the gradient of gamma_logit is NaN "
     "(0·inf in exp's backward)",
     [LS],
     [att(F_W, "        weights = torch.exp(log_gamma * lag)\n")])

case("bug_fwd_weights_left_in_float64", "bug",
     "forward computes log γ from gamma_logit.double() 'for accuracy' and never casts back: exact in float64 (all "
     "official checks), but with a float32 model the scores become float64 and out_proj raises a dtype error, so "
     "the notebook's float32 training (Exercises 2 and 3) stops; step is fine",
     [EX2, EX3],
     [att(F_LOGG, "        log_gamma = F.logsigmoid(self.gamma_logit.double())[:, None, None]  # float64 for accuracy\n")])

case("bug_fwd_scores_transposed", "bug",
     "forward computes k @ qᵀ instead of q @ kᵀ before the decay mask: row t holds φ(k_t)·φ(q_i), so each output "
     "weighs its past by the past queries against its own key (still causal, but not the layer)",
     [FM],
     [att(F_SCORES, "        scores = (k @ q.transpose(-2, -1)) * weights\n")])

case("bug_fwd_logit_as_log_gamma", "bug",
     "forward uses gamma_logit itself as log γ (the logsigmoid left out): weights exp(logit·(t-i)) grow with "
     "distance for every γ > 0.5 and overflow for long lags",
     [FM, DEC],
     [att(F_LOGG, "        log_gamma = self.gamma_logit.to(x.dtype)[:, None, None]  # log γ_h\n")])

# ------------------------------------------------------------------------------------------------ bugs: step
case("bug_step_z_not_decayed", "bug",
     "step decays S but keeps z as a plain running sum of the keys (z = z + φ(k)): the normalizer does not fade "
     "with the memory (exact only at γ = 1)",
     [SM, DZ],
     [att(S_Z, "        z = z + k  # running sum of the keys\n")])

case("bug_step_numer_read_before_update", "bug",
     "step reads the numerator φ(q)ᵀS before updating S (the denominator after updating z): token t's own value "
     "is missing from its output, the first token's numerator is 0",
     [SM, UO],
     [att(S_UPDATE_COMMENT + S_S + S_Z + S_READ_COMMENT + S_NUMER,
          S_NUMER + S_UPDATE_COMMENT + S_S + S_Z + S_READ_COMMENT)])

case("bug_step_merge_heads_transposed", "bug",
     "step merges (B, H, d_h) with transpose(1, 2).reshape(B, D), copying forward's transpose: channels of the "
     "heads are interleaved (exact only with one head)",
     [SM, HS],
     [att(S_Y, "        y = (numer / denom).transpose(1, 2).reshape(B, D)\n")])

case("bug_step_denominator_summed_over_batch", "bug",
     "step's normalizer einsum is written 'bhi,bhi->h' (b dropped): every sequence is divided by the sum of "
     "φ(q)·z over the batch (exact only at B = 1)",
     [SM, BI],
     [att(S_DENOM, '        denom = torch.einsum("bhi,bhi->h", q, z).unsqueeze(-1)  # (H, 1)\n')])

case("bug_step_state_reset_every_call", "bug",
     "step starts every call from init_state (the state it is given is unpacked, then overwritten): each token "
     "sees only itself, and the returned state holds one token",
     [SM, LM],
     [att(S_FIRST, "        S, z = self.init_state(B, device=x_t.device, dtype=x_t.dtype)  # start from empty memory\n"
                   + S_FIRST)])

case("bug_step_gamma_cast_to_float32", "bug",
     "step casts γ with self.decay.float() ('the models are float32'): fine in the notebook, but in float64 γ is "
     "rounded to float32 (about 1e-8 relative), so step drifts from forward and the reference well beyond "
     "float64 tolerances, more with every token",
     [SM],
     [att(S_GAMMA, "        gamma = self.decay.float()  # the models are float32\n")])

case("bug_step_gamma_cast_to_float64", "bug",
     "step casts γ with self.decay.double() 'for a stable decay': exact in float64 (all official checks), but a "
     "float32 state becomes float64 and out_proj raises a dtype error, so every notebook exercise that decodes "
     "(Exercises 1-4: benchmark, check_runs/generate, state norms) stops",
     [EX1, EX2, EX3, EX4],
     [att(S_GAMMA, "        gamma = self.decay.double()  # the decay in double precision\n")])

case("bug_step_eps_in_denominator", "bug",
     "step divides by φ(q)·z + 1e-6 'for stability': outputs off by about 1e-7 relative, far outside the "
     "float64 agreement the tests ask for (φ(q)·z > 0 already, so the eps only adds error)",
     [SM],
     [att(S_Y, "        y = (numer / (denom + 1e-6)).reshape(B, D)  # eps for stability\n")])

case("bug_step_decay_after_write", "bug",
     "step decays after writing, S = γ(S + φ(k)vᵀ), z = γ(z + φ(k)): the outputs are right (the extra γ cancels "
     "in the ratio), but the returned (S, z) is γ times the documented state",
     [SM],
     [att(S_S + S_Z,
          '        S = gamma.view(1, H, 1, 1) * (S + torch.einsum("bhi,bhj->bhij", k, v))\n'
          "        z = gamma.view(1, H, 1) * (z + k)\n")])

case("bug_step_no_feature_map_on_k", "bug",
     "step applies feature_map to q but not to k: S and z are built from the raw key (negative entries, a "
     "normalizer that can cross zero); forward is right",
     [SM],
     [att(S_K, "        k = self.k_proj(x_t).view(B, H, d_h)\n")])

case("bug_step_decay_cached_in_init", "bug",
     "__init__ stores γ once (self.step_decay = sigmoid(gamma_logit).detach()) and step uses it: any change of "
     "gamma_logit after construction (training, or setting the decays) is ignored by step, while forward follows "
     "the parameter",
     [SM, DEC],
     [att(I_GAMMA, I_GAMMA + "        self.step_decay = torch.sigmoid(self.gamma_logit).detach()  # γ for step, computed once\n"),
      att(S_GAMMA, "        gamma = self.step_decay.to(dtype=S.dtype, device=S.device)\n")])

case("bug_step_z_kept_as_column", "bug",
     "step keeps z as a (B, H, d_h, 1) column (reshaping the incoming z) so the normalizer is a matmul: outputs are "
     "right, but the returned z has the wrong shape, and Exercise 4's z norms come out (T, H, 1), so its locked "
     "check fails",
     [SM, EX4],
     [att(S_Z, "        z = gamma.view(1, H, 1, 1) * z.reshape(B, H, d_h, 1) + k.unsqueeze(-1)  # z as a column\n"),
      att(S_DENOM, "        denom = (q.unsqueeze(-2) @ z).squeeze(-1)  # (B, H, 1)\n")])

# ------------------------------------------------------------------------------------------------ bugs: exercises
case("bug_nb_ex1_kv_bytes_fp16", "bug",
     "Exercise 1: the KV-cache bytes use memory_bill's default bytes_per_value (2) while the plot says fp32 and the "
     "(S, z) state is priced at 4 bytes: the cache is drawn at half its size against the state; the locked check "
     "still passes",
     [EX1],
     [nb("ex1-012", 'kv_bytes = memory_bill(["full"], L, D, H, bytes_per_value=4).total_bytes',
         'kv_bytes = memory_bill(["full"], L, D, H).total_bytes')])

case("bug_nb_ex2_hybrid_full_first", "bug",
     "Exercise 2: PATTERNS' hybrid is written [full, linear, linear, linear] (full layer at the bottom): the "
     "locked check of Exercise 2 fails, and Exercise 3, which reuses PATTERNS, fails its check too",
     [EX2, EX3],
     [nb("ex2-018", '"hybrid LLLF": ["linear", "linear", "linear", "full"],',
         '"hybrid LLLF": ["full", "linear", "linear", "linear"],')])

case("bug_nb_ex3_accuracy_before_training", "bug",
     "Exercise 3: the accuracy line is moved above train_recall, so every curve is the untrained model's; the "
     "cell, the figure and the locked check all run",
     [EX3],
     [nb("ex3-024",
         "    recall_losses[name] = train_recall(model, task, RECALL_STEPS, batch_size=32, lr=1e-2, seed=SEED)\n"
         "    recall[name] = recall_accuracy_by_distance(model, task, bins, samples=32 if GRADING else 1024)\n",
         "    recall[name] = recall_accuracy_by_distance(model, task, bins, samples=32 if GRADING else 1024)\n"
         "    recall_losses[name] = train_recall(model, task, RECALL_STEPS, batch_size=32, lr=1e-2, seed=SEED)\n")])

case("bug_nb_ex4_S_norms_from_z", "bug",
     "Exercise 4: S_norms is filled with the norm of z (copy-paste of the z line), so the S panel repeats the z "
     "panel and the locked check (S norm after 8 tokens) fails",
     [EX4],
     [nb("ex4-030", "        S_norms.append(state[0][0].flatten(1).norm(dim=1))",
         "        S_norms.append(state[1][0].norm(dim=1))")])

# ------------------------------------------------------------------------------------------------ bugs: Exercise 5
case("bug_nb_mha_times_heads", "bug",
     "Exercise 5: the MHA cache priced as K and V of full width D for every head (2·T·D·H·BYTES = 524 GB), and "
     "the all-MHA and hybrid totals built on it; the scratch cell's memory_bill comparison prints False and is "
     "ignored",
     ["bill_mha", "bill_all_mha_stack", "bill_hybrid_stack"],
     [nb("ex5-036", "mha_bytes = 2 * T * D * BYTES", "mha_bytes = 2 * T * D * H * BYTES"),
      answer("mha_cache_one_layer", "16384000000 B", "524288000000 B"),
      answer("all_mha_stack_4_layers", "65536000000 B", "2097152000000 B"),
      answer("hybrid_lllf_stack_4_layers", "16387170304 B", "524291170304 B")])

case("bug_nb_linear_state_S_only", "bug",
     "Exercise 5: the linear state priced as S only (H·d_h²·BYTES = 1048576 B, z forgotten): 0.78% low, outside "
     "the 0.5% the linear answer allows; the hybrid total it feeds (16387145728 B) is still within 1%",
     ["bill_linear"],
     [nb("ex5-036", "linear_bytes = (H * d_h * d_h + H * d_h) * BYTES", "linear_bytes = H * d_h * d_h * BYTES"),
      answer("linear_state_one_layer", "1056768 B", "1048576 B"),
      answer("hybrid_lllf_stack_4_layers", "16387170304 B", "16387145728 B")])

case("bug_nb_hybrid_full_layer_gqa", "bug",
     "Exercise 5: the [L, L, L, F] stack priced with a GQA-8 cache in its full layer (3·linear + GQA = 4.10 GB) "
     "although the question says MHA",
     ["bill_hybrid_stack"],
     [nb("ex5-036", "hybrid_bytes = 3 * linear_bytes + mha_bytes", "hybrid_bytes = 3 * linear_bytes + gqa8_bytes"),
      answer("hybrid_lllf_stack_4_layers", "16387170304 B", "4099170304 B")])

case("bug_nb_grows_includes_window", "bug",
     "Exercise 5: grows_with_t answered (c), counting the 4096-token sliding window as growing with T",
     ["bill_grows"],
     [answer("grows_with_t", "b", "c")])

# ------------------------------------------------------------------------------------------------ bugs: written
case("bug_written_ex1_blank", "bug",
     "the Exercise 1 answer is left as the template's placeholder (the student skipped it)",
     ["written_ex1"],
     [nb("ex1-crossover-015", WRITTEN["ex1-crossover-015"], "_Type your answer here._")])

case("bug_written_ex2_reads_noise", "bug",
     "the Exercise 2 answer ranks the three models on grading-mode losses that differ in the third decimal and "
     "concludes that linear attention models language better than full attention, with the samples as proof",
     ["written_ex2"],
     [written("ex2-comparison-022",
              "The pure linear model has the lowest validation loss, so linear attention is simply the better "
              "language model here and the full-attention layers are not needed. The samples confirm it: the "
              "linear model's text reads more fluently and keeps the names consistent, while the full model's "
              "sample is noisier. The hybrid is in between, as expected from its mix of layers.")])

case("bug_written_quadratic_reference_wrong", "bug",
     "the quadratic_reference answer says the parallel form is quadratic because S grows with T during training "
     "and that step is fixed-size only because it throws old tokens away (the other concept answers are base's)",
     ["written_concepts"],
     [written("quadratic-reference-044",
              "During training the state S grows with the sequence, one row per token, so the parallel form "
              "has T × T entries; at inference step keeps only a window of recent tokens and throws the rest "
              "away, which is why its state stays the same size.")])

# ------------------------------------------------------------------------------------------------ stubs
case("stub_template", "stub", "the untouched template: attention.py and the notebook exactly as handed out",
     ALL, [("template", ATT, None), ("template", NB, None)])
case("stub_zeros", "stub",
     "forward returns zeros_like(x) and step zeros_like(x_t) with the state it was given (right shapes, no "
     "attention); the notebook is the template's",
     ALL, [att(FWD_BODY, "        return torch.zeros_like(x)  # TODO\n"),
           att(STEP_BODY, "        return torch.zeros_like(x_t), (S, z)  # TODO\n"),
           ("template", NB, None)])
case("stub_random", "stub",
     "forward returns randn_like(x) and step randn_like(x_t) with the state it was given (right shapes, no "
     "attention, no memory); the notebook is the template's",
     ALL, [att(FWD_BODY, "        return torch.randn_like(x)  # placeholder\n"),
           att(STEP_BODY, "        return torch.randn_like(x_t), (S, z)  # placeholder\n"),
           ("template", NB, None)])


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
    build_base()
    for c in C:
        build(c)
    for c in C:
        if c["kind"] == "alternative":
            assert (HERE / c["name"] / NB).read_bytes() == (BASE / NB).read_bytes(), c["name"]
    assert (HERE / "stub_template" / ATT).read_bytes() == (TEMPLATE / ATT).read_bytes()
    entries = [dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=c["should_lose"]) for c in C]
    with open(HERE / "corpus.yaml", "w") as f:
        f.write("# linear-attention-hybrid, blind round 16: written by make_cases.py (one entry per case folder)\n")
        yaml.safe_dump(entries, f, sort_keys=False, allow_unicode=True, width=110)
    counts = {k: sum(c["kind"] == k for c in C) for k in ("alternative", "bug", "stub")}
    print(f"{len(C)} entries (base included):", counts)


if __name__ == "__main__":
    main()
