"""Student-side halves of the official checks: call the submission, return plain results.

Each probe runs in the sandbox beside the student's code. It holds no expected values:
inputs come in (numpy float64 arrays, Python scalars and strings), tensors go out.
Probes that run a form several times take numbered inputs (Q0, K0, V0, Q1, ...) and
return numbered outputs (y0, y1, ...); the verdicts compare them with each other.

Every call of the student's code goes through the harness (`call`, `steps`: grader/sandbox/inside/caller.py), on
a thread of its own: what the code can see above itself is the same in every probe, so the runs that measure a
form look, from inside it, like the runs that compare it. Inputs are handed over the same way everywhere too
(`_t`: a fresh, contiguous, writable float64 array of numpy's).
"""
import numpy as np
import torch
from lrkit_harness import call, steps


def _t(a, dtype=torch.float64):
    """An input as every probe hands it over: over a C-contiguous, writable float64 array of numpy's own."""
    a = np.asarray(a)
    if not (a.dtype == np.float64 and a.flags.c_contiguous and a.flags.writeable and a.flags.owndata):
        a = np.array(a, dtype=np.float64, order="C", copy=True)
    return torch.from_numpy(a).to(dtype)


def _gamma(gamma, dtype=torch.float64):
    return _t(gamma, dtype) if isinstance(gamma, np.ndarray) else float(gamma)


def _token(x, t):
    """Token t of x (..., L, n) as a decoder hands it over: a tensor of its own, as `_step_cost` draws them (a
    view where the inputs are laid out as views themselves: the layout cases)."""
    if not x.is_contiguous():
        return x[..., t, :]
    return torch.from_numpy(np.array(x[..., t, :].numpy(), order="C", copy=True)).to(x.dtype)


def _kept(y):
    """A step's output as every decoding probe keeps it: a copy (the student's own tensor is let go at once, in
    the runs that compare a step as in the run that measures it)."""
    return torch.as_tensor(y).clone()


def _by_steps(la, Q, K, V):
    state = call((la, "LinearAttentionState"), Q.shape[-1], V.shape[-1])
    ys = []
    steps((state, "step"), Q.shape[-2], lambda t: ((_token(Q, t), _token(K, t), _token(V, t)), {}),
          take=lambda t, y: ys.append(_kept(y)))
    return torch.stack(ys, dim=-2)


def _linear(la, form, Q, K, V):
    if form == "parallel":
        return call((la, "linear_attention_parallel"), Q, K, V)
    if form == "recurrent":
        return call((la, "linear_attention_recurrent"), Q, K, V)
    return _by_steps(la, Q, K, V)


def _retention(la, form, Q, K, V, gamma, chunk_size):
    if form == "parallel":
        return call((la, "retention_parallel"), Q, K, V, gamma)
    if form == "recurrent":
        return call((la, "retention_recurrent"), Q, K, V, gamma)
    return call((la, "retention_chunkwise"), Q, K, V, gamma, chunk_size)


def _laid_out(x, layout):
    """The same values as a model's code would hand them over: 'heads' is the non-contiguous view a head
    split by transpose gives ((B, L, H, m) -> (B, H, L, m)); 'broadcast' expands the first leading index
    over the others (stride 0, as a shared key or value is)."""
    if layout == "heads" and x.dim() >= 4:
        return x.transpose(-2, -3).contiguous().transpose(-2, -3)
    if layout == "broadcast" and x.dim() >= 3:
        return x[:1].expand_as(x)
    return x


def _qkv(kw, i, dtype=torch.float64):
    layout = kw.get("layout", "plain")
    return tuple(_laid_out(_t(kw[f"{name}{i}"], dtype), layout) for name in "QKV")


TAIL, EVERY = 64, 61  # grader.checks.DIGEST: what a long output is sent as (`_sent`)
LONG_BYTES = 4 << 20  # an output larger than this is sent as its digest


def _sent(out):
    """The outputs as the probe sends them: as they are, or, for an output over `LONG_BYTES` (a cost case's
    thousands of tokens), its digest (`grader.checks.digest`: summed over the tokens, summed squared, the last
    `TAIL` tokens, every `EVERY`-th), made after the student's code returned, so nothing it can see differs."""
    sent = {}
    for key, y in out.items():
        if not (isinstance(y, torch.Tensor) and y.dim() >= 2 and y.numel() * 8 > LONG_BYTES):
            sent[key] = y
            continue
        y = y.detach().to(torch.float64)
        sent.update({f"{key}_sum": y.sum(-2), f"{key}_sq": (y * y).sum(-2), f"{key}_tail": y[..., -TAIL:, :],
                     f"{key}_every": y[..., ::EVERY, :]})
    return sent


def linear_runs(form, n, **kw):
    """One linear-attention form ('parallel', 'recurrent' or 'step') on n input sets."""
    import linear_attention as la
    return _sent({f"y{i}": _linear(la, form, *_qkv(kw, i)) for i in range(n)})


def retention_runs(form, n, **kw):
    """One retention form on n input sets; gamma{i} and chunk{i} per run."""
    import linear_attention as la
    return _sent({f"y{i}": _retention(la, form, *_qkv(kw, i), _gamma(kw[f"gamma{i}"]), kw.get(f"chunk{i}", 0))
                  for i in range(n)})


def chunk_states(n, **kw):
    """retention_chunkwise(..., return_state=True) on n input sets: outputs and returned states."""
    import linear_attention as la
    out = {}
    for i in range(n):
        y, R = call((la, "retention_chunkwise"), *_qkv(kw, i), _gamma(kw[f"gamma{i}"]), kw[f"chunk{i}"],
                    return_state=True)
        out[f"y{i}"], out[f"R{i}"] = y, R
    return out


def unified_runs(mode, n, **kw):
    import linear_attention as la
    out = {}
    for i in range(n):
        gamma = _gamma(kw[f"gamma{i}"]) if f"gamma{i}" in kw else None
        gate = _t(kw[f"gate{i}"]) if f"gate{i}" in kw else None
        out[f"y{i}"] = call((la, "unified_recurrence"), *_qkv(kw, i), mode, gamma=gamma, gate=gate)
    return out


def feature(x):
    import linear_attention as la
    return {"phi": call((la, "feature_map"), _t(x))}


def gamma_rejected(form, gamma, lead, near=None):
    """Call a retention form with an out-of-range (or edge) gamma; report what it raised. For an edge,
    ``near`` is a decay next to it: the outputs at both come back (y, y_near).

    lead: the number of heads for a per-head gamma (0 for a float gamma).
    """
    import linear_attention as la
    shape = (lead, 6, 3) if lead else (6, 3)  # three full chunks of 2: a short last chunk is another item's
    Q = torch.linspace(-1, 1, 18, dtype=torch.float64).reshape(shape[-2:]).expand(shape).contiguous()
    try:
        y = _retention(la, form, Q, Q.flip(-1), Q, _gamma(gamma), 2)
    except ValueError:
        return {"raised": "ValueError"}
    except Exception as exc:  # a different exception is a wrong answer, not a crash
        return {"raised": type(exc).__name__}
    if near is None:
        return {"raised": ""}
    return {"raised": "", "y": y, "y_near": _retention(la, form, Q, Q.flip(-1), Q, _gamma(near), 2)}


def unified_rejected(mode, given):
    """Call unified_recurrence with ``mode`` and, of gamma and gate, only those named in ``given``; report
    what it raised ("" when it returned)."""
    import linear_attention as la
    Q = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(4, 3)
    extra = {"gamma": 0.5 if "gamma" in given else None, "gate": torch.full((4,), 0.5, dtype=torch.float64)
             if "gate" in given else None}
    try:
        call((la, "unified_recurrence"), Q, Q.flip(-1), Q, mode, **extra)
    except ValueError:
        return {"raised": "ValueError"}
    except Exception as exc:  # a different exception is a wrong answer, not a crash
        return {"raised": type(exc).__name__}
    return {"raised": ""}


def multiscale(num_heads):
    import linear_attention as la
    return {"gamma": call((la, "multiscale_decays"), num_heads)}


def two_states(dtype="float64", **kw):
    """LinearAttentionState: two sequences decoded alone, then side by side (interleaved), then the first
    alone again; in ``dtype`` (float32: where a state updated in place on its first token's dtype shows)."""
    import linear_attention as la
    kind = torch.float32 if dtype == "float32" else torch.float64
    (Qa, Ka, Va), (Qb, Kb, Vb) = _qkv(kw, 0, kind), _qkv(kw, 1, kind)
    out = {"alone0": _by_steps(la, Qa, Ka, Va), "alone1": _by_steps(la, Qb, Kb, Vb)}
    a = call((la, "LinearAttentionState"), Qa.shape[-1], Va.shape[-1])
    ya = [call((a, "step"), _token(Qa, t), _token(Ka, t), _token(Va, t)) for t in range(2)]  # a is under way ...
    b = call((la, "LinearAttentionState"), Qb.shape[-1], Vb.shape[-1])                       # ... when b is made
    yb = []
    for t in range(max(Qa.shape[-2], Qb.shape[-2])):
        if t < Qb.shape[-2]:
            yb.append(call((b, "step"), _token(Qb, t), _token(Kb, t), _token(Vb, t)))
        if 2 <= t < Qa.shape[-2]:
            ya.append(call((a, "step"), _token(Qa, t), _token(Ka, t), _token(Va, t)))
    out["side0"], out["side1"] = torch.stack(ya, dim=-2), torch.stack(yb, dim=-2)
    out["again0"] = _by_steps(la, Qa, Ka, Va)   # a fresh state after all that: where the others left nothing
    return {k: v.to(torch.float64) if isinstance(v, torch.Tensor) else v for k, v in out.items()}


def dtypes(gamma, chunk_size, gate, **kw):
    """Every form on float32 inputs and on the same values in float64: dtypes and both outputs."""
    import linear_attention as la
    result, kinds = {}, []
    for suffix, dtype in (("32", torch.float32), ("64", torch.float64)):
        q, k, v = _qkv(kw, 0, dtype)
        outs = {f"linear_{form}": _linear(la, form, q, k, v) for form in ("parallel", "recurrent", "step")}
        for form in ("parallel", "recurrent", "chunkwise"):
            outs[f"retention_{form}"] = _retention(la, form, q, k, v, float(gamma), chunk_size)
        outs["unified_gated"] = call((la, "unified_recurrence"), q, k, v, "gated", gate=_t(gate, dtype))
        for name, y in outs.items():
            if suffix == "32":
                kinds.append(str(getattr(y, "dtype", type(y).__name__)))
            result[f"{name}_{suffix}"] = y.to(torch.float64) if isinstance(y, torch.Tensor) else y
    result["dtypes"] = ",".join(kinds)
    return result


# ----------------------------------------------------------------------------- what the algorithm costs
# Nothing is measured here: the grader runs each of these alone, in a sandbox of its own, and reads the
# run's memory peak and CPU time from outside it. The probe only runs the form and returns its outputs.

def _seeded(seed, lead, L, m, d_v):
    """Q, K, V (float64) made from ``seed`` exactly as the checks' reference makes them (numpy's default_rng),
    handed over as every probe hands them (`_t`)."""
    rng = np.random.default_rng(seed)
    return tuple(_t(rng.standard_normal((*lead, L, n))) for n in (m, m, d_v))


def form_cost(form, L, lead, m, d_v, gamma, chunk_size, seed, tail, every):
    """One form over L tokens ('linear_recurrent', 'retention_recurrent', 'chunkwise', or 'step': L tokens
    stepped into one LinearAttentionState): its outputs, as a digest the verdict reads (every output summed
    over the tokens, the last ``tail`` tokens, every ``every``-th token)."""
    import linear_attention as la
    lead = tuple(lead)
    if form == "step":
        return _step_cost(la, L, lead, m, d_v, seed, tail, every)
    Q, K, V = _seeded(seed, lead, L, m, d_v)
    if form == "linear_recurrent":
        y = _linear(la, "recurrent", Q, K, V)
    else:
        y = _retention(la, "recurrent" if form == "retention_recurrent" else "chunkwise", Q, K, V, gamma, chunk_size)
    y = torch.as_tensor(y)
    return {"y_sum": y.sum(-2), "y_sq": (y * y).sum(-2), "y_tail": y[..., -tail:, :], "y_every": y[..., ::every, :]}


def _step_cost(la, L, lead, m, d_v, seed, tail, every):
    """L tokens stepped into one LinearAttentionState, each drawn when it is stepped (q, k, v in turn from
    numpy's default_rng(seed), as the reference draws them) and each output digested as it comes: as in a
    decoder, the run's tokens are never held whole, so a step that keeps its history holds memory of its own
    and finds no buffer of the run to alias or to hand back to the kernel."""
    rng = np.random.default_rng(seed)
    state = call((la, "LinearAttentionState"), m, d_v)
    y_sum = torch.zeros(*lead, d_v, dtype=torch.float64)
    y_sq = torch.zeros(*lead, d_v, dtype=torch.float64)
    y_tail, y_every = [], []

    def token(t):  # drawn when it is stepped
        return tuple(torch.from_numpy(rng.standard_normal((*lead, n))) for n in (m, m, d_v)), {}

    def digest(t, y):  # each output as it comes
        nonlocal y_sum, y_sq
        y_t = _kept(y).to(torch.float64).reshape(*lead, d_v)
        y_sum += y_t
        y_sq += y_t * y_t
        if t % every == 0:
            y_every.append(y_t)
        if t >= L - tail:
            y_tail.append(y_t)
    steps((state, "step"), L, token, take=digest)
    return {"y_sum": y_sum, "y_sq": y_sq, "y_tail": torch.stack(y_tail, -2), "y_every": torch.stack(y_every, -2)}
