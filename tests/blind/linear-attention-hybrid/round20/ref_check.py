"""Float64 probes of every case folder against a naive reference written here from the seeds' math.

    OMP_NUM_THREADS=1 python ref_check.py > probe_results.txt

Reference (per batch row b, head h, positions t, i; φ = elu + 1, γ_h = sigmoid(gamma_logit_h)):
    y_t = Σ_{i≤t} γ^(t-i) (φ(q_t)·φ(k_i)) v_i / Σ_{i≤t} γ^(t-i) (φ(q_t)·φ(k_i))   (explicit double loop)
    S_T = Σ_i γ^(T-1-i) φ(k_i) v_iᵀ,  z_T = Σ_i γ^(T-1-i) φ(k_i)                  (final state, explicit sums)
built with torch ops on the layer's own projections so autograd gives reference gradients.

Columns (max abs differences unless noted; "-" = not applicable, "ERR" = raised):
  fwd      forward vs reference over 7 configs (B 1-3, T 1-33, H 1-4, γ from 0.3 to 1.0, incl. γ = 1 and B = 1)
  grad     gradients of a fixed random projection of forward (x and every parameter) vs the reference's
  step     step outputs (token by token from None) vs reference, same configs
  state    final (S, z) of step vs the explicit sums
  long_f   forward vs reference, T = 300, γ = (0.05, 0.5, 0.97, 1.0)
  long_s   step vs reference on the same input
  causal   max change of outputs < t when token t (t = 0, 5, 11) is perturbed (forward)
  batchF   forward: row of a B = 3 batch vs the same row run alone (B = 1)
  batchS   step: the same
  headF    H = 4 with each head's channels replaced by another head's q/k/v weights permuted: max over heads of
           |head-h output − reference of head h| (a direct per-head probe: 0 means heads are not mixed)
  mutate   1 if step changed the (S, z) it was given, else 0
  f32      1 if forward and step are finite in float32 with the initial decays (T = 64), else 0
Alternatives are also compared with base (max |alt − base| over forward, step and final state, same inputs).
"""
from __future__ import annotations

import importlib
import math
import sys

sys.dont_write_bytecode = True
from pathlib import Path

import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
HERE = Path(__file__).resolve().parent
CONFIGS = [(1, 1, 4, 1, [0.5]), (2, 7, 8, 2, [0.3, 0.95]), (3, 13, 12, 3, [0.6, 0.9, 1.0]),
           (2, 33, 16, 4, [0.8, 0.99, 0.5, 0.7]), (1, 20, 8, 4, [0.4, 0.6, 0.8, 0.999]),
           (3, 9, 6, 1, [0.85]), (2, 17, 12, 2, [1.0, 1.0])]


def load(case):
    for name in [m for m in sys.modules if m == "g2c" or m.startswith("g2c.")]:
        del sys.modules[name]
    sys.path.insert(0, str(HERE / case))
    try:
        return importlib.import_module("g2c.linear_attention")
    finally:
        sys.path.pop(0)


def set_gammas(layer, gammas):
    with torch.no_grad():
        for h, g in enumerate(gammas):
            layer.gamma_logit[h] = 50.0 if g >= 1 else math.log(g) - math.log1p(-g)


def make(mod, D, H, gammas, seed):
    torch.manual_seed(seed)
    layer = mod.LinearAttention(D, H).double()
    set_gammas(layer, gammas)
    return layer


def phi(u):
    return F.elu(u) + 1


def ref_forward(layer, x):
    B, T, D = x.shape
    H, d = layer.num_heads, D // layer.num_heads
    q = phi(layer.q_proj(x)).view(B, T, H, d)
    k = phi(layer.k_proj(x)).view(B, T, H, d)
    v = layer.v_proj(x).view(B, T, H, d)
    g = torch.sigmoid(layer.gamma_logit)
    out = []
    for t in range(T):
        num = 0
        den = 0
        for i in range(t + 1):
            w = g ** (t - i) * (q[:, t] * k[:, i]).sum(-1)  # (B, H)
            num = num + w[..., None] * v[:, i]
            den = den + w[..., None]
        out.append(num / den)
    y = torch.stack(out, 1).reshape(B, T, D)
    return layer.out_proj(y)


def ref_state(layer, x):
    B, T, D = x.shape
    H, d = layer.num_heads, D // layer.num_heads
    k = phi(layer.k_proj(x)).view(B, T, H, d)
    v = layer.v_proj(x).view(B, T, H, d)
    g = torch.sigmoid(layer.gamma_logit)
    S = sum((g ** (T - 1 - i))[None, :, None, None] * k[:, i, :, :, None] * v[:, i, :, None, :] for i in range(T))
    z = sum((g ** (T - 1 - i))[None, :, None] * k[:, i] for i in range(T))
    return S, z


def ref_forward_fast(layer, x):
    """The same formula vectorised over i (used for T = 300 only; the loop version checks it at T = 33)."""
    B, T, D = x.shape
    H, d = layer.num_heads, D // layer.num_heads
    q = phi(layer.q_proj(x)).view(B, T, H, d)
    k = phi(layer.k_proj(x)).view(B, T, H, d)
    v = layer.v_proj(x).view(B, T, H, d)
    g = torch.sigmoid(layer.gamma_logit)
    out = []
    for t in range(T):
        w = g[None, :, None] ** (t - torch.arange(t + 1.0))[None, None, :]  # (1, H, t+1)
        w = w * torch.einsum("bhd,bihd->bhi", q[:, t], k[:, :t + 1])
        out.append(torch.einsum("bhi,bihd->bhd", w, v[:, :t + 1]) / w.sum(-1, keepdim=True))
    return layer.out_proj(torch.stack(out, 1).reshape(B, T, D))


def run_steps(layer, x, state=None):
    ys = []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, 1), state


def mx(a, b):
    d = (a.detach() - b.detach()).abs()
    return float(d.nan_to_num(float("inf")).max()) if d.numel() else 0.0


def probe(mod):
    r = {}
    torch.manual_seed(123)
    xs = [torch.randn(B, T, D) for (B, T, D, H, g) in CONFIGS]
    fwd = grad = stp = st = 0.0
    outs = []
    for seed, ((B, T, D, H, gam), x) in enumerate(zip(CONFIGS, xs)):
        layer = make(mod, D, H, gam, seed)
        want = ref_forward(layer, x)
        got = layer(x)
        fwd = max(fwd, mx(got, want))
        proj = torch.randn(got.shape, generator=torch.Generator().manual_seed(seed))
        xg = x.clone().requires_grad_(True)
        params = [xg] + list(layer.parameters())
        g1 = torch.autograd.grad((layer(xg) * proj).sum(), params, allow_unused=True)
        g2 = torch.autograd.grad((ref_forward(layer, xg) * proj).sum(), params, allow_unused=True)
        grad = max([grad] + [mx(a if a is not None else torch.zeros_like(b), b) for a, b in zip(g1, g2)])
        with torch.no_grad():
            ys, state = run_steps(layer, x)
            stp = max(stp, mx(ys, want))
            S, z = ref_state(layer, x)
            st = max(st, mx(state[0], S), mx(state[1], z))
        outs.append((got.detach(), ys, state))
    r.update(fwd=fwd, grad=grad, step=stp, state=st)
    # long
    layer = make(mod, 16, 4, [0.05, 0.5, 0.97, 1.0], 7)
    x = torch.randn(2, 300, 16, generator=torch.Generator().manual_seed(5))
    with torch.no_grad():
        want = ref_forward_fast(layer, x)
        r["long_f"] = mx(layer(x), want)
        r["long_s"] = mx(run_steps(layer, x)[0], want)
    # causality
    layer = make(mod, 8, 2, [0.9, 1.0], 3)
    x = torch.randn(2, 12, 8, generator=torch.Generator().manual_seed(6))
    c = 0.0
    with torch.no_grad():
        y = layer(x)
        for t in (0, 5, 11):
            x2 = x.clone()
            x2[:, t] += 1.0
            c = max(c, mx(layer(x2)[:, :t], y[:, :t]))
    r["causal"] = c
    # batch isolation
    layer = make(mod, 12, 3, [0.6, 0.9, 0.97], 9)
    x = torch.randn(3, 10, 12, generator=torch.Generator().manual_seed(8))
    with torch.no_grad():
        yf, ys = layer(x), run_steps(layer, x)[0]
        r["batchF"] = max(mx(yf[b:b + 1], layer(x[b:b + 1])) for b in range(3))
        r["batchS"] = max(mx(ys[b:b + 1], run_steps(layer, x[b:b + 1])[0]) for b in range(3))
    # heads: compare head h's channels against the reference of head h alone (identity out_proj)
    layer = make(mod, 16, 4, [0.5, 0.8, 0.9, 0.99], 11)
    with torch.no_grad():
        layer.out_proj.weight.copy_(torch.eye(16))
        layer.out_proj.bias.zero_()
    x = torch.randn(2, 9, 16, generator=torch.Generator().manual_seed(10))
    with torch.no_grad():
        y = layer(x)
        want = ref_forward(layer, x)
        r["headF"] = max(mx(y[..., 4 * h:4 * h + 4], want[..., 4 * h:4 * h + 4]) for h in range(4))
    # mutation of the incoming state
    layer = make(mod, 8, 2, [0.7, 0.9], 12)
    x = torch.randn(2, 5, 8, generator=torch.Generator().manual_seed(13))
    with torch.no_grad():
        _, state = run_steps(layer, x[:, :4])
        before = tuple(s.clone() for s in state)
        layer.step(x[:, 4], state)
        r["mutate"] = int(any(not torch.equal(a, b) for a, b in zip(before, state)))
    # float32 at the initial decays
    torch.manual_seed(14)
    layer = mod.LinearAttention(32, 4).float()
    x = torch.randn(2, 64, 32, dtype=torch.float32)
    with torch.no_grad():
        r["f32"] = int(bool(torch.isfinite(layer(x)).all()) and bool(torch.isfinite(run_steps(layer, x)[0]).all()))
    return r, outs


def main():
    cases = sorted(p.name for p in HERE.iterdir() if (p / "g2c/linear_attention/attention.py").exists())
    cases.remove("base")
    cases.insert(0, "base")
    cols = ["fwd", "grad", "step", "state", "long_f", "long_s", "causal", "batchF", "batchS", "headF", "mutate",
            "f32"]
    print(f"{'case':40s} " + " ".join(f"{c:>8s}" for c in cols) + "   vs_base")
    base_outs = None
    for case in cases:
        mod = load(case)
        try:
            r, outs = probe(mod)
        except Exception as exc:  # noqa: BLE001
            print(f"{case:40s} ERR {type(exc).__name__}: {str(exc)[:100]}")
            continue
        if case == "base":
            base_outs = outs
        vb = max(mx(a, b) for o, p in zip(outs, base_outs) for a, b in
                 [(o[0], p[0]), (o[1], p[1]), (o[2][0], p[2][0]), (o[2][1], p[2][1])])
        cells = [f"{r[c]:8d}" if isinstance(r[c], int) else f"{r[c]:8.1e}" for c in cols]
        print(f"{case:40s} " + " ".join(cells) + f"   {vb:.1e}")


if __name__ == "__main__":
    main()
