"""Probe one case folder in process (run with cwd = the case folder). Prints one JSON line.

Compares LinearAttention.forward / .step against an independent looped float64 reference built from the
layer's own parameters, on several shapes, plus causality, state handling, gradients, a float32
notebook-sized model and step timing. Never imports anything outside the case folder but torch.
"""
import json
import math
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, ".")
torch.set_default_dtype(torch.float64)
from g2c.linear_attention import HybridTransformerLM, LinearAttention  # noqa: E402


def make(D, H, gammas, seed=0):
    torch.manual_seed(seed)
    layer = LinearAttention(D, H)
    with torch.no_grad():
        g = torch.tensor(gammas, dtype=torch.float64).clamp(max=1 - 1e-16)
        layer.gamma_logit.copy_(torch.where(g >= 1 - 1e-16, torch.tensor(50.0), torch.log(g) - torch.log1p(-g)))
    return layer


def reference(layer, x, S0=None, z0=None):
    """Looped recurrence from the parameters: returns y (B, T, D), S, z."""
    B, T, D = x.shape
    H, d = layer.num_heads, layer.head_dim
    phi = lambda a: F.elu(a) + 1
    q = phi(F.linear(x, layer.q_proj.weight, layer.q_proj.bias)).view(B, T, H, d)
    k = phi(F.linear(x, layer.k_proj.weight, layer.k_proj.bias)).view(B, T, H, d)
    v = F.linear(x, layer.v_proj.weight, layer.v_proj.bias).view(B, T, H, d)
    g = torch.sigmoid(layer.gamma_logit)
    S = torch.zeros(B, H, d, d) if S0 is None else S0.clone()
    z = torch.zeros(B, H, d) if z0 is None else z0.clone()
    ys = []
    for t in range(T):
        S = g[None, :, None, None] * S + k[:, t, :, :, None] * v[:, t, :, None, :]
        z = g[None, :, None] * z + k[:, t]
        ys.append(torch.einsum("bhd,bhde->bhe", q[:, t], S) / (q[:, t] * z).sum(-1, keepdim=True))
    y = torch.stack(ys, 1).reshape(B, T, D)
    return F.linear(y, layer.out_proj.weight, layer.out_proj.bias), S, z


def rel(a, b):
    try:
        a = a.detach().to(torch.float64)
        b = b.detach().to(torch.float64)
        if a.shape != b.shape:
            return f"shape {tuple(a.shape)} vs {tuple(b.shape)}"
        if not torch.isfinite(a).all():
            return "nonfinite"
        return float((a - b).abs().max() / b.abs().max().clamp_min(1e-300))
    except Exception as e:  # noqa: BLE001
        return f"err {type(e).__name__}"


def guard(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return f"raises {type(e).__name__}: {str(e)[:60]}"


def run_steps(layer, x, state=None):
    ys = []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, 1), state


CONFIGS = {
    "std": (2, 9, 8, 2, [0.6, 0.9]),
    "B1": (1, 9, 8, 2, [0.6, 0.9]),
    "T1": (2, 1, 8, 2, [0.6, 0.9]),
    "H1": (2, 9, 6, 1, [0.8]),
    "dh1": (2, 9, 4, 4, [0.5, 0.7, 0.9, 0.99]),
    "H3g1": (3, 11, 12, 3, [0.3, 0.95, 1.0]),
    "long": (2, 300, 16, 4, [0.05, 0.5, 0.97, 1.0]),
}

out = {}
for name, (B, T, D, H, gam) in CONFIGS.items():
    layer = make(D, H, gam, seed=len(name))
    torch.manual_seed(100 + len(name))
    x = torch.randn(B, T, D)
    want, S_ref, z_ref = reference(layer, x)
    out[f"fwd_{name}"] = guard(lambda: rel(layer(x), want))

    def stepcheck():
        ys, (S, z) = run_steps(layer, x)
        return [rel(ys, want), rel(S, S_ref), rel(z, z_ref)]

    out[f"step_{name}"] = guard(stepcheck)

    if name in ("std", "long"):
        def gradcheck():
            res = {}
            for p in layer.parameters():
                p.grad = None
            xg = x.clone().requires_grad_(True)
            w = torch.randn(B, T, D, generator=torch.Generator().manual_seed(5))
            (layer(xg) * w).sum().backward()
            got = {"x": xg.grad, "gamma": layer.gamma_logit.grad, "Wq": layer.q_proj.weight.grad,
                   "Wk": layer.k_proj.weight.grad}
            for p in layer.parameters():
                p.grad = None
            xr = x.clone().requires_grad_(True)
            (reference(layer, xr)[0] * w).sum().backward()
            ref = {"x": xr.grad, "gamma": layer.gamma_logit.grad, "Wq": layer.q_proj.weight.grad,
                   "Wk": layer.k_proj.weight.grad}
            for k_ in got:
                res[k_] = "None" if got[k_] is None else rel(got[k_], ref[k_])
            return res

        out[f"grad_{name}"] = guard(gradcheck)

# causality leak (forward)
layer = make(8, 2, [0.9, 1.0], seed=3)
x = torch.randn(2, 10, 8)
def leak():
    x2 = x.clone()
    x2[:, 6] += 1.0
    return float((layer(x)[:, :6] - layer(x2)[:, :6]).abs().max())
out["fwd_leak"] = guard(leak)

# non-contiguous input
xt = torch.randn(2, 8, 9).transpose(1, 2)  # (2, 9, 8) non-contiguous
want = reference(make(8, 2, [0.6, 0.9]), xt.contiguous())[0]
out["fwd_noncontig"] = guard(lambda: rel(make(8, 2, [0.6, 0.9])(xt), want))

# state handling: continue from a given state, mutation, zero state vs None
layer = make(8, 2, [0.6, 0.9], seed=9)
x = torch.randn(2, 6, 8)
S0 = torch.rand(2, 2, 4, 4)
z0 = torch.rand(2, 2, 4) + 0.5
want, S_ref, z_ref = reference(layer, x, S0, z0)
def cont():
    S_in, z_in = S0.clone(), z0.clone()
    ys, (S, z) = run_steps(layer, x, (S_in, z_in))
    return {"y": rel(ys, want), "S": rel(S, S_ref), "mutated": float(max((S_in - S0).abs().max(), (z_in - z0).abs().max()))}
out["step_continue"] = guard(cont)
def zero_vs_none():
    a, _ = run_steps(layer, x, None)
    b, _ = run_steps(layer, x, layer.init_state(2, dtype=torch.float64))
    return rel(b, a)
out["step_zero_vs_none"] = guard(zero_vs_none)
def branch():  # two continuations from one state
    _, st = run_steps(layer, x[:, :3])
    ya, _ = run_steps(layer, x[:, 3:], st)
    yb, _ = run_steps(layer, x[:, 3:] * 0.5, st)
    ya2, _ = run_steps(layer, x[:, 3:], st)
    return rel(ya2, ya)
out["step_branch_repeat"] = guard(branch)

# float32 notebook-sized models
def nb_model(D, H, T, pattern, vocab=60):
    torch.manual_seed(0)
    lm = HybridTransformerLM(vocab, D, H, pattern, T).float()
    idx = torch.randint(0, vocab, (4, T), generator=torch.Generator().manual_seed(0))
    loss = lm.loss(idx[:, :-1], idx[:, 1:])
    loss.backward()
    gfin = all(torch.isfinite(p.grad).all() for p in lm.parameters() if p.grad is not None)
    with torch.no_grad():
        toks, logits = lm.generate(idx[:1, :3], 20, greedy=True, return_logits=True)
        gap = float((logits - lm(toks[:, :-1])).abs().max())
    return {"loss": round(float(loss), 4), "grads_finite": bool(gfin), "gen_gap": gap}
old = torch.get_default_dtype()
torch.set_default_dtype(torch.float32)
out["nb_ex2"] = guard(lambda: nb_model(64, 4, 128, ["linear"] * 4))
out["nb_ex3"] = guard(lambda: nb_model(32, 8, 48, ["linear", "linear", "linear", "full"]))
torch.set_default_dtype(old)

# step cost: time per step at t ~ 128 and t ~ 2048, B = 1, D = 32, H = 4
def cost():
    layer = make(32, 4, [0.5, 0.9, 0.99, 1.0]).eval()
    xs = torch.randn(2048, 1, 32)
    times, st = {}, None
    with torch.no_grad():
        for t in range(2048):
            t0 = time.perf_counter()
            _, st = layer.step(xs[t], st)
            dt = time.perf_counter() - t0
            times.setdefault(t // 128, []).append(dt)
    med = lambda v: sorted(v)[len(v) // 2]
    held = sum(v.numel() for v in layer.__dict__.values() if isinstance(v, torch.Tensor))
    for v in layer.__dict__.values():
        if isinstance(v, (list, tuple)):
            held += sum(e.numel() for e in v if isinstance(e, torch.Tensor))
    return {"ratio": round(med(times[15]) / med(times[1]), 2), "held": held}
out["cost"] = guard(cost)
print(json.dumps(out))
