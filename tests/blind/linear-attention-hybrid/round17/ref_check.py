"""Float64 probes of every case's attention.py against a naive reference written here (not the grader's).

    python ref_check.py > probe_results.txt

Each case's attention.py is loaded on its own (importlib, no package import). Layers get random projections,
a random (non-identity) out_proj and decays set through gamma_logit (γ = 1 as logit 50). Columns (ok / FAIL,
'err' when it raised):
  fwd      forward vs reference, B=2, T=13, D=12, H=3, γ = [0.6, 0.9, 1.0]
  fwd11    the same with B=1, H=1 (D=4, γ = 0.8)
  grad     gradients of <forward(x), r> w.r.t. every parameter and x vs the reference's
  step     step from state=None, token by token, vs reference (outputs), same layer as fwd
  state    the final (S, z) returned by step vs Σ γ^(T-1-i) φ(k_i)v_iᵀ, Σ γ^(T-1-i) φ(k_i)
  step0    step from an explicit zero state (not init_state), outputs vs reference
  step11   step with B=1, H=1
  causal   forward: changing token 5 changes no output before 5
  batch    forward and step: sequence 0 alone equals sequence 0 inside a batch of 3
  long     T=300, γ = [0.05, 0.5, 0.97, 1.0]: forward vs reference, step vs reference, finite gradient of forward
  carry    step given a mid-sequence state (from the reference) continues the reference; the given tensors unchanged
  init     init_state gives zeros of the documented shapes
  f32      float32 layer: forward and step (eval, no_grad) agree to 1e-4, and a train-mode backward runs
"""
import importlib.util
import sys

sys.dont_write_bytecode = True  # no __pycache__ inside the corpus
from pathlib import Path

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
HERE = Path(__file__).resolve().parent
ATT = "g2c/linear_attention/attention.py"


def load(case):
    spec = importlib.util.spec_from_file_location(f"att_{case}", HERE / case / ATT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def make(mod, D, H, gammas, seed, dtype=torch.float64):
    torch.manual_seed(seed)
    layer = mod.LinearAttention(D, H).to(dtype)
    with torch.no_grad():
        for p in layer.parameters():
            p.copy_(torch.randn_like(p) * 0.5)
        g = torch.tensor(gammas, dtype=torch.float64)
        logit = torch.where(g >= 1.0, torch.tensor(50.0, dtype=torch.float64), torch.log(g) - torch.log1p(-g))
        layer.gamma_logit.copy_(logit.to(dtype))
    return layer


def ref_parts(layer, x):
    B, T, D = x.shape
    H = layer.num_heads
    d = D // H
    phi = lambda t: F.elu(t) + 1  # noqa: E731
    q = phi(F.linear(x, layer.q_proj.weight, layer.q_proj.bias)).reshape(B, T, H, d)
    k = phi(F.linear(x, layer.k_proj.weight, layer.k_proj.bias)).reshape(B, T, H, d)
    v = F.linear(x, layer.v_proj.weight, layer.v_proj.bias).reshape(B, T, H, d)
    gamma = torch.sigmoid(layer.gamma_logit)
    return q, k, v, gamma


def reference(layer, x):
    """Naive loops over t and heads: y_t = Σ γ^(t-i)(q_t·k_i)v_i / Σ γ^(t-i) q_t·k_i, then out_proj."""
    B, T, D = x.shape
    H = layer.num_heads
    q, k, v, gamma = ref_parts(layer, x)
    rows = []
    for t in range(T):
        heads = []
        for h in range(H):
            lags = torch.arange(t, -1, -1, dtype=x.dtype)  # t - i for i = 0..t
            w = gamma[h] ** lags  # (t+1,)
            s = (q[:, t, h, None, :] * k[:, :t + 1, h, :]).sum(-1) * w  # (B, t+1)
            heads.append((s[:, :, None] * v[:, :t + 1, h, :]).sum(1) / s.sum(1, keepdim=True))
        rows.append(torch.cat(heads, dim=-1))
    y = torch.stack(rows, dim=1)
    return F.linear(y, layer.out_proj.weight, layer.out_proj.bias)


def ref_state(layer, x):
    B, T, D = x.shape
    q, k, v, gamma = ref_parts(layer, x)
    w = gamma[None, :] ** torch.arange(T - 1, -1, -1, dtype=x.dtype)[:, None]  # (T, H)
    S = torch.einsum("th,bthi,bthj->bhij", w, k, v)
    z = torch.einsum("th,bthi->bhi", w, k)
    return S, z


def steps(layer, x, state=None):
    ys = []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, dim=1), state


def close(a, b, atol=1e-9, rtol=1e-7):
    return a.shape == b.shape and bool(torch.isfinite(a).all()) and bool(((a - b).abs() <= atol + rtol * b.abs()).all())


def probe(fn):
    try:
        return "ok" if fn() else "FAIL"
    except Exception:  # noqa: BLE001
        return "err"


def run_case(case):
    mod = load(case)
    L = lambda: make(mod, 12, 3, [0.6, 0.9, 1.0], 0)  # noqa: E731
    torch.manual_seed(1)
    x = torch.randn(2, 13, 12, dtype=torch.float64)
    out = {}

    def fwd():
        layer = L()
        with torch.no_grad():
            return close(layer(x), reference(layer, x))

    def fwd11():
        layer = make(mod, 4, 1, [0.8], 2)
        x1 = torch.randn(1, 9, 4, dtype=torch.float64)
        with torch.no_grad():
            return close(layer(x1), reference(layer, x1))

    def grad():
        layer = L()
        r = torch.randn(2, 13, 12, dtype=torch.float64)
        xa = x.clone().requires_grad_(True)
        params = [xa] + list(layer.parameters())
        g1 = torch.autograd.grad((layer(xa) * r).sum(), params, allow_unused=True)
        g2 = torch.autograd.grad((reference(layer, xa) * r).sum(), params, allow_unused=True)
        return all(a is not None and close(a, b, 1e-8, 1e-6) for a, b in zip(g1, g2))

    def step():
        layer = L()
        with torch.no_grad():
            return close(steps(layer, x)[0], reference(layer, x))

    def state():
        layer = L()
        with torch.no_grad():
            S, z = steps(layer, x)[1]
            S2, z2 = ref_state(layer, x)
            return close(S, S2) and close(z, z2)

    def step0():
        layer = L()
        st = (torch.zeros(2, 3, 4, 4, dtype=torch.float64), torch.zeros(2, 3, 4, dtype=torch.float64))
        with torch.no_grad():
            return close(steps(layer, x, st)[0], reference(layer, x))

    def step11():
        layer = make(mod, 4, 1, [0.8], 2)
        x1 = torch.randn(1, 9, 4, dtype=torch.float64)
        with torch.no_grad():
            return close(steps(layer, x1)[0], reference(layer, x1))

    def causal():
        layer = L()
        x2 = x.clone()
        x2[:, 5] += 1.0
        with torch.no_grad():
            return close(layer(x)[:, :5], layer(x2)[:, :5], 1e-12, 0) and not close(layer(x)[:, 5], layer(x2)[:, 5])

    def batch():
        layer = L()
        x3 = torch.cat([x[:1], torch.randn(2, 13, 12, dtype=torch.float64)])
        with torch.no_grad():
            return close(layer(x3)[:1], layer(x[:1])) and close(steps(layer, x3)[0][:1], steps(layer, x[:1])[0])

    def long():
        layer = make(mod, 16, 4, [0.05, 0.5, 0.97, 1.0], 7)
        xl = torch.randn(2, 300, 16, dtype=torch.float64)
        with torch.no_grad():
            want = reference(layer, xl)
            ok = close(layer(xl), want, 1e-8, 1e-6) and close(steps(layer, xl)[0], want, 1e-8, 1e-6)
        layer(xl).sum().backward()
        return ok and all(bool(torch.isfinite(p.grad).all()) for p in layer.parameters())

    def carry():
        layer = L()
        with torch.no_grad():
            S, z = ref_state(layer, x[:, :6])
            S0, z0 = S.clone(), z.clone()
            y, _ = steps(layer, x[:, 6:], (S, z))
            return close(y, reference(layer, x)[:, 6:]) and torch.equal(S, S0) and torch.equal(z, z0)

    def init():
        S, z = mod.LinearAttention(24, 3).init_state(5, dtype=torch.float64)
        return S.shape == (5, 3, 8, 8) and z.shape == (5, 3, 8) and not S.any() and not z.any()

    def f32():
        torch.manual_seed(3)
        layer = mod.LinearAttention(32, 4).eval()
        xf = torch.randn(2, 20, 32)
        with torch.no_grad():
            a, b = layer(xf), steps(layer, xf)[0]
        layer.train()
        layer(xf).sum().backward()
        return a.dtype == b.dtype == torch.float32 and bool(torch.allclose(a, b, atol=1e-4, rtol=1e-4))

    for name, fn in [("fwd", fwd), ("fwd11", fwd11), ("grad", grad), ("step", step), ("state", state),
                     ("step0", step0), ("step11", step11), ("causal", causal), ("batch", batch), ("long", long),
                     ("carry", carry), ("init", init), ("f32", f32)]:
        out[name] = probe(fn)
    return out


if __name__ == "__main__":
    cases = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / ATT).exists())
    cols = None
    for case in cases:
        res = run_case(case)
        if cols is None:
            cols = list(res)
            print(f"{'case':42s} " + " ".join(f"{c:>6s}" for c in cols))
        print(f"{case:42s} " + " ".join(f"{res[c]:>6s}" for c in cols), flush=True)
