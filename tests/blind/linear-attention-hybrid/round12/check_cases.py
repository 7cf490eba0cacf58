"""Light float64 probes of every case's attention.py (no grader code): python check_cases.py

Each case's attention.py is loaded on its own (it imports only torch). For every case the script prints
    fwd / step        max |difference| from base's forward / step outputs (B=2, T=9, D=12, H=3, γ=0.6/0.9/0.97)
    state             max |difference| of step's final (S, z) from base's
    grad              max |difference| of forward's gradients (x and every parameter) from base's
    ref               max |difference| of forward from an independent loop reference (same layer, same x)
    causal            max change of outputs 0..3 when token 4 is perturbed (forward)
    longNaN           whether forward's gradients hold NaN/inf at T=300 with γ = 0.05
    B1 / H1           forward+step max |difference| from base at B = 1 / at H = 1
    dtype             dtype of step's returned S under float64
Notebook cases are skipped here (their edits are checked by make_cases.py's anchors).
"""
from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
ATT = "g2c/linear_attention/attention.py"
torch.set_default_dtype(torch.float64)


def load(name):
    spec = importlib.util.spec_from_file_location(f"att_{name}", HERE / name / ATT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def make(mod, D, H, gammas, seed=0):
    torch.manual_seed(seed)
    layer = mod.LinearAttention(D, H).double()
    with torch.no_grad():
        g = torch.tensor(gammas)
        layer.gamma_logit.copy_(torch.log(g) - torch.log1p(-g))
    return layer


def reference(layer, x):
    """Independent float64 loop: y_t = Σ γ^(t-i) (φq_t·φk_i) v_i / Σ γ^(t-i) φq_t·φk_i, per head."""
    B, T, D = x.shape
    H, d = layer.num_heads, layer.head_dim
    phi = lambda a: torch.nn.functional.elu(a) + 1
    q, k, v = phi(layer.q_proj(x)), phi(layer.k_proj(x)), layer.v_proj(x)
    g = torch.sigmoid(layer.gamma_logit)
    y = torch.zeros(B, T, D)
    for b in range(B):
        for h in range(H):
            c = slice(h * d, (h + 1) * d)
            for t in range(T):
                num, den = torch.zeros(d), 0.0
                for i in range(t + 1):
                    w = g[h] ** (t - i) * (q[b, t, c] @ k[b, i, c])
                    num = num + w * v[b, i, c]
                    den = den + w
                y[b, t, c] = num / den
    return layer.out_proj(y)


def run_steps(layer, x):
    state, ys = None, []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, 1), state


def safe(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001
        return f"raises {type(exc).__name__}"


def mdiff(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return a if isinstance(a, str) else b
    d = (a - b).abs()
    return float(d.nan_to_num(float("inf")).max())


def probe(mod, base):
    out = {}
    cfg = (12, 3, [0.6, 0.9, 0.97])
    L, Lb = make(mod, *cfg), make(base, *cfg)
    torch.manual_seed(1)
    x = torch.randn(2, 9, 12)
    yf = safe(lambda: L(x))
    out["fwd"] = mdiff(yf, Lb(x))
    st = safe(lambda: run_steps(L, x))
    sb = run_steps(Lb, x)
    out["step"] = mdiff(st[0], sb[0]) if not isinstance(st, str) else st
    out["state"] = (max(mdiff(st[1][0], sb[1][0]), mdiff(st[1][1], sb[1][1]))
                    if not isinstance(st, str) else st)
    out["dtype"] = str(st[1][0].dtype).replace("torch.", "") if not isinstance(st, str) else "-"

    def grads(layer):
        xx = x.clone().requires_grad_(True)
        layer.zero_grad()
        (layer(xx) * torch.linspace(-1, 1, 12)).sum().backward()
        return torch.cat([xx.grad.flatten()] + [p.grad.flatten() for p in layer.parameters()])

    out["grad"] = mdiff(safe(lambda: grads(L)), grads(Lb))
    out["ref"] = mdiff(yf, reference(L, x)) if not isinstance(yf, str) else yf

    def causal():
        x2 = x.clone()
        x2[:, 4] += 1.0
        return float((L(x2)[:, :4] - L(x)[:, :4]).abs().nan_to_num(float("inf")).max())

    out["causal"] = safe(causal)

    def long_nan():
        Ll = make(mod, 8, 2, [0.05, 0.97])
        torch.manual_seed(2)
        xl = torch.randn(1, 300, 8, requires_grad=True)
        Ll(xl).sum().backward()
        gs = [xl.grad] + [p.grad for p in Ll.parameters()]
        return not all(torch.isfinite(g).all() for g in gs)

    out["longNaN"] = safe(long_nan)

    def at(B, D, H, gam):
        La, Lba = make(mod, D, H, gam), make(base, D, H, gam)
        torch.manual_seed(3)
        xa = torch.randn(B, 6, D)
        return max(mdiff(safe(lambda: La(xa)), Lba(xa)), mdiff(safe(lambda: run_steps(La, xa)[0]), run_steps(Lba, xa)[0]))

    out["B1"] = safe(lambda: at(1, 12, 3, [0.6, 0.9, 0.97]))
    out["H1"] = safe(lambda: at(2, 4, 1, [0.8]))
    return out


def fmt(v):
    if isinstance(v, float):
        return f"{v:9.1e}"
    return f"{str(v):>9}"


def main():
    import yaml
    corpus = yaml.safe_load((HERE / "corpus.yaml").read_text())
    base = load("base")
    names = sys.argv[1:] or [c["name"] for c in corpus if "_nb_" not in c["name"]]
    keys = ["fwd", "step", "state", "grad", "ref", "causal", "longNaN", "B1", "H1", "dtype"]
    print(f"{'case':42s}" + "".join(f"{k:>10}" for k in keys))
    for name in names:
        r = probe(load(name), base)
        print(f"{name:42s}" + "".join(" " + fmt(r[k]) for k in keys), flush=True)


if __name__ == "__main__":
    main()
