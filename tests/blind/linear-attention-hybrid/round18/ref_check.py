"""Float64 probes of every case's attention.py against a naive reference written here (not the kit's code).

    OMP_NUM_THREADS=1 python ref_check.py > probe_results.txt      # all case folders
    python ref_check.py base alt_fwd_batch_loop                     # some

The reference loops over tokens and computes, per batch element and head, S_t = γS_{t-1} + φ(k_t)v_tᵀ,
z_t = γz_{t-1} + φ(k_t), y_t = φ(q_t)ᵀS_t / φ(q_t)ᵀz_t with the layer's own projections (so it is
differentiable). Columns (max abs differences unless said otherwise; '-' = raised):
  fwd      forward vs reference, B=3 T=13 D=12 H=3, γ = (0.3, 0.9, 1.0), random out_proj
  grad     gradients of <forward, R> wrt x and every parameter vs the reference's
  gradS    gradients of <step outputs over 6 tokens, R> wrt every parameter vs the reference's
  step     step outputs (from state=None) vs reference;  state: final (S, z) vs reference
  g1       forward at γ = 1 (all heads) vs reference
  longF    forward, T=300, γ = (0.05, 0.5, 0.97, 1.0);  longS: step on the same
  batch    forward/step of the batch vs each sequence alone (max of both)
  causal   change in outputs 0..5 of forward when tokens 6.. change; causalG: |grad| of y_5 wrt x_6..
  mut      1 when step changed the state tensors passed in
  fresh    |step(x, None) on a used layer - on a fresh one|
  cost     time of one step after 4000 tokens / after 8 tokens (history carried through step)
  f32      forward float32 vs float64 reference (relative)
"""
from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
ATT = "g2c/linear_attention/attention.py"
torch.set_num_threads(1)


def load(case):
    spec = importlib.util.spec_from_file_location(f"att_{case}", HERE / case / ATT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def make(mod, D, H, gammas, seed, dtype=torch.float64):
    torch.manual_seed(seed)
    layer = mod.LinearAttention(D, H).to(dtype)
    with torch.no_grad():
        g = torch.tensor(gammas, dtype=torch.float64)
        logit = torch.where(g >= 1, torch.tensor(50.0, dtype=torch.float64), torch.log(g) - torch.log1p(-g))
        layer.gamma_logit.copy_(logit.to(dtype))
    return layer


def reference(layer, x):
    """Naive recurrence, token by token; returns y (B, T, D) and the final (S, z)."""
    B, T, D = x.shape
    H = layer.num_heads
    d = D // H
    phi = lambda u: F.elu(u) + 1  # noqa: E731
    q = phi(layer.q_proj(x)).view(B, T, H, d)
    k = phi(layer.k_proj(x)).view(B, T, H, d)
    v = layer.v_proj(x).view(B, T, H, d)
    g = torch.sigmoid(layer.gamma_logit).view(1, H, 1, 1)
    S = x.new_zeros(B, H, d, d)
    z = x.new_zeros(B, H, d)
    ys = []
    for t in range(T):
        S = g * S + k[:, t, :, :, None] * v[:, t, :, None, :]
        z = g[..., 0] * z + k[:, t]
        num = (q[:, t, :, :, None] * S).sum(-2)
        den = (q[:, t] * z).sum(-1, keepdim=True)
        ys.append((num / den).reshape(B, D))
    return layer.out_proj(torch.stack(ys, 1)), (S, z)


def run_steps(layer, x, state=None):
    ys = []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, 1), state


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return f"{v:.1e}"


def safe(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001
        return "ERR:" + type(exc).__name__


def probe(case):
    mod = load(case)
    r = {}
    torch.manual_seed(1)
    x = torch.randn(3, 13, 12, dtype=torch.float64)

    def fwd():
        layer = make(mod, 12, 3, [0.3, 0.9, 1.0], 0)
        with torch.no_grad():
            ref, _ = reference(layer, x)
            return float((layer(x) - ref).abs().max())
    r["fwd"] = safe(fwd)

    def grad():
        layer = make(mod, 12, 3, [0.3, 0.9, 0.97], 0)
        R = torch.randn(3, 13, 12, dtype=torch.float64, generator=torch.Generator().manual_seed(5))
        params = [x] + list(layer.parameters())
        xx = x.clone().requires_grad_(True)
        g1 = torch.autograd.grad((layer(xx) * R).sum(), [xx] + list(layer.parameters()), allow_unused=True)
        g2 = torch.autograd.grad((reference(layer, xx)[0] * R).sum(), [xx] + list(layer.parameters()))
        del params
        return max(float((a - b).abs().max()) if a is not None else float("inf") for a, b in zip(g1, g2))
    r["grad"] = safe(grad)

    def grad_step():
        layer = make(mod, 12, 3, [0.3, 0.9, 0.97], 0)
        R = torch.randn(3, 6, 12, dtype=torch.float64, generator=torch.Generator().manual_seed(6))
        ps = list(layer.parameters())
        g1 = torch.autograd.grad((run_steps(layer, x[:, :6])[0] * R).sum(), ps, allow_unused=True)
        g2 = torch.autograd.grad((reference(layer, x[:, :6])[0] * R).sum(), ps)
        return max(float((a - b).abs().max()) if a is not None else float("inf") for a, b in zip(g1, g2))
    r["gradS"] = safe(grad_step)

    def step():
        layer = make(mod, 12, 3, [0.3, 0.9, 1.0], 0)
        with torch.no_grad():
            ref, (S, z) = reference(layer, x)
            ys, st = run_steps(layer, x)
            r["state"] = max(float((st[0] - S).abs().max()), float((st[1] - z).abs().max()))
            return float((ys - ref).abs().max())
    r["step"] = safe(step)
    r.setdefault("state", "-")

    def g1():
        layer = make(mod, 12, 3, [1.0, 1.0, 1.0], 2)
        with torch.no_grad():
            return float((layer(x) - reference(layer, x)[0]).abs().max())
    r["g1"] = safe(g1)

    xl = torch.randn(2, 300, 16, dtype=torch.float64, generator=torch.Generator().manual_seed(3))

    def longf():
        layer = make(mod, 16, 4, [0.05, 0.5, 0.97, 1.0], 7)
        with torch.no_grad():
            ref, _ = reference(layer, xl)
            r["longS"] = safe(lambda: float((run_steps(make(mod, 16, 4, [0.05, 0.5, 0.97, 1.0], 7), xl)[0] - ref)
                                            .abs().max()))
            return float((layer(xl) - ref).abs().max())
    r["longF"] = safe(longf)
    r.setdefault("longS", "-")

    def batch():
        layer = make(mod, 12, 3, [0.3, 0.9, 1.0], 0)
        with torch.no_grad():
            yf = layer(x)
            e = max(float((yf[b:b + 1] - layer(x[b:b + 1])).abs().max()) for b in range(3))
            ys, _ = run_steps(make(mod, 12, 3, [0.3, 0.9, 1.0], 0), x)
            for b in range(3):
                yb, _ = run_steps(make(mod, 12, 3, [0.3, 0.9, 1.0], 0), x[b:b + 1])
                e = max(e, float((ys[b:b + 1] - yb).abs().max()))
            return e
    r["batch"] = safe(batch)

    def causal():
        layer = make(mod, 12, 3, [0.3, 0.9, 1.0], 0)
        x2 = x.clone()
        x2[:, 6:] += torch.randn(3, 7, 12, dtype=torch.float64)
        with torch.no_grad():
            return float((layer(x)[:, :6] - layer(x2)[:, :6]).abs().max())
    r["causal"] = safe(causal)

    def causal_g():
        layer = make(mod, 12, 3, [0.3, 0.9, 1.0], 0)
        xx = x.clone().requires_grad_(True)
        layer(xx)[:, 5].sum().backward()
        return float(xx.grad[:, 6:].abs().max())
    r["causalG"] = safe(causal_g)

    def mut():
        layer = make(mod, 12, 3, [0.3, 0.9, 1.0], 0)
        with torch.no_grad():
            _, st = run_steps(layer, x[:, :5])
            keep = (st[0].clone(), st[1].clone())
            layer.step(x[:, 5], st)
            return str(int(not (torch.equal(keep[0], st[0]) and torch.equal(keep[1], st[1]))))
    r["mut"] = safe(mut)

    def fresh():
        layer = make(mod, 12, 3, [0.3, 0.9, 1.0], 0)
        with torch.no_grad():
            run_steps(layer, x[:, :5])
            a, _ = layer.step(x[:, 7], None)
            b, _ = make(mod, 12, 3, [0.3, 0.9, 1.0], 0).step(x[:, 7], None)
            return float((a - b).abs().max())
    r["fresh"] = safe(fresh)

    def cost():
        layer = make(mod, 64, 4, [0.9, 0.95, 0.99, 1.0], 0)
        xs = torch.randn(1, 4001, 64, dtype=torch.float64, generator=torch.Generator().manual_seed(9))

        def timed(n):
            with torch.no_grad():
                _, st = run_steps(layer, xs[:, :n])
                ts = []
                for _ in range(15):
                    t0 = time.perf_counter()
                    layer.step(xs[:, n], st)
                    ts.append(time.perf_counter() - t0)
                return sorted(ts)[7]
        return f"{timed(4000) / timed(8):.1f}"
    r["cost"] = safe(cost)

    def f32():
        l64 = make(mod, 12, 3, [0.3, 0.9, 1.0], 0)
        l32 = make(mod, 12, 3, [0.3, 0.9, 1.0], 0, dtype=torch.float32)
        with torch.no_grad():
            ref, _ = reference(l64, x)
            return float(((l32(x.float()).double() - ref).abs().max() / ref.abs().max()))
    r["f32"] = safe(f32)
    return r


COLS = ["fwd", "grad", "gradS", "step", "state", "g1", "longF", "longS", "batch", "causal", "causalG", "mut", "fresh", "cost",
        "f32"]

if __name__ == "__main__":
    cases = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / ATT).is_file())
    print(f"{'case':44s} " + " ".join(f"{c:>8s}" for c in COLS))
    for case in cases:
        r = probe(case)
        print(f"{case:44s} " + " ".join(f"{fmt(r.get(c)):>8s}" for c in COLS), flush=True)
