"""Independent float64 probe of every case's LinearAttention (loops reference; no grader code).

    python check_cases.py [names...]   -> prints one line per case, writes probe_results.txt
"""
from __future__ import annotations

import importlib.util
import sys
import time
import traceback
from pathlib import Path

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
HERE = Path(__file__).resolve().parent
torch.set_default_dtype(torch.float64)


def load(case):
    path = HERE / case / "g2c/linear_attention/attention.py"
    spec = importlib.util.spec_from_file_location(f"att_{case}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def make(mod, D, H, gammas, seed):
    torch.manual_seed(seed)
    layer = mod.LinearAttention(D, H).double()
    with torch.no_grad():
        g = torch.tensor(gammas, dtype=torch.float64)
        logit = torch.where(g >= 1, torch.tensor(40.0), torch.log(g) - torch.log1p(-g.clamp(max=1 - 1e-15)))
        layer.gamma_logit.copy_(logit)
    return layer


def phi(t):
    return torch.where(t > 0, t + 1, torch.exp(t))  # elu + 1, written independently


def reference(layer, x):
    """Loops: y[b, t, h] = Σ_{i≤t} γ^(t-i) s_ti v_i / Σ γ^(t-i) s_ti; also the final (S, z)."""
    B, T, D = x.shape
    H = layer.num_heads
    d = D // H
    Wq, bq = layer.q_proj.weight, layer.q_proj.bias
    Wk, bk = layer.k_proj.weight, layer.k_proj.bias
    Wv, bv = layer.v_proj.weight, layer.v_proj.bias
    gam = 1 / (1 + torch.exp(-layer.gamma_logit))
    q = phi(x @ Wq.T + bq)
    k = phi(x @ Wk.T + bk)
    v = x @ Wv.T + bv
    out = []
    S_fin = []
    z_fin = []
    for b in range(B):
        rows = []
        Sb, zb = [], []
        for t in range(T):
            heads = []
            for h in range(H):
                sl = slice(h * d, (h + 1) * d)
                ages = torch.arange(t, -1, -1, dtype=torch.float64)  # t - i for i = 0..t
                w = gam[h] ** ages
                s = (k[b, : t + 1, sl] @ q[b, t, sl]) * w
                heads.append((s[:, None] * v[b, : t + 1, sl]).sum(0) / s.sum())
                if t == T - 1:
                    Sb.append(((w[:, None, None]) * k[b, :, sl][:, :, None] * v[b, :, sl][:, None, :]).sum(0))
                    zb.append((w[:, None] * k[b, :, sl]).sum(0))
            rows.append(torch.cat(heads))
        out.append(torch.stack(rows))
        S_fin.append(torch.stack(Sb))
        z_fin.append(torch.stack(zb))
    y = torch.stack(out) @ layer.out_proj.weight.T + layer.out_proj.bias
    return y, (torch.stack(S_fin), torch.stack(z_fin))


def run_steps(layer, x, state=None):
    ys = []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, 1), state


def rel(a, b):
    a, b = a.detach(), b.detach()
    if a.shape != b.shape:
        return float("inf")
    return float(((a - b).abs() / (1e-12 + b.abs().max())).nan_to_num(float("inf")).max())


def guard(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001
        return f"ERR:{type(exc).__name__}"


CONFIGS = [(1, 6, 4, 1, [0.7]), (3, 9, 12, 3, [0.3, 0.9, 1.0]), (2, 21, 16, 4, [0.8, 0.99, 0.5, 0.05])]


def probe(case):
    mod = load(case)
    r = {}
    fe, se, st = [], [], []
    for seed, (B, T, D, H, g) in enumerate(CONFIGS):
        layer = make(mod, D, H, g, seed)
        x = torch.randn(B, T, D)
        want, (S, z) = reference(layer, x)
        fe.append(guard(lambda: rel(layer(x), want)))

        def stp():
            got, (S2, z2) = run_steps(layer, x)
            return rel(got, want), max(rel(S2, S), rel(z2, z))
        o = guard(stp)
        se.append(o if isinstance(o, str) else o[0])
        st.append(o if isinstance(o, str) else o[1])
    r["fwd"] = fe
    r["step"] = se
    r["state"] = st
    # gradients (config 3)
    B, T, D, H, g = CONFIGS[2]
    layer = make(mod, D, H, g, 5)
    x = torch.randn(B, T, D)
    wts = torch.randn(B, T, D)

    def grads():
        xs = x.clone().requires_grad_(True)
        (layer(xs) * wts).sum().backward()
        got = (xs.grad.clone(), layer.gamma_logit.grad.clone(), layer.q_proj.weight.grad.clone())
        layer.zero_grad()
        xr = x.clone().requires_grad_(True)
        (reference(layer, xr)[0] * wts).sum().backward()
        want = (xr.grad, layer.gamma_logit.grad, layer.q_proj.weight.grad)
        layer.zero_grad()
        return max(rel(a, b) for a, b in zip(got, want))
    r["grad"] = guard(grads)

    # causality: perturb token 10 -> outputs 0..9 must not move (forward)
    def causal():
        x2 = x.clone()
        x2[:, 10] += 1.0
        with torch.no_grad():
            return rel(layer(x2)[:, :10], layer(x)[:, :10])
    r["causal_leak"] = guard(causal)

    # batch isolation: perturb sequence 1 only, sequence 0 must not move (forward and step)
    def batch():
        x2 = x.clone()
        x2[1] += 1.0
        with torch.no_grad():
            f = rel(layer(x2)[0], layer(x)[0])
            s = rel(run_steps(layer, x2)[0][0], run_steps(layer, x)[0][0])
        return f, s
    r["batch_leak"] = guard(batch)

    # state: not mutated; carried when handed in after the layer has served another sequence
    def mutation():
        with torch.no_grad():
            _, state = run_steps(layer, x[:, :5])
            keep = tuple(s.clone() for s in state)
            layer.step(x[:, 5], state)
            return max(rel(a, b) for a, b in zip(state, keep))
    r["mutated"] = guard(mutation)

    def carried():
        with torch.no_grad():
            want, _ = reference(layer, x)
            _, state = run_steps(layer, x[:, :8])
            run_steps(layer, torch.randn(B, 4, D))  # another sequence in between
            got, _ = run_steps(layer, x[:, 8:], state)
            return rel(got, want[:, 8:])
    r["carried"] = guard(carried)

    # long sequence
    def long():
        lay = make(mod, 16, 4, [0.05, 0.5, 0.97, 1.0], 7)
        xl = torch.randn(2, 300, 16)
        with torch.no_grad():
            want, _ = reference(lay, xl)
            return rel(lay(xl), want), rel(run_steps(lay, xl)[0], want)
    r["long"] = guard(long)

    # float32 runs (training dtype)
    def f32():
        lay = mod.LinearAttention(16, 4).float()
        x32 = torch.randn(2, 64, 16, dtype=torch.float32)
        y = lay(x32)
        y2, st = run_steps(lay, x32)
        return f"{y.dtype}/{y2.dtype}/{st[0].dtype} d={float((y - y2).abs().max()):.1e}"
    r["f32"] = guard(f32)

    # cost: time per step after 64 vs after 1024 tokens; tensors kept on the module
    def cost():
        lay = make(mod, 16, 4, [0.9] * 4, 1)
        xs = torch.randn(1, 1100, 16)
        times = {}
        state = None
        with torch.no_grad():
            for t in range(1100):
                t0 = time.perf_counter()
                _, state = lay.step(xs[:, t], state)
                dt = time.perf_counter() - t0
                times.setdefault(t // 64, []).append(dt)
        early = sorted(times[1])[len(times[1]) // 2]
        late = sorted(times[16])[len(times[16]) // 2]
        kept = sum(v.numel() for v in _tensors(lay.__dict__))
        return f"x{late / early:.1f} kept={kept}"
    r["cost"] = guard(cost)
    return r


def _tensors(obj, depth=0):
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, dict) and depth < 3:
        for k, v in obj.items():
            if k not in ("_parameters", "_buffers", "_modules"):
                yield from _tensors(v, depth + 1)
    elif isinstance(obj, (list, tuple)) and depth < 3:
        for v in obj:
            yield from _tensors(v, depth + 1)


def fmt(v):
    if isinstance(v, float):
        return f"{v:.1e}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(fmt(a) for a in v) + "]"
    return str(v)


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / "g2c").is_dir())
    lines = []
    for name in names:
        try:
            res = probe(name)
            line = f"{name}: " + " ".join(f"{k}={fmt(v)}" for k, v in res.items())
        except Exception:
            line = f"{name}: PROBE FAILED {traceback.format_exc(limit=1)}"
        print(line, flush=True)
        lines.append(line)
    if not sys.argv[1:]:
        (HERE / "probe_results.txt").write_text("\n".join(lines) + "\n")
