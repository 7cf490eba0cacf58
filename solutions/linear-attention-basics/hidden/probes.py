"""Student-side halves of the official checks: call the submission, return plain results.

Each probe runs in the sandbox beside the student's code. It holds no expected values:
inputs come in (numpy float64 arrays, Python scalars and strings), tensors go out.
"""
import numpy as np
import torch


def _t(a, dtype=torch.float64):
    return torch.from_numpy(np.ascontiguousarray(a)).to(dtype)


def _gamma(gamma, dtype=torch.float64):
    return _t(gamma, dtype) if isinstance(gamma, np.ndarray) else float(gamma)


def _linear(la, form, Q, K, V):
    if form == "parallel":
        return la.linear_attention_parallel(Q, K, V)
    if form == "recurrent":
        return la.linear_attention_recurrent(Q, K, V)
    state = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([state.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


def _retention(la, form, Q, K, V, gamma, chunk_size):
    if form == "parallel":
        return la.retention_parallel(Q, K, V, gamma)
    if form == "recurrent":
        return la.retention_recurrent(Q, K, V, gamma)
    return la.retention_chunkwise(Q, K, V, gamma, chunk_size)


def linear(form, Q, K, V):
    """form: 'parallel', 'recurrent' or 'step' (LinearAttentionState, one token at a time)."""
    import linear_attention as la
    return {"y": _linear(la, form, _t(Q), _t(K), _t(V))}


def linear_perturbed(form, Q, K, V, Q2, K2, V2):
    """The same form on two inputs that differ only from some position on."""
    import linear_attention as la
    return {"y": _linear(la, form, _t(Q), _t(K), _t(V)), "y2": _linear(la, form, _t(Q2), _t(K2), _t(V2))}


def feature(x):
    import linear_attention as la
    return {"phi": la.feature_map(_t(x))}


def retention(form, Q, K, V, gamma, chunk_size=0):
    """form: 'parallel', 'recurrent' or 'chunkwise'."""
    import linear_attention as la
    return {"y": _retention(la, form, _t(Q), _t(K), _t(V), _gamma(gamma), chunk_size)}


def retention_perturbed(form, Q, K, V, Q2, K2, V2, gamma, chunk_size=0):
    import linear_attention as la
    g = _gamma(gamma)
    return {"y": _retention(la, form, _t(Q), _t(K), _t(V), g, chunk_size),
            "y2": _retention(la, form, _t(Q2), _t(K2), _t(V2), g, chunk_size)}


def retention_state(Q, K, V, gamma, chunk_size):
    import linear_attention as la
    y, R = la.retention_chunkwise(_t(Q), _t(K), _t(V), _gamma(gamma), chunk_size, return_state=True)
    return {"y": y, "R": R}


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


def unified(mode, Q, K, V, gamma=None, gate=None):
    import linear_attention as la
    g = None if gamma is None else _gamma(gamma)
    a = None if gate is None else _t(gate)
    return {"y": la.unified_recurrence(_t(Q), _t(K), _t(V), mode, gamma=g, gate=a)}


def multiscale(num_heads):
    import linear_attention as la
    return {"gamma": la.multiscale_decays(num_heads)}


def dtypes(Q, K, V, gamma, chunk_size):
    """Every form on float32 inputs: the dtypes that come out, and the outputs."""
    import linear_attention as la
    q, k, v = _t(Q, torch.float32), _t(K, torch.float32), _t(V, torch.float32)
    outs = {f"linear_{form}": _linear(la, form, q, k, v) for form in ("parallel", "recurrent", "step")}
    for form in ("parallel", "recurrent", "chunkwise"):
        outs[f"retention_{form}"] = _retention(la, form, q, k, v, float(gamma), chunk_size)
    outs["unified_gated"] = la.unified_recurrence(q, k, v, "gated", gate=torch.full((q.shape[-2],), 0.8))
    result = {name: y.to(torch.float64) if isinstance(y, torch.Tensor) else y for name, y in outs.items()}
    result["dtypes"] = ",".join(str(getattr(y, "dtype", type(y).__name__)) for y in outs.values())
    return result
