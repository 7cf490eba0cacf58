"""Float64 probes of every round-19 case's attention.py against a token-by-token reference written here.

    OMP_NUM_THREADS=1 python ref_check.py > probe_results.txt

Reference: per token, S = γS + φ(k)vᵀ, z = γz + φ(k), y = φ(q)ᵀS / φ(q)ᵀz, with the layer's own projections
(differentiable). Columns, max abs differences ('-' = raised, nan shown as nan):
  fwd/grad   forward and d<forward, R>/d(x, params) vs reference; B=3 T=13 D=12 H=3, γ=(0.3, 0.9, 1.0)
  step/st/gS step outputs, final (S, z), d<step outputs, R>/d(params) vs reference (same input)
  g1         forward at γ = 1 vs reference;  B1: forward and step vs reference with B = 1 (max of both)
  H1         forward and step vs reference with H = 1, B = 1 (max of both)
  long       forward and step, T = 300, γ = (0.05, 0.5, 0.97, 1.0) vs reference (max of both)
  causal     change of forward outputs 0..5 when tokens 6.. change
  vsbase     alternatives only: max over outputs, gradients (forward and step) of |case - base|
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import torch

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
ATT = "g2c/linear_attention/attention.py"
torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


def load(case):
    spec = importlib.util.spec_from_file_location(f"att_{case}", HERE / case / ATT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def make(mod, D, H, gammas, seed=0):
    torch.manual_seed(seed)
    layer = mod.LinearAttention(D, H)
    g = torch.tensor(gammas)
    with torch.no_grad():
        layer.gamma_logit.copy_(torch.where(g >= 1, torch.tensor(50.0), torch.log(g) - torch.log1p(-g)))
    return layer


def reference(layer, x):
    B, T, D = x.shape
    H, d = layer.num_heads, layer.head_dim
    phi = lambda u: torch.nn.functional.elu(u) + 1
    q = phi(layer.q_proj(x)).view(B, T, H, d)
    k = phi(layer.k_proj(x)).view(B, T, H, d)
    v = layer.v_proj(x).view(B, T, H, d)
    gam = torch.sigmoid(layer.gamma_logit)
    ys, Ss, zs = [], [], []
    for b in range(B):
        rows = []
        Sb, zb = [], []
        for h in range(H):
            S = torch.zeros(d, d)
            z = torch.zeros(d)
            out = []
            for t in range(T):
                S = gam[h] * S + torch.outer(k[b, t, h], v[b, t, h])
                z = gam[h] * z + k[b, t, h]
                out.append((q[b, t, h] @ S) / (q[b, t, h] @ z))
            rows.append(torch.stack(out))  # (T, d)
            Sb.append(S)
            zb.append(z)
        ys.append(torch.cat(rows, dim=-1))  # (T, D) heads in contiguous blocks
        Ss.append(torch.stack(Sb))
        zs.append(torch.stack(zb))
    return layer.out_proj(torch.stack(ys)), (torch.stack(Ss), torch.stack(zs))


def steps(layer, x):
    state, ys = None, []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, 1), state


def grads(layer, x, fn, R):
    x = x.clone().requires_grad_(True)
    layer.zero_grad()
    (fn(layer, x) * R).sum().backward()
    return [x.grad] + [p.grad if p.grad is not None else torch.zeros_like(p) for p in layer.parameters()]


def md(a, b):
    return (a - b).abs().max().item()


def nmax(*vals):
    """max that lets nan through (Python's max drops a nan that is not first)."""
    vals = list(vals[0]) if len(vals) == 1 and not isinstance(vals[0], float) else list(vals)
    return float("nan") if any(v != v for v in vals) else max(vals)


def gmd(ga, gb):
    return nmax([md(a, b) for a, b in zip(ga, gb)])


def safe(f):
    try:
        return f"{f():.1e}"
    except Exception as e:  # noqa: BLE001
        return "-"


def probe(case):
    mod = load(case)
    torch.manual_seed(1)
    x = torch.randn(3, 13, 12)
    R = torch.randn(3, 13, 12)
    L = make(mod, 12, 3, [0.3, 0.9, 1.0])
    ref, (Sr, zr) = reference(L, x)
    cols = {}
    cols["fwd"] = safe(lambda: md(L(x), ref))
    cols["grad"] = safe(lambda: gmd(grads(L, x, lambda l, u: l(u), R), grads(L, x, lambda l, u: reference(l, u)[0], R)))
    cols["step"] = safe(lambda: md(steps(L, x)[0], ref))
    cols["st"] = safe(lambda: nmax(md(steps(L, x)[1][0], Sr), md(steps(L, x)[1][1], zr)))
    cols["gS"] = safe(lambda: gmd(grads(L, x, lambda l, u: steps(l, u)[0], R), grads(L, x, lambda l, u: reference(l, u)[0], R)))
    L1 = make(mod, 12, 3, [1.0, 1.0, 1.0])
    cols["g1"] = safe(lambda: md(L1(x), reference(L1, x)[0]))
    x1 = x[:1]
    cols["B1"] = safe(lambda: nmax(md(L(x1), reference(L, x1)[0]), md(steps(L, x1)[0], reference(L, x1)[0])))
    LH = make(mod, 4, 1, [0.8])
    xh = torch.randn(1, 9, 4)
    cols["H1"] = safe(lambda: nmax(md(LH(xh), reference(LH, xh)[0]), md(steps(LH, xh)[0], reference(LH, xh)[0])))
    LL = make(mod, 8, 4, [0.05, 0.5, 0.97, 1.0])
    xl = torch.randn(1, 300, 8)
    rl = reference(LL, xl)[0]
    cols["long"] = safe(lambda: nmax(md(LL(xl), rl), md(steps(LL, xl)[0], rl)))
    x2 = x.clone()
    x2[:, 6:] = torch.randn(3, 7, 12)
    cols["causal"] = safe(lambda: md(L(x)[:, :6], L(x2)[:, :6]))
    if case.startswith("alt") or case == "base":
        bm = load("base")
        Lb = make(bm, 12, 3, [0.3, 0.9, 1.0])
        Lb.load_state_dict(L.state_dict())
        def vs():
            r = [md(L(x), Lb(x)), md(steps(L, x)[0], steps(Lb, x)[0]), md(steps(L, x)[0], L(x)),
                 gmd(grads(L, x, lambda l, u: l(u), R), grads(Lb, x, lambda l, u: l(u), R)),
                 gmd(grads(L, x, lambda l, u: steps(l, u)[0], R), grads(Lb, x, lambda l, u: steps(l, u)[0], R)),
                 md(steps(L, x)[1][0], steps(Lb, x)[1][0]), md(steps(L, x)[1][1], steps(Lb, x)[1][1])]
            return nmax(r)
        cols["vsbase"] = safe(vs)
    return cols


if __name__ == "__main__":
    import yaml
    names = sys.argv[1:] or [e["name"] for e in yaml.safe_load((HERE / "corpus.yaml").read_text())]
    for n in names:
        c = probe(n)
        print(f"{n:42s} " + " ".join(f"{k}={v}" for k, v in c.items()), flush=True)
