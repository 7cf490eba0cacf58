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
    """Token t of x (..., L, n) as a decoder hands it over: a tensor of its own (a view where the inputs are laid
    out as views themselves: the layout cases; drawn now where x is handed over token by token: the step's cost
    case, `Seeded(stream=True)`)."""
    if not isinstance(x, torch.Tensor):
        return torch.from_numpy(x.token(t))
    if not x.is_contiguous():
        return x[..., t, :]
    return torch.from_numpy(np.array(x[..., t, :].numpy(), order="C", copy=True)).to(x.dtype)


def _by_steps(la, Q, K, V):
    """Q, K, V stepped into one LinearAttentionState, token by token; each output copied, as it comes, into one
    buffer made at the first step (shaped as that output, typed as the inputs: outputs in a smaller dtype free no
    room for a history of them, blind attacks22; handed back in the outputs' own dtype): between two steps the probe
    allocates nothing and keeps nothing of the student's, in the runs that compare a step as in the run that measures
    it (blind attacks13 told them apart by the heap a kept copy of every output left between two steps)."""
    state = call((la, "LinearAttentionState"), Q.shape[-1], V.shape[-1])
    L, out = Q.shape[-2], []
    typed = torch.promote_types(torch.promote_types(_dtype(Q), _dtype(K)), _dtype(V))

    def take(t, y):
        y = torch.as_tensor(y).detach()
        y = y if y.dim() else y.reshape(1)
        if not out:
            # zeroed as it is made: held whole from the first step on, so a history kept early and dropped late is
            # held on top of it, not under a peak the model reaches only as its buffer fills (blind attacks27)
            out.extend([y.new_zeros((*y.shape[:-1], L, y.shape[-1]), dtype=typed), y.dtype])
        row = out[0][..., t, :]
        if y.shape != row.shape:
            raise ValueError(f"step returned outputs of two shapes ({tuple(y.shape)} at token {t}, "
                             f"{tuple(row.shape)} at the first)")
        row.copy_(y)
    steps((state, "step"), L, lambda t: ((_token(Q, t), _token(K, t), _token(V, t)), {}), take=take)
    return out[0].to(out[1])


def _dtype(x):
    return x.dtype if isinstance(x, torch.Tensor) else torch.float64  # (a stream's tokens are float64)


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
    return tuple(kw[f"{name}{i}"] if hasattr(kw[f"{name}{i}"], "token")  # token by token (`_token`)
                 else _laid_out(_t(kw[f"{name}{i}"], dtype), layout) for name in "QKV")


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
        y = y.detach()
        total, squares = _sums(y, y.dim() - 2)
        sent.update({f"{key}_sum": total, f"{key}_sq": squares,
                     f"{key}_tail": y[..., -TAIL:, :].to(torch.float64),
                     f"{key}_every": y[..., ::EVERY, :].to(torch.float64)})
    return sent


DIGEST_TOKENS = 256  # tokens `_sums` reads at a time


def _sums(y, axis):
    """y summed over ``axis`` and its square summed, in float64, ``DIGEST_TOKENS`` tokens at a time: what the
    digest makes never holds more than a block of the outputs, so the run's memory peak is the measured call's
    (a full-size y * y after the call was a peak the student's code could free its history under: blind
    attacks24)."""
    total = squares = None
    for t0 in range(0, y.shape[axis], DIGEST_TOKENS):
        block = y.narrow(axis, t0, min(DIGEST_TOKENS, y.shape[axis] - t0)).to(torch.float64)
        part, part_sq = block.sum(axis), (block * block).sum(axis)
        total, squares = (part, part_sq) if total is None else (total.add_(part), squares.add_(part_sq))
    return total, squares


def linear_runs(form, n, **kw):
    """One linear-attention form ('parallel', 'recurrent' or 'step') on n input sets."""
    import linear_attention as la
    return _sent({f"y{i}": _linear(la, form, *_qkv(kw, i)) for i in range(n)})


def step_state(n, **kw):
    """LinearAttentionState stepped over Q0, K0, V0 token by token (as `linear_runs` steps it, its outputs dropped),
    then its S as the state holds it (looked up on the student's thread: it may be a property); not a tensor: no S."""
    import linear_attention as la
    Q, K, V = _qkv(kw, 0)
    state = call((la, "LinearAttentionState"), Q.shape[-1], V.shape[-1])
    steps((state, "step"), Q.shape[-2], lambda t: ((_token(Q, t), _token(K, t), _token(V, t)), {}),
          take=lambda t, y: None)
    S = call(getattr, state, "S", None)
    return {"S": S} if isinstance(S, torch.Tensor) else {}


def retention_runs(form, n, **kw):
    """One retention form on n input sets; gamma{i} and chunk{i} per run."""
    import linear_attention as la
    return _sent({f"y{i}": _untouched_gamma(form, lambda g: _retention(la, form, *_qkv(kw, i), g,
                                                                       kw.get(f"chunk{i}", 0)), _gamma(kw[f"gamma{i}"]))
                  for i in range(n)})


def _untouched_gamma(form, run, gamma):
    """``run(gamma)``, where a per-head γ must come back as it went in (blind round 14: a γ reshaped in place with
    `unsqueeze_` gives every later call with the same tensor other decays). Raised as the form's error, on the
    equivalence cases only (the validation cases judge which γ a form refuses)."""
    if not isinstance(gamma, torch.Tensor):
        return run(gamma)
    kept, shape = gamma.clone(), tuple(gamma.shape)
    out = run(gamma)
    if tuple(gamma.shape) != shape or not bool(((gamma == kept) | (gamma.isnan() & kept.isnan())).all()):
        raise ValueError(f"retention_{form} changed the γ it was given in place (shape {shape} -> "
                         f"{tuple(gamma.shape)}): a caller that hands the same γ to its next call (every layer of a "
                         "model does) gets other decays there. Work on a copy (gamma.reshape(...), not "
                         "gamma.unsqueeze_(...) or gamma.clamp_(...)).")
    return out


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
    valid = ""  # what the form raises at a valid per-head gamma of these shapes ('' where it returns)
    if lead:
        try:
            _retention(la, form, Q, Q.flip(-1), Q, _gamma(np.full(lead, 0.5)), 2)
        except Exception as exc:  # the form's own items judge a form that cannot take these shapes at all
            valid = type(exc).__name__
    try:
        y = _retention(la, form, Q, Q.flip(-1), Q, _gamma(gamma), 2)
    except ValueError:
        return {"raised": "ValueError", "valid_raised": valid}
    except Exception as exc:  # a different exception is a wrong answer, not a crash
        return {"raised": type(exc).__name__, "valid_raised": valid}
    if near is None:
        return {"raised": "", "valid_raised": valid}
    return {"raised": "", "valid_raised": valid, "y": y,
            "y_near": _retention(la, form, Q, Q.flip(-1), Q, _gamma(near), 2)}


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
    """Every form on float32 inputs and on the same values in float64: each output's dtype and both outputs, or
    what the form raised (``<name>_<32|64>_raised``): one form that raises says nothing of the others."""
    import linear_attention as la
    result = {}
    for suffix, dtype in (("32", torch.float32), ("64", torch.float64)):
        q, k, v = _qkv(kw, 0, dtype)
        calls = {f"linear_{form}": (lambda f=form: _linear(la, f, q, k, v))
                 for form in ("parallel", "recurrent", "step")}
        calls.update({f"retention_{form}": (lambda f=form: _retention(la, f, q, k, v, float(gamma), chunk_size))
                      for form in ("parallel", "recurrent", "chunkwise")})
        calls["unified_gated"] = lambda: call((la, "unified_recurrence"), q, k, v, "gated", gate=_t(gate, dtype))
        for name, run in calls.items():
            try:
                y = run()
            except Exception as exc:  # a wrong answer of that form's, not a crash of the probe
                result[f"{name}_{suffix}_raised"] = type(exc).__name__
                continue
            result[f"{name}_{suffix}_dtype"] = str(getattr(y, "dtype", type(y).__name__))
            result[f"{name}_{suffix}"] = y.to(torch.float64) if isinstance(y, torch.Tensor) else y
    return result


def grounding(family, n, **kw):
    """Every form of one family on the same inputs, each call on fresh copies and on its own (what raised is named,
    not raised), and the helpers the forms are built on, called on those inputs: `verdicts.grounded`."""
    import linear_attention as la

    def fresh():
        return tuple(_t(np.array(kw[f"{name}0"], dtype=np.float64, copy=True)) for name in "QKV")

    out = {}

    def attempt(key, fn):
        try:
            out[key] = fn()
        except Exception as exc:  # a form that raises here is judged by its own items: this asks for any one form
            out[f"{key}_raised"] = type(exc).__name__

    if family == "linear":
        for form in ("parallel", "recurrent", "step"):
            attempt(f"y_{form}", lambda form=form: _linear(la, form, *fresh()))
        attempt("phi_q", lambda: call((la, "feature_map"), fresh()[0]))
        attempt("phi_k", lambda: call((la, "feature_map"), fresh()[1]))
        return out
    gamma = float(kw["gamma0"])
    if family == "retention":
        for form in ("parallel", "recurrent", "chunkwise"):
            attempt(f"y_{form}", lambda form=form: _retention(la, form, *fresh(), gamma, kw["chunk0"]))
    else:
        for mode, extra in (("linear", {}), ("retention", {"gamma": gamma}), ("gated", {"gate": _t(kw["gate0"])})):
            attempt(f"y_{mode}", lambda mode=mode, extra=extra: call((la, "unified_recurrence"), *fresh(), mode,
                                                                     **extra))
    attempt("gamma_as", lambda: call((la, "as_gamma"), gamma, fresh()[0]))
    return out
