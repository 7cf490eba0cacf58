"""Student-side halves of the official checks: call the submission, return plain results.

Each probe runs in the sandbox beside the student's code. It holds no expected values:
inputs come in (numpy float64 arrays, Python scalars and strings), tensors go out.
Probes that run a form several times take numbered inputs (Q0, K0, V0, Q1, ...) and
return numbered outputs (y0, y1, ...); the verdicts compare them with each other.
"""
import contextlib

import numpy as np
import torch
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_flatten, tree_unflatten


def _t(a, dtype=torch.float64):
    return torch.from_numpy(np.ascontiguousarray(a)).to(dtype)


def _gamma(gamma, dtype=torch.float64):
    return _t(gamma, dtype) if isinstance(gamma, np.ndarray) else float(gamma)


def _by_steps(la, Q, K, V):
    state = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([state.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


def _linear(la, form, Q, K, V):
    if form == "parallel":
        return la.linear_attention_parallel(Q, K, V)
    if form == "recurrent":
        return la.linear_attention_recurrent(Q, K, V)
    return _by_steps(la, Q, K, V)


def _retention(la, form, Q, K, V, gamma, chunk_size):
    if form == "parallel":
        return la.retention_parallel(Q, K, V, gamma)
    if form == "recurrent":
        return la.retention_recurrent(Q, K, V, gamma)
    return la.retention_chunkwise(Q, K, V, gamma, chunk_size)


def _qkv(kw, i, dtype=torch.float64):
    return tuple(_t(kw[f"{name}{i}"], dtype) for name in "QKV")


def linear_runs(form, n, **kw):
    """One linear-attention form ('parallel', 'recurrent' or 'step') on n input sets."""
    import linear_attention as la
    return {f"y{i}": _linear(la, form, *_qkv(kw, i)) for i in range(n)}


def retention_runs(form, n, **kw):
    """One retention form on n input sets; gamma{i} and chunk{i} per run."""
    import linear_attention as la
    return {f"y{i}": _retention(la, form, *_qkv(kw, i), _gamma(kw[f"gamma{i}"]), kw.get(f"chunk{i}", 0))
            for i in range(n)}


def chunk_states(n, **kw):
    """retention_chunkwise(..., return_state=True) on n input sets: outputs and returned states."""
    import linear_attention as la
    out = {}
    for i in range(n):
        y, R = la.retention_chunkwise(*_qkv(kw, i), _gamma(kw[f"gamma{i}"]), kw[f"chunk{i}"], return_state=True)
        out[f"y{i}"], out[f"R{i}"] = y, R
    return out


def unified_runs(mode, n, **kw):
    import linear_attention as la
    out = {}
    for i in range(n):
        gamma = _gamma(kw[f"gamma{i}"]) if f"gamma{i}" in kw else None
        gate = _t(kw[f"gate{i}"]) if f"gate{i}" in kw else None
        out[f"y{i}"] = la.unified_recurrence(*_qkv(kw, i), mode, gamma=gamma, gate=gate)
    return out


def feature(x):
    import linear_attention as la
    return {"phi": la.feature_map(_t(x))}


def gamma_rejected(form, gamma, lead):
    """Call a retention form with an out-of-range (or boundary) gamma; report what it raised.

    lead: the number of heads for a per-head gamma (0 for a float gamma).
    """
    import linear_attention as la
    shape = (lead, 5, 3) if lead else (5, 3)
    Q = torch.linspace(-1, 1, 15, dtype=torch.float64).reshape(shape[-2:]).expand(shape).contiguous()
    try:
        _retention(la, form, Q, Q.flip(-1), Q, _gamma(gamma), 2)
    except ValueError:
        return {"raised": "ValueError"}
    except Exception as exc:  # a different exception is a wrong answer, not a crash
        return {"raised": type(exc).__name__}
    return {"raised": ""}


def multiscale(num_heads):
    import linear_attention as la
    return {"gamma": la.multiscale_decays(num_heads)}


def two_states(**kw):
    """LinearAttentionState: two sequences decoded alone, then side by side (interleaved)."""
    import linear_attention as la
    (Qa, Ka, Va), (Qb, Kb, Vb) = _qkv(kw, 0), _qkv(kw, 1)
    out = {"alone0": _by_steps(la, Qa, Ka, Va), "alone1": _by_steps(la, Qb, Kb, Vb)}
    a = la.LinearAttentionState(Qa.shape[-1], Va.shape[-1])
    ya = [a.step(Qa[..., t, :], Ka[..., t, :], Va[..., t, :]) for t in range(2)]   # a is under way ...
    b = la.LinearAttentionState(Qb.shape[-1], Vb.shape[-1])                        # ... when b is made
    yb = []
    for t in range(max(Qa.shape[-2], Qb.shape[-2])):
        if t < Qb.shape[-2]:
            yb.append(b.step(Qb[..., t, :], Kb[..., t, :], Vb[..., t, :]))
        if 2 <= t < Qa.shape[-2]:
            ya.append(a.step(Qa[..., t, :], Ka[..., t, :], Va[..., t, :]))
    out["side0"], out["side1"] = torch.stack(ya, dim=-2), torch.stack(yb, dim=-2)
    return out


def dtypes(gamma, chunk_size, gate, **kw):
    """Every form on float32 inputs and on the same values in float64: dtypes and both outputs."""
    import linear_attention as la
    result, kinds = {}, []
    for suffix, dtype in (("32", torch.float32), ("64", torch.float64)):
        q, k, v = _qkv(kw, 0, dtype)
        outs = {f"linear_{form}": _linear(la, form, q, k, v) for form in ("parallel", "recurrent", "step")}
        for form in ("parallel", "recurrent", "chunkwise"):
            outs[f"retention_{form}"] = _retention(la, form, q, k, v, float(gamma), chunk_size)
        outs["unified_gated"] = la.unified_recurrence(q, k, v, "gated", gate=_t(gate, dtype))
        for name, y in outs.items():
            if suffix == "32":
                kinds.append(str(getattr(y, "dtype", type(y).__name__)))
            result[f"{name}_{suffix}"] = y.to(torch.float64) if isinstance(y, torch.Tensor) else y
    result["dtypes"] = ",".join(kinds)
    return result


# ----------------------------------------------------------------------------- what the algorithm costs

class _OverBudget(Exception):
    pass


class _Meter(TorchFunctionMode):
    """Counts every tensor operation and the largest tensor any of them allocates."""

    def __init__(self, limit_bytes, precheck=0):
        super().__init__()
        self.ops, self.largest, self.shape, self.limit, self.precheck = 0, 0, (), limit_bytes, precheck

    def _large(self, func, args, kwargs):
        """Worth a precheck: a factory whose sizes multiply past the budget, or an allocating operation
        with an input that has a long dimension (views and attribute reads never allocate)."""
        flat = [b for a in (*args, *kwargs.values()) for b in (a if isinstance(a, (list, tuple)) else (a,))]
        tensors = [a for a in flat if isinstance(a, torch.Tensor)]
        if not tensors:
            size = 8
            for a in flat:
                size *= a if type(a) is int and a > 0 else 1
            return size > self.limit
        if getattr(func, "__name__", "") in ("__get__", "__getitem__", "view", "reshape", "size", "dim"):
            return False
        return any(d >= self.precheck for t in tensors for d in t.shape)

    def _too_big(self, func, args, kwargs):
        """Run the operation on meta tensors first (shapes only, no memory): is its result over budget?"""
        def meta(a):
            return a.to("meta") if isinstance(a, torch.Tensor) else a
        try:
            flat, spec = tree_flatten((args, kwargs))
            margs, mkwargs = tree_unflatten([meta(a) for a in flat], spec)
            if "device" in mkwargs:
                mkwargs["device"] = "meta"
            elif not any(isinstance(a, torch.Tensor) for a in flat):
                mkwargs["device"] = "meta"
            outs = tree_flatten(func(*margs, **mkwargs))[0]
        except Exception:  # data-dependent or meta-less operations simply run
            return None
        for t in outs:
            if isinstance(t, torch.Tensor) and t.numel() * t.element_size() > self.limit:
                return tuple(t.shape), t.numel() * t.element_size()
        return None

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if self.precheck and self._large(func, args, kwargs):
            big = self._too_big(func, args, kwargs)
            if big is not None:
                self.shape, self.largest = big
                raise _OverBudget()
        out = func(*args, **kwargs)
        self.ops += 1
        for t in (out if isinstance(out, (list, tuple)) else (out,)):
            if isinstance(t, torch.Tensor) and t.device.type != "meta":
                size = t.untyped_storage().nbytes()
                if size > self.largest:
                    self.largest, self.shape = size, tuple(t.shape)
        if self.largest > self.limit:   # stop before a quadratic form eats the sandbox's memory
            raise _OverBudget()
        return out


@contextlib.contextmanager
def _watch(la, names, longest=1):
    """Record calls to the module's parallel forms on more than ``longest`` tokens while the block runs.
    The parallel form on one chunk is allowed: "chunkwise" means parallel inside each chunk."""
    called, saved = [], {n: getattr(la, n, None) for n in names}

    def wrap(name, fn):
        def recorded(*args, **kwargs):
            q = args[0] if args else kwargs.get("Q")
            tokens = q.shape[-2] if isinstance(q, torch.Tensor) and q.dim() >= 2 else None
            if tokens is None or tokens > longest:
                called.append(name)
            return fn(*args, **kwargs)
        return recorded

    for name, fn in saved.items():
        if callable(fn):
            setattr(la, name, wrap(name, fn))
    try:
        yield called
    finally:
        for name, fn in saved.items():
            setattr(la, name, fn)


PARALLEL = ("linear_attention_parallel", "retention_parallel")


def cost(form, L, m, d_v, chunk_size, limit_bytes, watch_memory=False):
    """Run one form on float64 inputs of length L; report the largest tensor and the parallel calls.
    (``watch_memory``: the driver also measures the whole run's memory from outside this process.)"""
    import linear_attention as la
    g = torch.Generator().manual_seed(L)
    Q, K, V = (torch.randn(L, n, generator=g, dtype=torch.float64) for n in (m, m, d_v))
    meter = _Meter(limit_bytes, precheck=L // 4 if form == "chunkwise" else 0)
    over = False
    with _watch(la, PARALLEL, longest=chunk_size if form == "chunkwise" else 1) as called:
        try:
            with meter:
                if form == "linear_recurrent":
                    la.linear_attention_recurrent(Q, K, V)
                elif form == "retention_recurrent":
                    la.retention_recurrent(Q, K, V, 0.9)
                else:
                    la.retention_chunkwise(Q, K, V, 0.9, chunk_size)
        except _OverBudget:
            over = True
    return {"largest": meter.largest, "shape": "x".join(map(str, meter.shape)), "over": over,
            "called": ",".join(sorted(set(called))), "ops": meter.ops}


def _held_bytes(obj):
    """Bytes of the tensors an object holds in its attributes (and in lists/dicts there)."""
    total, seen = 0, set()
    stack = list(vars(obj).values()) if hasattr(obj, "__dict__") else []
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, torch.Tensor):
            total += v.numel() * v.element_size()
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
    return total


def step_cost(m, d_v, early, late):
    """LinearAttentionState.step after `early` and after `late` tokens: work and memory per step."""
    import linear_attention as la
    g = torch.Generator().manual_seed(late)
    Q, K, V = (torch.randn(late + 1, n, generator=g, dtype=torch.float64) for n in (m, m, d_v))
    state = la.LinearAttentionState(m, d_v)
    out = {}
    with _watch(la, PARALLEL) as called:
        for t in range(late + 1):
            if t in (early, late):
                meter = _Meter(1 << 40)
                with meter:
                    state.step(Q[t], K[t], V[t])
                tag = "early" if t == early else "late"
                out[f"ops_{tag}"], out[f"largest_{tag}"] = meter.ops, meter.largest
                out[f"held_{tag}"] = _held_bytes(state)
            else:
                state.step(Q[t], K[t], V[t])
    out["called"] = ",".join(sorted(set(called)))
    return out
