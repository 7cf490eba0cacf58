"""Probe every case's attention.py against a naive float64 per-token, per-head loop written here.

    OMP_NUM_THREADS=1 python ref_check.py [case ...]   > probe_results.txt

Columns (ok / FAIL / ERR): fwd (outputs, B=3 T=9 H=3, γ = .3/.8/1, random out_proj), grad (d x and every
parameter), step (outputs + final (S, z) from empty), step_S0 (from a given non-empty state), nomut (given state
left unmodified), causal (token 5 perturbed), long_f / long_s (T=300, γ = .05/.5/.97/1), long_g (finite dγ at
T=300), f32 (float32 layer in eval + no_grad: forward and step run, float32 outputs, within 1e-4 of float64).
"""
import importlib.util
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
HERE = Path(__file__).resolve().parent


def load(case):
    path = HERE / case / "g2c/linear_attention/attention.py"
    spec = importlib.util.spec_from_file_location(f"att_{case}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def phi(x):
    return F.elu(x) + 1


def ref_run(layer, x, S0=None, z0=None):
    """Naive loop: returns y (B, T, D), S (B, H, d, d), z (B, H, d). Differentiable."""
    B, T, D = x.shape
    H = layer.num_heads
    d = D // H
    gam = torch.sigmoid(layer.gamma_logit)
    ys = []
    S = [[(S0[b, h] if S0 is not None else torch.zeros(d, d)) for h in range(H)] for b in range(B)]
    z = [[(z0[b, h] if z0 is not None else torch.zeros(d)) for h in range(H)] for b in range(B)]
    for t in range(T):
        row = []
        for b in range(B):
            q = phi(layer.q_proj(x[b, t]))
            k = phi(layer.k_proj(x[b, t]))
            v = layer.v_proj(x[b, t])
            outs = []
            for h in range(H):
                sl = slice(h * d, (h + 1) * d)
                S[b][h] = gam[h] * S[b][h] + torch.outer(k[sl], v[sl])
                z[b][h] = gam[h] * z[b][h] + k[sl]
                outs.append((q[sl] @ S[b][h]) / (q[sl] @ z[b][h]))
            row.append(torch.cat(outs))
        ys.append(torch.stack(row))
    y = layer.out_proj(torch.stack(ys, dim=1))
    return y, torch.stack([torch.stack(s) for s in S]), torch.stack([torch.stack(s) for s in z])


def make(mod, D, H, gammas, seed):
    torch.manual_seed(seed)
    layer = mod.LinearAttention(D, H)
    with torch.no_grad():
        g = torch.tensor(gammas)
        layer.gamma_logit.copy_(torch.where(g >= 1, torch.tensor(50.0), torch.log(g) - torch.log1p(-g)))
    return layer


def steps(layer, x, state=None):
    ys = []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, 1), state


def close(a, b, tol=1e-9):
    a, b = torch.as_tensor(a), torch.as_tensor(b)
    return a.shape == b.shape and bool(torch.isfinite(a).all()) and torch.allclose(a, b, atol=tol, rtol=tol)


def probe(case):
    mod = load(case)
    res = {}

    def run(name, fn):
        try:
            res[name] = "ok" if fn() else "FAIL"
        except Exception as exc:  # noqa: BLE001
            res[name] = f"ERR({type(exc).__name__})"

    layer = make(mod, 12, 3, [0.3, 0.8, 1.0], 0)
    x = torch.randn(3, 9, 12)
    want, S_ref, z_ref = ref_run(layer, x)
    run("fwd", lambda: close(layer(x), want))

    def grad():
        xa = x.clone().requires_grad_(True)
        xb = x.clone().requires_grad_(True)
        w = torch.randn(3, 9, 12)
        ga = torch.autograd.grad((layer(xa) * w).sum(), [xa] + list(layer.parameters()), allow_unused=True)
        gb = torch.autograd.grad((ref_run(layer, xb)[0] * w).sum(), [xb] + list(layer.parameters()), allow_unused=True)
        return all(a is not None and close(a, b, 1e-8) for a, b in zip(ga, gb))
    run("grad", grad)

    def step_empty():
        y, st = steps(layer, x)
        return close(y, want) and close(st[0], S_ref) and close(st[1], z_ref)
    run("step", step_empty)

    S0 = torch.rand(3, 3, 4, 4)
    z0 = torch.rand(3, 3, 4) + 0.5
    S0c, z0c = S0.clone(), z0.clone()

    def step_given():
        w2, S2, z2 = ref_run(layer, x[:, :4], S0c, z0c)
        y, st = steps(layer, x[:, :4], (S0, z0))
        return close(y, w2) and close(st[0], S2) and close(st[1], z2)
    run("step_S0", step_given)
    res["nomut"] = "ok" if (torch.equal(S0, S0c) and torch.equal(z0, z0c)) else "FAIL"

    def causal():
        x2 = x.clone()
        x2[:, 5] += 1.0
        a, b = layer(x), layer(x2)
        return torch.allclose(a[:, :5], b[:, :5], atol=1e-12) and not torch.allclose(a[:, 5], b[:, 5])
    run("causal", causal)

    long_layer = make(mod, 16, 4, [0.05, 0.5, 0.97, 1.0], 7)
    xl = torch.randn(2, 300, 16)
    with torch.no_grad():
        wl = ref_run(long_layer, xl)[0]
    run("long_f", lambda: close(long_layer(xl), wl, 1e-8))
    run("long_s", lambda: close(steps(long_layer, xl)[0], wl, 1e-8))

    def long_g():
        long_layer.zero_grad()
        long_layer(xl).pow(2).mean().backward()
        return bool(torch.isfinite(long_layer.gamma_logit.grad).all())
    run("long_g", long_g)

    def f32():
        l32 = make(mod, 16, 4, [0.6, 0.9, 0.99, 0.999], 3)
        with torch.no_grad():
            ref = ref_run(l32, xl[:, :40])[0]
        l32 = l32.float().eval()
        x32 = xl[:, :40].float()
        with torch.no_grad():
            yf = l32(x32)
            ys, st = steps(l32, x32, l32.init_state(2))
        ok = yf.dtype == torch.float32 and ys.dtype == torch.float32
        return ok and torch.allclose(yf.double(), ref, atol=1e-4) and torch.allclose(ys.double(), ref, atol=1e-4)
    run("f32", f32)
    return res


def main():
    cases = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / "g2c").is_dir())
    cols = ["fwd", "grad", "step", "step_S0", "nomut", "causal", "long_f", "long_s", "long_g", "f32"]
    print(f"{'case':42s} " + " ".join(f"{c:>8s}" for c in cols))
    for case in cases:
        try:
            r = probe(case)
            print(f"{case:42s} " + " ".join(f"{r.get(c, '-'):>8s}" for c in cols), flush=True)
        except Exception as exc:  # noqa: BLE001
            print(f"{case:42s} probe failed: {type(exc).__name__}: {str(exc)[:80]}", flush=True)


if __name__ == "__main__":
    main()
