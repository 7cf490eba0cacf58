"""Grader-side halves of the official checks for linear-attention-hybrid.

Every case is made here from fixed seeds, in float64, and compared with the independent numpy
reference (`reference.py`), never with the course code. Weights, shapes, head counts and learned
decays (gamma_logit) vary from case to case; known mistakes are `suspects` so that feedback can
name them.
"""
import numpy as np

from grader.checks import Case, check

from . import reference as ref

# (B, T, D, H): head counts 1..8, T from 1 to 40, B up to 3
SHAPES = [(1, 1, 4, 1), (2, 5, 8, 2), (3, 9, 12, 3), (2, 17, 16, 4), (1, 24, 16, 8), (2, 40, 24, 4),
          (3, 12, 32, 8), (1, 31, 6, 2)]

MISTAKES = {
    "no_normalizer": "the normalizer is dropped (y = φ(q)ᵀS instead of φ(q)ᵀS / φ(q)ᵀz)",
    "read_before_update": "the output is read BEFORE (S, z) are updated with the current token",
    "read_before_update_eps": "the output is read BEFORE (S, z) are updated (the 0/0 hidden by an epsilon)",
    "no_decay": "γ is not applied in this form (it computes the undecayed γ = 1 attention)",
    "decay_S_only": "S is decayed but the normalizer z is not (z must be γ·z + φ(k) too)",
    "heads_mixed": "heads are split with view(B, H, T, d_h) instead of view(B, T, H, d_h).transpose(1, 2)",
    "batch_shared_S": "the state S sums φ(k)vᵀ over the whole batch instead of per sequence",
    "noncausal": "the decay weights cover future positions (γ^|t-i|, no causal mask)",
}


def _inputs(seed, B, T, D, H, gammas=None, x_scale=1.0):
    rng = np.random.default_rng(seed)
    w = ref.random_weights(rng, D, H, gammas)
    x = rng.normal(0.0, x_scale, (B, T, D))
    return x, w


def _suspects(x, w, variants, key="y"):
    out = {}
    for v in variants:
        got = ref.linear_attention(x, w, v)
        if key == "both":
            out[MISTAKES[v]] = {"y_forward": got["y"], "y_step": got["y"]}
        else:
            out[MISTAKES[v]] = {key: got["y"]}
    return out


FORWARD_SUSPECTS = list(MISTAKES)
STEP_SUSPECTS = ["no_normalizer", "read_before_update", "read_before_update_eps", "no_decay", "decay_S_only",
                 "batch_shared_S"]


def _label(B, T, D, H, w):
    gammas = ", ".join(f"{g:.2f}" for g in 1 / (1 + np.exp(-w["gamma_logit"])))
    return f"B={B}, T={T}, D={D}, H={H}, γ=({gammas})"


# ---------------------------------------------------------------- equivalence with the reference

@check(probe="la_forward")
def forward_reference():
    """forward(x) equals the reference decayed, normalized linear attention."""
    for seed, (B, T, D, H) in enumerate(SHAPES):
        x, w = _inputs(100 + seed, B, T, D, H)
        yield Case(label=_label(B, T, D, H, w), inputs={"x": x, **w}, expect={"y": ref.linear_attention(x, w)["y"]},
                   suspects=_suspects(x, w, FORWARD_SUSPECTS),
                   hint="Compare with the recurrence: y_t = Σ_{i≤t} γ^(t-i) s_ti v_i / Σ_{i≤t} γ^(t-i) s_ti, "
                        "s_ti = φ(q_t)·φ(k_i), per head.")


@check(probe="la_step")
def step_reference():
    """Repeated step() calls give the reference outputs and final state (S, z)."""
    for seed, (B, T, D, H) in enumerate(SHAPES):
        x, w = _inputs(200 + seed, B, T, D, H)
        want = ref.linear_attention(x, w)
        yield Case(label=_label(B, T, D, H, w), inputs={"x": x, **w}, expect=want,
                   suspects=_suspects(x, w, STEP_SUSPECTS),
                   hint="S ← γ·S + φ(k)vᵀ and z ← γ·z + φ(k), then y = φ(q)ᵀS / φ(q)ᵀz; return the NEW (S, z).")


@check(probe="la_grad")
def gradients():
    """Gradients of forward with respect to the input and to gamma_logit match the reference."""
    for seed, (B, T, D, H) in enumerate([(1, 5, 4, 2), (2, 6, 6, 3), (1, 8, 8, 4)]):
        x, w = _inputs(300 + seed, B, T, D, H)
        sw = np.random.default_rng(seed).normal(size=(B, T, D))
        yield Case(label=_label(B, T, D, H, w), inputs={"x": x, "seed_weights": sw, **w},
                   expect=ref.numerical_gradients(x, w, sw), atol=1e-6, rtol=1e-5,
                   hint="If dgamma is wrong or zero, γ must come from self.gamma_logit inside forward "
                        "(no .detach(), no .item(), no stored copy).")


# ---------------------------------------------------------------- the normalizer

def _normalizer_cases(seed0):
    for seed, (B, T, D, H, gammas) in enumerate([(2, 12, 8, 2, [1.0, 1.0]), (1, 30, 12, 3, [1.0, 0.9, 0.6]),
                                                  (3, 20, 16, 4, [0.95, 0.99, 1.0, 0.8]), (2, 7, 8, 1, [0.7])]):
        yield (B, T, D, H), _inputs(seed0 + seed, B, T, D, H, gammas)


@check(probe="la_forward")
def normalizer_parallel():
    """forward divides by φ(q_t)·z_t, the decayed row sum of the scores."""
    for shape, (x, w) in _normalizer_cases(400):
        yield Case(label=_label(*shape, w), inputs={"x": x, **w}, expect={"y": ref.linear_attention(x, w)["y"]},
                   suspects=_suspects(x, w, ["no_normalizer"]),
                   hint="Divide (scores @ v) by scores.sum(-1, keepdim=True); forward and step must BOTH normalize.")


@check(probe="la_step")
def normalizer_recurrent():
    """step divides φ(q)ᵀS by φ(q)ᵀz."""
    for shape, (x, w) in _normalizer_cases(500):
        yield Case(label=_label(*shape, w), inputs={"x": x, **w}, expect={"y": ref.linear_attention(x, w)["y"]},
                   suspects=_suspects(x, w, ["no_normalizer"]),
                   hint="y = (φ(q)ᵀS) / (φ(q)ᵀz) per head; z accumulates φ(k) the way S accumulates φ(k)vᵀ.")


# ---------------------------------------------------------------- update before read

def _order_cases(seed0):
    for seed, (B, T, D, H) in enumerate([(1, 1, 4, 1), (2, 1, 8, 2), (2, 3, 8, 4), (1, 6, 12, 3)]):
        yield (B, T, D, H), _inputs(seed0 + seed, B, T, D, H)


@check(probe="la_step")
def update_before_read_recurrent():
    """step updates (S, z) with the current token before reading: token t attends to itself."""
    for shape, (x, w) in _order_cases(600):
        yield Case(label=_label(*shape, w), inputs={"x": x, **w}, expect={"y": ref.linear_attention(x, w)["y"]},
                   suspects=_suspects(x, w, ["read_before_update", "read_before_update_eps"]),
                   hint="With one token, normalized attention must return out_proj(v_0) exactly: write "
                        "φ(k_t)v_tᵀ into S and φ(k_t) into z first, then read with φ(q_t).")


@check(probe="la_forward")
def update_before_read_parallel():
    """forward lets token t attend to itself (the mask keeps i = t)."""
    for shape, (x, w) in _order_cases(700):
        yield Case(label=_label(*shape, w), inputs={"x": x, **w}, expect={"y": ref.linear_attention(x, w)["y"]},
                   suspects=_suspects(x, w, ["read_before_update", "read_before_update_eps"]),
                   hint="The decay mask is γ^(t-i) for i ≤ t (diagonal included, γ⁰ = 1), 0 for i > t.")


# ---------------------------------------------------------------- decay in both forms, on S and on z

def _decay_cases(seed0):
    rng = np.random.default_rng(seed0)
    for seed, (B, T, D, H) in enumerate([(2, 10, 8, 2), (1, 16, 12, 3), (2, 25, 16, 4), (1, 9, 16, 8)]):
        gammas = 1 / (1 + np.exp(-rng.uniform(-2.5, 3.0, H)))  # learned decays from 0.08 to 0.95
        yield (B, T, D, H), _inputs(seed0 + seed, B, T, D, H, gammas)


@check(probe="la_forward")
def decay_parallel():
    """forward weights token i by γ_h^(t-i) for each head's own learned γ."""
    for shape, (x, w) in _decay_cases(800):
        yield Case(label=_label(*shape, w), inputs={"x": x, **w}, expect={"y": ref.linear_attention(x, w)["y"]},
                   suspects=_suspects(x, w, ["no_decay", "decay_S_only"]),
                   hint="Build the (H, T, T) weights from sigmoid(gamma_logit) and the distance t - i; apply them "
                        "to the scores BEFORE both the numerator and the row sum.")


@check(probe="la_step")
def decay_recurrent():
    """step decays its state by each head's γ before adding the new token."""
    for shape, (x, w) in _decay_cases(900):
        yield Case(label=_label(*shape, w), inputs={"x": x, **w}, expect={"y": ref.linear_attention(x, w)["y"]},
                   suspects=_suspects(x, w, ["no_decay", "decay_S_only"]),
                   hint="S ← γ_h·S + φ(k)vᵀ with γ = self.decay shaped (1, H, 1, 1); the same γ_h for z.")


def _zero_qk_case(D, H, T, gamma):
    """q = k = 0 after projection (so φ(q) = φ(k) = 1), v = (1, ..., 1), out_proj = identity."""
    w = {f"W{n}": np.zeros((D, D)) for n in "qkv"}
    w.update({f"b{n}": np.zeros(D) for n in "qk"})
    w.update({"bv": np.ones(D), "Wo": np.eye(D), "bo": np.zeros(D), "gamma_logit": ref.logit(np.full(H, gamma))})
    return np.random.default_rng(0).normal(size=(1, T, D)), w


@check(probe="la_both")
def decay_normalizer():
    """Both forms decay the normalizer z with S (q = k = 0, v = 1 must give exactly 1)."""
    cases = [(_zero_qk_case(2, 1, 2, 0.5), "T=2, γ=0.5, q=k=0, v=(1,1)"),
             (_zero_qk_case(8, 2, 6, 0.3), "T=6, γ=0.3, q=k=0, v=1")]
    for seed, (B, T, D, H) in enumerate([(2, 12, 8, 2), (1, 20, 12, 3)]):
        x, w = _inputs(1000 + seed, B, T, D, H, np.linspace(0.2, 0.8, H))
        cases.append(((x, w), _label(B, T, D, H, w)))
    for (x, w), label in cases:
        want = ref.linear_attention(x, w)["y"]
        yield Case(label=label, inputs={"x": x, **w}, expect={"y_forward": want, "y_step": want},
                   suspects=_suspects(x, w, ["decay_S_only", "no_decay"], key="both"),
                   hint="z is the normalizer of S: it must forget at the same rate (γ·z + φ(k); in forward, the "
                        "row sum of the DECAYED scores). With q = k = 0 every output is then a weighted mean of v.")


# ---------------------------------------------------------------- heads and batch kept apart

@check(probe="la_both")
def heads_separate():
    """Each head reads only its own d_h channels, with its own γ (both forms)."""
    for seed, (B, T, D, H) in enumerate([(1, 6, 8, 2), (2, 9, 16, 4), (1, 12, 32, 8), (2, 5, 12, 3)]):
        x, w = _inputs(1100 + seed, B, T, D, H, np.linspace(0.1, 0.99, H))
        want = ref.linear_attention(x, w)["y"]
        yield Case(label=_label(B, T, D, H, w), inputs={"x": x, **w}, expect={"y_forward": want, "y_step": want},
                   suspects={MISTAKES["heads_mixed"]: {"y_forward": ref.linear_attention(x, w, "heads_mixed")["y"]}},
                   hint="(B, T, D) -> view(B, T, H, d_h) -> transpose(1, 2) gives (B, H, T, d_h); merge with the "
                        "inverse: transpose(1, 2) then reshape(B, T, D).")


@check(probe="la_batch")
def batch_isolation():
    """Sequences in a batch never see each other (both forms)."""
    for seed, (B, T, D, H) in enumerate([(2, 6, 8, 2), (3, 10, 12, 3), (4, 5, 16, 4)]):
        x, w = _inputs(1200 + seed, B, T, D, H)
        x2 = x.copy()
        x2[1] = np.random.default_rng(seed).normal(size=(T, D))
        a, b = ref.linear_attention(x, w)["y"], ref.linear_attention(x2, w)["y"]
        leak = ref.linear_attention(x, w, "batch_shared_S")["y"]
        yield Case(label=_label(B, T, D, H, w) + ", sequence 1 replaced", inputs={"x": x, "x2": x2, **w},
                   expect={"y_forward": a, "y_step": a, "y_forward2": b, "y_step2": b},
                   suspects={MISTAKES["batch_shared_S"]: {"y_step": leak}},
                   hint="Keep the batch index in every einsum/matmul ('bhd,bhe->bhde', not '->hde'); "
                        "replacing one sequence must change only that sequence's outputs.")


# ---------------------------------------------------------------- causality

def _same_before(t):
    def judge(got):
        y, y2 = np.asarray(got["y"]), np.asarray(got["y2"])
        if y.shape != y2.shape or y.ndim != 3:
            return f"forward returned shapes {y.shape} and {y2.shape}; expected (B, T, D)"
        changed = np.flatnonzero(np.abs(y2[:, :t] - y[:, :t]).max(axis=(0, 2)) > 1e-10)
        if changed.size:
            return (f"changing only token {t} changed the output at token {int(changed[0])}: "
                    "the future leaks into the past")
        if np.abs(y2[:, t] - y[:, t]).max() < 1e-12:
            return f"changing token {t} did not change output {t}: the token does not attend to itself"
        return None
    return judge


@check(probe="la_perturb")
def causal_perturbation():
    """Changing token t never changes an output before t."""
    for seed, (B, T, D, H) in enumerate([(1, 8, 8, 2), (2, 12, 12, 3), (1, 20, 16, 4)]):
        x, w = _inputs(1300 + seed, B, T, D, H)
        for t in (0, T // 2, T - 1):
            x2 = x.copy()
            x2[:, t] += np.random.default_rng(seed + t).normal(size=(B, D))
            yield Case(label=_label(B, T, D, H, w) + f", token {t} changed", inputs={"x": x, "x2": x2, **w},
                       judge=_same_before(t),
                       hint="Weights for i > t must be exactly 0: mask the (T, T) decay matrix where t - i < 0.")


def _no_future_gradient(t):
    def judge(got):
        dx = np.asarray(got["dx"])
        if dx.ndim != 3:
            return f"the input gradient has shape {dx.shape}; expected (B, T, D)"
        future = np.abs(dx[:, t + 1:]).max() if dx.shape[1] > t + 1 else 0.0
        if future > 0:
            later = int(np.flatnonzero(np.abs(dx[:, t + 1:]).max(axis=(0, 2)) > 0)[0]) + t + 1
            return f"output {t} has a nonzero gradient with respect to token {later} (a future token)"
        if np.abs(dx[:, t]).max() == 0:
            return f"output {t} has no gradient with respect to its own token"
        return None
    return judge


@check(probe="la_grad")
def causal_gradient():
    """The gradient of output t with respect to every later token is exactly zero."""
    for seed, (B, T, D, H) in enumerate([(1, 9, 8, 2), (2, 14, 12, 4)]):
        x, w = _inputs(1400 + seed, B, T, D, H)
        for t in (0, T // 3, T - 2):
            sw = np.zeros((B, T, D))
            sw[:, t] = np.random.default_rng(t).normal(size=(B, D))
            yield Case(label=_label(B, T, D, H, w) + f", output {t}", inputs={"x": x, "seed_weights": sw, **w},
                       judge=_no_future_gradient(t),
                       hint="A masked weight must be an exact 0 (multiply by the causal mask, or fill with 0), "
                            "not a small number such as γ^(large).")


# ---------------------------------------------------------------- long sequences

@check(probe="la_both")
def long_sequence():
    """After hundreds of tokens, forward and step still match the reference (quick and slow decays)."""
    for seed, (B, T, D, H, gammas) in enumerate([(1, 300, 8, 4, [0.02, 0.3, 0.9, 0.999]),
                                                  (2, 400, 12, 3, [0.05, 0.6, 1.0]),
                                                  (1, 520, 8, 2, [0.5, 0.97])]):
        x, w = _inputs(1500 + seed, B, T, D, H, gammas)
        want = ref.linear_attention(x, w)["y"]
        yield Case(label=_label(B, T, D, H, w), inputs={"x": x, **w}, expect={"y_forward": want, "y_step": want},
                   suspects=_suspects(x, w, ["no_decay", "decay_S_only", "no_normalizer"], key="both"),
                   hint="γ^(t-i) computed as γ^t / γ^i underflows to 0/0 once γ^t < 1e-308: use "
                        "exp((t-i)·log γ) on the clamped distance. In step, never rebuild the state from scratch.")


# ---------------------------------------------------------------- the whole LM decodes like it trains

@check(probe="lm_decode")
def lm_cached_generate():
    """HybridTransformerLM.generate (KV cache + (S, z)) gives the teacher-forced logits at every position."""
    patterns = ["linear,linear,linear,full", "linear", "full,linear", "linear,linear,linear,full," * 1 +
                "linear,linear,linear,full"]
    for seed, pattern in enumerate(patterns):
        rng = np.random.default_rng(1600 + seed)
        L, H = len(pattern.split(",")), 4
        prompt = rng.integers(0, 23, size=(2, 5))
        inputs = {"seed": seed, "vocab_size": 23, "embedding_dim": 16, "num_heads": H, "pattern": pattern,
                  "max_seq_len": 64, "prompt": prompt, "max_new_tokens": 40,
                  "gamma_logits": rng.uniform(-2.0, 4.0, (L, H))}

        def judge(got, T=5 + 40 - 1):
            a, b = np.asarray(got["generated_logits"]), np.asarray(got["teacher_logits"])
            if a.shape != b.shape:
                return f"generate returned logits of shape {a.shape}, teacher forcing {b.shape}"
            bad = ~(np.abs(a - b) <= 1e-8 + 1e-6 * np.abs(b))
            if bad.any():
                _, pos, _ = np.argwhere(bad)[0]
                return (f"cached decoding and teacher forcing disagree from position {int(pos)} of {T} on "
                        f"(largest difference {float(np.nan_to_num(np.abs(a - b), nan=np.inf).max()):.3g})")
            return None

        yield Case(label=f"pattern [{pattern}], 5-token prompt + 40 tokens", inputs=inputs, judge=judge,
                   hint="generate feeds every token through LinearAttention.step and carries the (S, z) it returns; "
                        "step must return the NEW state and agree with forward at every position.")
