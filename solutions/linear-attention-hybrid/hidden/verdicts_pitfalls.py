"""Official checks, continued: one per pitfall, each a property of the student's own outputs on
inputs where the other pitfalls cannot show; and what one step costs."""
import numpy as np

from grader.checks import Case, Misshapen, check, close, drawn, moved

from .verdicts import MISTAKES, ONE, _arr, _in_layout, _inputs, _label, _state, _suffixed, _with


def _runs(*runs, **shared):
    """Numbered inputs: each run is a dict of x (and S, z, weight overrides) for the *_runs probes."""
    inputs = {"n": len(runs), **shared}
    for i, run in enumerate(runs):
        inputs.update(_suffixed(i, run))
    return inputs


# ---------------------------------------------------------------- the normalizer

def _value_pair(D, level):
    """Every value equal to `level`, then to twice it (W_v = 0): what the two outputs differ by is
    out_proj's response to the values alone; anything added outside attention cancels."""
    return ({"Wv": np.zeros((D, D)), "bv": np.full(D, level)}, {"Wv": np.zeros((D, D)), "bv": np.full(D, 2 * level)})


@check(probe="forward_runs", cause=MISTAKES["no_normalizer"], judged_if="works_forward")
@_in_layout
def normalizer_parallel():
    """forward divides by φ(q_t)·z_t: with γ = 1 and every value equal, doubling the values moves every
    output by the same amount."""
    for seed, (T, D, H) in enumerate([(8, 8, 2), (12, 12, 3), (10, 16, 4)]):
        x, w = _inputs(400 + seed, 1, T, D, H)
        w = _with(w, gamma_logit=np.full(H, ONE))
        a, b = _value_pair(D, 0.5 + seed)

        def judge(got, T=T, D=D):
            y, y2 = _arr(got, "y0"), _arr(got, "y1")
            if y.shape != (1, T, D) or y2.shape != y.shape:
                return Misshapen(f"forward returned shapes {y.shape} and {y2.shape}; expected {(1, T, D)}")
            if not np.isfinite(y2[:, 1:] - y[:, 1:]).all():
                return "forward returned NaN or inf"
            diff = y2[:, 1:] - y[:, 1:]
            if not close(diff, np.broadcast_to(diff[:, -1:], diff.shape)):
                return ("with every value equal, doubling the values moves the outputs by different amounts from "
                        "position to position: the weights of each output do not sum to 1 (is the division by "
                        "φ(q_t)·z_t there?)")
            return None
        yield Case(label=_label(1, T, D, H, w) + ", constant values, then doubled",
                   inputs=_runs({"x": x, **a}, {"x": x, **b}, **w), judge=judge,
                   hint="Divide (scores @ v) by scores.sum(-1, keepdim=True); forward and step must BOTH normalize.")


@check(probe="step_runs", cause=MISTAKES["no_normalizer"], judged_if="works_step")
@_in_layout
def normalizer_recurrent():
    """step divides φ(q)ᵀS by φ(q)ᵀz: scaling the state it starts from leaves its output unchanged."""
    for seed, (D, H) in enumerate([(8, 2), (12, 3), (16, 4)]):
        x, w = _inputs(500 + seed, 1, 1, D, H)
        w = _with(w, Wk=np.zeros((D, D)), bk=np.full(D, -60.0), Wv=np.zeros((D, D)), bv=np.zeros(D))
        S, z = _state(500 + seed, 1, H, D // H)
        z2 = z * np.random.default_rng(drawn(seed)).uniform(0.3, 3.0, z.shape)

        def judge(got):
            y, y_scaled, y_z = _arr(got, "y0"), _arr(got, "y1"), _arr(got, "y2")
            if not close(y_scaled, y):
                return ("starting from 3·(S, z) instead of (S, z) changes the output: a normalized read "
                        "φ(q)ᵀS / φ(q)ᵀz does not change when S and z scale together")
            if not moved(y_z, y, rtol=1e-6, lead=1):
                return "changing z alone does not change the output: the read does not divide by φ(q)ᵀz"
            return None
        yield Case(label=_label(1, 1, D, H) + ", one step from a given state (no new key, no new value)",
                   inputs=_runs({"x": x, "S": S, "z": z}, {"x": x, "S": 3 * S, "z": 3 * z}, {"x": x, "S": S, "z": z2},
                                **w),
                   judge=judge,
                   hint="y = (φ(q)ᵀS) / (φ(q)ᵀz) per head; z accumulates φ(k) the way S accumulates φ(k)vᵀ.")


# ---------------------------------------------------------------- update before read

def _order_weights(seed, D, H):
    """Queries and keys the same for every token (W_q = W_k = 0): only the values differ."""
    x, w = _inputs(seed, 1, 1, D, H)
    return _with(w, Wq=np.zeros((D, D)), Wk=np.zeros((D, D)))


@check(probe="forward_runs", cause=MISTAKES["read_before_update"], judged_if="works_forward")
@_in_layout
def update_before_read_parallel():
    """forward lets token t attend to itself: output t moves with token t's value."""
    for seed, (B, T, D, H) in enumerate([(1, 1, 4, 1), (2, 4, 8, 2), (1, 9, 12, 3)]):
        x, _ = _inputs(700 + seed, B, T, D, H)
        w = _order_weights(700 + seed, D, H)
        x2 = x.copy()
        x2[:, -1] += np.random.default_rng(drawn(seed)).normal(0, 1, (B, D))

        def judge(got, T=T):
            if not moved(_arr(got, "y1")[:, -1], _arr(got, "y0")[:, -1], rtol=1e-6, lead=1):
                return (f"output {T - 1} does not change (or is not finite) when only token {T - 1} changes: "
                        "token t does not attend to itself")
            return None
        yield Case(label=_label(B, T, D, H) + ", last token changed, queries and keys constant",
                   inputs=_runs({"x": x}, {"x": x2}, **w), judge=judge,
                   hint="The decay mask is γ^(t-i) for i ≤ t (diagonal included, γ⁰ = 1), 0 for i > t.")


@check(probe="step_runs", cause=MISTAKES["read_before_update"], judged_if="works_step")
@_in_layout
def update_before_read_recurrent():
    """step updates (S, z) with the current token before reading: its output moves with the token."""
    for seed, (B, D, H, start) in enumerate([(1, 4, 1, False), (2, 8, 2, False), (2, 8, 4, True),
                                             (1, 12, 3, True)]):
        x, _ = _inputs(600 + seed, B, 1, D, H)
        w = _order_weights(600 + seed, D, H)
        x2 = x + np.random.default_rng(drawn(seed)).normal(0, 1, x.shape)
        state = dict(zip("Sz", _state(600 + seed, B, H, D // H))) if start else {}

        def judge(got):
            if not moved(_arr(got, "y1"), _arr(got, "y0"), rtol=1e-6, lead=1):
                return ("the output does not change (or is not finite) when only the current token changes: "
                        "it is read before (S, z) take the token in")
            return None
        yield Case(label=_label(B, 1, D, H) + (", from a given state" if start else ", first token"),
                   inputs=_runs({"x": x, **state}, {"x": x2, **state}, **w), judge=judge,
                   hint="With one token, normalized attention must return out_proj(v_0) exactly: write "
                        "φ(k_t)v_tᵀ into S and φ(k_t) into z first, then read with φ(q_t).")


# ---------------------------------------------------------------- the decay, and the decay of z

def _decay_runs(w, H, data):
    """The base run, then one run per head with that head's γ set to 1."""
    runs = [dict(data)]
    for h in range(H):
        logits = w["gamma_logit"].copy()
        logits[h] = ONE
        runs.append({**data, "gamma_logit": logits})
    return runs


def _decay_judge(form, H):
    def judge(got):
        base = _arr(got, "y0")[:, 1:]   # from the second output on (a 0/0 at the first is another item's)
        for h in range(H):
            if not moved(_arr(got, f"y{h + 1}")[:, 1:], base, rtol=1e-6, lead=1):
                return f"setting head {h}'s γ to 1 does not change what {form} returns: its decay is not applied"
        return None
    return judge


@check(probe="forward_runs", cause=MISTAKES["no_decay"], judged_if="works_forward")
@_in_layout
def decay_parallel():
    """forward applies each head's learned decay: setting a head's γ to 1 changes the output."""
    rng = np.random.default_rng(drawn(800))
    for seed, (T, D, H) in enumerate([(10, 8, 2), (16, 12, 3), (9, 16, 4)]):
        x, w = _inputs(800 + seed, 1, T, D, H, rng.uniform(0.2, 0.9, H))
        yield Case(label=_label(1, T, D, H), inputs=_runs(*_decay_runs(w, H, {"x": x}), **w),
                   judge=_decay_judge("forward", H),
                   hint="Build the (H, T, T) weights from sigmoid(gamma_logit) and the distance t - i; apply them "
                        "to the scores BEFORE both the numerator and the row sum.")


@check(probe="step_runs", cause=MISTAKES["no_decay"], judged_if="works_step")
@_in_layout
def decay_recurrent():
    """step decays its state by each head's γ: setting a head's γ to 1 changes two steps' outputs."""
    rng = np.random.default_rng(drawn(900))
    for seed, (D, H) in enumerate([(8, 2), (12, 3), (16, 4)]):
        x, w = _inputs(900 + seed, 1, 2, D, H, rng.uniform(0.2, 0.9, H))
        S, z = _state(900 + seed, 1, H, D // H)
        yield Case(label=_label(1, 2, D, H) + ", two steps from a given state",
                   inputs=_runs(*_decay_runs(w, H, {"x": x, "S": S, "z": z}), **w),
                   judge=_decay_judge("step", H),
                   hint="S ← γ_h·S + φ(k)vᵀ with γ = self.decay shaped (1, H, 1, 1); the same γ_h for z.")


def _forgetting_cases(seed0):
    """Fast decays: after 40 tokens the first one must be forgotten. Compared: what doubling every
    (equal) value changes in the last output, with token 0 as it is and changed."""
    for seed, (T, D, H) in enumerate([(40, 8, 2), (40, 12, 3)]):
        x, w = _inputs(seed0 + seed, 1, T, D, H, np.linspace(0.1, 0.3, H))
        a, b = _value_pair(D, 1.5)
        x2 = x.copy()
        x2[:, 0] += np.random.default_rng(drawn(seed)).normal(0, 1.5, (1, D))

        def judge(got, T=T):
            d, d2 = (_arr(got, f"y{i + 1}")[:, -1] - _arr(got, f"y{i}")[:, -1] for i in (0, 2))
            if d.shape != d2.shape or not close(d2, d):
                return (f"changing token 0 changes output {T - 1}, although every γ^{T - 1} < 1e-20: the "
                        "normalizer z remembers what S has forgotten (z must decay with S)")
            return None
        yield Case(label=_label(1, T, D, H, w) + ", constant values, token 0 changed", inputs=_runs(
            {"x": x, **a}, {"x": x, **b}, {"x": x2, **a}, {"x": x2, **b}, **w), judge=judge,
            hint="z is the normalizer of S: it must forget at the same rate (γ·z + φ(k); in forward, the "
                 "row sum of the DECAYED scores).")


@check(probe="forward_runs", cause=MISTAKES["decay_S_only"], judged_if="works_forward")
@_in_layout
def decay_normalizer_parallel():
    """forward's normalizer decays with S: a token forgotten by S is forgotten by z."""
    yield from _forgetting_cases(1000)


@check(probe="step_runs", cause=MISTAKES["decay_S_only"], judged_if="works_step")
@_in_layout
def decay_normalizer_recurrent():
    """step's normalizer z decays with S: a token forgotten by S is forgotten by z."""
    yield from _forgetting_cases(1050)
