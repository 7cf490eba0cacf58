"""Grader-side halves of the official checks: inputs, the float64 reference, the judgement.

One check per pitfall of the lesson (each its own rubric item), then one per face of the
recurrence compared with the independent reference. Every case is float64, over leading
dims (), (2,) and (2, 3), several seeds, gammas 0, 1e-3, 0.5, 0.9, 1 and per-head tensors,
and chunk sizes 1, 3, 4, 5, L and L + 3 with L = 13 (divisible by none of 3, 4, 5).
"""
import numpy as np

from grader.checks import Case, check

from . import reference as ref

LEADS = [(), (2,), (2, 3)]
SHAPES = [(1, 3, 2), (7, 4, 3), (13, 3, 5), (13, 4, 4)]     # (L, m, d_v): m != d_v and m == d_v
L_CHUNK = 13
CHUNKS = [1, 3, 4, 5, L_CHUNK, L_CHUNK + 3]
FLOAT_GAMMAS = [0.0, 1e-3, 0.5, 0.9, 1.0]


def per_head_gamma(lead):
    """One gamma per head (the last leading dim), mixing the edge values."""
    return np.array([0.0, 0.5, 1.0][:lead[-1]]) if len(lead) == 2 else np.array([0.9, 1e-3])


def gammas(lead):
    return FLOAT_GAMMAS + ([per_head_gamma(lead)] if lead else [])


def gamma_label(gamma):
    return "per-head gamma" if isinstance(gamma, np.ndarray) else f"gamma={gamma:g}"


def shape_label(lead, L, m, d_v):
    return f"leading dims {lead}, L={L}, m={m}, d_v={d_v}"


def grid(seed0=0):
    """(seed, lead, L, m, d_v) over every leading-dims × shape combination."""
    seed = seed0
    for lead in LEADS:
        for L, m, d_v in SHAPES:
            yield seed, lead, L, m, d_v
            seed += 1


# ----------------------------------------------------------------------------- linear attention pitfalls

LINEAR_FORMS = ("parallel", "recurrent", "step")
FORM_NAME = {"parallel": "linear_attention_parallel", "recurrent": "linear_attention_recurrent",
             "step": "LinearAttentionState.step"}


@check(probe="linear")
def normalizer():
    """Linear attention divides φ(q_i)ᵀS_i by φ(q_i)ᵀz_i."""
    for seed, lead, L, m, d_v in grid(100):
        Q, K, V = ref.qkv(seed, lead, L, m, d_v)
        for form in LINEAR_FORMS:
            yield Case(
                label=f"{FORM_NAME[form]}, {shape_label(lead, L, m, d_v)}",
                inputs={"form": form, "Q": Q, "K": K, "V": V},
                expect={"y": ref.linear_attention(Q, K, V)},
                suspects={"the division by φ(q_i)ᵀz_i is missing": ref.linear_attention(Q, K, V, normalize=False)},
                hint="Linear attention is normalized: divide φ(q_i)ᵀS_i by φ(q_i)ᵀz_i, where z_i is the "
                     "running sum of φ(k_j). (Retention is the one without a normalizer.)",
            )


@check(probe="linear")
def update_before_read():
    """The state is updated with token t before it is read for token t."""
    for seed, lead in enumerate(LEADS):
        for L, m, d_v in [(1, 3, 2), (1, 4, 4), (5, 3, 4)]:
            Q, K, V = ref.qkv(200 + seed, lead, L, m, d_v)
            for form in ("recurrent", "step"):
                yield Case(
                    label=f"{FORM_NAME[form]}, {shape_label(lead, L, m, d_v)}",
                    inputs={"form": form, "Q": Q, "K": K, "V": V},
                    expect={"y": ref.linear_attention(Q, K, V)},
                    suspects={"the state is read before token t is added to it":
                              ref.linear_attention(Q, K, V, read_before_update=True)},
                    hint="Add φ(k_t)v_tᵀ to S and φ(k_t) to z first, then read with φ(q_t). With a single "
                         "token the output must be that token's own value (reading first gives 0/0).",
                )


@check(probe="linear")
def running_normalizer():
    """The normalizer z_i sums φ(k_j) over j <= i only, not over the whole sequence."""
    for seed, lead, L, m, d_v in grid(300):
        if L == 1:
            continue
        Q, K, V = ref.qkv(seed, lead, L, m, d_v)
        for form in LINEAR_FORMS:
            yield Case(
                label=f"{FORM_NAME[form]}, {shape_label(lead, L, m, d_v)}",
                inputs={"form": form, "Q": Q, "K": K, "V": V},
                expect={"y": ref.linear_attention(Q, K, V)},
                suspects={"z sums φ(k_j) over the whole sequence instead of j <= i":
                          ref.linear_attention(Q, K, V, whole_sequence_z=True)},
                hint="Row i is divided by φ(q_i)ᵀz_i with z_i = Σ_{j<=i} φ(k_j): mask the scores before "
                     "taking row sums, or keep z as a running sum.",
            )


@check(probe="linear")
def feature_map():
    """φ = elu + 1 is applied to Q and K, so scores stay positive even for very negative inputs."""
    for seed, lead in enumerate(LEADS):
        for shift_q, shift_k in [(-4.0, -4.0), (-4.0, 0.5), (0.0, -3.0)]:
            L, m, d_v = 9, 4, 3
            Q, K, V = ref.qkv(400 + seed, lead, L, m, d_v)
            Q, K = Q + shift_q, K + shift_k
            for form in LINEAR_FORMS:
                yield Case(
                    label=f"{FORM_NAME[form]}, strongly negative inputs, leading dims {lead}, shift {shift_q:g}/{shift_k:g}",
                    inputs={"form": form, "Q": Q, "K": K, "V": V},
                    expect={"y": ref.linear_attention(Q, K, V)},
                    suspects={"Q and K are used without a feature map (scores can go negative)":
                              ref.linear_attention(Q, K, V, phi=ref.identity),
                              "φ is ReLU (zero for negative inputs: 0/0)":
                              ref.linear_attention(Q, K, V, phi=lambda x: np.maximum(x, 0.0))},
                    hint="Apply feature_map (elu + 1) to Q and K, never to V, inside every form; a map that "
                         "can be negative or zero lets φ(q)ᵀz vanish or flip sign.",
                )


@check(probe="feature")
def feature_map_values():
    """feature_map itself is elu(x) + 1."""
    x = np.concatenate([np.linspace(-30, 5, 71), [0.0, -1e-9, 1e-9]])
    yield Case(label="x from -30 to 5", inputs={"x": x}, expect={"phi": ref.elu_plus_one(x)},
               hint="feature_map is provided: restore it to F.elu(x) + 1.")


@check(probe="linear")
def kv_orientation_linear():
    """The linear-attention state adds k vᵀ (m × d_v), not v kᵀ."""
    yield from _kv_cases("linear", ("recurrent", "step"), 500)


@check(probe="retention")
def kv_orientation_retention():
    """The retention state adds k vᵀ (m × d_v), not v kᵀ."""
    yield from _kv_cases("retention", ("recurrent", "chunkwise"), 520)


@check(probe="unified")
def kv_orientation_unified():
    """unified_recurrence's state adds k vᵀ (m × d_v), not v kᵀ."""
    yield from _kv_cases("unified", ("linear", "retention"), 540)


def _kv_cases(kind, forms, seed0):
    hint = ("S is m × d_v: add k_t[:, None] * v_t[None, :] (k vᵀ) and read q_t S. With m != d_v, v kᵀ "
            "does not even fit; with m == d_v it silently gives a different answer.")
    for seed, lead in enumerate(LEADS):
        for L, m, d_v in [(6, 3, 5), (6, 5, 2), (6, 4, 4)]:
            Q, K, V = ref.qkv(seed0 + seed, lead, L, m, d_v)
            for form in forms:
                if kind == "linear":
                    inputs = {"form": form, "Q": Q, "K": K, "V": V}
                    want = ref.linear_attention(Q, K, V)
                    wrong = ref.linear_attention(Q, K, V, v_kT=True) if m == d_v else None
                    name = FORM_NAME[form]
                else:
                    inputs = {"Q": Q, "K": K, "V": V, "gamma": 0.9}
                    inputs.update({"mode": form} if kind == "unified" else {"form": form, "chunk_size": 4})
                    gamma = 1.0 if form == "linear" else 0.9
                    if form == "linear":
                        del inputs["gamma"]
                    want = ref.retention(Q, K, V, gamma)
                    wrong = ref.retention_v_kT(Q, K, V, gamma) if m == d_v else None
                    name = f"unified_recurrence(mode={form!r})" if kind == "unified" else f"retention_{form}"
                yield Case(
                    label=f"{name}, {shape_label(lead, L, m, d_v)}",
                    inputs=inputs,
                    expect={"y": want},
                    suspects={"the state is built from v kᵀ instead of k vᵀ": wrong} if wrong is not None else {},
                    hint=hint,
                )


def _perturbed(seed, lead, L, m, d_v, p):
    """Inputs and a copy whose tokens p .. L-1 are replaced."""
    Q, K, V = ref.qkv(seed, lead, L, m, d_v)
    Q2, K2, V2 = (a.copy() for a in (Q, K, V))
    rng = np.random.default_rng(seed + 10_000)
    for a in (Q2, K2, V2):
        a[..., p:, :] = rng.standard_normal(a[..., p:, :].shape) * 3
    return {"Q": Q, "K": K, "V": V, "Q2": Q2, "K2": K2, "V2": V2}


def _causal_judge(p):
    def judge(got):
        y, y2 = np.asarray(got["y"]), np.asarray(got["y2"])
        if y.shape != y2.shape or y.ndim < 2:
            return f"the two outputs have shapes {y.shape} and {y2.shape}"
        if not np.isfinite(y).all():
            return "the output contains NaN or inf"
        if not np.allclose(y[..., :p, :], y2[..., :p, :], rtol=1e-9, atol=1e-10):
            return f"an output before position {p} changed when only the tokens from position {p} on changed"
        if np.allclose(y[..., p:, :], y2[..., p:, :], rtol=1e-9, atol=1e-10):
            return (f"the outputs from position {p} on did not change either when those tokens changed: "
                    "the output does not depend on its inputs")
        return None
    return judge


CAUSAL_HINT = ("Output i may only depend on tokens j <= i: zero the scores above the diagonal "
               "(j > i) in the parallel form, and never use a sum over the whole sequence.")


@check(probe="linear_perturbed")
def causal_linear():
    """Linear attention is causal: changing later tokens never changes an earlier output."""
    for seed, lead in enumerate(LEADS):
        for L, p in [(9, 4), (13, 1), (6, 5)]:
            inputs = _perturbed(600 + seed, lead, L, 4, 3, p)
            for form in LINEAR_FORMS:
                yield Case(label=f"{FORM_NAME[form]}, leading dims {lead}, L={L}, tokens {p}.. changed",
                           inputs={"form": form, **inputs}, judge=_causal_judge(p), hint=CAUSAL_HINT)


@check(probe="retention_perturbed")
def causal_retention():
    """Retention is causal in every form: changing later tokens never changes an earlier output."""
    for seed, lead in enumerate(LEADS):
        for L, p in [(9, 4), (13, 1), (6, 5)]:
            inputs = _perturbed(620 + seed, lead, L, 4, 3, p)
            for form in ("parallel", "recurrent", "chunkwise"):
                yield Case(label=f"retention_{form}, leading dims {lead}, L={L}, tokens {p}.. changed",
                           inputs={"form": form, "gamma": 1.0, "chunk_size": 4, **inputs},
                           judge=_causal_judge(p), hint=CAUSAL_HINT)


# ----------------------------------------------------------------------------- retention pitfalls

RETENTION_FORMS = ("parallel", "recurrent", "chunkwise")


@check(probe="retention")
def decay_every_form():
    """Every retention form applies the decay gamma."""
    for seed, lead, L, m, d_v in grid(700):
        if L == 1:
            continue
        Q, K, V = ref.qkv(seed, lead, L, m, d_v)
        for gamma in [0.5] + ([per_head_gamma(lead)] if lead else []):
            for form in RETENTION_FORMS:
                yield Case(
                    label=f"retention_{form}, {gamma_label(gamma)}, {shape_label(lead, L, m, d_v)}",
                    inputs={"form": form, "Q": Q, "K": K, "V": V, "gamma": gamma, "chunk_size": 3},
                    expect={"y": ref.retention(Q, K, V, gamma)},
                    suspects={"this form never applies the decay (it computes gamma = 1)": ref.retention(Q, K, V, 1.0)},
                    hint="The decay belongs in all three forms: D[n, m] = gamma**(n-m) in the parallel one, "
                         "S = gamma * S + ... in the recurrent one, and both the intra-chunk mask and the "
                         "carried state R in the chunkwise one.",
                )


@check(probe="retention")
def chunk_boundaries():
    """retention_chunkwise uses gamma**(j+1) for the cross-chunk term and gamma**(n-1-s) to carry R."""
    seed = 800
    for lead in LEADS:
        for gamma in gammas(lead):
            for chunk in CHUNKS:
                Q, K, V = ref.qkv(seed, lead, L_CHUNK, 4, 3)
                seed += 1
                suspects = {
                    "the cross-chunk term uses gamma**j instead of gamma**(j+1)":
                        ref.retention_chunk_variant(Q, K, V, gamma, chunk, cross_shift=0)[0],
                    "the cross-chunk term uses gamma**(j+2) instead of gamma**(j+1)":
                        ref.retention_chunk_variant(Q, K, V, gamma, chunk, cross_shift=2)[0],
                    "the carried state uses gamma**(n-s) instead of gamma**(n-1-s)":
                        ref.retention_chunk_variant(Q, K, V, gamma, chunk, carry_shift=0)[0],
                    "the carried state uses gamma**(n-2-s) instead of gamma**(n-1-s)":
                        ref.retention_chunk_variant(Q, K, V, gamma, chunk, carry_shift=2)[0],
                }
                yield Case(
                    label=f"chunk_size={chunk}, L={L_CHUNK}, {gamma_label(gamma)}, leading dims {lead}",
                    inputs={"form": "chunkwise", "Q": Q, "K": K, "V": V, "gamma": gamma, "chunk_size": chunk},
                    expect={"y": ref.retention(Q, K, V, gamma)},
                    suspects=suspects,
                    hint="With local index j = 0..n-1: the cross-chunk term is gamma**(j+1) * q_j R and the "
                         "update is R = gamma**n R + Σ_s gamma**(n-1-s) k_sᵀ v_s. Test chunk sizes that do not "
                         "divide L, and ones larger than L.",
                )


@check(probe="retention_state")
def partial_chunk_state():
    """retention_chunkwise(..., return_state=True) returns the state after the last token."""
    seed = 900
    for lead in LEADS:
        for gamma in [0.5, 0.9] + ([per_head_gamma(lead)] if lead else []):
            for chunk in [2, 3, 4, 5, 1, L_CHUNK, L_CHUNK + 3]:
                Q, K, V = ref.qkv(seed, lead, L_CHUNK, 4, 3)
                seed += 1
                partial = L_CHUNK % chunk != 0 and chunk < L_CHUNK
                yield Case(
                    label=f"chunk_size={chunk}, L={L_CHUNK}{' (short last chunk)' if partial else ''}, "
                          f"{gamma_label(gamma)}, leading dims {lead}",
                    inputs={"Q": Q, "K": K, "V": V, "gamma": gamma, "chunk_size": chunk},
                    expect={"R": ref.retention_state(K, V, gamma)},
                    suspects={"the last, shorter chunk is decayed as if it had chunk_size tokens":
                              {"R": ref.retention_chunk_variant(Q, K, V, gamma, chunk, last_chunk_uses_B=True)[1]}},
                    hint="R after the last token equals Σ_m gamma**(L-1-m) k_mᵀ v_m. In the last chunk use its "
                         "real length n (Q[..., c0:c0+chunk_size, :].shape[-2]), not chunk_size.",
                )


@check(probe="gamma_rejected")
def gamma_validation():
    """gamma outside [0, 1] raises ValueError in every retention form; 0 and 1 are accepted."""
    bad = [1.5, 1.0 + 1e-6, -0.1, -1e-6, np.array([0.5, 1.2]), np.array([-0.1, 0.9])]
    fine = [0.0, 1.0, np.array([0.0, 1.0])]
    for form in RETENTION_FORMS:
        for gamma, rejected in [(g, True) for g in bad] + [(g, False) for g in fine]:
            lead = len(gamma) if isinstance(gamma, np.ndarray) else 0
            what = f"per-head gamma {gamma.tolist()}" if lead else f"gamma={gamma!r}"
            yield Case(
                label=f"retention_{form}, {what}",
                inputs={"form": form, "gamma": gamma, "lead": lead},
                expect={"raised": "ValueError" if rejected else ""},
                hint=("Check gamma before using it: raise ValueError unless 0 <= gamma <= 1 for every entry "
                      "(a tensor gamma has one entry per head)." if rejected else
                      "gamma = 0 and gamma = 1 are valid (0 <= gamma <= 1); do not raise for them."),
            )


# ----------------------------------------------------------------------------- every face vs the reference

def _linear_equivalence(form, seed0):
    for seed, lead, L, m, d_v in grid(seed0):
        Q, K, V = ref.qkv(seed, lead, L, m, d_v, scale=1.5)
        yield Case(label=shape_label(lead, L, m, d_v), inputs={"form": form, "Q": Q, "K": K, "V": V},
                   expect={"y": ref.linear_attention(Q, K, V)},
                   hint=f"Compare {FORM_NAME[form]} with the formula y_i = φ(q_i)ᵀS_i / φ(q_i)ᵀz_i on small "
                        "inputs with leading dims, e.g. (2, 3, L, m); the public tests show how.")


@check(probe="linear")
def linear_parallel():
    """linear_attention_parallel matches the reference."""
    yield from _linear_equivalence("parallel", 1000)


@check(probe="linear")
def linear_recurrent():
    """linear_attention_recurrent matches the reference."""
    yield from _linear_equivalence("recurrent", 1100)


@check(probe="linear")
def state_step():
    """LinearAttentionState.step, token by token, matches the reference."""
    yield from _linear_equivalence("step", 1200)


def _retention_equivalence(form, seed0):
    seed = seed0
    for lead in LEADS:
        for L, m, d_v in SHAPES:
            for gamma in gammas(lead):
                Q, K, V = ref.qkv(seed, lead, L, m, d_v)
                seed += 1
                yield Case(label=f"{gamma_label(gamma)}, {shape_label(lead, L, m, d_v)}",
                           inputs={"form": form, "Q": Q, "K": K, "V": V, "gamma": gamma, "chunk_size": 4},
                           expect={"y": ref.retention(Q, K, V, gamma)},
                           hint=f"Compare retention_{form} with o_n = Σ_{{m<=n}} gamma**(n-m) (q_n·k_m) v_m; "
                                "remember gamma = 0 means 0**0 = 1 (each token sees itself).")


@check(probe="retention")
def retention_parallel():
    """retention_parallel matches the reference."""
    yield from _retention_equivalence("parallel", 1300)


@check(probe="retention")
def retention_recurrent():
    """retention_recurrent matches the reference."""
    yield from _retention_equivalence("recurrent", 1400)


@check(probe="retention")
def retention_chunkwise():
    """retention_chunkwise matches the reference."""
    yield from _retention_equivalence("chunkwise", 1500)


@check(probe="unified")
def unified_modes():
    """unified_recurrence gives linear (A_t = 1), retention (A_t = gamma) and gated (A_t = gate[t])."""
    for seed, lead, L, m, d_v in grid(1600):
        Q, K, V = ref.qkv(seed, lead, L, m, d_v)
        base = {"Q": Q, "K": K, "V": V}
        hint = "One loop: S = A_t * S + k_t v_tᵀ, then y_t = q_t S; no feature map and no normalizer."
        yield Case(label=f"mode='linear', {shape_label(lead, L, m, d_v)}", inputs={"mode": "linear", **base},
                   expect={"y": ref.retention(Q, K, V, 1.0)},
                   suspects={"a feature map or a normalizer is applied": ref.linear_attention(Q, K, V)}, hint=hint)
        for gamma in [0.0, 0.7] + ([per_head_gamma(lead)] if lead else []):
            yield Case(label=f"mode='retention', {gamma_label(gamma)}, {shape_label(lead, L, m, d_v)}",
                       inputs={"mode": "retention", "gamma": gamma, **base},
                       expect={"y": ref.retention(Q, K, V, gamma)}, hint=hint)
        rng = np.random.default_rng(seed)
        for gate in [rng.uniform(0.05, 1.0, size=L), rng.uniform(0.05, 1.0, size=(*lead, L))]:
            yield Case(label=f"mode='gated', gate of shape {gate.shape}, {shape_label(lead, L, m, d_v)}",
                       inputs={"mode": "gated", "gate": gate, **base},
                       expect={"y": ref.gated(Q, K, V, gate)},
                       suspects={"the gate is applied after adding k_t v_tᵀ (it should scale only S_{t-1})":
                                 ref.gated_wrong_order(Q, K, V, gate)},
                       hint=hint + " A gate of shape (..., L) gives one A_t per leading index: gate[..., t].")


@check(probe="multiscale")
def multiscale():
    """multiscale_decays(H) gives gamma_h = 1 - 2**(-5-h)."""
    for heads in [1, 4, 8]:
        yield Case(label=f"num_heads={heads}", inputs={"num_heads": heads},
                   expect={"gamma": ref.multiscale_decays(heads)}, atol=1e-7, rtol=0.0,
                   hint="h runs over 0 .. num_heads-1 (torch.arange); return a 1-D tensor of length num_heads.")


@check(probe="dtypes")
def keeps_dtype():
    """float32 inputs work in every form and come back as float32."""
    names = [f"linear_{f}" for f in LINEAR_FORMS] + [f"retention_{f}" for f in RETENTION_FORMS] + ["unified_gated"]
    for seed, lead in enumerate(LEADS):
        Q, K, V = (a.astype(np.float32).astype(np.float64) for a in ref.qkv(1700 + seed, lead, 7, 4, 3))
        want = {f"linear_{f}": ref.linear_attention(Q, K, V) for f in LINEAR_FORMS}
        want.update({f"retention_{f}": ref.retention(Q, K, V, 0.9) for f in RETENTION_FORMS})
        want["unified_gated"] = ref.gated(Q, K, V, np.full(7, 0.8, dtype=np.float32).astype(np.float64))
        yield Case(label=f"float32, leading dims {lead}", inputs={"Q": Q, "K": K, "V": V, "gamma": 0.9, "chunk_size": 3},
                   expect={"dtypes": ",".join(["torch.float32"] * len(names)), **want}, atol=1e-4, rtol=1e-4,
                   hint="Create new tensors with the input's dtype (Q.new_zeros(...), torch.zeros(..., dtype=Q.dtype)) "
                        "and convert gamma with torch.as_tensor(gamma, dtype=Q.dtype).")
