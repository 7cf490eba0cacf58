"""Student-side halves of the official checks. Each probe builds the submission's LinearAttention
in float64, loads the weights it is given and reports what the code computes. No expected values
live here. Probes that run several times take numbered inputs (x0, x1, ...; weights with the same
suffix override the shared ones) and return numbered outputs."""
import numpy as np
import torch
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_flatten

WEIGHTS = ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo", "gamma_logit")


def _t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def _layer(Wq, bq, Wk, bk, Wv, bv, Wo, bo, gamma_logit):
    from g2c.linear_attention import LinearAttention

    D, H = Wq.shape[0], len(gamma_logit)
    layer = LinearAttention(D, H).double()
    with torch.no_grad():
        for name, W, b in (("q_proj", Wq, bq), ("k_proj", Wk, bk), ("v_proj", Wv, bv), ("out_proj", Wo, bo)):
            getattr(layer, name).weight.copy_(_t(W))
            getattr(layer, name).bias.copy_(_t(b))
        layer.gamma_logit.copy_(_t(gamma_logit))
    return layer


def _layer_for(kw, i):
    return _layer(**{name: kw.get(f"{name}{i}", kw.get(name)) for name in WEIGHTS})


def _steps(layer, x, state=None):
    ys = []
    for i in range(x.shape[1]):
        y_t, state = layer.step(x[:, i], state)
        ys.append(y_t)
    return torch.stack(ys, dim=1), state


def forward_runs(n, **kw):
    """forward on n inputs x{i}, each with the shared weights or its own."""
    with torch.no_grad():
        return {f"y{i}": _layer_for(kw, i)(_t(kw[f"x{i}"])) for i in range(n)}


def step_runs(n, **kw):
    """step token by token over x{i} (B, T, D), from the state (S{i}, z{i}) if given, else from None;
    returns every output and the state the last step returned."""
    out = {}
    with torch.no_grad():
        for i in range(n):
            state = (_t(kw[f"S{i}"]), _t(kw[f"z{i}"])) if f"S{i}" in kw else None
            y, state = _steps(_layer_for(kw, i), _t(kw[f"x{i}"]), state)
            out[f"y{i}"] = y
            out[f"S{i}"], out[f"z{i}"] = state
    return out


def la_grad(x, seed_weights, **weights):
    """Gradients of Σ seed_weights · forward(x) with respect to x and gamma_logit."""
    layer = _layer(**weights)
    xt = _t(x).requires_grad_(True)
    (layer(xt) * _t(seed_weights)).sum().backward()
    dgamma = layer.gamma_logit.grad
    return {"dx": xt.grad, "dgamma": torch.zeros_like(layer.gamma_logit) if dgamma is None else dgamma}


# ----------------------------------------------------------------------------- what a step costs

class _Meter(TorchFunctionMode):
    """Counts tensor operations and the largest tensor any of them returns."""

    def __init__(self):
        super().__init__()
        self.ops, self.largest = 0, 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.ops += 1
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor):
                self.largest = max(self.largest, t.untyped_storage().nbytes())
        return out


def _held_bytes(module):
    """Bytes of tensors a module keeps in plain attributes (parameters and buffers not counted)."""
    total, seen = 0, set()
    stack = [v for k, v in vars(module).items() if not k.startswith("_")]
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


def step_cost(x, early, late, watch_memory=False, **weights):
    """step after `early` and after `late` tokens: operations, largest tensor, bytes kept on the layer.
    (``watch_memory``: the driver also measures the whole run's memory from outside this process.)"""
    layer = _layer(**weights)
    xt = _t(x)
    state, out = None, {}
    with torch.no_grad():
        for t in range(late + 1):
            if t in (early, late):
                meter = _Meter()
                with meter:
                    _, state = layer.step(xt[:, t], state)
                tag = "early" if t == early else "late"
                out[f"ops_{tag}"], out[f"largest_{tag}"] = meter.ops, meter.largest
                out[f"held_{tag}"] = _held_bytes(layer)
            else:
                _, state = layer.step(xt[:, t], state)
    return out
