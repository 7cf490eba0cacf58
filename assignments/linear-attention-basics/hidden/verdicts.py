"""Grader-side halves of the official checks: inputs, the float64 reference, the judgement.

Three kinds of check, so that one bug costs its own items and nothing else:

* works_<form>: the form does its job at all (its last output moves when an earlier value, its own
  query or an earlier key moves). Not an item: every item that tests the form requires it, so an
  identity, zero, constant or `return V` implementation earns nothing.
* one check per pitfall, each a property of the student's OWN outputs on inputs chosen so that the
  other pitfalls cannot show (causality: perturb the future and compare with the earlier outputs;
  the normalizer: constant keys and values; the decay: a rescaling that turns gamma into 1; chunk
  boundaries: any chunk size gives what one chunk gives; ...). It fails for its pitfall and little else.
* one equivalence check per form against the independent reference: any bug in that form fails it.
  Plus the cost of the recurrent and chunkwise forms (no L × L matrix, no call to a parallel form,
  a step whose work does not grow with the history).
"""
import numpy as np

from grader.checks import Case, Misshapen, check, close, drawn, moved, shape_problem

from . import reference as ref

LEADS = [(), (2,), (2, 3)]
NORMALIZER_LENGTHS = (3, 5, 9)  # no length is a leading dim's (2): a (L, *lead, d) layout shows as a shape
SHAPES = [(1, 3, 2), (7, 4, 3), (13, 4, 4)]     # (L, m, d_v): m != d_v and m == d_v
L_CHUNK = 13
# Interior decays only: gamma = 0 and gamma = 1 are the edges, judged in gamma_validation alone, so a form
# that mishandles an edge (0**0, log 0, rejecting 1) loses that item and not every retention item.
FLOAT_GAMMAS = [1e-3, 0.5, 0.9, 0.999]
GAMMA_EDGES = {0.0: 1e-10, 1.0: 1.0 - 1e-10}   # an edge and a value next to it: the output must not jump
LINEAR_FORMS = ("parallel", "recurrent", "step")
RETENTION_FORMS = ("parallel", "recurrent", "chunkwise")
FORM_NAME = {"parallel": "linear_attention_parallel", "recurrent": "linear_attention_recurrent",
             "step": "LinearAttentionState.step"}

MISTAKES = {
    "no_normalizer": "the division by φ(q_i)ᵀz_i is missing",
    "read_before_update": "the state is read before token t is added to it",
    "whole_sequence_z": "z sums φ(k_j) over the whole sequence instead of j <= i",
    "no_feature_map": "Q and K are used without the feature map (scores can go negative)",
    "v_kT": "the state is built from v kᵀ instead of k vᵀ",
    "no_causal_mask": "scores above the diagonal (j > i) are not masked",
    "no_decay": "this form never applies the decay (it computes gamma = 1)",
    "gate_after_update": "the gate is applied after adding k_t v_tᵀ (it should scale only S_{t-1})",
}


def per_head_gamma(lead):
    """One gamma per head (the last leading dim), far apart but inside (0, 1) (the edges are gamma_validation's)."""
    return np.array([0.2, 0.5, 0.95][:lead[-1]]) if len(lead) == 2 else np.array([0.9, 1e-3])


def gammas(lead):
    return FLOAT_GAMMAS + ([per_head_gamma(lead)] if lead else [])


def gamma_label(gamma):
    return "per-head gamma" if isinstance(gamma, np.ndarray) else f"gamma={gamma:g}"


def shape_label(lead, L, m, d_v):
    return f"leading dims {lead}, L={L}, m={m}, d_v={d_v}"


def works(kind, form):
    """The liveness gate of one form: where it fails, a property case run on that form says nothing, and the
    property is judged on the forms that work (the cases carry it as `judged_if`)."""
    if kind == "unified":
        return "works_unified"
    return "works_state_step" if form == "step" else f"works_{kind}_{form}"


def name_of(kind, form):
    return FORM_NAME[form] if kind == "linear" else f"retention_{form}"


def runs(*qkvs, **extra):
    """Numbered inputs for the *_runs probes: Q0, K0, V0, Q1, ..."""
    inputs = {"n": len(qkvs)}
    for i, (Q, K, V) in enumerate(qkvs):
        inputs.update({f"Q{i}": Q, f"K{i}": K, f"V{i}": V})
    inputs.update(extra)
    return inputs


# ----------------------------------------------------------------------------- judging helpers

def _arr(got, key):
    return np.asarray(got[key], dtype=np.float64)


def _shapes_differ(want, *ys):
    """`Misshapen` unless every output has the shape ``want`` the inputs give, (*lead, L, d_v): outputs laid out
    another way ((L, *lead, d_v) from a stack along dim 0, blind round 13) cannot show a property read along the
    tokens axis. The property checks' lengths differ from every leading dim (no L = 2 beside leading dims (2,)), so
    such a layout shows as a shape, not as a property broken."""
    if any(y.shape != tuple(want) for y in ys):
        return Misshapen(f"the outputs have shapes {' and '.join(str(y.shape) for y in ys)}, expected {tuple(want)}")
    return None


def _first_bad_position(a, b):
    bad = ~np.isclose(a, b, rtol=1e-6, atol=1e-6, equal_nan=True)
    axis = tuple(i for i in range(a.ndim) if i != a.ndim - 2)
    return int(np.flatnonzero(bad.any(axis=axis))[0])


# ----------------------------------------------------------------------------- does the form work at all?

def positive_qkv(seed, lead, L, m, d_v):
    """Queries and keys > 0: every feature map (elu + 1, identity, ReLU) gives positive scores, so only
    the pitfall a check is about can show."""
    Q, K, V = ref.qkv(drawn(seed), lead, L, m, d_v)
    return np.abs(Q) + 0.1, np.abs(K) + 0.1, V


def _liveness_inputs(seed, lead, L=6, m=4, d_v=4):
    """A base input, three copies (earlier values, the last query, earlier keys moved), the base again.

    The earlier tokens moved are the first and one in the middle: a form that loses one token (a step that
    returns its first token's output without storing it, blind round 10) still mixes the others and is judged by
    its equivalence item, not as a form that does nothing; a step that keeps no state moves with neither."""
    Q, K, V = positive_qkv(seed, lead, L, m, d_v)
    rng = np.random.default_rng(drawn(seed + 1))
    moved = []
    for which, positions in (("V", [0, L // 2]), ("Q", [L - 1]), ("K", [0, L // 2])):
        arrays = {"Q": Q.copy(), "K": K.copy(), "V": V.copy()}
        arrays[which][..., positions, :] += rng.uniform(0.5, 1.5, arrays[which][..., positions, :].shape)
        moved.append((arrays["Q"], arrays["K"], arrays["V"]))
    return [(Q, K, V)] + moved + [(Q.copy(), K.copy(), V.copy())]  # the base again: the same input, the same output


def _liveness_judge(name, shape):
    def judge(got):
        ys = [_arr(got, f"y{i}") for i in range(5)]
        problem = shape_problem(ys[0], shape)
        if problem:
            return problem
        if not close(ys[4], ys[0]):
            return (f"{name} does not do its job at all: the same input twice gives two different outputs "
                    "(random numbers, or state kept between calls)")
        last = [moved(ys[i][..., -1, :], ys[0][..., -1, :], rtol=1e-4) for i in (1, 2, 3)]
        # it mixes the earlier tokens' values, weighted by scores: its last output moves with an earlier
        # value, and with the queries or the keys (either: a form that reads with the keys and writes with
        # the queries is wrong, an honest bug its equivalence item is about, not a form that does nothing)
        if not last[0] or not (last[1] or last[2]):
            why = "an earlier token's value" if not last[0] else "its own query or an earlier token's key"
            return (f"{name} does not do its job at all: its last output does not change when {why} "
                    "changes (an identity, zero, constant or `return V` body, or NaN)")
        return None
    return judge


def _works(kind, form, seed0):
    for seed, lead in enumerate([(), (2, 3)]):
        qkvs = _liveness_inputs(seed0 + seed, lead)
        if kind == "linear":
            inputs = runs(*qkvs, form=form)
        elif kind == "retention":
            inputs = runs(*qkvs, form=form, **{f"gamma{i}": 0.8 for i in range(len(qkvs))},
                          **{f"chunk{i}": 2 for i in range(len(qkvs))})
        else:
            n = range(len(qkvs))
            inputs = runs(*qkvs, mode=form, **({f"gamma{i}": 0.8 for i in n} if form == "retention" else {}),
                          **({f"gate{i}": np.linspace(0.5, 0.9, 6) for i in n} if form == "gated" else {}))
        name = f"unified_recurrence(mode={form!r})" if kind == "unified" else name_of(kind, form)
        yield Case(label=f"{name}, leading dims {lead}", inputs=inputs,
                   judge=_liveness_judge(name, (*lead, 6, 4)),
                   hint="Implement the form: every output mixes the earlier tokens' values, weighted by "
                        "query-key scores.")


@check(probe="linear_runs", cause="linear_attention_parallel does not do its job at all")
def works_linear_parallel():
    """linear_attention_parallel does its job: its output mixes earlier tokens and depends on queries and keys."""
    yield from _works("linear", "parallel", 10)


@check(probe="linear_runs", cause="linear_attention_recurrent does not do its job at all")
def works_linear_recurrent():
    """linear_attention_recurrent does its job: its output mixes earlier tokens and depends on queries and keys."""
    yield from _works("linear", "recurrent", 20)


@check(probe="linear_runs", cause="LinearAttentionState.step does not do its job at all")
def works_state_step():
    """LinearAttentionState.step does its job: its output mixes earlier tokens and depends on queries and keys."""
    yield from _works("linear", "step", 30)


@check(probe="retention_runs", cause="retention_parallel does not do its job at all")
def works_retention_parallel():
    """retention_parallel does its job: its output mixes earlier tokens and depends on queries and keys."""
    yield from _works("retention", "parallel", 40)


@check(probe="retention_runs", cause="retention_recurrent does not do its job at all")
def works_retention_recurrent():
    """retention_recurrent does its job: its output mixes earlier tokens and depends on queries and keys."""
    yield from _works("retention", "recurrent", 50)


@check(probe="retention_runs", cause="retention_chunkwise does not do its job at all")
def works_retention_chunkwise():
    """retention_chunkwise does its job: its output mixes earlier tokens and depends on queries and keys."""
    yield from _works("retention", "chunkwise", 60)


@check(probe="unified_runs", cause="unified_recurrence does not do its job at all")
def works_unified():
    """unified_recurrence does its job: its output mixes earlier tokens and depends on queries and keys."""
    for n, mode in enumerate(("linear", "retention", "gated")):
        yield from _works("unified", mode, 70 + 2 * n)


# ----------------------------------------------------------------------------- does any form do the lesson's job?

GROUND_RTOL = 1e-4  # the lesson's job, not exactness: a form computed in float32 inside is right here
GROUNDED_FORMS = {"linear": ("parallel", "recurrent", "step"), "retention": ("parallel", "recurrent", "chunkwise"),
                  "unified": ("linear", "retention", "gated")}


def _finite_like(x, shape):
    if x is None or isinstance(x, str):
        return None
    x = np.asarray(x, dtype=np.float64)
    return x if x.shape == tuple(shape) and np.isfinite(x).all() else None


def _own_gamma(got, gamma):
    """The decay as the student's own as_gamma gives it back (one finite number in [0, 1]), else None."""
    g = got.get("gamma_as")
    if g is None or isinstance(g, str):
        return None
    g = np.asarray(g, dtype=np.float64).reshape(-1)
    return float(g[0]) if g.size == 1 and np.isfinite(g[0]) and 0.0 <= g[0] <= 1.0 and g[0] != gamma else None


# one of the lesson's named mistakes (`MISTAKES`), made in every form of a family, is still the family's work: the
# linear ones as `ref.linear_attention`'s switches (v kᵀ needs m == d_v: these inputs' m != d_v show it as a shape;
# no normalizer and a whole-sequence z scale each token only, which `grounds` reads past)
LINEAR_MISTAKES = [{}, {"read_before_update": True}, {"causal": False}]


def _grounding_references(family, got, Q, K, V, gamma, gate):
    """What a form that does the lesson's job gives: the reference, the reference with one of the lesson's named
    mistakes (made in every form of the family, it is one mistake made three times, not forms that do nothing), and
    the reference built on the student's own helpers (their feature_map's φ(Q), φ(K); their as_gamma's decay), so
    that a bug in a helper every form uses is that helper's item's, not a form that does nothing."""
    if family == "linear":
        phis = [(Q, K, ref.elu_plus_one)]
        q, k = _finite_like(got.get("phi_q"), Q.shape), _finite_like(got.get("phi_k"), K.shape)
        if q is not None and k is not None:
            phis.append((q, k, ref.identity))
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            refs = [ref.linear_attention(a, b, V, phi=phi, **mistake) for a, b, phi in phis
                    for mistake in LINEAR_MISTAKES] + [ref.linear_attention(Q, K, V, phi=ref.identity)]
        return {form: refs for form in GROUNDED_FORMS[family]}
    decays = [gamma] + [g for g in [_own_gamma(got, gamma)] if g is not None]
    retention = [ref.retention(Q, K, V, g) for g in decays] + [ref.retention(Q, K, V, 1.0)]  # (no_decay)
    if family == "retention":
        return {form: retention for form in GROUNDED_FORMS[family]}
    return {"linear": [ref.retention(Q, K, V, 1.0)], "retention": retention,
            "gated": [ref.gated(Q, K, V, gate), ref.gated_wrong_order(Q, K, V, gate)]}


def grounds(y, r):
    """Is ``y`` the reference ``r`` up to one scale per output token (its direction within `GROUND_RTOL`), where
    ``r`` is finite (a read-before-update mistake's 0/0 at the first token is NaN there: whatever the form gives at
    that one token is not read)? Most of ``r`` must be.

    Up to a scale per token: what a normalizer does, right or wrong, is divide each output by one number. A form
    that mixes the earlier values with the lesson's weights and then normalizes wrongly everywhere (linear attention's
    normalizer carried into every retention form, a z summed some other way in every linear form) has done the
    family's work and made the normalizer's mistake; a form that mixes the values with weights of its own (a running
    mean weighted by the keys, scores φ(q_j)·φ(k_j)) matches no reference token by token in direction."""
    if y is None or isinstance(y, str):
        return False
    y, ok = np.asarray(y, dtype=np.float64), np.isfinite(r)
    if y.shape != r.shape or ok.mean() < 0.8 or not np.isfinite(y[ok]).all():
        return False
    rows = ok.all(axis=-1)  # the output tokens the reference defines
    a, b = np.where(rows[..., None], y, 0.0), np.where(rows[..., None], r, 0.0)
    na, nb = np.linalg.norm(a, axis=-1), np.linalg.norm(b, axis=-1)
    floor = GROUND_RTOL * max(1.0, float(nb.max()))
    if np.any(rows & ((na <= floor) != (nb <= floor))):  # a zero token where the reference has none, or the reverse
        return False
    live = rows & (nb > floor)
    if live.sum() < 0.8 * rows.sum():  # a reference of (mostly) zero tokens grounds nothing: built on a feature map
        return False                   # that returns zeros, it is what a module of zeros gives (adversarial `zeros`)
    cos = np.abs((a * b).sum(-1))[live] / (na[live] * nb[live])
    return bool(np.all(cos >= 1.0 - GROUND_RTOL))


def _grounded_judge(family, Q, K, V, gamma, gate):
    names = {"linear": lambda f: FORM_NAME[f], "retention": lambda f: f"retention_{f}",
             "unified": lambda f: f"unified_recurrence(mode={f!r})"}[family]

    def judge(got):
        want = _grounding_references(family, got, Q, K, V, gamma, gate)
        for form, refs in want.items():
            if any(grounds(got.get(f"y_{form}"), r) for r in refs):
                return None
        forms = ", ".join(names(f) for f in GROUNDED_FORMS[family])
        return (f"none of {forms} computes what the lesson's {family} form computes on ordinary inputs (compared "
                "with the reference, and with one built on your own helpers): the properties this item is about "
                "count only for work that does the job somewhere")
    return judge


def _grounding_case(family, seed):
    # queries and keys > 0 (`positive_qkv`): every feature map a student might write (elu + 1, identity, ReLU, exp)
    # gives scores > 0, so no denominator is 0 or near it under any draw (with signed inputs, a ReLU feature map
    # made 0/0 in one or two of the seven rows as the draw fell, and the reference built on it then said nothing)
    Q, K, V = positive_qkv(seed, (), 7, 3, 4)
    gate = np.random.default_rng(drawn(seed + 1)).uniform(0.3, 1.0, size=7)
    extra = {} if family == "linear" else {"gamma0": 0.7, "chunk0": 3, "gate0": gate}
    return Case(label=f"the {family} forms on L=7, m=3, d_v=4", inputs=runs((Q, K, V), family=family, **extra),
                judge=_grounded_judge(family, Q, K, V, 0.7, gate),
                hint=f"Make at least one {family} form match the lesson's formulas; the equivalence items say which.")


@check(probe="grounding", cause="no linear-attention form computes linear attention")
def grounded_linear():
    """At least one linear-attention form computes linear attention (with your own feature map, or elu + 1)."""
    yield _grounding_case("linear", 90)


@check(probe="grounding", cause="no retention form computes retention")
def grounded_retention():
    """At least one retention form computes retention (at the decay your own as_gamma gives, or the given one)."""
    yield _grounding_case("retention", 92)


@check(probe="grounding", cause="unified_recurrence computes none of its modes")
def grounded_unified():
    """unified_recurrence computes at least one of its modes."""
    yield _grounding_case("unified", 94)


# ----------------------------------------------------------------------------- linear attention pitfalls

@check(probe="linear_runs", cause=MISTAKES["no_normalizer"])
def normalizer():
    """Linear attention divides φ(q_i)ᵀS_i by φ(q_i)ᵀz_i: with constant keys and values the last output
    is the same for 2, 5 or 9 tokens."""
    rng = np.random.default_rng(drawn(100))
    for lead in LEADS:
        for kappa in (0.5, 1.0, 2.0):
            m = d_v = 4
            s = rng.uniform(0.5, 3.0, lead)
            qkvs = []
            for L in NORMALIZER_LENGTHS:
                Q = np.abs(rng.standard_normal((*lead, L, m))) + 0.1
                K = np.full((*lead, L, m), kappa)
                V = np.broadcast_to(np.asarray(s)[..., None, None], (*lead, L, d_v)).copy()
                qkvs.append((Q, K, V))
            for form in LINEAR_FORMS:
                def judge(got, lead=lead, d_v=d_v):
                    ys = [_arr(got, f"y{i}") for i in range(3)]
                    for y, L in zip(ys, NORMALIZER_LENGTHS):
                        if problem := shape_problem(y, (*lead, L, d_v)):
                            return problem
                    last = [y[..., -1, :] for y in ys]
                    if not all(np.isfinite(y).all() for y in last):
                        return "a last output is NaN or inf"
                    if not (close(last[1], last[0]) and close(last[2], last[0])):
                        return ("with every key equal and every value equal, the last output changes with the "
                                f"number of tokens {NORMALIZER_LENGTHS}: the weights do not sum to 1")
                    return None
                yield Case(judged_if=works("linear", form),
                           label=f"{FORM_NAME[form]}, leading dims {lead}, keys all {kappa:g}, L = "
                                 f"{', '.join(map(str, NORMALIZER_LENGTHS))}",
                           inputs=runs(*qkvs, form=form), judge=judge,
                           hint="Linear attention is normalized: divide φ(q_i)ᵀS_i by φ(q_i)ᵀz_i, where z_i is "
                                "the running sum of φ(k_j). (Retention is the one without a normalizer.)")


@check(probe="linear_runs", cause=MISTAKES["read_before_update"])
def update_before_read():
    """The state is updated with token t before it is read: output t moves with token t's value."""
    for seed, lead in enumerate(LEADS):
        for L in (1, 3, 5):  # lengths other than every leading dim's but 1 (see _shapes_differ)
            Q, K, V = positive_qkv(200 + seed, lead, L, 4, 4)
            V2 = V.copy()
            V2[..., -1, :] += np.random.default_rng(drawn(seed)).uniform(0.5, 1.5, V2[..., -1, :].shape)
            for form in LINEAR_FORMS:
                def judge(got, L=L, lead=lead):
                    y, y2 = _arr(got, "y0"), _arr(got, "y1")
                    if problem := _shapes_differ((*lead, L, 4), y, y2):
                        return problem
                    if not moved(y2[..., -1, :], y[..., -1, :], rtol=1e-4):
                        return (f"output {L - 1} does not change (or is not finite) when only token {L - 1}'s value "
                                "changes: token t does not see itself")
                    return None
                yield Case(judged_if=works("linear", form),
                           label=f"{FORM_NAME[form]}, leading dims {lead}, L={L}, last value changed",
                           inputs=runs((Q, K, V), (Q, K, V2), form=form), judge=judge,
                           hint="Add φ(k_t)v_tᵀ to S and φ(k_t) to z first, then read with φ(q_t). With a single "
                                "token the output must be that token's own value (reading first gives 0/0).")


def _unchanged_before(p, what, shape):
    def judge(got):
        y, y2 = _arr(got, "y0"), _arr(got, "y1")
        if problem := _shapes_differ(shape, y, y2):
            return problem
        if not close(y2[..., :p, :], y[..., :p, :]):
            first = _first_bad_position(y2[..., :p, :], y[..., :p, :])
            return f"output {first} changed when only {what} from position {p} on changed"
        return None
    return judge


@check(probe="linear_runs", cause=MISTAKES["whole_sequence_z"])
def running_normalizer():
    """The normalizer z_i sums φ(k_j) over j <= i only: later keys never change an earlier output."""
    for seed, lead in enumerate(LEADS):
        for L, p in [(7, 3), (13, 1), (6, 5)]:
            Q, K, V = positive_qkv(300 + seed, lead, L, 4, 4)
            V = np.broadcast_to(V[..., :1, :], V.shape).copy()       # every value equal: only z can move
            K2 = K.copy()
            K2[..., p:, :] = np.abs(np.random.default_rng(drawn(seed + L)).standard_normal(K2[..., p:, :].shape)) * 3
            for form in LINEAR_FORMS:
                yield Case(judged_if=works("linear", form),
                           label=f"{FORM_NAME[form]}, leading dims {lead}, L={L}, keys {p}.. changed",
                           inputs=runs((Q, K, V), (Q, K2, V), form=form),
                           judge=_unchanged_before(p, "the keys", V.shape),
                           hint="Row i is divided by φ(q_i)ᵀz_i with z_i = Σ_{j<=i} φ(k_j): mask the scores before "
                                "taking row sums, or keep z as a running sum.")


def _positive_inputs(seed0, lead, L=9, m=4):
    """Values > 0, queries and keys of both signs, strongly: a positive φ keeps every output > 0 and
    finite; no feature map (negative scores) or ReLU (a zero row, 0/0) does not. Seeds are searched
    until both wrong maps show."""
    def judged(y):
        tail = y[..., 1:, :]
        return bool(np.isfinite(tail).all() and (tail >= -1e-12).all())

    for seed in range(seed0, seed0 + 200):
        rng = np.random.default_rng(drawn(seed))
        Q = rng.standard_normal((*lead, L, m)) * 3
        K = rng.standard_normal((*lead, L, m)) * 3
        Q[..., 1 + seed % (L - 1), :] = -np.abs(Q[..., 1 + seed % (L - 1), :]) - 1.0
        V = rng.uniform(0.5, 2.0, (*lead, L, m))
        if judged(ref.linear_attention(Q, K, V)) and not judged(ref.linear_attention(Q, K, V, phi=ref.identity)) \
                and not judged(ref.linear_attention(Q, K, V, phi=lambda x: np.maximum(x, 0.0))):
            return Q, K, V
    raise AssertionError("no discriminating input found")


@check(probe="linear_runs", cause=MISTAKES["no_feature_map"])
def feature_map():
    """φ = elu + 1 is applied to Q and K: with positive values every output stays positive and finite."""
    for seed, lead in enumerate(LEADS):
        for k in range(2):
            Q, K, V = _positive_inputs(400 + 1000 * seed + 300 * k, lead)
            for form in LINEAR_FORMS:
                def judge(got, shape=V.shape):
                    y = _arr(got, "y0")
                    if problem := shape_problem(y, shape):
                        return problem
                    tail = y[..., 1:, :]
                    if not np.isfinite(tail).all():
                        return "an output from position 1 on is NaN or inf: some φ(q_i)ᵀz_i is zero"
                    if (tail < -1e-12).any():
                        return "an output is negative although every value is positive: some scores are negative"
                    return None
                yield Case(judged_if=works("linear", form),
                           label=f"{FORM_NAME[form]}, strongly mixed-sign queries and keys, leading dims {lead}, #{k}",
                           inputs=runs((Q, K, V), form=form), judge=judge,
                           hint="Apply feature_map (elu + 1) to Q and K, never to V, inside every form; a map that "
                                "can be negative or zero lets φ(q)ᵀz vanish or flip sign.")


@check(probe="feature")
def feature_map_values():
    """feature_map itself is elu(x) + 1."""
    x = np.concatenate([np.linspace(-30, 5, 71), [0.0, -1e-9, 1e-9]])
    yield Case(label="x from -30 to 5", inputs={"x": x}, expect={"phi": ref.elu_plus_one(x)},
               hint="feature_map is provided: restore it to F.elu(x) + 1.")


KV_FORMS = [("linear", "recurrent"), ("linear", "step"), ("retention", "recurrent"), ("unified", "linear"),
            ("unified", "retention")]


@check(probe="linear_runs", cause=MISTAKES["v_kT"])
def kv_orientation_linear():
    """The linear-attention state adds k vᵀ (m × d_v), not v kᵀ."""
    yield from _kv_cases("linear", 500)


@check(probe="retention_runs", cause=MISTAKES["v_kT"])
def kv_orientation_retention():
    """The retention state adds k vᵀ (m × d_v), not v kᵀ."""
    yield from _kv_cases("retention", 520)


@check(probe="unified_runs", cause=MISTAKES["v_kT"])
def kv_orientation_unified():
    """unified_recurrence's state adds k vᵀ (m × d_v), not v kᵀ."""
    yield from _kv_cases("unified", 540)


@check(probe="step_state", cause=MISTAKES["v_kT"])
def kv_orientation_state():
    """LinearAttentionState holds S as m × d_v (k vᵀ), as its docstring says, not d_v × m (v kᵀ) read the other way
    round: its outputs can be right and its state the transpose of the documented one."""
    hint = ("LinearAttentionState holds S (m × d_v): add k_t[..., :, None] * v_t[..., None, :] (k vᵀ), start it as "
            "zeros(m, d_v), and read it as q_t S.")
    for seed, lead in enumerate(LEADS):
        for L, m, d_v in [(6, 3, 5), (5, 5, 2)]:  # m != d_v: the two orientations have different shapes
            Q, K, V = positive_qkv(560 + seed, lead, L, m, d_v)
            yield Case(label=f"LinearAttentionState.S after {L} steps, {shape_label(lead, L, m, d_v)}",
                       inputs=runs((Q, K, V)), judge=_state_orientation_judge(m, d_v), hint=hint,
                       judged_if=works("linear", "step"))


def _state_orientation_judge(m, d_v):
    """Only the orientation: S whose last two dims are (d_v, m). Any other S (wrong values, another layout, none)
    is the step's other items' to judge, not this one's."""
    def judge(got):
        S = np.asarray(got["S"]) if "S" in got else None
        if S is not None and S.ndim >= 2 and S.shape[-2:] == (d_v, m):
            return (f"LinearAttentionState.S has shape {tuple(S.shape)}: its last two dims are (d_v, m) = "
                    f"({d_v}, {m}), the state v kᵀ; it is (..., m, d_v), k vᵀ")
        return None
    return judge


def _kv_judge(lead, L, m, d_v):
    def judge(got):
        y = _arr(got, "y0")
        problem = shape_problem(y, (*lead, L, d_v))
        if problem:
            return Misshapen(problem + ": is S (m, d_v)?")
        if not np.isfinite(y[..., 1:, :]).all():
            return "the output has NaN or inf"
        return None
    return judge


def _kv_span_judge(lead, L, d_v, V, K):
    """With m = d_v > L + 1, output L-1 of k vᵀ lies in the span of the values v_0 .. v_{L-1}, and that of v kᵀ
    (read q S) in the span of the keys: Σ_j (q·v_j) k_j (both with the all-ones vector, which keeps a map applied
    to positive values or keys, v + 1, elu(k) + 1 of k > 0, out of this check). The orientation is judged only on
    that evidence: an output in neither span is wrong some other way (a denominator per channel, blind basics round
    17), which the form's own items judge, not this one."""
    def spans(row, basis):
        basis = np.concatenate([basis, np.ones((1, d_v))])
        coef, *_ = np.linalg.lstsq(basis.T, row, rcond=None)
        return np.abs(basis.T @ coef - row).max() <= 1e-6 * (1 + np.abs(row).max())

    def judge(got):
        y = _arr(got, "y0")
        problem = shape_problem(y, (*lead, L, d_v))
        if problem:
            return problem
        last = y[..., -1, :].reshape(-1, d_v)
        if not np.isfinite(last).all():
            return "the output has NaN or inf"
        for row, values, keys in zip(last, V.reshape(-1, L, d_v), K.reshape(-1, L, d_v)):
            if not spans(row, values) and spans(row, keys):
                return ("the last output is not a combination of the values v_j but of the keys k_j: the state "
                        "is v kᵀ read as q S, not k vᵀ")
        return None
    return judge


def _kv_cases(kind, seed0):
    hint = ("S is m × d_v: add k_t[:, None] * v_t[None, :] (k vᵀ) and read q_t S. With m != d_v, v kᵀ "
            "does not even fit; with m == d_v it silently mixes key and value coordinates.")
    forms = [f for k, f in KV_FORMS if k == kind]
    for seed, lead in enumerate(LEADS):
        for L, m, d_v in [(6, 3, 5), (6, 5, 2), (3, 6, 6)]:
            Q, K, V = positive_qkv(seed0 + seed, lead, L, m, d_v)
            V = np.abs(V) + 0.1
            for form in forms:
                decayed = (kind, form) in (("retention", "recurrent"), ("unified", "retention"))
                extra = {"gamma0": 0.9} if decayed else {}
                inputs = runs((Q, K, V), **({"mode": form} if kind == "unified" else {"form": form}), **extra)
                judge = _kv_span_judge(lead, L, d_v, V, K) if m == d_v else _kv_judge(lead, L, m, d_v)
                name = f"unified_recurrence(mode={form!r})" if kind == "unified" else name_of(kind, form)
                yield Case(label=f"{name}, {shape_label(lead, L, m, d_v)}", inputs=inputs, judge=judge, hint=hint,
                           judged_if=works(kind, form))


def _perturbed(seed, lead, L, m, d_v, p, which):
    """Inputs and a copy whose tokens p .. L-1 are replaced in the arrays named by `which`."""
    Q, K, V = positive_qkv(seed, lead, L, m, d_v)
    arrays = {"Q": Q.copy(), "K": K.copy(), "V": V.copy()}
    rng = np.random.default_rng(drawn(seed + 10_000))
    for name in which:
        arrays[name][..., p:, :] = np.abs(rng.standard_normal(arrays[name][..., p:, :].shape)) * 3
    return (Q, K, V), (arrays["Q"], arrays["K"], arrays["V"])


CAUSAL_HINT = ("Output i may only depend on tokens j <= i: zero the scores above the diagonal "
               "(j > i) in the parallel form, and never use a sum over the whole sequence.")


@check(probe="linear_runs", cause=MISTAKES["no_causal_mask"])
def causal_linear():
    """Linear attention is causal: changing later queries and values never changes an earlier output."""
    for seed, lead in enumerate(LEADS):
        for L, p in [(9, 4), (13, 1), (6, 5)]:
            a, b = _perturbed(600 + seed, lead, L, 4, 4, p, "QV")
            for form in LINEAR_FORMS:
                yield Case(judged_if=works("linear", form),
                           label=f"{FORM_NAME[form]}, leading dims {lead}, L={L}, tokens {p}.. changed",
                           inputs=runs(a, b, form=form),
                           judge=_unchanged_before(p, "the queries and values", a[2].shape),
                           hint=CAUSAL_HINT)


@check(probe="retention_runs", cause=MISTAKES["no_causal_mask"])
def causal_retention():
    """Retention is causal in every form: changing later tokens never changes an earlier output."""
    for seed, lead in enumerate(LEADS):
        for L, p in [(9, 4), (13, 1), (6, 5)]:
            a, b = _perturbed(620 + seed, lead, L, 4, 4, p, "QKV")
            for form in RETENTION_FORMS:
                yield Case(judged_if=works("retention", form),
                           label=f"retention_{form}, leading dims {lead}, L={L}, tokens {p}.. changed",
                           inputs=runs(a, b, form=form, gamma0=0.9, gamma1=0.9, chunk0=4, chunk1=4),
                           judge=_unchanged_before(p, "the tokens", a[2].shape), hint=CAUSAL_HINT)


# ----------------------------------------------------------------------------- retention pitfalls

def _rescaled(Q, K, gamma, other):
    """q_n·r^n and k_m·r^(-m) with r = gamma / other: retention with gamma on (Q, K) equals retention with
    ``other`` on these (gamma^(n-m) = other^(n-m) r^(n-m)). Both decays are inside (0, 1): the edges are
    another item's."""
    L = Q.shape[-2]
    lead = Q.shape[:-2]
    r = (ref.gamma_array(gamma, lead) / ref.gamma_array(other, lead))[..., None, None]
    n = np.arange(L)[:, None]
    return Q * r ** n, K * r ** (-n)


# (gamma, the other decay the rescaled run uses): ratios both below and above 1
DECAY_PAIRS = [(0.5, 0.9), (0.8, 0.6)]
# A decay that changes no weight past the tolerance (1 - γ^6 ≈ 6e-9 over L = 7), yet is no edge a form may refuse
# (γ = 1 itself is `gamma_validation`'s: a form that rejects it must not lose the decay item for that)
NO_DECAY = 1.0 - 2.0 ** -30
PER_HEAD_PAIR = (np.array([0.5, 0.9, 0.7]), np.array([0.9, 0.6, 0.95]))


@check(probe="retention_runs", cause=MISTAKES["no_decay"])
def decay_every_form():
    """Every retention form applies the decay γ^(n-m): rescaling q_n by r^n and k_m by r^-m (r = γ/γ')
    turns γ into γ'. Judged only where the form is right with (next to) no decay, at `NO_DECAY` on the same tokens:
    a form wrong there (scores K Qᵀ, φ applied to the scores: blind rounds 19 and 20) breaks the rescaling for a
    reason of its own, which its equivalence item pays for; that is no evidence about the decay."""
    seed = 700
    for lead in LEADS:
        pairs = DECAY_PAIRS + ([tuple(g[:lead[-1]] for g in PER_HEAD_PAIR)] if lead else [])
        for gamma, other in pairs:
            for form in RETENTION_FORMS:
                L = 7
                Q, K, V = ref.qkv(drawn(seed), lead, L, 4, 4)
                seed += 1
                Q1, K1 = _rescaled(Q, K, gamma, other)
                undecayed = ref.retention(Q, K, V, NO_DECAY)

                def judge(got, shape=V.shape, undecayed=undecayed):
                    y, y1, y_one = _arr(got, "y0"), _arr(got, "y1"), _arr(got, "y2")
                    if problem := _shapes_differ(shape, y, y1, y_one):
                        return problem
                    if not close(y_one, undecayed):
                        return Misshapen("the form is wrong where the decay plays no part (γ next to 1): another "
                                         "mistake than the decay's, so this case says nothing about the decay")
                    if not close(y[..., -1, :], y1[..., -1, :]):
                        return ("the last output with gamma differs from the output with another gamma' on queries "
                                "scaled by (γ/γ')^n and keys by (γ/γ')^-m: the weight of token m in output n is not "
                                "γ^(n-m)")
                    return None
                yield Case(judged_if=works("retention", form),
                           label=f"retention_{form}, {gamma_label(gamma)} vs {gamma_label(other)}, leading dims "
                                 f"{lead}, L={L}",
                           inputs=runs((Q, K, V), (Q1, K1, V), (Q, K, V), form=form, gamma0=gamma, gamma1=other,
                                       gamma2=NO_DECAY, chunk0=L + 2, chunk1=L + 2, chunk2=L + 2),
                           judge=judge,
                           hint="The decay belongs in all three forms: D[n, m] = gamma**(n-m) in the parallel one, "
                                "S = gamma * S + ... in the recurrent one, and the intra-chunk mask in the chunkwise "
                                "one (here one chunk holds the whole sequence).")


def _chunk_suspects(Q, K, V, gamma, chunk):
    return {
        "the cross-chunk term uses gamma**j instead of gamma**(j+1)": dict(cross_shift=0),
        "the cross-chunk term uses gamma**(j+2) instead of gamma**(j+1)": dict(cross_shift=2),
        "the carried state uses gamma**(n-s) instead of gamma**(n-1-s)": dict(carry_shift=0),
        "the carried state uses gamma**(n-2-s) instead of gamma**(n-1-s)": dict(carry_shift=2),
    }


def _across_chunks_only(seed, lead, L, chunk, m=4, d_v=3):
    """Q, K, V where a query meets no key of its own chunk (q in one half of the coordinates, k in the
    other, swapped chunk to chunk): every output is made of cross-chunk terms alone, so a mistake inside
    a chunk (its decay mask) cannot show, and the boundary exponents are all that is left."""
    Q, K, V = ref.qkv(drawn(seed), lead, L, m, d_v)
    even = (np.arange(L) // chunk) % 2 == 0
    half = np.arange(m) < m // 2
    q_mask = np.where(even[:, None], half[None, :], ~half[None, :])
    return Q * q_mask, K * ~q_mask, V


# The chunk-boundary items are judged at scalar decays only. A form that takes no per-head γ (it raises, or
# validates γ with a Python comparison) loses the equivalence items of every retention form and
# gamma_validation; the boundaries' exponents are the same whatever shape γ has, and blind round 9's
# chained-comparison bug lost chunk_boundaries and partial_chunk_state for it as well (5 points beyond).


@check(probe="retention_runs")
def chunk_boundaries():
    """retention_chunkwise gives the same output for every chunk size (γ^(j+1) across, γ^(n-1-s) carried).
    A chunk size that changes the output is forgiven only when the cross-chunk terms alone are right (a
    mistake inside the chunks, another item's, makes the chunk size matter without touching a boundary)."""
    seed = 800
    for lead in LEADS:
        for gamma in [0.3, 0.5, 0.9]:  # scalar decays (the note above)
            for chunk in [1, 3, 4, 5]:
                Q, K, V = ref.qkv(drawn(seed), lead, L_CHUNK, 4, 3)
                across = _across_chunks_only(seed + 5000, lead, L_CHUNK, chunk)
                seed += 1

                def judge(got, Q=Q, K=K, V=V, gamma=gamma, chunk=chunk, across=across):
                    y, one, y_across = _arr(got, "y0"), _arr(got, "y1"), _arr(got, "y2")
                    if problem := _shapes_differ(V.shape, y, one):
                        return problem
                    if close(y, one) or close(y_across, ref.retention(*across, gamma)):
                        return None
                    where = _first_bad_position(y, one)
                    message = (f"with chunk_size={chunk} the output differs from the same call with one chunk, "
                               f"first at position {where}")
                    for mistake, shifts in _chunk_suspects(Q, K, V, gamma, chunk).items():
                        wrong = ref.retention_chunk_variant(Q, K, V, gamma, chunk, **shifts)[0]
                        if close(y, wrong):
                            return message + f"; this is exactly what you get when {mistake}"
                    return message
                yield Case(label=f"chunk_size={chunk} vs one chunk, L={L_CHUNK}, {gamma_label(gamma)}, "
                                 f"leading dims {lead}",
                           inputs=runs((Q, K, V), (Q, K, V), across, form="chunkwise", gamma0=gamma, gamma1=gamma,
                                       gamma2=gamma, chunk0=chunk, chunk1=L_CHUNK + 3, chunk2=chunk),
                           judge=judge,
                           hint="With local index j = 0..n-1: the cross-chunk term is gamma**(j+1) * q_j R and the "
                                "update is R = gamma**n R + Σ_s gamma**(n-1-s) k_sᵀ v_s. Test chunk sizes that do not "
                                "divide L, and ones larger than L.")


PARTIAL_CHUNKS = [2, 3, 4, 5, L_CHUNK, L_CHUNK + 3]


@check(probe="chunk_states")
def partial_chunk_state():
    """retention_chunkwise(..., return_state=True) returns the same state whatever the chunk size."""
    seed = 900
    for lead in LEADS:
        for gamma in [0.5, 0.9]:  # scalar decays only (the note above chunk_boundaries)
            Q, K, V = ref.qkv(drawn(seed), lead, L_CHUNK, 4, 3)
            K2 = K.copy()
            K2[..., -1, :] += 1.0       # the last key enters R undecayed, whatever gamma is
            seed += 1
            chunks = [1] + PARTIAL_CHUNKS

            def judge(got, Q=Q, K=K, V=V, gamma=gamma, lead=lead):
                R1, Rk, R08 = _arr(got, "R0"), _arr(got, f"R{len(chunks) + 1}"), _arr(got, f"R{len(chunks)}")
                if problem := shape_problem(R1, (*lead, 4, 3), "the returned state"):
                    return problem
                if not moved(Rk, R08, rtol=1e-4):
                    return "the returned state does not change when a key changes"
                for i, chunk in enumerate(chunks[1:], 1):
                    R = _arr(got, f"R{i}")
                    if close(R, R1):
                        continue
                    short = " (a short last chunk)" if L_CHUNK % chunk and chunk < L_CHUNK else ""
                    wrong = ref.retention_chunk_variant(Q, K, V, gamma, chunk, last_chunk_uses_B=True)[1]
                    named = ("; this is exactly what you get when the last, shorter chunk is decayed as if it had "
                             "chunk_size tokens") if close(R, wrong) else ""
                    return (f"with chunk_size={chunk}{short} the returned state differs from the one with "
                            f"chunk_size=1{named}")
                return None
            runs_ = [(Q, K, V)] * len(chunks) + [(Q, K, V), (Q, K2, V)]
            extra = {f"chunk{i}": c for i, c in enumerate(chunks)}
            extra.update({f"gamma{i}": gamma for i in range(len(chunks))})
            extra.update({f"chunk{len(chunks)}": 1, f"chunk{len(chunks) + 1}": 1,
                          f"gamma{len(chunks)}": 0.8, f"gamma{len(chunks) + 1}": 0.8})
            yield Case(
                label=f"chunk sizes {PARTIAL_CHUNKS} vs 1, L={L_CHUNK}, {gamma_label(gamma)}, leading dims {lead}",
                inputs=runs(*runs_, **extra), judge=judge,
                hint="R after the last token equals Σ_m gamma**(L-1-m) k_mᵀ v_m. In the last chunk use its "
                     "real length n (Q[..., c0:c0+chunk_size, :].shape[-2]), not chunk_size.")


def _unjudged(got):
    """The form raised the same error at a valid per-head gamma of these shapes (not a ValueError: that is a
    validation that rejects valid decays, this item's): it cannot take these shapes at all, which its own items
    judge (a K.T or a missing trailing dim that breaks every batched call, blind round 11); how it validates a
    per-head gamma cannot be seen, and is not charged here too."""
    valid = str(got.get("valid_raised", ""))
    return bool(valid) and valid != "ValueError" and str(got.get("raised", "")) == valid


def _rejects_judge(gamma):
    """An invalid gamma raises ValueError."""
    def judge(got):
        raised = str(got.get("raised", ""))
        if raised == "ValueError" or _unjudged(got):
            return None
        return (f"raised {raised} for gamma={gamma!r}, expected ValueError" if raised else
                f"returned for gamma={gamma!r} (outside [0, 1]) instead of raising ValueError")
    return judge


def _edge_judge(gamma, near):
    """gamma is an edge of [0, 1]: accepted, finite, and the output next to it (``near``) is the same."""
    def judge(got):
        raised = str(got.get("raised", ""))
        if _unjudged(got):
            return None
        if raised:
            return f"raised {raised} for gamma={gamma!r}, a valid decay (0 <= gamma <= 1)"
        y, y_near = _arr(got, "y"), _arr(got, "y_near")
        if not np.isfinite(y).all():
            return f"the output at gamma={gamma!r} has NaN or inf (0**0 is 1; never take log(gamma))"
        if not close(y, y_near):
            return (f"the output jumps at gamma={gamma!r}: it differs from the output at gamma={near!r}, "
                    "although the weights gamma**(n-m) move by a hair")
        return None
    return judge


@check(probe="gamma_rejected")
def gamma_validation():
    """gamma outside [0, 1] (NaN included) raises ValueError in every retention form; the edges 0 and 1 are
    accepted and give what a decay next to them gives (0**0 = 1: each token sees itself)."""
    # NaN travels in an array (a job's scalars are finite JSON): `gamma < 0 or gamma > 1` lets it through
    bad = [1.5, 1.0 + 1e-6, -0.1, -1e-6, np.array([0.5, 1.2]), np.array([-0.1, 0.9]), np.array([np.nan, 0.5])]
    edges = [(g, GAMMA_EDGES[g]) for g in (0.0, 1.0)] + [(np.array([0.0, 1.0]), np.array(list(GAMMA_EDGES.values())))]
    for form in RETENTION_FORMS:
        for gamma in bad:
            lead = len(gamma) if isinstance(gamma, np.ndarray) else 0
            what = f"per-head gamma {gamma.tolist()}" if lead else f"gamma={gamma!r}"
            yield Case(judged_if=works("retention", form),
                       label=f"retention_{form}, {what}", inputs={"form": form, "gamma": gamma, "lead": lead},
                       judge=_rejects_judge(gamma.tolist() if lead else gamma),
                       hint="Check gamma before using it: raise ValueError unless 0 <= gamma <= 1 for every entry "
                            "(a tensor gamma has one entry per head; NaN fails every comparison).")
        for gamma, near in edges:
            lead = len(gamma) if isinstance(gamma, np.ndarray) else 0
            what = f"per-head gamma {gamma.tolist()}" if lead else f"gamma={gamma!r}"
            yield Case(judged_if=works("retention", form),
                       label=f"retention_{form}, {what} (an edge)",
                       inputs={"form": form, "gamma": gamma, "lead": lead, "near": near},
                       judge=_edge_judge(gamma.tolist() if lead else gamma, near.tolist() if lead else near),
                       hint="gamma = 0 and gamma = 1 are valid (0 <= gamma <= 1): do not raise for them, and keep "
                            "0**0 = 1 (torch.pow does; exp(n * log(gamma)) does not).")


# every face against the reference, float32, two states, the cost (their checks are collected with these)
from . import verdicts_forms  # noqa: E402,F401
